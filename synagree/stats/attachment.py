"""Uncorrected baselines: LAS / UAS / label accuracy, and bracket Jaccard (docs/method.md §6).

Every metric is a small *credit function* over aligned words: it takes the
two annotations of a sentence and says, word by word (a boolean array),
whether the word counts as correct.  The credit is the registry's
(`synagree.base.metrics.WordCredit`: the word fields that must be the same),
so a new metric is one registry entry; `WORD_METRICS` is the live view of the
registry's word scores of ``agree``.

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
from functools import partial
from itertools import combinations
from typing import (
    Callable,
    Collection,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    Tuple,
    TypeVar,
    cast,
)

import numpy as np

from synagree.base.metrics import word_credit, word_scores
from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.io.text import same_words


def _universal(label: str) -> str:
    return label.split(":", 1)[0]


#: the registry's word fields (`synagree.base.metrics.WORD_FIELDS`) as a `DepSentence`
#: holds them: its column, and how a value is read (None: as written); ``head`` is
#: the ``heads`` array
_FIELDS: Dict[str, Tuple[str, Optional[Callable[[str], str]]]] = {
    "deprel": ("deprels", None), "udeprel": ("deprels", _universal),
    "upos": ("upos", None), "xpos": ("xpos", None), "lemma": ("lemmas", None),
}


def _column(s: DepSentence, column: str) -> Sequence[str]:
    """A string column of ``s``; a column the format does not have reads ``_`` per word
    (as CoNLL-U writes an unspecified value)."""
    values: Sequence[str] = getattr(s, column)
    return values if len(values) == s.n_words else ["_"] * s.n_words


def _field_of(name: str) -> Tuple[str, Optional[Callable[[str], str]]]:
    if name not in _FIELDS:
        raise ValueError(f"the word field {name!r} is not available between annotators "
                         f"(agree compares {', '.join(['head', *_FIELDS])})")
    return _FIELDS[name]


def _same_field(a: DepSentence, b: DepSentence, name: str) -> np.ndarray:
    """Per word: is field ``name`` the same in annotations ``a`` and ``b``?"""
    if name == "head":
        return a.heads == b.heads
    column, read = _field_of(name)
    xa, xb = _column(a, column), _column(b, column)
    if read is None:
        return np.fromiter(map(str.__eq__, xa, xb), dtype=bool, count=a.n_words)
    return np.fromiter((read(x) == read(y) for x, y in zip(xa, xb)), dtype=bool,
                       count=a.n_words)


def credit(a: DepSentence, b: DepSentence, metric: str) -> np.ndarray:
    """Per word (a boolean array): does word score ``metric`` credit it in ``a`` and ``b``?

    Every field of the metric's `synagree.base.metrics.WordCredit` must be the same.
    """
    out = np.ones(a.n_words, dtype=bool)
    for name in word_credit(metric, "agree").same:
        out &= _same_field(a, b, name)
    return out


class _WordMetrics(Mapping[str, Callable[[DepSentence, DepSentence], np.ndarray]]):
    """The registry's word scores of ``agree``, each as its credit function (live: a
    metric registered later is in it)."""

    def __getitem__(self, key: str) -> Callable[[DepSentence, DepSentence], np.ndarray]:
        if key not in word_scores("agree"):
            raise KeyError(key)
        return partial(credit, metric=key)

    def __iter__(self) -> Iterator[str]:
        return iter(word_scores("agree"))

    def __len__(self) -> int:
        return len(word_scores("agree"))


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


#: metric -> credit(a, b) (bool per word: is each word the same in annotations a and
#: b?): the registry's word scores of ``agree`` (synagree.base.metrics.word_scores)
WORD_METRICS: Mapping[str, Callable[[DepSentence, DepSentence], np.ndarray]] = _WordMetrics()


def full_label_metrics() -> Tuple[str, ...]:
    """The word scores for relations that are not UD's (without ``LAS``)."""
    return word_scores("agree", ud=False)


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
                      metrics: Optional[Sequence[str]] = None) -> Dict[str, float]:
    """Per-unit credits: per metric, the mean over annotator pairs of words credited.

    Parameters
    ----------
    annotations : sequence of DepSentence
        Two or more annotations of one sentence.
    metrics : sequence of str, optional
        Names in `WORD_METRICS` (``"LAS_full"``, ``"UAS"``, ``"LA"``); None: all.

    Raises
    ------
    ValueError
        The annotations are not of the same words (`synagree.io.text.same_words`).
    """
    if not same_words([a.forms for a in annotations]):
        raise ValueError("annotations differ in word count or words")
    pairs = list(combinations(annotations, 2))
    return {m: sum(float(np.count_nonzero(credit(a, b, m))) for a, b in pairs) / len(pairs)
            for m in (word_scores("agree") if metrics is None else metrics)}


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
    same_field = _FieldFlags(a, b, int(lengths.sum()))
    counts = {}
    for m in metrics:  # whole numbers: exact in float64 in any order
        flags = np.ones(int(lengths.sum()), dtype=bool)
        for name in word_credit(m, "agree").same:
            flags &= same_field(name)
        counts[m] = np.bincount(unit_of_word, weights=flags, minlength=len(same)).tolist()
    for r, k in enumerate(same):
        out[k] = {m: counts[m][r] for m in metrics}
    return out


class _FieldFlags:
    """Per word field, whether it is the same on both sides of every word at once
    (string columns compared by id, each column interned once)."""

    def __init__(self, a: Sequence[DepSentence], b: Sequence[DepSentence], n: int):
        self.a, self.b, self.n = a, b, n
        self._ids: Dict[str, Tuple[np.ndarray, np.ndarray, List[str]]] = {}
        self._same: Dict[str, np.ndarray] = {}

    def _interned(self, column: str) -> Tuple[np.ndarray, np.ndarray, List[str]]:
        if column not in self._ids:
            ids: Dict[str, int] = {}
            sides = [np.fromiter((ids.setdefault(x, len(ids)) for s in side
                                  for x in _column(s, column)), dtype=np.int64, count=self.n)
                     for side in (self.a, self.b)]
            self._ids[column] = (sides[0], sides[1], list(ids))
        return self._ids[column]

    def __call__(self, name: str) -> np.ndarray:
        if name not in self._same:
            if name == "head":
                self._same[name] = (np.concatenate([s.heads for s in self.a])
                                    == np.concatenate([s.heads for s in self.b]))
            else:
                column, read = _field_of(name)
                ia, ib, values = self._interned(column)
                if read is None:
                    self._same[name] = ia == ib
                else:  # the read value of each distinct label, by id
                    seen: Dict[str, int] = {}
                    u = np.array([seen.setdefault(read(x), len(seen)) for x in values],
                                 dtype=np.int64)
                    self._same[name] = u[ia] == u[ib]
        return self._same[name]


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
        relation (`non_ud_labels`), else `full_label_metrics`.
    """
    if metrics is None:
        ud = not non_ud_labels(lab for anns in units for s in anns for lab in s.deprels)
        metrics = word_scores("agree", ud)
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
