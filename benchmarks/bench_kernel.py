"""The TED kernel against its previous version, compiled in the same run.

The previous kernel (``_old_*`` below) is a verbatim copy of the float64
kernel the package shipped before the int32/unsigned-index rewrite.  It is
timed single-threaded on the same pair lists as today's numba kernel and
the C kernel (synagree.distance._tedc, where built), in turn; all three must
give bit-identical distances.

DP cells: Zhang–Shasha fills, for each pair of keyroots (k1, k2), a forest
table of (|F1| + 1) × (|F2| + 1) cells, |F| = the keyroot's subtree size
(row and column 0 included).  A pair's cell count is therefore
(Σ_k1 (|F1|+1)) · (Σ_k2 (|F2|+1)) in the orientation the kernel picks; it is
counted exactly from the packed arrays.  "G cells/s per core" = cells / time
on one thread.

Parts:

1. kernel: EWT test sentences (random pairs), random dependency-shaped trees
   of n = 10/20/40/80 words; unit costs, and general costs (a random rename
   matrix) on the EWT pairs.
2. end to end: exact ``agree`` on EWT dev+test, the original file against a
   perturbed copy (p = 0.05), with the all-pairs tiles run by the previous
   kernel (a verbatim copy of the previous tile kernel, through the
   ``executor`` hook) and by the package's; the within-unit pairs use the
   package kernel both times.  ``--quick`` skips this part.
3. ``--simd`` (only): the scalar C kernel against the inter-pair SIMD kernel
   at each width this CPU runs (``SYNAGREE_SIMD=0`` / ``sse4.1`` / ``avx2`` /
   ``avx512``, issue 36) on the same pairs, one thread,
   in alternating rounds, through the all-pairs entry point (that of the
   exact passes' tiles too): all pairs of 300 EWT test sentences and of 200
   random trees of 20 and of 40 words, unit costs; then 100,000 uniform
   random pairs of EWT test's 2,077 sentences through ``kernels.pairs`` (the
   shape of the sampled D_e draws: sorted by first tree, the larger tree of
   each pair first).  Textbook cells per second
   of CPU time (as above, but CPU seconds of the process: on a loaded machine
   wall time counts the waits for a core), cycles per cell at the clock
   /proc/cpuinfo reports, and the latency bound: one add->min->min chain of 3
   cycles per cell for the scalar kernel, one chain per lane in flight (3/4,
   3/8, 3/16 cycle per cell) for the SIMD kernel.
   Distances must be identical.  Medians over the rounds.
5. ``--ab TAG=DIR[:CFLAGS] ...`` (only): two or more builds of the C kernel
   against each other, the first the baseline: ``_tedc.c`` of each DIR (this
   tree's ``synagree/distance``, a copy of another branch's, the same with
   ``-DNAME=VALUE`` flags for a variant) compiled with setup.py's flags and
   loaded side by side, timed in alternating rounds (the order reversed every
   other round), one thread, CPU seconds of the process: all pairs of the
   ``--simd`` sets (EWT test, random n = 20 and 40, through ``all_pairs``),
   then the exact pass's tiles (``sums.unit_sums``, the build's module swapped
   in, on EWT test against the 5 %-perturbed copy of ``bench_goals.py``).
   Distances and sums must be identical (``--no-check``: not compared, for a
   probe that computes wrong numbers on purpose).  Textbook cells per second
   (the exact pass: ``stats.alpha.exact_cells``) and each build's ratio to
   the baseline, median (min-max) of the per-round ratios.
4. ``--interleave`` (only): the experiment of issue 24, item 3 -- two
   independent DPs per thread.  ``benchmarks/tedc_interleave/`` is the C
   kernel with the rows of two tree-1 keyroots whose subtrees are disjoint
   fused into one column loop (two add->min chains in flight); it and
   today's C kernel (``synagree/distance/_tedc.c``) are compiled here with
   the same flags (setup.py's), loaded side by side, and timed in turn on
   the same pairs, one thread; their distances must be bit-identical.  Then
   the other variant, two pairs at once, in isolation: the kernel's forest
   and prefix row loops run for two tables one after the other and fused
   (``tedc_interleave/rows_micro.c``).

    python benchmarks/bench_kernel.py [--quick | --agree-only | --simd | --interleave]
    python benchmarks/bench_kernel.py --ab main=/tmp/main_distance new=synagree/distance
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Callable, List, Sequence, Tuple

import numba
import numpy as np
from numba import njit, prange

from common import ROOT, SHARED, goal_line, min_med, random_trees
from common import loadavg as full_load
from synagree.distance import kernels, kernels_numba, sums, ted
from synagree.io.conllu import read_conllu, write_conllu
from synagree.noise.perturb import label_set, perturb
from synagree.stats.alpha import exact_cells
from synagree.trees.flat import Vocabulary, dependency_tree, dependency_trees

# --------------------------------------------------------------------------
# The previous kernel, verbatim (only renamed; cache off: compiled here)
# --------------------------------------------------------------------------

@njit(cache=False, nogil=True, fastmath=False)
def _old_zs(l1, lm1, kr1, l2, lm2, kr2, dcost, icost, rmat, unit, td, fd):
    """Zhang–Shasha distance between two trees given as postorder arrays.

    ``td`` (≥ n1 × n2) and ``fd`` (≥ (n1+1) × (n2+1)) are work buffers.
    """
    n1 = l1.shape[0]
    n2 = l2.shape[0]
    if n1 == 0 or n2 == 0:
        s = 0.0
        for a in range(n1):
            s += dcost[l1[a]]
        for b in range(n2):
            s += icost[l2[b]]
        return s
    for ii in range(kr1.shape[0]):
        i = kr1[ii]
        li = lm1[i]
        m = i - li + 2
        for jj in range(kr2.shape[0]):
            j = kr2[jj]
            lj = lm2[j]
            n = j - lj + 2
            fd[0, 0] = 0.0
            for x in range(1, m):
                fd[x, 0] = fd[x - 1, 0] + dcost[l1[li + x - 1]]
            for y in range(1, n):
                fd[0, y] = fd[0, y - 1] + icost[l2[lj + y - 1]]
            for x in range(1, m):
                a = li + x - 1
                la = l1[a]
                da = dcost[la]
                lma = lm1[a]
                p = lma - li
                if lma == li:
                    # a's subtree is a prefix of the forest: trees may match here
                    for y in range(1, n):
                        b = lj + y - 1
                        lb = l2[b]
                        dl = fd[x - 1, y] + da
                        ins = fd[x, y - 1] + icost[lb]
                        v = dl if dl < ins else ins
                        lmb = lm2[b]
                        if lmb == lj:
                            if unit:
                                ren = 0.0 if la == lb else 1.0
                            else:
                                ren = rmat[la, lb]
                            r = fd[x - 1, y - 1] + ren
                            if r < v:
                                v = r
                            fd[x, y] = v
                            td[a, b] = v
                        else:
                            r = fd[p, lmb - lj] + td[a, b]
                            if r < v:
                                v = r
                            fd[x, y] = v
                else:
                    # forest case only: reuse the tree distances computed before
                    for y in range(1, n):
                        b = lj + y - 1
                        dl = fd[x - 1, y] + da
                        ins = fd[x, y - 1] + icost[l2[b]]
                        v = dl if dl < ins else ins
                        r = fd[p, lm2[b] - lj] + td[a, b]
                        if r < v:
                            v = r
                        fd[x, y] = v
    return td[n1 - 1, n2 - 1]


@njit(cache=False, nogil=True)
def _old_pair(i, j, lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
              dcost, icost, rmat, unit, td, fd):
    a0, a1 = noff[i], noff[i + 1]
    b0, b1 = noff[j], noff[j + 1]
    if cl[i] * cl[j] <= cr[i] * cr[j]:
        return _old_zs(lab[a0:a1], lml[a0:a1], kr[koff[i]:koff[i + 1]],
                       lab[b0:b1], lml[b0:b1], kr[koff[j]:koff[j + 1]],
                       dcost, icost, rmat, unit, td, fd)
    return _old_zs(rlab[a0:a1], rlml[a0:a1], rkr[rkoff[i]:rkoff[i + 1]],
                   rlab[b0:b1], rlml[b0:b1], rkr[rkoff[j]:rkoff[j + 1]],
                   dcost, icost, rmat, unit, td, fd)


@njit(cache=False, nogil=True)
def _old_pairs_serial(pi, pj, lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
                      dcost, icost, rmat, unit, maxn, out):
    """Serial twin of :func:`_pairs_kernel` for short pair lists (loads faster)."""
    td = np.empty((maxn, maxn), dtype=np.float64)
    fd = np.empty((maxn + 1, maxn + 1), dtype=np.float64)
    for k in range(pi.shape[0]):
        out[k] = _old_pair(pi[k], pj[k], lab, lml, noff, kr, koff, rlab, rlml, rkr,
                           rkoff, cl, cr, dcost, icost, rmat, unit, td, fd)


@njit(cache=False, nogil=True)
def _old_d2(d, sa, sb, out):
    out[0] = d * d
    e = d - abs(sa - sb)
    out[1] = e * e
    f = d / (sa + sb)
    out[2] = f * f


@njit(cache=False, parallel=True)
def _old_tile_kernel(lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
                     dcost, icost, rmat, unit, maxn,
                     uoff, utree, ucount, sizes,
                     r0, r1, c0, c1, want_s, s_out, row_out, diag_out):
    """One tile pair: units [r0, r1) × [c0, c1).  A diagonal tile (r0 == c0)
    covers v ≥ u only; rows r and n-1-r go together for balance."""
    nr = r1 - r0
    is_diag = r0 == c0
    ntask = (nr + 1) // 2 if is_diag else nr
    for tt in prange(ntask):
        t = np.int64(tt)
        td = np.empty((maxn, maxn), dtype=np.float64)
        fd = np.empty((maxn + 1, maxn + 1), dtype=np.float64)
        tmp = np.empty(3, dtype=np.float64)
        for half in range(2):
            if half == 1 and not is_diag:
                break
            ri = t if half == 0 else nr - 1 - t
            if half == 1 and ri == t:
                break
            u = r0 + ri
            acc0 = 0.0
            acc1 = 0.0
            acc2 = 0.0
            vstart = u if is_diag else c0
            for v in range(vstart, c1):
                s0 = 0.0
                s1 = 0.0
                s2 = 0.0
                for a in range(uoff[u], uoff[u + 1]):
                    ta = utree[a]
                    ca = ucount[a]
                    bstart = uoff[v]
                    if v == u:
                        bstart = a + 1  # unordered distinct-tree pairs in u
                    for b in range(bstart, uoff[v + 1]):
                        tb = utree[b]
                        if ta == tb:
                            continue
                        d = _old_pair(ta, tb, lab, lml, noff, kr, koff, rlab, rlml,
                                      rkr, rkoff, cl, cr, dcost, icost, rmat, unit,
                                      td, fd)
                        _old_d2(d, sizes[ta], sizes[tb], tmp)
                        w = ca * ucount[b]
                        s0 += w * tmp[0]
                        s1 += w * tmp[1]
                        s2 += w * tmp[2]
                if v == u:
                    # ordered pairs i≠j within the unit
                    diag_out[ri, 0] = 2.0 * s0
                    diag_out[ri, 1] = 2.0 * s1
                    diag_out[ri, 2] = 2.0 * s2
                    if want_s:
                        s_out[ri, v - c0, 0] = 2.0 * s0
                        s_out[ri, v - c0, 1] = 2.0 * s1
                        s_out[ri, v - c0, 2] = 2.0 * s2
                else:
                    acc0 += s0
                    acc1 += s1
                    acc2 += s2
                    if want_s:
                        s_out[ri, v - c0, 0] = s0
                        s_out[ri, v - c0, 1] = s1
                        s_out[ri, v - c0, 2] = s2
            row_out[ri, 0] = acc0
            row_out[ri, 1] = acc1
            row_out[ri, 2] = acc2


def _old_costs(costs: ted.Costs):
    """The previous kernels' cost arrays: float64, rename None → (1, 1) zeros."""
    rm = costs.rename if costs.rename is not None else np.zeros((1, 1), np.float64)
    return (np.ascontiguousarray(costs.delete, dtype=np.float64),
            np.ascontiguousarray(costs.insert, dtype=np.float64),
            np.ascontiguousarray(rm, dtype=np.float64), costs.rename is None)


