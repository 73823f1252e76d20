"""Phrase-structure parsers against gold: PARSEVAL per system plus the opt-in extras.

docs/method.md §22.  `compare_parseval` scores one or more system files
against one gold file with EVALB's PARSEVAL (`synagree.evaluation.parseval`)
and, when asked: α between gold and each system
(`synagree.evaluation.parseval_alpha`), per-label and per-length tables and
label confusions (`synagree.evaluation.parseval_breakdown`), paired bootstrap
and approximate randomisation between every two systems on bracketing F1
and tagging accuracy (`synagree.stats.significance`, as for LAS), and the
per-sentence data a later ``--baseline`` comparison needs (`add_unit_data`,
`compare_baseline`; `synagree.stats.regression`).

The units of the tests and of the baseline are the sentences (lines); an
error or skip sentence adds nothing to the counts, as in EVALB's totals.
Per sentence, ``bracket_F1`` keeps (matched, gold, system brackets) and
``tagging_accuracy`` (correct tags, words, words), so the resampled values
are the F-measure 2·Σmatched/(Σgold + Σsystem) and the tagging accuracy.

numpy and the tree edit distance engine are imported only when an extra
asks for them: PARSEVAL alone stays within EVALB's own time
(benchmarks/bench_parseval.py).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

from synagree._version import __version__
from synagree.base.frames import Frames, metric_rows
from synagree.base.parseval_options import ParsevalOptions
from synagree.base.problems import InputError, Problem
from synagree.base.sealed import seal
from synagree.evaluation.evalb_counts import (
    error_note,
    parseval_settings,
    settings_signature,
)
from synagree.evaluation.parseval import (
    ParsevalResult,
    Source,
    parseval,
    read_pair,
)
from synagree.io.evalb_lines import BracketLines
from synagree.io.evalb_params import EvalbParams, load_params
from synagree.io.sources import Source as ParamsSource
from synagree.io.sources import as_input, is_stream, one_or_many, system_names
from synagree.stats.replicates import check_replicates

if TYPE_CHECKING:  # imported where used: bracketed compare stays light (EVALB's time)
    from synagree.stats.regression import BaselineComparison, UnitData

__all__ = ["SystemParseval", "ParsevalComparison", "compare_parseval", "unit_data",
           "add_unit_data", "compare_baseline", "PARSEVAL_METRICS", "LISTS_BY"]

#: the metrics of the significance tests and of ``--baseline``, per sentence
PARSEVAL_METRICS = ("bracket_F1", "tagging_accuracy")
LISTS_BY = (("bracket_F1", 1), ("ted", -1))
"""Sentence lists of ``--baseline``: by the change in matched brackets, then TED."""


@dataclass(frozen=True)
class SystemParseval:
    """One system's PARSEVAL and extras.

    Parameters
    ----------
    name : str
    result : ParsevalResult
    alpha : dict of str to AlphaStats, optional
        α between gold and the system per variant (with ``alpha=True``).
    unit_ted : dict of int to float, optional
        TED(gold tree, system tree) per valid sentence (by line).
    breakdown : ParsevalBreakdown, optional
    per_unit : dict, optional
        `synagree.stats.regression.UnitData.to_dict`, set by `add_unit_data`.
    notes : list of str
    """

    name: str
    result: ParsevalResult
    alpha: Optional[Dict[str, Any]] = None
    unit_ted: Optional[Dict[int, float]] = None
    breakdown: Optional[object] = None  # ParsevalBreakdown
    per_unit: Optional[Dict[str, Any]] = None
    notes: List[str] = field(default_factory=list)
    # bootstrap percentile intervals (bootstrap=B): metric -> (low, high) or None
    intervals: Dict[str, Optional[Tuple[float, float]]] = field(default_factory=dict)

    def metrics(self) -> Dict[str, Optional[float]]:
        """The system's numbers as registered keys, fractions over all sentences (as
        ``compare``'s dependency JSON puts them at the top of each system)."""
        t = (self.result.as_dict().get("summary") or {}).get("all") or {}  # stopped: none
        out: Dict[str, Optional[float]] = {
            "bracket_recall": t.get("recall"), "bracket_precision": t.get("precision"),
            "bracket_F1": self.value("bracket_F1") if t else None,
            "complete_match": t.get("complete_match"),
            "tagging_accuracy": self.value("tagging_accuracy") if t else None}
        for v, st in (self.alpha or {}).items():
            out[f"alpha_{v}"] = st.alpha
        return out

    def value(self, metric: str) -> Optional[float]:
        """``bracket_F1`` (2·matched/(gold + test)), ``tagging_accuracy`` or
        ``alpha_<variant>`` over all sentences (None when undefined or stopped)."""
        t = self.result.all
        if metric == "bracket_F1":
            n = t.gold + t.test
            return 2 * t.matched / n if n else None
        if metric == "tagging_accuracy":
            return t.correct_tags / t.words if t.words else None
        if metric.startswith("alpha_") and self.alpha is not None:
            st = self.alpha.get(metric[len("alpha_"):])
            return None if st is None else st.alpha
        return None

    def as_dict(self) -> Dict[str, Any]:
        """The system's result, JSON-ready (fractions; every count)."""
        d = {"name": self.name, "file": self.result.system_file, **self.metrics(),
             **{f"{k}_ci": (list(iv) if iv else None) for k, iv in self.intervals.items()},
             **{k: v for k, v in self.result.as_dict().items()
                if k not in ("gold_file", "system_file")}}
        if self.alpha is not None:
            d["counts"] = {f"alpha_{v}": {"do_sum": st.do_sum, "de_sum": st.de_sum,
                                          "n": st.n, "d_o": st.d_o, "d_e": st.d_e,
                                          "units": st.units,
                                          **({"alpha_se": st.alpha_se,
                                              "sampled_pairs": st.sampled_pairs}
                                             if st.alpha_se is not None else {})}
                           for v, st in self.alpha.items()}
        if self.breakdown is not None:
            d["breakdown"] = self.breakdown.as_dict()  # type: ignore[attr-defined]
        if self.per_unit is not None:
            d["per_unit"] = self.per_unit
        d["notes"] = list(self.notes)
        return d


