"""``agree --runs/--retest``'s output: `AgreementSets` in every format (one table)."""
from __future__ import annotations

import json

from synagree.agreement.sets import AgreementSets
from synagree.base.jsonable import json_ready
from synagree.render.questions import csv_sections, render_section_tables
from synagree.render.writers import sections_csv

__all__ = ["render_sets"]


def render_sets(sets: AgreementSets, fmt: str = "table") -> str:
    """The sets as ``table``, ``json``, ``csv``, ``markdown`` or ``latex``."""
    if fmt == "json":
        return json.dumps(json_ready(sets.to_dict()), indent=2, ensure_ascii=False) + "\n"
    table = sets.table()
    if fmt == "csv":
        return sections_csv(csv_sections([table]), list(sets.notes), "")
    return render_section_tables([table], fmt)
