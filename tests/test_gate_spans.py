"""GATE's strict/lenient/average span measures and BDM-based counts (docs/method.md §23.3, §24).

synagree.stats.gate_prf is checked against a line-by-line transliteration of GATE's
``AnnotationDiffer.calculateDiff`` (pairings as objects in lists, Java's stable sort
reversed, ``consume``/``remove``) and of the IAA plugin's ``computeFNumbersBDM``,
written here without synagree; and ``synagree spans`` against worked examples.
"""
from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import List, Optional, Tuple

import pytest

from synagree.base.problems import InputError
from synagree.cli.main import main
from synagree.evaluation.spans import span_agreement
from synagree.stats.gate_prf import BDMCounts, DiffCounts, SpanAnnotation, annotation_diff, bdm_diff

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "spans"


# ------------------------------------------------------------------ GATE, transliterated
class Pairing:
    def __init__(self, key: int, resp: int, value: int):
        self.key, self.resp, self.value = key, resp, value
        self.score: Optional[int] = None


def gate_annotation_differ(keys: List[Tuple[int, int, str]], resps: List[Tuple[int, int, str]],
                           significant: bool) -> Tuple[int, int, int, int]:
    """(correct, partial, missing, spurious) as GATE's AnnotationDiffer computes them."""
    def coextensive(a, b):
        return a[0] == b[0] and a[1] == b[1]

    def overlaps(a, b):
        return not (b[1] <= a[0] or b[0] >= a[1])

    def compatible(a, b):
        return (not significant) or a[2] == b[2]

    key_choices: List[Optional[List[Pairing]]] = [None] * len(keys)
    resp_choices: List[Optional[List[Pairing]]] = [None] * len(resps)
    possible: List[Pairing] = []
    for i, k in enumerate(keys):
        for j, r in enumerate(resps):
            choice = None
            if coextensive(k, r):
                choice = Pairing(i, j, 3 if compatible(k, r) else 1)
            elif overlaps(k, r):
                choice = Pairing(i, j, 2 if compatible(k, r) else 0)
            if choice is not None:
                if key_choices[i] is None:
                    key_choices[i] = []
                key_choices[i].append(choice)
                if resp_choices[j] is None:
                    resp_choices[j] = []
                resp_choices[j].append(choice)
                possible.append(choice)

    def score(p: Pairing) -> int:
        if p.score is None:
            conflict = {id(x): x for x in resp_choices[p.resp] + key_choices[p.key]}
            conflict.pop(id(p))
            p.score = p.value - sum(x.value for x in conflict.values())
        return p.score

    def compare(a: Pairing, b: Pairing) -> int:
        return score(a) - score(b)  # types are all 0 and every pairing is complete here

    possible.sort(key=functools.cmp_to_key(compare))  # stable, as Java's merge sort
    possible.reverse()
    correct = partial = missing = spurious = 0

    def remove_from(lst: List[Pairing], p: Pairing) -> None:
        for n, x in enumerate(lst):
            if x is p:
                del lst[n]
                return

    while possible:
        best = possible.pop(0)
        same_key = key_choices[best.key]
        remove_from(same_key, best)
        possible = [x for x in possible if not any(x is y for y in same_key)]
        same_resp = resp_choices[best.resp]
        remove_from(same_resp, best)
        possible = [x for x in possible if not any(x is y for y in same_resp)]
        for item in list(same_key):
            remove_from(key_choices[item.key], item)
            remove_from(resp_choices[item.resp], item)
        for item in list(same_resp):
            remove_from(key_choices[item.key], item)
            remove_from(resp_choices[item.resp], item)
        same_key.append(best)
        same_resp.append(best)
        if best.value == 3:
            correct += 1
        elif best.value == 2:
            partial += 1
        else:
            missing += 1
            spurious += 1
    missing += sum(1 for lst in key_choices if not lst)
    spurious += sum(1 for lst in resp_choices if not lst)
    return correct, partial, missing, spurious


def gate_bdm_numbers(keys, resps, bdm) -> Tuple[float, float, int, int, int]:
    """IaaMain.computeFNumbersBDM: (correct, partial, missing, spurious, n)."""
    match_key, match_res = set(), set()
    f = [0.0, 0.0, 0, 0, 0]
    for i, k in enumerate(keys):
        for j, r in enumerate(resps):
            if j in match_res:
                continue
            if k[0] == r[0] and k[1] == r[1]:
                v = bdm(k[2], r[2])
                if v < 0:
                    v = 0
                f[0] += v
                if v > 0:
                    match_res.add(j)
                    match_key.add(i)
                    f[4] += 1
            elif not (r[1] <= k[0] or r[0] >= k[1]):
                v = bdm(k[2], r[2])
                f[1] += v
                if v > 0:
                    match_res.add(j)
                    match_key.add(i)
                    f[4] += 1
    f[2] = len(keys) - len(match_key)
    f[3] = len(resps) - len(match_res)
    return tuple(f)  # type: ignore[return-value]


