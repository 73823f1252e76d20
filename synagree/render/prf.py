"""Rendering of micro/macro P/R/F1 over labels (``--prf`` of ``compare`` and ``tags``).

Text blocks and CSV rows; the numbers are `synagree.stats.prf.PRF`
results (docs/method.md §17).
"""
from __future__ import annotations

import csv
import io
from typing import Dict, List, Mapping, Optional

from synagree.base.escape import csv_row, plain
from synagree.base.table import Column, Table
from synagree.evaluation.compare import CompareResult
from synagree.render.writers import csv_value, write_table
from synagree.stats.prf import PRF

__all__ = ["PRF_LEGEND", "PRF_CSV_COLUMNS", "prf_csv_rows", "append_prf_csv", "render_compare_prf",
           "compare_prf_csv_rows", "LATEX_PRF_VARIANTS", "render_tags_prf", "prf_tables",
           "compare_prf_tables", "COMPARE_PRF_NOTES"]

#: The variants whose macro F1 the LaTeX table of ``compare --prf`` adds.
LATEX_PRF_VARIANTS = ("strict", "lenient")
COMPARE_LEGEND = ("strict: head + full DEPREL (micro = LAS_full); lenient: head + universal "
                  "relation (micro = LAS); unlabelled: head only, one class (micro = macro = "
                  "UAS); *_label_only: the label alone, head ignored. Values in percent; "
                  "per-label counts in the JSON and CSV outputs")

PRF_LEGEND = ("micro: over all items; macro: unweighted mean over the union of gold and "
              "system labels (a label the system never uses has P = 0, one gold never uses "
              "R = 0); macro F1 = mean of the per-label F1")
PRF_CSV_COLUMNS = ("variant", "labels", "correct", "gold", "system", "precision", "recall",
                   "f1")


def prf_csv_rows(results: Mapping[str, PRF]) -> List[List[object]]:
    """CSV cells for `PRF_CSV_COLUMNS`, after a label column: every number, lossless.

    Per variant: a ``MICRO`` row (summed counts, micro ratios), a ``MACRO``
    row (label count, macro ratios; no counts), then one row per label.
    Floats are written with ``repr`` (round-trip exact); undefined is empty.

    Returns
    -------
    list of list
        ``[label, variant, labels, correct, gold, system, precision, recall, f1]``.
    """
    out: List[List[object]] = []
    for k, r in results.items():
        out.append(["MICRO", k, r.labels, r.correct, r.gold, r.system, r.micro_precision,
                    r.micro_recall, r.micro_f1])
        out.append(["MACRO", k, r.labels, "", "", "", r.macro_precision, r.macro_recall,
                    r.macro_f1])
        out += [[c.label, k, "", c.correct, c.gold, c.system, c.precision, c.recall, c.f1]
                for c in r.per_label]
    return [[csv_value(v) for v in row] for row in out]


def append_prf_csv(text: str, results: Mapping[str, PRF]) -> str:
    """A CSV table with the `PRF_CSV_COLUMNS` appended and the `prf_csv_rows` after it.

    The existing rows keep their cells (the new columns are empty there); a
    new row puts its label in the first column and leaves the other old
    columns empty.

    Parameters
    ----------
    text : str
        A CSV table with a header row.
    results : mapping of str to PRF
    """
    rows = list(csv.reader(io.StringIO(text)))
    width = len(rows[0])
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(rows[0] + list(PRF_CSV_COLUMNS))
    for r in rows[1:]:
        w.writerow(r + [""] * len(PRF_CSV_COLUMNS))
    for cells in prf_csv_rows(results):
        w.writerow(csv_row([cells[0]] + [""] * (width - 1) + list(cells[1:])))
    return buf.getvalue()


def compare_prf_tables(res: CompareResult, notes: bool = True) -> List[Table]:
    """The ``compare --prf`` summaries as tables of the table model: one per system, in
    percent (`prf_tables`); ``notes``: each carries its variants' notes.

    Parameters
    ----------
    res : CompareResult
        Computed with ``prf=True`` (no table otherwise).
    notes : bool
    """
    return [t for s in res.systems if s.prf is not None
            for t in prf_tables(s.prf, notes=notes, percent=True, legend=None,
                                per_label=False, title=f"{s.name}: P/R/F1 over relations, "
                                                       f"micro and macro (%)")]


#: the legend lines of ``compare --prf`` (what the variants and micro/macro are)
COMPARE_PRF_NOTES = (f"prf: {COMPARE_LEGEND}", f"prf: {PRF_LEGEND}")


def render_compare_prf(res: CompareResult) -> str:
    r"""The ``compare --prf`` block of the text table: `compare_prf_tables` written by
    `synagree.render.writers`, then the legend.

    Parameters
    ----------
    res : CompareResult
        Computed with ``prf=True`` ("" otherwise).
    """
    tables = compare_prf_tables(res)
    if not tables:
        return ""
    return "".join(write_table(t, "table") for t in tables) \
        + "".join(plain(n) + "\n" for n in COMPARE_PRF_NOTES)


