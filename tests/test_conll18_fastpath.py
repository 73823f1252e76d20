"""The CoNLL 2018 reader's fast path (the package's scan) against its line-by-line path.

`synagree.evaluation.conll18.read_treebank` reads a file from the records of
`synagree.io.conllu.scan_chunks` and leaves anything it does not read as
plainly valid to the line-by-line reader (the scorer's strictness, checked
against the official scorer in test_conll18.py).  Here both paths read the
same inputs: valid files (real treebanks, the shared fixtures), hand-made
edge cases and random mutations of a small file; the outcome (the whole
`Treebank`, or the error messages) must be the same, and valid files must
take the fast path.
"""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, List

import pytest

from conftest import SHARED_DATA
from synagree.base.problems import InputError
from synagree.evaluation import conll18
from synagree.evaluation.conll18 import Treebank, read_treebank

UD = SHARED_DATA / "ud"
PARITY = SHARED_DATA / "parity" / "conll18"
needs_shared = pytest.mark.skipif(not PARITY.is_dir() or not UD.is_dir(),
                                  reason=f"shared data not found at {SHARED_DATA}")

_LINKS = ("parent", "functional_children", "edeps")
_SLOTS = [s for s in conll18.Word.__slots__ if s not in _LINKS]


def _key(tb: Treebank) -> Any:
    """Everything a `Treebank` holds, words' links as word indices."""
    def word(w: conll18.Word) -> tuple:
        return tuple(getattr(w, s) for s in _SLOTS) + (
            None if w.parent is None else w.parent.index,
            tuple(x.index for x in w.functional_children),
            tuple((None if h is None else h.index, lab) for h, lab in w.edeps))
    return (tb.name, tb.text, tb.tokens,
            [(s.index, s.sent_id, s.text, s.line, s.start, s.end, s.words)
             for s in tb.sentences], [word(w) for w in tb.words], tb.empty_node_edges)


