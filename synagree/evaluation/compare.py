"""Evaluating parsers against gold: CoNLL 2018 scores, α, breakdowns, significance.

:func:`compare` scores one or more system files against one gold file.  All
results are counts (:class:`CompareResult`); the ``render_*`` functions turn
them into text, and ``synagree compare`` is a thin shell over both.

Scores (per system)
    Every metric of the CoNLL 2018 scorer (:mod:`synagree.conll18`: word
    alignment under any tokenisation, P/R/F1/aligned accuracy), plus
    ``LAS_full`` (relations compared with their subtypes) and, given a
    hierarchy, ``LAS_hier``: per aligned word, [head correct] × the
    Melamed & Resnik credit of the system's full DEPREL against the gold one
    (:func:`synagree.trees.hierarchy.Hierarchy.credit`, gold = gold label), summed
    like a correct count, so its precision/recall/F1 are those of LAS with
    partial label credit.

α between gold and each system (docs/method.md §4–5)
    Gold and system are two annotators; the units are sentences.  Where the
    system splits the text into sentences differently, a unit is a smallest
    group of consecutive gold sentences and consecutive system sentences that
    cover the same characters (:func:`sentence_units`); each side's sentences
    of a unit are joined into one tree under one artificial root, every
    sentence root a child of it (:func:`joined_sentence`).  A unit's two
    trees may have different numbers of nodes (tokenisation differs); TED
    does not mind.  Nodes are labelled with DEPREL as written (subtypes
    included); |t| = words + 1 per unit.  Two units are also merged if an
    aligned word pair would straddle them (possible only inside multiword
    tokens; never seen in practice).  D_e is exact up to
    :data:`synagree.agreement.agree.AUTO_SAMPLE_THRESHOLD` values per system and
    estimated from sampled pairs above it (``exact=True`` forces it), as for
    ``synagree agree``; significance needs it exact.

Breakdowns (``breakdown=True``), MaltEval-style precision and recall per bin
    A breakdown is a *key* computed on each word (:data:`BREAKDOWNS`), on the
    gold side for the gold totals, on the system side for the system totals.
    A pair of aligned words counts as correct in a bin when both words have
    that key and the pair is LAS-correct (``las``) or has the correct head
    (``uas``).  Precision = correct/system, recall = correct/gold.

    * ``relation``: the universal relation (``full_labels``: DEPREL with
      subtypes; LAS-correct then means ``LAS_full``-correct);
    * ``upos``: the *gold* UPOS, on the system side too (a system word takes
      the UPOS of the gold word it is aligned to; unaligned system words form
      the bin ``(unaligned)``), so precision is LAS over the aligned words of
      a gold UPOS and recall LAS over all its gold words;
    * ``length``: dependency length |ID − HEAD| in the word's own sentence:
      ``1``, ``2``, ``3-6``, ``7+``, or ``root``;
    * ``direction``: ``left`` (the head precedes the word), ``right`` (it
      follows), ``root``;
    * ``sentence_length``: words in the word's own sentence: ``1-10``,
      ``11-20``, ``21-30``, ``31-40``, ``41+``.

    The relation *confusion matrix* (:class:`Confusion`) counts gold ×
    system relations over the aligned words whose head is correct, with the
    first gold sentence where each pair occurs.

Significance (``significance=True``): :mod:`synagree.significance` on LAS,
UAS, CLAS (F1) and α_plain, per unit.  The units common to all systems are
the smallest groups of gold sentences that contain a whole unit of every
system (equal to the gold sentences when no system splits differently).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Hashable, List, Optional, Sequence, Tuple

import numpy as np

from synagree.base.memory import DEFAULT_MAX_MEMORY, check_resampling
from synagree.base.problems import InputError
from synagree.evaluation.conll18 import (
    OFFICIAL_METRICS,
    Alignment,
    Conll18Result,
    Score,
    Source,
    Treebank,
    Word,
    _as_treebank,
    _same,
    evaluate,
)
from synagree.io.conllu import DepSentence
from synagree.stats.alpha import VARIANTS, AlphaStats, sampling_plan, tree_alpha
from synagree.stats.hierarchical import (
    describe_hierarchy,
    label_credit_fn,
    load_hierarchy_noting_added,
)
from synagree.stats.significance import RatioUnits, SystemUnits, aggregate_alpha, significance
from synagree.trees.flat import FlatTree, Vocabulary, dependency_trees

__all__ = [
    "SentenceUnit", "sentence_units", "joined_sentence",
    "Side", "Breakdown", "BREAKDOWNS", "BinCounts", "Confusion", "breakdown_counts",
    "confusion", "SystemResult", "CompareResult", "compare",
]

UNALIGNED_BIN = "(unaligned)"
SIGNIFICANCE_RATIOS = ("LAS", "UAS", "CLAS")
OUTPUTS = ("table", "json", "csv", "latex")
SIGNIFICANCE_REPLICATES = 1000  # --significance without --bootstrap


# --------------------------------------------------------------------------- units


@dataclass(frozen=True)
class SentenceUnit:
    """Gold sentences ``gold`` and system sentences ``system`` (index ranges)
    covering the same characters; one unit of α."""

    gold: range
    system: range

    @property
    def joined(self) -> bool:
        """Does the unit join several sentences on either side?"""
        return len(self.gold) > 1 or len(self.system) > 1

    def as_dict(self) -> dict:
        return {"gold": [self.gold.start, self.gold.stop],
                "system": [self.system.start, self.system.stop]}


def _unit_index(units: Sequence[SentenceUnit], n_gold: int, n_system: int
                ) -> Tuple[np.ndarray, np.ndarray]:
    """The unit of every gold sentence and of every system sentence."""
    g = np.zeros(n_gold, dtype=np.int64)
    s = np.zeros(n_system, dtype=np.int64)
    for u, unit in enumerate(units):
        g[unit.gold.start:unit.gold.stop] = u
        s[unit.system.start:unit.system.stop] = u
    return g, s


def sentence_units(alignment: Alignment) -> List[SentenceUnit]:
    """The smallest groups of gold and system sentences that cover the same text.

    A unit ends where a gold and a system sentence end at the same character.
    Units that an aligned word pair would straddle are merged.
    """
    gs, ss = alignment.gold.sentences, alignment.system.sentences
    bounds: List[SentenceUnit] = []
    i = j = 0
    while i < len(gs) and j < len(ss):
        i0, j0 = i, j
        ge, se = gs[i].end, ss[j].end
        while ge != se:
            if ge < se:
                i += 1
                if i >= len(gs):
                    break
                ge = gs[i].end
            else:
                j += 1
                if j >= len(ss):
                    break
                se = ss[j].end
        i, j = min(i + 1, len(gs)), min(j + 1, len(ss))
        bounds.append(SentenceUnit(range(i0, i), range(j0, j)))
    if bounds:  # (identical texts: both sides end together; be safe anyway)
        last = bounds[-1]
        bounds[-1] = SentenceUnit(range(last.gold.start, len(gs)),
                                  range(last.system.start, len(ss)))
    g_unit, s_unit = _unit_index(bounds, len(gs), len(ss))
    merge = np.zeros(max(len(bounds) - 1, 0), dtype=bool)
    for p in alignment:
        a, b = g_unit[p.gold.sent_index], s_unit[p.system.sent_index]
        if a != b:
            merge[min(a, b):max(a, b)] = True
    units: List[SentenceUnit] = []
    start = 0
    for u in range(len(bounds)):
        if u < len(merge) and merge[u]:
            continue
        first, last = bounds[start], bounds[u]
        units.append(SentenceUnit(range(first.gold.start, last.gold.stop),
                                  range(first.system.start, last.system.stop)))
        start = u + 1
    return units


def joined_sentence(tb: Treebank, sentences: range) -> DepSentence:
    """The sentences ``sentences`` of ``tb`` as one tree: words concatenated,
    heads offset, every sentence root a child of the artificial root (0)."""
    first = tb.sentences[sentences.start]
    base = first.words.start
    words = tb.words[base:tb.sentences[sentences.stop - 1].words.stop]
    heads = np.empty(len(words), dtype=np.int32)
    for k, w in enumerate(words):
        heads[k] = 0 if w.head == 0 else w.head + tb.sentences[w.sent_index].words.start - base
    return DepSentence(
        file=tb.name, index=sentences.start, line=first.line,
        forms=[w.form for w in words], heads=heads, deprels=[w.deprel for w in words],
        upos=[w.upos for w in words], xpos=[w.xpos for w in words],
        feats=[w.feats for w in words], lemmas=[w.lemma for w in words],
        word_lines=[w.line for w in words],
        metadata={"sent_id": "+".join(tb.sentences[k].label for k in sentences)})


# --------------------------------------------------------------------------- breakdowns


class Side:
    """What a breakdown key may look at besides the word: ``g`` maps a word of
    this side into gold space (the identity on the gold side; :data:`UNALIGNED`
    for an unaligned system word), ``sent_len[k]`` is the word count of
    sentence k of this side's file."""

    __slots__ = ("g", "sent_len")

    def __init__(self, g: Callable[[Optional[Word]], object], sent_len: Sequence[int]):
        self.g, self.sent_len = g, sent_len


