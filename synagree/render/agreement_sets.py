"""``agree --runs/--retest``'s output: `AgreementSets` in every format (one table)."""
from __future__ import annotations

from synagree.agreement.sets import AgreementSets
from synagree.render.questions import render_record

__all__ = ["render_sets"]


def render_sets(sets: AgreementSets, fmt: str = "table") -> str:
    """The sets as ``table``, ``json``, ``csv``, ``markdown`` or ``latex``."""
    return render_record(sets.to_dict(), [sets.table()], sets.notes, fmt)
