"""Rendering of tag evaluations (``synagree tags``): table, JSON, CSV."""
import csv
import io
from typing import List, Optional, Tuple

from synagree.base.escape import csv_row, plain
from synagree.base.jsonable import finite_or_none
from synagree.base.table import Column, Document, Table, format_value, key_value
from synagree.evaluation.tags import TagsResult
from synagree.render.features import SCORE_HEADER, feature_score_rows, feature_score_table
from synagree.render.fit import signature_text
from synagree.render.prf import TAGS_LEGEND, append_prf_csv, prf_tables, render_tags_prf
from synagree.render.questions import csv_sections, render_section_tables
from synagree.render.rows import sections_csv
from synagree.render.tiers import (
    lexicon_csv,
    majority_csv,
    tiers_csv,
    tiers_table_lines,
    tiers_tables,
)
from synagree.render.writers import json_text, values_line, write
from synagree.stats.gate_prf import BDMCounts
from synagree.stats.gwet import gwet_table

#: the output formats of ``synagree tags``
TAGS_OUTPUTS = ("table", "json", "csv", "markdown", "latex")


# ---------------------------------------------------------------- rendering
def render_tags(res: TagsResult, output: str = "table") -> str:
    r"""A `TagsResult` as ``table`` (summary + per-tag rows), ``json`` or ``csv``.

    CSV is one table (`synagree.render.rows.sections_csv`): section ``tags``
    has one row per gold tag, after an ``ALL`` row; the notes and the
    settings signature are rows of their own.  With
    ``--tag-syntax alternatives``, ``--bdm`` and ``--wu-palmer``
    (docs/method.md §15, §23) every format gains the sums and means
    (``alt_correct``/``accuracy_alt``, ``bdm``/``accuracy_bdm``,
    ``wup``/``accuracy_wup``; with ``--bdm`` also GATE's BDM-based precision,
    recall and F1, on the ``ALL`` row of the CSV), and the table the counts
    of words with alternatives.  With per-feature scores (``--per-feature``) CSV has one
    row per feature instead, after ``ALL`` and ``UFeats`` rows
    (`synagree.render.features.feature_score_rows`), and the table shows
    them after the per-tag rows.  With tiers (`TagsResult.tiers`) the table
    goes on, after a blank line, with the tiers table of
    `synagree.render.tiers`, and the CSV adds section ``tiers``.

    ``res`` is a `TagsResult`; ``output`` one of `TAGS_OUTPUTS` (any other
    raises ValueError); Markdown and LaTeX write `tags_document`.
    """
    if output == "json":
        return json_text(res.to_dict())
    if output == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        if res.per_feature is not None:  # docs/method.md §19.4
            w.writerow(SCORE_HEADER)
            w.writerows(csv_row(r) for r in feature_score_rows(res.per_feature))
            if res.prf is not None:  # one table per CSV document: the CLI refuses both
                raise ValueError("CSV holds either the per-feature rows or the P/R/F rows; "
                                 "use JSON for both")
            if res.tiers is not None:  # likewise: the CLI refuses both
                raise ValueError("CSV holds either the per-feature rows or the tiers rows; "
                                 "use JSON for both")
            return sections_csv([("per_feature", buf.getvalue())], tags_notes(res),
                                res.signature())
        extra = _csv_extra_columns(res)
        w.writerow(["tag", "count", "exact", "accuracy", "accuracy_hier", "confusion",
                    "confusion_count"] + extra)
        w.writerow(["ALL", res.words, res.exact, repr(finite_or_none(res.accuracy)),
                    repr(finite_or_none(res.mean_credit)), "", ""]
                   + _csv_extra(extra, res.credit, res.alt_correct, res.bdm, res.words, res.wup,
                                res.bdm_prf))
        for r in res.per_tag:
            w.writerow(csv_row([r.tag, r.count, r.exact, repr(finite_or_none(r.accuracy)),
                                repr(finite_or_none(r.mean_credit)), r.confusion or "",
                                r.confusion_count]
                               + _csv_extra(extra, r.credit, r.alt_correct, r.bdm, r.count,
                                            r.wup)))
        text = buf.getvalue()
        if res.prf is not None:  # tags --prf (docs/method.md §17)
            text = append_prf_csv(text, res.prf)
        parts = [("tags", text)]  # one table per CSV file (docs/output.md)
        if res.gwet is not None:  # --coefficient (docs/method.md §34.1)
            parts += csv_sections([_gwet(res)])
        if res.tiers is not None:
            parts.append(("tiers", tiers_csv(res.tiers)))
            if res.tiers.ambiguity is not None:  # --majority (docs/method.md §16.4)
                parts.append(("majority", majority_csv(res.tiers)))
            if res.tiers.lexicon is not None:  # --lexicon (docs/method.md §16.5)
                parts.append(("lexicon", lexicon_csv(res.tiers)))
        return sections_csv(parts, tags_notes(res), res.signature())
    if output in ("markdown", "latex"):
        return write(tags_document(res), output)
    if output != "table":
        raise ValueError(f"unknown output format {output!r}; expected one of {TAGS_OUTPUTS}")
    summary = _summary_rows(res)
    kw = max(len(k) for k, _ in summary)
    lines = [plain(f"{k:<{kw}}  {v}") for k, v in summary]
    if res.added_tags:
        shown = ", ".join(res.added_tags[:20]) + (" ..." if len(res.added_tags) > 20 else "")
        lines.append(plain(f"note: {len(res.added_tags)} tag(s) not in the hierarchy were added "
                           f"as top-level tags (no partial credit): {shown}"))
    lines.extend(plain(f"note: {n}") for n in res.notes)
    head = ["gold tag", "count", "exact", "credit", "most frequent confusion"]
    body = [[plain(r.tag), str(r.count), format_value(r.accuracy, missing="undefined"),
             format_value(r.mean_credit, missing="undefined"),
             plain(f"{r.confusion} ({r.confusion_count})") if r.confusion else "-"]
            for r in res.per_tag]
    left = (0, 4)
    if res.alt_correct is not None or res.bdm is not None or res.wup is not None:
        names = (["alt"] if res.alt_correct is not None else []) + (  # docs/method.md §15
            ["bdm"] if res.bdm is not None else []) + (["wup"] if res.wup is not None else [])
        head[4:4] = names
        for r, row in zip(res.per_tag, body):
            row[4:4] = [format_value(x, missing="undefined") for x, shown in
                        ((r.alt_accuracy, res.alt_correct), (r.mean_bdm, res.bdm),
                         (r.mean_wup, res.wup)) if shown is not None]
        left = (0, len(head) - 1)
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    lines.append("")

    def fmt(row: List[str]) -> str:
        return "  ".join(c.ljust(widths[i]) if i in left else c.rjust(widths[i])
                         for i, c in enumerate(row)).rstrip()

    lines.append(fmt(head))
    lines.extend(fmt(r) for r in body)
    if res.prf is not None:  # tags --prf (docs/method.md §17)
        lines += ["", render_tags_prf(res.prf).rstrip("\n")]
    if res.per_feature is not None:
        lines += ["", feature_score_table(res.per_feature).rstrip("\n")]
    if res.gwet is not None:  # --coefficient (docs/method.md §34.1)
        lines += ["", render_section_tables([_gwet(res)], "table").rstrip("\n")]
    tail = _tiers_part(res, "table") + "\n" + values_line(TAGS_UNITS, "table") + (
        f"{signature_text(plain(res.signature()))}\n" if res.settings else "")
    return "\n".join(lines) + "\n" + tail