BreakdownKey = Callable[[Word, Side], Hashable]


@dataclass(frozen=True)
class Breakdown:
    """A key per word, and the bins in report order (``None``: by gold
    frequency, most frequent first)."""

    key: BreakdownKey
    bins: Optional[Tuple[str, ...]] = None
    title: str = ""


def _relation(w: Word, side: Side) -> str:
    return w.udeprel


def _relation_full(w: Word, side: Side) -> str:
    return w.deprel


def _gold_upos(w: Word, side: Side) -> str:
    g = side.g(w)
    return g.upos if isinstance(g, Word) else UNALIGNED_BIN


def _dep_length(w: Word, side: Side) -> str:
    if w.head == 0:
        return "root"
    d = abs(w.id - w.head)
    return str(d) if d <= 2 else ("3-6" if d <= 6 else "7+")


def _direction(w: Word, side: Side) -> str:
    if w.head == 0:
        return "root"
    return "left" if w.head < w.id else "right"


def _sentence_length(w: Word, side: Side) -> str:
    n = side.sent_len[w.sent_index]
    return "41+" if n > 40 else f"{10 * ((n - 1) // 10) + 1}-{10 * ((n - 1) // 10) + 10}"


BREAKDOWNS: Dict[str, Breakdown] = {
    "relation": Breakdown(_relation, None, "gold relation (label with correct head)"),
    "upos": Breakdown(_gold_upos, None, "gold UPOS"),
    "length": Breakdown(_dep_length, ("1", "2", "3-6", "7+", "root"), "dependency length"),
    "direction": Breakdown(_direction, ("left", "right", "root"),
                           "direction (left: head precedes the word)"),
    "sentence_length": Breakdown(_sentence_length, ("1-10", "11-20", "21-30", "31-40", "41+"),
                                 "sentence length in words"),
}
"""Breakdowns by name; adding one is adding an entry."""


