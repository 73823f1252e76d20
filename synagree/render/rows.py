"""One table renderer for the QA and categorical tables: text, Markdown, CSV, LaTeX."""
import csv
import io
from typing import Sequence

from synagree.base import escape
from synagree.base.escape import latex as latex_escape
from synagree.render.tables import fmt_num


def _f(x, digits: int = 4) -> str:
    """A number for the tables; "–" when it is missing or undefined (None, NaN, ±inf)."""
    return fmt_num(x, digits, missing="–")


def render_rows(header: Sequence[str], rows: Sequence[Sequence[str]], fmt: str,
                caption: str = "") -> str:
    r"""Render a table as text, Markdown, CSV or LaTeX.

    Cells are escaped for each format (`synagree.base.escape`).

    Parameters
    ----------
    header : sequence of str
    rows : sequence of sequence of str
    fmt : {"table", "markdown", "csv", "latex"}
        Anything else is the aligned text table.
    caption : str
        Text: a first line; Markdown: a bold line; LaTeX: a comment.

    Returns
    -------
    str

    Examples
    --------
    >>> rows = [["nsubj", "0.9"], ["obj|iobj", "0.7"]]
    >>> print(render_rows(["label", "agreement"], rows, "markdown"), end="")
    | label | agreement |
    |---|---|
    | nsubj | 0.9 |
    | obj\|iobj | 0.7 |
    >>> text = render_rows(["label", "agreement"], rows, "table", caption="Labels")
    >>> for line in text.splitlines():
    ...     print(line.rstrip())
    Labels
    label     agreement
    nsubj     0.9
    obj|iobj  0.7
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
    caption = escape.plain(caption)
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h))
              for i, h in enumerate(header)]
    lines = ([caption] if caption else [])
    lines.append("  ".join(str(h).ljust(w) for h, w in zip(header, widths)))
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join(lines) + "\n"
