"""The C kernels (synagree.distance._tedc) equal numba's bit for bit.

Both backends run the same inputs in one process (``SYNAGREE_KERNELS``
switches per call): per-pair distances (serial and threaded), the all-pairs
matrix, and the tile sums α is built from (every variant, with and without
the unit × unit block, several tile sizes and thread counts), on random
trees with every kind of costs (int32 cells, fractional, a full rename
matrix) and on the real trees of UD English EWT.  That the distances are
right is checked against zss in test_ted.py, on whichever backend is the
default; here only that the two are the same numbers.

Also: bad buffers raise, and bad settings of the two environment variables
are usage errors naming the variable.
"""
from __future__ import annotations

import types

import numpy as np
import pytest
import zss
from test_ted import ALPHABET, _cost_sets, dep, random_heads, random_labels

from conftest import needs_numba
from synagree.base import native
from synagree.base.problems import InputError
from synagree.distance import kernels, sums
from synagree.distance import ted as T
from synagree.io.conllu import read_conllu
from synagree.noise.perturb import label_set, perturb
from synagree.trees.flat import Vocabulary, dependency_tree, dependency_trees, to_zss

needs_c = pytest.mark.skipif(kernels.C_EXTENSION is None, reason="C extension not built")
pytestmark = needs_numba  # C against the twins on thousands of pairs


def _random_trees(seed: int, count: int, hi: int = 30):
    rng = np.random.default_rng(seed)
    vocab = Vocabulary(ALPHABET)
    trees = [dependency_tree(dep(random_heads(rng, n), random_labels(rng, n)), vocab)
             for n in rng.integers(1, hi, count)]
    return rng, vocab, trees


def _all_costs(rng, L):
    """test_ted's cost sets, plus integral non-unit costs (int32 cells whose
    leaf keyroots take the general closed form rather than the plain one)."""
    sets = _cost_sets(rng, L)
    unit = T.Costs.unit(L)
    ints = T.Costs(unit.delete * 3, unit.insert * 2 + (np.arange(L) % 2), None)
    assert ints.arrays()[0].dtype == np.int32
    sets["integral"] = ints
    return sets


def _both(monkeypatch, fn):
    """fn() on the C kernels, then on numba's."""
    out = []
    for name in ("c", "numba"):
        monkeypatch.setenv(native.KERNELS_ENV, name)
        out.append(fn())
    return out


@needs_c
@pytest.mark.parametrize("kind", ["unit", "fractional", "general", "integral"])
@pytest.mark.parametrize("n_pairs", [500, kernels.SERIAL_BELOW + 300])  # serial, threaded
def test_pair_distances_equal(kind, n_pairs, monkeypatch):
    rng, vocab, trees = _random_trees(11, 120)
    costs = _all_costs(rng, len(vocab))[kind]
    pack = T.TreePack(trees)
    i = rng.integers(0, len(pack), n_pairs)
    j = rng.integers(0, len(pack), n_pairs)
    c, nb = _both(monkeypatch, lambda: T.pair_distances(pack, i, j, costs))
    assert np.array_equal(c, nb)
    assert c.min() >= 0 and c.max() > 0


@needs_c
def test_wide_trees_equal(monkeypatch):
    """Tables wider than one sweep (CHUNK_COLS columns): several sweeps per keyroot."""
    rng = np.random.default_rng(3)
    vocab = Vocabulary(ALPHABET)
    star = dependency_tree(dep([0] * 1500, random_labels(rng, 1500)), vocab)
    small = [dependency_tree(dep(random_heads(rng, n), random_labels(rng, n)), vocab)
             for n in (1, 5, 40)]
    pack = T.TreePack([star, *small])
    i, j = np.array([0, 0, 0, 1, 3]), np.array([1, 2, 3, 0, 0])
    for costs in _all_costs(rng, len(vocab)).values():
        c, nb = _both(monkeypatch, lambda: T.pair_distances(pack, i, j, costs))
        assert np.array_equal(c, nb)


