"""``synagree alt-test HUMANS... --candidate FILE``: can the candidate replace a human?

The alternative annotator test (Calderon, Reichart & Dror 2025;
docs/method.md §34.2), `synagree.agreement.alt_test.alt_test`, rendered; with
``--label-data HUMANS.json`` on label data in the reference implementation's JSON
format (`synagree.agreement.alt_test.alt_test_label_files`).  The run part: the options are
declared by `synagree.cli.parsers.alt_test`.
"""
from __future__ import annotations

import argparse

from synagree.agreement.alt_test import alt_test, alt_test_label_files
from synagree.base.problems import InputError
from synagree.cli.options import check_input_choice, output_format
from synagree.io.files import emit
from synagree.render.alt_test import render_alt_test
from synagree.stats.alt_test import MIN_HUMANS


def _usage(message: str) -> InputError:
    return InputError.single("<command line>", None, "usage", message)


def _run_labels(args: argparse.Namespace) -> int:
    """``alt-test --label-data HUMANS.json --candidate FILE.json``."""
    if args.files or args.dirs:
        raise _usage("--label-data takes one JSON file of every human's labels: give no "
                     "annotation files or --dirs beside it")
    if args.score is not None:
        raise _usage("--score scores trees; with --label-data choose --scoring accuracy or "
                     "neg_rmse")
    if args.names and len(args.names) != 1:
        raise _usage("--names: with --label-data give one name, the candidate's")
    result = alt_test_label_files(args.label_data, args.candidate,
                                  name=args.names[0] if args.names else None,
                                  scoring=args.scoring or "accuracy", epsilon=args.epsilon,
                                  q=args.fdr, min_units=args.min_units)
    emit(render_alt_test(result, output_format(args)), args.out)
    return 0


def run(args: argparse.Namespace) -> int:
    """``synagree alt-test``: the test, rendered; the exit status."""
    if args.label_data is not None:
        return _run_labels(args)
    if args.scoring is not None:
        raise _usage("--scoring applies to --label-data (label data); trees are scored with "
                     "--score")
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
