"""numba's decorators where numba is installed, plain Python where it is not.

numba is an optional extra (``pip install synagree[numba]``).  The kernels'
Python twins (`synagree.distance.kernels_numba`, `synagree.trees.flat_numba`)
import ``njit`` and ``prange`` from here: with numba they are compiled as
before; without it the decorators return the functions unchanged and
``prange`` is ``range``, so the same code runs as Python, with the same
arithmetic in the same order (IEEE float64 either way) and so the same
numbers, only far slower.  That path exists so that an install with neither a
C compiler nor numba still computes; `synagree.base.native` says once on
stderr that it is slow.

This module imports numba only when it is itself imported (the kernels' twins
are imported only when they run).
"""
from __future__ import annotations

from typing import Any, Callable

_numba_njit: Any = None
_numba_prange: Any = None
try:
    from numba import njit as _numba_njit
    from numba import prange as _numba_prange
except ImportError:  # numba is an optional extra
    pass

#: True when numba is installed and compiles the kernels' twins
AVAILABLE = _numba_njit is not None


def _identity_njit(*args: Any, **kwargs: Any) -> Any:
    """``njit`` without numba: ``@njit`` and ``@njit(...)`` both return the function."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        return fn
    return wrap


njit: Any = _numba_njit if _numba_njit is not None else _identity_njit
prange: Any = _numba_prange if _numba_prange is not None else range
