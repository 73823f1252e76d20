"""Command-line interface: ``synagree <command> ...``.

Every command is a thin shell over a documented library function; bad input
ends with the problems listed (file:line: message) on stderr and exit
status 2, never a traceback.  Set ``SYNAGREE_DEBUG=1`` to see tracebacks of
unexpected internal errors.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import List, Optional

from synagree import __version__
from synagree.cli import options
from synagree.cli.options import check_output_path, output_format
from synagree.base.problems import InputError
from synagree.io.files import emit
from synagree.base.problems import print_problems

EXIT_INPUT = 2
EXIT_INTERNAL = 3
DEFAULT_SAMPLE = Path("treebanks") / "en-sample"


def cmd_agree(args: argparse.Namespace) -> int:
    from synagree.agreement.agree import agree
    from synagree.stats.alpha import VARIANTS
    from synagree.render.tables import render

    from synagree.io.corpus import check_input_choice
    files, dirs = args.files, args.dirs
    if not files and not dirs and DEFAULT_SAMPLE.is_dir():
        dirs = sorted(str(p) for p in DEFAULT_SAMPLE.iterdir() if p.is_dir())
        if not args.quiet:
            print(f"synagree: no input given; using the bundled sample {DEFAULT_SAMPLE}/",
                  file=sys.stderr)
    check_input_choice(files, dirs)
    output = output_format(args)
    if args.worst and output == "csv":
        raise InputError.single("<command line>", None, "usage",
                                "--worst with CSV output would put two tables in one file: "
                                "use --output json (which holds both) or table")
    variants = VARIANTS if args.metric == "all" else (args.metric,)
    if args.bootstrap and args.sample_pairs:
        raise InputError.single("<command line>", None, "usage",
                                "--bootstrap needs the exact D_e: drop --sample-pairs")
    options = dict(bootstrap=args.bootstrap, seed=args.seed, level=args.ci_level,
                   sample_pairs=args.sample_pairs, exact=args.exact, progress=not args.quiet,
                   max_memory=args.max_memory)
    from synagree.stats import hierarchical as hierarchy_scores
    hierarchy_scores.validate_args(args)  # usage errors / bad hierarchy file before the long run
    from contextlib import nullcontext
    ctx = nullcontext(None)
    if args.dask:
        from synagree.distance.dask_exec import dask_executor
        ctx = dask_executor(args.dask)
    with ctx as executor:
        res = agree(files, dirs or (), fmt=args.fmt, phrase_style=args.phrase_style,
                    variants=variants, strict=args.strict, allow_missing=args.allow_missing,
                    names=args.names, check_text=not args.no_text_check, executor=executor,
                    **options)
    hierarchy_scores.apply(res, args)  # no-op without --hierarchy
    if res.warnings and not args.quiet:
        print_problems(res.warnings, limit=args.max_warnings)
    from synagree.agreement.qa import apply_worst
    tail = apply_worst(res, args, output)  # json: goes into details["worst"], returns ""
    emit(render(res, output) + tail, args.out)
    return 0


# Feature modules that add their own subcommands: each defines
# ``register_cli(subparsers)`` which adds a parser whose ``func`` takes the
# parsed arguments and returns an exit status.  One line per module.
COMMAND_MODULES: List[str] = [
    "noise.experiments",
    "render.plots",
    "evaluation.tags",
    "stats.categorical",
    "render.html",
    "evaluation.compare",
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
    options.add_input(p)
    from synagree.stats.hierarchical import add_hierarchy_args
    add_hierarchy_args(p)  # --hierarchy, --label-distance, --plain-as-leaf, --label-credit
    from synagree.agreement.qa import add_worst_args
    add_worst_args(p)  # --worst K, --variant
    p.add_argument("--metric", default="all", choices=["all", "plain", "diff", "norm"],
                   help="which alpha variant(s) to compute (default: all)")
    options.add_output(p, ["table", "json", "csv", "latex"], "table")
    options.add_bootstrap(p, "alpha and LAS/UAS/LA")
    options.add_sampling(p)
    p.add_argument("--dask", metavar="ADDR",
                   help="run the all-pairs tiles on Dask: 'local' or tcp://scheduler:8786 "
                        "(pip install 'synagree[dask]')")
    options.add_memory(p)
    options.add_quiet(p)
    p.add_argument("--max-warnings", type=options.whole_number(0), default=30, metavar="N",
                   help="list at most N warnings on stderr (default 30)")
    p.set_defaults(func=cmd_agree)
    import importlib
    for name in COMMAND_MODULES:
        importlib.import_module(f"synagree.{name}").register_cli(sub)
    return ap


class Terminated(BaseException):
    """Raised by the SIGTERM handler so that ``finally`` blocks run."""


def _terminate(signum, frame) -> None:
    raise Terminated()


def main(argv: Optional[List[str]] = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if not getattr(args, "func", None):
        ap.print_help(sys.stderr)
        return EXIT_INPUT
    # a polite kill (SIGTERM) unwinds like Ctrl-C, so no temporary file stays behind
    signal.signal(signal.SIGTERM, _terminate)
    try:
        made = check_output_path(args)
        if made and not getattr(args, "quiet", False):
            print(made, file=sys.stderr)
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
    except Terminated:
        print("synagree: terminated", file=sys.stderr)
        return 143
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
