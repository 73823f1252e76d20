"""The options of ``synagree bdm`` (its run part: `synagree.cli.bdm`)."""
from __future__ import annotations

import argparse

from synagree.base.option_specs import OUTPUT_FORMATS
from synagree.cli import options


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    p.add_argument("hierarchy", metavar="HIERARCHY",
                   help="hierarchy file (outline or child<TAB>parent lines; a concept may "
                        "have several parents)")
    p.add_argument("--name", default=None,
                   help="the ontology's name in the header line (default: the file name "
                        "without its suffix)")
    options.add_output(p, OUTPUT_FORMATS["bdm"], "gate")
    options.add_options(p, "--quiet")
