"""The C tree-building kernel (synagree/trees/_flatc.c) against its numba twin.

Both kernels get the same inputs, built the way `dependency_trees` builds
them, and must give identical arrays (labels, leftmost leaves and keyroots in
both orientations, and the per-sentence counts and costs); `dependency_trees`
must give equal trees under ``SYNAGREE_KERNELS=c`` and ``=numba``.  The C
side is skipped when the optional extension is not built.
"""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from typing import List, Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO_ROOT
from synagree.base import native
from synagree.io.conllu import DepSentence, read_conllu
from synagree.trees import flat, flat_numba
from synagree.trees.flat import Vocabulary, dependency_tree, dependency_trees

_flatc = flat._flatc
needs_c = pytest.mark.skipif(_flatc is None, reason="C extension not built")

OUTPUTS = ("lab", "lml", "rlab", "rlml", "kr", "rkr", "info")
SENTINEL = -7  # slots a kernel leaves alone keep it, in both kernels


def kernel_inputs(heads: Sequence[Sequence[int]], labels: Sequence[Sequence[int]]):
    """(heads, hoff, labs) as `dependency_trees` builds them: ``labels[s]`` has
    the n + 1 node label ids of sentence s (the root's first)."""
    lens = np.array([len(h) for h in heads], np.int64)
    hoff = np.zeros(len(heads) + 1, np.int64)
    np.cumsum(lens, out=hoff[1:])
    flat_heads = np.array([x for h in heads for x in h], np.int64)
    labs = np.array([x for row in labels for x in row], np.int32)
    return flat_heads, hoff, labs


def run_kernel(kernel, heads, hoff, labs):
    """Run one kernel on fresh outputs; the outputs as a dict."""
    total = int(hoff[-1]) + len(hoff) - 1
    out = {name: np.full(total, SENTINEL, np.int32) for name in OUTPUTS[:-1]}
    out["info"] = np.full((len(hoff) - 1, 5), SENTINEL, np.int64)
    kernel(heads, hoff, labs, *(out[name] for name in OUTPUTS))
    return out


def assert_kernels_agree(heads, hoff, labs):
    """C and numba give identical outputs; returns them."""
    c = run_kernel(_flatc.dependency_arrays, heads, hoff, labs)
    nb = run_kernel(flat_numba._dependency_arrays, heads, hoff, labs)
    for name in OUTPUTS:
        assert c[name].dtype == nb[name].dtype, name
        assert np.array_equal(c[name], nb[name]), name
    return c


def assert_matches_python(out, hoff, heads_rows, label_rows):
    """Each sentence's slice of the kernel outputs equals `flat.flat_tree` built
    in Python from the same heads (the definition, independent of both kernels)."""
    for s, (hs, row) in enumerate(zip(heads_rows, label_rows)):
        n = len(hs)
        children: List[List[int]] = [[] for _ in range(n + 1)]
        for i, h in enumerate(hs, start=1):
            children[h].append(i)
        t = flat.flat_tree(children, list(row), size=n + 1)
        o = int(hoff[s]) + s
        m, nk, nr, cl, cr = out["info"][s].tolist()
        assert (m, nk, nr, cl, cr) == (t.n_nodes, len(t.keyroots), len(t.r_keyroots),
                                       t.cost_left, t.cost_right)
        assert out["lab"][o:o + m].tolist() == t.labels.tolist()
        assert out["lml"][o:o + m].tolist() == t.lml.tolist()
        assert out["rlab"][o:o + m].tolist() == t.r_labels.tolist()
        assert out["rlml"][o:o + m].tolist() == t.r_lml.tolist()
        assert out["kr"][o:o + nk].tolist() == t.keyroots.tolist()
        assert out["rkr"][o:o + nr].tolist() == t.r_keyroots.tolist()


