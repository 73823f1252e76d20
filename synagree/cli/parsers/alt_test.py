"""The options of ``synagree alt-test`` (its run part: `synagree.cli.alt_test`)."""
from __future__ import annotations

import argparse

from synagree.base.option_specs import OUTPUT_FORMATS
from synagree.cli import options


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    options.add_input(p)
    p.add_argument("--candidate", required=True, metavar="FILE",
                   help="the parser's or the model's annotation of the same sentences (a "
                        "directory with --dirs); --names lists it last; with --label-data a JSON "
                        "file of labels")
    options.add_declared(p, "score")
    p.add_argument("--label-data", metavar="HUMANS.json",
                   help="label data instead of trees: a JSON object {annotator: {instance: "
                        "label}} (the alt-test reference's format); --candidate is then "
                        "{instance: label} or {name: {instance: label}} (pick one with --names)")
    options.add_declared(p, "scoring", default=None)
    for name in ("epsilon", "fdr", "min_units"):
        options.add_declared(p, name)
    options.add_output(p, OUTPUT_FORMATS["alt-test"], "table")
    options.add_options(p, "--quiet")
