"""The alt-test on label data (`synagree.alt_test_labels`, ``alt-test --label-data``).

Oracles:

* the reference implementation's procedure (nitaytech/AltTest,
  ``alt_test_example.ipynb``: its ``alt_test`` with the ``accuracy`` and
  ``neg_rmse`` scoring functions, scipy's ``ttest_1samp(alternative='less')``
  and its Benjamini–Yekutieli step-up), written out step by step in
  tests/test_alt_test.py (`reference`), compared exactly (ω, ρ, every p-value
  and decision) on random label data, always;
* the authors' own example data (``data/<dataset>/{human,llm}_annotations.json``
  of that repository) with the winning rate and advantage probability the
  notebook prints (two decimals, PASSED/FAILED) for every data set and LLM,
  when the data are present: in ``$SYNAGREE_ALTTEST_DATA`` or
  ``../shared/data/alttest`` (one folder per data set).  The repository has no
  licence, so its data are not stored here.
"""
from __future__ import annotations

import json
import math
import os
import random
from pathlib import Path
from typing import Any, Dict

import numpy as np
import pytest

import synagree
from synagree.base.option_specs import SPECS
from synagree.base.problems import InputError
from synagree.cli.main import main
from synagree.stats import alt_test as stats_alt
from synagree.stats.alt_test import label_alignment, unit_alignment

pytest.importorskip("scipy.stats", reason="scipy (the t-test oracle) is not installed")
from test_alt_test import accuracy, neg_rmse, reference  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCORERS = {"accuracy": accuracy, "neg_rmse": neg_rmse}

# The notebook's settings and its printed output (alt_test_example.ipynb, the cell
# "Example (paper's data)"): dataset -> (scoring, epsilon, {llm: (winning rate,
# advantage probability)}), each printed with two decimals; PASSED when the
# winning rate is at least 0.5.
NOTEBOOK: Dict[str, Any] = {
    "wax": ("accuracy", 0.1, {
        "gemini_flash": ("0.38", "0.69"), "gemini_pro": ("0.50", "0.74"),
        "gpt-4o": ("0.50", "0.73"), "llama-31": ("0.00", "0.57"),
        "gpt-4o-mini": ("0.00", "0.59"), "mistral-v03": ("0.00", "0.50")}),
    "lgbteen": ("accuracy", 0.2, {
        "gemini_flash": ("0.25", "0.71"), "gemini_pro": ("0.00", "0.67"),
        "gpt-4o": ("0.75", "0.77"), "llama-31": ("0.00", "0.72"),
        "gpt-4o-mini": ("0.75", "0.76"), "mistral-v03": ("0.25", "0.75")}),
    "mtbench": ("accuracy", 0.2, {
        "gemini_flash": ("0.00", "0.72"), "gemini_pro": ("0.00", "0.76"),
        "gpt-4o": ("0.00", "0.77"), "llama-31": ("0.00", "0.69"),
        "gpt-4o-mini": ("0.00", "0.74"), "mistral-v03": ("0.00", "0.68")}),
    "framing": ("accuracy", 0.15, {
        "gemini_flash": ("1.00", "0.83"), "gemini_pro": ("1.00", "0.91"),
        "gpt-4o": ("1.00", "0.92"), "llama-31": ("0.50", "0.80"),
        "gpt-4o-mini": ("1.00", "0.87"), "mistral-v03": ("0.25", "0.80")}),
    "cebab_aspects": ("accuracy", 0.1, {
        "gemini_flash": ("0.70", "0.91"), "gemini_pro": ("0.90", "0.94"),
        "gpt-4o": ("0.90", "0.93"), "llama-31": ("0.60", "0.89"),
        "gpt-4o-mini": ("0.50", "0.90"), "mistral-v03": ("0.10", "0.81")}),
    "summeval": ("neg_rmse", 0.2, {
        "gemini_flash": ("0.00", "0.46"), "gemini_pro": ("0.00", "0.44"),
        "gpt-4o": ("0.00", "0.48"), "llama-31": ("0.00", "0.58"),
        "gpt-4o-mini": ("0.00", "0.54"), "mistral-v03": ("0.00", "0.62")}),
    "10k_prompts": ("neg_rmse", 0.15, {
        "gemini_flash": ("0.31", "0.67"), "gemini_pro": ("0.08", "0.63"),
        "gpt-4o": ("0.69", "0.76"), "llama-31": ("0.15", "0.67"),
        "gpt-4o-mini": ("0.92", "0.80"), "mistral-v03": ("0.15", "0.67")}),
    "cebab_stars": ("neg_rmse", 0.1, {
        "gemini_flash": ("0.60", "0.82"), "gemini_pro": ("0.80", "0.87"),
        "gpt-4o": ("0.90", "0.90"), "llama-31": ("0.60", "0.85"),
        "gpt-4o-mini": ("0.90", "0.89"), "mistral-v03": ("0.50", "0.83")}),
    "lesion": ("neg_rmse", 0.15, {
        "gemini_flash": ("0.17", "0.71"), "gemini_pro": ("1.00", "0.81"),
        "gpt-4o": ("0.00", "0.62"), "gpt-4o-mini": ("0.67", "0.73")}),
}


