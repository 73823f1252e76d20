"""``synagree adjudicate``: one consensus tree per unit from several annotations, with
its provenance, a curator's worklist and the curator's decisions (docs/adjudication.md)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from synagree.agreement.adjudicate import adjudicate_corpus, write_worklist
from synagree.agreement.agree import load_corpus
from synagree.base.problems import InputError, print_problems
from synagree.cli import options
from synagree.cli.options import check_input_choice, input_options
from synagree.io.files import emit
from synagree.render.adjudicate import FORMATS, render


def register(p: argparse.ArgumentParser) -> None:
    """The options of ``synagree adjudicate``."""
    options.add_input(p)
    options.add_declared(p, "weights")  # the API's too (synagree.base.option_specs)
    # a second output file, the command line's own (the API returns res.worklist)
    p.add_argument("--worklist", metavar="FILE",
                   help="write the curator's worklist here (.csv or .json): ties, arcs "
                        "(spans) chosen with no more than half the votes, words moved "
                        "(majority spans dropped) by the tree constraint, units split "
                        "differently")
    options.add_declared(p, "decisions")
    p.add_argument("-o", "--out", required=True, metavar="GOLD.conllu",
                   help="write the consensus CoNLL-U here (atomically)")
    # the summary on standard output: -o is the consensus, so its suffix names no format
    p.add_argument("--output", choices=list(FORMATS), default=None,
                   help="output format (default: from the -o suffix, else the first listed)")
    p.set_defaults(default_output=FORMATS[0], output_formats=tuple(FORMATS))
    options.add_options(p, "--quiet")


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
