"""From disagreement to gold: the consensus tree of each unit, a worklist, decisions.

`adjudicate_corpus` is what ``synagree adjudicate`` runs (docs/method.md §31,
docs/adjudication.md).  Per unit of a corpus read as for ``agree``:

* **Heads.**  Each annotator votes for the arc (head → word) it gave each
  word, with its weight (1, or its competence weight,
  `synagree.stats.competence`).  The consensus tree is the maximum spanning
  arborescence of the vote weights (`synagree.trees.arborescence`), with one
  child of the root wherever every annotator of the unit has one root per
  sentence.  An arc nobody gave weighs 0, so a tree always exists; where the
  majority arcs already form such a tree, it is the majority.
* **Tie rule.**  Every arc's weight gets ``ε · Σ_j 2^−(j+1)`` over the
  annotators j (0-based, in corpus order) who gave it, ε far below any
  difference of vote weights: among trees of equal vote weight the one that
  follows the earlier annotators wins; arcs nobody gave tie by the lower head
  position.
* **Labels and columns.**  The chosen arc's DEPREL is the label with the most
  (weighted) votes among the annotators who gave that arc (all annotators of
  the word when nobody did); FORM, LEMMA, UPOS, XPOS and FEATS by weighted
  vote of all annotators of the word; MISC per attribute (`_misc_column`),
  DEPS as whole cells (`_deps_column`).  Ties: the value of the earliest
  annotator among the tied ones.
* **How each word was decided** (``decided_by``): ``vote`` (the chosen head
  and label each have strictly the most votes), ``tie`` (the chosen head or
  label shares the most votes with another), ``tree`` (the chosen head is not
  among the word's most voted heads: the tree constraint moved it) or
  ``curator`` (a decisions file).  A word whose annotators do not all agree on
  head and label gets ``Adjudication=...`` in MISC.
* **Worklist.**  Ties, arcs chosen with no more than half the vote weight,
  words moved by the tree constraint, units whose annotators split the text
  into sentences differently or differ in word count; ordered by how much
  the unit moves α (α without the unit − α, largest first; docs/method.md
  §12.1), then by unit and word.
"""
from __future__ import annotations

import csv
import io
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, cast

import numpy as np

from synagree._version import __version__
from synagree.agreement.agree import agree_corpus
from synagree.agreement.influence import unit_influence
from synagree.base.frames import Frames
from synagree.base.option_specs import SPECS
from synagree.base.problems import InputError, Problem
from synagree.distance.ted import TreePack, pair_distances
from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence, to_conllu, unreachable_words
from synagree.io.corpus import Corpus, Unit
from synagree.io.files import write_atomic
from synagree.io.formats import Sentence
from synagree.io.units import offset_deps
from synagree.stats.attachment import attachment_scores, jaccard_scores
from synagree.stats.competence import Competence, one_coin_dawid_skene
from synagree.trees.arborescence import max_arborescence
from synagree.trees.flat import Vocabulary, build_trees
from synagree.trees.span_consensus import Span, consensus_of, labelled_spans, span_votes

__all__ = ["AdjudicationResult", "AnnotatorScore", "WorkItem", "adjudicate_corpus",
           "read_decisions", "write_worklist", "WEIGHTS", "WORKLIST_COLUMNS", "DECIDED_BY"]

#: the vote weights (declared with the options, `synagree.base.option_specs`)
WEIGHTS: Tuple[str, ...] = SPECS["weights"].choices
DECIDED_BY = ("vote", "tie", "tree", "curator")
#: the worklist's columns (CSV header, JSON keys); the last three are the curator's
WORKLIST_COLUMNS = ("rank", "unit", "sent_id", "word", "form", "reason", "head", "deprel",
                    "votes", "delta_alpha", "choose_annotator", "choose_head",
                    "choose_deprel")
_TOL = 1e-9


@dataclass(frozen=True)
class WorkItem:
    """One row of the worklist: a word (or a whole unit, ``word`` 0) to look at.

    ``reason`` is ``tie``, ``minority`` (the chosen arc, or a bracket's label,
    has no more than half the vote weight), ``tree`` (moved by the tree
    constraint), ``dropped`` (bracketed input: a bracket some annotators gave,
    left out with less than half the weight), ``split`` (annotators split the
    unit into sentences differently) or ``words`` (their word counts differ);
    ``votes`` the alternatives as ``annotator:head/deprel``; ``delta_alpha`` how
    much α rises without the unit.
    """

    unit: str
    sent_id: Optional[str]
    word: int
    form: str
    reason: str
    head: int
    deprel: str
    votes: str
    delta_alpha: Optional[float]

    def row(self, rank: int) -> Dict[str, Any]:
        """The worklist row (`WORKLIST_COLUMNS`), choices empty."""
        return {"rank": rank, "unit": self.unit, "sent_id": self.sent_id or "",
                "word": self.word, "form": self.form, "reason": self.reason,
                "head": self.head, "deprel": self.deprel, "votes": self.votes,
                "delta_alpha": self.delta_alpha, "choose_annotator": "",
                "choose_head": "", "choose_deprel": ""}


