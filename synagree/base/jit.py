"""Start-up of numba's kernels: the first-run notice and a lighter numba start.

Used only where numba runs the kernels (the C extensions were not built,
or ``SYNAGREE_KERNELS=numba``; `synagree.base.native`).  Those kernels
are compiled by numba with ``cache=True``: the first run
after an install (or after the kernel source changes) compiles them, a few
seconds per kernel, and stores the machine code on disk (``__pycache__``
beside the module, or ``NUMBA_CACHE_DIR``); later runs load it in
milliseconds.  :func:`before_call` is called (trees and distance layers) before a
kernel runs; when the CLI has asked for it (:func:`configure`) it

* prints one line on stderr before a kernel compiles, so that a silent
  pause of several seconds on the first run is explained, and
* starts numba's CPU target without letting it import scipy
  (:func:`scipy_hidden`; the CLI also imports numba that way): numba's
  import checks scipy's version if scipy is installed, and its target
  start-up imports ``scipy.linalg.cython_blas`` only to decide whether
  ``np.dot``-based helpers of *jitted* code may use BLAS; together about
  0.1-0.2 s of a 1 s run.  The TED kernels use no BLAS; without scipy numba
  falls back to a plain loop for those helpers.  Nothing in synagree
  imports scipy, and the hiding ends as soon as numba is started.

This module imports neither numpy nor numba at import time (the CLI imports
it before knowing whether a kernel will run, and ``synagree --help`` must
stay fast).
"""
from __future__ import annotations

import sys
import warnings
from contextlib import contextmanager

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator, Optional, Sequence, Set

# Seconds a kernel takes to compile, for the notice: measured 1.9-2.0 s per
# kernel on a 2-core x86-64 box (numba 0.68); rounded up for slower machines.
COMPILE_SECONDS_PER_KERNEL = 3

NOTICE = ("synagree: compiling the tree-edit-distance kernels (first run only, ~{seconds} s; "
          "later runs load them from the cache)")

_notice: Optional[Callable[[str], None]] = None
_skip_scipy = False
_checked: Set[int] = set()  # ids of dispatchers already checked in this process
_started = False


def configure(notice: Optional[Callable[[str], None]] = None, skip_scipy: bool = False) -> None:
    """Set what :func:`before_call` does in this process (the CLI calls this).

    ``notice``: called with one line of text when a kernel is about to compile
    (``None``: say nothing); ``skip_scipy``: start numba without its scipy
    probe (see the module docstring; only for processes that run nothing
    but synagree's kernels).
    """
    global _notice, _skip_scipy
    _notice = notice
    _skip_scipy = skip_scipy


def will_compile(dispatcher: Any, args: Sequence[Any]) -> bool:
    """Will calling the numba ``dispatcher`` with ``args`` compile it?

    True when no compiled version for the argument types exists in this
    process nor in numba's on-disk cache (index file missing, from another
    numba version, or older than the source).  Reads numba's cache index
    through its internal objects; if they change shape, answers False (no
    notice rather than a crash).
    """
    try:
        from numba import typeof
        from numba.core.typing.typeof import Purpose

        sig = tuple(typeof(a, Purpose.argument) for a in args)
        if any(tuple(s) == sig for s in dispatcher.signatures):
            return False  # already compiled or loaded in this process
        index = dispatcher._cache._cache_file._load_index()  # {} when cold or stale
        return not any(key[0] == sig for key in index)
    except Exception:  # pragma: no cover - numba internals changed
        return False


@contextmanager
def scipy_hidden() -> Iterator[None]:
    """``import scipy`` fails inside the block, unless scipy is already imported."""
    if "scipy" in sys.modules:
        yield  # already imported (by the caller): nothing to save
        return
    sys.modules["scipy"] = None  # type: ignore[assignment]  # import -> ImportError
    try:
        yield
    finally:
        if sys.modules.get("scipy", 0) is None:
            del sys.modules["scipy"]


def _start_numba_without_scipy() -> None:
    """Initialise numba's CPU target with ``scipy`` hidden from imports."""
    with scipy_hidden():
        from numba.core.registry import cpu_target

        cpu_target.target_context.refresh()


SLOW_NOTICE = ("synagree: running the kernels as plain Python (the C kernels are not in use "
               "and numba is not installed): the same numbers, far slower; reinstall where a C "
               "compiler is available, or pip install 'synagree[numba]'")


def _say_slow() -> None:
    """Say once per process that the kernels run as plain Python (`numba_compat`)."""
    if _notice is not None:
        _notice(SLOW_NOTICE)
    else:
        warnings.warn(SLOW_NOTICE, RuntimeWarning, stacklevel=3)


def before_call(dispatcher: Any, args: Sequence[Any]) -> None:
    """Hook run before a kernel call (cheap after the first call per kernel).

    With a notice configured (`configure`), says once per kernel when the
    call is about to compile it.
    """
    global _started
    if not _started:
        _started = True
        if not hasattr(dispatcher, "signatures"):  # numba is not installed: plain Python
            _say_slow()
            return
        if _skip_scipy:
            try:
                _start_numba_without_scipy()
            except Exception:  # pragma: no cover - numba internals changed
                pass
    key = id(dispatcher)
    if _notice is None or key in _checked:
        return
    _checked.add(key)
    if will_compile(dispatcher, args):
        _notice(NOTICE.format(seconds=COMPILE_SECONDS_PER_KERNEL))
        configure(None, _skip_scipy)  # one notice per process is enough
