"""One writer per format for the table model (`synagree.base.table`).

``text``      aligned columns (text left, numbers right), a caption line, notes
``markdown``  a pipe table under a bold caption
``csv``       exact values (floats by ``repr``), an interval as two columns;
              several tables become one long table with a ``section`` column
              (`sections_csv`)
``latex``     a booktabs tabular, percent columns × 100, intervals ``[lo, hi]``
``json``      the tables as records, values exact

Every cell is escaped for its format (`synagree.base.escape`): a label read
from a file can never break the table or run as markup.  Writers never
compute: they format the values the result put in its tables.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from synagree.base import escape
from synagree.base.jsonable import json_ready
from synagree.base.table import NUMERIC_KINDS, Cell, Column, Document, Table, format_value
from synagree.base.table import markdown as markdown  # the Markdown writer (see there)
from synagree.render.fit import (
    hanging,
    terminal_width,
)
from synagree.render.text_table import text_document, text_lines

FORMATS = ("table", "markdown", "csv", "latex", "json")

_INTERVALS = ("interval", "percent_interval")
_NUMERIC = NUMERIC_KINDS


def text(table: Table, width: Optional[int] = None) -> str:
    """The table as aligned text (text left, numbers right), fitted to ``width``.

    ``width`` defaults to `synagree.render.fit.terminal_width`: on a terminal
    the text columns are cut with ``…`` to fit it (a one-column table of
    sentences is wrapped instead) and the caption and notes are wrapped;
    written to a pipe or a file the width is unlimited and nothing is cut.
    Numbers are never cut.

    >>> from synagree.base.table import Column
    >>> t = Table("t", [Column("label"), Column("LAS", "number", 2)], [["a long label", 0.5]])
    >>> print(text(t, width=12), end="")
    label    LAS
    a lon…  0.50
    """
    return text_lines([c.header for c in table.columns], [c.kind for c in table.columns],
                      [c.digits for c in table.columns], table.rows, table.title, table.notes,
                      width)


def csv_value(value: object) -> object:
    """A cell as CSV holds it: a float exactly (``repr``), None and NaN/±inf empty,
    a boolean ``true``/``false`` (as JSON writes it), anything else as it is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None or isinstance(value, float):
        return format_value(value, digits=None, missing="")
    return value


def csv_header(table: Table) -> List[str]:
    """The CSV header: an interval column becomes ``<header>_low``, ``<header>_high``."""
    out: List[str] = []
    for c in table.columns:
        out += ([f"{c.header}_low", f"{c.header}_high"] if c.kind in _INTERVALS
                else [c.header])
    return out


def csv_rows(table: Table) -> List[List[object]]:
    """The CSV rows: exact values, intervals as two cells."""
    out = []
    for row in table.rows:
        cells: List[object] = []
        for v, c in zip(row, table.columns):
            if c.kind in _INTERVALS:
                lo, hi = v if isinstance(v, tuple) else (None, None)
                cells += [csv_value(lo), csv_value(hi)]
            else:
                cells.append(csv_value(v))
        out.append(cells)
    return out


