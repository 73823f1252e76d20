"""``--output evalb`` against the compiled EVALB (../shared/oracles/evalb).

EVALB's source (public domain, the 2006 version) is compiled here with
``cc -O2``; the tests skip, saying why, where the source or a C compiler is
missing.  Each case runs EVALB and synagree on the same files and parameter
file and compares standard output line for line (trailing blanks aside),
standard error exactly, and whether EVALB stopped (exit 1 at MAX_ERROR).

* hand-written fixtures for every parameter key and every status;
* random gold/system pairs (tests/evalb_trees.py) under each bundled parameter
  file, through both scorers (the compiled kernel and Python);
* the DEBUG levels on random pairs.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from evalb_trees import random_files

from synagree.evaluation import parseval as pv
from synagree.io.evalb_lines import BracketLines, limit_problems, parse_lines
from synagree.io.evalb_params import load_params
from synagree.render.parseval_evalb import evalb_messages, evalb_report

ORACLE = Path(__file__).resolve().parents[1].parent / "shared" / "oracles" / "evalb"
PRM = {"collins": "COLLINS.prm", "new": "new.prm", "nk": "nk.prm"}
ENGINES = ["python"] + (["c"] if pv._parsevalc is not None else [])


@pytest.fixture(scope="session")
def evalb(tmp_path_factory) -> Path:
    """The compiled EVALB (skips when its source or a C compiler is missing)."""
    src = ORACLE / "evalb.c"
    if not src.is_file():
        pytest.skip(f"EVALB's source not found at {src} (../shared/oracles/evalb beside "
                    f"the project)")
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang) to build EVALB")
    exe = tmp_path_factory.mktemp("evalb") / "evalb"
    subprocess.run([cc, "-O2", "-o", str(exe), str(src)], check=True, capture_output=True)
    return exe


def _split(text: str):
    """Lines as fgets reads them (only \\n ends a line)."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def _lines(b: bytes):
    return [x.rstrip() for x in b.split(b"\n")]


def check(evalb: Path, tmp: Path, gold: str, test: str, prm: Path, engine: str = "python"
          ) -> pv.ParsevalResult:
    """EVALB and synagree on the same input: the same report, messages, stop."""
    g, t = tmp / "gold.txt", tmp / "test.txt"
    g.write_bytes(gold.encode("utf-8"))
    t.write_bytes(test.encode("utf-8"))
    p = subprocess.run([str(evalb), "-p", str(prm), str(g), str(t)], capture_output=True,
                       timeout=60)
    res = pv.parseval(g, t, prm, engine=engine)
    mine = evalb_report(res).encode("utf-8")
    assert _lines(mine) == _lines(p.stdout), (gold, test)
    assert evalb_messages(res).encode("utf-8") == p.stderr
    assert p.returncode == (1 if res.stopped else 0)
    return res


# --------------------------------------------------------------------------- fixtures

COLLINS = (ORACLE / "COLLINS.prm").read_text() if ORACLE.is_dir() else ""
BASE = "MAX_ERROR 100\n"