def random_spans(rng: random.Random, n: int, width: int, labels: str) -> List[Tuple[int, int, str]]:
    out = []
    for _ in range(n):
        a = rng.randrange(width)
        b = rng.randrange(a + 1, min(width, a + 4) + 1)
        out.append((a, b, rng.choice(labels)))
    return out


def as_spans(xs):
    return [SpanAnnotation(a, b, lab) for a, b, lab in xs]


@pytest.mark.parametrize("seed", range(60))
def test_annotation_diff_against_gate(seed):
    rng = random.Random(seed)
    width = rng.randrange(3, 12)
    keys = random_spans(rng, rng.randrange(0, 9), width, "AB")
    resps = random_spans(rng, rng.randrange(0, 9), width, "AB")
    # feature: one type, the label significant; none: spans only
    for mode, significant in (("feature", True), ("none", False)):
        d = annotation_diff(as_spans(keys), as_spans(resps), mode)
        assert (d.correct, d.partial, d.missing, d.spurious) == gate_annotation_differ(
            keys, resps, significant)
        assert (d.keys, d.responses) == (len(keys), len(resps))
    # type: GATE run once per label, the counts summed
    total = [0, 0, 0, 0]
    for lab in "AB":
        got = gate_annotation_differ([k for k in keys if k[2] == lab],
                                     [r for r in resps if r[2] == lab], False)
        total = [t + g for t, g in zip(total, got)]
    d = annotation_diff(as_spans(keys), as_spans(resps), "type")
    assert [d.correct, d.partial, d.missing, d.spurious] == total


@pytest.mark.parametrize("seed", range(40))
def test_bdm_diff_against_gate(seed):
    rng = random.Random(1000 + seed)
    width = rng.randrange(3, 10)
    keys = random_spans(rng, rng.randrange(0, 8), width, "ABC")
    resps = random_spans(rng, rng.randrange(0, 8), width, "ABC")
    table = {("A", "B"): 0.5, ("B", "A"): 0.5, ("A", "C"): 0.0, ("C", "A"): 0.0,
             ("B", "C"): 0.25, ("C", "B"): 0.25}

    def bdm(a, b):
        return 1.0 if a == b else table[(a, b)]

    got = bdm_diff(as_spans(keys), as_spans(resps), bdm)
    c, p, m, s, n = gate_bdm_numbers(keys, resps, bdm)
    assert (got.correct, got.partial, got.missing, got.spurious, got.matches) == \
        pytest.approx((c, p, m, s, n))


def test_measures_follow_gate_formulas():
    d = DiffCounts(correct=3, partial=1, missing=1, spurious=2, keys=5, responses=6)
    assert d.precision("strict") == 3 / 6 and d.recall("strict") == 3 / 5
    assert d.precision("lenient") == 4 / 6 and d.recall("lenient") == 4 / 5
    assert d.precision("average") == (3 / 6 + 4 / 6) / 2
    fs, fl = 2 * (3 / 6) * (3 / 5) / (3 / 6 + 3 / 5), 2 * (4 / 6) * (4 / 5) / (4 / 6 + 4 / 5)
    assert d.f1("average") == pytest.approx((fs + fl) / 2)
    empty = DiffCounts()
    assert empty.precision() == 1.0 and empty.recall() == 1.0  # GATE's convention
    assert DiffCounts(0, 0, 2, 2, keys=2, responses=2).f1() == 0.0
    b = BDMCounts(correct=1.5, partial=0.5, missing=1, spurious=2, matches=3)
    assert b.precision() == 1.5 / 5 and b.recall() == 1.5 / 4
    assert b.precision("lenient") == 2.0 / 5
    assert BDMCounts(correct=0.0, missing=2, spurious=1).precision() == 0.0


# ------------------------------------------------------------------ the worked examples
def test_constituents_worked_example():
    # docs/spans.md: gold (S (NP D N) (VP V (NP D N) (PP P (NP N)))) against
    # system (S (NP D N) (VP V (NP D N)) (PP P (NP N)))
    r = span_agreement([DATA / "gold.tree", DATA / "system.tree"], phrase_style="delex")
    c = r.overall
    # S, the three NPs and the PP correct; VP [2,7) vs [2,5) partial
    assert (c.correct, c.partial, c.missing, c.spurious) == (5, 1, 0, 0)
    assert (c.keys, c.responses) == (6, 6)
    assert c.f1("strict") == pytest.approx(5 / 6)
    assert c.f1("lenient") == 1.0
    assert c.f1("average") == pytest.approx((5 / 6 + 1) / 2)
    assert r.pairs[0].per_label["VP"].partial == 1
    # feature mode agrees here; spans only as well
    f = span_agreement([DATA / "gold.tree", DATA / "system.tree"], labels="feature",
                       phrase_style="delex").overall
    assert (f.correct, f.partial) == (5, 1)


