"""The size bins of sampled D_e (`synagree.distance.sums._Strata`) without numpy.ma.

`_quantiles` and `_distinct` stand for ``np.quantile`` and ``np.unique`` (whose
``np.unique`` imports ``numpy.ma``: issue 36, start-up); numpy itself is the oracle,
bit for bit, on the inputs `_Strata` gives them (tree sizes as floats, the
``linspace`` quantiles of 1 to 12 bins) and on random floats.
"""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from synagree.distance.sums import SIZE_BINS, _distinct, _quantiles, _Strata


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and \
        bool((a.view(np.int64) == b.view(np.int64)).all())


@pytest.mark.parametrize("seed", range(6))
def test_quantiles_are_numpys_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    for _ in range(300):
        n = int(rng.integers(1, 400))
        if rng.random() < 0.5:
            values = rng.integers(1, int(rng.integers(2, 120)), size=n).astype(np.float64)
        else:
            values = rng.normal(0, rng.uniform(0.1, 1e6), size=n)
        bins = int(rng.integers(1, SIZE_BINS + 1))
        q = np.linspace(0.0, 1.0, bins + 1)[1:-1]
        q2 = rng.uniform(0.0, 1.0, size=int(rng.integers(0, 20)))
        for qq in (q, q2, np.array([0.0, 1.0, 0.5])):
            got, want = _quantiles(values.copy(), qq), np.quantile(values, qq)
            assert _same_bits(got, want), (values, qq, got, want)
            assert _same_bits(_distinct(got), np.unique(want))
    assert _distinct(np.zeros(0)).shape == (0,)


def test_strata_unchanged_on_tree_sizes():
    """The bins (members of each stratum) are those numpy's functions give."""
    rng = np.random.default_rng(36)
    for _ in range(50):
        size = rng.integers(2, 80, size=int(rng.integers(2, 3000))).astype(np.float64)
        st = _Strata(size, SIZE_BINS)
        edges = np.unique(np.quantile(size, np.linspace(0.0, 1.0, SIZE_BINS + 1)[1:-1]))
        b = np.searchsorted(edges, size, side="right")
        want = [np.flatnonzero(b == k) for k in range(edges.shape[0] + 1)]
        assert len(st.members) == len(want)
        assert all(np.array_equal(np.sort(m), w) for m, w in zip(st.members, want))


def test_strata_do_not_import_numpy_ma():
    code = ("import sys, numpy as np; from synagree.distance.sums import _Strata; "
            "_Strata(np.arange(1.0, 500.0), 12); print('numpy.ma' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.strip() == "False"
