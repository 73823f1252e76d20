"""The options of ``synagree plot`` (its run part: `synagree.cli.plot`)."""
from __future__ import annotations

import argparse

from synagree.cli import options
from synagree.cli.plot_options import add_plot_args


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    p.add_argument("results", help="runs.csv, runs.jsonl or results.json (or their directory)")
    options.add_out_dir(p)
    p.add_argument("--formats", default="png,svg,pdf", help="comma-separated (default all three)")
    options.add_declared(p, "plot_band")  # --band: plot_results(band=...)
    add_plot_args(p)
    options.add_options(p, "--quiet")