@dataclass
class ParsevalComparison(Frames):
    """Every system scored against one gold file with one parameter file.

    Parameters
    ----------
    gold : str
    gold_sentences : int
    params : EvalbParams
    systems : list of SystemParseval
    significance : SignificanceResult, optional
    baseline : BaselineComparison, optional
    notes : list of str
    warnings : list of Problem
    alpha_d_e : str, optional
        ``exact`` or ``sampled (...)`` when α was computed.

    Examples
    --------
    >>> res = compare_parseval(["(S (NN a))"], [["(S (NN a))"]])
    >>> res.settings()["params"], res.signature().startswith("scorer:EVALB 2006")
    ('COLLINS.prm', True)
    >>> res.as_dict()["kind"], res.as_dict()["gold_sentences"]
    ('parseval', 1)
    """

    gold: str
    gold_sentences: int
    params: EvalbParams
    systems: List[SystemParseval]
    significance: Optional[object] = None  # SignificanceResult
    baseline: Optional[object] = None  # BaselineComparison
    notes: List[str] = field(default_factory=list)
    warnings: List[Problem] = field(default_factory=list)
    alpha_d_e: Optional[str] = None

    def system(self, name: str) -> SystemParseval:
        """The system named ``name`` (KeyError if none)."""
        for s in self.systems:
            if s.name == name:
                return s
        raise KeyError(name)

    @property
    def stopped(self) -> bool:
        """Did ``MAX_ERROR`` stop any system (as it stops EVALB)?"""
        return any(s.result.stopped is not None for s in self.systems)

    def settings(self) -> Dict[str, str]:
        """How the numbers were computed (the signature's keys, docs/output.md)."""
        return parseval_settings(self.params.name, self.params.sha256, __version__,
                                 self.alpha_d_e)

    def signature(self) -> str:
        """The settings as one line, ``key:value|...``: equal signatures, comparable numbers."""
        return settings_signature(self.settings())

    def frame_rows(self) -> List[Dict[str, Any]]:
        """One row per system and metric, with its interval."""
        return [r for s in self.as_dict()["systems"] for r in metric_rows(s, system=s["name"])]

    def to_dict(self) -> Dict[str, Any]:
        """``synagree compare --output json`` on bracketed files (`as_dict`)."""
        return self.as_dict()

    def as_dict(self) -> Dict[str, Any]:
        """The comparison, JSON-ready (``kind`` ``parseval``; fractions; every count)."""
        d = {"kind": "parseval", "synagree_version": __version__, "gold": self.gold,
             "gold_sentences": self.gold_sentences, "settings": self.settings(),
             "signature": self.signature(), "params": self.params.as_dict(),
             "systems": [s.as_dict() for s in self.systems]}
        if self.significance is not None:
            d["significance"] = self.significance.as_dict()  # type: ignore[attr-defined]
        if self.baseline is not None:
            d["baseline"] = self.baseline.as_dict()  # type: ignore[attr-defined]
        d["notes"] = list(self.notes)
        d["warnings"] = [w.as_dict() for w in self.warnings]
        return d