CASES = {
    # status 0 / 1 / 2 and the summaries
    "identical": (BASE, "(S (NP (DT The) (NN cat)) (VP (VBD sat)))\n" * 2,
                  "(S (NP (DT The) (NN cat)) (VP (VBD sat)))\n" * 2),
    "skip-empty-line": (BASE, "(S (NP (NN a)) (VP (VB b)))\n(S (NN x))\n",
                        "\n(S (NN x))\n"),
    "skip-brackets-only": (BASE + "DELETE_LABEL .\n", "(S (NN a) (. .))\n", "(S (. .))\n"),
    "length-unmatch": (BASE, "(S (NN a) (NN b))\n(S (NN c))\n", "(S (NN a))\n(S (NN c))\n"),
    "words-unmatch": (BASE, "(S (NN a) (NN b))\n", "(S (NN a) (NN c))\n"),
    "all-errors-nan": (BASE, "(S (NN a) (NN b))\n", "(S (NN a))\n"),
    "no-match-nan": (BASE, "(S (NP (NN a) (NN b)) (VP (VB c)))\n",
                     "(X (Y (NN a) (NN b)) (Z (VB c)))\n"),
    "no-brackets": (BASE, "(NN a)\n", "(NN a)\n"),
    "wrappers": (BASE + "DELETE_LABEL TOP\n",
                 "(TOP (S (NP (NN a)) (VP (VB b))))\n( (S (NP (NN a)) (VP (VB b))))\n",
                 "( (S (NP (NN a)) (VP (VB b))))\n(TOP (S (NP (NN a)) (VP (VB b))))\n"),
    "multiset": (BASE, "(S (NP (NP (NN a))) (VP (VB b)))\n(S (NP (NN a)) (VP (VB b)))\n",
                 "(S (NP (NN a)) (VP (VB b)))\n(S (NP (NP (NP (NN a)))) (VP (VB b)))\n"),
    "crossing": (BASE, "(S (A (NN a) (NN b)) (B (NN c) (NN d)) (NN e))\n",
                 "(S (NN a) (X (NN b) (NN c)) (Y (NN d) (NN e)))\n"),
    "tags": (BASE, "(S (NP (DT a) (NN b)) (VP (VB c)))\n", "(S (NP (DT a) (VB b)) (VP (NN c)))\n"),
    # LABELED
    "labeled-0": ("LABELED 0\n", "(S (NP (NN a) (NN b)) (VP (VB c)))\n",
                  "(X (Y (NN a) (NN b)) (Z (VB c)))\n"),
    "labeled-1": ("LABELED 1\n", "(S (NP (NN a) (NN b)) (VP (VB c)))\n",
                  "(S (VP (NN a) (NN b)) (NP (VB c)))\n"),
    # DELETE_LABEL: a preterminal goes with its word, a phrase loses its bracket only
    "delete-preterminal": ("DELETE_LABEL ,\nDELETE_LABEL -NONE-\n",
                           "(S (NP (NN a) (, ,) (NN b)) (VP (VB c) (NP (-NONE- *T*-1))))\n",
                           "(S (NP (NN a) (, ,)) (NN b) (VP (VB c)))\n"),
    "delete-phrase": ("DELETE_LABEL PRN\nDELETE_LABEL TOP\n",
                      "(TOP (S (NP (NN a)) (PRN (VB b) (NN c))))\n",
                      "(TOP (S (NP (NN a)) (VB b) (NN c)))\n"),
    "delete-function-tagged": ("DELETE_LABEL NP\n", "(S (NP-SBJ (NN a)) (VP (VB b)))\n",
                               "(S (NP (NN a)) (VP (VB b)))\n"),
    "delete-via-eq": ("DELETE_LABEL ADVP\nEQ_LABEL ADVP PRT\n",
                      "(S (VP (VB a) (PRT (RP b))))\n", "(S (VP (VB a) (ADVP (RB b))))\n"),
    "delete-terminal-exact": ("DELETE_LABEL NN\nEQ_LABEL NN NNS\n",
                              "(S (NP (NN a) (NNS b)) (VP (VB c)))\n",
                              "(S (NP (NN a) (NNS b)) (VP (VB c)))\n"),
    # DELETE_LABEL_FOR_LENGTH and CUTOFF_LEN
    "length-and-cutoff": ("DELETE_LABEL_FOR_LENGTH -NONE-\nDELETE_LABEL -NONE-\nCUTOFF_LEN 3\n",
                          "(S (NP (-NONE- *)) (NN a) (NN b) (NN c))\n"
                          "(S (NN a) (NN b) (NN c) (NN d))\n(S (NN a))\n",
                          "(S (NN a) (NN b) (NN c))\n(S (NN a) (NN b) (NN c) (NN d))\n"
                          "(S (NN a))\n"),
    "cutoff-0": ("CUTOFF_LEN 0\n", "(S (NN a))\n", "(S (NN a))\n"),
    "cutoff-negative": ("CUTOFF_LEN -1\n", "(S (NN a))\n", "(S (NN a))\n"),
    # EQ_LABEL and EQ_WORD
    "eq-label": ("EQ_LABEL ADVP PRT\n", "(S (VP (VB a) (PRT (RP b))))\n",
                 "(S (VP (VB a) (ADVP (RP b))))\n"),
    "eq-label-tags": ("EQ_LABEL NN NNS\n", "(S (NN a) (NNS b))\n", "(S (NNS a) (NN b))\n"),
    "eq-word": ("EQ_WORD colour color\n", "(S (NN colour) (NN a))\n", "(S (NN color) (NN a))\n"),
    # QUOTE_LABEL: the 2006 length fix, on either side
    "quote-fix-test": ("DELETE_LABEL ''\nDELETE_LABEL ``\nQUOTE_LABEL ''\nQUOTE_LABEL POS\n",
                       "(S (NP (NP (NNS dogs) (POS ')) (NN tail)) (VP (VB wags)))\n",
                       "(S (NP (NNS dogs) ('' ') (NN tail)) (VP (VB wags)))\n"),
    "quote-fix-gold": ("DELETE_LABEL ''\nQUOTE_LABEL ''\nQUOTE_LABEL POS\n",
                       "(S (NP (NNS dogs) ('' ') (NN tail)) (VP (VB wags)))\n",
                       "(S (NP (NP (NNS dogs) (POS ')) (NN tail)) (VP (VB wags)))\n"),
    "quote-fix-two": ("DELETE_LABEL ''\nDELETE_LABEL :\nQUOTE_LABEL ''\nQUOTE_LABEL POS\n"
                      "QUOTE_LABEL CD\nQUOTE_LABEL :\n",
                      "(S (NP (NNS a) (POS ')) (QP (CD 1) (CD /) (CD 2)) (NN \"))\n",
                      "(S (NP (NNS a) ('' ')) (QP (CD 1) (: /) (CD 2)) ('' \"))\n"),
    "quote-fix-fails": ("DELETE_LABEL ''\nQUOTE_LABEL ''\n",
                        "(S (NNS dogs) (POS ') (NN tail))\n", "(S (NNS dogs) ('' ') (NN tail))\n"),
    # MAX_ERROR: EVALB stops at the error after MAX_ERROR + 1 errors, no summary
    "max-error-2": ("MAX_ERROR 2\n", "(S (NN a) (NN b))\n" * 6, "(S (NN a))\n" * 6),
    "max-error-0": ("MAX_ERROR 0\n", "(S (NN a))\n(S (NN a) (NN b))\n" * 3,
                    "(S (NN a))\n(S (NN a))\n" * 3),
    "max-error-negative": ("MAX_ERROR -1\n", "(S (NN a))\n(S (NN a) (NN b))\n",
                           "(S (NN a))\n(S (NN a))\n"),
    # beyond a C int: atoi = (int) strtol: LONG_MAX -> -1, 2^32 -> 0, 2^31 -> INT_MIN
    "max-error-overflow": ("MAX_ERROR 99999999999999999999999\n",
                           "(S (NN a))\n(S (NN a) (NN b))\n" * 3, "(S (NN a))\n(S (NN a))\n" * 3),
    "max-error-2-to-32": ("MAX_ERROR 4294967296\n", "(S (NN a))\n(S (NN a) (NN b))\n" * 3,
                          "(S (NN a))\n(S (NN a))\n" * 3),
    "max-error-2-to-31": ("MAX_ERROR 2147483648\n", "(S (NN a))\n(S (NN a) (NN b))\n",
                          "(S (NN a))\n(S (NN a))\n"),
    "max-error-negative-overflow": ("MAX_ERROR -99999999999999999999999\n",
                                    "(S (NN a))\n(S (NN a) (NN b))\n" * 3,
                                    "(S (NN a))\n(S (NN a))\n" * 3),
    # DEBUG
    "debug-1": ("DEBUG 1\nDELETE_LABEL TOP\nDELETE_LABEL ,\nEQ_LABEL ADVP PRT\n",
                "(TOP (S (NP-SBJ (DT The) (NN café)) (, ,) (VP (VBD sat) (PRT (RP up)))))\n"
                "(S (NN a) (NN b))\n(S (NN a))\n(S (NN a))\n",
                "(TOP (S (NP (DT The) (NN café)) (, ,) (VP (VBD sat) (ADVP (RB up)))))\n"
                "(S (NN a))\n(S (NN a))\n\n"),
    "debug-2": ("DEBUG 2\nDELETE_LABEL TOP\nDELETE_LABEL ''\nQUOTE_LABEL ''\nQUOTE_LABEL POS\n",
                "(TOP (S (NP (NNS dogs) (POS ')) (A (NN x) (NN y)) (B (NN z) (NN w))))\n"
                "(S (NN a) (NN b))\n(S (NP (NN a)) (NN b))\n",
                "(TOP (S (NP (NNS dogs) ('' ')) (NN x) (C (NN y) (NN z)) (NN w)))\n"
                "(S (NN a) (NN c))\n\n"),
    "debug-2-stop": ("DEBUG 2\nMAX_ERROR 0\n", "(S (NN a) (NN b))\n(S (NN a) (NN b))\n",
                     "(S (NN a))\n(S (NN b))\n"),
    # reading: spaces, tabs, CRLF, no final newline, empty words, odd labels
    "whitespace": (BASE, "(S\t(NP  (NN a))\r\v (VP (VB   b) ))\r\n",
                   "(S (NP (NN a))\t(VP (VB b)))\r\n"),
    "no-final-newline": (BASE, "(S (NN a))\n(S (NN b))", "(S (NN a))\n(S (NN b))"),
    "empty-word": (BASE, "(S (NP (NN )) (VB b))\n", "(S (NN ) (VB b))\n"),
    "zero-span": (BASE, "(S (NP) (NN a) (VP (NN b)))\n", "(S () (NN a) (VP (NN b)))\n"),
    "odd-labels": ("DELETE_LABEL -NONE-\n",
                   "(S (-X- (-LRB- -LRB-) (NN a)) (NP=2-SBJ (NN b)) (NP-SBJ (-NONE- *)))\n",
                   "(S (-Y- (-LRB- -LRB-) (NN a)) (NP (NN b)))\n"),
    "several-trees-a-line": (BASE, "(S (NN a)) (S (NN b))\n", "(S (NN a) (NN b))\n"),
    "collins": (COLLINS, "(TOP (S (NP-SBJ (DT The) (NN cat)) (VP (VBD sat) (PRT (RP down)))"
                         " (. .)))\n",
                "(TOP (S (NP (DT The) (NN cat)) (VP (VBD sat) (ADVP (RB down))) (. .)))\n"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_fixture(name, evalb, tmp_path):
    prm_text, gold, test = CASES[name]
    prm = tmp_path / "x.prm"
    prm.write_text(prm_text)
    for engine in ENGINES:
        check(evalb, tmp_path, gold, test, prm, engine)


def test_every_status_and_key_is_exercised(evalb, tmp_path):
    """The fixtures above cover each status, the stop and every key EVALB reads."""
    statuses, stops = set(), 0
    for name, (prm_text, gold, test) in CASES.items():
        prm = tmp_path / "x.prm"
        prm.write_text(prm_text)
        res = pv.parseval(_split(gold), _split(test), prm)
        statuses |= {s.status for s in res.sentences}
        stops += res.stopped is not None
    assert statuses == {0, 1, 2} and stops >= 3
    keys = {line.split()[0] for p, _, _ in CASES.values() for line in p.splitlines()
            if line.strip() and not line.startswith("#")}
    assert keys >= {"DEBUG", "MAX_ERROR", "CUTOFF_LEN", "LABELED", "DELETE_LABEL",
                    "DELETE_LABEL_FOR_LENGTH", "EQ_LABEL", "EQ_WORD", "QUOTE_LABEL"}


# --------------------------------------------------------------------------- random pairs

FILES, LINES = 10, 50  # 500 random pairs per parameter file and scorer


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("prm", sorted(PRM))
def test_random_pairs(prm, engine, evalb, tmp_path):
    compared = stopped = 0
    for seed in range(FILES):
        # one file in four with many errors, so that MAX_ERROR stops EVALB
        gold, test = random_files(1000 * seed + len(prm), LINES,
                                  errors=0.4 if seed % 4 == 3 else 0.03)
        res = check(evalb, tmp_path, gold, test, ORACLE / PRM[prm], engine)
        compared += len(res.sentences) + (res.stopped is not None)
        stopped += res.stopped is not None
    assert compared >= 400  # sentences EVALB scored (it stops early on some files)
    if prm != "nk":  # MAX_ERROR 10000 never stops
        assert stopped >= 1


@pytest.mark.slow
@pytest.mark.parametrize("level", [1, 2])
def test_random_pairs_debug(level, evalb, tmp_path):
    """DEBUG 1 and 2 on random pairs; lines past EVALB's debug buffer are left out
    (EVALB overwrites its stack there)."""
    prm = tmp_path / "debug.prm"
    prm.write_text((ORACLE / "new.prm").read_text().replace("DEBUG 0", f"DEBUG {level}"))
    params = load_params(prm)
    for seed in range(4):
        gold, test = random_files(77 + seed, 40)
        keep = []
        for g, t in zip(gold.splitlines(), test.splitlines()):
            bl = [BracketLines("x", [g]), BracketLines("y", [t])]
            parsed = [parse_lines(b, params, gold=False)[0] for b in bl]
            if not any(limit_problems(b, p, level) for b, p in zip(bl, parsed)):
                keep.append((g, t))
        check(evalb, tmp_path, "".join(g + "\n" for g, _ in keep),
              "".join(t + "\n" for _, t in keep), prm)
