"""Tag closeness (GATE's BDM or Wu–Palmer) for annotations with alternatives (docs/method.md §15.3).

A *closeness* scores two single tags in [0, 1], 1 for the same tag:
`tag_closeness` gives GATE's balanced distance metric (``"bdm"``,
`synagree.trees.gate_bdm`, docs/method.md §23) or Wu & Palmer's similarity
(``"wu-palmer"``, `synagree.trees.hierarchy.wu_palmer_credit`) over a
hierarchy.  Annotations may name several tags (uniform mass) or carry
probabilities, so a closeness is extended by expectation:

Against gold (`closeness_against_gold`)
    Gold alternatives are disjunctive (any of them is right), so each output
    tag is scored against its *closest* gold alternative, and the output's
    mass weights the result::

        c(G, O) = sum_t w_O(t) * max_{g in G} c(g, t)

    1 when every output tag is a gold alternative; for one gold tag it is the
    expected closeness under the output's distribution.
Between annotators (`expected_closeness`)
    Neither side is gold; both are distributions, and the score is the
    expected closeness of one tag drawn from each::

        c(a, b) = sum_s sum_t w_a(s) * w_b(t) * c(s, t)

    Symmetric; two identical single tags get 1, but two identical
    multi-tag annotations get less than 1 (``NN|NNS`` against itself: the
    draws differ half the time), as for the pair agreement of §9.4.
"""
from __future__ import annotations

import functools
import math
from typing import Callable, Iterable, List, Union

from synagree.trees.hierarchy import Annotation, Hierarchy, _annotation_weights, wu_palmer_credit

__all__ = ["CLOSENESS_KINDS", "Closeness", "tag_closeness", "closeness_against_gold",
           "expected_closeness"]

#: A closeness of two single tags, in [0, 1].
Closeness = Callable[[str, str], float]
#: The closenesses `tag_closeness` builds: GATE's BDM and Wu–Palmer.
CLOSENESS_KINDS = ("bdm", "wu-palmer")


def tag_closeness(hierarchy: Hierarchy, kind: str = "bdm",
                  added: Iterable[str] = ()) -> Closeness:
    """The closeness of two tags over a hierarchy, cached.

    Parameters
    ----------
    hierarchy : Hierarchy
    kind : {"bdm", "wu-palmer"}
        ``bdm``: GATE's balanced distance metric over the hierarchy's tags as
        concepts, its top-level tags as top classes (docs/method.md §23);
        ``wu-palmer``: `synagree.trees.hierarchy.wu_palmer_credit`.
    added : iterable of str
        With ``bdm``: tags the hierarchy gained for data it lacked
        (`Hierarchy.added_tags`).  They are no concepts of it and do not
        change its statistics; such a tag scores 1 with itself and 0 with
        any other tag (under Wu–Palmer too: it is a top-level leaf there).

    Returns
    -------
    callable
        ``f(a, b)`` on tags (resolved through the hierarchy: MSD
        normalisation, the plain-as-leaf alias).

    Raises
    ------
    ValueError
        An unknown ``kind``.
    """
    if kind == "wu-palmer":
        def wup(a: str, b: str) -> float:
            return wu_palmer_credit(hierarchy, a, b)
        return functools.lru_cache(maxsize=None)(wup)
    if kind != "bdm":
        raise ValueError(f"unknown closeness {kind!r}; expected one of "
                         f"{', '.join(CLOSENESS_KINDS)}")
    # GATE's BDM table only here, with its module: every scorer against gold imports this
    # module (the label-credit options), few ask for BDM (issue 36: start-up)
    from synagree.trees.gate_bdm import ConceptGraph, GateBDM

    table = GateBDM(ConceptGraph.from_hierarchy(hierarchy, exclude=added))

    def bdm(a: str, b: str) -> float:
        node_a = hierarchy.resolve(a) if a in hierarchy else a
        node_b = hierarchy.resolve(b) if b in hierarchy else b
        return table.bdm(node_a, node_b)

    return functools.lru_cache(maxsize=None)(bdm)


def _gold_tags(gold: Union[str, Iterable[str]]) -> List[str]:
    if isinstance(gold, str):
        return [gold]
    if hasattr(gold, "items"):
        raise TypeError("gold is a tag or a collection of tags, not a distribution")
    tags = list(dict.fromkeys(gold))
    if not tags:
        raise ValueError("gold annotation has no tags")
    return tags


def closeness_against_gold(closeness: Closeness, gold: Union[str, Iterable[str]],
                           output: Annotation) -> float:
    """A closeness of an output against disjunctive gold: ``sum_t w_O(t) max_g c(g, t)``.

    Parameters
    ----------
    closeness : callable
        On single tags (`tag_closeness`).
    gold : str or collection of str
        One tag or alternatives (any of them is right).
    output : str, collection of str or mapping of str to float
        See `synagree.trees.hierarchy.credit`.

    Returns
    -------
    float
        In [0, 1].
    """
    tags = _gold_tags(gold)
    weights = _annotation_weights(output)
    return math.fsum(w * max(closeness(g, t) for g in tags)
                     for t, w in weights.items() if w)


def expected_closeness(closeness: Closeness, a: Annotation, b: Annotation) -> float:
    """Expected closeness of one tag drawn from each annotation: ``sum w_a(s) w_b(t) c(s, t)``.

    Parameters
    ----------
    closeness : callable
        On single tags (`tag_closeness`).
    a, b : str, collection of str or mapping of str to float

    Returns
    -------
    float
        In [0, 1]; symmetric when the closeness is.
    """
    wa, wb = _annotation_weights(a), _annotation_weights(b)
    return math.fsum(pa * pb * closeness(s, t)
                     for s, pa in wa.items() if pa for t, pb in wb.items() if pb)
