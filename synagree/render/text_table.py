"""The text writer's layout of a table and of a whole result, on plain cells.

`synagree.render.writers.text` and ``writers.write(doc, "table")`` are these two
functions applied to the table model (`synagree.base.table`); the fast path of
``synagree compare`` on bracketed files (`synagree.cli.parseval_fast`) calls them on
the same cells without loading the model (its dataclasses) nor the other writers
(csv, json): issue 36, start-up.  One implementation of the layout, two callers.
"""
from __future__ import annotations

from synagree.base import escape
from synagree.base.cells import NUMERIC_KINDS, format_value
from synagree.render.fit import (
    SIGNATURE_WIDTH,
    cell_width,
    fit_rows,
    hanging,
    layout,
    signature_text,
    terminal_width,
    wrap,
)

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional, Sequence

    from synagree.base.cells import Cell

__all__ = ["text_lines", "text_document"]


def text_lines(headers: Sequence[str], kinds: Sequence[str], digits: Sequence[int],
               rows: Sequence[Sequence[Cell]], title: str = "", notes: Sequence[str] = (),
               width: Optional[int] = None) -> str:
    """A table as aligned text (text left, numbers right), fitted to ``width``: the
    columns' headers, kinds and digits (`synagree.base.table.Column`), the rows of
    cells, the caption and notes; `synagree.render.writers.text` describes it.

    >>> print(text_lines(["label", "LAS"], ["text", "number"], [4, 2], [["a", 0.5]]), end="")
    label   LAS
    a      0.50
    """
    width = terminal_width() if width is None else width
    numeric = [k in NUMERIC_KINDS for k in kinds]
    head = [escape.plain(h) for h in headers]
    body = [[escape.plain(format_value(v, k, d)) for v, k, d in zip(r, kinds, digits)]
            for r in rows]
    text_cols = [i for i, n in enumerate(numeric) if not n]
    # a table of one text column is a list of sentences: wrapped, not cut
    mode = "wrap" if len(headers) == 1 and text_cols else "truncate"
    head, body = fit_rows(head, body, text_cols, width, mode=mode)
    body = [line for r in body for line in _lines(r)]
    cols = list(zip(*([head] + body))) if body else [(h,) for h in head]
    widths = [max(cell_width(line) for x in col for line in x.split("\n")) for col in cols]

    def right(cell: str, w: int) -> str:  # numbers right-aligned, line by line
        return "\n".join(" " * (w - cell_width(line)) + line for line in cell.split("\n"))

    # padded before the layout, which aligns the columns left
    body = [[right(c, w) if n else c for c, w, n in zip(r, widths, numeric)] for r in body]
    head = [right(h, w) if n else h for h, w, n in zip(head, widths, numeric)]
    caption = "\n".join(wrap(escape.plain(title), width)) if title else None
    out = layout(head, body, caption=caption)
    for n in notes:
        out += hanging(escape.plain(n), width, "note: ")
    return "\n".join(out) + "\n"


def _lines(row: List[str]) -> List[List[str]]:
    """A row whose cells hold ``\\n`` (wrapped) as one row per line."""
    parts = [c.split("\n") for c in row]
    height = max(len(p) for p in parts) if parts else 1
    return [[p[k] if k < len(p) else "" for p in parts] for k in range(height)]


def text_document(tables: Sequence[str], notes: Sequence[str] = (), units: str = "",
                  signature: str = "", width: Optional[int] = None) -> str:
    """The text of a whole result: its tables (each written already, fitted to
    ``width``), then the notes, the ``values:`` line and the signature
    (`synagree.render.writers.write` with ``table``)."""
    width = terminal_width() if width is None else width
    tail: List[str] = []
    for n in notes:
        tail += hanging(escape.plain(n), width, "note: ")
    if units:
        tail += hanging(escape.plain(units), width, "values: ")
    if signature:
        tail.append(signature_text(escape.plain(signature), max(width, SIGNATURE_WIDTH)))
    return "\n".join(list(tables) + (["\n".join(tail) + "\n"] if tail else []))
