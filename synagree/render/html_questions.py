"""The report's sections for ``--bias``, ``--by`` and ``--where`` (HTML and its tables).

`question_page` gives the template ``assets/questions.html.j2`` what it shows:
the bias tests per annotator pair and label (docs/method.md §25), α per batch
with its control band as a small inline SVG chart and a table (§26), and α
over each query (§27).  `append_tables` adds the same tables to the report's
JSON, CSV, Markdown and LaTeX outputs.  Cells are plain strings (the
template autoescapes them); the chart is built here from numbers and escaped
text only.
"""
from __future__ import annotations

import csv
import io
import json
import math
from typing import Dict, List, Optional, Tuple

from markupsafe import Markup, escape

from synagree.agreement.drift import Drift
from synagree.base.escape import csv_row
from synagree.base.table import format_value
from synagree.render.questions import (
    LABELS_SHOWN,
    long_rows,
    render_section_tables,
    section_tables,
    where_table,
)

__all__ = ["SECTIONS", "question_page", "drift_svg", "append_tables"]

#: The report's sections added by these options: (id, navigation label).
SECTIONS = (("bias", "Bias"), ("drift", "Drift"), ("where", "Queries"))


def _p(x: Optional[float]) -> str:
    if x is None:
        return "–"
    return f"{x:.1e}" if 0 < x < 1e-4 else format_value(x)


def _bias(result) -> Optional[dict]:
    b = getattr(result, "bias", None)
    if b is None:
        return None
    pairs = [[p.layer, f"{p.first} × {p.second}", str(p.items), str(len(p.labels)),
              format_value(p.test.statistic), str(p.test.df), _p(p.test.p),
              ", ".join(f"{x.label} ({p.who(x)} more)" for x in p.flagged) or "none"]
             for p in b.pairs]
    details = []
    for p in b.pairs:
        rows = [[x.label, str(x.first), str(x.second), str(x.first_only), str(x.second_only),
                 p.who(x) or "–", _p(x.p), _p(x.p_holm),
                 {"kind": "sig", "sig": x.flagged}]
                for x in sorted(p.labels, key=lambda x: (not x.flagged, x.p is None,
                                                         x.p or 0.0, x.label))
                if x.p is not None]
        details.append({"title": f"{p.layer}: {p.first} × {p.second} (rows: labels some "
                                 f"word got from one of the two only)",
                        "header": ["label", p.first, p.second, f"only {p.first}",
                                   f"only {p.second}", "more", "p", "p (Holm)", "flagged"],
                        "rows": rows})
    return {"header": ["layer", "pair", "words", "labels", "Stuart–Maxwell X²", "df", "p",
                       f"flagged (Holm-adjusted p < {b.significance:g})"],
            "pairs": pairs, "details": details, "notes": list(b.notes)}


