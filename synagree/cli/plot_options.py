"""The figure options shared by ``plot``, ``noise --plot`` and ``report --noise``:
``--metrics``, ``--ylim`` and (``plot``, ``noise``) ``--corpus``.

The parser part only (light: a command's help imports nothing that computes, issue
36); their values are read after parsing by `synagree.cli.figures`."""
from __future__ import annotations

import argparse


def add_plot_args(p: argparse.ArgumentParser, corpus: bool = True) -> None:
    """``--metrics LIST``, ``--ylim LO,HI`` and, with ``corpus``, ``--corpus FILE ...``."""
    g = p.add_argument_group("figures")
    g.add_argument("--metrics", metavar="LIST",
                   help="comma-separated metrics to draw, e.g. LAS,alpha_plain (default: "
                        "LAS or Jaccard, alpha_plain, alpha_norm on one panel and alpha_diff "
                        "on a panel of its own)")
    g.add_argument("--ylim", metavar="LO,HI",
                   help="y range of the main panel as fractions, e.g. 0,1 for 0-100 %% (a "
                        "negative LO as --ylim=-0.5,1; default: fitted to the curves; "
                        "alpha_diff keeps its own panel's range)")
    if corpus:
        g.add_argument("--corpus", nargs="+", metavar="FILE",
                       help="the annotators' files (one per annotator) of the corpus the "
                            "runs were made on: its own alpha and LAS are drawn as labelled "
                            "reference lines; runs made on other files are refused")

