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
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

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

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> ut = UnitTrees.build([[a, b], [c, c]])  # two units of two annotations
    >>> ut.n_units, ut.n_values, len(ut.pack), ut.uoff.tolist(), ut.ucount.tolist()
    (2, 4, 3, [0, 2, 3], [1.0, 1.0, 2.0])
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

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> ut = UnitTrees.build([[a, b], [c, c]])  # two units of two annotations
    >>> sums = unit_sums(ut)
    >>> sums.diag[:, 0].tolist(), sums.row[:, 0].tolist()
    ([2.0, 0.0], [36.0, 0.0])
    >>> float(sums.do_sum()[0]), float(sums.de_sum()[0])  # alpha_plain = 1 - (2/4) / (74/12)
    (2.0, 74.0)
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

    Examples
    --------
    >>> tiles(5, 2)
    [(0, 2, 0, 2), (0, 2, 2, 4), (0, 2, 4, 5), (2, 4, 2, 4), (2, 4, 4, 5), (4, 5, 4, 5)]
    """
    bounds = list(range(0, n_units, tile)) + [n_units]
    spans = list(zip(bounds[:-1], bounds[1:]))
    return [(a0, a1, b0, b1) for i, (a0, a1) in enumerate(spans)
            for (b0, b1) in spans[i:]]


def run_tile(ut: UnitTrees, costs: Optional["_ted.Costs"], span: Tuple[int, int, int, int],
             want_s: bool) -> Tuple[np.ndarray, np.ndarray, Optional[np.ndarray], np.ndarray]:
    """Compute one tile pair with the compiled kernel.

    Parameters
    ----------
    ut : UnitTrees
    costs : Costs or None
        Edit costs; None: unit costs.
    span : (int, int, int, int)
        ``(r0, r1, c0, c1)`` from `tiles`.
    want_s : bool
        Also return the unit × unit block.

    Returns
    -------
    row : numpy.ndarray
        (r1−r0, 3): Σ over the units v of the tile (v > u on a diagonal tile).
    diag : numpy.ndarray
        (r1−r0, 3): Σ_{i≠j in u} δ² on a diagonal tile, zeros otherwise.
    S : numpy.ndarray or None
        (r1−r0, c1−c0, 3) block when ``want_s`` (v ≥ u only on a diagonal tile).

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> ut = UnitTrees.build([[a, b], [c, c]])  # two units of two annotations
    >>> row, diag, S = run_tile(ut, None, (0, 1, 1, 2), want_s=True)[:3]
    >>> row[:, 0].tolist()  # a and b against c twice: 4 pairs of TED 3
    [36.0]
    >>> S[0, 0].tolist()  # plain, diff, norm
    [36.0, 36.0, 0.5625]
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
                 want_s, s, row, diag, woff - woff[r0], within)
    return row, diag, (s if want_s else None), within


