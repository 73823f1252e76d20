"""``synagree plan``: how many sentences to double-annotate for an interval of alpha of a
given width, from a pilot sample (docs/method.md §30)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from synagree.agreement.agree import agree
from synagree.agreement.plan import PlanOptions
from synagree.base.option_specs import SPECS
from synagree.base.problems import InputError, print_problems
from synagree.cli import options
from synagree.cli.options import (
    check_input_choice,
    check_output_path,
    input_options,
    output_format,
)
from synagree.io.files import emit
from synagree.render.mpl import pyplot
from synagree.render.plan import FIGURE_FORMATS, FORMATS, render_plan, write_plan_figure
from synagree.stats.alpha import VARIANTS
from synagree.stats.sample_size import DEFAULT_REPLICATES

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
    options.add_output(p, FORMATS, "table")
    options.add_options(p, "--max-memory", "--quiet")


def run(args: argparse.Namespace) -> int:
    """``synagree plan``: `synagree.agree` with ``plan=``, rendered; the exit status."""
    check_input_choice(args.files, args.dirs)
    output = output_format(args)
    if args.figure:
        pyplot()  # the optional matplotlib: say it is missing before any work
        if args.out and Path(args.figure).resolve() == Path(args.out).resolve():
            raise InputError.single("<command line>", None, "usage",
                                    "--figure and -o name the same file")
        # as -o: not an input, its folder made, writable (before the work)
        made = check_output_path(argparse.Namespace(**{**vars(args), "out": args.figure,
                                                       "out_is_dir": False}))
        if made and not args.quiet:
            print(made, file=sys.stderr)
    # --bootstrap below the minimum for --ci-level: refused by main (check_replicates)
    variants = tuple(VARIANTS) if args.metric == "all" else (args.metric,)
    res = agree(args.files, dirs=args.dirs or (), **input_options(args), variants=variants,
                seed=args.seed, level=args.ci_level,
                plan=PlanOptions(args.width, args.bootstrap or DEFAULT_REPLICATES,
                                 args.max_units),
                progress=not args.quiet, max_memory=args.max_memory)
    if res.warnings and not args.quiet:
        print_problems(res.warnings, limit=10)
    emit(render_plan(res, output), args.out)
    if args.figure:
        assert res.plan is not None
        write_plan_figure(res.plan.plan, args.figure)
        if not args.quiet:
            print(f"synagree: wrote {args.figure}", file=sys.stderr)
    return 0
