"""An agreement result (``synagree agree``) in one output format, with its sections.

Text and LaTeX: the summary (`synagree.render.tables`), then the tables of
the sections present (breakdown, bias, drift, queries, worst sentences, α
without each annotator).  JSON: `AgreementResult.to_dict`.  CSV: the one-row
summary; with a breakdown the long table of
`synagree.render.breakdown.breakdown_csv`; with the bias, drift or query
tables (`synagree.render.questions`) one table with a ``section`` column
(the summary is section ``summary``), or, with a breakdown too, their cells
as rows of the long table.
"""
from __future__ import annotations

import csv
import io
from typing import cast

from synagree.agreement.agree import AgreementResult
from synagree.base.escape import csv_row
from synagree.base.table import Document
from synagree.render.breakdown import breakdown_csv, breakdown_sections
from synagree.render.fitted import write_document
from synagree.render.qa import render_annotator_influence, render_worst
from synagree.render.questions import (
    LABELS_SHOWN,
    csv_sections,
    long_rows,
    render_section_tables,
    section_tables,
)
from synagree.render.report_sections import section_tables as extra_tables
from synagree.render.rows import sections_csv
from synagree.render.tables import (
    render_csv,
    render_json,
    render_latex,
    render_markdown,
    render_table,
)
from synagree.render.units import render_unit_changes

__all__ = ["FORMATS", "render"]

FORMATS = ("table", "json", "csv", "markdown", "latex")


def render(res: AgreementResult, output: str) -> str:
    """An agreement result in one output format.

    Parameters
    ----------
    res : AgreementResult
    output : {"table", "json", "csv", "markdown", "latex"}

    Raises
    ------
    ValueError
        Unknown format, or CSV of a result with a worst list (two tables: use
        JSON, which holds both).
    """
    if output == "json":
        return render_json(res)
    if output == "csv":
        if res.worst is not None:
            raise ValueError("--worst with CSV output would put two tables in one file: use "
                             "--output json (which holds both) or table")
        return _csv(res)
    if output not in ("table", "markdown", "latex"):
        raise ValueError(f"unknown output format {output!r}; expected one of {FORMATS}")
    parts = [{"table": render_table, "markdown": render_markdown,
              "latex": render_latex}[output](res)]
    if res.breakdown is not None:
        parts.append(breakdown_sections(res.breakdown, output))
    tables = section_tables(res, LABELS_SHOWN)  # --bias, --by, --where
    if tables:
        parts.append(render_section_tables(tables, output))
    if res.worst is not None:
        parts.append(render_worst(res.worst, output))
        if res.unit_changes is not None:  # the joined and edited units (§1.7–1.8)
            parts.append(render_unit_changes(cast(list, res.unit_changes.payload), output))
    if res.annotator_influence is not None:
        parts.append(render_annotator_influence(res.annotator_influence, output))
    tables = extra_tables(res)  # human band, pre-annotation, plan (§28–30)
    if tables:
        parts.append(write_document(Document(tables), output))
    return "\n".join(parts)


def _csv(res: AgreementResult) -> str:
    """The CSV output: one table, whatever sections the result holds."""
    tables = section_tables(res) + extra_tables(res)  # --bias/--by/--where; §28–30
    if res.breakdown is not None:
        text = breakdown_csv(res, res.breakdown)
        if not tables:
            return text
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerows(csv_row(r) for r in long_rows(tables))
        w.writerows(csv_row(["note", "", "", "text", n]) for t in tables for n in t.notes)
        return text + buf.getvalue()
    if not tables:
        return render_csv(res)
    return sections_csv([("summary", render_csv(res)), *csv_sections(tables)],
                        list(res.notes) + [n for t in tables for n in t.notes])
