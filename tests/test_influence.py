"""Unit influence (α without each sentence, from the unit sums) and annotator influence.

Hand-checked fixture tests/data/extras (two annotators a, b; every tree has
|t| = 4, so diff = plain and norm = plain / 8, and the three α coincide):

    s1  a: very → old → dogs; b: very → dogs, old → very (different heads for
        two words), yet both are T = ε(root(mod(mod))): TED 0
    s2  A2 = ε(root(nsubj, obj)), B2 = ε(root(obj, obj)),   TED 1
    s3  A3 = ε(root(obj, obl)),   B3 = ε(root(obj(nmod))),  TED 2

TED between values of different units: T–A2 3, T–B2 3, T–A3 3, T–B3 2,
A2–A3 2, A2–B3 2, B2–A3 1, B2–B3 2 (T stands for each of the two s1 trees).
Σ over unordered pairs of TED² = 80, so de_sum = 160, n = 6, D_e = 16/3;
do_sum = 2·1 + 2·4 = 10, D_o = 5/3, α = 1 − 5/16 = 11/16.

Leaving a unit out (``full[u]`` = Σ over its values of δ² to every value):

    s1: full = 62, diag = 0: D_o' = 10/4, D_e' = (160 − 124)/12 = 3    → α = 1/6
    s2: full = 51, diag = 2: D_o' = 8/4,  D_e' = (160 − 102 + 2)/12 = 5 → α = 3/5
    s3: full = 47, diag = 8: D_o' = 2/4,  D_e' = (160 − 94 + 8)/12     → α = 34/37
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from synagree.agreement import influence, qa
from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.base.metrics import is_registered
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus, Unit
from synagree.stats.alpha import VARIANTS, tree_alpha
from synagree.trees.flat import Vocabulary, build_tree

DATA = Path(__file__).resolve().parent / "data"
EXTRAS = DATA / "extras"
QA = DATA / "qa"
ALPHA = 11 / 16
WITHOUT = {"s1": 1 / 6, "s2": 3 / 5, "s3": 34 / 37}


@pytest.fixture(scope="module")
def extras():
    return agree_corpus(load_corpus([EXTRAS / "a.conllu", EXTRAS / "b.conllu"]))


@pytest.fixture(scope="module")
def three():
    corpus = load_corpus([QA / f"{n}.conllu" for n in ("anna", "bert", "cleo")],
                         allow_missing=True)
    return agree_corpus(corpus)


def test_fixture_hand_values(extras):
    for v in VARIANTS:
        assert extras.alpha[v].alpha == pytest.approx(ALPHA, abs=1e-14)
    sums = extras.tree_alpha.sums
    assert sums.full[:, 0].tolist() == [62.0, 51.0, 47.0]
    assert sums.diag[:, 0].tolist() == [0.0, 2.0, 8.0]
    infl = influence.unit_influence(extras)
    assert [x.label for x in infl] == ["s1", "s2", "s3"]
    for x in infl:
        for v in VARIANTS:
            assert x.alpha_without[v] == pytest.approx(WITHOUT[x.label], abs=1e-12)
            assert x.delta[v] == pytest.approx(WITHOUT[x.label] - ALPHA, abs=1e-12)
    assert [x.label for x in influence.rank_by_influence(infl)] == ["s3", "s2", "s1"]


def test_full_rows_match_unit_matrix_and_leave_alpha_bit_identical():
    corpus = load_corpus([EXTRAS / "a.conllu", EXTRAS / "b.conllu"])
    units = _random_units(random.Random(3), 12)
    for tile in (1, 2, 5, 512):
        plain = tree_alpha(units, tile=tile)
        both = tree_alpha(units, tile=tile, full_rows=True, keep_unit_matrix=True)
        for v in VARIANTS:  # the accumulator does not touch the sums behind α
            assert plain.stats[v].de_sum == both.stats[v].de_sum
            assert plain.stats[v].do_sum == both.stats[v].do_sum
        np.testing.assert_allclose(both.sums.full, both.sums.S.sum(axis=2).T, rtol=1e-12)
        np.testing.assert_allclose(both.sums.full.sum(axis=0), both.sums.de_sum(), rtol=1e-12)
    assert agree_corpus(corpus).tree_alpha.sums.full is not None


# --------------------------------------------------------------------------
# Brute force: drop the unit, recompute α from scratch
# --------------------------------------------------------------------------

def _sent(heads, labels):
    n = len(heads)
    return DepSentence("-", 0, 1, [f"w{i + 1}" for i in range(n)], np.array(heads), labels)


def _random_tree(rng, n, labels=("a", "b", "c")):
    heads = [0] + [rng.randint(1, i) for i in range(1, n)]  # word i+1 under an earlier word
    perm = list(range(1, n + 1))
    rng.shuffle(perm)  # relabel positions so heads point both ways
    pos = {old: new for old, new in zip(range(1, n + 1), perm)}
    out = [0] * n
    for old in range(1, n + 1):
        h = heads[old - 1]
        out[pos[old] - 1] = 0 if h == 0 else pos[h]
    return _sent(out, [rng.choice(labels) for _ in range(n)])


def _random_units(rng, U, max_m=4):
    vocab = Vocabulary()
    units = []
    for _ in range(U):
        n = rng.randint(1, 5)
        base = _random_tree(rng, n)
        m = rng.randint(1, max_m)  # m = 1: not pairable, takes no part
        anns = [base if rng.random() < 0.4 else _random_tree(rng, n) for _ in range(m)]
        units.append([build_tree(s, vocab) for s in anns])
    return units


def _brute(units, drop, variants=VARIANTS):
    rest = [u for k, u in enumerate(units) if k != drop]
    st = tree_alpha(rest, variants).stats
    return {v: st[v].alpha for v in variants}


@pytest.mark.parametrize("seed", range(6))
def test_sums_match_brute_force_on_random_corpora(seed):
    rng = random.Random(seed)
    units = _random_units(rng, rng.randint(3, 9))
    pairable = [u for u in units if len(u) >= 2]
    if len(pairable) < 2:
        pytest.skip("fewer than two pairable units drawn")
    ta = tree_alpha(pairable, full_rows=True, tile=2)
    without = influence.alpha_without_units(ta.sums)
    for k in range(len(pairable)):
        want = _brute(pairable, k)
        for v in VARIANTS:
            got = without[v][k]
            if want[v] is None:
                assert got is None, (seed, k, v)
            else:
                assert got == pytest.approx(want[v], abs=1e-9), (seed, k, v)


def test_sums_match_textbook_alpha_with_zss(h):
    """Independent of synagree's TED and α code: zss distances, textbook double loop."""
    rng = random.Random(42)
    raw = []
    for _ in range(5):
        n = rng.randint(1, 4)
        raw.append([_random_tree(rng, n) for _ in range(rng.choice([2, 3]))])
    vocab = Vocabulary()
    units = [[build_tree(s, vocab) for s in u] for u in raw]
    ta = tree_alpha(units, full_rows=True)
    without = influence.alpha_without_units(ta.sums)

    def value(s):
        return (h.zss_dep_tree(s.heads.tolist(), s.deprels), s.n_words + 1)

    def d2(variant):
        def f(x, y):
            t = h.zss_unit_distance(x[0], y[0])
            d = {"plain": t, "diff": t - abs(x[1] - y[1]), "norm": t / (x[1] + y[1])}[variant]
            return d * d
        return f

    values = [[value(s) for s in u] for u in raw]
    for k in range(len(raw)):
        rest = [u for j, u in enumerate(values) if j != k]
        for v in VARIANTS:
            want, _, _ = h.textbook_alpha(rest, d2(v))
            got = without[v][k]
            assert (got is None) == (want is None)
            if want is not None:
                assert got == pytest.approx(want, abs=1e-9), (k, v)


