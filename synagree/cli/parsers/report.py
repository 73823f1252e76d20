"""The options of ``synagree report`` (its run part: `synagree.cli.report`)."""
from __future__ import annotations

import argparse

from synagree.base.option_specs import OUTPUT_FORMATS
from synagree.cli import baseline, options, question_options
from synagree.cli.parsers.plan import width_value
from synagree.cli.plot_options import add_plot_args


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    options.add_input(p)
    options.add_output(p, OUTPUT_FORMATS["report"], "html")
    options.add_declared(p, "noise")  # a results file here; the API also takes rows
    add_plot_args(p, corpus=False)
    options.add_bootstrap(p)
    baseline.add_baseline_args(p, "report")  # --baseline (--compare-to), --baseline-top
    options.add_sampling(p)
    # one comma-separated word on the command line (checked by categorical.parse_layers)
    options.add_declared(p, "layers", nargs=None)
    options.add_variant(p)
    options.add_declared(p, "worst", default=20)  # report always lists them
    options.add_declared(p, "max_sentences")
    options.add_declared(p, "title")
    options.add_declared(p, "adjudicate")
    g = p.add_argument_group("parser, pre-annotation and planning (docs/method.md §28-30)")
    g.add_argument("--system", metavar="FILE",
                   help="a parser's output of the same sentences (a directory with --dirs): "
                        "its agreement with each human beside another human's, with paired "
                        "bootstrap intervals and a verdict (within / below / above the "
                        "human band)")
    options.add_declared(g, "reference")
    options.add_options(p, "--preannotation")  # as agree's (docs/method.md §29)
    # the command line gives the width (checked as plan --width); the API a PlanOptions
    options.add_declared(g, "plan", type=width_value)
    question_options.add_question_args(p)  # --bias, --by, --where
    options.add_options(p, "--dask", "--max-memory", "--quiet")
