"""GATE's precision, recall and F over span annotations: strict, lenient, average, and BDM-based.

docs/method.md §24 (strict/lenient/average) and §23.3 (BDM-based).  Both follow
GATE's code: ``gate.util.AnnotationDiffer`` (Annotation Diff, Corpus QA) and the
IAA plugin's BDM-based counts (``IaaMain.computeFNumbersBDM``).

An annotation is a `SpanAnnotation`: a half-open span ``[start, end)`` (token
or character offsets) and a label.  Two annotations are *coextensive* when
their spans are equal and *overlap* when they share an offset
(``a.start < b.end and b.start < a.end``).

Strict, lenient and average (`annotation_diff`)
    GATE pairs keys (gold) with responses.  Every compatible pair is a
    candidate worth 3 if coextensive (*correct*) and 2 if only overlapping
    (*partially correct*); an incompatible coextensive pair is a *mismatch*
    (1) and an incompatible overlapping pair *wrong* (0).  Each candidate's
    score is its value minus the values of the candidates it excludes (those
    sharing its key or its response); candidates are taken greedily, highest
    score first (ties: the later candidate in key-major order first, as
    GATE's stable sort reversed), each removing the candidates it excludes.
    A mismatch or wrong pairing counts its key as *missing* and its response
    as *spurious*; keys and responses left unpaired are missing and spurious.
    Then, with K keys and R responses::

        P_strict  = correct / R              R_strict  = correct / K
        P_lenient = (correct + partial) / R  R_lenient = (correct + partial) / K
        P_average = (P_strict + P_lenient) / 2 (and so for R)
        F = 2PR / (P + R) for strict and lenient (0 when undefined)
        F_average = (F_strict + F_lenient) / 2

    P is 1 when there are no responses, R when there are no keys (GATE's
    convention).  Counts sum over documents and types before the ratios
    (GATE's micro summary).

How labels enter (``labels``)
    ``"type"``: each label is its own annotation type (GATE's usual set-up
    for constituents: ``NP``, ``VP`` are types): keys and responses are
    paired within a label only, every pair of one label compatible.
    ``"feature"``: one annotation type with the label as the significant
    feature (GATE's set-up for tokens with a ``category`` feature): same
    label = compatible.  ``"none"``: spans only.

BDM-based (`bdm_diff`)
    GATE's IAA plugin: for each key in order, each response not yet matched:
    coextensive pairs add their BDM score to *correct*, overlapping pairs to
    *partial*; a pair with a positive score marks both as matched and counts
    one *match* (a key may match several responses).  Missing and spurious
    are the unmatched keys and responses.  With M > 0 matches::

        P = correct / (M + spurious)     R = correct / (M + missing)

    (lenient: ``correct + partial`` over the same), F = 2PR/(P + R);
    without matches the denominators are ``correct + partial + spurious``
    and ``... + missing`` as in GATE's unweighted counts.

Examples
--------
>>> keys = [SpanAnnotation(0, 2, "NP"), SpanAnnotation(3, 5, "NP")]
>>> resp = [SpanAnnotation(0, 2, "NP"), SpanAnnotation(3, 4, "NP"), SpanAnnotation(5, 6, "VP")]
>>> d = annotation_diff(keys, resp)
>>> d.correct, d.partial, d.missing, d.spurious
(1, 1, 0, 1)
>>> d.precision("strict"), d.precision("lenient"), d.precision("average")
(0.3333333333333333, 0.6666666666666666, 0.5)
"""
from __future__ import annotations

import bisect
import math
from dataclasses import astuple, dataclass
from typing import Any, Callable, Dict, Iterable, List, Sequence, Tuple, TypeVar, cast

from synagree.base.option_specs import SPECS

__all__ = ["SpanAnnotation", "DiffCounts", "annotation_diff", "by_label", "BDMCounts", "bdm_diff",
           "LABEL_MODES", "MEASURES"]

#: How labels enter the comparison (module docstring; declared with the options,
#: `synagree.base.option_specs`).
LABEL_MODES: Tuple[str, ...] = SPECS["labels"].choices
#: GATE's three measures.
MEASURES = ("strict", "lenient", "average")

_CORRECT, _PARTIAL, _MISMATCH, _WRONG = 3, 2, 1, 0


@dataclass(frozen=True)
class SpanAnnotation:
    """A labelled half-open span ``[start, end)`` (token or character offsets)."""

    start: int
    end: int
    label: str = ""

    def coextensive(self, other: "SpanAnnotation") -> bool:
        """Same span."""
        return self.start == other.start and self.end == other.end

    def overlaps(self, other: "SpanAnnotation") -> bool:
        """They share an offset (GATE's ``overlaps``)."""
        return self.start < other.end and other.start < self.end


def _ratio(num: float, den: float, empty: float) -> float:
    return num / den if den else empty


def _f(p: float, r: float) -> float:
    value = 2 * p * r / (p + r) if p + r else math.nan
    return 0.0 if math.isnan(value) else value


_Tally = TypeVar("_Tally", bound="FieldSum")


