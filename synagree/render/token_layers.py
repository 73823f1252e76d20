"""``synagree categorical``'s output: a `TokenLayerAgreement` in every format.

JSON is one document; table, Markdown and LaTeX put the layer table first,
then the specific agreement, per-feature and enhanced tables; CSV is one
table, with a leading ``section`` column when there is more than the layer
table (`synagree.render.rows.sections_csv`, docs/output.md).
"""
from __future__ import annotations

import json
from typing import List, Tuple

from synagree.agreement.token_layers import TokenLayerAgreement, complete_differs, item_set_note
from synagree.base.jsonable import json_ready
from synagree.base.table import Document, format_value
from synagree.render import writers
from synagree.render.categorical import layer_units, summary_header, summary_rows
from synagree.render.enhanced import render_enhanced
from synagree.render.features import render_per_feature
from synagree.render.questions import (
    LABELS_SHOWN,
    bias_tables,
    csv_sections,
    render_section_tables,
)
from synagree.render.rows import render_rows, sections_csv

__all__ = ["render_token_layers"]


def _json(rep: TokenLayerAgreement, confusion: bool) -> str:
    return json.dumps(json_ready(rep.to_dict(confusion=confusion)), indent=2,
                      ensure_ascii=False) + "\n"


def render_token_layers(rep: TokenLayerAgreement, fmt: str = "table",
                        confusion: bool = False) -> str:
    """The token-layer agreement as ``table``, ``json``, ``csv``, ``markdown`` or ``latex``.

    Parameters
    ----------
    rep : TokenLayerAgreement
    fmt : str
    confusion : bool
        JSON: include the contingency tables.
    """
    if fmt == "json":
        return _json(rep, confusion)
    text = render_rows(
        summary_header(len(rep.annotators), complete_differs(rep.results)),
        summary_rows(rep.results, rep.intervals), fmt,
        caption="Categorical agreement per layer (pooled; micro over documents)"
                + (f", {100 * rep.level:g}% bootstrap CIs" if rep.intervals else "")
                + ("; feats:NAME items: " + ("every word" if rep.feature_items == "all"
                                             else "words where some annotator gives the "
                                                  "feature")
                   if rep.feature_layers else ""))
    sections: List[Tuple[str, str]] = [("layers", text)]  # CSV: one table (docs/output.md)
    # every format: the items kappa and pi cover (method §12.3), the corpus's notes (joined
    # and edited units, method §1.7–1.8), id-like layers, small samples
    items = item_set_note(rep.results, len(rep.annotators))
    notes: List[str] = ([items] if items else []) + list(rep.notes)
    if rep.specific:
        la = rep.results[rep.specific]
        freq = la.category_frequency()
        rows = [[c, str(freq.get(c, 0)), format_value(v)] for c, v in
                sorted(la.specific().items(), key=lambda kv: -freq.get(kv[0], 0))]
        sections.append(("specific", render_rows(
            ["category", "assignments", "specific"], rows, fmt,
            caption=f"Specific agreement ({rep.specific})")))
        text += "\n" + sections[-1][1]
    if rep.per_feature is not None:
        sections.append(("per_feature", render_per_feature(rep.per_feature, fmt,
                                                           rep.feature_intervals)))
        text += "\n" + sections[-1][1]
    ignored = next(iter(rep.results.values())).ignored_units if rep.results else 0
    if ignored:
        notes.append(f"{ignored} sentence(s) whose annotations differ in word count "
                     f"(or in words: edited units) were left out (tokens cannot be aligned)")
    run_notes = list(notes)  # the tail's; the tables below write their own notes
    if rep.enhanced is not None:
        sections.append(("enhanced", render_enhanced(rep.enhanced, fmt)))
        text += "\n" + sections[-1][1]
        notes += rep.enhanced.notes
    if rep.bias is not None:  # docs/method.md §25
        if fmt == "csv":
            tables = bias_tables(rep.bias)
            sections += csv_sections(tables)
            notes += [n for t in tables for n in t.notes]
        else:
            text += "\n" + render_section_tables(bias_tables(rep.bias, LABELS_SHOWN), fmt)
    if rep.gwet is not None:  # docs/method.md §34.1
        gwet = rep.gwet.table()
        if fmt == "csv":
            sections += csv_sections([gwet])
            notes += gwet.notes
        else:
            text += "\n" + render_section_tables([gwet], fmt)
    if fmt == "csv":  # one table per CSV file, the signature a row of its own
        return sections_csv(sections, notes, rep.signature())
    # the run's notes, values: and signature as every command's (`writers.write`)
    return text + writers.write(Document([], notes=run_notes,
                                         units=layer_units(len(rep.annotators)),
                                         signature=rep.signature()), fmt)