@dataclass(frozen=True)
class BinCounts:
    """Counts of one bin: gold / system words with the key, aligned gold words
    with it, and pairs with it on both sides that are LAS- / head-correct."""

    bin: str
    gold: int
    system: int
    aligned: int
    las: int
    uas: int

    @property
    def precision(self) -> float:
        return self.las / self.system if self.system else 0.0

    @property
    def recall(self) -> float:
        return self.las / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        t = self.gold + self.system
        return 2 * self.las / t if t else 0.0

    @property
    def uas_f1(self) -> float:
        t = self.gold + self.system
        return 2 * self.uas / t if t else 0.0

    def as_dict(self) -> dict:
        return {"bin": self.bin, "gold": self.gold, "system": self.system,
                "aligned": self.aligned, "las": self.las, "uas": self.uas,
                "precision": self.precision, "recall": self.recall, "f1": self.f1,
                "uas_f1": self.uas_f1}


@dataclass
class Confusion:
    """Gold × system relation counts over aligned words with the correct head."""

    counts: Dict[Tuple[str, str], int]
    examples: Dict[Tuple[str, str], str]  # first gold sentence (id or #n) of each pair

    def top(self, n: Optional[int] = 10) -> List[Tuple[str, str, int, str]]:
        """The most frequent confusions (gold ≠ system): (gold, system, count, example)."""
        off = [(g, s, c) for (g, s), c in self.counts.items() if g != s]
        off.sort(key=lambda t: (-t[2], t[0], t[1]))
        return [(g, s, c, self.examples[(g, s)]) for g, s, c in off[:n]]

    def labels(self) -> Tuple[List[str], List[str]]:
        gold = Counter()
        system = Counter()
        for (g, s), c in self.counts.items():
            gold[g] += c
            system[s] += c
        order = lambda cnt: sorted(cnt, key=lambda k: (-cnt[k], k))  # noqa: E731
        return order(gold), order(system)

    def matrix(self) -> Tuple[List[str], List[str], np.ndarray]:
        rows, cols = self.labels()
        ri = {k: i for i, k in enumerate(rows)}
        ci = {k: i for i, k in enumerate(cols)}
        m = np.zeros((len(rows), len(cols)), dtype=np.int64)
        for (g, s), c in self.counts.items():
            m[ri[g], ci[s]] = c
        return rows, cols, m

    def as_dict(self) -> dict:
        return {"counts": [[g, s, c] for (g, s), c in
                           sorted(self.counts.items(), key=lambda t: (-t[1], t[0]))],
                "top": [list(t) for t in self.top(None)]}


