"""Tests for synagree.perturb: dependency noise, phrase-structure noise, random trees."""
from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.noise.perturb import (
    CycleError,
    _MTree,
    is_tree,
    label_set,
    move_constituents,
    nonterminal_labels,
    perturb,
    perturb_phrase,
    postorder,
    random_heads,
    random_sentence,
    random_tree,
    reattach,
    relabel,
    relabel_phrase,
    repair_cycles,
)

LABELS = ["A", "B", "C", "D", "E", "F"]

# chi-square critical values at significance 0.001 (scipy.stats.chi2.ppf(0.999, df))
CHI2_999 = {2: 13.8155, 4: 18.4668, 5: 20.5150, 13: 34.5282, 15: 37.6973, 124: 178.4083}


def dep(heads, deprels=None, name="t") -> DepSentence:
    n = len(heads)
    deprels = list(deprels) if deprels is not None else [LABELS[i % len(LABELS)]
                                                          for i in range(n)]
    return DepSentence(file=name, index=0, line=1, forms=[f"w{i}" for i in range(1, n + 1)],
                       heads=np.asarray(heads, dtype=np.int32), deprels=deprels)


def independent_is_tree(heads) -> bool:
    """Every word reaches 0 by following heads within n steps (no cycle)."""
    n = len(heads)
    for w in range(1, n + 1):
        v, steps = w, 0
        while v != 0:
            h = int(heads[v - 1])
            if not 0 <= h <= n or h == v:
                return False
            v = h
            steps += 1
            if steps > n:
                return False
    return True


def random_dep(rng, n_max=25) -> DepSentence:
    n = int(rng.integers(1, n_max + 1))
    heads, labs = random_tree(n, LABELS, rng)
    return dep(heads, labs)


def chi2(counts, expected) -> float:
    counts = np.asarray(counts, dtype=float)
    return float(((counts - expected) ** 2 / expected).sum())


class StubRng:
    """Stands in for a Generator: random(shape) returns the given block."""

    def __init__(self, block):
        self.block = np.asarray(block, dtype=float)

    def random(self, shape):
        assert tuple(np.shape(self.block)) == tuple(shape), (np.shape(self.block), shape)
        return self.block


# --------------------------------------------------------------------------
# Dependency: helpers
# --------------------------------------------------------------------------

def test_postorder_children_first_siblings_left_to_right():
    # 0 -> 2 ; 2 -> 1, 4 ; 4 -> 3
    order, off = postorder([2, 0, 4, 2])
    assert order == [1, 3, 4, 2] and off == []


def test_postorder_reports_words_off_the_tree():
    order, off = postorder([0, 3, 2, 3])  # 2 <-> 3 cycle, 4 under it
    assert order == [1] and off == [2, 3, 4]


@pytest.mark.parametrize("heads, moved, fixed", [
    ([0, 3, 2], [2], [0, 0, 2]),          # two words heading each other
    ([0, 2], [2], [0, 0]),                 # a word heading itself
    ([2, 3, 1, 1], [1], [0, 3, 1, 1]),     # 3-cycle with a word under it
    ([2, 1, 4, 3], [1, 3], [0, 1, 0, 3]),  # two separate cycles
])
def test_repair_cycles(heads, moved, fixed):
    s, words = repair_cycles(dep(heads))
    assert words == moved
    assert s.heads.tolist() == fixed
    assert is_tree(s.heads) and independent_is_tree(s.heads)


def test_repair_leaves_trees_alone():
    s = dep([2, 0, 2])
    out, words = repair_cycles(s)
    assert out is s and words == []


# --------------------------------------------------------------------------
# Dependency: reattach
# --------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("exclude", [False, True])
def test_reattach_always_yields_a_tree(exclude):
    rng = np.random.default_rng(1234 + exclude)
    for k in range(2500):
        s = random_dep(rng)
        p = (0.2, 0.6, 1.0)[k % 3]
        out = reattach(s, p, rng, exclude_current=exclude)
        assert out.n_words == s.n_words
        assert out.heads.dtype == np.int32
        assert independent_is_tree(out.heads), (s.heads, out.heads)
        assert out.deprels == s.deprels  # labels untouched
        assert s.heads is not out.heads


