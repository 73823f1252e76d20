"""Hierarchical κ: chance-corrected agreement with partial credit over a tag hierarchy.

docs/method.md §9.4.  On items annotated twice, with the leaf distributions
P(l | t) of `synagree.trees.hierarchy.Hierarchy`:

* P(A), the mean pair agreement over the items, agr(a, b) = Σ_l P(l|a)·P(l|b)
  (`synagree.trees.hierarchy.pair_agreement`);
* P(E) = Σ_l P(l)², P(l) the mean leaf distribution over all annotations,
  both sides of every item pooled, as in Scott's π (`chance_agreement`);
* κ = (P(A) − P(E)) / (1 − P(E)), undefined (NaN) when 1 − P(E) ≤ 1e-12
  (every annotation the same leaf) or there are no items.

The chance term and the correction are those of Scott's π
(`synagree.stats.contingency.pooled_chance`, `chance_corrected`): with a flat
hierarchy this is exactly Scott's π.  Flat coefficients over label pairs are
`synagree.stats.contingency.Contingency.from_labels`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Mapping, Optional, Tuple

import numpy as np

from synagree.stats.contingency import chance_corrected, pooled_chance
from synagree.trees.hierarchy import Annotation, Hierarchy

__all__ = ["HierarchicalKappa", "hierarchical_kappa", "chance_agreement"]


def _mass(hierarchy: Hierarchy, annotations: Iterable[Annotation],
          into: Optional[Dict[str, float]] = None) -> Tuple[Dict[str, float], int]:
    """Σ over the annotations of P(l | annotation) per leaf, and their number."""
    mass: Dict[str, float] = {} if into is None else into
    n = 0
    for annotation in annotations:
        n += 1
        for leaf, p in hierarchy.distribution(annotation).items():
            mass[leaf] = mass.get(leaf, 0.0) + p
    return mass, n


def _expected(mass: Mapping[str, float], n: int) -> float:
    """P(E) of ``n`` annotations whose leaf mass is ``mass`` (NaN for none)."""
    if n == 0:
        return math.nan
    return float(pooled_chance(np.fromiter(mass.values(), np.float64, len(mass)), n))


def chance_agreement(hierarchy: Hierarchy, annotations: Iterable[Annotation]) -> float:
    """Chance agreement ``P(E) = sum_l P(l)^2`` (docs/method.md §9.4).

    ``P(l)`` is the mean leaf distribution of the annotations (both sides of
    every item pooled, as in Scott's π).

    Parameters
    ----------
    hierarchy : Hierarchy
    annotations : iterable of annotations
        Tags, tag collections or distributions (see
        `synagree.trees.hierarchy.credit`).

    Returns
    -------
    float
        ``nan`` for no annotations.
    """
    mass, n = _mass(hierarchy, annotations)
    return _expected(mass, n)


@dataclass
class HierarchicalKappa:
    """Hierarchical kappa with the sums it is made of, so results merge.

    docs/method.md §9.4.

    Parameters
    ----------
    n_items : int
        Items annotated twice.
    sum_agreement : float
        Sum over items of `synagree.trees.hierarchy.pair_agreement`.
    n_annotations : int
        Annotations pooled for chance (= 2 * ``n_items``).
    leaf_mass : dict of str to float
        Sum over all annotations of ``P(l | annotation)``, per leaf.

    See Also
    --------
    hierarchical_kappa
    """

    n_items: int = 0
    sum_agreement: float = 0.0
    n_annotations: int = 0
    leaf_mass: Dict[str, float] = field(default_factory=dict)

    @property
    def p_observed(self) -> float:
        """P(A): mean pairwise agreement (``nan`` with no items)."""
        return self.sum_agreement / self.n_items if self.n_items else math.nan

    @property
    def p_expected(self) -> float:
        """P(E) = sum_l P(l)^2 over the pooled annotations (``nan`` if none)."""
        return _expected(self.leaf_mass, self.n_annotations)

    @property
    def kappa(self) -> float:
        """(P(A) - P(E)) / (1 - P(E)); ``nan`` if 1 - P(E) <= 1e-12 or no items."""
        return chance_corrected(self.p_observed, self.p_expected)

    def merge(self, other: "HierarchicalKappa") -> "HierarchicalKappa":
        """The result over the items of both (a new object)."""
        mass = dict(self.leaf_mass)
        for leaf, m in other.leaf_mass.items():
            mass[leaf] = mass.get(leaf, 0.0) + m
        return HierarchicalKappa(self.n_items + other.n_items,
                                 self.sum_agreement + other.sum_agreement,
                                 self.n_annotations + other.n_annotations, mass)

    def as_dict(self) -> dict:
        """The sums, P(A), P(E) and κ as a dict (JSON-ready apart from ``nan``)."""
        return {"n_items": self.n_items, "sum_agreement": self.sum_agreement,
                "n_annotations": self.n_annotations, "p_observed": self.p_observed,
                "p_expected": self.p_expected, "kappa": self.kappa}


def hierarchical_kappa(hierarchy: Hierarchy,
                       pairs: Iterable[Tuple[Annotation, Annotation]]) -> HierarchicalKappa:
    """Hierarchical κ over items annotated twice (docs/method.md §9.4).

    ``P(A)`` is the mean `synagree.trees.hierarchy.pair_agreement` over the
    items, ``P(E)`` the `chance_agreement` of all annotations pooled; with a
    flat hierarchy this is Scott's π.

    Parameters
    ----------
    hierarchy : Hierarchy
    pairs : iterable of (annotation, annotation)
        ``[(a, b), ...]``, one pair per item.

    Returns
    -------
    HierarchicalKappa
        ``kappa`` is ``nan`` with no items or when P(E) is 1.
    """
    result = HierarchicalKappa()
    agreements: List[float] = []
    for a, b in pairs:
        agreements.append(hierarchy.pair_agreement(a, b))
        _mass(hierarchy, (a, b), into=result.leaf_mass)
    result.n_items = len(agreements)
    result.n_annotations = 2 * len(agreements)
    result.sum_agreement = math.fsum(agreements)
    return result
