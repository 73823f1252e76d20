"""The compiled kernels behind `synagree.distance.ted` and `synagree.distance.sums`.

Each function runs one kernel on a pack of trees (a `synagree.distance.ted.TreePack`)
and the kernel costs (`Costs.arrays`), writing into ``out`` arrays the
caller allocates.  The work is done by the C extension
``synagree.distance._tedc`` when it is built, else by the numba kernels of
`synagree.distance.kernels_numba` (``SYNAGREE_KERNELS`` picks one,
`synagree.base.native`); both give bit-identical results (docs/method.md
§3.3).  numba is imported only when its kernels run.

With integral unit costs the C extension runs batches of up to 16, 8 or 4
pairs that share their first tree in the SIMD lanes of the widest of
AVX-512F, AVX2 and SSE4.1 the CPU has (`simd`; ``SYNAGREE_SIMD``), with the
same distances; `pairs` sorts its list by the
first tree for it.

The C kernels check every pack they are given (offsets, tree shapes, label
ids: O(nodes)); here a pack is checked once, at its first C call, and later
calls pass it as trusted, so the check is not repeated for every tile or
batch of pairs of a large corpus.  A pack's arrays are not changed after it
is built.
"""
from __future__ import annotations

import importlib
import weakref
from types import ModuleType
from typing import Any, Optional, Protocol, Sequence, Tuple

import numpy as np

from synagree.base import jit as _jit
from synagree.base import memory, native

try:
    from synagree.distance import _tedc
except ImportError:  # the optional C extension was not built: numba runs the kernels
    _tedc = None  # type: ignore[assignment]

C_EXTENSION: Optional[ModuleType] = _tedc
# what it is built from (pyproject.toml)
C_SOURCES = ("_tedc.c", "_tedc_simd.h", "_tedc_simd_body.h", "_tedc_zs.h")
SIMD_LEVELS = {16: "AVX-512", 8: "AVX2", 4: "SSE4.1"}  # the SIMD kernel's lanes -> level
SERIAL_BELOW = 4096  # shorter pair lists run on one thread: no thread start-up
PAIRS_CHUNK = 64  # pairs per parallel task
SORTED_CHUNK = 1024  # pairs per parallel task when sorted for the SIMD kernel

PackArgs = Tuple[np.ndarray, ...]


class Pack(Protocol):
    """What the kernels need of a pack of trees (`synagree.distance.ted.TreePack`)."""

    maxn: int

    def _args(self) -> PackArgs: ...


# pack -> the number of label ids it uses, once C's check_pack has passed it
_checked: "weakref.WeakKeyDictionary[Any, int]" = weakref.WeakKeyDictionary()


def backend() -> str:
    """Which kernels the next call runs (`synagree.base.native`): ``"c"``, ``"numba"``, or
    ``"python"`` (the numba twins run as plain Python: numba is not installed)."""
    if native.use_c(C_EXTENSION, C_SOURCES):
        return "c"
    return "numba" if native.numba_installed() else "python"


def simd() -> str:
    """What the C kernels' inter-pair SIMD kernel does in the next call, in words.

    It takes batches of pairs with integral unit costs (int32 cells) at the
    widest level the CPU has and ``SYNAGREE_SIMD`` allows (AVX-512F, AVX2,
    SSE4.1; `synagree.base.native.simd`), unless ``SYNAGREE_SIMD=off``.
    """
    if not native.use_c(C_EXTENSION, C_SOURCES):
        return "off (numba kernels)"
    if not native.simd():
        return f"off ({native.SIMD_ENV}=off)"
    lanes = C_EXTENSION.simd_lanes()  # type: ignore[union-attr]
    if not lanes:
        return "none (this CPU or build has no SSE4.1)"
    return f"{SIMD_LEVELS.get(lanes, '?')}, {lanes} int32 lanes"


def _trusted(pack: Pack, dcost: np.ndarray) -> bool:
    """Has ``pack`` passed the C check, with costs covering its labels?

    Checks it the first time (raising as any kernel call would)."""
    labels = _checked.get(pack)
    if labels is None:
        labels = _checked[pack] = C_EXTENSION.check_pack(*pack._args())  # type: ignore[union-attr]
    return labels <= dcost.shape[0]


PLAN_ABOVE = 64 * 2**20
"""Work buffers above this (all threads together) are planned against the memory limit
before a kernel runs (`synagree.base.memory.check_ted_tables`); smaller ones, the usual
case (a sentence of 100 words needs 0.2 MiB a thread), are not worth the look."""


def _plan(pack: Pack, dcost: np.ndarray, tasks: int) -> None:
    """Refuse (``memory-limit``, exit 2) a call whose work buffers would not fit: each
    thread holds tables sized by the pack's largest tree (`memory.ted_table_bytes`)."""
    threads = max(1, min(native.threads(), int(tasks)))
    cell = 4 if dcost.dtype == np.int32 else 8
    if threads * memory.ted_table_bytes(pack.maxn, cell) > PLAN_ABOVE:
        memory.check_ted_tables(pack.maxn, threads, cell)


def _run_numba(kernel: str, args: Sequence[Any]) -> None:
    # imported on first use only: numba's import and start-up cost ~0.5-1 s
    fn = getattr(importlib.import_module("synagree.distance.kernels_numba"), kernel)
    _jit.before_call(fn, args)
    fn(*args)


