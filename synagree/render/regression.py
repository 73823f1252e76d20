"""Rendering of a comparison with a baseline (``--baseline``; docs/method.md §18).

Every function takes the JSON-ready dict of
`synagree.stats.regression.BaselineComparison.as_dict`, so that ``compare``
and ``agree`` render it alike: a text table per result with the sentence
lists, long CSV rows (``compare``), flat CSV fields (``agree``'s one-row CSV)
and a LaTeX table.  Values are in percent for ``compare`` and fractions for
``agree``, as the rest of each command's output (docs/method.md §13).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from synagree.base.escape import latex as latex_escape
from synagree.base.escape import plain
from synagree.base.table import format_value
from synagree.render.aligned import aligned_table, p_value

__all__ = ["render_regression_table", "regression_csv_rows", "regression_fields",
           "render_regression_latex"]


def _num(x: Optional[float], percent: bool, signed: bool = False) -> str:
    """Percent with two decimals, else four; a value that rounds to zero unsigned."""
    digits = 2 if percent else 4
    v = None if x is None else (100 * x if percent else x)
    if v is not None and round(v, digits) == 0:
        v = 0.0  # no "-0.00"
    return format_value(v, "signed" if signed else "number", digits, missing="--")


def _sig(s: Optional[bool]) -> str:
    return "--" if s is None else ("yes" if s else "no")


def _count(x: object) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    if isinstance(x, float):
        return f"{x:.4g}"
    return str(x)


def _units_lines(r: dict) -> List[str]:
    tests = (f"tests: paired bootstrap (B = {r['B']}), approximate randomisation "
             f"(R = {r['R']}), seed {r['seed']}" if r["units_matched"] else "tests: none")
    return [plain(f"{r['name']} against baseline {r['baseline_name']}: "
                  f"{r['units_matched']} units matched"), tests]


def _sentence_rows(units: Sequence[dict], quantities: Sequence[str]) -> List[List[str]]:
    return [[str(u["id"]), _count(u["words"])]
            + [f"{_count(u[q]['old'])} -> {_count(u[q]['new'])}" for q in quantities]
            for u in units]


def render_regression_table(bc: Optional[dict], percent: bool = False) -> str:
    r"""The comparison as text: per result a metric table, then the sentence lists.

    Parameters
    ----------
    bc : dict or None
        `BaselineComparison.as_dict`; None gives "".
    percent : bool
        Values in percent (``compare``), else fractions (``agree``).
    """
    if not bc:
        return ""
    out = [f"baseline: {plain(bc['baseline'])}"]
    unit = "%" if percent else ""
    for r in bc["results"]:
        out += _units_lines(r)
        lvl = f"{100 * r['level']:g}%"
        rows = []
        for c in r["metrics"]:
            ci = c["ci"]
            rows.append([c["metric"], _num(c["old"], percent), _num(c["new"], percent),
                         _num(c["delta"], percent, signed=True),
                         "--" if not ci else
                         f"[{_num(ci[0], percent)}, {_num(ci[1], percent)}]",
                         p_value(c["p_bootstrap"]), p_value(c["p_randomisation"]),
                         _sig(c["significant"])])
        old_h, new_h = (f"old {unit}".strip(), f"new {unit}".strip())
        out += aligned_table(["metric", old_h, new_h, "change", f"{lvl} CI of change", "p boot",
                       "p AR", "significant"], rows)
        by = ", then ".join(r["lists_by"])
        for kind in ("worse", "better") if _top(r) > 0 else ():  # --baseline-top 0: none
            units = r[kind]
            title = f"sentences that got {kind}"
            if not units:
                out.append(f"{title}: none" if r["units_matched"] else
                           f"{title}: not available (no per-unit data)")
                continue
            out.append(plain(f"{title} (by {by}; at most {_top(r)} listed: {len(units)})"))
            out += aligned_table(["sentence", "words"] + list(r["lists_by"]),
                          _sentence_rows(units, r["lists_by"]))
        out += [plain(f"note: {n}") for n in r["notes"]]
    out += [plain(f"note: {n}") for n in bc["notes"]]
    return "\n".join(out) + "\n"


def _top(r: dict) -> int:
    return int(r.get("top", 10))


def regression_csv_rows(bc: Optional[dict]) -> List[Dict[str, object]]:
    r"""Rows for ``compare``'s long CSV (its columns): the comparison, losslessly.

    Per metric a ``baseline`` row (``value``: new, ``diff``: change, interval
    and p-values, ``versus``: the baseline system) and a ``baseline:old`` row
    (``value``: old); ``baseline:units`` rows give the matched units
    (``value``) and ``baseline:worse`` / ``baseline:better`` one row per sentence
    and quantity (``bin``: sentence id, ``gold``: its words, ``value``: new,
    ``diff``: change); the notes are rows of section ``note`` (``metric``
    ``baseline``, text in ``value``).
    """
    out: List[Dict[str, object]] = []
    if not bc:
        return out
    for r in bc["results"]:
        base = {"system": r["name"], "versus": r["baseline_name"]}
        out.append({"section": "baseline:units", **base, "metric": "units_matched",
                    "value": r["units_matched"]})
        for c in r["metrics"]:
            ci = c["ci"] or (None, None)
            out.append({"section": "baseline", **base, "metric": c["metric"],
                        "value": c["new"], "diff": c["delta"], "ci_low": ci[0],
                        "ci_high": ci[1], "p_bootstrap": c["p_bootstrap"],
                        "p_randomisation": c["p_randomisation"]})
            out.append({"section": "baseline:old", **base, "metric": c["metric"],
                        "value": c["old"]})
        for kind in ("worse", "better"):
            for u in r[kind]:
                for q in r["lists_by"]:
                    out.append({"section": f"baseline:{kind}", **base, "metric": q,
                                "bin": u["id"], "gold": u["words"], "value": u[q]["new"],
                                "diff": u[q]["delta"]})
        out += [{"section": "note", **base, "metric": "baseline", "value": n}
                for n in r["notes"]]
    out += [{"section": "note", "metric": "baseline", "value": n} for n in bc["notes"]]
    return out


def _key(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)


def regression_fields(bc: Optional[dict]) -> List[Tuple[str, object]]:
    r"""Flat ``(column, value)`` fields for ``agree``'s one-row CSV.

    ``baseline_<metric>_old``, ``_new``, ``_change``, ``_ci_low``, ``_ci_high``,
    ``_p_bootstrap``, ``_p_randomisation``, ``_significant`` per metric;
    ``baseline_units_matched``; per listed sentence ``baseline_worse_<k>_id``,
    ``_words`` and ``_<quantity>_old`` / ``_new`` (and ``better`` alike).
    """
    out: List[Tuple[str, object]] = []
    if not bc:
        return out
    for r in bc["results"]:
        out.append(("baseline_units_matched", r["units_matched"]))
        for c in r["metrics"]:
            k = f"baseline_{_key(c['metric'])}"
            ci = c["ci"] or (None, None)
            sig = c["significant"]
            out += [(f"{k}_old", c["old"]), (f"{k}_new", c["new"]), (f"{k}_change", c["delta"]),
                    (f"{k}_ci_low", ci[0]), (f"{k}_ci_high", ci[1]),
                    (f"{k}_p_bootstrap", c["p_bootstrap"]),
                    (f"{k}_p_randomisation", c["p_randomisation"]),
                    (f"{k}_significant", None if sig is None else str(sig).lower())]
        for kind in ("worse", "better"):
            for i, u in enumerate(r[kind], 1):
                k = f"baseline_{kind}_{i}"
                out += [(f"{k}_id", u["id"]), (f"{k}_words", u["words"])]
                for q in r["lists_by"]:
                    out += [(f"{k}_{_key(q)}_old", u[q]["old"]),
                            (f"{k}_{_key(q)}_new", u[q]["new"])]
    return out


def render_regression_latex(bc: Optional[dict], percent: bool = True) -> str:
    r"""A booktabs table of the changes: per result and metric old, new, change, p-values.

    Parameters
    ----------
    bc : dict or None
        None gives "".
    percent : bool
        Percent with two decimals (else fractions with four).
    """
    if not bc:
        return ""
    lines = [f"% changes against the baseline {plain(bc['baseline'])}"
             + (" (percent)" if percent else " (fractions)"),
             "\\begin{tabular}{lllrrrrr}", "\\toprule",
             "Result & Baseline & Metric & Old & New & Change & $p$ boot & $p$ AR \\\\",
             "\\midrule"]
    for r in bc["results"]:
        for c in r["metrics"]:
            lines.append(" & ".join([latex_escape(r["name"]), latex_escape(r["baseline_name"]),
                                     latex_escape(c["metric"]), _num(c["old"], percent),
                                     _num(c["new"], percent),
                                     _num(c["delta"], percent, signed=True),
                                     p_value(c["p_bootstrap"]), p_value(c["p_randomisation"])])
                         + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"
