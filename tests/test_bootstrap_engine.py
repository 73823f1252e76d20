"""One resampling engine (synagree.stats.bootstrap.bootstrap) behind every interval.

Until issue 21 three functions named ``bootstrap`` drew and summarised their own
resamples (agree's α and word scores, the token layers, the QA report), and
``tags --bootstrap`` a fourth. The references below are the former draws and
summaries written out again: with the same seeds the engine gives the same
replicates, bit for bit, and the same intervals.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from synagree.agreement import qa
from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.stats import categorical as C
from synagree.stats.bootstrap import (
    alpha_bootstrap,
    bootstrap,
    bootstrap_alpha,
    bootstrap_ratios,
    interval,
    percentile_interval,
    resample_weights,
)

QA = Path(__file__).resolve().parent / "data" / "qa"


@pytest.fixture(scope="module")
def three():
    corpus = load_corpus([QA / f"{n}.conllu" for n in ("anna", "bert", "cleo")],
                         allow_missing=True)
    return agree_corpus(corpus, bootstrap=150, seed=6)


def test_alpha_bootstrap_is_the_former_draw(three):
    sums = three.tree_alpha.sums
    correct, total = three.scores.unit_arrays()
    U = sums.m.shape[0]
    W = resample_weights(U, 150, 6)  # the former stats.bootstrap.bootstrap
    old = {**bootstrap_alpha(sums, W), **bootstrap_ratios(correct, total, W)}
    new = alpha_bootstrap(sums, 150, 6, correct=correct, total=total)
    assert new.seed == 6 and new.level == 0.95
    assert set(new.replicates) == set(old)
    for k, v in old.items():
        assert np.array_equal(new.replicates[k], v, equal_nan=True), k
        assert three.bootstrap.ci(k) == percentile_interval(v, 0.95)  # agree_corpus's own


def test_chunks_and_shared_weights_give_the_same_replicates(three):
    sums = three.tree_alpha.sums
    U = sums.m.shape[0]
    W = resample_weights(U, 700, 2)
    whole = bootstrap(lambda w: bootstrap_alpha(sums, w), U, weights=W).replicates
    parts = bootstrap(lambda w: bootstrap_alpha(sums, w), U, weights=W, chunk=256).replicates
    drawn = bootstrap(lambda w: bootstrap_alpha(sums, w), U, 700, 2, chunk=256).replicates
    for k in whole:
        assert np.array_equal(whole[k], parts[k], equal_nan=True)
        assert np.array_equal(whole[k], drawn[k], equal_nan=True)


def test_layer_bootstrap_is_the_former_draw(three):
    data = C.items_from_corpus(three.corpus, "deprel")
    s = C.unit_sums(data)
    got = C.layer_bootstrap(data, B=300, seed=9, level=0.9)
    # the former stats.categorical.bootstrap: weights from default_rng(seed), nanstd
    W = resample_weights(s.n_units, 300, np.random.default_rng(9))
    reps = C.coefficients_from_sums(s, W)
    est = C.coefficients_from_sums(s, np.ones((1, s.n_units)))
    for k in C.COEFFICIENTS:
        r = reps[k]
        iv = got[k]
        assert np.array_equal(iv.replicates, r, equal_nan=True)
        assert iv.estimate == float(est[k][0])
        assert (iv.low, iv.high) == percentile_interval(r, 0.9)
        assert iv.se == pytest.approx(float(np.nanstd(r, ddof=1)), rel=1e-14)
        assert iv.failed == int(np.isnan(r).sum())


def test_one_generator_stream_across_layers(three):
    """categorical --bootstrap: one stream, layers drawn one after the other."""
    datas = [C.items_from_corpus(three.corpus, x) for x in ("deprel", "head")]
    rng = np.random.default_rng(4)
    got = [C.layer_bootstrap(d, 50, rng) for d in datas]
    rng = np.random.default_rng(4)
    for d, g in zip(datas, got):
        W = resample_weights(len(d.units), 50, rng)
        ref = C.coefficients_from_sums(C.unit_sums(d), W)
        assert np.array_equal(g["observed"].replicates, ref["observed"], equal_nan=True)


def test_report_intervals_are_the_former_ones(three):
    """qa.bootstrap_intervals: α from agree's replicates, the layers on the columns of
    the same draw, summarised as before (percentile, sd of the finite replicates)."""
    bs = qa.bootstrap_intervals(three, 150, seed=6, categorical_layers=["deprel"])
    U = len(qa.pairable_units(three).positions)
    W = resample_weights(U, 150, 6)
    pos = {p: k for k, p in enumerate(qa.pairable_units(three).positions)}
    data = C.items_from_corpus(three.corpus, "deprel")
    cols = [pos[p] for p in data.positions]
    layer = C.coefficients_from_sums(C.unit_sums(data), W[:, cols])
    for name, reps in [("alpha_plain", three.bootstrap.replicates["alpha_plain"]),
                       ("deprel_scott_pi", layer["scott_pi"])]:
        iv = bs.intervals[name]
        assert np.array_equal(iv.replicates, reps, equal_nan=True)
        ok = np.isfinite(reps)
        assert (iv.low, iv.high) == percentile_interval(reps, 0.95)
        assert iv.se == float(np.std(reps[ok], ddof=1))


def test_interval_summary_conventions():
    reps = np.array([0.1, np.nan, 0.3, np.inf, 0.5])
    iv = interval(float("nan"), reps, 0.5)
    assert iv.estimate is None and iv.failed == 2
    assert (iv.low, iv.high) == percentile_interval(reps, 0.5)
    nan_form = iv.fields(undefined=float("nan"))
    assert np.isnan(nan_form["estimate"]) and nan_form["low"] == iv.low
    assert iv.to_dict()["estimate"] is None and "failed" in iv.to_dict()
    none = interval(0.2, np.array([np.nan]), 0.9)
    assert (none.low, none.high, none.se) == (None, None, None)


def test_regression_alpha_test_is_the_former_chunked_draw():
    """--baseline's Δα bootstrap: chunks drawn from one stream, as before (§18.3)."""
    from synagree.stats import regression as R
    rng = np.random.default_rng(1)
    U = 40
    old = (rng.random(U), rng.integers(2, 9, U).astype(float), 0.8)
    new = (rng.random(U), rng.integers(2, 9, U).astype(float), 0.7)
    B, step = 900, 128
    got = R._alpha_test(old, new, B, 50, seed=7, level=0.9)
    # the former loop: a Generator seeded [seed, 2], chunks continuing its stream
    gen = np.random.default_rng([7, 2])
    reps = np.empty(B)
    for b0 in range(0, B, step):
        W = resample_weights(U, min(B, b0 + step) - b0, gen)
        reps[b0:b0 + W.shape[0]] = ((W @ old[0]) / (W @ old[1]) / old[2]
                                    - (W @ new[0]) / (W @ new[1]) / new[2])
    assert got[2] == percentile_interval(reps, 0.9)
    d = got[5]
    assert got[3] == R._p_two_sided(reps - d, d)
