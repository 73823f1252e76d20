"""Rendering of the agreement on enhanced edges (``synagree categorical --enhanced``)."""
from typing import List

from synagree.agreement.enhanced import EnhancedAgreement
from synagree.render.rows import _f, render_rows

__all__ = ["ENHANCED_HEADER", "enhanced_rows", "render_enhanced"]

ENHANCED_HEADER = ["level", "measure", "annotator a", "annotator b", "value", "D_o", "D_e",
                   "values", "items", "matches", "edges a", "edges b"]


def enhanced_rows(res: EnhancedAgreement) -> List[List[str]]:
    r"""One row per level for α, then one per level and annotator pair for F1.

    Columns `ENHANCED_HEADER`; the counts behind every ratio are in the row.

    Parameters
    ----------
    res : EnhancedAgreement

    Returns
    -------
    list of list of str

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus, Unit
    >>> from synagree.agreement.enhanced import enhanced_agreement
    >>> def s(deps):
    ...     return DepSentence("f", 0, 1, ["Dogs", "bark"], np.array([2, 0]),
    ...                        ["nsubj", "root"], word_lines=[2, 3], deps=deps)
    >>> corpus = Corpus(["a", "b"], [Unit("1", "d", {"a": s(["2:nsubj:pass", "0:root"]),
    ...                                             "b": s(["2:nsubj", "0:root"])})],
    ...                 "dependency")
    >>> enhanced_rows(enhanced_agreement(corpus))[2]
    ['ELAS', 'F1', 'a', 'b', '0.5000', '', '', '', '', '1', '2', '2']
    """
    rows = []
    for level, la in res.levels.items():
        st = la.alpha
        rows.append([level, f"alpha_{res.distance}", "", "", _f(st.alpha), _f(st.d_o),
                     _f(st.d_e), str(st.n), str(st.units), "", "", ""])
    for level, la in res.levels.items():
        for p in la.pairs:
            rows.append([level, "F1", p.a, p.b, _f(p.f1), "", "", "", "", str(p.matches),
                         str(p.edges_a), str(p.edges_b)])
    return rows


def render_enhanced(res: EnhancedAgreement, fmt: str = "table") -> str:
    r"""The enhanced-edge agreement as a table (text, Markdown, CSV or LaTeX).

    The text table ends with the notes.

    Parameters
    ----------
    res : EnhancedAgreement
    fmt : {"table", "markdown", "csv", "latex"}

    Returns
    -------
    str

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus, Unit
    >>> from synagree.agreement.enhanced import enhanced_agreement
    >>> def s(deps):
    ...     return DepSentence("f", 0, 1, ["Dogs", "bark"], np.array([2, 0]),
    ...                        ["nsubj", "root"], word_lines=[2, 3], deps=deps)
    >>> corpus = Corpus(["a", "b"], [Unit("1", "d", {"a": s(["2:nsubj:pass", "0:root"]),
    ...                                             "b": s(["2:nsubj", "0:root"])})],
    ...                 "dependency")
    >>> print(render_enhanced(enhanced_agreement(corpus), "csv").splitlines()[4])
    EULAS,F1,a,b,1.0000,,,,,2,2,2
    """
    edges = ", ".join(f"{a} {k}" for a, k in res.edges.items())
    caption = (f"Agreement on enhanced edges (DEPS): {res.units} sentences; edges: {edges}; "
               f"alpha with {res.distance.upper()} distance over words")
    text = render_rows(ENHANCED_HEADER, enhanced_rows(res), fmt, caption=caption)
    if fmt == "table":
        text += "".join(f"note: {n}\n" for n in res.notes)
    return text
