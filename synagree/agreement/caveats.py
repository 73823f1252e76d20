"""A caveat of α over TED, counted; and a distance that keeps word order.

The trees α compares are delexicalised *ordered* trees: a word becomes a node
labelled with its relation, under its head, siblings in word order, but the
words themselves (and so where a word sits relative to its head) are gone.
Different analyses can then give the same tree, and TED 0.  The smallest
case: three words, word 3 the root, and either 3 → 2 → 1 (2 depends on 3, 1
on 2) or 3 → 1 → 2; with equal labels both are the chain
ε(root(dep(dep))).  Such a pair counts as perfect agreement in D_o although
the two annotators chose different heads for two of the three words.

`ted_zero_counts` counts, over the pairable units, the unordered
annotator pairs with TED 0 (``ted_zero_pairs``) and among them those whose
heads differ (``ted_zero_different_heads``: some word has another head, or
the word counts differ).  Only pairs with TED 0 need a head comparison, so it
is cheap and `synagree.agreement.agree.agree_corpus` always reports it for
dependency corpora (a JSON key, a table row and, when it is not 0, a note).
With the same heads TED 0 also means the same labels, except on words on a
head cycle, which are not in the tree at all.

``--label-direction`` (`direction_tree`): each word's label gets the
direction of its head, ``<`` when the head is to its left, ``>`` to its
right, nothing for words attached to the root; the artificial root keeps
its empty label.  The two chains above become ε(root(dep>(dep>))) and
ε(root(dep>(dep<))), TED 1.  For projective trees the direction labels fix
the word order (left dependents, head, right dependents), so TED 0 then
means the same heads; non-projective trees can still collide, which
``ted_zero_different_heads_direction`` counts.  The result is reported as
``alpha_plain_direction``, ``alpha_diff_direction``,
``alpha_norm_direction`` beside the published variants, which stay the
default (with ``--unlabelled`` too: ``alpha_*_unlabelled_direction``, trees
whose labels are only the directions).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from itertools import combinations
from typing import Dict, List, Optional, Sequence, cast

import numpy as np

from synagree.agreement.core import AlphaSet, Core, Value, alpha_over
from synagree.io.conllu import DepSentence
from synagree.stats.alpha import TreeAlpha
from synagree.trees.flat import FlatTree, Vocabulary, flat_tree

__all__ = ["ted_zero_counts", "TedZero", "ted_zero", "direction_tree", "direction_alpha",
           "Direction", "direction_scores", "MAX_EXAMPLES"]

MAX_EXAMPLES = 20  # examples kept in details["ted_zero"]
LEFT, RIGHT = "<", ">"
_SEP = "\t"  # internal: label + TAB + direction (a TAB cannot occur in a CoNLL column)


def _pairable_sentences(corpus) -> List[tuple]:
    """(unit, annotators, sentences) of the pairable units, in tree_alpha's order."""
    out = []
    for u in corpus.units:
        anns = [a for a in corpus.annotators if a in u.annotations]
        if len(anns) >= 2:
            out.append((u, anns, [u.annotations[a] for a in anns]))
    return out


def _different_heads(a: DepSentence, b: DepSentence) -> List[int]:
    """1-based words whose head differs ([0] when the word counts differ)."""
    if a.n_words != b.n_words:
        return [0]
    return [int(i) + 1 for i in np.flatnonzero(np.asarray(a.heads) != np.asarray(b.heads))]


def ted_zero_counts(corpus, unit_ted: Sequence[np.ndarray],
                    max_examples: int = MAX_EXAMPLES) -> Optional[dict]:
    """Annotator pairs of a unit with TED 0, and those among them with different heads.

    Parameters
    ----------
    corpus : synagree.io.corpus.Corpus
    unit_ted : sequence of ndarray
        Per pairable unit (corpus order) the m × m TED matrix, annotators in
        corpus order (``TreeAlpha.unit_ted``).
    max_examples : int
        How many differing pairs to describe in ``examples``.

    Returns
    -------
    dict or None
        ``{"pairs": all annotator pairs, "ted_zero_pairs": ..., "ted_zero_different_heads":
        ..., "examples": [{"uid", "sent_id", "a", "b", "words"}, ...]}``; ``None``
        for phrase-structure corpora (there TED 0 means the same bracketing).
    """
    if corpus.kind != "dependency":
        return None
    units = _pairable_sentences(corpus)
    if len(units) != len(unit_ted):
        raise ValueError("unit_ted does not match the pairable units of the corpus")
    pairs = zero = differ = 0
    examples: List[dict] = []
    for (unit, anns, sents), tm in zip(units, unit_ted):
        for i, j in combinations(range(len(anns)), 2):
            pairs += 1
            if tm[i, j] != 0.0:
                continue
            zero += 1
            words = _different_heads(sents[i], sents[j])
            if words:
                differ += 1
                if len(examples) < max_examples:
                    examples.append({"uid": unit.uid, "sent_id": unit.sent_id,
                                     "a": anns[i], "b": anns[j], "words": words})
    return {"pairs": pairs, "ted_zero_pairs": zero, "ted_zero_different_heads": differ,
            "examples": examples}