@needs_c
@pytest.mark.parametrize("kind", ["unit", "fractional", "general", "integral"])
def test_root_only_trees_equal_zss(kind, monkeypatch):
    """Trees of the root alone (every word on a head cycle) and one-word trees:
    the keyroots that are leaves, on both sides, against zss and numba."""
    rng = np.random.default_rng(17)
    vocab = Vocabulary(ALPHABET)
    shapes = [([2, 1], ["a", "b"]), ([2, 3, 1], ["a", "b", "c"]), ([0], ["a"]), ([0], ["d"]),
              ([0, 1], ["a", "a"]), ([2, 0, 2, 2], ["b", "a", "c", "a"])]
    shapes += [(random_heads(rng, n), random_labels(rng, n)) for n in (3, 7, 12)]
    trees = [dependency_tree(dep(h, lab), vocab) for h, lab in shapes]
    assert trees[0].n_nodes == 1 and trees[1].n_nodes == 1  # the root alone
    costs = _all_costs(rng, len(vocab))[kind]
    pack = T.TreePack(trees)
    i, j = np.triu_indices(len(trees))
    c, nb = _both(monkeypatch, lambda: T.pair_distances(pack, i, j, costs))
    assert np.array_equal(c, nb)
    dc, ic = costs.delete, costs.insert
    rm = costs.rename if costs.rename is not None else 1.0 - np.eye(len(vocab))
    zt = [to_zss(t, vocab) for t in trees]
    ids = {lab: k for k, lab in enumerate(vocab.labels)}
    for k, (a, b) in enumerate(zip(i.tolist(), j.tolist())):
        z = zss.distance(zt[a], zt[b], zss.Node.get_children,
                         insert_cost=lambda n: ic[ids[n.label]],
                         remove_cost=lambda n: dc[ids[n.label]],
                         update_cost=lambda x, y: rm[ids[x.label], ids[y.label]])
        assert c[k] == pytest.approx(z, abs=1e-9), (a, b)


@needs_c
@pytest.mark.parametrize("threads", ["1", "2", "3"])
def test_distance_matrix_equal(threads, monkeypatch):
    monkeypatch.setenv(native.THREADS_ENV, threads)
    rng, vocab, trees = _random_trees(12, 61)
    pack = T.TreePack(trees)
    for costs in _cost_sets(rng, len(vocab)).values():
        c, nb = _both(monkeypatch, lambda: T.distance_matrix(pack, costs))
        assert np.array_equal(c, nb)
        assert np.array_equal(c, c.T)


def _units(seed: int, n_units: int, m_max: int = 4):
    """Units of 2..m_max annotations, some identical (multiplicities)."""
    rng = np.random.default_rng(seed)
    vocab = Vocabulary(ALPHABET)
    units = []
    for _ in range(n_units):
        n = int(rng.integers(1, 20))
        base = (random_heads(rng, n), random_labels(rng, n))
        anns = []
        for _ in range(int(rng.integers(2, m_max + 1))):
            if rng.random() < 0.4:
                anns.append(base)
            else:
                anns.append((random_heads(rng, n), random_labels(rng, n)))
        units.append([dependency_tree(dep(*a), vocab) for a in anns])
    return rng, vocab, sums.UnitTrees.build(units)


def _sums_equal(a: sums.UnitSums, b: sums.UnitSums) -> None:
    for field in ("row", "diag", "S", "full", "within"):
        x, y = getattr(a, field, None), getattr(b, field, None)
        if x is None or y is None:
            assert x is None and y is None, field
        else:
            assert np.array_equal(x, y), field


@pytest.mark.slow
@needs_c
@pytest.mark.parametrize("tile", [1, 7, 512])
@pytest.mark.parametrize("threads", ["1", "2", "3"])
def test_unit_sums_equal(tile, threads, monkeypatch):
    monkeypatch.setenv(native.THREADS_ENV, threads)
    rng, vocab, ut = _units(5, 40)
    for kind, costs in _all_costs(rng, len(vocab)).items():
        for want_s in (False, True):
            c, nb = _both(monkeypatch, lambda: sums.unit_sums(ut, costs, want_s=want_s, tile=tile,
                                                             want_full=want_s))
            _sums_equal(c, nb)
            assert c.de_sum().shape == (3,) and c.de_sum()[0] > 0


