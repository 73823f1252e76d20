"""Planning: units needed for an interval of α of a given width (docs/method.md §30).

Validated against (a) a brute-force resampling: the same unit draws
materialised as corpora of n units (copies included) whose α is recomputed
by the textbook double loop over zss tree edit distances, giving the same
percentile intervals; (b) the 1/√n scaling of the width on a synthetic
corpus; (c) the pilot's own bootstrap interval at the pilot's size.
"""
from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.agreement.plan import PlanOptions
from synagree.base.problems import InputError
from synagree.distance.sums import UnitSums
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus
from synagree.stats.alpha import tree_alpha
from synagree.stats.sample_size import plan_sample_size, size_grid
from synagree.trees.flat import Vocabulary, build_trees

LABELS = ["nsubj", "obj", "obl", "nmod", "amod"]


def pilot_sentences(seed=0, units=6):
    rng = random.Random(seed)
    a, b = [], []
    for _ in range(units):
        n = rng.randint(2, 5)
        s = [(0, "root")] + [(rng.randint(1, i - 1), rng.choice(LABELS)) for i in range(2, n + 1)]
        t = [(hd, rng.choice(LABELS)) if i and rng.random() < 0.3 else (hd, r)
             for i, (hd, r) in enumerate(s)]
        a.append(s)
        b.append(t)
    return a, b


def as_corpus(a, b):
    def dep(s):
        return DepSentence.from_heads([x for x, _ in s], [r for _, r in s])
    return Corpus.from_annotations({"a": [dep(s) for s in a], "b": [dep(s) for s in b]})


def test_grid():
    assert size_grid(10, 100) == [10, 15, 22, 32, 46, 66, 94, 100]
    assert size_grid(10, 40, pilot=25) == [10, 15, 22, 25, 32, 40]
    assert size_grid(10, 10) == [10]


@pytest.mark.slow
def test_curve_against_brute_force_resampling(h):
    """The nested draws of the plan, each replicate materialised as a corpus of n units
    (a unit drawn twice is two units) and its α recomputed from zss TEDs."""
    a, b = pilot_sentences(units=12)
    U, B, seed, level = len(a), 60, 5, 0.9
    ta = tree_alpha(build_trees(as_corpus(a, b).annotation_lists(), Vocabulary()),
                    ["plain"], keep_unit_matrix=True)
    plan = plan_sample_size(ta.sums, width=1e-9, level=level, variants=["plain"],
                            replicates=B, seed=seed, max_units=22)
    # the same draws, independently: nested multinomial increments along the grid
    rng = np.random.default_rng(seed)
    W = np.zeros((B, U))
    drawn = 0
    trees = [[(h.zss_dep_tree([x for x, _ in s], [r for _, r in s]), len(s) + 1)
              for s in (a[k], b[k])] for k in range(U)]
    cache: dict = {}

    def d2(x, y):
        key = (id(x[0]), id(y[0]))
        if key not in cache:
            cache[key] = h.zss_unit_distance(x[0], y[0])
        return cache[key] ** 2

    for point in plan.curves["plain"]:
        n = point.units
        W += rng.multinomial(n - drawn, np.full(U, 1.0 / U), size=B)
        drawn = n
        alphas = []
        for w in W:
            units = [trees[k] for k in range(U) for _ in range(int(w[k]))]
            alpha = h.textbook_alpha(units, d2)[0]
            alphas.append(np.nan if alpha is None else alpha)
        r = np.array(alphas)
        r = r[np.isfinite(r)]
        lo, hi = np.quantile(r, [(1 - level) / 2, (1 + level) / 2])
        assert point.low == pytest.approx(lo, abs=1e-9)
        assert point.high == pytest.approx(hi, abs=1e-9)
        assert point.se == pytest.approx(r.std(ddof=1), abs=1e-9)
    assert [p.units for p in plan.curves["plain"]] == [10, 12, 15, 22]  # pilot size added