@dataclass(frozen=True)
class AnnotatorScore:
    """One annotator against the consensus: α_plain, LAS, LAS_full and competence."""

    annotator: str
    alpha_plain: Optional[float]
    LAS: Optional[float]
    LAS_full: Optional[float]
    words: float
    competence: Optional[float] = None
    jaccard: Optional[float] = None  # phrase structure: bracket Jaccard

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready (registered keys; ``LAS``/``LAS_full`` or ``jaccard``)."""
        d: Dict[str, Any] = {"annotator": self.annotator, "alpha_plain": self.alpha_plain}
        if self.jaccard is None:
            d.update({"LAS": self.LAS, "LAS_full": self.LAS_full})
        else:
            d["jaccard"] = self.jaccard
        d.update({"total": self.words, "competence": self.competence})
        return d


@dataclass(frozen=True)
class AdjudicationResult(Frames):
    """The consensus of a corpus, how it was decided, and the annotators against it.

    Attributes
    ----------
    annotators : tuple of str
    weights : {"equal", "competence"}
    units : int
        Units adjudicated.
    words : int
        Words of the consensus.
    decided : dict of str to int
        ``unanimous`` and, per `DECIDED_BY`, ``decided_by_<how>``.
    scores : tuple of AnnotatorScore
        Each annotator against the consensus.
    worklist : tuple of WorkItem
        In worklist order.
    consensus : tuple of DepSentence
        The adjudicated sentences, in corpus order, split as the majority
        split each unit; ``misc`` holds the MISC column.
    misc : tuple of tuple of str
        Per consensus sentence, the MISC column per word: the attributes by
        vote, then ``Adjudication=...`` where the word was not unanimous
        (``_`` when empty).
    alpha_plain : float or None
        α_plain among the annotators (as ``agree``).
    competence : Competence or None
        ``weights="competence"``: the estimated accuracies.
    worklist_order : str
        ``influence`` (α without the unit, exact) or ``share`` (the unit's
        share of D_o, when D_e was sampled).
    notes : tuple of str
    warnings : tuple of Problem
        The warnings met while reading the input.
    kind : {"dependency", "phrase"}
    unit_of : tuple of str
        The unit id of each consensus sentence (a joined unit has several).

    Examples
    --------
    >>> s = DepSentence.from_heads
    >>> corpus = Corpus.from_annotations({"a": [s([2, 0], "nsubj root")],
    ...                                   "b": [s([2, 0], "nsubj root")],
    ...                                   "c": [s([0, 1], "root obj")]})
    >>> res = adjudicate_corpus(corpus)
    >>> res.decided["decided_by_vote"], [x.annotator for x in res.scores]
    (2, ['a', 'b', 'c'])
    >>> res.to_dict()["per_annotator"][2]["LAS_full"]
    0.0
    """

    annotators: Tuple[str, ...]
    weights: str
    units: int
    words: int
    decided: Dict[str, int]
    scores: Tuple[AnnotatorScore, ...]
    worklist: Tuple[WorkItem, ...]
    consensus: Tuple[Sentence, ...]
    misc: Tuple[Tuple[str, ...], ...]
    alpha_plain: Optional[float] = None
    competence: Optional[Competence] = None
    worklist_order: str = "influence"
    notes: Tuple[str, ...] = ()
    warnings: Tuple[Problem, ...] = ()
    kind: str = "dependency"
    unit_of: Tuple[str, ...] = ()  # the unit of each consensus sentence

    def to_conllu(self) -> str:
        """The consensus as CoNLL-U text (MISC with the provenance); dependency only."""
        if self.kind != "dependency":
            raise ValueError("a phrase-structure consensus is written by to_text()")
        sents = cast(Sequence[DepSentence], self.consensus)
        return to_conllu(sents, misc=self.misc, deps=[s.deps for s in sents])

    def to_text(self) -> str:
        """The consensus as CoNLL-U (dependency) or one bracketed tree a line (phrase)."""
        if self.kind == "dependency":
            return self.to_conllu()
        return "".join(bracket_line(cast(PhraseSentence, x)) + "\n" for x in self.consensus)

    def worklist_rows(self) -> List[Dict[str, Any]]:
        """The worklist as rows of `WORKLIST_COLUMNS`."""
        return [w.row(i + 1) for i, w in enumerate(self.worklist)]

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: the counts, each annotator against the consensus, the worklist."""
        return {"synagree_version": __version__, "kind": self.kind,
                "weights": self.weights, "annotators": len(self.annotators),
                "annotator_names": list(self.annotators), "units": self.units,
                "words": self.words, "alpha_plain": self.alpha_plain, **self.decided,
                "worklist_items": len(self.worklist), "worklist_order": self.worklist_order,
                "per_annotator": [s.to_dict() for s in self.scores],
                "competence": None if self.competence is None else self.competence.to_dict(),
                "worklist": self.worklist_rows(), "notes": list(self.notes),
                "warnings": [p.as_dict() for p in self.warnings]}

    def frame_rows(self) -> List[Dict[str, Any]]:
        """One row per annotator and metric (α_plain, LAS, LAS_full, competence),
        then the corpus's counts (annotator ``""``)."""
        rows: List[Dict[str, Any]] = []
        for s in self.scores:
            for k, v in s.to_dict().items():
                if k not in ("annotator", "total") and v is not None:
                    rows.append({"annotator": s.annotator, "metric": k, "value": v})
        for k, v in self.decided.items():
            rows.append({"annotator": "", "metric": k, "value": v})
        return rows


# --------------------------------------------------------------------------- one unit


@dataclass
class _Unit:
    """The working state of one unit."""

    unit: Unit
    voters: List[int]  # annotator indices whose annotation votes
    sents: List[DepSentence]  # their annotations, in the same order
    parts: List[int]  # the majority split: word counts of the sentences
    names: Sequence[str]  # every annotator of the corpus
    heads: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    labels: List[str] = field(default_factory=list)
    how: List[str] = field(default_factory=list)
    minority: List[bool] = field(default_factory=list)
    columns: Dict[str, List[str]] = field(default_factory=dict)
    reasons: List[str] = field(default_factory=list)  # unit-level worklist reasons
    reasons_deps: int = 0  # sentences whose voted DEPS could not be written


