"""Rendering of PARSEVAL comparisons (``synagree compare`` on bracketed files).

A table with one column per system (EVALB's two summaries and every count),
JSON (fractions, every count, every sentence), CSV in ``compare``'s long
layout, LaTeX, and EVALB's own report (`synagree.render.parseval_evalb`).
The percentages of the table are EVALB's own (`Totals.percent`), so they
read as EVALB prints them; JSON and CSV hold fractions.

Kept apart from ``render/compare.py`` so that it can move onto a common
table model later; it imports no numpy (PARSEVAL must stay fast).
"""
from __future__ import annotations

import csv
import importlib
import io
import json
from typing import Any, List, Optional

from synagree.base.escape import csv_cell, plain
from synagree.base.table import Cell, Column, Document, Table
from synagree.evaluation.parseval import Totals
from synagree.evaluation.parseval_compare import ParsevalComparison
from synagree.render import writers
from synagree.render.aligned import (
    bins_table,
    confusion_table,
    significance_table,
    tables_text,
)
from synagree.render.parseval_evalb import evalb_report

# the text table's rows and lines: a light module shared with the fast path (issue 36)
from synagree.render.parseval_text import TEXT_UNITS, head_lines, scope_heads, scope_rows

__all__ = ["render_parseval", "render_table", "render_json", "render_csv", "render_latex",
           "PARSEVAL_OUTPUTS", "CSV_COLUMNS"]

PARSEVAL_OUTPUTS = ("table", "json", "csv", "markdown", "latex", "evalb")
#: the columns of ``compare``'s long CSV (render/compare.py), shared by both kinds of input
CSV_COLUMNS = ("section", "system", "metric", "bin", "value", "correct", "gold", "predicted",
               "aligned", "precision", "recall", "f1", "versus", "diff", "ci_low", "ci_high",
               "p_bootstrap", "p_randomisation")

#: the tables of ``--baseline`` (`synagree.render.regression`), loaded by its module
#: path when a result has a baseline: a plain run renders without them (issue 36)
REGRESSION = "synagree.render.regression"


def _regression() -> Any:
    return importlib.import_module(REGRESSION)


def _scope_table(res: ParsevalComparison, which: str, head: str) -> Table:
    """EVALB's summary of one scope (``all``, ``cutoff``), one column per system: the
    sentence counts, the percentages, the bracket counts (None: a system that EVALB's
    MAX_ERROR stopped)."""
    tots: List[Optional[Totals]] = [None if s.result.stopped else getattr(s.result, which)
                                    for s in res.systems]
    return Table(f"parseval_{which}", [Column(head)] + [Column(s.name, "number", 2)
                                                         for s in res.systems],
                 scope_rows(tots))


def render_table(res: ParsevalComparison, top: int = 10) -> str:
    r"""EVALB's two summaries side by side, one column per system, then the extras.

    Every table is of the table model, written by `synagree.render.writers.text`.

    Parameters
    ----------
    res : ParsevalComparison
    top : int
        Label confusions listed per system.
    """
    out = head_lines(res.gold, res.gold_sentences, res.params.name, res.params.sha256)
    tables = [_scope_table(res, which, head)
              for which, head in scope_heads(res.params.cutoff_len)]
    if res.alpha_d_e is not None:
        tables.append(Table("alpha", [Column("metric")] + [
            Column(s.name, "percent", 2) for s in res.systems],
            [[f"alpha_{v}"] + [None if s.alpha is None else s.alpha[v].alpha
                               for s in res.systems] for v in ("plain", "diff", "norm")]))
    # the notes, values: and signature as every command's (`writers.write`), then the
    # tables of --breakdown, --significance and --baseline
    units = TEXT_UNITS + ("; alpha_*: Krippendorff's alpha x 100 between gold and system"
                          if res.alpha_d_e is not None else "")
    doc = Document(tables, notes=list(res.notes) + [str(w) for w in res.warnings],
                   units=units, signature=res.signature())
    text = "\n".join(out) + "\n" + writers.write(doc, "table")
    parts = []
    if any(s.breakdown is not None for s in res.systems):
        parts.append(_render_breakdowns(res, top))
    if res.significance is not None:
        parts.append(_render_significance(res))
    if res.baseline is not None:
        parts.append(_regression().render_regression_table(res.baseline.as_dict(),  # type: ignore
                                             percent=True))
    return text + "".join("\n" + p for p in parts)


