"""Kept and changed arcs (``agree --preannotation FILE``) as tables (docs/method.md §29).

Three tables of the table model: each annotator's arcs against the
pre-annotation, the agreement on the arcs each annotator kept and changed,
and α and LAS with and without the arcs every annotator kept.
"""
from __future__ import annotations

from typing import List

from synagree.agreement.preannotation import Preannotation
from synagree.base.table import Column, Table, format_value
from synagree.stats.alpha import VARIANTS

__all__ = ["preannotation_tables"]


def preannotation_tables(pre: Preannotation) -> List[Table]:
    """The arcs, the agreement on kept and changed arcs, α and LAS with and without them."""
    scores = [m for m in ("LAS", "LAS_full") if f"{m}_kept" in
              (pre.per_annotator[0].scores if pre.per_annotator else {})]
    variants = [v for v in VARIANTS if f"alpha_{v}_with_kept" in pre.metrics()]
    arcs = Table("preannotation_arcs",
                 [Column("annotator"), Column("words", "count"), Column("kept", "count"),
                  Column("kept_share", "number"), Column("head changed", "count"),
                  Column("label changed", "count"), Column("changed_share", "number")],
                 title=f"Arcs (head + full DEPREL) against the pre-annotation "
                       f"{pre.preannotation}, on {pre.units} unit(s)")
    for a in pre.per_annotator:
        arcs.add(a.annotator, a.words, a.kept, a.kept_share, a.head_changed, a.label_changed,
                 a.changed_share)
    agreement = Table("preannotation_agreement",
                      [Column("annotator"), Column("arcs"), Column("words", "count"),
                       *(Column(m, "number") for m in scores),
                       *(Column(f"alpha_{v}", "number") for v in variants)],
                      title="Agreement with the other annotators on the arcs each annotator "
                            "kept and on those they changed")
    for a in pre.per_annotator:
        for part, n in (("kept", a.kept), ("changed", a.changed)):
            agreement.add(a.annotator, part, n, *(a.scores.get(f"{m}_{part}") for m in scores),
                          *(a.alpha[f"alpha_{v}_{part}"].alpha for v in variants))
    m = pre.metrics()
    kept = Table("preannotation_kept",
                 [Column("words"), Column("units", "count"), Column("word count", "count"),
                  *(Column(x, "number") for x in scores),
                  *(Column(f"alpha_{v}", "number") for v in variants)],
                 title=f"With and without the arcs every annotator kept "
                       f"(kept_by_all_share {format_value(m.get('kept_by_all_share'))})")
    kept.add("with kept arcs (all)", pre.units, pre.words,
             *(m.get(f"{x}_with_kept") for x in scores),
             *(m.get(f"alpha_{v}_with_kept") for v in variants))
    kept.add("without kept arcs", pre.units_without_kept, pre.words - pre.kept_by_all,
             *(m.get(f"{x}_without_kept") for x in scores),
             *(m.get(f"alpha_{v}_without_kept") for v in variants))
    kept.notes.extend(pre.notes)
    return [arcs, agreement, kept]