def _vote(values: Sequence[str], weights: Sequence[float]) -> Tuple[str, bool]:
    """The value with the most weight (the earliest of tied ones) and whether it tied."""
    tally: Dict[str, float] = {}
    for v, w in zip(values, weights):
        tally[v] = tally.get(v, 0.0) + w
    top = max(tally.values())
    best = [v for v in tally if tally[v] >= top - _TOL]
    return best[0], len(best) > 1  # dicts keep insertion (annotator) order


def _split_of(unit: Unit, annotator: str) -> Tuple[int, ...]:
    parts = unit.parts.get(annotator)
    if parts and len(parts) > 1:
        return tuple(cast(DepSentence, p).n_words for p in parts)
    return (cast(DepSentence, unit.annotations[annotator]).n_words,)


def _prepare(unit: Unit, annotators: Sequence[str], weights: np.ndarray) -> _Unit:
    """The voters of a unit (those of the weighted-majority word count) and its split."""
    present = [j for j, a in enumerate(annotators) if a in unit.annotations]
    sents = {j: cast(DepSentence, unit.annotations[annotators[j]]) for j in present}
    n_words, _ = _vote([str(sents[j].n_words) for j in present],
                       [max(weights[j], _TOL) for j in present])
    voters = [j for j in present if str(sents[j].n_words) == n_words]
    splits = {j: _split_of(unit, annotators[j]) for j in voters}
    split, _ = _vote([",".join(map(str, splits[j])) for j in voters],
                     [max(weights[j], _TOL) for j in voters])
    st = _Unit(unit, voters, [sents[j] for j in voters], [int(x) for x in split.split(",")],
               annotators)
    if len(voters) < len(present):
        st.reasons.append("words")
    if len(set(splits.values())) > 1:
        st.reasons.append("split")
    return st


def _solve(st: _Unit, weights: np.ndarray) -> None:
    """Heads, labels, columns and how each word was decided."""
    n = st.sents[0].n_words
    W = np.zeros((n + 1, n + 1))
    eps = _TOL * 1e-3 / (n + 1)
    dep = np.arange(1, n + 1)
    for j, s in zip(st.voters, st.sents):
        np.add.at(W, (s.heads, dep), weights[j] + eps * 2.0 ** -(j + 1))
    single = all(s.n_roots == len(_split_of(st.unit, st.names[j]))
                 for j, s in zip(st.voters, st.sents))
    heads = np.zeros(n, dtype=np.int32)
    start = 0
    for size in st.parts:  # each sentence of the majority split on its own
        idx = np.r_[0, np.arange(start + 1, start + size + 1)]
        sub = max_arborescence(W[np.ix_(idx, idx)], single_root=single)
        heads[start:start + size] = np.where(sub == 0, 0, sub + start)
        start += size
    st.heads = heads
    first = st.sents[0]
    same = np.all(np.stack([s.heads for s in st.sents]) == first.heads, axis=0)
    labels = list(first.deprels)
    how = ["vote"] * n
    minority = [False] * n
    for d in np.flatnonzero(~same | (heads != first.heads)).tolist() + [
            d for d in np.flatnonzero(same & (heads == first.heads)).tolist()
            if any(s.deprels[d] != labels[d] for s in st.sents)]:
        labels[d], how[d], minority[d] = _decide(st, weights, W, d, int(heads[d]))
    st.labels, st.how, st.minority = labels, how, minority
    for name in ("forms", "lemmas", "upos", "xpos", "feats"):
        have = [(j, getattr(s, name)) for j, s in zip(st.voters, st.sents)
                if len(getattr(s, name)) == n]
        if not have:
            st.columns[name] = ["_"] * n
        elif all(col == have[0][1] for _, col in have):  # the usual case: all agree
            st.columns[name] = list(have[0][1])
        else:
            st.columns[name] = [_vote([col[d] for _, col in have],
                                      [max(weights[j], _TOL) for j, _ in have])[0]
                                for d in range(n)]
    st.columns["misc"] = _misc_column(st, weights, n)
    st.columns["deps"] = _deps_column(st, weights, n)


_ABSENT = "\x00"  # an attribute an annotator's MISC does not have


def _misc_items(value: str) -> List[Tuple[str, str]]:
    """The attributes of a MISC value as (key, item), ``Adjudication=`` left out."""
    if value in ("_", ""):
        return []
    out = []
    for item in value.split("|"):
        key = item.partition("=")[0]
        if item and key != "Adjudication":
            out.append((key, item))
    return out


def _misc_column(st: _Unit, weights: np.ndarray, n: int) -> List[str]:
    """MISC by weighted vote per attribute (docs/method.md §31.2).

    Each attribute key any voter of the word has is kept with the value (the
    whole ``Key=Value`` item) that has the most weight, not having the key
    being one of the values; keys in the order the voters (in corpus order)
    first give them; ties to the earliest annotator.  An ``Adjudication=``
    attribute of the input is provenance of an earlier run: dropped, never
    voted on.
    """
    have = [(j, s.misc) for j, s in zip(st.voters, st.sents) if len(s.misc) == n]
    if not have:
        return ["_"] * n
    out = []
    agree = all(col == have[0][1] for _, col in have)
    for d in range(n):
        first = have[0][1][d]
        if agree or all(col[d] == first for _, col in have):
            if "Adjudication" in first:
                first = "|".join(x for _, x in _misc_items(first)) or "_"
            out.append(first)
            continue
        given = [dict(_misc_items(col[d])) for _, col in have]
        keys = list(dict.fromkeys(k for g in given for k in g))
        wts = [max(weights[j], _TOL) for j, _ in have]
        kept = [_vote([g.get(k, _ABSENT) for g in given], wts)[0] for k in keys]
        out.append("|".join(x for x in kept if x != _ABSENT) or "_")
    return out


