"""Unlabelled α (tree structure only) and label agreement where the heads agree.

``alpha_plain_unlabelled``, ``alpha_diff_unlabelled``, ``alpha_norm_unlabelled``
    The three variants of α (plain, diff, norm; same δ, same |t|) over trees
    whose labels are all mapped to one label: every node but the artificial
    root gets the same label id, the root keeps its empty label (cost 0 to
    insert or delete, as in the labelled trees).  Renaming then never costs
    anything, so the distance counts only the inserted and deleted nodes: the
    structural part of the disagreement.  For phrase-structure trees it is
    α over the unlabelled bracketing.
``LA_given_head`` (dependency corpora)
    Label agreement on the words whose heads agree: words with the same head
    and the same label / words with the same head, i.e. the LAS count over
    the UAS count, aggregated as LAS/UAS/LA are (per unit the mean over
    annotator pairs, so with two annotators it is the plain word count).
    The counts go to ``details["unlabelled"]["LA_given_head"]`` as
    ``correct`` / ``total``.

Why an option (``synagree agree --unlabelled``) and not always: unlabelled
α needs a second all-pairs TED pass over the relabelled trees (they are
fewer distinct trees, so it is cheaper than the first, but on a large
corpus it is a second pass nonetheless), and the published output should
not change by default.  ``LA_given_head`` alone is free; it is reported
with the same option because the two answer the same question (is the
disagreement in the structure or in the labels?).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from synagree.agreement.core import AlphaSet, Core, Value, alpha_over
from synagree.stats.alpha import TreeAlpha
from synagree.trees.flat import FlatTree

__all__ = ["UNLABELLED_LABEL", "unlabelled_tree", "unlabelled_alpha", "la_given_head",
           "Unlabelled", "unlabelled_scores"]

#: The label id every non-root node gets (id 0 stays the root's empty label).
UNLABELLED_LABEL = 1


def unlabelled_tree(tree: FlatTree) -> FlatTree:
    """``tree`` with every label id but 0 (the root's empty label) replaced by one id.

    Returns
    -------
    synagree.trees.flat.FlatTree
        The same shape and |t|; labels are 0 (root) or `UNLABELLED_LABEL`.
    """
    def relabel(lab: np.ndarray) -> np.ndarray:
        return np.where(lab == 0, 0, UNLABELLED_LABEL).astype(lab.dtype)

    return dataclasses.replace(tree, labels=relabel(tree.labels),
                               r_labels=relabel(tree.r_labels))


def unlabelled_alpha(core: Core, variants: Optional[Sequence[str]] = None) -> TreeAlpha:
    """Unlabelled α (every label equal) for the units of an agreement result.

    Parameters
    ----------
    result : synagree.agreement.agree.AgreementResult
        Carries the trees α was computed on (``result.trees``).
    variants : sequence of str, optional
        Default: the variants of ``result``.

    Returns
    -------
    synagree.alpha.TreeAlpha
        ``.alpha("plain")`` etc., counts in ``.stats``.
    """
    return alpha_over(core, [[unlabelled_tree(t) for t in u] for u in core.trees], variants)


def la_given_head(core: Core) -> Optional[Tuple[float, float]]:
    """``(correct, total)``: words with the same head and label, words with the same head.

    Both are summed as LAS/UAS/LA are (per unit the mean over annotator
    pairs); the ratio ``correct / total`` is label accuracy where the heads
    agree (undefined when no word's head agrees).

    Parameters
    ----------
    result : AgreementResult

    Returns
    -------
    (float, float) or None
        None for phrase-structure corpora.
    """
    if core.kind != "dependency":
        return None
    c = core.scores.correct
    return float(c.get("LAS_full", 0.0)), float(c.get("UAS", 0.0))


@dataclass(frozen=True)
class Unlabelled:
    """The section ``--unlabelled`` adds: unlabelled α and `la_given_head`'s counts."""

    alpha: AlphaSet
    given_head: Optional[Tuple[float, float]]  # (correct, total); None for phrase structure
    name = "unlabelled"

    def metrics(self) -> Dict[str, Value]:
        """``alpha_<v>_unlabelled`` and ``LA_given_head``."""
        out = self.alpha.metrics()
        if self.given_head is not None:
            correct, total = self.given_head
            out["LA_given_head"] = correct / total if total else None
        return out

    def details(self) -> dict:
        """The sums behind each α, the distinct trees, the counts of ``LA_given_head``."""
        d: dict = {"counts": self.alpha.counts(), "distinct_trees": self.alpha.distinct_trees}
        if self.given_head is not None:
            d["LA_given_head"] = {"correct": self.given_head[0], "total": self.given_head[1]}
        return d


def unlabelled_scores(core: Core, variants: Optional[Sequence[str]] = None) -> Unlabelled:
    """Unlabelled α and label agreement where the heads agree (``--unlabelled``).

    Parameters
    ----------
    core : AgreementResult
    variants : sequence of str, optional
        Default: the variants of ``core``.
    """
    ta = unlabelled_alpha(core, variants)
    return Unlabelled(AlphaSet.of(ta, "_unlabelled"), la_given_head(core))
