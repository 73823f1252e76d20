"""Annotation QA: where the disagreement is, who disagrees, and how sure we are.

Everything here is derived from one `synagree.agreement.agree.AgreementResult`
(its corpus, per-unit TED matrices and, for the bootstrap, the unit × unit δ²
sums that ``agree_corpus(bootstrap=B)`` keeps).

Per unit (`unit_diagnostics`)
    Mean pairwise TED, the annotator pairs that disagree, the words whose
    head or label differs, and the unit's *contribution to D_o* per variant:
    ``c_u = Σ_{i≠j in u} δ²(v_ui, v_uj) / (m_u − 1) / n`` -- so the
    contributions of all units sum to D_o exactly (α = 1 − Σ_u c_u / D_e).
    `worst_units` ranks units by contribution.

Per annotator and pair (`pair_matrix`, `leave_one_out`,
`annotator_distances`)
    Pairwise α on the units both annotated (D_e from those units' values
    only), LAS/UAS/LA and unit counts per pair; α with each annotator left
    out; each annotator's mean TED to the others.  A subset α that is not the
    whole corpus needs its own D_e, i.e. a TED pass over the subset's trees
    (none is needed with two annotators and no missing annotations: the pair
    is the corpus, and leaving one out leaves nothing to agree on).

Confidence intervals (`bootstrap_intervals`)
    Units (sentences) are resampled with replacement, seeded, in matrix form, on
    the one resampling engine (`synagree.stats.bootstrap`): D_e needs cross-unit
    sums, so the unit × unit matrix ``S[u, v] = Σ_{i in u, j in v} δ²`` is built
    once from the trees; a replicate with multiplicities w has
    ``do_sum = Σ w_u d_u``, ``n = Σ w_u m_u`` and ``de_sum = wᵀ S w``.  The
    categorical coefficients (`synagree.stats.categorical`) are recomputed from
    per-sentence sums with the *same* weights.  Intervals are percentile
    intervals.

Comparing rounds
    Not here: one engine for every command, `synagree.stats.regression`
    (``--baseline``, docs/method.md §18), paired over the matched sentences
    (``report --baseline`` through `synagree.agreement.report`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from synagree.agreement.influence import rank_by_influence, unit_influence
from synagree.base.jsonable import json_ready
from synagree.base.memory import check_layer_bootstrap
from synagree.distance.sums import UnitTrees, delta_squared, unit_sums
from synagree.io.conllu import DepSentence
from synagree.stats.alpha import VARIANTS, AlphaStats, tree_alpha
from synagree.stats.attachment import attachment_scores
from synagree.stats.bootstrap import (
    Interval,
    bootstrap,
    bootstrap_alpha,
    bootstrap_ratios,
    interval,
    resample_weights,
    small_sample_note,
)
from synagree.stats.categorical import (
    COEFFICIENTS,
    items_from_corpus,
    layer_agreement,
    layer_bootstrap,
    layer_note,
    not_categories,
)
from synagree.trees.flat import FlatTree, Vocabulary, build_tree

# --------------------------------------------------------------------------
# Pairable units, in the order of tree_alpha
# --------------------------------------------------------------------------

@dataclass
class _Pairable:
    positions: List[int]  # position in corpus.units of each pairable unit
    annotators: List[List[str]]  # annotators of each, in corpus.annotators order
    sentences: List[list]


def _pairable(result) -> _Pairable:
    """The pairable units as ``tree_alpha`` saw them (one pass over the units)."""
    corpus = _need_corpus(result)
    positions, names, sents = [], [], []
    for pos, unit in enumerate(corpus.units):
        anns = [a for a in corpus.annotators if a in unit.annotations]
        if len(anns) >= 2:
            positions.append(pos)
            names.append(anns)
            sents.append([unit.annotations[a] for a in anns])
    return _Pairable(positions, names, sents)


def pairable_units(result) -> _Pairable:
    """The pairable units (two or more annotations) of ``result``, as α saw them:
    positions in ``result.corpus.units``, their annotators (in corpus order) and
    sentences.

    Raises
    ------
    ValueError
        The result carries no corpus.
    """
    return _pairable(result)


class QaWork:
    """What several QA tables of one result share, each computed once: the subset α
    passes (with three annotators the pair matrix and leave-one-out ask for the same
    subsets), the trees, the unit × unit sums and the token-layer items.

    The caller passes it explicitly (`qa_summary` makes one for all its tables); a
    function given none computes what it needs itself.  Nothing is stored on the
    result, which stays as `synagree.agreement.agree.agree_corpus` made it.
    """

    def __init__(self) -> None:
        self.subset_alpha: Dict[tuple, Dict[str, AlphaStats]] = {}
        self.trees: Optional[List[Dict[str, FlatTree]]] = None
        self.unit_matrix: Optional[Any] = None
        self.items: Dict[str, Any] = {}


def _need_corpus(result):
    if getattr(result, "corpus", None) is None:
        raise ValueError("the AgreementResult carries no corpus (compute it with "
                         "synagree.agree / agree_corpus)")
    return result.corpus


def _variants(result, variants=None) -> List[str]:
    if variants is None:
        return [v for v in VARIANTS if v in result.alpha]
    return list(variants)


def available_variant(result, variant: str) -> str:
    """``variant`` if ``result`` has it, else the first variant it has.

    Parameters
    ----------
    result : AgreementResult
    variant : str
    """
    return variant if variant in result.alpha else next(iter(result.alpha))


def _unit_teds(result) -> List[np.ndarray]:
    ta = result.tree_alpha
    pr = _pairable(result)
    if ta is None or len(ta.unit_ted) != len(pr.positions):
        raise ValueError("the AgreementResult carries no per-unit TED matrices")
    return ta.unit_ted


def _trees(result, work: Optional[QaWork] = None) -> List[Dict[str, FlatTree]]:
    """Per pairable unit: each annotator's tree (built once per ``work``, one vocabulary)."""
    if work is not None and work.trees is not None:
        return work.trees
    pr = _pairable(result)
    if getattr(result, "trees", None):  # the trees agree_corpus built for alpha
        trees = [dict(zip(anns, result.trees[pos]))
                 for pos, anns in zip(pr.positions, pr.annotators)]
    else:
        vocab = Vocabulary()
        trees = [{a: build_tree(s, vocab) for a, s in zip(anns, sents)}
                 for anns, sents in zip(pr.annotators, pr.sentences)]
    if work is not None:
        work.trees = trees
    return trees