def test_degenerate_cases():
    vocab = Vocabulary()
    p = build_tree(_sent([0, 1], ["root", "obj"]), vocab)
    q = build_tree(_sent([0, 1], ["root", "subj"]), vocab)
    r = build_tree(_sent([0], ["root"]), vocab)
    # two units: without one, a single unit is left (α = 0 by construction)
    ta = tree_alpha([[p, q], [r, r]], full_rows=True)
    w = influence.alpha_without_units(ta.sums)
    assert w["plain"][1] == pytest.approx(0.0, abs=1e-12)
    assert w["plain"][0] is None  # only r, r left: D_e = 0
    # single unit: nothing left without it
    ta = tree_alpha([[p, q]], full_rows=True)
    assert influence.alpha_without_units(ta.sums)["plain"] == [None]
    with pytest.raises(ValueError):
        influence.alpha_without_units(tree_alpha([[p, q]]).sums)


def test_ndt_against_recomputation(iaa):
    """NDT (Danish, 130 sentences): α without a unit from the sums equals α recomputed
    without it, for 12 units (the most influential ones and a spread of the others)."""
    corpus = load_corpus([iaa / "ndt" / "odin-danish.conll", iaa / "ndt" / "thor-danish.conll"])
    res = agree_corpus(corpus)
    infl = influence.unit_influence(res)
    assert len(infl) == 130
    ranked = influence.rank_by_influence(infl)
    check = {x.index for x in ranked[:4] + ranked[-2:]} | set(range(0, 130, 22))
    units = [u for u in res.trees if len(u) >= 2]
    for k in sorted(check):
        want = _brute(units, k)
        for v in VARIANTS:
            assert infl[k].alpha_without[v] == pytest.approx(want[v], abs=1e-9), (k, v)
    # the published α is unchanged and the most influential unit raises α when dropped
    assert res.alpha["plain"].alpha == pytest.approx(0.983827037, abs=1e-9)
    assert ranked[0].delta["plain"] > 0 > ranked[-1].delta["plain"]


