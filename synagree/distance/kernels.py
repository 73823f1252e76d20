"""The compiled kernels behind `synagree.distance.ted` and `synagree.distance.sums`.

Each function runs one kernel on a `TreePack`'s arrays (``pack._args()``)
and the kernel costs (`Costs.arrays`), writing into ``out`` arrays the
caller allocates.  The work is done by the C extension
``synagree.distance._tedc`` when it is built, else by the numba kernels of
`synagree.distance.kernels_numba` (``SYNAGREE_KERNELS`` picks one,
`synagree.base.native`); both give bit-identical results (docs/method.md
§3.3).  numba is imported only when its kernels run.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Optional, Tuple

import numpy as np

from synagree.base import jit as _jit
from synagree.base import native

try:
    from synagree.distance import _tedc
except ImportError:  # the optional C extension was not built: numba runs the kernels
    _tedc = None  # type: ignore[assignment]

C_EXTENSION: Optional[ModuleType] = _tedc
C_SOURCES = ("_tedc.c", "_tedc_zs.h")  # what it is built from (setup.py)
SERIAL_BELOW = 4096  # shorter pair lists run on one thread: no thread start-up
PAIRS_CHUNK = 64  # pairs per parallel task

PackArgs = Tuple[np.ndarray, ...]


def backend() -> str:
    """``"c"`` or ``"numba"``: which kernels the next call runs (`synagree.base.native`).

    Examples
    --------
    >>> backend() in ("c", "numba")
    True
    """
    return "c" if native.use_c(C_EXTENSION, C_SOURCES) else "numba"


def _numba() -> ModuleType:
    # imported on first use only: numba's import and start-up cost ~0.5-1 s
    return importlib.import_module("synagree.distance.kernels_numba")


def pairs(pack: PackArgs, i: np.ndarray, j: np.ndarray, dcost: np.ndarray, icost: np.ndarray,
          rmat: np.ndarray, unit: bool, maxn: int, out: np.ndarray,
          chunk: int = PAIRS_CHUNK) -> None:
    """TED of each pair ``(i[k], j[k])`` into ``out[k]`` (float64).

    ``i``, ``j``: int64 tree indices; lists shorter than `SERIAL_BELOW`
    run on one thread, longer ones in tasks of ``chunk`` pairs (at least 1).

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.distance.ted import Costs, TreePack
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> t = [dependency_tree(DepSentence.from_heads(h, r), v)
    ...      for h, r in [([2, 0], ["nsubj", "root"]), ([0, 0], ["root", "obj"])]]
    >>> pack = TreePack(t)
    >>> out = np.zeros(1)
    >>> pairs(pack._args(), np.array([0]), np.array([1]), *Costs.unit(len(v)).arrays(),
    ...       pack.maxn, out)
    >>> out.tolist()
    [2.0]
    """
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    chunk = min(chunk, max(1, i.shape[0]))  # no overflow in the task count
    serial = i.shape[0] < SERIAL_BELOW
    if native.use_c(C_EXTENSION, C_SOURCES):
        C_EXTENSION.pairs(i, j, *pack, dcost, icost, rmat, unit, chunk,  # type: ignore[union-attr]
                          1 if serial else native.threads(), out)
        return
    nb = _numba()
    if serial:
        args = (i, j, *pack, dcost, icost, rmat, unit, maxn, out)
        _jit.before_call(nb._pairs_serial, args)
        nb._pairs_serial(*args)
    else:
        args = (i, j, *pack, dcost, icost, rmat, unit, maxn, chunk, out)
        _jit.before_call(nb._pairs_kernel, args)
        nb._pairs_kernel(*args)


def all_pairs(pack: PackArgs, dcost: np.ndarray, icost: np.ndarray, rmat: np.ndarray,
              unit: bool, maxn: int, out: np.ndarray) -> None:
    """TED of every pair of trees into the K × K float64 matrix ``out`` (both triangles).

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.distance.ted import Costs, TreePack
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> t = [dependency_tree(DepSentence.from_heads(h, r), v)
    ...      for h, r in [([2, 0], ["nsubj", "root"]), ([0, 0], ["root", "obj"])]]
    >>> pack = TreePack(t)
    >>> out = np.zeros((2, 2))
    >>> all_pairs(pack._args(), *Costs.unit(len(v)).arrays(), pack.maxn, out)
    >>> out.tolist()
    [[0.0, 2.0], [2.0, 0.0]]
    """
    if native.use_c(C_EXTENSION, C_SOURCES):
        C_EXTENSION.all_pairs(*pack, dcost, icost, rmat, unit,  # type: ignore[union-attr]
                              native.threads(), out)
        return
    nb = _numba()
    args = (*pack, dcost, icost, rmat, unit, maxn, out)
    _jit.before_call(nb._all_pairs_kernel, args)
    nb._all_pairs_kernel(*args)


def tile(pack: PackArgs, dcost: np.ndarray, icost: np.ndarray, rmat: np.ndarray, unit: bool,
         maxn: int, uoff: np.ndarray, utree: np.ndarray, ucount: np.ndarray,
         sizes: np.ndarray, span: Tuple[int, int, int, int], want_s: bool, s_out: np.ndarray,
         row_out: np.ndarray, diag_out: np.ndarray, woff: np.ndarray,
         within_out: np.ndarray) -> None:
    """One tile pair of the all-pairs sums (see `synagree.distance.sums.run_tile`).

    ``woff`` counts from the tile's first unit (``ut.woff - ut.woff[r0]``).

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.distance.ted import Costs, TreePack
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> t = [dependency_tree(DepSentence.from_heads(h, r), v)
    ...      for h, r in [([2, 0], ["nsubj", "root"]), ([0, 0], ["root", "obj"])]]
    >>> pack = TreePack(t)
    >>> row, diag, within = np.zeros((1, 3)), np.zeros((1, 3)), np.zeros(1)
    >>> one = np.ones(2)  # one unit: both trees once
    >>> tile(pack._args(), *Costs.unit(len(v)).arrays(), pack.maxn,
    ...      np.array([0, 2]), np.array([0, 1]), one, pack.sizes, (0, 1, 0, 1), False,
    ...      np.zeros((1, 1, 3)), row, diag, np.array([0, 1]), within)
    >>> diag[0].tolist(), within.tolist()  # ordered pairs: 2 · 2² for plain
    ([8.0, 8.0, 0.2222222222222222], [2.0])
    """
    r0, r1, c0, c1 = span
    if native.use_c(C_EXTENSION, C_SOURCES):
        C_EXTENSION.tile(*pack, dcost, icost, rmat, unit,  # type: ignore[union-attr]
                         uoff, utree, ucount, sizes, r0, r1, c0, c1, want_s,
                         s_out, row_out, diag_out, woff, within_out, native.threads())
        return
    nb = _numba()
    args = (*pack, dcost, icost, rmat, unit, maxn, uoff, utree, ucount, sizes,
            r0, r1, c0, c1, want_s, s_out, row_out, diag_out, woff, within_out)
    _jit.before_call(nb._tile_kernel, args)
    nb._tile_kernel(*args)
