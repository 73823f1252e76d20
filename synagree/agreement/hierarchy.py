"""Hierarchical label credit between annotators: the section ``--hierarchy`` adds.

The scores themselves (``LA_hier``, ``LAS_hier``, ``kappa_hier``,
``scott_pi``, ``cohen_kappa``, ``LA_bdm``, ``LAS_bdm``, ``alpha_<v>_hier``)
are `synagree.stats.hierarchical.hierarchical_metrics` of the corpus
(docs/method.md §9.6, §15.4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

from synagree.agreement.core import Core, Value, variants_of
from synagree.stats.hierarchical import HierarchyOptions, hierarchical_metrics

__all__ = ["HierarchyScores", "hierarchy_scores"]


@dataclass(frozen=True)
class HierarchyScores:
    """Hierarchical scores of an agreement result, with the options that gave them."""

    options: HierarchyOptions
    values: Dict[str, Optional[float]]
    info: dict  # sums, the hierarchy used, unknown labels, notes
    name = "hierarchy"

    def metrics(self) -> Dict[str, Value]:
        """The registered keys of the scores (fractions, None when undefined)."""
        return dict(self.values)

    def details(self) -> dict:
        """The sums behind the scores, the hierarchy and what it lacked."""
        return self.info

    def notes(self) -> List[str]:
        """What a reader must know (labels added to the hierarchy, ...)."""
        return list(self.info.get("notes", []))


def hierarchy_scores(core: Core, options: HierarchyOptions) -> HierarchyScores:
    """The hierarchical scores of ``core``'s corpus, for the α variants it has.

    Raises
    ------
    ValueError
        ``core`` carries no corpus.
    synagree.base.problems.InputError
        A bad hierarchy or option.
    """
    if core.corpus is None:
        raise ValueError("the result carries no corpus (use synagree.agree / agree_corpus)")
    o = options
    values, info = hierarchical_metrics(core.corpus, o.spec, o.label_distance, o.plain_as_leaf,
                                        o.label_credit, variants_of(core), o.tag_syntax, o.bdm,
                                        o.wu_palmer, executor=core.executor)
    return HierarchyScores(o, values, info)
