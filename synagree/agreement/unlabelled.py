"""Unlabelled α (tree structure only) and label agreement where the heads agree.

``alpha_plain_unlabelled``, ``alpha_diff_unlabelled``, ``alpha_norm_unlabelled``
    The three variants of α (plain, diff, norm; same δ, same |t|) over trees
    whose labels are all mapped to one label: every node but the artificial
    root gets the same label id, the root keeps its empty label (cost 0 to
    insert or delete, as in the labelled trees).  Renaming then never costs
    anything, so the distance counts only the inserted and deleted nodes: the
    structural part of the disagreement.  For phrase-structure trees it is
    α over the unlabelled bracketing.
``la_given_head`` (dependency corpora)
    Label agreement on the words whose heads agree: words with the same head
    and the same label / words with the same head, i.e. the LAS count over
    the UAS count, aggregated as LAS/UAS/LA are (per unit the mean over
    annotator pairs, so with two annotators it is the plain word count).
    The counts go to ``details["unlabelled"]["la_given_head"]`` as
    ``correct`` / ``total``.

Why an option (``synagree agree --unlabelled``) and not always: unlabelled
α needs a second all-pairs TED pass over the relabelled trees (they are
fewer distinct trees, so it is cheaper than the first, but on a large
corpus it is a second pass nonetheless), and the published output should
not change by default.  ``la_given_head`` alone is free; it is reported
with the same option because the two answer the same question (is the
disagreement in the structure or in the labels?).
"""
from __future__ import annotations

import dataclasses
from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from synagree.stats.alpha import VARIANTS, TreeAlpha, tree_alpha
from synagree.trees.flat import FlatTree

__all__ = ["UNLABELLED_LABEL", "unlabelled_tree", "alpha_over", "unlabelled_alpha",
           "la_given_head", "add_to_result"]

#: The label id every non-root node gets (id 0 stays the root's empty label).
UNLABELLED_LABEL = 1


def unlabelled_tree(tree: FlatTree) -> FlatTree:
    """``tree`` with every label id but 0 (the root's empty label) replaced by one id.

    Parameters
    ----------
    tree : synagree.trees.flat.FlatTree

    Returns
    -------
    synagree.trees.flat.FlatTree
        The same shape and |t|; labels are 0 (root) or `UNLABELLED_LABEL`.

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> from synagree.distance import ted
    >>> v = Vocabulary()
    >>> a = dependency_tree(DepSentence("a", 0, 1, ["x", "y"], np.array([2, 0]),
    ...                                 ["nsubj", "root"]), v)
    >>> b = dependency_tree(DepSentence("b", 0, 1, ["x", "y"], np.array([2, 0]),
    ...                                 ["obj", "root"]), v)
    >>> ted.ted(a, b), ted.ted(unlabelled_tree(a), unlabelled_tree(b))
    (1.0, 0.0)
    """
    def relabel(lab: np.ndarray) -> np.ndarray:
        return np.where(lab == 0, 0, UNLABELLED_LABEL).astype(lab.dtype)

    return dataclasses.replace(tree, labels=relabel(tree.labels),
                               r_labels=relabel(tree.r_labels))


def _sampled_pairs(result) -> Optional[int]:
    return next((st.sampled_pairs for st in result.alpha.values() if st.sampled_pairs), None)


