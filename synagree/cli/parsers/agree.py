"""The options of ``synagree agree`` (its run part: `synagree.cli.agree`)."""
from __future__ import annotations

import argparse

from synagree.base.option_specs import OUTPUT_FORMATS
from synagree.cli import baseline, options, question_options
from synagree.cli.options import add_variant
from synagree.cli.tag_options import add_tag_syntax_args


def add_hierarchy_args(parser: argparse.ArgumentParser) -> None:
    """``--hierarchy``, ``--label-distance``, ``--plain-as-leaf``, ``--label-credit``."""
    g = parser.add_argument_group("hierarchical labels (Melamed & Resnik credit)")
    options.add_options(g, "--hierarchy")
    options.add_declared(g, "label_distance")
    options.add_options(g, "--plain-as-leaf")
    options.add_declared(g, "label_credit")


def add_worst_args(parser: argparse.ArgumentParser) -> None:
    """``--worst K`` (and ``--variant``) for ``synagree agree``."""
    options.add_declared(parser, "worst")
    add_variant(parser)
    options.add_declared(parser, "worst_by", default=None)  # a qualifier: see run()


def add_breakdown_args(parser: argparse.ArgumentParser) -> None:
    """``--breakdown`` and ``--length-bins`` for ``synagree agree``."""
    options.add_options(parser, "--breakdown")
    # Gwet's AC1/AC2 of the breakdown's label layers (docs/method.md §21.6)
    options.add_options(parser, "--coefficient", table=options.GWET_COEFFICIENT)
    options.add_options(parser, "--ac2-weights")
    # one comma-separated word on the command line; None: not given (it qualifies --breakdown)
    options.add_declared(parser, "length_bins", type=options.increasing_whole_numbers,
                         default=None)


def add_set_args(p: argparse.ArgumentParser) -> None:
    """``--runs`` and ``--retest`` of ``synagree agree`` (run by `synagree.cli.agree_sets`)."""
    p.add_argument("--runs", nargs="+", default=None, metavar="RUN",
                   help="two or more runs of one annotator or model (files, or directories "
                        "with --dirs): their own agreement beside the annotators', in one "
                        "table with intervals (docs/method.md §34.3)")
    p.add_argument("--retest", nargs=2, action="append", default=None,
                   metavar=("FIRST", "SECOND"),
                   help="an annotator's first and second pass (repeat per annotator): "
                        "intra-annotator agreement beside the annotators'")


def register(p: argparse.ArgumentParser) -> None:
    """The options of ``synagree agree``."""
    options.add_input(p)
    add_hierarchy_args(p)  # --hierarchy, --label-distance, --plain-as-leaf, --label-credit
    add_worst_args(p)  # --worst K, --variant, --worst-by
    # alpha over other views of the trees (one more TED pass each)
    options.add_declared(p, "unlabelled")
    options.add_declared(p, "direction")  # --label-direction
    options.add_options(p, "--metric")
    options.add_output(p, OUTPUT_FORMATS["agree"], "table")
    options.add_bootstrap(p)
    options.add_sampling(p)
    options.add_options(p, "--dask", "--max-memory", "--quiet")
    p.add_argument("--max-warnings", type=options.whole_number(0), default=30, metavar="N",
                   help="list at most N warnings on stderr (default 30)")
    add_tag_syntax_args(p)  # with --hierarchy (docs/method.md §15)
    add_breakdown_args(p)  # --breakdown, --length-bins
    question_options.add_question_args(p)  # --bias, --by, --where
    baseline.add_baseline_args(p, "agree")  # --baseline, --baseline-top
    options.add_options(p, "--preannotation")  # docs/method.md §29
    add_set_args(p)  # --runs, --retest: docs/method.md §34.3
