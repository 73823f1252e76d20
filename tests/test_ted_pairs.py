"""Single pairs (issue 22, item 5): ``synagree.ted`` and the C single-pair entry.

The single-pair entry (``_tedc.ted_pair``) must give what the pack kernels
give, on both backends, bit for bit (C = numba), and what zss gives; the
public ``synagree.ted`` must give the same for every form of input it takes
(FlatTree, sentences, bracketed strings, batches).  Bad trees raise.
"""
from __future__ import annotations

import numpy as np
import pytest
import zss
from test_ted import ALPHABET, dep, random_heads, random_labels
from test_ted_kernels import _all_costs, needs_c

import synagree
from synagree.base import native
from synagree.base.problems import InputError
from synagree.distance import kernels
from synagree.distance import ted as T
from synagree.io.brackets import read_brackets
from synagree.io.conllu import read_conllu
from synagree.io.read import read
from synagree.trees.flat import FlatTree, Vocabulary, dependency_tree, to_zss


def _trees(seed: int, count: int, hi: int = 40):
    rng = np.random.default_rng(seed)
    vocab = Vocabulary(ALPHABET)
    trees = [dependency_tree(dep(random_heads(rng, n), random_labels(rng, n)), vocab)
             for n in rng.integers(1, hi, count)]
    return rng, vocab, trees


def _zss(vocab, costs, a, b):
    ids = {lab: k for k, lab in enumerate(vocab.labels)}
    dc, ic = costs.delete, costs.insert
    rm = costs.rename if costs.rename is not None else 1.0 - np.eye(len(vocab))
    return zss.distance(to_zss(a, vocab), to_zss(b, vocab), zss.Node.get_children,
                        insert_cost=lambda n: ic[ids[n.label]],
                        remove_cost=lambda n: dc[ids[n.label]],
                        update_cost=lambda x, y: rm[ids[x.label], ids[y.label]])


@pytest.mark.slow
@needs_c
@pytest.mark.parametrize("kind", ["default", "unit", "fractional", "general", "integral"])
def test_single_pairs_equal_the_pack_kernels_on_both_backends(kind, monkeypatch):
    rng, vocab, trees = _trees(5, 60)
    costs = None if kind == "default" else _all_costs(rng, len(vocab))[kind]
    i = rng.integers(0, len(trees), 300)
    j = rng.integers(0, len(trees), 300)
    pack = T.TreePack(trees)
    out = {}
    for backend in ("c", "numba"):
        monkeypatch.setenv(native.KERNELS_ENV, backend)
        out[backend, "pack"] = T.pair_distances(pack, i, j, costs)
        out[backend, "single"] = np.array([T.ted(trees[a], trees[b], costs)
                                           for a, b in zip(i.tolist(), j.tolist())])
    ref = out["c", "pack"]
    for key, got in out.items():
        assert np.array_equal(got, ref), key  # bit for bit
    zc = costs or T.Costs.unit(len(vocab))
    for k in range(0, 300, 7):
        assert ref[k] == pytest.approx(_zss(vocab, zc, trees[i[k]], trees[j[k]]), abs=1e-9)


@needs_c
def test_single_pairs_take_the_c_entry(monkeypatch):
    """The fast path runs (not the pack): a pack built would be seen here."""
    _, vocab, trees = _trees(7, 4)
    built = []
    real = T.TreePack
    monkeypatch.setattr(T, "TreePack", lambda ts: built.append(ts) or real(ts))
    monkeypatch.delenv(native.KERNELS_ENV, raising=False)
    monkeypatch.setenv(native.THREADS_ENV, " 3 ")
    T.ted(trees[0], trees[1])
    assert built == []


@needs_c
@pytest.mark.parametrize("var,value", [(native.KERNELS_ENV, "numba"),
                                       (native.THREADS_ENV, "2_0")])
