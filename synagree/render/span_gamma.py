"""``spans --coefficient gamma``'s output: a `SpanGamma` in every format."""
from __future__ import annotations

from synagree.evaluation.span_gamma import SpanGamma
from synagree.render.questions import render_record

__all__ = ["render_span_gamma"]


def render_span_gamma(res: SpanGamma, fmt: str = "table") -> str:
    """γ as ``table``, ``json``, ``csv``, ``markdown`` or ``latex``."""
    return render_record(res.to_dict(), res.tables(), res.notes, fmt)
