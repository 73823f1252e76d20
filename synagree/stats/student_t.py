"""Student's t distribution: its CDF and quantile, without scipy.

Gwet's AC1/AC2 intervals (`synagree.stats.gwet`) and the alt-test's
one-sided tests (`synagree.stats.alt_test`) need Student's t, and scipy is
not a runtime dependency of the package (only of its tests, which compare
these functions with ``scipy.stats.t``).  Written by hand because the
standard library has no t distribution (``statistics.NormalDist`` is the
normal only).

The CDF is F(t; ν) = 1 − ½ I_x(ν/2, ½) for t ≥ 0 with x = ν / (ν + t²),
I the regularized incomplete beta function, evaluated by its continued
fraction (modified Lentz's method, Press et al., *Numerical Recipes*
§6.4); F(−t) = 1 − F(t).  The quantile inverts the CDF by bisection on a
bracket that is doubled until it holds the answer (the CDF is monotone, so
bisection to the last bit is exact enough and always converges).
"""
from __future__ import annotations

import math

__all__ = ["t_cdf", "t_quantile"]

_EPS = 1e-16
_TINY = 1e-300


def _beta_cf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), 0 ≤ x ≤ 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _beta_cf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _beta_cf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T ≤ t) for Student's t with ``df`` degrees of freedom.

    Parameters
    ----------
    t : float
    df : float
        Degrees of freedom, > 0.

    Returns
    -------
    float
        NaN when ``t`` or ``df`` is NaN or ``df`` ≤ 0.

    Examples
    --------
    >>> round(t_cdf(2.0, 10), 6)
    0.963306
    >>> t_cdf(0.0, 3)
    0.5
    """
    if math.isnan(t) or math.isnan(df) or df <= 0:
        return math.nan
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The t with P(T ≤ t) = ``p`` (Student's t, ``df`` degrees of freedom).

    Parameters
    ----------
    p : float
        A probability, 0 < p < 1.
    df : float
        Degrees of freedom, > 0.

    Returns
    -------
    float
        NaN for NaN input, ``p`` outside (0, 1) or ``df`` ≤ 0.

    Examples
    --------
    >>> round(t_quantile(0.975, 10), 6)
    2.228139
    """
    if math.isnan(p) or math.isnan(df) or df <= 0 or not 0.0 < p < 1.0:
        return math.nan
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, 2.0 * hi
        if hi > 1e300:
            return math.inf
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)