@dataclass(frozen=True)
class TedZero:
    """Annotator pairs with TED 0, and those among them whose heads differ.

    Every dependency result has this section (`ted_zero_counts` gives it).
    """

    counts: dict
    name = "ted_zero"

    def metrics(self) -> Dict[str, Value]:
        """``ted_zero_pairs`` and ``ted_zero_different_heads``."""
        return {k: self.counts[k] for k in ("ted_zero_pairs", "ted_zero_different_heads")}

    def details(self) -> dict:
        """The counts and up to `MAX_EXAMPLES` examples."""
        return self.counts

    def note(self) -> Optional[str]:
        """What a reader must know when some pair has TED 0 but different heads."""
        k = self.counts["ted_zero_different_heads"]
        if not k:
            return None
        return (f"{k} annotator pair(s) of a sentence have TED 0 but different heads: "
                f"trees without words cannot tell these analyses apart, and alpha counts "
                f"them as agreement (--label-direction adds each head's direction to the "
                f"labels)")


def ted_zero(core: Core) -> Optional[TedZero]:
    """The `TedZero` section of a dependency result; None for phrase structure."""
    ta = core.tree_alpha
    if core.corpus is None or ta is None:
        return None
    c = ted_zero_counts(core.corpus, ta.unit_ted)
    return None if c is None else TedZero(c)


# --------------------------------------------------------------------------
# Labels with head direction
# --------------------------------------------------------------------------

def direction_label(deprel: str, word: int, head: int) -> str:
    r"""``deprel`` with ``<`` (head to the left), ``>`` (to the right), or as is (root).

    The direction is joined to the label by a TAB (which cannot occur in a
    CoNLL column).

    Parameters
    ----------
    deprel : str
    word : int
        The word's 1-based id.
    head : int
        Its head (0 = root).
    """
    if head == 0:
        return deprel
    return deprel + _SEP + (LEFT if head < word else RIGHT)


def direction_tree(sent: DepSentence, vocab: Vocabulary) -> FlatTree:
    """The dependency tree of ``sent`` with head directions in the labels.

    As `synagree.trees.flat.dependency_tree` (root ε, words under their heads,
    siblings by word id, words on head cycles left out, |t| = words + 1), but
    word i's label is its DEPREL followed by ``<`` when its head is to its
    left, ``>`` when it is to its right, and nothing when its head is the root.
    """
    n = sent.n_words
    heads = [int(h) for h in sent.heads]
    children: List[List[int]] = [[] for _ in range(n + 1)]
    for i, h in enumerate(heads, start=1):
        children[h].append(i)
    labels = [0] + [vocab.id(direction_label(d, i, h))
                    for i, (d, h) in enumerate(zip(sent.deprels, heads), start=1)]
    return flat_tree(children, labels, size=n + 1)


def direction_alpha(core: Core, unlabelled: bool = False,
                    variants: Optional[Sequence[str]] = None) -> TreeAlpha:
    """α over the direction-labelled trees of ``result``'s units (dependency only).

    Parameters
    ----------
    result : AgreementResult
        With its corpus.
    unlabelled : bool
        The labels are then only the directions (every relation the same), i.e.
        structure plus head direction.
    variants : sequence of str, optional
        Default: the variants of ``result``.

    Raises
    ------
    ValueError
        A phrase-structure result, or one without a corpus.
    """

    if core.kind != "dependency" or core.corpus is None:
        raise ValueError("head directions need a dependency corpus")
    vocab = Vocabulary()
    corpus = core.corpus
    units = []
    for u in corpus.units:
        # a dependency corpus: every annotation is a DepSentence
        sents = cast(List[DepSentence], u.ordered(corpus.annotators))
        if unlabelled:
            sents = [_strip_labels(s) for s in sents]
        units.append([direction_tree(s, vocab) for s in sents])
    return alpha_over(core, units, variants)


def _strip_labels(s: DepSentence) -> DepSentence:
    return dataclasses.replace(s, deprels=["_"] * s.n_words)


@dataclass(frozen=True)
class Direction:
    """The section ``--label-direction`` adds (docs/method.md §10)."""

    alphas: List[AlphaSet]  # _direction, and _unlabelled_direction with --unlabelled
    ted_zero: dict
    name = "direction"

    def metrics(self) -> Dict[str, Value]:
        """``alpha_<v>_direction`` (and ``_unlabelled_direction``), and
        ``ted_zero_different_heads_direction``."""
        out: Dict[str, Value] = {}
        for a in self.alphas[:1]:
            out.update(a.metrics())
        out["ted_zero_different_heads_direction"] = self.ted_zero["ted_zero_different_heads"]
        for a in self.alphas[1:]:
            out.update(a.metrics())
        return out

    def details(self) -> dict:
        """The sums behind each α and the TED-0 counts of the direction trees."""
        counts: Dict[str, dict] = {}
        for a in self.alphas:
            counts.update(a.counts())
        return {"counts": counts, "ted_zero": self.ted_zero}


def direction_scores(core: Core, unlabelled: bool = False) -> Optional[Direction]:
    """α over direction-labelled trees (and unlabelled ones); None for phrase structure.

    Parameters
    ----------
    core : AgreementResult
    unlabelled : bool
        Also ``alpha_*_unlabelled_direction``.
    """
    if core.kind != "dependency" or core.corpus is None:
        return None
    ta = direction_alpha(core)
    c = ted_zero_counts(core.corpus, ta.unit_ted)
    assert c is not None  # None for phrase structure only, returned above
    alphas = [AlphaSet.of(ta, "_direction")]
    if unlabelled:
        alphas.append(AlphaSet.of(direction_alpha(core, unlabelled=True),
                                  "_unlabelled_direction"))
    return Direction(alphas, c)
