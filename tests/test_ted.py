"""synagree.ted against the reference implementation, zss (docs/method.md §3).

zss trees are built here straight from heads and labels (conftest's
``zss_dep_tree``), never through synagree.trees, so a bug in tree building
shows up as a distance mismatch.  ``trees.to_zss`` is checked separately.
"""
from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
import zss

from conftest import SHARED_DATA
from synagree.distance import kernels_numba as KN
from synagree.distance import ted as T
from synagree.io.conllu import DepSentence, read_conllu
from synagree.trees.flat import Vocabulary, dependency_tree, to_zss

ALPHABET = ["a", "b", "c", "d"]


def random_heads(rng: np.random.Generator, n: int) -> list:
    """Heads of a random tree over words 1..n (always a tree, any word order).

    Words are attached in a random order, each to the root or to a word
    attached before; the attachment bias varies so that flat, bushy and
    chain-like trees all occur.
    """
    order = rng.permutation(np.arange(1, n + 1))
    style = rng.integers(0, 3)
    heads = [0] * n
    placed = [0]
    for w in order:
        if style == 0:  # uniform random recursive tree
            h = placed[int(rng.integers(0, len(placed)))]
        elif style == 1:  # chain-like: mostly the most recent word
            h = placed[-1] if rng.random() < 0.7 else placed[int(rng.integers(0, len(placed)))]
        else:  # flat: mostly the root or an early word
            h = placed[int(rng.integers(0, min(len(placed), 3)))]
        heads[w - 1] = int(h)
        placed.append(int(w))
    return heads


def random_labels(rng, n, k=None):
    k = k or int(rng.integers(1, len(ALPHABET) + 1))
    return [ALPHABET[int(x)] for x in rng.integers(0, k, size=n)]


def dep(heads, labels, name="t") -> DepSentence:
    n = len(heads)
    return DepSentence(file=name, index=0, line=1, forms=[f"w{i}" for i in range(1, n + 1)],
                       heads=np.asarray(heads, dtype=np.int32), deprels=list(labels))


def make_random_pairs(seed: int, count: int, lo: int = 1, hi: int = 40):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        pair = []
        for _ in range(2):
            n = int(rng.integers(lo, hi + 1))
            pair.append((random_heads(rng, n), random_labels(rng, n)))
        out.append(pair)
    return out


# --------------------------------------------------------------------------
# Random trees
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def random_pairs():
    return make_random_pairs(seed=20140601, count=2000)


@pytest.fixture(scope="module")
def random_built(random_pairs):
    vocab = Vocabulary()
    trees = [dependency_tree(dep(hd, lb), vocab) for pair in random_pairs for hd, lb in pair]
    return vocab, trees


FAST_ZSS_PAIRS = 60  # the fast test's share; zss is pure Python (about 0.1 s a pair)


@pytest.fixture(scope="module")
def random_zss_head(random_pairs, h):
    return [h.zss_unit_distance(h.zss_dep_tree(*a), h.zss_dep_tree(*b))
            for a, b in random_pairs[:FAST_ZSS_PAIRS]]


@pytest.fixture(scope="module")
def random_zss(random_pairs, random_zss_head, h):
    return random_zss_head + [h.zss_unit_distance(h.zss_dep_tree(*a), h.zss_dep_tree(*b))
                              for a, b in random_pairs[FAST_ZSS_PAIRS:]]


@pytest.mark.slow
def test_random_pairs_match_zss(random_pairs, random_built, random_zss):
    assert len(random_pairs) >= 2000
    sizes = [len(hd) for pair in random_pairs for hd, _ in pair]
    assert min(sizes) == 1 and max(sizes) == 40
    _, trees = random_built
    pack = T.TreePack(trees)
    i = np.arange(0, len(trees), 2)
    got = T.pair_distances(pack, i, i + 1)
    want = np.array(random_zss)
    bad = np.nonzero(got != want)[0]
    assert bad.size == 0, (f"{bad.size} of {len(want)} pairs differ from zss, first: pair "
                           f"{bad[:5].tolist()}: synagree {got[bad[:5]].tolist()} vs zss "
                           f"{want[bad[:5]].tolist()}")
    # the random pairs are not trivial: renames and structural edits both occur
    assert (want > 0).mean() > 0.9
    assert len({lb for pair in random_pairs for _, lbs in pair for lb in lbs}) == len(ALPHABET)


