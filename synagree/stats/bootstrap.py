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
    """Bootstrap replicates per statistic, with the interval level and seed.

    Parameters
    ----------
    replicates : dict of str to numpy.ndarray
        Name (``alpha_plain``, ``las``, ...) to its (B,) replicate values
        (NaN where undefined).
    level : float
        Confidence level, a fraction (0.95 = 95 %).
    seed : int
    """
    replicates: Dict[str, np.ndarray]  # name -> (B,) replicate values
    level: float
    seed: int

    @property
    def size(self) -> int:
        """B, the number of replicates."""
        return int(next(iter(self.replicates.values())).shape[0]) if self.replicates else 0

    def ci(self, name: str) -> Optional[Tuple[float, float]]:
        """The percentile interval of ``name`` at ``level`` (None: unknown name)."""
        r = self.replicates.get(name)
        return None if r is None else percentile_interval(r, self.level)


#: Fewer resampled units than this and an interval carries a "small sample" note.
SMALL_SAMPLE = 30


def small_sample_note(units: int, what: str = "the intervals") -> Optional[str]:
    """The "small sample" note for intervals resampled over ``units`` units, or
    None from `SMALL_SAMPLE` units on.

    A percentile interval over a handful of units (a 2-sentence interval of
    [-0.50, 0.98]) says little: with so few units the bootstrap distribution
    is lumpy and too narrow, so every format that prints an interval over
    fewer than 30 units prints this note with it.

    Parameters
    ----------
    units : int
        Units (sentences) resampled.
    what : str
        What the intervals are of, to begin the note.
    """
    if units >= SMALL_SAMPLE:
        return None
    return (f"small sample: {what} rest on {units} resampled unit(s), fewer than "
            f"{SMALL_SAMPLE}; percentile bootstrap intervals over so few are unreliable")


def percentile_interval(replicates: np.ndarray, level: float) -> Optional[Tuple[float, float]]:
    """The central ``level`` interval of the finite replicates (docs/method.md §5.4).

    Parameters
    ----------
    replicates : numpy.ndarray
        Replicate values; NaN and infinities are dropped.
    level : float
        A fraction (0.95 = 95 %).

    Returns
    -------
    (float, float) or None
        None if no replicate is finite.
    """
    r = replicates[np.isfinite(replicates)]
    if r.size == 0:
        return None
    a = (1.0 - level) / 2.0
    lo, hi = np.quantile(r, [a, 1.0 - a])
    return float(lo), float(hi)


def resample_weights(n_units: int, B: int,
                     seed: "int | np.random.Generator") -> np.ndarray:
    """B × n_units multiplicities of units drawn with replacement.

    Parameters
    ----------
    n_units : int
    B : int
        Replicates.
    seed : int or numpy.random.Generator
        A Generator continues its stream (for chunked resampling).

    Returns
    -------
    numpy.ndarray
        float64 (B, n_units); every row sums to ``n_units``.
    """
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_units, np.full(n_units, 1.0 / n_units), size=B).astype(np.float64)


def alpha_replicates(do_per_unit: np.ndarray, m: np.ndarray, S: np.ndarray,
                     W: np.ndarray) -> np.ndarray:
    """α per replicate of one variant, from unit sums and resampling weights.

    With weights w (a row of W), n* = Σ_u w_u m_u:
    D_o* = Σ_u w_u · do_per_unit[u] / n*, D_e* = w S wᵀ / (n*(n* − 1)),
    α* = 1 − D_o*/D_e* (docs/method.md §5.4).

    Parameters
    ----------
    do_per_unit : numpy.ndarray
        (U,): Σ_{i≠j in u} δ² / (m_u − 1).
    m : numpy.ndarray
        (U,): values per unit.
    S : numpy.ndarray
        (U, U): the unit × unit δ² sums of the variant.
    W : numpy.ndarray
        (B, U): resampling weights.

    Returns
    -------
    numpy.ndarray
        (B,); NaN where D_e* = 0.
    """
    nstar = W @ m
    with np.errstate(divide="ignore", invalid="ignore"):
        do = (W @ do_per_unit) / nstar
        de = np.einsum("bu,bu->b", W @ S, W) / (nstar * (nstar - 1.0))
        return np.where(de > 0, 1.0 - do / de, np.nan)


def bootstrap_alpha(sums: UnitSums, W: np.ndarray,
                    variants: Sequence[str] = VARIANTS) -> Dict[str, np.ndarray]:
    """α replicates per variant from the unit × unit sums and resampling weights.

    Parameters
    ----------
    sums : UnitSums
        With ``S`` (computed with ``want_s=True`` / ``keep_unit_matrix=True``).
    W : numpy.ndarray
        (B, U) resampling weights (`resample_weights`).
    variants : sequence of str

    Returns
    -------
    dict of str to numpy.ndarray
        ``alpha_<variant>`` to its (B,) replicates.

    Raises
    ------
    ValueError
        ``sums.S`` is None.
    """
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
    """Replicates of Σ correct / Σ total for per-unit arrays (e.g. LAS).

    Parameters
    ----------
    correct : dict of str to numpy.ndarray
        Per metric, (U,) credited words per unit.
    total : numpy.ndarray
        (U,) words per unit.
    W : numpy.ndarray
        (B, U) resampling weights.

    Returns
    -------
    dict of str to numpy.ndarray
        Per metric, (B,) ratios (fractions).
    """
    tot = W @ total
    with np.errstate(divide="ignore", invalid="ignore"):
        return {m: (W @ c) / tot for m, c in correct.items()}


def bootstrap(sums: UnitSums, B: int = 1000, seed: int = 0, level: float = 0.95,
              variants: Sequence[str] = VARIANTS,
              correct: Optional[Dict[str, np.ndarray]] = None,
              total: Optional[np.ndarray] = None) -> BootstrapResult:
    """Percentile bootstrap over units for α (and ratio scores when given).

    docs/method.md §5.4: replicate b draws the pairable units with
    replacement; no TED is recomputed.

    Parameters
    ----------
    sums : UnitSums
        With the unit × unit matrix ``S``.
    B : int
        Replicates.
    seed : int
    level : float
        Confidence level, a fraction.
    variants : sequence of str
    correct : dict of str to numpy.ndarray, optional
        Per-unit credited words per metric (`Counts.unit_arrays`).
    total : numpy.ndarray, optional
        Per-unit words.
    """
    W = resample_weights(sums.m.shape[0], B, seed)
    reps = bootstrap_alpha(sums, W, variants)
    if correct is not None and total is not None:
        reps.update(bootstrap_ratios(correct, total, W))
    return BootstrapResult(reps, level, seed)