def _deps_column(st: _Unit, weights: np.ndarray, n: int) -> List[str]:
    """DEPS by weighted vote (docs/method.md §31.2): first whether the unit has
    an enhanced graph (the voters that give any DEPS other than ``_`` against
    those that do not), then, if it has, each word's whole DEPS cell by vote of
    the voters that give one.  Not made consistent with the consensus tree."""
    given = [len(s.deps) == n and any(v not in ("_", "") for v in s.deps) for s in st.sents]
    wts = [max(weights[j], _TOL) for j in st.voters]
    if not any(given) or _vote(["y" if g else "n" for g in given], wts)[0] == "n":
        return ["_"] * n
    cols = [(s.deps, w) for s, w, g in zip(st.sents, wts, given) if g]
    return [_vote([c[d] or "_" for c, _ in cols], [w for _, w in cols])[0] for d in range(n)]


def _deps_fit(values: Sequence[str], size: int) -> bool:
    """Whether DEPS cells refer only to words 0..size (no empty node: the reader does
    not keep them, so their lines cannot be written)."""
    for v in values:
        if v in ("_", ""):
            continue
        for item in v.split("|"):
            head = item.partition(":")[0]
            if not head.isdigit() or int(head) > size:
                return False
    return True


def _with_provenance(misc: str, prov: str) -> str:
    """The voted MISC with the ``Adjudication=`` attribute (``_`` for none) added last."""
    if prov == "_":
        return misc
    return prov if misc == "_" else f"{misc}|{prov}"


def _decide(st: _Unit, weights: np.ndarray, W: np.ndarray, d: int, h: int
            ) -> Tuple[str, str, bool]:
    """The label of word d+1 under head h, how it was decided, and whether the
    arc has no more than half the vote weight."""
    column = W[:, d + 1].round(6)  # the vote weights (the priority ε dropped)
    top = column.max()
    chosen = column[h]
    with_arc = [(s.deprels[d], weights[j]) for j, s in zip(st.voters, st.sents)
                if int(s.heads[d]) == h] or [(s.deprels[d], weights[j])
                                              for j, s in zip(st.voters, st.sents)]
    label, label_tie = _vote([x for x, _ in with_arc], [w for _, w in with_arc])
    if chosen < top - 1e-6:
        how = "tree"
    elif np.count_nonzero(column >= top - 1e-6) > 1 or label_tie:
        how = "tie"
    else:
        how = "vote"
    return label, how, bool(chosen <= 0.5 * column.sum() + 1e-6 and len(st.voters) > 1)


def _alternatives(st: _Unit, d: int, names: Sequence[str]) -> str:
    """``annotator:head/deprel`` of each voter for word d+1, joined by spaces."""
    return " ".join(f"{names[j]}:{int(s.heads[d])}/{s.deprels[d]}"
                    for j, s in zip(st.voters, st.sents))


def _provenance(st: _Unit, d: int, weights: np.ndarray) -> str:
    """The MISC value ``Adjudication=...`` of word d+1, or ``_`` when unanimous."""
    pairs = [(int(s.heads[d]), s.deprels[d]) for s in st.sents]
    if len(set(pairs)) <= 1 and st.how[d] != "curator":
        return "_"
    heads: Dict[int, float] = {}
    labels: Dict[str, float] = {}
    for (h, lab), j in zip(pairs, st.voters):
        heads[h] = heads.get(h, 0.0) + weights[j]
        labels[lab] = labels.get(lab, 0.0) + weights[j]
    hv = ",".join(f"{h}({w:g})" for h, w in sorted(heads.items(), key=lambda x: -x[1]))
    lv = ",".join(f"{lab}({w:g})" for lab, w in sorted(labels.items(), key=lambda x: -x[1]))
    return f"Adjudication=by:{st.how[d]};head:{hv};deprel:{lv}"


# --------------------------------------------------------------------------- decisions


def read_decisions(path: "str | os.PathLike[str]") -> List[Dict[str, str]]:
    """The rows of a decisions file (the worklist's CSV or JSON with choices filled).

    Raises
    ------
    InputError
        ``bad-decisions``: unreadable, or a row without ``unit``.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError.single(str(p), None, "bad-decisions", f"cannot read: {e.strerror}")
    rows: List[Dict[str, str]]
    if p.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except ValueError as e:
            raise InputError.single(str(p), None, "bad-decisions", f"not JSON: {e}")
        data = data.get("worklist", data) if isinstance(data, dict) else data
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise InputError.single(str(p), None, "bad-decisions",
                                    "expected a list of rows (or {\"worklist\": [...]})")
        rows = [{k: "" if v is None else str(v) for k, v in r.items()} for r in data]
    else:
        rows = [dict(r) for r in csv.DictReader(io.StringIO(text))]
    for i, r in enumerate(rows, 2 if p.suffix.lower() != ".json" else 1):
        if not r.get("unit"):
            raise InputError.single(str(p), i, "bad-decisions", "a row without a unit")
    return rows


def _int_field(row: Dict[str, str], key: str, path: str, line: int) -> int:
    try:
        return int(float(row.get(key) or 0))
    except ValueError:
        raise InputError.single(path, line, "bad-decisions",
                                f"{key} must be a whole number, not {row.get(key)!r}")


def _apply(states: Dict[str, _Unit], rows: List[Dict[str, str]], names: Sequence[str],
           path: str) -> int:
    """Apply the curator's choices; the number of rows that chose something."""
    applied = 0
    for line, r in enumerate(rows, 2):
        who, head, lab = (r.get("choose_annotator") or "", r.get("choose_head") or "",
                          r.get("choose_deprel") or "")
        if not (who or head or lab):
            continue
        st = states.get(r["unit"])
        if st is None:
            raise InputError.single(path, line, "bad-decisions", f"no unit {r['unit']!r}")
        n = st.heads.shape[0]
        word = _int_field(r, "word", path, line)
        words = list(range(1, n + 1)) if word == 0 else [word]
        if not all(1 <= w <= n for w in words):
            raise InputError.single(path, line, "bad-decisions",
                                    f"unit {r['unit']!r} has no word {word}")
        if who:
            if who not in names or names.index(who) not in st.voters:
                raise InputError.single(path, line, "bad-decisions",
                                        f"annotator {who!r} has no annotation of unit "
                                        f"{r['unit']!r} that votes")
            s = st.sents[st.voters.index(names.index(who))]
            for w in words:
                st.heads[w - 1], st.labels[w - 1] = int(s.heads[w - 1]), s.deprels[w - 1]
                st.how[w - 1] = "curator"
        if head:
            h = _int_field(r, "choose_head", path, line)
            if not 0 <= h <= n or h in words:
                raise InputError.single(path, line, "bad-decisions",
                                        f"choose_head {h} is not a head for word {word}")
            for w in words:
                st.heads[w - 1], st.how[w - 1] = h, "curator"
        if lab:
            for w in words:
                st.labels[w - 1], st.how[w - 1] = lab, "curator"
        applied += 1
    for uid, st in states.items():
        if any(st.how[d] == "curator" for d in range(len(st.how))) and unreachable_words(st.heads):
            raise InputError.single(path, None, "bad-decisions",
                                    f"the decisions make unit {uid!r} not a tree (a head "
                                    f"cycle)")
    return applied


