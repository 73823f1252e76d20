"""Mathet et al.'s γ (synagree.stats.gamma, spans --coefficient gamma) against pygamma-agreement.

Oracles: the ``pygamma-agreement`` package (its example data, copied into
tests/data/gamma/ with its MIT licence, and constituent spans of bracketed
files), a brute-force search over every alignment of tiny continua, and a
brute-force assignment over every permutation.  pygamma computes in float32:
its observed disorder is compared with ours to 1e-6 (relative), and its best
alignment, re-evaluated in float64, to 1e-9.  With ``numpy.random.seed(s)``
pygamma draws the continua that ``RandomState(s)`` draws here, so the sampled
disorders are compared one by one; γ of different seeds within the sampling
error both state.
"""
from __future__ import annotations

import csv
import itertools
import json
import math
import random
from pathlib import Path
from typing import List, Tuple

import numpy as np
import pytest

from synagree.evaluation.span_alpha import read_spans
from synagree.evaluation.span_gamma import precision_level, span_gamma
from synagree.stats.gamma import (
    GammaTooLarge,
    _hungarian,
    best_disorder,
    dissimilarity_matrix,
    gamma,
    sample_continuum,
)

DATA = Path(__file__).parent / "data" / "gamma"
ROOT = Path(__file__).resolve().parents[1]
SMALL = ["AlexPaulSuzan.csv", "annotation_dalton.csv", "example_figure10.csv",
         "example_figure19.csv", "annotation_paul_suzann_alex_almost_same.csv"]

Rows = List[Tuple[str, str, float, float]]


def _csv_rows(name: str) -> Rows:
    with open(DATA / name, newline="") as fh:
        return [(r[0], r[1], float(r[2]), float(r[3])) for r in csv.reader(fh) if r]


def _units(rows: Rows) -> Tuple[List[np.ndarray], List[str]]:
    annotators = sorted({r[0] for r in rows})
    cats = sorted({r[1] for r in rows})
    out = []
    for a in annotators:
        us = sorted({(s, e, cats.index(c)) for x, c, s, e in rows if x == a})
        out.append(np.array(us, dtype=float).reshape(-1, 3))
    return out, cats


def _pygamma(rows: Rows, seed: int, samples: int = 30):
    pg = pytest.importorskip("pygamma_agreement", reason="pygamma-agreement (the oracle) is "
                             "not installed: pip install -e '.[test]'")
    from pyannote.core import Segment
    c = pg.Continuum()
    for a, cat, s, e in rows:
        c.add(a, Segment(s, e), cat)
    np.random.seed(seed)
    return c, c.compute_gamma(pg.CombinedCategoricalDissimilarity(), n_samples=samples)


def _float64_disorder(continuum, alignment) -> float:
    """pygamma's best alignment, its disorder recomputed in float64 (pygamma's formula)."""
    m = continuum.num_annotators
    c2n = m * (m - 1) // 2
    total = 0.0
    for ua in alignment.unitary_alignments:
        units = [u for _, u in ua.n_tuple]
        units += [None] * (m - len(units))
        cost = 0.0
        for u, v in itertools.combinations(units, 2):
            if u is None or v is None:
                cost += 1.0
                continue
            pos = ((abs(u.segment.start - v.segment.start) + abs(u.segment.end - v.segment.end))
                   / (u.segment.duration + v.segment.duration))
            cost += pos * pos + (u.annotation != v.annotation)
        total += cost / c2n
    return total / (continuum.num_units / m)


def _compare(rows: Rows, seed: int = 0, samples: int = 30) -> None:
    units, cats = _units(rows)
    ours = gamma(units, len(cats), n_samples=samples, seed=seed)
    c, theirs = _pygamma(rows, seed, samples)
    assert ours.observed == pytest.approx(_float64_disorder(c, theirs.best_alignment),
                                          rel=0, abs=1e-9)
    assert ours.observed == pytest.approx(float(theirs.observed_disorder), rel=1e-6)
    their_samples = [float(a.disorder) for a in theirs.chance_alignments]
    assert list(ours.samples) == pytest.approx(their_samples, rel=1e-5)
    assert ours.expected == pytest.approx(theirs.expected_disorder, rel=1e-5)
    assert ours.gamma == pytest.approx(float(theirs.gamma), abs=1e-5)
    lo, hi = ours.gamma_interval
    assert lo <= float(theirs.gamma) <= hi


@pytest.mark.slow
@pytest.mark.parametrize("name", SMALL)  # pygamma (the oracle) compiles with numba and solves ILPs
def test_equals_pygamma_on_its_examples(name):
    _compare(_csv_rows(name))


@pytest.mark.slow
def test_equals_pygamma_on_3by100():
    _compare(_csv_rows("3by100.csv"), samples=10)


