"""Command-line interface: ``synagree <command> ...``.

Every command is a thin shell over a documented library function (one module
per command in this package; this module dispatches); bad input
ends with the problems listed (file:line: message) on stderr and exit
status 2, never a traceback.  Set ``SYNAGREE_DEBUG=1`` to see tracebacks of
unexpected internal errors.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Dict, List, Optional, Sequence, Tuple

from synagree._version import __version__
from synagree.base import jit, memory
from synagree.base.problems import InputError, print_problems
from synagree.base.progress import show_by_default
from synagree.cli.descriptions import DESCRIPTIONS
from synagree.cli.options import (
    check_output_path,
    check_replicate_options,
    remove_made_folders,
)
from synagree.cli.signals import Terminated, start_working, stop_working
from synagree.io.files import OutputError

EXIT_INPUT = 2
EXIT_INTERNAL = 3

# command -> (module under synagree.cli, one-line help); the long description of
# each is in synagree.cli.descriptions.  Each module defines ``register(parser)``
# (its options, nothing else) and ``run(args) -> exit status``.  Only
# the command being run is imported, so ``synagree --help`` stays fast.
COMMANDS: Dict[str, Tuple[str, str]] = {
    "agree": ("agree", "alpha (plain/diff/norm) and LAS/UAS/LA between annotators"),
    "report": ("report", "annotation QA report: one self-contained HTML file (or its tables)"),
    "categorical": ("categorical", "kappa/pi/alpha and specific agreement on token layers"),
    "compare": ("compare", "evaluate parsers against gold: CoNLL 2018 scores, alpha, "
                           "breakdowns, significance"),
    "tags": ("tags", "tag-level evaluation (exact, hierarchical credit, kappa) against gold"),
    "spans": ("spans", "GATE's strict/lenient/average P/R/F1 over constituents or word spans"),
    "bdm": ("bdm", "GATE's BDM score file of a concept hierarchy (every pair of concepts)"),
    "plan": ("plan", "sentences to double-annotate for an interval of alpha of a given "
                     "width, from a pilot"),
    "noise": ("noise", "noise-sensitivity experiment: alpha and LAS under synthetic noise"),
    "plot": ("plot", "figures of a noise experiment (runs.csv / results.json)"),
}


class _Version(argparse.Action):
    """``--version``: the version and which kernels run (C or numba, and why).

    The kernels module (and numpy with it) is imported only when asked, so
    that building the parser stays fast."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: Optional[str] = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default,
                         help="show the version and the kernels in use, and exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        kernels = importlib.import_module("synagree.distance.kernels")
        native = importlib.import_module("synagree.base.native")
        try:
            if kernels.backend() == "c":
                detail = f"C, {native.threads()} thread(s)"
            elif kernels.C_EXTENSION is None:
                detail = "numba: the C extension is not built"
            else:
                detail = "numba"
        except InputError as exc:  # a bad SYNAGREE_* setting
            parser.exit(EXIT_INPUT, f"{exc}\n")
        print(f"synagree {__version__} (kernels: {detail})")  # stdout, as argparse's version
        parser.exit()


def build_parser(command: Optional[str] = None) -> argparse.ArgumentParser:
    """The ``synagree`` parser; the options of ``command`` (or of every command
    when None is given and ``all`` is asked) are added by its module."""
    ap = argparse.ArgumentParser(
        prog="synagree",
        description="Chance-corrected agreement (Krippendorff's alpha over tree edit "
                    "distance) for syntactic annotation.")
    ap.add_argument("--version", action=_Version)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=DESCRIPTIONS[name])
        if name == command:
            mod = importlib.import_module(f"synagree.cli.{module}")
            mod.register(p)
            p.set_defaults(func=mod.run)
    return ap


def _command_of(argv: Sequence[str]) -> Optional[str]:
    return next((a for a in argv if not a.startswith("-")), None)


def _terminate(signum, frame) -> None:
    raise Terminated()


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def main(argv: Optional[List[str]] = None) -> int:
    """Run ``synagree`` on ``argv`` (default ``sys.argv[1:]``); the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    with jit.scipy_hidden():  # the modules may import numba (see synagree.base.jit)
        ap = build_parser(_command_of(argv))
    args = ap.parse_args(argv)
    if not getattr(args, "func", None):
        ap.print_help(sys.stderr)
        return EXIT_INPUT
    # Ctrl-C and a polite kill (SIGTERM) unwind, so no temporary file stays behind
    # (before this, while the modules load, they end the command at once: cli.signals)
    handlers = start_working()
    quiet = bool(getattr(args, "quiet", False))
    # every long step draws a bar (stderr, terminals only) unless -q; the
    # first run explains the JIT compilation instead of pausing silently
    previous = show_by_default(not quiet)
    jit.configure(notice=None if quiet else _say, skip_scipy=True)
    try:
        check_replicate_options(args)  # one rule for every command that resamples
        made = check_output_path(args)
        if made and not getattr(args, "quiet", False):
            print(made, file=sys.stderr)
        # --max-memory also for the checks made deep down (TED tables, stored results)
        with memory.limited(getattr(args, "max_memory", None)):
            return int(args.func(args) or 0)
    except OutputError as exc:  # the work may be done, but it could not be written
        print_problems(exc.errors, limit=50)
        print(f"synagree: {len(exc.errors)} error(s) writing the output", file=sys.stderr)
        return EXIT_INPUT
    except InputError as exc:
        remove_made_folders(args)  # (only those left empty)
        print_problems(exc.errors, limit=50, warnings=exc.warnings)
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
    finally:
        # main() may run in-process (tests, notebooks): leave the defaults as found
        show_by_default(previous)
        jit.configure(None, False)
        stop_working(handlers)


if __name__ == "__main__":
    raise SystemExit(main())
