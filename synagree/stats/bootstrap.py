"""Unit-resampling bootstrap for α and LAS/UAS/LA, in matrix form.

Replicate b draws the pairable units with replacement (multiplicities
w_b, a row of W).  From the unit × unit δ² sums S (no TED is recomputed):

    D_o*  = Σ_u w_u · S[u,u]/(m_u − 1)  /  n*,          n* = Σ_u w_u m_u
    D_e*  = w S wᵀ / (n*(n* − 1))

(two copies of one unit count as different values; the pairs between a
value and its own copy have δ = 0, which w S wᵀ respects).  LAS and friends
are ratios of per-unit sums, resampled with the same W.  The interval is
the percentile interval at ``level`` (default 95%).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from synagree.distance.sums import VARIANTS, UnitSums


@dataclass
class BootstrapResult:
    replicates: Dict[str, np.ndarray]  # name -> (B,) replicate values
    level: float
    seed: int

    def ci(self, name: str) -> Optional[Tuple[float, float]]:
        r = self.replicates.get(name)
        return None if r is None else percentile_interval(r, self.level)


def percentile_interval(replicates: np.ndarray, level: float) -> Optional[Tuple[float, float]]:
    """The central ``level`` interval of the finite replicates (None if there are none)."""
    r = replicates[np.isfinite(replicates)]
    if r.size == 0:
        return None
    a = (1.0 - level) / 2.0
    lo, hi = np.quantile(r, [a, 1.0 - a])
    return float(lo), float(hi)


def resample_weights(n_units: int, B: int,
                     seed: "int | np.random.Generator") -> np.ndarray:
    """B × n_units multiplicities of units drawn with replacement.  ``seed`` may be
    a Generator: draws then continue its stream (for chunked resampling)."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_units, np.full(n_units, 1.0 / n_units), size=B).astype(np.float64)


def alpha_replicates(do_per_unit: np.ndarray, m: np.ndarray, S: np.ndarray,
                     W: np.ndarray) -> np.ndarray:
    """α per replicate of one variant: ``do_per_unit[u]`` = Σ_{i≠j in u} δ² / (m_u − 1),
    ``m`` values per unit, ``S`` the unit × unit δ² sums; NaN where D_e* = 0."""
    nstar = W @ m
    with np.errstate(divide="ignore", invalid="ignore"):
        do = (W @ do_per_unit) / nstar
        de = np.einsum("bu,bu->b", W @ S, W) / (nstar * (nstar - 1.0))
        return np.where(de > 0, 1.0 - do / de, np.nan)


def bootstrap_alpha(sums: UnitSums, W: np.ndarray,
                    variants: Sequence[str] = VARIANTS) -> Dict[str, np.ndarray]:
    """α replicates per variant from the unit × unit sums and resampling weights."""
    if sums.S is None:
        raise ValueError("the bootstrap needs the unit x unit sums (keep_unit_matrix=True)")
    out = {}
    for v in variants:
        k = VARIANTS.index(v)
        out[f"alpha_{v}"] = alpha_replicates(sums.diag[:, k] / (sums.m - 1.0), sums.m,
                                             sums.S[k], W)
    return out


def bootstrap_ratios(correct: Dict[str, np.ndarray], total: np.ndarray,
                     W: np.ndarray) -> Dict[str, np.ndarray]:
    """Replicates of Σ correct / Σ total for per-unit arrays (e.g. LAS)."""
    tot = W @ total
    with np.errstate(divide="ignore", invalid="ignore"):
        return {m: (W @ c) / tot for m, c in correct.items()}


def bootstrap(sums: UnitSums, B: int = 1000, seed: int = 0, level: float = 0.95,
              variants: Sequence[str] = VARIANTS,
              correct: Optional[Dict[str, np.ndarray]] = None,
              total: Optional[np.ndarray] = None) -> BootstrapResult:
    """Percentile bootstrap over units for α (and ratio scores when given)."""
    W = resample_weights(sums.m.shape[0], B, seed)
    reps = bootstrap_alpha(sums, W, variants)
    if correct is not None and total is not None:
        reps.update(bootstrap_ratios(correct, total, W))
    return BootstrapResult(reps, level, seed)