class FieldSum:
    """Counts (a dataclass of numbers) that add up field by field: ``a + b``."""

    def __add__(self: _Tally, other: _Tally) -> _Tally:
        return type(self)(*(a + b for a, b in zip(astuple(cast(Any, self)),
                                                  astuple(cast(Any, other)))))


@dataclass
class DiffCounts(FieldSum):
    """GATE's counts of a comparison and the measures derived from them.

    Parameters
    ----------
    correct, partial, missing, spurious : int
    keys, responses : int
        K and R (every key and response, whatever became of it).
    """

    correct: int = 0
    partial: int = 0
    missing: int = 0
    spurious: int = 0
    keys: int = 0
    responses: int = 0

    def precision(self, measure: str = "strict") -> float:
        """P of ``strict``, ``lenient`` or ``average`` (1 without responses)."""
        if measure == "average":
            return (self.precision("strict") + self.precision("lenient")) / 2.0
        hit = self.correct + (self.partial if measure == "lenient" else 0)
        _check(measure)
        return _ratio(hit, self.responses, 1.0)

    def recall(self, measure: str = "strict") -> float:
        """R of ``strict``, ``lenient`` or ``average`` (1 without keys)."""
        if measure == "average":
            return (self.recall("strict") + self.recall("lenient")) / 2.0
        hit = self.correct + (self.partial if measure == "lenient" else 0)
        _check(measure)
        return _ratio(hit, self.keys, 1.0)

    def f1(self, measure: str = "strict") -> float:
        """F1; ``average`` is the mean of the strict and the lenient F1 (GATE's)."""
        if measure == "average":
            return (self.f1("strict") + self.f1("lenient")) / 2.0
        return _f(self.precision(measure), self.recall(measure))

    def as_dict(self) -> dict:
        """Counts and the nine measures, JSON-ready."""
        d: dict = {"correct": self.correct, "partial": self.partial, "missing": self.missing,
                   "spurious": self.spurious, "keys": self.keys, "responses": self.responses}
        for m in MEASURES:
            d[m] = {"precision": self.precision(m), "recall": self.recall(m), "f1": self.f1(m)}
        return d


def _check(measure: str) -> None:
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}; expected one of {', '.join(MEASURES)}")


def _overlapping(keys: Sequence[SpanAnnotation], responses: Sequence[SpanAnnotation]
                 ) -> List[List[int]]:
    """For each key, the indices (ascending) of the responses that overlap or coincide.

    Responses sorted by start; a key looks at those starting within the
    longest response's length before it (the pairs GATE's double loop would
    find, without visiting the others).
    """
    order = sorted(range(len(responses)), key=lambda j: responses[j].start)
    starts = [responses[j].start for j in order]
    longest = max((r.end - r.start for r in responses), default=0)
    out: List[List[int]] = []
    for k in keys:
        lo = bisect.bisect_left(starts, k.start - longest)
        hi = bisect.bisect_left(starts, max(k.end, k.start + 1))
        found = [order[x] for x in range(lo, hi)
                 if k.coextensive(responses[order[x]]) or k.overlaps(responses[order[x]])]
        found.sort()
        out.append(found)
    return out


def _diff_one(keys: Sequence[SpanAnnotation], responses: Sequence[SpanAnnotation],
              compatible: Callable[[SpanAnnotation, SpanAnnotation], bool]) -> DiffCounts:
    """GATE's ``AnnotationDiffer.calculateDiff`` on one annotation type."""
    # 1) every candidate pairing, key-major (GATE's loops)
    cands: List[Tuple[int, int, int]] = []  # (key, response, value)
    by_key: Dict[int, List[int]] = {}
    by_resp: Dict[int, List[int]] = {}
    near = _overlapping(keys, responses)
    for i, k in enumerate(keys):
        for j in near[i]:
            r = responses[j]
            if k.coextensive(r):
                value = _CORRECT if compatible(k, r) else _MISMATCH
            elif k.overlaps(r):
                value = _PARTIAL if compatible(k, r) else _WRONG
            else:
                continue
            c = len(cands)
            cands.append((i, j, value))
            by_key.setdefault(i, []).append(c)
            by_resp.setdefault(j, []).append(c)
    # 2) scores: value minus the values of the conflicting candidates (computed once)
    score = []
    for c, (i, j, value) in enumerate(cands):
        conflict = set(by_key[i]) | set(by_resp[j])
        conflict.discard(c)
        score.append(value - sum(cands[o][2] for o in conflict))
    # GATE sorts ascending (stable) and reverses: highest score first, later candidate first
    order = sorted(range(len(cands)), key=lambda c: score[c], reverse=False)
    order.reverse()
    alive = [True] * len(cands)
    key_left = {i: set(cs) for i, cs in by_key.items()}
    resp_left = {j: set(cs) for j, cs in by_resp.items()}
    out = DiffCounts(keys=len(keys), responses=len(responses))
    for c in order:
        if not alive[c]:
            continue
        i, j, value = cands[c]
        for o in key_left[i] | resp_left[j]:
            if o != c and alive[o]:
                alive[o] = False
                oi, oj, _ = cands[o]
                key_left[oi].discard(o)
                resp_left[oj].discard(o)
        if value == _CORRECT:
            out.correct += 1
        elif value == _PARTIAL:
            out.partial += 1
        else:  # mismatch or wrong: a missing key and a spurious response
            out.missing += 1
            out.spurious += 1
    out.missing += sum(1 for i in range(len(keys)) if not key_left.get(i))
    out.spurious += sum(1 for j in range(len(responses)) if not resp_left.get(j))
    return out