@pytest.mark.slow
def test_reattach_on_real_shapes_and_both():
    rng = np.random.default_rng(7)
    for _ in range(1500):
        s = random_dep(rng, 40)
        out = perturb(s, 0.5, 1.0, LABELS, rng)
        assert independent_is_tree(out.heads)


def test_reattach_follows_the_tree_as_it_stands():
    """Hand-checked walk: 'w1 w2 w3' with 2 the root word, 1 and 3 under it.

    Post-order 1, 3, 2.  Word 1 (dominates {1}) draws from [0, 2, 3]; pick .99 -> 3.
    Word 3 now dominates {3, 1}: draws from [0, 2]; pick 0 -> 0.  Word 2 now
    dominates only {2}: draws from [0, 1, 3]; pick .5 -> 1.
    """
    s = dep([2, 0, 2])
    block = [[1, 0, 0.0, 0.99],   # row 0 = word 1
             [1, 0, 0.0, 0.0],    # row 1 = word 3
             [1, 0, 0.0, 0.5]]    # row 2 = word 2
    out = reattach(s, 1.0, StubRng(block))
    assert out.heads.tolist() == [3, 1, 0]
    assert independent_is_tree(out.heads)


def test_reattach_coin_and_exclude_current_head():
    s = dep([2, 0, 2])
    # coins above p: nothing moves
    assert reattach(s, 0.5, StubRng([[0, 0, 0.7, 0.1]] * 3)).heads.tolist() == [2, 0, 2]
    # word 1 candidates [0, 2, 3]; pick 0.5 -> 2 = the old head (allowed by default)
    block = [[0, 0, 0.0, 0.5], [0, 0, 0.9, 0], [0, 0, 0.9, 0]]
    assert reattach(s, 0.5, StubRng(block)).heads.tolist() == [2, 0, 2]
    # excluding the current head: candidates [0, 3]; pick 0.5 -> 3
    out = reattach(s, 0.5, StubRng(block), exclude_current=True)
    assert out.heads.tolist() == [3, 0, 2]


def test_reattach_first_leaf_candidates():
    """The first word visited is a leaf: it may go under any of the n other tokens."""
    s = dep([2, 0, 2, 3, 2])  # post-order starts with word 1 (a leaf)
    got = []
    for j in range(5):
        block = np.full((5, 4), 0.99)
        block[0] = [0.99, 0, 0.0, (j + 0.5) / 5]
        got.append(int(reattach(s, 0.5, StubRng(block)).heads[0]))
    assert got == [0, 2, 3, 4, 5]


@pytest.mark.slow
def test_reattach_head_distribution_chi_square():
    """Word 1 (a leaf, visited first) of a 5-word tree: new head uniform over 5 tokens."""
    s = dep([2, 0, 2, 3, 2])
    rng = np.random.default_rng(11)
    trials = 10000
    counts = Counter()
    for _ in range(trials):
        block = rng.random((5, 4))
        block[1:, 2] = 1.0  # coins of the other words fail
        block[0, 2] = 0.0
        counts[int(reattach(s, 0.5, StubRng(block)).heads[0])] += 1
    assert set(counts) == {0, 2, 3, 4, 5}
    obs = [counts[k] for k in (0, 2, 3, 4, 5)]
    assert chi2(obs, trials / 5) < CHI2_999[4]
    # and with a real generator at p = 1 every result is a tree
    for _ in range(500):
        assert independent_is_tree(reattach(s, 1.0, rng).heads)


