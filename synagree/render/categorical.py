from typing import Dict, List, Optional

from synagree.render.rows import _f
from synagree.stats.categorical import LayerAgreement


def summary_rows(results: Dict[str, LayerAgreement],
                 cis: Optional[Dict[str, Dict[str, dict]]] = None) -> List[List[str]]:
    """Rows: layer, items, A_o, κ, π, α, macro specific, macro over documents of κ."""
    rows = []
    for layer, la in results.items():
        c = la.coefficients()
        row = [layer, str(la.items)]
        for k in ("observed", "kappa", "pi", "alpha"):
            cell = _f(c[k])
            if cis and layer in cis and k in cis[layer]:
                ci = cis[layer][k]
                cell += f" [{_f(ci['low'])}, {_f(ci['high'])}]"
            row.append(cell)
        row.append(_f(c["specific_macro"]))
        md = la.macro_documents()
        row.append(_f(md.get("kappa")) if len(la.by_document) > 1 else _f(c["kappa"]))
        rows.append(row)
    return rows


def summary_header(m: int) -> List[str]:
    return ["layer", "items", "observed", "Cohen kappa" if m == 2 else "D&F kappa",
            "Scott pi" if m == 2 else "Fleiss kappa", "alpha", "macro specific",
            "kappa macro(docs)"]
