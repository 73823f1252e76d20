"""The one resampling engine: unit bootstrap with percentile intervals, in matrix form.

docs/method.md §5.4.  Replicate b draws the units (sentences) with
replacement: row b of the multiplicities W (`resample_weights`, a seeded
numpy Generator).  A statistic is a function of W computed from per-unit
counts, never by a second pass over the data; `bootstrap` draws W (or takes
it, to share resamples between statistics), evaluates the statistic, in
chunks of replicates where asked, and keeps the replicates
(`BootstrapResult`); `interval` summarises them: the percentile interval at
``level`` (`percentile_interval`), the standard error and the replicates where
the statistic was undefined.  Every interval of the project is drawn here:

* α and the word scores of ``agree --bootstrap`` (`alpha_bootstrap`): from the
  unit × unit δ² sums S (no TED is recomputed)::

      D_o*  = Σ_u w_u · S[u,u]/(m_u − 1)  /  n*,          n* = Σ_u w_u m_u
      D_e*  = w S wᵀ / (n*(n* − 1))

  (two copies of one unit count as different values; the pairs between a
  value and its own copy have δ = 0, which w S wᵀ respects); LAS and friends
  are ratios of per-unit sums (`bootstrap_ratios`);
* the token-layer coefficients (`synagree.stats.categorical.layer_bootstrap`);
* the QA report's intervals (`synagree.agreement.qa.bootstrap_intervals`);
* tag accuracy, κ and π (`synagree.stats.tag_intervals`);
* the paired bootstraps of ``--significance`` and ``--baseline``
  (`synagree.stats.significance`, `synagree.stats.regression`).

Where callers differ, the difference is a parameter: the unit (the pairable
units of an agreement result, or the units of one token layer, whose weights
are columns of the same W: ``weights=``); one draw per seed or one Generator
stream across several statistics (``seed`` a Generator); memory-sized chunks
of replicates (``chunk``: drawn chunk by chunk from one stream, the same
replicates as one draw).  The human band (`synagree.agreement.human_band`)
evaluates many pairs on one `resample_weights` draw; the sample-size planner and
drift resample other numbers of units than they have, from the same primitives.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from synagree.distance.sums import VARIANTS, UnitSums
from synagree.stats.replicates import check_replicates, min_replicates

__all__ = ["BootstrapResult", "small_sample_note", "percentile_interval", "resample_weights",
           "Interval", "interval", "bootstrap", "alpha_replicates", "bootstrap_alpha",
           "bootstrap_ratios", "alpha_bootstrap", "check_replicates", "min_replicates",
           "SMALL_SAMPLE", "Statistic"]


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
    seed : int or None
        The seed of the draw; None when the weights were given or drawn from
        a caller's Generator.
    """
    replicates: Dict[str, np.ndarray]  # name -> (B,) replicate values
    level: float
    seed: Optional[int]

    @property
    def size(self) -> int:
        """B, the number of replicates."""
        return int(next(iter(self.replicates.values())).shape[0]) if self.replicates else 0

    def ci(self, name: str) -> Optional[Tuple[float, float]]:
        """The percentile interval of ``name`` at ``level`` (None: unknown name)."""
        r = self.replicates.get(name)
        return None if r is None else percentile_interval(r, self.level)

    def interval(self, name: str, estimate: Optional[float]) -> "Interval":
        """The `Interval` of ``name`` around the point ``estimate``."""
        return interval(estimate, self.replicates[name], self.level)


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
        float64 (B, n_units); every row sums to ``n_units``; (B, 0) when there
        are no units (nothing is drawn).
    """
    if n_units == 0:
        return np.zeros((B, 0))
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_units, np.full(n_units, 1.0 / n_units), size=B).astype(np.float64)


@dataclass
class Interval:
    """A bootstrap percentile interval of one statistic.

    Parameters
    ----------
    estimate : float or None
        The point estimate (None where undefined).
    low, high : float or None
        The percentile interval (None when no replicate is finite).
    se : float or None
        Standard deviation (ddof 1) of the finite replicates (None for fewer
        than two).
    replicates : numpy.ndarray
    failed : int
        Replicates where the statistic was undefined (not finite).
    """
    estimate: Optional[float]
    low: Optional[float]
    high: Optional[float]
    se: Optional[float]
    replicates: np.ndarray
    failed: int = 0  # replicates where the statistic was undefined

    def fields(self, undefined: Optional[float] = None) -> Dict[str, object]:
        """``estimate``, ``low``, ``high``, ``se`` (``undefined`` where there is none)
        and the ``replicates`` array: the form of the token layers' intervals
        (``undefined=nan``), which `to_dict` is not."""
        def value(x: Optional[float]) -> Optional[float]:
            return undefined if x is None else x
        return {"estimate": value(self.estimate), "low": value(self.low),
                "high": value(self.high), "se": value(self.se), "replicates": self.replicates}

    def to_dict(self, with_replicates: bool = False) -> dict:
        """The interval as a JSON-ready dict (replicates, to 10 decimals, only when asked)."""
        d: Dict[str, object] = {"estimate": _finite(self.estimate), "low": _finite(self.low),
                                "high": _finite(self.high), "se": _finite(self.se),
                                "failed": self.failed}
        if with_replicates:
            d["replicates"] = [None if not math.isfinite(x) else round(float(x), 10)
                               for x in self.replicates]
        return d


def _finite(x: Optional[float]) -> Optional[float]:
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x


def interval(estimate: Optional[float], replicates: np.ndarray, level: float) -> Interval:
    """The `Interval` of a statistic from its point estimate and replicates.

    The percentile interval at ``level`` (`percentile_interval`) and the
    standard error are taken over the finite replicates; the others are
    counted in ``failed``.  An undefined (NaN) estimate becomes None.
    """
    reps = np.asarray(replicates, dtype=np.float64)
    ok = np.isfinite(reps)
    lo, hi = percentile_interval(reps, level) or (None, None)
    se = float(np.std(reps[ok], ddof=1)) if ok.sum() > 1 else None
    return Interval(_finite(None if estimate is None else float(estimate)), lo, hi, se, reps,
                    int((~ok).sum()))


#: A statistic: resampling weights (B × U) to replicate values per name, each (B,).
Statistic = Callable[[np.ndarray], Dict[str, np.ndarray]]


def bootstrap(statistic: Statistic, n_units: int, B: int = 1000,
              seed: Union[int, np.random.Generator] = 0, level: float = 0.95, *,
              weights: Optional[np.ndarray] = None,
              chunk: Optional[int] = None) -> BootstrapResult:
    """Replicates of ``statistic`` over B resamples of ``n_units`` units.

    The one resampling engine (docs/method.md §5.4): W = `resample_weights`
    (n_units, B, seed), unless ``weights`` are given; ``statistic(W)`` gives
    the replicates from per-unit counts.

    Parameters
    ----------
    statistic : callable
        W (B × U) to ``{name: replicates}``, each (B,) or (B, …); NaN where
        undefined.
    n_units : int
        U, the units resampled.
    B : int
        Replicates.
    seed : int or numpy.random.Generator
        An int draws afresh; a Generator continues its stream (one stream
        shared by several statistics).
    level : float
        Confidence level of the intervals, a fraction.
    weights : numpy.ndarray, optional
        B × U multiplicities drawn elsewhere (resamples shared with other
        statistics); ``seed`` is then not used.
    chunk : int, optional
        Draw and evaluate this many replicates at a time, for memory (the
        replicates are those of one draw); None: all at once.

    Returns
    -------
    BootstrapResult
        ``seed`` is the int seed, else None.
    """
    if chunk is None:
        reps = statistic(resample_weights(n_units, B, seed) if weights is None else weights)
    else:
        # a Generator's multinomial rows come one after the other: drawing the chunks from
        # one stream gives the rows of the single draw, with only a chunk of W in memory
        rng = np.random.default_rng(seed)
        total = B if weights is None else weights.shape[0]
        parts: Dict[str, List[np.ndarray]] = {}
        for b0 in range(0, max(total, 1), chunk):
            b1 = min(total, b0 + chunk)
            W = resample_weights(n_units, b1 - b0, rng) if weights is None else weights[b0:b1]
            for k, v in statistic(W).items():
                parts.setdefault(k, []).append(v)
        reps = {k: np.concatenate(v) for k, v in parts.items()}
    return BootstrapResult(reps, level, seed if weights is None and isinstance(seed, int)
                           else None)


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


def alpha_bootstrap(sums: UnitSums, B: int = 1000, seed: int = 0, level: float = 0.95,
                    variants: Sequence[str] = VARIANTS,
                    correct: Optional[Dict[str, np.ndarray]] = None,
                    total: Optional[np.ndarray] = None) -> BootstrapResult:
    """Percentile bootstrap over units for α (and ratio scores when given).

    docs/method.md §5.4: `bootstrap` with the statistic `bootstrap_alpha`
    (and `bootstrap_ratios`, on the same resamples); no TED is recomputed.

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
    def statistic(W: np.ndarray) -> Dict[str, np.ndarray]:
        reps = bootstrap_alpha(sums, W, variants)
        if correct is not None and total is not None:
            reps.update(bootstrap_ratios(correct, total, W))
        return reps

    return bootstrap(statistic, sums.m.shape[0], B, seed, level)
