"""Zhang–Shasha tree edit distance over flat postorder arrays (docs/method.md §3).

Costs: deleting a node with label id ``a`` costs ``dcost[a]``, inserting
``icost[a]``, renaming ``a → b`` costs ``rmat[a, b]`` (or, with unit costs,
0 if ``a == b`` else 1).  The default costs are zss's ``simple_distance``
with a 0/1 label distance: every label costs 1 to insert or delete except
the empty root label (id 0), which costs 0.  Distances are float64; with
unit costs they are exact integers.

All work happens on `TreePack`, a corpus of trees packed into a handful of
flat arrays, so the loop over pairs runs inside compiled code
(`synagree.distance.kernels`: C, or numba where the C extension is not
built) with one work buffer per thread.  Each pair runs in whichever
orientation (left- or right-path decomposition, i.e. original or mirrored
trees) the Zhang–Shasha cost estimate prefers; both give the same distance.

The kernels fill the textbook's cells with the textbook's additions, so
their distances are the textbook float64 values bit for bit (with integer
costs the C kernel gives the tables of leaf keyroots in closed form, exact
integers like the rest); they are laid out for speed (1-1.5 G cells/s per
core on UD English pairs, 3-4× the straightforward loop; docs/method.md
§3.3).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from synagree.base import native
from synagree.distance import kernels
from synagree.trees.flat import FlatTree

INT_COST_MAX = 1024  # integral unit costs up to this run on int32 cells


@dataclass
class Costs:
    """Edit costs per label id (docs/method.md §3; unit costs by default).

    Parameters
    ----------
    delete : numpy.ndarray
        float64 (L,): cost of deleting a node with label id ``a``.
    insert : numpy.ndarray
        float64 (L,): cost of inserting one.
    rename : numpy.ndarray, optional
        float64 (L, L): cost of renaming ``a → b``; None: 0 for equal labels,
        1 otherwise.
    """

    delete: np.ndarray  # float64 (L,)
    insert: np.ndarray  # float64 (L,)
    rename: Optional[np.ndarray] = None  # float64 (L, L); None = 0/1 equality

    @classmethod
    def unit(cls, n_labels: int) -> "Costs":
        """Unit costs for ``n_labels`` label ids: 1 to insert or delete, 0/1 renames.

        The root's empty label (id 0) costs 0 to insert or delete, as under zss.
        """
        c = np.ones(n_labels, dtype=np.float64)
        c[0] = 0.0  # the root's empty label, as zss
        return cls(c, c.copy(), None)

    @classmethod
    def with_renames(cls, rename: np.ndarray) -> "Costs":
        """Unit insert/delete costs (0 for the root's label id 0) and the given renames.

        ``rename`` is (L, L), e.g. hierarchical label distances in [0, 1]
        (`synagree.trees.hierarchy.label_distance_matrix`, docs/method.md §3.2, §9).
        """
        unit = cls.unit(rename.shape[0])
        return cls(unit.delete, unit.insert, np.asarray(rename, dtype=np.float64))

    def arrays(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
        """``(delete, insert, rename, unit)`` as the kernels take them.

        Equality renames with small integral insert/delete costs run on int32
        cells: every sum is then an exact integer both ways, so the distances
        are the float64 ones, bit for bit.  Otherwise cells are float64.  With
        ``unit``, ``rename`` is ``[[0, 1]]``: the cost of an equal / unequal pair.
        """
        dc = np.ascontiguousarray(self.delete, dtype=np.float64)
        ic = np.ascontiguousarray(self.insert, dtype=np.float64)
        if self.rename is not None:
            return dc, ic, np.ascontiguousarray(self.rename, dtype=np.float64), False
        both = np.concatenate([dc, ic])
        if np.all(both == np.round(both)) and np.all(np.abs(both) <= INT_COST_MAX):
            # every cell is at most INT_COST_MAX · (n1 + n2), far below the
            # INT_BIG sentinel (2**29) for any pair whose work buffers fit in
            # memory (n1 + n2 would need 2**19 nodes)
            return (dc.astype(np.int32), ic.astype(np.int32),
                    np.array([[0, 1]], dtype=np.int32), True)
        return dc, ic, np.array([[0.0, 1.0]]), True


# the pack's arrays in the kernels' argument order
_PackArrays = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class TreePack:
    """A set of `FlatTree` packed into contiguous arrays for the kernels.

    Parameters
    ----------
    trees : sequence of FlatTree

    Attributes
    ----------
    trees : list of FlatTree
    sizes : numpy.ndarray
        float64: |t| of each tree.
    maxn : int
        The largest node count (sizes the work buffers).
    """

    def __init__(self, trees: Sequence[FlatTree]):
        self.trees = list(trees)
        K = len(self.trees)
        sizes_nodes = np.array([t.n_nodes for t in self.trees], dtype=np.int64)
        self.noff = np.zeros(K + 1, dtype=np.int64)
        np.cumsum(sizes_nodes, out=self.noff[1:])
        self.koff = np.zeros(K + 1, dtype=np.int64)
        np.cumsum([t.keyroots.shape[0] for t in self.trees], out=self.koff[1:])
        self.rkoff = np.zeros(K + 1, dtype=np.int64)
        np.cumsum([t.r_keyroots.shape[0] for t in self.trees], out=self.rkoff[1:])

        def cat(name: str, dtype: type = np.int32) -> np.ndarray:
            parts = [getattr(t, name) for t in self.trees]
            return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)

        self.lab, self.lml, self.kr = cat("labels"), cat("lml"), cat("keyroots")
        self.rlab, self.rlml, self.rkr = cat("r_labels"), cat("r_lml"), cat("r_keyroots")
        self.cl = np.array([t.cost_left for t in self.trees], dtype=np.int64)
        self.cr = np.array([t.cost_right for t in self.trees], dtype=np.int64)
        self.sizes = np.array([t.size for t in self.trees], dtype=np.float64)
        self.maxn = int(sizes_nodes.max()) if K else 1

    def __len__(self) -> int:
        return len(self.trees)

    def _args(self) -> _PackArrays:
        return (self.lab, self.lml, self.noff, self.kr, self.koff, self.rlab, self.rlml,
                self.rkr, self.rkoff, self.cl, self.cr)


def _costs_for(pack: TreePack, costs: Optional[Costs]) -> Costs:
    if costs is not None:
        return costs
    n_labels = int(max(pack.lab.max(initial=0), pack.rlab.max(initial=0))) + 1
    return Costs.unit(n_labels)


def ted(t1: FlatTree, t2: FlatTree, costs: Optional[Costs] = None) -> float:
    """Tree edit distance between two trees (unit costs unless ``costs``).

    Zhang–Shasha (docs/method.md §3.1): with unit costs every non-root node
    costs 1 to insert, delete or relabel; the result equals
    ``zss.simple_distance`` on the same trees.

    One pair runs through the C kernel's single-pair entry (``_tedc.ted_pair``:
    the trees' own arrays, checked in O(nodes), no pack built; about 2 µs of
    Python and C around the kernel with unit costs, docs/performance.md), else
    through `pair_distances` on a pack of the two (numba; the same distance).

    Parameters
    ----------
    t1, t2 : FlatTree
        Trees whose label ids come from one `Vocabulary`.
    costs : Costs, optional
        None: unit costs.  Given, `Costs.arrays` is recomputed on every call
        (about 10 µs): for many pairs under one set of costs use
        `pair_distances`.

    Raises
    ------
    ValueError
        A tree that is not well formed, or a label id the costs do not
        cover.

    See Also
    --------
    pair_distances, pairwise
    """
    ext = kernels.C_EXTENSION
    if ext is not None and (ext is _fresh[0] or _check_fresh(ext)):
        d: Optional[float]
        try:
            if costs is None:
                d = ext.ted_pair(t1.labels, t1.lml, t1.keyroots, t1.r_labels, t1.r_lml,
                                 t1.r_keyroots, t1.cost_left, t1.cost_right,
                                 t2.labels, t2.lml, t2.keyroots, t2.r_labels, t2.r_lml,
                                 t2.r_keyroots, t2.cost_left, t2.cost_right,
                                 None, None, None, True)
            else:
                d = ext.ted_pair(t1.labels, t1.lml, t1.keyroots, t1.r_labels, t1.r_lml,
                                 t1.r_keyroots, t1.cost_left, t1.cost_right,
                                 t2.labels, t2.lml, t2.keyroots, t2.r_labels, t2.r_lml,
                                 t2.r_keyroots, t2.cost_left, t2.cost_right,
                                 *costs.arrays())
        except TypeError:
            d = None  # arrays not int32 (a FlatTree built by hand): the pack converts them
        if d is not None:
            return d
        # None: the settings are not plainly for C; the general path reads them
    return float(pair_distances(TreePack([t1, t2]), np.array([0]), np.array([1]), costs)[0])


# the C extension last found built from its sources as they are (they do not change while
# the process runs), and the last found stale; a stale build is left to the general path,
# which warns or refuses
_fresh: List[Any] = [None]
_stale: List[Any] = [None]


def _check_fresh(ext: Any) -> bool:
    if ext is _stale[0]:
        return False
    if native.built_from(ext, kernels.C_SOURCES):
        _fresh[0] = ext
        return True
    _stale[0] = ext
    return False


def pair_distances(pack: TreePack, i: np.ndarray, j: np.ndarray,
                   costs: Optional[Costs] = None, chunk: int = 64) -> np.ndarray:
    """TED for the listed index pairs ``(i[k], j[k])`` of ``pack``.

    Short lists run serially, longer ones in parallel chunks.

    Parameters
    ----------
    pack : TreePack
    i, j : numpy.ndarray
        Tree indices into ``pack``, of equal length.
    costs : Costs, optional
        None: unit costs.
    chunk : int
        Pairs per parallel task (at least 1; ValueError otherwise).

    Returns
    -------
    numpy.ndarray
        float64, one distance per pair.
    """
    i = np.ascontiguousarray(i, dtype=np.int64)
    j = np.ascontiguousarray(j, dtype=np.int64)
    out = np.zeros(i.shape[0], dtype=np.float64)
    if i.shape[0] == 0:
        return out
    kernels.pairs(pack, i, j, *_costs_for(pack, costs).arrays(), out, chunk)
    return out


def distance_matrix(pack: TreePack, costs: Optional[Costs] = None) -> np.ndarray:
    """Symmetric K × K matrix of TED between all trees of ``pack`` (each pair once).

    Parameters
    ----------
    pack : TreePack
    costs : Costs, optional
        None: unit costs.

    Returns
    -------
    numpy.ndarray
        float64 (K, K), zero diagonal.
    """
    K = len(pack)
    out = np.zeros((K, K), dtype=np.float64)
    if K < 2:
        return out
    kernels.all_pairs(pack, *_costs_for(pack, costs).arrays(), out)
    return out


def dedupe(trees: Sequence[FlatTree]) -> Tuple[List[FlatTree], np.ndarray]:
    """Distinct trees (same labelled shape and |t|) and each input's index among them.

    Returns
    -------
    distinct : list of FlatTree
        In order of first occurrence.
    which : numpy.ndarray
        int64: the index into ``distinct`` of each input tree.
    """
    index: Dict[bytes, int] = {}
    distinct: List[FlatTree] = []
    which = np.empty(len(trees), dtype=np.int64)
    for k, t in enumerate(trees):
        key = t.key()
        d = index.get(key)
        if d is None:
            d = len(distinct)
            index[key] = d
            distinct.append(t)
        which[k] = d
    return distinct, which


def pairwise(trees: Sequence[FlatTree], costs: Optional[Costs] = None) -> np.ndarray:
    """Bulk entry point: all pairwise TEDs of ``trees`` (N × N).

    Identical trees are computed once (deduplicated) and each unordered pair of
    distinct trees once.

    Parameters
    ----------
    trees : sequence of FlatTree
    costs : Costs, optional
        None: unit costs.

    Returns
    -------
    numpy.ndarray
        float64 (N, N), symmetric.
    """
    distinct, which = dedupe(trees)
    dm = distance_matrix(TreePack(distinct), costs)
    out: np.ndarray = dm[np.ix_(which, which)]
    return out
