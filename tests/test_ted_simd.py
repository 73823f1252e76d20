"""The inter-pair SIMD TED kernel (_tedc_simd.h) against the scalar C kernel.

Both run in one process: ``SYNAGREE_SIMD=off`` makes the C kernels take the
scalar kernel only, and ``SYNAGREE_SIMD=sse4.1``/``avx2``/``avx512`` picks the
width (4, 8, 16 lanes): every test of a distance runs once per width this
CPU runs (the `width` fixture; AVX-512 skips where the CPU lacks it).
Every distance must be equal (not close): the SIMD kernel computes the same
cells on exact integers.  Pairs of random trees of many shapes and sizes (1
to 60 words, flat, bushy, chain-like; trees too large or too wide for the
SIMD kernel mixed in), every kind of costs (float cells run the scalar
kernel either way), through every entry point the package's passes use
(listed pairs, all pairs, the tiles of the sums); and
EWT test against a perturbed copy.
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from test_ted import ALPHABET, dep, random_heads, random_labels
from test_ted_kernels import _all_costs, _random_trees, _sums_equal, _units

from synagree.base import native
from synagree.base.problems import InputError
from synagree.distance import kernels, sums
from synagree.distance import ted as T
from synagree.io.conllu import read_conllu
from synagree.noise.perturb import label_set, perturb
from synagree.trees.flat import Vocabulary, dependency_tree, dependency_trees, flat_tree

needs_simd = pytest.mark.skipif(
    kernels.C_EXTENSION is None or not kernels.C_EXTENSION.simd_lanes(),
    reason="the C extension is not built, or this CPU has no SSE4.1")

WIDTHS = {"sse4.1": 4, "avx2": 8, "avx512": 16}  # SYNAGREE_SIMD cap -> its lanes


def cpu_flags() -> set:
    """The CPU's feature flags (Linux /proc/cpuinfo; empty elsewhere)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


@pytest.fixture(params=list(WIDTHS))
def width(request) -> str:
    """Each SIMD width, skipped where this CPU lacks it."""
    flag = {"sse4.1": "sse4_1", "avx2": "avx2", "avx512": "avx512f"}[request.param]
    if flag not in cpu_flags():
        pytest.skip(f"this CPU has no {request.param} (flag {flag} not in /proc/cpuinfo)")
    return request.param


def _scalar_and_simd(monkeypatch, width, fn):
    """fn() on the scalar C kernel, then on the SIMD kernel of `width` (which
    must be the one that runs: simd_lanes())."""
    monkeypatch.setenv(native.KERNELS_ENV, "c")
    out = []
    for value in ("off", width):
        monkeypatch.setenv(native.SIMD_ENV, value)
        if value == width:
            assert kernels.C_EXTENSION.simd_lanes() == WIDTHS[width]  # type: ignore[union-attr]
        out.append(fn())
    return out


