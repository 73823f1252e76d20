"""Figures for noise experiments (matplotlib, Agg backend): ``synagree plot``,
``synagree noise --plot`` and the noise section of ``synagree report --noise``.

* ``noise-<series>.{png,svg,pdf}``: one figure per series, in the manner of
  Skjærholt (2014), Figures 3–5: the chosen metrics (``metrics``; default
  LAS — Jaccard for bracketed trees — α_plain, α_norm and α_diff) against the
  noise probability p.  The line is the mean over runs, the shaded band the
  spread over runs — min to max by default (``band="sd"``: mean ± one sample
  standard deviation); the band kind is written in the legend's title.
  α_diff (which falls to −300 % and below at p = 1 and would flatten every
  other curve) is drawn on a panel of its own under the others, sharing the
  p axis; the main panel's range is ``ylim`` when given.  A value beyond that
  range is named in a note on the panel, never silently cut.
* ``noise-las-vs-alpha.{png,svg,pdf}``: one panel per chosen α variant, the
  mean α against the mean LAS (or Jaccard) at every (series, p) point,
  coloured by series, with the diagonal α = LAS for reference (drawn when the
  metrics hold a score and an α).

Values are fractions (1.0 = 100 %) on axes labelled in percent, so ``ylim``
is in fractions too: ``(0, 1)`` shows 0–100 %.  With a ``reference`` (the
corpus's own α and LAS, `reference_values`) each metric's value is a dotted
horizontal line of its colour, labelled with the value, and a star in the
LAS-vs-α panels.  Every file records what it shows in its metadata
(PNG/SVG ``Description``, PDF ``Subject``): series, metrics, ylim, band.

Input is the tidy run table (``runs.csv``, ``runs.jsonl`` or
``results.json`` of `synagree.noise.experiments`) or its rows in memory.
"""
from __future__ import annotations

import math
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from synagree.base.escape import matplotlib_text
from synagree.base.jsonable import to_float
from synagree.base.metrics import word_scores
from synagree.base.option_specs import check_as
from synagree.base.problems import InputError
from synagree.io.files import make_output_dir, open_output
from synagree.noise.results import KEY_COLUMNS, METRIC_TITLES, read_rows, runs_mismatch
from synagree.render.mpl import pyplot

# stable colours / styles per metric (colour-blind-friendly Okabe–Ito palette; the
# marker and the dash pattern tell the curves apart without colour too)
METRIC_STYLE = {
    "alpha_plain": dict(color="#0072B2", marker="o", ls="-", label=r"$\alpha_{\mathrm{plain}}$"),
    "alpha_norm": dict(color="#009E73", marker="s", ls="-", label=r"$\alpha_{\mathrm{norm}}$"),
    "alpha_diff": dict(color="#D55E00", marker="^", ls="-", label=r"$\alpha_{\mathrm{diff}}$"),
    "LAS": dict(color="#000000", marker="D", ls="--", label="LAS"),
    "LAS_full": dict(color="#56B4E9", marker="P", ls="--", label="LAS_full"),
    "UAS": dict(color="#999999", marker="v", ls=":", label="UAS"),
    "LA": dict(color="#CC79A7", marker="x", ls="-.", label="LA"),
    "jaccard": dict(color="#000000", marker="D", ls="--", label="Jaccard"),
}
SERIES_STYLE = {
    "both": dict(color="#0072B2", marker="o", label="relabel + reattach"),
    "relabel": dict(color="#E69F00", marker="s", label="relabel only"),
    "reattach": dict(color="#009E73", marker="^", label="reattach only"),
    "random": dict(color="#CC79A7", marker="x", label="random trees"),
}
SERIES_TITLE = {
    "both": r"Relabelling and reattachment ($p_{\mathrm{relabel}} = p_{\mathrm{reattach}} = p$)",
    "relabel": r"Relabelling only ($p_{\mathrm{reattach}} = 0$)",
    "reattach": r"Reattachment only ($p_{\mathrm{relabel}} = 0$)",
    "random": r"Uniform random trees (fraction $p$ of sentences replaced)",
}
SERIES_XLABEL = {
    "both": r"Noise probability $p$",
    "relabel": r"Relabelling probability $p_{\mathrm{relabel}}$",
    "reattach": r"Reattachment probability $p_{\mathrm{reattach}}$",
    "random": r"Fraction $p$ of sentences replaced by random trees",
}
#: The metrics drawn when none are chosen (those the runs have; Jaccard for brackets).
DEFAULT_METRICS: Tuple[str, ...] = ("LAS", "jaccard", "alpha_plain", "alpha_norm",
                                    "alpha_diff")
