"""The fast path of ``synagree compare`` on bracketed files (synagree.cli.parseval_fast).

Its output must be the full path's, byte for byte (stdout, stderr, exit status), and
every case it is not certain of must leave the full path to run, having written
nothing.  Each case runs both in-process: ``main`` as the command runs it (the fast
path first) and ``main`` with the fast path switched off (the full path alone); a few
run both through a subprocess (``python -m synagree``; ``SYNAGREE_*`` in the
environment switches the fast path off there).  The files are tests/evalb_trees.py's
random realistic pairs under every bundled parameter file and a hand-written one with
every key; EVALB itself (../shared/oracles/evalb, compiled here) is the oracle of the
``--output evalb`` report.
"""
from __future__ import annotations

import gzip
import io
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest
from evalb_trees import random_files
from test_parseval_oracle import ORACLE, evalb  # noqa: F401  (the compiled EVALB fixture)

from synagree.base import room
from synagree.cli import main as cli_main
from synagree.cli import parseval_fast
from synagree.evaluation import parseval as pv
from synagree.io import registry

ROOT = Path(__file__).resolve().parents[1]
KERNEL = pv._parsevalc is not None and pv._engine("auto", 0, False) == "c"
needs_kernel = pytest.mark.skipif(not KERNEL, reason="the compiled PARSEVAL kernel is not "
                                  "built (or older than its source): the fast path declines")

#: a parameter file with every key EVALB reads (DEBUG 0: the fast path declines DEBUG)
EVERY_KEY = ("DEBUG 0\nMAX_ERROR 1000\nCUTOFF_LEN 12\nLABELED 1\nDELETE_LABEL TOP\n"
             "DELETE_LABEL -NONE-\nDELETE_LABEL ,\nDELETE_LABEL :\nDELETE_LABEL ``\n"
             "DELETE_LABEL ''\nDELETE_LABEL .\nDELETE_LABEL_FOR_LENGTH -NONE-\n"
             "EQ_LABEL ADVP PRT\nEQ_WORD Jones Smith\nQUOTE_LABEL ``\nQUOTE_LABEL ''\n"
             "QUOTE_LABEL POS\n")
UNLABELLED = EVERY_KEY.replace("LABELED 1", "LABELED 0")


def _status(argv: List[str]) -> object:
    try:
        return cli_main.main(list(argv))
    except SystemExit as exc:  # argparse's usage errors and --version, in process
        return exc.code


def full(argv: List[str], capsys, monkeypatch) -> Tuple[object, str, str]:
    """The full path alone (the fast path switched off)."""
    with monkeypatch.context() as m:
        m.setattr(cli_main.parseval_fast, "run", lambda a: None)
        status = _status(argv)
    out, err = capsys.readouterr()
    return status, out, err


def command(argv: List[str], capsys) -> Tuple[object, str, str]:
    """``main`` as the command runs it (the fast path first)."""
    status = _status(argv)
    out, err = capsys.readouterr()
    return status, out, err