def test_ted_function_matches_zss(random_built, random_zss_head):
    _, trees = random_built
    assert len(random_zss_head) == FAST_ZSS_PAIRS
    for k, want in enumerate(random_zss_head):
        assert T.ted(trees[2 * k], trees[2 * k + 1]) == want, k
        assert T.ted(trees[2 * k + 1], trees[2 * k]) == want, k


def test_to_zss_matches_independent_tree(random_pairs, random_built, h):
    vocab, trees = random_built
    for k, (hd, lb) in enumerate(p for pair in random_pairs[:300] for p in pair):
        mine = h.zss_dep_tree(hd, lb)
        theirs = to_zss(trees[k], vocab)
        assert h.zss_shape(theirs) == h.zss_shape(mine)
        assert h.zss_nodes(theirs) == len(hd) + 1
        assert trees[k].size == len(hd) + 1
        assert trees[k].n_nodes == len(hd) + 1


def _forced(t, side):
    """The same tree with its cost estimates rigged so _pair picks ``side``."""
    if side == "left":
        return dataclasses.replace(t, cost_left=0, cost_right=1)
    return dataclasses.replace(t, cost_left=1, cost_right=0)


@pytest.mark.slow
def test_both_orientations_agree(random_built, random_zss_head, random_pairs, h):
    """Left-path (original trees) and right-path (mirrored trees) decomposition."""
    _, trees = random_built
    random_zss = random_zss_head
    for k in range(FAST_ZSS_PAIRS):
        a, b = trees[2 * k], trees[2 * k + 1]
        left = T.ted(_forced(a, "left"), _forced(b, "left"))
        right = T.ted(_forced(a, "right"), _forced(b, "right"))
        assert left == right == random_zss[k], k
    # the mirrored trees really are the mirror images (zss on mirrors: same distance)
    for k in range(50):
        (ha, la), (hb, lb) = random_pairs[k]
        za, zb = h.zss_dep_tree(ha, la), h.zss_dep_tree(hb, lb)
        assert h.zss_unit_distance(h.zss_mirror(za), h.zss_mirror(zb)) == random_zss[k]


def test_orientation_choice_is_not_trivial(random_built):
    """Both orientations are really used on these trees (else the test above is moot)."""
    _, trees = random_built
    cl = np.array([t.cost_left for t in trees[0::2]]) * np.array([t.cost_left for t in trees[1::2]])
    cr = (np.array([t.cost_right for t in trees[0::2]])
          * np.array([t.cost_right for t in trees[1::2]]))
    assert (cl <= cr).any() and (cl > cr).any()


def test_edge_cases_by_hand():
    vocab = Vocabulary()
    one_a = dependency_tree(dep([0], ["a"]), vocab)  # ε(a)
    one_b = dependency_tree(dep([0], ["b"]), vocab)  # ε(b)
    chain = dependency_tree(dep([0, 1, 2], ["a", "a", "a"]), vocab)  # ε(a(a(a)))
    flat = dependency_tree(dep([0, 0, 0], ["a", "a", "a"]), vocab)  # ε(a, a, a)
    assert T.ted(one_a, one_a) == 0
    assert T.ted(one_a, one_b) == 1  # one rename
    assert T.ted(one_a, chain) == 2  # insert two nodes
    assert T.ted(chain, one_a) == 2
    # chain vs flat: a mapping keeps ancestry and order.  Any two a's of the
    # chain are ancestor/descendant, any two a's of the flat tree are siblings,
    # so besides ε↔ε at most one a can be mapped: 2 deletions + 2 insertions.
    assert T.ted(chain, flat) == 4


# --------------------------------------------------------------------------
# Real data: every same-sentence pair, and random cross-sentence pairs
# --------------------------------------------------------------------------

IAA_PAIRS = [("ndt", f"odin-{t}.conll", f"thor-{t}.conll")
             for t in ("caterpillar", "danish", "swedish", "norwegian")] + \
            [("cdt", f"{c}-lotte.conll", f"{c}-morten.conll") for c in ("da", "en")]


