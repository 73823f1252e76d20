"""Rendering of agreement results (``synagree agree``): table, JSON, CSV, LaTeX.

Computing never happens here.  Writing is atomic
(`synagree.io.files.write_atomic`): a temporary file in the target
directory is renamed into place, so a reader never sees half a result.
"""
from __future__ import annotations

import csv
import io
import json
from typing import List, Optional, Tuple

from synagree.agreement.agree import AgreementResult
from synagree.base.escape import csv_row, plain
from synagree.base.jsonable import json_ready
from synagree.base.metrics import units_note as glossed_units
from synagree.base.table import Cell, Column, Document, Table, format_value, key_value
from synagree.render.regression import (
    regression_fields,
    render_regression,
    render_regression_latex,
    render_regression_table,
)
from synagree.render.writers import latex, latex_paper, write
from synagree.stats.alpha import VARIANTS

FORMATS = ("table", "json", "csv", "markdown", "latex")


def summary_rows(res: AgreementResult) -> List[Tuple[str, str]]:
    """``(name, value)`` rows of the summary table of an agreement result.

    Settings, counts, α per variant and the scores (with bootstrap intervals
    when present), the sections' metrics, and for dependency corpora the
    ignored, multi-root and cycle counts.
    """
    rows = [("kind", res.kind),
            *((k.replace("_", " "), v) for k, v in
              (res.corpus.settings() if res.corpus is not None else {}).items()),
            ("annotators", f"{len(res.annotators)} ({', '.join(res.annotators)})"),
            ("units", f"{res.units} pairable of {res.units_total}"),
            ("annotations", str(res.annotations))]
    # joined and edited units (docs/method.md §1.7–1.8); JSON and CSV always carry them
    counts = res.corpus.unit_counts() if res.corpus is not None else {}
    if any(counts.values()):
        rows += [(k.replace("_", " "), str(v)) for k, v in counts.items()]
    ci = res.intervals()
    level = res.bootstrap.level if res.bootstrap is not None else 0.95
    small = " (small sample)" if res.small_sample() else ""
    for k, x in res.metrics().items():
        iv = ci.get(k)
        tail = f"  {format_value(iv, 'interval')} {100 * level:g}% CI{small}" if iv else ""
        value = (format_value(x, digits=6, missing="undefined")
                 if isinstance(x, float) or x is None else str(x))
        rows.append((k, value + tail))
    if res.kind == "dependency":
        # left out of LAS/UAS/LA only (they count in alpha): say so beside the number
        rows.append(("ignored units", f"{res.scores.ignored} (by the word scores; alpha "
                                      f"counts them)" if res.scores.ignored else "0"))
        rows.append(("multi-root sentences", str(res.multi_root)))
        rows.append(("sentences with cycles", str(res.cycle_sentences)))
    return rows


def units_note(res: AgreementResult) -> str:
    """The ``values:`` line of an agreement result: fractions and, for dependency
    corpora, the definition of each word score the result has (the registry's glosses,
    `synagree.base.metrics.units_note`: no LAS when LAS is not reported, labels that
    are not UD relations)."""
    if res.kind != "dependency":
        return "fractions (0 to 1)"
    return glossed_units(res.score_names)


def _small_sample(res: AgreementResult) -> Optional[str]:
    """The small-sample note of the result's bootstrap intervals, if any."""
    return res.small_sample()


def render_table(res: AgreementResult, width: Optional[int] = None) -> str:
    """The summary as text: the tables of `summary_document` (settings and counts,
    then the metrics with their intervals), the notes, the ``values:`` line and the
    signature, written by `synagree.render.writers.write` as Markdown writes them.

    Fitted to ``width`` display columns (default
    `synagree.render.fit.terminal_width`): on a terminal a text cell too wide is cut
    with ``…`` (the CLI says how to see it whole); written to a pipe or a file nothing
    is cut.  The settings signature stays one line, to be copied whole.  With
    ``--baseline``, its table follows (`synagree.render.regression`).

    Parameters
    ----------
    res : AgreementResult
    width : int, optional
        Default: `synagree.render.fit.terminal_width`.
    """
    text = write(summary_document(res), "table", width)
    # --baseline (docs/method.md §18)
    tail = "\n" + render_regression_table(res.baseline.as_dict()) if res.baseline else ""
    return text + tail


