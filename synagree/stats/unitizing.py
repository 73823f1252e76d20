"""Krippendorff's unitizing α (α_u) over a continuum.

docs/method.md §34.4, after Krippendorff (1995, "On the reliability of
unitizing continuous data") in the form of Krippendorff (2004, *Content
Analysis*, 2nd ed., §12.4), as DKPro Statistics implements it.  m observers
segment one continuum [B, B + L) into units, each with a category; for one
category c each observer's continuum is a sequence of *sections*: their
units of c and the gaps between them (everything not a unit of c).

Distance of two overlapping sections g (of observer i) and h (of j), with
begins b and lengths l:

* both units of c: δ² = (b_g − b_h)² + (b_g + l_g − b_h − l_h)²;
* a unit of c inside a gap of the other (contained): δ² = l², its length
  squared;
* otherwise (two gaps, or a unit overlapping a gap it does not lie in): 0.

Observed disagreement, over ordered observer pairs and overlapping sections:
D_o(c) = Σ_{i≠j} Σ_{g,h overlapping} δ²(g, h) / (m (m − 1) L²).

Expected disagreement, from every unit u of c (length l_u; N_c of them over
all observers) and every gap of c (all observers):
D_e(c) = (2/L) Σ_u [ (N_c − 1)(2 l_u³ − 3 l_u² + l_u)/3
                     + l_u² Σ_{gaps with l_g ≥ l_u} (l_g − l_u + 1) ]
         / (m L (m L − 1) − Σ_u l_u (l_u − 1)).

α_u(c) = 1 − D_o(c)/D_e(c); over all categories α_u = 1 − mean_c D_o(c) /
mean_c D_e(c).  Positions are whole numbers (tokens, characters), as in the
sources.  Units of one category by one observer must not overlap
(Krippendorff); `unitizing_alpha` refuses them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, List, NamedTuple, Sequence, Tuple

__all__ = ["Unit", "UnitizingAlpha", "unitizing_alpha", "sections"]


class Unit(NamedTuple):
    """One observer's unit: ``begin``, ``length`` (whole numbers) and ``category``."""

    begin: int
    length: int
    category: str


