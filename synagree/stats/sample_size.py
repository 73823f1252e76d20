"""How many units a confidence interval of α of a given width needs (docs/method.md §30).

From a *pilot* sample of U pairable units, kept as the unit × unit δ² sums
``S`` of `synagree.distance.sums.UnitSums`, the interval α would have with n
units is estimated by resampling the pilot's units: a replicate draws n
units with replacement from the U pilot units (multiplicities ``w``, Σw = n;
for n > U units necessarily repeat, which is what "with replacement beyond
the pilot's size" means), and α of the replicate is

    D_o* = Σ_u w_u · do[u] / n*,   D_e* = w S wᵀ / (n*(n* − 1)),   n* = Σ_u w_u m_u

exactly as in the bootstrap of `synagree.stats.bootstrap` (two copies of one
unit are different values; no tree edit distance is recomputed, so the cost
of a size is B·U² whatever n).  The width at n is ``high − low`` of the
percentile interval of the B replicates at ``level``.

The sizes form a geometric grid, n₀ = `FIRST_SIZE`, n_{k+1} = ⌈√2 · n_k⌉ (the
pilot's own size U is added), walked upwards until every requested variant's
width is at most the target (or `DEFAULT_MAX_UNITS` is passed).  The draws
are *nested*: replicate b at n_{k+1} is replicate b at n_k plus
n_{k+1} − n_k further draws, the counts of the first n units of one endless
sequence of draws, so neighbouring sizes share their randomness and the
curve is smooth.  The units needed are found between the last size above the
target and the first at or below it, by the 1/√n law between those two
points (``width ∝ n^(−s)`` with s fitted through both, s ≈ 1/2), rounded up.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

import numpy as np

from synagree.base.option_specs import SPECS
from synagree.base.progress import Progress, wanted
from synagree.distance.sums import VARIANTS, UnitSums
from synagree.stats.bootstrap import alpha_replicates, percentile_interval

__all__ = ["CurvePoint", "SampleSizePlan", "plan_sample_size", "size_grid",
           "DEFAULT_REPLICATES", "DEFAULT_MAX_UNITS", "FIRST_SIZE"]

#: replicates per size when none are given
DEFAULT_REPLICATES = 1000
#: the grid stops here when the target width is still not reached (``--max-units``,
#: declared with the options: `synagree.base.option_specs`)
DEFAULT_MAX_UNITS: int = SPECS["max_units"].default
#: the smallest size of the grid (the least ``--max-units``)
FIRST_SIZE: int = SPECS["max_units"].lo or 10


def size_grid(first: int, last: int, pilot: Optional[int] = None) -> List[int]:
    """The sizes tried: ``first``, then ×√2 (rounded up) to ``last``, the pilot size added.

    Parameters
    ----------
    first, last : int
        The smallest and largest size (``last`` is included when the steps pass it).
    pilot : int, optional
        Added to the grid when it lies between ``first`` and ``last``.

    Returns
    -------
    list of int
        Strictly increasing.
    """
    sizes = []
    n = first
    while n < last:
        sizes.append(n)
        n = max(n + 1, math.ceil(n * math.sqrt(2.0)))
    sizes.append(last)
    if pilot is not None and first < pilot < last:
        sizes.append(pilot)
    return sorted(set(sizes))


@dataclass(frozen=True)
class CurvePoint:
    """The resampled interval of one variant's α at one sample size.

    Attributes
    ----------
    units : int
        n, the units drawn per replicate.
    low, high : float or None
        The percentile interval at the plan's level (None: too few defined
        replicates).
    se : float or None
        The standard deviation of the defined replicates (the bootstrap SE).
    undefined : int
        Replicates whose α is undefined (D_e* = 0: every drawn unit alike).
    """

    units: int
    low: Optional[float]
    high: Optional[float]
    se: Optional[float]
    undefined: int

    @property
    def width(self) -> Optional[float]:
        """``high − low`` (None when the interval is undefined)."""
        if self.low is None or self.high is None:
            return None
        return self.high - self.low

    def as_dict(self) -> dict:
        """JSON-ready: units, low, high, width, se, undefined."""
        return {"units": self.units, "low": self.low, "high": self.high, "width": self.width,
                "se": self.se, "undefined": self.undefined}


@dataclass
class SampleSizePlan:
    """Units needed for an interval of α of a given width, with the resampling curve.

    Returned by `plan_sample_size`.

    Attributes
    ----------
    width : float
        The target width (high − low) of the interval, in α units.
    level : float
        The interval's confidence level, a fraction.
    replicates, seed : int
    pilot_units : int
        U, the pilot's pairable units.
    max_units : int
    curves : dict of str to list of CurvePoint
        Per variant, the points of the grid walked.
    needed : dict of str to int or None
        Per variant, the units needed; None when not reached by ``max_units``
        or when α is undefined.
    notes : list of str
    """

    width: float
    level: float
    replicates: int
    seed: int
    pilot_units: int
    max_units: int
    curves: Dict[str, List[CurvePoint]]
    needed: Dict[str, Optional[int]]
    notes: List[str] = field(default_factory=list)

    @property
    def variants(self) -> List[str]:
        """The variants planned, in order."""
        return list(self.curves)

    def sizes(self) -> List[int]:
        """The sizes of the grid walked (those of the longest curve)."""
        return [p.units for p in max(self.curves.values(), key=len)] if self.curves else []

    def to_dict(self) -> dict:
        """JSON-ready: the settings, the units needed per variant and the curves."""
        return {"width": self.width, "level": self.level, "replicates": self.replicates,
                "seed": self.seed, "pilot_units": self.pilot_units,
                "max_units": self.max_units, "needed": dict(self.needed),
                "curves": {v: [p.as_dict() for p in pts] for v, pts in self.curves.items()},
                "notes": list(self.notes)}


def _point(n: int, reps: np.ndarray, level: float) -> CurvePoint:
    ok = reps[np.isfinite(reps)]
    undefined = int(reps.shape[0] - ok.shape[0])
    # an interval needs its two tails among the defined replicates
    tail = (1.0 - level) / 2.0 * reps.shape[0]
    if ok.size < 2 or undefined > tail:
        return CurvePoint(n, None, None, None, undefined)
    lo_hi = percentile_interval(ok, level)
    assert lo_hi is not None
    return CurvePoint(n, lo_hi[0], lo_hi[1], float(ok.std(ddof=1)), undefined)


def _needed(points: Sequence[CurvePoint], width: float) -> Optional[int]:
    """The first size at or under ``width`` on the 1/√n law through its two neighbours."""
    for k, p in enumerate(points):
        w = p.width
        if w is None or w > width:
            continue
        if k == 0:
            return p.units  # the smallest size tried already does (noted by the caller)
        a = points[k - 1]
        wa = a.width
        if wa is None or wa <= 0 or w <= 0 or wa <= w:
            return p.units
        slope = math.log(wa / w) / math.log(p.units / a.units)  # width ∝ n^(−slope)
        n = a.units * (wa / width) ** (1.0 / slope)
        return int(min(p.units, max(a.units + 1, math.ceil(n - 1e-9))))
    return None


def plan_sample_size(sums: UnitSums, width: float, level: float = 0.95,
                     variants: Sequence[str] = VARIANTS, replicates: int = DEFAULT_REPLICATES,
                     seed: int = 0, max_units: int = DEFAULT_MAX_UNITS,
                     first: int = FIRST_SIZE, progress: Optional[bool] = None
                     ) -> SampleSizePlan:
    """The units needed for a ``level`` interval of α no wider than ``width``.

    docs/method.md §30 and the module docstring: nested draws of n pilot units
    with replacement on a √2 grid of sizes, B replicates each, the percentile
    interval's width per size and variant, the crossing of the target found
    on the 1/√n law between the two sizes around it.

    Parameters
    ----------
    sums : UnitSums
        The pilot's sums, with the unit × unit matrix ``S``
        (``tree_alpha(..., keep_unit_matrix=True)``).
    width : float
        Target width ``high − low`` (> 0).
    level : float
        Confidence level, a fraction.
    variants : sequence of str
    replicates : int
        B, replicates per size.
    seed : int
    max_units : int
        The largest size tried.
    first : int
        The smallest size tried.
    progress : bool, optional
        A progress bar on stderr (None: the process default).

    Raises
    ------
    ValueError
        ``sums.S`` is None, no pilot unit, a width not > 0, fewer than 2
        replicates, or ``max_units < first``.
    """
    if sums.S is None:
        raise ValueError("planning needs the unit x unit sums (keep_unit_matrix=True)")
    U = int(sums.m.shape[0])
    if U == 0:
        raise ValueError("the pilot has no pairable unit")
    if not (width > 0 and math.isfinite(width)):
        raise ValueError(f"the target width must be a positive number, not {width!r}")
    if replicates < 2:
        raise ValueError("planning needs at least 2 replicates")
    if max_units < first:
        raise ValueError(f"max_units ({max_units}) is below the first size ({first})")
    variants = [v for v in VARIANTS if v in variants]
    m = sums.m.astype(np.float64)
    do = {v: sums.diag[:, VARIANTS.index(v)] / (m - 1.0) for v in variants}
    rng = np.random.default_rng(seed)
    p_unit = np.full(U, 1.0 / U)
    W = np.zeros((replicates, U))
    drawn = 0
    curves: Dict[str, List[CurvePoint]] = {v: [] for v in variants}
    needed: Dict[str, Optional[int]] = {v: None for v in variants}
    pending = set(variants)
    grid = size_grid(first, max_units, pilot=U)
    # (the grid runs to max_units; the walk usually stops long before)
    bar = Progress(len(grid), "sizes", title="planning") if wanted(progress) else None
    try:
        for n in grid:
            # nested draws: the n − drawn units after the first `drawn` of each replicate
            W += rng.multinomial(n - drawn, p_unit, size=replicates)
            drawn = n
            for v in list(pending):
                reps = alpha_replicates(do[v], m, sums.S[VARIANTS.index(v)], W)
                curves[v].append(_point(n, reps, level))
                found = _needed(curves[v], width)
                if found is not None:
                    needed[v] = found
                    pending.discard(v)
            if bar is not None:
                bar.update(1)
            if not pending:
                break
    finally:
        if bar is not None:
            bar.close()
    notes: List[str] = []
    for v in variants:
        pts = curves[v]
        if needed[v] is None:
            if all(p.width is None for p in pts):
                notes.append(f"alpha_{v}: undefined on every resample (no variation among "
                             f"the pilot's values); no plan")
            else:
                notes.append(f"alpha_{v}: an interval of width {width:g} was not reached "
                             f"with {max_units:,} units")
        elif needed[v] == pts[0].units and pts[0].width is not None and pts[0].width <= width:
            notes.append(f"alpha_{v}: the smallest size tried ({pts[0].units} units) "
                         f"already gives an interval of width {pts[0].width:.4f}; "
                         f"fewer units might do")
    return SampleSizePlan(width, level, replicates, seed, U, max_units, curves, needed, notes)
