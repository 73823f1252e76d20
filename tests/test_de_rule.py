"""The one rule for exact vs sampled D_e, by cost (docs/method.md §5.3).

Exact when the all-pairs pass fits the budget (the reference corpora: their α
is unchanged, exact), sampled otherwise, with α within 3 standard errors of the
exact value over several seeds, and an explicit note either way.
"""
from __future__ import annotations

import pytest

from conftest import SHARED_DATA
from synagree.agreement.agree import agree
from synagree.stats import alpha as alpha_mod

CORPORA = {
    "NDT 1": ("ndt/odin-danish.conll", "ndt/thor-danish.conll"),
    "CDT en": ("cdt/en-lotte.conll", "cdt/en-morten.conll"),
}


def _files(name):
    files = [SHARED_DATA / "iaa" / f for f in CORPORA[name]]
    if not all(f.exists() for f in files):
        pytest.skip(f"shared IAA data not found under {SHARED_DATA} (needed: {CORPORA[name]})")
    return files


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_reference_corpora_stay_exact(name):
    res = agree(_files(name))
    assert res.tree_alpha.sampled is None and res.tree_alpha.plan.sample_pairs is None
    assert res.tree_alpha.plan.cells <= alpha_mod.EXACT_BUDGET_CELLS
    assert res.settings["d_e"] == "exact"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CORPORA))
def test_sampled_alpha_within_three_se_of_exact(name, monkeypatch):
    files = _files(name)
    exact = agree(files)
    monkeypatch.setattr(alpha_mod, "EXACT_BUDGET_CELLS", 0)  # every corpus "too large"
    monkeypatch.setattr(alpha_mod, "AUTO_TARGET_SE", 2e-3)  # small corpora: fewer pairs
    for seed in range(5):
        res = agree(files, seed=seed)
        assert res.tree_alpha.sampled is not None
        assert any("D_e estimated from sampled pairs" in n for n in res.notes)
        for v, st in res.alpha.items():
            assert st.alpha_se is not None and st.alpha_se > 0
            assert abs(st.alpha - exact.alpha[v].alpha) <= 3 * st.alpha_se, (name, v, seed)


def test_exact_forced_over_budget_says_what_it_costs(monkeypatch):
    monkeypatch.setattr(alpha_mod, "EXACT_BUDGET_CELLS", 0)
    res = agree(["synagree/data/en-sample/ann_a/sample.conllu",
                 "synagree/data/en-sample/ann_b/sample.conllu"], exact=True)
    assert res.tree_alpha.sampled is None
    assert any("exact D_e over" in n and "G cells" in n for n in res.notes)
