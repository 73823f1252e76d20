"""Noise figures: --metrics, --ylim, α_diff on its own panel, the corpus's own values as
reference lines, and runs of another corpus refused (issue 27, item 1)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from synagree.noise.experiments import run_noise_experiment
from synagree.noise.results import read_config, read_rows
from synagree.render.mpl import pyplot
from synagree.render.plots import choose_metrics, series_figure

SAMPLE = Path(__file__).resolve().parents[1] / "synagree" / "data" / "en-sample"
A, B = SAMPLE / "ann_a" / "sample.conllu", SAMPLE / "ann_b" / "sample.conllu"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    out = tmp_path_factory.mktemp("noise") / "n"
    run_noise_experiment([A], out, sample=12, runs=2, grid=[0.5, 1.0],
                         series=["both", "relabel"])
    return out


def png_description(path: Path) -> str:
    return Image.open(path).info.get("Description", "")


def legend_texts(ax) -> list:
    leg = ax.get_legend()
    return [t.get_text() for t in leg.get_texts()] if leg else []


@pytest.mark.slow
def test_plot_metrics_and_ylim_reach_the_figures(runs, tmp_path, run_cli):
    out = tmp_path / "figs"
    rc, _, err = run_cli("plot", runs / "runs.csv", "-o", out, "--metrics", "LAS,alpha_plain",
                         "--ylim", "0,1", "--formats", "png,svg", "-q")
    assert rc == 0, err
    for stem in ("noise-both", "noise-relabel"):
        desc = png_description(out / f"{stem}.png")
        assert "metrics: LAS,alpha_plain; ylim: 0,1" in desc, desc
        svg = (out / f"{stem}.svg").read_text(encoding="utf-8")
        assert "metrics: LAS,alpha_plain; ylim: 0,1" in svg
        assert "alpha_{\\mathrm{diff}}" not in svg and "alpha_{\\mathrm{norm}}" not in svg
        assert "100%" in svg and "0%" in svg  # the axis reads 0 to 100 %
    assert "ylim: 0,1" in png_description(out / "noise-las-vs-alpha.png")
    # the same figure in memory: its axes are what the options asked for
    rows = read_rows(runs / "runs.csv")
    fig = series_figure(rows, "both", choose_metrics(rows, ["LAS", "alpha_plain"]),
                        ylim=(0.0, 1.0))
    try:
        assert len(fig.axes) == 1
        assert tuple(map(float, fig.axes[0].get_ylim())) == (0.0, 1.0)
        assert legend_texts(fig.axes[0]) == ["LAS", r"$\alpha_{\mathrm{plain}}$"]
        data = [line.get_ydata() for line in fig.axes[0].get_lines() if line.get_label() == "LAS"]
        means = {}
        for r in rows:
            if r["series"] == "both":
                means.setdefault(r["p"], []).append(r["LAS"])
        assert list(data[0]) == pytest.approx([sum(v) / len(v) for _, v in sorted(means.items())])
    finally:
        pyplot().close(fig)


def test_default_metrics_put_alpha_diff_on_its_own_panel(runs):
    rows = read_rows(runs / "runs.csv")
    assert choose_metrics(rows) == ["LAS", "alpha_plain", "alpha_norm", "alpha_diff"]
    fig = series_figure(rows, "both", choose_metrics(rows))
    try:
        main, diff = fig.axes
        assert legend_texts(diff) == [r"$\alpha_{\mathrm{diff}}$"]
        assert r"$\alpha_{\mathrm{diff}}$" not in legend_texts(main)
        lowest_diff = min(min(line.get_ydata()) for line in diff.get_lines()
                          if line.get_label().startswith("$"))
        assert lowest_diff < main.get_ylim()[0]  # it would have squashed the main panel
    finally:
        pyplot().close(fig)


def test_values_beyond_ylim_are_named(runs):
    rows = read_rows(runs / "runs.csv")
    fig = series_figure(rows, "both", ["alpha_plain", "las"], ylim=(0.5, 1.0))
    try:
        notes = [t.get_text() for t in fig.axes[0].texts]
        assert any(n.startswith("below the axis: α_plain down to") for n in notes), notes
    finally:
        pyplot().close(fig)


@pytest.mark.slow
def test_corpus_reference_lines_and_refusal(runs, tmp_path, run_cli, iaa):
    out = tmp_path / "figs"
    rc, _, err = run_cli("plot", runs, "-o", out, "--corpus", A, B, "--formats", "svg", "-q")
    assert rc == 0, err
    svg = (out / "noise-both.svg").read_text(encoding="utf-8")
    from synagree.agreement.agree import agree

    res = agree([A, B])
    want = f"{100 * res.alpha['plain'].alpha:.1f} %"
    assert re.search(r"this corpus: " + re.escape(want), svg), want
    assert "checked by SHA-256" in svg
    # runs made on another corpus: refused, nothing written
    other = tmp_path / "other"
    rc, _, err = run_cli("plot", runs, "-o", other, "--corpus", iaa / "cdt" / "en-lotte.conll",
                         iaa / "cdt" / "en-morten.conll")
    assert rc == 2 and "runs-mismatch" in err and "not among this corpus's files" in err
    assert not list(other.glob("*"))  # nothing written
    # same names, other contents
    fake = tmp_path / "ann_a"
    fake.mkdir()
    (fake / "sample.conllu").write_text(B.read_text(encoding="utf-8"), encoding="utf-8")
    rc, _, err = run_cli("plot", runs, "-o", other, "--corpus", fake / "sample.conllu", B)
    assert rc == 2 and "other contents" in err, err


@pytest.mark.slow
def test_report_noise_checked_against_its_input(runs, tmp_path, run_cli, iaa):
    page = tmp_path / "r.html"
    rc, _, err = run_cli("report", A, B, "--bootstrap", "0", "--noise", runs / "results.json",
                         "--metrics", "LAS,alpha_plain,alpha_diff", "--ylim", "0,1", "-o", page,
                         "-q")
    assert rc == 0, err
    html = page.read_text(encoding="utf-8")
    assert html.count('<figure class="noise"') == 2
    assert "metrics: LAS,alpha_plain,alpha_diff; ylim: 0,1" in html
    assert "files of this corpus, checked by SHA-256" in html
    assert "this corpus: " in html
    bad = tmp_path / "bad.html"
    rc, _, err = run_cli("report", iaa / "cdt" / "en-lotte.conll", iaa / "cdt" / "en-morten.conll",
                         "--noise", runs / "runs.csv", "-o", bad)
    assert rc == 2 and "runs-mismatch" in err and not bad.exists()
    # a bare table records no source: drawn, with a note that it was not checked
    bare = tmp_path / "bare" / "runs.csv"
    bare.parent.mkdir()
    bare.write_text((runs / "runs.csv").read_text())
    rc, _, err = run_cli("report", A, B, "--bootstrap", "0", "--noise", bare, "-o", page, "-q")
    assert rc == 0, err
    assert "could not be checked" in page.read_text(encoding="utf-8")


def test_read_config_finds_the_recorded_settings(runs):
    for path in (runs, runs / "runs.csv", runs / "runs.jsonl", runs / "results.json"):
        cfg = read_config(path)
        assert cfg["source"]["files"] == ["sample.conllu"], path
    assert json.loads((runs / "config.json").read_text())["seed"] == read_config(runs)["seed"]


def test_figure_options_are_checked(runs, tmp_path, run_cli):
    rc, _, err = run_cli("plot", runs, "-o", tmp_path / "f", "--metrics", "LAS,bogus")
    assert rc == 2 and "bogus not in the runs" in err and not list(tmp_path.glob("f/*"))
    for ylim in ("1,0", "0", "a,b", "0,inf"):
        rc, _, err = run_cli("plot", runs, "-o", tmp_path / "f", "--ylim", ylim)
        assert rc == 2 and "--ylim" in err, ylim
    rc, _, err = run_cli("noise", A, "-o", tmp_path / "n", "--metrics", "las")
    assert rc == 2 and "add --plot" in err
    rc, _, err = run_cli("report", A, B, "--ylim", "0,1")
    assert rc == 2 and "add --noise" in err


@pytest.mark.slow
def test_noise_plot_with_options(tmp_path, run_cli):
    out = tmp_path / "n"
    rc, _, err = run_cli("noise", A, "-o", out, "--sample", "8", "--runs", "1", "--grid", "1",
                         "--series", "relabel", "--plot", "--metrics", "las,alpha_diff",
                         "--ylim=-0.1,1", "--corpus", A, B, "-q")
    assert rc == 0, err
    desc = png_description(out / "noise-relabel.png")
    assert "metrics: LAS,alpha_diff; ylim: -0.1,1" in desc
