"""One command's run, once its options are parsed: the machinery every command shares.

`synagree.cli.main` builds the parser from its table of commands and parses the
options; only then, when a command is to run (not for ``--help``, ``--version``
or a usage error), it loads this module and calls `run`: the signal phases
(`synagree.cli.signals`), progress bars and the JIT notice, the checks every
command shares (replicates, the output path), ``--max-memory``, the text tables
fitted to the terminal, and the problems printed as ``file:line: message`` with
exit status 2.  Kept out of `synagree.cli.main` so that printing the help loads
none of it (issue 36: ``synagree --help`` within 60 ms).
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
from typing import Dict, List, Sequence

from synagree.base import jit, memory
from synagree.base.problems import InputError, Problem, print_problems
from synagree.base.progress import show_by_default
from synagree.cli.main import EXIT_INPUT, EXIT_INTERNAL
from synagree.cli.options import (
    check_output_path,
    check_replicate_options,
    remove_made_folders,
)
from synagree.cli.signals import start_working, stop_working, work_done
from synagree.io.files import OutputError, forget_committed
from synagree.render.fit import CUT_NOTE, UNLIMITED, cut_cells, table_width, terminal_width

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


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(ap: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the parsed command ``args`` (``args.func``) of parser ``ap``; the exit status.

    An interrupt is not caught here but by `synagree.cli.main.main`, outside
    everything the run does."""
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
    except Exception as exc:  # pragma: no cover - last resort, see synagree.cli.main
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