def drift_svg(d: Drift, width: int = 640, height: int = 200) -> str:
    """α per batch (dots and line) over its control band (grey bars), as inline SVG.

    Batches outside their band are orange; the dashed line is α of the
    corpus (the n-weighted mean of the batches).
    """
    v = d.variant
    pts: List[Tuple[int, float]] = [(k, a) for k, a in
                                    ((k, b.alpha.get(v)) for k, b in enumerate(d.batches))
                                    if a is not None]
    bands = [(k, b.band.get(v)) for k, b in enumerate(d.batches)]
    ys = [y for _, y in pts] + [x for _, band in bands if band for x in band]
    if not ys:
        return ""
    lo, hi = min(ys), max(ys)
    if hi - lo < 1e-9:
        lo, hi = lo - 0.05, hi + 0.05
    pad = (hi - lo) * 0.08
    lo, hi = lo - pad, hi + pad
    left, right, top, bottom = 56, 12, 14, 30
    n = max(len(d.batches), 1)
    step = (width - left - right) / n

    def X(k: float) -> float:
        return left + step * (k + 0.5)

    def Y(y: float) -> float:
        return top + (hi - y) / (hi - lo) * (height - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="drift" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="alpha per batch with control bands">']
    for y in (lo + pad, (lo + hi) / 2, hi - pad):  # three ticks
        out.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{Y(y):.1f}" '
                   f'y2="{Y(y):.1f}"/><text class="tick" x="{left - 6}" y="{Y(y) + 4:.1f}" '
                   f'text-anchor="end">{y:.2f}</text>')
    bw = max(2.0, min(18.0, step * 0.6))
    for k, band in bands:
        if band:
            out.append(f'<rect class="band" x="{X(k) - bw / 2:.1f}" y="{Y(band[1]):.1f}" '
                       f'width="{bw:.1f}" height="{max(Y(band[0]) - Y(band[1]), 1.0):.1f}">'
                       f'<title>{escape(d.batches[k].name)}: band [{band[0]:.4f}, '
                       f'{band[1]:.4f}]</title></rect>')
    total_n = sum(b.annotations for b in d.batches)
    if total_n and d.d_e.get(v):
        mean = 1.0 - sum(b.do_sum[v] for b in d.batches) / total_n / d.d_e[v]
        if math.isfinite(mean):
            out.append(f'<line class="mean" x1="{left}" x2="{width - right}" '
                       f'y1="{Y(mean):.1f}" y2="{Y(mean):.1f}"/>')
    if len(pts) > 1:
        out.append('<polyline class="alpha" points="'
                   + " ".join(f"{X(k):.1f},{Y(y):.1f}" for k, y in pts) + '"/>')
    for k, y in pts:
        b = d.batches[k]
        cls = "out" if b.status(v) in ("below", "above") else "in"
        out.append(f'<circle class="{cls}" cx="{X(k):.1f}" cy="{Y(y):.1f}" r="3.5">'
                   f'<title>{escape(b.name)}: alpha_{v} {y:.4f}, {b.units} units'
                   f'{" (" + b.status(v) + " the band)" if cls == "out" else ""}</title>'
                   f'</circle>')
    every = max(1, math.ceil(n / 12))
    for k, b in enumerate(d.batches):
        if k % every == 0:
            name = b.name if len(b.name) <= 10 else b.name[:9] + "…"
            out.append(f'<text class="tick" x="{X(k):.1f}" y="{height - 10}" '
                       f'text-anchor="middle">{escape(name)}</text>')
    out.append(f'<text class="axis" x="12" y="{top + 4}" '
               f'transform="rotate(-90 12 {top + 4})" text-anchor="end">alpha_{v}</text>')
    out.append("</svg>")
    return "".join(out)


def _drift(result) -> Optional[dict]:
    d = getattr(result, "drift", None)
    if d is None:
        return None
    v = d.variant
    rows = [[b.name, str(b.units), b.first, b.last, format_value(b.alpha.get(v)),
             ("–" if b.band.get(v) is None else
              f"[{format_value(b.band[v][0])}, {format_value(b.band[v][1])}]"),  # type: ignore[index]
             b.status(v) or "–"] for b in d.batches]
    return {"svg": Markup(drift_svg(d)), "header": ["batch", "sentences", "from", "to",
                                                    f"α {v}", f"{d.level:g} band", "status"],
            "rows": rows, "by": d.by.describe(), "notes": list(d.notes),
            "outside": len(d.outside)}


def _where(result) -> Optional[dict]:
    w = getattr(result, "where", None)
    if w is None:
        return None
    t = where_table(w)
    return {"header": t.header(), "rows": [[format_value(c) if isinstance(c, float) or c is None
                                            else str(c) for c in r] for r in t.rows],
            "notes": list(w.notes)}


def question_page(result) -> Dict[str, Optional[dict]]:
    """``{"bias": ..., "drift": ..., "where": ...}`` for the template (None: not asked)."""
    return {"bias": _bias(result), "drift": _drift(result), "where": _where(result)}


def append_tables(result, output: str, text: str) -> str:
    """The report's JSON / CSV / Markdown / LaTeX ``text`` with the sections' tables added.

    JSON: the sections' details under ``"bias"``, ``"drift"``, ``"where"``; CSV: their
    cells as rows ``table,row,column,value`` of the report's long table; Markdown and
    LaTeX: the tables after the report's.
    """
    tables = section_tables(result)
    if not tables:
        return text
    if output == "json":
        doc = json.loads(text)
        for name in ("bias", "drift", "where"):
            sec = getattr(result, name, None)
            if sec is not None:
                doc[name] = sec.details()
        return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    if output == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        for table, row, _, column, value in long_rows(tables):
            w.writerow(csv_row([table, row, column, value]))
        return text + buf.getvalue()
    return text + "\n" + render_section_tables(section_tables(result, LABELS_SHOWN), output)

