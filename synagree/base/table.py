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
``boolean``   True or False shown as ``yes`` / ``no``; None (no test, no answer) as
              the format's absent mark, as a number column shows it
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple, Union

from synagree.base import escape
from synagree.base.cells import NUMERIC_KINDS, format_value  # light: issue 36

KINDS = ("text", "number", "percent", "signed", "signed_percent", "count", "interval",
         "percent_interval", "boolean")

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
