"""Krippendorff's α for any reliability data: nominal, ordinal, interval, ratio or your δ².

docs/method.md §5.1.  The data are coders × units (``data[c][u]``); a value
is missing when it is None, a float NaN (the convention of the ``krippendorff``
package and of pandas) or equal to ``missing``.  Units with fewer than two
values take no part.  The computation goes through the coincidence matrix
o_ck (Krippendorff 2011): with n_c = Σ_k o_ck and n = Σ_c n_c,

    D_o = (1/n) Σ_ck o_ck δ²_ck,   D_e = 1/(n(n−1)) Σ_ck (n_c n_k − [c = k] n_c) δ²_ck

which is the double sum over pairs of values of docs/method.md §5.1, in
time proportional to the pairs within units plus V² for V distinct values.
The ordinal δ² is Krippendorff's: (Σ_{g=c..k} n_g − (n_c + n_k)/2)², over the
values in their numeric order.

The result is an `Alpha`: a float (NaN when α is undefined) that carries the
sums behind it (`AlphaStats`).
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, Hashable, List, Sequence, Tuple, Union, cast

import numpy as np

from synagree.stats.alpha import AlphaStats, _degenerate_notes

__all__ = ["LEVELS", "Alpha", "krippendorff_alpha"]

#: the named levels of measurement
LEVELS = ("nominal", "ordinal", "interval", "ratio")

Metric = Union[str, Callable[[Any, Any], float]]


class Alpha(float):
    """Krippendorff's α as a number that keeps its sums.

    ``float(a)`` is α (NaN when it is undefined: fewer than two pairable
    values, or D_e = 0); ``a.stats`` is the `AlphaStats` behind it, and its
    fields read through: ``a.alpha`` (None when undefined), ``a.d_o``,
    ``a.d_e``, ``a.do_sum``, ``a.de_sum``, ``a.n``, ``a.units``, ``a.notes``.

    Examples
    --------
    >>> a = Alpha(AlphaStats(do_sum=2.0, de_sum=74.0, n=4, units=2))
    >>> round(a, 4), round(a.d_e, 4), a.n, a.defined
    (0.9189, 6.1667, 4, True)
    >>> Alpha(AlphaStats(0.0, 0.0, 4, 2)).alpha is None
    True
    """

    stats: AlphaStats

    def __new__(cls, stats: AlphaStats) -> "Alpha":
        value = stats.alpha
        obj = super().__new__(cls, math.nan if value is None else value)
        obj.stats = stats
        return obj

    def __getattr__(self, name: str) -> Any:
        if name == "stats":  # not yet set (unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.stats, name)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (Alpha, (self.stats,))

    @property
    def defined(self) -> bool:
        """α is a number (not NaN)."""
        return self.stats.alpha is not None


def _is_missing(v: object, missing: object) -> bool:
    if v is None:
        return True
    if isinstance(v, (float, np.floating)) and math.isnan(v):
        return True
    if missing is not None:
        try:
            return bool(v == missing)
        except (TypeError, ValueError):  # e.g. an array compared with a scalar
            return False
    return False


def _rows(data: object) -> Sequence[Sequence[object]]:
    """``data`` as a list of coder rows (numpy arrays and DataFrames included)."""
    values = getattr(data, "values", data)  # a pandas DataFrame: its rows are the coders
    if isinstance(values, np.ndarray):
        if values.ndim != 2:
            raise ValueError(f"reliability data must be 2-dimensional (coders × units), "
                             f"got an array of shape {values.shape}")
        if values.size == 0:
            raise ValueError(f"reliability data must hold at least one coder row of at least "
                             f"one unit (coders × units), got an array of shape {values.shape}")
        return [list(r) for r in values]
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise ValueError("reliability data must be a sequence of coder rows (coders × "
                         f"units), got {type(data).__name__}")
    rows = []
    for k, row in enumerate(values):
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
            raise ValueError(f"reliability data must be coders × units: row {k + 1} is "
                             f"{type(row).__name__}, not a sequence of values")
        rows.append(list(row))
    if not rows or not any(rows):
        raise ValueError(f"reliability data must hold at least one coder row of at least "
                         f"one unit (coders × units), got {_shown(data)}")
    lengths = sorted({len(r) for r in rows})
    if len(lengths) > 1:  # a short row is not "missing at the end": say which
        raise ValueError(f"reliability data must be coders × units with one value (or a "
                         f"missing value) per unit in every row: the rows have "
                         f"{', '.join(map(str, lengths))} values; fill the gaps with None "
                         f"or NaN")
    return rows


def _shown(x: object) -> str:
    r = repr(x)
    return r if len(r) <= 60 else r[:57] + "..."


def _units(rows: Sequence[Sequence[object]], missing: object) -> List[List[object]]:
    """The values of each unit with two or more of them."""
    n_units = max((len(r) for r in rows), default=0)
    out = []
    for u in range(n_units):
        vals = [r[u] for r in rows if u < len(r) and not _is_missing(r[u], missing)]
        if len(vals) >= 2:
            out.append(vals)
    return out


def _delta2(metric: Metric, domain: List[object], n_c: np.ndarray) -> np.ndarray:
    """δ² between every two values of ``domain`` (V × V)."""
    V = len(domain)
    if callable(metric):
        return np.array([[float(metric(a, b)) for b in domain] for a in domain],
                        dtype=np.float64).reshape(V, V)
    if metric == "nominal":
        return 1.0 - np.eye(V)
    x = np.asarray(domain, dtype=np.float64)
    if metric == "interval":
        return (x[:, None] - x[None, :]) ** 2
    if metric == "ratio":
        s = x[:, None] + x[None, :]
        d = x[:, None] - x[None, :]
        return np.divide(d, s, out=np.zeros((V, V)), where=s != 0) ** 2
    # ordinal: values in numeric order; Σ_{g=c..k} n_g − (n_c + n_k)/2, squared
    cum = np.concatenate([[0.0], np.cumsum(n_c)])
    lo = np.minimum.outer(np.arange(V), np.arange(V))
    hi = np.maximum.outer(np.arange(V), np.arange(V))
    between = cum[hi + 1] - cum[lo]
    squared: np.ndarray = (between - (n_c[:, None] + n_c[None, :]) / 2.0) ** 2
    return squared


def _domain(units: List[List[object]], metric: Metric) -> List[object]:
    distinct: Dict[object, None] = {}
    for vals in units:
        for v in vals:
            try:
                distinct.setdefault(v, None)
            except TypeError:
                raise ValueError(f"the values must be hashable; got {v!r} "
                                 f"({type(v).__name__})") from None
    domain = list(distinct)
    if isinstance(metric, str) and metric != "nominal":
        bad = [v for v in domain if isinstance(v, (bool, np.bool_))
               or not isinstance(v, (int, float, np.integer, np.floating))]
        if bad:
            raise ValueError(f"the {metric} metric needs numbers; got {bad[0]!r} "
                             f"({type(bad[0]).__name__}); map categories to numbers (ranks "
                             f"for ordinal data) or use the nominal metric")
        domain.sort(key=lambda v: float(cast(float, v)))  # numbers, checked above
    return domain


def krippendorff_alpha(data: object, metric: Metric = "nominal",
                       missing: Hashable = None) -> Alpha:
    """Krippendorff's α for reliability data laid out coders × units.

    Parameters
    ----------
    data : sequence of sequences, numpy array or pandas DataFrame
        ``data[c][u]`` is coder c's value for unit u.  Rows may differ in
        length (the missing tail is missing).  None, NaN and ``missing`` mark
        a missing value.
    metric : {"nominal", "ordinal", "interval", "ratio"} or callable
        The level of measurement, or a callable giving the *squared*
        distance δ² of two values.  The ordinal, interval and ratio metrics
        need numbers (ordinal: ranks in any numeric coding).
    missing : hashable, optional
        A further value that marks a missing value (``"*"``, ``-1``, ...).

    Returns
    -------
    Alpha
        A float (NaN when α is undefined, with a note in ``.notes``) that
        carries its sums (``.stats``, ``.d_o``, ``.d_e``, ``.n``, ...).

    Raises
    ------
    ValueError
        An unknown metric, data that are not coders × units (no rows, empty
        rows, or rows of different lengths: fill gaps with None or NaN), unhashable
        values, or values that are not numbers under a numeric metric.

    See Also
    --------
    synagree.stats.alpha.tree_alpha : α over trees.

    Examples
    --------
    Krippendorff's (2011) example: 3 coders, 15 units, missing values as NaN.

    >>> nan = float("nan")
    >>> data = [[nan, nan, nan, nan, nan, 3, 4, 1, 2, 1, 1, 3, 3, nan, 3],
    ...         [1, nan, 2, 1, 3, 3, 4, 3, nan, nan, nan, nan, nan, nan, nan],
    ...         [nan, nan, 2, 1, 3, 4, 4, nan, 2, 1, 1, 3, 3, nan, 4]]
    >>> [round(krippendorff_alpha(data, m), 6) for m in ("nominal", "ordinal", "interval")]
    [0.691358, 0.806721, 0.810845]
    >>> a = krippendorff_alpha(data, "ratio")
    >>> round(float(a), 4), a.n, a.units
    (0.8089, 26, 12)
    >>> krippendorff_alpha(data, "cardinal")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown metric 'cardinal': expected one of nominal, ordinal, interval, ...
    """
    if not callable(metric) and metric not in LEVELS:
        raise ValueError(f"unknown metric {metric!r}: expected one of {', '.join(LEVELS)} or "
                         f"a callable giving the squared distance of two values")
    units = _units(_rows(data), missing)
    domain = _domain(units, metric)
    index = {v: k for k, v in enumerate(domain)}
    V = len(domain)
    o = np.zeros((V, V))
    for vals in units:
        ids = np.fromiter((index[v] for v in vals), dtype=np.int64, count=len(vals))
        counts = np.bincount(ids, minlength=V).astype(np.float64)
        nz = np.flatnonzero(counts)
        c = counts[nz]
        block = np.outer(c, c) - np.diag(c)  # ordered pairs of distinct values in the unit
        o[np.ix_(nz, nz)] += block / (len(vals) - 1)
    n_c = o.sum(axis=1)
    n = int(round(n_c.sum()))
    d2 = _delta2(metric, domain, n_c)
    do_sum = float((o * d2).sum())
    de_sum = float(((np.outer(n_c, n_c) - np.diag(n_c)) * d2).sum())
    stats = AlphaStats(do_sum, de_sum, n, len(units))
    _degenerate_notes(stats, "alpha")
    return Alpha(stats)
