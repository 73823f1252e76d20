"""``spans --coefficient alpha-u``'s output: a `SpanAlphaU` in every format."""
from __future__ import annotations

from synagree.evaluation.span_alpha import SpanAlphaU
from synagree.render.questions import render_record

__all__ = ["render_span_alpha"]


def render_span_alpha(res: SpanAlphaU, fmt: str = "table") -> str:
    """α_u as ``table``, ``json``, ``csv``, ``markdown`` or ``latex``."""
    return render_record(res.to_dict(), res.tables(), res.notes, fmt)