def by_label(keys: Sequence[SpanAnnotation], responses: Sequence[SpanAnnotation]
             ) -> Dict[str, Tuple[List[SpanAnnotation], List[SpanAnnotation]]]:
    """The keys and responses of each label, in document order; the labels in the order
    first seen (the keys', then the responses'), in one pass (linear in annotations,
    whatever the number of labels: a layer of word forms has thousands).
    """
    out: Dict[str, Tuple[List[SpanAnnotation], List[SpanAnnotation]]] = {}
    for side, group in enumerate((keys, responses)):
        for a in group:
            lists = out.get(a.label)
            if lists is None:
                lists = out[a.label] = ([], [])
            lists[side].append(a)
    return out


def annotation_diff(keys: Iterable[SpanAnnotation], responses: Iterable[SpanAnnotation],
                    labels: str = "type") -> DiffCounts:
    """GATE's Annotation Diff of keys (gold) and responses (module docstring).

    Parameters
    ----------
    keys, responses : iterable of SpanAnnotation
        In document order (the order breaks GATE's ties).
    labels : {"type", "feature", "none"}
        Each label its own annotation type (counts summed over labels), the
        label a significant feature of one type, or spans only.

    Raises
    ------
    ValueError
        An unknown ``labels``.
    """
    keys, responses = list(keys), list(responses)
    if labels == "type":
        out = DiffCounts()
        for k, r in by_label(keys, responses).values():
            out = out + _diff_one(k, r, lambda a, b: True)
        return out
    if labels == "feature":
        return _diff_one(keys, responses, lambda a, b: a.label == b.label)
    if labels == "none":
        return _diff_one(keys, responses, lambda a, b: True)
    raise ValueError(f"unknown label mode {labels!r}; expected one of {', '.join(LABEL_MODES)}")


# ---------------------------------------------------------------- BDM-based
@dataclass
class BDMCounts(FieldSum):
    """GATE's BDM-based counts (sums of BDM scores) and the measures from them.

    Parameters
    ----------
    correct, partial : float
        Σ of the BDM scores of coextensive / overlapping pairs.
    missing, spurious : int
        Keys / responses with no pair of positive score.
    matches : int
        Pairs with a positive score (GATE's ``BDMn``).
    """

    correct: float = 0.0
    partial: float = 0.0
    missing: int = 0
    spurious: int = 0
    matches: int = 0

    def _den(self, side: int) -> float:
        if self.matches > 0:
            return self.matches + side
        return self.correct + self.partial + side

    def precision(self, measure: str = "strict") -> float:
        """P: ``correct`` (lenient: plus ``partial``) over matches + spurious (0 if empty)."""
        hit = self.correct + (self.partial if measure == "lenient" else 0.0)
        return _ratio(hit, self._den(self.spurious), 0.0)

    def recall(self, measure: str = "strict") -> float:
        """R: ``correct`` (lenient: plus ``partial``) over matches + missing (0 if empty)."""
        hit = self.correct + (self.partial if measure == "lenient" else 0.0)
        return _ratio(hit, self._den(self.missing), 0.0)

    def f1(self, measure: str = "strict") -> float:
        """2PR/(P + R), 0 when P + R = 0."""
        p, r = self.precision(measure), self.recall(measure)
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict:
        """Counts and the strict and lenient measures, JSON-ready."""
        d: dict = {"correct": self.correct, "partial": self.partial, "missing": self.missing,
                   "spurious": self.spurious, "matches": self.matches}
        for m in ("strict", "lenient"):
            d[m] = {"precision": self.precision(m), "recall": self.recall(m), "f1": self.f1(m)}
        return d


def bdm_diff(keys: Iterable[SpanAnnotation], responses: Iterable[SpanAnnotation],
             score: Callable[[str, str], float]) -> BDMCounts:
    """GATE's BDM-based counts of keys against responses (module docstring).

    Parameters
    ----------
    keys, responses : iterable of SpanAnnotation
        In document order.
    score : callable
        ``score(key label, response label)``: the BDM (negative scores count
        as 0, as in GATE).
    """
    keys, responses = list(keys), list(responses)
    out = BDMCounts()
    matched_keys: set = set()
    matched_resp: set = set()
    near = _overlapping(keys, responses)
    for i, k in enumerate(keys):
        for j in near[i]:
            if j in matched_resp:
                continue
            r = responses[j]
            if k.coextensive(r):
                value = max(0.0, score(k.label, r.label))
                out.correct += value
            elif k.overlaps(r):
                value = score(k.label, r.label)  # GATE does not clip here
                out.partial += value
            else:
                continue
            if value > 0:
                matched_resp.add(j)
                matched_keys.add(i)
                out.matches += 1
    out.missing = len(keys) - len(matched_keys)
    out.spurious = len(responses) - len(matched_resp)
    return out
