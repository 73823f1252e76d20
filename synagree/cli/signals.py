"""Ctrl-C and SIGTERM at any moment of a run: one line, exit 130 or 143, no traceback.

Two phases (docs/output.md, "Interrupting a run"):

* **starting** (`guard_startup`, from the moment ``synagree.cli`` is imported by
  the ``synagree`` command, before the heavy modules load, until the options
  are parsed): nothing has been written, so a signal prints ``synagree:
  interrupted`` (``terminated``) and ends the process at once (`os._exit`);
* **working** (`start_working` to `work_done`): SIGINT raises `KeyboardInterrupt` and SIGTERM
  `Terminated`, so that ``finally`` blocks run (temporary output files are
  removed) before `synagree.cli.main.main` prints the line and returns 130 or
  143; a second signal while that unwinds ends the process at once;
* **done** (`work_done`, then `stop_working`): the work has ended and its status
  stands.  A signal is ignored from the moment the flag is set (one store, so
  there is no gap in which it could escape as a traceback), and in the command
  `stop_working` then ignores both signals until the process exits: CPython puts
  back the default handlers while it shuts down, and a signal then would kill the
  process (exit -2) after its output was written.

An output committed before the interrupt (renamed into place, whole) stays; the
command names it (`synagree.io.files.committed_outputs`) before its last line.

Only the standard library is imported here: this module runs before numpy.
"""
from __future__ import annotations

import os
import signal
import sys
from types import FrameType

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Optional, Tuple

__all__ = ["Terminated", "guard_startup", "start_working", "work_done", "stop_working",
           "is_command", "EXIT_INTERRUPTED", "EXIT_TERMINATED"]

EXIT_INTERRUPTED = 128 + signal.SIGINT  # 130
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143
_WORDS: Dict[int, Tuple[str, int]] = {signal.SIGINT: ("interrupted", EXIT_INTERRUPTED),
                                      signal.SIGTERM: ("terminated", EXIT_TERMINATED)}


class Terminated(BaseException):
    """Raised by the SIGTERM handler while working, so that ``finally`` blocks run."""


def _exit_now(signum: int, frame: Optional[FrameType]) -> None:
    """Say why and end the process now (nothing is being written, or a second signal)."""
    word, code = _WORDS.get(signum, ("interrupted", EXIT_INTERRUPTED))
    try:
        os.write(2, f"synagree: {word}\n".encode())
    except OSError:
        pass
    os._exit(code)


# [working]: set by `start_working`, cleared by `work_done` (a list: one store, no global)
_WORKING = [False]


def _raise(signum: int, frame: Optional[FrameType]) -> None:
    """The first signal while working unwinds; any later one ends the process at once.
    Once the work is done, a signal changes nothing (the status stands)."""
    if not _WORKING[0]:
        return
    for s in _WORDS:
        signal.signal(s, _exit_now)
    if signum == signal.SIGTERM:
        raise Terminated()
    raise KeyboardInterrupt()


def is_command() -> bool:
    """Is this process the ``synagree`` command (the console script or ``python -m
    synagree``), not a program that imported the package?"""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and getattr(spec, "name", "") in ("synagree.__main__",
                                                          "synagree.cli.main"):
        return True
    argv0 = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return argv0 in ("synagree", "synagree.exe")


def guard_startup() -> None:
    """In the ``synagree`` command only: a signal before the work starts ends it at once
    with its one line (the modules are still loading; nothing is written yet)."""
    if not is_command():
        return
    try:
        for s in _WORDS:
            signal.signal(s, _exit_now)
    except ValueError:  # pragma: no cover - not the main thread
        pass


def start_working(before: Dict[int, Any]) -> None:
    """From here on SIGINT raises `KeyboardInterrupt` and SIGTERM `Terminated`; the
    handlers found go into ``before`` (as they are replaced, so that an interrupt
    half-way leaves it right), for `stop_working`."""
    _WORKING[0] = True
    try:
        for s in _WORDS:
            before[s] = signal.signal(s, _raise)
    except ValueError:  # pragma: no cover - not the main thread: signals stay as they are
        pass


def work_done() -> None:
    """The work has ended (its status is known): from here on a signal is ignored."""
    _WORKING[0] = False


def stop_working(before: Dict[int, Any]) -> None:
    """Put back the handlers `start_working` found (for in-process callers).  In the
    ``synagree`` command, ignore SIGINT and SIGTERM until the process exits instead:
    its status is known, and the interpreter's shutdown puts back the default
    handler of any signal that has a Python one, so a signal then would kill the
    process (exit -2) after its output was written.  ``SIG_IGN`` is the one setting
    the shutdown keeps; a mask would not do, as a signal goes to any thread that
    does not block it (the kernels' worker threads)."""
    _WORKING[0] = False
    command = is_command()
    for s, handler in before.items():
        signal.signal(s, signal.SIG_IGN if command else handler)
