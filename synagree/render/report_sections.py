"""The human band, the pre-annotation and the plan (docs/method.md §28–30) in every output.

An agreement result carries them as sections (``band=``, ``preannotation=``,
``plan=`` of `synagree.agreement.agree.agree_corpus`).  `section_tables`
gives their tables (the table model) for ``agree``'s and ``report``'s table
formats; `html_sections` gives what the report page's template shows: a
titled section per part, its tables as text cells, and the plan's figure
(inline SVG, when matplotlib is installed; else a note says so).
"""
from __future__ import annotations

import csv
import io
from typing import List, Optional, Sequence

from markupsafe import Markup

from synagree.agreement.agree import AgreementResult
from synagree.base.escape import csv_row
from synagree.base.problems import InputError
from synagree.base.table import Document, Table, format_value
from synagree.render.fitted import write_document
from synagree.render.human_band import band_tables
from synagree.render.plan import plan_figure, plan_tables
from synagree.render.preannotation import preannotation_tables

__all__ = ["section_tables", "html_sections", "extra_text", "SECTION_IDS"]

#: the report page's sections for these parts: (id, navigation label)
SECTION_IDS = (("human-band", "Parser vs humans"), ("preannotation", "Pre-annotation"),
               ("plan", "Planning"))


def section_tables(res: AgreementResult) -> List[Table]:
    """The tables of the result's human band, pre-annotation and plan, in that order."""
    out: List[Table] = []
    if res.human_band is not None:
        out += band_tables(res.human_band)
    if res.preannotation is not None:
        out += preannotation_tables(res.preannotation)
    if res.plan is not None:
        out += plan_tables(res)
    return out


def _html_table(t: Table) -> dict:
    return {"title": t.title, "header": t.header(), "notes": list(t.notes),
            "rows": [[format_value(v, c.kind, c.digits) for v, c in zip(r, t.columns)]
                     for r in t.rows]}


def _page_section(anchor: str, title: str, intro: str, tables: Sequence[Table],
                  figure: Optional[Markup] = None, notes: Sequence[str] = ()) -> dict:
    """One section of the report page, as its template reads it."""
    return {"id": anchor, "title": title, "intro": intro,
            "tables": [_html_table(t) for t in tables], "figure": figure, "notes": list(notes)}


def _svg(res: AgreementResult) -> Optional[Markup]:
    assert res.plan is not None
    try:
        svg = plan_figure(res.plan.plan, "svg").decode("utf-8")
    except InputError:  # matplotlib is an optional extra: the tables say it all
        return None
    return Markup(svg[svg.index("<svg"):])  # the figure without its XML prologue


def html_sections(res: AgreementResult) -> List[dict]:
    """One dict per part present, for the report page: ``id``, ``title``, ``intro``,
    ``tables`` (title, header, rows of text, notes), ``figure`` (inline SVG or None)
    and ``notes``."""
    out: List[dict] = []
    if res.human_band is not None:
        b = res.human_band
        out.append(_page_section(
            "human-band", f"Parser vs humans: {b.system} beside a second human",
            f"The parser's agreement with a reference human set beside another human's, on "
            f"the {b.units} sentences every file annotates; intervals from one paired "
            f"bootstrap ({b.replicates} replicates). Within the band: the interval of the "
            f"difference holds 0 (method §28)."
            + (" With three or more humans, the alternative annotator test asks the same "
               "question as a test: can the parser replace one of them (method §34.2)?"
               if b.alt_test is not None else ""), band_tables(b), notes=b.notes))
    if res.preannotation is not None:
        p = res.preannotation
        out.append(_page_section(
            "preannotation", "Pre-annotation: kept and changed arcs",
            f"Arcs (head and full DEPREL) each annotator kept from the pre-annotation "
            f"{p.preannotation} or changed, agreement on each, and α and LAS without the arcs "
            f"every annotator kept (method §29).", preannotation_tables(p)))
    if res.plan is not None:
        figure = _svg(res)
        notes = [] if figure is not None else [
            "The resampling curve's figure needs matplotlib (pip install 'synagree[plot]'); "
            "the table above holds its numbers."]
        out.append(_page_section(
            "plan", "Planning the next round",
            f"Sentences to double-annotate for a {100 * res.plan.plan.level:g}% interval of α "
            f"no wider than {res.plan.plan.width:g}, by resampling this round's "
            f"{res.plan.plan.pilot_units} sentences (method §30).", plan_tables(res),
            figure, notes))
    return out


def extra_text(res: AgreementResult, fmt: str) -> str:
    """The parts' tables appended to ``report``'s other table outputs: Markdown, LaTeX
    and text as tables; CSV as more rows of its long table (table, row, column, value:
    the row named by its first cells, each other cell one row).  "" when there are none.
    """
    tables = section_tables(res)
    if not tables:
        return ""
    if fmt != "csv":
        return "\n" + write_document(Document(tables), fmt)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for t in tables:
        keys = [i for i, c in enumerate(t.columns) if c.kind == "text"] or [0]
        for r in t.rows:
            name = " | ".join(str(r[i]) for i in keys)
            for i, (c, v) in enumerate(zip(t.columns, r)):
                if i in keys:
                    continue
                w.writerow(csv_row([t.name, name, c.header,
                                    format_value(v, c.kind, max(c.digits, 6))]))
    return buf.getvalue()