@pytest.fixture(scope="module")
def iaa_trees(iaa, h):
    """[(corpus, [(zss tree, synagree tree) per sentence] per annotator)]."""
    vocab = Vocabulary()
    out = []
    for sub, fa, fb in IAA_PAIRS:
        per_ann = []
        for f in (fa, fb):
            path = iaa / sub / f
            raw = h.raw_conll(path)
            sents = read_conllu(path)
            assert len(raw) == len(sents)
            per_ann.append([(h.zss_dep_tree(*h.heads_labels(w)), dependency_tree(s, vocab))
                            for w, s in zip(raw, sents)])
        out.append((f"{sub}/{fa}", per_ann))
    return vocab, out


@pytest.mark.slow
def test_iaa_same_sentence_pairs_match_zss(iaa_trees, h):
    vocab, corpora = iaa_trees
    total = 0
    for name, (ann_a, ann_b) in corpora:
        assert len(ann_a) == len(ann_b)
        trees = [t for _, t in ann_a] + [t for _, t in ann_b]
        pack = T.TreePack(trees)
        n = len(ann_a)
        got = T.pair_distances(pack, np.arange(n), np.arange(n) + n)
        for k, ((za, _), (zb, _)) in enumerate(zip(ann_a, ann_b)):
            want = h.zss_unit_distance(za, zb)
            assert got[k] == want, f"{name} sentence {k + 1}: {got[k]} vs zss {want}"
            total += 1
    assert total == 10 + 130 + 110 + 150 + 162 + 264


@pytest.mark.slow
def test_iaa_cross_sentence_pairs_match_zss(iaa_trees, h):
    _, corpora = iaa_trees
    allt = [zt for _, anns in corpora for ann in anns for zt in ann]
    rng = np.random.default_rng(7)
    idx = rng.integers(0, len(allt), size=(300, 2))
    pack = T.TreePack([allt[k][1] for k in range(len(allt))])
    got = T.pair_distances(pack, idx[:, 0], idx[:, 1])
    for k, (i, j) in enumerate(idx):
        want = h.zss_unit_distance(allt[i][0], allt[j][0])
        assert got[k] == want, f"pair {i},{j}: {got[k]} vs zss {want}"


def test_iaa_to_zss_and_sizes(iaa_trees, iaa, h):
    """to_zss reproduces the independent tree; |t| counts every word + root even
    when words on a head cycle are not nodes (CDT)."""
    vocab, corpora = iaa_trees
    lost_somewhere = False
    for name, anns in corpora:
        for ann in anns:
            for zt, ft in ann:
                assert h.zss_shape(to_zss(ft, vocab)) == h.zss_shape(zt)
                assert ft.n_nodes == h.zss_nodes(zt)
                if ft.n_nodes < ft.size:
                    lost_somewhere = True
    assert lost_somewhere, "CDT has cycles, so some tree must have fewer nodes than |t|"


# --------------------------------------------------------------------------
# Bulk entry points
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bulk_trees():
    rng = np.random.default_rng(99)
    vocab = Vocabulary()
    specs = []
    for _ in range(25):
        n = int(rng.integers(1, 15))
        specs.append((random_heads(rng, n), random_labels(rng, n, 2)))
    # duplicates: the same tree again (built separately), and repeated objects
    specs += [specs[3], specs[3], specs[10]]
    trees = [dependency_tree(dep(hd, lb), vocab) for hd, lb in specs]
    trees.append(trees[0])
    return specs, trees


@pytest.mark.slow
def test_pairwise_equals_ted(bulk_trees, h):
    specs, trees = bulk_trees
    K = len(trees)
    pw = T.pairwise(trees)
    assert pw.shape == (K, K)
    for i in range(K):
        for j in range(K):
            assert pw[i, j] == T.ted(trees[i], trees[j]), (i, j)
    # and against zss, independently
    zt = [h.zss_dep_tree(*s) for s in specs] + [h.zss_dep_tree(*specs[0])]
    for i, j in itertools.combinations(range(K), 2):
        assert pw[i, j] == h.zss_unit_distance(zt[i], zt[j]), (i, j)


