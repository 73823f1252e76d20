"""Which implementation runs the compiled kernels, and on how many threads.

synagree's kernels (building trees, tree edit distance, the all-pairs sums)
exist twice, with the same arithmetic in the same order, so their results are
bit-identical (docs/method.md §3.3):

* **C** — extension modules compiled when the package is installed
  (``synagree/trees/_flatc.c``, ``synagree/distance/_tedc.c``).  They load in
  about a millisecond and use POSIX threads; nothing is compiled at run time.
* **numba** — the same kernels in Python, compiled just in time by numba and
  cached on disk.  Used when the C extensions could not be built (no C
  compiler at install time: the build is optional, so the install still
  succeeds), or when asked for.

The choice is made per call from the environment, so that a test or a
benchmark can run both in one process:

``SYNAGREE_KERNELS``
    ``auto`` (default: C when built, else numba), ``c`` (C or an error) or
    ``numba``.
``SYNAGREE_THREADS``
    Threads of the C kernels (a positive integer); default: the CPUs this
    process may run on.  numba's kernels follow ``NUMBA_NUM_THREADS``.

This module imports neither numpy nor numba (``synagree --help`` must stay fast).
"""
from __future__ import annotations

import os
from types import ModuleType
from typing import Optional

from synagree.base.problems import InputError

KERNELS_ENV = "SYNAGREE_KERNELS"
THREADS_ENV = "SYNAGREE_THREADS"
CHOICES = ("auto", "c", "numba")


def _setting_error(name: str, value: str, allowed: str) -> InputError:
    return InputError.single("<environment>", None, "bad-environment",
                             f"{name}={value!r}: must be {allowed}")


def choice() -> str:
    """The ``SYNAGREE_KERNELS`` setting: ``auto``, ``c`` or ``numba``.

    Raises
    ------
    InputError
        ``bad-environment`` for any other value.

    Examples
    --------
    >>> import os
    >>> os.environ.pop(KERNELS_ENV, None) and None
    >>> choice()
    'auto'
    """
    value = os.environ.get(KERNELS_ENV, "auto").strip().lower() or "auto"
    if value not in CHOICES:
        raise _setting_error(KERNELS_ENV, value, "one of auto, c, numba")
    return value


def use_c(extension: Optional[ModuleType]) -> bool:
    """Should the kernels of ``extension`` (None: not built) run, rather than numba's?

    Raises
    ------
    InputError
        ``bad-environment``: ``SYNAGREE_KERNELS=c`` but the extension is not
        built, or an unknown setting.

    Examples
    --------
    >>> import os
    >>> os.environ.pop(KERNELS_ENV, None) and None
    >>> use_c(None), use_c(os)  # any module stands for a built extension here
    (False, True)
    """
    wanted = choice()
    if wanted == "numba":
        return False
    if extension is None and wanted == "c":
        raise InputError.single(
            "<environment>", None, "bad-environment",
            f"{KERNELS_ENV}=c: the C kernels are not built in this installation "
            "(reinstall with a C compiler available, or use auto/numba)")
    return extension is not None


def threads() -> int:
    """Threads for the C kernels: ``SYNAGREE_THREADS``, else the usable CPUs.

    Raises
    ------
    InputError
        ``bad-environment`` when ``SYNAGREE_THREADS`` is not a positive integer.

    Examples
    --------
    >>> import os
    >>> os.environ[THREADS_ENV] = "3"
    >>> threads()
    3
    >>> del os.environ[THREADS_ENV]
    >>> threads() >= 1
    True
    """
    raw = os.environ.get(THREADS_ENV, "").strip()
    if raw:
        try:
            n = int(raw)
        except ValueError:
            n = 0
        if n < 1:
            raise _setting_error(THREADS_ENV, raw, "a positive integer")
        return n
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)
