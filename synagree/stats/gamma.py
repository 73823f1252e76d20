"""Mathet, Widlöcher & Métivier's γ (Computational Linguistics 41(3), 2015) over units.

docs/method.md §34.5, with the conventions of the ``pygamma-agreement``
package (0.5.9; Titeux & Riad 2021), its ``compute_gamma`` defaults:

* a unit is ``(annotator, start, end, category)``; identical units of one
  annotator count once (pygamma keeps each annotator's units in a set);
* the combined categorical dissimilarity of two units u, v:
  d(u, v) = α·δ_∅·((|s_u − s_v| + |e_u − e_v|) / (l_u + l_v))² + β·δ_∅·[c_u ≠ c_v],
  α = β = δ_∅ = 1; a unit against the empty unit costs δ_∅;
* a unitary alignment takes at most one unit (or the empty unit) of each of
  the m annotators; its disorder is the mean of d over its m(m − 1)/2 pairs;
  an alignment puts every unit in exactly one unitary alignment, and the
  observed disorder is the least total disorder of an alignment divided by
  the mean number of units per annotator;
* the expected disorder is the mean observed disorder of random continua
  drawn by pygamma's default ``StatisticalContinuumSampler`` (per annotator a
  normal number of units, normal gaps and durations, categories by their
  frequency), from ``numpy.random.RandomState(seed)`` in pygamma's order of
  draws (so that ``numpy.random.seed(seed)`` before pygamma draws the same
  continua); γ = 1 − D_o / D_e (1 when D_o = 0).

The best alignment is computed exactly.  Unitary alignments that can never be
in a best alignment (one whose disorder a split into smaller unitary
alignments does not exceed) are left out, which splits the units into
independent groups.  Two annotators: each group is an assignment problem,
solved by the Hungarian method, with a budget on its cells.  More annotators: each group is an exact
set partition, solved by dynamic programming over the covered units (leftmost
uncovered unit first), with a budget on its states (and at most 600 units in
a group); above it `GammaTooLarge` is raised (never a heuristic).  pygamma computes in float32;
this module in float64.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

__all__ = ["GammaResult", "GammaTooLarge", "PRECISION_LEVELS", "BUDGETS",
           "dissimilarity_matrix", "best_disorder", "sample_continuum", "gamma"]

#: pygamma's named precision levels (``compute_gamma(precision_level=...)``)
PRECISION_LEVELS = {"high": 0.01, "medium": 0.02, "low": 0.1}

#: the default budgets of the exact best alignment: two annotators (cells of one group's
#: assignment), three or more (candidate unitary alignments; states of one group's search)
BUDGETS = {2: 25_000_000, 3: 1_000_000}

#: the largest group of units of three or more annotators the exact search takes
_MOST_UNITS = 600

#: pyannote.core's SEGMENT_PRECISION: shorter sampled units are drawn again
_SEGMENT_PRECISION = 1e-6


class GammaTooLarge(ValueError):
    """The exact best alignment needs more work than the budget allows."""


def dissimilarity_matrix(a: np.ndarray, b: np.ndarray, *, alpha: float = 1.0,
                         beta: float = 1.0, delta_empty: float = 1.0) -> np.ndarray:
    """The combined categorical dissimilarity of every unit of ``a`` with every unit of ``b``.

    ``a`` and ``b`` are arrays of rows ``(start, end, category index)``.

    Examples
    --------
    >>> a = np.array([[0.0, 10.0, 0]]); b = np.array([[0.0, 10.0, 0], [5.0, 10.0, 1]])
    >>> dissimilarity_matrix(a, b).round(4).tolist()
    [[0.0, 1.1111]]
    """
    sa, ea, ca = a[:, 0:1], a[:, 1:2], a[:, 2:3]
    sb, eb, cb = b[:, 0], b[:, 1], b[:, 2]
    pos = (np.abs(sa - sb) + np.abs(ea - eb)) / ((ea - sa) + (eb - sb))
    return alpha * delta_empty * pos * pos + beta * delta_empty * (ca != cb)


class _Groups:
    """Union-find over the units."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, x: int, y: int) -> None:
        rx, ry = self.find(x), self.find(y)
        if rx != ry:
            self.parent[max(rx, ry)] = min(rx, ry)


