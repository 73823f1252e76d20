"""``synagree tags``: one CoNLL-U column of a system file against gold.  The run part: the
options are declared by `synagree.cli.parsers.tags`."""
from __future__ import annotations

import argparse

from synagree.base.problems import InputError, print_problems
from synagree.cli import options
from synagree.cli.options import output_format
from synagree.evaluation.tags import evaluate_tags
from synagree.evaluation.tiers import SIBLING_CREDIT
from synagree.io.files import emit
from synagree.render.tags import render_tags


# ---------------------------------------------------------------- CLI
def run(args: argparse.Namespace) -> int:
    """``synagree tags``: one tag column evaluated against gold; the exit status."""
    output = output_format(args)
    if args.per_feature and output == "csv":
        # the per-feature CSV holds the per-feature rows only: another table would be lost
        for given, option in ((args.prf, "--prf"), (args.tiers is not None, "--tiers")):
            if given:
                raise InputError.single(
                    "<command line>", None, "usage",
                    f"--per-feature and {option} give two tables with different columns: "
                    f"CSV holds one; use -o FILE.json for both, or run twice")
    res = evaluate_tags(args.gold, args.system, column=args.column, hierarchy=args.hierarchy,
                        plain_as_leaf=args.plain_as_leaf, check_text=not args.no_text_check,
                        tag_syntax=args.tag_syntax, bdm=args.bdm, prf=args.prf,
                        wu_palmer=args.wu_palmer,
                        per_feature=args.per_feature, bootstrap=args.bootstrap,
                        seed=args.seed, level=args.ci_level, max_memory=args.max_memory,
                        fmt=args.fmt, coefficient=args.coefficient, ac2_weights=args.ac2_weights,
                        **_tiers_options(args))
    if res.warnings and not args.quiet:
        print_problems(res.warnings, limit=10)
    text = render_tags(res, output)
    emit(text, args.out)
    return 0


def _tiers_options(args: argparse.Namespace) -> dict:
    """The ``--tiers`` keyword arguments of `evaluate_tags`; its companions need it."""
    present = args.tiers is not None
    options.qualifier(args, "sibling_credit", present, SIBLING_CREDIT,
                      "--sibling-credit applies with --tiers only")
    options.qualifier(args, "unmapped", present, "error",
                      "--tiers-unmapped applies with --tiers only")
    if not present:
        for given, option in ((args.majority, "--majority"), (args.lexicon, "--lexicon")):
            if given:
                raise InputError.single("<command line>", None, "usage",
                                        f"{option} applies with --tiers only")
        return {}
    return {"tiers": args.tiers, "sibling_credit": args.sibling_credit,
            "unmapped": args.unmapped, "majority": args.majority,
            "lexicon": args.lexicon}