def _sides(alignment: Alignment) -> Tuple[Side, Side]:
    def lens(tb: Treebank) -> List[int]:
        return [s.words.stop - s.words.start for s in tb.sentences]

    return (Side(_same, lens(alignment.gold)),
            Side(alignment.to_gold, lens(alignment.system)))


def _correct_flags(alignment: Alignment, full_labels: bool) -> Tuple[List[bool], List[bool]]:
    """Per aligned pair: LAS-correct (LAS_full with ``full_labels``), head-correct."""
    uas = [p.system_head is p.gold_head for p in alignment]
    if full_labels:
        las = [u and p.gold.deprel == p.system.deprel for u, p in zip(uas, alignment)]
    else:
        las = [u and p.gold.udeprel == p.system.udeprel for u, p in zip(uas, alignment)]
    return las, uas


def breakdown_counts(alignment: Alignment, bd: Breakdown, full_labels: bool = False,
                     _flags=None) -> List[BinCounts]:
    """Counts per bin of one breakdown (see the module docstring)."""
    gside, sside = _sides(alignment)
    key = bd.key
    gold = Counter(key(w, gside) for w in alignment.gold.words)
    system = Counter(key(w, sside) for w in alignment.system.words)
    aligned, las, uas = Counter(), Counter(), Counter()
    las_ok, uas_ok = _flags or _correct_flags(alignment, full_labels)
    for p, lo, uo in zip(alignment, las_ok, uas_ok):
        kg = key(p.gold, gside)
        aligned[kg] += 1
        if uo and key(p.system, sside) == kg:
            uas[kg] += 1
            if lo:
                las[kg] += 1
    seen = set(gold) | set(system)
    if bd.bins is not None:
        order = list(bd.bins) + sorted(str(b) for b in seen - set(bd.bins))
    else:
        order = sorted(seen, key=lambda b: (b == UNALIGNED_BIN, -gold[b], -system[b], str(b)))
    return [BinCounts(str(b), gold[b], system[b], aligned[b], las[b], uas[b]) for b in order]


