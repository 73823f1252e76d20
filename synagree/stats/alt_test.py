"""The alternative annotator test (Calderon, Reichart & Dror 2025) from per-unit scores.

docs/method.md §34.2.  Can a candidate (a parser, an LLM) replace one of the
human annotators?  For each human j in turn (leave one out), on every unit i
that j and at least one other human annotate:

* S(h_j, i): the left-out human's alignment with the remaining humans on the
  unit, S(c, i) the candidate's: the mean over the remaining humans h of a
  per-unit score s(x_i, h_i) (higher is better: LAS, accuracy, −TED);
* W^c_i = [S(c, i) ≥ S(h_j, i)], W^h_i = [S(h_j, i) ≥ S(c, i)] (a tie counts
  for both), d_i = W^h_i − W^c_i;
* the one-sided one-sample t-test of H0: mean(d) ≥ ε against H1: mean(d) < ε
  (ε the cost-benefit allowance; 0.2 for experts, 0.15 skilled, 0.1 crowd
  workers): t = (mean(d) − ε) / (sd(d)/√n), p = F_{n−1}(t); with sd(d) = 0,
  t = ±∞ (p 0 or 1) and NaN where mean(d) = ε (scipy's ttest_1samp);
* ρ_j = mean(W^c): the candidate's advantage probability against j.

The p-values of the m humans are corrected by the Benjamini–Yekutieli
procedure at level q (0.05): sorted p_(k) is compared with
k/m · q/H_m, H_m = Σ_{k ≤ m} 1/k, and the k smallest are rejected for the
largest k that passes (NaN never passes).  A rejected human is one the
candidate *wins* against; the winning rate ω = rejected / m, and the
candidate passes when ω ≥ 0.5.  ρ = mean_j ρ_j compares candidates.

Like the authors' reference implementation (nitaytech/AltTest), a human
with fewer than ``min_units`` (30) scored units is left out (named in the
result); below three humans the test is refused, as the paper requires.

`critical_epsilon`: the smallest ε at which the candidate passes.  The
p-value of human j is below c exactly when ε ≥ mean(d_j) − se_j ·
t⁻¹_{n_j−1}(c), so with thresholds c_k = k/m · q/H_m the candidate passes
at ε iff for some k ≥ ⌈m/2⌉ at least k humans have ε ≥ ε_j(c_k): ε* is the
least over k of the k-th smallest ε_j(c_k).

Label data (`label_scores`, the authors' own setting): S(x, i) is x's
alignment with the *remaining* humans' labels of instance i, as the
reference's scoring functions: ``accuracy`` = the mean of [x = h_i] over
them (the same as the mean of per-pair scores, `unit_alignment`), and
``neg_rmse`` = −√(mean of (x − h_i)²) — not a mean of per-pair scores, so
the numeric alignment is its own function (`label_alignment`).  Like the
reference, an instance is kept only when at least two humans and the
candidate annotate it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np

from synagree.base.problems import InputError
from synagree.stats.student_t import t_cdf, t_quantile

__all__ = ["DEFAULT_EPSILON", "DEFAULT_Q", "MIN_HUMANS", "MIN_UNITS", "SCORINGS", "HumanTest",
           "AltTestResult", "by_rejections", "one_sided_t", "alt_test_scores",
           "unit_alignment", "leave_one_out_scores", "label_alignment", "LabelScores",
           "label_scores"]

DEFAULT_EPSILON = 0.2
DEFAULT_Q = 0.05
MIN_HUMANS = 3
MIN_UNITS = 30
#: the alignment scores of label data, as the reference names them (the first is the default)
SCORINGS = ("accuracy", "neg_rmse")


def _usage(message: str) -> InputError:
    return InputError.single("<command line>", None, "usage", message)


def one_sided_t(d: np.ndarray, epsilon: float) -> Tuple[float, float]:
    """``(t, p)`` of the one-sample t-test of H1: mean(d) < ε (module docstring)."""
    n = len(d)
    mean = float(np.mean(d))
    sd = float(np.std(d, ddof=1)) if n > 1 else math.nan
    diff = mean - epsilon
    if sd == 0.0:
        t = math.nan if diff == 0 else math.copysign(math.inf, diff)
    else:
        t = diff / (sd / math.sqrt(n))
    return t, t_cdf(t, n - 1) if n > 1 else math.nan


def by_rejections(p_values: Sequence[float], q: float = DEFAULT_Q) -> List[bool]:
    """Benjamini–Yekutieli at level ``q``: which hypotheses are rejected.

    Examples
    --------
    >>> by_rejections([0.001, 0.2, 0.004], 0.05)
    [True, False, True]
    """
    p = np.asarray(p_values, dtype=np.float64)
    m = len(p)
    if m == 0:
        return []
    order = np.argsort(p)
    h_m = float(np.sum(1.0 / np.arange(1, m + 1)))
    thresholds = np.arange(1, m + 1) / m * (q / h_m)
    ok = p[order] <= thresholds  # NaN compares False
    passing = np.nonzero(ok)[0]
    out = [False] * m
    if len(passing):
        for j in order[: passing[-1] + 1]:
            out[int(j)] = True
    return out


@dataclass(frozen=True)
class HumanTest:
    """The test against one left-out human.

    Attributes
    ----------
    annotator : str
    units : int
        Units scored (the left-out human and another annotate them).
    candidate_wins, human_wins : int
        Σ W^c and Σ W^h (a tie counts for both).
    advantage : float
        ρ_j = candidate_wins / units.
    mean_difference : float
        mean(d) = (human_wins − candidate_wins) / units.
    t, p_value : float
        The one-sided t-test of mean(d) < ε.
    won : bool
        The candidate wins against this human: rejected by Benjamini–Yekutieli.
    """

    annotator: str
    units: int
    candidate_wins: int
    human_wins: int
    advantage: float
    mean_difference: float
    t: float
    p_value: float
    won: bool

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready fields."""
        return {"annotator": self.annotator, "units": self.units,
                "candidate_wins": self.candidate_wins, "human_wins": self.human_wins,
                "advantage_probability": self.advantage,
                "mean_difference": self.mean_difference, "t": self.t,
                "p_value": self.p_value, "won": self.won}