def test_sampled_de_has_no_unit_influence(extras):
    corpus = load_corpus([EXTRAS / "a.conllu", EXTRAS / "b.conllu"])
    res = agree_corpus(corpus, sample_pairs=500, worst=3, worst_by="influence")
    assert influence.unit_influence(res) is None
    assert all(not d.influence for d in qa.unit_diagnostics(res))
    assert res.annotator_influence is None and not res.worst.ranked_by_influence
    assert any("exact D_e" in n for n in res.notes)


# --------------------------------------------------------------------------
# Annotators
# --------------------------------------------------------------------------

def test_annotator_influence_hand_values(three, extras):
    """tests/data/qa/README.md: α = 9/16; without anna 0, bert 4/9, cleo 1."""
    items = {x["annotator"]: x for x in qa.annotator_influence(three)}
    assert items["anna"]["influence"]["plain"] == pytest.approx(-9 / 16, abs=1e-12)
    assert items["bert"]["influence"]["plain"] == pytest.approx(4 / 9 - 9 / 16, abs=1e-12)
    assert items["cleo"]["alpha_without"]["norm"] == pytest.approx(1.0)
    assert items["bert"]["units"] == 3
    assert qa.annotator_influence(extras) == []  # two annotators: nothing left


def test_unit_influence_with_three_annotators_matches_brute_force(three):
    infl = influence.unit_influence(three)
    units = [u for u in three.trees if len(u) >= 2]
    for x in infl:
        want = _brute(units, x.index)
        for v in VARIANTS:
            assert (x.alpha_without[v] is None) == (want[v] is None)
            if want[v] is not None:
                assert x.alpha_without[v] == pytest.approx(want[v], abs=1e-12)
    assert infl[0].delta["plain"] == pytest.approx(1 - 9 / 16)  # without s1: D_o = 0


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------

def test_cli_worst_has_influence_columns(run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")  # wide enough for every header on one line
    rc, out, err = run_cli("agree", EXTRAS / "a.conllu", EXTRAS / "b.conllu", "--worst", "3")
    assert rc == 0, err
    lines = out.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("rank"))
    assert "change_plain" in lines[head]  # Δα if left out, a registered key
    assert is_registered("change_plain")
    assert lines[head + 1].split()[:2] == ["1", "s3"] and "+0.2314" in lines[head + 1]
    assert lines[head + 2].split()[:2] == ["2", "s2"] and "-0.0875" in lines[head + 2]


def test_cli_worst_by_influence_and_json(run_cli):
    args = ("agree", EXTRAS / "a.conllu", EXTRAS / "b.conllu", "--worst", "3",
            "--worst-by", "influence")
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    # (the rank column holds numbers: aligned right)
    rows = [ln.split()[1] for ln in out.splitlines()
            if ln.lstrip()[:1].isdigit() and "conllu" in ln]
    assert rows == ["s3", "s2", "s1"]  # s1 (TED 0) is ranked too: dropping it lowers α
    rc, out, err = run_cli(*args, "--output", "json")
    d = json.loads(out)
    worst = d["details"]["worst"]
    assert [w["uid"] for w in worst] == ["s3", "s2", "s1"]
    assert worst[2]["alpha_without"]["plain"] == pytest.approx(1 / 6)
    assert worst[0]["influence"]["diff"] == pytest.approx(34 / 37 - 11 / 16)


def test_cli_annotator_table_and_json(run_cli):
    files = [QA / f"{n}.conllu" for n in ("anna", "bert", "cleo")]
    rc, out, err = run_cli("agree", *files, "--allow-missing", "--worst", "2")
    assert rc == 0, err
    assert "Alpha without each annotator" in out
    row = next(ln for ln in out.splitlines() if ln.startswith("bert "))
    assert row.split()[1:3] == ["3", "0.4444"] and row.split()[-1] == "-0.1181"
    rc, out, err = run_cli("agree", *files, "--allow-missing", "--worst", "2",
                           "--output", "json")
    items = json.loads(out)["details"]["annotator_influence"]
    assert [x["annotator"] for x in items] == ["anna", "bert", "cleo"]
    assert items[2]["influence"]["plain"] == pytest.approx(7 / 16)
    # CSV would need two tables in one file: refused (JSON holds both)
    rc, out, err = run_cli("agree", *files, "--allow-missing", "--worst", "2", "--output", "csv")
    assert rc == 2 and out == ""



def test_in_memory_corpus_units():
    """Units built in code (no files) go through the same path."""
    a = _sent([0, 1], ["root", "obj"])
    b = _sent([0, 1], ["root", "subj"])
    c = _sent([0], ["root"])
    res = agree_corpus(Corpus(["x", "y"], [Unit("1", "d", {"x": a, "y": b}),
                                           Unit("2", "d", {"x": c, "y": c}),
                                           Unit("3", "d", {"x": c})], "dependency"))
    infl = influence.unit_influence(res)
    assert [x.position for x in infl] == [0, 1]  # the single-annotation unit takes no part