def confusion(alignment: Alignment, full_labels: bool = False) -> Confusion:
    """Relation confusions over aligned words whose head is correct."""
    counts: Counter = Counter()
    examples: Dict[Tuple[str, str], str] = {}
    sents = alignment.gold.sentences
    for p in alignment:
        if p.system_head is not p.gold_head:
            continue
        k = ((p.gold.deprel, p.system.deprel) if full_labels
             else (p.gold.udeprel, p.system.udeprel))
        counts[k] += 1
        if k not in examples:
            examples[k] = sents[p.gold.sent_index].label
    return Confusion(dict(counts), examples)


# --------------------------------------------------------------------------- results


@dataclass
class SystemResult:
    """Everything computed for one system (counts; rates are derived)."""

    name: str
    file: str
    scores: Dict[str, Score]  # CoNLL 2018 metrics + LAS_full (+ LAS_hier)
    units: List[SentenceUnit]
    alpha: Optional[Dict[str, AlphaStats]] = None
    unit_ted: Optional[np.ndarray] = None  # per unit: TED(gold tree, system tree)
    breakdowns: Optional[Dict[str, List[BinCounts]]] = None
    confusion: Optional[Confusion] = None
    conll18: Optional[Conll18Result] = None  # the scorer's result, alignment included
    notes: List[str] = field(default_factory=list)

    @property
    def joined_units(self) -> int:
        return sum(1 for u in self.units if u.joined)

    def alpha_value(self, variant: str) -> Optional[float]:
        if not self.alpha or variant not in self.alpha:
            return None
        return self.alpha[variant].alpha

    def value(self, row: str) -> Optional[float]:
        """A table row's value: F1 of a score, or α (``alpha_plain`` ...)."""
        if row.startswith("alpha_"):
            return self.alpha_value(row[len("alpha_"):])
        s = self.scores.get(row)
        return None if s is None else s.f1

    def as_dict(self) -> dict:
        d = {"name": self.name, "file": self.file,
             "scores": {k: _score_dict(s) for k, s in self.scores.items()},
             "units": len(self.units), "joined_units": self.joined_units,
             "joined": [u.as_dict() for u in self.units if u.joined]}
        if self.alpha is not None:
            d["alpha"] = {v: _alpha_dict(st) for v, st in self.alpha.items()}
            if self.unit_ted is not None:
                d["identical_units"] = int(np.count_nonzero(self.unit_ted == 0))
                d["mean_unit_ted"] = (float(self.unit_ted.mean()) if self.unit_ted.size
                                      else None)
        if self.breakdowns is not None:
            d["breakdowns"] = {k: [b.as_dict() for b in v] for k, v in self.breakdowns.items()}
        if self.confusion is not None:
            d["confusion"] = self.confusion.as_dict()
        d["notes"] = list(self.notes)
        return d


def _score_dict(s: Score) -> dict:
    return {"correct": s.correct, "gold": s.gold_total, "system": s.system_total,
            "aligned": s.aligned_total, "precision": s.precision, "recall": s.recall,
            "f1": s.f1, "aligned_accuracy": s.aligned_accuracy}


def _alpha_dict(st: AlphaStats) -> dict:
    d = {"alpha": st.alpha, "d_o": st.d_o, "d_e": st.d_e, "n": st.n, "units": st.units}
    if st.alpha_se is not None:
        d["alpha_se"] = st.alpha_se
        d["sampled_pairs"] = st.sampled_pairs
    return d


@dataclass
class CompareResult:
    gold: str
    gold_sentences: int
    gold_words: int
    systems: List[SystemResult]
    hierarchy: Optional[str] = None
    full_labels: bool = False
    significance: Optional["object"] = None  # synagree.stats.significance.SignificanceResult
    notes: List[str] = field(default_factory=list)

    def system(self, name: str) -> SystemResult:
        for s in self.systems:
            if s.name == name:
                return s
        raise KeyError(name)

    def rows(self) -> List[str]:
        """Row names of the summary table, in order."""
        rows = list(OFFICIAL_METRICS) + ["LAS_full"]
        if self.hierarchy is not None:
            rows.append("LAS_hier")
        if any(s.alpha is not None for s in self.systems):
            rows += [f"alpha_{v}" for v in VARIANTS]
        return rows

    def as_dict(self) -> dict:
        d = {"gold": self.gold, "gold_sentences": self.gold_sentences,
             "gold_words": self.gold_words, "hierarchy": self.hierarchy,
             "full_labels": self.full_labels,
             "systems": [s.as_dict() for s in self.systems]}
        if self.significance is not None:
            d["significance"] = self.significance.as_dict()
        d["notes"] = list(self.notes)
        return d