def old_executor(ut, costs, spans, want_s):
    """``unit_sums`` executor running the all-pairs tiles on the previous kernel."""
    dc, ic, rm, unit = _old_costs(ted._costs_for(ut.pack, costs))
    for r0, r1, c0, c1 in spans:
        nr = r1 - r0
        row = np.zeros((nr, 3))
        diag = np.zeros((nr, 3))
        s = np.zeros((nr, c1 - c0, 3)) if want_s else np.zeros((1, 1, 3))
        _old_tile_kernel(*ut.pack._args(), dc, ic, rm, unit, ut.pack.maxn,
                         ut.uoff, ut.utree, ut.ucount, ut.pack.sizes,
                         r0, r1, c0, c1, want_s, s, row, diag)
        yield row, diag, (s if want_s else None)


# --------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------

def loadavg() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def pair_cells(pack: ted.TreePack, pi: np.ndarray, pj: np.ndarray) -> int:
    """Exact DP cells the kernel fills for the pairs (see the module docstring)."""
    size = pack.noff[1:] - pack.noff[:-1]
    tree_of_kr = np.repeat(np.arange(len(pack)), np.diff(pack.koff))
    tree_of_rkr = np.repeat(np.arange(len(pack)), np.diff(pack.rkoff))
    base = np.repeat(pack.noff[:-1], np.diff(pack.koff))
    rbase = np.repeat(pack.noff[:-1], np.diff(pack.rkoff))
    # per keyroot: |F| + 1 = k - lml[k] + 2 (postorder indices within the tree)
    f = pack.kr - pack.lml[base + pack.kr] + 2
    rf = pack.rkr - pack.rlml[rbase + pack.rkr] + 2
    left = np.bincount(tree_of_kr, weights=f, minlength=len(pack)).astype(np.int64)
    right = np.bincount(tree_of_rkr, weights=rf, minlength=len(pack)).astype(np.int64)
    use_left = pack.cl[pi] * pack.cl[pj] <= pack.cr[pi] * pack.cr[pj]
    cells = np.where(use_left, left[pi] * left[pj], right[pi] * right[pj])
    cells[(size[pi] == 0) | (size[pj] == 0)] = 0
    return int(cells.sum())


