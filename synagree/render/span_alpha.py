"""``spans --coefficient alpha-u``'s output: a `SpanAlphaU` in every format."""
from __future__ import annotations

import json

from synagree.base.jsonable import json_ready
from synagree.evaluation.span_alpha import SpanAlphaU
from synagree.render.questions import csv_sections, render_section_tables
from synagree.render.writers import sections_csv

__all__ = ["render_span_alpha"]


def render_span_alpha(res: SpanAlphaU, fmt: str = "table") -> str:
    """α_u as ``table``, ``json``, ``csv``, ``markdown`` or ``latex``."""
    if fmt == "json":
        return json.dumps(json_ready(res.to_dict()), indent=2, ensure_ascii=False) + "\n"
    tables = res.tables()
    if fmt == "csv":
        return sections_csv(csv_sections(tables), list(res.notes), "")
    return render_section_tables(tables, fmt)
