"""A `Document` of the table model written in one format, the text fitted to the terminal.

`synagree.render.writers` writes every format; this module adds the text
layout that fits the terminal (`synagree.render.fit`: text columns cut with
``…``, notes wrapped), used by the human band, the pre-annotation and the
planning tables.
"""
from __future__ import annotations

from typing import List, Optional

from synagree.base import escape
from synagree.base.table import Document, Table, format_value
from synagree.render import writers
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

__all__ = ["fitted_text", "write_document", "FORMATS"]

FORMATS = writers.FORMATS


def fitted_text(table: Table, width: Optional[int] = None) -> str:
    """One table as aligned text at most ``width`` columns wide (text columns cut)."""
    width = terminal_width() if width is None else width
    numeric = [c.kind != "text" for c in table.columns]
    head = [escape.plain(c.header) for c in table.columns]
    body = [[escape.plain(format_value(v, c.kind, c.digits)) for v, c in zip(r, table.columns)]
            for r in table.rows]
    text_cols = [i for i, n in enumerate(numeric) if not n]
    # a table of one text column is a list of sentences: wrapped, not cut
    mode = "wrap" if len(table.columns) == 1 and text_cols else "truncate"
    head, body = fit_rows(head, body, text_cols, width, mode=mode)
    body = [line for r in body for line in _lines(r)]
    cols = list(zip(*([head] + body))) if body else [(h,) for h in head]
    widths = [max(cell_width(line) for x in col for line in x.split("\n")) for col in cols]

    def right(cell: str, w: int) -> str:  # numbers right-aligned, line by line
        return "\n".join(" " * (w - cell_width(line)) + line for line in cell.split("\n"))

    # padded before the layout, which aligns the columns left
    body = [[right(c, w) if n else c for c, w, n in zip(r, widths, numeric)] for r in body]
    head = [right(h, w) if n else h for h, w, n in zip(head, widths, numeric)]
    caption = "\n".join(wrap(escape.plain(table.title), width)) if table.title else None
    out = layout(head, body, caption=caption)
    for n in table.notes:
        out += hanging(escape.plain(n), width, "note: ")
    return "\n".join(out) + "\n"


def _lines(row: List[str]) -> List[List[str]]:
    """A row whose cells hold ``\n`` (wrapped) as one row per line."""
    parts = [c.split("\n") for c in row]
    height = max(len(p) for p in parts) if parts else 1
    return [[p[k] if k < len(p) else "" for p in parts] for k in range(height)]


def write_document(doc: Document, fmt: str, width: Optional[int] = None) -> str:
    """``doc`` in one of `FORMATS`; ``table`` is the fitted text (`fitted_text`)."""
    if fmt != "table":
        return writers.write(doc, fmt)
    width = terminal_width() if width is None else width
    parts: List[str] = [fitted_text(t, width) for t in doc.tables]
    tail: List[str] = []
    for n in doc.notes:
        tail += hanging(escape.plain(n), width, "note: ")
    if doc.units:
        tail += hanging(escape.plain(doc.units), width, "values: ")
    if doc.signature:
        tail.append(signature_text(escape.plain(doc.signature), max(width, SIGNATURE_WIDTH)))
    return "\n".join(parts + (["\n".join(tail) + "\n"] if tail else []))
