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
from typing import Iterator, List, Optional, Tuple, cast

from synagree.agreement.agree import AgreementResult
from synagree.agreement.breakdown import AgreementBreakdown
from synagree.base.table import Cell, Column, Table
from synagree.render import writers
from synagree.render.tables import render_csv

__all__ = ["CONFUSIONS_SHOWN", "fmt_count", "breakdown_tables", "breakdown_sections",
           "breakdown_long_rows", "breakdown_csv"]

#: Label confusions listed in the text and LaTeX tables (JSON and CSV hold all).
CONFUSIONS_SHOWN = 10


def fmt_count(x: Optional[float]) -> str:
    """A pair-weighted count: whole numbers without decimals, others with four."""
    if x is None:
        return "–"
    return str(int(x)) if float(x).is_integer() else f"{x:.4f}"


def breakdown_tables(bd: AgreementBreakdown, percent: bool = False) -> List[Table]:
    """The breakdown as tables of the table model: labels, label confusions, UPOS, arcs
    (dependency corpora), sentence length and, with ``--coefficient``, Gwet's
    coefficients; the breakdown's notes go with the last table.

    Columns are headed by the JSON keys (registered in `synagree.base.metrics`:
    ``first`` and ``second`` are the pair-weighted words of the first and second
    annotator of each pair, as a note says).  Ratios are fractions with four
    decimals, or with ``percent`` percent with one decimal (the LaTeX output);
    counts are pair-weighted words.  The label confusions are limited to the
    `CONFUSIONS_SHOWN` most frequent (JSON and CSV hold all).

    Parameters
    ----------
    bd : AgreementBreakdown
    percent : bool
    """
    kind, digits = ("percent", 1) if percent else ("number", 4)
    unit = "percent" if percent else "fractions"

    def r(key: str) -> Column:
        return Column(key, kind, digits)

    def n(key: str) -> Column:
        return Column(key, "count", 4)

    out: List[Table] = []
    keys = ("first", "second", "both", "both_head", "specific", "specific_head", "alpha")
    pairwise = [n(k) for k in keys[:4]] + [r(k) for k in keys[4:]]
    if bd.kind == "dependency":
        tot = bd.totals()
        labels = Table("labels", [Column("label"), *pairwise],
                       [[x["label"], *(x[k] for k in keys)] for x in bd.label_rows()],
                       title=f"Labels (words; specific agreement and one-vs-rest alpha in "
                             f"{unit})")
        w = tot["words"]
        labels.add("(all)", w, w, tot["LA_correct"], tot["LAS_full_correct"],
                   tot["LA_correct"] / w if w else None,
                   tot["LAS_full_correct"] / w if w else None, tot["alpha_label"])
        conf = bd.confusion_rows()
        shown = conf[:CONFUSIONS_SHOWN]
        more = f"; {len(shown)} of {len(conf)} shown, all in JSON/CSV" \
            if len(conf) > len(shown) else ""
        ckeys = ("words", "first_label_1", "first_label_2", "same_head")
        confusions = Table("label_confusions",
                           [Column("label_1"), Column("label_2"), *(n(k) for k in ckeys)],
                           [[x["label_1"], x["label_2"], *(x[k] for k in ckeys)]
                            for x in shown],
                           title=f"Label confusions (words given two different labels{more})")
        scores = ("LAS_full", "UAS", "LA")
        upos = Table("upos", [Column("upos"), n("words"), *(r(k) for k in scores)],
                     [[x["upos"], x["words"], *(x[k] for k in scores)] for x in bd.upos_rows()],
                     title=f"UPOS (words; LAS_full/UAS/LA in {unit})")
        arcs = Table("arcs", [Column("arc"), *pairwise],
                     [[x["arc"], *(x[k] for k in keys)] for x in bd.arc_rows()],
                     title=f"Arcs by length and direction (left: head before the word; "
                           f"ratios in {unit})")
        out += [labels, confusions, upos, arcs]
    lkeys = [*bd.score_names, *(f"alpha_{v}" for v in bd.variants)]
    out.append(Table("lengths", [Column("length"), n("units"), n("words"), *map(r, lkeys)],
                     [[x["bin"], x["units"], x["words"], *(x[k] for k in lkeys)]
                      for x in bd.length_rows()],
                     title=f"Sentence length (words of the first annotation; alpha with the "
                           f"bin's own D_e; {unit})"))
    gwet = bd.gwet_rows()
    if gwet:
        gkeys = ("p_a", "p_e", "gwet_ac", "gwet_se")
        ivl = Column("gwet_ci", "percent_interval" if percent else "interval", digits)
        out.append(Table("gwet", [Column("layer"), Column("group"), n("items"),
                                  Column("coefficient"), Column("weights"), *map(r, gkeys), ivl],
                         [[x["layer"], x["group"], x["items"], x["coefficient"], x["weights"],
                           *(x[k] for k in gkeys), tuple(x["gwet_ci"])] for x in gwet],
                         title=f"Gwet's {bd.to_dict()['gwet']['settings']} of the label "
                               f"layers, all words and per sentence length (Gwet's standard "
                               f"error; {unit})"))
    out[-1].notes.extend(bd.notes)
    return out


def breakdown_sections(bd: AgreementBreakdown, fmt: str = "table") -> str:
    """The breakdown tables and notes (`breakdown_tables`) as text (``"table"``, fitted
    to the terminal), Markdown or LaTeX (percent with one decimal), written by
    `synagree.render.writers`.

    Parameters
    ----------
    bd : AgreementBreakdown
    fmt : {"table", "markdown", "latex"}
    """
    tables = breakdown_tables(bd, percent=fmt == "latex")
    return "\n".join(writers.write_table(t, fmt) for t in tables)


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
    text table (the result's and the baseline's) as rows of section ``note``; written
    by `synagree.render.writers.csv_table` (exact values)."""
    header, values = list(csv.reader(io.StringIO(render_csv(res))))
    table = Table("breakdown", [Column(h) for h in ("section", "bin", "bin2", "quantity",
                                                    "value")])
    for k, cell in zip(header, values):  # cells already made safe by render_csv
        table.add("summary", "", "", k, cell)
    for sec, b1, b2, q, v in breakdown_long_rows(bd):
        table.add(sec, b1, b2, q, cast(Cell, v))
    notes = list(res.notes)  # the notes of the text table, as rows too
    bc = res.baseline.as_dict() if res.baseline is not None else {}
    for r in bc.get("results", []):
        notes += [f"baseline: {n}" for n in r["notes"]]
    notes += [f"baseline: {n}" for n in bc.get("notes", [])]
    for n in notes:
        table.add("note", "", "", "text", n)
    return writers.csv_table(table)
