"""``synagree spans``: GATE's strict, lenient and average P/R/F1 over spans (docs/method.md §24)."""
from __future__ import annotations

import argparse

from synagree.base.problems import InputError, print_problems
from synagree.cli import options
from synagree.cli.gate_options import (
    check_not_gate_options,
    is_brat_input,
    is_gate_input,
    run_brat,
    run_gate_spans,
)
from synagree.cli.options import output_format
from synagree.evaluation.span_alpha import SPAN_COEFFICIENTS, span_alpha_u
from synagree.evaluation.spans import CONLLU_LAYERS, PHRASE_LAYERS, span_agreement
from synagree.io.files import emit
from synagree.render.span_alpha import render_span_alpha
from synagree.render.spans import SPAN_OUTPUTS, render_spans
from synagree.stats.gate_prf import LABEL_MODES


def run(args: argparse.Namespace) -> int:
    """``synagree spans``: every pair of files compared as GATE does; the exit status."""
    if is_gate_input(args):
        return run_gate_spans(args)
    if is_brat_input(args):
        return run_brat(args, "spans")
    check_not_gate_options(args)
    if args.coefficient is not None:  # Krippendorff's alpha_u instead (docs/method.md §34.4)
        if args.bdm or args.labels != "type":
            raise InputError.single("<command line>", None, "usage",
                                    "--coefficient alpha-u takes every label as its own "
                                    "category: not with --bdm or --labels")
        res_u = span_alpha_u(args.files, layer=args.layer, fmt=args.fmt,
                             phrase_style=args.phrase_style, names=args.names,
                             allow_missing=args.allow_missing,
                             check_text=not args.no_text_check)
        emit(render_span_alpha(res_u, output_format(args)), args.out)
        return 0
    res = span_agreement(args.files, layer=args.layer, labels=args.labels,
                         hierarchy=args.hierarchy, bdm=args.bdm, fmt=args.fmt,
                         phrase_style=args.phrase_style, names=args.names,
                         allow_missing=args.allow_missing, check_text=not args.no_text_check)
    if res.warnings and not args.quiet:
        print_problems(res.warnings, limit=10)
    emit(render_spans(res, output_format(args)), args.out)
    return 0


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="two or more files, all bracketed trees or all CoNLL-U; the first of "
                        "each pair is the key (gold)")
    p.add_argument("--layer", default=None,
                   choices=list(PHRASE_LAYERS) + list(CONLLU_LAYERS),
                   help="what to compare: constituents (default) or preterminals of trees; "
                        "a CoNLL-U column labelling each word (default upos)")
    p.add_argument("--labels", choices=list(LABEL_MODES), default="type",
                   help="each label its own annotation type (default, GATE's IAA per "
                        "label summed), the label as a feature of one type, or spans only")
    options.add_options(p, "--hierarchy", "--bdm", "--format", "--phrase-style", "--names",
                           "--allow-missing", "--no-text-check")
    options.add_output(p, SPAN_OUTPUTS, "table")
    options.add_options(p, "--quiet", "--sets", "--type")
    p.add_argument("--coefficient", choices=SPAN_COEFFICIENTS, default=None,
                   help="instead of GATE's P/R/F1, Krippendorff's chance-corrected unitizing "
                        "alpha (alpha-u) of every file over the continuum of positions "
                        "(docs/method.md §34.4)")