def _render_breakdowns(res: ParsevalComparison, top: int) -> str:
    tables: List[Table] = []
    for s in res.systems:
        bd = s.breakdown
        if bd is None:
            continue
        tables.append(bins_table(
            "label", f"{s.name}: brackets by label (gold label for recall, system label "
            f"for precision)", ["label"], ["gold", "system", "matched"],
            [[c.label or '""', c.gold, c.test, c.matched_gold, c.precision, c.recall, c.f1]
             for c in bd.labels]))  # type: ignore[attr-defined]
        for title, bins, first in (("sentence length (words, EVALB's length)",
                                    bd.sentence_length, "sentences"),  # type: ignore
                                   ("constituent length (words)",
                                    bd.constituent_length, None)):  # type: ignore
            tables.append(bins_table(
                "length", f"{s.name}: brackets by {title}", ["bin"],
                ([first] if first else []) + ["gold", "system", "matched"],
                [[b.bin] + ([b.sentences] if first else [])
                 + [b.gold, b.test, b.matched, b.precision, b.recall, b.f1] for b in bins]))
        tables.append(confusion_table(
            "confusion", f"{s.name}: most frequent label confusions (brackets over the same "
            f"words)", bd.confusion.top(top)))  # type: ignore[attr-defined]
    return tables_text(tables)


def _render_significance(res: ParsevalComparison) -> str:
    sig = res.significance
    assert sig is not None
    return writers.text(significance_table(sig, "sentences"))  # type: ignore[arg-type]


def render_json(res: ParsevalComparison) -> str:
    r"""`ParsevalComparison.as_dict` as indented JSON (fractions, every count and sentence)."""
    from synagree.base.jsonable import json_ready  # numpy: only for JSON (module docstring)

    return json.dumps(json_ready(res.as_dict()), indent=2, ensure_ascii=False) + "\n"