@pytest.mark.slow  # pygamma (the oracle) compiles with numba and solves ILPs
def test_gamma_of_other_seeds_within_the_sampling_error():
    rows = _csv_rows("AlexPaulSuzan.csv")
    units, cats = _units(rows)
    ours = gamma(units, len(cats), n_samples=60, seed=7)
    _, theirs = _pygamma(rows, seed=3, samples=60)
    ts = [float(a.disorder) for a in theirs.chance_alignments]
    se = math.hypot(ours.expected_se, float(np.std(ts, ddof=1)) / math.sqrt(len(ts)))
    assert abs(ours.expected - float(np.mean(ts))) <= 3 * se
    assert ours.samples != tuple(ts)  # other continua, the same expectation


def _spans_rows(paths) -> Rows:
    got = read_spans(paths, None, "gamma")
    return [(a, lab, float(s), float(e)) for a in got.annotators
            for s, e, lab in got.spans[a] if e > s]


@pytest.mark.slow  # pygamma (the oracle)
@pytest.mark.parametrize("pair", [("spans/gold.tree", "spans/system.tree"),
                                  ("spans/gold.tree", "spans/system2.tree"),
                                  ("qa/phrase-a.tree", "qa/phrase-b.tree")])
def test_equals_pygamma_on_constituent_spans(pair):
    paths = [ROOT / "tests" / "data" / p for p in pair]
    rows = _spans_rows(paths)
    _compare(rows)
    res = span_gamma(paths, samples=2)
    units, cats = _units(rows)
    assert res.result.observed == gamma(units, len(cats), n_samples=2).observed
    assert res.categories == cats


@pytest.mark.slow  # pygamma (the oracle)
def test_equals_pygamma_on_word_spans():
    paths = [ROOT / "tests" / "data" / "spans" / n for n in ("gold.conllu", "system.conllu")]
    rows = _spans_rows(paths)
    assert rows and all(r[3] > r[2] for r in rows)
    _compare(rows)


@pytest.mark.slow  # pygamma (the oracle) compiles with numba and solves ILPs
def test_equals_pygamma_on_constituents_of_three_files():
    names = ["gold.tree", "system.tree", "system2.tree"]
    rows = _spans_rows([ROOT / "tests" / "data" / "spans" / n for n in names])
    _compare(rows, samples=10)


# --- independent oracles: brute force -------------------------------------------------

def _brute_force(units: List[np.ndarray]) -> float:
    """The least disorder over every partition of the units into unitary alignments."""
    m = len(units)
    c2n = m * (m - 1) // 2
    flat = [(a, tuple(u)) for a in range(m) for u in units[a]]

    def cost(group) -> float:
        slots = {a: u for a, u in group}
        total = 0.0
        for i, j in itertools.combinations(range(m), 2):
            if i not in slots or j not in slots:
                total += 1.0
            else:
                (s1, e1, c1), (s2, e2, c2) = slots[i], slots[j]
                pos = (abs(s1 - s2) + abs(e1 - e2)) / ((e1 - s1) + (e2 - s2))
                total += pos * pos + (c1 != c2)  # the paper's formula, written out
        return total / c2n

    best = math.inf

    def search(rest, acc):
        nonlocal best
        if acc >= best:
            return
        if not rest:
            best = acc
            return
        first, others = rest[0], rest[1:]
        for k in range(len(others) + 1):
            for mates in itertools.combinations(others, k):
                if len({a for a, _ in mates} | {first[0]}) != k + 1:
                    continue
                group = (first,) + mates
                search([x for x in others if x not in mates], acc + cost(group))

    search(flat, 0.0)
    return best / (len(flat) / m)


def _random_units(rng: random.Random, m: int, most: int) -> List[np.ndarray]:
    out = []
    for _ in range(m):
        rows = set()
        for _ in range(rng.randint(0, most)):
            s = rng.randint(0, 12)
            rows.add((float(s), float(s + rng.randint(1, 6)), float(rng.randint(0, 2))))
        out.append(np.array(sorted(rows), dtype=float).reshape(-1, 3))
    if not any(len(u) for u in out):
        out[0] = np.array([[0.0, 3.0, 0.0]])
    return out


@pytest.mark.parametrize("m,most", [(2, 4), (3, 3), (4, 2)])
def test_best_alignment_equals_brute_force(m, most):
    rng = random.Random(m)
    for _ in range(25):
        units = _random_units(rng, m, most)
        assert best_disorder(units) == pytest.approx(_brute_force(units), rel=0, abs=1e-9)


def test_dissimilarity_of_the_docstring():
    d = dissimilarity_matrix(np.array([[0.0, 10.0, 0]]), np.array([[5.0, 10.0, 1]]))
    assert d[0, 0] == pytest.approx((5 / 15) ** 2 + 1)