@dataclass(frozen=True)
class AltTestResult:
    """The alt-test of one candidate against the humans.

    Attributes
    ----------
    candidate : str
    metric : str
        The per-unit score.
    epsilon, q : float
        ε and the Benjamini–Yekutieli level.
    humans : list of HumanTest
        The humans tested, in input order.
    winning_rate : float
        ω, the share of humans the candidate wins against.
    advantage_probability : float
        ρ, the mean of the humans' ρ_j.
    passed : bool
        ω ≥ 0.5.
    critical_epsilon : float
        The smallest ε at which the candidate passes (module docstring);
        +inf when no ε does.
    skipped : dict of str to int
        Humans left out with fewer than ``min_units`` units (their units).
    notes : list of str

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> hs = rng.random((3, 40))
    >>> r = alt_test_scores(["a", "b", "c"], hs, hs - 0.1, candidate="parser")
    >>> r.passed, r.winning_rate, sorted(r.to_dict())[:3]
    (False, 0.0, ['advantage_probability', 'candidate', 'critical_epsilon'])
    """

    candidate: str
    metric: str
    epsilon: float
    q: float
    humans: List[HumanTest]
    winning_rate: float
    advantage_probability: float
    passed: bool
    critical_epsilon: float
    skipped: Dict[str, int] = field(default_factory=dict)
    notes: List[str] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: the settings, the decision and one record per human."""
        return {"candidate": self.candidate, "metric": self.metric, "epsilon": self.epsilon,
                "fdr_q": self.q, "winning_rate": self.winning_rate,
                "advantage_probability": self.advantage_probability,
                "passed": self.passed, "critical_epsilon": self.critical_epsilon,
                "humans": [h.to_dict() for h in self.humans],
                "skipped_humans": dict(self.skipped), "notes": list(self.notes)}


def _critical_epsilon(d: Sequence[np.ndarray], q: float) -> float:
    m = len(d)
    h_m = sum(1.0 / k for k in range(1, m + 1))
    best = math.inf
    for k in range(math.ceil(m / 2), m + 1):
        c = k / m * q / h_m
        eps = []
        for dj in d:
            n = len(dj)
            mean = float(np.mean(dj))
            sd = float(np.std(dj, ddof=1))
            # p_j(ε) ≤ c  ⟺  ε ≥ mean − se · t⁻¹(c); with sd = 0, p = 0 for every ε > mean
            eps.append(mean if sd == 0 else mean - sd / math.sqrt(n) * t_quantile(c, n - 1))
        eps.sort()
        best = min(best, eps[k - 1])
    return best


def alt_test_scores(names: Sequence[str], human_scores: np.ndarray,
                    candidate_scores: np.ndarray, *, candidate: str = "candidate",
                    metric: str = "score", epsilon: float = DEFAULT_EPSILON,
                    q: float = DEFAULT_Q, min_units: int = MIN_UNITS) -> AltTestResult:
    """The alt-test from the leave-one-out alignment scores (module docstring).

    Parameters
    ----------
    names : sequence of str
        The m humans.
    human_scores : array-like
        m × U: S(h_j, i), human j's alignment with the other humans on unit
        i; NaN where j or every other human lacks the unit.
    candidate_scores : array-like
        m × U: S(c, i) with human j left out (NaN as above).
    candidate, metric : str
        Names for the result.
    epsilon : float
        ε, in [0, 1).
    q : float
        The Benjamini–Yekutieli level, in (0, 1).
    min_units : int
        Humans with fewer scored units are left out.

    Raises
    ------
    InputError
        ``usage``: ε or q out of range; fewer than three humans, or fewer than
        three with ``min_units`` units.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> hs = rng.random((3, 40)); cs = hs + 0.1
    >>> r = alt_test_scores(["a", "b", "c"], hs, cs)
    >>> r.winning_rate, r.advantage_probability, r.passed
    (1.0, 1.0, True)
    """
    if not 0.0 <= epsilon < 1.0 or math.isnan(epsilon):
        raise _usage(f"--epsilon {epsilon}: give a value in [0, 1) (0.2 for experts, 0.15 "
                     f"for skilled annotators, 0.1 for crowd workers)")
    if not 0.0 < q < 1.0:
        raise _usage(f"the FDR level {q}: give a value in (0, 1)")
    hs = np.asarray(human_scores, dtype=np.float64)
    cs = np.asarray(candidate_scores, dtype=np.float64)
    if len(names) < MIN_HUMANS:
        raise _usage(f"the alt-test needs at least {MIN_HUMANS} human annotators (leave one "
                     f"out, compare with the rest); {len(names)} given")
    tests: List[HumanTest] = []
    diffs: List[np.ndarray] = []
    skipped: Dict[str, int] = {}
    for j, name in enumerate(names):
        ok = ~(np.isnan(hs[j]) | np.isnan(cs[j]))
        n = int(ok.sum())
        if n < max(min_units, 2):
            skipped[name] = n
            continue
        wc = (cs[j, ok] >= hs[j, ok]).astype(np.float64)
        wh = (hs[j, ok] >= cs[j, ok]).astype(np.float64)
        d = wh - wc
        t, p = one_sided_t(d, epsilon)
        tests.append(HumanTest(name, n, int(wc.sum()), int(wh.sum()), float(wc.mean()),
                               float(d.mean()), t, p, False))
        diffs.append(d)
    if len(tests) < MIN_HUMANS:
        raise _usage(f"too few units: the alt-test needs at least {MIN_HUMANS} humans with "
                     f"{min_units} or more scored units each; "
                     + ", ".join(f"{k} has {v}" for k, v in skipped.items()))
    won = by_rejections([h.p_value for h in tests], q)
    tests = [HumanTest(**{**h.__dict__, "won": w}) for h, w in zip(tests, won)]
    omega = sum(won) / len(tests)
    rho = float(np.mean([h.advantage for h in tests]))
    notes = []
    if skipped:
        notes.append(f"left out, with fewer than {min_units} scored units: "
                     + ", ".join(f"{k} ({v})" for k, v in skipped.items()))
    return AltTestResult(candidate, metric, epsilon, q, tests, omega, rho, omega >= 0.5,
                         _critical_epsilon(diffs, q), skipped, notes)


def unit_alignment(pair_scores: Dict[Tuple[str, str], np.ndarray], x: str, others: Sequence[str]
                   ) -> np.ndarray:
    """S(x, i): the mean over ``others`` of the per-unit scores of the pair (x, h).

    ``pair_scores[(x, h)]`` holds the U per-unit scores of the pair (NaN
    where either lacks the unit); a unit no other annotator has is NaN.
    """
    stack = np.stack([pair_scores[(x, h)] for h in others])
    with np.errstate(invalid="ignore"):
        count = (~np.isnan(stack)).sum(0)
        total = np.nansum(stack, 0)
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def leave_one_out_scores(humans: Sequence[str], candidate: str,
                         pair_scores: Dict[Tuple[str, str], np.ndarray]
                         ) -> Tuple[np.ndarray, np.ndarray]:
    """``(human_scores, candidate_scores)`` of `alt_test_scores` from pair scores.

    Parameters
    ----------
    humans : sequence of str
    candidate : str
    pair_scores : dict
        ``{(x, y): (U,) scores}`` for every ordered pair of a human or the
        candidate with a human (NaN where either lacks the unit).
    """
    hs, cs = [], []
    for h in humans:
        others = [o for o in humans if o != h]
        hs.append(unit_alignment(pair_scores, h, others))
        cs.append(unit_alignment(pair_scores, candidate, others))
    return np.stack(hs), np.stack(cs)



def label_alignment(x: Any, rest: Sequence[Any], scoring: str) -> float:
    """S(x, i): the alignment of label ``x`` with the remaining humans' labels ``rest``.

    ``accuracy``: the share of ``rest`` equal to ``x``; ``neg_rmse``: minus the
    root of the mean squared difference (numbers), as the reference's scoring
    functions compute them (``numpy.mean`` over ``rest`` in order, so ties
    between the candidate and the human fall as there).

    Examples
    --------
    >>> label_alignment("A", ["A", "B"], "accuracy")
    0.5
    >>> label_alignment(3, [1, 3], "neg_rmse") == -(2.0 ** 0.5)
    True
    """
    if scoring == "accuracy":
        return float(np.mean([x == h for h in rest]))
    return -float(np.sqrt(np.mean([(x - h) ** 2 for h in rest])))


@dataclass(frozen=True)
class LabelScores:
    """The leave-one-out alignment scores of label data (`label_scores`).

    Attributes
    ----------
    names : list of str
        The humans, in input order.
    human_scores, candidate_scores : numpy.ndarray
        m × U, as `alt_test_scores` takes them (NaN where human j lacks the
        instance).
    instances : list
        The U instances kept, in order of first appearance.
    dropped : int
        Instances left out: fewer than two humans, or no candidate label.
    """

    names: List[str]
    human_scores: np.ndarray
    candidate_scores: np.ndarray
    instances: List[Any]
    dropped: int


def label_scores(humans: Dict[str, Dict[Any, Any]], candidate: Dict[Any, Any],
                 scoring: str = "accuracy") -> LabelScores:
    """S(h_j, i) and S(c, i) for every human j and kept instance i (module docstring).

    Parameters
    ----------
    humans : dict
        ``{annotator: {instance: label}}``.
    candidate : dict
        ``{instance: label}``.
    scoring : str
        ``accuracy`` or ``neg_rmse`` (`SCORINGS`).
    """
    names = list(humans)
    seen: Dict[Any, int] = {}
    for anns in humans.values():
        for i in anns:
            seen[i] = seen.get(i, 0) + 1
    kept = [i for i, n in seen.items() if n >= 2 and i in candidate]
    hs = np.full((len(names), len(kept)), np.nan)
    cs = np.full((len(names), len(kept)), np.nan)
    for j, h in enumerate(names):
        mine = humans[h]
        for u, i in enumerate(kept):
            if i not in mine:
                continue
            rest = [humans[o][i] for o in names if o != h and i in humans[o]]
            hs[j, u] = label_alignment(mine[i], rest, scoring)
            cs[j, u] = label_alignment(candidate[i], rest, scoring)
    return LabelScores(names, hs, cs, kept, len(seen) - len(kept))
