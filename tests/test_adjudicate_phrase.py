"""``synagree adjudicate`` on phrase structure: competence, worklist, decisions (method §31.6).

Oracles: crowd-kit's ``OneCoinDawidSkene`` on the span-choice data built here
by hand (its own span walk, not the project's), and the gold trees the
annotators were made from by `synagree.noise.perturb.perturb_phrase`.  The
small cases fix the tie rule (the earlier annotator's span), the ``tree`` rows
(a majority's span dropped because it crosses heavier spans) and the
worklist order.
"""
from __future__ import annotations

import csv
import json
from typing import Dict, List, Tuple

import numpy as np
import pytest

from synagree.agreement.adjudicate import adjudicate_corpus, write_worklist
from synagree.cli.main import main
from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.corpus import Corpus
from synagree.noise.perturb import perturb_phrase
from synagree.stats.attachment import jaccard_scores


def tree(text: str) -> PhraseSentence:
    """A delexicalised bracketed tree from ``(S (NP D N) V)``."""
    tokens = text.replace("(", " ( ").replace(")", " ) ").split()
    pos = 0

    def node() -> PhraseNode:
        nonlocal pos
        if tokens[pos] == "(":
            label = tokens[pos + 1]
            pos += 2
            kids = []
            while tokens[pos] != ")":
                kids.append(node())
            pos += 1
            return PhraseNode(label, kids)
        pos += 1
        return PhraseNode(tokens[pos - 1])

    return PhraseSentence("-", 0, 1, node(), [], {})


def corpus(*anns: List[str]) -> Corpus:
    return Corpus.from_annotations({f"a{k}": [tree(t) for t in texts]
                                    for k, texts in enumerate(anns)}, kind="phrase")


def test_a_bracket_of_exactly_half_the_weight_is_left_out_as_a_tie():
    res = adjudicate_corpus(corpus(["(S (X a b) c)"], ["(S a (Y b c))"]), progress=False)
    assert res.to_text() == "(S a b c)\n"  # X and Y: one of two votes each
    rows = res.worklist_rows()
    assert [(r["word"], r["reason"], r["form"], r["votes"]) for r in rows] == [
        (1, "tie", "1-2 X", "a0:X a1:-"), (2, "tie", "2-3 Y", "a0:- a1:Y")]
    assert res.decided["decided_by_tie"] == 0  # the kept brackets (S) were voted
    res = adjudicate_corpus(corpus(["(S (X a b) c)"], ["(S a (Y b c))"]),
                            weights="competence", progress=False)
    assert res.to_text().count("(") <= 2  # still one tree, whatever the weights


def test_the_consensus_is_the_majority_tree():
    """Votes for and against: a bracket enters with more than half the weight, so one
    annotator's stray brackets stay out even where they cross nothing (method §31.6)."""
    x, yz = "(S (X a b) c d)", "(S a (Y (Z b c) d))"
    res = adjudicate_corpus(corpus([x], [x], [x], [yz], [yz]), progress=False)
    assert res.to_text() == "(S (X a b) c d)\n"  # X: 3 of 5; Y and Z: 2 of 5 each
    rows = {(r["reason"], r["form"]) for r in res.worklist_rows()}
    assert rows == {("dropped", "2-4 Y"), ("dropped", "2-3 Z")}
    assert res.decided["decided_by_tree"] == 0
    stray = "(S (X a b) (W c d))"  # W crosses nothing, but only one of three gives it
    res = adjudicate_corpus(corpus([x], [x], [stray]), progress=False)
    assert res.to_text() == "(S (X a b) c d)\n"
    assert ("dropped", "3-4 W") in {(r["reason"], r["form"]) for r in res.worklist_rows()}


def test_label_ties_and_minority_leaves():
    res = adjudicate_corpus(corpus(["(S (NP a b) c)"], ["(S (VP a b) d)"]), progress=False)
    assert res.to_text() == "(S (NP a b) c)\n"
    rows = [(r["reason"], r["form"], r["votes"]) for r in res.worklist_rows()]
    assert rows == [("tie", "1-2 NP", "a0:NP a1:VP"), ("tie", "3-3 c", "a0:c a1:d")]


def test_worklist_order_is_by_delta_alpha_then_unit_then_word(tmp_path):
    a = ["(S (X a b) c)", "(S (X a b) (Y c d))", "(S a b)", "(S (X a b) c d)"]
    b = ["(S a (Y b c))", "(S a (Z b c) d)", "(S a b)", "(S a b (V c d))"]
    c = ["(S (X a b) c)", "(S a (Z b c) d)", "(S a b)", "(S a (W b c) d)"]
    res = adjudicate_corpus(corpus(a, b, c), progress=False)
    rows = res.worklist_rows()
    assert rows and len({r["unit"] for r in rows}) >= 2
    units = [u.uid for u in corpus(a).units]
    keys = [(-r["delta_alpha"], units.index(r["unit"]), r["word"]) for r in rows]
    assert keys == sorted(keys)
    path = tmp_path / "w.json"
    write_worklist(res, path)
    assert json.loads(path.read_text())["worklist"] == rows


