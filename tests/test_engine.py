"""The streaming/tiled/sampled/bootstrapped engine agrees with the exact one."""
from __future__ import annotations

import io

import numpy as np
import pytest

from conftest import textbook_alpha, zss_dep_tree, zss_unit_distance
from synagree.agreement import agree as agreement
from synagree.distance import sums
from synagree.distance.sums import Progress, delta_squared
from synagree.io.conllu import DepSentence
from synagree.stats import alpha
from synagree.stats.alpha import VARIANTS, tree_alpha
from synagree.stats.bootstrap import bootstrap_alpha, resample_weights
from synagree.trees.flat import Vocabulary, dependency_tree


def _sent(heads, labels):
    return DepSentence("<t>", 0, 0, ["w"] * len(heads), np.asarray(heads, np.int32), list(labels))


def _random_units(seed, n_units=30, max_words=9, max_ann=4, labels="abcd"):
    """Units of 1..max_ann random trees (some units unpairable)."""
    rng = np.random.default_rng(seed)
    vocab = Vocabulary()
    units, sents = [], []
    for _ in range(n_units):
        n = int(rng.integers(1, max_words + 1))
        base = [int(rng.integers(0, i)) for i in range(1, n + 1)]
        m = int(rng.integers(1, max_ann + 1))
        us = []
        for _ in range(m):
            heads = [h if rng.random() < 0.7 else int(rng.integers(0, i + 1)) if h else 0
                     for i, h in enumerate(base)]
            # keep it a tree: heads must point to an earlier word (or root)
            heads = [min(h, i) for i, h in enumerate(heads)]
            lab = [labels[int(rng.integers(0, len(labels)))] for _ in range(n)]
            us.append(_sent(heads, lab))
        sents.append(us)
        units.append([dependency_tree(s, vocab) for s in us])
    return units, sents


def _textbook(sents, variant):
    """Brute-force alpha straight from docs/method.md §5 with zss distances."""
    units = [[(zss_dep_tree(s.heads.tolist(), s.deprels), s.n_words + 1) for s in u]
             for u in sents]

    def d2(a, b):
        t = float(zss_unit_distance(a[0], b[0]))
        return float(delta_squared(np.float64(t), a[1], b[1], variant))
    return textbook_alpha(units, d2)[0]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_tree_alpha_matches_textbook_with_missing_and_three_annotators(seed):
    units, sents = _random_units(seed, n_units=14, max_words=7)
    ta = tree_alpha(units)
    for v in VARIANTS:
        assert ta.alpha(v) == pytest.approx(_textbook(sents, v), abs=1e-12)


def test_tilings_agree():
    """S[u, v] is computed whole inside one tile, so it never depends on the
    tiling; the integer-valued plain/diff sums are exact under any tiling; the
    fractional norm sums may differ in the last bit between tilings (the
    reduction order is fixed per tiling, see test_one_thread_equals_many_threads
    and the Dask test for bit-identity under one tiling)."""
    units, _ = _random_units(3, n_units=60)
    ref = tree_alpha(units, tile=512, keep_unit_matrix=True)
    for tile in (1, 3, 17, 59):
        ta = tree_alpha(units, tile=tile, keep_unit_matrix=True)
        for v in ("plain", "diff"):
            assert ta.stats[v].de_sum == ref.stats[v].de_sum
            assert ta.stats[v].do_sum == ref.stats[v].do_sum
        assert ta.stats["norm"].de_sum == pytest.approx(ref.stats["norm"].de_sum, rel=1e-13)
        assert np.array_equal(ta.sums.S, ref.sums.S)


def test_unit_matrix_is_symmetric_and_sums_to_de():
    units, _ = _random_units(4, n_units=25)
    ta = tree_alpha(units, keep_unit_matrix=True, tile=7)
    S = ta.sums.S
    assert np.array_equal(S, np.swapaxes(S, 1, 2))
    for k, v in enumerate(VARIANTS):
        assert S[k].sum() == pytest.approx(ta.stats[v].de_sum, rel=1e-12)


def test_one_thread_equals_many_threads(monkeypatch):
    units, _ = _random_units(5, n_units=40)
    monkeypatch.setenv("SYNAGREE_THREADS", "4")
    many = tree_alpha(units, tile=9)
    monkeypatch.setenv("SYNAGREE_THREADS", "1")
    one = tree_alpha(units, tile=9)
    for v in VARIANTS:
        assert one.stats[v].de_sum == many.stats[v].de_sum
        assert one.stats[v].do_sum == many.stats[v].do_sum


