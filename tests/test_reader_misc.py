"""The CoNLL-U reader keeps MISC: the C scan, the Python scan and the detailed
path give the same column (issue 32: adjudication writes MISC by vote).

Every field of every sentence read with the C scan equals the one read with
the Python scan, MISC included, on the hostile inputs of
tests/test_reader_parity.py, on MISC-specific ones and on the real treebanks;
on clean input MISC equals the tenth column of each word's line as the file
has it (split by hand, ``_`` when empty), chunk boundaries anywhere.
"""
from __future__ import annotations

from pathlib import Path
from typing import List

import pytest
from test_reader_parity import HOSTILE, SCANS, SENTENCE_FIELDS, SHARED, TESTS, row, text

from synagree.base.problems import InputError, ProblemLog
from synagree.io import conllu
from synagree.io.units import join_dependency

FIELDS = SENTENCE_FIELDS + ("misc",)

MISC_CASES = {
    "misc values": text([row(1, 2, "nsubj", misc="SpaceAfter=No"), row(2, 0, "root"),
                         row(3, 2, "obj", misc="Gloss=x|SpaceAfter=No")],
                        [row(1, 0, "root", misc="Translit=\u00e9\U0001f600")]),
    "misc empty at the end of the line": text([row(1, 0, "root", misc=""), row(2, 1)],
                                              [row(1, 0, "root", misc="")], end=""),
    "misc empty, deps empty": text([row(1, 0, "root", deps="", misc=""),
                                    row(2, 1, deps="", misc="A=1")]),
    "misc with multiword and empty nodes": text([
        "1-2\tdel\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No", row(1, 3, "case", misc="M=1"),
        row(2, 3, "det", misc="M=2"), row(3, 0, "root"), "3.1\te\t_\t_\t_\t_\t_\t_\t3:dep\tE=1"]),
    # a block the fast path hands to the detailed path (an empty DEPREL warns)
    "misc in a re-read block": text([row(1, 0, "root", misc="R=1"), row(2, 1, "", misc="R=2")],
                                    [row(1, 0, "root", misc="F=1")]),
    "misc with a cycle": text([row(1, 0, "root"), row(2, 3, misc="C=2"), row(3, 2, misc="C=3")]),
}


def read(path: Path, scan: str, monkeypatch: pytest.MonkeyPatch, chunk: int) -> list:
    monkeypatch.setenv("SYNAGREE_KERNELS", "numba" if scan == "python" else "c")
    monkeypatch.setattr(conllu, "_CHUNK", chunk)
    try:
        return conllu.read_conllu(path, ProblemLog())
    except InputError:
        return []


def raw_misc(path: Path, sents: list) -> List[List[str]]:
    """The tenth column of each word's line, split by hand (the oracle)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [[lines[n - 1].split("\t")[9] or "_" for n in s.word_lines] for s in sents]


def assert_scans_agree(path: Path, monkeypatch: pytest.MonkeyPatch) -> list:
    base = read(path, "python", monkeypatch, conllu._CHUNK)
    for scan in SCANS:
        for chunk in (conllu._CHUNK, 1, 7):
            other = read(path, scan, monkeypatch, chunk)
            assert len(other) == len(base)
            for x, y in zip(base, other):
                for f in FIELDS:
                    assert getattr(x, f) == getattr(y, f), (scan, chunk, f, x.index)
    return base


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_same_misc_in_both_scans(name, tmp_path, monkeypatch):
    p = tmp_path / "x.conllu"
    p.write_bytes(HOSTILE[name].encode("utf-8", "surrogatepass"))
    for s in assert_scans_agree(p, monkeypatch):
        assert len(s.misc) == s.n_words


@pytest.mark.parametrize("name", sorted(MISC_CASES))
def test_misc_as_written(name, tmp_path, monkeypatch):
    p = tmp_path / "x.conllu"
    p.write_text(MISC_CASES[name], encoding="utf-8")
    sents = assert_scans_agree(p, monkeypatch)
    assert sents
    assert [s.misc for s in sents] == raw_misc(p, sents)


def test_misc_values(tmp_path, monkeypatch):
    p = tmp_path / "x.conllu"
    p.write_text(MISC_CASES["misc with multiword and empty nodes"], encoding="utf-8")
    for scan in SCANS:
        (s,) = read(p, scan, monkeypatch, conllu._CHUNK)
        assert s.misc == ["M=1", "M=2", "_"]  # the multiword and empty-node rows are not words


def test_joined_units_keep_misc(tmp_path, monkeypatch):
    p = tmp_path / "x.conllu"
    p.write_text(MISC_CASES["misc values"], encoding="utf-8")
    a, b = read(p, "python", monkeypatch, conllu._CHUNK)
    assert join_dependency([a, b]).misc == a.misc + b.misc


TEST_FILES = sorted(p for p in (TESTS / "data").rglob("*.conllu") if p.is_file())
REAL = sorted(SHARED.glob("ud/*.conllu"))


@pytest.mark.slow
def test_the_test_suites_files(monkeypatch):
    assert TEST_FILES
    for p in TEST_FILES:
        assert_scans_agree(p, monkeypatch)


@pytest.mark.slow
@pytest.mark.skipif(not REAL, reason=f"shared reference data not found at {SHARED}")
def test_real_treebanks_misc_as_written(monkeypatch):
    for p in REAL:
        sents = assert_scans_agree(p, monkeypatch)
        assert [s.misc for s in sents] == raw_misc(p, sents)
        assert any(v != "_" for s in sents for v in s.misc)
