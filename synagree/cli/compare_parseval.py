"""``synagree compare`` on bracketed files: PARSEVAL as EVALB computes it (docs/parseval.md).

Options are registered by `synagree.cli.compare` (one command, both kinds of
input); this module runs the bracketed path: `compare_parseval`, then the
chosen rendering.  ``--output evalb`` writes EVALB's report on the output and
EVALB's messages on stderr.  Exit status 1 when ``MAX_ERROR`` stopped EVALB
(as the compiled EVALB exits), after writing what it would have written.
"""
from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from dataclasses import replace
from typing import Any, Callable, ContextManager, Optional

from synagree.base.problems import InputError, Problem, print_problems
from synagree.cli import baseline as cli_baseline
from synagree.cli.options import output_format
from synagree.evaluation.parseval_compare import (
    add_unit_data,
    compare_baseline,
    compare_parseval,
)
from synagree.io.files import emit
from synagree.io.tree_kind import bracketed_file
from synagree.render.parseval import render_parseval
from synagree.render.parseval_evalb import evalb_messages

EXIT_STOPPED = 1  # MAX_ERROR stopped EVALB, as the compiled program exits


def _usage(message: str) -> InputError:
    return InputError.single("<command line>", None, "usage", message)


def _name(source: Any) -> str:
    """A path as given, or a converted input's name (`synagree.io.native`)."""
    return str(getattr(source, "name", source))


def check_options(args: argparse.Namespace, fmt: str) -> None:
    """Options that do not apply to bracketed input, or not together (usage errors)."""
    dependency_only = [name for name, given in (
        ("--hierarchy", args.hierarchy is not None), ("--full-labels", args.full_labels),
        ("--tag-syntax", args.tag_syntax != "plain"), ("--bdm", args.bdm),
        ("--prf", args.prf), ("-v", args.verbose), ("--no-alpha", False)) if given]
    if dependency_only:
        raise _usage(f"{', '.join(dependency_only)}: dependency (CoNLL-U) input only; "
                     f"{_name(args.gold)} holds bracketed trees (for EVALB's per-sentence rows, "
                     f"give --output evalb)")
    if fmt == "evalb":
        if len(args.systems) != 1:
            raise _usage("--output evalb writes EVALB's report of one system file; give "
                         "one, or another --output for several side by side")
        extras = [n for n, given in (("--alpha", args.alpha), ("--breakdown", args.breakdown),
                                     ("--significance", args.significance),
                                     ("--baseline", args.baseline is not None)) if given]
        if extras:
            raise _usage(f"--output evalb is EVALB's report and nothing else; {', '.join(extras)} "
                         f"need --output table, json, csv, markdown or latex")
    mixed = [_name(s) for s in args.systems if bracketed_file(s) is False]
    if mixed:
        raise InputError([Problem(s, None, "mixed-formats",
                                  f"the gold file {_name(args.gold)} holds bracketed trees, this "
                                  f"file does not (its first character is not '(')")
                          for s in mixed])


def run(args: argparse.Namespace) -> int:
    """Score bracketed system files against gold, render; the exit status."""
    fmt = output_format(args)
    check_options(args, fmt)
    old = cli_baseline.read_baseline(args, "compare")  # before the long run
    if args.dask and not args.alpha:
        raise _usage("--dask runs the alpha passes: with bracketed files it needs --alpha")
    ctx: ContextManager[Optional[Callable[..., Any]]] = nullcontext(None)
    if args.dask:
        from synagree.distance.dask_exec import dask_executor  # numpy: only when asked

        ctx = dask_executor(args.dask)
    with ctx as executor:
        res = compare_parseval(args.gold, args.systems, params=args.params or "collins",
                               names=args.names, alpha=args.alpha, breakdown=args.breakdown,
                               significance=args.significance,
                               test_replicates=args.test_replicates,
                               bootstrap=args.bootstrap, seed=args.seed,
                               level=args.ci_level, sample_pairs=args.sample_pairs,
                               exact=args.exact, progress=not args.quiet,
                               max_memory=args.max_memory, executor=executor)
    if old is not None or fmt == "json":  # per-sentence data for a later --baseline
        add_unit_data(res)
    if old is not None:
        res = replace(res, baseline=compare_baseline(  # the result is sealed: a copy
            res, old, args.baseline, B=cli_baseline.replicates(args), seed=args.seed,
            level=args.ci_level, top=args.baseline_top))
    emit(render_parseval(res, fmt, top=args.top), args.out)
    if not args.quiet:
        if fmt == "evalb":
            sys.stderr.write(evalb_messages(res.systems[0].result))
        if fmt != "table":  # the table lists them as notes
            print_problems(res.warnings)
    if res.stopped:
        stops = [f"{s.name} at line {s.result.stopped.id}" for s in res.systems
                 if s.result.stopped is not None]
        print(f"synagree: EVALB stops at its error limit (MAX_ERROR {res.params.max_error}): "
              f"{'; '.join(stops)}; the report ends there, without summary (exit status 1)",
              file=sys.stderr)
        return EXIT_STOPPED
    return 0