#: Metrics drawn on a panel of their own (their range dwarfs the others').
OWN_PANEL: Tuple[str, ...] = ("alpha_diff",)


def _order() -> Tuple[str, ...]:
    """The columns' drawing order: α, the registry's word scores, Jaccard."""
    return ("alpha_plain", "alpha_norm", "alpha_diff", *word_scores("agree"), "jaccard")


def _metrics_of(rows: Sequence[Mapping]) -> List[str]:
    """The metric columns of the runs: every column but the keys with a number in it."""
    cols: List[str] = []
    for r in rows:
        for k, v in r.items():
            if (k not in KEY_COLUMNS and k not in cols and isinstance(v, (int, float))
                    and not isinstance(v, bool)):
                cols.append(k)
    order = _order()
    return [m for m in order if m in cols] + [m for m in cols if m not in order]


def choose_metrics(rows: Sequence[Mapping], wanted: Optional[Sequence[str]] = None
                   ) -> List[str]:
    """The metrics to draw: ``wanted`` (names matched without regard to case,
    in the order given), or `DEFAULT_METRICS` that the runs have (every metric
    when they have none of those).

    Parameters
    ----------
    rows : sequence of mapping
        Run rows.
    wanted : sequence of str, optional
        E.g. ``["LAS", "alpha_plain"]``.

    Returns
    -------
    list of str
        Column names of the runs.

    Raises
    ------
    InputError
        ``usage``: a wanted metric the runs do not have (the message lists
        those they have).
    """
    have = _metrics_of(rows)
    if wanted is None:
        defaults = DEFAULT_METRICS if "LAS" in have else tuple(
            "LAS_full" if m == "LAS" else m for m in DEFAULT_METRICS)
        chosen = [m for m in defaults if m in have]
        return chosen or have
    lower = {m.lower(): m for m in have}
    bad = [w for w in wanted if w.strip().lower() not in lower]
    if bad or not wanted:
        raise InputError.single("<command line>", None, "usage",
                                f"--metrics: {', '.join(bad) or '(none)'} not in the runs; "
                                f"they have {', '.join(have) or 'no metric'}")
    return list(dict.fromkeys(lower[w.strip().lower()] for w in wanted))


def parse_metrics(text: Optional[str]) -> Optional[List[str]]:
    """``--metrics LIST`` (comma-separated) as a list, None when not given."""
    if text is None:
        return None
    return [m.strip() for m in text.split(",") if m.strip()]


def parse_ylim(text: Optional[str]) -> Optional[Tuple[float, float]]:
    """``--ylim LO,HI`` in fractions (``0,1`` shows 0–100 %), None when not given.

    Raises
    ------
    InputError
        ``usage``: not two finite numbers with LO < HI.
    """
    if text is None:
        return None
    parts = [x.strip() for x in text.split(",")]
    try:
        lo, hi = (float(x) for x in parts) if len(parts) == 2 else (math.nan, math.nan)
    except ValueError:
        lo = hi = math.nan
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise InputError.single("<command line>", None, "usage",
                                f"--ylim {text}: give LO,HI, two numbers with LO < HI, as "
                                f"fractions (0,1 shows 0 to 100 %)")
    return lo, hi


@dataclass
class Reference:
    """The corpus's own values, drawn as reference lines.

    Parameters
    ----------
    values : dict of str to float
        Metric (``alpha_plain``, ``las``, ...) to its value, a fraction.
    label : str
        Who they are of, for the legend (``this corpus``).
    note : str, optional
        Said under the figure (how the runs relate to the corpus).
    """

    values: Dict[str, float] = field(default_factory=dict)
    label: str = "this corpus"
    note: Optional[str] = None


def reference_values(result: Any, label: str = "this corpus") -> Reference:
    """The α of every variant and the scores of an agreement result, as a `Reference`.

    Parameters
    ----------
    result : AgreementResult
    label : str

    Returns
    -------
    Reference
        Undefined values are left out.
    """
    vals: Dict[str, float] = {}
    for v, st in result.alpha.items():
        if st.alpha is not None and math.isfinite(st.alpha):
            vals[f"alpha_{v}"] = float(st.alpha)
    for m in result.score_names:
        x = result.scores.ratio(m)
        if x is not None and math.isfinite(x):
            vals[m] = float(x)
    return Reference(vals, label)


