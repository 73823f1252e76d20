"""Figures for noise experiments (matplotlib, Agg backend): ``synagree plot``.

* ``noise-<series>.{png,svg,pdf}``: one figure per series, in the manner of
  Skjærholt (2014), Figures 3–5: every metric (α_plain, α_diff, α_norm, LAS,
  UAS, LA, extras) in percent against the noise probability p; the line is
  the mean over runs, the shaded band the spread over runs — min to max by
  default (``band="sd"``: mean ± one sample standard deviation).  The band
  kind is written in the figure's caption line.
* ``noise-las-vs-alpha.{png,svg,pdf}``: one panel per α variant, the mean α
  against the mean LAS (or Jaccard) at every (series, p) point, coloured by
  series, with the diagonal α = LAS for reference.

Input is the tidy run table (``runs.csv``, ``runs.jsonl`` or
``results.json`` of `synagree.noise.experiments`) or its rows in memory.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence

import numpy as np

from synagree.base.escape import matplotlib_text
from synagree.base.jsonable import to_float
from synagree.base.problems import InputError
from synagree.io.files import make_output_dir, open_output
from synagree.noise.results import KEY_COLUMNS, read_rows
from synagree.render.mpl import pyplot

# stable colours / styles per metric (colour-blind-friendly Okabe–Ito palette)
METRIC_STYLE = {
    "alpha_plain": dict(color="#0072B2", marker="o", ls="-", label=r"$\alpha_{\mathrm{plain}}$"),
    "alpha_norm": dict(color="#009E73", marker="s", ls="-", label=r"$\alpha_{\mathrm{norm}}$"),
    "alpha_diff": dict(color="#D55E00", marker="^", ls="-", label=r"$\alpha_{\mathrm{diff}}$"),
    "las": dict(color="#000000", marker="D", ls="--", label="LAS"),
    "uas": dict(color="#999999", marker="v", ls=":", label="UAS"),
    "la": dict(color="#CC79A7", marker="x", ls="-.", label="LA"),
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


def _metrics_of(rows: Sequence[Mapping]) -> List[str]:
    cols: List[str] = []
    for r in rows:
        for k in r:
            if k not in KEY_COLUMNS and k not in cols:
                cols.append(k)
    order = ["alpha_plain", "alpha_norm", "alpha_diff", "las", "uas", "la", "jaccard"]
    return [m for m in order if m in cols] + [m for m in cols if m not in order]


def _points(rows: Sequence[Mapping], series: str, metric: str):
    """p values and per-point (mean, sd, min, max) of one metric, sorted by p."""
    by_p: Dict[float, List[float]] = {}
    for r in rows:
        if r["series"] != series:
            continue
        v = r.get(metric)
        if v is None or (isinstance(v, float) and np.isnan(v)):
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
          dpi: Optional[int] = None) -> Dict[str, Path]:
    paths = {}
    for fmt in formats:
        p = out_dir / f"{stem}.{fmt}"
        extra = {"dpi": dpi} if dpi else {}
        with open_output(p, "wb") as fh:  # atomic; errors are OutputErrors
            fig.savefig(fh, format=fmt, bbox_inches="tight",
                        metadata={"Date": None} if fmt in ("svg", "pdf") else None, **extra)
        paths[f"{stem}.{fmt}"] = p
    return paths


def plot_series(rows: Sequence[Mapping], series: str, ax, metrics: Sequence[str],
                band: str = "minmax") -> None:
    """Draw one series on ``ax``: mean curves and spread bands, in percent.

    Parameters
    ----------
    rows : sequence of mapping
        Run rows (`synagree.noise.experiments.read_rows`).
    series : str
    ax : matplotlib.axes.Axes
    metrics : sequence of str
    band : {"minmax", "sd"}
        The shaded band: min to max over runs, or mean ± one sample sd.

    Examples
    --------
    >>> rows = [{"series": "both", "p": p, "run": r, "alpha_plain": a, "las": l}
    ...         for p, r, a, l in [(0.0, 0, 1.0, 1.0), (0.0, 1, 1.0, 1.0), (0.5, 0, 0.3, 0.45),
    ...                            (0.5, 1, 0.4, 0.55), (1.0, 0, 0.0, 0.1), (1.0, 1, 0.02, 0.12)]]
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> plot_series(rows, "both", ax, ["alpha_plain", "las"])
    >>> [line.get_ydata().round(1).tolist() for line in ax.get_lines()[:2]]
    [[100.0, 35.0, 1.0], [100.0, 50.0, 11.0]]
    >>> plt.close(fig)
    """
    for m in metrics:
        ps, mean, sd, lo, hi = _points(rows, series, m)
        if not len(ps):
            continue
        st = METRIC_STYLE.get(m, dict(label=matplotlib_text(m), marker=".", ls="-"))
        kw = {k: v for k, v in st.items() if k in ("color", "marker", "ls")}
        line, = ax.plot(ps, 100 * mean, label=st.get("label", m), lw=1.6, ms=4.5, **kw)
        a, b = (lo, hi) if band == "minmax" else (mean - sd, mean + sd)
        ax.fill_between(ps, 100 * a, 100 * b, color=line.get_color(), alpha=0.18, lw=0)
    ax.axhline(0, color="0.6", lw=0.8, zorder=0)
    ax.set_xlabel(SERIES_XLABEL.get(series, "p"))
    ax.set_ylabel("Agreement (%)")
    ax.set_xlim(0, 1.02)
    ax.set_xticks(np.linspace(0, 1, 11))
    ax.grid(True, color="0.92", lw=0.6)
    ax.set_axisbelow(True)


def plot_results(rows_or_path, out_dir: "str | os.PathLike",
                 formats: Sequence[str] = ("png", "svg", "pdf"), band: str = "minmax",
                 title_prefix: str = "", dpi: Optional[int] = None) -> Dict[str, Path]:
    """Write every figure for the runs in ``rows_or_path``; returns name → path.

    One figure per series (``noise-<series>``) and, with α and LAS (or
    Jaccard), ``noise-las-vs-alpha`` (see the module docstring).

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

    Returns
    -------
    dict of str to pathlib.Path

    Raises
    ------
    ValueError
        Unknown ``band``.
    InputError
        No runs, or an unreadable results file.

    Examples
    --------
    >>> rows = [{"series": "both", "p": p, "run": r, "alpha_plain": a, "las": l}
    ...         for p, r, a, l in [(0.0, 0, 1.0, 1.0), (0.0, 1, 1.0, 1.0), (0.5, 0, 0.3, 0.45),
    ...                            (0.5, 1, 0.4, 0.55), (1.0, 0, 0.0, 0.1), (1.0, 1, 0.02, 0.12)]]
    >>> import shutil, tempfile
    >>> out = tempfile.mkdtemp()
    >>> sorted(plot_results(rows, out, formats=["svg"]))
    ['noise-both.svg', 'noise-las-vs-alpha.svg']
    >>> shutil.rmtree(out)
    """
    if band not in ("minmax", "sd"):
        raise ValueError("band must be 'minmax' or 'sd'")
    if isinstance(rows_or_path, (str, os.PathLike)):
        rows = read_rows(rows_or_path)
    else:
        rows = list(rows_or_path)
    if not rows:
        raise InputError.single(str(rows_or_path) if isinstance(rows_or_path, (str, Path))
                                else "<rows>", None, "empty-input", "no runs to plot")
    plt = _setup()
    out = make_output_dir(out_dir)
    metrics = _metrics_of(rows)
    series = list(dict.fromkeys(str(r["series"]) for r in rows))
    band_text = ("band: min–max" if band == "minmax" else "band: mean ± 1 sd")
    paths: Dict[str, Path] = {}
    stems: set = {"noise-las-vs-alpha"}
    for s in series:
        n_runs = max(Counter(round(to_float(r["p"]), 9) for r in rows
                             if r["series"] == s).values())
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        plot_series(rows, s, ax, metrics, band)
        ax.set_title(title_prefix + SERIES_TITLE.get(s, matplotlib_text(s)))
        leg = ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False,
                        title=f"mean of {n_runs} runs\n{band_text}", alignment="left")
        leg.get_title().set_fontsize(8)
        leg.get_title().set_color("0.3")
        paths.update(_save(fig, out, _file_stem(f"noise-{s}", stems), formats, dpi))
        plt.close(fig)

    score = "las" if "las" in metrics else ("jaccard" if "jaccard" in metrics else None)
    alphas = [m for m in ("alpha_plain", "alpha_norm", "alpha_diff") if m in metrics]
    if score and alphas:
        fig, axes = plt.subplots(1, len(alphas), figsize=(3.4 * len(alphas), 3.6),
                                 squeeze=False)
        for ax, a in zip(axes[0], alphas):
            lo_all = [100.0]
            for s in series:
                _, xm, _, _, _ = _points(rows, s, score)
                _, ym, _, _, _ = _points(rows, s, a)
                k = min(len(xm), len(ym))
                if not k:
                    continue
                st = SERIES_STYLE.get(s, dict(label=matplotlib_text(s), marker="."))
                ax.scatter(100 * xm[:k], 100 * ym[:k], s=22, label=st["label"],
                           color=st.get("color"), marker=st["marker"], zorder=3)
                lo_all += list(100 * ym[:k]) + list(100 * xm[:k])
            lo = min(lo_all)
            ax.plot([min(lo, 0), 100], [min(lo, 0), 100], color="0.6", lw=0.8, ls="--",
                    zorder=1, label=r"$\alpha$ = " + METRIC_STYLE[score]["label"])
            ax.axhline(0, color="0.8", lw=0.6, zorder=0)
            ax.set_xlabel(f"{METRIC_STYLE[score]['label']} (%)")
            ax.set_ylabel(f"{METRIC_STYLE[a]['label']} (%)")
            ax.set_xlim(-3, 103)
            ax.grid(True, color="0.92", lw=0.6)
            ax.set_axisbelow(True)
        handles, labels = axes[0][0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=len(labels), frameon=False,
                   bbox_to_anchor=(0.5, 0.0), fontsize=9)
        label = METRIC_STYLE[score]["label"]
        fig.suptitle(f"{title_prefix}Chance-corrected agreement against {label} "
                     f"(one point per noise level, mean over runs)", fontsize=10)
        fig.tight_layout(rect=(0, 0.08, 1, 1))
        paths.update(_save(fig, out, "noise-las-vs-alpha", formats, dpi))
        plt.close(fig)
    return paths