def csv_table(table: Table) -> str:
    """One table as CSV (header row, then exact values)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(escape.csv_row(csv_header(table)))
    w.writerows(escape.csv_row(r) for r in csv_rows(table))
    return buf.getvalue()


def _latex_cell(value: Cell, col: Column) -> str:
    return escape.latex(format_value(value, col.kind, col.digits, missing="--"))


def _tabular(table: Table, columns: Sequence[Column], rows: Sequence[Sequence[str]],
             headers: Optional[Mapping[str, str]] = None) -> str:
    """The booktabs tabular of ``columns`` (text left, numbers right) over ``rows``
    (cells written already), under the table's title and over its notes (comments);
    ``headers`` gives a header in LaTeX as it is (others are escaped)."""
    heads = headers or {}
    spec = "".join("r" if c.kind in _NUMERIC else "l" for c in columns)
    out = [f"% {escape.plain(table.title)}"] if table.title else []
    out += ["\\begin{tabular}{" + spec + "}", "\\toprule",
            " & ".join(heads.get(c.header) or escape.latex(c.header) for c in columns)
            + " \\\\", "\\midrule"]
    out += [" & ".join(r) + " \\\\" for r in rows]
    out += ["\\bottomrule", "\\end{tabular}"]
    out += [f"% note: {escape.plain(n)}" for n in table.notes]
    return "\n".join(out) + "\n"


def latex(table: Table) -> str:
    """The table as a booktabs tabular (percent columns × 100; intervals ``[lo, hi]``)."""
    return _tabular(table, table.columns,
                    [[_latex_cell(v, c) for v, c in zip(row, table.columns)]
                     for row in table.rows])


def latex_paper(table: Table, interval_label: str,
                headers: Optional[Mapping[str, str]] = None) -> str:
    r"""The table as a booktabs tabular in the layout of a paper's results table: the
    interval columns are not columns of their own; each row is followed by a row
    labelled ``interval_label`` that holds each interval ``[lo, hi]`` under the value
    column to its left ("" where there is none), written only when the row has one.

    ``headers`` gives headers in LaTeX as they are (``$lpha_{\mathrm{plain}}$``).
    `synagree.render.tables.render_latex` writes ``agree``'s Table 2 row with it.

    >>> from synagree.base.table import Column
    >>> t = Table("t", [Column("Corpus"), Column("LAS", "percent", 1),
    ...                 Column("LAS_ci", "percent_interval", 1)], [["ud", 0.9, (0.85, 0.95)]])
    >>> print(latex_paper(t, "95% CI"), end="")
    \begin{tabular}{lr}
    \toprule
    Corpus & LAS \\
    \midrule
    ud & 90.0 \\
    95\% CI & [85.0, 95.0] \\
    \bottomrule
    \end{tabular}
    """
    shown = [i for i, c in enumerate(table.columns) if c.kind not in _INTERVALS]
    under = {i: i + 1 for i in shown if i + 1 < len(table.columns)
             and table.columns[i + 1].kind in _INTERVALS}
    rows: List[List[str]] = []
    for row in table.rows:
        rows.append([_latex_cell(row[i], table.columns[i]) for i in shown])
        ivs = {i: row[j] for i, j in under.items() if isinstance(row[j], tuple)}
        if ivs:
            rows.append([escape.latex(interval_label)] + [
                _latex_cell(ivs[i], table.columns[under[i]]) if i in ivs else ""
                for i in shown[1:]])
    return _tabular(table, [table.columns[i] for i in shown], rows, headers)


def json_table(table: Table) -> Dict[str, object]:
    """The table as a JSON-ready record: name, title, columns, rows (values exact)."""
    return {"name": table.name, "title": table.title,
            "columns": [{"header": c.header, "kind": c.kind} for c in table.columns],
            "rows": json_ready([[list(v) if isinstance(v, tuple) else v for v in row]
                                for row in table.rows]),
            "notes": list(table.notes)}


def json_text(data: object) -> str:
    """A result's JSON-ready data as the JSON output: indented, NaN as null, UTF-8.

    >>> json_text({"LAS": float("nan")})
    '{\\n  "LAS": null\\n}\\n'
    """
    return json.dumps(json_ready(data), indent=2, ensure_ascii=False) + "\n"


def write_table(table: Table, fmt: str) -> str:
    """One table in one format (`FORMATS`)."""
    if fmt == "table":
        return text(table)
    if fmt == "markdown":
        return markdown(table)
    if fmt == "csv":
        return csv_table(table)
    if fmt == "latex":
        return latex(table)
    if fmt == "json":
        return json.dumps(json_table(table), indent=2, ensure_ascii=False) + "\n"
    raise ValueError(f"unknown output format {fmt!r}; expected one of {FORMATS}")


def write(doc: Document, fmt: str, width: Optional[int] = None) -> str:
    """A whole result in one format: its tables, notes, units and signature.

    CSV holds every table in one long table (`sections_csv`:
    a ``section`` column, then the union of the columns), the notes and the
    signature as rows of their own.  Text (``table``) is fitted to ``width``
    (`text`; default the terminal's, unlimited on a pipe), its notes and
    ``values:`` line wrapped, the signature folded only beyond
    `synagree.render.fit.SIGNATURE_WIDTH` columns.
    """
    if fmt == "table":
        return _text_document(doc, width)
    if fmt == "json":
        return json.dumps({"tables": [json_table(t) for t in doc.tables],
                           "notes": list(doc.notes), "units": doc.units,
                           "signature": doc.signature}, indent=2, ensure_ascii=False) + "\n"
    tail = ([f"values: {doc.units}"] if doc.units else []) + \
        ([f"signature: {doc.signature}"] if doc.signature else [])
    if fmt == "csv":
        return sections_csv([(t.name, csv_table(t)) for t in doc.tables],
                            list(doc.notes) + tail)
    parts = [write_table(t, fmt) for t in doc.tables]
    if fmt == "markdown":  # after a blank line: a line right under a table is a row
        end = [f"*{escape.markdown(x)}*  " for x in [*(f"note: {n}" for n in doc.notes), *tail]]
        end = [""] + end if end else end
    else:  # latex: comments
        end = [f"% {escape.plain(x)}" for x in [*(f"note: {n}" for n in doc.notes), *tail]]
    return "\n".join(parts) + ("\n".join(end) + "\n" if end else "")


def _text_document(doc: Document, width: Optional[int] = None) -> str:
    """The text of a whole result: its fitted tables, then the notes, the ``values:``
    line and the signature (`synagree.render.text_table.text_document`)."""
    width = terminal_width() if width is None else width
    return text_document([text(t, width) for t in doc.tables], doc.notes, doc.units,
                         doc.signature, width)


def values_line(units: str, fmt: str, width: Optional[int] = None) -> str:
    """The one ``values:`` line of a text output (what the numbers are), as ``fmt``
    writes it: text (wrapped to ``width``, default the terminal's), Markdown
    (italic), LaTeX (a comment); "" for CSV and JSON, which carry ``units`` as data
    where they carry it at all.

    >>> values_line("fractions (0 to 1)", "latex")
    '% values: fractions (0 to 1)\\n'
    """
    if fmt == "markdown":
        return f"*values: {escape.markdown(units)}*  \n"
    if fmt == "latex":
        return f"% values: {escape.plain(units)}\n"
    if fmt == "table":
        w = terminal_width() if width is None else width
        return "\n".join(hanging(escape.plain(units), w, "values: ")) + "\n"
    return ""


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
    signature : str
        The settings signature, if any: a last row of section ``signature``.

    Raises
    ------
    ValueError
        A table without a header, or with a column named ``section``.
    """
    parsed: List[Tuple[str, List[str], List[List[str]]]] = []
    columns: Dict[str, int] = {}
    for section, text_ in tables:
        rows = list(csv.reader(io.StringIO(text_)))
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