def test_reattach_rejects_or_repairs_cycles():
    s = dep([0, 3, 2, 3])
    with pytest.raises(CycleError) as ei:
        reattach(s, 0.5, np.random.default_rng(0))
    assert "2, 3, 4" in str(ei.value)
    out = reattach(s, 0.5, np.random.default_rng(0), on_cycle="repair")
    assert independent_is_tree(out.heads)
    # p = 0 with a cycle and repair: the repaired tree comes back
    out0 = perturb(s, 0.0, 0.0, LABELS, np.random.default_rng(0), on_cycle="repair")
    assert out0.heads.tolist() == s.heads.tolist()  # p_reattach = 0 looks at no structure


def test_relabel_accepts_cycles():
    s = dep([0, 3, 2])
    out = relabel(s, 1.0, LABELS, np.random.default_rng(0))
    assert out.heads.tolist() == [0, 3, 2]
    assert all(lab in LABELS for lab in out.deprels)


# --------------------------------------------------------------------------
# Dependency: relabel, identity, reproducibility
# --------------------------------------------------------------------------

def test_relabel_keeps_structure_and_draws_from_the_label_set():
    rng = np.random.default_rng(5)
    changed = same = 0
    for _ in range(500):
        s = random_dep(rng)
        out = relabel(s, 1.0, LABELS, rng)
        assert out.heads.tolist() == s.heads.tolist()
        assert all(lab in LABELS for lab in out.deprels)
        for a, b in zip(s.deprels, out.deprels):
            same += a == b
            changed += a != b
    # the drawn label equals the old one with probability 1/|labels|
    share = same / (same + changed)
    assert abs(share - 1 / len(LABELS)) < 0.02


def test_relabel_exclude_current_always_changes():
    rng = np.random.default_rng(6)
    for _ in range(200):
        s = random_dep(rng)
        out = relabel(s, 1.0, LABELS, rng, exclude_current=True)
        assert all(a != b for a, b in zip(s.deprels, out.deprels))
    # and stays uniform over the other labels
    s = dep([0], ["C"])
    counts = Counter(relabel(s, 1.0, LABELS, rng, exclude_current=True).deprels[0]
                     for _ in range(6000))
    assert set(counts) == set(LABELS) - {"C"}
    assert chi2(list(counts.values()), 6000 / 5) < CHI2_999[4]


def test_relabel_single_label_set_with_exclusion_keeps_label():
    s = dep([0, 1], ["A", "A"])
    out = relabel(s, 1.0, ["A"], np.random.default_rng(0), exclude_current=True)
    assert out.deprels == ["A", "A"]


def test_relabel_coin_rate():
    rng = np.random.default_rng(8)
    s = dep(random_heads(400, rng), ["ZZ"] * 400)
    out = relabel(s, 0.3, LABELS, rng)
    rate = sum(d != "ZZ" for d in out.deprels) / 400
    assert abs(rate - 0.3) < 0.08


@pytest.mark.parametrize("fn", ["perturb", "relabel", "reattach"])
def test_p_zero_is_identity(fn):
    rng = np.random.default_rng(9)
    for _ in range(200):
        s = random_dep(rng)
        if fn == "perturb":
            out = perturb(s, 0.0, 0.0, LABELS, rng)
        elif fn == "relabel":
            out = relabel(s, 0.0, LABELS, rng)
        else:
            out = reattach(s, 0.0, rng)
        assert out.heads.tolist() == s.heads.tolist()
        assert out.deprels == s.deprels
        assert out.forms == s.forms


def test_same_seed_same_output_and_input_untouched():
    rng = np.random.default_rng(10)
    sents = [random_dep(rng) for _ in range(50)]
    before = [(s.heads.copy(), list(s.deprels)) for s in sents]

    def run(seed):
        g = np.random.default_rng(seed)
        return [perturb(s, 0.4, 0.4, LABELS, g) for s in sents]

    a, b, c = run(42), run(42), run(43)
    assert all(x.heads.tolist() == y.heads.tolist() and x.deprels == y.deprels
               for x, y in zip(a, b))
    assert any(x.heads.tolist() != y.heads.tolist() or x.deprels != y.deprels
               for x, y in zip(a, c))
    for s, (h, d) in zip(sents, before):
        assert s.heads.tolist() == h.tolist() and s.deprels == d