def check_runs(config: Optional[Mapping], corpus: Any, where: str) -> None:
    """Refuse noise runs made on another corpus than ``corpus``.

    Parameters
    ----------
    config : mapping or None
        The runs' configuration (None: unrecorded, nothing to check).
    corpus : Corpus
    where : str
        The runs' file, for the message.

    Raises
    ------
    InputError
        ``runs-mismatch`` (`synagree.noise.results.runs_mismatch` says why).
    """
    if config is None:
        return
    why = runs_mismatch(config, getattr(corpus, "files", None) or {},
                        getattr(corpus, "kind", "dependency"))
    if why:
        raise InputError.single(where, None, "runs-mismatch",
                                f"these noise runs were not made on this corpus: {why}. Draw "
                                f"runs of synagree noise on this corpus's files (one "
                                f"annotator's) beside it")


def corpus_reference(result: Any, config: Optional[Mapping], where: str,
                     label: str = "this corpus") -> Reference:
    """The corpus's own values as a `Reference`, once its noise runs are checked.

    Parameters
    ----------
    result : AgreementResult
        Agreement of the corpus (its ``corpus`` names the files read).
    config : mapping or None
        The runs' configuration (`synagree.noise.results.read_config`); None
        when they record none, which the reference's note then says.
    where : str
        The runs' file, for messages.
    label : str

    Raises
    ------
    InputError
        ``runs-mismatch``: the runs were made on other files or another kind
        of tree than the corpus (`synagree.noise.results.runs_mismatch`).
    """
    ref = reference_values(result, label)
    if config is None:
        ref.note = (f"The runs in {Path(where).name} record no configuration (no config.json "
                    f"beside them), so whether they were made on this corpus could not be "
                    f"checked.")
        return ref
    check_runs(config, result.corpus, where)
    src = config.get("source") or {}
    ref.note = (f"Runs on {', '.join(map(str, src.get('files') or []))} "
                f"({config.get('sample') or 'all'} sentences sampled, seed "
                f"{config.get('seed')}): files of this corpus, checked by SHA-256.")
    return ref


def _points(rows: Sequence[Mapping], series: str, metric: str):
    """p values and per-point (mean, sd, min, max) of one metric, sorted by p."""
    by_p: Dict[float, List[float]] = {}
    for r in rows:
        if r["series"] != series:
            continue
        v = r.get(metric)
        if (not isinstance(v, (int, float)) or isinstance(v, bool)
                or not math.isfinite(float(v))):
            continue
        by_p.setdefault(round(float(r["p"]), 9), []).append(float(v))
    ps = sorted(by_p)
    vals = [np.asarray(by_p[p]) for p in ps]
    mean = np.array([v.mean() for v in vals])
    sd = np.array([v.std(ddof=1) if len(v) > 1 else 0.0 for v in vals])
    lo = np.array([v.min() for v in vals])
    hi = np.array([v.max() for v in vals])
    return np.array(ps), mean, sd, lo, hi


def _setup():
    plt = pyplot()
    plt.rcParams.update({
        "font.size": 10, "axes.titlesize": 10.5, "axes.labelsize": 10,
        "legend.fontsize": 9, "xtick.labelsize": 9, "ytick.labelsize": 9,
        "figure.dpi": 100, "savefig.dpi": 200, "svg.fonttype": "none",
        "svg.hashsalt": "synagree",
        "pdf.fonttype": 42, "axes.spines.top": False, "axes.spines.right": False,
    })
    return plt


