"""Rows of the token-layer (categorical) agreement table (``synagree categorical``)."""
from typing import Dict, List, Mapping, Optional

from synagree.agreement.token_layers import complete_differs
from synagree.base.table import format_value
from synagree.stats.categorical import COEFFICIENTS, LayerAgreement


def summary_rows(results: Dict[str, LayerAgreement],
                 cis: Optional[Dict[str, Dict[str, dict]]] = None) -> List[List[str]]:
    """Rows: layer, items, A_o, κ, π, α, macro specific, macro over documents of κ.

    When κ and π cover fewer items than A_o and α (`complete_differs`), a
    third column gives the items they use, in the same row.

    Parameters
    ----------
    results : dict of str to LayerAgreement
        From `synagree.stats.categorical.categorical_agreement`.
    cis : dict, optional
        ``{layer: {coefficient: {"low", "high"}}}``: intervals appended to the
        cells.
    """
    rows = []
    complete = complete_differs(results)
    for layer, la in results.items():
        c = la.coefficients()
        row = [layer, str(la.items)] + ([str(la.complete_items)] if complete else [])
        row += coefficient_cells(c, (cis or {}).get(layer))
        row.append(format_value(c["specific_macro"]))
        md = la.macro_documents()
        row.append(format_value(md.get("cohen_kappa") if len(la.by_document) > 1
                                else c["cohen_kappa"]))
        rows.append(row)
    return rows


def coefficient_cells(coefficients: Mapping[str, Optional[float]],
                      intervals: Optional[Mapping[str, dict]] = None) -> List[str]:
    """The `COEFFICIENTS` cells of one row, each followed by its interval ``[low, high]``
    when ``intervals`` (``{coefficient: {"low", "high"}}``) has one."""
    cells = []
    for k in COEFFICIENTS:
        cell = format_value(coefficients[k])
        if intervals and k in intervals:
            cell += f" [{format_value(intervals[k]['low'])}, {format_value(intervals[k]['high'])}]"
        cells.append(cell)
    return cells


def summary_header(m: int, complete: bool = False) -> List[str]:
    """The header of `summary_rows`: coefficient names for ``m`` annotators.

    Parameters
    ----------
    m : int
        Annotators (two: Cohen's κ and Scott's π; more: Davies & Fleiss κ and
        Fleiss' κ).
    complete : bool
        Add the column of the items κ and π use (`complete_differs`).
    """
    return (["layer", "items"] + (["items coded by all (kappa, pi)"] if complete else [])
            + ["observed", "Cohen kappa" if m == 2 else "D&F kappa",
               "Scott pi" if m == 2 else "Fleiss kappa", "alpha", "macro specific",
               "kappa macro(docs)"])