def compare_parseval(gold: Source, systems: Union[Source, Sequence[Source]],
                     options: Optional[ParsevalOptions] = None,
                     **overrides: Any) -> ParsevalComparison:
    r"""PARSEVAL of each system against gold (``synagree compare`` on bracketed trees).

    Parameters
    ----------
    gold : str, path-like, file-like, BracketLines or sequence of str
        A path, text (a string with a line break), a stream, or the trees as
        a list of strings.
    systems : one of the same, or a sequence of them
        A single path, text or stream is one system (never iterated).
    options : ParsevalOptions, optional
        Every option (`synagree.base.command_options.ParsevalOptions`).
    **overrides
        Any field of `ParsevalOptions` by name (``params``, ``names``,
        ``alpha``, ``breakdown``, ``significance``, ``test_replicates``,
        ``bootstrap``, ``R``, ``seed``, ``level``, ``sample_pairs``,
        ``exact``, ``progress``, ``max_memory``, ``engine``, ``executor``), as
        `_compare_parseval` describes them.

    Returns
    -------
    ParsevalComparison

    Raises
    ------
    TypeError, ValueError
        An option of the wrong type or outside its range, named with the
        value and what is allowed.
    InputError
        Bad input (see `_compare_parseval`).

    Examples
    --------
    >>> res = compare_parseval("(S (NP (DT a) (NN b)) (VP (VB c)))\n",
    ...                        "(S (NP (DT a)) (NN b) (VP (VB c)))\n")  # text: a line break
    >>> round(res.systems[0].value("bracket_F1"), 4)
    0.6667
    """
    opts = ParsevalOptions.build(options, overrides, "compare_parseval()")
    items = systems if isinstance(systems, (list, tuple)) else one_or_many(systems, "systems")
    return seal(_compare_parseval(gold, cast(List[Source], items), **opts.as_kwargs()))


