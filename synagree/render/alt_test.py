"""``synagree alt-test``'s output: an `AltTestResult` in every format.

Two tables (`synagree.base.table`): the decision (ω, ρ, ε, the smallest ε
that passes) and one row per left-out human; written by
`synagree.render.writers` (JSON: the result's own record).
"""
from __future__ import annotations

from typing import List

from synagree.base.table import Column, Table
from synagree.render.questions import render_record
from synagree.stats.alt_test import SCORINGS, AltTestResult

__all__ = ["alt_test_tables", "render_alt_test"]


def alt_test_tables(r: AltTestResult) -> List[Table]:
    """The ``alt_test`` (decision) and ``alt_test_humans`` (per human) tables."""
    decision = Table("alt_test", [Column("candidate"), Column("metric"),
                                  Column("epsilon", "number", 3), Column("humans", "count"),
                                  Column("winning_rate", "number"),
                                  Column("advantage_probability", "number"),
                                  Column("decision"), Column("critical_epsilon", "number")],
                     title=f"Alternative annotator test (Calderon, Reichart & Dror 2025): "
                           f"Benjamini-Yekutieli at q = {r.q:g}; passes when the winning "
                           f"rate is at least 0.5",
                     notes=list(r.notes))
    decision.add(r.candidate, r.metric, r.epsilon, len(r.humans), r.winning_rate,
                 r.advantage_probability, "passes" if r.passed else "fails",
                 r.critical_epsilon)
    humans = Table("alt_test_humans", [Column("left_out"), Column("units", "count"),
                                       Column("candidate_wins", "count"),
                                       Column("human_wins", "count"),
                                       Column("advantage_probability", "number"),
                                       Column("mean_difference", "number"),
                                       Column("t", "number"), Column("p_value", "number"),
                                       Column("won")],
                   title=f"Per left-out human: wins on the "
                         f"{'instances' if r.metric in SCORINGS else 'sentences'} (a tie counts "
                         f"for both), the one-sided t-test of mean(human wins - candidate wins) "
                         f"< epsilon")
    for h in r.humans:
        humans.add(h.annotator, h.units, h.candidate_wins, h.human_wins, h.advantage,
                   h.mean_difference, h.t, h.p_value, "yes" if h.won else "no")
    return [decision, humans]


def render_alt_test(r: AltTestResult, fmt: str = "table") -> str:
    """The alt-test as ``table``, ``json``, ``csv``, ``markdown`` or ``latex``."""
    return render_record(r.to_dict(), alt_test_tables(r), r.notes, fmt)