def data_root() -> Path:
    env = os.environ.get("SYNAGREE_ALTTEST_DATA")
    return Path(env) if env else ROOT.parent / "shared" / "data" / "alttest"


def load(dataset: str):
    d = data_root() / dataset
    files = [d / "human_annotations.json", d / "llm_annotations.json"]
    if not all(f.is_file() for f in files):
        pytest.skip(f"the authors' data set {dataset} is not in {d} (set "
                    f"$SYNAGREE_ALTTEST_DATA to a folder of nitaytech/AltTest's data/)")
    return [json.loads(f.read_text(encoding="utf-8")) for f in files]


def check_against_reference(result, llm, humans, scoring, epsilon):
    wr, ap, p, won = reference(llm, humans, SCORERS[scoring], epsilon)
    assert result.winning_rate == wr
    assert result.advantage_probability == pytest.approx(ap, abs=1e-12)
    assert [h.annotator for h in result.humans] == list(p)
    for h in result.humans:
        assert h.p_value == pytest.approx(p[h.annotator], abs=1e-12, nan_ok=True)
        assert h.won == won[h.annotator]
    return wr, ap


@pytest.mark.parametrize("dataset", list(NOTEBOOK))
def test_the_authors_data_give_the_notebooks_numbers(dataset):
    humans, llms = load(dataset)
    scoring, epsilon, printed = NOTEBOOK[dataset]
    assert list(llms) == list(printed)
    for name, llm in llms.items():
        r = synagree.alt_test_labels(humans, llm, scoring=scoring, epsilon=epsilon,
                                     candidate_name=name)
        wr, ap = check_against_reference(r, llm, humans, scoring, epsilon)
        assert (f"{r.winning_rate:.2f}", f"{r.advantage_probability:.2f}") == printed[name]
        assert r.passed == (float(printed[name][0]) >= 0.5)