def _compare_parseval(gold: Source, systems: Sequence[Source],
                     params: Union[ParamsSource, EvalbParams] = "collins", *,
                     names: Optional[Sequence[str]] = None, alpha: bool = False,
                     breakdown: bool = False, significance: bool = False,
                     test_replicates: int = 1000, bootstrap: int = 0,
                     R: Optional[int] = None, seed: int = 0, level: float = 0.95,
                     sample_pairs: Optional[int] = None, exact: bool = False,
                     progress: Optional[bool] = None, max_memory: Optional[int] = None,
                     engine: str = "auto",
                     executor: Optional[Callable[..., Any]] = None) -> ParsevalComparison:
    r"""PARSEVAL of each system against gold, with the extras asked for.

    Every file is read before any is refused, so the problems of all files
    come at once.

    Parameters
    ----------
    gold : str, path-like, BracketLines or sequence of str
    systems : sequence of the same
    params : str, path-like or EvalbParams
        ``collins`` (default), ``new``, ``nk`` or a ``.prm`` file.
    names : sequence of str, optional
        One distinct name per system (default: the file names).
    alpha : bool
        α_plain/α_diff/α_norm between gold and each system.
    breakdown : bool
        Per-label P/R/F, length bins and label confusions.
    significance : bool
        Paired bootstrap and approximate randomisation between every two
        systems on ``bracket_F1`` and ``tagging_accuracy``.
    test_replicates, R, seed, level
        The tests' bootstrap replicates, randomisation rounds (default
        ``test_replicates``), seed, interval level.
    bootstrap : int
        Sentence-resampling replicates for percentile intervals of
        ``bracket_F1`` and ``tagging_accuracy`` per system; 0: none.
    sample_pairs, exact
        α's D_e as for `synagree.evaluation.compare.compare`.
    progress : bool, optional
        Progress bars (α) on stderr.
    max_memory : int, optional
        Bytes the significance tests may plan to use (default 4 GB).
    engine : {"auto", "c", "python"}
        See `synagree.evaluation.parseval.parseval`.
    executor : callable, optional
        Runs the tiles of the α passes elsewhere (a Dask cluster,
        `synagree.distance.dask_exec.DaskExecutor`).

    Returns
    -------
    ParsevalComparison

    Raises
    ------
    InputError
        No system, bad input in any file (`parseval`), names not one per system
        or not distinct, a memory plan above ``max_memory``.

    Examples
    --------
    >>> gold = ["(TOP (S (NP (NNP Ann)) (VP (VBZ sings)) (. .)))",
    ...         "(TOP (S (NP (DT The) (NN cat)) (VP (VBD sat) (PP (IN on) (NP (PRP it))))))"]
    >>> a = ["(TOP (S (NP (NNP Ann)) (VP (VBZ sings) (. .))))",
    ...      "(TOP (S (NP (DT The) (NN cat)) (VP (VBD sat)) (PP (IN on) (NP (PRP it)))))"]
    >>> res = compare_parseval(gold, [a, gold], names=["A", "oracle"], alpha=True)
    >>> [(s.name, round(s.value("bracket_F1"), 4)) for s in res.systems]
    [('A', 0.875), ('oracle', 1.0)]
    >>> round(res.system("A").alpha["plain"].alpha, 4), res.system("oracle").unit_ted
    (0.94, {1: 0.0, 2: 0.0})
    """
    plan = _ParsevalPlan(alpha, breakdown, significance, test_replicates, bootstrap, R, seed,
                         level, sample_pairs, exact, progress, max_memory, engine, executor)
    core = _parseval_core(gold, systems, params, names, plan)
    return _assemble(core, _alpha_section(core) if alpha else None, _breakdown_section(core),
                     _significance_section(core), _interval_section(core))


# compare_parseval is a core (every system scored by EVALB's rules) plus sections, each a
# function of the scores returning its part: α, the breakdowns, the resampling engine's
# tests or intervals

def _read_systems(gold: Source, systems: Sequence[Source], prm: EvalbParams, detail: bool,
                  engine: str) -> Tuple[BracketLines, List[ParsevalResult], List[str]]:
    """Every system read and scored (the problems of all files at once)."""
    if is_stream(gold):  # read once: the gold is read again after a system's failure
        gold = as_input(gold, "<gold>")
    errors: List[Problem] = []
    g_lines: Optional[BracketLines] = None
    results: List[ParsevalResult] = []
    files: List[str] = []
    for k, src in enumerate(systems):
        try:
            if is_stream(src):
                src = as_input(src, f"<system {k + 1}>")
            g_lines, s_lines = read_pair(gold if g_lines is None else g_lines, src)
            files.append(s_lines.file if s_lines.file != "<system>" else f"<system {k + 1}>")
            results.append(parseval(g_lines, s_lines, prm, detail=detail, engine=engine))
        except InputError as exc:
            errors.extend(e for e in exc.errors if e not in errors)
    if errors:
        raise InputError(errors)
    assert g_lines is not None
    return g_lines, results, files


