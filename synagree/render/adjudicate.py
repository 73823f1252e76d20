"""``synagree adjudicate``'s summary: the annotators against the consensus, how the
words were decided, and the head of the worklist (docs/adjudication.md).

Tables go through `synagree.base.table` and `synagree.render.writers`; JSON
is `synagree.agreement.adjudicate.AdjudicationResult.to_dict`.
"""
from __future__ import annotations

import json

from synagree.agreement.adjudicate import AdjudicationResult
from synagree.base.jsonable import json_ready
from synagree.base.table import Column, Document, Table, key_value
from synagree.render.writers import FORMATS as FORMATS
from synagree.render.writers import write

__all__ = ["FORMATS", "adjudication_document", "render"]

#: worklist rows shown on standard output (the --worklist file has them all)
SHOWN = 20


def adjudication_document(res: AdjudicationResult, shown: int = SHOWN) -> Document:
    """The summary as tables: counts, per annotator, the first ``shown`` worklist rows."""
    summary = key_value("summary", [
        ("weights", res.weights, "text"), ("annotators", len(res.annotators), "count"),
        ("units", res.units, "count"), ("words", res.words, "count"),
        ("alpha_plain", res.alpha_plain, "number"),
        *((k, v, "count") for k, v in res.decided.items()),
        ("worklist_items", len(res.worklist), "count"),
        ("worklist_order", res.worklist_order, "text")])
    words = ["LAS", "LAS_full"] if res.kind == "dependency" else ["jaccard"]
    per = Table("per_annotator", [Column("annotator"), Column("alpha_plain", "number"),
                                  *(Column(m, "number") for m in words),
                                  Column("competence", "number")],
                title="each annotator against the consensus")
    for s in res.scores:
        d = s.to_dict()
        per.add(s.annotator, s.alpha_plain, *(d[m] for m in words), s.competence)
    work = Table("worklist", [Column("rank", "count"), Column("unit"), Column("word", "count"),
                              Column("form"), Column("reason"), Column("head", "count"),
                              Column("deprel"), Column("votes"),
                              Column("delta_alpha", "signed")],
                 title=f"worklist: the first {min(shown, len(res.worklist))} of "
                       f"{len(res.worklist)} (ordered by {res.worklist_order})")
    for r in res.worklist_rows()[:shown]:
        work.add(r["rank"], r["unit"], r["word"], r["form"], r["reason"], r["head"],
                 r["deprel"], r["votes"], r["delta_alpha"])
    return Document([summary, per, work], notes=list(res.notes),
                    units="fractions (0 to 1) and counts")


def render(res: AdjudicationResult, fmt: str = "table") -> str:
    """The summary in ``fmt`` (``json``: the whole result, `AdjudicationResult.to_dict`)."""
    if fmt == "json":
        return json.dumps(json_ready(res.to_dict()), indent=2, ensure_ascii=False) + "\n"
    return write(adjudication_document(res), fmt)