def _file_stem(name: str, taken: set) -> str:
    """``name`` (from a series name in the input) as a file name in the output
    directory: ASCII letters, digits, ``-``, ``_`` and ``.`` only, no leading
    dot, at most 80 characters, different from every name in ``taken``."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:80].lstrip(".") or "series"
    base, k = stem, 1
    while stem in taken:
        k += 1
        stem = f"{base}-{k}"
    taken.add(stem)
    return stem


def _save(fig, out_dir: Path, stem: str, formats: Sequence[str],
          dpi: Optional[int] = None, description: str = "") -> Dict[str, Path]:
    paths = {}
    for fmt in formats:
        p = out_dir / f"{stem}.{fmt}"
        extra = {"dpi": dpi} if dpi else {}
        metas: Dict[str, Dict[str, Any]] = {
            "png": {"Description": description},
            "svg": {"Date": None, "Description": description},
            "pdf": {"CreationDate": None, "Subject": description}}
        meta = metas.get(fmt, {})
        with open_output(p, "wb") as fh:  # atomic; errors are OutputErrors
            fig.savefig(fh, format=fmt, bbox_inches="tight", metadata=meta, **extra)
        paths[f"{stem}.{fmt}"] = p
    return paths


def describe(series: str, metrics: Sequence[str], ylim: Optional[Tuple[float, float]],
             band: str) -> str:
    """What a figure shows, as written into its metadata."""
    lim = "auto" if ylim is None else f"{ylim[0]:g},{ylim[1]:g}"
    return (f"synagree noise figure; series: {series}; metrics: {','.join(metrics)}; "
            f"ylim: {lim}; band: {band}")


def _label(m: str) -> str:
    return str(METRIC_STYLE.get(m, {}).get("label", matplotlib_text(m)))


def _plain(m: str) -> str:
    return matplotlib_text(METRIC_TITLES.get(m, m))


def plot_series(rows: Sequence[Mapping], series: str, ax, metrics: Sequence[str],
                band: str = "minmax", reference: Optional[Reference] = None,
                ylim: Optional[Tuple[float, float]] = None) -> None:
    """Draw one series on ``ax``: mean curves and spread bands, as fractions on
    an axis labelled in percent.

    Parameters
    ----------
    rows : sequence of mapping
        Run rows (`synagree.noise.experiments.read_rows`).
    series : str
    ax : matplotlib.axes.Axes
    metrics : sequence of str
    band : {"minmax", "sd"}
        The shaded band: min to max over runs, or mean ± one sample sd.
    reference : Reference, optional
        The corpus's own values: a dotted line per metric it has.
    ylim : (float, float), optional
        The y range (fractions); values beyond it are named in a note on the
        panel.
    """
    from matplotlib.ticker import PercentFormatter

    below: List[str] = []
    above: List[str] = []
    for m in metrics:
        ps, mean, sd, lo, hi = _points(rows, series, m)
        if not len(ps):
            continue
        st = METRIC_STYLE.get(m, dict(label=matplotlib_text(m), marker=".", ls="-"))
        kw = {k: v for k, v in st.items() if k in ("color", "marker", "ls")}
        line, = ax.plot(ps, mean, label=st.get("label", m), lw=1.6, ms=4.5, **kw)
        a, b = (lo, hi) if band == "minmax" else (mean - sd, mean + sd)
        ax.fill_between(ps, a, b, color=line.get_color(), alpha=0.18, lw=0)
        if ylim is not None and float(np.min(a)) < ylim[0] - 1e-12:
            below.append(f"{_plain(m)} down to {100 * float(np.min(a)):.1f} %")
        if ylim is not None and float(np.max(b)) > ylim[1] + 1e-12:
            above.append(f"{_plain(m)} up to {100 * float(np.max(b)):.1f} %")
        ref = None if reference is None else reference.values.get(m)
        if reference is not None and ref is not None:
            ax.axhline(ref, color=line.get_color(), ls=(0, (1, 1.5)), lw=1.3, zorder=1,
                       label=f"{st.get('label', m)}, {matplotlib_text(reference.label)}: "
                             f"{100 * ref:.1f} %")
            if ylim is not None and not ylim[0] <= ref <= ylim[1]:
                (below if ref < ylim[0] else above).append(
                    f"{_plain(m)} of {matplotlib_text(reference.label)} {100 * ref:.1f} %")
    ax.axhline(0, color="0.6", lw=0.8, zorder=0)
    ax.set_xlabel(SERIES_XLABEL.get(series, "p"))
    ax.set_ylabel("Agreement")
    ax.yaxis.set_major_formatter(PercentFormatter(xmax=1.0))
    ax.set_xlim(0, 1.02)
    ax.set_xticks(np.linspace(0, 1, 11))
    if ylim is not None:
        ax.set_ylim(*ylim)
    notes = ([f"below the axis: {', '.join(below)}"] if below else []) + \
        ([f"above the axis: {', '.join(above)}"] if above else [])
    if notes:  # a value the range cuts off is named, never silently hidden
        ax.text(0.01, 0.015, "; ".join(notes), transform=ax.transAxes, fontsize=7.5,
                color="0.25", va="bottom", ha="left", zorder=5,
                bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="0.8", lw=0.5))
    ax.grid(True, color="0.92", lw=0.6)
    ax.set_axisbelow(True)


def series_figure(rows: Sequence[Mapping], series: str, metrics: Sequence[str],
                  band: str = "minmax", ylim: Optional[Tuple[float, float]] = None,
                  reference: Optional[Reference] = None, title_prefix: str = "",
                  width: float = 6.4):
    """The figure of one series: the metrics against p, α_diff on its own panel.

    Parameters
    ----------
    rows : sequence of mapping
    series : str
    metrics : sequence of str
        From `choose_metrics`.
    band : {"minmax", "sd"}
    ylim : (float, float), optional
        The main panel's y range (fractions); the α_diff panel keeps its own
        (unless it is the only one).
    reference : Reference, optional
    title_prefix : str
    width : float
        Inches.

    Returns
    -------
    matplotlib.figure.Figure
        Its axes: the main panel first, then the α_diff panel if any.
    """
    plt = _setup()
    main = [m for m in metrics if m not in OWN_PANEL]
    own = [m for m in metrics if m in OWN_PANEL]
    panels = [x for x in (main, own) if x] or [main]  # (no metric: one empty panel)
    heights = [2.2 if x is main else 1.25 for x in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(width, 1.5 + 1.9 * sum(heights) / 2.2),
                             sharex=True, squeeze=False,
                             gridspec_kw={"height_ratios": heights, "hspace": 0.12})
    n_runs = max(Counter(round(to_float(r["p"]), 9) for r in rows
                         if r["series"] == series).values() or [0])
    band_text = "band: min–max" if band == "minmax" else "band: mean ± 1 sd"
    for k, (ax, ms) in enumerate(zip(axes[:, 0], panels)):
        plot_series(rows, series, ax, ms, band, reference,
                    ylim if ms is main or len(panels) == 1 else None)
        if ms is own:
            ax.set_ylabel(_label(ms[0]) if len(ms) == 1 else "Agreement")
        if k < len(panels) - 1:
            ax.set_xlabel("")
            ax.tick_params(labelbottom=False)
        if not ax.get_legend_handles_labels()[0]:
            continue  # (nothing drawn: no legend)
        leg = ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False,
                        title=(f"mean of {n_runs} runs\n{band_text}" if k == 0 else None),
                        alignment="left")
        if k == 0:
            leg.get_title().set_fontsize(8)
            leg.get_title().set_color("0.3")
    axes[0, 0].set_title(title_prefix + SERIES_TITLE.get(series, matplotlib_text(series)))
    if reference is not None and reference.note:
        fig.text(0.01, -0.01, matplotlib_text(reference.note), fontsize=7.5, color="0.3",
                 ha="left", va="top", wrap=True)
    return fig


def plot_results(rows_or_path, out_dir: "str | os.PathLike",
                 formats: Sequence[str] = ("png", "svg", "pdf"), band: str = "minmax",
                 title_prefix: str = "", dpi: Optional[int] = None,
                 metrics: Optional[Sequence[str]] = None,
                 ylim: Optional[Tuple[float, float]] = None,
                 reference: Optional[Reference] = None) -> Dict[str, Path]:
    """Write every figure for the runs in ``rows_or_path``; returns name → path.

    One figure per series (``noise-<series>``) and, with α and LAS (or
    Jaccard) among the metrics, ``noise-las-vs-alpha`` (see the module
    docstring).

    Parameters
    ----------
    rows_or_path : sequence of mapping, str or path-like
        Run rows, or a ``runs.csv`` / ``runs.jsonl`` / ``results.json`` (or a
        directory holding one).
    out_dir : str or path-like
    formats : sequence of str
        File formats (``png``, ``svg``, ``pdf``).
    band : {"minmax", "sd"}
    title_prefix : str
        Goes before each series title (e.g. the corpus name).
    dpi : int, optional
        PNG resolution (default 200).
    metrics : sequence of str, optional
        See `choose_metrics` (default: LAS or Jaccard, α_plain, α_norm,
        α_diff).
    ylim : (float, float), optional
        The main panels' y range, in fractions (see `parse_ylim`).
    reference : Reference, optional
        The corpus's own values (`reference_values`), drawn as reference lines.

    Raises
    ------
    ValueError
        Unknown ``band`` (the words of ``plot --band``: `SPECS` ``plot_band``).
    InputError
        No runs, an unreadable results file, a metric the runs lack.
    """
    band = check_as("band", "plot_band", band, "plot_results(): ")  # as plot --band
    if isinstance(rows_or_path, (str, os.PathLike)):
        rows = read_rows(rows_or_path)
    else:
        rows = list(rows_or_path)
    if not rows:
        raise InputError.single(str(rows_or_path) if isinstance(rows_or_path, (str, Path))
                                else "<rows>", None, "empty-input", "no runs to plot")
    chosen = choose_metrics(rows, metrics)
    plt = _setup()
    out = make_output_dir(out_dir)
    series = list(dict.fromkeys(str(r["series"]) for r in rows))
    paths: Dict[str, Path] = {}
    stems: set = {"noise-las-vs-alpha"}
    for s in series:
        fig = series_figure(rows, s, chosen, band, ylim, reference, title_prefix)
        paths.update(_save(fig, out, _file_stem(f"noise-{s}", stems), formats, dpi,
                           describe(s, chosen, ylim, band)))
        plt.close(fig)
    fig = las_alpha_figure(rows, chosen, ylim, reference, title_prefix)
    if fig is not None:
        paths.update(_save(fig, out, "noise-las-vs-alpha", formats, dpi,
                           describe("all", chosen, ylim, band)))
        plt.close(fig)
    return paths


def las_alpha_figure(rows: Sequence[Mapping], metrics: Sequence[str],
                     ylim: Optional[Tuple[float, float]] = None,
                     reference: Optional[Reference] = None, title_prefix: str = ""):
    """Mean α against mean LAS (or Jaccard) per (series, p), one panel per α
    among ``metrics``; None without a score or an α among them.

    ``ylim`` bounds the y axis of every panel but α_diff's.
    """
    from matplotlib.ticker import PercentFormatter

    score = next((m for m in ("LAS", "LAS_full", "jaccard") if m in metrics), None)
    alphas = [m for m in ("alpha_plain", "alpha_norm", "alpha_diff") if m in metrics]
    if not (score and alphas):
        return None
    plt = _setup()
    series = list(dict.fromkeys(str(r["series"]) for r in rows))
    fig, axes = plt.subplots(1, len(alphas), figsize=(3.4 * len(alphas), 3.6), squeeze=False)
    for ax, a in zip(axes[0], alphas):
        lo_all = [1.0]
        for s in series:
            _, xm, _, _, _ = _points(rows, s, score)
            _, ym, _, _, _ = _points(rows, s, a)
            k = min(len(xm), len(ym))
            if not k:
                continue
            st = SERIES_STYLE.get(s, dict(label=matplotlib_text(s), marker="."))
            ax.scatter(xm[:k], ym[:k], s=22, label=st["label"], color=st.get("color"),
                       marker=st["marker"], zorder=3)
            lo_all += list(ym[:k]) + list(xm[:k])
        lo = min(lo_all)
        ax.plot([min(lo, 0), 1], [min(lo, 0), 1], color="0.6", lw=0.8, ls="--", zorder=1,
                label=r"$\alpha$ = " + _label(score))
        if reference is not None and a in reference.values and score in reference.values:
            ax.scatter([reference.values[score]], [reference.values[a]], marker="*", s=140,
                       color="#000000", zorder=4, label=matplotlib_text(reference.label))
        ax.axhline(0, color="0.8", lw=0.6, zorder=0)
        ax.set_xlabel(_label(score))
        ax.set_ylabel(_label(a))
        ax.xaxis.set_major_formatter(PercentFormatter(xmax=1.0))
        ax.yaxis.set_major_formatter(PercentFormatter(xmax=1.0))
        ax.set_xlim(-0.03, 1.03)
        if ylim is not None and a not in OWN_PANEL:
            ax.set_ylim(*ylim)
        ax.grid(True, color="0.92", lw=0.6)
        ax.set_axisbelow(True)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), frameon=False,
               bbox_to_anchor=(0.5, 0.0), fontsize=9)
    fig.suptitle(f"{title_prefix}Chance-corrected agreement against {_label(score)} "
                 f"(one point per noise level, mean over runs)", fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig
