"""``synagree adjudicate`` writes MISC (per attribute) and DEPS (whole cells) by vote.

docs/method.md §31.2.  Small hand-made cases fix the rules (attribute vote,
ties to the earliest annotator, ``Adjudication=`` of the input dropped, the
enhanced graph's presence voted first, DEPS that cannot be written without
empty nodes written ``_`` with a note); on EWT dev, three perturbed copies
that keep the treebank's MISC and DEPS (the perturbation moves heads and
labels only) get back exactly the treebank's MISC and DEPS, and every other
column is what the same run writes from the copies with MISC and DEPS
emptied, byte for byte.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List

import numpy as np
import pytest

from synagree.agreement.adjudicate import adjudicate_corpus
from synagree.cli.main import main
from synagree.io.conllu import DepSentence, read_conllu, to_conllu
from synagree.io.corpus import Corpus
from synagree.noise.perturb import label_set, perturb

EWT_DEV = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ud" / \
    "en_ewt-ud-dev.conllu"


def sent(heads: List[int], rels: str, misc: List[str], deps: List[str]) -> DepSentence:
    return DepSentence.from_heads(heads, rels, misc=misc, deps=deps)


def adjudicate(anns: Dict[str, List[DepSentence]]):
    return adjudicate_corpus(Corpus.from_annotations(anns), progress=False)


def test_misc_by_vote_per_attribute():
    none = ["_", "_"]
    res = adjudicate({
        "a": [sent([2, 0], "nsubj root", ["SpaceAfter=No|X=1", "Gloss=see"], none)],
        "b": [sent([2, 0], "nsubj root", ["SpaceAfter=No|Y=2", "Gloss=saw"], none)],
        "c": [sent([2, 0], "nsubj root", ["SpaceAfter=No", "Gloss=saw|Z=1"], none)]})
    # X, Y and Z: one vote each against two for not having them; Gloss: saw 2, see 1
    assert res.misc[0] == ("SpaceAfter=No", "Gloss=saw")
    assert res.consensus[0].misc == ["SpaceAfter=No", "Gloss=saw"]


def test_misc_ties_go_to_the_earliest_annotator_and_provenance_comes_last():
    none = ["_", "_"]
    res = adjudicate({
        "a": [sent([2, 0], "nsubj root", ["X=1", "_"], none)],
        "b": [sent([0, 1], "root obj", ["_", "Y=2|Adjudication=by:vote;head:0(2)"], none)]})
    m = res.misc[0]
    # X: a 1 against b 1, a tie: a's; b's old provenance is not voted on
    assert m[0].startswith("X=1|Adjudication=by:tie;") and m[1].startswith("Adjudication=by:")
    assert m[1].count("Adjudication=") == 1 and "Y=2" not in m[1]
    rows = [ln.split("\t") for ln in res.to_conllu().splitlines() if ln and ln[0] != "#"]
    assert rows[0][9] == m[0]


def test_unanimous_misc_is_kept_as_written():
    none = ["_", "_"]
    misc = ["SpaceAfter=No|Translit=\u00e9", "_"]
    res = adjudicate({k: [sent([2, 0], "nsubj root", misc, none)] for k in "ab"})
    assert res.misc[0] == tuple(misc)


def test_deps_by_vote():
    a = sent([2, 0, 2], "nsubj root obj", ["_"] * 3, ["2:nsubj", "0:root", "2:obj"])
    b = sent([2, 0, 2], "nsubj root obj", ["_"] * 3, ["2:nsubj|3:nsubj:xsubj", "0:root",
                                                      "2:iobj"])
    c = sent([2, 0, 2], "nsubj root obj", ["_"] * 3, ["2:nsubj", "0:root", "2:iobj"])
    res = adjudicate({"a": [a], "b": [b], "c": [c]})
    assert res.consensus[0].deps == ["2:nsubj", "0:root", "2:iobj"]
    assert [ln.split("\t")[8] for ln in res.to_conllu().splitlines()
            if ln and ln[0] != "#"] == ["2:nsubj", "0:root", "2:iobj"]


def test_deps_presence_is_voted_first():
    none = ["_"] * 2
    with_deps = sent([2, 0], "nsubj root", none, ["2:nsubj", "0:root"])
    without = sent([2, 0], "nsubj root", none, none)
    res = adjudicate({"a": [with_deps], "b": [without], "c": [without]})
    assert res.consensus[0].deps == ["_", "_"]
    res = adjudicate({"a": [without], "b": [with_deps], "c": [with_deps]})
    assert res.consensus[0].deps == ["2:nsubj", "0:root"]


def test_deps_with_empty_nodes_are_written_as_underscore_with_a_note():
    none = ["_"] * 2
    d = sent([2, 0], "nsubj root", none, ["2.1:nsubj", "0:root"])
    res = adjudicate({"a": [d], "b": [d]})
    assert res.consensus[0].deps == ["_", "_"]
    assert any("DEPS written as _ in 1 sentence" in n for n in res.notes)


# --------------------------------------------------------------------------- EWT


def ewt() -> List[DepSentence]:
    if not EWT_DEV.is_file():
        pytest.skip(f"EWT dev not found at {EWT_DEV} (shared reference data)")
    return read_conllu(EWT_DEV)[:300]


def write(path: Path, sents: List[DepSentence], keep: bool) -> None:
    path.write_text(to_conllu(sents, misc=[s.misc for s in sents] if keep else None,
                              deps=[s.deps for s in sents] if keep else None),
                    encoding="utf-8")


PROV = re.compile(r"\|?Adjudication=[^|]*")


def provenance(misc: str) -> str:
    return misc[misc.find("Adjudication="):] if "Adjudication=" in misc else ""


@pytest.mark.slow
def test_ewt_misc_and_deps_come_back_and_the_rest_is_unchanged(tmp_path, capsys):
    gold = ewt()
    labels = label_set(gold)
    kept, bare = [], []
    for k in range(3):
        rng = np.random.default_rng(k)
        copy = [perturb(s, 0.15, 0.15, labels, rng) for s in gold]
        assert all(c.misc == g.misc and c.deps == g.deps for c, g in zip(copy, gold))
        for keep, out in ((True, kept), (False, bare)):
            p = tmp_path / f"{'kept' if keep else 'bare'}{k}.conllu"
            write(p, copy, keep)
            out.append(str(p))
    a, b = tmp_path / "a.conllu", tmp_path / "b.conllu"
    assert main(["adjudicate", *kept, "-o", str(a), "-q"]) == 0
    assert main(["adjudicate", *bare, "-o", str(b), "-q"]) == 0
    capsys.readouterr()
    rows_a = [ln.split("\t") for ln in a.read_text().splitlines() if ln and ln[0] != "#"]
    rows_b = [ln.split("\t") for ln in b.read_text().splitlines() if ln and ln[0] != "#"]
    assert len(rows_a) == len(rows_b) == sum(s.n_words for s in gold)
    assert [r[:8] for r in rows_a] == [r[:8] for r in rows_b]
    # sentences with empty nodes (their DEPS refer to them) are written with DEPS _
    empty = [any("." in item.partition(":")[0] for v in s.deps for item in v.split("|"))
             for s in gold]
    assert 0 < sum(empty) < len(gold) / 10
    assert [r[8] for r in rows_a] == [v if not e else "_" for s, e in zip(gold, empty)
                                      for v in s.deps]
    assert [PROV.sub("", r[9]) or "_" for r in rows_a] == [v for s in gold for v in s.misc]
    # the provenance is the same as without MISC in the input
    assert all(r[9] == "_" or r[9].startswith("Adjudication=") for r in rows_b)
    assert [provenance(r[9]) for r in rows_a] == [provenance(r[9]) for r in rows_b]
    assert sum(v != "_" for s in gold for v in s.misc) > 50
