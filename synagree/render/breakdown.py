"""Rendering of the agreement breakdowns (``synagree agree --breakdown``).

Text and LaTeX: the usual agreement output, then one table per view
(labels, label confusions, UPOS, arcs, sentence length) and the notes.
JSON: the usual object with ``details.breakdown``.  CSV: one long table
``section,bin,bin2,quantity,value`` that holds the usual one-row CSV as
section ``summary`` and every count and ratio of the breakdown, so one file
carries everything (docs/method.md §21.5).
"""
from __future__ import annotations

import csv
import io
from typing import Iterator, List, Optional, Sequence, Tuple

from synagree.agreement.agree import AgreementResult
from synagree.agreement.breakdown import AgreementBreakdown
from synagree.base.escape import csv_row, plain
from synagree.base.table import format_value
from synagree.render.rows import render_rows
from synagree.render.tables import render_csv

__all__ = ["CONFUSIONS_SHOWN", "fmt_count", "breakdown_sections", "breakdown_long_rows",
           "breakdown_csv"]

#: Label confusions listed in the text and LaTeX tables (JSON and CSV hold all).
CONFUSIONS_SHOWN = 10


def fmt_count(x: Optional[float]) -> str:
    """A pair-weighted count: whole numbers without decimals, others with four."""
    if x is None:
        return "–"
    return str(int(x)) if float(x).is_integer() else f"{x:.4f}"


def _ratio(x: Optional[float], latex: bool) -> str:
    return format_value(x, "percent", 1) if latex else format_value(x)


def _who(bd: AgreementBreakdown) -> Tuple[str, str]:
    return (bd.annotators[0], bd.annotators[1]) if len(bd.annotators) == 2 \
        else ("first", "second")


def breakdown_sections(bd: AgreementBreakdown, fmt: str = "table") -> str:
    """The breakdown tables and notes as text (``"table"``), Markdown or LaTeX.

    Ratios are fractions with four decimals (LaTeX: percent, one decimal);
    counts are pair-weighted words.  The label confusions are limited to the
    `CONFUSIONS_SHOWN` most frequent (JSON and CSV hold all).

    Parameters
    ----------
    bd : AgreementBreakdown
    fmt : {"table", "markdown", "latex"}
    """
    latex = fmt == "latex"
    a, b = _who(bd)
    out: List[str] = []

    def table(header: Sequence[str], rows: Sequence[Sequence[str]], caption: str) -> None:
        out.append(render_rows(header, rows, fmt, caption))

    unit = "percent" if latex else "fractions"
    if bd.kind == "dependency":
        tot = bd.totals()
        rows = [[r["label"], fmt_count(r["first"]), fmt_count(r["second"]), fmt_count(r["both"]),
                 fmt_count(r["both_head"]), _ratio(r["specific"], latex),
                 _ratio(r["specific_head"], latex), _ratio(r["alpha"], latex)]
                for r in bd.label_rows()]
        w = tot["words"]
        rows.append(["(all)", fmt_count(w), fmt_count(w), fmt_count(tot["LA_correct"]),
                     fmt_count(tot["LAS_full_correct"]),
                     _ratio(tot["LA_correct"] / w if w else None, latex),
                     _ratio(tot["LAS_full_correct"] / w if w else None, latex),
                     _ratio(tot["alpha_label"], latex)])
        table(["label", a, b, "both", "both+head", "specific", "specific+head", "alpha"], rows,
              f"Labels (words; specific agreement and one-vs-rest alpha in {unit})")
        conf = bd.confusion_rows()
        shown = conf[:CONFUSIONS_SHOWN]
        more = f"; {len(shown)} of {len(conf)} shown, all in JSON/CSV" \
            if len(conf) > len(shown) else ""
        table(["label 1", "label 2", "words", f"{a} 1, {b} 2", f"{a} 2, {b} 1", "same head"],
              [[r["label_1"], r["label_2"], fmt_count(r["words"]),
                fmt_count(r["first_label_1"]), fmt_count(r["first_label_2"]),
                fmt_count(r["same_head"])] for r in shown],
              f"Label confusions (words given two different labels{more})")
        table(["UPOS", "words", "LAS", "UAS", "LA"],
              [[r["upos"], fmt_count(r["words"]), _ratio(r["LAS_full"], latex),
                _ratio(r["UAS"], latex), _ratio(r["LA"], latex)] for r in bd.upos_rows()],
              f"UPOS (words; LAS/UAS/LA in {unit})")
        table(["arc", a, b, "both", "both head", "specific", "specific head", "alpha"],
              [[r["arc"], fmt_count(r["first"]), fmt_count(r["second"]), fmt_count(r["both"]),
                fmt_count(r["both_head"]), _ratio(r["specific"], latex),
                _ratio(r["specific_head"], latex), _ratio(r["alpha"], latex)]
               for r in bd.arc_rows()],
              f"Arcs by length and direction (left: head before the word; ratios in {unit})")
    names = {"LAS_full": "LAS", "UAS": "UAS", "LA": "LA", "jaccard": "Jaccard"}
    variants = bd.variants
    table(["length", "units", "words", *(names[m] for m in bd.score_names),
           *(f"alpha_{v}" for v in variants)],
          [[r["bin"], str(r["units"]), fmt_count(r["words"]),
            *(_ratio(r[m], latex) for m in bd.score_names),
            *(_ratio(r[f"alpha_{v}"], latex) for v in variants)] for r in bd.length_rows()],
          f"Sentence length (words of the first annotation; alpha with the bin's own D_e; "
          f"{unit})")
    gwet = bd.gwet_rows()
    if gwet:
        ivl = "percent_interval" if latex else "interval"
        table(["layer", "group", "items", "coefficient", "weights", "p_a", "p_e", "gwet_ac",
               "gwet_se", "gwet_ci"],
              [[r["layer"], r["group"], str(r["items"]), r["coefficient"], r["weights"],
                _ratio(r["p_a"], latex), _ratio(r["p_e"], latex), _ratio(r["gwet_ac"], latex),
                _ratio(r["gwet_se"], latex),
                format_value(tuple(r["gwet_ci"]), ivl, 1 if latex else 4)] for r in gwet],
              f"Gwet's {bd.to_dict()['gwet']['settings']} of the label layers, all words and "
              f"per sentence length (Gwet's standard error; {unit})")
    text = "\n".join(out)
    prefix = "% note: " if latex else "note: "
    return text + "".join(plain(f"{prefix}{n}") + "\n" for n in bd.notes)