def test_pairwise_symmetric_zero_diagonal(bulk_trees):
    _, trees = bulk_trees
    pw = T.pairwise(trees)
    assert np.array_equal(pw, pw.T)
    assert np.all(np.diag(pw) == 0)
    assert np.all(pw[np.triu_indices(len(trees), 1)] >= 0)


def test_distance_matrix_equals_pairwise(bulk_trees):
    _, trees = bulk_trees
    dm = T.distance_matrix(T.TreePack(trees))
    assert np.array_equal(dm, T.pairwise(trees))
    assert np.array_equal(dm, dm.T)
    assert np.all(np.diag(dm) == 0)
    # degenerate packs
    assert T.distance_matrix(T.TreePack(trees[:1])).shape == (1, 1)
    assert T.distance_matrix(T.TreePack([])).shape == (0, 0)


def test_dedupe(bulk_trees, h):
    specs, trees = bulk_trees
    distinct, which = T.dedupe(trees)
    # independent count of distinct labelled shapes: small random trees may
    # coincide, so count the distinct shapes of independently built zss trees
    shapes = [h.zss_shape(h.zss_dep_tree(*s)) for s in specs]
    shapes.append(shapes[0])
    assert len(distinct) == len(set(shapes))
    assert len(distinct) < len(trees)
    for i, j in itertools.combinations(range(len(trees)), 2):
        assert (which[i] == which[j]) == (shapes[i] == shapes[j]), (i, j)
    pw = T.pairwise(trees)
    # duplicates have identical rows and distance 0 between them
    assert pw[3, 25] == pw[3, 26] == 0
    assert np.array_equal(pw[3], pw[25])
    assert np.array_equal(pw[10], pw[27])
    assert np.array_equal(pw[0], pw[28])


def test_dedupe_keeps_size_apart():
    """Same nodes but a different |t| (a word lost on a cycle) are not merged:
    α_diff / α_norm depend on |t|."""
    vocab = Vocabulary()
    t1 = dependency_tree(dep([0], ["a"]), vocab)  # ε(a), |t| = 2
    t2 = dependency_tree(dep([0, 3, 2], ["a", "b", "b"]), vocab)  # ε(a) + a 2-cycle, |t| = 4
    assert t1.n_nodes == t2.n_nodes == 2
    assert t1.size == 2 and t2.size == 4
    distinct, which = T.dedupe([t1, t2])
    assert len(distinct) == 2
    assert T.ted(t1, t2) == 0


# --------------------------------------------------------------------------
# General costs against zss.distance
# --------------------------------------------------------------------------

@pytest.mark.slow
def test_general_costs_match_zss_distance(h):
    rng = np.random.default_rng(314)
    pairs = make_random_pairs(seed=2718, count=300, lo=1, hi=15)
    vocab = Vocabulary(ALPHABET)
    L = len(vocab)
    for trial, (a, b) in enumerate(pairs):
        if trial % 50 == 0:  # fresh random costs every 50 pairs
            dcost = rng.uniform(0.0, 2.0, size=L).round(3)
            icost = rng.uniform(0.0, 2.0, size=L).round(3)
            rmat = rng.uniform(0.0, 3.0, size=(L, L)).round(3)
            if trial % 100 == 0:
                np.fill_diagonal(rmat, 0.0)
            costs = T.Costs(dcost, icost, rmat)
        ta = dependency_tree(dep(*a), vocab)
        tb = dependency_tree(dep(*b), vocab)
        got = T.ted(ta, tb, costs)
        lid = vocab.get
        want = zss.distance(
            h.zss_dep_tree(*a), h.zss_dep_tree(*b), lambda n: n.children,
            insert_cost=lambda n: icost[lid(n.label)],
            remove_cost=lambda n: dcost[lid(n.label)],
            update_cost=lambda x, y: rmat[lid(x.label), lid(y.label)])
        assert got == pytest.approx(want, abs=1e-9), (trial, got, want)
        # both orientations under general costs
        left = T.ted(_forced(ta, "left"), _forced(tb, "left"), costs)
        right = T.ted(_forced(ta, "right"), _forced(tb, "right"), costs)
        assert left == pytest.approx(want, abs=1e-9)
        assert right == pytest.approx(want, abs=1e-9)


