"""One number, one name: ``agree`` (two annotators) and ``compare`` (gold and a system)
give the same ``LAS``, ``LAS_full``, ``UAS``, ``LA`` and ``alpha_plain`` for the same two
files of the same words, under the same JSON keys, as fractions (issue 21)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.conftest import SHARED_DATA

ROOT = Path(__file__).resolve().parents[1]
KEYS = ("LAS", "LAS_full", "UAS", "alpha_plain")
EWT = SHARED_DATA / "ud" / "en_ewt-ud-dev.conllu"
LABELS = ["nsubj", "obj", "obl", "nmod", "amod", "advmod", "nsubj:pass", "obl:tmod",
          "compound", "det", "case", "conj"]


def _both(run_cli, gold: Path, system: Path) -> tuple:
    rc, out, err = run_cli("agree", str(gold), str(system), "--exact", "--output", "json")
    assert rc == 0, err
    agree = json.loads(out)
    rc, out, err = run_cli("compare", str(gold), str(system), "--exact", "--output", "json")
    assert rc == 0, err
    return agree, json.loads(out)["systems"][0]


def _same(agree: dict, system: dict) -> None:
    for key in KEYS:
        assert isinstance(agree[key], float) and 0.0 <= agree[key] <= 1.0, key
        assert agree[key] == pytest.approx(system[key], abs=1e-12), key
    assert agree["LAS"] != agree["LAS_full"]  # the data tells the two apart


def test_bundled_files(run_cli):
    data = ROOT / "tests" / "data" / "compare"
    _same(*_both(run_cli, data / "bd-gold.conllu", data / "bd-sys.conllu"))


def _perturb(text: str, rng: random.Random) -> str:
    """Another annotation of the same words: some words reattached to a head they do not
    dominate (the result stays a tree) and some relations (subtypes among them) changed."""
    out = []
    for block in text.strip().split("\n\n"):
        lines = block.split("\n")
        rows = {int(ln.split("\t", 1)[0]): i for i, ln in enumerate(lines)
                if ln and ln.split("\t", 1)[0].isdigit()}
        head = {k: int(lines[i].split("\t")[6]) for k, i in rows.items()}
        for k, i in rows.items():
            if head[k] != 0 and rng.random() < 0.08:
                def dominated(h: int) -> bool:  # k is on the way from h to the root
                    while h not in (0, k):
                        h = head[h]
                    return h == k
                choices = [h for h in rows if h != k and not dominated(h)]
                if choices:
                    head[k] = rng.choice(choices)
            cols = lines[i].split("\t")
            cols[6] = str(head[k])
            if rng.random() < 0.10 and cols[7] != "root":
                cols[7] = rng.choice(LABELS)
            lines[i] = "\t".join(cols)
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n\n"


@pytest.mark.slow
@pytest.mark.skipif(not EWT.is_file(), reason=f"shared treebank not found at {EWT}")
def test_ewt_dev(run_cli, tmp_path):
    blocks = EWT.read_text(encoding="utf-8").strip().split("\n\n")[:400]
    gold = tmp_path / "gold.conllu"
    gold.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    system = tmp_path / "system.conllu"
    system.write_text(_perturb(gold.read_text(encoding="utf-8"), random.Random(7)),
                      encoding="utf-8")
    _same(*_both(run_cli, gold, system))