def render_json(res: AgreementResult) -> str:
    """`AgreementResult.to_dict` as indented JSON (NaN as null)."""
    return json.dumps(json_ready(res.to_dict()), indent=2, ensure_ascii=False) + "\n"


def _flat_fields(res: AgreementResult) -> List[Tuple[str, object]]:
    """Every number of the JSON output as one CSV row: intervals as ``_ci_low`` /
    ``_ci_high``, the sums behind each ratio, the settings signature."""
    d = res.to_dict()
    out: List[Tuple[str, object]] = []
    for k, v in d.items():
        if k in ("counts", "notes", "warnings", "details", "settings"):
            continue
        if k.endswith("_ci"):
            out += [(f"{k}_low", v[0] if v else None), (f"{k}_high", v[1] if v else None)]
        elif k == "annotator_names":
            out.append((k, ";".join(v)))
        else:
            out.append((k, v))
    for metric, c in d["counts"].items():
        if metric == "scores":
            out += [(f"{m}_correct", n) for m, n in c["correct"].items()]
            out += [("score_total", c["total"]), ("score_units", c["units"])]
        else:
            out += [(f"{metric}_{key}", val) for key, val in c.items()]
    out += regression_fields(d["details"].get("baseline"))  # --baseline (method.md §18)
    small = _small_sample(res)
    if small:  # the intervals rest on fewer than 30 units
        out.append(("ci_note", small))
    return out


def render_csv(res: AgreementResult) -> str:
    """One header row and one value row: the scalar fields of `AgreementResult.to_dict`."""
    fields = _flat_fields(res)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(csv_row(k for k, _ in fields))
    w.writerow(csv_row("" if v is None else (repr(v) if isinstance(v, float) else v)
                       for _, v in fields))
    return buf.getvalue()


def paper_table(res: AgreementResult, label: str = "corpus") -> Table:
    """The row of the paper's Table 2 as the table model: the corpus name, then α per
    variant and the word scores in percent with one decimal, each followed by its
    bootstrap interval (``<key>_ci``) when the result has intervals."""
    ci = res.intervals()
    keys = [f"alpha_{v}" for v in VARIANTS if v in res.alpha] + list(res.score_names)
    vals = [res.alpha[v].alpha for v in VARIANTS if v in res.alpha]
    vals += [res.scores.ratio(m) for m in res.score_names]
    with_ci = any(ci.get(k) for k in keys)
    cols = [Column("Corpus")]
    row: List[Cell] = [label]
    for k, v in zip(keys, vals):
        cols.append(Column(k, "percent", 1))
        row.append(v)
        if with_ci:
            cols.append(Column(f"{k}_ci", "percent_interval", 1))
            row.append(ci.get(k))
    return Table("paper", cols, [row])


