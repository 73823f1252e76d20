"""Rendering: results → table, JSON, CSV, LaTeX.  Computing never happens here.

Writing is atomic: `write_atomic` writes to a temporary file in the
target directory and renames it into place, so a reader never sees half a
result.
"""
from __future__ import annotations

import csv
import io
import json
import math
from typing import List, Optional, Tuple

from synagree.agreement.agree import AgreementResult
from synagree.base.escape import csv_row, plain
from synagree.base.escape import latex as latex_escape
from synagree.base.jsonable import json_ready
from synagree.stats.alpha import VARIANTS

FORMATS = ("table", "json", "csv", "latex")


def fmt_num(x: Optional[float], digits: int = 4, missing: str = "undefined") -> str:
    """``x`` to ``digits`` decimals; ``missing`` for None, NaN and ±inf."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return missing
    return f"{x:.{digits}f}"


def summary_rows(res: AgreementResult) -> List[Tuple[str, str]]:
    rows = [("kind", res.kind),
            *((k.replace("_", " "), v) for k, v in
              (res.corpus.settings() if res.corpus is not None else {}).items()),
            ("annotators", f"{len(res.annotators)} ({', '.join(res.annotators)})"),
            ("units", f"{res.units} pairable of {res.units_total}"),
            ("annotations", str(res.annotations))]
    ci = (res.extra_details or {}).get("ci", {})

    def with_ci(name: str, value: Optional[float]) -> str:
        iv = ci.get(name)
        level = (res.extra_details or {}).get("bootstrap", {}).get("level", 0.95)
        tail = f"  [{iv[0]:.4f}, {iv[1]:.4f}] {100 * level:g}% CI" if iv else ""
        return fmt_num(value, 6) + tail

    for v in VARIANTS:
        if v in res.alpha:
            rows.append((f"alpha_{v}", with_ci(f"alpha_{v}", res.alpha[v].alpha)))
    names = {"las": "LAS", "uas": "UAS", "la": "LA", "jaccard": "Jaccard"}
    for m in res.score_names:
        rows.append((names[m], with_ci(m, res.scores.ratio(m))))
    for k, v in res.extra.items():
        rows.append((k, fmt_num(v, 6) if isinstance(v, float) or v is None else str(v)))
    if res.kind == "dependency":
        rows.append(("ignored units", str(res.scores.ignored)))
        rows.append(("multi-root sentences", str(res.multi_root)))
        rows.append(("sentences with cycles", str(res.cycle_sentences)))
    return rows


def render_table(res: AgreementResult) -> str:
    rows = summary_rows(res)
    w = max(len(k) for k, _ in rows)
    out = [plain(f"{k:<{w}}  {v}") for k, v in rows]
    for n in res.notes:
        out.append(plain(f"note: {n}"))
    return "\n".join(out) + "\n"


def render_json(res: AgreementResult) -> str:
    return json.dumps(json_ready(res.to_dict()), indent=2, ensure_ascii=False) + "\n"


def _flat_fields(res: AgreementResult) -> List[Tuple[str, object]]:
    d = res.to_dict()
    keep = [k for k in d if k not in ("counts", "notes", "warnings", "annotator_names",
                                      "details") and not k.endswith("_ci")]
    return [(k, d[k]) for k in keep]


def render_csv(res: AgreementResult) -> str:
    fields = _flat_fields(res)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(csv_row(k for k, _ in fields))
    w.writerow(csv_row("" if v is None else (repr(v) if isinstance(v, float) else v)
                       for _, v in fields))
    return buf.getvalue()


def render_latex(res: AgreementResult, label: str = "corpus") -> str:
    """One booktabs row in percent with one decimal, as the paper's Table 2."""
    cols = [f"$\\alpha_{{\\mathrm{{{v}}}}}$" for v in VARIANTS if v in res.alpha]
    names = {"las": "LAS", "uas": "UAS", "la": "LA", "jaccard": "Jaccard"}
    cols += [names[m] for m in res.score_names]
    vals = [res.alpha[v].alpha for v in VARIANTS if v in res.alpha]
    vals += [res.scores.ratio(m) for m in res.score_names]
    cells = ["--" if v is None else f"{100 * v:.1f}" for v in vals]
    return ("\\begin{tabular}{l" + "r" * len(cols) + "}\n\\toprule\n"
            + " & ".join(["Corpus"] + cols) + " \\\\\n\\midrule\n"
            + " & ".join([latex_escape(label)] + cells) + " \\\\\n\\bottomrule\n\\end{tabular}\n")


def render(res: AgreementResult, output: str) -> str:
    if output == "table":
        return render_table(res)
    if output == "json":
        return render_json(res)
    if output == "csv":
        return render_csv(res)
    if output == "latex":
        return render_latex(res)
    raise ValueError(f"unknown output format {output!r}; expected one of {FORMATS}")
