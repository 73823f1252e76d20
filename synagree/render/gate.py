"""GATE's classification agreement (`synagree.evaluation.gate_documents`) as tables."""
from __future__ import annotations

import json
from pathlib import Path

from synagree.base.table import Column, Document, Table
from synagree.evaluation.gate_documents import GateClassificationResult
from synagree.render.writers import write

__all__ = ["render_gate_classification", "GATE_OUTPUTS"]

#: output formats of `render_gate_classification`
GATE_OUTPUTS = ("table", "json", "csv", "markdown", "latex")


def gate_classification_table(res: GateClassificationResult, exact: bool = False) -> Table:
    """One row per pair of sets and document, then the pooled row of the pair.

    ``exact``: numbers with all their digits (CSV).
    """
    digits = 17 if exact else 4
    cols = [Column("set1"), Column("set2"), Column("document"),
            Column("agreed_trials", "count"), Column("total_trials", "count"),
            Column("observed", "number", digits), Column("cohen_kappa", "signed", digits),
            Column("scott_pi", "signed", digits)]
    out = Table("gate_classification", cols,
                title=f"GATE classification agreement: type {res.type!r}, feature "
                      f"{res.feature!r}")
    for p in res.pairs:
        rows = list(p.documents) + [("POOLED", p.pooled)]
        for name, t in rows:
            doc = name if name == "POOLED" else Path(name).name
            out.add(p.set1, p.set2, doc, t.agreed, t.total, t.observed, t.cohen_kappa,
                    t.scott_pi)
    out.notes.append("pairs: annotations of the type carrying the feature, coextensive, "
                     "each the only one of its span in its set (GATE's ClassificationMeasures); "
                     "POOLED: the documents' confusion matrices summed")
    skipped = [(p, p.pooled) for p in res.pairs
               if p.pooled.duplicates_1 or p.pooled.unmatched or p.pooled.duplicates_2]
    for p, t in skipped:
        out.notes.append(f"{p.set1} vs {p.set2}: annotations of {p.set1} skipped: "
                         f"{t.duplicates_1} sharing their span in {p.set1}, {t.unmatched} "
                         f"without a coextensive one in {p.set2}, {t.duplicates_2} with "
                         f"several in {p.set2}")
    out.notes.extend(res.notes)
    return out


def render_gate_classification(res: GateClassificationResult, output: str = "table") -> str:
    """The result as ``table``, ``json``, ``csv``, ``markdown`` or ``latex``.

    Raises
    ------
    ValueError
        An unknown format (`synagree.render.writers.write`).
    """
    if output == "json":  # the result itself, with the confusion matrices
        return json.dumps(res.to_dict(), indent=2, ensure_ascii=False) + "\n"
    table = gate_classification_table(res, exact=output == "csv")
    return write(Document([table], units="fractions (0 to 1); κ and π may be negative"),
                 output)
