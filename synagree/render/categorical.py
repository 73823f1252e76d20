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
    """The header of `summary_rows`: registered keys (`synagree.base.metrics`).

    With more than two annotators ``cohen_kappa`` is the Davies & Fleiss κ and
    ``scott_pi`` Fleiss' κ (the registry's definitions; `layer_units` says so in
    the ``values:`` line).

    Parameters
    ----------
    m : int
        Annotators (the header is the same for every ``m`` since 0.1: the
        coefficients are named by their keys).
    complete : bool
        Add the column of the items κ and π use (`complete_differs`).
    """
    return (["layer", "items"] + (["complete_items"] if complete else [])
            + list(COEFFICIENTS) + ["specific_macro", "cohen_kappa_macro"])


#: what the numbers of the categorical tables are (their ``values:`` line)
LAYER_UNITS = ("items and assignments: counts; observed agreement, kappa, pi, alpha and "
               "specific agreement: fractions (0 to 1; the coefficients may be negative)")


def layer_units(m: int) -> str:
    """The ``values:`` line of the categorical tables for ``m`` annotators: `LAYER_UNITS`,
    and with more than two what ``cohen_kappa`` and ``scott_pi`` are."""
    if m <= 2:
        return LAYER_UNITS
    return LAYER_UNITS + "; cohen_kappa: Davies & Fleiss' kappa, scott_pi: Fleiss' kappa"
