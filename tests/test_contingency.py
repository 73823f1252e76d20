"""One κ/π engine (synagree.stats.contingency): every former path gives the same numbers.

Until issue 21 Cohen's κ and Scott's π were computed twice: on label pairs in
``trees/hierarchy.py`` (Counters, ``math.fsum``) and on contingency tables in
``stats/categorical.py`` (numpy dot products), with Fleiss' κ, the Davies &
Fleiss κ, the bootstrap replicates, the tag intervals and hierarchical κ each
with its own copy of the chance term.  The references below are those former
formulas, written out again; on random data every use case of either path
now gives their numbers to 1e-12, and the paths give each other's.
"""
from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from synagree.stats import categorical as C
from synagree.stats.contingency import (
    Contingency,
    agreement_coefficients,
    chance_corrected,
    cohen_kappa,
    multi_rater_coefficients,
    observed_agreement,
    pooled_chance,
    scott_pi,
)
from synagree.stats.hierarchical_kappa import hierarchical_kappa
from synagree.stats.tag_intervals import tag_intervals
from synagree.trees.hierarchy import Hierarchy

TOL = 1e-12


def _old_label_pairs(pairs):
    """The former ``trees.hierarchy`` observed_agreement, cohens_kappa, scotts_pi."""
    n = len(pairs)
    if not n:
        return math.nan, math.nan, math.nan
    po = sum(1 for a, b in pairs if a == b) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    pe_k = math.fsum((first[k] / n) * (second[k] / n) for k in first if k in second)
    pooled = first + second
    pe_pi = math.fsum((m / (2 * n)) ** 2 for m in pooled.values())

    def cc(pe):
        return math.nan if 1.0 - pe <= 1e-12 else (po - pe) / (1.0 - pe)
    return po, cc(pe_k), cc(pe_pi)


def _old_table(t):
    """The former ``stats.categorical`` observed_agreement, cohen_kappa, scott_pi."""
    t = np.asarray(t, dtype=np.float64)
    n = t.sum()
    if not n:
        return math.nan, math.nan, math.nan
    rows, cols, po = t.sum(1), t.sum(0), np.trace(t) / n
    pe_k = float((rows / n) @ (cols / n))
    p = (rows + cols) / (2 * n)
    pe_pi = float(p @ p)

    def cc(pe):
        return math.nan if 1.0 - pe <= 1e-12 else (po - pe) / (1.0 - pe)
    return po, cc(pe_k), cc(pe_pi)


def _same(x, y, tol=TOL):
    if isinstance(x, float) and math.isnan(x):
        return isinstance(y, float) and math.isnan(y)
    return abs(x - y) <= tol


def _random_pairs(rng: random.Random, labels: str, n: int, p_same: float):
    out = []
    for _ in range(n):
        a = rng.choice(labels)
        out.append((a, a if rng.random() < p_same else rng.choice(labels)))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_label_pairs_and_tables_give_the_former_numbers(seed):
    rng = random.Random(seed)
    labels = "abcdefg"[:rng.randint(1, 7)]
    pairs = _random_pairs(rng, labels, rng.randint(0, 300), rng.random())
    old_pairs = _old_label_pairs(pairs)
    c = Contingency.from_labels(pairs)
    new = (c.observed(), c.kappa(), c.pi())
    assert all(_same(o, x) for o, x in zip(old_pairs, new)), (old_pairs, new)
    # the same items as a dense table, through the table functions and the former formulas
    index = {lab: k for k, lab in enumerate(labels)}
    t = np.zeros((len(labels), len(labels)), dtype=np.int64)
    for a, b in pairs:
        t[index[a], index[b]] += 1
    old_table = _old_table(t)
    table = (observed_agreement(t), cohen_kappa(t), scott_pi(t))
    assert all(_same(o, x) for o, x in zip(old_table, table)), (old_table, table)
    assert all(_same(a, b) for a, b in zip(table, new))


