"""One rule for inputs in the Python API (issue 31, item 7), checked against the CLI.

Every function that takes an annotation takes a path (``str`` or ``Path``), text
(a ``str`` with a line break) or a file-like object, by one rule
(`synagree.io.sources.as_input`); ``compare(gold, system)`` takes one system as
well as a sequence, and never iterates a stream's lines as systems.  The numbers
are those of ``synagree ... --output json`` run in a subprocess on the same files.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import synagree
from synagree.io.sources import as_input, is_text, one_or_many

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = sorted((ROOT / "synagree" / "data" / "en-sample").glob("*/sample.conllu"))
GOLD = ROOT / "tests" / "data" / "compare" / "bd-gold.conllu"
SYS = ROOT / "tests" / "data" / "compare" / "bd-sys.conllu"


def _cli_json(*args: str) -> dict:
    """``synagree ARGS --output json`` in a subprocess (this checkout first on the path)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-m", "synagree", *args, "-q", "--output", "json"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def agree_cli() -> dict:
    return _cli_json("agree", *map(str, SAMPLE))


@pytest.fixture(scope="module")
def compare_cli() -> dict:
    return _cli_json("compare", str(GOLD), str(SYS))


def _numbers(d: dict, keys=("alpha_plain", "alpha_diff", "alpha_norm", "LAS", "UAS")) -> dict:
    return {k: d[k] for k in keys}


def _system_numbers(d: dict) -> dict:
    s = d["systems"][0]
    return {k: v for k, v in s.items() if isinstance(v, (int, float)) and k != "file"}


def test_agree_texts_give_the_clis_numbers(agree_cli):
    texts = [p.read_text(encoding="utf-8") for p in SAMPLE]
    res = synagree.agree(texts)
    assert res.annotators == ["ann1", "ann2"]
    assert _numbers(res.to_dict()) == _numbers(agree_cli)
    assert _numbers(synagree.agree([Path(p) for p in SAMPLE]).to_dict()) == _numbers(agree_cli)


@pytest.mark.parametrize("gold_of, system_of", [
    pytest.param(lambda p: p.read_text(encoding="utf-8"),
                 lambda p: p.read_text(encoding="utf-8"), id="text, text"),
    pytest.param(lambda p: p, lambda p: p, id="Path, Path"),
    pytest.param(str, str, id="str path, str path"),
    pytest.param(str, lambda p: io.StringIO(p.read_text(encoding="utf-8")), id="StringIO"),
    pytest.param(lambda p: io.BytesIO(p.read_bytes()), lambda p: io.BytesIO(p.read_bytes()),
                 id="BytesIO"),
])
def test_compare_one_system_gives_the_clis_numbers(compare_cli, gold_of, system_of):
    res = synagree.compare(gold_of(GOLD), system_of(SYS))
    assert len(res.systems) == 1  # a stream's lines are not systems
    assert _system_numbers(res.to_dict()) == _system_numbers(compare_cli)


def test_compare_a_sequence_of_systems_still_works(compare_cli):
    res = synagree.compare(GOLD, [SYS, SYS.read_text(encoding="utf-8")], names=["a", "b"])
    assert [s.name for s in res.systems] == ["a", "b"]
    assert res.systems[0].value("LAS") == res.systems[1].value("LAS") == \
        compare_cli["systems"][0]["LAS"]


def test_the_rule():
    assert is_text("1\tx\n") and is_text("(S (NN a))\n") and not is_text("gold.conllu")
    assert not is_text("(draft) gold.conllu")  # a path, whatever its first character
    assert isinstance(as_input("gold.conllu"), Path)
    text = as_input("1\tx\t_\n", "<ann1>")
    assert not isinstance(text, Path) and text.data == "1\tx\t_\n" and text.name == "<ann1>"
    s = io.StringIO("a\nb\n")
    assert one_or_many(s) == [s] and one_or_many("a\nb") == ["a\nb"]
    assert one_or_many(Path("x")) == [Path("x")] and one_or_many(["x", "y"]) == ["x", "y"]
    with pytest.raises(TypeError, match="systems must be a path"):
        one_or_many(5, "systems")
    with pytest.raises(TypeError, match="text .a str with a line break"):
        as_input(3.5)


def test_read_and_tags_take_the_same_inputs():
    text = GOLD.read_text(encoding="utf-8")
    assert len(synagree.read(text)) == len(synagree.read(GOLD)) == \
        len(synagree.read(io.StringIO(text)))
    by_path = synagree.tags(GOLD, SYS).to_dict()
    by_text = synagree.tags(text, io.StringIO(SYS.read_text(encoding="utf-8"))).to_dict()
    assert by_text["accuracy"] == by_path["accuracy"]