# --------------------------------------------------------------------------- corpus


def _competence(states: Sequence[_Unit], m: int) -> Competence:
    """One-coin Dawid–Skene over the head choices of every voted word."""
    tasks: List[int] = []
    workers: List[int] = []
    labels: List[int] = []
    task = 0
    root = 1 << 20  # the root's code: no offset is that large
    for st in states:
        n = st.sents[0].n_words
        if len(st.voters) < 2:
            continue
        dep = np.arange(1, n + 1)
        for j, s in zip(st.voters, st.sents):
            tasks.extend(range(task, task + n))
            workers.extend([j] * n)
            labels.extend(np.where(s.heads == 0, root, s.heads - dep).tolist())
        task += n
    return one_coin_dawid_skene(tasks, workers, labels, m)


def _split(st: _Unit, misc: List[str]) -> List[Tuple[DepSentence, Tuple[str, ...]]]:
    """The consensus sentences of a unit, split as the majority split it."""
    out = []
    start = 0
    # the comments of the first annotator who split the unit this way
    model: Sequence[DepSentence] = (st.sents[0],)
    for s, j in zip(st.sents, st.voters):
        parts = st.unit.parts.get(st.names[j], ())
        sizes = [cast(DepSentence, p).n_words for p in parts] if len(parts) > 1 else [
            s.n_words]
        if sizes == st.parts:
            model = [cast(DepSentence, p) for p in parts] if len(parts) > 1 else [s]
            break
    for k, size in enumerate(st.parts):
        sl = slice(start, start + size)
        h = st.heads[sl]
        h = np.where(h == 0, 0, h - start).astype(np.int32)
        src = model[k]
        deps = [offset_deps(v, -start) for v in st.columns["deps"][sl]]
        if not _deps_fit(deps, size):
            deps = ["_"] * size
            st.reasons_deps += 1
        out.append((DepSentence(
            src.file, src.index, src.line, st.columns["forms"][sl], h, st.labels[sl],
            upos=st.columns["upos"][sl], xpos=st.columns["xpos"][sl],
            feats=st.columns["feats"][sl], lemmas=st.columns["lemmas"][sl],
            metadata=dict(src.metadata), comments=list(src.comments), deps=deps,
            misc=list(misc[sl])), tuple(misc[sl])))
        start += size
    return out


def adjudicate_corpus(corpus: Corpus, weights: str = "equal", *,
                      decisions: "Optional[str | os.PathLike[str]]" = None,
                      progress: Optional[bool] = None) -> AdjudicationResult:
    """The consensus of a corpus, its worklist and the annotators against it.

    Dependency input as described in the module docstring; bracketed input
    by the maximum-weight non-crossing span set (docs/method.md §31.6).

    Parameters
    ----------
    corpus : Corpus
        Units × annotators (`synagree.agreement.agree.load_corpus`).
    weights : {"equal", "competence"}
        Vote weights: 1 each, or the log-odds of each annotator's accuracy
        under the one-coin Dawid–Skene model (`synagree.stats.competence`).
    decisions : str or path-like, optional
        A decisions file (the worklist with ``choose_annotator`` or
        ``choose_head``/``choose_deprel`` filled) applied on top.
    progress : bool, optional
        Progress bar of the α passes.

    Returns
    -------
    AdjudicationResult

    Raises
    ------
    InputError
        ``usage``: an unknown ``weights``;
        ``bad-decisions``: a decisions file that cannot be applied.

    Examples
    --------
    >>> s = DepSentence.from_heads
    >>> corpus = Corpus.from_annotations(
    ...     {"a": [s([2, 0, 2], "nsubj root obj")], "b": [s([2, 0, 2], "nsubj root iobj")],
    ...      "c": [s([2, 0, 1], "nsubj root obj")]})
    >>> res = adjudicate_corpus(corpus)
    >>> res.consensus[0].heads.tolist(), res.consensus[0].deprels
    ([2, 0, 2], ['nsubj', 'root', 'obj'])
    >>> res.decided["decided_by_vote"], res.decided["unanimous"], res.misc[0][2]
    (2, 2, 'Adjudication=by:tie;head:2(2),1(1);deprel:obj(2),iobj(1)')
    """
    if weights not in WEIGHTS:
        raise InputError.single("<command line>", None, "usage",
                                f"--weights must be one of {', '.join(WEIGHTS)}, not "
                                f"{weights!r}")
    if corpus.kind != "dependency":
        return _adjudicate_phrase(corpus, weights, decisions, progress)
    names = list(corpus.annotators)
    m = len(names)
    w = np.ones(m)
    states: Dict[str, _Unit] = {}
    for u in corpus.units:
        states[u.uid] = _prepare(u, names, w)
    comp: Optional[Competence] = None
    if weights == "competence":
        comp = _competence(list(states.values()), m)
        w = np.nan_to_num(comp.weights(), nan=0.0)
        if not np.any(w > 0):
            w = np.ones(m)
        for u in corpus.units:  # the voters and split under the new weights
            states[u.uid] = _prepare(u, names, w)
    for st in states.values():
        _solve(st, w)
    notes: List[str] = []
    if decisions is not None:
        applied = _apply(states, read_decisions(decisions), names, str(decisions))
        notes.append(f"{applied} decision(s) applied from {decisions}")
    return _finish(corpus, states, names, w, weights, comp, notes, progress)