def test_halves_are_perturb_with_the_other_probability_zero():
    rng = np.random.default_rng(12)
    for _ in range(100):
        s = random_dep(rng)
        seed = int(rng.integers(1 << 30))
        a = relabel(s, 0.5, LABELS, np.random.default_rng(seed))
        b = perturb(s, 0.5, 0.0, LABELS, np.random.default_rng(seed))
        assert a.deprels == b.deprels and a.heads.tolist() == b.heads.tolist()
        a = reattach(s, 0.5, np.random.default_rng(seed))
        b = perturb(s, 0.0, 0.5, LABELS, np.random.default_rng(seed))
        assert a.heads.tolist() == b.heads.tolist()


def test_bad_probabilities():
    s = dep([0])
    with pytest.raises(ValueError):
        perturb(s, 1.5, 0, LABELS, np.random.default_rng(0))
    with pytest.raises(ValueError):
        perturb(s, 0, -0.1, LABELS, np.random.default_rng(0))
    with pytest.raises(ValueError):
        relabel(s, 0.5, [], np.random.default_rng(0))


def test_label_set():
    assert label_set([dep([0, 1], ["b", "a"]), dep([0], ["c"])]) == ["a", "b", "c"]


# --------------------------------------------------------------------------
# Uniform random trees
# --------------------------------------------------------------------------

def all_rooted_trees(n):
    """Every head array on n words that is a tree rooted at 0."""
    return [h for h in itertools.product(range(n + 1), repeat=n)
            if all(h[i] != i + 1 for i in range(n)) and independent_is_tree(h)]


@pytest.mark.slow
@pytest.mark.parametrize("n, draws", [(3, 16000), (4, 25000)])
def test_random_heads_uniform(n, draws):
    trees = all_rooted_trees(n)
    assert len(trees) == (n + 1) ** (n - 1)  # Cayley: 16 for n = 3, 125 for n = 4
    rng = np.random.default_rng(2024 + n)
    counts = Counter(tuple(random_heads(n, rng).tolist()) for _ in range(draws))
    assert set(counts) == set(trees)  # every tree appears, nothing else does
    stat = chi2([counts[t] for t in trees], draws / len(trees))
    assert stat < CHI2_999[len(trees) - 1], stat


def test_random_heads_small_and_valid():
    rng = np.random.default_rng(1)
    assert random_heads(0, rng).tolist() == []
    assert random_heads(1, rng).tolist() == [0]
    for n in range(2, 60):
        assert independent_is_tree(random_heads(n, rng))


def test_random_tree_labels_uniform_and_sentence():
    rng = np.random.default_rng(4)
    heads, labs = random_tree(3000, LABELS, rng)
    assert independent_is_tree(heads)
    counts = Counter(labs)
    assert chi2([counts[x] for x in LABELS], 3000 / len(LABELS)) < CHI2_999[5]
    s = dep([2, 0, 2])
    r = random_sentence(s, LABELS, rng)
    assert r.forms == s.forms and independent_is_tree(r.heads) and len(r.deprels) == 3


# --------------------------------------------------------------------------
# Phrase structure
# --------------------------------------------------------------------------

def parse(text: str) -> PhraseNode:
    toks = text.replace("(", " ( ").replace(")", " ) ").split()
    pos = 0

    def node():
        nonlocal pos
        assert toks[pos] == "("
        label = toks[pos + 1]
        pos += 2
        kids = []
        while toks[pos] != ")":
            if toks[pos] == "(":
                kids.append(node())
            else:
                kids.append(PhraseNode(toks[pos]))
                pos += 1
        pos += 1
        return PhraseNode(label, kids)

    return node()


def psent(text: str) -> PhraseSentence:
    return PhraseSentence(file="t", index=0, line=1, root=parse(text))


def leaves(node: PhraseNode):
    if not node.children:
        return [node.label]
    return [x for c in node.children for x in leaves(c)]


def internal_labels(node: PhraseNode):
    if not node.children:
        return []
    return [node.label] + [x for c in node.children for x in internal_labels(c)]


