"""Unlabelled α (every label equal, the root keeps its cost-0 empty label) and
label agreement on the words whose heads agree.

Hand-checked fixture tests/data/extras (see test_influence.py for the
labelled trees).  Without labels the six trees are chains C = ε(x(x(x)))
(both s1 trees and s3's b tree) or forks F = ε(x(x, x)) (both s2 trees and
s3's a tree); TED(C, C) = TED(F, F) = 0 and TED(C, F) = 2 (one node deleted,
one inserted).  All |t| = 4, so the three variants coincide:

    D_o = (2 · 2²) / 1 / 6 = 4/3          (only s3 disagrees)
    D_e = 2 · (3 chains · 3 forks · 2²) / (6 · 5) = 12/5
    α   = 1 − (4/3) / (12/5) = 4/9

LAS 5/9 (s1: 1 of 3 words, s2: 2 of 3, s3: 2 of 3), UAS 6/9 (1 + 3 + 2):
la_given_head = 5/6.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from synagree.agreement import unlabelled
from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.io.conllu import read_conllu
from synagree.stats.alpha import VARIANTS
from synagree.trees.flat import Vocabulary, dependency_tree

EXTRAS = Path(__file__).resolve().parent / "data" / "extras"
PHRASE = Path(__file__).resolve().parent / "data" / "qa"


@pytest.fixture(scope="module")
def extras():
    return agree_corpus(load_corpus([EXTRAS / "a.conllu", EXTRAS / "b.conllu"]), unlabelled=True)


def test_hand_values(extras):
    m, d = extras.metrics(), extras.unlabelled.details()
    for v in VARIANTS:
        assert m[f"alpha_{v}_unlabelled"] == pytest.approx(4 / 9, abs=1e-14)
        assert extras.alpha[v].alpha == pytest.approx(11 / 16, abs=1e-14)  # unchanged
    c = d["counts"]["alpha_plain_unlabelled"]
    assert (c["do_sum"], c["de_sum"], c["n"]) == (8.0, 72.0, 6)
    assert m["LA_given_head"] == pytest.approx(5 / 6)
    assert d["LA_given_head"] == {"correct": 5.0, "total": 6.0}
    assert d["distinct_trees"] == 2


def test_unlabelled_tree_keeps_shape_size_and_root():
    sents = read_conllu(EXTRAS / "a.conllu")
    v = Vocabulary()
    for s in sents:
        t = dependency_tree(s, v)
        u = unlabelled.unlabelled_tree(t)
        assert u.size == t.size and np.array_equal(u.lml, t.lml)
        assert np.array_equal(u.keyroots, t.keyroots) and np.array_equal(u.r_lml, t.r_lml)
        assert u.labels[-1] == 0 and u.r_labels[-1] == 0  # root: last in postorder
        assert set(u.labels[:-1].tolist()) == {unlabelled.UNLABELLED_LABEL}


def _random_sentence(rng, n):
    heads = []
    for i in range(1, n + 1):
        heads.append(0 if i == 1 else rng.randint(1, i - 1))
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    out = [0] * n
    for old in range(1, n + 1):
        h = heads[old - 1]
        out[perm[old - 1] - 1] = 0 if h == 0 else perm[h - 1]
    return out, [rng.choice(["a", "b", "c"]) for _ in range(n)]


def _zss_alphas(h, units):
    """Textbook α per variant over zss trees whose word labels are all "x" (root "")."""
    vals = [[(k, h.zss_dep_tree(heads, ["x"] * len(heads)), len(heads) + 1)
             for k, (heads, _) in enumerate(u, start=100 * j)] for j, u in enumerate(units)]
    memo = {}

    def ted(a, b):
        key = (min(a[0], b[0]), max(a[0], b[0]))
        if key not in memo:
            memo[key] = h.zss_unit_distance(a[1], b[1])
        return memo[key]

    def d2(variant):
        def f(a, b):
            t = ted(a, b)
            d = {"plain": t, "diff": t - abs(a[2] - b[2]), "norm": t / (a[2] + b[2])}[variant]
            return d * d
        return f

    return {v: h.textbook_alpha(vals, d2(v))[0] for v in VARIANTS}


def test_against_zss_on_random_corpus(h, write):
    rng = random.Random(7)
    units = []
    for _ in range(7):
        n = rng.randint(1, 5)
        units.append([_random_sentence(rng, n) for _ in range(rng.choice([2, 3]))])
    m = max(len(u) for u in units)
    paths = []
    for a in range(m):
        sents = [u[a] if a < len(u) else None for u in units]
        text = h.conll_text([list(zip(*s)) for s in sents if s is not None],
                            [{"sent_id": f"u{k}"} for k, s in enumerate(sents) if s is not None])
        paths.append(write(f"ann{a}.conllu", text))
    res = agree_corpus(load_corpus(paths, allow_missing=True))
    ta = unlabelled.unlabelled_alpha(res)
    want = _zss_alphas(h, units)
    for v in VARIANTS:
        assert ta.alpha(v) == pytest.approx(want[v], abs=1e-12), v


@pytest.mark.slow
def test_against_zss_on_ndt(iaa, h):
    """NDT caterpillar (10 sentences) and the first 20 of NDT Danish, unlabelled α
    recomputed with zss from the raw columns."""
    for name, first in (("caterpillar", None), ("danish", 20)):
        files = [iaa / "ndt" / f"{a}-{name}.conll" for a in ("odin", "thor")]
        raw = [h.raw_conll(f)[:first] for f in files]
        units = [[h.heads_labels(s) for s in pair] for pair in zip(*raw)]
        corpus = load_corpus(files)
        corpus.units = corpus.units[:first] if first else corpus.units
        res = agree_corpus(corpus)
        ta = unlabelled.unlabelled_alpha(res)
        want = _zss_alphas(h, units)
        for v in VARIANTS:
            assert ta.alpha(v) == pytest.approx(want[v], abs=1e-9), (name, v)


def test_la_given_head_is_las_over_uas_counts(iaa, h):
    """Recounted from the raw columns: same head and label / same head."""
    files = [iaa / "cdt" / "da-lotte.conll", iaa / "cdt" / "da-morten.conll"]
    res = agree_corpus(load_corpus(files), unlabelled=True)
    both = same_head = 0
    for sa, sb in zip(*(h.raw_conll(f) for f in files)):
        (ha, la), (hb, lb) = h.heads_labels(sa), h.heads_labels(sb)
        for x, y, p, q in zip(ha, hb, la, lb):
            same_head += x == y
            both += x == y and p == q
    d = res.unlabelled.details()["LA_given_head"]
    assert (d["correct"], d["total"]) == (both, same_head) == (2165, 2301)
    assert res.metrics()["alpha_plain_unlabelled"] == pytest.approx(0.954801276, abs=1e-9)


def test_cli_unlabelled_outputs(run_cli):
    files = [EXTRAS / "a.conllu", EXTRAS / "b.conllu"]
    rc, out, err = run_cli("agree", *files, "--unlabelled", "--output", "json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["alpha_plain_unlabelled"] == pytest.approx(4 / 9)
    assert d["LA_given_head"] == pytest.approx(5 / 6)
    assert d["details"]["unlabelled"]["LA_given_head"]["total"] == 6
    assert d["alpha_plain"] == pytest.approx(11 / 16)
    rc, out, err = run_cli("agree", *files, "--unlabelled", "--output", "csv")
    header, row = out.splitlines()[:2]
    rec = dict(zip(header.split(","), row.split(",")))
    assert float(rec["alpha_norm_unlabelled"]) == pytest.approx(4 / 9)
    rc, out, err = run_cli("agree", *files, "--unlabelled", "--metric", "diff")
    assert "alpha_diff_unlabelled" in out and "alpha_plain_unlabelled" not in out
    rc, out, err = run_cli("agree", *files)  # not without the option
    assert "unlabelled" not in out and "LA_given_head" not in out


def test_phrase_structure(run_cli):
    files = [PHRASE / "phrase-a.tree", PHRASE / "phrase-b.tree"]
    rc, out, err = run_cli("agree", *files, "--unlabelled", "--output", "json")
    assert rc == 0, err
    d = json.loads(out)
    assert "alpha_plain_unlabelled" in d and "LA_given_head" not in d
    assert "ted_zero_different_heads" not in d

