"""The generic α (`synagree.krippendorff_alpha`) against the ``krippendorff`` package.

Hundreds of random reliability matrices with NaN as missing, for the four
levels of measurement, plus the traps a notebook user meets: NaN and None as
missing, ``float()`` of the result, unknown metrics and malformed data as
ValueError with a sentence.
"""
from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

import synagree
from synagree.stats.krippendorff import Alpha, krippendorff_alpha

kd = pytest.importorskip("krippendorff", reason="the krippendorff package is the reference")


def _random_data(rng: np.random.Generator) -> np.ndarray:
    coders, units = int(rng.integers(2, 6)), int(rng.integers(2, 40))
    n_values = int(rng.integers(2, 8))
    values = rng.choice(rng.uniform(-5, 20, size=n_values).round(1)
                        if rng.random() < 0.3 else np.arange(1, n_values + 1),
                        size=(coders, units)).astype(float)
    values[rng.random(values.shape) < rng.uniform(0, 0.5)] = np.nan
    return values


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["nominal", "ordinal", "interval", "ratio"])
def test_equals_the_krippendorff_package(metric):
    rng = np.random.default_rng({"nominal": 1, "ordinal": 2, "interval": 3, "ratio": 4}[metric])
    compared = 0
    for _ in range(300):
        data = _random_data(rng)
        if metric == "ratio":
            data = np.abs(data)  # ratio data are not negative
        ours = krippendorff_alpha(data, metric)
        pairable = sum(1 for u in data.T if np.count_nonzero(~np.isnan(u)) >= 2)
        values = {v for u in data.T if np.count_nonzero(~np.isnan(u)) >= 2
                  for v in u[~np.isnan(u)]}
        if pairable == 0 or len(values) < 2:
            assert not ours.defined and math.isnan(float(ours))  # the package divides by 0
            continue
        ref = kd.alpha(reliability_data=data, level_of_measurement=metric)
        assert float(ours) == pytest.approx(float(ref), rel=1e-9, abs=1e-12), data.tolist()
        compared += 1
    assert compared > 250


def test_none_nan_and_a_missing_marker_are_the_same():
    nan = float("nan")
    with_nan = [[1, 2, nan, 3], [1, 2, 2, nan]]
    with_none = [[1, 2, None, 3], [1, 2, 2, None]]
    with_star = [[1, 2, "*", 3], [1, 2, 2, "*"]]
    a = krippendorff_alpha(with_nan, "interval")
    assert float(a) == float(krippendorff_alpha(with_none, "interval")) == \
        float(krippendorff_alpha(with_star, "interval", missing="*"))
    assert a.n == 4 and a.units == 2


def test_the_result_is_a_float_with_its_sums():
    a = synagree.krippendorff_alpha([[1, 2, 3, 3], [1, 2, 3, 4]], "ordinal")
    assert isinstance(a, float) and isinstance(a, Alpha)
    assert float(a) == pytest.approx(1 - a.d_o / a.d_e)
    assert a.stats.do_sum == a.do_sum and a.alpha == float(a)
    assert pickle.loads(pickle.dumps(a)) == a
    undefined = krippendorff_alpha([[1, 1], [1, 1]])
    assert math.isnan(undefined) and undefined.alpha is None and undefined.notes


@pytest.mark.parametrize("data,metric,words", [
    ([[1, 2], [1, 2]], "cardinal", "unknown metric 'cardinal'"),
    ([1, 2, 3], "nominal", "coders × units"),
    ("abc", "nominal", "sequence of coder rows"),
    (np.zeros((2, 2, 2)), "nominal", "2-dimensional"),
    ([["a", "b"], ["a", "c"]], "interval", "needs numbers"),
    ([[True, False], [True, True]], "ordinal", "needs numbers"),
    ([[[1], [2]], [[1], [2]]], "nominal", "hashable"),
])
def test_bad_metric_or_data_is_a_value_error_with_a_sentence(data, metric, words):
    with pytest.raises(ValueError, match=words):
        krippendorff_alpha(data, metric)


def test_a_callable_metric_and_a_dataframe():
    pd = pytest.importorskip("pandas", reason="DataFrame input")
    df = pd.DataFrame([[1, 2, 3, None], [1, 3, 3, 4]])
    a = krippendorff_alpha(df, lambda x, y: abs(x - y) ** 2)
    assert float(a) == pytest.approx(float(krippendorff_alpha(df, "interval")))
