"""The fast readers give exactly what the detailed readers gave (issue 24).

The CoNLL-U reader reads most sentences by a fast path (a scan in C, or the
same scan in Python, then checks over a whole chunk at once) and reads any
sentence that fails a check again by the detailed path; the bracket reader
has a fast tokeniser.  Here the readers as they were before
(``tests/reader_baseline.py``, a verbatim copy) and the readers now run over
the same files -- the project's test data, hand-written hostile inputs,
hypothesis-generated hostile files (``tests/fuzzing.py``) and random
mutations of the real treebanks -- and every `Problem` (file, line,
sent_id, kind, severity, message, in order) and every field of every
sentence must be equal.  Both scans run (C where built, and Python), and
small chunk sizes put chunk boundaries everywhere.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import List, Optional

import numpy as np
import pytest
import reader_baseline as old  # tests/reader_baseline.py

from synagree.base.problems import InputError, ProblemLog
from synagree.io import brackets, conllu, native_scan

TESTS = Path(__file__).resolve().parent
SHARED = TESTS.parents[1] / "shared" / "data"

SENTENCE_FIELDS = ("file", "index", "line", "forms", "deprels", "upos", "xpos", "feats",
                   "lemmas", "metadata", "comments", "multiword", "deps")

SCANS = ["python"] + (["c"] if native_scan._scanc is not None else [])


@pytest.fixture(params=SCANS)
def scan(request, monkeypatch):
    """Each scan of the CoNLL-U reader in turn (C only where it is built)."""
    monkeypatch.setenv("SYNAGREE_KERNELS", "numba" if request.param == "python" else "c")
    return request.param


def run_conllu(read, path: Path, strict: bool = False):
    log = ProblemLog(strict=strict)
    try:
        sents: Optional[list] = read(path, log)
    except InputError:
        sents = None
    return sents, list(log.problems)


def assert_same_sentences(a: Optional[list], b: Optional[list]) -> None:
    assert (a is None) == (b is None)
    if a is None:
        return
    assert len(a) == len(b)
    for x, y in zip(a, b):
        for f in SENTENCE_FIELDS:
            assert getattr(x, f) == getattr(y, f), (f, x.index, getattr(x, f), getattr(y, f))
        assert type(x.word_lines) is type(y.word_lines), x.index
        assert list(x.word_lines) == list(y.word_lines), x.index
        assert x.heads.dtype == y.heads.dtype and np.array_equal(x.heads, y.heads), x.index


def assert_same_conllu(path: Path) -> None:
    for strict in (False, True):
        sa, pa = run_conllu(old.old_read_conllu, path, strict)
        sb, pb = run_conllu(conllu.read_conllu, path, strict)
        assert pa == pb, (path, [str(p) for p in pa], [str(p) for p in pb])
        assert_same_sentences(sa, sb)


def assert_same_brackets(path: Path) -> None:
    la, lb = ProblemLog(), ProblemLog()
    ra = old.old_parse_bracket_file(path, la)
    rb = brackets.parse_bracket_file(path, lb)
    assert la.problems == lb.problems, (path, [str(p) for p in la.problems],
                                        [str(p) for p in lb.problems])
    assert ra == rb


# ---------------------------------------------------------------- the project's files

DATA_FILES = sorted(p for p in (TESTS / "data").rglob("*") if p.is_file())
CONLL_FILES = [p for p in DATA_FILES if p.suffix in (".conllu", ".conll")]
BRACKET_FILES = [p for p in DATA_FILES if p.suffix in (".tree", ".mrg", ".ptb")]


@pytest.mark.slow
@pytest.mark.parametrize("chunk", [conllu._CHUNK, 1, 100])
def test_conllu_files_of_the_test_suite(scan, chunk, monkeypatch):
    monkeypatch.setattr(conllu, "_CHUNK", chunk)
    assert CONLL_FILES
    for p in CONLL_FILES:
        assert_same_conllu(p)


def test_bracket_files_of_the_test_suite():
    assert BRACKET_FILES
    for p in BRACKET_FILES:
        assert_same_brackets(p)


# ---------------------------------------------------------------- hand-written hostile input

def row(i, head, rel="dep", form="w", id_=None, **cols):
    c = [str(i) if id_ is None else id_, form, cols.get("lemma", "_"), cols.get("upos", "X"),
         cols.get("xpos", "_"), cols.get("feats", "_"), str(head), rel, cols.get("deps", "_"),
         cols.get("misc", "_")]
    return "\t".join(c)


GOOD = [row(1, 2, "nsubj"), row(2, 0, "root"), row(3, 2, "obj")]
MWT = ["1-2\tdel\t_\t_\t_\t_\t_\t_\t_\t_", row(1, 3, "case"), row(2, 3, "det"),
       row(3, 0, "root"), "3.1\te\t_\t_\t_\t_\t_\t_\t3:dep\t_"]


def text(*blocks, sep="\n\n", end="\n\n"):
    return sep.join("\n".join(b) for b in blocks) + end


HOSTILE = {
    "good": text(["# sent_id = a", "# text = x y z"] + GOOD, GOOD),
    "no final newline": text(GOOD, GOOD, end=""),
    "one final newline": text(GOOD, GOOD, end="\n"),
    "many blank lines": "\n\n\n" + text(GOOD, GOOD, sep="\n\n\n\n") + "\n\n\n",
    "crlf": text(GOOD, GOOD).replace("\n", "\r\n"),
    "crlf mixed": text(GOOD).replace("\n", "\r\n") + text(GOOD),
    "lone cr": text(GOOD, [row(1, 0, "root\r"), row(2, 1)]),
    "double cr": text(GOOD).replace("\n", "\r\r\n"),
    "cr at the end": text(GOOD) + "\r",
    "whitespace-only line between": text(GOOD, [" "], GOOD, sep="\n"),
    "whitespace-only line in a block": "\n".join(GOOD[:2] + ["\t"] + GOOD) + "\n\n",
    "nine tabs only": "\n".join(GOOD + ["\t" * 9] + GOOD) + "\n\n",
    "nbsp line": "\n".join(GOOD + ["\u00a0"] + GOOD) + "\n\n",
    "comment after words": text(GOOD + ["# late = comment"], GOOD),
    "comment between words": text(GOOD[:1] + ["# sent_id = mid"] + GOOD[1:]),
    "comment with nine tabs": text(["#" + "\t" * 9] + GOOD),
    "comments only": text(["# sent_id = only"], GOOD),
    "comment pairs": text(["# sent_id=  s 1 ", "# newpar", "# newdoc id = d", "#  = x",
                           "# key =", "# = ", "#", "# text = a = b", "# \u2028k = v\u3000"]
                          + GOOD),
    "multiword and empty nodes": text(MWT, GOOD, MWT),
    "multiword first": text(["1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_", row(1, 0, "root"), row(2, 1)]),
    "multiword overlap": text(["1-2\tab" + "\t_" * 8, "2-3\tbc" + "\t_" * 8,
                               row(1, 0, "root"), row(2, 1), row(3, 1)]),
    "multiword out of place": text([row(1, 0, "root"), "3-4\tab" + "\t_" * 8, row(2, 1)]),
    "multiword empty form": text(["1-2\t" + "\t_" * 8, row(1, 0, "root"), row(2, 1)]),
    "multiword reversed": text(["2-1\tab" + "\t_" * 8, row(1, 0, "root"), row(2, 1)]),
    "id sequence": text([row(1, 0, "root"), row(3, 1)]),
    "id zero": text([row(0, 0, "root", id_="0"), row(1, 0)]),
    "id leading zero": text([row(1, 0, "root", id_="01")]),
    "id huge": text([row(1, 0, "root", id_="5000")]),
    "id 4095": text([row(k, 1 if k > 1 else 0, "root" if k == 1 else "dep")
                     for k in range(1, 4097)]),
    "id non-ascii": text([row(1, 0, "root", id_="\u0661")]),
    "id empty": text([row(1, 0, "root", id_="")]),
    "empty node only": text(["1.1\te" + "\t_" * 8]),
    "head out of range": text([row(1, 0, "root"), row(2, 3)]),
    "head minus one": text([row(1, 0, "root"), "2\tw\t_\t_\t_\t_\t-1\tdep\t_\t_"]),
    "head leading zero": text([row(1, 0, "root"), "2\tw\t_\t_\t_\t_\t01\tdep\t_\t_"]),
    "head non-ascii": text([row(1, 0, "root"), "2\tw\t_\t_\t_\t_\t\u0661\tdep\t_\t_"]),
    "head underscore": text([row(1, 0, "root"), "2\tw\t_\t_\t_\t_\t_\tdep\t_\t_"]),
    "head huge": text([row(1, 0, "root"), "2\tw\t_\t_\t_\t_\t99999\tdep\t_\t_"]),
    "deprel underscore": text([row(1, 0, "root"), row(2, 1, "_")], GOOD),
    "deprel empty": text([row(1, 0, "root"), row(2, 1, "")], GOOD),
    "cycle": text([row(1, 0, "root"), row(2, 3), row(3, 2), row(4, 3)], GOOD),
    "self loop": text([row(1, 1, "root")], GOOD),
    "long chain": text([row(k, k - 1, "dep") for k in range(1, 300)]),
    "long cycle": text([row(1, 0, "root")] + [row(k, k + 1 if k < 299 else 2)
                                              for k in range(2, 300)]),
    "several roots": text([row(1, 0, "root"), row(2, 0, "root")]),
    "empty columns": text(["1\t\t\t\t\t\t0\troot\t\t", "2\tw\t\t_\t\t\t1\t\t\t"], GOOD),
    "too few columns": text([row(1, 0, "root"), "2\tw\t_"], GOOD),
    "too many columns": text([row(1, 0, "root"), row(2, 1) + "\textra"], GOOD),
    "spaces": text(["1 w _ X _ _ 0 root _ _"], GOOD),
    "one column off either way": text([row(1, 0, "root") + "\t2", "w\t_\t_\t_\t_\t1\tdep\t_\t_"]),
    "line separators": text([row(1, 0, "ro\u2028ot", form="a\x85b"),
                             row(2, 1, "d\x0bep", form="c\x0cd\x1c")]),
    "nul and controls": text([row(1, 0, "root", form="\x00\x1b[31m"), row(2, 1)]),
    "wide characters": text([row(1, 0, "root", form="\U0001f600"), row(2, 1, form="\u3000")],
                            [row(1, 0, "root", form="é")], GOOD),
    "surrogate escapes": text([row(1, 0, "root", form="\ud800")]),
    "conllx": "1\tI\tI\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n2\tran\trun\tVERB\tVBD\t_\t0\tROOT\t_\t_\n",
    "empty": "",
    "only blank": "\n\n \n",
    "bom": "\ufeff" + text(GOOD),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_conllu(name, scan, tmp_path, monkeypatch):
    p = tmp_path / "x.conllu"
    p.write_bytes(HOSTILE[name].encode("utf-8", "surrogatepass"))
    for chunk in (conllu._CHUNK, 1, 7):
        monkeypatch.setattr(conllu, "_CHUNK", chunk)
        assert_same_conllu(p)


def test_undecodable_and_compressed(scan, tmp_path):
    import gzip
    raw = text(GOOD, [row(1, 0, "root"), row(2, 5)]).encode()
    for name, data in [("bad.conllu", raw.replace(b"nsubj", b"ns\xffubj")),
                       ("z.conllu.gz", gzip.compress(raw)), ("t.conllu.gz", raw),
                       ("e.conllu", b"")]:
        p = tmp_path / name
        p.write_bytes(data)
        assert_same_conllu(p)
    assert_same_conllu(tmp_path / "missing.conllu")


# ---------------------------------------------------------------- hypothesis

hypothesis = pytest.importorskip("hypothesis")
import fuzzing  # noqa: E402  (tests/fuzzing.py)
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


@pytest.mark.slow
@FUZZ
@given(pair=fuzzing.conllu_pair(), damage=st.data(), chunk=st.sampled_from([1, 40, 1 << 20]))
def test_fuzzed_conllu(pair, damage, chunk, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fz")
    data = damage.draw(fuzzing.damage_bytes(pair[0].encode("utf-8", "surrogatepass")))
    p = tmp / "f.conllu"
    p.write_bytes(data)
    old_chunk = conllu._CHUNK
    conllu._CHUNK = chunk
    try:
        for kernels in ("numba", "c") if native_scan._scanc is not None else ("numba",):
            with pytest.MonkeyPatch.context() as mp:
                mp.setenv("SYNAGREE_KERNELS", kernels)
                assert_same_conllu(p)
    finally:
        conllu._CHUNK = old_chunk


@pytest.mark.slow
@FUZZ
@given(body=st.one_of(fuzzing.bracket_file(), fuzzing.bracket_soup), damage=st.data())
def test_fuzzed_brackets(body, damage, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fb")
    p = tmp / "t.tree"
    p.write_bytes(damage.draw(fuzzing.damage_bytes(body.encode("utf-8", "surrogatepass"))))
    assert_same_brackets(p)


# ---------------------------------------------------------------- mutated real treebanks

def mutate(lines: List[str], rng: random.Random, k: int) -> List[str]:
    """``k`` random edits of the lines of a real file (the edits of
    tests/fuzzing.py's mutate_lines, without hypothesis)."""
    lines = list(lines)
    odd = ["01", "-1", "0", "1-2", "3-2", "1.1", "_", "", " 1", "\u0661", "4096", "x"]
    for _ in range(k):
        i = rng.randrange(len(lines))
        cols = lines[i].split("\t")
        what = rng.choice(["id", "head", "deprel", "columns-", "columns+", "spaces", "blank",
                           "comment", "dup", "drop", "swap", "mwt", "empty-cell"])
        if what in ("id", "head", "deprel") and len(cols) == 10:
            cols[{"id": 0, "head": 6, "deprel": 7}[what]] = rng.choice(
                odd + ["_", "", "root"] if what == "deprel" else odd + [str(rng.randrange(40))])
            lines[i] = "\t".join(cols)
        elif what == "columns-" and len(cols) > 1:
            lines[i] = "\t".join(cols[:rng.randrange(1, len(cols))])
        elif what == "columns+":
            lines[i] += "\t_" * rng.randrange(1, 3)
        elif what == "spaces":
            lines[i] = lines[i].replace("\t", " ")
        elif what == "blank":
            lines.insert(i, rng.choice(["", " ", "\t" * 9, "\u3000"]))
        elif what == "comment":
            lines.insert(i, rng.choice(["# x = y", "#", "# sent_id = dup", "#\t" * 9]))
        elif what == "dup":
            lines.insert(i, lines[i])
        elif what == "drop":
            del lines[i]
        elif what == "swap":
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif what == "mwt":
            a = rng.randrange(1, 8)
            lines.insert(i, f"{a}-{a + rng.randrange(-1, 3)}\txy" + "\t_" * 8)
        elif what == "empty-cell" and len(cols) == 10:
            cols[rng.randrange(1, 10)] = ""
            lines[i] = "\t".join(cols)
    return lines


REAL = sorted(SHARED.glob("ud/*.conllu")) + sorted(SHARED.glob("iaa/*/*.conll"))


@pytest.mark.slow
@pytest.mark.skipif(not REAL, reason=f"shared reference data not found at {SHARED}")
def test_real_and_mutated_treebanks(scan, tmp_path, monkeypatch):
    rng = random.Random(24)
    for src in REAL:
        assert_same_conllu(src)
        lines = src.read_text(encoding="utf-8").split("\n")[:3000]
        for trial in range(4):
            p = tmp_path / f"{src.stem}-{trial}.conllu"
            p.write_text("\n".join(mutate(lines, rng, rng.choice([1, 5, 40]))),
                         encoding="utf-8")
            monkeypatch.setattr(conllu, "_CHUNK", rng.choice([1, 500, conllu._CHUNK]))
            assert_same_conllu(p)


# ---------------------------------------------------------------- the scans' plumbing

def test_scan_extension_is_built_from_its_sources():
    """pyproject.toml builds _scanc from exactly the files the staleness check compares."""
    tomllib = pytest.importorskip("tomllib")
    from synagree.base import native

    config = tomllib.loads((TESTS.parent / "pyproject.toml").read_text(encoding="utf-8"))
    ext = {e["name"]: e for e in config["tool"]["setuptools"]["ext-modules"]}["synagree.io._scanc"]
    listed = [f.rsplit("/", 1)[1] for f in ext["sources"] + ext.get("depends", [])]
    assert sorted(native_scan.C_SOURCES) == sorted(listed)
    if native_scan._scanc is not None:
        assert native.built_from(native_scan._scanc, native_scan.C_SOURCES)


def test_reading_restores_the_garbage_collector(tmp_path):
    import gc

    p = tmp_path / "bad.conllu"
    p.write_text(text([row(1, 0, "root"), row(2, 9)]), encoding="utf-8")
    assert gc.isenabled()
    with pytest.raises(InputError):
        conllu.read_conllu(p)
    assert gc.isenabled()
    gc.disable()  # a caller's own pause is left alone
    try:
        (tmp_path / "t.tree").write_text("(S (NP D) V)\n", encoding="utf-8")
        assert brackets.read_brackets(tmp_path / "t.tree")[0].size == 2
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_bad_environment_reaches_the_readers_log(tmp_path, monkeypatch):
    """A bad SYNAGREE_KERNELS met while choosing the scan is the file's error
    (read_files collects errors from the log)."""
    p = tmp_path / "a.conllu"
    p.write_text(text(GOOD), encoding="utf-8")
    monkeypatch.setenv("SYNAGREE_KERNELS", "fortran")
    with pytest.raises(InputError) as ei:
        conllu.read_conllu(p)
    assert [e.kind for e in ei.value.errors] == ["bad-environment"]
    log = ProblemLog()
    (tmp_path / "t.tree").write_text("(S V)\n", encoding="utf-8")
    assert brackets.parse_bracket_file(tmp_path / "t.tree", log) is None
    assert [e.kind for e in log.errors] == ["bad-environment"]