# --------------------------------------------------------------------------- computing


def _names(tbs: Sequence[Treebank], names: Optional[Sequence[str]]) -> List[str]:
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(tbs):
            raise InputError.single("<command line>", None, "usage",
                                    f"{len(names)} name(s) for {len(tbs)} system file(s)")
        if len(set(names)) != len(names):
            raise InputError.single("<command line>", None, "usage",
                                    "system names must be distinct")
        return names
    base = [Path(tb.name).name or tb.name for tb in tbs]
    out = []
    for k, (b, tb) in enumerate(zip(base, tbs)):
        n = b if base.count(b) == 1 else tb.name
        while n in out:
            n = f"{n}#{k + 1}"
        out.append(n)
    return out


def _per_unit_ratios(alignment: Alignment, g_unit: np.ndarray, s_unit: np.ndarray, U: int,
                     result: Conll18Result):
    """Per-unit (correct, gold, system) counts of LAS, UAS and CLAS."""

    gw_unit = np.fromiter((g_unit[w.sent_index] for w in alignment.gold.words), np.int64,
                          len(alignment.gold.words))
    sw_unit = np.fromiter((s_unit[w.sent_index] for w in alignment.system.words), np.int64,
                          len(alignment.system.words))
    g_content = np.fromiter((w.is_content for w in alignment.gold.words), bool,
                            len(alignment.gold.words))
    s_content = np.fromiter((w.is_content for w in alignment.system.words), bool,
                            len(alignment.system.words))
    p_unit = gw_unit[[p.gold.index for p in alignment]] if len(alignment) else \
        np.zeros(0, np.int64)
    las, uas = (np.array(f, dtype=bool) for f in _correct_flags(alignment, full_labels=False))
    p_content = np.fromiter((p.gold.is_content for p in alignment), bool, len(alignment))

    def bc(idx, w=None):
        return np.bincount(idx, weights=None if w is None else w.astype(np.float64),
                           minlength=U).astype(np.float64)

    g_all, s_all = bc(gw_unit), bc(sw_unit)
    out = {
        "LAS": RatioUnits(bc(p_unit, las), g_all, s_all),
        "UAS": RatioUnits(bc(p_unit, uas), g_all, s_all),
        "CLAS": RatioUnits(bc(p_unit, las & p_content), bc(gw_unit, g_content),
                           bc(sw_unit, s_content)),
    }
    for name, r in out.items():  # the per-unit counts add up to the scorer's
        sc = result[name]
        assert (round(r.correct.sum()), round(r.gold.sum()), round(r.system.sum())) == \
            (sc.correct, sc.gold_total, sc.system_total), name
    return out


def _hier_score(alignment: Alignment, h) -> Score:
    """Per aligned word: [head correct] x the credit of the system's DEPREL against gold's."""

    credit = label_credit_fn(h, "credit")
    total = sum((credit(p.gold.deprel, p.system.deprel) for p in alignment
                 if p.system_head is p.gold_head), 0.0)
    return Score(total, len(alignment.gold.words), len(alignment.system.words), len(alignment))


def _read_all(sources: Sequence[Tuple[Source, str]]) -> List[Treebank]:
    """Every file read before any is refused: the errors of all files at once."""
    tbs, errors = [], []
    for source, default_name in sources:
        try:
            tbs.append(_as_treebank(source, default_name))
        except InputError as exc:
            errors.extend(exc.errors)
    if errors:
        raise InputError(errors)
    return tbs