def _larger_first(pack: Pack, i: np.ndarray, j: np.ndarray, dcost: np.ndarray,
                  icost: np.ndarray, unit: bool) -> Tuple[np.ndarray, np.ndarray]:
    """The pairs with the larger tree (more nodes) first where the costs are symmetric
    (unit renames and insert = delete cost for every label, the C kernel's ``sym``:
    TED(a, b) = TED(b, a) exactly, integer cells): the SIMD kernel then sweeps a
    batch of the smaller trees once per larger tree, which pays better for the
    batch's columns.  Other costs: as given."""
    nodes = np.diff(pack._args()[2])
    if not unit or not np.array_equal(dcost, icost) or min(i.min(), j.min()) < 0 or \
            max(i.max(), j.max()) >= nodes.shape[0]:
        return i, j   # (indices out of range: the kernel says which)
    swap = nodes[i] < nodes[j]
    return np.where(swap, j, i), np.where(swap, i, j)


def pairs(pack: Pack, i: np.ndarray, j: np.ndarray, dcost: np.ndarray, icost: np.ndarray,
          rmat: np.ndarray, unit: bool, out: np.ndarray, chunk: int = PAIRS_CHUNK) -> None:
    """TED of each pair ``(i[k], j[k])`` into ``out[k]`` (float64).

    ``i``, ``j``: int64 tree indices; lists shorter than `SERIAL_BELOW`
    run on one thread, longer ones in tasks of ``chunk`` pairs (at least 1).
    """
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    chunk = min(chunk, max(1, i.shape[0]))  # no overflow in the task count
    serial = i.shape[0] < SERIAL_BELOW
    _plan(pack, dcost, 1 if serial else -(-i.shape[0] // chunk))
    if native.use_c(C_EXTENSION, C_SOURCES):
        threads = 1 if serial else native.threads()
        if dcost.dtype == np.int32 and native.simd() and i.shape[0] > 1:
            # the SIMD kernel batches the pairs of one first tree that come
            # one after another: sorted by i, the results put back in place
            # (tasks of at least SORTED_CHUNK pairs, so that few runs are cut in two)
            first, second = _larger_first(pack, i, j, dcost, icost, unit)
            order = np.argsort(first, kind="stable")
            tmp = np.empty_like(out)
            C_EXTENSION.pairs(first[order], second[order],  # type: ignore[union-attr]
                              *pack._args(),
                              dcost, icost, rmat, unit, max(chunk, SORTED_CHUNK), threads,
                              tmp, _trusted(pack, dcost))
            out[order] = tmp
        else:
            C_EXTENSION.pairs(i, j, *pack._args(), dcost, icost, rmat,  # type: ignore[union-attr]
                              unit, chunk, threads, out, _trusted(pack, dcost))
    elif serial:
        _run_numba("_pairs_serial", (i, j, *pack._args(), dcost, icost, rmat, unit,
                                     pack.maxn, out))
    else:
        _run_numba("_pairs_kernel", (i, j, *pack._args(), dcost, icost, rmat, unit,
                                     pack.maxn, chunk, out))


def all_pairs(pack: Pack, dcost: np.ndarray, icost: np.ndarray, rmat: np.ndarray,
              unit: bool, out: np.ndarray) -> None:
    """TED of every pair of trees into the K × K float64 matrix ``out`` (both triangles)."""
    _plan(pack, dcost, (out.shape[0] + 1) // 2)
    if native.use_c(C_EXTENSION, C_SOURCES):
        C_EXTENSION.all_pairs(*pack._args(), dcost, icost, rmat,  # type: ignore[union-attr]
                              unit, native.threads(), out, _trusted(pack, dcost))
    else:
        _run_numba("_all_pairs_kernel", (*pack._args(), dcost, icost, rmat, unit, pack.maxn,
                                         out))


def tile(pack: Pack, dcost: np.ndarray, icost: np.ndarray, rmat: np.ndarray, unit: bool,
         uoff: np.ndarray, utree: np.ndarray, ucount: np.ndarray, sizes: np.ndarray,
         span: Tuple[int, int, int, int], want_s: bool, s_out: np.ndarray,
         row_out: np.ndarray, diag_out: np.ndarray, woff: np.ndarray,
         within_out: np.ndarray) -> None:
    """One tile pair of the all-pairs sums (see `synagree.distance.sums.run_tile`).

    ``woff`` counts from the tile's first unit (``ut.woff - ut.woff[r0]``).
    """
    r0, r1, c0, c1 = span
    _plan(pack, dcost, max(1, r1 - r0))
    if native.use_c(C_EXTENSION, C_SOURCES):
        C_EXTENSION.tile(*pack._args(), dcost, icost, rmat, unit,  # type: ignore[union-attr]
                         uoff, utree, ucount, sizes, r0, r1, c0, c1, want_s,
                         s_out, row_out, diag_out, woff, within_out, native.threads(),
                         _trusted(pack, dcost))
    else:
        _run_numba("_tile_kernel", (*pack._args(), dcost, icost, rmat, unit, pack.maxn,
                                    uoff, utree, ucount, sizes, r0, r1, c0, c1, want_s,
                                    s_out, row_out, diag_out, woff, within_out))