def _value(v: object) -> object:
    if v is None:
        return ""
    return repr(v) if isinstance(v, float) else v


def breakdown_long_rows(bd: AgreementBreakdown) -> Iterator[Tuple[str, str, str, str, object]]:
    """Every number of the breakdown as ``(section, bin, bin2, quantity, value)``.

    Sections: ``label``, ``label_total``, ``label_confusion`` (``bin``,
    ``bin2``: the two labels), ``upos``, ``arc``, ``length``, ``gwet`` (``bin``
    the layer, ``bin2`` the group; the interval as ``gwet_ci_low`` and
    ``gwet_ci_high``), ``note``.
    """
    d = bd.to_dict()
    if bd.kind == "dependency":
        for r in d["labels"]["rows"]:
            yield from (("label", r["label"], "", k, v) for k, v in r.items() if k != "label")
        yield from (("label_total", "", "", k, v) for k, v in d["totals"].items())
        for r in d["label_confusions"]:
            yield from (("label_confusion", r["label_1"], r["label_2"], k, v)
                        for k, v in r.items() if k not in ("label_1", "label_2"))
        for r in d["upos"]:
            yield from (("upos", r["upos"], "", k, v) for k, v in r.items() if k != "upos")
        for r in d["arcs"]["rows"]:
            yield from (("arc", r["arc"], "", k, v) for k, v in r.items() if k != "arc")
    for r in d["lengths"]:
        for k, v in r.items():
            if k == "counts":
                for metric, c in v.items():
                    yield from (("length", r["bin"], "", f"{metric}_{q}", x)
                                for q, x in c.items())
            elif k != "bin":
                yield ("length", r["bin"], "", k, v)
    for r in d.get("gwet", {}).get("rows", []):
        for k, v in r.items():
            if k == "gwet_ci":
                yield ("gwet", r["layer"], r["group"], "gwet_ci_low", v[0])
                yield ("gwet", r["layer"], r["group"], "gwet_ci_high", v[1])
            elif k not in ("layer", "group"):
                yield ("gwet", r["layer"], r["group"], k, v)
    yield from (("note", "", "", "text", n) for n in d["notes"])


def breakdown_csv(res: AgreementResult, bd: AgreementBreakdown) -> str:
    """The long CSV table ``section,bin,bin2,quantity,value``: the usual one-row CSV as
    section ``summary``, every count and ratio of the breakdown, and the notes of the
    text table (the result's and the baseline's) as rows of section ``note``."""
    header, values = list(csv.reader(io.StringIO(render_csv(res))))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["section", "bin", "bin2", "quantity", "value"])
    for k, cell in zip(header, values):  # cells already made safe by render_csv
        w.writerow(csv_row(["summary", "", "", k, cell]))
    for sec, b1, b2, q, v in breakdown_long_rows(bd):
        w.writerow(csv_row([sec, b1, b2, q, _value(v)]))
    notes = list(res.notes)  # the notes of the text table, as rows too
    bc = res.baseline.as_dict() if res.baseline is not None else {}
    for r in bc.get("results", []):
        notes += [f"baseline: {n}" for n in r["notes"]]
    notes += [f"baseline: {n}" for n in bc.get("notes", [])]
    w.writerows(csv_row(["note", "", "", "text", n]) for n in notes)
    return buf.getvalue()
