"""The sample-size plan (``synagree plan PILOT...``) as tables and a figure (§30).

Tables of the table model: the pilot and the units needed per α variant,
and the resampling curve (the interval and its width at every size tried).
The figure (matplotlib, the optional ``plot`` extra) draws each variant's
width against the units on log–log axes, with the target width and the
units needed marked.
"""
from __future__ import annotations

import io
import json
import os
from typing import List, Optional

from synagree.agreement.agree import AgreementResult
from synagree.base.jsonable import json_ready
from synagree.base.table import Column, Document, Table
from synagree.io.files import open_output
from synagree.render.fitted import write_document
from synagree.render.mpl import pyplot
from synagree.render.plots import METRIC_STYLE
from synagree.stats.sample_size import SampleSizePlan

__all__ = ["plan_tables", "plan_document", "render_plan", "plan_figure", "write_plan_figure",
           "FORMATS", "FIGURE_FORMATS"]

FORMATS = ("table", "json", "csv", "latex", "markdown")
FIGURE_FORMATS = ("svg", "png", "pdf")


def _plan(res: AgreementResult) -> SampleSizePlan:
    if res.plan is None:
        raise ValueError("the result has no plan: compute it with plan=PlanOptions(width)")
    return res.plan.plan


def plan_tables(res: AgreementResult) -> List[Table]:
    """The units needed per variant (with the pilot's α) and the resampling curve."""
    plan = _plan(res)
    pct = f"{100 * plan.level:g}%"
    needed = Table("plan_needed", [Column("metric"), Column("pilot", "number"),
                                   Column("units_needed", "count")],
                   title=f"Units needed for a {pct} interval of alpha no wider than "
                         f"{plan.width:g} (pilot: {plan.pilot_units} units, "
                         f"{plan.replicates} resamples per size, seed {plan.seed})")
    for v in plan.variants:
        needed.add(f"alpha_{v}", res.alpha[v].alpha if v in res.alpha else None,
                   plan.needed[v])
    needed.notes.extend(plan.notes)
    cols = [Column("units", "count")]
    for v in plan.variants:
        cols += [Column(f"alpha_{v} CI", "interval", 3), Column(f"alpha_{v} width", "number")]
    curve = Table("plan_curve", cols, title=f"The resampling curve: the {pct} interval of "
                                            f"alpha with n units drawn from the pilot's")
    by_size = {v: {p.units: p for p in pts} for v, pts in plan.curves.items()}
    for n in plan.sizes():
        cells: list = [n]
        for v in plan.variants:
            p = by_size[v].get(n)
            cells += [(p.low, p.high) if p is not None and p.low is not None else None,
                      p.width if p is not None else None]
        curve.add(*cells)
    return [needed, curve]


def plan_document(res: AgreementResult) -> Document:
    """The plan as a `Document` (its tables and notes)."""
    plan = _plan(res)
    return Document(plan_tables(res), units="alpha and interval widths in alpha units; "
                                            "units: sentences",
                    signature=(f"plan|width:{plan.width:g}|level:{plan.level:g}|"
                               f"replicates:{plan.replicates}|seed:{plan.seed}|"
                               f"{res.signature()}"))


def render_plan(res: AgreementResult, fmt: str) -> str:
    """The plan in one of `FORMATS`; JSON: the pilot's α and units, and the plan."""
    if fmt == "json":
        d = {"units": res.units, "annotators": list(res.annotators),
             **{f"alpha_{v}": st.alpha for v, st in res.alpha.items()},
             **_plan_metrics(res), "plan": _plan(res).to_dict(),
             "settings": dict(res.settings), "signature": res.signature(),
             "notes": list(res.notes)}
        return json.dumps(json_ready(d), indent=2, ensure_ascii=False) + "\n"
    doc = plan_document(res)
    doc.notes = [n for n in res.notes if n not in _plan(res).notes]
    return write_document(doc, fmt)


def _plan_metrics(res: AgreementResult) -> dict:
    return res.plan.metrics() if res.plan is not None else {}


def plan_figure(plan: SampleSizePlan, fmt: str = "svg") -> bytes:
    """The resampling curve as a figure: interval width against units, log–log.

    Parameters
    ----------
    plan : SampleSizePlan
    fmt : {"svg", "png", "pdf"}

    Raises
    ------
    InputError
        matplotlib is not installed (``missing-extra``).
    ValueError
        An unknown format.
    """
    if fmt not in FIGURE_FORMATS:
        raise ValueError(f"unknown figure format {fmt!r}; expected one of {FIGURE_FORMATS}")
    plt = pyplot()
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "synagree",
                         "font.size": 10, "axes.spines.top": False,
                         "axes.spines.right": False}):
        fig, ax = plt.subplots(figsize=(6.0, 3.8))
        for v in plan.variants:
            pts = [p for p in plan.curves[v] if p.width is not None]
            style = dict(METRIC_STYLE.get(f"alpha_{v}", {}))
            ax.plot([p.units for p in pts], [p.width for p in pts], ms=4, **style)
            n = plan.needed[v]
            if n is not None:
                ax.axvline(n, color=style.get("color", "grey"), lw=0.8, ls=":")
        ax.axhline(plan.width, color="black", lw=0.8, ls="--",
                   label=f"target width {plan.width:g}")
        ax.axvline(plan.pilot_units, color="grey", lw=0.8, ls="-.",
                   label=f"pilot ({plan.pilot_units} units)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("units (sentences)")
        ax.set_ylabel(f"width of the {100 * plan.level:g}% interval")
        ax.set_title("Interval width by sample size (resampling the pilot); dotted: units "
                     "needed", fontsize=9.5)
        ax.legend(frameon=False, fontsize=8.5)
        buf = io.BytesIO()
        meta = {"svg": {"Date": None, "Description": "synagree plan"},
                "png": {"Description": "synagree plan"},
                "pdf": {"CreationDate": None, "Subject": "synagree plan"}}[fmt]
        fig.savefig(buf, format=fmt, bbox_inches="tight", metadata=meta)
        plt.close(fig)
    return buf.getvalue()


def write_plan_figure(plan: SampleSizePlan, path: "str | os.PathLike",
                      fmt: Optional[str] = None) -> None:
    """Write `plan_figure` to ``path`` atomically; the format from the suffix by default."""
    fmt = fmt or os.path.splitext(str(path))[1].lstrip(".").lower()
    data = plan_figure(plan, fmt)
    with open_output(path, "wb") as fh:
        fh.write(data)
