"""The options of ``synagree spans`` (its run part: `synagree.cli.spans`)."""
from __future__ import annotations

import argparse

from synagree.base.option_specs import OUTPUT_FORMATS, SPAN_COEFFICIENTS
from synagree.cli import options


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="two or more files, all bracketed trees or all CoNLL-U; the first of "
                        "each pair is the key (gold)")
    options.add_declared(p, "layer")
    options.add_declared(p, "labels")
    options.add_options(p, "--hierarchy", "--bdm", "--format", "--phrase-style", "--names",
                           "--allow-missing", "--no-text-check")
    options.add_output(p, OUTPUT_FORMATS["spans"], "table")
    options.add_options(p, "--quiet", "--sets", "--type")
    p.add_argument("--coefficient", choices=SPAN_COEFFICIENTS, default=None,
                   help="instead of GATE's P/R/F1, Krippendorff's chance-corrected unitizing "
                        "alpha (alpha-u) of every file over the continuum of positions "
                        "(docs/method.md §34.4), or Mathet et al.'s gamma with "
                        "pygamma-agreement's defaults (§34.5)")
    for name in ("gamma_samples", "gamma_seed", "gamma_precision", "gamma_budget"):
        options.add_declared(p, name)  # None: not given (they go with --coefficient gamma)
