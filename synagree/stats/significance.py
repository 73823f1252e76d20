"""Paired significance tests between systems scored against the same gold units.

Every system is reduced to per-unit arrays over one common set of *units*
(gold sentences, or groups of them where some system splits sentences
differently; see `synagree.evaluation.compare`):

* a **ratio metric** (LAS, UAS, CLAS, ...) keeps, per unit, the number of
  correct words ``c``, gold words ``g`` and system words ``s``; its value is
  the scorer's F1 ``2·Σc / (Σg + Σs)`` (equal to accuracy when the
  tokenisation is gold);
* **α** keeps, per unit, ``do[u] = Σ_{i≠j in u} δ²/(m_u − 1)``, the number of
  values ``m[u]`` and the unit × unit matrix ``S[u, v]`` of δ² sums (one
  variant, normally plain), so that ``α = 1 − (Σdo/Σm) / (1ᵀS1 / (n(n−1)))``
  (docs/method.md §5; see `synagree.stats.bootstrap`).

Paired bootstrap
    Replicate *b* draws the units with replacement (multiplicities ``W[b]``,
    the same draws for every system: the pairing).  Every metric of every
    system is recomputed from ``W @ counts`` (and ``W S Wᵀ`` for α), so no
    tree edit distance is recomputed.  For a pair of systems A, B the
    replicate differences ``d_b = m_A(b) − m_B(b)`` give the percentile
    interval of the difference at ``level`` and the two-sided p-value
    ``(1 + #{b : |d_b − d| ≥ |d|}) / (B + 1)`` with ``d`` the observed
    difference (the bootstrap distribution shifted to the null, as in
    Berg-Kirkpatrick et al. 2012, two-sided).

Approximate randomisation
    Round *r* swaps the two systems' outputs on each unit with probability
    1/2 (mask ``Z[r]``, one mask for every pair of systems) and recomputes
    the difference; ``p = (1 + #{r : |d_r| ≥ |d|}) / (R + 1)``.  For ratio
    metrics this is exact: swapped totals are ``Σc_A + Z @ (c_B − c_A)``.
    For α it is an approximation, stated here and in the result's notes:
    swapping the trees of one unit between two systems changes D_e through
    distances between *different systems'* trees of *different* sentences,
    which nobody has computed (O(units²) tree edit distances per pair of
    systems).  The test therefore permutes the observed disagreement and
    holds D_e fixed at the mean of the two systems' D_e: the statistic is
    ``(D_o,B − D_o,A) / D̄_e``, which equals ``α_A − α_B`` up to the
    (small) difference between the two systems' D_e.  The reported
    difference is always the exact ``α_A − α_B``.

Both p-values count ties as at least as extreme (with a relative tolerance
of 1e-12), so two identical systems get p = 1 exactly.  Everything is
seeded: the same inputs and seed give the same numbers.  Cost: one
``(B × units) @ (units × units)`` product per system for α and
``(B × units) @ (units × systems)`` for the ratio metrics, in chunks of
replicates to bound memory.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from synagree.base.metrics import resampled_scores
from synagree.stats.alpha import AlphaStats
from synagree.stats.bootstrap import alpha_replicates, bootstrap, percentile_interval

__all__ = ["RatioUnits", "AlphaUnits", "SystemUnits", "PairTest", "SignificanceResult",
           "aggregate_alpha", "significance", "default_metrics"]


def default_metrics() -> Tuple[str, ...]:
    """The metrics tested by default: the registry's resampled word scores of
    ``compare`` (`synagree.base.metrics.resampled_scores`: LAS, UAS, CLAS) and α_plain."""
    return (*resampled_scores("compare"), "alpha_plain")

_TOL = 1e-12
_CHUNK_ELEMENTS = 4_000_000  # replicates × units per chunk


@dataclass
class RatioUnits:
    """Per-unit counts of one ratio metric: correct, gold and system words.

    The metric is the scorer's F1 ``2·Σc / (Σg + Σs)`` (docs/method.md §11.2),
    accuracy when the tokenisation is gold.

    Parameters
    ----------
    correct, gold, system : numpy.ndarray
        (U,) per unit.
    """

    correct: np.ndarray
    gold: np.ndarray
    system: np.ndarray

    def value(self) -> float:
        """F1 ``2·Σcorrect / (Σgold + Σsystem)`` (0.0 when both totals are 0)."""
        tot = float(self.gold.sum() + self.system.sum())
        return 2.0 * float(self.correct.sum()) / tot if tot else 0.0


@dataclass
class AlphaUnits:
    """Per-unit α sums of one variant (see the module docstring).

    Parameters
    ----------
    do : numpy.ndarray
        (U,): Σ_{i≠j in u} δ² / (m_u − 1).
    m : numpy.ndarray
        (U,): values per unit.
    S : numpy.ndarray
        (U, U): δ² sums between the values of two units (diagonal: within).
    """

    do: np.ndarray  # (U,) Σ_{i≠j in u} δ² / (m_u − 1)
    m: np.ndarray  # (U,) values per unit
    S: np.ndarray  # (U, U) δ² sums between the values of two units (diagonal: within)

    def stats(self) -> AlphaStats:
        """The point estimate as `synagree.stats.alpha.AlphaStats` sums."""
        return AlphaStats(float(self.do.sum()), float(self.S.sum()), int(self.m.sum()),
                          int(self.m.shape[0]))

    def value(self) -> Optional[float]:
        """α (None when undefined)."""
        return self.stats().alpha


def aggregate_alpha(diag: np.ndarray, m: np.ndarray, S: np.ndarray,
                    unit_of: Optional[np.ndarray] = None,
                    n_units: Optional[int] = None) -> AlphaUnits:
    """`AlphaUnits` from one variant's per-group sums, groups summed into units.

    Parameters
    ----------
    diag : numpy.ndarray
        (G,): Σ_{i≠j in g} δ² per group.
    m : numpy.ndarray
        (G,): values per group.
    S : numpy.ndarray
        (G, G) δ² sums between groups.
    unit_of : numpy.ndarray, optional
        (G,): the unit of each group; a unit then resamples all its groups
        together.  None: every group is a unit.
    n_units : int, optional
        Number of units (default: ``unit_of.max() + 1``).
    """
    do = diag / (m - 1.0)
    if unit_of is None:
        return AlphaUnits(do.astype(np.float64), m.astype(np.float64), S.astype(np.float64))
    unit_of = np.asarray(unit_of, dtype=np.int64)
    U = int(n_units if n_units is not None else (unit_of.max() + 1 if unit_of.size else 0))
    if U == unit_of.shape[0] and np.array_equal(unit_of, np.arange(U)):
        return AlphaUnits(do.astype(np.float64), m.astype(np.float64), S.astype(np.float64))
    do_u = np.bincount(unit_of, weights=do, minlength=U)
    m_u = np.bincount(unit_of, weights=m, minlength=U)
    rows = np.zeros((U, S.shape[1]))
    np.add.at(rows, unit_of, S)
    S_u = np.zeros((U, U))
    np.add.at(S_u.T, unit_of, rows.T)
    return AlphaUnits(do_u, m_u, S_u)


@dataclass
class SystemUnits:
    """One system's per-unit arrays: ratio metrics and α variants by name.

    Parameters
    ----------
    name : str
    ratios : dict of str to RatioUnits
        E.g. ``"LAS"``, ``"UAS"``, ``"CLAS"``.
    alphas : dict of str to AlphaUnits
        E.g. ``"alpha_plain"``.
    """

    name: str
    ratios: Dict[str, RatioUnits] = field(default_factory=dict)
    alphas: Dict[str, AlphaUnits] = field(default_factory=dict)

    def value(self, metric: str) -> Optional[float]:
        """The metric's value, or None when the system lacks it."""
        if metric in self.ratios:
            return self.ratios[metric].value()
        if metric in self.alphas:
            return self.alphas[metric].value()
        return None

    def has(self, metric: str) -> bool:
        """Whether the system has the metric."""
        return metric in self.ratios or metric in self.alphas

    @property
    def n_units(self) -> int:
        """Number of units (0 when the system has no metric)."""
        for r in self.ratios.values():
            return int(r.correct.shape[0])
        for a in self.alphas.values():
            return int(a.m.shape[0])
        return 0