def test_bdm_span_counts_with_a_hierarchy():
    r = span_agreement([DATA / "gold.tree", DATA / "system2.tree"], phrase_style="delex",
                       hierarchy=DATA / "phrases.txt", bdm=True)
    b = r.pairs[0].bdm
    # system2 labels the PP an AdvP: same span, BDM(PP, AdvP) from the hierarchy
    from synagree.trees.gate_bdm import ConceptGraph, GateBDM
    pp_advp = GateBDM(ConceptGraph.from_file(DATA / "phrases.txt")).bdm("PP", "AdvP")
    assert 0 < pp_advp < 1
    assert b.correct == pytest.approx(4 + pp_advp)  # S, NP, NP, NP exact; PP/AdvP
    assert b.partial == pytest.approx(1.0)  # the VP of another span
    assert (b.matches, b.missing, b.spurious) == (6, 0, 0)


def test_conllu_words_with_different_tokenisation():
    r = span_agreement([DATA / "gold.conllu", DATA / "system.conllu"], layer="upos")
    c = r.overall
    # "can't" is one word in gold, two in the system ("ca", "n't"): a partial match
    # for the AUX, a spurious PART; the other words are coextensive
    assert (c.correct, c.partial, c.missing, c.spurious) == (4, 1, 0, 1)
    assert c.f1("strict") < c.f1("lenient")
    assert r.offsets == "characters" and r.documents == 1
    same = span_agreement([DATA / "gold.conllu", DATA / "gold.conllu"], layer="deprel")
    assert same.overall.f1("strict") == same.overall.f1("lenient") == 1.0


def test_three_files_pairs_and_overall():
    files = [DATA / "gold.tree", DATA / "system.tree", DATA / "system2.tree"]
    r = span_agreement(files, phrase_style="delex")
    assert [(p.key, p.response) for p in r.pairs] == [
        ("gold", "system"), ("gold", "system2"), ("system", "system2")]
    total = r.pairs[0].counts + r.pairs[1].counts + r.pairs[2].counts
    assert r.overall == total


def test_errors(tmp_path):
    with pytest.raises(InputError, match="two or more"):
        span_agreement([DATA / "gold.tree"])
    with pytest.raises(InputError, match="does not apply"):
        span_agreement([DATA / "gold.tree", DATA / "system.tree"], layer="upos",
                       phrase_style="delex")
    with pytest.raises(InputError, match="needs --hierarchy"):
        span_agreement([DATA / "gold.tree", DATA / "system.tree"], bdm=True)
    short = tmp_path / "short.tree"
    short.write_text("(S (NP D N) (VP V))\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        span_agreement([DATA / "gold.tree", short], phrase_style="delex", check_text=False)
    assert exc.value.errors[0].kind == "span-token-mismatch"
    other = tmp_path / "other.conllu"
    other.write_text((DATA / "gold.conllu").read_text(encoding="utf-8").replace(
        "Dogs", "Cats"), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        span_agreement([DATA / "gold.conllu", other])
    assert exc.value.errors[0].kind == "text-mismatch"


def test_cli_formats(tmp_path, capsys):
    args = ["spans", str(DATA / "gold.tree"), str(DATA / "system.tree"), "--phrase-style",
            "delex"]
    assert main(args + ["-q"]) == 0
    out = capsys.readouterr().out
    assert "constituents (tokens as offsets" in out
    js = tmp_path / "s.json"
    assert main(args + ["-o", str(js), "-q"]) == 0
    data = json.loads(js.read_text(encoding="utf-8"))
    assert data["overall"]["average"]["f1"] == pytest.approx((5 / 6 + 1) / 2)
    csv_out = tmp_path / "s.csv"
    assert main(args + ["-o", str(csv_out), "-q"]) == 0
    lines = csv_out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "section,key,response,label,measure,correct,partial,missing,spurious," \
                       "precision,recall,f1,note"
    assert lines[-1].startswith("signature,") and "layer:" in lines[-1]
    assert lines[2].startswith("spans,gold,system,ALL,lenient,5,1,0,0,1.0,1.0,1.0")
    assert main(["spans", str(DATA / "gold.tree")]) == 2


def test_by_label_groups_as_one_filter_per_label():
    """by_label (one pass) against the filter per label it replaced (quadratic on a layer
    of word forms): the same lists, in the same order, labels in first-seen order."""
    import random

    from synagree.stats.gate_prf import SpanAnnotation, by_label
    rng = random.Random(3)
    for _ in range(20):
        keys = [SpanAnnotation(i, i + 1, rng.choice("abcdefg")) for i in range(rng.randint(0, 30))]
        resp = [SpanAnnotation(i, i + rng.randint(1, 3), rng.choice("aceghk"))
                for i in range(rng.randint(0, 30))]
        names = list(dict.fromkeys([a.label for a in keys] + [a.label for a in resp]))
        naive = {n: ([a for a in keys if a.label == n], [a for a in resp if a.label == n])
                 for n in names}
        got = by_label(keys, resp)
        assert list(got) == names and got == naive
