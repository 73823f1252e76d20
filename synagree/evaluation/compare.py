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

Significance (``significance=True``): `synagree.stats.significance` on the
resampled word scores of the registry (`synagree.base.metrics.resampled_scores`:
LAS, UAS, CLAS, F1) and α_plain, per unit.  The units common to all systems are
the smallest groups of gold sentences that contain a whole unit of every
system (equal to the gold sentences when no system splits differently).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Dict, Hashable, List, Optional, Sequence, Tuple, Union, cast

import numpy as np

from synagree._version import __version__
from synagree.base.compare_options import CompareOptions
from synagree.base.frames import Frames, metric_rows
from synagree.base.gc_pause import paused_gc
from synagree.base.memory import DEFAULT_MAX_MEMORY, check_resampling, limited
from synagree.base.metrics import (
    SCORE_FAMILIES,
    TREE_SCORE,
    resampled_scores,
    score_keys,
    ud_only_scores,
)
from synagree.base.problems import InputError
from synagree.base.ratios import Share, prf_shares
from synagree.base.sealed import seal
from synagree.evaluation.conll18 import (
    ENHANCED_METRICS,
    METRICS,
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
    pair_correct,
)
from synagree.evaluation.label_credit_las import check_deprels, credit_las
from synagree.evaluation.label_prf import note_written_alternatives, relation_prf
from synagree.io.conllu import DepSentence
from synagree.io.sources import check_input, one_or_many, system_names
from synagree.io.units import coinciding_groups, join_dependency
from synagree.stats.alpha import VARIANTS, AlphaStats, tree_alpha
from synagree.stats.attachment import non_ud_labels
from synagree.stats.baseline_options import BASELINE_REPLICATES
from synagree.stats.hierarchy_input import (
    HierarchySpec,
    describe_hierarchy,
    hierarchy_input,
    label_credit_fn,
    load_hierarchy_noting_added,
)
from synagree.stats.prf import PRF, prf_table
from synagree.stats.replicates import check_replicates
from synagree.stats.tag_alternatives import (
    TagReader,
    check_syntax_option,
    gold_closeness_fn,
    gold_credit_fn,
    plain_syntax_note,
)
from synagree.trees.annotation_bdm import tag_closeness
from synagree.trees.flat import DependencyColumns, FlatTree, Vocabulary, dependency_trees
from synagree.trees.hierarchy import Hierarchy

# only the type checker needs these: their modules are loaded by the options that use them
# (--baseline: synagree.evaluation.baseline; the resampling engine, stats.significance,
# by `_per_unit_ratios` and `_significance`), not by every comparison (issue 36: start-up)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from synagree.stats.regression import BaselineComparison
    from synagree.stats.significance import RatioUnits, SignificanceResult

__all__ = [
    "SentenceUnit", "sentence_units", "joined_sentence",
    "Side", "Breakdown", "BREAKDOWNS", "BinCounts", "Confusion", "breakdown_counts",
    "confusion", "SystemResult", "CompareResult", "compare",
]

UNALIGNED_BIN = "(unaligned)"
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


class _UnitColumns:
    """The HEAD and DEPREL columns of one sentence, all its tree needs
    (`synagree.trees.flat.DependencyColumns`): `_dep_sentence` less the six
    other columns, which `_GoldTrees` would build per sentence and throw away."""

    __slots__ = ("heads", "deprels")

    def __init__(self, heads: np.ndarray, deprels: List[str]):
        self.heads, self.deprels = heads, deprels

    @property
    def n_words(self) -> int:
        return len(self.deprels)


def _unit_columns(tb: Treebank, sentences: range) -> Union[DepSentence, _UnitColumns]:
    """What the tree of a unit is built from: `joined_sentence` for a unit of
    several sentences (the one joining rule), a sentence's two columns else."""
    if len(sentences) != 1:
        return joined_sentence(tb, sentences)
    sent = tb.sentences[sentences.start]
    words = tb.words[sent.words.start:sent.words.stop]
    return _UnitColumns(np.fromiter((w.head for w in words), np.int32, len(words)),
                        [w.deprel for w in words])


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


