"""Values as JSON accepts them."""
from __future__ import annotations

import math

import numpy as np


def json_ready(x):
    """``x`` with NaN/inf as None, numpy scalars and arrays as Python values,
    tuples as lists and dict keys as strings: what `json.dumps` accepts."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {str(k): json_ready(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_ready(v) for v in x]
    if isinstance(x, np.ndarray):
        return json_ready(x.tolist())
    if isinstance(x, np.generic):
        return json_ready(x.item())
    return x