@dataclass(frozen=True)
class UnitizingAlpha:
    """α_u overall and per category.

    Attributes
    ----------
    alpha : float
        1 − mean D_o / mean D_e (NaN when every D_e is 0).
    observed, expected : float
        The means over categories.
    per_category : dict of str to (float, float, float)
        ``(D_o, D_e, α)`` of each category.
    observers : int
    begin, length : int
        The continuum.
    units : int
    """

    alpha: float
    observed: float
    expected: float
    per_category: Dict[str, Tuple[float, float, float]]
    observers: int
    begin: int
    length: int
    units: int

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: ``alpha_u``, ``d_o``, ``d_e`` and per category."""
        return {"alpha_u": self.alpha, "d_o": self.observed, "d_e": self.expected,
                "observers": self.observers, "continuum_begin": self.begin,
                "continuum_length": self.length, "units": self.units,
                "categories": {c: {"d_o": o, "d_e": e, "alpha_u": a}
                               for c, (o, e, a) in self.per_category.items()}}


def sections(units: Sequence[Unit], category: str, begin: int, length: int
             ) -> List[Tuple[int, int, bool]]:
    """One observer's sections for ``category``: ``(begin, length, is_unit)`` in order,
    gaps filling the continuum between the units.

    Raises
    ------
    ValueError
        Two units of the category overlap, or a unit leaves the continuum.

    Examples
    --------
    >>> sections([Unit(2, 3, "X")], "X", 0, 10)
    [(0, 2, False), (2, 3, True), (5, 5, False)]
    """
    own = sorted((u.begin, u.length) for u in units if u.category == category)
    out: List[Tuple[int, int, bool]] = []
    pos = begin
    for b, n in own:
        if n <= 0 or b < begin or b + n > begin + length:
            raise ValueError(f"unit [{b}, {b + n}) of {category!r} is empty or leaves the "
                             f"continuum [{begin}, {begin + length})")
        if b < pos:
            raise ValueError(f"units of {category!r} overlap at {b}: one observer's units "
                             f"of a category must not overlap (Krippendorff's alpha_u)")
        if b > pos:
            out.append((pos, b - pos, False))
        out.append((b, n, True))
        pos = b + n
    if pos < begin + length:
        out.append((pos, begin + length - pos, False))
    return out


def _distance(g: Tuple[int, int, bool], h: Tuple[int, int, bool]) -> int:
    bg, lg, ug = g
    bh, lh, uh = h
    if ug and uh:
        return (bg - bh) ** 2 + (bg + lg - bh - lh) ** 2
    if ug and not uh and bh <= bg and bg + lg <= bh + lh:
        return lg * lg
    if uh and not ug and bg <= bh and bh + lh <= bg + lg:
        return lh * lh
    return 0


def _observed(secs: Sequence[List[Tuple[int, int, bool]]], m: int, length: int) -> float:
    total = 0
    for i in range(m):
        for j in range(m):
            if i == j:
                continue
            k = 0
            hs = secs[j]
            for g in secs[i]:  # both lists are in order: a sweep over the overlaps
                while k < len(hs) and hs[k][0] + hs[k][1] <= g[0]:
                    k += 1
                t = k
                while t < len(hs) and hs[t][0] < g[0] + g[1]:
                    total += _distance(g, hs[t])
                    t += 1
    return total / (m * (m - 1) * length * length)


def _expected(secs: Sequence[List[Tuple[int, int, bool]]], m: int, length: int) -> float:
    lengths = [n for s in secs for (_, n, unit) in s if unit]
    gaps = sorted((n for s in secs for (_, n, unit) in s if not unit), reverse=True)
    nc = len(lengths)
    num = 0
    for lu in lengths:
        num += (nc - 1) * (2 * lu ** 3 - 3 * lu ** 2 + lu) // 3  # an integer: l(l−1)(2l−1)
        num += lu * lu * sum(g - lu + 1 for g in gaps if g >= lu)
    den = m * length * (m * length - 1) - sum(lu * (lu - 1) for lu in lengths)
    if den <= 0:
        return math.nan
    return 2.0 * num / (length * den)


def unitizing_alpha(observers: Sequence[Sequence[Unit]], begin: int, length: int
                    ) -> UnitizingAlpha:
    """Krippendorff's α_u of m observers' units over [begin, begin + length).

    Parameters
    ----------
    observers : sequence of sequence of Unit
        Per observer, their units.
    begin, length : int
        The continuum.

    Raises
    ------
    ValueError
        Fewer than two observers, an empty continuum, overlapping units of one
        category by one observer, a unit outside the continuum.

    Examples
    --------
    Krippendorff (2004, p. 254): observers i and j over [150, 450).

    >>> i = [Unit(225, 70, "c"), Unit(370, 30, "c"), Unit(180, 60, "k"), Unit(300, 50, "k")]
    >>> j = [Unit(220, 80, "c"), Unit(355, 20, "c"), Unit(400, 20, "c"),
    ...      Unit(180, 60, "k"), Unit(300, 50, "k")]
    >>> r = unitizing_alpha([i, j], 150, 300)
    >>> [round(x, 4) for x in r.per_category["c"]], round(r.alpha, 4)
    ([0.0144, 0.0532, 0.7286], 0.8587)
    """
    m = len(observers)
    if m < 2 or length <= 0:
        raise ValueError("alpha_u needs two or more observers and a non-empty continuum")
    categories = list(dict.fromkeys(u.category for obs in observers for u in obs))
    per: Dict[str, Tuple[float, float, float]] = {}
    for c in categories:
        secs = [sections(obs, c, begin, length) for obs in observers]
        do, de = _observed(secs, m, length), _expected(secs, m, length)
        per[c] = (do, de, 1.0 - do / de if de > 0 else math.nan)
    if not per:
        return UnitizingAlpha(math.nan, math.nan, math.nan, {}, m, begin, length, 0)
    do_mean = sum(v[0] for v in per.values()) / len(per)
    de_mean = sum(v[1] for v in per.values()) / len(per)
    alpha = 1.0 - do_mean / de_mean if de_mean > 0 else math.nan
    return UnitizingAlpha(alpha, do_mean, de_mean, per, m, begin, length,
                          sum(len(o) for o in observers))