def tile_work(ut: UnitTrees, span: Tuple[int, int, int, int]) -> float:
    """Number of distinct-tree pairs a tile pair covers (for progress/ETA).

    Parameters
    ----------
    ut : UnitTrees
    span : (int, int, int, int)

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> ut = UnitTrees.build([[a, b], [c, c]])  # two units of two annotations
    >>> tile_work(ut, (0, 2, 0, 2)), tile_work(ut, (0, 1, 1, 2))
    (3.0, 2.0)
    """
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

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> ut = UnitTrees.build([[a, b], [c, c]])  # two units of two annotations
    >>> [r[0][:, 0].tolist() for r in local_executor(ut, None, tiles(2, 1), False)]
    [[0.0], [36.0], [0.0]]
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

    Returns
    -------
    UnitSums

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> ut = UnitTrees.build([[a, b], [c, c]])  # two units of two annotations
    >>> s1, s2 = unit_sums(ut, tile=1, want_s=True), unit_sums(ut, tile=512)
    >>> s1.de_sum().tolist() == s2.de_sum().tolist()
    True
    >>> s1.S[0].tolist()
    [[2.0, 36.0], [36.0, 0.0]]
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

    results: Iterable = (executor or local_executor)(ut, costs, spans, want_s or want_full)
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
        if full is not None:  # s: (rows, cols, 3); a diagonal tile holds v >= u only
            full[r0:r1] += s.sum(axis=1)
            if r0 == c0:
                full[c0:c1] += np.triu(np.moveaxis(s, 2, 0), 1).sum(axis=1).T
            else:
                full[c0:c1] += s.sum(axis=0)
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

    See Also
    --------
    sampled_de

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> ut = UnitTrees.build([[a, b], [c, c]])  # two units of two annotations
    >>> est = sampled_de(ut, 2000, seed=1, control_variate=False)
    >>> est.pairs, bool(abs(est.d_e[0] - 74 / 12) < 4 * est.se[0])
    (2000, True)
    """

    d_e: np.ndarray  # (3,)
    se: np.ndarray  # (3,)
    pairs: int
    control_variate: bool


HIST_CHUNK = 8192  # pairs whose label histograms are compared at once


def _cv_features(si, sj, hist, ti, tj) -> np.ndarray:
    """Control-variate features of value pairs (N × 6): functions of tree sizes
    and label histograms whose means over *all* ordered pairs are known exactly.

    ``hist[ti]`` / ``hist[tj]`` are the pairs' label histograms; they are
    gathered a chunk of pairs at a time (the whole N × labels gather took
    hundreds of MB at 50,000 trees).  The histogram distances are sums of
    squared integer counts, exact in float64 in any order.
    """
    d = si - sj
    mn = np.minimum(si, sj)
    hd = np.empty(ti.shape[0])
    for k in range(0, ti.shape[0], HIST_CHUNK):
        diff = hist[ti[k:k + HIST_CHUNK]] - hist[tj[k:k + HIST_CHUNK]]
        hd[k:k + HIST_CHUNK] = (diff * diff).sum(axis=1)
    return np.stack([d * d, np.abs(d), si * sj, mn, mn * mn, hd], axis=1)


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


def sampled_de(ut: UnitTrees, n_pairs: int, seed: int = 0,
               costs: Optional["_ted.Costs"] = None, control_variate: bool = True,
               target_se: Optional[float] = None, d_o: Optional[np.ndarray] = None,
               max_pairs: int = 5_000_000, progress: Optional[bool] = None) -> SampledDe:
    """Estimate D_e from uniformly drawn ordered pairs of distinct values.

    docs/method.md §5.3.  δ² of each drawn pair is exact; the control-variate
    estimator subtracts the regression on features of tree sizes and label
    histograms whose exact all-pairs means are known, which shrinks the
    standard error.

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

    Returns
    -------
    SampledDe

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> ut = UnitTrees.build([[a, b], [c, c]])  # two units of two annotations
    >>> est = sampled_de(ut, 5000, seed=0)
    >>> bool(abs(est.d_e[0] - 74 / 12) < 0.2), est.pairs
    (True, 5000)
    """
    rng = np.random.default_rng(seed)
    value_tree = np.concatenate(ut.which) if ut.which else np.zeros(0, np.int64)
    n = value_tree.shape[0]
    sz = ut.pack.sizes
    hist = _label_histograms(ut.pack) if control_variate else None
    mu = _cv_means(sz[value_tree], hist, value_tree) if hist is not None else None
    K1 = len(ut.pack) + 1
    ys: List[np.ndarray] = []
    Xs: List[np.ndarray] = []
    want = int(n_pairs)
    drawn = 0
    bar = (Progress(want, "pairs", title=SAMPLED_TITLE)
           if wanted(progress) else None)
    while True:
        i = rng.integers(0, n, size=want)
        j = rng.integers(0, n - 1, size=want)
        j = j + (j >= i)  # uniform over j ≠ i
        ti, tj = value_tree[i], value_tree[j]
        a, b = np.minimum(ti, tj), np.maximum(ti, tj)
        uk, inv = np.unique(a * K1 + b, return_inverse=True)
        ua, ub = uk // K1, uk % K1
        d_u = np.zeros(uk.shape[0])  # identical trees: distance 0, no TED needed
        diff = np.flatnonzero(ua != ub)
        if bar is None:
            d_u[diff] = _ted.pair_distances(ut.pack, ua[diff], ub[diff], costs)
        else:
            bar.total = drawn + want
            scale = want / max(diff.shape[0], 1)  # the bar counts drawn pairs
            for k0 in range(0, diff.shape[0], PROGRESS_CHUNK):
                sl = diff[k0:k0 + PROGRESS_CHUNK]
                d_u[sl] = _ted.pair_distances(ut.pack, ua[sl], ub[sl], costs)
                bar.update(sl.shape[0] * scale)
            bar.done = drawn + want
        d = d_u[inv]
        si, sj = sz[ti], sz[tj]
        ys.append(np.stack([delta_squared(d, si, sj, v) for v in VARIANTS]))
        if control_variate:
            Xs.append(_cv_features(si, sj, hist, ti, tj))
        drawn += want
        y = np.concatenate(ys, axis=1)
        est, se = y.mean(axis=1), y.std(axis=1, ddof=1) / math.sqrt(drawn)
        if control_variate and drawn > 20:
            X = np.concatenate(Xs, axis=0)
            Xc = X - X.mean(axis=0)
            scale = Xc.std(axis=0)
            scale[scale == 0] = 1.0
            # the same arrays for the three variants: made once (each is pairs × 6)
            Z = Xc / scale
            del Xc
            Zm = (X - mu) / scale
            del X
            for k in range(3):
                beta, *_ = np.linalg.lstsq(Z, y[k] - y[k].mean(), rcond=None)
                adj = y[k] - Zm @ beta
                est[k] = adj.mean()
                se[k] = adj.std(ddof=1) / math.sqrt(drawn)
        if target_se is None or d_o is None or drawn >= max_pairs:
            break
        with np.errstate(divide="ignore", invalid="ignore"):
            se_alpha = np.where(est > 0, d_o / est ** 2 * se, 0.0)
        worst = float(np.max(se_alpha))
        if worst <= target_se:
            break
        need = int(drawn * (worst / target_se) ** 2 * 1.1) - drawn
        want = int(min(max(need, 10_000), max_pairs - drawn))
    if bar is not None:
        bar.close()
    return SampledDe(est, se, drawn, control_variate)


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

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    ValueError
        Unknown variant.

    Examples
    --------
    >>> import numpy as np
    >>> ted, x, y = np.array([3.0]), np.array([4.0]), np.array([6.0])
    >>> [delta_squared(ted, x, y, v).tolist() for v in ("plain", "diff", "norm")]
    [[9.0], [1.0], [0.09]]
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