@pytest.mark.slow
def test_dask_local_cluster_equals_local():
    pytest.importorskip("distributed", reason="dask[distributed] not installed")
    from synagree.distance.dask_exec import dask_executor
    units, _ = _random_units(6, n_units=30)
    ref = tree_alpha(units, tile=8, keep_unit_matrix=True)
    with dask_executor("local", n_workers=2) as ex:
        got = tree_alpha(units, tile=8, keep_unit_matrix=True, executor=ex)
    for v in VARIANTS:
        assert got.stats[v].de_sum == ref.stats[v].de_sum
        assert got.stats[v].do_sum == ref.stats[v].do_sum
    assert np.array_equal(got.sums.S, ref.sums.S)


def test_sampled_de_within_its_standard_error():
    units, _ = _random_units(7, n_units=200, max_words=12, max_ann=3, labels="abcdefgh")
    exact = tree_alpha(units)
    zs = []
    for seed in range(8):
        est = tree_alpha(units, sample_pairs=4000, seed=seed)
        for v in VARIANTS:
            se = est.stats[v].alpha_se
            assert se is not None and se > 0
            assert est.stats[v].do_sum == pytest.approx(exact.stats[v].do_sum, rel=1e-12)
            zs.append((est.alpha(v) - exact.alpha(v)) / se)
    zs = np.asarray(zs)
    # each estimate within 4 SE, and the SEs are honest on average (|z| ~ 0.8)
    assert np.all(np.abs(zs) < 4.0)
    assert 0.2 < np.mean(np.abs(zs)) < 1.6


@pytest.mark.parametrize("big", [False, True])
def test_control_variate_features_in_integers_equal_float64(big):
    """The label-histogram feature is computed in narrow integers (int16 counts,
    or int64 where a count reaches 2^15): the same numbers as in float64, and
    every feature symmetric in the pair (the draws reuse one row per tree pair)."""
    rng = np.random.default_rng(3)
    hist64 = rng.integers(0, 40, size=(30, 9)).astype(np.float64)
    if big:
        hist64[0, 0] = 2.0 ** 15
    sizes = hist64.sum(axis=1)
    narrow = sums._pair_histograms(hist64)
    assert narrow.dtype == (np.int64 if big else np.int16)
    ti, tj = rng.integers(0, 30, 500), rng.integers(0, 30, 500)
    got = sums._cv_features(sizes[ti], sizes[tj], narrow, ti, tj)
    diff = hist64[ti] - hist64[tj]
    d, mn = sizes[ti] - sizes[tj], np.minimum(sizes[ti], sizes[tj])
    want = np.stack([d * d, np.abs(d), sizes[ti] * sizes[tj], mn, mn * mn,
                     (diff * diff).sum(axis=1)], axis=1)
    assert np.array_equal(got, want)
    assert np.array_equal(sums._cv_features(sizes[tj], sizes[ti], narrow, tj, ti), got)


def test_bootstrap_matrix_form_equals_recomputation():
    units, _ = _random_units(8, n_units=20, max_ann=3)
    pairable = [u for u in units if len(u) >= 2]
    ta = tree_alpha(pairable, keep_unit_matrix=True)
    W = resample_weights(len(pairable), 5, seed=11)
    reps = bootstrap_alpha(ta.sums, W)
    for b, w in enumerate(W):
        resampled = [pairable[u] for u in range(len(pairable)) for _ in range(int(w[u]))]
        direct = tree_alpha(resampled)
        for v in VARIANTS:
            assert reps[f"alpha_{v}"][b] == pytest.approx(direct.alpha(v), abs=1e-10)


def test_bootstrap_ci_covers_the_estimate_and_is_seeded():
    res = agreement.agree(dirs=["synagree/data/en-sample/ann_a", "synagree/data/en-sample/ann_b"],
                          bootstrap=300, seed=4)
    res2 = agreement.agree(dirs=["synagree/data/en-sample/ann_a", "synagree/data/en-sample/ann_b"],
                           bootstrap=300, seed=4)
    for v in VARIANTS:
        lo, hi = res.alpha[v].ci
        assert lo < res.alpha[v].alpha < hi
        assert res2.alpha[v].ci == (lo, hi)
    lo, hi = res.intervals()["LAS_full"]
    assert lo < res.scores.ratio("LAS_full") < hi


def test_auto_sampling_switch_is_announced(monkeypatch):
    monkeypatch.setattr(alpha, "EXACT_BUDGET_CELLS", 10)
    monkeypatch.setattr(alpha, "AUTO_FIRST_PAIRS", 2000)
    monkeypatch.setattr(alpha, "AUTO_TARGET_SE", 0.5)  # met by the first draw
    res = agreement.agree(dirs=["synagree/data/en-sample/ann_a", "synagree/data/en-sample/ann_b"])
    assert any("sampled pairs" in n for n in res.notes)
    assert res.metrics()["alpha_plain_se"] > 0
    exact = agreement.agree(dirs=["synagree/data/en-sample/ann_a", "synagree/data/en-sample/ann_b"],
                            exact=True)
    assert "alpha_plain_se" not in exact.metrics()


