"""agree --runs / --retest (synagree.agreement.sets): sets of files side by side.

Oracles: Krippendorff's α by the textbook double loop over zss tree edit
distances (tests/conftest.py, no synagree code) for each set, and LAS from
the raw CoNLL columns; the files are the first sentences of the worked
example of tests/data/humans (three humans, two corrected passes, a parser).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from synagree.agreement.sets import agreement_sets

HUMANS = Path(__file__).resolve().parent / "data" / "humans"
N = 12


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("sets")
    out = {}
    for name in ("gold", "anna", "bert", "post-anna", "post-bert", "parser"):
        blocks = (HUMANS / f"{name}.conllu").read_text(encoding="utf-8").split("\n\n")
        p = d / f"{name}.conllu"
        p.write_text("\n\n".join(b for b in blocks[:N]) + "\n\n", encoding="utf-8")
        out[name] = p
    return out


def textbook(h, paths):
    sents = [h.raw_conll(p) for p in paths]
    units = [[h.heads_labels(s[k]) for s in sents] for k in range(N)]
    cache = {}

    def d2(x, y):
        key = (id(x), id(y))
        if key not in cache:
            cache[key] = h.zss_unit_distance(h.zss_dep_tree(*x), h.zss_dep_tree(*y)) ** 2
        return cache[key]

    return h.textbook_alpha(units, d2)[0]


def raw_las(h, a, b):
    credit = [x[6] == y[6] and x[7].split(":")[0] == y[7].split(":")[0]
              for s, t in zip(h.raw_conll(a), h.raw_conll(b))
              for (_, x), (_, y) in zip(s, t)]
    return float(np.mean(credit))


@pytest.mark.slow
def test_each_set_equals_the_textbook_alpha(files, h):
    f = files
    s = agreement_sets([f["gold"], f["anna"], f["bert"]],
                       runs=[f["post-anna"], f["post-bert"], f["parser"]],
                       retest=[(f["anna"], f["post-anna"]), (f["bert"], f["post-bert"])],
                       variants=["plain"], bootstrap=50, seed=3)
    assert [(x.kind, x.label, len(x.annotators), x.units) for x in s.sets] == [
        ("inter-annotator", "all", 3, N), ("runs", "all", 3, N), ("retest", "anna", 2, N),
        ("retest", "bert", 2, N)]
    want = [textbook(h, [f["gold"], f["anna"], f["bert"]]),
            textbook(h, [f["post-anna"], f["post-bert"], f["parser"]]),
            textbook(h, [f["anna"], f["post-anna"]]), textbook(h, [f["bert"], f["post-bert"]])]
    for x, w in zip(s.sets, want):
        assert x.values["alpha_plain"] == pytest.approx(w, abs=1e-12)
        lo, hi = x.intervals["alpha_plain"]
        assert lo <= x.values["alpha_plain"] <= hi
    assert s.sets[2].values["LAS"] == pytest.approx(raw_las(h, f["anna"], f["post-anna"]),
                                                     abs=1e-12)
    assert s.metrics[0] == "alpha_plain" and "LAS" in s.metrics
    assert s.replicates == 50 and "difference between rows" in s.notes[-1]


def test_retest_of_identical_passes_is_perfect(files, tmp_path):
    again = tmp_path / "anna-again.conllu"
    again.write_bytes(files["anna"].read_bytes())
    s = agreement_sets([files["gold"], files["anna"]], retest=[(files["anna"], again)],
                       variants=["plain"], bootstrap=40)
    r = s.sets[1]
    assert r.values["alpha_plain"] == 1.0 and r.intervals["alpha_plain"] == (1.0, 1.0)
    assert r.values["LAS"] == 1.0
    assert any("replicates" in n for n in s.notes) is False  # bootstrap was given


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "latex"])
def test_cli_every_format(files, fmt, run_cli):
    f = files
    rc, out, err = run_cli("agree", f["gold"], f["anna"], f["bert"], "--runs", f["post-anna"],
                           f["post-bert"], "--retest", f["anna"], f["post-anna"], "--metric",
                           "plain", "--bootstrap", "40", "-q", "--output", fmt)
    assert rc == 0, err
    if fmt == "json":
        d = json.loads(out)
        assert [x["set"] for x in d["sets"]] == ["inter-annotator", "runs", "retest"]
        assert len(d["sets"][0]["alpha_plain_ci"]) == 2
    else:
        assert "inter" in out and "retest" in out and "runs" in out


@pytest.mark.parametrize("extra,needle", [
    (["--runs", "RUN"], "two or more runs"),
    (["--retest", "A", "B", "--worst", "2"], "do not combine with --worst"),
])
def test_cli_errors(files, extra, needle, run_cli):
    f = files
    extra = [str(f["parser"]) if x in ("RUN", "A", "B") else x for x in extra]
    rc, _, err = run_cli("agree", f["gold"], f["anna"], *extra)
    assert rc == 2 and needle in err and "Traceback" not in err
    rc, _, err = run_cli("agree", f["gold"], "--runs", f["anna"], f["bert"])
    assert rc == 2 and "two or more annotators" in err