@dataclass(frozen=True)
class _ParsevalPlan:
    """What `compare_parseval` computes beside PARSEVAL (its options)."""

    alpha: bool
    breakdown: bool
    significance: bool
    test_replicates: int
    bootstrap: int
    R: Optional[int]
    seed: int
    level: float
    sample_pairs: Optional[int]
    exact: bool
    progress: Optional[bool]
    max_memory: Optional[int]
    engine: str
    executor: Optional[Callable[..., Any]]


@dataclass(frozen=True)
class ParsevalCore:
    """What every section of `compare_parseval` reads, computed once (`_parseval_core`).

    Attributes
    ----------
    gold : BracketLines
    params : EvalbParams
    names : tuple of str
        One distinct name per system.
    results : tuple of ParsevalResult
        Per system, EVALB's PARSEVAL (with the details α and breakdowns need).
    plan : _ParsevalPlan
        The options.
    warnings : tuple of Problem
        Every system's warnings, each once.
    notes : tuple of tuple of str
        Per system, the scorer's notes (``MAX_ERROR`` stopped it).
    """

    gold: BracketLines
    params: EvalbParams
    names: Tuple[str, ...]
    results: Tuple[ParsevalResult, ...]
    plan: _ParsevalPlan
    warnings: Tuple[Problem, ...]
    notes: Tuple[Tuple[str, ...], ...]


def _parseval_core(gold: Source, systems: Sequence[Source],
                   params: Union[ParamsSource, EvalbParams], names: Optional[Sequence[str]],
                   plan: _ParsevalPlan) -> ParsevalCore:
    """The core of `compare_parseval`: the options checked, every system read and scored,
    the names, the warnings and the scorer's notes."""
    check_replicates(plan.bootstrap, plan.level)  # before any work
    if plan.significance:
        check_replicates(plan.test_replicates, plan.level, "test_replicates", "a paired test")
    if not systems:
        raise InputError.single("<command line>", None, "usage", "no system file given")
    prm = load_params(params)
    g_lines, results, files = _read_systems(gold, systems, prm, plan.alpha or plan.breakdown,
                                            plan.engine)
    sys_names = system_names(files, names)
    warnings: List[Problem] = []
    notes = []
    for name, r in zip(sys_names, results):
        warnings.extend(w for w in r.warnings if w not in warnings)
        notes.append(() if r.stopped is None else (
            f"{name}: EVALB stops at line {r.stopped.id}: {r.stopped.errors} errors, more "
            f"than MAX_ERROR {prm.max_error}; no summary (sentences after it are not "
            f"scored)",))
    return ParsevalCore(g_lines, prm, tuple(sys_names), tuple(results), plan, tuple(warnings),
                        tuple(notes))


@dataclass(frozen=True)
class _ParsevalAlpha:
    """The α section: per system (α per variant, TED per sentence) and its notes; how
    D_e was computed."""

    systems: Dict[str, Tuple[Any, Any]]
    notes: Dict[str, Tuple[str, ...]]
    d_e: str