def render_csv(res: ParsevalComparison) -> str:
    r"""Long CSV in ``compare``'s columns (`CSV_COLUMNS`): one row per number group.

    Sections: ``summary:all`` and ``summary:cutoff`` (``bracketing``: correct =
    matched, gold, predicted = system brackets, precision, recall, f1;
    ``tagging``: correct tags of words; the other values in ``value``);
    ``sentence`` (``bin`` = line; the same groups, plus ``length``, ``status``,
    ``crossing``); ``alpha``; ``label``, ``sentence_length``,
    ``constituent_length``, ``confusion``; ``significance``; ``baseline``;
    ``note``.
    """
    buf = io.StringIO()
    w = csv.DictWriter(buf, CSV_COLUMNS, lineterminator="\n")
    w.writeheader()

    def row(**kw: object) -> None:
        w.writerow({k: csv_cell("" if v is None else (repr(v) if isinstance(v, float) else v))
                    for k, v in kw.items()})

    for s in res.systems:
        r = s.result
        if r.stopped is None:
            for scope, t in (("summary:all", r.all), ("summary:cutoff", r.cutoff)):
                row(section=scope, system=s.name, metric="bracketing",
                    value=t.fraction("f_measure"), correct=t.matched, gold=t.gold,
                    predicted=t.test, precision=t.fraction("precision"),
                    recall=t.fraction("recall"), f1=t.fraction("f_measure"))
                row(section=scope, system=s.name, metric="tagging", value=t.fraction("tagging"),
                    correct=t.correct_tags, gold=t.words, predicted=t.words)
                for k in ("sentences", "error_sentences", "skip_sentences", "valid",
                          "crossing", "complete", "no_crossing", "two_or_less_crossing"):
                    row(section=scope, system=s.name, metric=k, value=getattr(t, k))
                for k in ("complete_match", "average_crossing", "no_crossing",
                          "two_or_less_crossing"):
                    row(section=scope, system=s.name, metric=f"{k}_rate", value=t.fraction(k))
        else:
            row(section="stopped", system=s.name, metric="MAX_ERROR", bin=r.stopped.id,
                value=r.stopped.message)
        for x in r.sentences:
            b = str(x.id)
            row(section="sentence", system=s.name, metric="bracketing", bin=b,
                correct=x.matched, gold=x.gold, predicted=x.test,
                precision=x.fraction("precision"), recall=x.fraction("recall"))
            row(section="sentence", system=s.name, metric="tagging", bin=b,
                value=x.fraction("tagging"), correct=x.correct_tags, gold=x.words,
                predicted=x.words)
            for k in ("length", "status", "crossing"):
                row(section="sentence", system=s.name, metric=k, bin=b, value=getattr(x, k))
            if x.message:
                row(section="sentence", system=s.name, metric="message", bin=b, value=x.message)
        if s.alpha is not None:
            for v, st in s.alpha.items():
                row(section="alpha", system=s.name, metric=f"alpha_{v}", value=st.alpha)
        bd = s.breakdown
        if bd is not None:
            for c in bd.labels:  # type: ignore[attr-defined]
                row(section="label", system=s.name, metric="bracketing", bin=c.label,
                    value=c.f1, correct=c.matched_gold, aligned=c.matched_test, gold=c.gold,
                    predicted=c.test, precision=c.precision, recall=c.recall, f1=c.f1)
            for sec, bins in (("sentence_length", bd.sentence_length),  # type: ignore
                              ("constituent_length", bd.constituent_length)):  # type: ignore
                for b in bins:
                    row(section=sec, system=s.name, metric="bracketing", bin=b.bin,
                        value=b.f1, correct=b.matched, gold=b.gold, predicted=b.test,
                        aligned=b.sentences if sec == "sentence_length" else None,
                        precision=b.precision, recall=b.recall, f1=b.f1)
            for g, t, c, ex in bd.confusion.top(None):  # type: ignore[attr-defined]
                row(section="confusion", system=s.name, metric=f"{g}->{t}", bin=ex, value=c)
    if res.significance is not None:
        for t in res.significance.pairs:  # type: ignore[attr-defined]
            row(section="significance", system=t.a, versus=t.b, metric=t.metric,
                value=t.value_a, diff=t.diff, ci_low=t.ci[0] if t.ci else None,
                ci_high=t.ci[1] if t.ci else None, p_bootstrap=t.p_bootstrap,
                p_randomisation=t.p_randomisation)
    if res.baseline is not None:
        for rr in _regression().regression_csv_rows(res.baseline.as_dict()):  # type: ignore
            row(**rr)
    for n in list(res.notes) + [str(w) for w in res.warnings]:
        row(section="note", value=n)
    row(section="signature", value=res.signature())
    return buf.getvalue()


def render_latex(res: ParsevalComparison) -> str:
    r"""A booktabs table, one row per system: EVALB's recall, precision, F-measure,
    complete match and tagging accuracy in percent, over all sentences and over those of
    at most CUTOFF_LEN words (columns ``LR (<= N)`` ...); with ``--bootstrap`` a row
    ``CI`` under each system holds the intervals of F1 and Tag (all sentences).  The
    table is `latex_table`, written by `synagree.render.writers.latex_paper`.
    """
    comment = (f"% PARSEVAL as EVALB computes it, percent (CI: bootstrap percentile interval, "
               f"level in the signature); signature: {plain(res.signature())}\n")
    tail = ("\n" + _regression().render_regression_latex(res.baseline.as_dict(), percent=True)  # type: ignore
            if res.baseline is not None else "")
    cut = res.params.cutoff_len
    heads = {f"{h} (<= {cut})": f"{h} ($\\le$ {cut})" for _, h in _LATEX_KEYS}
    sig = ("\n" + writers.latex(significance_table(res.significance, "sentences"))  # type: ignore[arg-type]
           if res.significance is not None else "")  # --significance (method §11.5)
    return writers.latex_paper(latex_table(res), "CI", heads) + comment + sig + tail


#: EVALB's summary values of the LaTeX table, and their headers
_LATEX_KEYS = (("recall", "LR"), ("precision", "LP"), ("f_measure", "F1"),
               ("complete_match", "EX"), ("tagging", "Tag"))


