"""The ``bias``, ``drift`` and ``where`` sections as tables (`synagree.base.table`).

``agree --bias`` / ``categorical --bias`` (docs/method.md §25), ``agree --by``
(§26) and ``agree --where`` (§27) each add tables after the usual output:

``bias``          per annotator pair and layer: the Stuart–Maxwell test and the
                  flagged labels;
``bias_labels``   per pair, layer and label: the McNemar test, who uses the
                  label more, Holm's adjusted p;
``drift``         per batch in order: α per variant, the control band of the
                  chosen variant and whether the batch is inside it;
``where``         per query: units, matching words, α per variant, D_o and D_e.

Text, Markdown and LaTeX show at most `LABELS_SHOWN` label rows per pair and
layer (the flagged ones and the smallest p-values; a note says how many);
CSV and JSON hold every row.  Every format is the table model's writers
(`synagree.render.writers`); the text table is fitted to the terminal.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any, Iterator, List, Mapping, Optional, Sequence, Tuple

from synagree.agreement.bias import Bias
from synagree.agreement.drift import Drift
from synagree.agreement.where import Where
from synagree.base.jsonable import json_ready
from synagree.base.table import Cell, Column, Table
from synagree.render import writers
from synagree.render.writers import csv_table, sections_csv, write_table

__all__ = ["LABELS_SHOWN", "bias_tables", "drift_table", "where_table", "section_tables",
           "render_section_tables", "csv_sections", "long_rows"]

#: Label rows per pair and layer in the text, Markdown and LaTeX tables.
LABELS_SHOWN = 10


def _pair(first: str, second: str) -> str:
    return f"{first} × {second}"


def bias_tables(bias: Bias, shown: Optional[int] = None) -> List[Table]:
    """The ``bias`` and ``bias_labels`` tables of a `Bias` section.

    Parameters
    ----------
    bias : Bias
    shown : int, optional
        Label rows per pair and layer (flagged first, then by p); None: all.
    """
    pairs = Table("bias", [Column("layer"), Column("first"), Column("second"),
                           Column("items", "count"), Column("labels", "count"),
                           Column("stuart_maxwell", "number"),
                           Column("stuart_maxwell_df", "count"),
                           Column("stuart_maxwell_p", "number"), Column("flagged")],
                  title=f"Marginal homogeneity per annotator pair (Stuart-Maxwell; flagged: "
                        f"labels with Holm-adjusted McNemar p < {bias.significance:g}, "
                        f"and who uses them more)")
    labels = Table("bias_labels", [Column("layer"), Column("first"), Column("second"),
                                   Column("label"), Column("first_count", "count"),
                                   Column("second_count", "count"),
                                   Column("first_only", "count"),
                                   Column("second_only", "count"), Column("more"),
                                   Column("mcnemar_p", "number"),
                                   Column("mcnemar_p_holm", "number"), Column("flagged")],
                   title="Per label: McNemar's exact test of the label against the rest "
                         "(first_count, second_count: words each annotator gives the label; "
                         "first_only, second_only: words only that annotator gives it; more: "
                         "who gives it more often; mcnemar_p_holm: mcnemar_p adjusted by "
                         "Holm over the labels of the pair and layer)")
    cut = untested = 0
    for p in bias.pairs:
        pairs.add(p.layer, p.first, p.second, p.items, len(p.labels), p.test.statistic,
                  p.test.df, p.test.p, ", ".join(f"{x.label} ({p.who(x)})" for x in p.flagged))
        rows = sorted(p.labels, key=lambda x: (not x.flagged, 2.0 if x.p is None else x.p,
                                               x.label))
        if shown is not None:  # the labels without a discordant word, then the largest p
            tested = [x for x in rows if x.p is not None]
            untested += len(rows) - len(tested)
            cut += max(0, len(tested) - shown)
            rows = tested[:shown]
        for x in rows:
            labels.add(p.layer, p.first, p.second, x.label, x.first, x.second, x.first_only,
                       x.second_only, p.who(x), x.p, x.p_holm, "yes" if x.flagged else "")
    if untested:
        labels.notes.append(f"{untested} label row(s) on which the two never differ (nothing "
                            f"to test) left out here; JSON and CSV hold all")
    if cut:
        labels.notes.append(f"{cut} label row(s) with larger p left out here "
                            f"({shown} per pair and layer); JSON and CSV hold all")
    pairs.notes.extend(bias.notes)
    return [pairs, labels]


def drift_table(d: Drift) -> Table:
    """The ``drift`` table: one row per batch, in order."""
    v = d.variant
    variants = list(d.d_e)
    t = Table("drift", [Column("batch"), Column("units", "count"),
                        Column("annotations", "count"), Column("first_unit"),
                        Column("last_unit"),
                        *(Column(f"alpha_{x}", "number") for x in variants),
                        Column(f"alpha_{v}_band", "interval"), Column("status")],
              title=f"Alpha per batch (--by {d.by.describe()}, in order; the corpus's D_e), "
                    f"with the {d.level:g} control band of alpha_{v}: a batch outside it "
                    f"is below or above")
    for b in d.batches:
        t.add(b.name, b.units, b.annotations, b.first, b.last,
              *(b.alpha.get(x) for x in variants), b.band.get(v), b.status(v))
    t.notes.extend(d.notes)
    return t


def where_table(w: Where) -> Table:
    """The ``where`` table: one row per query."""
    variants = w.variants
    first = variants[0] if variants else "plain"
    t = Table("where", [Column("query"), Column("units", "count"),
                        Column("annotations", "count"), Column("matching_words"),
                        *(Column(f"alpha_{v}", "number") for v in variants),
                        Column(f"d_o_{first}", "number"), Column(f"d_e_{first}", "number")],
              title="Alpha over each query: trees pruned to the matching words and their "
                    "paths to the root, D_e over the same restriction (docs/method.md §27)")
    for r in w.rows:
        st = r.stats.get(first)
        t.add(r.query, r.units, r.annotations,
              ", ".join(f"{a} {n}" for a, n in r.matches.items()),
              *(r.alpha_value(v) for v in variants),
              st.d_o if st is not None and st.n else None,
              st.d_e if st is not None and st.n > 1 else None)
    t.notes.extend(w.notes)
    return t


def section_tables(res, shown: Optional[int] = None) -> List[Table]:
    """The tables of the result's ``bias``, ``drift`` and ``where`` sections, in order."""
    out: List[Table] = []
    if getattr(res, "bias", None) is not None:
        out += bias_tables(res.bias, shown)
    if getattr(res, "drift", None) is not None:
        out.append(drift_table(res.drift))
    if getattr(res, "where", None) is not None:
        out.append(where_table(res.where))
    return out


