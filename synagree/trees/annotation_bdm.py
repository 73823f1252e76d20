"""BDM-style closeness between annotations with alternatives (docs/method.md §15.3).

`synagree.trees.hierarchy.bdm_credit` scores two single tags.  Annotations
may name several tags (uniform mass) or carry probabilities, so BDM is
extended by expectation:

Against gold (`bdm_against_gold`)
    Gold alternatives are disjunctive (any of them is right), so each output
    tag is scored against its *closest* gold alternative, and the output's
    mass weights the result::

        bdm(G, O) = sum_t w_O(t) * max_{g in G} bdm(g, t)

    1 when every output tag is a gold alternative; for one gold tag it is the
    expected BDM under the output's distribution.
Between annotators (`expected_bdm`)
    Neither side is gold; both are distributions, and the score is the
    expected BDM of one tag drawn from each::

        bdm(a, b) = sum_s sum_t w_a(s) * w_b(t) * bdm(s, t)

    Symmetric; two identical single tags get 1, but two identical
    multi-tag annotations get less than 1 (``NN|NNS`` against itself: the
    draws differ half the time), as for the pair agreement of §9.4.
"""
from __future__ import annotations

import math
from typing import Iterable, List, Union

from synagree.trees.hierarchy import Annotation, Hierarchy, _annotation_weights, bdm_credit

__all__ = ["bdm_against_gold", "expected_bdm"]


def _gold_tags(gold: Union[str, Iterable[str]]) -> List[str]:
    if isinstance(gold, str):
        return [gold]
    if hasattr(gold, "items"):
        raise TypeError("gold is a tag or a collection of tags, not a distribution")
    tags = list(dict.fromkeys(gold))
    if not tags:
        raise ValueError("gold annotation has no tags")
    return tags


def bdm_against_gold(hierarchy: Hierarchy, gold: Union[str, Iterable[str]],
                     output: Annotation) -> float:
    """BDM of an output against disjunctive gold: ``sum_t w_O(t) max_g bdm(g, t)``.

    Parameters
    ----------
    hierarchy : Hierarchy
    gold : str or collection of str
        One tag or alternatives (any of them is right).
    output : str, collection of str or mapping of str to float
        See `synagree.trees.hierarchy.credit`.

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> h = Hierarchy.from_edges({"A.1": "A", "A.2": "A", "A.1a": "A.1", "A.1b": "A.1"})
    >>> bdm_against_gold(h, "A.1", "A.2"), bdm_against_gold(h, ["A.1", "A.2"], "A.2")
    (0.5, 1.0)
    >>> bdm_against_gold(h, "A.1a", {"A.1b": 0.5, "A.1a": 0.5})  # (2/3 + 1) / 2
    0.8333333333333333
    """
    tags = _gold_tags(gold)
    weights = _annotation_weights(output)
    return math.fsum(w * max(bdm_credit(hierarchy, g, t) for g in tags)
                     for t, w in weights.items() if w)


def expected_bdm(hierarchy: Hierarchy, a: Annotation, b: Annotation) -> float:
    """Expected BDM of one tag drawn from each annotation: ``sum w_a(s) w_b(t) bdm(s, t)``.

    Parameters
    ----------
    hierarchy : Hierarchy
    a, b : str, collection of str or mapping of str to float

    Returns
    -------
    float
        In [0, 1]; symmetric.

    Examples
    --------
    >>> h = Hierarchy.from_edges({"A.1": "A", "A.2": "A", "A.1a": "A.1", "A.1b": "A.1"})
    >>> expected_bdm(h, "A.1", "A.2"), expected_bdm(h, ["A.1", "A.2"], ["A.1", "A.2"])
    (0.5, 0.75)
    """
    wa, wb = _annotation_weights(a), _annotation_weights(b)
    return math.fsum(pa * pb * bdm_credit(hierarchy, s, t)
                     for s, pa in wa.items() if pa for t, pb in wb.items() if pb)