def latex_table(res: ParsevalComparison) -> Table:
    """The rows of `render_latex` as the table model: per system EVALB's five summary
    values over all sentences, each of F1 and Tag followed by its interval column
    (``bracket_F1_ci``, ``tagging_accuracy_ci``: None without ``--bootstrap``), then the
    five values over the sentences of at most CUTOFF_LEN words."""
    cut = res.params.cutoff_len
    cols = [Column("System")]
    for k, h in _LATEX_KEYS:
        cols.append(Column(h, "number", 2))
        ci = {"f_measure": "bracket_F1_ci", "tagging": "tagging_accuracy_ci"}.get(k)
        if ci:
            cols.append(Column(ci, "percent_interval", 2))
    cols += [Column(f"{h} (<= {cut})", "number", 2) for _, h in _LATEX_KEYS]
    table = Table("parseval_latex", cols)
    for s in res.systems:
        cells: List[Cell] = [s.name]
        for k, _ in _LATEX_KEYS:
            cells.append(None if s.result.stopped else s.result.all.percent(k))
            ci = {"f_measure": "bracket_F1", "tagging": "tagging_accuracy"}.get(k)
            if ci:
                cells.append(s.intervals.get(ci))
        cells += [None if s.result.stopped else s.result.cutoff.percent(k)
                  for k, _ in _LATEX_KEYS]
        table.add(*cells)
    return table


def parseval_table(res: ParsevalComparison) -> Table:
    """One row per system: EVALB's recall, precision, F-measure, complete match and
    tagging accuracy over all sentences (percent, as EVALB prints them), the
    bootstrap intervals of F1 and tagging accuracy beside them when computed."""
    with_ci = any(s.intervals for s in res.systems)
    cols = [Column("system"), *(Column(h, "number", 2) for h in ("LR", "LP", "F1", "EX", "Tag"))]
    cols += [Column("bracket_F1_ci", "percent_interval", 2),
             Column("tagging_accuracy_ci", "percent_interval", 2)] if with_ci else []
    table = Table("parseval", cols, title="PARSEVAL over all sentences (EVALB)")
    for s in res.systems:
        t = s.result.all
        cells: List[Cell] = [s.name] + [None if s.result.stopped else t.percent(k) for k in
                                        ("recall", "precision", "f_measure", "complete_match",
                                         "tagging")]
        if with_ci:
            cells += [s.intervals.get("bracket_F1"), s.intervals.get("tagging_accuracy")]
        table.add(*cells)
    return table


def render_markdown(res: ParsevalComparison) -> str:
    """`parseval_table` as Markdown, with the notes, ``values:`` line and signature, the
    tests of ``--significance`` (`significance_table`) and with ``--baseline`` its
    tables (the per-label and per-length tables are text, CSV and JSON only)."""
    sig = ([significance_table(res.significance, "sentences")]  # type: ignore[arg-type]
           if res.significance is not None else [])
    return writers.write(Document(
        [parseval_table(res), *sig], notes=list(res.notes) + [str(w) for w in res.warnings],
        units="percent (EVALB's LR, LP, F1, EX and Tag; intervals: bootstrap percentile, "
              "level in the signature)", signature=res.signature()), "markdown") + (
        "\n" + _regression().render_regression(res.baseline.as_dict(), "markdown", percent=True)  # type: ignore
        if res.baseline is not None else "")


def render_parseval(res: ParsevalComparison, output: str = "table", top: int = 10) -> str:
    r"""A PARSEVAL comparison in one output format.

    Parameters
    ----------
    res : ParsevalComparison
    output : {"table", "json", "csv", "latex", "evalb"}
        ``evalb``: EVALB's own report (one system only).
    top : int
        Label confusions listed per system (table).

    Raises
    ------
    ValueError
        Unknown format, or ``evalb`` with several systems.
    """
    if output == "evalb":
        if len(res.systems) != 1:
            raise ValueError("EVALB's report is of one system file")
        return evalb_report(res.systems[0].result)
    if output == "table":
        return render_table(res, top)
    writer = {"json": render_json, "csv": render_csv, "latex": render_latex,
              "markdown": render_markdown}.get(output)
    if writer is not None:
        return writer(res)
    raise ValueError(f"unknown output format {output!r}; expected one of {PARSEVAL_OUTPUTS}")
