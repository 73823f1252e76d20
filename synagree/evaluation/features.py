"""Per-feature evaluation of FEATS against gold (``synagree tags --column feats --per-feature``).

docs/method.md §19.4.  Words are paired as `synagree.evaluation.tags` pairs
them (same tokenisation).  Each word's FEATS is split into features
(`synagree.stats.features.parse_feats`, values in canonical order).  For
each feature F, over the words:

* ``gold`` / ``system``: words where gold / the system gives F;
* ``correct``: words where both give F with the same value;
* precision = correct / system, recall = correct / gold,
  F1 = 2 · correct / (gold + system): presence and value of F together, as
  the CoNLL 2018 scorer's F1 treats a word;
* ``agree``: words where the value of F, or its absence (``_``), is the same;
  accuracy = agree / words;
* Cohen's κ and Scott's π on the value of F with ``_`` for absent, every
  word an item.

Summary over all features: precision, recall and F1 pooled over the
(word, feature) pairs (micro), the unweighted mean F1 over the features seen
(macro), ``set_equal`` (words whose whole feature sets are equal) and
``ufeats_equal`` (words whose sets of universal features,
`synagree.evaluation.conll18.UNIVERSAL_FEATURES`, are equal: the CoNLL 2018
``UFeats`` accuracy when both files have the same tokenisation).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from synagree.base.jsonable import finite_or_none
from synagree.base.ratios import Share, prf_shares
from synagree.evaluation.conll18 import UNIVERSAL_FEATURES
from synagree.stats.contingency import Contingency
from synagree.stats.features import ABSENT, parse_feats

__all__ = ["FeatureRow", "FeatureScores", "feature_scores"]


@dataclass
class FeatureRow:
    """One feature: counts against gold, and the scores derived from them.

    Parameters
    ----------
    feature : str
    universal : bool
        One of the CoNLL 2018 universal features (``UFeats``).
    words : int
        Words compared.
    gold, system : int
        Words where gold / the system gives the feature.
    correct : int
        Words where both give it with the same value.
    agree : int
        Words where the value or its absence is the same.
    cohen_kappa, scott_pi : float or None
        On value-or-``_``, every word an item; None when undefined.
    """

    feature: str
    universal: bool
    words: int
    gold: int
    system: int
    correct: int
    agree: int
    cohen_kappa: Optional[float]
    scott_pi: Optional[float]
    # P with no system feature, R with no gold one: undefined (NaN)
    precision, recall, f1 = prf_shares("correct", "gold", "system")
    accuracy = Share("agree", "words")

    def as_dict(self) -> dict:
        """JSON-ready counts and scores (undefined scores as None)."""
        return {"feature": self.feature, "universal": self.universal, "words": self.words,
                "gold": self.gold, "system": self.system, "correct": self.correct,
                "agree": self.agree, "precision": finite_or_none(self.precision),
                "recall": finite_or_none(self.recall), "f1": finite_or_none(self.f1),
                "accuracy": finite_or_none(self.accuracy), "cohen_kappa": self.cohen_kappa,
                "scott_pi": self.scott_pi}


@dataclass
class FeatureScores:
    """Per-feature evaluation of FEATS against gold (docs/method.md §19.4).

    Parameters
    ----------
    words : int
    rows : list of FeatureRow
        Most frequent in gold first (then in the system, then by name).
    gold, system, correct : int
        Summed over the features: (word, feature) pairs in gold, in the
        system, and in both with the same value.
    set_equal : int
        Words whose whole feature sets are equal (canonical order).
    ufeats_equal : int
        Words whose sets of universal features are equal.
    """

    words: int
    rows: List[FeatureRow] = field(default_factory=list)
    gold: int = 0
    system: int = 0
    correct: int = 0
    set_equal: int = 0
    ufeats_equal: int = 0
    # pooled over the (word, feature) pairs
    micro_precision, micro_recall, micro_f1 = prf_shares("correct", "gold", "system")

    @property
    def macro_f1(self) -> float:
        """Unweighted mean of the per-feature F1 (features given by gold or the system)."""
        vals = [r.f1 for r in self.rows if r.gold + r.system]
        return math.fsum(vals) / len(vals) if vals else math.nan

    set_accuracy = Share("set_equal", "words")
    ufeats_accuracy = Share("ufeats_equal", "words")  # CoNLL 2018 UFeats, same tokenisation

    def totals(self, universal: bool = False) -> Tuple[int, int, int]:
        """(gold, system, correct) summed over the features (universal ones only if asked)."""
        rows = [r for r in self.rows if r.universal or not universal]
        return (sum(r.gold for r in rows), sum(r.system for r in rows),
                sum(r.correct for r in rows))

    def to_dict(self) -> dict:
        """JSON-ready: the pooled counts and scores, then one entry per feature."""
        return {"words": self.words, "absent": ABSENT,
                "micro_precision": finite_or_none(self.micro_precision),
                "micro_recall": finite_or_none(self.micro_recall),
                "micro_f1": finite_or_none(self.micro_f1),
                "macro_f1": finite_or_none(self.macro_f1),
                "set_accuracy": finite_or_none(self.set_accuracy),
                "ufeats_accuracy": finite_or_none(self.ufeats_accuracy),
                "counts": {"gold": self.gold, "system": self.system, "correct": self.correct,
                           "set_equal": self.set_equal, "ufeats_equal": self.ufeats_equal},
                "universal_counts": dict(zip(("gold", "system", "correct"),
                                             self.totals(universal=True))),
                "features": [r.as_dict() for r in self.rows]}


def feature_scores(pairs: Sequence[Tuple[str, str]]) -> FeatureScores:
    """Per-feature scores of (gold FEATS, system FEATS) pairs, one pair per word.

    The values should have been checked (`synagree.stats.features.check_feats`):
    malformed elements are skipped here.
    """
    cache: Dict[str, Dict[str, str]] = {}

    def split(text: str) -> Dict[str, str]:
        d = cache.get(text)
        if d is None:
            d = cache[text] = parse_feats(text)
        return d

    split_pairs = [(split(g), split(s)) for g, s in pairs]
    names = sorted({f for g, s in split_pairs for f in (*g, *s)})
    out = FeatureScores(len(split_pairs))
    for g, s in split_pairs:
        out.set_equal += g == s
        out.ufeats_equal += ({k: v for k, v in g.items() if k in UNIVERSAL_FEATURES}
                             == {k: v for k, v in s.items() if k in UNIVERSAL_FEATURES})
    for f in names:
        values = [(g.get(f, ABSENT), s.get(f, ABSENT)) for g, s in split_pairs]
        confusion = Counter(values)
        gold = sum(c for (gv, _), c in confusion.items() if gv != ABSENT)
        system = sum(c for (_, sv), c in confusion.items() if sv != ABSENT)
        agree = sum(c for (gv, sv), c in confusion.items() if gv == sv)
        correct = agree - confusion.get((ABSENT, ABSENT), 0)
        flat = Contingency.from_labels(values).coefficients()
        out.rows.append(FeatureRow(f, f in UNIVERSAL_FEATURES, len(values), gold, system,
                                   correct, agree, finite_or_none(flat["cohen_kappa"]),
                                   finite_or_none(flat["scott_pi"])))
        out.gold += gold
        out.system += system
        out.correct += correct
    out.rows.sort(key=lambda r: (-r.gold, -r.system, r.feature))
    return out