@dataclass
class PairTest:
    """System ``a`` against system ``b`` on one metric.

    Parameters
    ----------
    a, b : str
    metric : str
    value_a, value_b : float or None
    diff : float or None
        ``value_a − value_b``.
    ci : (float, float) or None
        Percentile interval of the difference.
    p_bootstrap : float or None
        Two-sided paired-bootstrap p-value.
    p_randomisation : float or None
        Two-sided approximate-randomisation p-value.
    """

    a: str
    b: str
    metric: str
    value_a: Optional[float]
    value_b: Optional[float]
    diff: Optional[float]  # value_a − value_b
    ci: Optional[Tuple[float, float]]  # percentile interval of the difference
    p_bootstrap: Optional[float]
    p_randomisation: Optional[float]

    def as_dict(self) -> dict:
        """The test as a JSON-ready dict."""
        return {"a": self.a, "b": self.b, "metric": self.metric, "value_a": self.value_a,
                "value_b": self.value_b, "diff": self.diff,
                "ci": list(self.ci) if self.ci else None,
                "p_bootstrap": self.p_bootstrap, "p_randomisation": self.p_randomisation}


@dataclass
class SignificanceResult:
    """Every pairwise test between systems, with per-system values and intervals.

    Returned by `significance`.

    Parameters
    ----------
    systems : list of str
    metrics : list of str
    values : dict
        System to metric to value.
    ci : dict
        System to metric to its percentile interval (or None).
    pairs : list of PairTest
    B, R : int
        Bootstrap replicates and randomisation rounds.
    seed : int
    level : float
        Interval level, a fraction.
    units : int
    notes : list of str
    """
    systems: List[str]
    metrics: List[str]
    values: Dict[str, Dict[str, Optional[float]]]  # system -> metric -> value
    ci: Dict[str, Dict[str, Optional[Tuple[float, float]]]]  # per-system percentile CI
    pairs: List[PairTest]
    B: int
    R: int
    seed: int
    level: float
    units: int
    notes: List[str] = field(default_factory=list)

    def pair(self, a: str, b: str, metric: str) -> PairTest:
        """The test of ``a`` and ``b`` (either order) on ``metric``; KeyError if none."""
        for t in self.pairs:
            if t.metric == metric and {t.a, t.b} == {a, b}:
                return t
        raise KeyError((a, b, metric))

    def as_dict(self) -> dict:
        """The result as a JSON-ready dict."""
        return {"B": self.B, "R": self.R, "seed": self.seed, "level": self.level,
                "units": self.units, "systems": list(self.systems),
                "metrics": list(self.metrics), "values": self.values,
                "ci": {s: {m: (list(c) if c else None) for m, c in d.items()}
                       for s, d in self.ci.items()},
                "pairs": [t.as_dict() for t in self.pairs], "notes": list(self.notes)}


