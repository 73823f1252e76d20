"""Rendering of parser evaluations (``synagree compare``).

A table per system, the scorer's layout, JSON, CSV and LaTeX.
"""
import csv
import io
import json
from typing import List, Tuple

from synagree.base.escape import csv_cell, plain
from synagree.base.jsonable import json_ready
from synagree.base.problems import InputError
from synagree.base.table import Cell, Column, Document, Table
from synagree.evaluation.compare import BREAKDOWNS, CompareResult, SystemResult
from synagree.evaluation.conll18 import ENHANCED_METRICS, OFFICIAL_METRICS, render_scorer_table
from synagree.render import writers
from synagree.render.aligned import (
    bins_table,
    confusion_table,
    significance_table,
    tables_text,
)
from synagree.render.prf import (
    COMPARE_PRF_NOTES,
    LATEX_PRF_VARIANTS,
    compare_prf_csv_rows,
    compare_prf_tables,
    render_compare_prf,
)
from synagree.render.regression import regression_csv_rows, render_regression
from synagree.stats.alpha import VARIANTS


def render_table(res: CompareResult, top: int = 10) -> str:
    r"""One column per system: F1 of every score and α, in percent.

    The table is `scores_table` (with ``--bootstrap`` a column ``<system>_ci`` of
    intervals beside each system) and the rows ``units`` (and ``joined units``),
    written by `synagree.render.writers.text`; then the breakdowns (``top``
    confusions), significance tests and notes.

    Parameters
    ----------
    res : CompareResult
    top : int
        Confusions listed per system.
    """
    table = scores_table(res, prf=False)
    with_ci = [c.kind == "percent_interval" for c in table.columns[1:]]
    # counts as text cells: the system columns are percent (`Table` types columns)
    table.add("units", *(str(len(s.units)) if not ci else ""
                         for s, ci in _per_column(res, with_ci)))
    if any(s.joined_units for s in res.systems):
        table.add("joined units", *(str(s.joined_units) if not ci else ""
                                    for s, ci in _per_column(res, with_ci)))
    out = [f"gold: {plain(res.gold)} ({res.gold_sentences} sentences, {res.gold_words} words)"]
    if res.hierarchy is not None:
        out.append(f"hierarchy: {res.hierarchy} (LAS_hier: head correct x label credit)")
        out += _credit_settings(res)
    # the notes, values: and signature as every command's (`writers.write`), then the
    # tables of --breakdown, --significance, --prf and --baseline
    doc = Document([table], notes=list(res.notes), units=compare_units(res),
                   signature=res.signature())
    return "\n".join(out) + "\n" + writers.write(doc, "table") + _extras(res, top, notes=False)


def _per_column(res: CompareResult, with_ci: List[bool]) -> List[Tuple[SystemResult, bool]]:
    """The system of each column after the first of `scores_table`, and whether the
    column is its interval column."""
    out: List[Tuple[SystemResult, bool]] = []
    systems = iter(res.systems)
    for ci in with_ci:
        out.append((out[-1][0] if ci else next(systems), ci))
    return out


def compare_units(res: CompareResult) -> str:
    """The ``values:`` line of `compare`'s tables: what each number is, in percent."""
    return ("percent; the official scorer's metrics (Tokens ... BLEX) are its F1, with LAS "
            "on universal relations as the scorer defines it; LAS_full: F1 of head and full "
            "DEPREL; alpha_*: Krippendorff's alpha x 100 between gold and system; units: "
            "sentences (count)"
            + ("; ELAS/EULAS: F1 of enhanced (DEPS) edges, full / universal labels"
               if any(m in res.rows() for m in ENHANCED_METRICS) else ""))


