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
    Threads of the C kernels (1 to 1,024); default: the CPUs this process
    may run on.  numba's kernels follow ``NUMBA_NUM_THREADS``.
``SYNAGREE_SIMD``
    ``auto`` or ``on`` (default; also ``1``): batches of pairs with integral
    unit costs run the C extension's inter-pair SIMD kernel at the widest
    level the CPU has (AVX-512F: 16 lanes, AVX2: 8, SSE4.1: 4);
    ``avx512``, ``avx2``, ``sse4.1``: at most that level (a level the CPU
    lacks: the next lower one it has); ``off`` (also ``0``): the scalar C
    kernel only (for comparison; the distances are the same,
    docs/method.md §3.3).  Each width checks itself against the scalar
    kernel before it first runs in a process; one that fails is disabled
    with one line on stderr (the tests force a failure with the test-only
    ``SYNAGREE_SIMD_SELFCHECK_BREAK=<width>``).

A C extension built from other sources than those beside it (an editable
install whose ``.c`` files changed since the last build) is never run:
``auto`` then warns once and runs numba, ``c`` is an error (`built_from`).

This module imports neither numpy nor numba (``synagree --help`` must stay fast).
"""
from __future__ import annotations

import importlib.util
import os
import warnings
import weakref
from pathlib import Path
from types import ModuleType
from typing import Optional, Sequence

from synagree.base.problems import InputError

KERNELS_ENV = "SYNAGREE_KERNELS"
THREADS_ENV = "SYNAGREE_THREADS"
SIMD_ENV = "SYNAGREE_SIMD"
SIMD_CHOICES = {"auto": True, "on": True, "1": True, "off": False, "0": False,
                "avx512": True, "avx2": True, "sse4.1": True}
CHOICES = ("auto", "c", "numba")
MAX_THREADS = 1024  # each thread holds work buffers of up to a few MB


def _environment_error(message: str) -> InputError:
    return InputError.single("<environment>", None, "bad-environment", message)


def _setting_error(name: str, value: str, allowed: str) -> InputError:
    return _environment_error(f"{name}={value!r}: must be {allowed}")


def choice() -> str:
    """The ``SYNAGREE_KERNELS`` setting: ``auto``, ``c`` or ``numba``.

    Raises
    ------
    InputError
        ``bad-environment`` for any other value.
    """
    value = os.environ.get(KERNELS_ENV, "auto").strip().lower() or "auto"
    if value not in CHOICES:
        raise _setting_error(KERNELS_ENV, value, "one of auto, c, numba")
    return value


def _in_checkout(binary: Path) -> bool:
    """Is ``binary`` (``synagree/<layer>/_x.so``) built in place in a source checkout (an
    editable install), rather than installed from a wheel?"""
    root = binary.resolve().parent.parent.parent
    return (root / "pyproject.toml").is_file() and (root / "synagree" / "__init__.py").is_file()


def built_from(extension: ModuleType, sources: Sequence[str]) -> bool:
    """Was ``extension`` built from ``sources`` as they are now?

    ``sources``: file names beside the extension's binary.  A build that recorded the
    SHA-256 of its sources (``SOURCE_SHA256``, over the files in name order) is compared
    with the files on disk.  The declarative build (pyproject.toml) records none; then a
    source newer than a binary built in place in a checkout (an editable install whose
    ``.c`` files changed since the last build) means older: conservative, since a checkout
    that rewrote an unchanged source also counts, and the remedy is the same rebuild.
    True when it cannot tell: the sources are not there, or the binary is installed (a
    wheel's files carry the times they were unpacked at).
    """
    where = getattr(extension, "__file__", None)
    if where is None:
        return True
    files = [Path(where).parent / name for name in sorted(sources)]
    if not files or not all(f.is_file() for f in files):
        return True
    expected = getattr(extension, "SOURCE_SHA256", "")
    if not expected:
        if not _in_checkout(Path(where)):
            return True  # an installed wheel: its files' times are those of unpacking
        built = Path(where).stat().st_mtime
        return all(f.stat().st_mtime <= built for f in files)
    # hashlib only here: the declarative build records no digest, and its import (OpenSSL)
    # is a few ms of every run's start-up (issue 36)
    import hashlib

    digest = hashlib.sha256()
    for f in files:
        digest.update(f.read_bytes())
    return digest.hexdigest() == expected


# per extension module: built from its sources as they are now; warned about it
_fresh: "weakref.WeakKeyDictionary[ModuleType, bool]" = weakref.WeakKeyDictionary()
_warned: "weakref.WeakSet[ModuleType]" = weakref.WeakSet()


def use_c(extension: Optional[ModuleType], sources: Sequence[str] = ()) -> bool:
    """Should the kernels of ``extension`` (None: not built) run, rather than numba's?

    ``sources``: the extension's source files (see `built_from`); a build
    older than them is not used (``auto`` warns once and runs numba).  Both
    settings are checked on every call, whichever kernels run.

    Raises
    ------
    InputError
        ``bad-environment``: ``SYNAGREE_KERNELS=c`` but the extension is not
        built or is older than its sources, or an unknown setting of either
        variable.
    """
    wanted = choice()
    threads()  # a bad SYNAGREE_THREADS is an error on every path, not only on C's
    simd()  # and a bad SYNAGREE_SIMD
    if wanted == "numba":
        return False
    if extension is None:
        if wanted == "c":
            raise _environment_error(
                f"{KERNELS_ENV}=c: the C kernels are not built in this installation "
                "(reinstall with a C compiler available, or use auto/numba)")
        return False
    fresh = _fresh.get(extension)
    if fresh is None:  # its sources do not change while the process runs
        fresh = _fresh[extension] = built_from(extension, sources)
    if not fresh and wanted == "c":
        raise _environment_error(
            f"{KERNELS_ENV}=c: {extension.__name__} was built from an older version of its "
            "sources (rebuild with pip install -e ., or use auto/numba)")
    if not fresh and extension not in _warned:
        _warned.add(extension)
        warnings.warn(f"{extension.__name__} was built from an older version of its "
                      "sources: running the kernels' twins instead (numba, or plain Python; "
                      "rebuild with pip install -e .)", RuntimeWarning, stacklevel=2)
    return fresh


def numba_installed() -> bool:
    """Is numba importable (the optional extra ``synagree[numba]``)?  Without it the
    kernels' twins run as plain Python (`synagree.base.numba_compat`).  Looks for the
    package without importing it (its import costs ~0.5 s)."""
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):  # hidden (sys.modules["numba"] = None) or broken
        return False


def simd() -> bool:
    """The ``SYNAGREE_SIMD`` setting: may the C kernels run their SIMD kernel?

    ``auto``, ``on``, ``1`` or unset: yes, at the widest level the CPU has;
    ``avx512``, ``avx2``, ``sse4.1``: yes, at most at that level (the C
    extension picks the level: ``simd_lanes()``); ``off`` or ``0``: no.
    The C extension reads the same variable.

    Raises
    ------
    InputError
        ``bad-environment`` for any other value.
    """
    value = os.environ.get(SIMD_ENV, "auto").strip().lower() or "auto"
    if value not in SIMD_CHOICES:
        raise _setting_error(SIMD_ENV, value, "one of auto, on, off, 1, 0, avx512, avx2, sse4.1")
    return SIMD_CHOICES[value]


def threads() -> int:
    """Threads for the C kernels: ``SYNAGREE_THREADS``, else the usable CPUs.

    Raises
    ------
    InputError
        ``bad-environment`` when ``SYNAGREE_THREADS`` is not a whole number
        from 1 to `MAX_THREADS`.
    """
    raw = os.environ.get(THREADS_ENV, "").strip()
    if raw:
        try:
            n = int(raw)
        except ValueError:
            n = 0
        if not 1 <= n <= MAX_THREADS:
            raise _setting_error(THREADS_ENV, raw, f"a whole number from 1 to {MAX_THREADS:,}")
        return n
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        usable = os.cpu_count() or 1
    return max(1, min(usable, MAX_THREADS))
