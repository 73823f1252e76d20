"""The options of ``synagree tags`` (its run part: `synagree.cli.tags`)."""
from __future__ import annotations

import argparse

from synagree.base.option_specs import OUTPUT_FORMATS
from synagree.cli import options
from synagree.cli.tag_options import add_tag_syntax_args


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    p.add_argument("gold", help="gold CoNLL-U file")
    p.add_argument("system", help="system CoNLL-U file (same sentences and words)")
    options.add_declared(p, "column")
    options.add_options(p, "--format", "--hierarchy", "--plain-as-leaf", "--no-text-check")
    options.add_output(p, OUTPUT_FORMATS["tags"], "table")
    options.add_options(p, "--quiet")
    options.add_options(p, "--coefficient", table=options.GWET_COEFFICIENT)
    options.add_options(p, "--ac2-weights")  # docs/method.md §34.1
    options.add_bootstrap(p)
    options.add_options(p, "--max-memory")
    add_tag_syntax_args(p)  # --tag-syntax, --bdm, --wu-palmer (docs/method.md §15)
    options.add_options(p, "--prf", "--per-feature")
    options.add_declared(p, "tiers")
    options.add_declared(p, "sibling_credit", default=None)  # qualifies --tiers
    options.add_declared(p, "unmapped", default=None)  # --tiers-unmapped qualifies --tiers
    options.add_declared(p, "majority")
    options.add_declared(p, "lexicon")
