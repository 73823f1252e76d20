"""Krippendorff's unitizing alpha (synagree.stats.unitizing, spans --coefficient alpha-u).

Oracles: the worked examples of Krippendorff (2004, *Content Analysis*, 2nd
ed., p. 254: two observers, categories c and k over [150, 450)) and of
Krippendorff (1995, "On the reliability of unitizing continuous data", p. 57:
four pairs of observers A-D over 24 positions), with the numbers the sources
print (as DKPro Statistics' tests of its implementation also use them).
"""
from __future__ import annotations

import json

import pytest

from synagree.evaluation.span_alpha import outermost, span_alpha_u
from synagree.stats.unitizing import Unit, unitizing_alpha


def book_2004():
    i = [Unit(225, 70, "c"), Unit(370, 30, "c"), Unit(180, 60, "k"), Unit(300, 50, "k")]
    j = [Unit(220, 80, "c"), Unit(355, 20, "c"), Unit(400, 20, "c"), Unit(180, 60, "k"),
         Unit(300, 50, "k")]
    return unitizing_alpha([i, j], 150, 300)


def test_krippendorff_2004_worked_example():
    r = book_2004()
    do_c, de_c, a_c = r.per_category["c"]
    assert (round(do_c, 4), round(de_c, 4), round(a_c, 4)) == (0.0144, 0.0532, 0.7286)
    do_k, de_k, a_k = r.per_category["k"]
    assert (do_k, round(de_k, 4), a_k) == (0.0, 0.0490, 1.0)
    # the book's 0.8591 is 1 - .0072/.0511, from the rounded means; unrounded 0.8587
    assert round(1 - round(r.observed, 4) / round(r.expected, 4), 4) == 0.8591
    assert r.alpha == pytest.approx(0.8591, abs=5e-4)


def paper_1995(stretch: float):
    def u(a, n, c):
        return Unit(int(a * stretch), int(n * stretch), c)

    first = [u(2, 8, "A"), u(14, 6, "A"), u(0, 18, "B"),
             *[u(a, n, "C") for a, n in ((2, 6), (10, 2), (14, 4), (20, 2))],
             *[u(a, n, "D") for a, n in ((0, 2), (2, 8), (10, 4), (14, 6), (20, 4))]]
    second = [u(4, 4, "A"), u(15, 2, "A"),
              *[u(a, n, "B") for a, n in ((0, 2), (2, 1), (3, 1), (4, 1), (5, 1), (6, 3),
                                          (9, 1))],
              *[u(a, n, "C") for a, n in ((0, 2), (4, 4), (10, 4), (16, 2), (20, 2))],
              *[u(a, n, "D") for a, n in ((0, 4), (4, 4), (8, 7), (15, 2), (17, 7))]]
    return unitizing_alpha([first, second], 0, int(24 * stretch))


def test_krippendorff_1995_observed_disagreement():
    r = paper_1995(1)
    want = {"A": 0.03125, "B": 2.26736, "C": 0.02777, "D": 0.38715}
    for c, d in want.items():
        assert r.per_category[c][0] == pytest.approx(d, abs=1e-5)


def test_krippendorff_1995_expected_and_alpha_on_a_fine_continuum():
    # the paper's D_e assumes a continuum of many positions: 24 stretched 50,000-fold
    r = paper_1995(1_200_000 / 24)
    want = {"A": (0.06990, 0.553), "B": (1.17731, -0.926), "C": (0.08642, 0.679),
            "D": (0.41445, 0.066)}
    for c, (de, a) in want.items():
        assert r.per_category[c][1] == pytest.approx(de, abs=0.005)
        assert r.per_category[c][2] == pytest.approx(a, abs=0.02)


def test_identical_observers_and_refusals():
    obs = [Unit(0, 3, "X"), Unit(5, 2, "Y")]
    r = unitizing_alpha([obs, list(obs), list(obs)], 0, 10)
    assert r.observed == 0.0 and r.alpha == 1.0
    with pytest.raises(ValueError, match="overlap"):
        unitizing_alpha([[Unit(0, 3, "X"), Unit(2, 3, "X")], obs], 0, 10)
    with pytest.raises(ValueError, match="continuum"):
        unitizing_alpha([[Unit(8, 3, "X")], obs], 0, 10)
    with pytest.raises(ValueError):
        unitizing_alpha([obs], 0, 10)


def test_outermost_and_nested_constituents(tmp_path):
    assert outermost([(0, 4, "NP"), (1, 2, "NP"), (1, 2, "VP")]) == (
        [(0, 4, "NP"), (1, 2, "VP")], 1)
    a = tmp_path / "a.tree"
    b = tmp_path / "b.tree"
    a.write_text("(S (NP (NP D N) (PP P (NP N))) (VP V))\n(S (NP N) (VP V))\n")
    b.write_text("(S (NP D N) (PP P (NP N)) (VP V))\n(S (NP N) (VP V))\n")
    r = span_alpha_u([a, b])
    assert r.dropped == {"a": 2, "b": 0} and r.notes
    assert r.result.length == 7
    # NP of a: [0, 4) and [5, 6); of b: [0, 2), [3, 4) and [5, 6)
    nested = unitizing_alpha([[Unit(0, 4, "NP"), Unit(5, 1, "NP")],
                              [Unit(0, 2, "NP"), Unit(3, 1, "NP"), Unit(5, 1, "NP")]], 0, 7)
    assert r.result.per_category["NP"] == pytest.approx(nested.per_category["NP"])


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown", "latex"])
def test_cli_every_format(fmt, run_cli, repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    rc, out, err = run_cli("spans", "tests/data/spans/gold.tree", "tests/data/spans/system.tree",
                           "--coefficient", "alpha-u", "--output", fmt)
    assert rc == 0, err
    if fmt == "json":
        d = json.loads(out)
        assert d["coefficient"] == "alpha-u" and "NP" in d["categories"]
    else:
        assert "NP" in out and "ALL" in out


def test_cli_refuses_bdm(run_cli, repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    rc, _, err = run_cli("spans", "tests/data/spans/gold.tree", "tests/data/spans/system.tree",
                         "--coefficient", "alpha-u", "--bdm", "--hierarchy", "flat")
    assert rc == 2 and "not with --bdm" in err
