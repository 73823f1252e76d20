"""``synagree agree --runs A1 A2 ... | --retest FIRST SECOND``: sets of files side by side.

Inter-annotator agreement of the annotators' files beside the runs' own
agreement and each annotator's test–retest agreement, one table
(`synagree.agreement.sets`, docs/method.md §34.3).
"""
from __future__ import annotations

import argparse

from synagree.agreement.sets import agreement_sets
from synagree.base.problems import InputError
from synagree.cli.options import input_options, output_format
from synagree.io.files import emit
from synagree.render.agreement_sets import render_sets
from synagree.stats.alpha import VARIANTS

#: (dest, option) of the agree sections that the sets' table does not carry
_SECTIONS = (("breakdown", "--breakdown"), ("worst", "--worst"),
             ("preannotation", "--preannotation"), ("baseline", "--baseline"),
             ("by", "--by"), ("where", "--where"), ("bias", "--bias"),
             ("hierarchy", "--hierarchy"), ("unlabelled", "--unlabelled"),
             ("direction", "--label-direction"), ("dask", "--dask"),
             ("sample_pairs", "--sample-pairs"))


def wants_sets(args: argparse.Namespace) -> bool:
    """``--runs`` or ``--retest`` was given."""
    return bool(getattr(args, "runs", None) or getattr(args, "retest", None))


def run_sets(args: argparse.Namespace) -> int:
    """The sets' table of ``agree --runs/--retest``; the exit status."""
    taken = [opt for dest, opt in _SECTIONS if getattr(args, dest, None)]
    if taken:
        raise InputError.single("<command line>", None, "usage",
                                f"--runs and --retest report alpha and the word scores of "
                                f"each set; they do not combine with {', '.join(taken)}")
    output = output_format(args)
    if output == "html":
        raise InputError.single("<command line>", None, "usage",
                                "--runs and --retest write table, json, csv, markdown or "
                                "latex output")
    variants = tuple(VARIANTS) if args.metric == "all" else (args.metric,)
    sets = agreement_sets(args.files, dirs=args.dirs or (), runs=args.runs or (),
                          retest=[tuple(x) for x in args.retest or ()], variants=variants,
                          bootstrap=args.bootstrap, seed=args.seed, level=args.ci_level,
                          progress=not args.quiet, **input_options(args))
    emit(render_sets(sets, output), args.out)
    return 0