def test_hungarian_equals_every_permutation():
    rng = np.random.default_rng(1)
    for n in range(1, 7):
        for _ in range(10):
            cost = rng.integers(0, 9, size=(n, n)).astype(float)
            best = min(sum(cost[i, p[i]] for i in range(n))
                       for p in itertools.permutations(range(n)))
            assert _hungarian(cost) == pytest.approx(best, abs=1e-12)


def test_rectangular_hungarian_equals_every_injection():
    rng = np.random.default_rng(2)
    for n, m in [(1, 3), (2, 5), (3, 4), (4, 6)]:
        for _ in range(10):
            cost = rng.normal(size=(n, m)).round(3)
            best = min(sum(cost[i, p[i]] for i in range(n))
                       for p in itertools.permutations(range(m), n))
            assert _hungarian(cost) == pytest.approx(best, abs=1e-12)


def test_two_annotators_budget_is_on_the_assignment():
    a = np.array([[float(k), k + 1.0, 0] for k in range(20)])
    assert best_disorder([a, a.copy()]) == 0.0
    with pytest.raises(GammaTooLarge, match="20 x 20"):
        best_disorder([a, a.copy()], budget=100)


def test_sampler_is_reproducible_and_keeps_the_annotators():
    units, cats = _units(_csv_rows("AlexPaulSuzan.csv"))
    a = sample_continuum(units, len(cats), np.random.RandomState(5))
    b = sample_continuum(units, len(cats), np.random.RandomState(5))
    assert len(a) == len(units) and all(np.array_equal(x, y) for x, y in zip(a, b))
    assert sum(len(x) for x in a) > 0


def test_budget_refuses_instead_of_guessing():
    units, cats = _units(_csv_rows("AlexPaulSuzan.csv"))
    with pytest.raises(GammaTooLarge):
        best_disorder(units, budget=3)


def test_precision_level_draws_more_samples_as_pygamma():
    units, cats = _units(_csv_rows("example_figure10.csv"))
    r = gamma(units, len(cats), n_samples=5, seed=0, precision_level=0.02)
    first = r.samples[:5]
    cv = float(np.std(first) / np.mean(first))
    assert len(r.samples) == max(5, math.ceil((cv * 1.96 / 0.02) ** 2))
    assert precision_level("high") == 0.01 and precision_level("low") == 0.1


# --- the command ------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown", "latex"])
def test_cli_every_format(fmt, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli("spans", "tests/data/spans/gold.tree", "tests/data/spans/system.tree",
                           "--coefficient", "gamma", "--gamma-samples", "5", "--output", fmt)
    assert rc == 0, err
    if fmt == "json":
        d = json.loads(out)
        assert d["coefficient"] == "gamma" and len(d["disorder_samples"]) == 5
        assert d["gamma"] == pytest.approx(1 - d["observed_disorder"] / d["expected_disorder"])
        assert d["annotators"] == ["gold", "system"]
    else:
        assert "gamma" in out and "seed" in out


@pytest.mark.parametrize("args,message", [
    (["--gamma-samples", "5"], "--gamma-samples goes with --coefficient gamma"),
    (["--coefficient", "gamma", "--gamma-precision", "2"], "--gamma-precision '2'"),
    (["--coefficient", "gamma", "--bdm", "--hierarchy", "flat"], "not with --bdm"),
])
def test_bad_options_give_one_line(args, message, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli("spans", "tests/data/spans/gold.tree", "tests/data/spans/system.tree",
                           *args)
    assert rc == 2 and message in err and "Traceback" not in err and out == ""


def test_sample_count_out_of_range(run_cli, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises(SystemExit) as exc:
        run_cli("spans", "tests/data/spans/gold.tree", "tests/data/spans/system.tree",
                "--coefficient", "gamma", "--gamma-samples", "1")
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--gamma-samples: must be a whole number from 2 to" in err


def test_above_the_budget_is_an_error_with_a_hint(run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli("spans", "tests/data/spans/gold.tree", "tests/data/spans/system.tree",
                           "tests/data/spans/system2.tree", "--coefficient", "gamma",
                           "--gamma-budget", "5")
    assert rc == 2 and out == ""
    assert "(gamma-too-large)" in err and "--gamma-budget" in err
    assert len([x for x in err.splitlines() if "error:" in x]) == 1


def test_one_file_is_a_usage_error(run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, _, err = run_cli("spans", "tests/data/spans/gold.tree", "--coefficient", "gamma")
    assert rc == 2 and "gamma compares two or more files" in err


def test_unary_duplicates_counted_once(tmp_path):
    a = tmp_path / "a.tree"
    b = tmp_path / "b.tree"
    a.write_text("(S (NP (NP (D a) (N b))) (VP (V c)))\n")
    b.write_text("(S (NP (D a) (N b)) (VP (V c)))\n")
    r = span_gamma([a, b], phrase_style="penn", samples=3)
    assert r.duplicates == {"a": 1, "b": 0}
    assert r.result.observed == 0.0 and r.result.gamma == 1.0
    assert any("one unit" in n for n in r.notes)