def random_labels(seed: int, scoring: str):
    """Humans with gaps (some instances by one human only, some humans with few
    instances), a candidate with gaps; integer or float labels."""
    rng = random.Random(seed)
    m = rng.randint(3, 7)
    n = rng.randint(40, 120)
    truth = [rng.randint(1, 5) for _ in range(n)]
    floats = scoring == "neg_rmse" and seed % 2 == 1
    humans: Dict[str, Dict[str, Any]] = {}
    for h in range(m):
        noise, keep = rng.uniform(0.1, 0.5), rng.choice([0.95, 0.8, 0.3])
        humans[f"h{h}"] = {
            f"i{i}": (t if rng.random() > noise else rng.randint(1, 5))
            + (round(rng.uniform(-0.5, 0.5), 2) if floats else 0)
            for i, t in enumerate(truth) if rng.random() < keep}
    c_noise = rng.uniform(0.0, 0.6)
    llm = {f"i{i}": (t if rng.random() > c_noise else rng.randint(1, 5))
           for i, t in enumerate(truth) if rng.random() < 0.95}
    if scoring == "accuracy" and seed % 3 == 0:  # categories as strings
        humans = {h: {i: "abcde"[int(v) - 1] for i, v in a.items()} for h, a in humans.items()}
        llm = {i: "abcde"[v - 1] for i, v in llm.items()}
    return humans, llm


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("scoring", ["accuracy", "neg_rmse"])
@pytest.mark.parametrize("epsilon", [0.0, 0.1, 0.2])
def test_equals_the_reference_on_random_labels(seed, scoring, epsilon):
    humans, llm = random_labels(seed, scoring)
    try:
        r = synagree.alt_test_labels(humans, llm, scoring=scoring, epsilon=epsilon)
    except InputError as exc:  # the paper's floor, which the reference does not enforce
        assert "at least 3 humans" in str(exc)
        tested = sum(1 for a in humans.values()
                     if sum(1 for i in a if i in llm and sum(i in b for b in humans.values())
                            >= 2) >= 30)
        assert tested < 3
        return
    check_against_reference(r, llm, humans, scoring, epsilon)
    assert r.metric == scoring
    who: Dict[str, int] = {}
    for a in humans.values():
        for i in a:
            who[i] = who.get(i, 0) + 1
    dropped = sum(1 for i, k in who.items() if k < 2 or i not in llm)
    assert any(f"{dropped} instance(s) left out" in n for n in r.notes) == (dropped > 0)
    assert set(r.skipped) == set(humans) - {h.annotator for h in r.humans}


def test_neg_rmse_is_not_a_mean_of_pair_scores():
    # S = -sqrt(mean squared difference), as the reference; the treebank path's mean of
    # per-pair scores (unit_alignment) would give -(0 + 2)/2 = -1
    assert label_alignment(1, [1, 3], "neg_rmse") == -math.sqrt(2.0)
    pairs = {("x", "a"): np.array([0.0]), ("x", "b"): np.array([-2.0])}
    assert unit_alignment(pairs, "x", ["a", "b"])[0] == -1.0
    # accuracy is such a mean
    assert label_alignment("A", ["A", "B", "A"], "accuracy") == pytest.approx(2 / 3)


def test_options_come_from_the_declarations():
    assert SPECS["epsilon"].default == stats_alt.DEFAULT_EPSILON
    assert SPECS["fdr"].default == stats_alt.DEFAULT_Q
    assert SPECS["min_units"].default == stats_alt.MIN_UNITS
    assert SPECS["scoring"].choices == stats_alt.SCORINGS
    assert SPECS["scoring"].default == stats_alt.SCORINGS[0]


GOOD = {h: {i: (i + k) % 4 for i in range(40)} for k, h in enumerate("abc")}


@pytest.mark.parametrize("humans,llm,kw,exc,needle", [
    ([1, 2], {}, {}, TypeError, "humans must be a mapping"),
    ({"a": [1]}, {}, {}, TypeError, "humans['a'] must be a mapping"),
    (GOOD, [0] * 40, {}, TypeError, "candidate must be a mapping"),
    ({**GOOD, "c": {0: "x"}}, {0: 1}, {"scoring": "neg_rmse"}, ValueError,
     "humans['c'][0] = 'x': neg_rmse needs finite numbers"),
    (GOOD, {0: True}, {"scoring": "neg_rmse"}, ValueError, "neg_rmse needs finite numbers"),
    (GOOD, {0: float("nan")}, {}, ValueError, "leave a missing label out"),
    (GOOD, {0: None}, {}, ValueError, "leave a missing label out"),
    (GOOD, {0: 1}, {"scoring": "rmse"}, ValueError, "scoring must be one of"),
    (GOOD, {0: 1}, {"epsilon": 2}, ValueError, "epsilon must be a number from 0 to 1"),
    (GOOD, {0: 1}, {"q": 0}, ValueError, "fdr must be"),
    (GOOD, {0: 1}, {"min_units": 1}, ValueError, "min_units must be"),
])
def test_bad_input(humans, llm, kw, exc, needle):
    with pytest.raises(exc) as info:
        synagree.alt_test_labels(humans, llm, **kw)
    assert needle in str(info.value) and str(info.value).startswith("alt_test_labels(): ")


