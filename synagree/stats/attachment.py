"""Uncorrected baselines: LAS / UAS / label accuracy, and bracket Jaccard (docs/method.md §6).

Every metric is a small *credit function* over aligned words: it takes the
two annotations of a sentence and says, word by word (a boolean array),
whether the word counts as correct.  A new metric is one line in
`WORD_METRICS`.

Aggregation, with more than two annotators: for each unit the credit is
averaged over all annotator pairs of that unit, weighted by the unit's word
count (so for two annotators it is plain micro-averaging over words).  Units
whose annotations differ in word count are left out and counted as
``ignored``.  Labels are compared in full (subtypes included); punctuation
counts.

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
from typing import Callable, Dict, List, Sequence, Set, Tuple

import numpy as np

from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence


def _same_heads(a: DepSentence, b: DepSentence) -> np.ndarray:
    return a.heads == b.heads


def _same_labels(a: DepSentence, b: DepSentence) -> np.ndarray:
    return np.fromiter(map(str.__eq__, a.deprels, b.deprels), dtype=bool, count=a.n_words)


# credit(a, b) -> bool per word: is each word the same in annotations a and b?
WORD_METRICS: Dict[str, Callable[[DepSentence, DepSentence], np.ndarray]] = {
    "las": lambda a, b: _same_heads(a, b) & _same_labels(a, b),
    "uas": _same_heads,
    "la": _same_labels,
}


@dataclass
class Counts:
    """Σ over units of (mean over annotator pairs of correct words), and Σ words."""

    correct: Dict[str, float] = field(default_factory=dict)
    total: float = 0.0
    units: int = 0
    ignored: int = 0
    # per pairable unit (ignored units hold 0): for the bootstrap and diagnostics
    unit_correct: Dict[str, List[float]] = field(default_factory=dict)
    unit_total: List[float] = field(default_factory=list)

    def unit_arrays(self) -> Tuple[Dict[str, np.ndarray], np.ndarray]:
        return ({k: np.asarray(v, dtype=np.float64) for k, v in self.unit_correct.items()},
                np.asarray(self.unit_total, dtype=np.float64))

    def ratio(self, metric: str) -> float:
        return self.correct.get(metric, 0.0) / self.total if self.total else float("nan")

    def merge(self, other: "Counts") -> "Counts":
        keys = set(self.correct) | set(other.correct)
        return Counts({k: self.correct.get(k, 0.0) + other.correct.get(k, 0.0) for k in keys},
                      self.total + other.total, self.units + other.units,
                      self.ignored + other.ignored,
                      {k: self.unit_correct.get(k, []) + other.unit_correct.get(k, [])
                       for k in keys},
                      self.unit_total + other.unit_total)


def unit_word_credits(annotations: Sequence[DepSentence],
                      metrics: Sequence[str] = tuple(WORD_METRICS)) -> Dict[str, float]:
    """Per-unit credits: for each metric, the mean over annotator pairs of the
    number of words credited.  Raises ValueError on differing word counts."""
    n = annotations[0].n_words
    if any(a.n_words != n for a in annotations[1:]):
        raise ValueError("annotations differ in word count")
    pairs = list(combinations(annotations, 2))
    return {m: sum(float(np.count_nonzero(WORD_METRICS[m](a, b))) for a, b in pairs) / len(pairs)
            for m in metrics}


def attachment_scores(units: Sequence[Sequence[DepSentence]],
                      metrics: Sequence[str] = tuple(WORD_METRICS)) -> Counts:
    """LAS/UAS/LA counts over units (lists of annotations of one sentence)."""
    c = Counts({m: 0.0 for m in metrics}, unit_correct={m: [] for m in metrics})
    for anns in units:
        if len(anns) < 2:
            continue
        try:
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
    """Labelled brackets (first leaf, last leaf, label) of every node, leaves included."""
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
    """|A ∩ B| / |A ∪ B| over labelled brackets."""
    ba, bb = brackets(a.root), brackets(b.root)
    union = ba | bb
    return len(ba & bb) / len(union) if union else 1.0


def jaccard_scores(units: Sequence[Sequence[PhraseSentence]]) -> Counts:
    """Pair-averaged Jaccard per unit, weighted by the first annotation's leaf count."""
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
