"""Command-line interface: ``synagree <command> ...``.

Every command is a thin shell over a documented library function; bad input
ends with the problems listed (file:line: message) on stderr and exit
status 2, never a traceback.  Set ``SYNAGREE_DEBUG=1`` to see tracebacks of
unexpected internal errors.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import List, Optional

from . import __version__
from .problems import InputError
from .report import emit, print_problems

EXIT_INPUT = 2
EXIT_INTERNAL = 3
DEFAULT_SAMPLE = Path("treebanks") / "en-sample"


def _add_input_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="*", help="one annotation file per annotator")
    p.add_argument("--dirs", nargs="+", metavar="DIR",
                   help="one directory per annotator; files matched by name")
    p.add_argument("--format", dest="fmt", default="auto",
                   choices=["auto", "conllu", "phrase"],
                   help="input format (default: guessed from extension/content)")
    p.add_argument("--phrase-style", default="auto", choices=["auto", "delex", "penn"],
                   help="bracketed trees: leaves are categories (delex) or words (penn)")
    p.add_argument("--strict", action="store_true",
                   help="treat warnings (head cycles, missing labels) as errors")
    p.add_argument("--allow-missing", action="store_true",
                   help="with sent_id matching: sentences absent from a file are missing "
                        "annotations instead of an error")
    p.add_argument("--names", nargs="+", metavar="NAME", help="annotator names for the files")


def cmd_agree(args: argparse.Namespace) -> int:
    from .agreement import agree
    from .alpha import VARIANTS
    from .report import render

    from .corpus import check_input_choice
    files, dirs = args.files, args.dirs
    if not files and not dirs and DEFAULT_SAMPLE.is_dir():
        dirs = sorted(str(p) for p in DEFAULT_SAMPLE.iterdir() if p.is_dir())
        if not args.quiet:
            print(f"synagree: no input given; using the bundled sample {DEFAULT_SAMPLE}/",
                  file=sys.stderr)
    check_input_choice(files, dirs)
    variants = VARIANTS if args.metric == "all" else (args.metric,)
    if args.bootstrap and args.sample_pairs:
        raise InputError.single("<command line>", None, "usage",
                                "--bootstrap needs the exact D_e: drop --sample-pairs")
    options = dict(bootstrap=args.bootstrap, seed=args.seed, level=args.ci_level,
                   sample_pairs=args.sample_pairs, exact=args.exact, progress=not args.quiet)
    from . import hierarchy_scores
    hierarchy_scores.validate_args(args)  # usage errors / bad hierarchy file before the long run
    from contextlib import nullcontext
    ctx = nullcontext(None)
    if args.dask:
        from .dask_exec import dask_executor
        ctx = dask_executor(args.dask)
    with ctx as executor:
        res = agree(files, dirs or (), fmt=args.fmt, phrase_style=args.phrase_style,
                    variants=variants, strict=args.strict, allow_missing=args.allow_missing,
                    names=args.names, executor=executor, **options)
    hierarchy_scores.apply(res, args)  # no-op without --hierarchy
    from . import caveats, unlabelled
    unlabelled.apply(res, args)  # no-op without --unlabelled
    caveats.apply(res, args)  # no-op without --label-direction
    if res.warnings and not args.quiet:
        print_problems(res.warnings, limit=args.max_warnings)
    from .qa import apply_worst
    tail = apply_worst(res, args)  # json: goes into details["worst"] and returns ""
    emit(render(res, args.output) + tail, args.out)
    return 0


# Feature modules that add their own subcommands: each defines
# ``register_cli(subparsers)`` which adds a parser whose ``func`` takes the
# parsed arguments and returns an exit status.  One line per module.
COMMAND_MODULES: List[str] = [
    "experiments",
    "plots",
    "tags",
    "categorical",
    "html_report",
    "compare",
]


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="synagree",
        description="Chance-corrected agreement (Krippendorff's alpha over tree edit "
                    "distance) for syntactic annotation.")
    ap.add_argument("--version", action="version", version=f"synagree {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("agree", help="alpha (plain/diff/norm) and LAS/UAS/LA between annotators",
                       description="Agreement between annotators of the same sentences.")
    _add_input_args(p)
    from .hierarchy_scores import add_hierarchy_args
    add_hierarchy_args(p)  # --hierarchy, --label-distance, --plain-as-leaf, --label-credit
    from .qa import add_worst_args
    add_worst_args(p)  # --worst K, --worst-variant, --worst-by
    from .unlabelled import add_unlabelled_args
    add_unlabelled_args(p)  # --unlabelled
    from .caveats import add_caveat_args
    add_caveat_args(p)  # --label-direction
    p.add_argument("--metric", default="all", choices=["all", "plain", "diff", "norm"],
                   help="which alpha variant(s) to compute (default: all)")
    p.add_argument("--output", default="table", choices=["table", "json", "csv", "latex"],
                   help="output format (default: table)")
    p.add_argument("--bootstrap", type=int, default=0, metavar="B",
                   help="B unit-resampling replicates for percentile CIs of alpha and LAS/UAS/LA")
    p.add_argument("--seed", type=int, default=0, help="random seed (bootstrap, sampling)")
    p.add_argument("--ci-level", type=float, default=0.95, metavar="L",
                   help="confidence level of bootstrap intervals (default 0.95)")
    p.add_argument("--sample-pairs", type=int, default=None, metavar="N",
                   help="estimate D_e from N random annotation pairs (D_o stays exact); "
                        "automatic above 20,000 annotations")
    p.add_argument("--exact", action="store_true",
                   help="always compute D_e exactly, however large the corpus")
    p.add_argument("--dask", metavar="ADDR",
                   help="run the all-pairs tiles on Dask: 'local' or tcp://scheduler:8786 "
                        "(pip install 'synagree[dask]')")
    p.add_argument("-o", "--out", metavar="FILE", help="write the result here (atomically)")
    p.add_argument("-q", "--quiet", action="store_true", help="no warnings or progress on stderr")
    p.add_argument("--max-warnings", type=int, default=30, metavar="N",
                   help="list at most N warnings on stderr (default 30)")
    p.set_defaults(func=cmd_agree)
    import importlib
    for name in COMMAND_MODULES:
        importlib.import_module(f"synagree.{name}").register_cli(sub)
    return ap


def main(argv: Optional[List[str]] = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if not getattr(args, "func", None):
        ap.print_help(sys.stderr)
        return EXIT_INPUT
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        print_problems(exc.warnings, limit=10)
        print_problems(exc.errors, limit=50)
        print(f"synagree: {len(exc.errors)} error(s) in the input; nothing computed",
              file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("synagree: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # pragma: no cover - last resort, see module docstring
        if os.environ.get("SYNAGREE_DEBUG"):
            raise
        print(f"synagree: internal error: {type(exc).__name__}: {exc} "
              f"(set SYNAGREE_DEBUG=1 for a traceback, and please report it)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
