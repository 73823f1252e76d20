"""Is the parser as good as a second human?  Its agreement inside the human band.

docs/method.md §28.  The humans' files and the parser's output are read
together, matched as ``agree`` matches annotators
(`synagree.agreement.extra_file`), and compared on the **shared units**
(every file annotates them).  Every two of them form a *pair*, scored as two
annotators: α per variant (two-coder α over tree edit distance, its own
D_e) and the word scores (``LAS``, ``LAS_full``, ``UAS``, ``LA``; ``jaccard``
for phrase structure).

For a *reference* human r (the gold of ``synagree compare GOLD SYS --humans
...``; with ``report --system`` each human in turn unless ``--reference``
names one), the question "is the parser as good as a second human?" is the
comparison of

    the parser's agreement with r            a(P, r)
    a second human's agreement with r        H_r = mean over h ≠ r of a(h, r)

through the difference d_r = a(P, r) − H_r.  Intervals come from one paired
bootstrap: replicate b draws the shared units with replacement (weights
W[b], `synagree.stats.bootstrap.resample_weights`), and *every* pair's α
(`alpha_replicates`, from its unit × unit sums) and ratio
(`bootstrap_ratios`) is recomputed with the same W[b], so d_r*(b) is the
difference within one resample.  The verdict on a metric is

    within the human band   the percentile interval of d_r contains 0
    below the human band    its upper end is below 0
    above the human band    its lower end is above 0

(with a tolerance of 1e-12 for rounding: a parser identical to a second
human gives d_r = 0 in every replicate).  The p-value is two-sided, the
shifted bootstrap of `synagree.stats.significance`.  The human band itself
(shown) is the percentile interval of H_r.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Dict, List, Optional, Sequence, Tuple, cast

import numpy as np

from synagree.agreement.alt_test import alt_test_corpus
from synagree.agreement.core import DictSection
from synagree.agreement.extra_file import WithExtra
from synagree.base.memory import DEFAULT_MAX_MEMORY, check_resampling
from synagree.base.metrics import word_scores
from synagree.base.option_specs import check_fields
from synagree.base.problems import InputError
from synagree.io.brackets import PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.stats.alpha import VARIANTS, AlphaStats, tree_alpha
from synagree.stats.alt_test import MIN_HUMANS, AltTestResult
from synagree.stats.attachment import (
    Counts,
    attachment_scores,
    jaccard_scores,
    non_ud_labels,
)
from synagree.stats.bootstrap import (
    alpha_replicates,
    bootstrap_ratios,
    percentile_interval,
    resample_weights,
    small_sample_note,
)
from synagree.stats.significance import _p_two_sided
from synagree.trees.flat import Vocabulary, build_trees

__all__ = ["VERDICTS", "BandOptions", "PairScores", "BandComparison", "HumanBand",
           "human_band", "verdict_of", "DEFAULT_BAND_REPLICATES"]

#: the verdicts, and "undefined" when the difference has no interval
VERDICTS = ("within", "below", "above", "undefined")
#: replicates of the paired bootstrap when none are given
DEFAULT_BAND_REPLICATES = 1000
_TOL = 1e-12


def verdict_of(interval: Optional[Tuple[float, float]]) -> str:
    """``within``, ``below`` or ``above`` the human band from the interval of
    d = parser − human (``undefined`` without one).
    """
    if interval is None:
        return "undefined"
    lo, hi = interval
    if hi < -_TOL:
        return "below"
    if lo > _TOL:
        return "above"
    return "within"


@dataclass(frozen=True)
class BandOptions:
    """The parser and the humans, read together, and what to compare.

    Attributes
    ----------
    data : WithExtra
        The humans and (as the extra file) the parser's output
        (`synagree.agreement.extra_file.read_with_extra`).
    references : sequence of str, optional
        The humans the parser and the other humans are scored against; None:
        each human in turn.
    replicates : int
        Paired-bootstrap replicates.
    variant : str
        The α variant of the verdict line.
    """

    data: WithExtra
    references: Optional[Sequence[str]] = None
    replicates: int = DEFAULT_BAND_REPLICATES
    variant: str = "plain"

    def __post_init__(self) -> None:
        # as the command line's --reference and --variant (synagree.base.option_specs)
        check_fields(self, "BandOptions: ", {"references": "reference", "variant": "variant"})


@dataclass(frozen=True)
class PairScores:
    """Two files scored as two annotators on the shared units.

    Attributes
    ----------
    a, b : str
    kind : str
        ``human–human`` or ``system–human``.
    values : dict of str to float or None
        α per variant and the word scores (registered keys), fractions.
    ci : dict of str to (float, float) or None
        Their paired-bootstrap percentile intervals.
    alpha : dict of str to AlphaStats
        The sums behind each α.
    scores : Counts
        The counts behind the word scores.
    """

    a: str
    b: str
    kind: str
    values: Dict[str, Optional[float]]
    ci: Dict[str, Optional[Tuple[float, float]]]
    alpha: Dict[str, AlphaStats]
    scores: Counts

    def as_dict(self) -> dict:
        """JSON-ready: the metrics at the top, ``<key>_ci``, the counts under ``counts``."""
        d: dict = {"a": self.a, "b": self.b, "kind": self.kind}
        for k, v in self.values.items():
            d[k] = v
            iv = self.ci.get(k)
            d[f"{k}_ci"] = list(iv) if iv is not None else None
        d["counts"] = {**{f"alpha_{v}": {"do_sum": st.do_sum, "de_sum": st.de_sum, "n": st.n,
                                         "units": st.units}
                          for v, st in self.alpha.items()},
                       "scores": {"correct": dict(self.scores.correct),
                                  "total": self.scores.total, "units": self.scores.units,
                                  "ignored": self.scores.ignored}}
        return d


@dataclass(frozen=True)
class BandComparison:
    """The parser against a second human, both scored against one reference, on one metric.

    Attributes
    ----------
    reference : str
    metric : str
    system : float or None
        a(P, r).
    humans : dict of str to float or None
        a(h, r) for every other human h.
    human_mean : float or None
        H_r, their mean.
    human_ci : (float, float) or None
        The interval of H_r: the human band.
    diff : float or None
        d_r = a(P, r) − H_r.
    diff_ci : (float, float) or None
        Its paired-bootstrap percentile interval.
    p_value : float or None
        Two-sided paired-bootstrap p of d_r = 0.
    verdict : str
        One of `VERDICTS`.
    """

    reference: str
    metric: str
    system: Optional[float]
    humans: Dict[str, Optional[float]]
    human_mean: Optional[float]
    human_ci: Optional[Tuple[float, float]]
    diff: Optional[float]
    diff_ci: Optional[Tuple[float, float]]
    p_value: Optional[float]
    verdict: str

    def as_dict(self) -> dict:
        """JSON-ready (intervals as ``[low, high]``)."""
        return {"reference": self.reference, "metric": self.metric, "system": self.system,
                "humans": dict(self.humans), "human_mean": self.human_mean,
                "human_ci": list(self.human_ci) if self.human_ci else None,
                "diff": self.diff, "diff_ci": list(self.diff_ci) if self.diff_ci else None,
                "p_value": self.p_value, "verdict": self.verdict}


@dataclass
class HumanBand(DictSection):
    """The parser's agreement with the humans beside the humans' own (docs/method.md §28).

    Returned by `human_band`; the section ``human_band`` of an agreement result.

    Attributes
    ----------
    system : str
    humans : list of str
    references : list of str
    metrics_compared : list of str
        The registered keys compared (α variants, then the word scores).
    variant : str
        The α variant of the verdict lines.
    units : int
        Shared units (annotated in every file).
    units_total : int
        Units of the corpus read.
    pairs : list of PairScores
    comparisons : list of BandComparison
        Per reference and metric.
    replicates, seed : int
    level : float
    notes : list of str
    alt_test : AltTestResult or None
        With three or more humans: can the parser replace one of them? The
        alternative annotator test (docs/method.md §34.2) with its defaults (LAS or
        jaccard, ε 0.2); None with fewer humans, or when the test refuses the data
        (a note says why).
    """

    system: str
    humans: List[str]
    references: List[str]
    metrics_compared: List[str]
    variant: str
    units: int
    units_total: int
    pairs: List[PairScores]
    comparisons: List[BandComparison]
    replicates: int
    seed: int
    level: float
    notes: List[str] = field(default_factory=list)
    alt_test: Optional[AltTestResult] = None
    name = "human_band"

    def pair(self, a: str, b: str) -> PairScores:
        """The scores of ``a`` and ``b`` (either order); KeyError if none."""
        for p in self.pairs:
            if {p.a, p.b} == {a, b}:
                return p
        raise KeyError((a, b))

    def comparison(self, reference: str, metric: str) -> BandComparison:
        """The comparison against ``reference`` on ``metric``; KeyError if none."""
        for c in self.comparisons:
            if c.reference == reference and c.metric == metric:
                return c
        raise KeyError((reference, metric))

    def headline_metrics(self) -> List[str]:
        """The metrics of the verdict lines: α of `variant` and LAS (else LAS_full, jaccard)."""
        out = [f"alpha_{self.variant}"] if f"alpha_{self.variant}" in self.metrics_compared \
            else []
        score = next((m for m in ("LAS", "LAS_full", "jaccard") if m in self.metrics_compared),
                     None)
        return out + ([score] if score else [])

    def verdict_lines(self) -> List[str]:
        """One line per reference: the verdict on α of `variant` and on LAS."""
        lines = []
        pct = f"{100 * self.level:g}%"
        for r in self.references:
            parts = []
            for m in self.headline_metrics():
                c = self.comparison(r, m)
                if c.verdict == "undefined":
                    parts.append(f"undefined on {m}")
                    continue
                assert c.diff is not None and c.diff_ci is not None
                parts.append(f"{c.verdict} the human band on {m} (difference {c.diff:+.4f}, "
                             f"{pct} CI [{c.diff_ci[0]:+.4f}, {c.diff_ci[1]:+.4f}])")
            lines.append(f"{self.system} against {r}: " + "; ".join(parts))
        return lines

    def to_dict(self) -> dict:
        """JSON-ready: the settings, each pair (metrics at the top), each comparison,
        the verdict lines and the notes."""
        return {"system": self.system, "humans": list(self.humans),
                "references": list(self.references),
                "metrics": list(self.metrics_compared), "variant": self.variant,
                "units": self.units, "units_total": self.units_total,
                "replicates": self.replicates, "seed": self.seed, "level": self.level,
                "pairs": [p.as_dict() for p in self.pairs],
                "comparisons": [c.as_dict() for c in self.comparisons],
                "verdicts": self.verdict_lines(), "notes": list(self.notes),
                "alt_test": self.alt_test.to_dict() if self.alt_test is not None else None}


def _mean(values: Sequence[Optional[float]]) -> Optional[float]:
    if not values or any(v is None for v in values):
        return None
    return float(np.mean(cast(List[float], values)))


def human_band(options: BandOptions, variants: Sequence[str] = VARIANTS, seed: int = 0,
               level: float = 0.95, max_memory: int = DEFAULT_MAX_MEMORY,
               progress: Optional[bool] = None) -> HumanBand:
    """The parser and the humans, pair by pair, and the parser beside a second human.

    docs/method.md §28 and the module docstring.

    Parameters
    ----------
    options : BandOptions
    variants : sequence of str
        α variants compared.
    seed : int
        Seed of the paired bootstrap.
    level : float
        Interval level, a fraction.
    max_memory : int
        Bytes the unit × unit tables may take (planned before any work).
    progress : bool, optional
        Progress bars of the all-pairs passes.

    Raises
    ------
    InputError
        ``usage``: fewer than two humans, a reference that is not a human,
        fewer than 1 replicate; ``memory-limit``.
    """
    data = options.data
    humans = data.annotators
    system = data.extra
    if len(humans) < 2:
        raise InputError.single("<command line>", None, "usage",
                                "the human band needs two or more human annotations besides "
                                "the parser's output")
    references = list(options.references) if options.references else list(humans)
    unknown = [r for r in references if r not in humans]
    if unknown:
        raise InputError.single("<command line>", None, "usage",
                                f"the reference {unknown[0]!r} is not one of the humans "
                                f"({', '.join(humans)})")
    if options.replicates < 1:
        raise InputError.single("<command line>", None, "usage",
                                "the human band needs at least 1 bootstrap replicate")
    variants = [v for v in VARIANTS if v in variants]
    units = data.shared_units()
    U = len(units)
    names = [*humans, system]
    pair_idx = [(i, j) for i, j in combinations(range(len(humans)), 2)] + \
        [(len(humans), i) for i in range(len(humans))]  # system–human after human–human
    check_resampling(U, options.replicates, len(pair_idx), max_memory)
    anns = [[u.annotations[a] for a in names] for u in units]
    vocab = Vocabulary()
    trees = build_trees(anns, vocab)
    dependency = data.corpus.kind == "dependency"
    if dependency:
        labels = (lab for row in anns for s in row for lab in cast(DepSentence, s).deprels)
        word_metrics = word_scores("agree", ud=not non_ud_labels(labels))
    else:
        word_metrics = ("jaccard",)
    metrics = [f"alpha_{v}" for v in variants] + list(word_metrics)
    W = resample_weights(U, options.replicates, seed)
    pairs: List[PairScores] = []
    reps: Dict[Tuple[str, str], Dict[str, np.ndarray]] = {}
    values: Dict[Tuple[str, str], Dict[str, Optional[float]]] = {}
    for i, j in pair_idx:
        a, b = names[i], names[j]
        ta = tree_alpha([[t[i], t[j]] for t in trees], variants, keep_unit_matrix=True,
                        progress=progress)
        assert ta.sums is not None and ta.sums.S is not None  # keep_unit_matrix: exact
        two = [[row[i], row[j]] for row in anns]
        scores = (attachment_scores(cast(List[List[DepSentence]], two), word_metrics)
                  if dependency else jaccard_scores(cast(List[List[PhraseSentence]], two)))
        r: Dict[str, np.ndarray] = {}
        m = ta.sums.m
        for v in variants:
            k = VARIANTS.index(v)
            r[f"alpha_{v}"] = alpha_replicates(ta.sums.diag[:, k] / (m - 1.0), m,
                                               ta.sums.S[k], W)
        correct, total = scores.unit_arrays()
        r.update(bootstrap_ratios(correct, total, W))
        val: Dict[str, Optional[float]] = {f"alpha_{v}": ta.stats[v].alpha for v in variants}
        val.update({mm: (scores.ratio(mm) if scores.total else None) for mm in word_metrics})
        ci = {mm: (percentile_interval(r[mm], level) if val[mm] is not None else None)
              for mm in metrics}
        kind = "system–human" if system in (a, b) else "human–human"
        pairs.append(PairScores(a, b, kind, val, ci, dict(ta.stats), scores))
        reps[(a, b)] = reps[(b, a)] = r
        values[(a, b)] = values[(b, a)] = val
    comparisons = []
    for ref in references:
        others = [h for h in humans if h != ref]
        for mm in metrics:
            sys_v = values[(system, ref)][mm]
            hum = {h: values[(h, ref)][mm] for h in others}
            mean = _mean(list(hum.values()))
            if sys_v is None or mean is None:
                comparisons.append(BandComparison(ref, mm, sys_v, hum, mean, None, None, None,
                                                  None, "undefined"))
                continue
            hum_reps = np.mean([reps[(h, ref)][mm] for h in others], axis=0)
            d = sys_v - mean
            d_reps = reps[(system, ref)][mm] - hum_reps
            iv = percentile_interval(d_reps, level)
            comparisons.append(BandComparison(ref, mm, sys_v, hum, mean,
                                              percentile_interval(hum_reps, level), d, iv,
                                              _p_two_sided(d_reps - d, d), verdict_of(iv)))
    notes: List[str] = []
    if U < len(data.corpus.units):
        notes.append(f"{len(data.corpus.units) - U} unit(s) lack some file's annotation and "
                     f"are left out: every pair is compared on the {U} shared unit(s)")
    small = small_sample_note(U, "the intervals of the human band")
    if small:
        notes.append(small)
    if dependency and "LAS" not in word_metrics:
        notes.append("LAS (on universal relations) is reported for UD relations only; "
                     "LAS_full compares the labels as written")
    ignored = max((p.scores.ignored for p in pairs), default=0)
    if ignored:
        notes.append(f"up to {ignored} shared unit(s) whose two annotations differ in words "
                     f"are left out of a pair's word scores (they still count in alpha)")
    for p in pairs:
        for v, st in p.alpha.items():
            notes.extend(f"{p.a} × {p.b}: {n}" for n in st.notes)
    alt = None
    if len(humans) >= MIN_HUMANS:  # the question the band asks, as a test (method §34.2)
        try:
            alt = alt_test_corpus(data.corpus, system)
        except InputError as exc:  # e.g. fewer than 30 units a human: the test refuses
            notes.append(f"alt-test not run: {exc.errors[0].message}")
    return HumanBand(system, list(humans), references, metrics, options.variant, U,
                     len(data.corpus.units), pairs, comparisons, options.replicates, seed,
                     level, notes, alt)