def compare_prf_csv_rows(name: str, results: Mapping[str, PRF]) -> List[Dict[str, object]]:
    """The ``compare --prf`` rows of the long CSV (columns of its ``CSV_COLUMNS``).

    Per variant (section ``prf:<variant>``): ``micro`` (counts and micro
    ratios), ``macro`` (macro ratios), ``labels`` (the number averaged),
    then ``label`` rows with the label in ``bin``.  ``value`` is the F1.

    Parameters
    ----------
    name : str
        The system.
    results : mapping of str to PRF
    """
    out: List[Dict[str, object]] = []
    for v, r in results.items():
        sec = f"prf:{v}"
        out.append(dict(section=sec, system=name, metric="micro", value=r.micro_f1,
                        correct=r.correct, gold=r.gold, predicted=r.system,
                        precision=r.micro_precision, recall=r.micro_recall, f1=r.micro_f1))
        out.append(dict(section=sec, system=name, metric="macro", value=r.macro_f1,
                        precision=r.macro_precision, recall=r.macro_recall, f1=r.macro_f1))
        out.append(dict(section=sec, system=name, metric="labels", value=r.labels))
        out += [dict(section=sec, system=name, metric="label", bin=c.label, value=c.f1,
                     correct=c.correct, gold=c.gold, predicted=c.system,
                     precision=c.precision, recall=c.recall, f1=c.f1) for c in r.per_label]
    return out



#: the registered keys of a variant's micro and macro ratios (the summary table's columns)
PRF_KEYS = ("micro_precision", "micro_recall", "micro_f1", "macro_precision", "macro_recall",
            "macro_f1")
#: the legend of ``tags --prf``
TAGS_LEGEND = f"strict: tags as written; lenient: their top-level ancestors in the " \
              f"hierarchy. {PRF_LEGEND}"


def prf_tables(results: Mapping[str, PRF], label: str = "tag", notes: bool = True,
               percent: bool = False, title: str = "P/R/F1 over tags, micro and macro "
                                                    "(fractions)",
               legend: Optional[str] = TAGS_LEGEND, per_label: bool = True) -> List[Table]:
    """The P/R/F1 of ``tags --prf`` as tables of the table model (every format writes
    them through `synagree.render.writers`): a summary, one row per variant under
    registered keys, then each variant per label (a lenient variant equal to strict,
    as its note says, gets none).

    Parameters
    ----------
    results : mapping of str to PRF
        From `synagree.evaluation.label_prf.tag_prf`.
    label : str
        Header of the label column of the per-label tables.
    notes : bool
        The summary carries the variants' notes and ``legend`` (the text table);
        False where the output prints them with the command's other notes (Markdown,
        LaTeX and CSV: `synagree.render.tags.tags_notes`).
    percent : bool
        Ratios in percent with two decimals (``compare``), else fractions with four.
    title : str
        The summary's caption.
    legend : str or None
        What the variants are (a note of the summary).
    per_label : bool
        Add the per-label tables.
    """
    kind, digits = ("percent", 2) if percent else ("number", 4)
    num = [Column(k, kind, digits) for k in PRF_KEYS]
    summary = Table("prf", [Column("variant"), Column("labels", "count"),
                            Column("correct", "count"), Column("gold", "count"),
                            Column("system", "count"), *num],
                    title=title,
                    notes=[n for r in results.values() for n in r.notes]
                    + ([legend] if legend else []) if notes else [])
    for k, r in results.items():
        summary.add(k, r.labels, r.correct, r.gold, r.system, r.micro_precision,
                    r.micro_recall, r.micro_f1, r.macro_precision, r.macro_recall, r.macro_f1)
    out = [summary]
    for k, r in results.items():
        if not per_label or any(n.startswith("lenient = strict") for n in r.notes):
            continue
        t = Table(f"prf_{k}", [Column(label), Column("gold", "count"),
                               Column("system", "count"), Column("correct", "count"),
                               Column("precision", kind, digits),
                               Column("recall", kind, digits), Column("f1", kind, digits)],
                  title=f"{k}: per {label}")
        for c in r.per_label:
            t.add(c.label, c.gold, c.system, c.correct, c.precision, c.recall, c.f1)
        out.append(t)
    return out


def render_tags_prf(results: Mapping[str, PRF]) -> str:
    """The ``tags --prf`` block of the text table: `prf_tables` written as text.

    Parameters
    ----------
    results : mapping of str to PRF
        From `synagree.evaluation.label_prf.tag_prf`.
    """
    return "\n".join(write_table(t, "table") for t in prf_tables(results))