def _alpha_section(core: ParsevalCore) -> _ParsevalAlpha:
    """α between gold and each system (docs/method.md §22), over one vocabulary."""
    # numpy and the TED engine: only now (see the module docstring)
    from synagree.evaluation.parseval_alpha import alpha_trees
    from synagree.stats.alpha import VARIANTS, AlphaStats, tree_alpha
    from synagree.trees.flat import Vocabulary

    plan = core.plan
    vocab = Vocabulary()
    sampled = []
    out: Dict[str, Tuple[Any, Any]] = {}
    notes: Dict[str, Tuple[str, ...]] = {}
    for name, r in zip(core.names, core.results):
        mine: List[str] = []
        ids, units = alpha_trees(r, vocab)
        if not units:
            st = AlphaStats(0.0, 0.0, 0, 0)
            st.notes.append("alpha: no valid sentence; alpha is undefined")
            stats: Dict[str, Any] = {v: st for v in VARIANTS}
            unit_ted: Dict[int, float] = {}
        else:
            ta = tree_alpha(units, sample_pairs=plan.sample_pairs, seed=plan.seed,
                            progress=plan.progress, exact=plan.exact or plan.significance,
                            executor=plan.executor)
            if ta.plan is not None and ta.plan.note:
                mine.append(f"{name}: {ta.plan.note}")
            stats = ta.stats
            unit_ted = {i: float(m[0, 1]) for i, m in zip(ids, ta.unit_ted)}
            if ta.sampled is not None:
                sampled.append(name)
        for st in stats.values():
            for n in st.notes:
                if f"{name}: {n}" not in mine:
                    mine.append(f"{name}: {n}")
        out[name] = (stats, unit_ted)
        notes[name] = tuple(mine)
    return _ParsevalAlpha(out, notes, f"sampled ({', '.join(sampled)})" if sampled else "exact")


def _breakdown_section(core: ParsevalCore) -> Dict[str, Any]:
    """Per system, per-label P/R/F, length bins and label confusions (none unless asked)."""
    if not core.plan.breakdown:
        return {}
    from synagree.evaluation.parseval_breakdown import parseval_breakdown

    return {name: parseval_breakdown(r) for name, r in zip(core.names, core.results)}


def _significance_section(core: ParsevalCore) -> Any:
    """The paired tests between every two systems (None unless asked for)."""
    plan = core.plan
    if not plan.significance:
        return None
    return _resampling(core.names, core.results, len(core.gold), plan.test_replicates,
                       plan.R, plan.seed, plan.level, plan.max_memory)


def _interval_section(core: ParsevalCore) -> Dict[str, Dict[str, Any]]:
    """Per system, percentile intervals on the engine of the tests (none unless asked)."""
    plan = core.plan
    if not plan.bootstrap:
        return {}
    cis = _resampling(core.names, core.results, len(core.gold), plan.bootstrap, 1, plan.seed,
                      plan.level, plan.max_memory).ci
    return {name: dict(cis.get(name, {})) for name in core.names}


def _assemble(core: ParsevalCore, alpha: Optional[_ParsevalAlpha], breakdowns: Dict[str, Any],
              sig: Any, cis: Dict[str, Dict[str, Any]]) -> ParsevalComparison:
    """The comparison made of the core and its sections, with the notes."""
    systems = []
    for name, r, scorer_notes in zip(core.names, core.results, core.notes):
        stats, unit_ted = alpha.systems[name] if alpha is not None else (None, None)
        notes = list(scorer_notes) + list(alpha.notes[name] if alpha is not None else ())
        systems.append(SystemParseval(name, r, stats, unit_ted, breakdowns.get(name), None,
                                      notes, cis.get(name, {})))
    out = ParsevalComparison(core.gold.file, len(core.gold), core.params, systems,
                             significance=sig, warnings=list(core.warnings),
                             alpha_d_e=alpha.d_e if alpha is not None else None)
    if sig is not None and out.stopped:
        out.notes.append("significance: a system stopped by MAX_ERROR counts nothing from "
                         "its stopping sentence on")
    for sp in out.systems:
        out.notes.extend(sp.notes)
    note = error_note([(name, sum(1 for s in r.sentences if s.status == 1))
                       for name, r in zip(core.names, core.results)])
    if note is not None:
        out.notes.append(note)
    return out