def fast(argv: List[str], capsys) -> Tuple[object, str, str]:
    """The fast path alone: its status (None: not handled) and what it wrote."""
    status = parseval_fast.run(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def same(argv: List[str], capsys, monkeypatch, handled: object = True
         ) -> Tuple[object, str, str]:
    """The fast path handles ``argv`` (or not, as ``handled`` says; None: either) and the
    command's bytes equal the full path's."""
    status, out, err = fast(argv, capsys)
    if status is None:
        assert (out, err) == ("", ""), "declined after writing"
    if handled is not None:
        assert (status is not None) == handled, (argv, status)
    got = command(argv, capsys)
    want = full(argv, capsys, monkeypatch)
    assert got == want
    if status is not None:
        assert (status, out, err) == want
    return want


def write_pair(tmp: Path, seed: int, n: int, gold: str = "gold.mrg", test: str = "test.mrg",
               errors: float = 0.03) -> Tuple[str, str]:
    g_text, t_text = random_files(seed, n, errors)
    g, t = tmp / gold, tmp / test
    g.parent.mkdir(parents=True, exist_ok=True)
    t.parent.mkdir(parents=True, exist_ok=True)
    g.write_text(g_text, encoding="utf-8")
    t.write_text(t_text, encoding="utf-8")
    return str(g), str(t)


# --------------------------------------------------------------------------- equal bytes


@needs_kernel
@pytest.mark.parametrize("seed", range(8))
def test_random_files_every_option(seed, tmp_path, capsys, monkeypatch):
    """Random pairs (sizes, error rates, suffixes), every parameter file and output."""
    rng = random.Random(seed)
    suffix = rng.choice(parseval_fast.SUFFIXES)
    g, t = write_pair(tmp_path, seed, rng.choice([1, 7, 40, 150]),
                      gold=f"g{seed}{suffix}", test=f"sys/t{seed}{suffix}",
                      errors=rng.choice([0.0, 0.03, 0.1]))
    (tmp_path / "every.prm").write_text(EVERY_KEY)
    (tmp_path / "unlabelled.prm").write_text(UNLABELLED)
    params = [[], ["--params", "nk"], ["--params=new"], ["--params", "collins"],
              ["--params", str(tmp_path / "every.prm")],
              ["--params", str(tmp_path / "unlabelled.prm")]]
    outputs = [[], ["--output", "table"], ["--output=evalb"], ["--output", "evalb", "-q"],
               ["--quiet"]]
    for p in params:
        for o in outputs:
            # nk and the hand-written files allow every error: always handled; the others
            # stop at MAX_ERROR 10 on the noisier files (then the full path runs)
            handled = True if p[-1:] in (["nk"],) or "prm" in "".join(p) else None
            same(["compare", g, t, *p, *o], capsys, monkeypatch, handled)


@needs_kernel
def test_relative_paths_and_names(tmp_path, capsys, monkeypatch):
    """Names as given (relative, ``..``), the system's base name, a UTF-8 file name."""
    write_pair(tmp_path / "a", 3, 30, gold="gold.tree", test="b/sÿs.brackets")
    monkeypatch.chdir(tmp_path / "a" / "b")
    for o in ([], ["--output", "evalb"]):
        _, out, _ = same(["compare", "../gold.tree", "sÿs.brackets", "--params", "nk", *o],
                         capsys, monkeypatch)
    monkeypatch.chdir(tmp_path)
    _, out, _ = same(["compare", "a/gold.tree", "a/b/sÿs.brackets", "--params", "nk"],
                     capsys, monkeypatch)
    assert out.startswith("gold: a/gold.tree (30 sentences)\n")


@needs_kernel
def test_error_sentences_note_and_messages(tmp_path, capsys, monkeypatch):
    """Length and word errors: the table's note, EVALB's messages on stderr (not with -q)."""
    g, t = tmp_path / "g.mrg", tmp_path / "t.mrg"
    g.write_text("(S (NP (DT a) (NN b)) (VP (VB c)))\n(S (NN x) (VB y))\n(S (NN q))\n")
    t.write_text("(S (NP (DT a) (NN b)) (VP (VB c)))\n(S (NN x) (VB z))\n(S (NN q) (NN r))\n")
    _, out, err = same(["compare", str(g), str(t), "--params", "nk"], capsys, monkeypatch)
    assert "note: error sentences (EVALB status 1" in out and err == ""
    _, out, err = same(["compare", str(g), str(t), "--params", "nk", "--output", "evalb"],
                       capsys, monkeypatch)
    assert err == "2 : Words unmatch (y|z)\n3 : Length unmatch (1|2)\n"
    _, _, err = same(["compare", str(g), str(t), "--params", "nk", "--output", "evalb", "-q"],
                     capsys, monkeypatch)
    assert err == ""


@needs_kernel
def test_bytes_that_are_not_utf8_and_crlf(tmp_path, capsys, monkeypatch):
    """Latin-1 words (not UTF-8: EVALB's report shows them escaped), CRLF line ends, a
    last line without its newline: one character a byte, as EVALB reads them."""
    g, t = tmp_path / "g.mrg", tmp_path / "t.mrg"
    g.write_bytes(b"(S (NP (NN caf\xe9)) (VP (VB x)))\r\n(S (NN a) (NN b))\r\n(S (NN q))")
    t.write_bytes(b"(S (NP (NN caf\xe9) (VP (VB x))))\r\n(S (NN a) (NN c))\r\n(S (NN q))")
    for o in ([], ["--output", "evalb"]):
        _, out, err = same(["compare", str(g), str(t), "--params", "nk", *o], capsys,
                           monkeypatch)
        assert out


@needs_kernel
def test_subprocess_same_bytes(tmp_path):
    """``python -m synagree`` with and without the fast path (SYNAGREE_* turns it off)."""
    g, t = write_pair(tmp_path, 11, 120)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYNAGREE_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    for extra in ([], ["--output", "evalb"], ["--params", "collins", "--output", "evalb"],
                  ["--output", "json"]):
        argv = [sys.executable, "-m", "synagree", "compare", g, t, *extra]
        runs = [subprocess.run(argv, capture_output=True, env={**env, **e}, timeout=120)
                for e in ({}, {"SYNAGREE_FULL_PATH": "1"})]
        assert [(r.returncode, r.stdout, r.stderr) for r in runs[:1]] == \
            [(r.returncode, r.stdout, r.stderr) for r in runs[1:]]
        assert runs[0].stdout
    # standard output in another encoding: the full path writes (or fails) its own way
    for encoding in ("ascii", "latin-1"):
        argv = [sys.executable, "-m", "synagree", "compare", g, t]
        runs = [subprocess.run(argv, capture_output=True, timeout=120,
                               env={**env, **e, "PYTHONIOENCODING": encoding})
                for e in ({}, {"SYNAGREE_FULL_PATH": "1"})]
        assert (runs[0].returncode, runs[0].stdout, runs[0].stderr) == \
            (runs[1].returncode, runs[1].stdout, runs[1].stderr)


# --------------------------------------------------------------------------- fallbacks


@needs_kernel
@pytest.mark.parametrize("extra", [
    ["--alpha"], ["--names", "X"], ["-v"], ["--top", "3"], ["--output", "json"],
    ["--output", "csv"], ["--par", "nk"], ["--params", "nk", "--params", "nk"],
    ["--params"], ["--params="], ["-qv"], ["--quiet", "-q"], ["--breakdown"],
    ["--output", "evalb", "--output", "table"], ["--", "x"], ["--max-memory", "1G"],
    ["--format", "ptb"], ["--bootstrap", "10"], ["--output", "EVALB"],
])
def test_unknown_options_fall_back(extra, tmp_path, capsys, monkeypatch):
    g, t = write_pair(tmp_path, 5, 20)
    same(["compare", g, t, *extra], capsys, monkeypatch, handled=False)


@needs_kernel
def test_other_commands_and_orders_fall_back(tmp_path, capsys, monkeypatch):
    g, t = write_pair(tmp_path, 5, 20)
    for argv in (["compare", "--params", "nk", g, t], ["compare", g], ["compare", g, t, t],
                 ["--version"], ["agree", g, t], ["compare", g, "--output", "evalb", t],
                 ["compare", "-", t], ["compare", f"{tmp_path}//gold.mrg", t],
                 ["compare", g, f"{tmp_path}/./test.mrg"]):
        same(argv, capsys, monkeypatch, handled=False)


LINES = {
    "unbalanced": "(S (NN a)\n",
    "stray text": "(S (NN a)) junk\n",
    "no words": "(S )\n",
    "closing first": ")(S (NN a))\n",
}


@needs_kernel
@pytest.mark.parametrize("case", sorted(LINES))
def test_bad_lines_fall_back(case, tmp_path, capsys, monkeypatch):
    """A line the compiled kernel declines: the full path's problems and exit 2."""
    g, t = write_pair(tmp_path, 2, 10)
    for which in (g, t):
        text = Path(which).read_text()
        Path(which).write_text(text + LINES[case])
        other = t if which == g else g
        Path(other).write_text(Path(other).read_text() + "(S (NN a))\n")
        # a line without words is EVALB's (the kernel scores it as EVALB does)
        same(["compare", g, t, "--params", "nk"], capsys, monkeypatch,
             handled=None if case == "no words" else False)
        write_pair(tmp_path, 2, 10)


@needs_kernel
def test_bad_files_fall_back(tmp_path, capsys, monkeypatch):
    """Missing, a folder, empty, compressed, another suffix, trees over lines, a BOM,
    leading blanks, different line counts, a comment line: the full path decides."""
    g, t = write_pair(tmp_path, 4, 15)
    text = Path(t).read_text()
    cases = {
        "missing.mrg": None,
        "folder.mrg": "dir",
        "empty.mrg": "",
        "zipped.mrg.gz": gzip.compress(text.encode()),
        "gzip-named.mrg": gzip.compress(text.encode()),
        "other.txt": text,
        "other.conllu": text,
        "multi.mrg": text.replace(") (", ")\n  (", 3),
        "bom.mrg": "\ufeff" + text,
        "blank.mrg": " " + text,
        "short.mrg": "".join(text.splitlines(True)[:-1]),
        "comment.mrg": text + "#BOS 1\n",
        ".mrg": text,
    }
    for name, content in cases.items():
        path = tmp_path / "cases" / name
        path.parent.mkdir(exist_ok=True)
        if content == "dir":
            path.mkdir()
        elif isinstance(content, bytes):
            path.write_bytes(content)
        elif content is not None:
            path.write_text(content, encoding="utf-8")
        for argv in (["compare", g, str(path), "--params", "nk"],
                     ["compare", str(path), t, "--params", "nk", "--output", "evalb"]):
            same(argv, capsys, monkeypatch, handled=False)


@needs_kernel
def test_params_problems_fall_back(tmp_path, capsys, monkeypatch):
    g, t = write_pair(tmp_path, 6, 30, errors=0.1)
    bad = {"unknown.prm": "COLOUR 1\n", "debug.prm": "DEBUG 1\nMAX_ERROR 100\n",
           "debug2.prm": "DEBUG 2\n", "value.prm": "MAX_ERROR ten\n",
           "long.prm": "DELETE_LABEL " + "X" * 600 + "\n", "low.prm": "MAX_ERROR 0\n",
           "negative.prm": "MAX_ERROR -3\n"}
    for name, text in bad.items():
        (tmp_path / name).write_text(text)
        same(["compare", g, t, "--params", str(tmp_path / name)], capsys, monkeypatch,
             handled=False)
    for spec in (str(tmp_path / "missing.prm"), str(tmp_path), "nk.prm"):
        same(["compare", g, t, "--params", spec], capsys, monkeypatch, handled=False)


@needs_kernel
def test_max_error_stop_falls_back(tmp_path, capsys, monkeypatch):
    """More error sentences than MAX_ERROR: EVALB stops (exit 1), the full path says it."""
    g, t = write_pair(tmp_path, 8, 300, errors=0.2)
    status, _, err = same(["compare", g, t, "--params", "collins", "--output", "evalb"],
                          capsys, monkeypatch, handled=False)
    assert status == 1 and "MAX_ERROR" in err


@needs_kernel
def test_environment_terminal_and_stale_kernel_fall_back(tmp_path, capsys, monkeypatch):
    g, t = write_pair(tmp_path, 9, 20)
    argv = ["compare", g, t, "--params", "nk"]
    with monkeypatch.context() as m:
        m.setenv("SYNAGREE_PARSEVAL", "python")
        same(argv, capsys, monkeypatch, handled=False)
    with monkeypatch.context() as m:  # a table fitted to a terminal: the full path
        m.setattr(sys.stdout, "isatty", lambda: True, raising=False)
        assert parseval_fast.run(argv) is None
        assert parseval_fast.run(argv + ["--output", "evalb"]) == 0
    capsys.readouterr()
    with monkeypatch.context() as m:  # a digest of the sources to compare: the full path
        m.setattr(pv._parsevalc, "SOURCE_SHA256", "0" * 64, raising=False)
        assert parseval_fast.run(argv) is None
    with monkeypatch.context() as m:  # an unexpected failure: the full path says what
        m.setattr(parseval_fast, "_render", lambda *a: 1 / 0)
        assert parseval_fast.run(argv) is None
    with monkeypatch.context() as m:  # standard output not UTF-8
        m.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
        assert parseval_fast.run(argv) is None
    with monkeypatch.context() as m:  # a reading budget below the file
        m.setattr(room, "READ_FLOOR", 10)
        m.setattr(parseval_fast, "_budget", lambda: 10)
        assert parseval_fast.run(argv) is None
    assert capsys.readouterr() == ("", "")


def test_parameter_digest_is_hashlib_sha256():
    """The parameter file's SHA-256 (read without hashlib on the fast path) is hashlib's."""
    from hashlib import sha256

    from synagree.io.evalb_text import read_settings

    for data in (b"", b"MAX_ERROR 10\n", bytes(range(256)) * 3):
        assert read_settings(data, lambda no, msg: None)["sha256"] == sha256(data).hexdigest()


def test_suffixes_are_the_registry_bracketed_ones():
    """The suffixes the registry settles as bracketed trees by the name alone."""
    bracketed = {s for f in registry.formats() if f.bracketed for s in f.suffixes}
    others = {s for f in registry.formats() if not f.bracketed for s in f.suffixes}
    assert set(parseval_fast.SUFFIXES) == bracketed and not bracketed & others


# --------------------------------------------------------------------------- imports, oracle


@needs_kernel
def test_imports_only_what_it_needs(tmp_path):
    """A fast run loads no argparse, dataclasses, typing, pathlib nor numpy (no site:
    the project's editable install loads some of them itself)."""
    g, t = write_pair(tmp_path, 1, 20)
    code = ("import sys\nfrom synagree.cli.main import main\n"
            f"status = main(['compare', {g!r}, {t!r}, '--params', 'nk'])\n"
            "heavy = [m for m in ('argparse', 'dataclasses', 'typing', 'pathlib', 'numpy',"
            " 'synagree.cli.session', 'synagree.evaluation.parseval') if m in sys.modules]\n"
            "print(status, heavy, file=sys.stderr)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYNAGREE_")}
    env["PYTHONPATH"] = str(ROOT)
    p = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, env=env,
                       timeout=60)
    assert p.stderr.decode().splitlines()[-1] == "0 []", p.stderr.decode()[-2000:]
    assert p.stdout.startswith(b"gold: ")


