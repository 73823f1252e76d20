"""The annotation-QA report as one typed result (``synagree report``).

`qa_report` computes everything the report shows: the agreement result
(`synagree.agreement.agree.agree_corpus`, with its bootstrap intervals, the
worst sentences and, with a stored result, the comparison with it on the one
round-comparison engine, `synagree.stats.regression`), and the QA tables of
`synagree.agreement.qa.qa_summary` (pairs, leave-one-out, annotator
distances, token layers with their intervals).  The renderers
(`synagree.render.html`) only lay it out.

`ReportResult.to_dict` is ``synagree report --output json``: the agreement
result's keys at the top level (the same keys as ``synagree agree``, so a
stored report serves as a ``--baseline`` of ``agree`` and the other way
round), then the report's tables.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

from synagree.agreement.agree import AgreementResult, agree_corpus
from synagree.agreement.drift import Grouping
from synagree.agreement.human_band import BandOptions
from synagree.agreement.plan import PlanOptions
from synagree.agreement.preannotation import PreannotationOptions
from synagree.agreement.qa import qa_summary
from synagree.base.frames import Frames, metric_rows
from synagree.base.memory import DEFAULT_MAX_MEMORY
from synagree.base.metrics import is_registered
from synagree.distance.dask_exec import Executor
from synagree.io.corpus import Corpus
from synagree.stats.baseline_options import BaselineOptions
from synagree.stats.bootstrap import check_replicates
from synagree.stats.categorical import DEFAULT_LAYERS
from synagree.trees.query import Query

__all__ = ["ReportResult", "qa_report", "REPORT_TABLES"]

#: the report's own keys beside the agreement result's (docs/output.md)
REPORT_TABLES = ("worst", "pairs", "leave_one_out", "annotator_distances", "categorical",
                 "bootstrap", "skipped_layers", "report_notes")


@dataclass
class ReportResult(Frames):
    """Everything ``synagree report`` shows.

    Attributes
    ----------
    agreement : AgreementResult
        α, the word scores, their intervals, the worst units and (with a stored
        result) the comparison with it (``agreement.baseline``).
    tables : dict
        The QA tables (`synagree.agreement.qa.qa_summary`, without its
        ``summary``): ``worst``, ``pairs``, ``leave_one_out``,
        ``annotator_distances``, ``categorical``, ``bootstrap``, ``notes``.
    variant : str
        The α variant the worst sentences are ranked by.
    """

    agreement: AgreementResult
    tables: Dict[str, Any]
    variant: str = "plain"

    @property
    def notes(self) -> List[str]:
        """The report's own notes (small samples, token layers left out)."""
        return list(self.tables.get("notes") or [])

    def frame_rows(self) -> List[Dict[str, Any]]:
        """The corpus's metrics (pair ``all``), then per annotator pair and metric."""
        rows = metric_rows(self.agreement.to_dict(), pair="all")
        pairs = self.tables.get("pairs") or {}
        names = pairs.get("annotators", [])
        for key, matrix in pairs.items():
            if key in ("annotators", "units") or not is_registered(key):
                continue
            rows += [{"pair": f"{a} / {b}", "metric": key, "value": matrix[i][j]}
                     for i, a in enumerate(names) for j, b in enumerate(names) if i < j]
        return rows

    def to_dict(self) -> Dict[str, Any]:
        """``synagree report --output json``: the agreement result's keys, then the tables."""
        d = self.agreement.to_dict()
        for k, v in self.tables.items():
            d["report_notes" if k == "notes" else k] = v
        return d


def qa_report(corpus: Corpus, *, layers: Sequence[str] = DEFAULT_LAYERS,
              skip_id_like: bool = False, bootstrap: int = 0, seed: int = 0,
              level: float = 0.95, worst: int = 20, variant: str = "plain",
              baseline: Optional[BaselineOptions] = None, sample_pairs: Optional[int] = None,
              exact: bool = False, max_memory: int = DEFAULT_MAX_MEMORY,
              progress: Optional[bool] = None, executor: Optional[Executor] = None,
              band: Optional[BandOptions] = None,
              preannotation: Optional[PreannotationOptions] = None,
              plan: Optional[PlanOptions] = None, bias: bool = False,
              by: Union[None, str, Grouping] = None,
              where: Sequence[Union[str, Query]] = ()) -> ReportResult:
    """The report of a corpus (see the module docstring).

    Parameters
    ----------
    corpus : Corpus
    layers : sequence of str
        Token layers for categorical agreement (dependency input only).
    skip_id_like : bool
        Leave out the layers whose values look like ids (with a note).
    bootstrap : int
        Unit-resampling replicates for the intervals of α, the word scores and
        the layer coefficients (one set of resamples); 0: none.
    seed, level
        Of the bootstrap and of the tests of a comparison.
    worst : int
        Sentences in the worst list.
    variant : str
        The α variant that ranks them.
    baseline : BaselineOptions, optional
        A stored ``agree`` or ``report`` JSON result to compare with
        (docs/method.md §18).
    sample_pairs, exact, max_memory, progress, executor
        As for `synagree.agreement.agree.agree_corpus`.
    bias, by, where
        Marginal homogeneity per annotator pair, α per batch with its control
        band, α over queries (docs/method.md §25–27; `agree_corpus`).
    band, preannotation, plan
        The sections "parser vs humans", "pre-annotation" and "planning"
        (docs/method.md §28–30), as for `synagree.agreement.agree.agree_corpus`.
    """
    check_replicates(bootstrap, level)  # before any work
    result = agree_corpus(corpus, bootstrap=bootstrap, seed=seed, level=level,
                          sample_pairs=sample_pairs, exact=exact, baseline=baseline,
                          per_unit=True, max_memory=max_memory, progress=progress,
                          executor=executor, band=band, preannotation=preannotation,
                          plan=plan, bias=bias, by=by, where=where, variant=variant)
    tables = qa_summary(result, worst=worst, variant=variant, bootstrap_replicates=bootstrap,
                        seed=seed, confidence=level, layers=layers,
                        skip_id_like=skip_id_like, with_replicates=True)
    tables.pop("summary", None)  # the agreement result itself
    return ReportResult(result, tables, variant)