def _gwet(res: TagsResult) -> Table:
    """The ``gwet`` table of ``tags --coefficient``: gold and system as two raters."""
    assert res.gwet is not None
    return gwet_table({res.column: res.gwet}, f"Gwet's {res.settings.get('gwet', '')} "
                      f"(gold and system as two raters; Gwet's standard error)",
                      first="column")


def _summary_rows(res: TagsResult) -> List[Tuple[str, str]]:
    """``(name, value)`` rows of the summary: files, counts, the scores (six
    decimals) and their intervals."""
    summary = [("gold", res.gold_file), ("system", res.system_file), ("column", res.column),
               ("hierarchy", res.hierarchy), ("sentences", str(res.sentences)),
               ("words", str(res.words))]
    summary += [(k, format_value(x, digits=6, missing="undefined")) for k, x in
                (("accuracy", res.accuracy), ("hierarchical credit", res.mean_credit),
                 ("Cohen's kappa", res.cohen_kappa), ("Scott's pi", res.scott_pi),
                 ("hierarchical kappa", res.hierarchical_kappa))]
    summary += _summary_extra(res)
    for name, label in (("accuracy", "accuracy"), ("cohen_kappa", "Cohen's kappa"),
                        ("scott_pi", "Scott's pi")):
        if name in res.intervals:  # --bootstrap B: percentile intervals over sentences
            iv = res.intervals[name]
            summary.append((f"{label} {_level(res)} CI", "-" if iv is None else
                            "[" + ", ".join(format_value(x, digits=6, missing="undefined")
                                            for x in iv) + "]"))
    if res.form_mismatches:
        summary.append(("form mismatches", str(res.form_mismatches)))
    return summary


