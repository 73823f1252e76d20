"""One table renderer for the QA and categorical tables: text, Markdown, CSV, LaTeX.

`sections_csv` (from `synagree.render.writers`) joins several CSV tables into one
(docs/output.md, "One table per CSV file").
"""
from typing import Optional, Sequence

from synagree.base import escape
from synagree.base.table import Column, Table
from synagree.render import writers
from synagree.render.fit import fit_rows, layout, terminal_width, text_columns, wrap
from synagree.render.writers import NOTE, SECTION, sections_csv

__all__ = ["NOTE", "SECTION", "render_rows", "sections_csv"]


def render_rows(header: Sequence[str], rows: Sequence[Sequence[str]], fmt: str,
                caption: str = "", width: Optional[int] = None,
                text: Optional[Sequence[int]] = None) -> str:
    r"""Render a table as text, Markdown, CSV or LaTeX.

    CSV, Markdown and LaTeX are written by `synagree.render.writers` (a `Table`
    of text columns); cells are escaped for each format (`synagree.base.escape`).  The text
    table is fitted to ``width`` (`synagree.render.fit.fit_rows`: text
    columns cut with ``…``); the other formats keep every cell whole.

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
        Text: the columns that may be cut (default: those holding words,
        `synagree.render.fit.text_columns`).
    """

    if fmt in ("csv", "markdown", "latex"):  # the table model's writers, every cell text
        table = Table("rows", [Column(str(h)) for h in header], [list(r) for r in rows],
                      title="" if fmt == "csv" else caption)
        return writers.write_table(table, fmt)
    header = [escape.plain(h) for h in header]
    rows = [[escape.plain(c) for c in r] for r in rows]
    width = terminal_width() if width is None else width
    caption = "\n".join(wrap(escape.plain(caption), width)) if caption else ""
    header, rows = fit_rows(header, rows, text_columns(header, rows) if text is None else text,
                            width)
    return "\n".join(layout(header, rows, caption=caption)) + "\n"
