"""Evaluating parsers against gold: CoNLL 2018 scores, α, breakdowns, significance.

`compare` scores one or more system files against one gold file.  All
results are counts (`CompareResult`); the ``render_*`` functions turn
them into text, and ``synagree compare`` is a thin shell over both.

Scores (per system)
    Every metric of the CoNLL 2018 scorer (`synagree.evaluation.conll18`: word
    alignment under any tokenisation, P/R/F1/aligned accuracy), plus
    ``LAS_full`` (relations compared with their subtypes) and, given a
    hierarchy, ``LAS_hier``: per aligned word, [head correct] × the
    Melamed & Resnik credit of the system's full DEPREL against the gold one
    (`synagree.trees.hierarchy.Hierarchy.credit`, gold = gold label), summed
    like a correct count, so its precision/recall/F1 are those of LAS with
    partial label credit.

α between gold and each system (docs/method.md §4–5)
    Gold and system are two annotators; the units are sentences.  Where the
    system splits the text into sentences differently, a unit is a smallest
    group of consecutive gold sentences and consecutive system sentences that
    cover the same characters (`sentence_units`); each side's sentences
    of a unit are joined into one tree under one artificial root, every
    sentence root a child of it (`joined_sentence`).  A unit's two
    trees may have different numbers of nodes (tokenisation differs); TED
    does not mind.  Nodes are labelled with DEPREL as written (subtypes
    included); |t| = words + 1 per unit.  Two units are also merged if an
    aligned word pair would straddle them (possible only inside multiword
    tokens; never seen in practice).  D_e follows the same cost rule as
    ``synagree agree`` (`synagree.stats.alpha.plan_de`): exact when the
    all-pairs pass fits about a second of kernel time, else sampled until
    every α's SE is at most 1e-4 (``exact=True`` forces it); significance
    needs it exact.

Breakdowns (``breakdown=True``), MaltEval-style precision and recall per bin
    A breakdown is a *key* computed on each word (`BREAKDOWNS`), on the
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

    The relation *confusion matrix* (`Confusion`) counts gold ×
    system relations over the aligned words whose head is correct, with the
    first gold sentence where each pair occurs.

Significance (``significance=True``): `synagree.stats.significance` on LAS,
UAS, CLAS (F1) and α_plain, per unit.  The units common to all systems are
the smallest groups of gold sentences that contain a whole unit of every
system (equal to the gold sentences when no system splits differently).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Hashable, List, Optional, Sequence, Tuple

import numpy as np

from synagree._version import __version__
from synagree.base.frames import Frames, metric_rows
from synagree.base.memory import DEFAULT_MAX_MEMORY, check_resampling, limited
from synagree.base.problems import InputError
from synagree.base.ratios import Share, prf_shares
from synagree.evaluation.conll18 import (
    ENHANCED_METRICS,
    OFFICIAL_METRICS,
    Alignment,
    Conll18Result,
    EnhancedInfo,
    Score,
    Source,
    Treebank,
    Word,
    _as_treebank,
    _same,
    evaluate,
)
from synagree.evaluation.label_credit_las import check_deprels, credit_las
from synagree.evaluation.label_prf import note_written_alternatives, relation_prf
from synagree.io.conllu import DepSentence
from synagree.io.sources import system_names
from synagree.io.units import coinciding_groups, join_dependency
from synagree.stats.alpha import VARIANTS, AlphaStats, tree_alpha
from synagree.stats.attachment import non_ud_labels
from synagree.stats.baseline_options import BASELINE_REPLICATES
from synagree.stats.bootstrap import check_replicates
from synagree.stats.hierarchical import (
    HierarchySpec,
    describe_hierarchy,
    hierarchy_input,
    label_credit_fn,
    load_hierarchy_noting_added,
)
from synagree.stats.prf import PRF, prf_table
from synagree.stats.regression import BaselineComparison
from synagree.stats.significance import (
    RatioUnits,
    SignificanceResult,
    SystemUnits,
    aggregate_alpha,
    significance,
)
from synagree.stats.tag_alternatives import (
    TagReader,
    check_syntax_option,
    gold_closeness_fn,
    gold_credit_fn,
    plain_syntax_note,
)
from synagree.trees.annotation_bdm import tag_closeness
from synagree.trees.flat import FlatTree, Vocabulary, dependency_trees
from synagree.trees.hierarchy import Hierarchy

__all__ = [
    "SentenceUnit", "sentence_units", "joined_sentence",
    "Side", "Breakdown", "BREAKDOWNS", "BinCounts", "Confusion", "breakdown_counts",
    "confusion", "SystemResult", "CompareResult", "compare",
]

UNALIGNED_BIN = "(unaligned)"
SIGNIFICANCE_RATIOS = ("LAS", "UAS", "CLAS")
#: the scorer's metrics that classify UD relations (left out for other relations)
UD_ONLY_METRICS = ("CLAS", "MLAS", "BLEX")
OUTPUTS = ("table", "json", "csv", "latex")
SIGNIFICANCE_REPLICATES = BASELINE_REPLICATES  # --test-replicates by default


# --------------------------------------------------------------------------- units


@dataclass(frozen=True)
class SentenceUnit:
    """Gold and system sentences covering the same characters: one unit of α.

    docs/method.md §11.3.

    Parameters
    ----------
    gold : range
        Indices of the gold sentences.
    system : range
        Indices of the system sentences.
    """

    gold: range
    system: range

    @property
    def joined(self) -> bool:
        """Does the unit join several sentences on either side?"""
        return len(self.gold) > 1 or len(self.system) > 1

    def as_dict(self) -> Dict[str, Any]:
        """The two ranges as ``[start, stop]`` lists."""
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
    r"""The smallest groups of gold and system sentences that cover the same text.

    A unit ends where a gold and a system sentence end at the same character.
    Units that an aligned word pair would straddle are merged
    (docs/method.md §11.3).

    Parameters
    ----------
    alignment : Alignment
        From `synagree.evaluation.conll18.align`.
    """
    gs, ss = alignment.gold.sentences, alignment.system.sentences
    # one text on both sides: a unit ends where a gold and a system sentence end
    # at the same character (synagree.io.units, shared with agree)
    bounds = [SentenceUnit(g, sy) for g, sy in
              coinciding_groups([[x.end for x in gs], [x.end for x in ss]])]
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
    r"""Sentences of a treebank as one tree under one artificial root.

    Words are concatenated, heads offset, and every sentence root becomes a
    child of the artificial root (0); the sentence id is the sentences' labels
    joined by ``+`` (docs/method.md §11.3).  The joining is
    `synagree.io.units.join_dependency`, the one `synagree agree` uses.

    Parameters
    ----------
    tb : Treebank
    sentences : range
        Sentence indices of ``tb``.
    """
    return join_dependency([_dep_sentence(tb, k) for k in sentences])


def _dep_sentence(tb: Treebank, k: int) -> DepSentence:
    """Sentence ``k`` of a treebank as a `DepSentence` (sent_id: its label)."""
    sent = tb.sentences[k]
    words = tb.words[sent.words.start:sent.words.stop]
    return DepSentence(
        file=tb.name, index=k, line=sent.line,
        forms=[w.form for w in words], heads=np.fromiter((w.head for w in words), np.int32,
                                                          len(words)),
        deprels=[w.deprel for w in words], upos=[w.upos for w in words],
        xpos=[w.xpos for w in words], feats=[w.feats for w in words],
        lemmas=[w.lemma for w in words], word_lines=[w.line for w in words],
        metadata={"sent_id": sent.label})


# --------------------------------------------------------------------------- breakdowns


class Side:
    r"""What a breakdown key may look at besides the word.

    Parameters
    ----------
    g : callable
        Maps a word of this side into gold space (the identity on the gold
        side; `UNALIGNED` for an unaligned system word).
    sent_len : sequence of int
        ``sent_len[k]``: the word count of sentence k of this side's file.
    """

    __slots__ = ("g", "sent_len")

    def __init__(self, g: Callable[[Optional[Word]], object], sent_len: Sequence[int]):
        self.g, self.sent_len = g, sent_len


BreakdownKey = Callable[[Word, Side], Hashable]


@dataclass(frozen=True)
class Breakdown:
    r"""A key per word, and the bins in report order.

    Parameters
    ----------
    key : callable
        ``key(word, side) -> hashable`` (see `Side`).
    bins : tuple of str, optional
        Report order; None: by gold frequency, most frequent first.
    title : str
        Heading of the breakdown in reports.

    See Also
    --------
    BREAKDOWNS, breakdown_counts
    """

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
    """Counts of one breakdown bin; precision, recall and F1 are derived.

    Parameters
    ----------
    bin : str
    gold, system : int
        Gold / system words with the key.
    aligned : int
        Aligned gold words with the key.
    las, uas : int
        Pairs with the key on both sides that are LAS- / head-correct.
    """

    bin: str
    gold: int
    system: int
    aligned: int
    las: int
    uas: int
    precision, recall, f1 = prf_shares("las", "gold", "system", empty=0.0)
    uas_f1 = Share("uas", "gold", "system", scale=2, empty=0.0)

    def as_dict(self) -> Dict[str, Any]:
        """The counts and rates as a JSON-ready dict."""
        return {"bin": self.bin, "gold": self.gold, "system": self.system,
                "aligned": self.aligned, "las": self.las, "uas": self.uas,
                "precision": self.precision, "recall": self.recall, "f1": self.f1,
                "uas_f1": self.uas_f1}


@dataclass
class Confusion:
    """Gold × system relation counts over aligned words with the correct head.

    Parameters
    ----------
    counts : dict of (str, str) to int
        (gold relation, system relation) to count.
    examples : dict of (str, str) to str
        The first gold sentence (id or ``#n``) where each pair occurs.

    See Also
    --------
    confusion
    """

    counts: Dict[Tuple[str, str], int]
    examples: Dict[Tuple[str, str], str]  # first gold sentence (id or #n) of each pair

    def top(self, n: Optional[int] = 10) -> List[Tuple[str, str, int, str]]:
        """The most frequent confusions (gold ≠ system): (gold, system, count, example).

        ``n=None``: all of them.
        """
        off = [(g, s, c) for (g, s), c in self.counts.items() if g != s]
        off.sort(key=lambda t: (-t[2], t[0], t[1]))
        return [(g, s, c, self.examples[(g, s)]) for g, s, c in off[:n]]

    def labels(self) -> Tuple[List[str], List[str]]:
        """Gold and system relations, each by frequency (most frequent first)."""
        gold: Counter[str] = Counter()
        system: Counter[str] = Counter()
        for (g, s), c in self.counts.items():
            gold[g] += c
            system[s] += c
        def order(cnt: "Counter[str]") -> List[str]:
            return sorted(cnt, key=lambda k: (-cnt[k], k))

        return order(gold), order(system)

    def matrix(self) -> Tuple[List[str], List[str], np.ndarray]:
        """``(gold labels, system labels, counts)`` as a dense int64 matrix."""
        rows, cols = self.labels()
        ri = {k: i for i, k in enumerate(rows)}
        ci = {k: i for i, k in enumerate(cols)}
        m = np.zeros((len(rows), len(cols)), dtype=np.int64)
        for (g, s), c in self.counts.items():
            m[ri[g], ci[s]] = c
        return rows, cols, m

    def as_dict(self) -> Dict[str, Any]:
        """All counts (most frequent first) and the confusions, JSON-ready."""
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
                     _flags: Optional[Tuple[List[bool], List[bool]]] = None
                     ) -> List[BinCounts]:
    r"""Counts per bin of one breakdown (docs/method.md §11.4).

    A pair of aligned words counts as correct in a bin when both words have
    that key and the pair is LAS-correct (``las``) or has the correct head
    (``uas``).

    Parameters
    ----------
    alignment : Alignment
    bd : Breakdown
    full_labels : bool
        LAS-correct means ``LAS_full``-correct (relations with subtypes).

    Returns
    -------
    list of BinCounts
        In the breakdown's bin order (bins not listed there after it, sorted).
    """
    gside, sside = _sides(alignment)
    key = bd.key
    gold = Counter(key(w, gside) for w in alignment.gold.words)
    system = Counter(key(w, sside) for w in alignment.system.words)
    aligned, las, uas = Counter[Hashable](), Counter[Hashable](), Counter[Hashable]()
    las_ok, uas_ok = _flags or _correct_flags(alignment, full_labels)
    for p, lo, uo in zip(alignment, las_ok, uas_ok):
        kg = key(p.gold, gside)
        aligned[kg] += 1
        if uo and key(p.system, sside) == kg:
            uas[kg] += 1
            if lo:
                las[kg] += 1
    seen = set(gold) | set(system)
    order: Sequence[Hashable]
    if bd.bins is not None:
        order = list(bd.bins) + sorted(str(b) for b in seen - set(bd.bins))
    else:
        order = sorted(seen, key=lambda b: (b == UNALIGNED_BIN, -gold[b], -system[b], str(b)))
    return [BinCounts(str(b), gold[b], system[b], aligned[b], las[b], uas[b]) for b in order]


def confusion(alignment: Alignment, full_labels: bool = False) -> Confusion:
    r"""Relation confusions over aligned words whose head is correct.

    Parameters
    ----------
    alignment : Alignment
    full_labels : bool
        Compare DEPREL with subtypes; else universal relations.
    """
    counts: "Counter[Tuple[str, str]]" = Counter()
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
    r"""Everything computed for one system (counts; rates are derived).

    Parameters
    ----------
    name : str
    file : str
    scores : dict of str to Score
        The CoNLL 2018 metrics, ``LAS_full`` and, with a hierarchy,
        ``LAS_hier``.
    units : list of SentenceUnit
    alpha : dict of str to AlphaStats, optional
        α between gold and the system per variant (None when skipped).
    unit_ted : numpy.ndarray, optional
        Per unit: TED(gold tree, system tree).
    breakdowns : dict of str to list of BinCounts, optional
    confusion : Confusion, optional
    conll18 : Conll18Result, optional
        The scorer's result, alignment included.
    notes : list of str
    prf : dict of str to PRF, optional
        Micro and macro P/R/F1 over relations per variant
        (`synagree.evaluation.label_prf.relation_prf`; None unless asked for).
    enhanced : EnhancedInfo, optional
        Whether ELAS/EULAS are in ``scores`` and what they leave out
        (docs/method.md §20).
    per_unit : dict, optional
        Per-unit counts (`synagree.stats.regression.UnitData.to_dict`), set by
        `synagree.evaluation.baseline.add_unit_data`.
    """

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
    prf: Optional[Dict[str, PRF]] = None  # docs/method.md §17; None unless asked for
    enhanced: Optional[EnhancedInfo] = None  # ELAS/EULAS computed or not, and why
    # per-unit counts for a later --baseline comparison (synagree.evaluation.baseline)
    per_unit: Optional[Dict[str, Any]] = None
    # bootstrap percentile intervals (compare(bootstrap=B)): metric -> (low, high) or None
    intervals: Dict[str, Optional[Tuple[float, float]]] = field(default_factory=dict)

    @property
    def joined_units(self) -> int:
        """Units that join several sentences on either side."""
        return sum(1 for u in self.units if u.joined)

    def alpha_value(self, variant: str) -> Optional[float]:
        """α of ``variant``, or None when skipped or undefined."""
        if not self.alpha or variant not in self.alpha:
            return None
        return self.alpha[variant].alpha

    def value(self, row: str) -> Optional[float]:
        """A table row's value: F1 of a score, or α (``alpha_plain`` ...)."""
        if row.startswith("alpha_"):
            return self.alpha_value(row[len("alpha_"):])
        s = self.scores.get(row)
        return None if s is None else s.f1

    def metrics(self, omit: Sequence[str] = ()) -> Dict[str, Optional[float]]:
        """The system's numbers as registered keys (`synagree.base.metrics`), fractions:
        the F1 of every score, α per variant (and its standard error when sampled);
        ``omit`` names scores left out (CLAS/MLAS/BLEX on relations that are not UD's)."""
        out: Dict[str, Optional[float]] = {k: sc.f1 for k, sc in self.scores.items()
                                           if k not in omit}
        for v, st in (self.alpha or {}).items():
            out[f"alpha_{v}"] = st.alpha
            if st.alpha_se is not None:
                out[f"alpha_{v}_se"] = st.alpha_se
        return out

    def as_dict(self, omit: Sequence[str] = ()) -> Dict[str, Any]:
        """The result as a JSON-ready dict: `metrics` at the top level, the counts behind
        them under ``counts`` (as in ``agree``'s JSON)."""
        d: Dict[str, Any] = {"name": self.name, "file": self.file, **self.metrics(omit),
                   **{f"{k}_ci": (list(iv) if iv else None) for k, iv in self.intervals.items()},
                   "units": len(self.units), "joined_units": self.joined_units}
        if self.alpha is not None and self.unit_ted is not None:
            d["identical_units"] = int(np.count_nonzero(self.unit_ted == 0))
            d["mean_unit_ted"] = float(self.unit_ted.mean()) if self.unit_ted.size else None
        d["counts"] = {k: _score_dict(sc) for k, sc in self.scores.items() if k not in omit}
        for v, st in (self.alpha or {}).items():
            d["counts"][f"alpha_{v}"] = _alpha_dict(st)
        d["joined"] = [u.as_dict() for u in self.units if u.joined]
        if self.breakdowns is not None:
            d["breakdowns"] = {k: [b.as_dict() for b in v] for k, v in self.breakdowns.items()}
        if self.confusion is not None:
            d["confusion"] = self.confusion.as_dict()
        if self.per_unit is not None:
            d["per_unit"] = self.per_unit
        d["notes"] = list(self.notes)
        if self.prf is not None:
            d["prf"] = prf_table(self.prf)
        if self.enhanced is not None:
            d["enhanced"] = self.enhanced.as_dict()
        return d


def _score_dict(s: Score) -> Dict[str, Any]:
    return {"correct": s.correct, "gold": s.gold_total, "system": s.system_total,
            "aligned": s.aligned_total, "precision": s.precision, "recall": s.recall,
            "f1": s.f1, "aligned_accuracy": s.aligned_accuracy}


def _alpha_dict(st: AlphaStats) -> Dict[str, Any]:
    d: Dict[str, object] = {"do_sum": st.do_sum, "de_sum": st.de_sum, "n": st.n, "d_o": st.d_o,
                            "d_e": st.d_e, "units": st.units}
    if st.alpha_se is not None:
        d["sampled_pairs"] = st.sampled_pairs
    return d


@dataclass
class CompareResult(Frames):
    r"""All systems scored against one gold file (counts; rates are derived).

    Parameters
    ----------
    gold : str
        The gold file's name.
    gold_sentences, gold_words : int
    systems : list of SystemResult
    hierarchy : str, optional
        How the hierarchy of ``LAS_hier`` is named; None: none.
    full_labels : bool
    significance : SignificanceResult, optional
    notes : list of str
    tag_syntax : {"plain", "alternatives"}
        How DEPREL was read for ``LAS_hier``/``LAS_bdm`` (docs/method.md §15).
    bdm : bool
        ``LAS_bdm`` (GATE's BDM, docs/method.md §23) was computed.
    wu_palmer : bool
        ``LAS_wup`` (the Wu–Palmer closeness) was computed.
    baseline : BaselineComparison, optional
        The comparison with a stored result (docs/method.md §18).

    Examples
    --------
    >>> row = "{}\t{}\t_\t{}\t_\t_\t{}\t{}\t_\t_\n"
    >>> s1 = row.format(1, "Dogs", "NOUN", 2, "nsubj") + row.format(2, "bark", "VERB", 0, "root")
    >>> s2 = row.format(1, "Cats", "NOUN", 2, "nsubj") + row.format(2, "nap", "VERB", 0, "root")
    >>> gold = s1 + "\n" + s2 + "\n"
    >>> system = s1.replace("nsubj", "obj") + "\n" + s2 + "\n"
    >>> one = (s1 + row.format(3, "Cats", "NOUN", 4, "nsubj")
    ...        + row.format(4, "nap", "VERB", 2, "parataxis") + "\n")  # one sentence, not two
    >>> res = compare(gold, [system, one], names=["A", "B"], alpha=False)
    >>> res.gold_sentences, res.gold_words, [s.name for s in res.systems]
    (2, 4, ['A', 'B'])
    >>> res.system("B").joined_units, res.rows()[-1]
    (1, 'LAS_full')
    """
    gold: str
    gold_sentences: int
    gold_words: int
    systems: List[SystemResult]
    hierarchy: Optional[str] = None
    full_labels: bool = False
    significance: Optional[SignificanceResult] = None
    notes: List[str] = field(default_factory=list)
    tag_syntax: str = "plain"
    bdm: bool = False
    wu_palmer: bool = False
    # against a stored result (--baseline; synagree.evaluation.baseline)
    baseline: Optional[BaselineComparison] = None
    # scores left out of the tables and JSON: CLAS/MLAS/BLEX when gold's relations are
    # not UD's (the scorer's own -v table keeps them)
    omitted: Tuple[str, ...] = ()
    # how the numbers were computed: printed with every output (the signature)
    settings: Dict[str, str] = field(default_factory=dict)

    def signature(self) -> str:
        """The settings as one line, ``key:value|key:value|...``."""
        return "|".join(f"{k}:{v}" for k, v in self.settings.items())

    def system(self, name: str) -> SystemResult:
        """The result of the system named ``name`` (KeyError if none)."""
        for s in self.systems:
            if s.name == name:
                return s
        raise KeyError(name)

    def rows(self) -> List[str]:
        """Row names of the summary table, in order."""
        rows = [m for m in OFFICIAL_METRICS if m not in self.omitted] + ["LAS_full"]
        if self.hierarchy is not None:
            rows.append("LAS_hier")
        if self.bdm:
            rows.append("LAS_bdm")
        if self.wu_palmer:
            rows.append("LAS_wup")
        rows += [m for m in ENHANCED_METRICS if any(m in s.scores for s in self.systems)]
        if any(s.alpha is not None for s in self.systems):
            rows += [f"alpha_{v}" for v in VARIANTS]
        return rows

    def frame_rows(self) -> List[Dict[str, Any]]:
        """One row per system and metric, with its interval."""
        return [r for s in self.as_dict()["systems"] for r in metric_rows(s, system=s["name"])]

    def to_dict(self) -> Dict[str, Any]:
        """``synagree compare --output json`` (`as_dict`)."""
        return self.as_dict()

    def as_dict(self) -> Dict[str, Any]:
        """The result as a JSON-ready dict."""
        d = {"synagree_version": __version__, "settings": dict(self.settings),
             "signature": self.signature(), "gold": self.gold,
             "gold_sentences": self.gold_sentences,
             "gold_words": self.gold_words, "hierarchy": self.hierarchy,
             "full_labels": self.full_labels,
             "systems": [s.as_dict(self.omitted) for s in self.systems]}
        if self.tag_syntax != "plain" or self.bdm or self.wu_palmer:  # docs/method.md §15
            d.update(tag_syntax=self.tag_syntax, bdm_credit=self.bdm,
                     wu_palmer_credit=self.wu_palmer)
        if self.bdm:  # LAS_bdm is GATE's BDM (docs/method.md §23), not the earlier formula
            d["bdm_definition"] = "gate"
        if self.significance is not None:
            d["significance"] = self.significance.as_dict()
        if self.baseline is not None:
            d["baseline"] = self.baseline.as_dict()
        d["notes"] = list(self.notes)
        return d


# --------------------------------------------------------------------------- computing


def _per_unit_ratios(alignment: Alignment, g_unit: np.ndarray, s_unit: np.ndarray, U: int,
                     result: Conll18Result) -> Dict[str, RatioUnits]:
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

    def bc(idx: np.ndarray, w: Optional[np.ndarray] = None) -> np.ndarray:
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


def _hier_score(alignment: Alignment, h: Hierarchy) -> Score:
    """Per aligned word: [head correct] x the credit of the system's DEPREL against gold's.

    An empty DEPREL (which the scorer's reader accepts) is credited as the label ``_``,
    as ``agree`` and ``tags`` read it: the empty string is no tag of a hierarchy."""

    credit = label_credit_fn(h, "credit")
    total = sum((credit(p.gold.deprel or "_", p.system.deprel or "_") for p in alignment
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


def compare(gold: Source, systems: Sequence[Source], hierarchy: Optional[HierarchySpec] = None,
            breakdown: bool = False,
            significance: bool = False, test_replicates: int = 1000, seed: int = 0, *,
            bootstrap: int = 0,
            names: Optional[Sequence[str]] = None, alpha: bool = True,
            sample_pairs: Optional[int] = None, exact: bool = False, level: float = 0.95,
            R: Optional[int] = None, full_labels: bool = False,
            progress: Optional[bool] = None,
            max_memory: int = DEFAULT_MAX_MEMORY, tag_syntax: str = "plain",
            bdm: bool = False, prf: bool = False, wu_palmer: bool = False,
            executor: Optional[Callable[..., Any]] = None) -> CompareResult:
    r"""Score systems against gold: CoNLL 2018 scores, α, breakdowns, significance.

    docs/method.md §11.  Every file is read before any is refused, so the
    errors of all files come at once.

    Parameters
    ----------
    gold : str, path-like, file-like or Treebank
        A path, CoNLL-U text (a string with a newline), a text or binary
        stream (compressed or not; named ``<gold>`` and ``<system 1>``, ...
        unless it has a real ``.name``) or a
        `synagree.evaluation.conll18.Treebank`.
    systems : sequence of the same
        One or more system outputs.
    hierarchy : str, path-like, file-like or Hierarchy, optional
        ``"ud"``, ``"msd"``, ``"flat"``, a file (or a stream of one) or a
        `synagree.trees.hierarchy.Hierarchy`: adds ``LAS_hier``.
    breakdown : bool
        Add `BREAKDOWNS` and the relation confusion matrix.
    significance : bool
        Add paired bootstrap and approximate randomisation tests between every
        two systems (docs/method.md §11.5).
    test_replicates : int
        Bootstrap replicates (and, unless ``R``, randomisation rounds) of those tests.
    seed : int
        Seeds the tests, the intervals and sampled pairs.
    bootstrap : int
        Unit-resampling replicates for percentile intervals of LAS, UAS, CLAS
        and α_plain of each system (``<metric>_ci``); 0: none.
    names : sequence of str, optional
        One distinct name per system; None: the file names.
    alpha : bool
        False skips α (the all-pairs tree edit distances are by far the slowest
        part).
    sample_pairs : int, optional
    exact : bool
        As for `synagree.agreement.agree.agree_corpus`.
    level : float
        Interval level, a fraction.
    R : int, optional
        Randomisation rounds (default ``test_replicates``).
    full_labels : bool
        Breakdowns and confusions by DEPREL with subtypes.
    progress : bool
        Progress bar on stderr (a terminal only).
    max_memory : int
        Bytes the significance tests may plan to use.
    tag_syntax : {"plain", "alternatives"}
        ``alternatives`` (needs ``hierarchy``): DEPREL values such as
        ``obl|advmod`` or ``nsubj=0.7|obj=0.3`` are alternatives for
        ``LAS_hier`` and ``LAS_bdm`` (docs/method.md §15); the scorer's own
        metrics compare the values as written.
    bdm : bool
        Add ``LAS_bdm``: head correct × GATE's BDM between the labels
        (docs/method.md §15.5, §23; needs ``hierarchy``).
    prf : bool
        Add micro and macro P/R/F1 over relations, strict and lenient
        (`SystemResult.prf`, docs/method.md §17).
    wu_palmer : bool
        Add ``LAS_wup``: head correct × the Wu–Palmer closeness of the labels
        (docs/method.md §15.5; needs ``hierarchy``).
    executor : callable, optional
        Runs the tiles of every system's α pass elsewhere (a Dask cluster,
        `synagree.distance.dask_exec.DaskExecutor`); the numbers are those of a
        local run.

    Returns
    -------
    CompareResult

    Raises
    ------
    InputError
        No system, bad input, differing texts, names not one per system or not
        distinct, ``significance`` with ``sample_pairs``, a memory plan above
        ``max_memory``, ``tag_syntax``/``bdm`` without ``hierarchy``, or (with
        ``alternatives``) a DEPREL that is not valid syntax (``tag-syntax``).

    Examples
    --------
    >>> row = "{}\t{}\t_\t{}\t_\t_\t{}\t{}\t_\t_\n"
    >>> s1 = row.format(1, "Dogs", "NOUN", 2, "nsubj") + row.format(2, "bark", "VERB", 0, "root")
    >>> s2 = row.format(1, "Cats", "NOUN", 2, "nsubj") + row.format(2, "nap", "VERB", 0, "root")
    >>> gold = s1 + "\n" + s2 + "\n"
    >>> system = s1.replace("nsubj", "obj") + "\n" + s2 + "\n"
    >>> one = (s1 + row.format(3, "Cats", "NOUN", 4, "nsubj")
    ...        + row.format(4, "nap", "VERB", 2, "parataxis") + "\n")  # one sentence, not two
    >>> res = compare(gold, [system, one], names=["A", "B"])
    >>> [(s.name, s.value("LAS"), s.value("UAS")) for s in res.systems]
    [('A', 0.75, 1.0), ('B', 0.75, 0.75)]
    >>> st = res.system("A").alpha["plain"]  # gold and A as two annotators of 2 units
    >>> st.d_o, st.d_e, st.alpha
    (0.5, 0.5, 0.0)
    """
    check_replicates(bootstrap, level)  # before any work: intervals and tests that mean
    if significance:  # something
        check_replicates(test_replicates, level, "test_replicates", "a paired test")
    if not systems:
        raise InputError.single("<command line>", None, "usage", "no system file given")
    if (significance or bootstrap) and sample_pairs:
        raise InputError.single("<command line>", None, "usage",
                                "significance and intervals need the exact D_e: drop "
                                "--sample-pairs")
    resample = significance or bool(bootstrap)  # per-unit data for the resampling engine
    check_syntax_option(tag_syntax)
    if (tag_syntax != "plain" or bdm or wu_palmer) and hierarchy is None:
        raise InputError.single("<command line>", None, "usage",
                                "--tag-syntax alternatives, --bdm and --wu-palmer need "
                                "--hierarchy ud|msd|flat|FILE")
    hierarchy = hierarchy_input(hierarchy) if hierarchy is not None else None
    with limited(max_memory):  # the reading budget is a share of it
        gold_tb, *sys_tbs = _read_all([(gold, "<gold>")] + [(s, f"<system {k + 1}>")
                                                            for k, s in enumerate(systems)])
    sys_names = system_names([tb.name for tb in sys_tbs], names)
    if significance:
        check_resampling(len(gold_tb.sentences), test_replicates, len(sys_tbs), max_memory)
    if bootstrap:
        check_resampling(len(gold_tb.sentences), bootstrap, len(sys_tbs), max_memory)
    notes: List[str] = []

    h = hdesc = None
    if hierarchy is not None:

        labels = [w.deprel for tb in [gold_tb, *sys_tbs] for w in tb.words]
        read = TagReader(tag_syntax)  # docs/method.md §15
        check_deprels([(gold_tb, True)] + [(tb, False) for tb in sys_tbs],
                      read).raise_if_errors()
        plain_note = plain_syntax_note(labels, "DEPREL") if tag_syntax == "plain" else None
        if plain_note:
            notes.append(plain_note)
        labels = read.tags(labels)
        h, added = load_hierarchy_noting_added(hierarchy, labels)
        hdesc = describe_hierarchy(hierarchy)
        added = sorted(added)
        if added:
            notes.append(f"{len(added)} label(s) are not in the hierarchy and get no partial "
                         f"credit: " + ", ".join(added[:20]) + (" ..." if len(added) > 20 else ""))

    vocab = Vocabulary()
    gold_trees: Dict[Tuple[int, int], FlatTree] = {}
    results: List[SystemResult] = []
    sig_parts: List[_SigPart] = []  # per system: (units, per-unit ratios, alpha sums)
    for name, tb in zip(sys_names, sys_tbs):
        res = evaluate(gold_tb, tb)
        al = res.alignment
        scores = dict(res.scores)
        if h is not None:
            scores["LAS_hier"] = (_hier_score(al, h) if tag_syntax == "plain"
                                  else credit_las(al, gold_credit_fn(h, read)))
            if bdm:
                scores["LAS_bdm"] = credit_las(al, gold_closeness_fn(
                    tag_closeness(h, "bdm", added), read))
            if wu_palmer:
                scores["LAS_wup"] = credit_las(al, gold_closeness_fn(
                    tag_closeness(h, "wu-palmer"), read))
        units = sentence_units(al)
        sr = SystemResult(name, tb.name, scores, units, conll18=res, enhanced=res.enhanced)
        if res.enhanced is not None:
            sr.notes.extend(res.enhanced.notes(name))
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
                ta = tree_alpha(trees, keep_unit_matrix=resample,
                                sample_pairs=sample_pairs, seed=seed, progress=progress,
                                exact=exact or resample, executor=executor)
                if ta.plan is not None and ta.plan.note:
                    sr.notes.append(f"{name}: {ta.plan.note}")
                sr.alpha = ta.stats
                sr.unit_ted = np.array([m[0, 1] for m in ta.unit_ted])
                if resample and ta.sums is not None:
                    assert ta.sums.S is not None  # kept: keep_unit_matrix=resample
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
        if prf:
            sr.prf = note_written_alternatives(relation_prf(al), tag_syntax)
        if resample:
            g_unit, s_unit = _unit_index(units, len(gold_tb.sentences), len(tb.sentences))
            sig_parts.append((units, _per_unit_ratios(al, g_unit, s_unit, len(units), res),
                              ta_sums))
        results.append(sr)

    sig = None
    if significance:
        sig = _significance(gold_tb, sys_names, sig_parts, B=test_replicates, R=R, seed=seed,
                            level=level)
        notes.extend(sig.notes)
    for sr in results:
        notes.extend(sr.notes)
    omitted: Tuple[str, ...] = ()
    odd = non_ud_labels(w.deprel for w in gold_tb.words)
    if odd:  # CLAS, MLAS and BLEX classify UD relations; on others they mean nothing
        omitted = UD_ONLY_METRICS
        notes.append(f"CLAS, MLAS and BLEX are left out: they classify UD relations, and gold "
                     f"has others ({', '.join(odd[:8])}{' ...' if len(odd) > 8 else ''}); "
                     f"-v shows the scorer's table with them")
    settings = {"gold": Path(gold_tb.name).name,
                "labels": "LAS universal relation, LAS_full full DEPREL"
                          + (f", LAS_hier {hdesc}" if hdesc else ""),
                "alpha": ("off" if not alpha else _d_e_setting(results, seed)),
                "breakdown": "full DEPREL" if full_labels else "universal relation"}
    if tag_syntax != "plain" or bdm or wu_palmer:
        settings["tag_syntax"] = (tag_syntax + (", bdm (GATE)" if bdm else "")
                                  + (", wu-palmer" if wu_palmer else ""))
    if bootstrap:  # percentile intervals per system, on the same engine (method §11.5)
        cis = _significance(gold_tb, sys_names, sig_parts, B=bootstrap, R=1, seed=seed,
                            level=level).ci
        for sr in results:
            sr.intervals = dict(cis.get(sr.name, {}))
        settings["bootstrap"] = f"{bootstrap} replicates, seed {seed}, level {level:g}"
    if significance:
        settings["significance"] = (f"B = {test_replicates}, R = {R or test_replicates}, "
                                    f"seed {seed}, level {level:g}")
    settings["version"] = __version__
    return CompareResult(gold_tb.name, len(gold_tb.sentences), len(gold_tb.words), results,
                         hdesc, full_labels, sig, notes, tag_syntax, bdm, wu_palmer,
                         omitted=omitted, settings=settings)


def _d_e_setting(results: Sequence[SystemResult], seed: int) -> str:
    """``TED unit costs, D_e exact`` or sampled, as in agree's signature."""
    pairs = {st.sampled_pairs for sr in results for st in (sr.alpha or {}).values()
             if st.sampled_pairs}
    d_e = "exact" if not pairs else f"sampled ({max(pairs)} pairs, seed {seed})"
    return f"TED unit costs (root label free), D_e {d_e}"


# per system: its units, the per-unit ratios, and α's per-unit sums (or None)
_SigPart = Tuple[List[Any], Dict[str, RatioUnits], Optional[Tuple[Any, Any, Any]]]


def _significance(gold_tb: Treebank, names: Sequence[str], parts: Sequence[_SigPart], B: int,
                  R: Optional[int], seed: int, level: float) -> SignificanceResult:

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


