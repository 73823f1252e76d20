"""The readers' scans in C, where they are built.

``synagree/io/_scanc.c`` holds the line and column scan of the CoNLL-U
reader and the bracket parse of the bracket reader (issue 24).  It is built
at install time where a C compiler is available (pyproject.toml, optional); the
readers then use it, and otherwise the same scans in Python
(`synagree.io.conllu`, `synagree.io.brackets`), with the same results.
``SYNAGREE_KERNELS`` decides as for the other compiled kernels
(`synagree.base.native`): ``numba`` runs the Python scans.
"""
from __future__ import annotations

from types import ModuleType
from typing import Optional

from synagree.base import native
from synagree.base.problems import InputError, ProblemLog

try:  # the scans in C (pyproject.toml builds them where a C compiler is available)
    from synagree.io import _scanc as _scanc  # (re-exported: the readers call it)
except ImportError:  # pragma: no cover - no compiler at install time
    _scanc = None  # type: ignore[assignment]

#: what _scanc is built from (pyproject.toml)
C_SOURCES = ("_scanc.c", "_scanc_table.h", "_scanc_conllu.h", "_scanc_brackets.h")


def scanc(log: Optional[ProblemLog] = None) -> Optional[ModuleType]:
    """The C scans when they should run, else None (run the Python ones).

    None when the extension is not built, is older than its sources, or
    ``SYNAGREE_KERNELS=numba``.

    Parameters
    ----------
    log : ProblemLog, optional
        Receives the ``bad-environment`` errors below instead of an
        exception (a reader's log: the reader then fails with them, after
        reading by the Python scans).

    Raises
    ------
    InputError
        ``bad-environment`` (without ``log``): ``SYNAGREE_KERNELS=c`` but the
        extension is not built or is stale, or a bad ``SYNAGREE_KERNELS`` or
        ``SYNAGREE_THREADS`` (see `synagree.base.native.use_c`).
    """
    try:
        return _scanc if native.use_c(_scanc, C_SOURCES) else None
    except InputError as exc:
        if log is None:
            raise
        log.extend(exc.errors)
        return None