def tags_document(res: TagsResult) -> Document:
    """The tags result as the table model (what ``--output markdown`` and ``latex``
    write): the summary, one row per gold tag under registered keys, the notes,
    the ``values:`` line and the signature; with ``--prf`` and ``--tiers`` their tables
    (`prf_tables`, `tiers_tables`, which hold the ``--majority`` and ``--lexicon``
    tables).  The per-feature tables are text, CSV and JSON only (a note says so when
    they were asked for).
    """
    cols = [Column("tag"), Column("count", "count"), Column("accuracy", "number"),
            Column("accuracy_hier", "number")]
    extra = [(k, shown) for k, shown in (("accuracy_alt", res.alt_correct),
                                         ("accuracy_bdm", res.bdm), ("accuracy_wup", res.wup))
             if shown is not None]
    cols += [Column(k, "number") for k, _ in extra] + [Column("confusion")]
    per_tag = Table("per_tag", cols, title="Per gold tag")
    for r in res.per_tag:
        per_tag.add(r.tag, r.count, r.accuracy, r.mean_credit,
                    *[{"accuracy_alt": r.alt_accuracy, "accuracy_bdm": r.mean_bdm,
                       "accuracy_wup": r.mean_wup}[k] for k, _ in extra],
                    f"{r.confusion} ({r.confusion_count})" if r.confusion else "")
    notes = list(tags_notes(res))
    tiers = res.tiers
    if res.per_feature is not None:
        notes.append("the tables of --per-feature are in --output table, csv and json")
    prf = prf_tables(res.prf, notes=False) if res.prf is not None else []  # §17
    tier = tiers_tables(tiers) if tiers is not None else []  # §16
    return Document([key_value("summary", [(k, v, "text") for k, v in _summary_rows(res)]),
                     per_tag, *prf, *tier], notes=notes, units=TAGS_UNITS,
                    signature=res.signature())


#: what the numbers of the tags table are (its ``values:`` line)
TAGS_UNITS = ("fractions (0 to 1): accuracy, credit, kappa, pi and the per-tag scores; "
              "counts: sentences, words, the per-tag count of gold words")


def _level(res: TagsResult) -> str:
    """The interval level of ``--bootstrap`` as a percentage, e.g. ``95%``."""
    return f"{res.level * 100:g}%"