@needs_c
@pytest.mark.parametrize("threads", ["1", "2"])
def test_grouped_tile_tasks_equal(threads, monkeypatch):
    """A tile task takes 32 row units off the diagonal and two groups of 8 on it
    (_tedc.c TILE_GROUP, DIAG_GROUP), in runs of at most 64 row trees
    (ROW_TREES): tiles of 80 units over 170 units of 2-3 trees make several
    groups, a short last one, an odd number on the last diagonal tile, and
    groups split into runs; the sums equal numba's, which computes each unit on
    its own."""
    monkeypatch.setenv(native.THREADS_ENV, threads)
    rng, vocab, ut = _units(13, 170, m_max=3)
    assert np.diff(ut.uoff)[:32].sum() > 64   # a group of 32 units is split
    for costs in (None, _cost_sets(rng, len(vocab))["unit"]):
        c, nb = _both(monkeypatch, lambda: sums.unit_sums(ut, costs, want_s=True, tile=80,
                                                         want_full=True))
        _sums_equal(c, nb)
        assert c.de_sum()[0] > 0 and c.within is not None and c.within.any()


@needs_c
def test_sums_do_not_depend_on_threads(monkeypatch):
    """The C kernels' reduction order is fixed: any thread count, the same bits."""
    rng, vocab, ut = _units(9, 60)
    costs = _cost_sets(rng, len(vocab))["fractional"]
    monkeypatch.setenv(native.KERNELS_ENV, "c")
    runs = []
    for threads in ("1", "2", "5"):
        monkeypatch.setenv(native.THREADS_ENV, threads)
        runs.append(sums.unit_sums(ut, costs, want_s=True, tile=16))
    for other in runs[1:]:
        _sums_equal(runs[0], other)


@pytest.mark.slow
@needs_c
def test_real_trees_equal(shared_data, monkeypatch):
    """EWT test against a perturbed copy: 20,000 random pairs, and the sums of 300 units."""
    sents = list(read_conllu(shared_data / "ud" / "en_ewt-ud-test.conllu"))
    vocab = Vocabulary()
    labels, rng = label_set(sents), np.random.default_rng(1)
    noisy = [perturb(s, 0.1, 0.1, labels, rng) for s in sents]
    gold, sys_ = dependency_trees(sents, vocab), dependency_trees(noisy, vocab)
    pack = T.TreePack(gold + sys_)
    rng = np.random.default_rng(2)
    i = rng.integers(0, len(pack), 20_000)
    j = rng.integers(0, len(pack), 20_000)
    c, nb = _both(monkeypatch, lambda: T.pair_distances(pack, i, j))
    assert np.array_equal(c, nb)
    ut = sums.UnitTrees.build([[g, s] for g, s in zip(gold[:300], sys_[:300])])
    c, nb = _both(monkeypatch, lambda: sums.unit_sums(ut, want_s=True, tile=64))
    _sums_equal(c, nb)


@needs_c
def test_bad_buffers_raise_not_crash():
    _, vocab, trees = _random_trees(1, 4)
    pack = T.TreePack(trees)
    dc, ic, rm, unit = T.Costs.unit(len(vocab)).arrays()
    args = pack._args()
    out = np.zeros(2)
    ok_i, ok_j = np.array([0, 1]), np.array([2, 3])
    ext = kernels.C_EXTENSION
    with pytest.raises(TypeError):  # float indices
        ext.pairs(ok_i.astype(float), ok_j, *args, dc, ic, rm, unit, 64, 1, out)
    with pytest.raises(ValueError):  # output too short
        ext.pairs(ok_i, ok_j, *args, dc, ic, rm, unit, 64, 1, np.zeros(1))
    with pytest.raises(IndexError):  # a tree that is not in the pack
        ext.pairs(ok_i, np.array([2, 99]), *args, dc, ic, rm, unit, 64, 1, out)
    with pytest.raises(TypeError):  # int32 cells need unit renames
        ext.pairs(ok_i, ok_j, *args, dc, ic, rm, False, 64, 1, out)
    with pytest.raises(ValueError):  # labels beyond the costs
        ext.pairs(ok_i, ok_j, *args, dc[:1], ic[:1], rm, unit, 64, 1, out)
    with pytest.raises(TypeError):  # read-only output
        ro = np.zeros(2)
        ro.flags.writeable = False
        ext.pairs(ok_i, ok_j, *args, dc, ic, rm, unit, 64, 1, ro)
    with pytest.raises(ValueError):  # the matrix is K x K
        ext.all_pairs(*args, dc, ic, rm, unit, 1, np.zeros(3))
    assert out.tolist() == [0.0, 0.0]  # nothing was written by the refused calls


