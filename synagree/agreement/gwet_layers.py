"""Gwet's AC1/AC2 of token layers (``synagree categorical --coefficient ac1|ac2``).

docs/method.md §34.1.  Each layer's items (words × annotators as category
codes, `synagree.stats.categorical.items_from_corpus`) become the rating
counts of `synagree.stats.gwet`: every word coded by at least one annotator
is an item, missing annotations are missing ratings, and p_a uses the words
with two or more.  Pooled over documents (micro), one row per layer.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, Mapping, Optional

from synagree.base.problems import InputError
from synagree.base.table import Table
from synagree.stats.categorical import ItemData
from synagree.stats.gwet import (
    WEIGHTS,
    GwetAC,
    category_order,
    gwet_from_codes,
    gwet_table,
    weight_matrix,
)
from synagree.stats.hierarchy_input import HierarchySpec, describe_hierarchy, load_hierarchy

__all__ = ["COEFFICIENT_CHOICES", "GwetOptions", "GwetLayers", "gwet_of_layers"]

#: ``--coefficient`` of ``categorical``
COEFFICIENT_CHOICES = ("ac1", "ac2")


def _usage(message: str) -> InputError:
    return InputError.single("<command line>", None, "usage", message)


@dataclass(frozen=True)
class GwetOptions:
    """Which Gwet coefficient, with which weights.

    Attributes
    ----------
    coefficient : {"ac1", "ac2"}
    weights : str, optional
        ``ordinal`` or ``quadratic`` (AC2); None with AC1 or a hierarchy.
    hierarchy : str, path-like or Hierarchy, optional
        AC2's weights from the hierarchy's mutual credit (docs/method.md §34.1).
    level : float
        Confidence level of Gwet's interval.

    Raises
    ------
    InputError
        ``usage``: an unknown coefficient or weights; AC1 with weights or a
        hierarchy; AC2 with neither, or with both.
    """

    coefficient: str = "ac1"
    weights: Optional[str] = None
    hierarchy: Optional[HierarchySpec] = None
    level: float = 0.95

    def __post_init__(self) -> None:
        if self.coefficient not in COEFFICIENT_CHOICES:
            raise _usage(f"--coefficient {self.coefficient}: choose from "
                         f"{', '.join(COEFFICIENT_CHOICES)}")
        if self.weights is not None and self.weights not in WEIGHTS:
            raise _usage(f"--ac2-weights {self.weights}: choose from {', '.join(WEIGHTS)}")
        weighted = (self.weights not in (None, "identity")) or self.hierarchy is not None
        if self.coefficient == "ac1" and weighted:
            raise _usage("AC1 has identity weights; --ac2-weights ordinal|quadratic and "
                         "--hierarchy go with --coefficient ac2")
        if self.coefficient == "ac2" and not weighted:
            raise _usage("--coefficient ac2 needs its weights: --ac2-weights ordinal|quadratic "
                         "or --hierarchy FILE (identity weights are AC1)")
        if self.weights is not None and self.hierarchy is not None:
            raise _usage("give --ac2-weights or --hierarchy for AC2, not both")

    @property
    def kind(self) -> str:
        """The weights' name: ``identity``, ``ordinal``, ``quadratic`` or ``hierarchy``."""
        if self.hierarchy is not None:
            return "hierarchy"
        return self.weights or "identity"

    def describe(self) -> str:
        """The settings line, e.g. ``AC2, weights quadratic, 95% t interval``."""
        w = (f"hierarchy {describe_hierarchy(self.hierarchy)} (mutual credit)"
             if self.hierarchy is not None else self.kind)
        return f"{self.coefficient.upper()}, weights {w}, {100 * self.level:g}% t interval"


@dataclass(frozen=True)
class GwetLayers:
    """Gwet's coefficient per layer.

    Attributes
    ----------
    options : GwetOptions
    results : dict of str to GwetAC
    orders : dict of str to list of str
        Per layer, the category order of ordinal or quadratic weights.
    notes : list of str
    """

    options: GwetOptions
    results: Dict[str, GwetAC]
    orders: Dict[str, List[str]] = field(default_factory=dict)
    notes: List[str] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: the settings and each layer's coefficient."""
        return {"settings": self.options.describe(),
                "layers": {k: v.to_dict() for k, v in self.results.items()},
                **({"category_order": dict(self.orders)} if self.orders else {}),
                **({"notes": list(self.notes)} if self.notes else {})}

    def table(self) -> Table:
        """The ``gwet`` table: one row per layer."""
        return gwet_table(self.results, f"Gwet's {self.options.describe()} (Gwet's "
                          f"standard error)", self.notes)


def gwet_of_layers(items: Mapping[str, ItemData], options: GwetOptions) -> GwetLayers:
    """Gwet's AC1/AC2 of each layer's items (module docstring).

    Parameters
    ----------
    items : mapping of str to ItemData
        Per layer, its items.
    options : GwetOptions

    Raises
    ------
    InputError
        A hierarchy that cannot be read (``hierarchy-not-found`` and the
        problems of a hierarchy file).

    Examples
    --------
    >>> import numpy as np
    >>> data = ItemData("deprel", ["a", "b"], ["nsubj", "obj"],
    ...                 np.array([[0, 0], [0, 1], [1, 1]]), np.zeros(3, int), ["s1"], ["d"])
    >>> r = gwet_of_layers({"deprel": data}, GwetOptions("ac1")).results["deprel"]
    >>> r.name, round(r.value, 4)
    ('AC1', 0.3333)
    """
    results: Dict[str, GwetAC] = {}
    orders: Dict[str, List[str]] = {}
    notes: List[str] = []
    kind = options.kind
    for layer, data in items.items():
        labels = list(data.categories)
        h = (load_hierarchy(options.hierarchy, labels) if options.hierarchy is not None
             else None)
        w = weight_matrix(kind, labels, h)
        if kind in ("ordinal", "quadratic"):
            orders[layer] = category_order(labels)[0]
        r = gwet_from_codes(data.codes, len(labels), w, options.level, kind)
        if r.name.lower() != options.coefficient:  # AC2 whose weights give no partial credit
            notes.append(f"{layer}: the {kind} weights give no partial credit between the "
                         f"layer's categories, so its AC2 equals AC1")
            r = replace(r, name=options.coefficient.upper())
        results[layer] = r
    if orders:
        notes.append(f"{kind} weights order the categories: numerically when every label is a "
                     f"number, else alphabetically (category_order in the JSON output); on "
                     f"nominal labels such an order is a choice, not a property of the data")
    notes.append("q, the categories of Gwet's chance term, are the categories used in the "
                 "layer")
    return GwetLayers(options, results, orders, notes)
