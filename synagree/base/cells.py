"""One table cell as text: `format_value` (the text writer's rounding and marks).

Kept apart from `synagree.base.table` (the table model, dataclasses) so that the
fast path of ``synagree compare`` on bracketed files (`synagree.cli.parseval_fast`)
formats EVALB's numbers with the same function without loading the model (issue 36:
start-up).  Only the standard library's built-ins are used here.
"""
from __future__ import annotations

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional, Tuple, Union

    #: one cell (as `synagree.base.table.Cell`)
    Cell = Union[str, int, float, None, Tuple[Optional[float], Optional[float]]]

__all__ = ["format_value", "NUMERIC_KINDS"]


def format_value(value: Cell, kind: str = "number", digits: Optional[int] = 4,
                 missing: str = "–") -> str:
    """One cell as text (``percent`` × 100), as the text writer shows it.

    ``missing`` stands for None, NaN and ±inf.  ``digits=None`` writes a
    number exactly (``repr`` of the float, round-trip exact), as CSV does; a
    number that rounds to zero is written without a minus sign (``0.00``, ``+0.00``).
    """
    if kind == "text":
        return "" if value is None else str(value)
    if kind == "boolean":
        return missing if value is None else ("yes" if value else "no")
    if kind in ("interval", "percent_interval"):
        if isinstance(value, str):  # a cell written already (as in the other kinds)
            return value
        if not isinstance(value, tuple) or value[0] is None or value[1] is None:
            return missing
        lo, hi = value
        k = "percent" if kind == "percent_interval" else "number"
        return f"[{format_value(lo, k, digits)}, {format_value(hi, k, digits)}]"
    if value is None or isinstance(value, (str, tuple)):
        return missing if value is None or isinstance(value, tuple) else value
    x = float(value)
    if x != x or x in (float("inf"), float("-inf")):
        return missing
    if kind == "count" and x.is_integer():
        return str(int(x))
    if kind in ("percent", "signed_percent"):
        x *= 100
    signed = kind in ("signed", "signed_percent")
    if digits is None:
        return f"{'+' if signed and x >= 0 else ''}{x!r}"
    if round(x, digits) == 0:
        x = 0.0  # no "-0.00"
    if signed:
        return f"{x:+.{digits}f}"
    return f"{x:.{digits}f}"


#: the kinds written right-aligned (numbers)
NUMERIC_KINDS = ("number", "percent", "signed", "signed_percent", "count", "interval",
                 "percent_interval")
