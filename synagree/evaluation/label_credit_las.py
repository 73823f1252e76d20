"""LAS with label credit: ``LAS_hier``, ``LAS_bdm``, ``LAS_wup`` (docs/method.md §15.5).

Per aligned word of the CoNLL 2018 alignment (left as the scorer makes it):
[head correct] × a label credit of the system's DEPREL against the gold one,
summed like a correct count, so precision, recall and F1 follow as for LAS.
``LAS_hier`` uses the Melamed & Resnik credit (with ``--tag-syntax
alternatives``, of alternatives: gold disjunctive, system a distribution);
``LAS_bdm`` GATE's BDM and ``LAS_wup`` the Wu–Palmer closeness, against
disjunctive gold (`synagree.trees.annotation_bdm.closeness_against_gold`).
"""
from __future__ import annotations

import math
from typing import Callable, Iterable, List, Optional, Tuple

from synagree.base.problems import ProblemLog
from synagree.evaluation.conll18 import Alignment, Score, Treebank
from synagree.stats.tag_alternatives import TagReader, check_values

__all__ = ["credit_las", "check_deprels"]


def credit_las(alignment: Alignment, credit: Callable[[str, str], float]) -> Score:
    r"""Score of [head correct] × ``credit(gold DEPREL, system DEPREL)`` per aligned word.

    Parameters
    ----------
    alignment : Alignment
    credit : callable
        ``(gold value, system value) -> float`` in [0, 1], e.g.
        `synagree.stats.tag_alternatives.gold_closeness_fn`.

    Returns
    -------
    Score
        ``correct`` is the summed credit.
    """
    # an empty DEPREL (the scorer's reader takes it) is the label "_", as agree reads it
    total = math.fsum(credit(p.gold.deprel or "_", p.system.deprel or "_") for p in alignment
                      if p.system_head is p.gold_head)
    return Score(total, len(alignment.gold.words), len(alignment.system.words), len(alignment))


def check_deprels(treebanks: Iterable[Tuple[Treebank, bool]], reader: TagReader,
                  log: Optional[ProblemLog] = None) -> ProblemLog:
    r"""Check every DEPREL of the treebanks under ``reader``'s syntax (kind ``tag-syntax``).

    Parameters
    ----------
    treebanks : iterable of (Treebank, bool)
        Each with whether it is the gold file (no probabilities there).
    reader : TagReader
    log : ProblemLog, optional

    Returns
    -------
    ProblemLog
        The problems, with file and line; the caller raises.
    """
    log = log if log is not None else ProblemLog()
    for tb, gold in treebanks:
        values: List[Tuple[str, Optional[int], str]] = [(tb.name, w.line, w.deprel)
                                                        for w in tb.words]
        check_values(values, reader, "DEPREL", log, gold=gold)
    return log
