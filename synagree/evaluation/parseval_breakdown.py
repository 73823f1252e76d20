"""What EVALB never reported: PARSEVAL per label, by length, and label confusions.

docs/method.md §22.5.  Everything is computed from the brackets EVALB compared
(`synagree.evaluation.parseval.SentenceDetail`: after deletions, the length
fix and label trimming) and from its matches, over the valid sentences, so
the per-bin counts add up to EVALB's totals:

* **per label**: a gold bracket counts for its label (recall), a system
  bracket for its own (precision); with ``EQ_LABEL`` a matched ``ADVP``/``PRT``
  pair counts for ``ADVP`` on the gold side and ``PRT`` on the system side,
  and with ``LABELED 0`` any two brackets over the same words match;
* **by sentence length**: EVALB's length (``1-10`` ... ``41+``);
* **by constituent length**: a bracket's words (``1``, ``2``, ``3``, ``4-5``,
  ``6-10``, ``11-20``, ``21+``); a match joins two brackets of one span, so of
  one length;
* **label confusion of matched spans**: EVALB's matches, then each gold
  bracket left unmatched takes the first unmatched system bracket over the same
  words (in line order): gold label × system label, with the first sentence
  where each pair occurs.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from synagree.base.ratios import Share
from synagree.evaluation.compare import Confusion
from synagree.evaluation.parseval import ParsevalResult

__all__ = ["LabelCounts", "LengthBin", "ParsevalBreakdown", "parseval_breakdown",
           "SENTENCE_BINS", "CONSTITUENT_BINS"]

SENTENCE_BINS = ((1, 10), (11, 20), (21, 30), (31, 40), (41, None))
CONSTITUENT_BINS = ((1, 1), (2, 2), (3, 3), (4, 5), (6, 10), (11, 20), (21, None))


def _prf(matched_gold: int, gold: int, matched_test: int, test: int
         ) -> Tuple[float, float, Optional[float]]:
    r = matched_gold / gold if gold else 0.0
    p = matched_test / test if test else 0.0
    return p, r, (None if p + r == 0 else 2 * p * r / (p + r))


@dataclass(frozen=True)
class LabelCounts:
    """Brackets of one label: gold, system, and matched on each side.

    Parameters
    ----------
    label : str
    gold, test : int
        Gold and system brackets with this label.
    matched_gold, matched_test : int
        Those of them matched (differ only through ``EQ_LABEL`` or ``LABELED 0``).
    """

    label: str
    gold: int
    test: int
    matched_gold: int
    matched_test: int

    @property
    def recall(self) -> float:
        """matched_gold / gold (0.0 without gold brackets)."""
        return _prf(self.matched_gold, self.gold, self.matched_test, self.test)[1]

    @property
    def precision(self) -> float:
        """matched_test / test (0.0 without system brackets)."""
        return _prf(self.matched_gold, self.gold, self.matched_test, self.test)[0]

    @property
    def f1(self) -> Optional[float]:
        """2PR/(P + R); None when both are 0."""
        return _prf(self.matched_gold, self.gold, self.matched_test, self.test)[2]

    def as_dict(self) -> dict:
        """Counts and rates (fractions), JSON-ready."""
        return {"label": self.label, "gold": self.gold, "test": self.test,
                "matched_gold": self.matched_gold, "matched_test": self.matched_test,
                "recall": self.recall, "precision": self.precision, "f1": self.f1}


@dataclass(frozen=True)
class LengthBin:
    """Brackets (and sentences) of one length bin.

    Parameters
    ----------
    bin : str
        ``1-10``, ``41+``, ``4-5`` ...
    sentences : int
        Valid sentences in the bin (sentence length; 0 for constituent length).
    gold, test, matched : int
    """

    bin: str
    sentences: int
    gold: int
    test: int
    matched: int

    recall = Share("matched", "gold", empty=0.0)
    precision = Share("matched", "test", empty=0.0)

    @property
    def f1(self) -> Optional[float]:
        """2·matched/(gold + test); None when nothing matched."""
        return 2 * self.matched / (self.gold + self.test) if self.matched else None

    def as_dict(self) -> dict:
        """Counts and rates (fractions), JSON-ready."""
        return {"bin": self.bin, "sentences": self.sentences, "gold": self.gold,
                "test": self.test, "matched": self.matched, "recall": self.recall,
                "precision": self.precision, "f1": self.f1}


@dataclass
class ParsevalBreakdown:
    """The extras of one system (`parseval_breakdown`).

    Parameters
    ----------
    labels : list of LabelCounts
        By gold frequency, most frequent first.
    sentence_length, constituent_length : list of LengthBin
    confusion : Confusion
        Gold × system labels of brackets over the same words
        (`synagree.evaluation.compare.Confusion`).
    """

    labels: List[LabelCounts]
    sentence_length: List[LengthBin]
    constituent_length: List[LengthBin]
    confusion: Confusion

    def as_dict(self) -> dict:
        """Every table, JSON-ready."""
        return {"labels": [c.as_dict() for c in self.labels],
                "sentence_length": [b.as_dict() for b in self.sentence_length],
                "constituent_length": [b.as_dict() for b in self.constituent_length],
                "confusion": self.confusion.as_dict()}


def _t(s: str) -> str:
    """A label of Latin-1 characters (input bytes) as the text it encodes."""
    try:
        return s.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return s


def _bin_name(lo: int, hi: Optional[int]) -> str:
    return f"{lo}+" if hi is None else (str(lo) if lo == hi else f"{lo}-{hi}")


def _bin_of(n: int, bins: Sequence[Tuple[int, Optional[int]]]) -> str:
    for lo, hi in bins:
        if n >= lo and (hi is None or n <= hi):
            return _bin_name(lo, hi)
    return _bin_name(*bins[0])  # below the first bin (length 0): counted there


def parseval_breakdown(res: ParsevalResult) -> ParsevalBreakdown:
    r"""Per-label P/R/F, length bins and label confusions of one system.

    Parameters
    ----------
    res : ParsevalResult
        Computed with ``detail=True``.

    Raises
    ------
    ValueError
        ``res`` has no details.
    """
    if res.details is None:
        raise ValueError("parseval_breakdown needs a result computed with detail=True")
    gold: Counter = Counter()
    test: Counter = Counter()
    m_gold: Counter = Counter()
    m_test: Counter = Counter()
    conf: Counter = Counter()
    examples: Dict[Tuple[str, str], str] = {}
    s_bins: Dict[str, List[int]] = {_bin_name(*b): [0, 0, 0, 0] for b in SENTENCE_BINS}
    c_bins: Dict[str, List[int]] = {_bin_name(*b): [0, 0, 0, 0] for b in CONSTITUENT_BINS}
    by_id = {s.id: s for s in res.sentences}
    for sid, d in sorted(res.details.items()):
        sb = s_bins[_bin_of(by_id[sid].length, SENTENCE_BINS)]
        sb[0] += 1
        sb[1] += len(d.gold)
        sb[2] += len(d.test)
        sb[3] += len(d.pairs)
        for s, e, lab in d.gold:
            gold[_t(lab)] += 1
            c_bins[_bin_of(e - s, CONSTITUENT_BINS)][1] += 1
        for s, e, lab in d.test:
            test[_t(lab)] += 1
            c_bins[_bin_of(e - s, CONSTITUENT_BINS)][2] += 1
        for i, j in d.pairs:
            g, t = d.gold[i], d.test[j]
            m_gold[_t(g[2])] += 1
            m_test[_t(t[2])] += 1
            c_bins[_bin_of(g[1] - g[0], CONSTITUENT_BINS)][3] += 1
            key = (_t(g[2]), _t(t[2]))
            conf[key] += 1
            examples.setdefault(key, f"#{sid}")
        # the unmatched, paired by span: label confusions EVALB does not count
        free: Dict[Tuple[int, int], List[int]] = {}
        for j in d.unmatched_test():
            free.setdefault(d.test[j][:2], []).append(j)
        for i in d.unmatched_gold():
            cands = free.get(d.gold[i][:2])
            if cands:
                j = cands.pop(0)
                key = (_t(d.gold[i][2]), _t(d.test[j][2]))
                conf[key] += 1
                examples.setdefault(key, f"#{sid}")
    labels = sorted(set(gold) | set(test), key=lambda k: (-gold[k], -test[k], k))
    return ParsevalBreakdown(
        [LabelCounts(k, gold[k], test[k], m_gold[k], m_test[k]) for k in labels],
        [LengthBin(k, v[0], v[1], v[2], v[3]) for k, v in s_bins.items()],
        [LengthBin(k, 0, v[1], v[2], v[3]) for k, v in c_bins.items()],
        Confusion(dict(conf), examples))
