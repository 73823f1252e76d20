"""One table renderer for the QA and categorical tables: text, Markdown, CSV, LaTeX.

`sections_csv` (from `synagree.render.writers`) joins several CSV tables into one
(docs/output.md, "One table per CSV file").
"""
import csv
import io
from typing import Optional, Sequence

from synagree.base import escape
from synagree.base.escape import latex as latex_escape
from synagree.render.fit import fit_rows, layout, terminal_width, text_columns, wrap
from synagree.render.writers import NOTE, SECTION, sections_csv

__all__ = ["NOTE", "SECTION", "render_rows", "sections_csv"]


def render_rows(header: Sequence[str], rows: Sequence[Sequence[str]], fmt: str,
                caption: str = "", width: Optional[int] = None,
                text: Optional[Sequence[int]] = None) -> str:
    r"""Render a table as text, Markdown, CSV or LaTeX.

    Cells are escaped for each format (`synagree.base.escape`).  The text
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

    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(escape.csv_row(header))
        w.writerows(escape.csv_row(r) for r in rows)
        return buf.getvalue()
    if fmt == "markdown":
        esc = escape.markdown
        out = [f"**{esc(caption)}**", ""] if caption else []
        out.append("| " + " | ".join(esc(h) for h in header) + " |")
        out.append("|" + "|".join("---" for _ in header) + "|")
        out += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows]
        return "\n".join(out) + "\n"
    if fmt == "latex":
        out = ["\\begin{tabular}{" + "l" * len(header) + "}", "\\toprule",
               " & ".join(latex_escape(str(h)) for h in header) + " \\\\", "\\midrule"]
        out += [" & ".join(latex_escape(str(c)) for c in r) + " \\\\" for r in rows]
        out += ["\\bottomrule", "\\end{tabular}"]
        if caption:
            out.insert(0, f"% {escape.plain(caption)}")  # a comment: one line is enough
        return "\n".join(out) + "\n"
    header = [escape.plain(h) for h in header]
    rows = [[escape.plain(c) for c in r] for r in rows]
    width = terminal_width() if width is None else width
    caption = "\n".join(wrap(escape.plain(caption), width)) if caption else ""
    header, rows = fit_rows(header, rows, text_columns(header, rows) if text is None else text,
                            width)
    return "\n".join(layout(header, rows, caption=caption)) + "\n"
