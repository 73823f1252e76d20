"""Values as JSON accepts them."""
from __future__ import annotations

import math
import sys
from typing import Optional, SupportsFloat, Union, cast

_AS_IS = frozenset({int, str, bool, type(None)})  # JSON values as they are


def json_ready(x):
    """``x`` as `json.dumps` accepts it.

    NaN and infinities become None, numpy scalars and arrays Python values,
    tuples lists, and dict keys strings; nested containers are converted
    recursively.

    Parameters
    ----------
    x : object
        A number, string, container, numpy value, ...

    Returns
    -------
    object
        JSON-ready data (other values are returned unchanged).
    """
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {str(k): json_ready(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        if all(type(v) in _AS_IS for v in x):  # long per-unit lists of ints or strings
            return list(x)
        return [json_ready(v) for v in x]
    # a numpy value exists only once numpy is loaded: the paths that never load it
    # (PARSEVAL, the help) do not pay its import here (issue 36)
    np = sys.modules.get("numpy")
    if np is not None:
        if isinstance(x, np.ndarray):
            return json_ready(x.tolist())
        if isinstance(x, np.generic):
            return json_ready(x.item())
    return x


def to_float(x: object) -> float:
    """``float(x)`` for a cell of a JSON-like row (typed ``object``).

    The cell is known to hold a number or a numeric string; anything else
    raises as `float` does.
    """
    return float(cast(Union[SupportsFloat, str], x))  # float() itself checks it


def finite_or_none(x: Optional[float]) -> Optional[float]:
    """``float(x)``, or None for None, NaN and infinities (an undefined score in JSON)."""
    if x is None or not math.isfinite(x):
        return None
    return float(x)