def test_general_costs_matrix_and_unit_default():
    """distance_matrix with Costs equals pairwise ted with the same Costs; the
    default costs equal Costs.unit (root label free, everything else 1)."""
    rng = np.random.default_rng(5)
    vocab = Vocabulary(ALPHABET)
    trees = []
    for _ in range(12):
        n = int(rng.integers(1, 12))
        trees.append(dependency_tree(dep(random_heads(rng, n), random_labels(rng, n)), vocab))
    L = len(vocab)
    costs = T.Costs(rng.uniform(0.5, 1.5, L), rng.uniform(0.5, 1.5, L),
                    rng.uniform(0, 2, (L, L)))
    dm = T.distance_matrix(T.TreePack(trees), costs)
    for i, j in itertools.combinations(range(len(trees)), 2):
        assert dm[i, j] == pytest.approx(T.ted(trees[i], trees[j], costs), abs=1e-12)
        assert dm[j, i] == dm[i, j]
    unit = T.Costs.unit(L)
    assert unit.delete[0] == 0 and unit.insert[0] == 0
    assert np.all(unit.delete[1:] == 1) and np.all(unit.insert[1:] == 1)
    assert np.array_equal(T.distance_matrix(T.TreePack(trees), unit),
                          T.distance_matrix(T.TreePack(trees)))


# --------------------------------------------------------------------------
# The kernel bit for bit against zss (unit, fractional and general costs)
# --------------------------------------------------------------------------
#
# zss runs the textbook recurrence on the original trees: the left-path
# decomposition.  The kernel computes every cell as the same single addition
# of the same operands (only the order of the three-way minimum and of the
# cells differs), so with the orientation forced ("left" against zss,
# "right" against zss on mirrored trees) even fractional costs must agree
# with ``==``.  Unit costs run on int32 cells and must give zss's integers.

EWT_TEST = SHARED_DATA / "ud" / "en_ewt-ud-test.conllu"


def _zss_costs(vocab, costs):
    lid = vocab.get
    return dict(insert_cost=lambda n: costs.insert[lid(n.label)],
                remove_cost=lambda n: costs.delete[lid(n.label)],
                update_cost=(lambda x, y: 0.0 if x.label == y.label else 1.0)
                if costs.rename is None else
                (lambda x, y: costs.rename[lid(x.label), lid(y.label)]))


def _check_bitwise(pairs, vocab, costs, h):
    """``pairs``: [((heads, labels), (heads, labels))]; both orientations."""
    trees = [dependency_tree(dep(*x), vocab) for pair in pairs for x in pair]
    kw = _zss_costs(vocab, costs)
    for side in ("left", "right"):
        forced = [_forced(t, side) for t in trees]
        got = T.pair_distances(T.TreePack(forced), np.arange(0, len(forced), 2),
                               np.arange(1, len(forced), 2), costs)
        for k, (a, b) in enumerate(pairs):
            za, zb = h.zss_dep_tree(*a), h.zss_dep_tree(*b)
            if side == "right":
                za, zb = h.zss_mirror(za), h.zss_mirror(zb)
            want = zss.distance(za, zb, lambda n: n.children, **kw)
            assert got[k] == want, (side, k, got[k], want)


def _cost_sets(rng, L):
    """Unit (int32 cells), fractional insert/delete with equality renames
    (float cells, unit renames), and a full random rename matrix."""
    unit = T.Costs.unit(L)
    frac = T.Costs(rng.uniform(0.1, 2.0, L), rng.uniform(0.1, 2.0, L), None)
    rm = rng.uniform(0.0, 3.0, (L, L))
    np.fill_diagonal(rm, rng.uniform(0.0, 0.2, L))
    gen = T.Costs(rng.uniform(0.1, 2.0, L), rng.uniform(0.1, 2.0, L), rm)
    return {"unit": unit, "fractional": frac, "general": gen}