def _summary_extra(res: TagsResult) -> List[Tuple[str, str]]:
    """Summary rows of ``--tag-syntax alternatives``, ``--bdm``, ``--wu-palmer`` (method §15)."""
    rows: List[Tuple[str, str]] = []
    if res.tag_syntax != "plain" or res.bdm is not None or res.wup is not None:
        rows.append(("tag syntax", res.tag_syntax))
    if res.alt_correct is not None:
        rows += [("accuracy with alternatives",
                  format_value(res.alt_accuracy, digits=6, missing="undefined")),
                 ("gold words with alternatives", str(res.gold_alternatives)),
                 ("system words with alternatives",
                  f"{res.system_alternatives} ({res.system_probabilities} with probabilities)")]
    if res.bdm is not None:
        rows.append(("BDM credit (GATE)",
                     format_value(res.mean_bdm, digits=6, missing="undefined")))
    if res.bdm_prf is not None:  # GATE's BDM-based P/R/F1 (docs/method.md §23.3)
        b = res.bdm_prf
        rows.append(("BDM P / R / F1 (GATE)",
                     " / ".join(format_value(x, digits=6, missing="undefined")
                                for x in (b.precision(), b.recall(), b.f1()))))
    if res.wup is not None:
        rows.append(("Wu-Palmer credit",
                     format_value(res.mean_wup, digits=6, missing="undefined")))
    return rows


def _csv_extra_columns(res: TagsResult) -> List[str]:
    cols: List[str] = []
    if res.alt_correct is not None or res.bdm is not None or res.wup is not None:
        cols.append("credit")
    if res.alt_correct is not None:
        cols += ["alt_correct", "accuracy_alt"]
    if res.bdm is not None:
        cols += ["bdm", "accuracy_bdm"]
    if res.bdm_prf is not None:
        cols += ["bdm_precision", "bdm_recall", "bdm_f1"]
    if res.wup is not None:
        cols += ["wup", "accuracy_wup"]
    return cols


def _csv_extra(cols: List[str], credit: float, alt: Optional[float], bdm: Optional[float],
               count: int, wup: Optional[float] = None,
               bdm_prf: Optional[BDMCounts] = None) -> List[str]:
    values = {"credit": credit, "alt_correct": alt, "bdm": bdm, "wup": wup,
              "accuracy_alt": None if alt is None or not count else alt / count,
              "accuracy_bdm": None if bdm is None or not count else bdm / count,
              "accuracy_wup": None if wup is None or not count else wup / count,
              "bdm_precision": None if bdm_prf is None else bdm_prf.precision(),
              "bdm_recall": None if bdm_prf is None else bdm_prf.recall(),
              "bdm_f1": None if bdm_prf is None else bdm_prf.f1()}
    return [repr(finite_or_none(values[c])) for c in cols]


def tags_notes(res: TagsResult) -> List[str]:
    r"""The notes of the text table of `render_tags`, in its order (without ``note: ``)."""
    notes: List[str] = []
    if res.added_tags:
        shown = ", ".join(res.added_tags[:20]) + (" ..." if len(res.added_tags) > 20 else "")
        notes.append(f"{len(res.added_tags)} tag(s) not in the hierarchy were added as "
                     f"top-level tags (no partial credit): {shown}")
    notes += res.notes
    for r in (res.prf or {}).values():
        notes += r.notes
    if res.prf is not None:  # what strict, lenient, micro and macro are (§17)
        notes.append(TAGS_LEGEND)
    if res.tiers is not None and res.tiers.own_class:
        own = res.tiers.own_class
        shown = ", ".join(own[:20]) + (" ..." if len(own) > 20 else "")
        notes.append(f"{len(own)} tag(s) not in the mapping were made their own coarse "
                     f"class: {shown}")
    return notes


def _tiers_part(res: TagsResult, output: str) -> str:
    """With ``--tiers``: a blank line and the tiers table (docs/method.md §16); else ``""``."""
    if res.tiers is None:
        return ""
    return "\n" + "\n".join(tiers_table_lines(res.tiers)) + "\n"