@pytest.mark.parametrize("var,value", [(native.KERNELS_ENV, "fortran"),
                                       (native.THREADS_ENV, "0"), (native.THREADS_ENV, "two"),
                                       (native.THREADS_ENV, "100000")])
def test_bad_environment_is_a_usage_error(var, value, monkeypatch, run_cli, repo_root):
    monkeypatch.setenv(var, value)
    with pytest.raises(InputError):
        kernels.backend() if var == native.KERNELS_ENV else native.threads()
    sample = repo_root / "synagree" / "data" / "en-sample"
    rc, out, err = run_cli("agree", sample / "ann_a" / "sample.conllu",
                           sample / "ann_b" / "sample.conllu")
    assert rc == 2 and var in err and "Traceback" not in err, err


def test_numba_runs_when_the_extension_is_missing(monkeypatch):
    """Without the C extension: auto falls back to numba (same numbers as the
    default backend), and SYNAGREE_KERNELS=c is refused."""
    _, vocab, trees = _random_trees(21, 30)
    pack = T.TreePack(trees)
    expected = T.distance_matrix(pack)
    monkeypatch.setattr(kernels, "C_EXTENSION", None)
    monkeypatch.setenv(native.KERNELS_ENV, "auto")
    assert kernels.backend() == "numba"
    assert np.array_equal(T.distance_matrix(pack), expected)
    monkeypatch.setenv(native.KERNELS_ENV, "c")
    with pytest.raises(InputError, match="not built"):
        T.distance_matrix(pack)


@needs_c
def test_a_build_older_than_its_sources_is_not_run(monkeypatch):
    """An editable install whose C source changed since the build: auto warns
    and runs numba; SYNAGREE_KERNELS=c refuses.  The real build matches."""
    ext = kernels.C_EXTENSION
    assert native.built_from(ext, kernels.C_SOURCES)
    stale = types.ModuleType("synagree.distance._tedc")
    stale.__file__ = ext.__file__
    stale.SOURCE_SHA256 = "0" * 64
    assert not native.built_from(stale, kernels.C_SOURCES)
    monkeypatch.setattr(kernels, "C_EXTENSION", stale)
    monkeypatch.setenv(native.KERNELS_ENV, "auto")
    with pytest.warns(RuntimeWarning, match="older version of its sources"):
        assert kernels.backend() == "numba"
    monkeypatch.setenv(native.KERNELS_ENV, "c")
    with pytest.raises(InputError, match="older version"):
        kernels.backend()


@pytest.mark.parametrize("kernels_env,expected", [("auto", None), ("numba", "kernels: numba"),
                                                  ("fortran", "SYNAGREE_KERNELS")])
def test_version_says_which_kernels_run(kernels_env, expected, monkeypatch, capsys):
    """``synagree --version`` names the kernels (C and threads, or numba and
    why); a bad setting is the usage error, exit 2."""
    from synagree.cli.main import main

    monkeypatch.setenv(native.KERNELS_ENV, kernels_env)
    monkeypatch.setenv(native.THREADS_ENV, "3")
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    out, err = capsys.readouterr()
    if kernels_env == "fortran":
        assert stop.value.code == 2 and expected in err and "Traceback" not in err
        return
    assert stop.value.code == 0 and out.startswith("synagree ")
    if expected is None:  # auto: C where built
        expected = ("kernels: C, 3 thread(s)" if kernels.C_EXTENSION is not None
                    else "kernels: numba: the C extension is not built")
    assert expected in out, out


def _tiny_pack():
    from synagree.trees.flat import flat_tree
    t1 = flat_tree([[1, 2], [], [3], []], [0, 1, 2, 3], size=4)
    t2 = flat_tree([[1], [2], []], [0, 1, 2], size=3)
    return [x.copy() for x in T.TreePack([t1, t2])._args()], T.Costs.unit(4).arrays()


