"""Command-line interface: ``synagree <command> ...``.

Every command is a thin shell over a documented library function (one module
per command in this package; this module dispatches); bad input
ends with the problems listed (file:line: message) on stderr and exit
status 2, never a traceback.  Set ``SYNAGREE_DEBUG=1`` to see tracebacks of
unexpected internal errors.
"""
from __future__ import annotations

import gc
import importlib
import sys

from synagree._version import __version__
from synagree.base import jit
from synagree.cli import parseval_fast
from synagree.cli.descriptions import DESCRIPTIONS
from synagree.cli.signals import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated

# typing and argparse are needed only by the type checker at import: argparse is loaded
# when a parser is built, which a PARSEVAL comparison on its fast path never does
# (`synagree.cli.parseval_fast`; issue 36: start-up)
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Callable, Dict, List, Optional, Sequence, Tuple

EXIT_INPUT = 2
EXIT_INTERNAL = 3

# command -> (module under synagree.cli, one-line help); the long description of
# each is in synagree.cli.descriptions.  Each command is two modules: its parser part
# ``synagree.cli.parsers.<module>`` defines ``register(parser)`` (its options, from
# synagree.base.option_specs and light modules only: nothing that computes), and its run
# part ``synagree.cli.<module>`` defines ``run(args) -> exit status``, loaded only once
# the options are parsed (`load_run`).  Only the command being run is imported, so
# ``synagree --help`` and ``synagree CMD --help`` stay fast (issue 36).
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


# what runs a parsed command (signals, progress, --max-memory, problems): synagree.cli.session
RUNNER = "synagree.cli.session"
#: the packages of each command's two parts (see COMMANDS)
PARSERS = "synagree.cli.parsers"
RUNS = "synagree.cli"


def _version_action() -> type:
    """The ``--version`` action (a class of argparse's, made when a parser is built)."""
    import argparse  # only when a parser is built (see the imports above)

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
            problems = importlib.import_module("synagree.base.problems")
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
            except problems.InputError as exc:  # a bad SYNAGREE_* setting
                parser.exit(EXIT_INPUT, f"{exc}\n")
            print(f"synagree {__version__} (kernels: {detail})")  # stdout, as argparse's version
            parser.exit()

    return _Version


def build_parser(command: Optional[str] = None) -> argparse.ArgumentParser:
    """The ``synagree`` parser; the options of ``command`` are added by its module.

    When ``command`` names one of `COMMANDS`, only its parser is built: the others
    would not be parsed, and building twelve parsers (argparse looks up its message
    catalogue for each string of each) is a tenth of a PARSEVAL run (issue 36).  The
    usage and the errors of a command do not name the others; ``synagree --help``
    and an unknown command (``command`` None or not a command) get every one."""
    import argparse  # here, not at the top (see the imports above)

    ap = argparse.ArgumentParser(
        prog="synagree",
        description="Chance-corrected agreement (Krippendorff's alpha over tree edit "
                    "distance) for syntactic annotation.")
    ap.add_argument("--version", action=_version_action())
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        if command in COMMANDS and name != command:
            continue
        p = sub.add_parser(name, help=help_text, description=DESCRIPTIONS[name])
        if name == command:  # its parser part only: the run part is loaded after parsing
            importlib.import_module(f"{PARSERS}.{module}").register(p)
    return ap


def load_run(command: str) -> Callable[[argparse.Namespace], int]:
    """The ``run`` function of ``command``'s run part (`COMMANDS`), imported now."""
    with jit.scipy_hidden():  # the modules may import numba (see synagree.base.jit)
        return importlib.import_module(f"{RUNS}.{COMMANDS[command][0]}").run


def _command_of(argv: Sequence[str]) -> Optional[str]:
    return next((a for a in argv if not a.startswith("-")), None)


def _terminate(signum, frame) -> None:
    raise Terminated()


def _say_written(paths: Sequence[str]) -> None:
    """Before an interrupted command's last line: the outputs it had already written
    (whole: each renamed into place), so that none is taken for this run's result
    unknowingly; nothing when none was."""
    if paths:
        print(f"note: written before the interrupt (each whole): {', '.join(paths)}",
              file=sys.stderr)


def _written() -> List[str]:
    """The outputs a run had committed (none when no command had started one:
    `synagree.io.files` is loaded only by a command that runs)."""
    files = sys.modules.get("synagree.io.files")
    return list(files.committed_outputs()) if files is not None else []


def main(argv: Optional[List[str]] = None) -> int:
    """Run ``synagree`` on ``argv`` (default ``sys.argv[1:]``); the exit status.

    An interrupt (SIGINT, SIGTERM) is caught here, outside everything the run does,
    wherever it landed (even in the handling of another error): by then the
    handlers are those of `synagree.cli.signals` (a second signal ends the process
    with the same line), or blocked."""
    try:
        return _main(argv)
    except (KeyboardInterrupt, Terminated) as exc:
        _say_written(_written())
        if isinstance(exc, Terminated):
            print("synagree: terminated", file=sys.stderr)
            return EXIT_TERMINATED
        print("synagree: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def console() -> int:
    """The console entry (the ``synagree`` script and ``python -m synagree``): `main`
    on ``sys.argv``, then the process's objects set aside from the cyclic collector.

    The process ends right after: the interpreter's teardown would walk every
    object still alive (a treebank's words, the trees) in its last collections
    only to free what reference counting frees anyway, about 65 ms of a `compare`
    on EWT test (90 against 23 ms from the last output to the exit; issue 36).
    `gc.freeze` makes those collections skip them; what the run wrote is flushed
    and closed already, and ``atexit`` handlers run as before.  `main` itself leaves
    the collector alone: a program that calls it goes on living.
    """
    try:
        return main()
    finally:  # --help and --version end in SystemExit
        gc.freeze()


def _main(argv: Optional[List[str]]) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # a PARSEVAL comparison it knows exactly: read, scored and written without the
    # parser and the run machinery, the same bytes (None: the path below runs)
    fast = parseval_fast.run(argv)
    if fast is not None:
        return fast
    with jit.scipy_hidden():  # the modules may import numba (see synagree.base.jit)
        ap = build_parser(_command_of(argv))
    args = ap.parse_args(argv)
    if getattr(args, "command", None) is None:
        ap.print_help(sys.stderr)
        return EXIT_INPUT
    # the machinery of a run is loaded only now that a command runs (RUNNER, like
    # each command's run part from COMMANDS): printing a help loads none of it
    args.func = load_run(args.command)
    return int(importlib.import_module(RUNNER).run(ap, args))


if __name__ == "__main__":
    raise SystemExit(main())
