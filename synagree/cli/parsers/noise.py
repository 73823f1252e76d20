"""The options of ``synagree noise`` (its run part: `synagree.cli.noise`)."""
from __future__ import annotations

import argparse

from synagree.cli import options
from synagree.cli.plot_options import add_plot_args


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    p.add_argument("source", nargs="+", help="treebank file(s), CoNLL-U/CoNLL-X or bracketed; "
                                             "several files are pooled")
    options.add_out_dir(p)
    # declared once, with the Python API's NoiseOptions (synagree.base.option_specs); the
    # command line spells --series and --grid as one word each, parsed in run()
    options.add_declared(p, "sample")
    options.add_declared(p, "series", nargs=None, default=None)
    options.add_declared(p, "grid", default=None)
    options.add_declared(p, "runs")
    options.add_options(p, "--seed", "--format", "--phrase-style")
    for name in ("cycles", "label_scope", "exclude_current_label", "exclude_current_head",
                 "reattach_draw"):
        options.add_declared(p, name)
    options.add_options(p, "--hierarchy")
    p.add_argument("--plot", action="store_true", help="also write the figures (PNG, SVG, PDF)")
    add_plot_args(p)
    options.add_declared(p, "overwrite")
    options.add_options(p, "--dask", "--max-memory", "--quiet")