def _unit_arrays(r: ParsevalResult, U: int) -> Tuple[Any, Any, Any, Any, Any]:
    import numpy as np

    m, g, t, c, w = (np.zeros(U) for _ in range(5))
    for s in r.sentences:
        if s.status == 0:
            k = s.id - 1
            m[k], g[k], t[k], c[k], w[k] = s.matched, s.gold, s.test, s.correct_tags, s.words
    return m, g, t, c, w


def _resampling(names: Sequence[str], results: Sequence[ParsevalResult], U: int, B: int,
                R: Optional[int], seed: int, level: float, max_memory: Optional[int]) -> Any:
    """The resampling engine on ``bracket_F1`` and ``tagging_accuracy`` per sentence:
    the paired tests, and each system's percentile intervals (``ci``)."""
    from synagree.base.memory import DEFAULT_MAX_MEMORY, check_resampling
    from synagree.stats.significance import RatioUnits, SystemUnits, significance

    check_resampling(U, B, len(results), DEFAULT_MAX_MEMORY if max_memory is None else max_memory)
    units = []
    for name, r in zip(names, results):
        m, g, t, c, w = _unit_arrays(r, U)
        units.append(SystemUnits(name, {"bracket_F1": RatioUnits(m, g, t),
                                        "tagging_accuracy": RatioUnits(c, w, w)}))
    return significance(units, B=B, R=R, seed=seed, level=level, metrics=PARSEVAL_METRICS)


# --------------------------------------------------------------------------- baseline


def _digest(line: str) -> str:
    return hashlib.sha1(" ".join(line.split()).encode("latin-1")).hexdigest()[:16]


def unit_data(sp: SystemParseval, gold: BracketLines) -> "UnitData":
    r"""The per-sentence data of one system for a later ``--baseline`` comparison.

    Units are the gold lines (ids ``#N``, the line number); a unit's text
    digest is that of its gold line with white space normalised.  Ratios:
    ``bracket_F1`` (matched, gold, system brackets) and ``tagging_accuracy``
    (correct tags, words, words), zero for error and skip sentences; with α,
    TED and each variant's per-sentence D_o sums.
    """
    import numpy as np

    from synagree.distance.sums import delta_squared
    from synagree.stats.regression import UnitData
    from synagree.stats.significance import RatioUnits

    U = len(gold)
    m, g, t, c, w = _unit_arrays(sp.result, U)
    ids = [f"#{k + 1}" for k in range(U)]
    text = [_digest(x) for x in gold.lines]
    length = np.zeros(U)
    for s in sp.result.sentences:
        length[s.id - 1] = s.length
    ted = np.full(U, np.nan)
    alphas = {}
    if sp.unit_ted is not None and sp.alpha is not None:
        words = np.zeros(U)
        valid = np.zeros(U, dtype=bool)
        for s in sp.result.sentences:
            if s.status == 0:
                words[s.id - 1] = s.words
                valid[s.id - 1] = True
        for k, d in sp.unit_ted.items():
            ted[k - 1] = d
        for v, st in sp.alpha.items():
            do = np.zeros(U)
            # |t| = words (leaves) of both trees; m_u = 2 values: D_o sum = 2 δ²
            do[valid] = 2.0 * delta_squared(ted[valid], words[valid], words[valid], v)
            alphas[f"alpha_{v}"] = (do, np.where(valid, 2.0, 0.0), float(st.d_e))
    return UnitData(ids, text, length, ted,
                    {"bracket_F1": RatioUnits(m, g, t), "tagging_accuracy": RatioUnits(c, w, w)},
                    alphas)


def add_unit_data(res: ParsevalComparison, gold: Optional[BracketLines] = None
                  ) -> ParsevalComparison:
    """Store every system's per-sentence data in ``res`` (``per_unit`` in its JSON).

    Parameters
    ----------
    res : ParsevalComparison
    gold : BracketLines, optional
        The gold lines (read again from ``res.gold`` when not given).

    Returns
    -------
    ParsevalComparison
        ``res`` itself.
    """
    if gold is None:
        gold, _ = read_pair(res.gold, res.gold)
    res.systems[:] = [replace(sp, per_unit={**unit_data(sp, gold).to_dict(),
                                            "synagree_version": __version__})
                      for sp in res.systems]  # a system's result is frozen: replaced whole
    return res