def _cell(v, c: Column) -> Cell:
    if c.header.endswith(("_p", "_p_holm")) and isinstance(v, float) and 0 < v < 1e-4:
        return f"{v:.1e}"  # a p-value too small for four decimals (written as it is)
    return v


def _text(table: Table) -> str:
    """The table as text (`synagree.render.writers.text`: its column kinds, numbers
    right-aligned, text cut and marked on a terminal only), headed by the same keys as
    the other formats (the registry's)."""
    return writers.text(Table(table.name, list(table.columns),
                              [[_cell(v, c) for v, c in zip(r, table.columns)]
                               for r in table.rows], title=table.title, notes=table.notes))


def render_section_tables(tables: Sequence[Table], fmt: str) -> str:
    """The tables as text (fitted to the terminal), Markdown or LaTeX, with their notes.

    (CSV output joins `csv_sections` into one table instead.)
    """
    if fmt == "table":
        return "\n".join(_text(t) for t in tables)
    return "\n".join(write_table(t, fmt) for t in tables)


def render_record(record: Mapping[str, Any], tables: Sequence[Table], notes: Sequence[str],
                  fmt: str, signature: str = "") -> str:
    """A result that is one JSON ``record`` and some ``tables``, in ``fmt``.

    JSON: the record; CSV: the tables as one (`sections_csv`, the notes and
    the signature as rows); text, Markdown, LaTeX: `render_section_tables`
    (alt-test, ``agree --runs/--retest``, ``spans --coefficient``).
    """
    if fmt == "json":
        return json.dumps(json_ready(dict(record)), indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return sections_csv(csv_sections(tables), list(notes), signature)
    return render_section_tables(tables, fmt)


def csv_sections(tables: Sequence[Table]) -> List[Tuple[str, str]]:
    """``(name, csv_text)`` per table, for `synagree.render.rows.sections_csv`."""
    return [(t.name, csv_table(t)) for t in tables]


def long_rows(tables: Sequence[Table]) -> Iterator[Tuple[str, str, str, str, str]]:
    """Every cell as a ``(section, bin, bin2, quantity, value)`` row of the breakdown's
    long CSV: ``section`` the table's name, ``bin`` the row's number (1, 2, ...),
    ``quantity`` the column (intervals as ``_low``/``_high``), ``value`` the CSV cell.
    """
    for t in tables:
        header, *rows = list(csv.reader(io.StringIO(csv_table(t))))
        for k, values in enumerate(rows, start=1):
            for q, val in zip(header, values):
                yield (t.name, str(k), "", q, val)