def assert_trees_equal(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        for f in dataclasses.fields(flat.FlatTree):
            u, v = getattr(x, f.name), getattr(y, f.name)
            if isinstance(u, np.ndarray):
                assert u.dtype == v.dtype and np.array_equal(u, v), f.name
            else:
                assert u == v, f.name


@st.composite
def sentence(draw, max_words: int = 14):
    """(heads, node labels) of one sentence: heads anywhere in 0..n, so cycles,
    self-loops and words cut off from the root all occur."""
    n = draw(st.integers(0, max_words))
    heads = draw(st.lists(st.integers(0, n), min_size=n, max_size=n))
    labels = draw(st.lists(st.integers(0, 6), min_size=n + 1, max_size=n + 1))
    return heads, labels


@st.composite
def tree_sentence(draw, max_words: int = 14):
    """A well-formed tree: word i hangs under an earlier word or the root,
    then word ids are shuffled (so heads point both ways)."""
    n = draw(st.integers(1, max_words))
    parent = [draw(st.integers(0, i - 1)) for i in range(1, n + 1)]  # node i under parent
    perm = draw(st.permutations(range(1, n + 1)))  # node i is word perm[i - 1]
    word = [0] + list(perm)
    heads = [0] * n
    for i in range(1, n + 1):
        heads[word[i] - 1] = word[parent[i - 1]]
    labels = draw(st.lists(st.integers(0, 6), min_size=n + 1, max_size=n + 1))
    return heads, labels


# ------------------------------------------------------------- random input

@pytest.mark.slow
@needs_c
@settings(deadline=None, max_examples=150)
@given(st.lists(st.one_of(sentence(), tree_sentence()), min_size=1, max_size=25))
def test_random_sentences_agree(sents):
    heads_rows = [h for h, _ in sents]
    label_rows = [lab for _, lab in sents]
    args = kernel_inputs(heads_rows, label_rows)
    out = assert_kernels_agree(*args)
    assert_matches_python(out, args[1], heads_rows, label_rows)


@needs_c
@settings(deadline=None, max_examples=30)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=40))
def test_single_word_sentences(labels):
    heads_rows = [[0] if k % 3 else [1] for k in range(len(labels))]  # [1]: a self-loop
    label_rows = [[0, x] for x in labels]
    args = kernel_inputs(heads_rows, label_rows)
    out = assert_kernels_agree(*args)
    assert_matches_python(out, args[1], heads_rows, label_rows)


@needs_c
def test_edge_cases():
    # no sentences at all
    out = assert_kernels_agree(np.zeros(0, np.int64), np.zeros(1, np.int64),
                               np.zeros(0, np.int32))
    assert out["info"].shape == (0, 5)
    # a chain, a star, a full cycle, an empty sentence, a long sentence, all in one call
    long = list(range(0, 300))  # word i under word i - 1: depth 300
    rows = [[0, 1, 2, 3], [0, 1, 1, 1, 1], [2, 3, 1], [], long, [3, 0, 2, 3]]
    labels = [list(range(len(h) + 1)) for h in rows]
    args = kernel_inputs(rows, labels)
    out = assert_kernels_agree(*args)
    assert_matches_python(out, args[1], rows, labels)
    assert out["info"][2].tolist()[0] == 1  # the cycle: the root alone
    assert out["info"][3].tolist() == [1, 1, 1, 1, 1]


@needs_c
def test_heads_out_of_range_hang_nowhere():
    """The kernels ignore a head outside 0..n (the reader never gives one)."""
    args = kernel_inputs([[0, 7, -1, 1]], [[0, 1, 2, 3, 4]])
    out = assert_kernels_agree(*args)
    assert out["info"][0].tolist()[0] == 3  # the root, word 1 and word 4


# ------------------------------------------------------------- real data

@pytest.fixture(scope="module")
def ewt(shared_data) -> List[DepSentence]:
    path = shared_data / "ud" / "en_ewt-ud-test.conllu"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    return read_conllu(path)


def ewt_inputs(sents: Sequence[DepSentence]):
    vocab = Vocabulary()
    heads_rows = [s.heads.tolist() for s in sents]
    label_rows = [[0] + [vocab.id(d) for d in s.deprels] for s in sents]
    return heads_rows, label_rows


@needs_c
def test_ewt_kernels_agree(ewt):
    heads_rows, label_rows = ewt_inputs(ewt)
    args = kernel_inputs(heads_rows, label_rows)
    out = assert_kernels_agree(*args)
    assert_matches_python(out, args[1], heads_rows, label_rows)


@needs_c
def test_ewt_dependency_trees_c_vs_numba(ewt, monkeypatch):
    assert len(ewt) >= flat.BATCH_MIN  # the compiled pass, not the per-tree path
    trees = {}
    for kernels in ("c", "numba"):
        monkeypatch.setenv(native.KERNELS_ENV, kernels)
        trees[kernels] = dependency_trees(ewt, Vocabulary())
    assert_trees_equal(trees["c"], trees["numba"])
    vocab = Vocabulary()
    one_by_one = [dependency_tree(s, vocab) for s in ewt]
    assert_trees_equal(trees["c"], one_by_one)


def test_dependency_trees_backends_agree(monkeypatch):
    """Small batches too (BATCH_MIN lowered), on whichever backends exist."""
    rng = np.random.default_rng(7)
    sents = []
    for k in range(60):
        n = int(rng.integers(1, 12))
        heads = rng.integers(0, n + 1, n) if k % 4 == 0 else np.array(
            [int(rng.integers(0, i)) for i in range(1, n + 1)])
        sents.append(DepSentence("-", k, 1, ["w"] * n, heads.astype(np.int32),
                                 [f"l{int(x)}" for x in rng.integers(0, 5, n)]))
    monkeypatch.setattr(flat, "BATCH_MIN", 1)
    backends = ["numba"] + (["c"] if _flatc is not None else [])
    got = {}
    for kernels in backends:
        monkeypatch.setenv(native.KERNELS_ENV, kernels)
        got[kernels] = dependency_trees(sents, Vocabulary())
    v = Vocabulary()
    reference = [dependency_tree(s, v) for s in sents]
    for kernels in backends:
        assert_trees_equal(got[kernels], reference)