@dataclass(frozen=True)
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
    uas = alignment.field_equal("head")
    las = uas & alignment.field_equal("deprel" if full_labels else "udeprel")
    return las.tolist(), uas.tolist()


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


@dataclass(frozen=True)
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
        """Row names of the summary table, in order: the registry's scores of ``compare``
        (`synagree.base.metrics.score_keys`) that the systems have, α last."""
        families = tuple(f for f in SCORE_FAMILIES if f != TREE_SCORE)
        rows = [m for m in score_keys("compare", families)
                if m not in self.omitted and any(m in s.scores for s in self.systems)]
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
                     result: Conll18Result,
                     metrics: Optional[Sequence[str]] = None) -> Dict[str, RatioUnits]:
    """Per-unit (correct, gold, system) counts of the resampled word scores
    (`synagree.base.metrics.resampled_scores`: LAS, UAS, CLAS, ...)."""
    from synagree.stats.significance import RatioUnits  # (see the imports at the top)

    gw_unit = np.fromiter((g_unit[w.sent_index] for w in alignment.gold.words), np.int64,
                          len(alignment.gold.words))
    sw_unit = np.fromiter((s_unit[w.sent_index] for w in alignment.system.words), np.int64,
                          len(alignment.system.words))
    p_unit = gw_unit[[p.gold.index for p in alignment]] if len(alignment) else \
        np.zeros(0, np.int64)

    def bc(idx: np.ndarray, w: Optional[np.ndarray] = None) -> np.ndarray:
        return np.bincount(idx, weights=None if w is None else w.astype(np.float64),
                           minlength=U).astype(np.float64)

    def content(words: Sequence[Word]) -> np.ndarray:
        return np.fromiter((w.is_content for w in words), bool, len(words))

    totals = {False: (bc(gw_unit), bc(sw_unit))}
    out = {}
    for name in (resampled_scores("compare") if metrics is None else metrics):
        wm = METRICS[name]
        if wm.content_only not in totals:
            totals[True] = (bc(gw_unit, content(alignment.gold.words)),
                            bc(sw_unit, content(alignment.system.words)))
        flags = np.array(pair_correct(alignment, wm), dtype=bool)
        out[name] = RatioUnits(bc(p_unit, flags), *totals[wm.content_only])
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


def compare(gold: Source, systems: Union[Source, Sequence[Source]],
            options: Optional[CompareOptions] = None, **overrides: Any) -> CompareResult:
    r"""Score systems against gold: CoNLL 2018 scores, α, breakdowns, significance.

    docs/method.md §11.  Every file is read before any is refused, so the
    errors of all files come at once.

    Parameters
    ----------
    gold : str, path-like, file-like or Treebank
        A path, CoNLL-U text (a string with a line break: the one rule of
        `synagree.io.sources.as_input`), a text or binary stream (compressed
        or not; named ``<gold>`` and ``<system 1>``, ... unless it has a real
        ``.name``) or a `synagree.evaluation.conll18.Treebank`.
    systems : one of the same, or a sequence of them
        One system output, or several (a single path, text or stream is one
        system: a stream's lines are never taken for systems).
    options : CompareOptions, optional
        Every option (`synagree.base.command_options.CompareOptions`; the
        defaults when None).
    **overrides
        Any field of `CompareOptions`, by name (``hierarchy``, ``breakdown``,
        ``significance``, ``test_replicates``, ``seed``, ``bootstrap``,
        ``names``, ``alpha``, ``sample_pairs``, ``exact``, ``level``, ``R``,
        ``full_labels``, ``progress``, ``max_memory``, ``tag_syntax``,
        ``bdm``, ``prf``, ``wu_palmer``, ``executor``), as `_compare` takes
        them.

    Returns
    -------
    CompareResult

    Raises
    ------
    TypeError, ValueError
        An option of the wrong type or outside its range (the message names
        it, the value and what is allowed); ``gold`` or a system that is no
        input.
    InputError
        Bad input (see `_compare`).

    Examples
    --------
    >>> row = "{}\t{}\t_\t{}\t_\t_\t{}\t{}\t_\t_\n"
    >>> gold = row.format(1, "Dogs", "NOUN", 2, "nsubj") + row.format(2, "bark", "VERB", 0,
    ...                                                                "root") + "\n"
    >>> res = compare(gold, gold.replace("nsubj", "obj"), names=["A"])
    >>> res.system("A").value("LAS"), res.system("A").value("UAS")
    (0.5, 1.0)
    """
    opts = CompareOptions.build(options, overrides, "compare()")
    check_input(gold, "gold", "compare(): ", (Treebank,))
    items = one_or_many(systems, "systems")
    for k, s in enumerate(items):
        check_input(s, f"system {k + 1}", "compare(): ", (Treebank,))
    return seal(_compare(gold, cast(List[Source], items), **opts.as_kwargs()))


