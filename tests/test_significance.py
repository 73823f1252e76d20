"""Significance between systems: paired bootstrap and approximate randomisation.

Synthetic per-unit arrays check the mechanics (identical systems give p = 1,
seeding, agreement with :mod:`synagree.bootstrap`, grouping of units); the
shared UD English EWT test file, perturbed with :func:`synagree.noise.perturb.perturb`
and written with :func:`synagree.readers.write_conllu`, checks that a clearly
worse system is detected at p < 0.01 through the whole ``compare`` pipeline.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from conftest import SHARED_DATA as SHARED
from synagree.evaluation import compare as cmp
from synagree.io.conllu import write_conllu
from synagree.stats.alpha import tree_alpha
from synagree.stats.bootstrap import bootstrap_alpha, resample_weights
from synagree.stats.significance import (
    AlphaUnits,
    RatioUnits,
    SystemUnits,
    _alpha_reps,
    aggregate_alpha,
    significance,
)
from synagree.trees.flat import Vocabulary, build_tree

EWT = SHARED / "ud" / "en_ewt-ud-test.conllu"
DATA = Path(__file__).resolve().parent / "data" / "compare"


def _ratio(rng, U, p):
    g = rng.integers(5, 30, U).astype(float)
    return RatioUnits(rng.binomial(g.astype(int), p).astype(float), g, g.copy())


def _alpha_units(rng, U, noise):
    """Per-unit α sums of a made-up corpus: two values per unit."""
    size = rng.integers(3, 20, U).astype(float)
    S = (size[:, None] - size[None, :]) ** 2 + 4.0
    diag = rng.poisson(noise, U).astype(float) ** 2 * 2
    np.fill_diagonal(S, diag)
    return AlphaUnits(diag / 1.0, np.full(U, 2.0), S * 2)  # do = diag/(m-1), m = 2


def test_identical_systems_give_p_one():
    rng = np.random.default_rng(1)
    U = 200
    a = SystemUnits("a", {m: _ratio(rng, U, 0.8) for m in ("LAS", "UAS", "CLAS")},
                    {"alpha_plain": _alpha_units(rng, U, 2.0)})
    b = SystemUnits("b", dict(a.ratios), dict(a.alphas))
    res = significance([a, b], B=300, seed=3)
    assert len(res.pairs) == 4
    for t in res.pairs:
        assert t.diff == 0.0 and t.p_bootstrap == 1.0 and t.p_randomisation == 1.0
        assert t.ci == (0.0, 0.0)


def test_seeded_and_reproducible():
    rng = np.random.default_rng(2)
    U = 150
    sys_ = [SystemUnits(n, {"LAS": _ratio(rng, U, p)}) for n, p in (("a", .8), ("b", .78))]
    r1 = significance(sys_, B=200, seed=7, metrics=("LAS",))
    r2 = significance(sys_, B=200, seed=7, metrics=("LAS",))
    r3 = significance(sys_, B=200, seed=8, metrics=("LAS",))
    assert r1.pairs == r2.pairs and r1.ci == r2.ci
    assert r1.pairs[0].ci != r3.pairs[0].ci
    t = r1.pairs[0]
    assert t.ci[0] <= t.diff <= t.ci[1]
    assert 0 < t.p_bootstrap <= 1 and 0 < t.p_randomisation <= 1


def test_clear_difference_is_significant_and_signed():
    rng = np.random.default_rng(4)
    U = 500
    good = SystemUnits("good", {"LAS": _ratio(rng, U, 0.9)})
    bad = SystemUnits("bad", {"LAS": _ratio(rng, U, 0.8)})
    t = significance([good, bad], B=500, seed=0).pair("good", "bad", "LAS")
    assert t.diff > 0.05 and t.ci[0] > 0
    assert t.p_bootstrap < 0.01 and t.p_randomisation < 0.01


def test_alpha_replicates_match_the_bootstrap_module():
    vocab = Vocabulary()
    rng = np.random.default_rng(5)
    from synagree.io.conllu import DepSentence
    from synagree.noise.perturb import random_sentence
    labels = ["a", "b", "c"]
    base = DepSentence("x", 0, 1, ["w"] * 6, np.zeros(6, np.int32), ["a"] * 6)
    units = [[build_tree(random_sentence(replace(base, forms=["w"] * n, heads=np.zeros(n, np.int32),
                                                 deprels=["a"] * n), labels, rng), vocab)
              for _ in range(2)] for n in rng.integers(2, 9, 40)]
    ta = tree_alpha(units, keep_unit_matrix=True)
    a = aggregate_alpha(ta.sums.diag[:, 0], ta.sums.m, ta.sums.S[0])
    assert a.value() == pytest.approx(ta.stats["plain"].alpha, abs=1e-12)
    W = resample_weights(40, 50, 9)
    np.testing.assert_allclose(_alpha_reps(a, W), bootstrap_alpha(ta.sums, W, ("plain",))
                               ["alpha_plain"], rtol=1e-12)
    # grouping units keeps the point value; a group resamples its units together
    unit_of = np.arange(40) // 2
    g = aggregate_alpha(ta.sums.diag[:, 0], ta.sums.m, ta.sums.S[0], unit_of, 20)
    assert g.value() == pytest.approx(a.value(), abs=1e-12)
    W20 = resample_weights(20, 30, 1)
    np.testing.assert_allclose(_alpha_reps(g, W20), _alpha_reps(a, np.repeat(W20, 2, axis=1)),
                               rtol=1e-12)


def test_mismatched_units_are_refused():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError):
        significance([SystemUnits("a", {"LAS": _ratio(rng, 10, .5)}),
                      SystemUnits("b", {"LAS": _ratio(rng, 11, .5)})])


def test_common_units_under_differing_splits():
    """split4-sys joins/splits gold sentences; gold itself does not: the common
    units are split4-sys's units, and the point values are the systems' own."""
    g = DATA / "split4-gold.conllu"
    res = cmp.compare(g, [DATA / "split4-sys.conllu", g], significance=True, test_replicates=200)
    sig = res.significance
    assert sig.units == 4 and any("common unit" in n for n in sig.notes)
    for s in res.systems:
        assert sig.values[s.name]["LAS"] == pytest.approx(s.scores["LAS"].f1)
        assert sig.values[s.name]["alpha_plain"] == pytest.approx(s.alpha_value("plain"))
    assert res.systems[1].alpha_value("plain") == 1.0


# --------------------------------------------------------------------------- EWT


def _single_root(sent):
    """Perturbation may hang several words from the root; the scorer wants one:
    later root words go under the first (never a cycle: disjoint subtrees)."""
    heads = sent.heads.copy()
    roots = np.flatnonzero(heads == 0) + 1
    for r in roots[1:]:
        heads[r - 1] = roots[0]
    return replace(sent, heads=heads)


@pytest.fixture(scope="module")
def ewt_files(tmp_path_factory):
    if not EWT.is_file():
        pytest.skip(f"UD English EWT test file not found at {EWT} (shared data absent)")
    from synagree.io.conllu import read_conllu
    from synagree.noise.perturb import label_set, perturb

    sents = read_conllu(EWT)[:300]
    labels = label_set(sents)
    rng = np.random.default_rng(20240601)
    d = tmp_path_factory.mktemp("ewt")
    files = {"gold": sents}
    files["good"] = [_single_root(perturb(s, 0.02, 0.02, labels, rng)) for s in sents]
    files["bad"] = [_single_root(perturb(s, 0.1, 0.1, labels, rng)) for s in sents]
    paths = {}
    for name, ss in files.items():
        paths[name] = d / f"{name}.conllu"
        write_conllu(paths[name], ss)
    return paths


@pytest.mark.slow
def test_injected_errors_are_detected(ewt_files):
    res = cmp.compare(ewt_files["gold"], [ewt_files["good"], ewt_files["bad"]],
                      names=["good", "bad"], significance=True, test_replicates=1000, seed=0)
    sig = res.significance
    assert sig.units == 300
    for m in ("LAS", "UAS", "CLAS", "alpha_plain"):
        t = sig.pair("good", "bad", m)
        assert t.diff > 0 and t.ci[0] > 0, (m, t)
        assert t.p_bootstrap < 0.01 and t.p_randomisation < 0.01, (m, t)
        lo, hi = sig.ci["good"][m]
        assert lo <= sig.values["good"][m] <= hi
    assert res.system("good").scores["LAS"].f1 > res.system("bad").scores["LAS"].f1


@pytest.mark.slow
def test_identical_ewt_systems_give_p_one(ewt_files, run_cli):
    rc, out, err = run_cli("compare", ewt_files["gold"], ewt_files["bad"], ewt_files["bad"],
                           "--names", "x", "y", "--significance", "-B", "200", "-q")
    assert rc == 0, err
    rows = [ln.split() for ln in out.splitlines() if ln.startswith("x ")]
    assert {r[2] for r in rows} == {"LAS", "UAS", "CLAS", "alpha_plain"}
    for r in rows:
        assert r[-2:] == ["1.0000", "1.0000"], r
