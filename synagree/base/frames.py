"""Results as long-form tables: ``to_frame()`` and the notebook's ``_repr_html_``.

Every result type of the public API mixes in `Frames` and says, in
``frame_rows()``, what one row is (a metric of the corpus, of a system, of a
layer, of an annotator pair, ...).  Rows are plain dicts with the key
columns first, then ``metric`` and ``value`` (and ``ci_low``/``ci_high``
where the result has intervals): the long form that ``pandas`` pivots,
groups and plots without further reshaping.  Values are fractions, as in
the JSON (docs/method.md §13).

pandas is an optional dependency (``pip install 'synagree[frames]'``):
`Frames.to_frame` says so when it is missing; `Frames.frame_rows` and
``_repr_html_`` need nothing.
"""
from __future__ import annotations

import importlib
import math
from typing import Any, Dict, List, Mapping, Optional, Sequence

from synagree.base.sealed import Sealed

__all__ = ["Frames", "metric_rows", "html_table", "require_pandas"]

#: rows shown by ``_repr_html_`` before "… N more rows"
HTML_ROWS = 40

#: the metric registry, loaded by its module path when rows are first asked for (as
#: `synagree.cli.main` loads a command): every result type mixes in `Frames`, and a
#: run that builds no frame (PARSEVAL within EVALB's time, issue 36) needs none of it
METRICS = "synagree.base.metrics"
#: `html` (and its table of entities), loaded the same way for a notebook's table only
HTML = "html"


def is_registered(key: str) -> bool:
    """`synagree.base.metrics.is_registered`, the registry loaded on first use."""
    return bool(importlib.import_module(METRICS).is_registered(key))


def _escape(text: str) -> str:
    """`html.escape` (`HTML` loaded on first use)."""
    return str(importlib.import_module(HTML).escape(text))


def require_pandas() -> Any:
    """The ``pandas`` module, or an ImportError that says how to install it."""
    try:
        return importlib.import_module("pandas")
    except ImportError:  # an optional extra: say which
        raise ImportError("to_frame() needs pandas, an optional dependency of synagree: "
                          "pip install 'synagree[frames]' (or pip install pandas)") from None


def _number(v: Any) -> bool:
    return v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))


def metric_rows(d: Mapping[str, Any], **keys: Any) -> List[Dict[str, Any]]:
    """The registered metrics at the top level of a JSON dict, one row each.

    A key ``X`` whose value is a number (or None: undefined) and that the
    metric registry knows (`synagree.base.metrics.is_registered`) gives a
    row ``{**keys, "metric": X, "value": ..., "ci_low": ..., "ci_high": ...}``,
    the interval from ``X_ci`` when the dict has one.
    """
    rows = []
    for k, v in d.items():
        if k.endswith("_ci") or not _number(v) or not is_registered(k):
            continue
        ci = d.get(f"{k}_ci")
        rows.append({**keys, "metric": k, "value": v,
                     "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None})
    return rows


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return "–" if math.isnan(v) else f"{v:.4f}"
    return "–" if v is None else _escape(str(v))


def html_table(rows: Sequence[Mapping[str, Any]], caption: str = "",
               limit: int = HTML_ROWS) -> str:
    """A compact HTML table of ``rows`` (the first ``limit``), for Jupyter."""
    cols: List[str] = []
    for r in rows:
        cols += [c for c in r if c not in cols]
    shown = [r for r in rows[:limit]]
    empty = [c for c in cols if all(r.get(c) is None for r in shown)]
    cols = [c for c in cols if c not in empty]  # e.g. ci_low without intervals
    out = ["<table>"]
    if caption:
        out.append(f"<caption>{_escape(caption)}</caption>")
    out.append("<tr>" + "".join(f"<th>{_escape(c)}</th>" for c in cols) + "</tr>")
    out += ["<tr>" + "".join(f"<td>{_cell(r.get(c))}</td>" for c in cols) + "</tr>"
            for r in shown]
    if len(rows) > limit:
        out.append(f"<tr><td colspan='{len(cols)}'>… {len(rows) - limit} more rows "
                   f"(to_frame() has them all)</td></tr>")
    out.append("</table>")
    return "".join(out)


class Frames(Sealed):
    """Mixin: ``to_frame()`` and ``_repr_html_`` from the class's ``frame_rows()``;
    read-only once sealed (`synagree.base.sealed`)."""

    def frame_rows(self) -> List[Dict[str, Any]]:
        """The result in long form, one dict per row (see the module docstring)."""
        raise NotImplementedError

    def to_frame(self, columns: Optional[Sequence[str]] = None) -> Any:
        """The result as a long-form ``pandas.DataFrame`` (``frame_rows()``)."""
        pandas = require_pandas()
        return pandas.DataFrame(self.frame_rows(), columns=columns)

    def _repr_html_(self) -> str:
        return html_table(self.frame_rows(), type(self).__name__)
