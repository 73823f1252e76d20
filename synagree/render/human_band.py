"""The human band (``synagree compare GOLD SYS --humans ...``) as tables.

Three tables of the table model (`synagree.base.table`): every pair's
agreement with its interval, the parser beside a second human per reference
and metric, and the verdict lines; JSON is `HumanBand.to_dict`.
docs/method.md §28.
"""
from __future__ import annotations

import json
from typing import List

from synagree.agreement.human_band import HumanBand
from synagree.base.jsonable import json_ready
from synagree.base.table import Column, Document, Table
from synagree.render.alt_test import alt_test_tables
from synagree.render.fitted import write_document

__all__ = ["band_tables", "band_document", "render_band", "FORMATS"]

FORMATS = ("table", "json", "csv", "latex", "markdown")


def band_tables(band: HumanBand) -> List[Table]:
    """The pairs, the comparisons and the verdicts as `Table`s."""
    pct = f"{100 * band.level:g}%"
    pairs = Table("pairs", [Column("pair"), Column("kind"), Column("metric"),
                            Column("value", "number"), Column(f"{pct} CI", "interval")],
                  title=f"Agreement of every two files on the {band.units} shared units "
                        f"(paired bootstrap, {band.replicates} replicates, seed {band.seed})")
    for p in band.pairs:
        for m in band.metrics_compared:
            pairs.add(f"{p.a} × {p.b}", p.kind, m, p.values.get(m), p.ci.get(m))
    comp = Table("band", [Column("reference"), Column("metric"),
                          Column("system", "number"), Column("human", "number"),
                          Column("human band", "interval", 3), Column("diff", "signed"),
                          Column(f"{pct} CI", "interval", 3), Column("p", "number", 3),
                          Column("verdict")],
                 title=f"{band.system} beside a second human, both scored against the "
                       f"reference (system: {band.system}'s agreement with it; human: the "
                       f"other humans' mean; diff = system − human)")
    for c in band.comparisons:
        comp.add(c.reference, c.metric, c.system, c.human_mean, c.human_ci, c.diff, c.diff_ci,
                 c.p_value, c.verdict)
    verdict = Table("verdict", [Column("verdict")], [[line] for line in band.verdict_lines()],
                    title=f"Verdict (docs/method.md §28: within the band when the {pct} "
                          f"interval of the difference holds 0)")
    # with three or more humans, the same question as a test: the alt-test (§34.2)
    alt = alt_test_tables(band.alt_test) if band.alt_test is not None else []
    return [pairs, comp, verdict, *alt]


def band_document(band: HumanBand) -> Document:
    """The human band as a `Document`: its tables and notes."""
    return Document(band_tables(band), notes=list(band.notes), units="fractions (0 to 1)",
                    signature=(f"human band|references:{','.join(band.references)}|"
                               f"replicates:{band.replicates}|seed:{band.seed}|"
                               f"level:{band.level:g}"))


def render_band(band: HumanBand, fmt: str) -> str:
    """The human band in one of `FORMATS` (JSON: `HumanBand.to_dict`)."""
    if fmt == "json":
        return json.dumps(json_ready(band.to_dict()), indent=2, ensure_ascii=False) + "\n"
    return write_document(band_document(band), fmt)