def test_sampling_costlier_than_exact_falls_back_to_exact(monkeypatch):
    """Over the budget, but the draws the SE target needs would cost more DP cells than
    the exact pass: D_e is exact (bit for bit the exact sums), and a note says why."""
    monkeypatch.setattr(alpha, "EXACT_BUDGET_CELLS", 10)
    monkeypatch.setattr(alpha, "AUTO_FIRST_PAIRS", 2000)
    dirs = ["synagree/data/en-sample/ann_a", "synagree/data/en-sample/ann_b"]
    res = agreement.agree(dirs=dirs)
    exact = agreement.agree(dirs=dirs, exact=True)
    assert res.tree_alpha.sampled is None and res.settings["d_e"] == "exact"
    assert "alpha_plain_se" not in res.metrics()
    for v in VARIANTS:
        assert res.alpha[v].de_sum == exact.alpha[v].de_sum
        assert res.alpha[v].do_sum == exact.alpha[v].do_sum
    [note] = [n for n in res.notes if n.startswith("D_e computed exactly: sampling")]
    assert "more time than the exact pass" in note and "pairs" in note
    assert "compared as wall time on" in note and "s exact against" in note  # issue 36


def test_cost_rule_compares_wall_time(monkeypatch):
    """The rule weighs the sampled pairs' cells by the paths' throughputs: with the
    draws as fast per cell as the exact pass the same files are sampled, with them
    a hundred times slower the exact pass is chosen (issue 36)."""
    monkeypatch.setattr(alpha, "EXACT_BUDGET_CELLS", 10)
    monkeypatch.setattr(alpha, "AUTO_FIRST_PAIRS", 2000)
    dirs = ["synagree/data/en-sample/ann_a", "synagree/data/en-sample/ann_b"]
    monkeypatch.setattr(alpha, "SAMPLED_TO_EXACT", 0.01)
    assert agreement.agree(dirs=dirs).settings["d_e"] == "exact"
    monkeypatch.setattr(alpha, "SAMPLED_TO_EXACT", 1e6)
    assert agreement.agree(dirs=dirs).settings["d_e"] != "exact"


def test_progress_bar_reports_done_and_eta():
    buf = io.StringIO()
    p = Progress(100, "tree pairs", enabled=True, stream=buf)
    p.update(40)
    p.update(60)
    p.close()
    out = buf.getvalue()
    assert "100/100 tree pairs" in out and "ETA" in out
    quiet = io.StringIO()
    Progress(100, enabled=None, stream=quiet).update(100)  # not a TTY: silent
    assert quiet.getvalue() == ""


@pytest.mark.slow
def test_bootstrap_interval_covers_the_population_alpha():
    """A known case: the alpha of a population of ~1,500 double-annotated units
    is computed exactly; 60 samples of 60 units (4% of the population, so no
    finite-population effect) each get a 90% percentile interval.  Coverage
    must be near nominal: not below 0.7 (a broken interval), and not ~1 (an
    interval too wide to mean anything).  The percentile bootstrap is known to
    undercover a little at n = 60; this seed gives 0.82."""
    from synagree.stats.bootstrap import alpha_bootstrap

    units, _ = _random_units(21, n_units=3000, max_words=8, max_ann=2, labels="abcdef")
    units = [u for u in units if len(u) == 2]
    truth = tree_alpha(units).alpha("plain")
    rng = np.random.default_rng(5)
    hits = 0
    for k in range(60):
        idx = rng.choice(len(units), size=60, replace=False)
        ta = tree_alpha([units[i] for i in idx], keep_unit_matrix=True)
        lo, hi = alpha_bootstrap(ta.sums, B=300, seed=k, level=0.90).ci("alpha_plain")
        hits += lo <= truth <= hi
    assert 0.7 <= hits / 60 <= 0.98


def test_the_rule_draws_a_small_pilot_first(monkeypatch):
    """Above the budget the rule first draws `AUTO_FIRST_PAIRS` pairs (a pilot, issue 36),
    not more, whatever it then decides; an explicit number of pairs is drawn as given."""
    from synagree.distance import sums

    seen = []
    real = sums.sampled_de

    def spy(ut, n_pairs, **kw):
        seen.append((n_pairs, kw.get("target_se")))
        return real(ut, n_pairs, **kw)

    monkeypatch.setattr(alpha, "sampled_de", spy)
    monkeypatch.setattr(alpha, "EXACT_BUDGET_CELLS", 10)
    dirs = ["synagree/data/en-sample/ann_a", "synagree/data/en-sample/ann_b"]
    agreement.agree(dirs=dirs)
    assert seen == [(alpha.AUTO_FIRST_PAIRS, alpha.AUTO_TARGET_SE)]
    seen.clear()
    agreement.agree(dirs=dirs, sample_pairs=3000)
    assert seen == [(3000, None)]