def _outcome(source: Any, fast: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The treebank's key or the error messages; ``fast=False``: the line-by-line path."""
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(conll18, "_scanned_treebank", lambda name, text: None)
        try:
            return _key(read_treebank(source, name="<f>"))
        except InputError as exc:
            return ("error", [str(p) for p in exc.errors])


def _took_fast_path(text: str) -> bool:
    return conll18._scanned_treebank("<f>", text) is not None


def _same(text: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    slow = _outcome(text, False, monkeypatch)
    assert _outcome(text, True, monkeypatch) == slow
    return slow


ROW = "{}\t{}\t{}\tNOUN\tNN\tNumber=Sing|Foo=Bar\t{}\t{}\t{}\t_"


def _sentence(n: int = 3, sent_id: str = "s1", deps: bool = False) -> str:
    rows = [ROW.format(i, f"w{i}", f"l{i}", 0 if i == 1 else 1,
                       "root" if i == 1 else ("det" if i % 2 else "nmod:poss"),
                       (f"{0 if i == 1 else 1}:{'root' if i == 1 else 'dep'}" if deps else "_"))
            for i in range(1, n + 1)]
    return f"# sent_id = {sent_id}\n# text = x\n" + "\n".join(rows) + "\n"


VALID = _sentence() + "\n" + _sentence(4, "s2", deps=True) + "\n"
MWT = ("# sent_id = m\n1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
       + ROW.format(1, "do", "do", 0, "root", "_") + "\n"
       + ROW.format(2, "n't", "not", 1, "advmod", "_") + "\n"
       + "2.1\tgap\t_\t_\t_\t_\t_\t_\t1:orphan\t_\n"
       + ROW.format(3, "go", "go", 1, "xcomp", "1:xcomp|2.1:nsubj") + "\n\n")

EDGE_CASES = {
    "valid": VALID,
    "multiword token and empty node": MWT + VALID,
    "byte-order mark": "\ufeff" + VALID,
    "CRLF": VALID.replace("\n", "\r\n"),
    "lone CR": VALID.replace("\n", "\r", 3),
    "empty column": VALID.replace("\tl1\t", "\t\t", 1),
    "empty MISC": VALID.replace("\t_\n", "\t\n", 1),
    "whitespace-only line": VALID.replace("\n\n", "\n \n", 1),
    "comment after a word": VALID.replace("\n2\tw2", "\n# late\n2\tw2", 1),
    "two blank lines": VALID.replace("\n\n", "\n\n\n", 1),
    "leading blank line": "\n" + VALID,
    "no final blank line": VALID[:-1],
    "no final newline": VALID[:-2],
    "comment block at the end": VALID + "# trailing\n",
    "only comments": "# just a comment\n\n",
    "empty file": "",
    "cycle": VALID.replace("\t0\troot", "\t2\troot", 1),
    "two roots": VALID.replace("w2\tl2\tNOUN\tNN\tNumber=Sing|Foo=Bar\t1", "w2\tl2\tNOUN\tNN\t"
                               "Number=Sing|Foo=Bar\t0", 1),
    "head out of range": VALID.replace("w3\tl3\tNOUN\tNN\tNumber=Sing|Foo=Bar\t1",
                                       "w3\tl3\tNOUN\tNN\tNumber=Sing|Foo=Bar\t9", 1),
    "head not a number": VALID.replace("w3\tl3\tNOUN\tNN\tNumber=Sing|Foo=Bar\t1",
                                       "w3\tl3\tNOUN\tNN\tNumber=Sing|Foo=Bar\t01", 1),
    "id out of sequence": VALID.replace("\n3\tw3", "\n4\tw3", 1),
    "id zero": VALID.replace("\n1\tw1", "\n0\tw1", 1),
    "space-only form": VALID.replace("\tw2\t", "\t \u00a0\t", 1),
    "form with a space": VALID.replace("\tw2\t", "\tw 2\t", 1),
    "bad DEPS": VALID.replace("1:dep", "x:dep", 1),
    "DEPS head out of range": VALID.replace("1:dep", "9:dep", 1),
    "comment with nine tabs": VALID.replace("# text = x", "# a\tb\tc\td\te\tf\tg\th\ti\tj", 1),
    "multiword overlap": MWT.replace("2.1\tgap", "2-3\tnt\t_\t_\t_\t_\t_\t_\t_\t_\n2.1\tgap")
    + VALID,
    "unfinished multiword token": MWT.replace("1-2\t", "1-3\t") + VALID,
    "ten thousand words": _sentence(4100, "big") + "\n",
}


@pytest.mark.parametrize("case", sorted(EDGE_CASES))
def test_edge_cases_read_as_the_line_by_line_reader_reads_them(case, monkeypatch):
    _same(EDGE_CASES[case], monkeypatch)


def test_valid_inputs_take_the_fast_path():
    for case in ("valid", "multiword token and empty node", "byte-order mark", "CRLF",
                 "form with a space"):
        assert _took_fast_path(EDGE_CASES[case]), case
    for case in ("lone CR", "cycle", "two blank lines", "no final blank line", "bad DEPS",
                 "empty column"):
        assert not _took_fast_path(EDGE_CASES[case]), case


@pytest.mark.slow
def test_chunk_boundaries(monkeypatch):
    """A file longer than a scan chunk (about a million characters), with two blank lines
    and then a cycle placed just past the first chunk's end."""
    sents: List[str] = [_sentence(12, f"s{k}", deps=k % 3 == 0) for k in range(3000)]
    text = "\n".join(sents) + "\n"
    assert len(text) > (1 << 20)
    assert _took_fast_path(text)
    ok = _same(text, monkeypatch)
    assert ok[0] != "error" and len(ok[3]) == 3000
    cut = text.find("\n\n", 1 << 20)
    _same(text[:cut] + "\n" + text[cut:], monkeypatch)  # two blank lines there
    after = text.find("\t0\troot", cut)
    _same(text[:after] + "\t2\troot" + text[after + 7:], monkeypatch)


def test_random_mutations(monkeypatch):
    """Lines deleted, doubled or cut, characters replaced: both paths agree every time."""
    base = MWT + VALID
    rng = random.Random(36)
    pieces = ["\t", "\n", "\r", " ", "#", "0", "-", ".", ":", "_", "\u3000", "x"]
    errors = 0
    for _ in range(300):
        text = base
        for _ in range(rng.randint(1, 3)):
            op = rng.random()
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            if op < 0.3:
                del lines[k]
            elif op < 0.5:
                lines.insert(k, lines[k])
            else:
                line = lines[k]
                at = rng.randrange(len(line) + 1)
                line = line[:at] + rng.choice(pieces) + line[at + (op < 0.8):]
                lines[k] = line
            text = "\n".join(lines)
        errors += _same(text, monkeypatch)[0] == "error"
    assert 30 < errors < 300  # both kinds of outcome were exercised


@needs_shared
@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(str(p) for p in UD.glob("*.conllu"))
                         + sorted(str(p) for p in PARITY.glob("*.conllu")))
def test_shared_files_take_the_fast_path_and_read_the_same(path, monkeypatch):
    text = Path(path).read_text(encoding="utf-8")
    assert _took_fast_path(text)
    assert _same(text, monkeypatch)[0] != "error"


# --------------------------------------------------------------------------- pair_correct

def _metric_flags(alignment: conll18.Alignment) -> Any:
    """Per metric: `pair_correct` field by field, and by comparing the whole keys."""
    by_fields = {n: conll18.pair_correct(alignment, m) for n, m in conll18.METRICS.items()}
    by_keys = {n: conll18.pair_correct(alignment, replace(m, fields=None))
               for n, m in conll18.METRICS.items()}
    return by_fields, by_keys


@needs_shared
def test_pair_correct_by_fields_is_by_keys_on_the_shared_fixtures():
    pairs = [(PARITY / "gold.conllu", p) for p in sorted(PARITY.glob("sys*.conllu"))]
    pairs += [(PARITY / f"{k}-gold.conllu", PARITY / f"{k}-sys.conllu") for k in ("case", "func")]
    assert len(pairs) > 3
    for gold, system in pairs:
        by_fields, by_keys = _metric_flags(conll18.align(gold, system))
        assert by_fields == by_keys, system.name
    assert conll18.METRICS["MLAS"].fields == ("head", "udeprel", "upos", "ufeats",
                                              "functional_children")


@needs_shared
def test_pair_correct_by_fields_is_by_keys_on_a_perturbed_treebank():
    import numpy as np

    from synagree.io.conllu import read_conllu, to_conllu
    from synagree.noise.perturb import label_set, perturb

    sents = read_conllu(UD / "en_ewt-ud-test.conllu")[:600]
    rng = np.random.default_rng(5)
    labels = label_set(sents)
    noisy = []
    for s in sents:
        t = perturb(s, 0.1, 0.1, labels, rng)
        heads = t.heads.copy()
        roots = np.flatnonzero(heads == 0) + 1
        heads[roots[1:] - 1] = roots[0]  # one root, as the scorer demands
        noisy.append(replace(t, heads=heads))
    gold, system = to_conllu(sents), to_conllu(noisy)
    by_fields, by_keys = _metric_flags(conll18.align(gold, system))
    assert by_fields == by_keys
    assert 0 < sum(by_fields["MLAS"]) < sum(by_fields["CLAS"]) < len(by_fields["UAS"])
