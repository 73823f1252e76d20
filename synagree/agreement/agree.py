"""The main computation: read → trees → distances → statistics → sections.

`agree` is what ``synagree agree`` runs.  It returns a finished
`AgreementResult`: the core (α per variant and the word scores, as counts,
not only ratios) and one typed section per requested option (hierarchical
credit, unlabelled α, head direction, breakdowns, the worst sentences, a
baseline comparison).  Rendering lives in `synagree.render`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union, cast

from synagree._version import __version__
from synagree.agreement.baseline import PerUnit, agree_baseline, unit_data
from synagree.agreement.bias import Bias, bias_section
from synagree.agreement.breakdown import DEFAULT_LENGTH_EDGES, AgreementBreakdown
from synagree.agreement.breakdown import breakdown as breakdown_of
from synagree.agreement.caveats import Direction, TedZero, direction_scores, ted_zero
from synagree.agreement.core import Details, Section, Value, alpha_counts
from synagree.agreement.drift import (
    DRIFT_REPLICATES,
    Drift,
    Grouping,
    drift_section,
    parse_by,
)
from synagree.agreement.extra_file import read_with_extra
from synagree.agreement.gwet_layers import GwetOptions
from synagree.agreement.hierarchy import HierarchyScores, hierarchy_scores
from synagree.agreement.human_band import BandOptions, HumanBand, human_band
from synagree.agreement.influence import INFLUENCE_UNAVAILABLE, unit_influence
from synagree.agreement.plan import Plan, PlanOptions, plan_section
from synagree.agreement.preannotation import (
    Preannotation,
    PreannotationOptions,
    preannotation_scores,
)
from synagree.agreement.qa import (
    AnnotatorInfluence,
    Worst,
    annotator_influence_section,
    worst_list,
)
from synagree.agreement.unlabelled import Unlabelled, unlabelled_scores
from synagree.agreement.where import Where, check_queries, where_section
from synagree.base.command_options import AgreeOptions, ReadOptions
from synagree.base.frames import Frames, metric_rows
from synagree.base.memory import DEFAULT_MAX_MEMORY, check_resampling, limited
from synagree.base.option_specs import shown
from synagree.base.problems import InputError, Problem
from synagree.base.sealed import seal
from synagree.distance.dask_exec import Executor
from synagree.io.brackets import PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus, from_dirs, from_files
from synagree.io.sources import Source
from synagree.stats.alpha import VARIANTS, AlphaStats, TreeAlpha, tree_alpha
from synagree.stats.attachment import Counts, attachment_scores, jaccard_scores, non_ud_labels
from synagree.stats.baseline_options import BaselineOptions
from synagree.stats.bootstrap import (
    BootstrapResult,
    alpha_bootstrap,
    check_replicates,
    small_sample_note,
)
from synagree.stats.hierarchical import HierarchyOptions
from synagree.stats.hierarchy_input import HierarchySpec
from synagree.stats.regression import BaselineComparison, load_baseline
from synagree.trees.flat import FlatTree, Vocabulary, build_trees
from synagree.trees.query import Query

__all__ = ["AgreementResult", "agree", "agree_corpus", "load_corpus", "result_settings"]


@dataclass(frozen=True)
class AgreementResult(Frames):
    """Agreement over a corpus: α per variant, the word scores, and the options' sections.

    Returned finished by `agree` and `agree_corpus`.  Ratios are fractions in
    [0, 1] (not percent); α is kept as sums (`AlphaStats`) so that it can be
    merged and checked (docs/method.md §5).  Metric names are those of
    `synagree.base.metrics`.

    Attributes
    ----------
    kind : str
        ``"dependency"`` or ``"phrase"``.
    annotators : list of str
        Annotator names, in corpus order.
    units_total, units, annotations : int
        All units read; pairable units (two or more annotations); pairable
        values n.
    alpha : dict of str to AlphaStats
        α per variant (``"plain"``, ``"diff"``, ``"norm"``; docs/method.md §4).
    scores : Counts
        ``LAS`` (UD relations only), ``LAS_full``, ``UAS``, ``LA`` (dependency)
        or ``jaccard`` (phrase), as counts (docs/method.md §6).
    multi_root, cycle_sentences, distinct_trees : int
        Annotations with several root words; with words on a head cycle
        (docs/method.md §2.4); distinct trees among the pairable values.
    warnings : list of Problem
    notes : list of str
        What a reader of the result must know (degenerate α, sampling, ...).
    settings : dict of str to str
        How the numbers were computed; `signature` joins them.
    bootstrap : BootstrapResult or None
        The replicates behind the intervals (``bootstrap=B``).
    ted_zero : TedZero or None
        Pairs with TED 0 (every dependency result).
    hierarchy : HierarchyScores or None
        ``hierarchy=...``.
    unlabelled : Unlabelled or None
        ``unlabelled=True``.
    direction : Direction or None
        ``direction=True``.
    breakdown : AgreementBreakdown or None
        ``breakdown=True``.
    bias : Bias or None
        ``bias=True``: marginal homogeneity per annotator pair (docs/method.md §25).
    drift : Drift or None
        ``by=...``: α per batch with control bands (docs/method.md §26).
    where : Where or None
        ``where=[...]``: α over each query (docs/method.md §27).
    worst : Worst or None
        ``worst=K``; with three or more annotators also ``annotator_influence``.
    annotator_influence : AnnotatorInfluence or None
    baseline : BaselineComparison or None
        ``baseline=...``.
    per_unit : PerUnit or None
        ``per_unit=True`` (always with ``baseline``).
    unit_changes : Details or None
        The joined and edited units (docs/method.md §1.7–1.8), when there are any.
    human_band : HumanBand or None
        ``band=...``: a parser's agreement beside the humans' (docs/method.md §28).
    preannotation : Preannotation or None
        ``preannotation=...``: kept and changed arcs (docs/method.md §29).
    plan : Plan or None
        ``plan=...``: units needed for an interval of a given width (docs/method.md §30).
    tree_alpha : TreeAlpha or None
        The distances behind α (per-unit TED matrices, per-unit sums).
    corpus : Corpus or None
    trees : list of list of FlatTree
        ``trees[k][i]``: the i-th annotation of ``corpus.units[k]`` in
        annotator order; label ids from ``vocab``.
    vocab : Vocabulary or None
    executor : callable or None
        Where the TED passes of the result and its sections run (a
        `synagree.distance.dask_exec.DaskExecutor`; None: here).  Later passes
        (the report's) use it too, so they belong inside its ``with`` block.

    Examples
    --------
    >>> s = DepSentence.from_heads
    >>> corpus = Corpus.from_annotations(
    ...     {"a": [s([2, 0, 2], "nsubj root obj"), s([0, 1, 2], "root dep dep")],
    ...      "b": [s([2, 0, 2], "nsubj root iobj"), s([0, 1, 2], "root dep dep")]})
    >>> res = agree_corpus(corpus)
    >>> res.units, res.annotations, res.distinct_trees
    (2, 4, 3)
    >>> round(res.alpha_value("plain"), 4), round(res.scores.ratio("LAS_full"), 4)
    (0.9189, 0.8333)
    >>> d = res.to_dict()
    >>> d["kind"], d["units"], round(d["alpha_plain"], 4), round(d["LAS"], 4)
    ('dependency', 2, 0.9189, 0.8333)
    """

    kind: str  # "dependency" | "phrase"
    annotators: List[str]
    units_total: int  # all units read
    units: int  # pairable units (≥ 2 annotations)
    annotations: int  # pairable values n
    alpha: Dict[str, AlphaStats]
    scores: Counts  # LAS/LAS_full/UAS/LA or jaccard
    multi_root: int  # annotations with more than one root word
    cycle_sentences: int  # annotations with words on a head cycle
    distinct_trees: int
    warnings: List[Problem] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    settings: Dict[str, str] = field(default_factory=dict)
    bootstrap: Optional[BootstrapResult] = None
    ted_zero: Optional[TedZero] = None
    hierarchy: Optional[HierarchyScores] = None
    unlabelled: Optional[Unlabelled] = None
    direction: Optional[Direction] = None
    breakdown: Optional[AgreementBreakdown] = None
    bias: Optional[Bias] = None
    drift: Optional[Drift] = None
    where: Optional[Where] = None
    worst: Optional[Worst] = None
    annotator_influence: Optional[AnnotatorInfluence] = None
    baseline: Optional[BaselineComparison] = None
    per_unit: Optional[PerUnit] = None
    unit_changes: Optional[Details] = None
    human_band: Optional[HumanBand] = None
    preannotation: Optional[Preannotation] = None
    plan: Optional[Plan] = None
    tree_alpha: Optional[TreeAlpha] = None
    corpus: Optional[Corpus] = None
    trees: List[List[FlatTree]] = field(default_factory=list)
    vocab: Optional[Vocabulary] = None
    executor: Optional[Executor] = field(default=None, repr=False, compare=False)

    def alpha_value(self, variant: str) -> Optional[float]:
        """α of ``variant`` (``"plain"``, ``"diff"``, ``"norm"``); None if undefined."""
        st = self.alpha.get(variant)
        return None if st is None else st.alpha

    @property
    def score_names(self) -> List[str]:
        """The word scores of this result (registered keys), e.g. ``["LAS", "LAS_full",
        "UAS", "LA"]`` or ``["jaccard"]``."""
        return list(self.scores.correct)

    def sections(self) -> List[Section]:
        """The options' sections present, in output order."""
        parts = (self.ted_zero, self.hierarchy, self.unlabelled, self.direction,
                 self.breakdown, self.bias, self.drift, self.where, self.worst,
                 self.annotator_influence, self.baseline, self.per_unit, self.unit_changes,
                 self.human_band, self.preannotation, self.plan)
        return [cast(Section, x) for x in parts if x is not None]

    def intervals(self) -> Dict[str, Optional[Tuple[float, float]]]:
        """Bootstrap percentile intervals by metric key (empty without ``bootstrap``)."""
        if self.bootstrap is None:
            return {}
        return {name: self.bootstrap.ci(name) for name in self.bootstrap.replicates}

    def metrics(self) -> Dict[str, Value]:
        """Every top-level number: α, the word scores, their intervals and standard
        errors, and the sections' metrics (registered keys, fractions or counts)."""
        out: Dict[str, Value] = {}
        for v in VARIANTS:
            if v in self.alpha:
                out[f"alpha_{v}"] = self.alpha[v].alpha
        for m in self.score_names:
            out[m] = self.scores.ratio(m)
        for v in VARIANTS:
            st = self.alpha.get(v)
            if st is not None and st.alpha_se is not None:
                out[f"alpha_{v}_se"] = st.alpha_se
        for s in self.sections():
            out.update(s.metrics())
        return out

    def signature(self) -> str:
        """The settings as one line, ``key:value|key:value|...`` (like sacrebleu's):
        two published numbers are comparable when their signatures are equal."""
        return "|".join(f"{k}:{v}" for k, v in self.settings.items())

    def small_sample(self) -> Optional[str]:
        """The "small sample" note of the bootstrap intervals (under 30 units), or None."""
        if self.bootstrap is None:
            return None
        return small_sample_note(self.units, "the bootstrap intervals")

    def frame_rows(self) -> List[Dict[str, Any]]:
        """One row per metric of the JSON output, with its interval."""
        return metric_rows(self.to_dict())

    def to_dict(self) -> Dict[str, Any]:
        """The result as JSON-ready data with stable keys (docs/output.md).

        Returns
        -------
        dict
            Every key of `metrics` at the top level, ``<key>_ci`` intervals,
            counts of units and annotations, the sums behind every α under
            ``counts``, each section's details under ``details``, ``notes``
            and ``warnings``.
        """
        d: Dict[str, Any] = {"synagree_version": __version__, "kind": self.kind,
                   "settings": dict(self.settings), "signature": self.signature()}
        if self.corpus is not None:
            d.update(self.corpus.settings())
            d.update(self.corpus.unit_counts())  # joined_units, edited_units (§1.7–1.8)
        d.update(self.metrics())
        for name, interval in self.intervals().items():
            d[f"{name}_ci"] = None if interval is None else list(interval)
        d.update({
            "units": self.units,
            "units_total": self.units_total,
            "annotations": self.annotations,
            "annotators": len(self.annotators),
            "annotator_names": list(self.annotators),
            "ignored": self.scores.ignored,
            "multi_root": self.multi_root,
            "cycle_sentences": self.cycle_sentences,
            "distinct_trees": self.distinct_trees,
            "counts": {
                **{f"alpha_{v}": alpha_counts(s) for v, s in self.alpha.items()},
                "scores": {"correct": dict(self.scores.correct), "total": self.scores.total,
                           "units": self.scores.units},
            },
        })
        details: Dict[str, Any] = {}
        if self.bootstrap is not None:
            small = self.small_sample()
            details["bootstrap"] = {"replicates": self.bootstrap.size,
                                    "seed": self.bootstrap.seed, "level": self.bootstrap.level,
                                    "units": self.units,
                                    # every format prints it (CSV: ci_note, LaTeX: a comment)
                                    **({"small_sample": small} if small else {})}
        for s in self.sections():
            details[s.name] = s.details()
        d.update({"details": details, "notes": list(self.notes),
                  "warnings": [p.as_dict() for p in self.warnings]})
        return d


def load_corpus(paths: Sequence[Source] = (), dirs: Sequence["str | os.PathLike[str]"] = (),
                fmt: str = "auto", phrase_style: str = "auto", strict: bool = False,
                allow_missing: bool = False, names: Optional[Sequence[str]] = None,
                check_text: bool = True, match: str = "auto") -> Corpus:
    """Read annotations from files (one per annotator) or annotator directories.

    Units are matched and checked as `synagree.io.corpus` describes
    (docs/method.md §1.4–1.5, §1.7–1.9): as ``match`` says (by default by
    ``# sent_id`` when every sentence carries one, else by position, joining
    sentences that annotators split differently); every unit's annotations
    must be of the same text, or of one text with local edits, unless
    ``check_text`` is false.

    Parameters
    ----------
    paths : sequence of str, path-like or file-like
        One annotation file per annotator (two or more), or an open text or
        binary stream (compressed or not) for any of them, read once
        (`synagree.io.corpus.from_files`); ignored when ``dirs`` is given.
    dirs : sequence of str or path-like
        One directory per annotator, named after the annotator; files are
        matched by name into documents.
    fmt : str
        ``auto`` or a format of the reader registry (`synagree.io.registry`,
        docs/formats.md); ``auto``: each file sniffed.
        Input format; ``"auto"`` decides per file (docs/method.md §1.2).
    phrase_style : {"auto", "penn", "delex"}
        How bare strings of bracketed trees are read (docs/method.md §1.6).
    strict : bool
        Turn warnings (head cycles, missing labels) into errors.
    allow_missing : bool
        Accept sentences (or, with ``dirs``, documents) that some annotators
        lack; needs ``# sent_id`` when matching files.
    names : sequence of str, optional
        One annotator name per file (files only); None: the file stems, and
        ``ann1``, ``ann2``, ... for streams without a real ``.name``.
    check_text : bool
        Check that the annotations of each unit are of the same text.
    match : {"auto", "sent_id", "position", "text"}
        How sentences are matched into units (`synagree.io.matching`).

    Returns
    -------
    Corpus
        Units × annotators, with how they were matched.

    Raises
    ------
    InputError
        Bad or inconsistent input (every problem of every file gathered first),
        or ``names`` given together with ``dirs``.

    See Also
    --------
    synagree.io.corpus.from_files, synagree.io.corpus.from_dirs, agree_corpus

    Examples
    --------
    >>> import os, shutil, tempfile
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence, write_conllu
    >>> def s(rels):
    ...     return DepSentence("-", 0, 1, ["I", "saw", "her"], np.array([2, 0, 2]), rels,
    ...                        metadata={"sent_id": "s1"})
    >>> tmp = tempfile.mkdtemp()
    >>> a, b = os.path.join(tmp, "ann1.conllu"), os.path.join(tmp, "ann2.conllu")
    >>> write_conllu(a, [s(["nsubj", "root", "obj"])])
    >>> write_conllu(b, [s(["nsubj", "root", "iobj"])])
    >>> corpus = load_corpus([a, b])
    >>> corpus.annotators, corpus.matching, len(corpus.units)
    (['ann1', 'ann2'], 'sent_id', 1)
    >>> shutil.rmtree(tmp)
    """
    opts = ReadOptions.build(None, dict(fmt=fmt, phrase_style=phrase_style, strict=strict,
                                        allow_missing=allow_missing, names=names,
                                        check_text=check_text, match=match), "load_corpus()")
    fmt, phrase_style, strict, allow_missing, names, check_text, match = (
        opts.fmt, opts.phrase_style, opts.strict, opts.allow_missing, opts.names,
        opts.check_text, opts.match)
    if isinstance(dirs, (str, os.PathLike)) or dirs is None:
        raise TypeError(f"load_corpus(): dirs must be a sequence of directories (one per "
                        f"annotator), not {type(dirs).__name__} {shown(dirs)}")
    if dirs:
        if names:
            raise InputError.single("<command line>", None, "usage",
                                    "--names goes with files; with --dirs the directory "
                                    "names are the annotator names")
        return from_dirs(dirs, fmt=fmt, phrase_style=phrase_style, strict=strict,
                         allow_missing=allow_missing, check_text=check_text, match=match)
    return from_files(paths, names=names, fmt=fmt, phrase_style=phrase_style, strict=strict,
                      allow_missing=allow_missing, check_text=check_text, match=match)


def agree_corpus(corpus: Corpus, variants: Optional[Sequence[str]] = None,
                 options: Optional[AgreeOptions] = None, **overrides: Any) -> AgreementResult:
    """α (requested variants), the word scores and every requested section of a corpus.

    Parameters
    ----------
    corpus : Corpus
        Units × annotators, e.g. from `load_corpus`.
    variants : sequence of str, optional
        Any of ``"plain"``, ``"diff"``, ``"norm"`` (docs/method.md §4); None:
        ``options.variants`` (all three by default).
    options : AgreeOptions, optional
        Every option (`synagree.base.command_options.AgreeOptions`; its
        reading fields are not used here).
    **overrides
        Any field of `AgreeOptions` by name, as `_agree_corpus` describes them.

    Returns
    -------
    AgreementResult

    Raises
    ------
    TypeError, ValueError
        An option of the wrong type or outside its range (the message names
        it, the value and what is allowed).
    InputError
        See `_agree_corpus`.

    Examples
    --------
    >>> s = DepSentence.from_heads
    >>> corpus = Corpus.from_annotations({"a": [s([2, 0], "nsubj root")],
    ...                                   "b": [s([2, 0], "obj root")]})
    >>> agree_corpus(corpus, ["plain"]).scores.ratio("LAS")
    0.5
    """
    if not isinstance(corpus, Corpus):
        raise TypeError(f"agree_corpus(): corpus must be a Corpus (from load_corpus), not "
                        f"{type(corpus).__name__} {shown(corpus)}")
    if variants is not None:
        overrides = {**overrides, "variants": variants}
    opts = AgreeOptions.build(options, overrides, "agree_corpus()")
    return seal(_agree_corpus(corpus, **_computing(opts, (), ())))


def _computing(opts: AgreeOptions, paths: Sequence[Source],
               dirs: Sequence["str | os.PathLike[str]"]) -> Dict[str, Any]:
    """The keywords of `_agree_corpus` from ``opts``: a path given for ``baseline`` or
    ``preannotation`` read (with ``paths``/``dirs``, the annotators' files) into its
    options object, ``by`` parsed."""
    kw = opts.compute_kwargs()
    if isinstance(opts.baseline, (str, os.PathLike)):
        kw["baseline"] = BaselineOptions(load_baseline(Path(opts.baseline), "agree",
                                                       max_memory=opts.max_memory),
                                         str(opts.baseline), seed=opts.seed, level=opts.level)
    if isinstance(opts.preannotation, (str, os.PathLike)):
        if not paths and not dirs:
            raise ValueError("agree_corpus(): preannotation as a path needs the annotators' "
                             "files to match it with: use agree(paths, preannotation=...) or "
                             "give a PreannotationOptions")
        kw["preannotation"] = PreannotationOptions(read_with_extra(
            cast(Sequence[str], paths), dirs, opts.preannotation, role="pre-annotation",
            option="preannotation",
            **opts.read_kwargs()))
    if isinstance(opts.by, str):
        try:
            kw["by"] = parse_by(opts.by)
        except ValueError as exc:
            raise ValueError(f"agree(): by: {exc}") from None
    return kw


def _gwet_options(coefficient: Optional[str], ac2_weights: Optional[str], breakdown: bool,
                  hierarchy: Union[None, HierarchySpec, HierarchyOptions],
                  level: float) -> Optional[GwetOptions]:
    """The breakdown's Gwet coefficient (docs/method.md §21.6), or None; usage errors."""
    if coefficient is None:
        if ac2_weights is not None:
            raise InputError.single("<command line>", None, "usage",
                                    "--ac2-weights gives the weights of --coefficient ac2, "
                                    "which was not asked for")
        return None
    if not breakdown:
        raise InputError.single("<command line>", None, "usage",
                                f"--coefficient {coefficient}: agree reports Gwet's "
                                f"coefficient per label layer in the breakdown: add "
                                f"--breakdown")
    spec = None
    if coefficient == "ac2" and ac2_weights is None and hierarchy is not None:
        spec = hierarchy.spec if isinstance(hierarchy, HierarchyOptions) else hierarchy
    return GwetOptions(coefficient, ac2_weights, spec, level)


def _agree_corpus(corpus: Corpus, variants: Sequence[str] = VARIANTS, *,
                 hierarchy: Union[None, HierarchySpec, HierarchyOptions] = None,
                 unlabelled: bool = False, direction: bool = False,
                 breakdown: bool = False, length_bins: Sequence[int] = DEFAULT_LENGTH_EDGES,
                 bias: bool = False, by: Union[None, str, Grouping] = None,
                 where: Sequence[Union[str, Query]] = (),
                 worst: int = 0, worst_by: str = "share", variant: str = "plain",
                 bootstrap: int = 0, seed: int = 0, level: float = 0.95,
                 sample_pairs: Optional[int] = None, exact: bool = False,
                 baseline: Optional[BaselineOptions] = None, per_unit: bool = False,
                 band: Optional[BandOptions] = None,
                 preannotation: Optional[PreannotationOptions] = None,
                 plan: Optional[PlanOptions] = None,
                 executor: Optional[Executor] = None, progress: Optional[bool] = None,
                 max_memory: int = DEFAULT_MAX_MEMORY, coefficient: Optional[str] = None,
                 ac2_weights: Optional[str] = None) -> AgreementResult:
    """α (requested variants), the word scores and every requested section of a corpus.

    Parameters
    ----------
    corpus : Corpus
        Units × annotators, e.g. from `load_corpus`.
    variants : sequence of str
        Any of ``"plain"``, ``"diff"``, ``"norm"`` (docs/method.md §4).
    hierarchy : str, path-like, Hierarchy or HierarchyOptions, optional
        Hierarchical label credit (docs/method.md §9.6): a hierarchy (``"ud"``,
        ``"msd"``, ``"flat"``, a file) with the default options, or the options.
    unlabelled : bool
        Also α over unlabelled trees and ``LA_given_head``.
    direction : bool
        Also α over trees whose labels carry the head direction (dependency).
    breakdown : bool
        Also agreement per label, UPOS, arc and sentence length
        (docs/method.md §21), with ``length_bins`` the bins' upper ends.
    coefficient : {"ac1", "ac2"}, optional
        With ``breakdown``: also Gwet's AC1 or AC2 of DEPREL and UPOS over all
        words and per length bin (docs/method.md §21.6), its interval at
        ``level``; AC2's weights are ``ac2_weights`` (``ordinal``,
        ``quadratic``) or, without them, the mutual credit of ``hierarchy``.
    ac2_weights : str, optional
        See ``coefficient``.
    bias : bool
        Also the marginal-homogeneity tests of DEPREL per annotator pair:
        Stuart–Maxwell, and McNemar per label with Holm's adjustment
        (docs/method.md §25; dependency input).
    by : str or Grouping, optional
        Also α per batch in order with control bands (docs/method.md §26):
        ``"batch"`` (``# batch = ...`` comments), ``"document"`` or
        ``"order:N"``; the band takes ``bootstrap`` replicates (1,000 when
        ``bootstrap`` is 0), ``seed`` and ``level``, and ``variant`` decides
        which batches count as outside.
    where : sequence of str or Query
        Also α over each query (``"deprel=conj"``, ``"upos=ADP,head.upos=VERB"``):
        over the trees of the arcs it selects, with D_e over the same
        restriction (docs/method.md §27; dependency input).
    worst : int
        Also the ``worst`` units contributing most to disagreement, ranked by
        ``worst_by`` (``"share"`` of D_o or ``"influence"``) on ``variant``.
    bootstrap : int
        Unit-resampling replicates for percentile intervals (docs/method.md
        §5.4); 0: none.
    seed : int
        Seed of the bootstrap and of sampled pairs.
    level : float
        Confidence level of the intervals, a fraction (0.95 = 95 %).
    sample_pairs : int, optional
        Estimate D_e from that many random pairs (docs/method.md §5.3).  None:
        by cost (`synagree.stats.alpha.plan_de`): exact when the all-pairs pass
        fits about a second of kernel time, else sampled until every α's SE
        is at most 1e-4.
    exact : bool
        Force the exact D_e whatever it costs.
    baseline : BaselineOptions, optional
        Compare with a stored result (docs/method.md §18).
    per_unit : bool
        Keep the per-unit data (``details.per_unit``), so that the JSON output
        can serve as a baseline later.
    band : BandOptions, optional
        Also a parser's agreement with the humans beside the humans' own
        (docs/method.md §28), with ``seed`` and ``level``.
    preannotation : PreannotationOptions, optional
        Also the arcs each annotator kept or changed from the pre-annotation,
        and α and LAS with and without the kept ones (docs/method.md §29).
    plan : PlanOptions, optional
        Also the units needed for an interval of α of a given width at
        ``level``, from this corpus as the pilot (docs/method.md §30; keeps
        the unit × unit sums).
    executor : callable, optional
        Runs the all-pairs tiles of every TED pass elsewhere (the main pass and
        the sections': `synagree.distance.dask_exec.DaskExecutor`); kept on
        the result for later passes.
    progress : bool, optional
        Progress bar on stderr (only when it is a terminal).
    max_memory : int
        Bytes the bootstrap's unit × unit tables may take (planned before any
        work, see `synagree.base.memory`).

    Returns
    -------
    AgreementResult

    Raises
    ------
    ValueError
        ``bootstrap`` combined with ``sample_pairs`` (the bootstrap needs exact
        sums), an unknown variant, a bad ``by``.
    InputError
        A bad hierarchy, baseline or option; the bootstrap's tables would
        exceed ``max_memory``; a bad ``where`` query (``bad-where``);
        ``by="batch"`` on units without ``# batch`` comments (``bad-batch``).

    See Also
    --------
    agree : read files and compute in one call.

    Examples
    --------
    >>> s = DepSentence.from_heads
    >>> corpus = Corpus.from_annotations(
    ...     {"a": [s([2, 0, 2], "nsubj root obj"), s([0, 1, 2], "root dep dep")],
    ...      "b": [s([2, 0, 2], "nsubj:pass root iobj"), s([0, 1, 2], "root dep dep")]})
    >>> res = _agree_corpus(corpus, ["plain", "norm"], hierarchy="ud", unlabelled=True)
    >>> sorted(res.alpha), res.alpha["plain"].do_sum, res.alpha["plain"].de_sum
    (['norm', 'plain'], 8.0, 80.0)
    >>> round(res.scores.ratio("LAS"), 4), round(res.scores.ratio("LAS_full"), 4)
    (0.8333, 0.6667)
    >>> round(res.hierarchy.values["LA_hier"], 4), res.unlabelled.metrics()["LA_given_head"]
    (0.8333, 0.6666666666666666)
    """
    check_replicates(bootstrap, level)  # before any work: an interval that means something
    gwet = _gwet_options(coefficient, ac2_weights, breakdown, hierarchy, level)
    if plan is not None and sample_pairs:
        raise ValueError("planning needs exact D_e sums: do not combine it with sampled pairs")
    queries = check_queries(where)  # a bad query: refused before the long work
    grouping = parse_by(by) if isinstance(by, str) else by
    if (bias or queries) and corpus.kind != "dependency":
        raise InputError.single("<command line>", None, "usage",
                                f"{'--bias' if bias else '--where'} reads the words' labels "
                                f"(DEPREL, UPOS): it needs dependency input, not "
                                f"phrase-structure trees")
    core = _core(corpus, variants, bootstrap=bootstrap, seed=seed, level=level,
                 sample_pairs=sample_pairs, exact=exact, executor=executor,
                 progress=progress, max_memory=max_memory, keep_matrix=plan is not None)
    notes = core.notes
    # each section computed from the core, then the result replaced by one that holds it
    # (a result is frozen: what agree_corpus returns stays as it returned it)
    zero = ted_zero(core)
    core = replace(core, ted_zero=zero)
    if zero is not None and zero.note():
        notes.append(cast(str, zero.note()))
    if hierarchy is not None:
        options = (hierarchy if isinstance(hierarchy, HierarchyOptions)
                   else HierarchyOptions(hierarchy))
        hier = hierarchy_scores(core, options)
        core = replace(core, hierarchy=hier)
        notes.extend(hier.notes())
        core.settings["hierarchy"] = options.describe()
    if unlabelled:
        unl = unlabelled_scores(core)
        core = replace(core, unlabelled=unl)
        notes.extend(unl.alpha.notes())
    if direction:
        dirs = direction_scores(core, unlabelled=unlabelled)
        core = replace(core, direction=dirs)
        if dirs is None:
            notes.append("--label-direction applies to dependency trees only; nothing added "
                         "for this phrase-structure corpus")
        else:
            notes.extend(n for a in dirs.alphas for n in a.notes())
    if breakdown:
        core = replace(core, breakdown=breakdown_of(core, length_bins, gwet))
    if bias:
        core = replace(core, bias=bias_section(core))
    if grouping is not None:
        core = replace(core, drift=drift_section(core, grouping, variant,
                                                 bootstrap or DRIFT_REPLICATES, seed, level))
        core.settings["drift"] = (f"by {grouping.describe()}, band of "
                                  f"{bootstrap or DRIFT_REPLICATES} replicates")
    if queries:
        core = replace(core, where=where_section(core, queries))
    if worst > 0:
        if worst_by == "influence" and unit_influence(core) is None:
            notes.append(INFLUENCE_UNAVAILABLE + ", so --worst-by influence ranks by share "
                         "of D_o")
        core = replace(core, worst=worst_list(core, worst, variant, worst_by))
        core = replace(core, annotator_influence=annotator_influence_section(core))
    if per_unit or baseline is not None:
        core = replace(core, per_unit=PerUnit(unit_data(core)))
    if band is not None:
        core = replace(core, human_band=human_band(band, variants, seed=seed, level=level,
                                                   max_memory=max_memory, progress=progress))
    if preannotation is not None:
        core = replace(core, preannotation=preannotation_scores(
            preannotation, variants, sample_pairs=sample_pairs, seed=seed, progress=progress))
    if plan is not None:
        planned = plan_section(core, plan, level=level, seed=seed, progress=progress)
        core = replace(core, plan=planned)
        notes.extend(planned.plan.notes)
    if baseline is not None:
        core = replace(core, baseline=agree_baseline(core, core.to_dict(), baseline))
    return core


def _core(corpus: Corpus, variants: Sequence[str], *, bootstrap: int, seed: int,
          level: float, sample_pairs: Optional[int], exact: bool,
          executor: Optional[Executor], progress: Optional[bool],
          max_memory: int, keep_matrix: bool = False) -> AgreementResult:
    """α, the word scores and their intervals: the result before its sections
    (``keep_matrix``: keep the unit × unit sums even without a bootstrap)."""
    vocab = Vocabulary()
    ann_lists = corpus.annotation_lists()
    tree_units = build_trees(ann_lists, vocab)  # one compiled pass for large corpora
    if bootstrap and sample_pairs:  # the bootstrap needs the exact unit x unit sums
        raise ValueError("the bootstrap needs exact D_e sums: do not combine it with "
                         "sampled pairs (use --exact)")
    pairable = sum(1 for u in tree_units if len(u) >= 2)
    if bootstrap:
        check_resampling(pairable, bootstrap, 1, max_memory)
    elif keep_matrix:  # planning keeps the pilot's unit x unit table (no --bootstrap asked)
        check_resampling(pairable, 0, 1, max_memory,
                         what=f"the unit x unit table of the pilot's {pairable:,} units "
                              f"(planning resamples from it)",
                         hint="plan from a smaller pilot (a sample of its sentences)")
    ta = tree_alpha(tree_units, variants, keep_unit_matrix=bool(bootstrap) or keep_matrix,
                    sample_pairs=sample_pairs, seed=seed, executor=executor,
                    progress=progress, full_rows=True, exact=exact)
    auto_note = ta.plan.note if ta.plan is not None else None
    # every annotation of a corpus is of its kind
    if corpus.kind == "phrase":
        scores = jaccard_scores(cast(List[List[PhraseSentence]], ann_lists))
    else:
        scores = attachment_scores(cast(List[List[DepSentence]], ann_lists))
    boot = None
    small: Optional[str] = None  # the small-sample note of the intervals
    if bootstrap and ta.sums is not None and ta.sums.m.shape[0] > 0:
        correct, total = scores.unit_arrays()
        boot = alpha_bootstrap(ta.sums, B=bootstrap, seed=seed, level=level,
                               variants=variants, correct=correct, total=total)
        small = small_sample_note(int(ta.sums.m.shape[0]), "the bootstrap intervals")
        for v, st in ta.stats.items():
            st.ci = boot.ci(f"alpha_{v}")
    # sentences as read: a joined unit's sentences each (joining adds roots, §1.7)
    dep = [s for u in corpus.units for a, ann in u.annotations.items()
           for s in (u.parts.get(a) or (ann,)) if isinstance(s, DepSentence)]
    multi = sum(1 for s in dep if s.n_roots > 1)
    cycles = sum(1 for p in corpus.log.problems if p.kind == "cycle")
    notes = list(corpus.notes) + [n for st in ta.stats.values() for n in st.notes]
    if small:
        notes.append(small)
    if auto_note:
        notes.insert(0, auto_note)
    if corpus.kind == "dependency" and "LAS" not in scores.correct:
        odd = non_ud_labels(lab for s in dep for lab in s.deprels)
        notes.append(f"LAS (CoNLL 2018, on universal relations) is reported for UD relations "
                     f"only; these labels are not UD relations: {', '.join(odd[:8])}"
                     + (" ..." if len(odd) > 8 else "") + "; LAS_full compares them as "
                     "written")
    if scores.ignored:
        notes.append(f"{scores.ignored} unit(s) whose annotations differ in word count (or in "
                     f"words: edited units) were left out of the word scores (they still "
                     f"count in alpha)")
    if multi:
        notes.append(f"{multi} annotation(s) have several root words; all hang from the "
                     f"artificial root")
    if cycles:
        notes.append(f"{cycles} annotation(s) have words on a head cycle: those words are "
                     f"left out of the TED tree but counted in |t| and the word scores "
                     f"(docs/method.md §2.4)")
    any_stats = next(iter(ta.stats.values()))
    return AgreementResult(
        kind=corpus.kind, annotators=list(corpus.annotators), units_total=len(ann_lists),
        units=any_stats.units, annotations=any_stats.n, alpha=ta.stats,
        scores=scores, multi_root=multi, cycle_sentences=cycles,
        distinct_trees=ta.n_distinct, warnings=list(corpus.log.warnings), notes=notes,
        settings=result_settings(corpus, variants, ta, seed, bootstrap, level),
        bootstrap=boot, tree_alpha=ta, corpus=corpus, trees=tree_units, vocab=vocab,
        unit_changes=(Details("unit_changes", corpus.unit_changes())  # §1.7–1.8
                      if corpus.joined_units or corpus.edited_units else None),
        executor=executor)


def result_settings(corpus: Corpus, variants: Sequence[str], ta: TreeAlpha, seed: int,
                    bootstrap: int, level: float) -> Dict[str, str]:
    """The settings signature of an agreement result (docs/output.md)."""
    s = {"variants": ",".join(v for v in VARIANTS if v in variants),
         "distance": "TED unit costs (root label free)",
         "labels": "DEPREL in full" if corpus.kind == "dependency" else "bracket labels",
         "d_e": ("exact" if ta.sampled is None else
                 f"sampled ({ta.sampled.pairs} pairs, seed {seed})")}
    s.update(corpus.settings())
    if bootstrap:
        s["bootstrap"] = f"{bootstrap} replicates, seed {seed}, level {level:g}"
    s["version"] = __version__
    return s


def agree(paths: Sequence[Source] = (), options: Optional[AgreeOptions] = None, *,
          dirs: Sequence["str | os.PathLike[str]"] = (), **overrides: Any) -> AgreementResult:
    r"""Agreement between annotators: α_plain/α_diff/α_norm, the word scores, the options.

    Reads the files with `load_corpus`, then computes with `agree_corpus`.

    Parameters
    ----------
    paths : sequence of str, path-like or file-like
        One annotation per annotator (two or more), each a path, text (a
        string with a line break) or an open text or binary stream
        (``io.StringIO``, ``io.BytesIO``, gzip'd bytes): the one rule of
        `synagree.io.sources.as_input`.  Unnamed streams and texts are
        annotators ``ann1``, ``ann2``, ... by position, and ``<ann1>`` in
        messages.
    dirs : sequence of str or path-like
        Instead of ``paths``: one directory per annotator.
    options : AgreeOptions, optional
        Every option, reading and computing
        (`synagree.base.command_options.AgreeOptions`); None: the defaults.
    **overrides
        Any field of `AgreeOptions` by name: ``names``, ``fmt``,
        ``phrase_style``, ``strict``, ``allow_missing``, ``check_text``,
        ``match`` (see `load_corpus`); ``variants``, ``hierarchy``,
        ``unlabelled``, ``direction``, ``breakdown``, ``length_bins``,
        ``bias``, ``by``, ``where``, ``worst``, ``worst_by``, ``variant``,
        ``bootstrap``, ``seed``, ``level``, ``sample_pairs``, ``exact``,
        ``baseline``, ``per_unit``, ``band``, ``preannotation``, ``plan``,
        ``executor``, ``progress``, ``max_memory`` (see `_agree_corpus`).
        ``baseline`` may be the path of a stored JSON result and
        ``preannotation`` the path of the pre-annotation (matched with
        ``paths``); ``max_memory`` a number of bytes or a size such as ``"4G"``.

    Returns
    -------
    AgreementResult
        Ratios are fractions, not percent.

    Raises
    ------
    TypeError, ValueError
        An option of the wrong type or outside its range (the message names
        it, the value given and what is allowed).
    InputError
        Bad input, every problem of every file gathered first.

    Examples
    --------
    >>> import os, shutil, tempfile
    >>> tmp = tempfile.mkdtemp()
    >>> rows = {"a": [("2", "nsubj"), ("0", "root"), ("2", "obj")],
    ...         "b": [("2", "nsubj"), ("0", "root"), ("2", "iobj")]}
    >>> for ann, words in rows.items():
    ...     lines = [f"{i}\tw{i}\t_\t_\t_\t_\t{h}\t{r}\t_\t_" for i, (h, r) in enumerate(words, 1)]
    ...     with open(os.path.join(tmp, ann + ".conllu"), "w") as f:
    ...         _ = f.write("\n".join(lines) + "\n\n" + "\n".join(lines) + "\n\n")
    >>> res = agree([os.path.join(tmp, "a.conllu"), os.path.join(tmp, "b.conllu")])
    >>> res.annotators, res.units, round(res.scores.ratio("LAS"), 4)
    (['a', 'b'], 2, 0.6667)
    >>> round(res.alpha_value("plain"), 4)  # the same disagreement in both units
    -0.5
    >>> import io  # text in memory: streams stand for files
    >>> texts = [open(os.path.join(tmp, f)).read() for f in ("a.conllu", "b.conllu")]
    >>> res = agree([io.StringIO(t) for t in texts])
    >>> res.annotators, round(res.alpha_value("plain"), 4)
    (['ann1', 'ann2'], -0.5)
    >>> shutil.rmtree(tmp)
    """
    opts = AgreeOptions.build(options, overrides, "agree()")
    computing = _computing(opts, paths, dirs)  # a bad baseline refused before reading
    with limited(opts.max_memory):  # the reading budget is a share of it
        corpus = load_corpus(paths, dirs, **opts.read_kwargs())
    return seal(_agree_corpus(corpus, **computing))