def synthetic_sums(U=200, seed=0):
    """A synthetic pilot of U two-value units: values on a line, most units agreeing."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(U, 2))
    x[:, 1] = x[:, 0] + 0.4 * rng.normal(size=U)
    d2 = (x[:, :, None, None] - x[None, None, :, :]) ** 2
    S = d2.sum(axis=(1, 3))
    return UnitSums(np.stack([np.diag(S)] * 3, axis=1), np.zeros((U, 3)), np.full(U, 2.0),
                    S=np.stack([S] * 3))


@pytest.mark.slow
def test_width_scales_as_one_over_root_n():
    sums = synthetic_sums()
    plan = plan_sample_size(sums, width=0.01, variants=["plain"], replicates=2000, seed=1)
    pts = {p.units: p.width for p in plan.curves["plain"]}
    sizes = sorted(pts)
    # width·√n is constant (to Monte Carlo noise) once n is not small
    prod = [pts[n] * math.sqrt(n) for n in sizes if n >= 100]
    assert max(prod) / min(prod) < 1.12
    # halving the width needs four times the units (once n is past the small sizes)
    n1 = plan_sample_size(sums, 0.04, variants=["plain"], replicates=2000, seed=2).needed["plain"]
    n2 = plan_sample_size(sums, 0.02, variants=["plain"], replicates=2000, seed=2).needed["plain"]
    assert n2 / n1 == pytest.approx(4.0, rel=0.12)
    # and the fitted slope between the two sizes around the answer is about 1/2
    assert plan.needed["plain"] == pytest.approx((prod[-1] / 0.01) ** 2, rel=0.1)


def test_pilot_size_gives_the_pilot_bootstrap_width():
    a, b = pilot_sentences(seed=3, units=60)
    res = agree_corpus(as_corpus(a, b), ["plain"], bootstrap=4000, seed=9,
                       plan=PlanOptions(0.001, replicates=4000, max_units=100))
    lo, hi = res.alpha["plain"].ci
    at_pilot = next(p for p in res.plan.plan.curves["plain"] if p.units == 60)
    assert at_pilot.width == pytest.approx(hi - lo, rel=0.08)
    assert res.metrics()["units_needed_plain"] is None  # 0.001 is not reached by 100
    assert any("was not reached with 100 units" in n for n in res.notes)


def test_undefined_and_errors():
    s = DepSentence.from_heads([0], ["root"])
    same = Corpus.from_annotations({"a": [s] * 3, "b": [s] * 3})
    res = agree_corpus(same, ["plain"], plan=PlanOptions(0.1, replicates=50, max_units=20))
    assert res.plan.plan.needed["plain"] is None
    assert any("undefined on every resample" in n for n in res.plan.plan.notes)
    ta = tree_alpha(build_trees(same.annotation_lists(), Vocabulary()), ["plain"])
    with pytest.raises(ValueError):
        plan_sample_size(ta.sums, 0.1)  # no unit x unit sums
    with pytest.raises(ValueError):
        agree_corpus(same, plan=PlanOptions(0.1), sample_pairs=1000)


# --------------------------------------------------------------------------- CLI


def _files(tmp_path, h, seed=1, units=30):
    a, b = pilot_sentences(seed, units)
    meta = [{"sent_id": f"s{k}"} for k in range(units)]
    fa, fb = tmp_path / "a.conllu", tmp_path / "b.conllu"
    fa.write_text(h.conll_text(a, meta), encoding="utf-8")
    fb.write_text(h.conll_text(b, meta), encoding="utf-8")
    return fa, fb


def test_cli(tmp_path, h, run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    fa, fb = _files(tmp_path, h)
    rc, out, err = run_cli("plan", fa, fb, "--width", "0.2", "--bootstrap", "300")
    assert rc == 0, err
    assert "Units needed for a 95% interval of alpha no wider than 0.2" in out
    assert "The resampling curve" in out
    rc, js, err = run_cli("plan", fa, fb, "--width", "0.2", "--bootstrap", "300", "--output",
                          "json", "--metric", "plain")
    d = json.loads(js)
    assert d["units"] == 30 and list(d["plan"]["needed"]) == ["plain"]
    n = d["units_needed_plain"]
    widths = {p["units"]: p["width"] for p in d["plan"]["curves"]["plain"]}
    assert all(w > 0.2 for u, w in widths.items() if u < n)  # the first size at or below
    assert min(w for u, w in widths.items() if u >= n) <= 0.2
    rc, text, err = run_cli("plan", fa, fb, "--width", "0.2", "--bootstrap", "300",
                            "--output", "csv")
    assert rc == 0 and text.startswith("section,") and "plan_curve," in text


@pytest.mark.slow
def test_figure(tmp_path, h, run_cli):
    pytest.importorskip("matplotlib")
    fa, fb = _files(tmp_path, h)
    fig = tmp_path / "out" / "curve.svg"
    rc, _, err = run_cli("plan", fa, fb, "--width", "0.3", "--bootstrap", "200", "--figure",
                         fig, "-q")
    assert rc == 0, err
    assert fig.read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_figure_needs_matplotlib_before_the_work(tmp_path, h, run_cli, monkeypatch):
    import synagree.cli.plan as cli_plan

    def missing():
        raise InputError.single("<command line>", None, "missing-extra", "figures need "
                                "the optional dependency matplotlib")

    monkeypatch.setattr(cli_plan, "pyplot", missing)
    monkeypatch.setattr(cli_plan, "agree", lambda *a, **k: pytest.fail("work started"))
    fa, fb = _files(tmp_path, h)
    rc, _, err = run_cli("plan", fa, fb, "--width", "0.3", "--figure", tmp_path / "c.png")
    assert rc == 2 and "(missing-extra)" in err


@pytest.mark.parametrize("args,message", [
    (["--width", "0"], "--width"), (["--width", "x"], "--width"),
    (["--width", "0.1", "--figure", "c.gif"], "--figure"),
])
def test_bad_options(tmp_path, h, run_cli, args, message):
    fa, fb = _files(tmp_path, h, units=5)
    with pytest.raises(SystemExit) as exc:
        run_cli("plan", fa, fb, *args)
    assert exc.value.code == 2


def test_one_resample_is_refused(tmp_path, h, run_cli):
    fa, fb = _files(tmp_path, h, units=5)
    rc, _, err = run_cli("plan", fa, fb, "--width", "0.1", "--bootstrap", "1")
    assert rc == 2 and "too-few-replicates" in err and "--bootstrap 40 or more" in err


@pytest.mark.slow
def test_report_section(tmp_path, h, run_cli):
    fa, fb = _files(tmp_path, h)
    rc, js, err = run_cli("report", fa, fb, "--plan", "0.2", "--output", "json", "-q")
    assert rc == 0, err
    d = json.loads(js)  # the agreement result's keys, its sections under details
    plan = d["details"]["plan"]
    assert plan["width"] == 0.2 and plan["pilot_units"] == 30
    assert d["units_needed_plain"] == plan["needed"]["plain"]
    out = tmp_path / "r.html"
    rc, _, err = run_cli("report", fa, fb, "--plan", "0.2", "-o", out, "-q")
    assert rc == 0, err
    page = out.read_text(encoding="utf-8")
    assert '<section id="plan">' in page and "units_needed" in page
    assert '<figure class="plan"><svg' in page  # matplotlib is a test dependency


# --------------------------------------------------------------------------- shared data


@pytest.mark.slow
def test_shared_iaa_data(iaa, run_cli):
    """CDT English (lotte, morten; 264 sentences) as the pilot."""
    files = [iaa / "cdt" / "en-lotte.conll", iaa / "cdt" / "en-morten.conll"]
    rc, js, err = run_cli("plan", *files, "--width", "0.05", "--output", "json")
    assert rc == 0, err
    d = json.loads(js)
    needed = d["plan"]["needed"]
    # measured (docs/qa-questions-2.md); B = 1000, seed 0
    assert needed["plain"] == pytest.approx(281, rel=0.03)
    assert needed["norm"] == pytest.approx(74, rel=0.03)
    assert needed["diff"] == pytest.approx(4645, rel=0.03)
    # at the pilot's own size the width is the pilot's bootstrap interval's
    res = agree_corpus(load_corpus(files), ["plain"], bootstrap=2000)
    lo, hi = res.alpha["plain"].ci
    at_pilot = next(p for p in d["plan"]["curves"]["plain"] if p["units"] == 264)
    assert at_pilot["width"] == pytest.approx(hi - lo, rel=0.1)
