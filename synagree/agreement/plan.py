"""Planning the next round: units needed for an interval of α of a given width.

The pilot is the corpus of an agreement result; the plan resamples its
units (`synagree.stats.sample_size`, docs/method.md §30) from the unit ×
unit δ² sums the result kept.  ``synagree plan PILOT...`` prints it;
``agree_corpus(..., plan=PlanOptions(width))`` adds it as the section
``plan`` (``units_needed_<v>`` at the top level of the JSON output), which
``synagree report --plan WIDTH`` shows.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional

from synagree.agreement.core import Core, Value, variants_of
from synagree.base.option_specs import check_fields
from synagree.stats.sample_size import (
    DEFAULT_MAX_UNITS,
    DEFAULT_REPLICATES,
    SampleSizePlan,
    plan_sample_size,
)

__all__ = ["PlanOptions", "Plan", "plan_section"]


@dataclass(frozen=True)
class PlanOptions:
    """What to plan for: the target width of the interval, and the resampling.

    Attributes
    ----------
    width : float
        Target width ``high − low`` of the interval of α (> 0); its level is
        the agreement run's ``level``.
    replicates : int
        Resamples per size.
    max_units : int
        The largest size tried.
    """

    width: float
    replicates: int = DEFAULT_REPLICATES
    max_units: int = DEFAULT_MAX_UNITS

    def __post_init__(self) -> None:
        # as the command line's --width and --max-units (synagree.base.option_specs)
        check_fields(self, "PlanOptions: ", {"width": "width", "max_units": "max_units"})


@dataclass(frozen=True)
class Plan:
    """The section ``plan``: the units needed per α variant and the resampling curve.

    Attributes
    ----------
    plan : SampleSizePlan
    """

    plan: SampleSizePlan
    name = "plan"

    def metrics(self) -> Dict[str, Value]:
        """``units_needed_<v>`` (a count; None when not reached)."""
        return {f"units_needed_{v}": n for v, n in self.plan.needed.items()}

    def details(self) -> dict:
        """The settings, the units needed and the curves (`SampleSizePlan.to_dict`)."""
        return self.plan.to_dict()


def plan_section(core: Core, options: PlanOptions, level: float = 0.95, seed: int = 0,
                 progress: Optional[bool] = None) -> Plan:
    """The plan of an agreement result's corpus taken as the pilot.

    Parameters
    ----------
    core : AgreementResult
        Computed with its unit × unit sums kept (``agree_corpus`` keeps them
        when ``plan`` is given).
    options : PlanOptions
    level : float
        Confidence level of the planned interval, a fraction.
    seed : int
    progress : bool, optional

    Raises
    ------
    ValueError
        The result kept no unit × unit sums (its D_e was sampled).
    """
    ta = core.tree_alpha
    if ta is None or ta.sums is None or ta.sums.S is None:
        raise ValueError("planning needs the exact unit x unit sums: compute the agreement "
                         "with plan=... (and without sampled pairs)")
    return Plan(plan_sample_size(ta.sums, options.width, level, variants_of(core),
                                 options.replicates, seed, options.max_units,
                                 progress=progress))