def _corrupt(name, args):
    """One inconsistent pack per case the C kernels must refuse (each crashed
    or returned a wrong 0 before the checks); args in TreePack._args order:
    lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr."""
    if name == "noff-decreasing":
        args[2][:] = [0, 4, 3]
    elif name == "noff-past-the-labels":
        args[2][:] = [0, 2000, 7]
    elif name == "keyroot-out-of-range":
        args[3][:] = 1000
    elif name == "keyroot-negative":
        args[3][:] = -3
    elif name == "koff-wild":
        args[4][0], args[4][1] = -10**6, 10**9
    elif name == "lml-beyond-node":
        args[1][6] = 100
    elif name == "lml-negative":
        args[1][3] = -50
        args[6][3] = -50
    elif name == "lml-not-nested":
        args[1][1] = 0  # node 1 claims node 0, so node 2 (from 1) cannot hold node 1
    elif name == "keyroots-missing":
        args[3][:] = args[3][0]
    elif name == "big-endian":
        args[1] = args[1].astype(">i4")
    return args


@needs_c
@pytest.mark.parametrize("name", ["noff-decreasing", "noff-past-the-labels",
                                  "keyroot-out-of-range", "keyroot-negative", "koff-wild",
                                  "lml-beyond-node", "lml-negative", "lml-not-nested",
                                  "keyroots-missing", "big-endian"])
def test_inconsistent_packs_are_refused(name):
    args, (dc, ic, rm, unit) = _tiny_pack()
    out = np.zeros(1)
    kernels.C_EXTENSION.pairs(np.array([0]), np.array([1]), *args, dc, ic, rm, unit, 64, 1, out)
    assert out[0] == 3.0  # the untouched pack: a well-formed call
    args = _corrupt(name, args)
    out[:] = -1.0
    with pytest.raises((ValueError, TypeError)):
        kernels.C_EXTENSION.pairs(np.array([0]), np.array([1]), *args, dc, ic, rm, unit,
                                  64, 1, out)
    assert out[0] == -1.0  # nothing written


@pytest.mark.parametrize("chunk", [1, 7, 2**62, 2**63 - 1])
def test_any_chunk_gives_the_distances(chunk, monkeypatch):
    _, vocab, trees = _random_trees(5, 40)
    pack = T.TreePack(trees)
    rng = np.random.default_rng(6)
    for n in (2, kernels.SERIAL_BELOW + 10):
        i, j = rng.integers(0, len(pack), n), rng.integers(0, len(pack), n)
        expected = T.pair_distances(pack, i, j)
        for backend in ("auto", "numba"):
            monkeypatch.setenv(native.KERNELS_ENV, backend)
            assert np.array_equal(T.pair_distances(pack, i, j, chunk=chunk), expected)
    with pytest.raises(ValueError, match="chunk"):
        T.pair_distances(pack, i, j, chunk=0)


def test_bad_threads_setting_is_refused_on_numba_too(monkeypatch):
    monkeypatch.setenv(native.KERNELS_ENV, "numba")
    monkeypatch.setenv(native.THREADS_ENV, "0")
    with pytest.raises(InputError, match="SYNAGREE_THREADS"):
        kernels.backend()


@needs_c
def test_a_pack_is_checked_once_and_refused_when_inconsistent(monkeypatch):
    """check_pack refuses what the kernels refuse and counts the labels; the
    package checks a pack at its first C call only (then passes it as trusted)."""
    args, _ = _tiny_pack()
    assert kernels.C_EXTENSION.check_pack(*args) == 4  # label ids 0..3
    for name in ("noff-decreasing", "lml-not-nested", "keyroots-missing", "big-endian"):
        with pytest.raises((ValueError, TypeError)):
            kernels.C_EXTENSION.check_pack(*_corrupt(name, _tiny_pack()[0]))
    calls = []
    real = kernels.C_EXTENSION.check_pack
    fake = types.ModuleType(real.__self__.__name__)  # the extension, check_pack counted
    fake.__dict__.update(vars(real.__self__))
    fake.check_pack = lambda *a: calls.append(1) or real(*a)
    monkeypatch.setattr(kernels, "C_EXTENSION", fake)
    monkeypatch.setenv(native.KERNELS_ENV, "c")
    _, vocab, trees = _random_trees(8, 12)
    pack = T.TreePack(trees)
    i, j = np.triu_indices(len(trees), k=1)
    first = T.pair_distances(pack, i, j)
    assert np.array_equal(T.pair_distances(pack, i, j), first)
    assert np.array_equal(T.distance_matrix(pack)[i, j], first)
    assert len(calls) == 1