def _mixed_pack(seed: int, count: int):
    """Random trees of 1..60 words, plus a few the SIMD kernel leaves to the
    scalar one: a 600-word chain (more than SIMD_MAXN nodes) and a 1,100-word
    star (a sweep wider than CHUNK_COLS columns)."""
    rng, vocab, trees = _random_trees(seed, count, hi=61)
    big = [dependency_tree(dep(list(range(600)), random_labels(rng, 600)), vocab),
           dependency_tree(dep([0] * 1100, random_labels(rng, 1100)), vocab)]
    return rng, vocab, T.TreePack(trees[:count // 2] + big + trees[count // 2:])


@needs_simd
@pytest.mark.parametrize("kind", ["unit", "fractional", "general", "integral"])
def test_all_pairs_equal(kind, monkeypatch, width):
    rng, vocab, pack = _mixed_pack(36, 90)  # 4,000 pairs
    costs = _all_costs(rng, len(vocab))[kind]
    a, b = _scalar_and_simd(monkeypatch, width, lambda: T.distance_matrix(pack, costs))
    assert np.array_equal(a, b)
    assert a.max() > 0


@pytest.mark.slow
@needs_simd
@pytest.mark.parametrize("threads", ["1", "2"])
def test_listed_pairs_equal(threads, monkeypatch, width):
    """Random pairs (kernels.pairs sorts them by their first tree for the SIMD
    kernel and puts the distances back in place), some trees paired often."""
    monkeypatch.setenv(native.THREADS_ENV, threads)
    rng, vocab, pack = _mixed_pack(7, 120)
    n = 12_000
    i = np.concatenate([rng.integers(0, 10, n // 2), rng.integers(0, len(pack), n // 2)])
    j = rng.integers(0, len(pack), n)
    for kind in ("unit", "integral"):
        costs = _all_costs(rng, len(vocab))[kind]
        a, b = _scalar_and_simd(monkeypatch, width, lambda: T.pair_distances(pack, i, j, costs))
        assert np.array_equal(a, b), kind


@needs_simd
def test_tree_shapes_equal(monkeypatch, width):
    """Every small shape: one-word trees, roots alone, chains, stars, and
    labels shared by many nodes (few labels), against each other."""
    rng = np.random.default_rng(5)
    vocab = Vocabulary(ALPHABET)
    shapes = [([0], ["a"]), ([2, 0], ["a", "a"]), ([0, 1, 2, 3], ["b", "a", "b", "a"]),
              ([0, 0, 0, 0, 0], ["a"] * 5), ([2, 0, 2, 2], ["b", "a", "c", "a"])]
    for n in (2, 3, 5, 8, 13, 21, 34):
        for k in (1, 2, len(ALPHABET)):
            shapes.append((random_heads(rng, n), random_labels(rng, n, k)))
    trees = [dependency_tree(dep(h, lab), vocab) for h, lab in shapes]
    pack = T.TreePack(trees)
    for costs in _all_costs(rng, len(vocab)).values():
        a, b = _scalar_and_simd(monkeypatch, width, lambda: T.distance_matrix(pack, costs))
        assert np.array_equal(a, b)


@needs_simd
def test_left_path_lanes_and_one_node_trees_equal(monkeypatch, width):
    """Batches whose every column is on the left path of its keyroot (chains:
    one table each, so no cell of a prefix row reads a tree distance and the
    forest rows read column 0 only), trees of one node (no sweep at all, or a
    lane of width 0 beside wider ones) and stars (tree 1's table: two prefix
    rows, every other row a forest row of a leaf), among themselves, against
    each other (listed pairs, both orders) and in one pack with random trees."""
    rng = np.random.default_rng(3636)
    vocab = Vocabulary(ALPHABET)
    chains = [dependency_tree(dep([w - 1 for w in range(1, n + 1)], random_labels(rng, n)),
                              vocab) for n in range(1, 19)]
    stars = [dependency_tree(dep([0] + [1] * (n - 1), random_labels(rng, n)), vocab)
             for n in range(2, 19)]
    ones = [dependency_tree(dep([0], random_labels(rng, 1)), vocab) for _ in range(9)]
    _, _, rand = _random_trees(36, 30, hi=25)
    all_costs = _all_costs(rng, len(vocab))
    for trees in (chains, ones, chains + stars + ones + rand):
        pack = T.TreePack(trees)
        for kind, costs in all_costs.items():
            a, b = _scalar_and_simd(monkeypatch, width, lambda: T.distance_matrix(pack, costs))
            assert np.array_equal(a, b), kind
    pack = T.TreePack(chains + stars)
    i = np.repeat(np.arange(len(chains)), len(stars))
    j = len(chains) + np.tile(np.arange(len(stars)), len(chains))
    for first, second in ((i, j), (j, i)):
        a, b = _scalar_and_simd(monkeypatch, width,
                                lambda: T.pair_distances(pack, first, second, all_costs["unit"]))
        assert np.array_equal(a, b)
        assert a.max() > 0


def _zero_label_trees(rng, count: int):
    """Random ordered trees (flat_tree) whose labels are mostly 0, the label
    that plain unit costs insert and delete for free: leaves of label 0 and
    forests of label-0 nodes only (free to insert) in every position."""
    trees = []
    for _ in range(count):
        n = int(rng.integers(1, 24))
        children: list = [[] for _ in range(n)]
        for v in range(1, n):
            children[int(rng.integers(0, v))].append(v)
        labels = [int(x) for x in rng.choice(3, size=n, p=[0.6, 0.2, 0.2])]
        trees.append(flat_tree(children, labels, n))
    return trees


@needs_simd
def test_first_rows_in_closed_form_equal(monkeypatch, width):
    """Plain unit costs: the first row of each table (tree 1's leaf li against
    every column's forest, in closed form in the SIMD kernel) for leaves of
    label 0 and of other labels, against forests that are empty, free (label 0
    only) or not; random trees of labels 0-2 and dependency trees, all pairs
    and listed pairs."""
    rng = np.random.default_rng(361)
    trees = _zero_label_trees(rng, 120)
    unit = T.Costs.unit(3)
    pack = T.TreePack(trees)
    a, b = _scalar_and_simd(monkeypatch, width, lambda: T.distance_matrix(pack, unit))
    assert np.array_equal(a, b)
    assert a.max() > 0 and (a[np.triu_indices(len(trees), 1)] == 0).any()
    i, j = rng.integers(0, len(trees), 3000), rng.integers(0, len(trees), 3000)
    a, b = _scalar_and_simd(monkeypatch, width, lambda: T.pair_distances(pack, i, j, unit))
    assert np.array_equal(a, b)


def _symmetric_costs(L: int) -> T.Costs:
    """Integral costs, insert = delete for every label (2 or 3), unit renames: the
    kernels may take a pair in either order (block_self, kernels.pairs), and the
    leaf keyroots take the general closed form (not the plain unit one)."""
    unit = T.Costs.unit(L)
    indel = unit.delete * 2 + (np.arange(L) % 2)
    costs = T.Costs(indel, indel.copy(), None)
    assert costs.arrays()[0].dtype == np.int32
    return costs


def _shaped_trees(vocab):
    """Shapes whose subtrees take every way the SIMD kernel's forest rows read the
    column before a subtree (leaves, pairs, left paths, larger subtrees copied
    before the row): complete binary trees, caterpillars, brooms, a deep chain
    with side leaves, and flat trees."""
    heads = []
    for depth in (3, 4, 5):   # complete binary trees of 7, 15, 31 nodes
        n = 2 ** depth - 1
        heads.append([0] + [(k + 1) // 2 for k in range(2, n + 1)])
    for n in (9, 20, 41):     # caterpillar: a spine (odd words) with a leaf on each node
        heads.append([0 if w == 1 else (w - 2 if w % 2 else w - 1) for w in range(1, n + 1)])
    for n in (10, 25):        # broom: a chain then a fan
        heads.append([0] + [w - 1 if w <= n // 2 else n // 2 for w in range(2, n + 1)])
    heads.append([w + 1 if w < 30 and w % 3 else (0 if w == 30 else 30) for w in range(1, 31)])
    heads.append([0] + [1] * 39)
    trees = []
    for k, h in enumerate(heads):
        labels = [ALPHABET[(k + w) % 3] for w in range(len(h))]
        trees.append(dependency_tree(dep(h, labels), vocab))
    return trees


@needs_simd
def test_subtree_shapes_and_symmetric_costs_equal(monkeypatch, width):
    """Shaped trees and random ones, all pairs and listed pairs (the larger tree put
    first), for plain unit, asymmetric integral and symmetric integral costs."""
    rng, vocab, trees = _random_trees(11, 70, hi=45)
    pack = T.TreePack(_shaped_trees(vocab) + trees)
    i = rng.integers(0, len(pack), 5_000)
    j = rng.integers(0, len(pack), 5_000)
    sets = _all_costs(rng, len(vocab))
    for costs in (sets["unit"], sets["integral"], _symmetric_costs(len(vocab))):
        a, b = _scalar_and_simd(monkeypatch, width, lambda: T.distance_matrix(pack, costs))
        assert np.array_equal(a, b)
        a, b = _scalar_and_simd(monkeypatch, width, lambda: T.pair_distances(pack, i, j, costs))
        assert np.array_equal(a, b)


@needs_simd
def test_listed_pairs_out_of_range_is_the_kernels_error(monkeypatch):
    """kernels.pairs reorders symmetric pairs only when every index is in the pack:
    otherwise the kernel names the bad index, as without the SIMD kernel."""
    _, vocab, trees = _random_trees(2, 6)
    pack = T.TreePack(trees)
    for value in ("off", "on"):
        monkeypatch.setenv(native.SIMD_ENV, value)
        with pytest.raises(IndexError, match="99"):
            T.pair_distances(pack, np.array([0, 1, 2]), np.array([3, 99, 4]))


@needs_simd
def test_unit_sums_equal(monkeypatch, width):
    """The tiles of the all-pairs sums (agree, compare, report, Dask tiles)."""
    rng, vocab, ut = _units(3, 120)
    for kind in ("unit", "integral"):
        costs = _all_costs(rng, len(vocab))[kind]
        a, b = _scalar_and_simd(monkeypatch, width, lambda: sums.unit_sums(ut, costs, want_s=True,
                                                                    tile=32, want_full=True))
        _sums_equal(a, b)
        assert a.de_sum()[0] > 0


def _ewt_pack(shared_data):
    sents = list(read_conllu(shared_data / "ud" / "en_ewt-ud-test.conllu"))
    vocab = Vocabulary()
    labels, rng = label_set(sents), np.random.default_rng(36)
    noisy = [perturb(s, 0.1, 0.1, labels, rng) for s in sents]
    gold, sys_ = dependency_trees(sents, vocab), dependency_trees(noisy, vocab)
    return gold, sys_, T.TreePack(gold + sys_)


@pytest.mark.slow
@needs_simd
def test_ewt_pairs_equal(shared_data, monkeypatch, width):
    """EWT test against a perturbed copy: 10,000 pairs (200 trees against 50
    partners each), and the sums of 150 units."""
    gold, sys_, pack = _ewt_pack(shared_data)
    rng = np.random.default_rng(1)
    i = np.repeat(rng.integers(0, len(pack), 200), 50)
    j = rng.integers(0, len(pack), i.shape[0])
    a, b = _scalar_and_simd(monkeypatch, width, lambda: T.pair_distances(pack, i, j))
    assert np.array_equal(a, b)
    ut = sums.UnitTrees.build([[g, s] for g, s in zip(gold[:150], sys_[:150])])
    a, b = _scalar_and_simd(monkeypatch, width, lambda: sums.unit_sums(ut, want_s=True, tile=64))
    _sums_equal(a, b)


@pytest.mark.slow
@needs_simd
def test_ewt_million_pairs_equal(shared_data, monkeypatch, width):
    """About a million pairs: all pairs of 1,420 trees of EWT test and its copy."""
    _, _, pack = _ewt_pack(shared_data)
    keep = np.random.default_rng(2).choice(len(pack), 1420, replace=False)
    sub = T.TreePack([pack.trees[k] for k in keep])
    a, b = _scalar_and_simd(monkeypatch, width, lambda: T.distance_matrix(sub))
    assert np.array_equal(a, b)


def _version(capsys):
    from synagree.cli.main import main

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    out, err = capsys.readouterr()
    return stop.value.code, out, err


@pytest.mark.parametrize("value", ["maybe", "2", "avx-512", "sse4", "avx"])
def test_bad_simd_setting_is_refused(value, monkeypatch, run_cli, repo_root, capsys):
    """A bad SYNAGREE_SIMD is the usage error (exit 2), on every command."""
    monkeypatch.setenv(native.SIMD_ENV, value)
    with pytest.raises(InputError, match="SYNAGREE_SIMD"):
        native.simd()
    code, out, err = _version(capsys)
    assert code == 2 and "SYNAGREE_SIMD" in err and "Traceback" not in err
    sample = repo_root / "synagree" / "data" / "en-sample"
    rc, out, err = run_cli("agree", sample / "ann_a" / "sample.conllu",
                           sample / "ann_b" / "sample.conllu")
    assert rc == 2 and "SYNAGREE_SIMD" in err and "Traceback" not in err, err


@pytest.mark.parametrize("value,on", [("", True), ("auto", True), (" ON ", True), ("1", True),
                                      ("off", False), ("0", False), ("avx512", True),
                                      (" AVX2", True), ("sse4.1", True)])
def test_simd_setting_values(value, on, monkeypatch):
    monkeypatch.setenv(native.SIMD_ENV, value)
    assert native.simd() is on


@needs_simd
def test_version_names_the_simd_kernel(monkeypatch, capsys):
    monkeypatch.setenv(native.KERNELS_ENV, "c")
    code, out, _ = _version(capsys)
    lanes = kernels.C_EXTENSION.simd_lanes()  # type: ignore[union-attr]
    assert code == 0 and f"SIMD: {kernels.SIMD_LEVELS[lanes]}, {lanes} int32 lanes" in out, out
    monkeypatch.setenv(native.SIMD_ENV, "sse4.1")
    code, out, _ = _version(capsys)
    assert code == 0 and "SIMD: SSE4.1, 4 int32 lanes" in out, out
    monkeypatch.setenv(native.SIMD_ENV, "off")
    code, out, _ = _version(capsys)
    assert code == 0 and "SIMD: off" in out, out


def _runs_here(cap: str) -> int:
    """The lanes SYNAGREE_SIMD=cap should give on this CPU: the widest level at
    most the cap that the CPU has (0: none)."""
    flags = cpu_flags()
    have = {"sse4.1": "sse4_1" in flags, "avx2": "avx2" in flags, "avx512": "avx512f" in flags}
    return max((lanes for name, lanes in WIDTHS.items()
                if have[name] and lanes <= WIDTHS[cap]), default=0)


@needs_simd
@pytest.mark.parametrize("cap", list(WIDTHS))
def test_cap_runs_the_widest_level_the_cpu_has(cap, monkeypatch):
    """SYNAGREE_SIMD=avx512/avx2/sse4.1 is a cap: a level the CPU lacks gives
    the next lower one it has (here: no AVX-512, so avx512 runs AVX2)."""
    monkeypatch.setenv(native.SIMD_ENV, cap)
    assert native.simd() is True
    assert kernels.C_EXTENSION.simd_lanes() == _runs_here(cap)  # type: ignore[union-attr]
    monkeypatch.setenv(native.SIMD_ENV, "off")
    assert kernels.C_EXTENSION.simd_lanes() == 0  # type: ignore[union-attr]


_SELF_CHECK_SCRIPT = """
import numpy as np, os
from synagree.distance import kernels
from synagree.distance import ted as T
from test_ted_kernels import _random_trees
lanes = kernels.C_EXTENSION.simd_lanes()
_, vocab, trees = _random_trees(5, 40, hi=40)
pack = T.TreePack(trees)
simd = T.distance_matrix(pack)
os.environ["SYNAGREE_SIMD"] = "off"
scalar = T.distance_matrix(pack)
os.environ["SYNAGREE_SIMD"] = {cap!r}
print(lanes, kernels.simd(), bool(np.array_equal(simd, scalar)), scalar.max())
"""


@needs_simd
@pytest.mark.parametrize("width", ["avx2", "sse4.1"])
def test_failed_self_check_disables_the_width(width, repo_root):
    """A width whose self-check disagrees with the scalar kernel (forced by the
    test-only SYNAGREE_SIMD_SELFCHECK_BREAK) is disabled for the process with
    one line on stderr naming it, and the next lower width runs: the
    distances stay the scalar kernel's."""
    if WIDTHS[width] > _runs_here(width):
        pytest.skip(f"this CPU has no {width}")
    env = dict(os.environ, SYNAGREE_SIMD=width, SYNAGREE_SIMD_SELFCHECK_BREAK=width,
               SYNAGREE_KERNELS="c",
               PYTHONPATH=os.pathsep.join([str(repo_root / "tests"), str(repo_root)]))
    done = subprocess.run([sys.executable, "-c", _SELF_CHECK_SCRIPT.format(cap=width)],
                          env=env, cwd=repo_root / "tests", capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    name = {"avx2": "AVX2", "sse4.1": "SSE4.1"}[width]
    assert len(lines) == 1 and name in lines[0] and "self-check" in lines[0], done.stderr
    lanes, *_, equal, top = done.stdout.split()
    lower = {"avx2": "sse4.1", "sse4.1": None}[width]
    assert int(lanes) == (_runs_here(lower) if lower else 0)
    assert equal == "True" and float(top) > 0
    # without the knob the width passes its check and runs
    del env["SYNAGREE_SIMD_SELFCHECK_BREAK"]
    done = subprocess.run([sys.executable, "-c", _SELF_CHECK_SCRIPT.format(cap=width)],
                          env=env, cwd=repo_root / "tests", capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    assert int(done.stdout.split()[0]) == WIDTHS[width]


@pytest.fixture(scope="module")
def emu16_extension(tmp_path_factory):
    """_tedc.c built with -DTEDC_SIMD_EMU16 (the 16-lane width in plain C, with
    AVX-512F's semantics and alignment: _tedc_simd.h), loaded as a module of
    its own; skipped without gcc or Python's headers."""
    import importlib.util
    import shutil
    import sysconfig

    include = sysconfig.get_paths()["include"]
    if shutil.which("gcc") is None or not os.path.isfile(os.path.join(include, "Python.h")):
        pytest.skip("no gcc or no Python headers to build the 16-lane test extension")
    src = kernels.__file__.replace("kernels.py", "_tedc.c")
    lib = tmp_path_factory.mktemp("emu16") / ("_tedc" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(["gcc", "-O1", "-fPIC", "-shared", "-pthread", "-Wno-psabi",
                    "-DTEDC_SIMD_EMU16", f"-I{include}", src, "-o", str(lib)], check=True)
    spec = importlib.util.spec_from_file_location("emu16._tedc", lib)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
@needs_simd
def test_sixteen_lanes_equal_in_plain_c(emu16_extension, monkeypatch):
    """The 16-lane width (the AVX-512 layout: batches of 16, 64-byte aligned
    rows, masks as bits) where AVX-512 cannot run: a test build puts the same
    body with lane-by-lane operations in its place.  It passes its self-check
    (simd_lanes() is 16) and gives the scalar kernel's distances and sums."""
    monkeypatch.setattr(kernels, "C_EXTENSION", emu16_extension)
    monkeypatch.setenv(native.SIMD_ENV, "avx512")
    assert emu16_extension.simd_lanes() == 16
    rng, vocab, pack = _mixed_pack(16, 90)
    i = rng.integers(0, len(pack), 3_000)
    j = rng.integers(0, len(pack), 3_000)
    for kind in ("unit", "integral", "general"):
        costs = _all_costs(rng, len(vocab))[kind]
        a, b = _scalar_and_simd(monkeypatch, "avx512",
                                lambda: T.distance_matrix(pack, costs))
        assert np.array_equal(a, b) and a.max() > 0, kind
        a, b = _scalar_and_simd(monkeypatch, "avx512",
                                lambda: T.pair_distances(pack, i, j, costs))
        assert np.array_equal(a, b), kind
    _, vocab, ut = _units(3, 120)
    a, b = _scalar_and_simd(monkeypatch, "avx512",
                            lambda: sums.unit_sums(ut, want_s=True, tile=32, want_full=True))
    _sums_equal(a, b)


def test_tedc_is_built_from_the_files_the_staleness_check_compares(repo_root):
    """pyproject.toml builds _tedc from exactly kernels.C_SOURCES (the body
    header included), so that an edit of any of them is noticed."""
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((repo_root / "pyproject.toml").read_text(encoding="utf-8"))
    ext = {e["name"]: e for e in config["tool"]["setuptools"]["ext-modules"]}
    tedc = ext["synagree.distance._tedc"]
    listed = [f.rsplit("/", 1)[1] for f in tedc["sources"] + tedc.get("depends", [])]
    assert sorted(kernels.C_SOURCES) == sorted(listed)
    assert "_tedc_simd_body.h" in listed
