"""matplotlib, loaded only when a figure is drawn (plotting is an optional extra).

The core (reading, TED, α, the scores, every table format) needs no plotting
library; ``synagree plot``, ``synagree noise --plot`` and the noise curves of
``synagree report --noise`` do, and say how to install it when it is missing.
"""
from __future__ import annotations

from typing import Any

from synagree.base.problems import InputError


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the non-interactive Agg backend.

    Raises
    ------
    InputError
        kind ``missing-extra`` when matplotlib is not installed.
    """
    try:
        import matplotlib
    except ImportError:
        raise InputError.single("<command line>", None, "missing-extra",
                                "figures need the optional dependency matplotlib: "
                                "pip install 'synagree[plot]'") from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt
