"""The output of ``synagree spans``: GATE's strict/lenient/average P/R/F1 (docs/method.md §24)."""
from __future__ import annotations

from typing import List, Optional, Sequence

from synagree.base.table import Document, format_value, key_value
from synagree.evaluation.spans import SpanPair, SpanResult
from synagree.render import writers
from synagree.render.rows import render_rows, rows_table, sections_csv
from synagree.render.writers import json_text
from synagree.stats.gate_prf import MEASURES, BDMCounts, DiffCounts

__all__ = ["SPAN_OUTPUTS", "SPAN_HEADER", "span_rows", "render_spans"]

#: The formats of ``synagree spans``.
#: what the numbers of the spans table are (its ``values:`` line)
SPAN_UNITS = ("correct, partial, missing, spurious: counts of spans (BDM rows: summed BDM "
              "credit); precision, recall, f1: fractions (0 to 1)")
SPAN_OUTPUTS = ("table", "json", "csv", "markdown", "latex")
#: The columns of the long table (every format but JSON).
SPAN_HEADER = ("key", "response", "label", "measure", "correct", "partial", "missing",
               "spurious", "precision", "recall", "f1")

_LABELS = {"type": "each label an annotation type", "feature": "labels as a feature",
           "none": "spans only"}


def _count(x: float, exact: bool) -> str:
    if exact or isinstance(x, int):
        return repr(x)
    return format_value(x, digits=6, missing="undefined")


def _rows_of(key: str, response: str, label: str, c: DiffCounts, exact: bool
             ) -> List[List[str]]:
    num = repr if exact else (lambda v: format_value(v, digits=6, missing="undefined"))
    return [[key, response, label, m, str(c.correct), str(c.partial), str(c.missing),
             str(c.spurious), num(c.precision(m)), num(c.recall(m)), num(c.f1(m))]
            for m in MEASURES]


def _bdm_rows(key: str, response: str, b: BDMCounts, exact: bool) -> List[List[str]]:
    num = repr if exact else (lambda v: format_value(v, digits=6, missing="undefined"))
    return [[key, response, "ALL", f"bdm {m}", _count(b.correct, exact),
             _count(b.partial, exact), str(b.missing), str(b.spurious), num(b.precision(m)),
             num(b.recall(m)), num(b.f1(m))] for m in ("strict", "lenient")]


def span_rows(res: SpanResult, exact: bool = False, per_label: bool = True) -> List[List[str]]:
    """The long table: per pair (and ``ALL``/``ALL`` over pairs when there are
    several) the three measures over all labels (label ``ALL``), the BDM-based
    rows, then per label.

    Parameters
    ----------
    res : SpanResult
    exact : bool
        Numbers as ``repr`` (CSV, lossless) instead of 6 decimals.
    per_label : bool
    """
    rows: List[List[str]] = []
    pairs: Sequence[SpanPair] = res.pairs
    for p in pairs:
        rows += _rows_of(p.key, p.response, "ALL", p.counts, exact)
        if p.bdm is not None:
            rows += _bdm_rows(p.key, p.response, p.bdm, exact)
        if per_label:
            for label, c in p.per_label.items():
                rows += _rows_of(p.key, p.response, label, c, exact)
    if len(pairs) > 1:
        rows += _rows_of("ALL", "ALL", "ALL", res.overall, exact)
        ob: Optional[BDMCounts] = res.overall_bdm
        if ob is not None:
            rows += _bdm_rows("ALL", "ALL", ob, exact)
    return rows


def render_spans(res: SpanResult, output: str = "table") -> str:
    r"""A `SpanResult` as ``table``, ``json``, ``csv``, ``markdown`` or ``latex``.

    Every format but JSON is one long table (`SPAN_HEADER`): per pair of files
    (key first) the strict, lenient and average P/R/F1 over all labels (label
    ``ALL``), GATE's BDM-based rows (``bdm strict``, ``bdm lenient``) when
    asked for, then per label; with several pairs, the counts summed over
    them (key and response ``ALL``).  The text table starts with the
    settings; CSV writes numbers losslessly.

    ``res`` is a `SpanResult`; ``output`` one of `SPAN_OUTPUTS` (any other
    raises ValueError).
    """
    if output == "json":
        return json_text(res.to_dict())
    if output not in SPAN_OUTPUTS:
        raise ValueError(f"unknown output format {output!r}; expected one of "
                         f"{', '.join(SPAN_OUTPUTS)}")
    rows = span_rows(res, exact=output == "csv")
    sig = res.signature()
    if output == "csv":  # one table: the rows, the notes and the signature (docs/output.md)
        return sections_csv([("spans", render_rows(SPAN_HEADER, rows, output))], res.notes,
                            sig)
    head = [("files", ", ".join(res.files)),
            ("layer", f"{res.layer} ({res.offsets} as offsets; {_LABELS[res.labels]})"),
            ("documents", str(res.documents))]
    if res.hierarchy is not None:
        head.append(("BDM hierarchy", res.hierarchy))
    # text: the run's summary first; every format: the notes, values: and signature
    # written by `synagree.render.writers.write` as the other commands' tails
    tables = ([key_value("summary", [(k, v, "text") for k, v in head])]
              if output == "table" else [])
    tables.append(rows_table(SPAN_HEADER, rows))
    return writers.write(Document(tables, notes=list(res.notes), units=SPAN_UNITS,
                                  signature=sig), output)