def alpha_over(result, units: Sequence[Sequence[FlatTree]],
               variants: Optional[Sequence[str]] = None) -> TreeAlpha:
    """α over other trees of the same units as ``result`` (relabelled, say).

    D_e is exact unless ``result``'s was estimated from sampled pairs, in which
    case as many pairs are drawn for these trees.  Only the pairable units
    (two or more trees) take part, as in `synagree.stats.alpha.tree_alpha`.

    Parameters
    ----------
    result : AgreementResult
    units : sequence of sequence of FlatTree
        Per unit, the trees to compare (label ids from one `Vocabulary`).
    variants : sequence of str, optional
        Default: the variants of ``result``.

    Returns
    -------
    TreeAlpha

    Examples
    --------
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus
    >>> from synagree.agreement.agree import agree_corpus
    >>> s = DepSentence.from_heads
    >>> res = agree_corpus(Corpus.from_annotations(
    ...     {"a": [s([2, 0], "nsubj root"), s([0, 1, 1], "root obj obl")],
    ...      "b": [s([2, 0], "obj root"), s([0, 1, 2], "root obj obl")]}))
    >>> same = alpha_over(res, [[t, t] for t, _ in res.trees])  # every annotator like a
    >>> same.alpha("plain")
    1.0
    """
    variants = [v for v in (variants or VARIANTS) if v in result.alpha] or list(VARIANTS)
    return tree_alpha(units, variants, sample_pairs=_sampled_pairs(result))


def unlabelled_alpha(result, variants: Optional[Sequence[str]] = None) -> TreeAlpha:
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

    Examples
    --------
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus
    >>> from synagree.agreement.agree import agree_corpus
    >>> s = DepSentence.from_heads
    >>> res = agree_corpus(Corpus.from_annotations(
    ...     {"a": [s([2, 0], "nsubj root"), s([0, 1, 1], "root obj obl")],
    ...      "b": [s([2, 0], "obj root"), s([0, 1, 1], "root obj obl")]}))
    >>> round(res.alpha_value("plain"), 4), unlabelled_alpha(res).alpha("plain")
    (0.7273, 1.0)
    """
    return alpha_over(result, [[unlabelled_tree(t) for t in u] for u in result.trees],
                      variants)


def la_given_head(result) -> Optional[Tuple[float, float]]:
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

    Examples
    --------
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus
    >>> from synagree.agreement.agree import agree_corpus
    >>> s = DepSentence.from_heads
    >>> res = agree_corpus(Corpus.from_annotations(
    ...     {"a": [s([2, 0], "nsubj root"), s([0, 1, 1], "root obj obl")],
    ...      "b": [s([2, 0], "obj root"), s([0, 1, 2], "root obj obl")]}))
    >>> la_given_head(res)  # 4 of the 5 words share their head, 3 of them their label too
    (3.0, 4.0)
    """
    if result.kind != "dependency":
        return None
    c = result.scores.correct
    return float(c.get("las", 0.0)), float(c.get("uas", 0.0))


def add_to_result(result, variants: Optional[Sequence[str]] = None) -> None:
    """Add ``alpha_*_unlabelled`` and ``la_given_head`` to ``result.extra``.

    Counts go to ``result.extra_details["unlabelled"]``, notes to
    ``result.notes`` (``--unlabelled``).

    Parameters
    ----------
    result : AgreementResult
    variants : sequence of str, optional
        Default: the variants of ``result``.

    Examples
    --------
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus
    >>> from synagree.agreement.agree import agree_corpus
    >>> s = DepSentence.from_heads
    >>> res = agree_corpus(Corpus.from_annotations(
    ...     {"a": [s([2, 0], "nsubj root"), s([0, 1, 1], "root obj obl")],
    ...      "b": [s([2, 0], "obj root"), s([0, 1, 2], "root obj obl")]}))
    >>> add_to_result(res)
    >>> res.extra["la_given_head"], round(res.extra["alpha_plain_unlabelled"], 4)
    (0.75, -0.5)
    """
    ta = unlabelled_alpha(result, variants)
    details: Dict[str, object] = {"counts": result.add_alpha_metrics(ta, "_unlabelled")}
    details["distinct_trees"] = ta.n_distinct
    lh = la_given_head(result)
    if lh is not None:
        correct, total = lh
        result.extra["la_given_head"] = correct / total if total else None
        details["la_given_head"] = {"correct": correct, "total": total}
    result.extra_details["unlabelled"] = details