def _finish(corpus: Corpus, states: Dict[str, _Unit], names: List[str], w: np.ndarray,
            weights: str, comp: Optional[Competence], notes: List[str],
            progress: Optional[bool]) -> AdjudicationResult:
    """Consensus sentences, counts, the worklist and the annotators' scores."""
    core = agree_corpus(corpus, ("plain",), progress=progress)
    delta, order = _unit_delta(core)
    consensus: List[DepSentence] = []
    misc: List[Tuple[str, ...]] = []
    unit_of: List[str] = []
    joined: List[DepSentence] = []  # the consensus per unit (one tree), for the scores
    counts = Counter({f"decided_by_{h}": 0 for h in DECIDED_BY})
    unanimous = 0
    items: List[Tuple[float, int, int, WorkItem]] = []
    for pos, (uid, st) in enumerate(states.items()):
        n = st.heads.shape[0]
        prov = [_provenance(st, d, w) for d in range(n)]
        for d in range(n):
            counts[f"decided_by_{st.how[d]}"] += 1
            unanimous += prov[d] == "_"
        mi = [_with_provenance(st.columns["misc"][d], prov[d]) for d in range(n)]
        for part in _split(st, mi):
            consensus.append(part[0])
            misc.append(part[1])
            unit_of.append(uid)
        joined.append(DepSentence(st.sents[0].file, 0, 1, st.columns["forms"], st.heads,
                                  st.labels))
        dlt = delta.get(uid)
        key = -dlt if dlt is not None else 0.0
        for r in st.reasons:
            items.append((key, pos, 0, WorkItem(uid, st.unit.sent_id, 0, "", r, 0, "",
                                                "", dlt)))
        for d in range(n):
            why = ("tree" if st.how[d] == "tree" else "tie" if st.how[d] == "tie" else
                   "minority" if st.minority[d] else None)
            if why is None:
                continue
            items.append((key, pos, d + 1, WorkItem(
                uid, st.unit.sent_id, d + 1, st.columns["forms"][d], why,
                int(st.heads[d]), st.labels[d], _alternatives(st, d, names), dlt)))
    items.sort(key=lambda x: (x[0], x[1], x[2]))
    no_deps = sum(st.reasons_deps for st in states.values())
    if no_deps:
        notes.append(f"DEPS written as _ in {no_deps} sentence(s): their voted enhanced graph "
                     "refers to empty nodes (not kept by the reader) or across the "
                     "consensus's sentence split")
    scores = _annotator_scores(corpus, joined, names, comp, core.alpha["plain"].d_e)
    decided = {"unanimous": unanimous, **dict(counts)}
    return AdjudicationResult(
        tuple(names), weights, len(states), sum(s.n_words for s in joined), decided,
        scores, tuple(x[3] for x in items), tuple(consensus), tuple(misc),
        core.alpha_value("plain"), comp, order, tuple(list(corpus.notes) + notes),
        tuple(corpus.log.warnings), unit_of=tuple(unit_of))


def _unit_delta(core: Any) -> Tuple[Dict[str, Optional[float]], str]:
    """Per unit, α_plain without it − α_plain (exact), or an estimate from D_o."""
    infl = unit_influence(core, ["plain"])
    if infl is not None:
        return {x.uid: x.delta["plain"] for x in infl}, "influence"
    st = core.alpha["plain"]
    out: Dict[str, Optional[float]] = {}
    pairable = [u for u in core.corpus.units if len(u.annotations) >= 2]
    for u, ted in zip(pairable, core.tree_alpha.unit_ted):
        mu = ted.shape[0]
        do_u = float((ted.astype(float) ** 2).sum()) / (mu - 1)
        rest = st.n - mu
        out[u.uid] = (None if rest <= 0 or not st.de_sum else
                      (1 - (st.do_sum - do_u) / rest / st.d_e) - (st.alpha or 0.0))
    return out, "share"


def _pair_alpha(pairs: Sequence[Sequence[Sentence]], d_e: float) -> Optional[float]:
    """1 − mean squared TED of the pairs / ``d_e`` (None when D_e is 0 or no pairs)."""
    trees = [t for p in build_trees(pairs, Vocabulary()) for t in p]
    ted = pair_distances(TreePack(trees), np.arange(0, len(trees), 2),
                         np.arange(1, len(trees), 2))
    return (1.0 - float(np.mean(ted ** 2)) / d_e) if d_e > 0 and ted.size else None


