"""``synagree plan``: how many sentences to double-annotate for an interval of alpha of a
given width, from a pilot sample (docs/method.md §30).  The run part: the options are
declared by `synagree.cli.parsers.plan`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from synagree.agreement.agree import agree
from synagree.agreement.plan import PlanOptions
from synagree.base.problems import InputError, print_problems
from synagree.cli.options import (
    check_input_choice,
    check_output_path,
    input_options,
    output_format,
)
from synagree.io.files import emit
from synagree.render.mpl import pyplot
from synagree.render.plan import render_plan, write_plan_figure
from synagree.stats.alpha import VARIANTS
from synagree.stats.sample_size import DEFAULT_REPLICATES


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
