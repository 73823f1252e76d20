"""Command-line interface: ``synagree <command> ...``.

Every command is a thin shell over a documented library function (one module
per command in this package; this module dispatches); bad input
ends with the problems listed (file:line: message) on stderr and exit
status 2, never a traceback.  Set ``SYNAGREE_DEBUG=1`` to see tracebacks of
unexpected internal errors.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import re
import sys
from typing import Dict, List, Optional, Sequence, Tuple

from synagree._version import __version__
from synagree.base import jit, memory
from synagree.base.problems import InputError, Problem, print_problems
from synagree.base.progress import show_by_default
from synagree.cli.descriptions import DESCRIPTIONS
from synagree.cli.options import (
    check_output_path,
    check_replicate_options,
    remove_made_folders,
)
from synagree.cli.signals import (
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    Terminated,
    start_working,
    stop_working,
    work_done,
)
from synagree.io.files import OutputError, committed_outputs, forget_committed
from synagree.render.fit import CUT_NOTE, UNLIMITED, cut_cells, table_width, terminal_width

EXIT_INPUT = 2
EXIT_INTERNAL = 3

# command -> (module under synagree.cli, one-line help); the long description of
# each is in synagree.cli.descriptions.  Each module defines ``register(parser)``
# (its options, nothing else) and ``run(args) -> exit status``.  Only
# the command being run is imported, so ``synagree --help`` stays fast.
COMMANDS: Dict[str, Tuple[str, str]] = {
    "agree": ("agree", "alpha (plain/diff/norm) and LAS/UAS/LA between annotators"),
    "report": ("report", "annotation QA report: one self-contained HTML file (or its tables)"),
    "adjudicate": ("adjudicate", "consensus (gold) trees from several annotations, with a "
                                 "curator's worklist"),
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
    "alt-test": ("alt_test", "alternative annotator test: can a parser or an LLM replace one "
                             "of the human annotators?"),
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
            which = kernels.backend()
            if which == "c":
                detail = f"C, {native.threads()} thread(s), SIMD: {kernels.simd()}"
            elif which == "python":
                detail = ("plain Python, slow: neither the C extension nor numba is installed"
                          if kernels.C_EXTENSION is None else "plain Python, slow: numba is "
                          "not installed")
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


def _say_written(paths: Sequence[str]) -> None:
    """Before an interrupted command's last line: the outputs it had already written
    (whole: each renamed into place), so that none is taken for this run's result
    unknowingly; nothing when none was."""
    if paths:
        print(f"note: written before the interrupt (each whole): {', '.join(paths)}",
              file=sys.stderr)


_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def command_options(ap: argparse.ArgumentParser, command: str) -> set:
    """Every option string of ``command``'s parser (``--match``, ``-o``, ...)."""
    for action in ap._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return {o for a in action.choices[command]._actions for o in a.option_strings}
    return set()


def own_hints(problems: Sequence[Problem], known: set) -> List[Problem]:
    """``problems`` with every clause (``;``-separated) of their hints that names an
    option the command does not have left out, so that a hint written for one
    command (``--match text ...``) never sends a user of another to an option it
    refuses."""
    out = []
    for p in problems:
        if p.hint and any(o not in known for o in _OPTION.findall(p.hint)):
            kept = [c for c in p.hint.split("; ")
                    if all(o in known for o in _OPTION.findall(c))]
            p = dataclasses.replace(p, hint="; ".join(kept) or None)
        out.append(p)
    return out


def _run_fitted(args: argparse.Namespace) -> int:
    """Run the command, its text tables fitted to the terminal (never cut when
    written to a file or a pipe); one note on stderr when cells were cut."""
    width = UNLIMITED if getattr(args, "out", None) else None
    with table_width(width), cut_cells() as cut:
        status = int(args.func(args) or 0)
    if cut[0] and width is None:
        formats = getattr(args, "output_formats", ())
        whole = next((f for f in ("markdown", "csv") if f in formats), None)  # every cell whole
        print("note: " + CUT_NOTE.format(width=terminal_width(),
                                         csv=f", or --output {whole}" if whole else ""),
              file=sys.stderr)
    return status


def main(argv: Optional[List[str]] = None) -> int:
    """Run ``synagree`` on ``argv`` (default ``sys.argv[1:]``); the exit status.

    An interrupt (SIGINT, SIGTERM) is caught here, outside everything the run does,
    wherever it landed (even in the handling of another error): by then the
    handlers are those of `synagree.cli.signals` (a second signal ends the process
    with the same line), or blocked."""
    try:
        return _main(argv)
    except (KeyboardInterrupt, Terminated) as exc:
        _say_written(committed_outputs())
        if isinstance(exc, Terminated):
            print("synagree: terminated", file=sys.stderr)
            return EXIT_TERMINATED
        print("synagree: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: Optional[List[str]]) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    with jit.scipy_hidden():  # the modules may import numba (see synagree.base.jit)
        ap = build_parser(_command_of(argv))
    args = ap.parse_args(argv)
    if not getattr(args, "func", None):
        ap.print_help(sys.stderr)
        return EXIT_INPUT
    # Ctrl-C and a polite kill (SIGTERM) unwind, so no temporary file stays behind
    # (before this, while the modules load, they end the command at once; once the
    # status is known they are ignored: cli.signals)
    handlers: Dict[int, object] = {}
    quiet = bool(getattr(args, "quiet", False))
    # every long step draws a bar (stderr, terminals only) unless -q; the
    # first run explains the JIT compilation instead of pausing silently
    previous = show_by_default(not quiet)
    jit.configure(notice=None if quiet else _say, skip_scipy=True)
    forget_committed()
    try:
        start_working(handlers)
        check_replicate_options(args)  # one rule for every command that resamples
        made = check_output_path(args)
        if made and not getattr(args, "quiet", False):
            print(made, file=sys.stderr)
        # --max-memory also for the checks made deep down (TED tables, stored results)
        with memory.limited(getattr(args, "max_memory", None)):
            status = _run_fitted(args)
        work_done()  # from here on a signal changes nothing: the status stands
        return status
    except OutputError as exc:  # the work may be done, but it could not be written
        print_problems(exc.errors, limit=50)
        print(f"synagree: {len(exc.errors)} error(s) writing the output", file=sys.stderr)
        return EXIT_INPUT
    except InputError as exc:
        remove_made_folders(args)  # (only those left empty)
        known = command_options(ap, args.command)
        print_problems(own_hints(exc.errors, known), limit=50,
                       warnings=own_hints(exc.warnings, known))
        print(f"synagree: {len(exc.errors)} error(s) in the input; nothing computed",
              file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:
        return 0
    except Exception as exc:  # pragma: no cover - last resort, see module docstring
        if os.environ.get("SYNAGREE_DEBUG"):
            raise
        print(f"synagree: internal error: {type(exc).__name__}: {exc} "
              f"(set SYNAGREE_DEBUG=1 for a traceback, and please report it)", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        # first: no signal may escape from here on (and the shutdown must not meet one)
        stop_working(handlers)
        # main() may run in-process (tests, notebooks): leave the defaults as found
        show_by_default(previous)
        jit.configure(None, False)


if __name__ == "__main__":
    raise SystemExit(main())