# --------------------------------------------------------------------------- helpers

def _p_two_sided(stat: np.ndarray, observed: float) -> Optional[float]:
    """(1 + #{|stat| ≥ |observed|}) / (N + 1), ties counted as extreme."""
    stat = stat[np.isfinite(stat)]
    if stat.size == 0 or not math.isfinite(observed):
        return None
    thr = abs(observed) * (1.0 - _TOL) - _TOL * 1e-3
    return float((1 + np.count_nonzero(np.abs(stat) >= thr)) / (stat.size + 1))


def _step(U: int) -> int:
    """Replicates per chunk: about `_CHUNK_ELEMENTS` replicate × unit cells."""
    return max(1, _CHUNK_ELEMENTS // max(U, 1))


def _chunks(B: int, U: int) -> List[Tuple[int, int]]:
    step = _step(U)
    return [(b0, min(B, b0 + step)) for b0 in range(0, B, step)]


def _f1(c: np.ndarray, g: np.ndarray, s: np.ndarray) -> np.ndarray:
    tot = g + s
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(tot > 0, 2.0 * c / np.where(tot > 0, tot, 1.0), 0.0)


def _alpha_reps(a: AlphaUnits, W: np.ndarray) -> np.ndarray:
    return alpha_replicates(a.do, a.m, a.S, W)


# --------------------------------------------------------------------------- tests

def significance(systems: Sequence[SystemUnits], B: int = 1000, R: Optional[int] = None,
                 seed: int = 0, level: float = 0.95,
                 metrics: Optional[Sequence[str]] = None) -> SignificanceResult:
    """Paired bootstrap and approximate randomisation between every two systems.

    docs/method.md §11.5 and the module docstring: the bootstrap uses the same
    unit draws for every system; the randomisation swaps the two systems'
    outputs per unit.  p-values are two-sided and count ties as extreme, so
    identical systems get p = 1.

    Parameters
    ----------
    systems : sequence of SystemUnits
        Sharing their units (same length, same order).
    B : int
        Bootstrap replicates.
    R : int, optional
        Randomisation rounds (default ``B``).
    seed : int
        Seeds both (the same inputs and seed give the same numbers).
    level : float
        Interval level, a fraction (0.95 = 95 %).
    metrics : sequence of str, optional
        A metric some system lacks is tested only between the systems that have
        it; metrics no system has are dropped.  None: `default_metrics`.

    Raises
    ------
    ValueError
        ``B`` or ``R`` below 1, or systems with different numbers of units.
    """
    if B < 1:
        raise ValueError("B must be at least 1")
    R = B if R is None else int(R)
    if R < 1:
        raise ValueError("R must be at least 1")
    names = [s.name for s in systems]
    sizes = {s.n_units for s in systems}
    if len(sizes) > 1:
        raise ValueError(f"systems have different numbers of units: {sorted(sizes)}")
    U = sizes.pop() if sizes else 0
    asked = default_metrics() if metrics is None else metrics
    st = _Stacked(systems, [m for m in asked if any(s.has(m) for s in systems)], U)
    values = {s.name: {m: s.value(m) for m in st.metrics} for s in systems}
    reps: Dict[str, np.ndarray] = {m: np.full((B, len(systems)), np.nan) for m in st.metrics}
    if U > 0:  # one generator, drawn in memory-sized chunks (the engine's)
        reps = bootstrap(st.statistic, U, B, np.random.default_rng(seed), level,
                         chunk=_step(U)).replicates
    ar_stats, ar_observed, notes = _randomisation(st, R, seed)
    ci = {s.name: {m: (percentile_interval(reps[m][:, i], level) if s.has(m) and U else None)
                   for m in st.metrics} for i, s in enumerate(systems)}
    tests: List[PairTest] = []
    for m in st.metrics:
        for i, j in combinations(range(len(systems)), 2):
            va, vb = values[names[i]][m], values[names[j]][m]
            if va is None or vb is None or not (systems[i].has(m) and systems[j].has(m)):
                tests.append(PairTest(names[i], names[j], m, va, vb, None, None, None, None))
                continue
            d = va - vb
            if U:
                dr = reps[m][:, i] - reps[m][:, j]
                iv = percentile_interval(dr, level)
                pb = _p_two_sided(dr - d, d)
                stat = ar_stats.get((m, i, j))
                obs = ar_observed.get((m, i, j), d)
                pr = _p_two_sided(stat, obs) if stat is not None else None
            else:
                iv = pb = pr = None
            tests.append(PairTest(names[i], names[j], m, va, vb, d, iv, pb, pr))
    return SignificanceResult(names, list(st.metrics), values, ci, tests, B, R, seed, level, U,
                              notes)


class _Stacked:
    """The systems' per-unit arrays stacked per metric (systems × units)."""

    def __init__(self, systems: Sequence[SystemUnits], metrics: Sequence[str], U: int):
        self.systems, self.metrics, self.U = systems, list(metrics), U
        self.k = len(systems)
        self.ratio_metrics = [m for m in metrics if any(m in s.ratios for s in systems)]
        self.alpha_metrics = [m for m in metrics if m not in self.ratio_metrics]
        self.C = {m: self._stack(m, "correct") for m in self.ratio_metrics}
        self.G = {m: self._stack(m, "gold") for m in self.ratio_metrics}
        self.Sy = {m: self._stack(m, "system") for m in self.ratio_metrics}

    def _stack(self, m: str, attr: str) -> np.ndarray:
        out = np.zeros((self.k, self.U))
        for i, s in enumerate(self.systems):
            if m in s.ratios:
                out[i] = getattr(s.ratios[m], attr)
        return out

    def statistic(self, W: np.ndarray) -> Dict[str, np.ndarray]:
        """Every metric of every system under the unit multiplicities ``W`` (the paired
        bootstrap: the same ``W`` for every system and metric)."""
        out = {m: np.full((W.shape[0], self.k), np.nan) for m in self.metrics}
        for m in self.ratio_metrics:
            out[m][:] = _f1(W @ self.C[m].T, W @ self.G[m].T, W @ self.Sy[m].T)
        for m in self.alpha_metrics:
            for i, s in enumerate(self.systems):
                if m in s.alphas:
                    out[m][:, i] = _alpha_reps(s.alphas[m], W)
        return out

    def alpha_totals(self, m: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per system and unit the D_o sums and values of α metric ``m``, and each D_e."""
        do = np.zeros((self.k, self.U))
        mm = np.zeros((self.k, self.U))
        de = np.full(self.k, np.nan)
        for i, s in enumerate(self.systems):
            if m in s.alphas:
                do[i], mm[i], de[i] = s.alphas[m].do, s.alphas[m].m, s.alphas[m].stats().d_e
        return do, mm, de


_ArKey = Tuple[str, int, int]


def _randomisation(st: _Stacked, R: int, seed: int
                   ) -> Tuple[Dict[_ArKey, np.ndarray], Dict[_ArKey, float], List[str]]:
    """Approximate randomisation (masks shared by every pair of systems): per (metric,
    i, j) the statistic of every round and, for α, the observed one; the notes."""
    rng_ar = np.random.default_rng([seed, 1])
    pairs_idx = list(combinations(range(st.k), 2))
    if st.U == 0 or not pairs_idx:
        return {}, {}, []
    ar_parts: Dict[_ArKey, List[np.ndarray]] = {}
    alpha_tot = {m: st.alpha_totals(m) for m in st.alpha_metrics}
    for r0, r1 in _chunks(R, st.U):
        Z = rng_ar.integers(0, 2, size=(r1 - r0, st.U)).astype(np.float64)
        for m in st.ratio_metrics:
            _ratio_rounds(Z, st.C[m], st.G[m], st.Sy[m], pairs_idx, m, ar_parts)
        for m in st.alpha_metrics:
            _alpha_rounds(Z, *alpha_tot[m], pairs_idx, m, ar_parts)
    ar_stats = {key: np.concatenate(v) for key, v in ar_parts.items()}
    ar_observed: Dict[_ArKey, float] = {}
    for m in st.alpha_metrics:
        do, mm, de = alpha_tot[m]
        for i, j in pairs_idx:
            if (m, i, j) in ar_stats:
                dbar = 0.5 * (de[i] + de[j])
                ar_observed[(m, i, j)] = float(
                    (do[j].sum() / mm[j].sum() - do[i].sum() / mm[i].sum()) / dbar)
    notes = []
    if st.alpha_metrics:
        notes.append("approximate randomisation for alpha permutes the per-unit observed "
                     "disagreement with D_e held at the mean of the two systems' D_e "
                     "(exact D_e under permutation would need distances between the two "
                     "systems' trees of different sentences); the bootstrap is exact")
    return ar_stats, ar_observed, notes


def _ratio_rounds(Z: np.ndarray, C: np.ndarray, G: np.ndarray, Sy: np.ndarray,
                  pairs_idx: Sequence[Tuple[int, int]], m: str,
                  ar_parts: Dict[_ArKey, List[np.ndarray]]) -> None:
    """The swapped F1 differences of a ratio metric in rounds ``Z`` (exact)."""
    zc, zg, zs = Z @ C.T, Z @ G.T, Z @ Sy.T
    ct, gt, st = C.sum(axis=1), G.sum(axis=1), Sy.sum(axis=1)
    for i, j in pairs_idx:
        dc, dg, ds = zc[:, j] - zc[:, i], zg[:, j] - zg[:, i], zs[:, j] - zs[:, i]
        fa = _f1(ct[i] + dc, gt[i] + dg, st[i] + ds)
        fb = _f1(ct[j] - dc, gt[j] - dg, st[j] - ds)
        ar_parts.setdefault((m, i, j), []).append(fa - fb)


def _alpha_rounds(Z: np.ndarray, do: np.ndarray, mm: np.ndarray, de: np.ndarray,
                  pairs_idx: Sequence[Tuple[int, int]], m: str,
                  ar_parts: Dict[_ArKey, List[np.ndarray]]) -> None:
    """The swapped α statistics in rounds ``Z``: D_o permuted, D_e held at the mean."""
    zdo, zm = Z @ do.T, Z @ mm.T
    for i, j in pairs_idx:
        if not (math.isfinite(de[i]) and math.isfinite(de[j])):
            continue
        dbar = 0.5 * (de[i] + de[j])
        ddo, dm = zdo[:, j] - zdo[:, i], zm[:, j] - zm[:, i]
        doa = (do[i].sum() + ddo) / (mm[i].sum() + dm)
        dob = (do[j].sum() - ddo) / (mm[j].sum() - dm)
        ar_parts.setdefault((m, i, j), []).append((dob - doa) / dbar)