def render_markdown(res: CompareResult) -> str:
    r"""The scores as a Markdown table (`scores_table`, intervals ``[lo, hi]``), with
    the notes, the ``values:`` line and the signature; with ``--prf`` its summaries
    (`compare_prf_tables`), with ``--significance`` its tests (`significance_table`),
    with ``--baseline`` its tables (`render_regression`).  The breakdowns are text, CSV
    and JSON only (a note says so when they were asked for)."""
    notes = [n for s in res.systems for v in (s.prf or {}).values() for n in v.notes]
    notes += list(res.notes)
    if any(s.breakdowns for s in res.systems):
        notes.append("the tables of --breakdown are in --output table, csv and json")
    prf = compare_prf_tables(res, notes=False)  # --prf (docs/method.md §17)
    notes += list(COMPARE_PRF_NOTES) if prf else []
    sig = ([significance_table(res.significance, "units")]
           if res.significance is not None else [])  # --significance (method §11.5)
    return writers.write(Document([scores_table(res), *prf, *sig], notes=notes,
                                  units=compare_units(res), signature=res.signature()),
                         "markdown") + _baseline(res, "markdown")


def _baseline(res: CompareResult, fmt: str) -> str:
    """With ``--baseline`` (docs/method.md §18): a blank line and its tables in ``fmt``
    (percent, as the scores); else ""."""
    if res.baseline is None:
        return ""
    return "\n" + render_regression(res.baseline.as_dict(), fmt, percent=True)


def _credit_settings(res: CompareResult) -> List[str]:
    """The ``--tag-syntax``/``--bdm``/``--wu-palmer`` line of the table (docs/method.md §15)."""
    if res.tag_syntax == "plain" and not res.bdm and not res.wu_palmer:
        return []
    return [f"tag syntax: {res.tag_syntax}"
            + ("; LAS_bdm: head correct x GATE BDM of the labels" if res.bdm else "")
            + ("; LAS_wup: head correct x Wu-Palmer closeness of the labels"
               if res.wu_palmer else "")]


def _extras(res: CompareResult, top: int = 10, notes: bool = True) -> str:
    parts = []
    if any(s.breakdowns for s in res.systems):
        parts.append(render_breakdowns(res, top))
    if res.significance is not None:
        parts.append(render_significance(res))
    if any(s.prf for s in res.systems):
        parts.append(render_compare_prf(res))
    if res.baseline is not None:  # --baseline (docs/method.md §18)
        parts.append(_baseline(res, "table")[1:])
    if notes and res.notes:
        parts.append("".join(f"note: {plain(n)}\n" for n in res.notes))
    return "".join("\n" + p for p in parts)


def render_verbose(res: CompareResult, top: int = 10) -> str:
    r"""One system: the scorer's ``-v`` table (+ LAS_full, LAS_hier), then α
    (`verbose_alpha_table`, written by `synagree.render.writers.text`).

    Raises
    ------
    InputError
        More than one system (``usage``).
    """
    if len(res.systems) != 1:
        raise InputError.single("<command line>", None, "usage",
                                "-v (the scorer's table) needs exactly one system file")
    s = res.systems[0]
    # the scorer's metrics, ELAS/EULAS after BLEX as udeval prints them, then the
    # registry's other scores of the system (LAS_full, LAS_hier, ...; docs/method.md §15)
    # the scorer's own numbers first: ELAS/EULAS as it prints them, 0.00 for a system
    # without DEPS too (compare's other tables leave them out, with a note)
    scores = {**(dict(s.conll18.scores) if s.conll18 is not None else {}), **s.scores}
    metrics = (list(OFFICIAL_METRICS) + [m for m in ENHANCED_METRICS if m in scores]
               + [m for m in res.rows() if m in scores and m not in OFFICIAL_METRICS
                  and m not in ENHANCED_METRICS])
    out = render_scorer_table(scores, True, metrics) + "\n"
    if s.alpha is not None:  # not the scorer's: the table model (writers.text)
        out += "\n" + writers.text(verbose_alpha_table(res))
    return out + _extras(res, top)


def verbose_alpha_table(res: CompareResult) -> Table:
    """α per variant between gold and the one system, in percent (two decimals), as
    ``-v`` prints it under the scorer's table; an α that is undefined is "–"."""
    s = res.systems[0]
    return Table("alpha", [Column("metric"), Column("value", "percent", 2)],
                 [[f"alpha_{v}", s.alpha_value(v)] for v in VARIANTS],
                 title="Krippendorff's alpha between gold and system, percent")


