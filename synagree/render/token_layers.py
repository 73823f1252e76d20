"""``synagree categorical``'s output: a `TokenLayerAgreement` in every format.

JSON is one document; table, Markdown and LaTeX put the layer table first,
then the specific agreement, per-feature and enhanced tables; CSV is one
table, with a leading ``section`` column when there is more than the layer
table (`synagree.render.rows.sections_csv`, docs/output.md).
"""
from __future__ import annotations

import json
from typing import Dict, List, Sequence, Tuple

from synagree.agreement.token_layers import TokenLayerAgreement
from synagree.base.escape import markdown, plain
from synagree.base.jsonable import json_ready
from synagree.render.categorical import (
    complete_differs,
    item_set_note,
    summary_header,
    summary_rows,
)
from synagree.render.enhanced import render_enhanced
from synagree.render.features import render_per_feature
from synagree.render.fit import hanging, terminal_width
from synagree.render.questions import (
    LABELS_SHOWN,
    bias_tables,
    csv_sections,
    render_section_tables,
)
from synagree.render.rows import _f, render_rows, sections_csv

__all__ = ["render_token_layers"]


def _without_replicates(cis: Dict[str, Dict[str, dict]]) -> dict:
    """The intervals of each layer or feature, without the replicate arrays."""
    return {name: {k: {kk: vv for kk, vv in v.items() if kk != "replicates"}
                   for k, v in ci.items()} for name, ci in cis.items()}


def _json(rep: TokenLayerAgreement, confusion: bool) -> str:
    d: dict = {"annotators": rep.annotators, **rep.settings, **rep.unit_counts,
               "layers": {k: v.to_dict(confusion=confusion) for k, v in rep.results.items()}}
    if rep.intervals:
        d["bootstrap"] = {"replicates": rep.replicates, "seed": rep.seed,
                          "confidence": rep.level,
                          "intervals": _without_replicates(rep.intervals)}
    if rep.feature_items is not None:
        d["feature_items"] = rep.feature_items
    if rep.per_feature is not None:
        pf = d["per_feature"] = rep.per_feature.to_dict(confusion=confusion)
        if rep.feature_intervals:
            pf["intervals"] = _without_replicates(rep.feature_intervals)
    if rep.enhanced is not None:
        d["enhanced"] = rep.enhanced.as_dict()
    if rep.bias is not None:
        d["bias"] = rep.bias.to_dict()
    items = item_set_note(rep.results, len(rep.annotators))
    notes = ([items] if items else []) + list(rep.notes)
    if notes:
        d["notes"] = notes
    if rep.skipped:
        d["skipped_layers"] = dict(rep.skipped)
    return json.dumps(json_ready(d), indent=2, ensure_ascii=False) + "\n"


def render_token_layers(rep: TokenLayerAgreement, fmt: str = "table",
                        confusion: bool = False) -> str:
    """The token-layer agreement as ``table``, ``json``, ``csv``, ``markdown`` or ``latex``.

    Parameters
    ----------
    rep : TokenLayerAgreement
    fmt : str
    confusion : bool
        JSON: include the contingency tables.

    Returns
    -------
    str

    Examples
    --------
    >>> from synagree.agreement.token_layers import token_layer_agreement
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus
    >>> s = DepSentence.from_heads
    >>> corpus = Corpus.from_annotations({"a": [s([2, 0], "nsubj root")],
    ...                                   "b": [s([2, 0], "obj root")]})
    >>> rep = token_layer_agreement(corpus, ["deprel"], specific="deprel")
    >>> header = render_token_layers(rep, "csv").splitlines()[0].split(",")
    >>> header[:3], header[-3:]
    (['section', 'layer', 'items'], ['category', 'assignments', 'specific agreement'])
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
    text += _notes(notes, fmt)
    if rep.specific:
        la = rep.results[rep.specific]
        freq = la.category_frequency()
        rows = [[c, str(freq.get(c, 0)), _f(v)] for c, v in
                sorted(la.specific().items(), key=lambda kv: -freq.get(kv[0], 0))]
        sections.append(("specific", render_rows(
            ["category", "assignments", "specific agreement"], rows, fmt,
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
        if fmt == "table":
            text += f"note: {notes[-1]}\n"
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
    if fmt == "csv" and (len(sections) > 1 or notes):  # one table per CSV file
        text = sections_csv(sections, notes)
    return text


def _notes(notes: Sequence[str], fmt: str) -> str:
    """``notes`` as lines of the text, Markdown or LaTeX output (CSV and JSON
    carry them as rows / a list)."""
    if fmt == "markdown":
        return "".join(f"\nNote: {markdown(n)}\n" for n in notes)
    if fmt == "latex":
        return "".join(f"% note: {plain(n)}\n" for n in notes)
    if fmt == "csv":
        return ""
    return "".join(line + "\n" for n in notes for line in hanging(plain(n), terminal_width()))
