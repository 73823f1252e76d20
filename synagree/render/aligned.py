"""The tables that the comparison commands (``compare``, PARSEVAL) share, as the
table model: a breakdown by bin (precision, recall and F1 in percent), the most
frequent confusions, and the significance tests; written by
`synagree.render.writers` (text fitted to the terminal, unlimited on a pipe).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, Tuple

from synagree.base.table import Cell, Column, Table
from synagree.render import writers

if TYPE_CHECKING:  # only a type here: PARSEVAL's renderer imports no numpy
    from synagree.stats.significance import SignificanceResult

__all__ = ["bins_table", "confusion_table", "significance_table",
           "tables_text"]


def bins_table(name: str, title: str, first: Sequence[str], counts: Sequence[str],
               rows: Sequence[Sequence[Cell]], extra: Sequence[str] = ()) -> Table:
    """A breakdown by bin: the ``first`` text columns (the bin), the ``counts``
    columns, then ``precision``, ``recall``, ``f1`` in percent (two decimals) and the
    ``extra`` percent columns (``UAS``: its F1 in the bin); ``rows`` hold the values
    (fractions) in that order."""
    cols = ([Column(h) for h in first] + [Column(h, "count") for h in counts]
            + [Column(h, "percent", 2) for h in ("precision", "recall", "f1", *extra)])
    return Table(name, cols, [list(r) for r in rows], title=title)


def confusion_table(name: str, title: str, rows: Sequence[Tuple[str, str, int, str]]
                    ) -> Table:
    """The most frequent confusions: gold label, system label, count, an example; a
    note says so where there is none."""
    return Table(name, [Column("gold"), Column("system"), Column("count", "count"),
                        Column("example")], [list(r) for r in rows], title=title,
                 notes=[] if rows else ["no confusion"])


def significance_table(sig: SignificanceResult, units: str) -> Table:
    """The significance tests of a comparison: a row per pair of systems and metric,
    values in percent, headed by the JSON's keys of ``pairs`` (registered:
    `synagree.base.metrics`): ``a``, ``b``, ``metric``, ``value_a``, ``value_b``,
    their difference ``diff``, its interval ``diff_ci`` (the JSON's ``ci``) and the two
    p-values; the title gives the settings, ``units`` names what was resampled
    (``units``, ``sentences``).  Every format writes it (text, Markdown, LaTeX).
    """
    title = (f"significance: paired bootstrap (B = {sig.B}) and approximate randomisation "
             f"(R = {sig.R}) over {sig.units} {units}, seed {sig.seed}")
    cols = [Column("a"), Column("b"), Column("metric"), Column("value_a", "percent", 2),
            Column("value_b", "percent", 2), Column("diff", "percent", 2),
            Column("diff_ci", "percent_interval", 2),
            Column("p_bootstrap", "number", 4), Column("p_randomisation", "number", 4)]
    return Table("significance", cols,
                 [[t.a, t.b, t.metric, t.value_a, t.value_b, t.diff, t.ci, t.p_bootstrap,
                   t.p_randomisation] for t in sig.pairs], title=title,
                 notes=[f"diff = value_a - value_b; diff_ci: its {100 * sig.level:g}% "
                        f"paired-bootstrap percentile interval (in JSON and CSV: ci)"])


def tables_text(tables: Sequence[Table]) -> str:
    """Tables as text (`synagree.render.writers.text`), a blank line between two."""
    return "\n".join(writers.text(t) for t in tables)
