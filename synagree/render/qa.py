"""Rendering of the annotation-QA tables (``synagree report``, ``agree --worst``)."""
import csv
import io
import json
from typing import List, Optional, Sequence, Tuple

from synagree.agreement.qa import AnnotatorInfluence, UnitDiag, Worst
from synagree.base.escape import csv_row, plain
from synagree.base.jsonable import json_ready
from synagree.base.metrics import word_scores
from synagree.base.table import format_value
from synagree.render.fit import signature_text
from synagree.render.rows import render_rows
from synagree.render.writers import values_line
from synagree.stats.alpha import VARIANTS
from synagree.stats.categorical import COEFFICIENTS


def _short(s: Optional[str], n: int = 80) -> str:
    if not s:
        return ""
    return s if len(s) <= n else s[: n - 1] + "…"


def worst_rows(diags: Sequence[UnitDiag], variant: str, d_o: Optional[float],
               text_width: Optional[int] = None) -> Tuple[List[str], List[List[str]]]:
    """Header and rows of the worst-units table.

    Parameters
    ----------
    diags : sequence of UnitDiag
    variant : str
        The variant whose share of D_o is shown.
    d_o : float or None
        D_o of that variant (the share is contribution / D_o, in percent).
    text_width : int, optional
        Sentence text is cut to this many characters (default: whole; the
        text table fits its columns to the terminal instead, `render_worst`).
    """
    header = ["rank", "sentence", "document", "d_o_share", "mean_ted",
              "annotators", "differing words", "text"]
    infl = [v for v in VARIANTS if any(v in d.influence for d in diags)]  # Δα columns
    header[5:5] = [f"change_{v}" for v in infl]  # Δα if the unit is left out
    rows = []
    for r, d in enumerate(diags, start=1):
        share = d.contribution.get(variant, 0.0) / d_o if d_o else float("nan")
        words = "; ".join(w.describe() for w in d.differing_words[:6])
        if len(d.differing_words) > 6:
            words += f"; … ({len(d.differing_words)} words)"
        if not d.same_tokens:
            words = "(tokenisation differs)"
        pairs = ", ".join(f"{a}–{b} {t:g}" for a, b, t in d.disagreeing_pairs)
        rows.append([str(r), d.label, d.document, f"{100 * share:.2f}%" if d_o else "–",
                     format_value(d.mean_ted, digits=2)]
                    + ["–" if d.influence.get(v) is None else f"{d.influence[v]:+.4f}"
                       for v in infl]
                    + [pairs, words, (d.text or "") if text_width is None
                       else _short(d.text, text_width)])
    return header, rows


#: Columns of `worst_rows` that hold words (cut to fit a terminal; numbers never are).
def _worst_text_columns(header: Sequence[str]) -> List[int]:
    return [i for i, h in enumerate(header)
            if h in ("sentence", "document", "annotators", "differing words", "text")]


def render_worst(worst: Worst, fmt: str = "table", width: Optional[int] = None) -> str:
    """The worst units of a `Worst` section as text (``table``), ``json``, ``csv``,
    ``markdown`` or ``latex``.

    The text table fits ``width`` columns (sentence ids, documents, annotator
    pairs, differing words and the sentence text cut with ``…``, see
    `synagree.render.fit.fit_rows`); the other formats carry the full text.
    """
    if fmt == "json":
        return json.dumps(json_ready(worst.details()), indent=2, ensure_ascii=False) + "\n"
    header, rows = worst_rows(worst.units, worst.variant, worst.d_o)
    caption = (f"The {len(worst.units)} sentences contributing most to D_o "
               f"(alpha_{worst.variant})")
    if worst.ranked_by_influence:
        caption = (f"The {len(worst.units)} sentences whose removal raises "
                   f"alpha_{worst.variant} most")
    return render_rows(header, rows, fmt if fmt in ("csv", "markdown", "latex") else "table",
                       caption=caption, width=width, text=_worst_text_columns(header))


def render_tables(qa: dict, fmt: str) -> str:
    """The QA dict of `synagree.agreement.qa.qa_summary` as CSV, Markdown, LaTeX or text.

    CSV is one long table: table, row, column, value.

    Parameters
    ----------
    qa : dict
    fmt : {"csv", "markdown", "latex", "table"}
    """
    if fmt == "csv":
        # one long table: section, row, column, value
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["table", "row", "column", "value"])
        for table, header, rows in _all_tables(qa):
            for r in rows:
                for h, c in zip(header[1:], r[1:]):
                    w.writerow(csv_row([table, r[0], h, c]))
        if qa.get("signature"):
            w.writerow(csv_row(["signature", "", "", qa["signature"]]))
        return buf.getvalue()
    parts = [render_rows(header, rows, fmt, caption=table) for table, header, rows in
             _all_tables(qa)]
    parts.append(values_line(QA_UNITS, fmt))
    sig = qa.get("signature")
    if sig:  # the settings, one line to be copied whole
        parts.append({"markdown": f"Signature: `{sig}`\n",
                      "latex": f"% synagree signature: {plain(sig)}\n"}.get(
                          fmt, signature_text(plain(sig)) + "\n"))
    return "\n".join(parts)


#: what the numbers of the report's tables are (their ``values:`` line)
QA_UNITS = ("fractions (0 to 1; alpha and kappa may be negative), except mean_ted (edits), "
            "counts, and d_o_share (a unit's share of D_o, percent); mean_norm: "
            "mean TED / (|x| + |y|)")


def _all_tables(qa: dict):
    s = qa["summary"]
    bs = (qa.get("bootstrap") or {}).get("metrics", {})
    conf = (qa.get("bootstrap") or {}).get("confidence")
    ci_h = [f"{100 * conf:g}% CI low", f"{100 * conf:g}% CI high"] if conf else []
    rows = []
    for key in ("alpha_plain", "alpha_diff", "alpha_norm", *word_scores("agree"),
                "jaccard"):
        if key in s:
            row = [key, format_value(s[key], digits=6)]
            if conf:
                b = bs.get(key, {})
                row += [format_value(b.get("low"), digits=6), format_value(b.get("high"), digits=6)]
            rows.append(row)
    for layer, c in (qa.get("categorical") or {}).items():
        for name in COEFFICIENTS:
            row = [f"{layer} {c['coefficient_names'][name]}",
                   format_value(c["coefficients"][name], digits=6)]
            if conf:
                b = bs.get(f"{layer}_{name}", {})
                row += [format_value(b.get("low"), digits=6), format_value(b.get("high"), digits=6)]
            rows.append(row)
    yield "Summary", ["metric", "estimate"] + ci_h, rows
    notes = list(dict.fromkeys(list(s.get("notes") or []) + list(qa.get("notes") or [])))
    if notes:  # small samples, id-like layers left out, ...: in every format
        yield "Notes", ["#", "note"], [[str(k), n] for k, n in enumerate(notes, start=1)]
    pm = qa["pairs"]
    names = pm["annotators"]
    if len(names) == 2:  # one pair: its numbers as one table, no 2 × 2 matrices
        a, b = names
        rows = [[m, format_value(pm[m][0][1])] for m in [k for k in pm if k.startswith("alpha_")]
                + list(word_scores("agree", ud=False)) if m in pm and pm[m][0][1] is not None]
        rows.append(["units (both)", str(pm["units"][0][1])])
        dist = qa["annotator_distances"]
        if dist:
            rows += [["mean_ted", format_value(dist[0]["mean_ted"], digits=3)],
                     ["mean_norm", format_value(dist[0]["mean_norm"])]]
        yield f"Pair: {a} × {b}", ["metric", "value"], rows
    else:
        yield from _pair_tables(qa)
    for layer, c in (qa.get("categorical") or {}).items():
        freq = c["category_frequency"]
        rows = [[k, str(freq.get(k, 0)), format_value(v)] for k, v in
                sorted(c["specific"].items(), key=lambda kv: -freq.get(kv[0], 0))]
        yield f"Specific agreement: {layer}", ["category", "assignments", "specific"], rows
        if len(c["documents"]) > 1:
            rows = [[doc, str(v["items"])] + [format_value(v[k]) for k in COEFFICIENTS]
                    for doc, v in c["documents"].items()]
            md = c["macro_documents"]
            rows.append(["(macro)", ""] + [format_value(md.get(k)) for k in COEFFICIENTS])
            rows.append(["(micro)", str(c["items"])] + [format_value(c["coefficients"][k]) for k in
                                                        COEFFICIENTS])
            yield (f"Per document: {layer}", ["document", "items", *COEFFICIENTS], rows)
    w = qa["worst"]
    rows = []
    for r, u in enumerate(w["units"], start=1):
        share = (u["contribution"].get(w["variant"], 0) / w["d_o"]) if w["d_o"] else None
        words = "; ".join(f"{x['index']} {x['form']}" for x in u["differing_words"][:8])
        rows.append([str(r), u["sent_id"] or u["uid"], u["document"],
                     "–" if share is None else f"{100 * share:.2f}%",
                     format_value(u["mean_ted"], digits=2),
                     words, u["text"] or ""])
    yield (f"Worst sentences (share of D_o, alpha_{w['variant']})",
           ["rank", "sentence", "document", "d_o_share", "mean_ted", "differing words", "text"],
           rows)
    for r in (qa.get("baseline") or {}).get("results", []):  # --baseline (method §18)
        yield ("Change since the previous round",
               ["metric", "previous", "now", "change", "CI low", "CI high", "p bootstrap",
                "p randomisation", "significant"],
               [[c["metric"]]
                + [format_value(x) for x in (c["old"], c["new"], c["delta"],
                                             *(c["ci"] or [None, None]))]
                + [format_value(c["p_bootstrap"], digits=3),
                   format_value(c["p_randomisation"], digits=3),
                   "" if c["significant"] is None else ("yes" if c["significant"] else "no")]
                for c in r["metrics"]])


def _pair_tables(qa: dict):
    """Three annotators or more: the pair matrices, leave-one-out (when it has a
    value) and each annotator's distance to the others."""
    pm = qa["pairs"]
    names = pm["annotators"]
    for metric in ([k for k in pm if k.startswith("alpha_")]
                   + [*word_scores("agree", ud=False), "units"]):
        arr = pm[metric]
        if metric != "units" and all(x is None for row in arr for x in row):
            continue  # e.g. LAS of phrase-structure trees
        rows = [[a] + ["" if (i == j and metric != "units") else
                       (str(arr[i][j]) if metric == "units" else format_value(arr[i][j]))
                       for j in range(len(names))] for i, a in enumerate(names)]
        yield f"Pairs: {metric}", [metric] + names, rows
    loo = qa["leave_one_out"]
    keys = [k for k in (loo[0] if loo else {}) if k.startswith("alpha_") or
            k.startswith("change_")]
    if any(x[k] is not None for x in loo for k in keys):
        yield ("Leave one annotator out", ["annotator", "units"] + keys,
               [[x["annotator"], str(x["units"])] + [format_value(x[k]) for k in keys]
                for x in loo])
    yield ("Mean distance to the other annotators",
           ["annotator", "units", "comparisons", "mean_ted", "mean_norm"],
           [[x["annotator"], str(x["units"]), str(x["comparisons"]),
             format_value(x["mean_ted"], digits=3), format_value(x["mean_norm"])]
            for x in qa["annotator_distances"]])


def annotator_rows(items: Sequence[dict], variants: Sequence[str]):
    """Header and rows of the annotator-influence table.

    Parameters
    ----------
    items : sequence of dict
        From `synagree.agreement.qa.annotator_influence`.
    variants : sequence of str

    Returns
    -------
    header : list of str
    rows : list of list of str
    """
    header = ["annotator", "units left"] + [f"alpha_{v} without" for v in variants] + \
        [f"Δα {v}" for v in variants]
    rows = []
    for x in items:
        rows.append([x["annotator"], str(x["units"])]
                    + [format_value(x["alpha_without"].get(v), missing="undefined")
                       for v in variants]
                    + [format_value(x["influence"].get(v), "signed", missing="undefined")
                       for v in variants])
    return header, rows


def render_annotator_influence(section: AnnotatorInfluence, fmt: str = "table") -> str:
    """α without each annotator (`AnnotatorInfluence`) as a text, CSV, Markdown or LaTeX
    table."""
    header, rows = annotator_rows(section.items, section.variants)
    return render_rows(header, rows, fmt if fmt in ("csv", "markdown", "latex") else "table",
                       caption="Alpha without each annotator (recomputed; Δα = without − "
                               "with everyone)")
