"""``synagree alt-test HUMANS... --candidate FILE``: can the candidate replace a human?

The alternative annotator test (Calderon, Reichart & Dror 2025;
docs/method.md §34.2), `synagree.agreement.alt_test.alt_test`, rendered.
"""
from __future__ import annotations

import argparse

from synagree.agreement.alt_test import ALT_TEST_METRICS, alt_test
from synagree.base.problems import InputError
from synagree.cli import options
from synagree.cli.options import check_input_choice, output_format
from synagree.io.files import emit
from synagree.render.alt_test import render_alt_test
from synagree.stats.alt_test import DEFAULT_EPSILON, DEFAULT_Q, MIN_HUMANS, MIN_UNITS

#: every metric of either input kind, the default first
METRICS = tuple(dict.fromkeys(m for ms in ALT_TEST_METRICS.values() for m in ms))


def run(args: argparse.Namespace) -> int:
    """``synagree alt-test``: the test, rendered; the exit status."""
    check_input_choice(args.files, args.dirs)
    humans = args.dirs or args.files
    if len(humans) < MIN_HUMANS:
        raise InputError.single("<command line>", None, "usage",
                                f"the alt-test needs at least {MIN_HUMANS} human annotators "
                                f"besides --candidate; {len(humans)} given")
    names = candidate_name = None
    if args.names:
        if len(args.names) != len(humans) + 1:
            raise InputError.single("<command line>", None, "usage",
                                    f"--names: give {len(humans) + 1} names, the humans' "
                                    f"then the candidate's")
        names, candidate_name = args.names[:-1], args.names[-1]
    result = alt_test(args.files, args.candidate, dirs=args.dirs or (), metric=args.score,
                      epsilon=args.epsilon, q=args.fdr, min_units=args.min_units, names=names,
                      candidate_name=candidate_name, fmt=args.fmt,
                      phrase_style=args.phrase_style, match=args.match,
                      allow_missing=args.allow_missing, check_text=not args.no_text_check)
    emit(render_alt_test(result, output_format(args)), args.out)
    return 0


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    options.add_input(p)
    p.add_argument("--candidate", required=True, metavar="FILE",
                   help="the parser's or the model's annotation of the same sentences (a "
                        "directory with --dirs); --names lists it last")
    p.add_argument("--score", choices=METRICS, default=None,
                   help="the per-sentence score: LAS (default), LAS_full, UAS, LA or ted "
                        "(minus the tree edit distance) for dependencies; jaccard (default) "
                        "or ted for bracketed trees")
    p.add_argument("--epsilon", type=options.unit_interval, default=DEFAULT_EPSILON,
                   metavar="E",
                   help=f"the cost-benefit allowance epsilon, from 0 to 1 (default "
                        f"{DEFAULT_EPSILON}: expert annotators; 0.15 skilled, 0.1 crowd)")
    p.add_argument("--fdr", type=options.open_fraction, default=DEFAULT_Q, metavar="Q",
                   help=f"the Benjamini-Yekutieli false discovery rate (default {DEFAULT_Q})")
    p.add_argument("--min-units", type=options.whole_number(2), default=MIN_UNITS,
                   metavar="N",
                   help=f"leave out a human with fewer scored sentences (default {MIN_UNITS}, "
                        f"as the paper)")
    options.add_output(p, ["table", "json", "csv", "markdown", "latex"], "table")
    options.add_options(p, "--quiet")
