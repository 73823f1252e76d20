"""EVALB's totals summed in whole-list passes (`synagree.evaluation.parseval._totals`,
issue 36) against `Totals.add`, EVALB's ``individual_result`` row by row."""
from __future__ import annotations

import random

from synagree.evaluation.parseval import SentenceScore, Totals, _totals


def _rows(rng: random.Random, n: int):
    rows = []
    for k in range(n):
        status = rng.choice([0, 0, 0, 1, 2])
        gold = rng.randint(0, 6)
        test = rng.choice([gold, rng.randint(0, 6)])
        matched = rng.randint(0, min(gold, test)) if rng.random() < 0.5 else min(gold, test)
        rows.append(SentenceScore(k + 1, rng.randint(0, 60), status, matched, gold, test,
                                  rng.choice([0, 0, 1, 2, 3, 7]), rng.randint(0, 40),
                                  rng.randint(0, 40)))
    return rows


def test_totals_equal_row_by_row_sums():
    rng = random.Random(36)
    for n in (0, 1, 2, 5, 50, 500):
        for _ in range(20):
            rows = _rows(rng, n)
            want = Totals()
            for r in rows:
                want.add(r)
            assert _totals(rows) == want
