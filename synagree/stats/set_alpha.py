"""Krippendorff's α over set-valued annotations (MASI or Jaccard distance).

docs/method.md §20.3.  Each annotator gives each item a *set* (for example,
the enhanced edges into a word).  The distance between two sets A and B:

* Jaccard: δ = 1 − |A ∩ B| / |A ∪ B|;
* MASI (Passonneau 2006): δ = 1 − J · M, J the Jaccard similarity and M = 1
  when A = B, 2/3 when one is a subset of the other, 1/3 when they
  overlap otherwise, 0 when they are disjoint.

Two empty sets are equal (δ = 0); an empty and a non-empty set are at δ = 1.
α uses δ itself as the disagreement of a pair (δ², in the notation of
`synagree.stats.alpha`, is the set distance, as in NLTK's ``alpha`` with
``masi_distance``):

    D_o = (1/n) Σ_u 1/(m_u − 1) Σ_{i≠j in u} δ(v_ui, v_uj)
    D_e = 1/(n(n − 1)) Σ_{c≠k} n_c n_k δ(c, k)     (over distinct values)

Only pairs of distinct values that share an element can be closer than 1;
D_e is computed from those pairs (found through an element index) and the
total Σ_{c≠k} n_c n_k, so its cost grows with the overlapping pairs rather
than with the square of the distinct values.  The result is an `AlphaStats`
(sums, α derived).
"""
from __future__ import annotations

from itertools import combinations
from typing import Callable, Dict, FrozenSet, Hashable, List, Optional, Sequence, Set, Tuple

from synagree.stats.alpha import AlphaStats

__all__ = ["jaccard_distance", "masi_distance", "SET_DISTANCES", "set_alpha"]

AnySet = FrozenSet[Hashable]


def jaccard_distance(a: AnySet, b: AnySet) -> float:
    """1 − |A ∩ B| / |A ∪ B| (0 for two empty sets)."""
    union = len(a | b)
    return 1.0 - len(a & b) / union if union else 0.0


def masi_distance(a: AnySet, b: AnySet) -> float:
    """MASI distance (Passonneau 2006): 1 − Jaccard × monotonicity."""
    inter, union = len(a & b), len(a | b)
    if not union:
        return 0.0
    if inter == len(a) == len(b):
        m = 1.0
    elif inter == len(a) or inter == len(b):
        m = 2 / 3
    elif inter:
        m = 1 / 3
    else:
        m = 0.0
    return 1.0 - inter / union * m


SET_DISTANCES: Dict[str, Callable[[AnySet, AnySet], float]] = {
    "masi": masi_distance, "jaccard": jaccard_distance}
"""Set distances by name."""


def set_alpha(items: Sequence[Sequence[Optional[AnySet]]], distance: str = "masi") -> AlphaStats:
    """Krippendorff's α of set-valued annotations.

    docs/method.md §20.3.  Items with fewer than two sets take no part.

    Parameters
    ----------
    items : sequence of sequence of frozenset or None
        ``items[i][c]``: annotator c's set for item i, None when missing.
    distance : {"masi", "jaccard"}

    Returns
    -------
    AlphaStats
        ``alpha`` None when undefined (with a note).

    Raises
    ------
    KeyError
        Unknown distance.
    """
    d = SET_DISTANCES[distance]
    ids: Dict[AnySet, int] = {}
    sets: List[AnySet] = []
    counts: List[int] = []
    cache: Dict[Tuple[int, int], float] = {}

    def dist(i: int, j: int) -> float:
        if i == j:
            return 0.0
        key = (i, j) if i < j else (j, i)
        v = cache.get(key)
        if v is None:
            v = cache[key] = d(sets[i], sets[j])
        return v

    do_sum = 0.0
    units = 0
    for row in items:
        vals = [v for v in row if v is not None]
        if len(vals) < 2:
            continue
        units += 1
        codes = []
        for v in vals:
            k = ids.get(v)
            if k is None:
                k = ids[v] = len(sets)
                sets.append(v)
                counts.append(0)
            counts[k] += 1
            codes.append(k)
        s = sum(dist(x, y) for i, x in enumerate(codes) for j, y in enumerate(codes) if i != j)
        do_sum += s / (len(codes) - 1)
    n = sum(counts)
    # D_e: every ordered pair of distinct values at distance 1, less what overlapping
    # pairs are closer
    de_sum = float(n * n - sum(c * c for c in counts))
    holders: Dict[Hashable, List[int]] = {}
    for k, v in enumerate(sets):
        for e in v:
            holders.setdefault(e, []).append(k)
    close: Set[Tuple[int, int]] = set()
    for ks in holders.values():
        close.update(combinations(ks, 2))
    for i, j in close:
        de_sum -= 2 * counts[i] * counts[j] * (1.0 - dist(i, j))
    stats = AlphaStats(do_sum, max(de_sum, 0.0), n, units)
    if n < 2:
        stats.notes.append("alpha: no item has two or more annotations; alpha is undefined")
    elif stats.de_sum <= 0.0:
        stats.notes.append("alpha: D_e = 0 (all sets identical, no variation to measure "
                           "agreement on); alpha is undefined")
    return stats