def compare(gold: Source, systems: Sequence[Source], hierarchy=None, breakdown: bool = False,
            significance: bool = False, B: int = 1000, seed: int = 0, *,
            names: Optional[Sequence[str]] = None, alpha: bool = True,
            sample_pairs: Optional[int] = None, exact: bool = False, level: float = 0.95,
            R: Optional[int] = None, full_labels: bool = False,
            progress: Optional[bool] = None,
            max_memory: int = DEFAULT_MAX_MEMORY) -> CompareResult:
    """Score ``systems`` against ``gold`` (paths, CoNLL-U texts, streams or
    :class:`~synagree.evaluation.conll18.Treebank` objects).

    ``hierarchy``: ``"ud"`` | ``"msd"`` | ``"flat"`` | a file | a
    :class:`~synagree.trees.hierarchy.Hierarchy` adds ``LAS_hier``.  ``breakdown``
    adds :data:`BREAKDOWNS` and the relation confusion matrix (by full DEPREL
    with ``full_labels``).  ``significance`` adds paired bootstrap (``B``
    replicates) and approximate randomisation (``R`` rounds, default ``B``)
    tests between every two systems, seeded by ``seed``, intervals at
    ``level``.  ``alpha=False`` skips α (the all-pairs tree edit distances
    are by far the slowest part); ``sample_pairs`` / ``exact`` as for
    :func:`synagree.agreement.agree.agree_corpus`; ``max_memory`` bounds the planned
    memory of the significance tests.  Raises
    :class:`~synagree.base.problems.InputError` on bad input or differing texts.
    """
    if not systems:
        raise InputError.single("<command line>", None, "usage", "no system file given")
    if significance and sample_pairs:
        raise InputError.single("<command line>", None, "usage",
                                "significance needs the exact D_e: drop --sample-pairs")
    gold_tb, *sys_tbs = _read_all([(gold, "<gold>")] + [(s, f"<system {k + 1}>")
                                                        for k, s in enumerate(systems)])
    sys_names = _names(sys_tbs, names)
    if significance:
        check_resampling(len(gold_tb.sentences), B, len(sys_tbs), max_memory)
    notes: List[str] = []

    h = hdesc = None
    if hierarchy is not None:

        labels = [w.deprel for tb in [gold_tb, *sys_tbs] for w in tb.words]
        h, added = load_hierarchy_noting_added(hierarchy, labels)
        hdesc = describe_hierarchy(hierarchy)
        added = sorted(added)
        if added:
            notes.append(f"{len(added)} label(s) are not in the hierarchy and get no partial "
                         f"credit: " + ", ".join(added[:20]) + (" ..." if len(added) > 20 else ""))

    vocab = Vocabulary()
    gold_trees: Dict[Tuple[int, int], FlatTree] = {}
    results: List[SystemResult] = []
    sig_parts = []  # per system: (units, per-unit ratios, alpha sums)
    for name, tb in zip(sys_names, sys_tbs):
        res = evaluate(gold_tb, tb)
        al = res.alignment
        scores = dict(res.scores)
        if h is not None:
            scores["LAS_hier"] = _hier_score(al, h)
        units = sentence_units(al)
        sr = SystemResult(name, tb.name, scores, units, conll18=res)
        if sr.joined_units:
            sr.notes.append(f"{name}: {sr.joined_units} unit(s) join several sentences "
                            f"(sentence splits differ from gold); alpha compares the joined "
                            f"trees")
        ta_sums = None
        if alpha:
            if units:
                # the sentences in the order the trees are first needed (a gold tree
                # is built once for all systems), then built in one pass
                todo: List[DepSentence] = []
                slots: List[Tuple[Tuple[int, int], int]] = []
                pending: Dict[Tuple[int, int], int] = {}
                for u in units:
                    k = (u.gold.start, u.gold.stop)
                    if k not in gold_trees and k not in pending:
                        pending[k] = len(todo)
                        todo.append(joined_sentence(gold_tb, u.gold))
                    slots.append((k, len(todo)))
                    todo.append(joined_sentence(tb, u.system))
                built = dependency_trees(todo, vocab)
                for k, at in pending.items():
                    gold_trees[k] = built[at]
                trees = [[gold_trees[k], built[at]] for k, at in slots]
                sp, target, note = sampling_plan(2 * len(units), sample_pairs,
                                                 exact or significance)
                if note:
                    sr.notes.append(f"{name}: {note}")
                ta = tree_alpha(trees, keep_unit_matrix=significance, sample_pairs=sp,
                                seed=seed, progress=progress, target_se=target)
                sr.alpha = ta.stats
                sr.unit_ted = np.array([m[0, 1] for m in ta.unit_ted])
                if significance and ta.sums is not None:
                    ta_sums = (ta.sums.diag[:, 0].copy(), ta.sums.m.copy(),
                               ta.sums.S[0].copy())
                del ta
            else:
                st = AlphaStats(0.0, 0.0, 0, 0)
                st.notes.append("alpha: no sentences; alpha is undefined")
                sr.alpha = {v: st for v in VARIANTS}
                sr.unit_ted = np.zeros(0)
            for st in sr.alpha.values():
                for n in st.notes:
                    if f"{name}: {n}" not in sr.notes:
                        sr.notes.append(f"{name}: {n}")
        if breakdown:
            flags = _correct_flags(al, full_labels)
            bds = dict(BREAKDOWNS)
            if full_labels:
                bds["relation"] = Breakdown(_relation_full, None,
                                            "gold relation, full label (label with correct head)")
            sr.breakdowns = {k: breakdown_counts(al, bd, full_labels, flags)
                             for k, bd in bds.items()}
            sr.confusion = confusion(al, full_labels)
        if significance:
            g_unit, s_unit = _unit_index(units, len(gold_tb.sentences), len(tb.sentences))
            sig_parts.append((units, _per_unit_ratios(al, g_unit, s_unit, len(units), res),
                              ta_sums))
        results.append(sr)

    sig = None
    if significance:
        sig = _significance(gold_tb, sys_names, sig_parts, B=B, R=R, seed=seed, level=level)
        notes.extend(sig.notes)
    for sr in results:
        notes.extend(sr.notes)
    return CompareResult(gold_tb.name, len(gold_tb.sentences), len(gold_tb.words), results,
                         hdesc, full_labels, sig, notes)


