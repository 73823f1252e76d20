"""Plain aligned text tables of the comparison commands (``compare``, PARSEVAL, ``--baseline``).

Columns two spaces apart, the first ``left`` columns left-aligned and the rest
right-aligned, a dashed rule under the header, no trailing blanks; cells
escaped with `synagree.base.escape.plain`.  Also the cell formats these
tables share and the significance table of both comparison commands.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Optional, Sequence

from synagree.base.escape import plain
from synagree.base.table import format_value

if TYPE_CHECKING:  # only a type here: PARSEVAL's renderer imports no numpy
    from synagree.stats.significance import SignificanceResult

__all__ = ["aligned_table", "percent", "p_value", "significance_lines"]


def aligned_table(head: Sequence[Any], rows: Sequence[Sequence[Any]],
                  left: int = 1) -> List[str]:
    """The lines of the table: header, rule, rows (cells as ``str``, escaped)."""
    cells = [[plain(v) for v in r] for r in [head, *rows]]
    widths = [max(len(r[c]) for r in cells) for c in range(len(head))]

    def fmt(r: Sequence[str]) -> str:
        return "  ".join(v.ljust(w) if c < left else v.rjust(w)
                         for c, (v, w) in enumerate(zip(r, widths))).rstrip()

    return [fmt(cells[0]), "  ".join("-" * w for w in widths)] + [fmt(r) for r in cells[1:]]


def percent(x: Optional[float], digits: int = 2) -> str:
    """A fraction in percent (``0.5`` -> ``50.00``); ``--`` when None or not finite."""
    return format_value(x, "percent", digits, missing="--")


def p_value(p: Optional[float]) -> str:
    """A p-value with four decimals; ``--`` when None or not finite."""
    return format_value(p, digits=4, missing="--")


def significance_lines(sig: SignificanceResult, units: str) -> List[str]:
    """The significance tests of a comparison as text: a line of settings, then a row
    per pair of systems and metric, values in percent; ``units`` names what was
    resampled (``units``, ``sentences``).
    """
    lvl = f"{100 * sig.level:g}%"
    out = [f"significance: paired bootstrap (B = {sig.B}) and approximate randomisation "
           f"(R = {sig.R}) over {sig.units} {units}, seed {sig.seed}"]
    rows = []
    for t in sig.pairs:
        ci = "--" if t.ci is None else f"[{percent(t.ci[0])}, {percent(t.ci[1])}]"
        rows.append([t.a, t.b, t.metric, percent(t.value_a), percent(t.value_b),
                     percent(t.diff), ci, p_value(t.p_bootstrap), p_value(t.p_randomisation)])
    return out + aligned_table(["A", "B", "metric", "A %", "B %", "A-B", f"{lvl} CI of A-B",
                                "p boot", "p AR"], rows, left=3)
