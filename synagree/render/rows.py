"""One table renderer for the QA and categorical tables: text, Markdown, CSV, LaTeX,
through the table model (`rows_table`) and `synagree.render.writers`.

`sections_csv` (from `synagree.render.writers`) joins several CSV tables into one
(docs/output.md, "One table per CSV file").
"""
from typing import Optional, Sequence

from synagree.base.table import Column, Table
from synagree.render import writers
from synagree.render.fit import text_columns
from synagree.render.writers import NOTE, SECTION, sections_csv

__all__ = ["NOTE", "SECTION", "render_rows", "rows_table", "sections_csv"]


def render_rows(header: Sequence[str], rows: Sequence[Sequence[str]], fmt: str,
                caption: str = "", width: Optional[int] = None,
                text: Optional[Sequence[int]] = None) -> str:
    r"""Render a table of cells written already as text, Markdown, CSV or LaTeX.

    The rows become one `Table` (`rows_table`) that `synagree.render.writers`
    writes in every format, cells escaped for each (`synagree.base.escape`).  The
    text table is fitted to ``width`` (`synagree.render.writers.text`: on a terminal
    the text columns are cut with ``…``, written to a pipe nothing is cut); the
    other formats keep every cell whole.

    Parameters
    ----------
    header : sequence of str
    rows : sequence of sequence of str
    fmt : {"table", "markdown", "csv", "latex"}
        Anything else is the aligned text table.
    caption : str
        Text: a first line; Markdown: a bold line; LaTeX: a comment.
    width : int, optional
        Text: display columns to fit to (default:
        `synagree.render.fit.terminal_width`).
    text : sequence of int, optional
        Further columns of free text (ids), beside those holding words
        (`synagree.render.fit.text_columns`): aligned left and, on a terminal, cut
        where too wide; the others are numbers, aligned right and never cut.
    """
    table = rows_table(header, rows, "" if fmt == "csv" else caption, text)
    if fmt in ("csv", "markdown", "latex"):
        return writers.write_table(table, fmt)
    return writers.text(table, width)


def rows_table(header: Sequence[str], rows: Sequence[Sequence[str]], caption: str = "",
               text: Optional[Sequence[int]] = None) -> Table:
    """Rows of cells written already as a `Table`: the columns holding words
    (`synagree.render.fit.text_columns`) and the columns ``text`` of kind ``text``,
    the others ``number`` (their cells, strings, are written as they are:
    right-aligned and never cut in text)."""
    header = [str(h) for h in header]
    cells = [[str(c) for c in r] for r in rows]
    words = set(text_columns(header, cells)) | set(text or ())
    return Table("rows", [Column(h, "text" if i in words else "number")
                          for i, h in enumerate(header)], [list(r) for r in cells],
                 title=caption)
