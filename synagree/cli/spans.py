"""``synagree spans``: GATE's strict, lenient and average P/R/F1 over spans (docs/method.md §24).

The run part: the options are declared by `synagree.cli.parsers.spans`."""
from __future__ import annotations

import argparse
from typing import Optional

from synagree.base.problems import InputError, print_problems
from synagree.cli.gate_options import (
    check_not_gate_options,
    is_brat_input,
    is_gate_input,
    run_brat,
    run_gate_spans,
)
from synagree.cli.options import output_format
from synagree.evaluation.span_alpha import span_alpha_u
from synagree.evaluation.span_gamma import GAMMA_DEFAULTS, precision_level, span_gamma
from synagree.evaluation.spans import span_agreement
from synagree.io.files import emit
from synagree.render.span_alpha import render_span_alpha
from synagree.render.span_gamma import render_span_gamma
from synagree.render.spans import render_spans


def run(args: argparse.Namespace) -> int:
    """``synagree spans``: every pair of files compared as GATE does; the exit status."""
    if is_gate_input(args):
        return run_gate_spans(args)
    if is_brat_input(args):
        return run_brat(args, "spans")
    check_not_gate_options(args)
    gamma_options = [o for o in GAMMA_OPTIONS
                     if getattr(args, o[2:].replace("-", "_")) is not None]
    if gamma_options and args.coefficient != "gamma":
        raise InputError.single("<command line>", None, "usage",
                                f"{gamma_options[0]} goes with --coefficient gamma")
    if args.coefficient is not None and (args.bdm or args.labels != "type"):
        raise InputError.single("<command line>", None, "usage",
                                f"--coefficient {args.coefficient} takes every label as its "
                                f"own category: not with --bdm or --labels")
    if args.coefficient == "gamma":  # Mathet et al.'s gamma (docs/method.md §34.5)
        res_g = span_gamma(args.files, layer=args.layer, samples=_given(args.gamma_samples,
                                                                         "samples"),
                           seed=_given(args.gamma_seed, "seed"),
                           precision=precision_level(args.gamma_precision),
                           budget=args.gamma_budget, fmt=args.fmt,
                           phrase_style=args.phrase_style, names=args.names,
                           allow_missing=args.allow_missing, check_text=not args.no_text_check)
        emit(render_span_gamma(res_g, output_format(args)), args.out)
        return 0
    if args.coefficient is not None:  # Krippendorff's alpha_u instead (docs/method.md §34.4)
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


#: the options of ``--coefficient gamma`` only
GAMMA_OPTIONS = ("--gamma-samples", "--gamma-seed", "--gamma-precision", "--gamma-budget")


def _given(value: Optional[int], key: str) -> int:
    return GAMMA_DEFAULTS[key] if value is None else value