def _annotator_scores(corpus: Corpus, joined: List[DepSentence], names: List[str],
                      comp: Optional[Competence], d_e: float
                      ) -> Tuple[AnnotatorScore, ...]:
    """α_plain, LAS and LAS_full of each annotator against the consensus.

    α_j = 1 − D_o(j, consensus) / D_e, with D_o the mean squared TED between
    the annotator's tree and the consensus over the units it annotated, and
    D_e that of the annotators' α (one pass of pair distances per annotator,
    no second all-pairs pass; docs/method.md §31.4).
    """
    out = []
    for j, a in enumerate(names):
        pairs = [[cast(DepSentence, u.annotations[a]), c]
                 for u, c in zip(corpus.units, joined) if a in u.annotations]
        sc = attachment_scores(pairs)
        out.append(AnnotatorScore(
            a, _pair_alpha(pairs, d_e), sc.ratio("LAS") if "LAS" in sc.correct else None,
            sc.ratio("LAS_full"), sc.total, None if comp is None else comp.skills[j]))
    return tuple(out)


def write_worklist(res: AdjudicationResult, path: "str | Path") -> None:
    """The worklist as CSV or JSON (by the suffix of ``path``)."""
    rows = res.worklist_rows()
    if str(path).lower().endswith(".json"):
        write_atomic(path, json.dumps({"worklist": rows, "worklist_order": res.worklist_order},
                                      indent=1) + "\n")
        return
    buf = io.StringIO()
    wr = csv.DictWriter(buf, fieldnames=list(WORKLIST_COLUMNS), lineterminator="\n")
    wr.writeheader()
    for r in rows:
        wr.writerow({k: "" if v is None else v for k, v in r.items()})
    write_atomic(path, buf.getvalue())



# --------------------------------------------------------------------------- phrase structure


def bracket_line(sent: PhraseSentence) -> str:
    """One bracketed tree on one line: ``(S (NP D N) (VP V))``, with the words under
    the preterminals for Penn-style input (``(D The)``)."""
    words = iter(sent.words) if sent.words else None
    out: List[str] = []
    stack: List[Tuple[PhraseNode, bool]] = [(sent.root, False)]
    while stack:  # iterative: trees nest arbitrarily deep
        node, closing = stack.pop()
        if closing:
            out.append(")")
        elif not node.children:
            out.append(f" ({node.label} {next(words)})" if words is not None
                       else f" {node.label}")
        else:
            out.append(f" ({node.label}")
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(node.children))
    return "".join(out).strip()


def _leaves(sent: PhraseSentence) -> int:
    return sum(1 for x in sent.root.postorder() if not x.children)


def _crosses(a: Span, b: Span) -> bool:
    return a[0] < b[0] <= a[1] < b[1] or b[0] < a[0] <= b[1] < a[1]


def _phrase_voters(u: Unit, names: Sequence[str], w: np.ndarray) -> Tuple[List[int], List[int]]:
    """The annotators of a unit and its voters (those of the weighted-majority leaf count)."""
    present = [j for j, a in enumerate(names) if a in u.annotations]
    leaves = {j: str(_leaves(cast(PhraseSentence, u.annotations[names[j]]))) for j in present}
    size, _ = _vote([leaves[j] for j in present], [max(w[j], _TOL) for j in present])
    return present, [j for j in present if leaves[j] == size]


def _phrase_competence(corpus: Corpus, names: Sequence[str]) -> Competence:
    """One-coin Dawid–Skene over the span choices (docs/method.md §31.6): a task is
    a span (first, last leaf) some voter of a unit gives, an annotator's label on
    it its labels there (a unary chain joined) or none."""
    tasks: List[int] = []
    workers: List[int] = []
    labels: List[int] = []
    codes: Dict[str, int] = {"": 0}
    task = 0
    ones = np.ones(len(names))
    for u in corpus.units:
        _, voters = _phrase_voters(u, names, ones)
        if len(voters) < 2:
            continue
        given = span_votes([cast(PhraseSentence, u.annotations[names[j]]).root
                            for j in voters], [1.0] * len(voters)).given
        for span in sorted({x for g in given for x in g}):
            for j, g in zip(voters, given):
                tasks.append(task)
                workers.append(j)
                labels.append(codes.setdefault(g.get(span, ""), len(codes)))
            task += 1
    return one_coin_dawid_skene(tasks, workers, labels, len(names))


PhraseRow = Tuple[int, str, str, str]


def _decided(weight: float, tally: Dict[str, float], rivals: Sequence[float]) -> str:
    """How a consensus bracket was decided: ``tie`` (its label tied, or a dropped span
    as heavy as its label crosses it) or ``vote``.  (Never ``tree``: under the majority
    rule no dropped span has more than half the weight, method §31.6.)"""
    top = max(tally.values()) if tally else 0.0
    if any(x >= weight - _TOL for x in rivals) or (
            weight >= top - _TOL and sum(1 for x in tally.values() if x >= top - _TOL) > 1):
        return "tie"
    return "vote"