@pytest.mark.parametrize("seed", range(20))
def test_every_use_case_of_the_engine_agrees(seed):
    """Two annotators: the table, Fleiss / Davies & Fleiss, the layer counts, the bootstrap
    sums at unit weights, hierarchical κ on a flat hierarchy and the tag intervals' batch
    arithmetic give one Cohen's κ and one Scott's π."""
    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 9))
    N = int(rng.integers(5, 400))
    codes = rng.integers(0, K, size=(N, 2))
    same = rng.random(N) < rng.random()
    codes[same, 1] = codes[same, 0]
    t = C.pair_table(codes, 0, 1, K)
    kappa, pi = cohen_kappa(t), scott_pi(t)
    counts = np.stack([np.bincount(r, minlength=K) for r in codes])
    assert _same(C.fleiss_kappa(counts), pi)
    assert _same(C.davies_fleiss_kappa(codes, K), kappa)
    # a corpus-free layer: one unit per item
    data = C.ItemData("deprel", ["a", "b"], [str(k) for k in range(K)], codes.astype(np.int32),
                      np.arange(N), [str(i) for i in range(N)], ["d"] * N)
    la = C.layer_agreement(data, by_document=False)
    assert _same(la.davies_fleiss(), kappa) and _same(la.fleiss(), pi)
    assert _same(la.pairs[0].coefficients()["cohen_kappa"], kappa)
    ones = C.coefficients_from_sums(C.unit_sums(data), np.ones((1, N)))
    assert _same(float(ones["cohen_kappa"][0]), kappa)
    assert _same(float(ones["scott_pi"][0]), pi)
    # hierarchical κ with a flat hierarchy is Scott's π
    labels = [str(k) for k in range(K)]
    pairs = [(labels[a], labels[b]) for a, b in codes]
    assert _same(hierarchical_kappa(Hierarchy.flat(labels), pairs).kappa, pi)
    # a batch of two identical tables gives the table's numbers
    batch = agreement_coefficients(np.array([N, N]), np.array([np.trace(t)] * 2),
                                   np.stack([t.sum(1)] * 2), np.stack([t.sum(0)] * 2))
    assert all(_same(float(v), kappa) for v in batch["cohen_kappa"])
    assert all(_same(float(v), pi) for v in batch["scott_pi"])


def test_tag_intervals_rest_on_the_engine():
    """``tags --bootstrap``'s replicates are the engine's batch coefficients."""
    rng = random.Random(2)
    lengths = [rng.randint(1, 12) for _ in range(30)]
    pairs = _random_pairs(rng, "NVAD", sum(lengths), 0.7)
    got = tag_intervals(pairs, lengths, 50, seed=3, level=0.9)
    # the former arithmetic of stats/tag_intervals.py, written out again
    from synagree.stats.bootstrap import percentile_interval, resample_weights
    tags = {t: k for k, t in enumerate(sorted({t for p in pairs for t in p}))}
    S, T = len(lengths), len(tags)
    sent = np.repeat(np.arange(S), lengths)
    G, Sy = np.zeros((S, T)), np.zeros((S, T))
    np.add.at(G, (sent, [tags[g] for g, _ in pairs]), 1.0)
    np.add.at(Sy, (sent, [tags[s] for _, s in pairs]), 1.0)
    correct = np.bincount(sent, weights=[float(g == s) for g, s in pairs], minlength=S)
    W = resample_weights(S, 50, 3)
    n = W @ np.asarray(lengths, dtype=np.float64)
    acc = (W @ correct) / n
    g, s = (W @ G) / n[:, None], (W @ Sy) / n[:, None]
    pe_c, pe_s = (g * s).sum(1), (((g + s) / 2) ** 2).sum(1)
    old = {"accuracy": acc, "cohen_kappa": (acc - pe_c) / (1 - pe_c),
           "scott_pi": (acc - pe_s) / (1 - pe_s)}
    for name, reps in old.items():
        lo, hi = percentile_interval(reps, 0.9)
        assert got[name] == pytest.approx((lo, hi), abs=TOL), name


def test_chance_corrected_and_degenerate_tables():
    assert chance_corrected(0.75, 0.5) == 0.5
    assert math.isnan(chance_corrected(1.0, 1.0 - 1e-13))  # within 1e-12 of 1: undefined
    assert math.isnan(chance_corrected(math.nan, 0.5))
    out = chance_corrected(np.array([0.75, 1.0]), np.array([0.5, 1.0]))
    assert out[0] == 0.5 and math.isnan(out[1])
    assert math.isnan(Contingency.from_labels([]).kappa())
    assert math.isnan(Contingency.from_labels([("a", "a")] * 3).pi())  # one category
    assert math.isnan(pooled_chance(np.zeros(0), 0))
    one = multi_rater_coefficients(4, 12.0, np.array([6.0, 6.0]), 1)
    assert math.isnan(one["scott_pi"])


def test_the_chance_term_does_not_depend_on_category_order():
    rng = np.random.default_rng(11)
    t = rng.integers(0, 50, size=(40, 40))
    perm = rng.permutation(40)
    assert cohen_kappa(t) == cohen_kappa(t[np.ix_(perm, perm)])
    assert scott_pi(t) == scott_pi(t[np.ix_(perm, perm)])
