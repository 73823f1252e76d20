"""The options of ``synagree plan`` (its run part: `synagree.cli.plan`)."""
from __future__ import annotations

import argparse
from pathlib import Path

from synagree.base.option_specs import FIGURE_FORMATS, OUTPUT_FORMATS, SPECS
from synagree.cli import options

#: an argparse type: an interval width in alpha units, 0 < W ≤ 4 (``--width``, and
#: report's ``--plan``; declared once, with `PlanOptions`' check, in option_specs)
width_value = options.positive_number(SPECS["width"].hi or 4)


def figure_path(text: str) -> str:
    """An argparse type: a figure file name ending in .svg, .png or .pdf."""
    if Path(text).suffix.lower().lstrip(".") not in FIGURE_FORMATS:
        raise argparse.ArgumentTypeError(f"must end in .svg, .png or .pdf, got {text!r}")
    return text


def register(p: argparse.ArgumentParser) -> None:
    """The options of ``synagree plan``."""
    options.add_input(p)
    options.add_declared(p, "width", required=True)
    options.add_bootstrap(p)  # --bootstrap B: resamples per size (0: the default 1,000)
    options.add_declared(p, "max_units")
    options.add_options(p, "--metric")
    p.add_argument("--figure", type=figure_path, metavar="FILE",
                   help="also draw the resampling curve (.svg, .png or .pdf; needs "
                        "matplotlib: pip install 'synagree[plot]')")
    options.add_output(p, OUTPUT_FORMATS["plan"], "table")
    options.add_options(p, "--max-memory", "--quiet")