def test_cell_types_chosen_by_costs():
    unit = T.Costs.unit(5)
    assert unit.arrays()[0].dtype == np.int32 and unit.arrays()[3]
    assert T.Costs(unit.delete * 3, unit.insert, None).arrays()[0].dtype == np.int32
    frac = T.Costs(unit.delete * 0.5, unit.insert, None).arrays()
    assert frac[0].dtype == np.float64 and frac[3]
    huge = T.Costs(unit.delete * (T.INT_COST_MAX + 1), unit.insert, None).arrays()
    assert huge[0].dtype == np.float64
    assert T.Costs(unit.delete, unit.insert, np.ones((5, 5))).arrays()[2].dtype == np.float64


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["unit", "fractional", "general"])
def test_random_pairs_bitwise_zss(kind, h):
    rng = np.random.default_rng(4242)
    vocab = Vocabulary(ALPHABET)
    costs = _cost_sets(rng, len(vocab))[kind]
    _check_bitwise(make_random_pairs(seed=77, count=150, lo=1, hi=14), vocab, costs, h)


@pytest.fixture(scope="module")
def ewt_pairs():
    if not EWT_TEST.is_file():
        pytest.skip(f"UD English EWT not found at {EWT_TEST} (shared data absent)")
    sents = [s for s in read_conllu(EWT_TEST) if s.n_words <= 25]
    rng = np.random.default_rng(11)
    idx = rng.integers(0, len(sents), size=(60, 2))
    return [tuple((sents[k].heads.tolist(), list(sents[k].deprels)) for k in p) for p in idx]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["unit", "fractional", "general"])
def test_ewt_pairs_bitwise_zss(ewt_pairs, kind, h):
    vocab = Vocabulary(sorted({lb for p in ewt_pairs for _, lbs in p for lb in lbs}))
    costs = _cost_sets(np.random.default_rng(5), len(vocab))[kind]
    _check_bitwise(ewt_pairs, vocab, costs, h)


@pytest.mark.slow
def test_wide_sweeps_bitwise_zss(h):
    """Trees whose keyroot tables are wider than one sweep: a flat tree of
    1,200 words (about 3,600 columns) and a caterpillar, against small trees
    on either side."""
    rng = np.random.default_rng(8)
    star = ([0] * 1200, [ALPHABET[int(x)] for x in rng.integers(0, 4, 1200)])
    # caterpillar: spine words 1, 3, 5, ... each under the previous one, each
    # with a leaf (the next word) before its spine child, so the spine
    # children are nested keyroots
    heads = []
    for k in range(60):
        heads += [0 if k == 0 else 2 * k - 1, 2 * k + 1]
    cat = (heads, [ALPHABET[int(x)] for x in rng.integers(0, 4, len(heads))])
    small = [(random_heads(rng, n), random_labels(rng, n)) for n in (1, 6)]
    pairs = [(s, big) for big in (star, cat) for s in small] + \
            [(big, s) for big in (star, cat) for s in small[:1]]
    vocab = Vocabulary(ALPHABET)
    built = [dependency_tree(dep(*x), vocab) for x in (star, cat)]
    sweep = max(KN.CHUNK_COLS, 1201 + 1)  # columns per sweep in this pack (_work)
    assert all(t.cost_left + t.keyroots.shape[0] > sweep for t in built)
    for kind, costs in _cost_sets(rng, len(vocab)).items():
        _check_bitwise(pairs, vocab, costs, h)


def test_kernel_paths_agree_on_integral_costs(random_built):
    """int32 cells (unit), float cells with unit renames (costs given as a
    rename matrix of 0/1) and the general path: the same integers."""
    vocab, trees = random_built
    L = len(vocab)
    pack = T.TreePack(trees[:400])
    i, j = np.arange(0, 400, 2), np.arange(1, 400, 2)
    unit = T.Costs.unit(L)
    as_matrix = T.Costs(unit.delete, unit.insert, 1.0 - np.eye(L))
    a = T.pair_distances(pack, i, j, unit)
    b = T.pair_distances(pack, i, j, as_matrix)
    assert np.array_equal(a, b)
    assert np.array_equal(T.distance_matrix(pack, unit), T.distance_matrix(pack, as_matrix))
