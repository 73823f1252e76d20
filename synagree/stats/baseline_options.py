"""The options of a comparison with a stored result (``--baseline OLD.json``, docs/method.md §18).

Kept apart from `synagree.stats.regression` (which needs numpy) so that the
command line can describe and read them before any computing module loads.
"""
from __future__ import annotations

from dataclasses import dataclass

from synagree.base.option_specs import SPECS

#: bootstrap replicates and randomisation rounds of the paired tests by default (declared
#: with the options: ``--test-replicates``)
BASELINE_REPLICATES: int = SPECS["test_replicates"].default


@dataclass(frozen=True)
class BaselineOptions:
    """A stored result to compare with, and how to test the changes.

    Attributes
    ----------
    doc : dict
        The stored JSON result (`synagree.stats.regression.load_baseline`).
    path : str
        Its file name, for messages.
    replicates : int
        Bootstrap replicates and randomisation rounds of the paired tests.
    seed : int
    level : float
        Confidence level of the intervals of the changes.
    top : int
        Sentences listed as worse and as better.
    """

    doc: dict
    path: str = "<baseline>"
    replicates: int = BASELINE_REPLICATES
    seed: int = 0
    level: float = 0.95
    top: int = 10
