"""``synagree compare``: parsers scored against gold.

CoNLL-U files: the CoNLL 2018 metrics, alpha, breakdowns, significance
(`synagree.evaluation.compare`).  Bracketed files (the gold file's first
non-blank character is ``(``): PARSEVAL as EVALB computes it, with its
parameter files, and the opt-in extras (`synagree.cli.compare_parseval`).

Each path imports its own modules when it runs: PARSEVAL alone must stay
within the compiled EVALB's time (benchmarks/bench_parseval.py), so nothing
here pulls in numpy or the CoNLL-U reader; and a CoNLL-U comparison loads the
``--baseline`` machinery (`synagree.evaluation.baseline`) only when it is used
(issue 36: start-up).
"""
from __future__ import annotations

import argparse
from contextlib import nullcontext
from dataclasses import replace
from typing import List

from synagree.base.problems import InputError
from synagree.cli import baseline, humans_options, options
from synagree.cli.options import output_format
from synagree.cli.tag_options import add_tag_syntax_args
from synagree.io import registry
from synagree.io.tree_kind import bracketed_file, trees_span_lines

# every format of both kinds of input (``evalb``: EVALB's report, bracketed input only);
# the renderers (synagree.render.compare, .parseval) are imported only when they run
OUTPUTS = ("table", "json", "csv", "markdown", "latex", "evalb")


def run(args: argparse.Namespace) -> int:
    """``synagree compare``: system files scored against gold, rendered; the exit status."""
    if args.humans:  # the parser beside a second human (docs/method.md §28)
        from synagree.cli import human_band  # see the module docstring

        return human_band.run(args)
    humans_options.check_without_humans(args)
    fmt = getattr(args, "fmt", "auto")
    kind = bracketed_file(args.gold) if fmt == "auto" else \
        registry.get_format(fmt).kind == "phrase"
    if fmt != "auto" or _foreign(args.gold, args.systems):
        from synagree.io.native import native_input  # see the module docstring

        args.gold = native_input(args.gold, fmt)
        args.systems = [native_input(s, fmt) for s in args.systems]
    asked = args.params is not None or args.alpha or output_format(args) == "evalb"
    if kind or (kind is None and asked):
        from synagree.cli import compare_parseval  # see the module docstring

        return compare_parseval.run(args)
    if asked:
        raise InputError.single("<command line>", None, "usage",
                                "--params, --alpha and --output evalb are for bracketed "
                                f"(Penn-style) files; {args.gold} is not one (its first "
                                f"character is not '(')")
    return _run_dependency(args)


def _foreign(gold: str, systems: List[str]) -> bool:
    """Is any input of a registered format other than CoNLL-U and bracketed trees?"""
    paths = [gold, *systems]
    specs = [registry.sniff_or_none(p) for p in paths]
    return any(s is not None and (s.name != "conllu" and not s.bracketed
                                  or s.name == "ptb" and trees_span_lines(p))
               for s, p in zip(specs, paths))


def _run_dependency(args: argparse.Namespace) -> int:
    """CoNLL-U files: the CoNLL 2018 metrics and the rest (docs/method.md §11)."""
    from synagree.distance.dask_exec import dask_executor
    from synagree.evaluation.compare import compare
    from synagree.io.files import emit
    from synagree.render.compare import render

    if args.verbose and len(args.systems) != 1:
        raise InputError.single("<command line>", None, "usage",
                                "-v (the scorer's table) needs exactly one system file")
    if (args.significance or args.bootstrap) and args.sample_pairs:
        raise InputError.single("<command line>", None, "usage",
                                "--significance and --bootstrap need the exact D_e: drop "
                                "--sample-pairs")
    if args.dask and args.no_alpha:
        raise InputError.single("<command line>", None, "usage",
                                "--dask runs the alpha passes: drop --no-alpha")
    old = baseline.read_baseline(args, "compare")  # before the long run
    with (dask_executor(args.dask) if args.dask else nullcontext(None)) as executor:
        res = compare(args.gold, args.systems, hierarchy=args.hierarchy,
                      breakdown=args.breakdown, significance=args.significance,
                      test_replicates=args.test_replicates, bootstrap=args.bootstrap,
                      seed=args.seed, names=args.names, alpha=not args.no_alpha,
                      sample_pairs=args.sample_pairs, exact=args.exact, level=args.ci_level,
                      full_labels=args.full_labels, progress=not args.quiet,
                      max_memory=args.max_memory, tag_syntax=args.tag_syntax, bdm=args.bdm,
                      prf=args.prf, wu_palmer=args.wu_palmer, executor=executor)
    if old is not None or output_format(args) == "json":  # per-unit data for --baseline
        # (the baseline's modules, stats.regression among them, only when used: see the
        # module docstring)
        from synagree.evaluation.baseline import add_unit_data, compare_baseline

        add_unit_data(res)
        if old is not None:
            res = replace(res, baseline=compare_baseline(  # the result is sealed: a copy
                res, old, args.baseline, B=baseline.replicates(args), seed=args.seed,
                level=args.ci_level, top=args.baseline_top))
    text = render(res, output_format(args), verbose=args.verbose, top=args.top)
    emit(text, args.out)
    return 0


def register(p: argparse.ArgumentParser) -> None:
    """The options of this command."""
    p.add_argument("gold", help="gold CoNLL-U file, or bracketed trees one a line")
    p.add_argument("systems", nargs="+", metavar="SYSTEM",
                   help="system file(s), in the gold file's format")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="one system: the official scorer's -v table (plus LAS_full, "
                        "LAS_hier and alpha)")
    options.add_output(p, OUTPUTS, "table")
    options.add_options(p, "--format", "--names", "--hierarchy", "--breakdown")
    options.add_declared(p, "full_labels")
    p.add_argument("--top", type=options.whole_number(1), default=10, metavar="N",
                   help="list the N most frequent confusions (default 10)")
    options.add_declared(p, "significance")
    options.add_bootstrap(p)
    baseline.add_test_replicates(p)
    p.add_argument("-B", "--replicates", dest="test_replicates",
                   type=options.whole_number(1, 1_000_000), help=argparse.SUPPRESS)
    options.add_declared(p, "no_alpha")
    options.add_declared(p, "params", default=None)  # None: not given (dependency input)
    options.add_declared(p, "alpha")  # bracketed input (dependency input: --no-alpha)
    options.add_sampling(p)
    options.add_options(p, "--dask", "--max-memory", "--quiet")
    add_tag_syntax_args(p)  # --tag-syntax, --bdm, --wu-palmer (method §15)
    options.add_options(p, "--prf")
    baseline.add_baseline_args(p, "compare")  # --baseline, --baseline-top
    humans_options.add_humans_args(p)  # --humans (docs/method.md §28)
