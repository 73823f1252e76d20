"""The curated Python API (issue 22): one call per command, results with ``to_dict()``
(the command's JSON), ``to_frame()`` (a long-form DataFrame) and ``_repr_html_``."""
from __future__ import annotations

import importlib
import io
import json
from pathlib import Path

import pytest

import synagree
from synagree.base import frames

pd = pytest.importorskip("pandas")

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = sorted(str(p / "sample.conllu") for p in (ROOT / "synagree" / "data" / "en-sample")
                .iterdir() if p.is_dir())
GOLD = ROOT / "tests" / "data" / "compare" / "bd-gold.conllu"
SYS = ROOT / "tests" / "data" / "compare" / "bd-sys.conllu"
TREES = ROOT / "tests" / "data" / "parseval"


def _texts():
    return [io.StringIO(Path(p).read_text(encoding="utf-8")) for p in SAMPLE]


def test_curated_names_are_importable():
    for name in ("agree", "compare", "tags", "categorical", "report", "noise_experiment",
                 "read", "ted",
                 "krippendorff_alpha", "AgreementResult", "CompareResult", "TagsResult",
                 "TokenLayerAgreement", "Report", "ExperimentOutcome", "InputError"):
        assert name in synagree.__all__ and getattr(synagree, name) is not None, name
    from synagree import categorical, compare, tags  # noqa: F401  (the issue's check)
    with pytest.raises(AttributeError):
        synagree.no_such_name  # noqa: B018


def _check(result, cli_args, run_cli, key_rows=("metric", "value")):
    """to_dict() equals the CLI's JSON; to_frame() is long form; _repr_html_ is a table."""
    if cli_args is not None:
        rc, out, err = run_cli(*cli_args, "--output", "json")
        assert rc == 0, err
        cli, api = json.loads(out), json.loads(json.dumps(result.to_dict()))
        for d in (cli, api):  # the per-unit counts are opt-in in the library (per_unit=True)
            d.get("details", {}).pop("per_unit", None)
            for s in d.get("systems", []):
                s.pop("per_unit", None)
        assert api == cli
    df = result.to_frame()
    assert isinstance(df, pd.DataFrame) and len(df) > 0
    for col in key_rows:
        assert col in df.columns, col
    assert result._repr_html_().startswith("<table>")
    return df


def test_agree(run_cli):
    res = synagree.agree(SAMPLE, bootstrap=50, seed=1)
    df = _check(res, ["agree", *SAMPLE, "--bootstrap", "50", "--seed", "1"], run_cli)
    row = df[df.metric == "alpha_plain"].iloc[0]
    assert row.value == res.to_dict()["alpha_plain"] and row.ci_low <= row.value <= row.ci_high


def test_compare(run_cli):
    res = synagree.compare(str(GOLD), [str(SYS)], names=["p"])
    df = _check(res, ["compare", str(GOLD), str(SYS), "--names", "p"], run_cli)
    assert set(df.system) == {"p"}
    assert df[df.metric == "LAS"].value.iloc[0] == res.to_dict()["systems"][0]["LAS"]


def test_compare_parseval(run_cli):
    gold, system = TREES / "gold.mrg", TREES / "parser-a.mrg"
    res = synagree.compare_parseval(str(gold), [str(system)])
    df = _check(res, ["compare", str(gold), str(system)], run_cli)
    assert "bracket_F1" in set(df.metric)


def test_tags(run_cli):
    res = synagree.tags(str(GOLD), str(SYS))
    df = _check(res, ["tags", str(GOLD), str(SYS)], run_cli)
    assert {"ALL"} < set(df.tag)


def test_categorical(run_cli):
    res = synagree.categorical(SAMPLE, bootstrap=40)
    df = _check(res, ["categorical", *SAMPLE, "--bootstrap", "40"], run_cli)
    assert set(df.layer) == set(res.results) and "cohen_kappa" in set(df.metric)
    assert df.ci_low.notna().any()
    streams = synagree.categorical(_texts(), names=["ann_a", "ann_b"])  # streams: the same
    assert streams.to_dict()["layers"]["deprel"]["coefficients"] == \
        res.to_dict()["layers"]["deprel"]["coefficients"]


def test_report_in_memory(run_cli):
    rep = synagree.report(SAMPLE)
    html = rep.html
    assert html.startswith("<!DOCTYPE html>") and rep.result.agreement.signature() in html
    df = _check(rep, None, run_cli, key_rows=("pair", "metric", "value"))
    assert "ann_a / ann_b" in set(df.pair)
    assert rep.render("markdown").startswith("**")


def test_noise(tmp_path):
    res = synagree.noise_experiment([SAMPLE[0]], tmp_path / "out", sample=5,
                                    series=["both"], grid=[0.5], runs=2)
    df = res.to_frame()
    assert {"series", "p", "run", "metric", "value"} <= set(df.columns)
    assert len(df) == 2 * len(res.metrics)


def test_alpha_results():
    a = synagree.krippendorff_alpha([[1, 1, 2], [1, 2, 2]], "nominal")
    df = a.to_frame()
    assert df.alpha.iloc[0] == pytest.approx(float(a)) and a._repr_html_().startswith("<table>")


def test_without_pandas(monkeypatch):
    real = importlib.import_module

    def no_pandas(name, *args):
        if name == "pandas":
            raise ImportError("No module named 'pandas'")
        return real(name, *args)

    monkeypatch.setattr(frames.importlib, "import_module", no_pandas)
    res = synagree.agree(SAMPLE)
    with pytest.raises(ImportError, match=r"pip install 'synagree\[frames\]'"):
        res.to_frame()
    assert res._repr_html_().startswith("<table>")  # needs nothing