def time_many(fns: List[Callable[[], object]], rounds: int,
              clock: Callable[[], float] = time.perf_counter) -> List[List[float]]:
    """Run the functions in turn (A B C A B C ...) ``rounds`` times; seconds of
    ``clock`` (wall seconds by default)."""
    out: List[List[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for f, acc in zip(fns, out):
            t = clock()
            f()
            acc.append(clock() - t)
    return out


def kernel_row(name: str, pack: ted.TreePack, pi: np.ndarray, pj: np.ndarray,
               costs: ted.Costs, rounds: int) -> None:
    """The previous kernel, today's numba kernel and the C kernel, one thread each."""
    old_args = _old_costs(costs)
    new_args = costs.arrays()
    outs = [np.zeros(pi.shape[0]) for _ in range(3)]

    def run_old():
        _old_pairs_serial(pi, pj, *pack._args(), *old_args, pack.maxn, outs[0])

    def run_numba():
        kernels_numba._pairs_serial(pi, pj, *pack._args(), *new_args, pack.maxn, outs[1])

    if kernels.C_EXTENSION is not None:
        kernels.C_EXTENSION.check_pack(*pack._args())  # once, as the package does

    def run_c():
        kernels.C_EXTENSION.pairs(pi, pj, *pack._args(), *new_args, 64, 1, outs[2], True)

    fns = [run_old, run_numba] + ([run_c] if kernels.C_EXTENSION is not None else [])
    for f in fns:
        f()  # compile / load
    for k in range(1, len(fns)):
        if not np.array_equal(outs[0], outs[k]):
            bad = np.flatnonzero(outs[0] != outs[k])
            raise SystemExit(f"{name}: {bad.size} distances differ, first {bad[:5]}")
    times = time_many(fns, rounds)
    cells = pair_cells(pack, pi, pj)
    npairs = pi.shape[0]
    best = [min(t) for t in times]
    g = [cells / b / 1e9 for b in best]
    c_cols = (f"{1e6 * best[2] / npairs:>9.2f} {g[2]:>7.3f} {best[1] / best[2]:>6.2f}x"
              if len(best) > 2 else f"{'-':>9} {'-':>7} {'-':>7}")
    print(f"{name:<26} {npairs:>7} {cells / npairs:>9.0f} "
          f"{1e6 * best[0] / npairs:>9.2f} {1e6 * best[1] / npairs:>9.2f} "
          f"{g[0]:>7.3f} {g[1]:>7.3f} {best[0] / best[1]:>6.2f}x {c_cols}  load {loadavg()}")
    if name == "EWT test, random pairs":
        fast = len(best) - 1  # the C kernel where built
        goal_line("TED kernel >= 0.8 G cells/s per core (EWT test, random pairs, unit costs)",
                  f"previous kernel {g[0]:.3f} G/s; numba kernel {g[1]:.3f} G/s",
                  f"**{g[fast]:.3f} G/s** ({'C' if fast == 2 else 'numba'})",
                  f"vs previous {min_med([a / b for a, b in zip(times[0], times[fast])])}x, "
                  f"vs numba {min_med([a / b for a, b in zip(times[1], times[fast])])}x "
                  "(min/median)", full_load())


def ewt_trees(vocab: Vocabulary, name: str):
    return [dependency_tree(s, vocab) for s in read_conllu(SHARED / "ud" / name)]


#: the rows' names per kind of costs: EWT test's random pairs, then random trees (unit costs)
_EWT_ROWS = {"unit": "EWT test, random pairs", "fractional": "EWT, unit renames, 0.5/0.75",
             "general": "EWT, general costs"}


def workloads(quick: bool, kinds: Sequence[str]):
    """The pairs both kernel benchmarks time, as ``(name, pack, pi, pj, costs)``:
    random pairs of EWT test's trees under each kind of costs in ``kinds`` (when
    ../shared/data/ud is there), then chains of random trees of 10 to 80 nodes
    under unit costs.  One vocabulary and one seeded generator, so every run
    times the same pairs."""
    vocab = Vocabulary()
    rng = np.random.default_rng(13)
    if (SHARED / "ud").is_dir():
        trees = ewt_trees(vocab, "en_ewt-ud-test.conllu")
        pack = ted.TreePack(trees)
        npairs = 4000 if quick else 20000
        pi = rng.integers(0, len(trees), npairs)
        pj = rng.integers(0, len(trees), npairs)
        L = len(vocab)
        for kind in kinds:
            if kind == "unit":
                costs = ted.Costs.unit(L)
            elif kind == "fractional":
                costs = ted.Costs(np.full(L, 0.5), np.full(L, 0.75), None)
            else:
                costs = ted.Costs(rng.uniform(0.5, 1.5, L), rng.uniform(0.5, 1.5, L),
                                  rng.uniform(0.0, 2.0, (L, L)))
            yield _EWT_ROWS[kind], pack, pi, pj, costs
    else:
        print(f"(EWT rows skipped: {SHARED / 'ud'} not found)")
    for n in (10, 20, 40, 80):
        trees, _ = random_trees(200, n, seed=n, vocab=vocab)
        pack = ted.TreePack(trees)
        reps = max(1, (40000 if quick else 200000) // (n * n))
        idx = np.arange(len(trees))
        yield (f"random trees n={n}", pack, np.tile(idx[:-1], reps), np.tile(idx[1:], reps),
               ted.Costs.unit(len(vocab)))


def part_kernel(quick: bool) -> None:
    numba.set_num_threads(1)
    rounds = 5 if quick else 9
    print("kernel, one thread; times are the minimum over alternating runs "
          f"({rounds} each): the previous numba kernel (old), today's numba kernel (nb) and "
          "the C kernel (C); ratios of the minima")
    print(f"{'pairs':<26} {'count':>7} {'cells/pr':>9} {'old us/pr':>9} {'nb us/pr':>9} "
          f"{'old G/s':>7} {'nb G/s':>7} {'old/nb':>7} {'C us/pr':>9} {'C G/s':>7} "
          f"{'nb/C':>7}")
    for name, pack, pi, pj, costs in workloads(quick, ("unit", "general")):
        kernel_row(name, pack, pi, pj, costs, rounds)


def part_agree() -> None:
    from synagree.agreement.agree import agree
    from synagree.noise.perturb import label_set, perturb

    ud = SHARED / "ud"
    if not ud.is_dir():
        print(f"(end-to-end part skipped: {ud} not found)")
        return
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    sents = read_conllu(ud / "en_ewt-ud-dev.conllu") + read_conllu(ud / "en_ewt-ud-test.conllu")
    labels = label_set(sents)
    rng = np.random.default_rng(2014)
    noisy = [perturb(s, 0.05, 0.05, labels, rng) for s in sents]
    with tempfile.TemporaryDirectory(prefix="bench_kernel_") as tmp:
        fa, fb = Path(tmp) / "a.conllu", Path(tmp) / "b.conllu"
        write_conllu(fa, sents)
        write_conllu(fb, noisy)
        small = [Path(tmp) / "sa.conllu", Path(tmp) / "sb.conllu"]
        write_conllu(small[0], sents[:30])
        write_conllu(small[1], noisy[:30])
        agree(small, exact=True, executor=old_executor)  # compile both
        agree(small, exact=True)
        print(f"end to end: exact agree, EWT dev+test ({len(sents)} sentences) vs a perturbed "
              f"copy, {numba.get_num_threads()} threads")
        res = {}
        for name, ex in (("old", old_executor), ("new", None), ("old", old_executor),
                         ("new", None)):
            load = loadavg()
            t = time.perf_counter()
            r = agree([fa, fb], exact=True, executor=ex)
            dt = time.perf_counter() - t
            a = tuple(r.alpha[v].alpha for v in ("plain", "diff", "norm"))
            res.setdefault(name, []).append((dt, a))
            print(f"  {name} kernel{' (' + kernels.backend() + ')' if name == 'new' else ''}: {dt:6.1f} s  alpha plain/diff/norm "
                  f"{a[0]:.6f}/{a[1]:.6f}/{a[2]:.6f}  load {load}")
        if {a for _, a in res["old"]} != {a for _, a in res["new"]}:
            raise SystemExit("alpha differs between the kernels")
        o = min(t for t, _ in res["old"])
        n = min(t for t, _ in res["new"])
        print(f"  old/new (best of 2 each): {o / n:.2f}x  load {loadavg()}")


HERE = Path(__file__).resolve().parent
# setup.py's flags for the kernels
C_FLAGS = ["-O3", "-funroll-loops", "-ffp-contract=off", "-fno-math-errno", "-pthread"]


def build_tedc(src_dir: Path, out_dir: Path, tag: str, extra: Sequence[str] = ()):
    """``_tedc.c`` of ``src_dir`` compiled with setup.py's flags (and
    ``extra``) and loaded as a module of its own (``<tag>._tedc``)."""
    out = out_dir / tag
    out.mkdir()
    lib = out / ("_tedc" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(["gcc", *C_FLAGS, *extra, "-shared", "-fPIC", "-DSOURCE_SHA256=\"\"",
                    f"-I{sysconfig.get_paths()['include']}", str(src_dir / "_tedc.c"),
                    "-o", str(lib)], check=True)
    spec = importlib.util.spec_from_file_location(f"{tag}._tedc", lib)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def interleave_row(name: str, today, fused, pack: ted.TreePack, pi: np.ndarray,
                   pj: np.ndarray, costs: ted.Costs, rounds: int) -> float:
    """Today's C kernel and the fused one, one thread, in turn; the ratio."""
    args = costs.arrays()
    outs = [np.zeros(pi.shape[0]) for _ in range(2)]
    today.check_pack(*pack._args())

    def run(mod, out):
        return lambda: mod.pairs(pi, pj, *pack._args(), *args, 64, 1, out, True)

    fns = [run(today, outs[0]), run(fused, outs[1])]
    for f in fns:
        f()
    if not np.array_equal(outs[0], outs[1]):
        bad = np.flatnonzero(outs[0] != outs[1])
        raise SystemExit(f"{name}: {bad.size} distances differ, first {bad[:5]}: "
                         f"{outs[0][bad[:5]]} vs {outs[1][bad[:5]]}")
    ref = kernels_numba_pairs(pack, pi[:300], pj[:300], costs)
    if not np.array_equal(ref, outs[1][:300]):
        raise SystemExit(f"{name}: the fused kernel differs from numba's")
    times = time_many(fns, rounds)
    cells = pair_cells(pack, pi, pj)
    best = [min(t) for t in times]
    per = [a / b for a, b in zip(times[0], times[1])]
    print(f"{name:<30} {pi.shape[0]:>7} {1e6 * best[0] / pi.shape[0]:>9.2f} "
          f"{1e6 * best[1] / pi.shape[0]:>9.2f} {cells / best[0] / 1e9:>7.3f} "
          f"{cells / best[1] / 1e9:>7.3f} {best[0] / best[1]:>6.2f}x "
          f"({min(per):.2f}-{max(per):.2f})  load {loadavg()}", flush=True)
    return best[0] / best[1]


def kernels_numba_pairs(pack, pi, pj, costs) -> np.ndarray:
    out = np.zeros(pi.shape[0])
    kernels_numba._pairs_serial(pi, pj, *pack._args(), *costs.arrays(), pack.maxn, out)
    return out


def part_interleave(quick: bool) -> None:
    numba.set_num_threads(1)
    rounds = 5 if quick else 9
    with tempfile.TemporaryDirectory(prefix="bench_interleave_") as tmp:
        today = build_tedc(ROOT / "synagree" / "distance", Path(tmp), "today")
        fused = build_tedc(HERE / "tedc_interleave", Path(tmp), "fused")
        print("two independent DPs per thread (tedc_interleave/) against today's C kernel, "
              f"both compiled here ({' '.join(C_FLAGS)}), one thread, {rounds} alternating "
              "runs each, minimum; distances bit-identical")
        print(f"{'pairs':<30} {'count':>7} {'now us/pr':>9} {'fused us':>9} {'now G/s':>7} "
              f"{'fus G/s':>7} {'now/fused (per-run range)':>7}")
        rows = [interleave_row(name, today, fused, pack, pi, pj, costs, rounds)
                for name, pack, pi, pj, costs in workloads(quick, ("unit", "fractional",
                                                                   "general"))]
        print(f"today / fused over the rows: {min(rows):.2f}x - {max(rows):.2f}x "
              "(keep only at >= 1.3x)")
        # the other variant, two pairs at once, in isolation: the row loops alone
        micro = Path(tmp) / "rows_micro"
        subprocess.run(["gcc", *C_FLAGS, str(HERE / "tedc_interleave" / "rows_micro.c"),
                        "-o", str(micro)], check=True)
        print("two pairs at once, the row loops alone (tedc_interleave/rows_micro.c), "
              f"load {loadavg()}:")
        for w in (8, 20, 40, 100):
            out = subprocess.run([str(micro), str(w)], check=True, capture_output=True,
                                 text=True).stdout
            print("  " + out.strip().replace("\n", "\n  "), flush=True)


def cpu_ghz() -> float:
    """The mean clock /proc/cpuinfo reports now (GHz; 0 when unknown)."""
    try:
        mhz = [float(line.split(":")[1]) for line in Path("/proc/cpuinfo").read_text().splitlines()
               if line.startswith("cpu MHz")]
    except (OSError, ValueError):
        return 0.0
    return sum(mhz) / len(mhz) / 1000 if mhz else 0.0


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"


def simd_workloads(quick: bool):
    """All pairs (i < j, sorted by i, as the package's passes give them) of EWT test
    sentences and of random trees of 20 and 40 words, then (``pi``, ``pj`` not sorted)
    uniform random pairs of all EWT test sentences, the shape of the sampled D_e
    draws: ``(name, pack, pi, pj, labels)``."""
    vocab = Vocabulary()
    rng = np.random.default_rng(36)
    sets = []
    ewt = []
    if (SHARED / "ud").is_dir():
        ewt = ewt_trees(vocab, "en_ewt-ud-test.conllu")
        pick = rng.choice(len(ewt), 150 if quick else 300, replace=False)
        sets.append(("EWT test, all pairs", [ewt[k] for k in pick]))
    else:
        print(f"(EWT rows skipped: {SHARED / 'ud'} not found)")
    for n in (20, 40):
        sets.append((f"random trees n={n}",
                     random_trees(100 if quick else 200, n, seed=n, vocab=vocab)[0]))
    for name, trees in sets:
        pack = ted.TreePack(trees)
        pi, pj = np.triu_indices(len(trees), 1)
        yield name, pack, pi.astype(np.int64), pj.astype(np.int64), len(vocab)
    if ewt:
        n = 30_000 if quick else 100_000
        pi, pj = rng.integers(0, len(ewt), n), rng.integers(0, len(ewt), n)
        keep = pi != pj
        yield ("EWT random pairs", ted.TreePack(ewt), pi[keep].astype(np.int64),
               pj[keep].astype(np.int64), len(vocab))


def simd_levels() -> List[Tuple[str, str]]:
    """The SIMD widths this CPU runs, narrowest first, as (name, SYNAGREE_SIMD value):
    each cap whose simd_lanes() is that width's (a level the CPU lacks gives a
    narrower one, and is left out)."""
    c = kernels.C_EXTENSION
    saved = os.environ.get("SYNAGREE_SIMD")
    out = []
    try:
        for value, lanes in (("sse4.1", 4), ("avx2", 8), ("avx512", 16)):
            os.environ["SYNAGREE_SIMD"] = value
            if c is not None and c.simd_lanes() == lanes:
                out.append((kernels.SIMD_LEVELS[lanes], value))
    finally:
        if saved is None:
            os.environ.pop("SYNAGREE_SIMD", None)
        else:
            os.environ["SYNAGREE_SIMD"] = saved
    return out


def part_simd(quick: bool) -> None:
    """Scalar C kernel against the SIMD kernel of each width this CPU runs (SSE4.1,
    AVX2, AVX-512), one thread, same pairs (issue 36)."""
    c = kernels.C_EXTENSION
    if c is None:
        print("(--simd skipped: the C extension is not built)")
        return
    rounds = 3 if quick else 7
    ghz = cpu_ghz()
    levels = [("scalar", "0")] + simd_levels()
    print(f"machine: {cpu_name()}, {os.cpu_count()} cores, clock now {ghz:.2f} GHz; "
          f"scalar C kernel (SYNAGREE_SIMD=0) vs the SIMD kernel at each width "
          f"({', '.join(n for n, _ in levels[1:])}; SYNAGREE_SIMD=sse4.1/avx2/avx512), one "
          f"thread, {rounds} alternating rounds, medians; all pairs through all_pairs, "
          "random pairs through kernels.pairs (sorted by first tree, the larger tree first); "
          "G/s: textbook cells per CPU second, c/c: cycles per cell (latency bound: 3 for "
          "the scalar kernel, 3 / lanes for SIMD), x: ratio to scalar")
    saved = os.environ.get("SYNAGREE_SIMD")
    saved_threads = os.environ.get("SYNAGREE_THREADS")
    os.environ["SYNAGREE_THREADS"] = "1"
    try:
        for name, pack, pi, pj, L in simd_workloads(quick):
            args = ted.Costs.unit(L).arrays()
            c.check_pack(*pack._args())
            K = len(pack)
            listed = name.endswith("random pairs")
            outs = [np.zeros(pi.shape[0] if listed else (K, K)) for _ in levels]

            def run(k: int) -> Callable[[], None]:
                def f() -> None:
                    os.environ["SYNAGREE_SIMD"] = levels[k][1]
                    if listed:
                        kernels.pairs(pack, pi, pj, *args, outs[k])
                    else:
                        c.all_pairs(*pack._args(), *args, 1, outs[k], True)
                return f

            fns = [run(k) for k in range(len(levels))]
            for f in fns:
                f()
            for k in range(1, len(levels)):
                if not np.array_equal(outs[0], outs[k]):
                    bad = np.flatnonzero(outs[0] != outs[k])
                    raise SystemExit(f"{name}, {levels[k][0]}: {bad.size} distances differ, "
                                     f"first {bad[:5]}")
            load = full_load()
            # CPU seconds of the process (one thread): the time the kernel ran, not
            # the time it waited for a core on a loaded machine
            times = time_many(fns, rounds, time.process_time)
            cells = pair_cells(pack, pi, pj)
            med = [float(np.median(t)) for t in times]
            g = [cells / m / 1e9 for m in med]
            line = f"{name:<20} {pi.shape[0]:>7} pairs {cells / pi.shape[0]:>6.0f} cells/pair"
            ratios = []
            for k, (lev, _) in enumerate(levels):
                per = [a / b for a, b in zip(times[0], times[k])]
                ratios.append(per)
                cyc = ghz / g[k] if ghz else float("nan")
                line += f" | {lev} {g[k]:.3f} G/s {cyc:.2f} c/c"
                if k:
                    line += f" {float(np.median(per)):.2f}x"
            print(f"{line} | load {load}", flush=True)
            if listed or len(levels) < 2:   # the sampled draws' shape: no goal of its own
                continue
            top = len(levels) - 1
            ratio = float(np.median(ratios[top]))
            goal_line(f"SIMD kernel ({levels[top][0]}) >= 2.5x the scalar C kernel ({name}, "
                      "one thread)",
                      f"scalar C {g[0]:.3f} G cells/s", f"**SIMD {g[top]:.3f} G cells/s**",
                      f"{ratio:.2f}x (median of {rounds}; min/median "
                      f"{min_med(ratios[top])})", f"{load}; {cpu_name()}")
    finally:
        for var, value in (("SYNAGREE_SIMD", saved), ("SYNAGREE_THREADS", saved_threads)):
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value


def ab_rows(name: str, fns: List[Callable[[], None]], same: Callable[[], bool], cells: float,
            tags: Sequence[str], rounds: int, check: bool) -> None:
    """One workload of ``--ab``: every build once (compared), then the rounds."""
    for f in fns:
        f()
    if check and not same():
        raise SystemExit(f"{name}: the builds' results differ")
    times: List[List[float]] = [[] for _ in fns]
    for r in range(rounds):
        order = range(len(fns)) if r % 2 == 0 else range(len(fns) - 1, -1, -1)
        for k in order:
            t = time.process_time()
            fns[k]()
            times[k].append(time.process_time() - t)
    line = f"{name:<22}"
    for k, tag in enumerate(tags):
        per = [a / b for a, b in zip(times[0], times[k])]
        line += (f" | {tag} {cells / float(np.median(times[k])) / 1e9:.3f} G/s "
                 f"{float(np.median(per)):.3f}x ({min(per):.2f}-{max(per):.2f})")
    print(f"{line}  load {full_load()}", flush=True)


def part_ab(specs: Sequence[str], quick: bool, check: bool) -> None:
    """Builds of the C kernel against the first one, one thread, same pairs."""
    tmp = Path(tempfile.mkdtemp())
    tags, mods = [], []
    for spec in specs:
        tag, _, rest = spec.partition("=")
        src, _, flags = rest.partition(":")
        if not tag.isidentifier() or not (Path(src) / "_tedc.c").is_file():
            raise SystemExit(f"--ab {spec}: want TAG=DIR[:CFLAGS], DIR holding _tedc.c")
        tags.append(tag)
        mods.append(build_tedc(Path(src).resolve(), tmp, tag, flags.split()))
    rounds = 3 if quick else 7
    print(f"machine: {cpu_name()}, {os.cpu_count()} cores; builds {', '.join(specs)}; one "
          f"thread, {rounds} rounds, CPU seconds, ratios to {tags[0]}")
    saved = os.environ.get("SYNAGREE_THREADS")
    os.environ["SYNAGREE_THREADS"] = "1"
    saved_mod = kernels.C_EXTENSION
    try:
        for name, pack, pi, pj, L in simd_workloads(quick):
            if name.endswith("random pairs"):
                continue
            args = ted.Costs.unit(L).arrays()
            mods[0].check_pack(*pack._args())
            K = len(pack)
            outs = [np.zeros((K, K)) for _ in mods]

            def run(k: int) -> Callable[[], None]:
                return lambda: mods[k].all_pairs(*pack._args(), *args, 1, outs[k], True)

            ab_rows(name, [run(k) for k in range(len(mods))],
                    lambda: all(np.array_equal(outs[0], o) for o in outs[1:]),
                    pair_cells(pack, pi, pj), tags, rounds, check)
        if not (SHARED / "ud").is_dir():
            print(f"(exact pass skipped: {SHARED / 'ud'} not found)")
            return
        sents = read_conllu(SHARED / "ud" / "en_ewt-ud-test.conllu")
        labels, rng = label_set(sents), np.random.default_rng(7)
        noisy = [perturb(s, 0.05, 0.05, labels, rng) for s in sents]
        vocab = Vocabulary()
        gold, sys_ = dependency_trees(sents, vocab), dependency_trees(noisy, vocab)
        ut = sums.UnitTrees.build([[g, s] for g, s in zip(gold, sys_)])
        res: List[sums.UnitSums] = []

        def tiles(k: int) -> Callable[[], None]:
            def f() -> None:
                kernels.C_EXTENSION = mods[k]
                res.append(sums.unit_sums(ut, progress=False))
                del res[:-len(mods)]
            return f

        ab_rows("exact pass, p = 0.05", [tiles(k) for k in range(len(mods))],
                lambda: all(np.array_equal(res[0].row, r.row)
                            and np.array_equal(res[0].diag, r.diag) for r in res[1:]),
                float(exact_cells(ut.pack)), tags, rounds, check)
    finally:
        kernels.C_EXTENSION = saved_mod
        if saved is None:
            os.environ.pop("SYNAGREE_THREADS", None)
        else:
            os.environ["SYNAGREE_THREADS"] = saved


def main() -> None:
    quick = "--quick" in sys.argv
    if "--ab" in sys.argv:
        at = sys.argv.index("--ab") + 1
        specs = [a for a in sys.argv[at:] if not a.startswith("--")]
        if len(specs) < 2:
            raise SystemExit("--ab wants two builds or more: TAG=DIR[:CFLAGS] ...")
        part_ab(specs, quick, "--no-check" not in sys.argv)
        return
    print(f"cores: {os.cpu_count()}, numba {numba.__version__}, load {loadavg()}")
    if "--simd" in sys.argv:
        part_simd(quick)
        return
    if "--interleave" in sys.argv:
        part_interleave(quick)
        return
    if "--agree-only" not in sys.argv:
        part_kernel(quick)
    if not quick:
        part_agree()


if __name__ == "__main__":
    main()
