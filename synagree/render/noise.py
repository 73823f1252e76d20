"""Terminal rendering of noise-experiment summaries (``synagree noise``)."""
from typing import Dict, Mapping, Optional, Sequence, Tuple, cast

from synagree.base.jsonable import to_float
from synagree.base.table import Cell, Column, Document, Table
from synagree.render.fitted import write_document

#: what the numbers of the means table are (its ``values:`` line)
MEANS_UNITS = "percent: the mean of each metric over the runs at each p"


def means_table(summary: Sequence[Mapping[str, object]], metrics: Sequence[str]) -> str:
    """Plain-text table of the means in percent (for the terminal), headed by the
    metrics' registered keys, with its ``values:`` line.

    Parameters
    ----------
    summary : sequence of mapping
        From `synagree.noise.experiments.summarize`.
    metrics : sequence of str
    """
    idx: Dict[Tuple[str, float], Dict[str, Optional[float]]] = {}
    for r in summary:
        idx.setdefault((str(r["series"]), to_float(r["p"])), {})[str(r["metric"])] = (
            cast(Optional[float], r["mean"]))
    table = Table("means", [Column("series"), Column("p", "number", 2)]
                  + [Column(m, "percent", 1) for m in metrics])
    for (s, p), v in idx.items():
        cells: list = [s, p] + [v.get(m) for m in metrics]
        table.add(*cast(Sequence[Cell], cells))
    return write_document(Document([table], units=MEANS_UNITS), "table")
