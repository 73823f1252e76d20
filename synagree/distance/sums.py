"""From trees to the sums α needs: streaming, tiled, sampled (docs/method.md §4–5).

α needs, per variant, Σ δ² over all ordered pairs of pairable values (D_e)
and per unit Σ_{i≠j} δ² (D_o).  Materialising the tree × tree matrix is
O(trees²) memory; instead the units are cut into *tiles* and each pair of
tiles (I ≤ J) is one call of a compiled kernel that returns, per unit of I,

* ``S[u, v]``   Σ_{a∈u, b∈v} δ²(a, b) for the units v of J (only when the
  unit × unit matrix is wanted, e.g. for the bootstrap: O(units²) memory),
* ``row[u]``    Σ_{v∈J, v>u} S[u, v] (O(units) memory otherwise),
* ``diag[u]``   S[u, u] = Σ_{i≠j in u} δ² (diagonal tiles), and the TED of
  each pair of distinct trees inside u (``UnitSums.within``: D_o and the
  per-unit diagnostics need no second kernel).

Each unit keeps its distinct trees with multiplicities, so identical
annotations of a sentence cost one TED, not m².  The reduction order is
fixed by the tiling (tiles in ascending order, units ascending inside, each
unit row summed by one thread), so every executor — one thread, many
threads, or Dask workers each running a tile — gives bit-identical sums for
a given tile size.  ``S[u, v]`` never depends on the tiling; integer-valued
sums (plain, diff under unit costs) do not either; fractional ones (norm)
may differ in the last bit between tile sizes.

Sampled D_e (`sampled_de`) draws value pairs uniformly, computes their
δ² exactly and estimates D_e with a regression control variate built from
tree sizes (whose all-pairs mean is known exactly in O(n)), giving a
standard error for α.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from synagree.base.progress import Progress, wanted
from synagree.distance import kernels
from synagree.distance import ted as _ted
from synagree.trees.flat import FlatTree

VARIANTS = ("plain", "diff", "norm")
DEFAULT_TILE = 512


@dataclass
class UnitTrees:
    """Pairable units as distinct trees with multiplicities (CSR layout).

    Identical trees (same `FlatTree.key`) are stored once in ``pack``; a unit
    lists its distinct trees with how many of its annotations are each.

    Parameters
    ----------
    pack : TreePack
        The distinct trees of all units.
    uoff : numpy.ndarray
        int64 (U+1,): unit u's distinct trees are ``utree[uoff[u]:uoff[u+1]]``.
    utree : numpy.ndarray
        int64: distinct tree id (index into ``pack``).
    ucount : numpy.ndarray
        float64: how many annotations of the unit are that tree.
    m : numpy.ndarray
        float64 (U,): annotations per unit.
    which : list of numpy.ndarray
        Per unit: the distinct tree id of each annotation, in order.
    """

    pack: "_ted.TreePack"
    uoff: np.ndarray  # int64 (U+1,)
    utree: np.ndarray  # int64: distinct tree id
    ucount: np.ndarray  # float64: how many annotations of the unit are that tree
    m: np.ndarray  # float64 (U,): annotations per unit
    which: List[np.ndarray]  # per unit: distinct tree id of each annotation

    @property
    def n_units(self) -> int:
        """Number of units U."""
        return int(self.m.shape[0])

    @property
    def n_values(self) -> int:
        """Number of pairable values n (annotations of all units)."""
        return int(self.m.sum())

    @property
    def woff(self) -> np.ndarray:
        """int64 (U+1,): offsets of each unit's distinct-tree pairs (a < b in
        CSR order) in :attr:`UnitSums.within`."""
        k = np.diff(self.uoff)
        out = np.zeros(k.shape[0] + 1, np.int64)
        np.cumsum(k * (k - 1) // 2, out=out[1:])
        return out

    @classmethod
    def build(cls, units: Sequence[Sequence[FlatTree]]) -> "UnitTrees":
        """From units given as lists of trees (each with two or more, for α)."""
        values = [t for u in units for t in u]
        distinct, which = _ted.dedupe(values)
        pack = _ted.TreePack(distinct)
        uoff = [0]
        utree: List[int] = []
        ucount: List[float] = []
        per_unit: List[np.ndarray] = []
        wl = which.tolist()
        pos = 0
        # per unit: its distinct trees ascending, with counts (plain Python: a
        # numpy call per unit costs more than the work on 2-3 values)
        for u in units:
            m = len(u)
            per_unit.append(which[pos:pos + m])
            ids = wl[pos:pos + m]
            pos += m
            if m == 2 and ids[0] != ids[1]:
                utree.extend(sorted(ids))
                ucount.extend((1.0, 1.0))
            else:
                cnt: Dict[int, int] = {}
                for t in ids:
                    cnt[t] = cnt.get(t, 0) + 1
                for t in sorted(cnt):
                    utree.append(t)
                    ucount.append(float(cnt[t]))
            uoff.append(len(utree))
        return cls(pack, np.asarray(uoff, np.int64), np.asarray(utree, np.int64),
                   np.asarray(ucount, np.float64),
                   np.asarray([len(u) for u in units], np.float64), per_unit)


@dataclass
class UnitSums:
    """Per-variant δ² sums over units, from which D_o and D_e follow.

    Columns are the variants ``plain``, ``diff``, ``norm`` (docs/method.md §4–5).

    Parameters
    ----------
    diag : numpy.ndarray
        (U, 3): ``diag[u]`` = Σ_{i≠j in u} δ² (ordered pairs within unit u).
    row : numpy.ndarray
        (U, 3): ``row[u]`` = Σ_{v>u} S[u, v].
    m : numpy.ndarray
        (U,): annotations per unit.
    S : numpy.ndarray, optional
        (3, U, U) symmetric: ``S[:, u, v]`` = Σ_{a∈u, b∈v} δ²; when requested
        (the bootstrap needs it).
    full : numpy.ndarray, optional
        (U, 3): ``full[u]`` = Σ_v S[u, v] over every unit v (u included), what
        leaving u out removes from D_e; when requested.
    """

    diag: np.ndarray  # (U, 3)
    row: np.ndarray  # (U, 3)
    m: np.ndarray  # (U,)
    S: Optional[np.ndarray] = None  # (3, U, U) symmetric
    # full[u] = Σ_v S[u, v] over every unit v (u included): what leaving u out
    # removes from D_e (synagree.agreement.influence); O(U) memory, when requested
    full: Optional[np.ndarray] = None  # (U, 3)
    # TED of each distinct-tree pair inside a unit (UnitTrees.woff layout), as the
    # tiles computed them; None when an executor did not return them
    within: Optional[np.ndarray] = None

    def de_sum(self) -> np.ndarray:
        """Σ over ordered pairs of distinct values of δ², per variant (n(n−1)·D_e)."""
        return self.diag.sum(axis=0) + 2.0 * self.row.sum(axis=0)

    def do_sum(self) -> np.ndarray:
        """Σ_u Σ_{i≠j in u} δ² / (m_u − 1), per variant (n·D_o)."""
        return (self.diag / (self.m[:, None] - 1.0)).sum(axis=0)


def tiles(n_units: int, tile: int) -> List[Tuple[int, int, int, int]]:
    """Tile pairs (r0, r1, c0, c1) with r0 ≤ c0 in the fixed reduction order.

    Parameters
    ----------
    n_units : int
    tile : int
        Units per tile.

    Returns
    -------
    list of (int, int, int, int)
        Unit ranges ``[r0, r1) × [c0, c1)``.
    """
    bounds = list(range(0, n_units, tile)) + [n_units]
    spans = list(zip(bounds[:-1], bounds[1:]))
    return [(a0, a1, b0, b1) for i, (a0, a1) in enumerate(spans)
            for (b0, b1) in spans[i:]]


def run_tile(ut: UnitTrees, costs: Optional["_ted.Costs"], span: Tuple[int, int, int, int],
             want_s: Union[bool, str]) -> Tuple[np.ndarray, np.ndarray, Any, np.ndarray]:
    """Compute one tile pair with the compiled kernel.

    Parameters
    ----------
    ut : UnitTrees
    costs : Costs or None
        Edit costs; None: unit costs.
    span : (int, int, int, int)
        ``(r0, r1, c0, c1)`` from `tiles`.
    want_s : bool or "margins"
        Also return the unit × unit block; ``"margins"``: only its sums, per
        row unit and per column unit (what `unit_sums`' ``want_full`` needs:
        O(units) to send back from a worker instead of the block).

    Returns
    -------
    row : numpy.ndarray
        (r1−r0, 3): Σ over the units v of the tile (v > u on a diagonal tile).
    diag : numpy.ndarray
        (r1−r0, 3): Σ_{i≠j in u} δ² on a diagonal tile, zeros otherwise.
    S : numpy.ndarray, (numpy.ndarray, numpy.ndarray) or None
        (r1−r0, c1−c0, 3) block when ``want_s`` (v ≥ u only on a diagonal tile);
        with ``"margins"``, its sums over the columns (r1−r0, 3) and over the
        rows (c1−c0, 3; on a diagonal tile the strict upper part, mirrored).
    """
    r0, r1, c0, c1 = span
    dc, ic, rm, unit = _ted._costs_for(ut.pack, costs).arrays()
    nr = r1 - r0
    row = np.zeros((nr, 3))
    diag = np.zeros((nr, 3))
    s = np.zeros((nr, c1 - c0, 3)) if want_s else np.zeros((1, 1, 3))
    woff = ut.woff
    within = np.zeros(int(woff[r1] - woff[r0]) if r0 == c0 else 0)
    kernels.tile(ut.pack, dc, ic, rm, unit, ut.uoff, ut.utree, ut.ucount, ut.pack.sizes, span,
                 bool(want_s), s, row, diag, woff - woff[r0], within)
    if want_s == MARGINS:
        return row, diag, _margins(s, r0 == c0), within
    return row, diag, (s if want_s else None), within


MARGINS = "margins"


def _margins(s: np.ndarray, diagonal: bool) -> Tuple[np.ndarray, np.ndarray]:
    """A tile block's sums per row unit and per column unit (see `unit_sums`'s ``full``);
    a diagonal tile holds v ≥ u only: its column sums take the strict upper part."""
    if diagonal:
        return s.sum(axis=1), np.triu(np.moveaxis(s, 2, 0), 1).sum(axis=1).T
    return s.sum(axis=1), s.sum(axis=0)


def tile_work(ut: UnitTrees, span: Tuple[int, int, int, int]) -> float:
    """Number of distinct-tree pairs a tile pair covers (for progress/ETA)."""
    k = np.diff(ut.uoff).astype(np.float64)
    r0, r1, c0, c1 = span
    a, b = k[r0:r1], k[c0:c1]
    if r0 == c0:
        tot = a.sum() ** 2
        return float((tot - (a * a).sum()) / 2 + (a * (a - 1) / 2).sum())
    return float(a.sum() * b.sum())


def local_executor(ut, costs, spans, want_s):
    """Run the tiles here, one after another (each tile parallel over cores).

    The default executor of `unit_sums`: a generator of `run_tile` results in
    the order of ``spans``.

    Parameters
    ----------
    ut : UnitTrees
    costs : Costs or None
    spans : sequence of (int, int, int, int)
    want_s : bool

    Yields
    ------
    tuple
        What `run_tile` returns, per span.
    """
    for sp in spans:
        yield run_tile(ut, costs, sp, want_s)


EXACT_TITLE = "exact D_e"
PROGRESS_CHUNK = 50_000  # sampled pairs per kernel call when a bar is drawn
SAMPLED_TITLE = "sampled D_e"


def unit_sums(ut: UnitTrees, costs: Optional["_ted.Costs"] = None, want_s: bool = False,
              tile: int = DEFAULT_TILE, executor: Optional[Callable] = None,
              progress: Optional[bool] = None, want_full: bool = False) -> UnitSums:
    """All-pairs δ² sums, tile by tile (docs/method.md §5.3).

    The reduction order is fixed by the tiling, so every executor gives
    bit-identical sums for a given tile size.

    Parameters
    ----------
    ut : UnitTrees
    costs : Costs, optional
        Edit costs; None: unit costs (docs/method.md §3).
    want_s : bool
        Keep the unit × unit matrix ``S`` (O(U²) memory; the bootstrap needs it).
    tile : int
        Units per tile.
    executor : callable, optional
        ``executor(ut, costs, spans, want_s) -> iterable of tile results in the
        order of spans``; None: `local_executor` (the Dask executor of
        `synagree.distance.dask_exec` runs them on a cluster).
    progress : bool, optional
        A progress bar in tree pairs on stderr, titled ``exact D_e``, when it is
        a terminal; None: the process default (`synagree.base.progress.wanted`).
    want_full : bool
        Also the full row sums ``full[u] = Σ_v S[u, v]`` (O(U) memory): the
        tiles then return their S blocks, which are reduced here and dropped;
        ``row``/``diag`` (hence α) are bit-identical either way.  A tile result
        may leave out its within-unit TEDs (a 3-tuple, as older executors
        return); ``within`` is then None.
    """
    U = ut.n_units
    diag = np.zeros((U, 3))
    row = np.zeros((U, 3))
    S = np.zeros((3, U, U)) if want_s else None
    full = np.zeros((U, 3)) if want_full else None
    woff = ut.woff
    within: Optional[np.ndarray] = np.zeros(int(woff[-1]))
    spans = tiles(U, tile) if U else []
    work = [tile_work(ut, sp) for sp in spans]
    bar = (Progress(sum(work), "tree pairs", title=EXACT_TITLE)
           if wanted(progress) else None)

    # the block only when S is kept; for the full row sums, the tiles' margins (O(units)
    # from a worker, not the block): the same sums of the same block, bit for bit
    mode: Union[bool, str] = True if want_s else (MARGINS if want_full else False)
    results: Iterable = (executor or local_executor)(ut, costs, spans, mode)
    for span, w, res in zip(spans, work, results):
        r, d, s = res[0], res[1], res[2]
        r0, r1, c0, c1 = span
        row[r0:r1] += r
        if r0 == c0:
            diag[r0:r1] = d
            if len(res) > 3 and within is not None:
                within[woff[r0]:woff[r1]] = res[3]
            else:
                within = None
        if full is not None:
            fr, fc = s if mode == MARGINS else _margins(s, r0 == c0)
            full[r0:r1] += fr
            full[c0:c1] += fc
        if S is not None:
            blk = np.moveaxis(s, 2, 0)  # (3, rows, cols)
            if r0 == c0:  # the kernel filled v >= u only: mirror the strict upper part
                S[:, r0:r1, c0:c1] = blk + np.swapaxes(np.triu(blk, 1), 1, 2)
            else:
                S[:, r0:r1, c0:c1] = blk
                S[:, c0:c1, r0:r1] = np.swapaxes(blk, 1, 2)
        if bar is not None:
            bar.update(w)
    if bar is not None:
        bar.close()
    return UnitSums(diag, row, ut.m.copy(), S, full, within)


# --------------------------------------------------------------------------
# Sampled D_e
# --------------------------------------------------------------------------

@dataclass
class SampledDe:
    """Estimate of Σ δ² / (n(n−1)) (= D_e) per variant, with standard errors.

    Parameters
    ----------
    d_e : numpy.ndarray
        (3,): estimated D_e per variant (plain, diff, norm).
    se : numpy.ndarray
        (3,): standard error of each estimate.
    pairs : int
        Value pairs drawn.
    control_variate : bool
        Whether the control-variate estimator was used.
    costlier : bool
        The draws the target SE needs would have cost more DP cells than the
        exact pass (``max_cells``): the estimate stops short of the target, and
        `synagree.stats.alpha.tree_alpha` computes D_e exactly instead.
    projected : (int, float), optional
        With ``costlier``: the pairs the target needed in all, and their DP
        cells (with `PAIR_OVERHEAD_CELLS` a pair).

    See Also
    --------
    sampled_de
    """

    d_e: np.ndarray  # (3,)
    se: np.ndarray  # (3,)
    pairs: int
    control_variate: bool
    costlier: bool = False
    projected: Optional[Tuple[int, float]] = None


HIST_CHUNK = 8192  # pairs whose label histograms are compared at once


def _cv_features(si: np.ndarray, sj: np.ndarray, hist: np.ndarray, ti: np.ndarray,
                 tj: np.ndarray) -> np.ndarray:
    """Control-variate features of value pairs (N × 6): functions of tree sizes
    and label histograms whose means over *all* ordered pairs are known exactly.

    ``hist[ti]`` / ``hist[tj]`` are the pairs' label histograms (`_pair_histograms`:
    small integers); they are gathered a chunk of pairs at a time (the whole
    N × labels gather took hundreds of MB at 50,000 trees).  The histogram
    distances are sums of squared integer counts, computed in integers: exact,
    and the same numbers in any order.  Every feature is symmetric in (i, j).
    """
    d = si - sj
    mn = np.minimum(si, sj)
    hd = np.empty(ti.shape[0])
    wide = np.int64 if hist.dtype == np.int64 else np.int32
    for k in range(0, ti.shape[0], HIST_CHUNK):
        diff = hist[ti[k:k + HIST_CHUNK]].astype(wide) - hist[tj[k:k + HIST_CHUNK]]
        hd[k:k + HIST_CHUNK] = np.einsum("ij,ij->i", diff, diff, dtype=np.int64)
    return np.stack([d * d, np.abs(d), si * sj, mn, mn * mn, hd], axis=1)


def _pair_histograms(hist: np.ndarray) -> np.ndarray:
    """The label histograms as the narrowest integers `_cv_features` may use:
    int16 counts (a quarter of float64's memory traffic in the gathers) where
    every count is below 2^15, so that a count difference fits int32; int64 else.
    Decided by the counts themselves: a phrase tree's nodes may outnumber its
    size |t| (its leaves), so no size bound would do."""
    return hist.astype(np.int16 if hist.max(initial=0) < 2 ** 15 else np.int64)


def _cv_means(s: np.ndarray, hist: np.ndarray, value_tree: np.ndarray) -> np.ndarray:
    """Exact means of `_cv_features` over the n(n−1) ordered pairs i≠j,
    in O(n log n): sums of pair functions reduce to sums over sorted values."""
    n = s.shape[0]
    pairs = n * (n - 1)
    S1, S2 = s.sum(), (s * s).sum()
    o = np.sort(s)
    k = np.arange(1, n + 1, dtype=np.float64)
    sum_abs = 2.0 * (o * (2 * k - n - 1)).sum()
    sum_min = 2.0 * (o * (n - k)).sum()
    sum_min2 = 2.0 * (o * o * (n - k)).sum()
    cnt = np.bincount(value_tree, minlength=hist.shape[0]).astype(np.float64)
    H1 = cnt @ hist  # Σ over values of their histograms
    sum_h = 2 * n * (cnt * np.einsum("ij,ij->i", hist, hist)).sum() - 2 * (H1 * H1).sum()
    return np.array([2 * n * S2 - 2 * S1 * S1, sum_abs, S1 * S1 - S2, sum_min, sum_min2,
                     sum_h]) / pairs


def _label_histograms(pack: "_ted.TreePack") -> np.ndarray:
    K = len(pack)
    L = int(pack.lab.max(initial=0)) + 1
    h = np.zeros((K, L))
    tree_of_node = np.repeat(np.arange(K), np.diff(pack.noff))
    np.add.at(h, (tree_of_node, pack.lab), 1.0)
    return h


#: size bins of the strata (unordered pairs of bins: at most SIZE_BINS·(SIZE_BINS+1)/2 strata)
SIZE_BINS = 12
#: pairs drawn (at least) in every stratum
MIN_STRATUM_PAIRS = 64
#: pairs whose distances and features are computed at once (bounds the memory)
SAMPLE_CHUNK = 262_144
#: the cost of a sampled pair beyond its DP cells (drawing, de-duplicating, features),
#: in cells of the kernel: for weighing the strata and against the exact pass
PAIR_OVERHEAD_CELLS = 400


def _quantiles(values: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``np.quantile(values, q)`` (method ``linear``) bit for bit, for float values
    without NaN: numpy's own steps (`numpy.lib._function_base_impl._quantile`), the
    sorted array in place of its partition.  Written out because numpy's calls
    ``np.unique``, which imports ``numpy.ma`` (about 10 ms of every sampled run's
    start-up; issue 36); tests/test_strata_quantiles.py compares the two."""
    s = np.sort(values)
    n = s.shape[0]
    vi = (n - 1) * q  # the virtual index of each quantile
    prev = np.floor(vi)
    nxt = prev + 1
    above, below = vi >= n - 1, vi < 0
    prev[above], nxt[above] = -1, -1  # the last value
    prev[below], nxt[below] = 0, 0
    lo, hi = prev.astype(np.intp), nxt.astype(np.intp)
    a, b = s[lo], s[hi]
    t = vi - lo
    diff = b - a
    out = a + diff * t
    np.subtract(b, diff * (1 - t), out=out, where=t >= 0.5)  # numpy's _lerp
    return out


def _distinct(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` of floats without NaN (without numpy.ma: see `_quantiles`)."""
    s = np.sort(values)
    return s[np.concatenate(([True], s[1:] != s[:-1]))] if s.shape[0] else s


class _Strata:
    """Value pairs stratified by the size bins of their two trees (docs/method.md §5.3).

    Stratum h holds the ordered pairs (i, j), i ≠ j, whose bins are {p, q};
    ``weight[h]`` is its share of all n(n−1) ordered pairs (exact).
    """

    def __init__(self, size: np.ndarray, bins: int):
        n = size.shape[0]
        qs = _quantiles(size, np.linspace(0.0, 1.0, bins + 1)[1:-1]) if n else np.zeros(0)
        edges = _distinct(qs)
        b = np.searchsorted(edges, size, side="right")  # bin of each value
        order = np.argsort(b, kind="stable")
        counts = np.bincount(b, minlength=edges.shape[0] + 1)
        starts = np.concatenate([[0], np.cumsum(counts)])
        self.members = [order[starts[k]:starts[k + 1]] for k in range(counts.shape[0])]
        pq = [(p, q) for p in range(counts.shape[0]) for q in range(p, counts.shape[0])]
        pairs = np.array([counts[p] * (counts[p] - 1) if p == q else 2 * counts[p] * counts[q]
                          for p, q in pq], dtype=np.float64)
        keep = pairs > 0
        self.pq = [x for x, k in zip(pq, keep) if k]
        self.weight = pairs[keep] / max(float(n) * (n - 1), 1.0)

    def __len__(self) -> int:
        return len(self.pq)

    def draw(self, h: int, k: int, rng: np.random.Generator) -> Tuple[np.ndarray, np.ndarray]:
        """``k`` value pairs of stratum ``h``, uniformly (δ² is symmetric: one order)."""
        p, q = self.pq[h]
        mp, mq = self.members[p], self.members[q]
        i = rng.integers(0, mp.shape[0], size=k)
        if p == q:
            j = rng.integers(0, mp.shape[0] - 1, size=k)
            j = j + (j >= i)  # uniform over the others
            return mp[i], mp[j]
        return mp[i], mq[rng.integers(0, mq.shape[0], size=k)]


class _Moments:
    """Per stratum: pairs drawn, means and centred cross-products of [features, δ²],
    merged chunk by chunk (Chan et al.'s pairwise update), so that no drawn pair
    is kept."""

    def __init__(self, strata: int, width: int):
        self.n = np.zeros(strata)
        self.mean = np.zeros((strata, width))
        self.M = np.zeros((strata, width, width))

    def add(self, h: int, Z: np.ndarray) -> None:
        nb = Z.shape[0]
        if nb == 0:
            return
        mb = Z.mean(axis=0)
        C = Z - mb
        Mb = C.T @ C
        na = self.n[h]
        tot = na + nb
        d = mb - self.mean[h]
        self.M[h] += Mb + np.outer(d, d) * (na * nb / tot)
        self.mean[h] += d * (nb / tot)
        self.n[h] = tot


def _combined_estimate(mom: _Moments, weight: np.ndarray, n_feat: int,
                       mu: Optional[np.ndarray]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The combined regression estimate of a stratified sample (Cochran 1977, §7.9).

    Returns (estimate per variant, its standard error, the residual variance
    S²_vh per stratum and variant, which the allocation of the next draw uses).
    """
    n = mom.n
    f = slice(0, n_feat)
    y = slice(n_feat, None)
    w2 = weight ** 2 / (n * (n - 1))  # Var(stratum mean) per unit of variance
    est = weight @ mom.mean[:, y]
    Syy = np.einsum("hvv->hv", mom.M[:, y, y])
    if n_feat and mu is not None:
        A = np.einsum("h,hij->ij", w2, mom.M[:, f, f])
        B = np.einsum("h,hiv->iv", w2, mom.M[:, f, y])
        scale = np.sqrt(np.diag(A))
        scale[scale == 0] = 1.0
        beta = np.linalg.lstsq(A / np.outer(scale, scale), B / scale[:, None],
                               rcond=None)[0] / scale[:, None]  # (features, variants)
        est = est - (weight @ mom.mean[:, f] - mu) @ beta
        # residual sums of squares per stratum: Syy − 2 β·Sxy + βᵀ Sxx β
        resid = (Syy - 2.0 * np.einsum("hiv,iv->hv", mom.M[:, f, y], beta)
                 + np.einsum("iv,hij,jv->hv", beta, mom.M[:, f, f], beta))
    else:
        resid = Syy
    resid = np.maximum(resid, 0.0)
    var = (w2[:, None] * resid).sum(axis=0)
    return est, np.sqrt(var), resid / np.maximum(n - 1, 1)[:, None]


def sampled_de(ut: UnitTrees, n_pairs: int, seed: int = 0,
               costs: Optional["_ted.Costs"] = None, control_variate: bool = True,
               target_se: Optional[float] = None, d_o: Optional[np.ndarray] = None,
               max_pairs: int = 5_000_000, progress: Optional[bool] = None,
               max_cells: Optional[float] = None) -> SampledDe:
    """Estimate D_e from value pairs drawn by size strata.

    docs/method.md §5.3.  The ordered pairs of distinct values are cut into
    strata by the size bins of their two trees (`SIZE_BINS` bins at the
    quantiles of the values' sizes); the share of every stratum is known
    exactly.  The first ``n_pairs`` pairs are spread over the strata in
    proportion to their shares; with ``target_se``, more are drawn where
    they reduce the standard error most per unit of kernel work (Neyman
    allocation with costs, from each stratum's residual spread and its mean
    DP cells), until every variant's SE of α is at most ``target_se``.
    δ² of each drawn pair is exact; the control-variate (combined regression)
    estimator subtracts the regression on features of tree sizes and label
    histograms whose exact all-pairs means are known.  Drawn pairs are not
    kept: every chunk is reduced to per-stratum moments.

    Parameters
    ----------
    ut : UnitTrees
    n_pairs : int
        Pairs drawn first.
    seed : int
        Seed of the draw (the estimate is deterministic for a seed).
    costs : Costs, optional
        Edit costs; None: unit costs.
    control_variate : bool
        Use the control-variate estimator.
    target_se : float, optional
        Draw more pairs until every variant's SE *of α* is at most this (needs
        ``d_o``).
    d_o : numpy.ndarray, optional
        (3,): exact D_o per variant, for ``target_se``.
    max_pairs : int
        Upper bound on the pairs drawn.
    progress : bool, optional
        A bar in drawn pairs titled ``sampled D_e`` (its total grows when more
        pairs are drawn); None: the process default.
    max_cells : float, optional
        With ``target_se``: stop when the draws the target needs would cost
        more than this many DP cells (the exact pass's, `SampledDe.costlier`).
    """
    rng = np.random.default_rng(seed)
    value_tree = np.concatenate(ut.which) if ut.which else np.zeros(0, np.int64)
    sz = ut.pack.sizes
    hist64 = _label_histograms(ut.pack) if control_variate else None
    mu = _cv_means(sz[value_tree], hist64, value_tree) if hist64 is not None else None
    hist = _pair_histograms(hist64) if hist64 is not None else None
    n_feat = 6 if control_variate else 0
    # as many bins as the first draw can fill: B(B+1)/2 strata of MIN_STRATUM_PAIRS each
    bins = int((math.sqrt(1.0 + 8.0 * n_pairs / MIN_STRATUM_PAIRS) - 1.0) / 2.0)
    strata = _Strata(sz[value_tree].astype(np.float64), max(1, min(SIZE_BINS, bins)))
    H = len(strata)
    mom = _Moments(H, n_feat + 3)
    cells = np.zeros(H)  # DP cells of the pairs drawn, per stratum
    cl, cr = ut.pack.cl.astype(np.float64), ut.pack.cr.astype(np.float64)
    K1 = len(ut.pack) + 1
    # first draw: in proportion to the strata's shares, at least MIN_STRATUM_PAIRS each
    # (pairs are drawn with replacement: a stratum of few pairs is simply drawn often)
    want = np.maximum(np.floor(strata.weight * n_pairs), MIN_STRATUM_PAIRS).astype(np.int64)
    if target_se is None:  # exactly n_pairs: two a stratum, the rest by largest remainders
        rest = int(n_pairs) - 2 * H
        share = strata.weight * max(rest, 0)
        want = 2 + np.floor(share).astype(np.int64)
        short = int(n_pairs) - int(want.sum())
        if short > 0:
            want[np.argsort(-(share - np.floor(share)), kind="stable")[:short]] += 1
    drawn = 0
    projected: Optional[Tuple[int, float]] = None
    bar = (Progress(int(want.sum()), "pairs", title=SAMPLED_TITLE)
           if wanted(progress) else None)
    est = se = np.zeros(3)
    while True:
        # the draw of this round, stratum by stratum, in chunks of pairs
        todo = [(h, int(k)) for h, k in enumerate(want.tolist()) if k > 0]
        while todo:
            chunk_i, chunk_j, chunk_h = [], [], []
            room = SAMPLE_CHUNK
            while todo and room > 0:
                h, k = todo[0]
                take = min(k, room)
                i, j = strata.draw(h, take, rng)
                chunk_i.append(i)
                chunk_j.append(j)
                chunk_h.append(np.full(take, h))
                room -= take
                todo[0] = (h, k - take)
                if k == take:
                    todo.pop(0)
            ii, jj, hh = (np.concatenate(chunk_i), np.concatenate(chunk_j),
                          np.concatenate(chunk_h))
            ti, tj = value_tree[ii], value_tree[jj]
            a, b = np.minimum(ti, tj), np.maximum(ti, tj)
            uk, inv = np.unique(a * K1 + b, return_inverse=True)
            ua, ub = uk // K1, uk % K1
            d_u = np.zeros(uk.shape[0])  # identical trees: distance 0, no TED needed
            diff = np.flatnonzero(ua != ub)
            for k0 in range(0, diff.shape[0], PROGRESS_CHUNK if bar is not None
                            else max(diff.shape[0], 1)):
                sl = diff[k0:k0 + PROGRESS_CHUNK] if bar is not None else diff
                d_u[sl] = _ted.pair_distances(ut.pack, ua[sl], ub[sl], costs)
                if bar is not None:
                    bar.update(sl.shape[0] * ii.shape[0] / max(diff.shape[0], 1))
            # features and δ² of each distinct tree pair (all symmetric in the two
            # trees), then a row per drawn pair: the same numbers as per drawn pair
            su, sv = sz[ua], sz[ub]
            Zu = np.empty((uk.shape[0], n_feat + len(VARIANTS)))
            if hist is not None:
                Zu[:, :n_feat] = _cv_features(su, sv, hist, ua, ub)
            for k, v in enumerate(VARIANTS):
                Zu[:, n_feat + k] = delta_squared(d_u, su, sv, v)
            Z = Zu[inv]
            pu = np.where(ua != ub, np.minimum(cl[ua] * cl[ub], cr[ua] * cr[ub]), 0.0)
            cells += np.bincount(hh, pu[inv], minlength=H)
            # the chunk is built stratum by stratum: hh is non-decreasing
            bounds = np.searchsorted(hh, np.arange(H + 1))
            for h in range(H):
                if bounds[h + 1] > bounds[h]:
                    mom.add(h, Z[bounds[h]:bounds[h + 1]])
            drawn += ii.shape[0]
        est, se, resid = _combined_estimate(mom, strata.weight, n_feat, mu)
        if target_se is None or d_o is None or drawn >= max_pairs:
            break
        with np.errstate(divide="ignore", invalid="ignore"):
            # the SE of D_e each variant may have: SE(α) = D_o / D_e² · SE(D_e)
            allowed = np.where((est > 0) & (d_o > 0), target_se * est ** 2 / d_o, np.inf)
        if np.all(se <= allowed):
            break
        # Neyman allocation with costs for all variants at once: n_h ∝ r_h / √c_h,
        # r_h² = Σ_v W_h² S²_vh / allowed_v², scaled so that every variant meets its
        # target (Cochran §5.5); +10 % against the noise of the estimates
        fin = np.isfinite(allowed)
        c = np.maximum(cells / np.maximum(mom.n, 1), 0.0) + PAIR_OVERHEAD_CELLS
        r = np.sqrt((strata.weight[:, None] ** 2 * resid[:, fin] / allowed[fin] ** 2)
                    .sum(axis=1))
        shape = r / np.sqrt(c)
        if shape.sum() <= 0:
            break
        shape = shape / shape.sum()
        with np.errstate(divide="ignore", invalid="ignore"):
            need = np.where(shape[:, None] > 0, strata.weight[:, None] ** 2 * resid[:, fin]
                            / (shape[:, None] * allowed[fin] ** 2), 0.0).sum(axis=0)
        total = float(np.max(need)) * 1.1
        goal = np.maximum(np.ceil(total * shape), mom.n)
        if max_cells is not None and float((goal * c).sum()) > max_cells:
            # the exact pass is cheaper than the draws the target needs
            projected = (int(goal.sum()), float((goal * c).sum()))
            break
        want = (goal - mom.n).astype(np.int64)
        room = max_pairs - drawn
        if want.sum() > room:
            want = np.floor(want * (room / want.sum())).astype(np.int64)
        want = np.maximum(want, 0)
        if want.sum() == 0:
            break
        if bar is not None:
            bar.total = drawn + int(want.sum())
    if bar is not None:
        bar.close()
    return SampledDe(est, se, drawn, control_variate, projected is not None, projected)


def delta_squared(ted: np.ndarray, size_a: np.ndarray, size_b: np.ndarray,
                  variant: str) -> np.ndarray:
    """δ² of docs/method.md §4 from TED values and tree sizes |x|, |y| (broadcasting).

    plain: δ = TED; diff: δ = TED − | |x| − |y| |; norm: δ = TED / (|x| + |y|).

    Parameters
    ----------
    ted : numpy.ndarray
    size_a, size_b : numpy.ndarray
        |x| and |y| (docs/method.md §2.3).
    variant : {"plain", "diff", "norm"}

    Raises
    ------
    ValueError
        Unknown variant.
    """
    if variant == "plain":
        d = ted
    elif variant == "diff":
        d = ted - np.abs(size_a - size_b)
    elif variant == "norm":
        d = ted / (size_a + size_b)
    else:
        raise ValueError(f"unknown variant {variant!r}; expected one of {VARIANTS}")
    return d * d
