"""Rendering of the agreement on enhanced edges (``synagree categorical --enhanced``)."""
from typing import List

from synagree.agreement.enhanced import EnhancedAgreement
from synagree.base.table import format_value
from synagree.render.rows import render_rows

__all__ = ["ENHANCED_HEADER", "enhanced_rows", "render_enhanced"]

ENHANCED_HEADER = ["level", "measure", "annotator a", "annotator b", "value", "D_o", "D_e",
                   "values", "items", "matches", "edges a", "edges b"]


def enhanced_rows(res: EnhancedAgreement) -> List[List[str]]:
    r"""One row per level for α, then one per level and annotator pair for F1.

    Columns `ENHANCED_HEADER`; the counts behind every ratio are in the row.
    """
    rows = []
    for level, la in res.levels.items():
        st = la.alpha
        rows.append([level, f"alpha_{res.distance}", "", "", format_value(st.alpha),
                     format_value(st.d_o), format_value(st.d_e), str(st.n), str(st.units),
                     "", "", ""])
    for level, la in res.levels.items():
        for p in la.pairs:
            rows.append([level, "F1", p.a, p.b, format_value(p.f1), "", "", "", "", str(p.matches),
                         str(p.edges_a), str(p.edges_b)])
    return rows


def render_enhanced(res: EnhancedAgreement, fmt: str = "table") -> str:
    r"""The enhanced-edge agreement as a table (text, Markdown, CSV or LaTeX).

    The text table ends with the notes.

    Parameters
    ----------
    res : EnhancedAgreement
    fmt : {"table", "markdown", "csv", "latex"}
    """
    edges = ", ".join(f"{a} {k}" for a, k in res.edges.items())
    caption = (f"Agreement on enhanced edges (DEPS): {res.units} sentences; edges: {edges}; "
               f"alpha with {res.distance.upper()} distance over words")
    text = render_rows(ENHANCED_HEADER, enhanced_rows(res), fmt, caption=caption)
    if fmt == "table":
        text += "".join(f"note: {n}\n" for n in res.notes)
    return text
