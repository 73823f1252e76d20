"""Terminal rendering of noise-experiment summaries (``synagree noise``)."""
from typing import Dict, Mapping, Optional, Sequence, Tuple, cast

from synagree.base.jsonable import to_float
from synagree.base.table import format_value
from synagree.noise.results import METRIC_TITLES


def means_table(summary: Sequence[Mapping[str, object]], metrics: Sequence[str]) -> str:
    """Plain-text table of the means in percent (for the terminal).

    Parameters
    ----------
    summary : sequence of mapping
        From `synagree.noise.experiments.summarize`.
    metrics : sequence of str
    """
    head = ["series", "p"] + [METRIC_TITLES.get(m, m) for m in metrics]
    idx: Dict[Tuple[str, float], Dict[str, Optional[float]]] = {}
    for r in summary:
        idx.setdefault((str(r["series"]), to_float(r["p"])), {})[str(r["metric"])] = (
            cast(Optional[float], r["mean"]))
    body = [[s, f"{p:g}"] + [format_value(v.get(m), "percent", 1) for m in metrics]
            for (s, p), v in idx.items()]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    lines = ["  ".join(str(x).rjust(w) if i > 1 else str(x).ljust(w)
                       for i, (x, w) in enumerate(zip(row, widths)))
             for row in [head] + body]
    return "\n".join(lines) + "\n"
