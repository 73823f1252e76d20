"""Uncorrected baselines: LAS / UAS / label accuracy, and bracket Jaccard (docs/method.md §6).

Every metric is a small *credit function* over aligned words: it takes the
two annotations of a sentence and says, word by word (a boolean array),
whether the word counts as correct.  A new metric is one line in
`WORD_METRICS`.

Aggregation, with more than two annotators: for each unit the credit is
averaged over all annotator pairs of that unit, weighted by the unit's word
count (so for two annotators it is plain micro-averaging over words).  Units
whose annotations are not of the same words (a different word count, or a
form that differs: an edited unit, docs/method.md §1.8;
`synagree.io.text.same_words`) are left out and counted as ``ignored``.
Labels are compared in full (subtypes included); punctuation counts.

Phrase structure: Jaccard similarity |A ∩ B| / |A ∪ B| of the sets of
labelled brackets (first leaf, last leaf, label; preterminals count),
averaged over pairs, weighted by the first annotation's leaf count; no unit
is left out.

Results are `Counts` (sum of pair-averaged credits and the weight),
ratios are derived.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import (
    Callable,
    Collection,
    Dict,
    Iterable,
    List,
    Optional,
    Sequence,
    Set,
    Tuple,
    TypeVar,
    cast,
)

import numpy as np

from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.io.text import same_words


def _same_heads(a: DepSentence, b: DepSentence) -> np.ndarray:
    return a.heads == b.heads


def _same_labels(a: DepSentence, b: DepSentence) -> np.ndarray:
    return np.fromiter(map(str.__eq__, a.deprels, b.deprels), dtype=bool, count=a.n_words)


def _same_universal(a: DepSentence, b: DepSentence) -> np.ndarray:
    return np.fromiter((x.split(":", 1)[0] == y.split(":", 1)[0]
                        for x, y in zip(a.deprels, b.deprels)), dtype=bool, count=a.n_words)


#: the universal dependency relations of UD v2 (the part of DEPREL before ``:``)
UD_RELATIONS = frozenset({
    "acl", "advcl", "advmod", "amod", "appos", "aux", "case", "cc", "ccomp", "clf",
    "compound", "conj", "cop", "csubj", "dep", "det", "discourse", "dislocated", "expl",
    "fixed", "flat", "goeswith", "iobj", "list", "mark", "nmod", "nsubj", "nummod", "obj",
    "obl", "orphan", "parataxis", "punct", "reparandum", "root", "vocative", "xcomp",
})


def non_ud_labels(labels: Iterable[str]) -> List[str]:
    """The labels whose universal part (before ``:``) is not a UD v2 relation, sorted.

    ``LAS`` (the CoNLL 2018 LAS, on universal relations) is defined for UD
    relations only; ``agree`` reports it when this list is empty
    (docs/method.md §6.1).
    """
    return sorted(lab for lab in set(labels) if lab.split(":", 1)[0] not in UD_RELATIONS)


# credit(a, b) -> bool per word: is each word the same in annotations a and b?
# (keys: the registry's, synagree.base.metrics)
WORD_METRICS: Dict[str, Callable[[DepSentence, DepSentence], np.ndarray]] = {
    "LAS": lambda a, b: _same_heads(a, b) & _same_universal(a, b),
    "LAS_full": lambda a, b: _same_heads(a, b) & _same_labels(a, b),
    "UAS": _same_heads,
    "LA": _same_labels,
}
#: the word scores without ``LAS``, for relations that are not UD's
FULL_LABEL_METRICS = ("LAS_full", "UAS", "LA")


@dataclass
class Counts:
    """Credited words and word totals behind LAS/UAS/LA or Jaccard (docs/method.md §6).

    Ratios are derived (`ratio`, a fraction), so counts of several corpora or
    systems merge.

    Parameters
    ----------
    correct : dict of str to float
        Per metric, Σ over units of the mean over annotator pairs of credited
        words (Jaccard: of weight × Jaccard).
    total : float
        Σ over units of their word count (the weight).
    units : int
        Units counted.
    ignored : int
        Units left out because their annotations differ in word count.
    unit_correct : dict of str to list of float
        Per metric, the credit of each pairable unit (0 for ignored units).
    unit_total : list of float
        The weight of each pairable unit (0 for ignored units).
    """

    correct: Dict[str, float] = field(default_factory=dict)
    total: float = 0.0
    units: int = 0
    ignored: int = 0
    # per pairable unit (ignored units hold 0): for the bootstrap and diagnostics
    unit_correct: Dict[str, List[float]] = field(default_factory=dict)
    unit_total: List[float] = field(default_factory=list)

    def unit_arrays(self) -> Tuple[Dict[str, np.ndarray], np.ndarray]:
        """``(unit_correct, unit_total)`` as float64 arrays (for the bootstrap)."""
        return ({k: np.asarray(v, dtype=np.float64) for k, v in self.unit_correct.items()},
                np.asarray(self.unit_total, dtype=np.float64))

    def ratio(self, metric: str) -> float:
        """``correct[metric] / total``, a fraction; NaN when the total is 0."""
        return self.correct.get(metric, 0.0) / self.total if self.total else float("nan")

    def merge(self, other: "Counts") -> "Counts":
        """The counts of both (a new object), per-unit lists concatenated."""
        keys = set(self.correct) | set(other.correct)
        return Counts({k: self.correct.get(k, 0.0) + other.correct.get(k, 0.0) for k in keys},
                      self.total + other.total, self.units + other.units,
                      self.ignored + other.ignored,
                      {k: self.unit_correct.get(k, []) + other.unit_correct.get(k, [])
                       for k in keys},
                      self.unit_total + other.unit_total)


U = TypeVar("U")


def word_aligned(units: Iterable[U],
                 annotations: Optional[Callable[[U], Collection[DepSentence]]] = None
                 ) -> Tuple[List[U], int]:
    """The units whose annotations can be compared word by word, and how many could not.

    A unit needs two or more annotations (fewer: left out, not counted) of
    the same words (`synagree.io.text.same_words`: the same number, and the
    same forms where forms are given; else counted as ignored).

    Parameters
    ----------
    units : iterable
        Units: sequences of `DepSentence`, or anything ``annotations`` maps
        to its sentences (e.g. ``dict.values`` for annotator → sentence).
    annotations : callable, optional
        A unit's sentences; the unit itself by default.

    Returns
    -------
    kept : list
        The comparable units, in order.
    ignored : int
        Units of two or more annotations whose word counts differ.
    """
    kept: List[U] = []
    ignored = 0
    for unit in units:
        anns = (annotations(unit) if annotations is not None
                else cast(Collection[DepSentence], unit))
        if len(anns) < 2:
            continue
        if not same_words([s.forms for s in anns]):
            ignored += 1
            continue
        kept.append(unit)
    return kept, ignored


def unit_word_credits(annotations: Sequence[DepSentence],
                      metrics: Sequence[str] = tuple(WORD_METRICS)) -> Dict[str, float]:
    """Per-unit credits: per metric, the mean over annotator pairs of words credited.

    Parameters
    ----------
    annotations : sequence of DepSentence
        Two or more annotations of one sentence.
    metrics : sequence of str
        Names in `WORD_METRICS` (``"LAS_full"``, ``"UAS"``, ``"LA"``).

    Raises
    ------
    ValueError
        The annotations are not of the same words (`synagree.io.text.same_words`).
    """
    if not same_words([a.forms for a in annotations]):
        raise ValueError("annotations differ in word count or words")
    pairs = list(combinations(annotations, 2))
    return {m: sum(float(np.count_nonzero(WORD_METRICS[m](a, b))) for a, b in pairs) / len(pairs)
            for m in metrics}


def _pair_credits(units: Sequence[Sequence[DepSentence]],
                  metrics: Sequence[str]) -> Dict[int, Optional[Dict[str, float]]]:
    """`unit_word_credits` of every unit of exactly two annotations, in one pass.

    With one pair per unit the credit is the count of words the metric
    credits, so all units' words are compared at once (labels by id) and
    counted per unit; the same numbers as `unit_word_credits`, bit for bit.
    None for a unit whose annotations are not of the same words.
    """
    idx = [k for k, anns in enumerate(units) if len(anns) == 2]
    out: Dict[int, Optional[Dict[str, float]]] = {}
    same = [k for k in idx if same_words([units[k][0].forms, units[k][1].forms])]
    out.update(dict.fromkeys(set(idx) - set(same)))
    if not same:
        return out
    a = [units[k][0] for k in same]
    b = [units[k][1] for k in same]
    lengths = np.array([s.n_words for s in a], dtype=np.int64)
    unit_of_word = np.repeat(np.arange(len(same)), lengths)
    ids: Dict[str, int] = {}
    lab_a = np.fromiter((ids.setdefault(x, len(ids)) for s in a for x in s.deprels),
                        dtype=np.int64, count=int(lengths.sum()))
    lab_b = np.fromiter((ids.setdefault(x, len(ids)) for s in b for x in s.deprels),
                        dtype=np.int64, count=int(lengths.sum()))
    heads = (np.concatenate([s.heads for s in a]) == np.concatenate([s.heads for s in b])
             if len(a) else np.zeros(0, bool))
    labels = lab_a == lab_b
    flags = {"UAS": heads, "LA": labels, "LAS_full": heads & labels}
    if "LAS" in metrics:
        uni: Dict[str, int] = {}
        u = np.array([uni.setdefault(x.split(":", 1)[0], len(uni)) for x in ids],
                     dtype=np.int64)
        flags["LAS"] = heads & (u[lab_a] == u[lab_b])
    counts = {}
    for m in metrics:  # whole numbers: exact in float64 in any order
        counts[m] = np.bincount(unit_of_word, weights=flags[m], minlength=len(same)).tolist()
    for r, k in enumerate(same):
        out[k] = {m: counts[m][r] for m in metrics}
    return out


def attachment_scores(units: Sequence[Sequence[DepSentence]],
                      metrics: Optional[Sequence[str]] = None) -> Counts:
    """LAS/UAS/LA counts over units (lists of annotations of one sentence).

    docs/method.md §6.1: per unit the credit is averaged over all annotator
    pairs, weighted by the unit's word count; units whose annotations differ in
    word count are left out (``ignored``); units with fewer than two
    annotations take no part.  Labels are compared in full (subtypes
    included); punctuation counts.

    Parameters
    ----------
    units : sequence of sequence of DepSentence
    metrics : sequence of str, optional
        Names in `WORD_METRICS`; None: all of them when every label is a UD
        relation (`non_ud_labels`), else `FULL_LABEL_METRICS`.
    """
    if metrics is None:
        ud = not non_ud_labels(lab for anns in units for s in anns for lab in s.deprels)
        metrics = tuple(WORD_METRICS) if ud else FULL_LABEL_METRICS
    c = Counts({m: 0.0 for m in metrics}, unit_correct={m: [] for m in metrics})
    two = _pair_credits(units, metrics)  # units of two annotations, all at once
    for k, anns in enumerate(units):
        if len(anns) < 2:
            continue
        try:
            if k in two:
                credits = two[k]
                if credits is None:
                    raise ValueError("annotations differ in word count or words")
            else:
                credits = unit_word_credits(anns, metrics)
        except ValueError:
            c.ignored += 1
            credits = {m: 0.0 for m in metrics}
            weight = 0.0
        else:
            weight = float(anns[0].n_words)
            c.units += 1
        for m in metrics:
            c.correct[m] += credits[m]
            c.unit_correct[m].append(credits[m])
        c.total += weight
        c.unit_total.append(weight)
    return c


def brackets(root: PhraseNode) -> Set[Tuple[int, int, str]]:
    """Labelled brackets (first leaf, last leaf, label) of every node, leaves included.

    Leaves are numbered from 0, left to right (docs/method.md §6.2).
    """
    out: Set[Tuple[int, int, str]] = set()
    span: Dict[int, Tuple[int, int]] = {}
    leaf = 0
    for node in root.postorder():  # iterative: brackets nest arbitrarily deep
        if not node.children:
            span[id(node)] = (leaf, leaf)
            leaf += 1
        else:
            span[id(node)] = (span[id(node.children[0])][0], span[id(node.children[-1])][1])
        out.add((*span[id(node)], node.label))
    return out


def jaccard(a: PhraseSentence, b: PhraseSentence) -> float:
    """|A ∩ B| / |A ∪ B| over the labelled brackets of two trees (docs/method.md §6.2).

    Returns
    -------
    float
        1.0 when both have no brackets.
    """
    ba, bb = brackets(a.root), brackets(b.root)
    union = ba | bb
    return len(ba & bb) / len(union) if union else 1.0


def jaccard_scores(units: Sequence[Sequence[PhraseSentence]]) -> Counts:
    """Pair-averaged Jaccard per unit, weighted by the first annotation's leaf count.

    docs/method.md §6.2; no unit is left out.

    Returns
    -------
    Counts
        With the single metric ``"jaccard"``.
    """
    c = Counts({"jaccard": 0.0}, unit_correct={"jaccard": []})
    for anns in units:
        if len(anns) < 2:
            continue
        pairs = list(combinations(anns, 2))
        mean = sum(jaccard(a, b) for a, b in pairs) / len(pairs)
        w = anns[0].size
        c.correct["jaccard"] += w * mean
        c.unit_correct["jaccard"].append(w * mean)
        c.total += w
        c.unit_total.append(float(w))
        c.units += 1
    return c