def _compare(gold: Source, systems: Sequence[Source], hierarchy: Optional[HierarchySpec] = None,
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
    r"""The computation of `compare`, its options as keywords (checked by `compare`).

    Parameters
    ----------
    gold : str, path-like, file-like or Treebank
        As for `compare`.
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
    plan = _Plan(breakdown=breakdown, significance=significance,
                 test_replicates=test_replicates, seed=seed, bootstrap=bootstrap, alpha=alpha,
                 sample_pairs=sample_pairs, exact=exact, level=level, R=R,
                 full_labels=full_labels, progress=progress, max_memory=max_memory,
                 tag_syntax=tag_syntax, bdm=bdm, prf=prf, wu_palmer=wu_palmer,
                 executor=executor)
    core = _compare_core(gold, systems, hierarchy, names, plan)
    return _assemble(core, [_system_section(core, k) for k in range(len(core.names))])


def _d_e_setting(results: Sequence[SystemResult], seed: int) -> str:
    """``TED unit costs, D_e exact`` or sampled, as in agree's signature."""
    pairs = {st.sampled_pairs for sr in results for st in (sr.alpha or {}).values()
             if st.sampled_pairs}
    d_e = "exact" if not pairs else f"sampled ({max(pairs)} pairs, seed {seed})"
    return f"TED unit costs (root label free), D_e {d_e}"


# per system: its units, the per-unit ratios, and α's per-unit sums (or None)
_SigPart = Tuple[List[Any], Dict[str, "RatioUnits"], Optional[Tuple[Any, Any, Any]]]


def _significance(gold_tb: Treebank, names: Sequence[str], parts: Sequence[_SigPart], B: int,
                  R: Optional[int], seed: int, level: float) -> SignificanceResult:
    from synagree.stats.significance import (  # (see the imports at the top)
        RatioUnits,
        SystemUnits,
        aggregate_alpha,
        significance,
    )

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
        for m in resampled_scores("compare"):
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


# --------------------------------------------------------------------------- sections
# `compare` is a core (the scorer's metrics of each system, `evaluate`) plus sections,
# each a pure function of what it reads returning its part: the label-credit scores
# (a hierarchy), α, the breakdowns, P/R/F1, the per-unit counts of the resampled
# scores, significance and intervals, the settings.


@dataclass(frozen=True)
class _Plan:
    """What `compare` computes beside the scorer's metrics (its options)."""

    breakdown: bool
    significance: bool
    test_replicates: int
    seed: int
    bootstrap: int
    alpha: bool
    sample_pairs: Optional[int]
    exact: bool
    level: float
    R: Optional[int]
    full_labels: bool
    progress: Optional[bool]
    max_memory: int
    tag_syntax: str
    bdm: bool
    prf: bool
    wu_palmer: bool
    executor: Optional[Callable[..., Any]]

    @property
    def resample(self) -> bool:
        """Per-unit data for the resampling engine (significance or intervals)."""
        return self.significance or bool(self.bootstrap)


def _check_plan(plan: _Plan, systems: Sequence[Source], has_hierarchy: bool) -> None:
    """The option checks of `compare` (InputError ``usage``), before any work."""
    # intervals and tests that mean something (docs/method.md §5.4)
    check_replicates(plan.bootstrap, plan.level)
    if plan.significance:
        check_replicates(plan.test_replicates, plan.level, "test_replicates", "a paired test")
    if not systems:
        raise InputError.single("<command line>", None, "usage", "no system file given")
    if plan.resample and plan.sample_pairs:
        raise InputError.single("<command line>", None, "usage",
                                "significance and intervals need the exact D_e: drop "
                                "--sample-pairs")
    check_syntax_option(plan.tag_syntax)
    if (plan.tag_syntax != "plain" or plan.bdm or plan.wu_palmer) and not has_hierarchy:
        raise InputError.single("<command line>", None, "usage",
                                "--tag-syntax alternatives, --bdm and --wu-palmer need "
                                "--hierarchy ud|msd|flat|FILE")


@dataclass(frozen=True)
class _LabelCredit:
    """The hierarchy behind ``LAS_hier`` (``LAS_bdm``, ``LAS_wup``) and how DEPREL is read.

    Attributes
    ----------
    hierarchy : Hierarchy
    description : str
    read : TagReader
    added : tuple of str
        Labels not in the hierarchy (no partial credit), sorted.
    notes : tuple of str
    """

    hierarchy: Hierarchy
    description: str
    read: TagReader
    added: Tuple[str, ...]
    notes: Tuple[str, ...]


def _label_credit(hierarchy: Any, tag_syntax: str, gold_tb: Treebank,
                  sys_tbs: Sequence[Treebank]) -> _LabelCredit:
    """The hierarchy section: the labels checked and the hierarchy loaded over them."""
    labels = [w.deprel for tb in [gold_tb, *sys_tbs] for w in tb.words]
    read = TagReader(tag_syntax)  # docs/method.md §15
    check_deprels([(gold_tb, True)] + [(tb, False) for tb in sys_tbs], read).raise_if_errors()
    notes: List[str] = []
    plain_note = plain_syntax_note(labels, "DEPREL") if tag_syntax == "plain" else None
    if plain_note:
        notes.append(plain_note)
    h, added_set = load_hierarchy_noting_added(hierarchy, read.tags(labels))
    added = sorted(added_set)
    if added:
        notes.append(f"{len(added)} label(s) are not in the hierarchy and get no partial "
                     f"credit: " + ", ".join(added[:20]) + (" ..." if len(added) > 20 else ""))
    return _LabelCredit(h, describe_hierarchy(hierarchy), read, tuple(added), tuple(notes))


def _credit_scores(al: Alignment, credit: _LabelCredit, plan: _Plan) -> Dict[str, Score]:
    """``LAS_hier`` and, as asked, ``LAS_bdm`` and ``LAS_wup`` of one system."""
    h, read = credit.hierarchy, credit.read
    out = {"LAS_hier": (_hier_score(al, h) if plan.tag_syntax == "plain"
                        else credit_las(al, gold_credit_fn(h, read)))}
    if plan.bdm:
        out["LAS_bdm"] = credit_las(al, gold_closeness_fn(
            tag_closeness(h, "bdm", credit.added), read))
    if plan.wu_palmer:
        out["LAS_wup"] = credit_las(al, gold_closeness_fn(tag_closeness(h, "wu-palmer"), read))
    return out


class _GoldTrees:
    """Gold's joined trees, each built once for every system (one vocabulary); used only
    while the core is built (`_compare_core`), never by a section."""

    def __init__(self, gold_tb: Treebank):
        self.gold_tb = gold_tb
        self.vocab = Vocabulary()
        self.built: Dict[Tuple[int, int], FlatTree] = {}

    def pairs(self, tb: Treebank, units: Sequence[SentenceUnit]) -> List[List[FlatTree]]:
        """Per unit: [gold tree, system tree]; the sentences in the order the trees are
        first needed, then built in one pass."""
        todo: List[DependencyColumns] = []
        slots: List[Tuple[Tuple[int, int], int]] = []
        pending: Dict[Tuple[int, int], int] = {}
        for u in units:
            k = (u.gold.start, u.gold.stop)
            if k not in self.built and k not in pending:
                pending[k] = len(todo)
                todo.append(_unit_columns(self.gold_tb, u.gold))
            slots.append((k, len(todo)))
            todo.append(_unit_columns(tb, u.system))
        built = dependency_trees(todo, self.vocab)
        for k, at in pending.items():
            self.built[k] = built[at]
        return [[self.built[k], built[at]] for k, at in slots]


@dataclass(frozen=True)
class CompareCore:
    """What every section of `compare` reads, computed once (`_compare_core`).

    Attributes
    ----------
    gold : Treebank
    systems : tuple of Treebank
    names : tuple of str
        One distinct name per system.
    plan : _Plan
        The options.
    credit : _LabelCredit, optional
        The hierarchy behind ``LAS_hier`` (None: no hierarchy).
    evaluated : tuple of Conll18Result
        Per system, the scorer's metrics and its alignment to gold.
    units : tuple of tuple of SentenceUnit
        Per system, the units of sentences it shares with gold.
    trees : tuple of list, optional
        Per system and unit, [gold tree, system tree] (one vocabulary, gold's trees
        shared); None when α is off.
    """

    gold: Treebank
    systems: Tuple[Treebank, ...]
    names: Tuple[str, ...]
    plan: _Plan
    credit: Optional[_LabelCredit]
    evaluated: Tuple[Conll18Result, ...]
    units: Tuple[Tuple[SentenceUnit, ...], ...]
    trees: Optional[Tuple[List[List[FlatTree]], ...]]


def _compare_core(gold: Source, systems: Sequence[Source], hierarchy: Any,
                  names: Optional[Sequence[str]], plan: _Plan) -> CompareCore:
    """The core of `compare`: the options checked, every file read, the names, the label
    credit, each system scored and aligned (`evaluate`) and, for α, the trees."""
    _check_plan(plan, systems, hierarchy is not None)
    hierarchy = hierarchy_input(hierarchy) if hierarchy is not None else None
    with limited(plan.max_memory):  # the reading budget is a share of it
        gold_tb, *sys_tbs = _read_all([(gold, "<gold>")] + [(s, f"<system {k + 1}>")
                                                            for k, s in enumerate(systems)])
    sys_names = system_names([tb.name for tb in sys_tbs], names)
    for B in (plan.test_replicates if plan.significance else 0, plan.bootstrap):
        if B:
            check_resampling(len(gold_tb.sentences), B, len(sys_tbs), plan.max_memory)
    credit = (_label_credit(hierarchy, plan.tag_syntax, gold_tb, sys_tbs)
              if hierarchy is not None else None)
    # the alignments, units and trees are many small objects kept for the run: the cyclic
    # collector waits until they are made (as while reading; 30-45 ms of a compare on EWT test)
    with paused_gc():
        evaluated = tuple(evaluate(gold_tb, tb) for tb in sys_tbs)
        units = tuple(tuple(sentence_units(res.alignment)) for res in evaluated)
        trees = None
        if plan.alpha:  # built in the order they were built system by system: the same ids
            gold_trees = _GoldTrees(gold_tb)
            trees = tuple(gold_trees.pairs(tb, u) if u else []
                          for tb, u in zip(sys_tbs, units))
    return CompareCore(gold_tb, tuple(sys_tbs), tuple(sys_names), plan, credit, evaluated,
                       units, trees)


@dataclass(frozen=True)
class _AlphaPart:
    """The α section of one system: per variant, the unit TEDs, notes, resampling sums."""

    stats: Dict[str, AlphaStats]
    unit_ted: np.ndarray
    notes: Tuple[str, ...]
    sums: Optional[Tuple[Any, Any, Any]]


def _alpha_section(core: CompareCore, k: int) -> _AlphaPart:
    """α between gold and system ``k`` over its units (docs/method.md §11.3)."""
    name, plan, units = core.names[k], core.plan, core.units[k]
    assert core.trees is not None  # built when α is on
    notes: List[str] = []
    sums = None
    if units:
        ta = tree_alpha(core.trees[k], keep_unit_matrix=plan.resample,
                        sample_pairs=plan.sample_pairs, seed=plan.seed, progress=plan.progress,
                        exact=plan.exact or plan.resample, executor=plan.executor)
        if ta.plan is not None and ta.plan.note:
            notes.append(f"{name}: {ta.plan.note}")
        stats = ta.stats
        unit_ted = np.array([m[0, 1] for m in ta.unit_ted])
        if plan.resample and ta.sums is not None:
            assert ta.sums.S is not None  # kept: keep_unit_matrix=resample
            sums = (ta.sums.diag[:, 0].copy(), ta.sums.m.copy(), ta.sums.S[0].copy())
        del ta
    else:
        st = AlphaStats(0.0, 0.0, 0, 0)
        st.notes.append("alpha: no sentences; alpha is undefined")
        stats = {v: st for v in VARIANTS}
        unit_ted = np.zeros(0)
    for st in stats.values():
        for n in st.notes:
            if f"{name}: {n}" not in notes:
                notes.append(f"{name}: {n}")
    return _AlphaPart(stats, unit_ted, tuple(notes), sums)


@dataclass(frozen=True)
class _BreakdownPart:
    """The breakdown section of one system: `BREAKDOWNS` and the relation confusions."""

    breakdowns: Dict[str, List[BinCounts]]
    confusion: Confusion


def _breakdown_section(core: CompareCore, k: int) -> _BreakdownPart:
    """`BREAKDOWNS` and the relation confusions of system ``k`` (docs/method.md §11.4)."""
    al, full_labels = core.evaluated[k].alignment, core.plan.full_labels
    flags = _correct_flags(al, full_labels)
    bds = dict(BREAKDOWNS)
    if full_labels:
        bds["relation"] = Breakdown(_relation_full, None,
                                    "gold relation, full label (label with correct head)")
    return _BreakdownPart({b: breakdown_counts(al, bd, full_labels, flags)
                           for b, bd in bds.items()}, confusion(al, full_labels))


def _score_section(core: CompareCore, k: int) -> Dict[str, Score]:
    """The scores of system ``k``: the scorer's metrics (ELAS/EULAS left out when the
    system has no DEPS: absent, never zero; a note says why) and the label credit's."""
    res = core.evaluated[k]
    scores = dict(res.scores)
    if res.enhanced is not None and res.enhanced.absent_in_system:
        for m in ENHANCED_METRICS:
            scores.pop(m, None)
    if core.credit is not None:
        scores.update(_credit_scores(res.alignment, core.credit, core.plan))
    return scores


@dataclass(frozen=True)
class _SystemPart:
    """One system's sections: its result and, when resampling, its per-unit data."""

    result: SystemResult
    sig: Optional[_SigPart]


def _system_section(core: CompareCore, k: int) -> _SystemPart:
    """System ``k``: its scores, α, breakdowns, P/R/F1 and per-unit counts, each a
    section of the core."""
    name, tb, plan, res = core.names[k], core.systems[k], core.plan, core.evaluated[k]
    al, units = res.alignment, list(core.units[k])
    notes = res.enhanced.notes(name) if res.enhanced is not None else []
    joined = sum(1 for u in units if u.joined)
    if joined:
        notes.append(f"{name}: {joined} unit(s) join several sentences (sentence splits "
                     f"differ from gold)"
                     + ("; alpha compares the joined trees" if plan.alpha else ""))
    part = _alpha_section(core, k) if plan.alpha else None
    if part is not None:
        notes.extend(part.notes)
    bd = _breakdown_section(core, k) if plan.breakdown else None
    sig: Optional[_SigPart] = None
    if plan.resample:
        g_unit, s_unit = _unit_index(units, len(core.gold.sentences), len(tb.sentences))
        sig = (units, _per_unit_ratios(al, g_unit, s_unit, len(units), res),
               part.sums if part is not None else None)
    sr = SystemResult(name, tb.name, _score_section(core, k), units,
                      alpha=part.stats if part is not None else None,
                      unit_ted=part.unit_ted if part is not None else None,
                      breakdowns=bd.breakdowns if bd is not None else None,
                      confusion=bd.confusion if bd is not None else None, conll18=res,
                      notes=notes,
                      prf=(note_written_alternatives(relation_prf(al), plan.tag_syntax)
                           if plan.prf else None),
                      enhanced=res.enhanced)
    return _SystemPart(sr, sig)


def _significance_section(core: CompareCore, parts: Sequence[_SystemPart]
                          ) -> Optional[SignificanceResult]:
    """The paired tests between every two systems (None unless asked for)."""
    plan = core.plan
    if not plan.significance:
        return None
    return _significance(core.gold, core.names, [p.sig for p in parts if p.sig is not None],
                         B=plan.test_replicates, R=plan.R, seed=plan.seed, level=plan.level)


def _interval_section(core: CompareCore, parts: Sequence[_SystemPart]
                      ) -> Dict[str, Dict[str, Optional[Tuple[float, float]]]]:
    """Per system, the percentile intervals of its resampled scores (none unless asked
    for), on the engine of the tests (docs/method.md §11.5)."""
    plan = core.plan
    if not plan.bootstrap:
        return {}
    cis = _significance(core.gold, core.names, [p.sig for p in parts if p.sig is not None],
                        B=plan.bootstrap, R=1, seed=plan.seed, level=plan.level).ci
    return {name: dict(cis.get(name, {})) for name in core.names}


def _omitted(gold_tb: Treebank) -> Tuple[Tuple[str, ...], Optional[str]]:
    """The scores left out (CLAS, MLAS, BLEX on relations that are not UD's) and the note."""
    odd = non_ud_labels(w.deprel for w in gold_tb.words)
    if not odd:
        return (), None
    # CLAS, MLAS and BLEX classify UD relations; on others they mean nothing
    left = ud_only_scores("compare")
    return left, (f"{', '.join(left[:-1])} and {left[-1]} are left out: they classify UD "
                  f"relations, and gold has others ({', '.join(odd[:8])}"
                  f"{' ...' if len(odd) > 8 else ''}); -v shows the scorer's table with them")


def _settings(gold_tb: Treebank, results: Sequence[SystemResult], plan: _Plan,
              credit: Optional[_LabelCredit]) -> Dict[str, str]:
    """How the numbers were computed (the signature)."""
    hdesc = credit.description if credit is not None else None
    settings = {"gold": Path(gold_tb.name).name,
                "labels": "LAS universal relation, LAS_full full DEPREL"
                          + (f", LAS_hier {hdesc}" if hdesc else ""),
                "alpha": ("off" if not plan.alpha else _d_e_setting(results, plan.seed)),
                "breakdown": "full DEPREL" if plan.full_labels else "universal relation"}
    if plan.tag_syntax != "plain" or plan.bdm or plan.wu_palmer:
        settings["tag_syntax"] = (plan.tag_syntax + (", bdm (GATE)" if plan.bdm else "")
                                  + (", wu-palmer" if plan.wu_palmer else ""))
    if plan.bootstrap:
        settings["bootstrap"] = (f"{plan.bootstrap} replicates, seed {plan.seed}, "
                                 f"level {plan.level:g}")
    if plan.significance:
        settings["significance"] = (f"B = {plan.test_replicates}, "
                                    f"R = {plan.R or plan.test_replicates}, seed {plan.seed}, "
                                    f"level {plan.level:g}")
    settings["version"] = __version__
    return settings


def _assemble(core: CompareCore, parts: Sequence[_SystemPart]) -> CompareResult:
    """The systems' sections with the corpus-level ones: significance, intervals, the
    scores left out, the notes and settings."""
    gold_tb, plan, credit = core.gold, core.plan, core.credit
    results = [p.result for p in parts]
    notes = list(credit.notes) if credit is not None else []
    sig = _significance_section(core, parts)
    if sig is not None:
        notes.extend(sig.notes)
    for sr in results:
        notes.extend(sr.notes)
    omitted, omitted_note = _omitted(gold_tb)
    if omitted_note:
        notes.append(omitted_note)
    if plan.bootstrap:
        cis = _interval_section(core, parts)
        results = [replace(sr, intervals=cis[sr.name]) for sr in results]
    return CompareResult(gold_tb.name, len(gold_tb.sentences), len(gold_tb.words), results,
                         credit.description if credit is not None else None, plan.full_labels,
                         sig, notes, plan.tag_syntax, plan.bdm, plan.wu_palmer,
                         omitted=omitted, settings=_settings(gold_tb, results, plan, credit))


# --------------------------------------------------------------------------- rendering


# --------------------------------------------------------------------------- CLI