def test_settings_not_plainly_for_c_take_the_general_path(var, value, monkeypatch):
    _, vocab, trees = _trees(8, 3)
    expected = T.pair_distances(T.TreePack(trees[:2]), np.array([0]), np.array([1]))[0]
    monkeypatch.setenv(var, value)
    assert kernels.C_EXTENSION.ted_pair(*_args(trees[0]), *_args(trees[1]),
                                        None, None, None, True) is None
    assert T.ted(trees[0], trees[1]) == expected


@pytest.mark.parametrize("var,value", [(native.KERNELS_ENV, "fortran"),
                                       (native.THREADS_ENV, "0"),
                                       (native.THREADS_ENV, "1025")])
def test_bad_settings_are_refused_on_the_single_pair_path(var, value, monkeypatch):
    _, _, trees = _trees(9, 2)
    monkeypatch.setenv(var, value)
    with pytest.raises(InputError) as exc:
        T.ted(trees[0], trees[1])
    assert exc.value.errors[0].kind == "bad-environment"


def test_numba_fallback_without_the_extension(monkeypatch):
    rng, vocab, trees = _trees(10, 20)
    expected = [T.ted(a, b) for a, b in zip(trees, trees[1:])]
    monkeypatch.setattr(kernels, "C_EXTENSION", None)
    monkeypatch.setenv(native.KERNELS_ENV, "auto")
    assert [T.ted(a, b) for a, b in zip(trees, trees[1:])] == expected


def _args(t: FlatTree):
    return (t.labels, t.lml, t.keyroots, t.r_labels, t.r_lml, t.r_keyroots, t.cost_left,
            t.cost_right)


@needs_c
def test_bad_trees_raise_not_crash():
    _, vocab, trees = _trees(3, 2, hi=10)
    ext = kernels.C_EXTENSION
    a, b = trees
    good = _args(a)
    assert ext.ted_pair(*good, *_args(b), None, None, None, True) == T.ted(a, b)
    bad_lml = a.lml.copy()
    bad_lml[-1] = 1 if a.n_nodes > 1 else 5  # the root is not the root of all
    cases = [
        (TypeError, (a.labels.astype(np.int64), *good[1:])),  # wrong dtype
        (ValueError, (a.labels[:-1], *good[1:])),  # lengths differ
        (ValueError, (good[0], bad_lml, *good[2:])),  # leftmost leaves out of shape
        (ValueError, (good[0], good[1], a.keyroots[:-1], *good[3:])),  # keyroots wrong
        (ValueError, (np.full_like(a.labels, -1), *good[1:])),  # negative label
        (TypeError, (*good[:6], "x", good[7])),  # a cost estimate that is not a number
    ]
    for exc, args in cases:
        with pytest.raises(exc):
            ext.ted_pair(*args, *_args(b), None, None, None, True)
    dc, ic, rm, unit = T.Costs.unit(len(vocab)).arrays()
    with pytest.raises(ValueError, match="out of range"):
        ext.ted_pair(*good, *_args(b), dc[:1], ic[:1], rm, unit)
    with pytest.raises(TypeError):
        ext.ted_pair(*good, *_args(b), None, ic, None, True)
    with pytest.raises(TypeError):
        ext.ted_pair(*good)


def test_a_hand_built_tree_with_other_dtypes_still_works():
    _, vocab, trees = _trees(4, 2)
    a, b = trees
    wide = FlatTree(*(x.astype(np.int64) for x in (a.labels, a.lml, a.keyroots, a.r_labels,
                                                      a.r_lml, a.r_keyroots)),
                    a.size, a.cost_left, a.cost_right)
    assert T.ted(wide, b) == T.ted(a, b)


# ----------------------------------------------------------------- synagree.ted