def count_nodes(node: PhraseNode) -> int:
    return 1 + sum(count_nodes(c) for c in node.children)


def shape(node: PhraseNode):
    return (node.label, tuple(shape(c) for c in node.children))


def well_formed(node: PhraseNode, seen=None) -> bool:
    seen = set() if seen is None else seen
    if id(node) in seen:
        return False
    seen.add(id(node))
    return all(well_formed(c, seen) for c in node.children)


def random_phrase(rng, n_leaves=None) -> PhraseSentence:
    """A random bracketing with random labels over random leaf categories."""
    n = int(n_leaves or rng.integers(1, 12))
    nodes = [PhraseNode(f"T{int(rng.integers(5))}") for _ in range(n)]
    # repeatedly group adjacent runs under new non-terminals
    while len(nodes) > 1:
        i = int(rng.integers(len(nodes)))
        j = int(rng.integers(i + 1, len(nodes) + 1))
        nodes[i:j] = [PhraseNode(f"N{int(rng.integers(4))}", nodes[i:j])]
    root = nodes[0]
    if not root.children:
        root = PhraseNode("S", [root])
    return PhraseSentence(file="t", index=0, line=1, root=root)


PH_LABELS = ["S", "NP", "VP", "PP", "N0", "N1", "N2", "N3"]


def test_phrase_perturbation_keeps_leaves_in_order():
    rng = np.random.default_rng(21)
    moved = 0
    for k in range(1500):
        s = random_phrase(rng)
        p = (0.3, 0.7, 1.0)[k % 3]
        out = perturb_phrase(s, p, p, PH_LABELS, rng)
        assert leaves(out.root) == leaves(s.root)
        assert count_nodes(out.root) == count_nodes(s.root)
        assert well_formed(out.root)
        # non-terminals stay non-terminals: as many internal nodes as before
        assert len(internal_labels(out.root)) == len(internal_labels(s.root))
        moved += shape(out.root) != shape(s.root)
    assert moved > 500


def test_phrase_p_zero_identity_and_relabel_only():
    rng = np.random.default_rng(22)
    for _ in range(200):
        s = random_phrase(rng)
        assert shape(perturb_phrase(s, 0, 0, PH_LABELS, rng).root) == shape(s.root)
        out = relabel_phrase(s, 1.0, PH_LABELS, rng)
        # same bracketing, same leaves, internal labels from the set
        strip = lambda n: tuple(strip(c) for c in n.children)  # noqa: E731
        assert strip(out.root) == strip(s.root)
        assert leaves(out.root) == leaves(s.root)
        assert all(lab in PH_LABELS for lab in internal_labels(out.root))


def test_phrase_same_seed_same_output():
    rng = np.random.default_rng(23)
    sents = [random_phrase(rng) for _ in range(30)]
    a = [shape(perturb_phrase(s, .5, .5, PH_LABELS, np.random.default_rng(1)).root)
         for s in sents]
    b = [shape(perturb_phrase(s, .5, .5, PH_LABELS, np.random.default_rng(1)).root)
         for s in sents]
    assert a == b


def _brute_force_positions(tree: _MTree, x: int):
    """All (node, index) insertion points of x that keep the leaves, found by trying."""
    want = [tree.labels[v] for v in tree.postorder() if tree.is_leaf[v]]
    leaf_ids = [v for v in tree.postorder() if tree.is_leaf[v]]
    d = tree.detach(x)
    if d is None:
        return []
    par, pos = d[0], d[1]
    inside = set()
    stack = [x]
    while stack:
        v = stack.pop()
        inside.add(v)
        stack.extend(tree.children[v])
    found = []
    for y in range(len(tree.labels)):
        if y in inside or tree.is_leaf[y]:
            continue
        # y must still be in the tree (reachable from the root)
        if y not in set(tree.postorder()):
            continue
        for k in range(len(tree.children[y]) + 1):
            tree.children[y].insert(k, x)
            order = [v for v in tree.postorder() if tree.is_leaf[v]]
            if order == leaf_ids and (y, k) != (par, pos):
                found.append((y, k))
            del tree.children[y][k]
    tree.children[par].insert(pos, x)
    assert [tree.labels[v] for v in tree.postorder() if tree.is_leaf[v]] == want
    return sorted(found)


