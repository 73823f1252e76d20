"""``synagree plot``: figures of a noise experiment.  The run part: the options are
declared by `synagree.cli.parsers.plot`."""
from __future__ import annotations

import argparse
import sys

from synagree.base.problems import InputError
from synagree.cli.figures import corpus_option_reference, plot_settings
from synagree.noise.results import read_config, read_rows
from synagree.render.mpl import pyplot
from synagree.render.plots import choose_metrics, plot_results


def run(args: argparse.Namespace) -> int:
    """``synagree plot``: the figures of a noise experiment's runs; the exit status."""
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    bad = [f for f in formats if f not in ("png", "svg", "pdf")]
    if bad or not formats:
        raise InputError.single("<command line>", None, "usage",
                                f"unknown format(s) {bad}; choose from png, svg, pdf")
    pyplot()  # the optional dependency first (missing-extra)
    metrics, ylim = plot_settings(args)
    rows = read_rows(args.results)
    if rows:
        choose_metrics(rows, metrics)  # an unknown metric: a usage error before any work
    reference = corpus_option_reference(args, read_config(args.results), str(args.results))
    paths = plot_results(rows if rows else args.results, args.out, formats=formats,
                         band=args.plot_band, metrics=metrics, ylim=ylim, reference=reference)
    if not args.quiet:
        for p in paths.values():
            print(p, file=sys.stderr)
    return 0