def test_public_ted_on_every_form():
    text_a = "1\tI\t_\t_\t_\t_\t2\tnsubj\t_\t_\n2\tsaw\t_\t_\t_\t_\t0\troot\t_\t_\n" \
             "3\ther\t_\t_\t_\t_\t2\tobj\t_\t_\n\n"
    text_b = text_a.replace("\tobj\t", "\tiobj\t").replace("\t2\tnsubj", "\t3\tnsubj")
    [sa], [sb] = read(text_a), read(text_b)
    v = Vocabulary()
    ta, tb = dependency_tree(sa, v), dependency_tree(sb, v)
    d = synagree.ted(ta, tb)
    assert d == synagree.ted(sa, sb) == _zss(v, T.Costs.unit(len(v)), ta, tb) == 2.0
    assert synagree.ted([sa, sb, sa], [sb, sb, sa]).tolist() == [d, 0.0, 0.0]
    assert synagree.ted([ta], [tb]).tolist() == [d]
    assert synagree.ted([], []).tolist() == []
    assert isinstance(synagree.ted(sa, sb), float)


def test_public_ted_on_brackets_equals_read_trees():
    a, b = "(S (NP (D the) (N dog)) (VP (V ran)))", "(S (NP (D the)) (VP (V ran) (N dog)))"
    [pa], [pb] = read_brackets(_stream(a)), read_brackets(_stream(b))
    assert synagree.ted(a, b) == synagree.ted(pa, pb) == 2.0
    assert synagree.ted([a, a], [b, a]).tolist() == [2.0, 0.0]
    assert synagree.ted(a, b, phrase_style="delex") == 4.0  # the words are leaves now


def _stream(text):
    import io
    return io.StringIO(text + "\n")


def test_public_ted_refuses_what_it_cannot_compare():
    s = dep([2, 0], ["nsubj", "root"])
    v = Vocabulary()
    t = dependency_tree(s, v)
    with pytest.raises(TypeError, match="vocabulary"):
        synagree.ted(t, s)
    with pytest.raises(TypeError, match="dependency and phrase"):
        synagree.ted(s, "(S N V)")
    with pytest.raises(TypeError, match="two trees or two sequences"):
        synagree.ted(s, [s])
    with pytest.raises(ValueError, match="equal length"):
        synagree.ted([s, s], [s])
    with pytest.raises(ValueError, match="costs"):
        synagree.ted(s, s, T.Costs.unit(3))
    with pytest.raises(ValueError, match="one bracketed tree"):
        synagree.ted("(S N) (S V)", "(S N)")
    with pytest.raises(InputError) as exc:
        synagree.ted("(S (N", "(S N)")
    assert exc.value.errors[0].kind == "unbalanced-brackets"
    with pytest.raises(TypeError, match="not a tree"):
        synagree.ted([1], [2])


def test_public_ted_on_real_trees(shared_data):
    """EWT sentences against their neighbours: the public forms agree with the pack."""
    sents = list(read_conllu(shared_data / "ud" / "en_ewt-ud-test.conllu"))[:400]
    v = Vocabulary()
    trees = [dependency_tree(s, v) for s in sents]
    pack = T.pair_distances(T.TreePack(trees), np.arange(399), np.arange(1, 400))
    single = [synagree.ted(a, b) for a, b in zip(trees, trees[1:])]
    batch = synagree.ted(sents[:-1], sents[1:])
    assert np.array_equal(pack, single) and np.array_equal(pack, batch)


@needs_c
def test_a_stale_build_is_not_run_for_single_pairs(monkeypatch):
    """A build older than its sources: the single pair takes the general path, which
    refuses it under SYNAGREE_KERNELS=c (and under auto warns and runs numba)."""
    import types

    _, _, trees = _trees(12, 2)
    expected = T.ted(trees[0], trees[1])
    ext = kernels.C_EXTENSION
    stale = types.ModuleType("synagree.distance._tedc")
    stale.__file__ = ext.__file__
    stale.SOURCE_SHA256 = "0" * 64
    stale.ted_pair = lambda *a: pytest.fail("a stale build ran")  # type: ignore[attr-defined]
    monkeypatch.setattr(kernels, "C_EXTENSION", stale)
    monkeypatch.setenv(native.KERNELS_ENV, "c")
    with pytest.raises(InputError, match="older version"):
        T.ted(trees[0], trees[1])
    monkeypatch.setenv(native.KERNELS_ENV, "numba")
    assert T.ted(trees[0], trees[1]) == expected