def test_too_few_humans_is_refused():
    with pytest.raises(InputError, match="at least 3 human"):
        synagree.alt_test_labels({"a": GOOD["a"], "b": GOOD["b"]}, GOOD["a"])
    few = {**GOOD, "d": {i: 0 for i in range(10)}}
    r = synagree.alt_test_labels(few, {i: 0 for i in range(40)})
    assert r.skipped == {"d": 10} and any("d (10)" in n for n in r.notes)


# --------------------------------------------------------------------------
# The command line: alt-test --label-data HUMANS.json --candidate LLM.json
# --------------------------------------------------------------------------

@pytest.fixture()
def label_files(tmp_path):
    humans, llm = random_labels(4, "neg_rmse")
    h = tmp_path / "humans.json"
    c = tmp_path / "llms.json"
    h.write_text(json.dumps(humans), encoding="utf-8")
    c.write_text(json.dumps({"m1": llm, "m2": {i: v + 1 for i, v in llm.items()}}),
                 encoding="utf-8")
    flat = tmp_path / "llm.json"
    flat.write_text(json.dumps(llm), encoding="utf-8")
    return h, c, flat, humans, llm


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown", "latex"])
def test_cli_labels_every_format(label_files, fmt, capsys):
    h, _, flat, humans, llm = label_files
    assert main(["alt-test", "--label-data", str(h), "--candidate", str(flat), "--scoring",
                 "neg_rmse", "--epsilon", "0.15", "--output", fmt]) == 0
    out = capsys.readouterr().out
    want = synagree.alt_test_labels(humans, llm, scoring="neg_rmse", epsilon=0.15)
    if fmt == "json":
        d = json.loads(out)
        assert d["candidate"] == "llm" and d["metric"] == "neg_rmse"
        assert d["winning_rate"] == want.winning_rate
        assert d["advantage_probability"] == pytest.approx(want.advantage_probability)
    else:
        assert "winning" in out and "h0" in out


def test_cli_labels_picks_a_candidate_of_several(label_files, capsys):
    h, several, _, humans, llm = label_files
    assert main(["alt-test", "--label-data", str(h), "--candidate", str(several), "--names",
                 "m2", "--scoring", "neg_rmse", "--output", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    want = synagree.alt_test_labels(humans, {i: v + 1 for i, v in llm.items()},
                                    scoring="neg_rmse")
    assert d["candidate"] == "m2" and d["advantage_probability"] == \
        pytest.approx(want.advantage_probability)


@pytest.mark.parametrize("setup,needle", [
    ("several-no-name", "holds 2 candidates (m1, m2): name one with --names"),
    ("unknown-name", "no candidate 'zz'"),
    ("not-json", "not JSON"),
    ("strings", "neg_rmse needs finite numbers"),
    ("list", "must be a mapping"),
    ("with-files", "--label-data takes one JSON file"),
])
def test_cli_labels_errors(label_files, tmp_path, setup, needle, capsys):
    h, several, flat, _, _ = label_files
    argv = ["alt-test", "--label-data", str(h), "--candidate", str(several), "--scoring",
            "neg_rmse"]
    if setup == "unknown-name":
        argv += ["--names", "zz"]
    elif setup == "not-json":
        bad = tmp_path / "bad.json"
        bad.write_text("{1: 2}", encoding="utf-8")
        argv[2] = str(bad)
    elif setup == "strings":
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({"x": "five"}), encoding="utf-8")
        argv[4] = str(bad)
    elif setup == "list":
        bad = tmp_path / "bad.json"
        bad.write_text("[1, 2]", encoding="utf-8")
        argv[2] = str(bad)
    elif setup == "with-files":
        argv.insert(1, str(flat))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err
    assert len([ln for ln in err.splitlines() if "error:" in ln]) == 1
