"""``synagree tags``: one CoNLL-U column of a system file against gold."""
from __future__ import annotations

import argparse

from synagree.base.problems import print_problems
from synagree.cli import options
from synagree.cli.options import output_format
from synagree.evaluation.tags import COLUMNS, OUTPUTS, evaluate_tags
from synagree.io.files import emit
from synagree.render.tags import render_tags


# ---------------------------------------------------------------- CLI
def run(args: argparse.Namespace) -> int:
    """``synagree tags``: one tag column evaluated against gold; the exit status."""
    res = evaluate_tags(args.gold, args.system, column=args.column, hierarchy=args.hierarchy,
                        plain_as_leaf=args.plain_as_leaf, check_text=not args.no_text_check,
                        per_feature=args.per_feature)
    if res.warnings and not args.quiet:
        print_problems(res.warnings, limit=10)
    text = render_tags(res, output_format(args))
    emit(text, args.out)
    return 0


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    p.description = ("Compare one CoNLL-U column of a system file with a gold file word by "
                    "word (same tokenisation): exact accuracy, Melamed & Resnik hierarchical "
                    "credit, Cohen's kappa, Scott's pi, hierarchical kappa, per-tag "
                    "breakdown.")
    p.add_argument("gold", help="gold CoNLL-U file")
    p.add_argument("system", help="system CoNLL-U file (same sentences and words)")
    p.add_argument("--column", default="deprel", choices=list(COLUMNS),
                   help="column to evaluate (default: deprel)")
    p.add_argument("--hierarchy", metavar="ud|msd|flat|FILE", default=None,
                   help="tag hierarchy (default: ud for deprel, flat otherwise)")
    p.add_argument("--plain-as-leaf", action="store_true",
                   help="with --hierarchy ud: a plain relation is a leaf beside its subtypes")
    options.add_text_check(p)
    options.add_output(p, OUTPUTS, "table")
    options.add_quiet(p)
    p.add_argument("--per-feature", action="store_true",
                   help="with --column feats: also score each feature of FEATS (precision, "
                        "recall, F1, accuracy, kappa per feature; UFeats accuracy)")
