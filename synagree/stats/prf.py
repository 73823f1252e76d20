"""Micro- and macro-averaged precision, recall and F1 from per-label counts.

docs/method.md §17.  One label L has three counts: ``correct`` (items
labelled L on both sides that count as correct), ``gold`` (gold items
labelled L) and ``system`` (system items labelled L).  Then

* per label: P = correct / system, R = correct / gold,
  F1 = 2 · correct / (gold + system) (the harmonic mean of P and R);
  a label with no system items has P = 0, one with no gold items R = 0
  (scikit-learn's ``zero_division=0``);
* **micro**: the same three ratios over the summed counts (every item weighs
  the same);
* **macro**: the unweighted mean of the per-label P, R and F1 over the
  labels averaged, which are the union of the gold and the system labels.
  Macro F1 is the mean of the per-label F1 (scikit-learn's ``average="macro"``),
  *not* the harmonic mean of macro P and macro R.

With no label at all, every ratio is undefined (NaN; ``null`` in JSON).

The counts come from the commands (`synagree.evaluation.label_prf`); this
module only does the arithmetic.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Mapping, Tuple

from synagree.base.jsonable import finite_or_none
from synagree.base.ratios import prf_shares, ratio

__all__ = ["LabelCounts", "PRF", "prf_from_counts", "prf_from_pairs", "prf_table"]


def _ratio(num: float, den: float) -> float:
    return ratio(num, den, 0.0)


def _mean(xs: List[float]) -> float:
    return math.fsum(xs) / len(xs) if xs else math.nan


@dataclass(frozen=True)
class LabelCounts:
    """The counts of one label; P, R and F1 are derived.

    Parameters
    ----------
    label : str
    correct : int
        Items labelled ``label`` on both sides that count as correct.
    gold, system : int
        Gold / system items labelled ``label``.
    """

    label: str
    correct: int
    gold: int
    system: int
    # 0.0 when the system (P) or gold (R) never uses the label: scikit-learn's zero_division=0
    precision, recall, f1 = prf_shares("correct", "gold", "system", empty=0.0)

    def as_dict(self) -> dict:
        """The counts and the ratios, JSON-ready."""
        return {"label": self.label, "correct": self.correct, "gold": self.gold,
                "system": self.system, "precision": self.precision, "recall": self.recall,
                "f1": self.f1}


@dataclass
class PRF:
    """Micro and macro P/R/F1 of one variant, from its per-label counts.

    Parameters
    ----------
    variant : str
        The variant's name (``strict``, ``lenient`` ...).
    match : str
        What counts as correct and which labels, in words (a setting the
        result carries).
    per_label : list of LabelCounts
        One per label averaged: the union of the gold and the system labels,
        most frequent in gold first.
    notes : list of str
    """

    variant: str
    match: str
    per_label: List[LabelCounts]
    notes: List[str] = field(default_factory=list)

    @property
    def labels(self) -> int:
        """Number of labels averaged by macro."""
        return len(self.per_label)

    @property
    def correct(self) -> int:
        """Σ correct over the labels (the micro numerator)."""
        return sum(c.correct for c in self.per_label)

    @property
    def gold(self) -> int:
        """Σ gold items."""
        return sum(c.gold for c in self.per_label)

    @property
    def system(self) -> int:
        """Σ system items."""
        return sum(c.system for c in self.per_label)

    @property
    def micro_precision(self) -> float:
        """correct / system over all labels (NaN with no label)."""
        return _ratio(self.correct, self.system) if self.per_label else math.nan

    @property
    def micro_recall(self) -> float:
        """correct / gold over all labels (NaN with no label)."""
        return _ratio(self.correct, self.gold) if self.per_label else math.nan

    @property
    def micro_f1(self) -> float:
        """2 · correct / (gold + system) over all labels (NaN with no label)."""
        return _ratio(2 * self.correct, self.gold + self.system) if self.per_label else math.nan

    @property
    def macro_precision(self) -> float:
        """Mean per-label precision (NaN with no label)."""
        return _mean([c.precision for c in self.per_label])

    @property
    def macro_recall(self) -> float:
        """Mean per-label recall (NaN with no label)."""
        return _mean([c.recall for c in self.per_label])

    @property
    def macro_f1(self) -> float:
        """Mean per-label F1, scikit-learn's macro F1 (NaN with no label)."""
        return _mean([c.f1 for c in self.per_label])

    def label(self, name: str) -> LabelCounts:
        """The counts of one label (KeyError if it is not averaged)."""
        for c in self.per_label:
            if c.label == name:
                return c
        raise KeyError(name)

    def as_dict(self) -> dict:
        """Counts, micro and macro ratios, per-label rows: JSON-ready (NaN as None)."""
        return {"variant": self.variant, "match": self.match, "labels": self.labels,
                "correct": self.correct, "gold": self.gold, "system": self.system,
                "micro_precision": finite_or_none(self.micro_precision),
                "micro_recall": finite_or_none(self.micro_recall),
                "micro_f1": finite_or_none(self.micro_f1),
                "macro_precision": finite_or_none(self.macro_precision),
                "macro_recall": finite_or_none(self.macro_recall),
                "macro_f1": finite_or_none(self.macro_f1),
                "per_label": [c.as_dict() for c in self.per_label],
                "notes": list(self.notes)}


def prf_from_counts(correct: Mapping[str, int], gold: Mapping[str, int],
                    system: Mapping[str, int], variant: str = "", match: str = "") -> PRF:
    """P/R/F1 from per-label counts (docs/method.md §17).

    Parameters
    ----------
    correct, gold, system : mapping of str to int
        Per label; missing labels count 0.
    variant, match : str
        Carried into the result.

    Returns
    -------
    PRF
        Labels: the union of the labels of ``gold`` and ``system`` with a
        non-zero count, most frequent in gold first (then in the system, then
        alphabetically).

    Raises
    ------
    ValueError
        A label with more correct items than gold or system items, or a
        negative count.
    """
    seen = {k for k, v in gold.items() if v} | {k for k, v in system.items() if v}
    for k, v in correct.items():
        if v and k not in seen:
            seen.add(k)
    rows = []
    for k in seen:
        c, g, s = int(correct.get(k, 0)), int(gold.get(k, 0)), int(system.get(k, 0))
        if min(c, g, s) < 0 or c > g or c > s:
            raise ValueError(f"label {k!r}: {c} correct of {g} gold and {s} system items")
        rows.append(LabelCounts(k, c, g, s))
    rows.sort(key=lambda r: (-r.gold, -r.system, r.label))
    return PRF(variant, match, rows)


def prf_from_pairs(pairs: Iterable[Tuple[str, str]], variant: str = "",
                   match: str = "") -> PRF:
    """P/R/F1 of single-label classification: one (gold, system) label per item.

    An item is correct when its two labels are equal; with the same items on
    both sides, micro P = micro R = micro F1 = accuracy.  The result equals
    scikit-learn's ``precision_recall_fscore_support(gold, system,
    average="macro", zero_division=0)`` (docs/method.md §17).
    """
    correct: Counter = Counter()
    gold: Counter = Counter()
    system: Counter = Counter()
    for g, s in pairs:
        gold[g] += 1
        system[s] += 1
        if g == s:
            correct[g] += 1
    return prf_from_counts(correct, gold, system, variant, match)


def prf_table(results: Mapping[str, PRF]) -> Dict[str, dict]:
    """Several variants as JSON-ready data, keyed by variant."""
    return {k: r.as_dict() for k, r in results.items()}