@pytest.mark.slow
def test_move_candidates_are_exactly_the_leaf_preserving_positions():
    rng = np.random.default_rng(24)
    for _ in range(300):
        s = random_phrase(rng)
        t = _MTree(s.root)
        for x in range(1, len(t.labels)):
            assert t.move_candidates(x) == _brute_force_positions(t, x)


def test_move_raise_and_lower_example():
    # (S (NP D N) (VP V (NP D N))): moving the VP's V ...
    s = psent("(S (NP D N) (VP V (NP D N)))")
    t = _MTree(s.root)
    ids = {i: (t.labels[i], t.parent[i]) for i in range(len(t.labels))}
    v = next(i for i, (lab, _) in ids.items() if lab == "V")
    vp = t.parent[v]
    np1 = next(i for i, (lab, par) in ids.items() if lab == "NP" and par == 0)
    np2 = next(i for i, (lab, par) in ids.items() if lab == "NP" and par == vp)
    cands = t.move_candidates(v)
    # raise V to S (between NP and VP), lower it into the first NP (last child)
    # or into the VP's NP (first child)
    assert set(cands) == {(0, 1), (np1, 2), (np2, 0)}
    out = move_constituents(s, 1.0, np.random.default_rng(0))
    assert leaves(out.root) == ["D", "N", "V", "D", "N"]


def test_only_children_do_not_move():
    s = psent("(S (NP (N x)))")  # a unary chain: nothing can move
    out = move_constituents(s, 1.0, np.random.default_rng(0))
    assert shape(out.root) == shape(s.root)


def test_nonterminal_labels():
    assert nonterminal_labels([psent("(S (NP D N) (VP V))")]) == ["NP", "S", "VP"]


# --------------------------------------------------------------------------
# The "reject" reading of reattachment
# --------------------------------------------------------------------------

@pytest.mark.slow
def test_reject_draw_always_yields_a_tree_and_keeps_heads_more_often():
    """draw='reject' (uniform over all tokens, old head kept on a would-be cycle)
    is a tree every time; it keeps the original head more often than the SPEC
    draw, since every rejected draw keeps it."""
    rng = np.random.default_rng(77)
    kept = {"nondominated": 0, "reject": 0}
    total = 0
    for k in range(1500):
        s = random_dep(rng)
        seed = int(rng.integers(1 << 30))
        for draw in kept:
            out = reattach(s, 1.0, np.random.default_rng(seed), draw=draw)
            assert independent_is_tree(out.heads)
            kept[draw] += int(np.count_nonzero(out.heads == s.heads))
        total += s.n_words
    assert kept["reject"] > 1.3 * kept["nondominated"]


def test_reject_draw_first_word_by_hand():
    """A chain 0 <- 1 <- 2 (word 2 under word 1).  Post-order visits word 2
    first; it dominates only itself, so with 'reject' the draw over {0, 1, 2}
    keeps the head exactly when it hits 2 (itself) or 1 (its head): u in
    [1/3, 1) keeps head 1; u < 1/3 moves it to the root."""
    s = DepSentence("<t>", 0, 0, ["a", "b"], np.array([0, 1], np.int32), ["x", "y"])

    class FixedRng:
        def __init__(self, u):
            self.u = u

        def random(self, shape):
            a = np.zeros(shape)
            a[:, 3] = self.u
            return a  # coins column 2 = 0 < p: always reattach

    assert reattach(s, 1.0, FixedRng(0.1), draw="reject").heads.tolist()[1] == 0
    assert reattach(s, 1.0, FixedRng(0.5), draw="reject").heads.tolist()[1] == 1
    assert reattach(s, 1.0, FixedRng(0.9), draw="reject").heads.tolist()[1] == 1
