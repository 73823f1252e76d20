"""The options of ``synagree categorical`` (its run part: `synagree.cli.categorical`)."""
from __future__ import annotations

import argparse

from synagree.base.option_specs import OUTPUT_FORMATS
from synagree.cli import options


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    options.add_input(p)
    # one comma-separated word on the command line (checked by categorical.parse_layers)
    options.add_declared(p, "layers", nargs=None)
    options.add_declared(p, "specific")
    options.add_bootstrap(p)
    p.add_argument("--confusion", action="store_true",
                   help="JSON: include the contingency tables (sparse [row, col, count])")
    options.add_output(p, OUTPUT_FORMATS["categorical"], "table")
    options.add_options(p, "--max-memory", "--quiet", "--per-feature")
    options.add_declared(p, "feature_items", default=None)  # qualifies --per-feature
    options.add_declared(p, "enhanced")
    options.add_declared(p, "set_distance", default=None)  # qualifies --enhanced
    options.add_options(p, "--bias", "--sets", "--type")
    options.add_declared(p, "gate_feature")  # --feature
    options.add_options(p, "--coefficient", table=options.GWET_COEFFICIENT)
    options.add_options(p, "--ac2-weights")
    options.add_options(p, "--hierarchy")