def test_decisions_choose_an_annotators_tree(tmp_path):
    files = []
    for k, t in enumerate(["(S (X a b) c)", "(S a (Y b c))"]):
        p = tmp_path / f"t{k}.tree"
        p.write_text(t + "\n")
        files.append(str(p))
    out, work = tmp_path / "gold.tree", tmp_path / "work.csv"
    assert main(["adjudicate", *files, "-o", str(out), "--worklist", str(work), "-q"]) == 0
    with open(work, newline="") as f:
        rows = list(csv.DictReader(f))
    rows[0]["choose_annotator"] = "t1"
    with open(work, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    assert main(["adjudicate", *files, "-o", str(out), "--decisions", str(work), "-q"]) == 0
    assert out.read_text() == "(S a (Y b c))\n"


# --------------------------------------------------------------------------- competence

LABELS = ["NP", "VP", "PP", "ADJP", "SBAR", "ADVP"]


def random_tree(rng: np.random.Generator, n: int) -> PhraseNode:
    """A random tree over n leaves (tags T0..T4)."""
    def build(lo: int, hi: int) -> PhraseNode:
        if hi - lo == 1:
            return PhraseNode(f"T{int(rng.integers(5))}")
        k = int(rng.integers(2, min(4, hi - lo) + 1))
        cuts = sorted(rng.choice(np.arange(lo + 1, hi), k - 1, replace=False).tolist())
        bounds = [lo] + cuts + [hi]
        return PhraseNode(str(rng.choice(LABELS)),
                          [build(a, b) for a, b in zip(bounds, bounds[1:])])

    root = build(0, n)
    return PhraseNode("S", root.children) if root.children else root


def spans_of(node: PhraseNode) -> Tuple[Dict[Tuple[int, int], str], int]:
    """Per span of a non-leaf node its labels outermost first, joined by '/'; leaves."""
    out: Dict[Tuple[int, int], List[str]] = {}

    def walk(x: PhraseNode, start: int) -> int:
        if not x.children:
            return start + 1
        end = start
        for c in x.children:
            end = walk(c, end)
        out.setdefault((start, end - 1), []).insert(0, x.label)
        return end

    n = walk(node, 0)
    return {k: "/".join(v) for k, v in out.items()}, n


@pytest.mark.slow
def test_competence_on_spans_ranks_annotators_and_matches_crowdkit():
    crowdkit = pytest.importorskip("crowdkit.aggregation", reason="crowd-kit is the oracle")
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(5)
    gold = [PhraseSentence("-", i, 1, random_tree(rng, int(rng.integers(5, 16))), [], {})
            for i in range(200)]
    noise = (0.45, 0.15, 0.05)  # the noisiest first: equal weights favour it in ties
    anns = {}
    for k, p in enumerate(noise):
        r = np.random.default_rng(100 + k)
        anns[f"ann{k + 1}"] = [perturb_phrase(s, p, p, LABELS, r) for s in gold]
    corp = Corpus.from_annotations(anns, kind="phrase")
    eq = adjudicate_corpus(corp, "equal", progress=False)
    co = adjudicate_corpus(corp, "competence", progress=False)
    skills = co.competence.skills
    assert skills[0] < skills[1] < skills[2]
    assert [s.competence for s in co.scores] == list(skills)

    def score(sents):
        return jaccard_scores([[g, s] for g, s in zip(gold, sents)]).ratio("jaccard")

    assert score(co.consensus) >= score(eq.consensus)
    rows = []
    task = 0
    for k in range(len(gold)):
        given = [spans_of(sents[k].root)[0] for sents in anns.values()]
        for span in sorted({x for g in given for x in g}):
            rows.extend((task, w, g.get(span, "")) for w, g in enumerate(given))
            task += 1
    df = pd.DataFrame(rows, columns=["task", "worker", "label"])
    oracle = crowdkit.OneCoinDawidSkene(n_iter=co.competence.iterations, tol=-np.inf).fit(df)
    assert np.allclose(oracle.skills_.sort_index().to_numpy(), skills, atol=1e-9)


@pytest.mark.slow
def test_the_majority_consensus_beats_annotators_of_equal_skill():
    """Three annotators as noisy as each other (EWT-like perturbation of random trees):
    the consensus is closer to the gold trees than each of them (bracket Jaccard); with
    one much better annotator, competence weights come closer than equal weights and
    equal weights closer than the two noisier annotators."""
    def run(noise):
        rng = np.random.default_rng(5)
        gold = [PhraseSentence("-", i, 1, random_tree(rng, int(rng.integers(5, 16))), [], {})
                for i in range(200)]
        anns = {}
        for k, p in enumerate(noise):
            r = np.random.default_rng(100 + k)  # one stream per annotator
            anns[f"ann{k + 1}"] = [perturb_phrase(s, p, p, LABELS, r) for s in gold]
        corp = Corpus.from_annotations(anns, kind="phrase")

        def score(sents):
            return jaccard_scores([[g, s] for g, s in zip(gold, sents)]).ratio("jaccard")

        return ([score(v) for v in anns.values()],
                score(adjudicate_corpus(corp, "equal", progress=False).consensus),
                score(adjudicate_corpus(corp, "competence", progress=False).consensus))

    each, equal, _ = run((0.2, 0.2, 0.2))
    assert equal > max(each)
    each, equal, competence = run((0.3, 0.3, 0.1))
    assert competence >= equal > sorted(each)[1]