def _hungarian(cost: np.ndarray) -> float:
    """Least total cost of assigning every row of a cost matrix (rows ≤ columns) to its own
    column (Kuhn–Munkres in the O(n²m) potentials form; the scan over columns is
    vectorised, and of equally near columns an unassigned one is taken first: with many
    equal costs the search for each row then ends early)."""
    n, m = cost.shape
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    p = np.zeros(m + 1, dtype=np.int64)   # p[j]: the row assigned to column j (1-based)
    way = np.zeros(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            cur = cost[i0 - 1] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            masked = np.where(free, minv[1:], np.inf)
            delta = masked.min()
            ties = masked == delta  # of the nearest columns, an unassigned one ends the search
            open_ties = ties & (p[1:] == 0)
            j1 = int(np.argmax(open_ties if open_ties.any() else ties)) + 1
            u[p[used]] += delta
            v[used] -= delta
            minv[~used] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    cols = np.nonzero(p[1:])[0]
    return float(cost[p[1:][cols] - 1, cols].sum())


def _two_annotators(a: np.ndarray, b: np.ndarray, alpha: float, beta: float, delta: float,
                    budget: int) -> float:
    """Least total disorder of two annotators' units: an assignment per group of units.

    Leaving a pair unaligned costs 2·δ_∅, so the total is δ_∅·(units) + Σ (d − 2·δ_∅) over
    the aligned pairs: the least over assignments of rows to columns with costs
    min(d − 2·δ_∅, 0) (a row at 0 stays alone).  Pairs at d ≥ 2·δ_∅ never help, and the
    units they do not link are independent groups."""
    na, nb = len(a), len(b)
    if na == 0 or nb == 0:
        return delta * (na + nb)
    groups = _Groups(na + nb)
    block = max(1, 4_000_000 // nb)  # the pairs, found a block of rows at a time
    for lo in range(0, na, block):
        d = dissimilarity_matrix(a[lo:lo + block], b, alpha=alpha, beta=beta,
                                 delta_empty=delta)
        for i, j in zip(*np.nonzero(d < 2 * delta)):
            groups.union(lo + int(i), na + int(j))
    members: Dict[int, Tuple[List[int], List[int]]] = {}
    for i in range(na):
        members.setdefault(groups.find(i), ([], []))[0].append(i)
    for j in range(nb):
        members.setdefault(groups.find(na + j), ([], []))[1].append(j)
    total = 0.0
    for ra, rb in members.values():
        total += delta * (len(ra) + len(rb))
        if not ra or not rb:
            continue
        if len(ra) * len(rb) > budget:
            raise GammaTooLarge(f"a group of {len(ra)} + {len(rb)} units that may align with "
                                f"each other needs a {len(ra)} x {len(rb)} assignment "
                                f"(budget {budget} cells)")
        sub = dissimilarity_matrix(a[ra], b[rb], alpha=alpha, beta=beta, delta_empty=delta)
        cost = np.minimum(sub - 2 * delta, 0.0)
        total += _hungarian(cost if len(ra) <= len(rb) else cost.T)
    return total


def _d(pair: Dict[Tuple[int, int], np.ndarray], x: Tuple[int, int], y: Tuple[int, int]
       ) -> float:
    """d of unit x = (annotator, index) and unit y of another annotator."""
    if x[0] > y[0]:
        x, y = y, x
    return float(pair[x[0], y[0]][x[1], y[1]])


def _tuples(units: Sequence[np.ndarray], pair: Dict[Tuple[int, int], np.ndarray],
            delta: float) -> Iterator[Tuple[float, Tuple[Tuple[int, int], ...]]]:
    """Every unitary alignment of two or more units that may be in a best alignment:
    ``(summed pair disorder, ((annotator, unit), ...))``."""
    m = len(units)
    c2n = m * (m - 1) // 2
    bound = (m - 1 + c2n) * delta  # a unit whose pairs cost more is better left alone

    def extend(k: int, chosen: List[Tuple[int, int]], cost: float
               ) -> Iterator[Tuple[float, Tuple[Tuple[int, int], ...]]]:
        if k == m:
            if len(chosen) >= 2:
                real = len(chosen)
                total = cost + (c2n - real * (real - 1) // 2) * delta
                if total < real * c2n * delta and all(
                        sum(_d(pair, x, y) for y in chosen if y != x) - (real - 1) * delta
                        < c2n * delta for x in chosen):
                    yield total, tuple(chosen)
            return
        yield from extend(k + 1, chosen, cost)
        if not chosen:
            candidates: Sequence[int] = range(len(units[k]))
        else:
            ok = np.ones(len(units[k]), dtype=bool)
            for a, i in chosen:
                ok &= pair[a, k][i] < bound
            candidates = np.nonzero(ok)[0].tolist()
        for j in candidates:
            extra = sum(float(pair[a, k][i, j]) for a, i in chosen)
            yield from extend(k + 1, chosen + [(k, j)], cost + extra)

    yield from extend(0, [], 0.0)


def _partition(n_units: int, starts: Sequence[float], options: Dict[int, List[Tuple[float, int]]],
               single: float, budget: int) -> float:
    """Least total cost of covering units 0..n-1 by disjoint tuples (bit masks) or singletons.

    Dynamic programming over the covered set, the leftmost uncovered unit first."""
    if n_units > _MOST_UNITS:  # the search recurses once per unitary alignment it takes
        raise GammaTooLarge(f"a group of {n_units} units that may align with each other is "
                            f"more than the exact search takes ({_MOST_UNITS})")
    order = sorted(range(n_units), key=lambda x: (starts[x], x))
    memo: Dict[int, float] = {}
    full = (1 << n_units) - 1

    def best(mask: int) -> float:
        if mask == full:
            return 0.0
        got = memo.get(mask)
        if got is not None:
            return got
        if len(memo) >= budget:
            raise GammaTooLarge(f"the exact alignment of a group of {n_units} units needs more "
                                f"than {budget} states")
        u = next(x for x in order if not mask >> x & 1)
        value = single + best(mask | 1 << u)
        for cost, bits in options.get(u, []):
            if cost >= value:
                break
            if not bits & mask:
                value = min(value, cost + best(mask | bits))
        memo[mask] = value
        return value

    return best(0)


def _many_annotators(units: Sequence[np.ndarray], delta: float, alpha: float, beta: float,
                     budget: int) -> float:
    m = len(units)
    c2n = m * (m - 1) // 2
    offsets = np.cumsum([0] + [len(u) for u in units])
    sizes = sorted((len(u) for u in units), reverse=True)
    if sizes[0] * sizes[1] > BUDGETS[2]:
        raise GammaTooLarge(f"the dissimilarities of {sizes[0]} x {sizes[1]} units are more "
                            f"than {BUDGETS[2]} cells")
    pair = {(a, b): dissimilarity_matrix(units[a], units[b], alpha=alpha, beta=beta,
                                         delta_empty=delta)
            for a in range(m) for b in range(a + 1, m)}
    found = []
    for t in _tuples(units, pair, delta):  # the budget stops the enumeration itself
        found.append(t)
        if len(found) > budget:
            raise GammaTooLarge(f"more than {budget} candidate unitary alignments")
    n = int(offsets[-1])
    groups = _Groups(n)
    for _, members in found:
        first = int(offsets[members[0][0]]) + members[0][1]
        for a, i in members[1:]:
            groups.union(first, int(offsets[a]) + i)
    by_group: Dict[int, List[int]] = {}
    for g in range(n):
        by_group.setdefault(groups.find(g), []).append(g)
    local = {g: (r, k) for r, gs in by_group.items() for k, g in enumerate(gs)}
    tuples_of: Dict[int, List[Tuple[float, Tuple[Tuple[int, int], ...]]]] = {}
    for t in found:
        tuples_of.setdefault(groups.find(int(offsets[t[1][0][0]]) + t[1][0][1]), []).append(t)
    starts = np.concatenate([u[:, 0] for u in units]) if n else np.zeros(0)
    single = c2n * delta
    total = 0.0
    for root, gs in by_group.items():
        opts: Dict[int, List[Tuple[float, int]]] = {}
        for cost, members in tuples_of.get(root, []):
            ids = [local[int(offsets[a]) + i][1] for a, i in members]
            bits = sum(1 << x for x in ids)
            for x in ids:
                opts.setdefault(x, []).append((cost, bits))
        for x in opts:
            opts[x].sort()
        total += _partition(len(gs), [float(starts[g]) for g in gs], opts, single, budget)
    return total / c2n


def best_disorder(units: Sequence[np.ndarray], *, alpha: float = 1.0, beta: float = 1.0,
                  delta_empty: float = 1.0, budget: Optional[int] = None) -> float:
    """The observed disorder: the least total disorder of an alignment over the mean number of
    units per annotator (module docstring).

    Parameters
    ----------
    units : sequence of numpy arrays
        Per annotator, rows ``(start, end, category index)``; two or more annotators.
    alpha, beta, delta_empty : float
        The combined dissimilarity's weights and the cost of a unit against the empty unit.
    budget : int, optional
        Two annotators: the most cells (units × units) of one group's assignment (default
        25,000,000, 200 MB).  More annotators: the most candidate unitary alignments, and
        the most states of one group's search (default 1,000,000).

    Raises
    ------
    GammaTooLarge
        Above the budget.

    Examples
    --------
    >>> a = np.array([[0.0, 10.0, 0], [20.0, 30.0, 1]]); b = np.array([[0.0, 10.0, 0]])
    >>> best_disorder([a, b])        # one pair at 0, one unit alone at 1; 1.5 units each
    0.6666666666666666
    """
    m = len(units)
    n = sum(len(u) for u in units)
    if m < 2 or n == 0:
        raise ValueError("gamma needs two or more annotators and at least one unit")
    if m == 2:
        total = _two_annotators(units[0], units[1], alpha, beta, delta_empty,
                                budget or BUDGETS[2])
    else:
        total = _many_annotators(units, delta_empty, alpha, beta, budget or BUDGETS[3])
    return total / (n / m)


def sample_continuum(units: Sequence[np.ndarray], n_categories: int,
                     rng: np.random.RandomState) -> List[np.ndarray]:
    """One random continuum of pygamma's ``StatisticalContinuumSampler``, drawn from ``rng``
    in pygamma's order (annotators and each annotator's units in sorted order)."""
    gaps: List[float] = [0.0]
    for u in units:
        gaps.extend((u[1:, 0] - u[:-1, 1]).tolist())
    for u in units:
        if len(u) and u[0, 0] > 0:
            gaps.append(float(u[0, 0]))
    durations = [float(e - s) for u in units for s, e in u[:, :2]]
    counts = np.bincount(np.concatenate([u[:, 2] for u in units]).astype(np.int64),
                         minlength=n_categories)
    weights = counts / counts.sum()
    sizes = [len(u) for u in units]
    avg_gap, std_gap = float(np.mean(gaps)), float(np.std(gaps))
    avg_dur, std_dur = float(np.mean(durations)), float(np.std(durations))
    avg_n, std_n = float(np.mean(sizes)), float(np.std(sizes))
    categories = np.arange(n_categories)
    out: List[np.ndarray] = []
    drawn = 0
    for _ in units:
        k = abs(int(rng.normal(avg_n, std_n)))
        if drawn == 0:
            k = max(1, k)
        rows = []
        last = 0.0
        for _ in range(k):
            start = last + rng.normal(avg_gap, std_gap)
            end = start + abs(rng.normal(avg_dur, std_dur))
            while end - start < _SEGMENT_PRECISION:
                end = start + abs(rng.normal(avg_dur, std_dur))
            cat = rng.choice(categories, p=weights)
            rows.append((start, end, float(cat)))
            last = end
        drawn += k
        arr = np.array(sorted(set(rows)), dtype=float).reshape(-1, 3)
        out.append(arr)
    return out


@dataclass(frozen=True)
class GammaResult:
    """γ: the observed disorder, the sampled disorders and their summary.

    Attributes
    ----------
    gamma : float
        1 − observed / expected (1 when observed is 0).
    observed : float
        D_o, the best alignment's disorder.
    samples : tuple of float
        The disorders of the random continua.
    annotators, units : int
    seed : int
    n_samples : int
        Asked for; ``len(samples)`` is more when the precision level asked for more.
    precision_level : float or None
    """

    gamma: float
    observed: float
    samples: Tuple[float, ...]
    annotators: int
    units: int
    seed: int
    n_samples: int
    precision_level: Optional[float]

    @property
    def expected(self) -> float:
        """D_e, the mean of the sampled disorders."""
        return float(np.mean(self.samples))

    @property
    def expected_se(self) -> float:
        """The standard error of D_e (sample standard deviation over √samples)."""
        k = len(self.samples)
        return float(np.std(self.samples, ddof=1) / math.sqrt(k)) if k > 1 else math.nan

    @property
    def gamma_interval(self) -> Tuple[float, float]:
        """γ with D_e at its mean ∓ 1.96 standard errors (the sampling's 95% interval)."""
        if self.observed == 0:
            return (1.0, 1.0)
        lo, hi = self.expected - 1.96 * self.expected_se, self.expected + 1.96 * self.expected_se
        return (1 - self.observed / lo if lo > 0 else -math.inf, 1 - self.observed / hi)

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: γ, the disorders, the samples and the settings."""
        return {"gamma": self.gamma, "gamma_ci": list(self.gamma_interval),
                "observed_disorder": self.observed, "expected_disorder": self.expected,
                "expected_disorder_se": self.expected_se, "disorder_samples": list(self.samples),
                "gamma_samples": len(self.samples), "observers": self.annotators,
                "gamma_units": self.units, "gamma_seed": self.seed,
                "precision_level": self.precision_level}


def gamma(units: Sequence[np.ndarray], n_categories: int, *, n_samples: int = 30,
          seed: int = 0, precision_level: Optional[float] = None,
          budget: Optional[int] = None) -> GammaResult:
    """γ of m annotators' units with pygamma's defaults (module docstring).

    Parameters
    ----------
    units : sequence of numpy arrays
        Per annotator (in sorted order of their names), rows ``(start, end, category index)``
        sorted, categories numbered in sorted order of their names.
    n_categories : int
    n_samples : int
        Random continua for the expected disorder (pygamma's default 30).
    seed : int
        Of ``numpy.random.RandomState``.
    precision_level : float, optional
        As pygamma: when the samples' coefficient of variation (standard deviation with
        ddof 0 over the mean) asks for more, ⌈(cv · 1.96 / level)²⌉ samples in all are drawn.
    budget : int, optional
        As `best_disorder`.

    Examples
    --------
    >>> a = np.array([[0.0, 10.0, 0], [20.0, 30.0, 1]]); b = a.copy()
    >>> r = gamma([a, b], 2, n_samples=5)
    >>> r.gamma, r.observed, len(r.samples)
    (1.0, 0.0, 5)
    """
    observed = best_disorder(units, budget=budget)
    rng = np.random.RandomState(seed)
    draws: List[float] = []

    def draw(k: int) -> None:
        for _ in range(k):
            sample = sample_continuum(units, n_categories, rng)
            draws.append(best_disorder(sample, budget=budget))

    draw(n_samples)
    if precision_level is not None:
        cv = float(np.std(draws) / np.mean(draws))
        need = int(np.ceil((cv * 1.96 / precision_level) ** 2))
        if need > n_samples:
            draw(need - n_samples)
    expected = float(np.mean(draws))
    if observed == 0:
        g = 1.0
    else:  # random continua that all align perfectly (no spread to draw from): undefined
        g = 1.0 - observed / expected if expected > 0 else math.nan
    return GammaResult(g, observed, tuple(draws), len(units), sum(len(u) for u in units),
                       seed, n_samples, precision_level)
