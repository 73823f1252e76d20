"""The options of ``synagree adjudicate`` (its run part: `synagree.cli.adjudicate`)."""
from __future__ import annotations

import argparse

from synagree.base.option_specs import OUTPUT_FORMATS
from synagree.cli import options

#: the summary's formats on standard output (`synagree.render.adjudicate.FORMATS`)
FORMATS = OUTPUT_FORMATS["adjudicate"]


def register(p: argparse.ArgumentParser) -> None:
    """The options of ``synagree adjudicate``."""
    options.add_input(p)
    options.add_declared(p, "weights")  # the API's too (synagree.base.option_specs)
    # a second output file, the command line's own (the API returns res.worklist)
    p.add_argument("--worklist", metavar="FILE",
                   help="write the curator's worklist here (.csv or .json): ties, arcs "
                        "(spans) chosen with no more than half the votes, words moved "
                        "(majority spans dropped) by the tree constraint, units split "
                        "differently")
    options.add_declared(p, "decisions")
    p.add_argument("-o", "--out", required=True, metavar="GOLD.conllu",
                   help="write the consensus CoNLL-U here (atomically)")
    # the summary on standard output: -o is the consensus, so its suffix names no format
    p.add_argument("--output", choices=list(FORMATS), default=None,
                   help="output format (default: from the -o suffix, else the first listed)")
    p.set_defaults(default_output=FORMATS[0], output_formats=tuple(FORMATS))
    options.add_options(p, "--quiet")