def _subset_alpha(result, groups: Sequence[Tuple[int, Sequence[str]]],
                  variants: Sequence[str], work: Optional[QaWork] = None
                  ) -> Dict[str, AlphaStats]:
    """α over the given (pairable unit k, annotators) groups.

    When the groups are exactly the values of ``result`` its α is reused;
    otherwise the subset's trees go through `synagree.stats.alpha.tree_alpha`
    (a TED pass over the subset only, D_e sampled if ``result``'s was), once
    per subset and ``work`` (with three annotators a leave-one-out subset is a pair).
    """
    pr = _pairable(result)
    groups = [(k, list(anns)) for k, anns in groups if len(anns) >= 2]
    if len(groups) == len(pr.positions) and all(
            anns == pr.annotators[k] for k, anns in groups):
        return {v: result.alpha[v] for v in variants}
    if not groups:
        return {v: AlphaStats(0.0, 0.0, 0, 0) for v in variants}
    key = (tuple(variants), tuple((k, tuple(anns)) for k, anns in groups))
    if work is not None and key in work.subset_alpha:
        return work.subset_alpha[key]
    trees = _trees(result, work)
    units = [[trees[k][a] for a in anns] for k, anns in groups]
    sampled = next((getattr(result.alpha[v], "sampled_pairs", None) for v in variants
                    if getattr(result.alpha[v], "sampled_pairs", None)), None)
    stats = tree_alpha(units, variants, sample_pairs=sampled,
                       executor=getattr(result, "executor", None)).stats
    if work is not None:
        work.subset_alpha[key] = stats
    return stats


# --------------------------------------------------------------------------
# Per-unit diagnostics
# --------------------------------------------------------------------------

@dataclass
class WordDiff:
    """A word whose head or label is not the same for every annotator.

    Parameters
    ----------
    index : int
        1-based word id.
    form : str
    heads : dict of str to int
        Annotator to head (0 = root).
    deprels : dict of str to str
        Annotator to DEPREL.
    """

    index: int  # 1-based word id
    form: str
    heads: Dict[str, int]
    deprels: Dict[str, str]

    @property
    def kind(self) -> str:
        """``head``, ``label`` or ``head+label``: what differs."""
        h = len(set(self.heads.values())) > 1
        lab = len(set(self.deprels.values())) > 1
        return "head+label" if h and lab else ("head" if h else "label")

    def describe(self) -> str:
        """One line for people: ``3 her: label obj/iobj``."""
        bits = []
        if len(set(self.heads.values())) > 1:
            bits.append("head " + "/".join(str(v) for v in self.heads.values()))
        if len(set(self.deprels.values())) > 1:
            bits.append("label " + "/".join(self.deprels.values()))
        return f"{self.index} {self.form}: " + ", ".join(bits)

    def to_dict(self) -> dict:
        """The word as a JSON-ready dict."""
        return {"index": self.index, "form": self.form, "kind": self.kind,
                "heads": dict(self.heads), "deprels": dict(self.deprels)}