@needs_kernel
@pytest.mark.parametrize("prm", ["COLLINS.prm", "new.prm", "nk.prm"])
def test_evalb_oracle(prm, evalb, tmp_path, capsys):  # noqa: F811  (the fixture)
    """The fast path's ``--output evalb`` is EVALB's report and messages, on random pairs."""
    compared = 0
    for seed, n in ((21, 40), (22, 60), (23, 300)):
        g, t = write_pair(tmp_path, seed, n, errors=0.02)
        p = subprocess.run([str(evalb), "-p", str(ORACLE / prm), g, t], capture_output=True,
                           timeout=60)
        status, out, err = fast(["compare", g, t, "--params", str(ORACLE / prm),
                                 "--output", "evalb"], capsys)
        if p.returncode == 1:  # EVALB stopped at MAX_ERROR: the fast path leaves it
            assert status is None
            continue
        if status is None:  # more errors than MAX_ERROR, not yet EVALB's stop: declined
            assert prm != "nk.prm" and p.stderr.count(b"\n") > 10
            continue
        assert status == 0
        assert [x.rstrip() for x in out.encode().split(b"\n")] == \
            [x.rstrip() for x in p.stdout.split(b"\n")]
        assert err.encode() == p.stderr
        compared += 1
    assert compared >= (3 if prm == "nk.prm" else 1)
