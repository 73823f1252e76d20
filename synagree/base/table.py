"""The table model: what every result shows, before any format is chosen.

A result builds `Table` objects from its numbers; `synagree.render.writers`
writes them as text, Markdown, CSV, LaTeX or JSON.  Cells keep their values
(numbers stay numbers), so every writer is lossless in its own way: CSV and
JSON write the exact values, text and LaTeX round them as the `Column` says,
and an interval is two numbers everywhere (``[lo, hi]`` in text and LaTeX,
``<column>_low``/``<column>_high`` in CSV).

Column kinds (`Column.kind`):

``text``      a string (cut to the terminal width in text output)
``number``    a float with ``digits`` decimals; None, NaN and ±inf show as "–"
``percent``   a fraction shown × 100 with ``digits`` decimals in text, Markdown
              and LaTeX (CSV and JSON keep the fraction)
``signed``    a number with its sign (a change)
``signed_percent``  a change of fractions shown × 100 with its sign (CSV and JSON
              keep the fraction)
``count``     a whole number (floats that are whole print without decimals)
``interval``  a pair ``(lo, hi)`` of numbers, or None
``percent_interval``  a pair of fractions shown × 100 (as ``percent``); CSV and
              JSON keep the fractions
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple, Union

from synagree.base import escape

KINDS = ("text", "number", "percent", "signed", "signed_percent", "count", "interval",
         "percent_interval")

#: one cell: a string, a number, a pair of numbers (an interval) or nothing
Cell = Union[str, int, float, None, Tuple[Optional[float], Optional[float]]]


@dataclass(frozen=True)
class Column:
    """One column: its header and how its cells are shown.

    Attributes
    ----------
    header : str
        The column's name (a registered metric key where the column is one).
    kind : str
        One of `KINDS`.
    digits : int
        Decimals of ``number``, ``percent``, ``signed`` and ``interval`` cells.
    """

    header: str
    kind: str = "text"
    digits: int = 4

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown column kind {self.kind!r}; expected one of {KINDS}")


@dataclass
class Table:
    """A titled table of rows, with the notes a reader of it must know.

    Attributes
    ----------
    name : str
        A short machine name (the ``section`` of a combined CSV, a JSON key).
    columns : list of Column
    rows : list of list of Cell
        One cell per column.
    title : str
        A caption (text: a first line; Markdown: bold; LaTeX: a comment).
    notes : list of str
    """

    name: str
    columns: List[Column]
    rows: List[List[Cell]] = field(default_factory=list)
    title: str = ""
    notes: List[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for k, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise ValueError(f"table {self.name!r}, row {k + 1}: {len(row)} cells for "
                                 f"{len(self.columns)} columns")

    def __len__(self) -> int:
        return len(self.rows)

    def header(self) -> List[str]:
        """The column headers."""
        return [c.header for c in self.columns]

    def column(self, header: str) -> Column:
        """The column named ``header`` (KeyError if none)."""
        for c in self.columns:
            if c.header == header:
                return c
        raise KeyError(header)

    def add(self, *cells: Cell) -> None:
        """Append one row (as many cells as columns)."""
        if len(cells) != len(self.columns):
            raise ValueError(f"table {self.name!r}: {len(cells)} cells for "
                             f"{len(self.columns)} columns")
        self.rows.append(list(cells))


@dataclass
class Document:
    """A result as tables: what one command prints, in order.

    Attributes
    ----------
    tables : list of Table
    notes : list of str
        What a reader of the whole result must know.
    units : str
        What the values are (``fractions (0 to 1)``, ``percent``, ...).
    signature : str
        The settings that produced the numbers (`AgreementResult.signature`).
    """

    tables: List[Table] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    units: str = ""
    signature: str = ""

    def table(self, name: str) -> Table:
        """The table named ``name`` (KeyError if none)."""
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(name)


def key_value(name: str, rows: Sequence[Tuple[str, Cell, str]], title: str = "") -> Table:
    """A two-column table of named values (a summary), each value with its own kind.

    ``rows`` holds ``(name, value, kind)``; the value column is ``text`` and
    each value is formatted by its kind first, so that one column can hold
    fractions, counts and settings.  Kept for summaries; tables of records
    use `Table` with typed columns.
    """
    out = Table(name, [Column("name"), Column("value")], title=title)
    for key, value, kind in rows:
        out.add(key, format_value(value, kind))
    return out


def format_value(value: Cell, kind: str = "number", digits: Optional[int] = 4,
                 missing: str = "–") -> str:
    """One cell as text (``percent`` × 100), as the text writer shows it.

    ``missing`` stands for None, NaN and ±inf.  ``digits=None`` writes a
    number exactly (``repr`` of the float, round-trip exact), as CSV does; a
    number that rounds to zero is written without a minus sign (``0.00``, ``+0.00``).
    """
    if kind == "text":
        return "" if value is None else str(value)
    if kind in ("interval", "percent_interval"):
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


def markdown(table: Table) -> str:
    """The table as a Markdown pipe table under a bold caption, then its notes.

    The Markdown writer of `synagree.render.writers` (which exports it under
    the same name); it lives here, beside the model, so that a layer below
    ``render`` (the noise experiment's ``summary.md``) writes its tables through
    it too.  Cells are escaped (`synagree.base.escape.markdown`).

    >>> print(markdown(Table("t", [Column("LAS", "percent", 1)], [[0.5]])), end="")
    | LAS |
    |---:|
    | 50.0 |
    """
    esc = escape.markdown
    out = [f"**{esc(table.title)}**", ""] if table.title else []
    out.append("| " + " | ".join(esc(c.header) for c in table.columns) + " |")
    out.append("|" + "|".join("---:" if c.kind in NUMERIC_KINDS else "---"
                              for c in table.columns) + "|")
    out += ["| " + " | ".join(esc(format_value(v, c.kind, c.digits))
                              for v, c in zip(row, table.columns)) + " |"
            for row in table.rows]
    out += ["", *(f"*note: {esc(n)}*" for n in table.notes)] if table.notes else []
    return "\n".join(out) + "\n"