def render_latex(res: AgreementResult, label: str = "corpus") -> str:
    r"""One booktabs row in percent with one decimal, as the paper's Table 2.

    With ``--bootstrap``, a second row holds each value's interval ``[lo, hi]``
    (percent, one decimal), as the CSV holds ``<key>_ci_low``/``_ci_high``.  The row
    is `paper_table`, written in the paper's layout by
    `synagree.render.writers.latex_paper` (α headers as ``$\alpha_{\mathrm{v}}$``).

    Parameters
    ----------
    res : AgreementResult
    label : str
        The corpus name in the first column (LaTeX-escaped).
    """
    table = paper_table(res, label)
    level = res.bootstrap.level if res.bootstrap is not None else 0.95
    counts = res.corpus.unit_counts() if res.corpus is not None else {}
    units = ("% units: " + ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts.items())
             + " (docs/method.md §1.7-1.8)\n" if any(counts.values()) else "")
    small = _small_sample(res)
    with_ci = any(c.kind == "percent_interval" and r[i] for r in table.rows
                  for i, c in enumerate(table.columns))
    las = "LAS: universal relations, " if "LAS" in res.score_names else ""
    alpha = {f"alpha_{v}": f"$\\alpha_{{\\mathrm{{{v}}}}}$" for v in VARIANTS}
    return (f"% values: percent, one decimal; {las}LAS_full and LA: full DEPREL\n"
            + (f"% note: {plain(small)}\n" if small and with_ci else "")
            + f"% synagree signature: {plain(res.signature())}\n" + units
            + latex_paper(table, f"{100 * level:g}% CI", alpha)
            + _latex_extra(res)  # the options' metrics (--hierarchy, --bdm, --unlabelled, ...)
            + ("\n" + render_regression_latex(res.baseline.as_dict(), False)
               if res.baseline else ""))  # --baseline (method.md §18)


def _latex_extra(res: AgreementResult) -> str:
    """The sections' metrics (fractions; not the integer counts) as a second tabular in
    percent with one decimal (with a column of intervals under ``--bootstrap``), or ""
    when there are none."""
    extra = {k: x for sec in res.sections() for k, x in sec.metrics().items()
             if x is None or isinstance(x, float)}
    if not extra:
        return ""
    ci = res.intervals()
    level = res.bootstrap.level if res.bootstrap is not None else 0.95
    with_ci = any(ci.get(k) for k in extra)
    table = Table("further", [Column("metric"), Column("value", "percent", 1)]
                  + ([Column("value_ci", "percent_interval", 1)] if with_ci else []),
                  [[k, x, *([ci.get(k)] if with_ci else [])] for k, x in extra.items()],
                  title="further metrics (options), percent, one decimal",
                  notes=[_ci_note(level)] if with_ci else [])
    return "\n" + latex(table)


def _ci_note(level: float) -> str:
    """What the interval column ``value_ci`` of a table of metrics is."""
    return (f"value_ci: the {100 * level:g}% bootstrap percentile interval of the value "
            f"(in JSON and CSV under the metric's key with _ci)")


def summary_document(res: AgreementResult) -> Document:
    """The summary as the table model: a table of settings and counts, a table of
    the metrics (fractions, six decimals) with their bootstrap intervals, the
    notes, the unit line and the signature (what `render_markdown` writes).
    """
    ci = res.intervals()
    level = res.bootstrap.level if res.bootstrap is not None else 0.95
    settings: List[Tuple[str, Cell, str]] = []
    metrics = Table("metrics", [Column("metric"), Column("value", "number", 6),
                                Column("value_ci", "interval", 6)], notes=[_ci_note(level)])
    values = res.metrics()
    for k, v in summary_rows(res):
        x = values.get(k, v)
        if k in values and (x is None or isinstance(x, float)):
            metrics.add(k, x, ci.get(k))
        else:
            settings.append((k, x, "count" if k in values else "text"))
    if not any(ci.get(str(r[0])) for r in metrics.rows):  # no interval: no column
        metrics = Table("metrics", metrics.columns[:2], [r[:2] for r in metrics.rows])
    notes = list(res.notes) + ([s] if (s := _small_sample(res)) else [])
    return Document([key_value("settings", settings), metrics], notes=list(dict.fromkeys(notes)),
                    units=units_note(res),
                    signature=res.signature())


def render_markdown(res: AgreementResult) -> str:
    """The summary as Markdown pipe tables (`summary_document`), intervals ``[lo, hi]``;
    with ``--baseline`` its tables (`synagree.render.regression.render_regression`)."""
    return write(summary_document(res), "markdown") + (
        "\n" + render_regression(res.baseline.as_dict(), "markdown")  # --baseline (§18)
        if res.baseline else "")
