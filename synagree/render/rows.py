"""One table renderer for the QA and categorical tables: text, Markdown, CSV, LaTeX.

`sections_csv` joins several CSV tables into one (docs/output.md, "One table per
CSV file").
"""
import csv
import io
from typing import Dict, List, Optional, Sequence, Tuple

from synagree.base import escape
from synagree.base.escape import latex as latex_escape
from synagree.render.fit import fit_rows, layout, terminal_width, text_columns, wrap
from synagree.render.tables import fmt_num


def _f(x, digits: int = 4) -> str:
    """A number for the tables; "–" when it is missing or undefined (None, NaN, ±inf)."""
    return fmt_num(x, digits, missing="–")


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


#: The leading column of `sections_csv`: which table a row comes from.
SECTION = "section"
#: The section and column of the notes in `sections_csv`.
NOTE = "note"


def sections_csv(tables: Sequence[Tuple[str, str]], notes: Sequence[str] = (),
                 signature: str = "") -> str:
    """Several CSV tables as ONE table: a ``section`` column, then the union of the columns.

    Each row is a row of one of the tables, under its own column names, with
    the table's name in ``section``; the columns it lacks are empty.  A
    column name that several tables share is one column (the section says
    whose cell it is).  The cells are copied as they are, so each table's
    rows read back exactly (filter on ``section``, keep that table's
    columns).  Each note is a row of section ``note`` with its text in a last
    column ``note`` (only when there are notes).

    Parameters
    ----------
    tables : sequence of (str, str)
        ``(section, csv_text)``: a name and a CSV table with a header row.
    notes : sequence of str
        Sentences a reader must know (the ``note:`` lines of the text table).

    Raises
    ------
    ValueError
        A table without a header, or with a column named ``section``.
    """
    parsed: List[Tuple[str, List[str], List[List[str]]]] = []
    columns: Dict[str, int] = {}
    for section, text in tables:
        rows = list(csv.reader(io.StringIO(text)))
        if not rows or SECTION in rows[0]:
            raise ValueError(f"{section}: a CSV table needs a header without a column "
                             f"{SECTION!r}")
        parsed.append((section, rows[0], rows[1:]))
        for c in rows[0]:
            columns.setdefault(c, len(columns))
    if notes or signature:
        columns.setdefault(NOTE, len(columns))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([SECTION, *columns])
    for section, header, rows in parsed:
        for r in rows:
            out = [""] * len(columns)
            for c, cell in zip(header, r):
                out[columns[c]] = cell
            w.writerow([escape.csv_cell(section), *out])  # cells already made safe
    for section, n in [(NOTE, n) for n in notes] + ([("signature", signature)]
                                                    if signature else []):
        out = [""] * len(columns)
        out[columns[NOTE]] = str(escape.csv_cell(n))
        w.writerow([section, *out])
    return buf.getvalue()