@needs_c
def test_c_path_does_not_import_numba():
    code = (
        "import sys, numpy as np\n"
        "from synagree.io.conllu import DepSentence\n"
        "from synagree.trees import flat\n"
        "s = DepSentence('-', 0, 1, ['a', 'b'], np.array([0, 1]), ['root', 'dep'])\n"
        "t = flat.dependency_trees([s] * flat.BATCH_MIN, flat.Vocabulary())\n"
        "assert t[-1].n_nodes == 3\n"
        "print('numba' in sys.modules)\n")
    env = dict(os.environ, **{native.KERNELS_ENV: "c"})
    res = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "False"


# ------------------------------------------------------------- bad buffers

def good_args():
    heads, hoff, labs = kernel_inputs([[0, 1], [0]], [[0, 1, 2], [0, 3]])
    outs = [np.zeros(5, np.int32) for _ in range(6)]
    return [heads, hoff, labs, *outs, np.zeros((2, 5), np.int64)]


def with_arg(k, value):
    args = good_args()
    args[k] = value
    return args


BAD = [
    # (argument list, expected exception)
    pytest.param(with_arg(0, np.array([0.0, 1.0, 0.0])), TypeError, id="float64-heads"),
    pytest.param(with_arg(0, np.array([0, 1, 0], np.int32)), TypeError, id="int32-heads"),
    pytest.param(with_arg(0, np.array([0, 1, 0], np.uint64)), TypeError, id="uint64-heads"),
    pytest.param(with_arg(0, [0, 1, 0]), TypeError, id="list-heads"),
    pytest.param(with_arg(0, None), TypeError, id="none-heads"),
    pytest.param(with_arg(2, np.zeros(5, np.int64)), TypeError, id="int64-labs"),
    pytest.param(with_arg(3, np.zeros(5, np.float32)), TypeError, id="float32-lab"),
    pytest.param(with_arg(3, np.zeros(10, np.int32)[::2]), TypeError, id="strided-lab"),
    pytest.param(with_arg(4, np.zeros(5, np.int32)), None, id="good"),
    pytest.param(with_arg(4, np.zeros(4, np.int32)), ValueError, id="short-lml"),
    pytest.param(with_arg(8, np.zeros(0, np.int32)), ValueError, id="empty-rkr"),
    pytest.param(with_arg(2, np.zeros(4, np.int32)), ValueError, id="short-labs"),
    pytest.param(with_arg(0, np.array([0, 1], np.int64)), ValueError, id="short-heads"),
    pytest.param(with_arg(1, np.zeros(0, np.int64)), ValueError, id="empty-hoff"),
    pytest.param(with_arg(1, np.array([0, 2, 1], np.int64)), ValueError, id="decreasing-hoff"),
    pytest.param(with_arg(1, np.array([-1, 2, 3], np.int64)), ValueError, id="negative-hoff"),
    pytest.param(with_arg(9, np.zeros((1, 5), np.int64)), ValueError, id="info-rows"),
    pytest.param(with_arg(9, np.zeros(10, np.int64)), ValueError, id="info-1d"),
    pytest.param(with_arg(9, np.zeros((2, 5), np.int32)), TypeError, id="info-int32"),
    pytest.param(with_arg(9, np.zeros((2, 5), np.int64).T.copy().T), TypeError,
                 id="info-fortran"),
]


@needs_c
@pytest.mark.parametrize("args, error", BAD)
def test_bad_buffers_raise(args, error):
    if error is None:
        assert _flatc.dependency_arrays(*args) is None
        return
    with pytest.raises(error):
        _flatc.dependency_arrays(*args)


@needs_c
def test_read_only_output_and_arity():
    args = good_args()
    args[3].setflags(write=False)
    with pytest.raises(TypeError, match="writable"):
        _flatc.dependency_arrays(*args)
    with pytest.raises(TypeError):
        _flatc.dependency_arrays(*good_args()[:9])
    # read-only inputs are fine
    args = good_args()
    for a in args[:3]:
        a.setflags(write=False)
    _flatc.dependency_arrays(*args)
    assert args[9].tolist() == [[3, 1, 1, 3, 3], [2, 1, 1, 2, 2]]


@settings(deadline=None, max_examples=10, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(sentence(), min_size=1, max_size=5))
def test_numba_kernel_alone(sents):
    """The numba kernel against the Python definition (runs without the C build)."""
    heads_rows = [h for h, _ in sents]
    label_rows = [lab for _, lab in sents]
    args = kernel_inputs(heads_rows, label_rows)
    out = run_kernel(flat_numba._dependency_arrays, *args)
    assert_matches_python(out, args[1], heads_rows, label_rows)