def render_breakdowns(res: CompareResult, top: int = 10) -> str:

    r"""The breakdown tables (precision, recall, F1 per bin) and the top confusions.

    Parameters
    ----------
    res : CompareResult
        Computed with ``breakdown=True``.
    top : int
    """
    tables: List[Table] = []
    for s in res.systems:
        if not s.breakdowns:
            continue
        for name, bins in s.breakdowns.items():
            title = BREAKDOWNS[name].title if name in BREAKDOWNS else name
            if name == "relation" and res.full_labels:
                title += ", full labels"
            uas = name != "relation"
            tables.append(bins_table(
                f"breakdown_{name}", f"{s.name}: LAS by {title}", [name],
                ["gold", "system", "correct"],
                [[b.bin, b.gold, b.system, b.las, b.precision, b.recall, b.f1,
                  *([b.uas_f1] if uas else [])] for b in bins], ["UAS"] if uas else []))
        if s.confusion is not None:
            tables.append(confusion_table(
                "confusion", f"{s.name}: most frequent relation confusions (aligned words "
                f"with the correct head)", s.confusion.top(top)))
    return tables_text(tables)


def render_significance(res: CompareResult) -> str:
    r"""The significance tests as a text table ("" without tests)."""
    if res.significance is None:
        return ""
    return writers.text(significance_table(res.significance, "units"))


def render_json(res: CompareResult) -> str:
    r"""`CompareResult.as_dict` as indented JSON (NaN as null)."""
    return json.dumps(json_ready(res.as_dict()), indent=2, ensure_ascii=False) + "\n"


CSV_COLUMNS = ("section", "system", "metric", "bin", "value", "correct", "gold", "predicted",
               "aligned", "precision", "recall", "f1", "versus", "diff", "ci_low", "ci_high",
               "p_bootstrap", "p_randomisation")


def render_csv(res: CompareResult) -> str:
    r"""Long format, one row per number group; columns `CSV_COLUMNS`.

    The notes of the text table are rows of section ``note`` (text in
    ``value``; a P/R/F note names its system and variant in ``system`` and
    ``metric``).
    """

    buf = io.StringIO()
    w = csv.DictWriter(buf, CSV_COLUMNS, lineterminator="\n")
    w.writeheader()

    def row(**kw):
        w.writerow({k: csv_cell("" if v is None else (repr(v) if isinstance(v, float) else v))
                    for k, v in kw.items()})

    for s in res.systems:
        for m, sc in s.scores.items():
            if m in res.omitted:
                continue
            iv = s.intervals.get(m)
            row(section="score", system=s.name, metric=m, value=sc.f1, correct=sc.correct,
                gold=sc.gold_total, predicted=sc.system_total, aligned=sc.aligned_total,
                precision=sc.precision, recall=sc.recall, f1=sc.f1,
                ci_low=iv[0] if iv else None, ci_high=iv[1] if iv else None)
        if s.alpha is not None:
            for v in VARIANTS:
                iv = s.intervals.get(f"alpha_{v}")
                row(section="alpha", system=s.name, metric=f"alpha_{v}", value=s.alpha_value(v),
                    ci_low=iv[0] if iv else None, ci_high=iv[1] if iv else None)
        for name, bins in (s.breakdowns or {}).items():
            for b in bins:
                row(section=f"breakdown:{name}", system=s.name, metric="LAS", bin=b.bin,
                    value=b.f1, correct=b.las, gold=b.gold, predicted=b.system,
                    aligned=b.aligned, precision=b.precision, recall=b.recall, f1=b.f1)
        if s.confusion is not None:
            for g, sy, c, ex in s.confusion.top(None):
                row(section="confusion", system=s.name, metric=f"{g}->{sy}", bin=ex, value=c)
        for kw in compare_prf_csv_rows(s.name, s.prf or {}):
            row(**kw)
    if res.significance is not None:
        for t in res.significance.pairs:
            row(section="significance", system=t.a, versus=t.b, metric=t.metric,
                value=t.value_a, diff=t.diff, ci_low=t.ci[0] if t.ci else None,
                ci_high=t.ci[1] if t.ci else None, p_bootstrap=t.p_bootstrap,
                p_randomisation=t.p_randomisation)
    if res.baseline is not None:  # --baseline (docs/method.md §18)
        for r in regression_csv_rows(res.baseline.as_dict()):
            row(**r)
    for s in res.systems:  # the notes of the text table: section note, text in value
        for variant, p in (s.prf or {}).items():
            for n in p.notes:
                row(section="note", system=s.name, metric=variant, value=n)
    for n in res.notes:
        row(section="note", value=n)
    row(section="signature", value=res.signature())
    return buf.getvalue()