@dataclass
class UnitDiag:
    """Diagnostics of one pairable unit (sentence); docs/method.md §12.1.

    Parameters
    ----------
    position : int
        Index in ``corpus.units``.
    uid : str
    sent_id : str or None
    text : str or None
        ``# text``, else the words of the first annotation.
    document : str
    annotators : list of str
    sizes : list of int
        |t| per annotation.
    ted : numpy.ndarray
        m × m TED matrix, annotators in order.
    mean_ted : float
        Mean over unordered annotator pairs.
    contribution : dict of str to float
        Per variant, the unit's share of D_o: Σ_{i≠j} δ² / (m_u − 1) / n; the
        contributions of all units sum to D_o.
    disagreeing_pairs : list of (str, str, float)
        ``(a, b, TED)`` with TED > 0.
    differing_words : list of WordDiff
    same_tokens : bool
        Every annotation has the same words (word count).
    alpha_without, influence : dict of str to float or None
        α without this unit and Δα (`synagree.agreement.influence`); empty when
        D_e was estimated from sampled pairs.
    """

    position: int  # index in corpus.units
    uid: str
    sent_id: Optional[str]
    text: Optional[str]  # "# text", else the words of the first annotation
    document: str
    annotators: List[str]
    sizes: List[int]  # |t| per annotation
    ted: np.ndarray  # m × m TED, annotators order
    mean_ted: float  # mean over unordered annotator pairs
    contribution: Dict[str, float]  # per variant; Σ over units = D_o
    disagreeing_pairs: List[Tuple[str, str, float]]  # (a, b, TED) with TED > 0
    differing_words: List[WordDiff]
    same_tokens: bool  # every annotation has the same words (word count)
    # α without this unit and Δα = that − α, per variant (synagree.agreement.influence);
    # empty when D_e was estimated from sampled pairs
    alpha_without: Dict[str, Optional[float]] = field(default_factory=dict)
    influence: Dict[str, Optional[float]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The unit's ``sent_id``, else its uid."""
        return self.sent_id or self.uid

    def to_dict(self) -> dict:
        """The diagnostics as a JSON-ready dict."""
        return {"position": self.position, "uid": self.uid, "sent_id": self.sent_id,
                "text": self.text, "document": self.document,
                "annotators": list(self.annotators), "sizes": list(self.sizes),
                "mean_ted": self.mean_ted, "contribution": dict(self.contribution),
                "ted": self.ted.tolist(),
                "disagreeing_pairs": [{"a": a, "b": b, "ted": t}
                                      for a, b, t in self.disagreeing_pairs],
                "differing_words": [w.to_dict() for w in self.differing_words],
                "same_tokens": self.same_tokens,
                "alpha_without": dict(self.alpha_without), "influence": dict(self.influence)}


def _differing_words(anns: Sequence[str], sents: Sequence) -> Tuple[List[WordDiff], bool]:
    if not all(isinstance(s, DepSentence) for s in sents):
        return [], len({s.size for s in sents}) == 1
    n = sents[0].n_words
    if any(s.n_words != n for s in sents):
        return [], False
    heads = np.stack([s.heads for s in sents])
    labs = [s.deprels for s in sents]
    diff_h = (heads != heads[0]).any(0)
    out = []
    for i in range(n):
        if diff_h[i] or any(lab[i] != labs[0][i] for lab in labs[1:]):
            out.append(WordDiff(i + 1, sents[0].forms[i],
                                {a: int(s.heads[i]) for a, s in zip(anns, sents)},
                                {a: s.deprels[i] for a, s in zip(anns, sents)}))
    return out, True


def unit_diagnostics(result, variants: Optional[Sequence[str]] = None) -> List[UnitDiag]:
    """Diagnostics of every pairable unit, in corpus order.

    ``contribution[v]`` is the unit's share of D_o in absolute terms:
    Σ_{i≠j} δ² / (m_u − 1) / n, so that the contributions sum to D_o
    (docs/method.md §12.1).

    Parameters
    ----------
    result : AgreementResult
        With its corpus and per-unit TED matrices.
    variants : sequence of str, optional
        Default: the variants of ``result``.

    Raises
    ------
    ValueError
        The result carries no corpus or no per-unit TED matrices.
    """
    variants = _variants(result, variants)
    corpus = _need_corpus(result)
    pr = _pairable(result)
    teds = _unit_teds(result)
    n = sum(len(a) for a in pr.annotators)
    out: List[UnitDiag] = []
    for k, pos in enumerate(pr.positions):
        unit = corpus.units[pos]
        anns = pr.annotators[k]
        sents = pr.sentences[k]
        m = len(anns)
        tm = np.asarray(teds[k], dtype=np.float64)
        sz = np.array([s.size for s in sents], dtype=np.float64)
        contrib = {v: float(delta_squared(tm, sz[:, None], sz[None, :], v).sum()) / (m - 1) / n
                   for v in variants}
        pairs = [(anns[i], anns[j], float(tm[i, j])) for i, j in combinations(range(m), 2)]
        words, same = _differing_words(anns, sents)
        text = unit.text
        if not text and isinstance(sents[0], DepSentence):
            text = " ".join(sents[0].forms)  # no "# text": the words of the first annotation
        out.append(UnitDiag(
            pos, unit.uid, unit.sent_id, text, unit.document, list(anns),
            [int(x) for x in sz], tm,
            float(np.mean([t for _, _, t in pairs])) if pairs else 0.0, contrib,
            [p for p in pairs if p[2] > 0], words, same))
    for d, x in zip(out, unit_influence(result, variants) or ()):  # from the unit sums
        d.alpha_without, d.influence = x.alpha_without, x.delta
    return out


WORST_BY = ("share", "influence")


def rank_units(diags: Sequence[UnitDiag], variant: str, by: str = "share") -> List[UnitDiag]:
    """Worst first: by contribution to D_o of ``variant``, or by influence.

    Ties go by mean TED, then corpus order; ``by="influence"``: by Δα when
    the unit is left out (largest rise first).

    Parameters
    ----------
    diags : sequence of UnitDiag
    variant : str
    by : {"share", "influence"}
    """
    if by == "influence":
        return rank_by_influence(diags, variant)
    return sorted(diags, key=lambda d: (-d.contribution.get(variant, 0.0), -d.mean_ted,
                                        d.position))


def worst_units(result, k: Optional[int] = 10, variant: str = "plain",
                by: str = "share") -> List[UnitDiag]:
    """The ``k`` units contributing most to D_o of ``variant`` (all if k is None).

    Units that contribute nothing (and show no TED) are left out; ties go by
    mean TED, then corpus order.  ``by="influence"`` ranks every unit by Δα,
    the change of α when the unit is left out (largest first; needs the exact
    D_e, see `synagree.agreement.influence`).

    Parameters
    ----------
    result : AgreementResult
    k : int, optional
    variant : str
    by : {"share", "influence"}

    Raises
    ------
    ValueError
        ``variant`` was not computed for this result.
    """
    diags = unit_diagnostics(result)
    if diags and variant not in diags[0].contribution:
        raise ValueError(f"variant {variant!r} was not computed for this result")
    if by == "influence" and diags and diags[0].influence:
        ranked = rank_units(diags, variant, "influence")
        return ranked if k is None else ranked[:k]
    cand = rank_units([d for d in diags if d.contribution.get(variant, 0.0) > 0
                       or d.mean_ted > 0], variant)
    return cand if k is None else cand[:k]


@dataclass(frozen=True)
class Worst:
    """The section ``--worst K`` adds: the units that cost most, ranked.

    Attributes
    ----------
    units : list of UnitDiag
    variant : str
        The α variant ranked by.
    by : {"share", "influence"}
        What ranked them (``influence`` falls back to ``share`` without unit
        influence).
    d_o : float or None
        D_o of ``variant`` (a unit's share is its contribution / D_o).
    """

    units: List[UnitDiag]
    variant: str
    by: str
    d_o: Optional[float]
    name = "worst"

    def metrics(self) -> Dict[str, Optional[float]]:
        """None at the top level: the list is a table."""
        return {}

    def details(self) -> List[dict]:
        """One record per unit (`UnitDiag.to_dict`), in rank order."""
        return [d.to_dict() for d in self.units]

    @property
    def ranked_by_influence(self) -> bool:
        """The units are ranked by Δα (unit influence was available)."""
        return self.by == "influence" and bool(self.units) and bool(self.units[0].influence)


@dataclass(frozen=True)
class AnnotatorInfluence:
    """α without each annotator (with three or more annotators; ``--worst``)."""

    items: List[dict]  # annotator_influence's records
    variants: List[str]
    name = "annotator_influence"

    def metrics(self) -> Dict[str, Optional[float]]:
        """None at the top level: the list is a table."""
        return {}

    def details(self) -> List[dict]:
        """One record per annotator."""
        return self.items


def worst_list(result, k: int, variant: str = "plain", by: str = "share") -> Worst:
    """The `Worst` section: the ``k`` worst units of ``variant`` (or the first variant)."""
    variant = available_variant(result, variant)
    return Worst(worst_units(result, k, variant, by), variant, by, result.alpha[variant].d_o)


def annotator_influence_section(result) -> Optional[AnnotatorInfluence]:
    """`AnnotatorInfluence` with three or more annotators, else None."""
    items = annotator_influence(result)
    return AnnotatorInfluence(items, _variants(result)) if items else None


# --------------------------------------------------------------------------
# Annotators and pairs
# --------------------------------------------------------------------------

@dataclass
class PairMatrix:
    """Annotator × annotator views (docs/method.md §12.2).

    Diagonals: ``units`` holds the units each annotator annotated; α, scores
    and TED on the diagonal are NaN.

    Parameters
    ----------
    annotators : list of str
    units : numpy.ndarray
        m × m: units both annotated.
    alpha : dict of str to numpy.ndarray
        Variant to m × m pairwise α (D_e from the pair's units only).
    las, uas, la : numpy.ndarray
        m × m fractions.
    words : numpy.ndarray
        Words compared for LAS/UAS/LA.
    ignored : numpy.ndarray
        Units left out of LAS/UAS/LA (word counts differ).
    mean_ted : numpy.ndarray
    """

    annotators: List[str]
    units: np.ndarray  # m × m units both annotated
    alpha: Dict[str, np.ndarray]  # variant -> m × m
    las: np.ndarray
    uas: np.ndarray
    la: np.ndarray
    words: np.ndarray  # words compared for LAS/UAS/LA
    ignored: np.ndarray  # units left out of LAS/UAS/LA (word counts differ)
    mean_ted: np.ndarray

    def to_dict(self) -> dict:
        """The matrices as JSON-ready nested lists (NaN as None)."""
        f = lambda a: [[None if (isinstance(x, float) and math.isnan(x)) else x  # noqa: E731
                        for x in row] for row in a.tolist()]
        return {"annotators": list(self.annotators), "units": self.units.tolist(),
                **{f"alpha_{v}": f(a) for v, a in self.alpha.items()},
                "LAS_full": f(self.las), "UAS": f(self.uas), "LA": f(self.la),
                "words": self.words.tolist(), "ignored": self.ignored.tolist(),
                "mean_ted": f(self.mean_ted)}


def pair_matrix(result, variants: Optional[Sequence[str]] = None,
                work: Optional[QaWork] = None) -> PairMatrix:
    """Pairwise α, LAS/UAS/LA, mean TED and unit counts for every annotator pair.

    Pairwise α is computed on the units both annotated, with D_e from those
    values only (a TED pass over the pair's trees unless the pair is the whole
    corpus), once per ``work``.

    Parameters
    ----------
    result : AgreementResult
    variants : sequence of str, optional
    work : QaWork, optional
        What the tables of one report share.
    """
    variants = _variants(result, variants)
    corpus = _need_corpus(result)
    pr = _pairable(result)
    teds = _unit_teds(result)
    names = list(corpus.annotators)
    m = len(names)
    col = {a: i for i, a in enumerate(names)}
    units = np.zeros((m, m), dtype=np.int64)
    nan = lambda: np.full((m, m), np.nan)  # noqa: E731
    alpha = {v: nan() for v in variants}
    las, uas, la, mted = nan(), nan(), nan(), nan()
    words = np.zeros((m, m))
    ignored = np.zeros((m, m), dtype=np.int64)
    for u in corpus.units:
        for a in u.annotations:
            units[col[a], col[a]] += 1
    is_dep = corpus.kind == "dependency"
    for a, b in combinations(names, 2):
        i, j = col[a], col[b]
        groups = []
        both = []  # the two annotations of each unit both annotated
        tsum = 0.0
        for k, anns in enumerate(pr.annotators):
            if a not in anns or b not in anns:
                continue
            ia, ib = anns.index(a), anns.index(b)
            groups.append((k, [a, b]))
            both.append([pr.sentences[k][ia], pr.sentences[k][ib]])
            tsum += float(teds[k][ia, ib])
        units[i, j] = units[j, i] = len(groups)
        stats = _subset_alpha(result, groups, variants, work)
        for v in variants:
            val = stats[v].alpha
            alpha[v][i, j] = alpha[v][j, i] = np.nan if val is None else val
        if is_dep:
            sc = attachment_scores(both, list(result.scores.correct))
            if sc.total:
                for arr, key_ in ((las, "LAS_full"), (uas, "UAS"), (la, "LA")):
                    arr[i, j] = arr[j, i] = sc.ratio(key_)
            words[i, j] = words[j, i] = sc.total
            ignored[i, j] = ignored[j, i] = sc.ignored
        if groups:
            mted[i, j] = mted[j, i] = tsum / len(groups)
    return PairMatrix(names, units, alpha, las, uas, la, words, ignored, mted)


@dataclass
class LeaveOneOut:
    """α without one annotator's annotations (docs/method.md §12.2).

    Parameters
    ----------
    annotator : str
    units : int
        Pairable units left without this annotator.
    alpha : dict of str to float or None
    change : dict of str to float or None
        α without − α with everyone.
    """
    annotator: str
    units: int  # pairable units left without this annotator
    alpha: Dict[str, Optional[float]]
    change: Dict[str, Optional[float]]  # α without − α with everyone

    def to_dict(self) -> dict:
        """The entry as a JSON-ready dict (``alpha_<v>``, ``change_<v>``)."""
        return {"annotator": self.annotator, "units": self.units,
                **{f"alpha_{v}": a for v, a in self.alpha.items()},
                **{f"change_{v}": c for v, c in self.change.items()}}


def leave_one_out(result, variants: Optional[Sequence[str]] = None,
                  work: Optional[QaWork] = None) -> List[LeaveOneOut]:
    """α with each annotator's annotations removed.

    Units keep their other values; units left with fewer than two drop out.
    With two annotators nothing is left to agree on, so α is undefined (None).

    Parameters
    ----------
    result : AgreementResult
    variants : sequence of str, optional
    work : QaWork, optional
        What the tables of one report share (the subset α passes).

    Returns
    -------
    list of LeaveOneOut
        In annotator order.
    """
    variants = _variants(result, variants)
    corpus = _need_corpus(result)
    pr = _pairable(result)
    out = []
    for drop in corpus.annotators:
        groups = [(k, [a for a in anns if a != drop]) for k, anns in enumerate(pr.annotators)]
        groups = [g for g in groups if len(g[1]) >= 2]
        stats = _subset_alpha(result, groups, variants, work)
        al, ch = {}, {}
        for v in variants:
            a = stats[v].alpha
            full = result.alpha[v].alpha
            al[v] = a
            ch[v] = None if a is None or full is None else a - full
        out.append(LeaveOneOut(drop, len(groups), al, ch))
    return out


@dataclass
class AnnotatorDistance:
    """One annotator's mean distance to the others' trees of the same sentences.

    Parameters
    ----------
    annotator : str
    comparisons : int
        (unit, other annotator) pairs.
    mean_ted : float
    mean_norm : float
        Mean TED / (|x| + |y|).
    units : int
        Units annotated.
    """
    annotator: str
    comparisons: int  # (unit, other annotator) pairs
    mean_ted: float
    mean_norm: float  # mean TED / (|x| + |y|)
    units: int  # units annotated

    def to_dict(self) -> dict:
        """The entry as a JSON-ready dict."""
        return {"annotator": self.annotator, "comparisons": self.comparisons,
                "mean_ted": self.mean_ted, "mean_norm": self.mean_norm, "units": self.units}


def annotator_distances(result) -> List[AnnotatorDistance]:
    """Mean TED (and TED/(|x|+|y|)) of each annotator's trees to the others' trees.

    Over the sentences both annotated (docs/method.md §12.2).

    Parameters
    ----------
    result : AgreementResult

    Returns
    -------
    list of AnnotatorDistance
        In annotator order; NaN means for an annotator with no comparison.
    """
    corpus = _need_corpus(result)
    pr = _pairable(result)
    teds = _unit_teds(result)
    acc = {a: [0, 0.0, 0.0] for a in corpus.annotators}
    for k, anns in enumerate(pr.annotators):
        sz = [s.size for s in pr.sentences[k]]
        for i, a in enumerate(anns):
            for j in range(len(anns)):
                if i != j:
                    t = float(teds[k][i, j])
                    acc[a][0] += 1
                    acc[a][1] += t
                    acc[a][2] += t / (sz[i] + sz[j])
    nunits = {a: sum(1 for u in corpus.units if a in u.annotations) for a in corpus.annotators}
    return [AnnotatorDistance(a, int(c), s / c if c else float("nan"),
                              sn / c if c else float("nan"), nunits[a])
            for a, (c, s, sn) in acc.items()]  # c: an int count in a list typed as floats


# --------------------------------------------------------------------------
# Bootstrap (α and scores from synagree.stats.bootstrap, plus categorical coefficients)
# --------------------------------------------------------------------------

def _items(result, layer: str, work: Optional[QaWork] = None):
    """The token-layer items of ``result``'s corpus (once per layer and ``work``)."""
    if work is not None and layer in work.items:
        return work.items[layer]
    items = items_from_corpus(_need_corpus(result), layer)
    if work is not None:
        work.items[layer] = items
    return items


def unit_matrix(result, work: Optional[QaWork] = None):
    """The unit × unit δ² sums behind ``result``.

    As ``agree_corpus(bootstrap=B)`` keeps them
    (``tree_alpha(keep_unit_matrix=True)``); computed (one TED pass, once per
    ``work``) if absent.

    Parameters
    ----------
    result : AgreementResult
    work : QaWork, optional

    Returns
    -------
    UnitSums
        With ``S``.
    """
    ta = result.tree_alpha
    sums = getattr(ta, "sums", None) if ta is not None else None
    if sums is not None and sums.S is not None:
        return sums
    if work is not None and work.unit_matrix is not None:
        return work.unit_matrix
    units = [list(t.values()) for t in _trees(result, work)]
    sums = unit_sums(UnitTrees.build(units), want_s=True,
                     executor=getattr(result, "executor", None))
    if work is not None:
        work.unit_matrix = sums
    return sums


@dataclass
class Bootstrap:
    """Bootstrap intervals of every QA metric, from the same resamples of units.

    Parameters
    ----------
    replicates : int
    seed : int
    confidence : float
        A fraction (0.95 = 95 %).
    intervals : dict of str to Interval
        Metric name to its interval.
    units : int
        Units resampled.
    """
    replicates: int
    seed: int
    confidence: float
    intervals: Dict[str, Interval]  # metric name -> interval
    units: int

    def to_dict(self, with_replicates: bool = True) -> dict:
        """The intervals as a JSON-ready dict."""
        small = small_sample_note(self.units, "the bootstrap intervals")
        return {"replicates": self.replicates, "seed": self.seed,
                "confidence": self.confidence, "units": self.units,
                "method": "percentile bootstrap, resampling sentences with replacement",
                **({"small_sample": small} if small else {}),
                "metrics": {k: v.to_dict(with_replicates) for k, v in self.intervals.items()}}


def bootstrap_intervals(result, B: int = 1000, seed: int = 0, confidence: float = 0.95,
                        categorical_layers: Sequence[str] = (), variants=None,
                        work: Optional[QaWork] = None) -> Bootstrap:
    """Percentile CIs for α, LAS/UAS/LA (or Jaccard) and categorical coefficients.

    All from the same resamples of the pairable units, on the one resampling
    engine (`synagree.stats.bootstrap.bootstrap`): the weights of
    `synagree.stats.bootstrap.resample_weights` with this ``seed``, so α and LAS
    replicates equal ``agree_corpus(bootstrap=B, seed=seed)``'s
    (docs/method.md §5.4).  A token layer's units are a subset of the pairable
    units: its weights are their columns of the same draw.  Categorical
    coefficients of ``categorical_layers`` are named
    ``{layer}_{observed|cohen_kappa|scott_pi|alpha_nominal}``.

    Parameters
    ----------
    result : AgreementResult
    B : int
        Replicates.
    seed : int
    confidence : float
        A fraction.
    categorical_layers : sequence of str
        Token layers (`synagree.stats.categorical.LAYERS`); dependency only.
    variants : sequence of str, optional
    work : QaWork, optional
        What the tables of one report share (the unit × unit sums, the items).

    Raises
    ------
    ValueError
        ``B < 1``.
    """
    if B < 1:
        raise ValueError("B must be at least 1")
    variants = _variants(result, variants)
    pr = _pairable(result)
    U = len(pr.positions)
    if U == 0:
        return Bootstrap(B, seed, confidence, {}, 0)
    W = resample_weights(U, B, seed)
    correct, total = result.scores.unit_arrays()
    ratios = bool(correct) and total.shape[0] == U
    est: Dict[str, Optional[float]] = {f"alpha_{v}": result.alpha[v].alpha for v in variants}
    if ratios:
        est.update({m: result.scores.ratio(m) for m in correct})
    core = getattr(result, "bootstrap", None)
    if (core is not None and core.seed == seed
            and all(len(core.replicates.get(name, ())) == B for name in est)):
        # agree_corpus(bootstrap=B, seed=seed) drew these very resamples already
        reps = {name: core.replicates[name] for name in est}
    else:
        sums = unit_matrix(result, work)
        # chunks keep the B × U × U work of α in memory-sized pieces
        reps = bootstrap(lambda w: bootstrap_alpha(sums, w, variants), U, weights=W,
                         chunk=256).replicates
        if ratios:
            reps.update(bootstrap(lambda w: bootstrap_ratios(correct, total, w), U,
                                  weights=W).replicates)
    intervals = {name: interval(e, reps[name], confidence) for name, e in est.items()}
    if categorical_layers and result.kind == "dependency":
        pos_to_k = {pos: k for k, pos in enumerate(pr.positions)}
        datas = {layer: _items(result, layer, work) for layer in categorical_layers}
        check_layer_bootstrap([(layer, len(d.units), d.n_categories, len(d.annotators))
                               for layer, d in datas.items()], B)  # before the work
        for layer, data in datas.items():
            cols = np.array([pos_to_k[p] for p in data.positions], dtype=np.int64)
            lb = layer_bootstrap(data, level=confidence, weights=W[:, cols])
            intervals.update({f"{layer}_{name}": lb[name] for name in COEFFICIENTS})
    return Bootstrap(B, seed, confidence, intervals, U)


def qa_summary(result, worst: Optional[int] = 20, variant: str = "plain",
               bootstrap_replicates: int = 1000, seed: int = 0, confidence: float = 0.95,
               layers: Sequence[str] = (), with_replicates: bool = False,
               skip_id_like: bool = False) -> dict:
    """Every QA table as one JSON-ready dict (what ``synagree report --output json`` writes).

    Parameters
    ----------
    result : AgreementResult
    worst : int, optional
        Units in the worst-units table (None: all).
    variant : str
        The variant the worst units are ranked by (falls back to one the result
        has).
    bootstrap_replicates : int
        0: no bootstrap.
    seed : int
    confidence : float
    layers : sequence of str
        Token layers for categorical agreement (dependency only).
    with_replicates : bool
        Keep the bootstrap replicates in the dict.
    skip_id_like : bool
        Leave out the layers whose values look like ids or numbers
        (`synagree.stats.categorical.id_like`); either way each such layer
        gets a line in ``notes`` (and ``skipped_layers`` when left out).

    Returns
    -------
    dict
        With ``notes`` (a list, possibly empty): what the tables leave out or
        should be read with.
    """
    variant = available_variant(result, variant)
    variants = _variants(result)
    work = QaWork()  # shared by the tables below, dropped with them
    d: dict = {"summary": json_ready(result.to_dict())}
    diags = worst_units(result, worst, variant)
    d["worst"] = {"variant": variant, "d_o": result.alpha[variant].d_o,
                  "units": [x.to_dict() for x in diags]}
    d["pairs"] = pair_matrix(result, variants, work).to_dict()
    d["leave_one_out"] = [x.to_dict() for x in leave_one_out(result, variants, work)]
    d["annotator_distances"] = [x.to_dict() for x in annotator_distances(result)]
    layers = list(layers) if result.kind == "dependency" else []
    notes: List[str] = []
    if len(result.annotators) == 2:  # absent, never zero: why leave_one_out is null
        notes.append("two annotators: their pair is the corpus, so the pair matrices, "
                     "leave-one-out alpha and per-annotator distances are left out")
    skipped: Dict[str, str] = {}
    for layer in list(layers):
        note = layer_note(_items(result, layer, work), keep=not skip_id_like)
        if note is None:
            continue
        notes.append(note)
        if skip_id_like:
            layers.remove(layer)
            skipped[layer] = str(not_categories(_items(result, layer, work)))
    if skipped:
        d["skipped_layers"] = skipped
    if layers:
        d["categorical"] = {layer: layer_agreement(_items(result, layer, work)).to_dict(
            confusion=(layer == "deprel")) for layer in layers}
    bs = None
    if bootstrap_replicates:
        bs = bootstrap_intervals(result, bootstrap_replicates, seed, confidence, layers,
                                 variants, work)
        d["bootstrap"] = bs.to_dict(with_replicates)
        small = d["bootstrap"].get("small_sample")
        if small and small not in result.notes:  # (agree_corpus's bootstrap says it too)
            notes.append(small)
    d["notes"] = notes
    return json_ready(d)


def annotator_influence(result, variants: Optional[Sequence[str]] = None) -> List[dict]:
    """α without each annotator (recomputed, see the module docstring).

    Only for results with at least three annotators (with two, leaving one out
    leaves nothing to agree on); otherwise an empty list.

    Parameters
    ----------
    result : AgreementResult
    variants : sequence of str, optional

    Returns
    -------
    list of dict
        ``{"annotator", "units", "alpha_without": {v: α}, "influence": {v: Δα}}``
        per annotator, in annotator order.
    """
    if result.corpus is None or len(result.corpus.annotators) < 3:
        return []

    variants = [v for v in (variants or VARIANTS) if v in result.alpha]
    return [{"annotator": x.annotator, "units": x.units,
             "alpha_without": dict(x.alpha), "influence": dict(x.change)}
            for x in leave_one_out(result, variants)]