def _phrase_unit(u: Unit, names: Sequence[str], w: np.ndarray, counts: Dict[str, int]
                 ) -> Tuple[PhraseSentence, List[int], List[PhraseRow]]:
    """The consensus of one bracketed unit, its counts and worklist rows
    (first leaf + 1, reason, ``first-last LABEL``, the voters' labels there)."""
    present, voters = _phrase_voters(u, names, w)
    sents = {j: cast(PhraseSentence, u.annotations[names[j]]) for j in present}
    trees = [sents[j].root for j in voters]
    wts = [float(w[j]) for j in voters]
    votes = span_votes(trees, wts)  # each tree read once, for the consensus and the rows
    root = consensus_of(votes)
    first = sents[voters[0]]
    cons = PhraseSentence(first.file, first.index, first.line, root, list(first.words),
                          dict(first.metadata))
    total = votes.total
    spans, leaves, at, leaf_labels = votes.labels, votes.leaves, votes.given, votes.leaf_labels
    span_w = votes.support
    nodes, leaf = labelled_spans(root)
    kept = {(a, b) for a, b, _ in nodes}
    dropped = {sp: x for sp, x in span_w.items() if sp not in kept}
    rows: List[PhraseRow] = [(0, "words", "", "")] if len(voters) < len(present) else []

    def alts(sp: Span, is_leaf: bool) -> str:
        return " ".join(f"{names[j]}:{ll[sp[0]] if is_leaf else g.get(sp, '-')}"
                        for j, g, ll in zip(voters, at, leaf_labels))

    for sp in sorted(dropped):
        lab = max(spans[sp], key=lambda x: spans[sp][x])
        # left out with half the weight (a tie) or less (dropped); never more: the
        # spans of a majority never cross, so the consensus keeps them all
        left_out = "tie" if dropped[sp] >= total / 2 - _TOL else "dropped"
        rows.append((sp[0] + 1, left_out, f"{sp[0] + 1}-{sp[1] + 1} {lab}",
                     alts(sp, False)))
    brs = [((a, b), lab, spans.get((a, b), {}), False) for a, b, lab in nodes] + [
        ((k, k), lab, leaves[k], True) for k, lab in enumerate(leaf)]
    for sp, lab, tally, is_leaf in sorted(brs, key=lambda x: (x[0][0], -x[0][1], x[3])):
        weight = tally.get(lab, 0.0)
        given = [(g.get(sp, "").split("/") if not is_leaf else [ll[sp[0]]])
                 for g, ll in zip(at, leaf_labels)]
        counts["unanimous"] += all(lab in x for x in given)
        how = _decided(weight, tally, [] if is_leaf else
                       [x for y, x in dropped.items() if _crosses(sp, y)])
        counts[f"decided_by_{how}"] += 1
        why = "tie" if how == "tie" else "minority" if weight <= total / 2 + _TOL else None
        if why is not None and len(voters) > 1:
            rows.append((sp[0] + 1, why, f"{sp[0] + 1}-{sp[1] + 1} {lab}", alts(sp, is_leaf)))
    return cons, voters, rows


def _phrase_decisions(corpus: Corpus, decisions: "str | os.PathLike[str]",
                      chosen: Dict[str, Tuple[PhraseSentence, List[int]]],
                      reasons: Dict[str, List[PhraseRow]], counts: Dict[str, int]) -> int:
    """Apply ``choose_annotator`` rows (that annotator's tree for the unit)."""
    applied = 0
    path = str(decisions)
    for line, r in enumerate(read_decisions(decisions), 2):
        who = r.get("choose_annotator") or ""
        if r.get("choose_head") or r.get("choose_deprel"):
            raise InputError.single(path, line, "bad-decisions",
                                    "phrase-structure units take choose_annotator only")
        if not who:
            continue
        if r["unit"] not in chosen:
            raise InputError.single(path, line, "bad-decisions", f"no unit {r['unit']!r}")
        unit = next(x for x in corpus.units if x.uid == r["unit"])
        if who not in unit.annotations:
            raise InputError.single(path, line, "bad-decisions",
                                    f"annotator {who!r} has no annotation of unit "
                                    f"{r['unit']!r}")
        chosen[r["unit"]] = (cast(PhraseSentence, unit.annotations[who]),
                             chosen[r["unit"]][1])
        reasons[r["unit"]] = []
        counts["decided_by_curator"] += 1
        applied += 1
    return applied


def _adjudicate_phrase(corpus: Corpus, weights: str,
                       decisions: "Optional[str | os.PathLike[str]]",
                       progress: Optional[bool]) -> AdjudicationResult:
    """The consensus of phrase-structure units (docs/method.md §31.6)."""
    names = list(corpus.annotators)
    w = np.ones(len(names))
    comp: Optional[Competence] = None
    if weights == "competence":
        comp = _phrase_competence(corpus, names)
        w = np.nan_to_num(comp.weights(), nan=0.0)
        if not np.any(w > 0):
            w = np.ones(len(names))
    chosen: Dict[str, Tuple[PhraseSentence, List[int]]] = {}
    reasons: Dict[str, List[PhraseRow]] = {}
    counts = {"unanimous": 0, "decided_by_vote": 0, "decided_by_tie": 0,
              "decided_by_tree": 0, "decided_by_curator": 0}
    for u in corpus.units:
        cons, voters, rows = _phrase_unit(u, names, w, counts)
        chosen[u.uid] = (cons, voters)
        reasons[u.uid] = rows
    notes: List[str] = []
    if decisions is not None:
        applied = _phrase_decisions(corpus, decisions, chosen, reasons, counts)
        notes.append(f"{applied} decision(s) applied from {decisions}")
    core = agree_corpus(corpus, ("plain",), progress=progress)
    delta, order = _unit_delta(core)
    items = sorted(((-(delta.get(uid) or 0.0), pos, r[0], WorkItem(
        uid, corpus.units[pos].sent_id, r[0], r[2], r[1], 0, "", r[3], delta.get(uid)))
        for pos, (uid, rows) in enumerate(reasons.items()) for r in rows),
        key=lambda x: (x[0], x[1], x[2]))
    consensus = [c for c, _ in chosen.values()]
    scores = []
    d_e = core.alpha["plain"].d_e
    for j, a in enumerate(names):
        pairs = [[cast(PhraseSentence, u.annotations[a]), c]
                 for u, c in zip(corpus.units, consensus) if a in u.annotations]
        sc = jaccard_scores(pairs)
        scores.append(AnnotatorScore(a, _pair_alpha(pairs, d_e), None, None, sc.total,
                                     None if comp is None else comp.skills[j],
                                     jaccard=sc.ratio("jaccard")))
    return AdjudicationResult(
        tuple(names), weights, len(chosen), sum(_leaves(c) for c in consensus), counts,
        tuple(scores), tuple(x[3] for x in items), tuple(consensus),
        tuple(() for _ in consensus), core.alpha_value("plain"), comp, order,
        tuple(list(corpus.notes) + notes), tuple(corpus.log.warnings), kind="phrase",
        unit_of=tuple(chosen))
