"""``synagree adjudicate``: one consensus tree per unit from several annotations, with
its provenance, a curator's worklist and the curator's decisions (docs/adjudication.md).

The run part: the options are declared by `synagree.cli.parsers.adjudicate`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from synagree.agreement.adjudicate import adjudicate_corpus, write_worklist
from synagree.agreement.agree import load_corpus
from synagree.base.problems import InputError, print_problems
from synagree.cli.options import check_input_choice, input_options
from synagree.cli.parsers.adjudicate import FORMATS
from synagree.io.files import emit
from synagree.render.adjudicate import render


def _check_paths(args: argparse.Namespace) -> None:
    """Usage errors before any work: a worklist suffix, an output that is an input."""
    if args.worklist and Path(args.worklist).suffix.lower() not in (".csv", ".json"):
        raise InputError.single("<command line>", None, "usage",
                                f"--worklist {args.worklist}: the suffix must be .csv or "
                                f".json")
    out = Path(args.out).resolve()
    for given in list(args.files or ()) + ([args.decisions] if args.decisions else []):
        if Path(given).resolve() == out:
            raise InputError.single("<command line>", None, "usage",
                                    f"-o {args.out} is also an input: it would be "
                                    f"overwritten")


def run(args: argparse.Namespace) -> int:
    """``synagree adjudicate``: `synagree.adjudicate`, written and summarised."""
    check_input_choice(args.files, args.dirs)
    _check_paths(args)
    corpus = load_corpus(args.files, args.dirs or (), **input_options(args))
    res = adjudicate_corpus(corpus, args.weights, decisions=args.decisions,
                            progress=not args.quiet)
    emit(res.to_text(), args.out)
    if args.worklist:
        write_worklist(res, args.worklist)
    if res.warnings and not args.quiet:
        print_problems(list(res.warnings))
    if not args.quiet:
        print(f"synagree: wrote {res.units} unit(s) to {args.out}"
              + (f", {len(res.worklist)} worklist row(s) to {args.worklist}"
                 if args.worklist else ""), file=sys.stderr)
    emit(render(res, args.output or FORMATS[0]))
    return 0