def scores_table(res: CompareResult, prf: bool = True) -> Table:
    r"""The summary as the table model: one row per metric (`CompareResult.rows`), one
    column per system (percent, 2 decimals), and with ``--bootstrap`` a column
    ``<system>_ci`` of each system's intervals beside it; then (``prf``) the macro F1
    of ``--prf``.

    Every format writes it: the text table (`render_table`, which adds the rows of
    units and lists ``--prf`` in tables of its own), Markdown and LaTeX.
    """
    with_ci = [any(s.intervals.get(r) for r in res.rows()) for s in res.systems]
    cols = [Column("metric")]
    for s, ci in zip(res.systems, with_ci):
        cols.append(Column(s.name, "percent", 2))
        if ci:
            cols.append(Column(f"{s.name}_ci", "percent_interval", 2))
    table = Table("scores", cols)
    for r in res.rows():
        cells: List[Cell] = [r]
        for s, ci in zip(res.systems, with_ci):
            cells.append(s.value(r))
            if ci:
                cells.append(s.intervals.get(r))
        table.add(*cells)
    for v in LATEX_PRF_VARIANTS if prf else ():  # compare --prf (docs/method.md §17)
        if all(s.prf and v in s.prf for s in res.systems):
            cells = [f"macro F1 {v}"]
            for s, ci in zip(res.systems, with_ci):
                cells += [s.prf[v].macro_f1 if s.prf else None] + ([None] if ci else [])
            table.add(*cells)
    return table


def render_latex(res: CompareResult) -> str:
    r"""A booktabs table (`scores_table`): one row per metric, one column per system,
    F1 and α in percent (2 decimals), intervals ``[lo, hi]`` beside them; with
    ``--significance`` the tests' table (`significance_table`)."""
    ci = ("; CI: bootstrap percentile interval (level in the signature)"
          if any(s.intervals for s in res.systems) else "")
    head = [f"% values: percent{ci}", f"% synagree signature: {plain(res.signature())}"]
    sig = ("\n" + writers.latex(significance_table(res.significance, "units"))
           if res.significance is not None else "")  # --significance (method §11.5)
    return ("\n".join(head) + "\n" + writers.latex(scores_table(res)) + sig
            + _baseline(res, "latex"))


def render(res: CompareResult, output: str = "table", verbose: bool = False,
           top: int = 10) -> str:
    r"""A comparison in one output format.

    Parameters
    ----------
    res : CompareResult
    output : {"table", "json", "csv", "latex"}
    verbose : bool
        With ``table``: the scorer's layout (one system only).
    top : int
        Confusions listed per system.

    Raises
    ------
    ValueError
        Unknown format.
    """
    if output == "table":
        return render_verbose(res, top) if verbose else render_table(res, top)
    writers = {"json": render_json, "csv": render_csv, "latex": render_latex,
               "markdown": render_markdown}
    writer = writers.get(output)
    if writer is not None:
        return writer(res)
    raise ValueError(f"unknown output format {output!r}; expected one of "
                     f"{('table', *writers)}")
