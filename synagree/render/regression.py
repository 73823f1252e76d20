"""Rendering of a comparison with a baseline (``--baseline``; docs/method.md §18).

Every function takes the JSON-ready dict of
`synagree.stats.regression.BaselineComparison.as_dict`, so that ``compare``
and ``agree`` render it alike: per result a table of the metrics and the
sentence lists (`regression_tables`, written by `synagree.render.writers` in
text, Markdown and LaTeX), long CSV rows (``compare``) and flat CSV fields
(``agree``'s one-row CSV).  Values are in percent for ``compare`` and fractions for
``agree``, as the rest of each command's output (docs/method.md §13).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from synagree.base.escape import markdown as markdown_escape
from synagree.base.escape import plain
from synagree.base.table import Column, Document, Table
from synagree.render import writers

__all__ = ["regression_tables", "render_regression", "render_regression_table",
           "regression_csv_rows", "regression_fields", "render_regression_latex"]


def _sig(s: Optional[bool]) -> str:
    return "--" if s is None else ("yes" if s else "no")


def _count(x: object) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    if isinstance(x, float):
        return f"{x:.4g}"
    return str(x)


def regression_tables(bc: Optional[dict], percent: bool = False) -> List[Table]:
    r"""The comparison as tables of the table model: per result a table of the metrics
    (old, new, change, its interval, the p-values, significant), then the sentences that
    got worse and better; the result's notes go with its last table.

    Parameters
    ----------
    bc : dict or None
        `BaselineComparison.as_dict`; None gives no table.
    percent : bool
        Values in percent with two decimals (``compare``), else fractions with four
        (``agree``).
    """
    if not bc:
        return []
    kind, digits = ("percent", 2) if percent else ("number", 4)
    out: List[Table] = []
    for r in bc["results"]:
        tests = (f"paired bootstrap (B = {r['B']}), approximate randomisation "
                 f"(R = {r['R']}), seed {r['seed']}" if r["units_matched"] else "none")
        metrics = Table("baseline", [
            Column("metric"), Column("old", kind, digits), Column("new", kind, digits),
            Column("delta", "signed_percent" if percent else "signed", digits),
            Column("delta_ci", "percent_interval" if percent else "interval", digits),
            Column("p_bootstrap", "number", 4), Column("p_randomisation", "number", 4),
            Column("significant")],
            title=f"{r['name']} against baseline {r['baseline_name']}: {r['units_matched']} "
                  f"units matched; tests: {tests}; delta_ci: {100 * r['level']:g}% interval "
                  f"of the change")
        for c in r["metrics"]:
            metrics.add(c["metric"], c["old"], c["new"], c["delta"],
                        tuple(c["ci"]) if c["ci"] else None, c["p_bootstrap"],
                        c["p_randomisation"], _sig(c["significant"]))
        out.append(metrics)
        by = ", then ".join(r["lists_by"])
        for kind_ in ("worse", "better") if _top(r) > 0 else ():  # --baseline-top 0: none
            units = r[kind_]
            title = f"sentences that got {kind_}"
            if not units:
                out[-1].notes.append(f"{title}: none" if r["units_matched"] else
                                     f"{title}: not available (no per-unit data)")
                continue
            out.append(Table(f"baseline_{kind_}",
                             [Column("sentence"), Column("words", "count"),
                              *(Column(q) for q in r["lists_by"])],
                             [[str(u["id"]), u["words"],
                               *(f"{_count(u[q]['old'])} -> {_count(u[q]['new'])}"
                                 for q in r["lists_by"])] for u in units],
                             title=f"{title} (by {by}; at most {_top(r)} listed: {len(units)})"))
        out[-1].notes.extend(r["notes"])
    return out


def render_regression(bc: Optional[dict], fmt: str, percent: bool = False) -> str:
    r"""The comparison (`regression_tables`) in ``fmt`` (``table``, ``markdown``,
    ``latex``), written by `synagree.render.writers`: a first line naming the baseline,
    the tables, the notes.  None gives "".

    Parameters
    ----------
    bc : dict or None
        `BaselineComparison.as_dict`.
    fmt : {"table", "markdown", "latex"}
    percent : bool
        Percent with two decimals (``compare``), else fractions with four (``agree``).
    """
    if not bc:
        return ""
    head = f"baseline: {bc['baseline']}"
    first = {"table": plain(head), "markdown": f"**{markdown_escape(head)}**\n",
             "latex": f"% {plain(head)}"}[fmt]
    return first + "\n" + writers.write(Document(regression_tables(bc, percent),
                                                 notes=list(bc["notes"])), fmt)


def render_regression_table(bc: Optional[dict], percent: bool = False) -> str:
    r"""The comparison as text (`render_regression`): per result a metric table, then the
    sentence lists, fitted to the terminal.

    Parameters
    ----------
    bc : dict or None
        `BaselineComparison.as_dict`; None gives "".
    percent : bool
        Values in percent (``compare``), else fractions (``agree``).
    """
    return render_regression(bc, "table", percent)


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
    r"""The comparison as booktabs tables (`render_regression`): per result old, new,
    change with its interval and the p-values, then the sentence lists.

    Parameters
    ----------
    bc : dict or None
        None gives "".
    percent : bool
        Percent with two decimals (else fractions with four).
    """
    return render_regression(bc, "latex", percent)
