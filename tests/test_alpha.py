"""Krippendorff's α: the published worked example, tree α against a brute-force
textbook computation over zss distances, and the degenerate cases (docs/method.md §4–5)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import synagree
from synagree import krippendorff_alpha, tree_alpha
from synagree.base.problems import InputError
from synagree.io.conllu import DepSentence
from synagree.trees.flat import Vocabulary, dependency_tree

# Krippendorff (2011, "Computing Krippendorff's alpha-reliability"), the
# 3-coder, 15-unit example with missing values ("*"), as in docs/method.md §5 / Wikipedia.
_RAW = {
    "A": "* * * * * 3 4 1 2 1 1 3 3 * 3",
    "B": "1 * 2 1 3 3 4 3 * * * * * * *",
    "C": "* * 2 1 3 4 4 * 2 1 1 3 3 * 4",
}
KRIPP = [[None if x == "*" else int(x) for x in row.split()] for row in _RAW.values()]


def test_worked_example_nominal(h):
    st = krippendorff_alpha(KRIPP, "nominal")
    assert round(st.alpha, 3) == 0.691
    # n: units 1, 2 and 14 have fewer than two values; the rest give 26 values
    assert st.n == 26
    assert st.units == 12
    want, _, _ = h.textbook_alpha(_units(KRIPP), lambda a, b: float(a != b))
    assert st.alpha == pytest.approx(want, abs=1e-12)


def test_worked_example_interval(h):
    st = krippendorff_alpha(KRIPP, "interval")
    assert round(st.alpha, 3) == 0.811
    want, _, _ = h.textbook_alpha(_units(KRIPP), lambda a, b: float(a - b) ** 2)
    assert st.alpha == pytest.approx(want, abs=1e-12)


def test_worked_example_missing_marker():
    """Missing values given as a marker instead of None give the same α."""
    data = [[("*" if x is None else x) for x in row] for row in KRIPP]
    assert krippendorff_alpha(data, "nominal", missing="*").alpha == pytest.approx(
        krippendorff_alpha(KRIPP, "nominal").alpha, abs=1e-15)


def test_callable_metric_matches_named(h):
    st = krippendorff_alpha(KRIPP, lambda a, b: 0.0 if a == b else 1.0)
    assert round(st.alpha, 3) == 0.691


def _units(data):
    n_units = max(len(r) for r in data)
    return [[r[u] for r in data if r[u] is not None] for u in range(n_units)]


def test_generic_alpha_random_against_textbook(h):
    rng = np.random.default_rng(11)
    for _ in range(30):
        coders, units = int(rng.integers(2, 5)), int(rng.integers(2, 12))
        data = [[None if rng.random() < 0.25 else int(rng.integers(0, 4)) for _ in range(units)]
                for _ in range(coders)]
        for metric, d2 in (("nominal", lambda a, b: float(a != b)),
                           ("interval", lambda a, b: float(a - b) ** 2)):
            want, _, _ = h.textbook_alpha(_units(data), d2)
            got = krippendorff_alpha(data, metric).alpha
            if want is None:
                assert got is None
            else:
                assert got == pytest.approx(want, abs=1e-12)


# --------------------------------------------------------------------------
# Tree α against brute force over zss distances
# --------------------------------------------------------------------------

def _random_heads(rng, n, cycle=False):
    heads = [0] * n
    placed = [0]
    for w in rng.permutation(np.arange(1, n + 1)):
        heads[int(w) - 1] = int(placed[int(rng.integers(0, len(placed)))])
        placed.append(int(w))
    if cycle and n >= 3:
        # two words heading each other: both (and anything under them) leave
        # the TED tree but still count in |t| (docs/method.md §2)
        a, b = (int(x) for x in rng.choice(np.arange(1, n + 1), size=2, replace=False))
        heads[a - 1], heads[b - 1] = b, a
        if not any(x == 0 for x in heads):
            heads[[i for i in range(n) if i + 1 not in (a, b)][0]] = 0
    return heads


def _perturb(rng, heads, labels):
    heads, labels = list(heads), list(labels)
    n = len(heads)
    for i in range(n):
        if rng.random() < 0.3:
            labels[i] = "abc"[int(rng.integers(0, 3))]
    if rng.random() < 0.5 and n >= 2:
        # re-attach one word to the root (stays a tree / keeps cycles as they are)
        heads[int(rng.integers(0, n))] = 0
    return heads, labels


def _dep(heads, labels):
    return DepSentence("mem", 0, 1, [f"w{i}" for i in range(len(heads))],
                       np.asarray(heads, dtype=np.int32), list(labels))


def _random_corpus(rng, n_units):
    """Units as lists of (heads, labels): 1–3 annotations per unit."""
    units = []
    for _ in range(n_units):
        n = int(rng.integers(1, 9))
        base = (_random_heads(rng, n, cycle=rng.random() < 0.15),
                ["abc"[int(x)] for x in rng.integers(0, 3, n)])
        m = int(rng.choice([1, 2, 2, 3, 3]))  # 1 = only one annotator: not pairable
        units.append([base] + [_perturb(rng, *base) for _ in range(m - 1)])
    return units


def _brute_alpha(h, units, variant):
    """Textbook α with δ from zss TED and |t| = words + 1."""
    trees = {}

    def d2(x, y):
        key = (id(x), id(y))
        if key not in trees:
            trees[key] = h.zss_unit_distance(h.zss_dep_tree(*x), h.zss_dep_tree(*y))
        t = trees[key]
        sx, sy = len(x[0]) + 1, len(y[0]) + 1
        if variant == "plain":
            d = t
        elif variant == "diff":
            d = t - abs(sx - sy)
        else:
            d = t / (sx + sy)
        return d * d

    return h.textbook_alpha(units, d2)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_tree_alpha_matches_brute_force(h, seed):
    rng = np.random.default_rng(1000 + seed)
    units = _random_corpus(rng, int(rng.integers(3, 10)))
    vocab = Vocabulary()
    tree_units = [[dependency_tree(_dep(*a), vocab) for a in u] for u in units]
    res = tree_alpha(tree_units)
    n_pairable = sum(len(u) for u in units if len(u) >= 2)
    for v in ("plain", "diff", "norm"):
        want, do, de = _brute_alpha(h, units, v)
        st = res.stats[v]
        assert st.n == n_pairable
        if want is None:
            assert st.alpha is None
            continue
        assert st.alpha == pytest.approx(want, abs=1e-9), (seed, v)
        assert st.d_o == pytest.approx(do, abs=1e-9)
        assert st.d_e == pytest.approx(de, abs=1e-9)


def test_random_corpora_cover_the_interesting_cases():
    """The seeds above do include missing annotations, 3-annotator units and cycles."""
    kinds = set()
    for seed in range(12):
        rng = np.random.default_rng(1000 + seed)
        for u in _random_corpus(rng, int(rng.integers(3, 10))):
            kinds.add(len(u))
            if any(len(set(range(1, len(hd) + 1)) - _reachable(hd)) for hd, _ in u):
                kinds.add("cycle")
    assert {1, 2, 3, "cycle"} <= kinds


def _reachable(heads):
    seen, stack = set(), [0]
    while stack:
        x = stack.pop()
        for i, hd in enumerate(heads, 1):
            if hd == x and i not in seen:
                seen.add(i)
                stack.append(i)
    return seen


def test_tree_alpha_variants_subset():
    vocab = Vocabulary()
    a = dependency_tree(_dep([0], ["a"]), vocab)
    b = dependency_tree(_dep([0, 1], ["a", "b"]), vocab)
    res = tree_alpha([[a, b], [b, b], [a, a]], variants=("plain",))
    assert set(res.stats) == {"plain"}
    with pytest.raises(ValueError):
        tree_alpha([[a, b]], variants=("bogus",))


def test_tree_alpha_by_hand():
    """Units {ε(a), ε(a(b))} and {ε(a(b)), ε(a(b))}: values x, y, y, y.

    TED(x, y) = 1 (insert b); |x| = 2, |y| = 3.
    plain: D_o = (1/4)·(2·1²/1) = 1/2; D_e = (2·3·1²)/(4·3) = 1/2 → α = 0.
    diff:  δ = 1 − 1 = 0 everywhere → D_e = 0 → undefined.
    norm:  δ = 1/5: D_o = (1/4)·2/25 = 1/50; D_e = 6/25/12 = 1/50 → α = 0.
    """
    vocab = Vocabulary()
    x = dependency_tree(_dep([0], ["a"]), vocab)
    y = dependency_tree(_dep([0, 1], ["a", "b"]), vocab)
    res = tree_alpha([[x, y], [y, y]])
    assert res.stats["plain"].alpha == pytest.approx(0.0, abs=1e-12)
    assert res.stats["plain"].d_o == pytest.approx(0.5)
    assert res.stats["plain"].d_e == pytest.approx(0.5)
    assert res.stats["diff"].alpha is None
    assert res.stats["norm"].alpha == pytest.approx(0.0, abs=1e-12)
    assert res.stats["norm"].d_e == pytest.approx(1 / 50)
    # adding a perfectly agreed different unit makes plain α positive:
    # values x,y,y,y,x,x: D_o = 2/6 = 1/3; D_e = 2·(3·3·1)/(6·5) = 3/5 → α = 4/9
    res2 = tree_alpha([[x, y], [y, y], [x, x]])
    assert res2.stats["plain"].alpha == pytest.approx(4 / 9, abs=1e-12)


# --------------------------------------------------------------------------
# Degenerate cases
# --------------------------------------------------------------------------

def test_all_trees_identical():
    vocab = Vocabulary()
    t = dependency_tree(_dep([0, 1], ["a", "b"]), vocab)
    res = tree_alpha([[t, t], [t, t, t]])
    for v in ("plain", "diff", "norm"):
        st = res.stats[v]
        assert st.alpha is None
        assert st.de_sum == 0
        assert any("D_e = 0" in n for n in st.notes)
    st = krippendorff_alpha([[1, 1, 1], [1, 1, 1]])
    assert st.alpha is None and st.notes


def test_one_unit_alpha_zero():
    vocab = Vocabulary()
    x = dependency_tree(_dep([0], ["a"]), vocab)
    y = dependency_tree(_dep([0, 1, 1], ["b", "c", "a"]), vocab)
    res = tree_alpha([[x, y]])
    for v in ("plain", "norm"):
        st = res.stats[v]
        assert st.alpha == pytest.approx(0.0, abs=1e-12)
        assert st.units == 1
        assert any("one unit" in n for n in st.notes)
    # with a third annotation in the same single unit: still 0 by construction
    z = dependency_tree(_dep([0, 1], ["a", "a"]), vocab)
    assert tree_alpha([[x, y, z]]).stats["plain"].alpha == pytest.approx(0.0, abs=1e-12)
    assert krippendorff_alpha([[1], [2]], "interval").alpha == pytest.approx(0.0, abs=1e-12)


def test_no_pairable_unit():
    vocab = Vocabulary()
    x = dependency_tree(_dep([0], ["a"]), vocab)
    y = dependency_tree(_dep([0, 1], ["a", "b"]), vocab)
    for units in ([[x], [y]], []):
        res = tree_alpha(units)
        for v in ("plain", "diff", "norm"):
            assert res.stats[v].alpha is None
            assert res.stats[v].n == 0
            assert any("no unit" in n for n in res.stats[v].notes)
    st = krippendorff_alpha([[1, None], [None, 2]])
    assert st.alpha is None and st.notes


def _identical_files(write, h):
    # every tree of the corpus is the same ε(root(obj)): D_e = 0
    text = h.conll_text([[(0, "root"), (1, "obj")], [(0, "root"), (1, "obj")]])
    return write("a.conllu", text), write("b.conllu", text)


def test_identical_files_api(write, h):
    a, b = _identical_files(write, h)
    res = synagree.agree([a, b])
    for v in ("plain", "diff", "norm"):
        assert res.alpha_value(v) is None
    assert res.scores.ratio("LAS_full") == 1.0
    assert any("D_e = 0" in n for n in res.notes)


def test_identical_annotations_different_sentences_alpha_one(write, h):
    """Perfect agreement with variation across sentences: D_o = 0 < D_e, α = 1."""
    text = h.conll_text([[(0, "root"), (1, "obj")], [(2, "nsubj"), (0, "root")]])
    res = synagree.agree([write("a.conllu", text), write("b.conllu", text)])
    assert res.alpha_value("plain") == 1.0


def test_cli_undefined_alpha(write, h, run_cli):
    a, b = _identical_files(write, h)
    rc, out, err = run_cli("agree", a, b)
    assert rc == 0, err
    assert "Traceback" not in err
    lines = {ln.split()[0]: ln for ln in out.splitlines() if ln.strip()}
    for v in ("plain", "diff", "norm"):  # absent, never zero: the mark, and a note why
        assert lines[f"alpha_{v}"].split()[1:] == ["–"]
        assert f"note: alpha_{v}: D_e = 0" in out and "α is undefined" in out
    assert "LAS_full     1.000000" in out
    rc, out, _ = run_cli("agree", a, b, "--output", "json")
    assert rc == 0
    data = json.loads(out)
    assert data["alpha_plain"] is None and data["LAS_full"] == 1.0
    rc, out, _ = run_cli("agree", a, b, "--output", "latex")
    assert rc == 0 and "--" in out


def test_cli_no_pairable_unit(tmp_path, h, run_cli):
    """Annotator directories that share no document: nothing to pair, which is an
    error (exit 2) that says what was found and how names are matched, not an
    "undefined" alpha with exit 0."""
    (tmp_path / "ann1").mkdir()
    (tmp_path / "ann2").mkdir()
    (tmp_path / "ann1" / "doc1.conllu").write_text(h.conll_text([[(0, "root")]]))
    (tmp_path / "ann2" / "doc2.conllu").write_text(h.conll_text([[(0, "root")]]))
    with pytest.raises(InputError) as ei:
        synagree.agree(dirs=[tmp_path / "ann1", tmp_path / "ann2"], allow_missing=True)
    assert ei.value.errors[0].kind == "no-pairable-units"
    rc, out, err = run_cli("agree", "--dirs", tmp_path / "ann1", tmp_path / "ann2")
    assert rc == 2 and out == ""
    assert "doc1.conllu" in err and "doc2.conllu" in err and "matched across directories" in err
    assert "Traceback" not in err