def _significance(gold_tb: Treebank, names: Sequence[str], parts, B: int, R: Optional[int],
                  seed: int, level: float):

    # common units: a gold sentence starts one when it starts a unit of every system
    starts = np.ones(len(gold_tb.sentences), dtype=bool)
    for units, _, _ in parts:
        mask = np.zeros(len(gold_tb.sentences), dtype=bool)
        mask[[u.gold.start for u in units]] = True
        starts &= mask
    start_idx = np.flatnonzero(starts)
    G = int(start_idx.shape[0])
    out = []
    for name, (units, ratios, sums) in zip(names, parts):
        unit_of = np.searchsorted(start_idx, [u.gold.start for u in units], side="right") - 1
        unit_of = unit_of.astype(np.int64)
        su = SystemUnits(name)
        for m in SIGNIFICANCE_RATIOS:
            r = ratios[m]
            su.ratios[m] = RatioUnits(*(np.bincount(unit_of, weights=a, minlength=G)
                                        for a in (r.correct, r.gold, r.system)))
        if sums is not None:
            diag, m_, S = sums
            su.alphas["alpha_plain"] = aggregate_alpha(diag, m_, S, unit_of, G)
        out.append(su)
    res = significance(out, B=B, R=R, seed=seed, level=level)
    if any(len(units) != G for units, _, _ in parts):
        res.notes.append(f"significance resamples {G} common unit(s): groups of gold sentences "
                         f"that contain whole units of every system")
    return res


# --------------------------------------------------------------------------- rendering


# --------------------------------------------------------------------------- CLI