def _view(d: Dict[str, Any]) -> Any:
    from synagree.stats.regression import ResultView, UnitData

    summary = (d.get("summary") or {}).get("all") or {}
    values: Dict[str, Optional[float]] = {
        "bracket_F1": (2 * summary["matched"] / (summary["gold"] + summary["test"])
                       if summary and summary["gold"] + summary["test"] else None),
        "tagging_accuracy": summary.get("tagging") if summary else None}
    for k in (d.get("counts") or {}):  # alpha: today's shape (the value at the top)
        if k.startswith("alpha_"):
            values[k] = d.get(k)
    for v, st in (d.get("alpha") or {}).items():  # earlier releases
        values[f"alpha_{v}"] = st.get("alpha")
    pu = d.get("per_unit")
    units = UnitData.from_dict(pu) if isinstance(pu, dict) else None
    return ResultView(str(d.get("name")), values, {}, units)


def compare_baseline(res: ParsevalComparison, doc: Dict[str, Any],
                     baseline: str = "<baseline>", *,
                     B: int = 1000, R: Optional[int] = None, seed: int = 0,
                     level: float = 0.95, top: int = 10) -> "BaselineComparison":
    r"""Compare ``res`` with a stored ``compare`` JSON of bracketed files (method §18, §22.6).

    Systems are paired by name (one against one under different names, with
    a note); a different parameter file (by its SHA-256) makes the numbers
    incomparable, an error; a different gold file, gold size or version is a
    note.

    Parameters
    ----------
    res : ParsevalComparison
        With per-unit data (`add_unit_data`).
    doc : dict
        The stored result (`synagree.stats.regression.load_baseline`).
    baseline : str
        Its file name, for messages.
    B, R, seed, level, top
        As for `synagree.stats.regression.regression`.

    Raises
    ------
    InputError
        ``baseline-mismatch``: the stored result is a dependency comparison, or
        its parameter file differs; ``bad-json``: malformed per-unit data.
    """
    from synagree.stats.regression import (
        BaselineComparison,
        pair_systems,
        regression,
        settings_check,
    )

    if doc.get("kind") != "parseval":
        raise InputError.single(baseline, None, "baseline-mismatch",
                                "the baseline compares dependency (CoNLL-U) files, these are "
                                "bracketed trees: write it with `synagree compare GOLD.mrg "
                                "SYS.mrg -o OLD.json`")
    old_settings = {k: str(v) for k, v in (doc.get("settings") or {}).items()
                    if k in ("params", "params_sha256", "version")}
    new_settings = {k: v for k, v in res.settings().items()
                    if k in ("params", "params_sha256", "version")}
    notes = settings_check(old_settings, new_settings, baseline=baseline,
                           must_match=["params_sha256"], note_only=["params", "version"])
    if doc.get("gold") != res.gold:
        notes.append(f"gold file: {doc.get('gold')} in the baseline, {res.gold} now")
    if doc.get("gold_sentences") != res.gold_sentences:
        notes.append(f"gold size: {doc.get('gold_sentences')} sentences in the baseline, "
                     f"{res.gold_sentences} now")
    try:
        old_views = [_view(d) for d in doc.get("systems", [])]
        new_views = [_view(s.as_dict()) for s in res.systems]
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError.single(baseline, None, "bad-json",
                                f"not a usable baseline: {exc}") from None
    pairs, pair_notes = pair_systems(old_views, new_views)
    notes += pair_notes
    results = [regression(ov, nv, B=B, R=R, seed=seed, level=level, top=top,
                          lists_by=LISTS_BY) for ov, nv in pairs]
    return BaselineComparison(baseline, "compare", results, notes)
