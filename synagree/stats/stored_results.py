"""Stored results read back (``--baseline``, ``--compare-to``): the fields that are used.

A stored result is untrusted input: it may have been edited, truncated or
written by something else.  Before a comparison reads it, every field the
comparison uses is checked for its JSON type, and every number for its range
(docs/method.md §18.5):

* metric values (α, κ, LAS, F1, ...) are fractions: a number from −10⁹ to 1
  (α ≥ 2 − n for n values, so no real corpus comes near −10⁹), or ``null``;
* counts and per-unit sums (words, TED, correct / gold / system words, D_o
  sums, values per unit) are numbers from 0 to 10¹⁵, or ``null``; a unit's
  correct words are at most its gold and its system words;
* D_e is a number from 0 up or ``null``, and every α the per-unit sums can give
  (also under resampling) lies from −10⁹ to 1;
* per-unit lists have one entry per unit id.

The first violation is one ``baseline-invalid`` error naming the field
(``details.per_unit.ted[3]``), what was expected and what was found.  Fields
no comparison reads are not checked.  `synagree.io.json_input.read_json` has
already refused non-finite numbers and documents beyond its size and depth
limits.
"""
from __future__ import annotations

import math
import re
from typing import Any, Dict, List, Optional

import numpy as np

from synagree.base.metrics import FRACTION, METRICS
from synagree.base.problems import InputError, quote

__all__ = ["check_agree", "check_compare", "check_stored",
           "COEFFICIENT_MIN", "COUNT_MAX"]

COEFFICIENT_MIN = -1e9
"""The lowest metric value a stored result may hold (every metric is at most 1)."""
COUNT_MAX = 1e15
"""The largest count or per-unit sum a stored result may hold."""
PER_UNIT_FORMATS = (1,)

_METRIC_PREFIXES = ("alpha_", "hier_", "bdm_", "kappa_", "cohen_kappa")
_METRIC_NAMES = {"las", "uas", "la", "jaccard", "la_given_head"}  # earlier releases


class _Checker:
    """Checks one document; the first violation raises ``baseline-invalid``."""

    def __init__(self, name: str):
        self.name = name

    def fail(self, field: str, expected: str, value: Any) -> None:
        raise InputError.single(self.name, None, "baseline-invalid",
                                f"{field}: expected {expected}, found {_describe(value)}")

    def typed(self, v: Any, field: str, kind: type, expected: str, optional: bool) -> Any:
        """``v``, which must be a ``kind`` (``expected`` in words), or None if optional."""
        if optional and v is None:
            return None
        if not isinstance(v, kind):
            self.fail(field, expected + (" or null" if optional else ""), v)
        return v

    def obj(self, v: Any, field: str, optional: bool = False) -> Optional[Dict[str, Any]]:
        return self.typed(v, field, dict, "an object", optional)

    def arr(self, v: Any, field: str, n: Optional[int] = None) -> List[Any]:
        if not isinstance(v, list):
            self.fail(field, "an array" + (f" of {n:,} values" if n is not None else ""), v)
        if n is not None and len(v) != n:
            self.fail(field, f"one value per unit ({n:,})", v)
        return v

    def text(self, v: Any, field: str, optional: bool = False) -> Optional[str]:
        return self.typed(v, field, str, "a string", optional)

    def texts(self, v: Any, field: str, n: Optional[int] = None) -> List[str]:
        for i, x in enumerate(self.arr(v, field, n)):
            self.text(x, f"{field}[{i}]")
        return v

    def num(self, v: Any, field: str, lo: float, hi: float, optional: bool = True,
            what: str = "") -> Optional[float]:
        if optional and v is None:
            return None
        ok = isinstance(v, (int, float)) and not isinstance(v, bool)
        if ok:
            try:
                x = float(v)
            except OverflowError:  # an integer beyond any float
                ok = False
            else:
                ok = math.isfinite(x) and lo <= x <= hi
        if not ok:
            span = what or f"a number from {_g(lo)} to {_g(hi)}"
            self.fail(field, span + (" or null" if optional else ""), v)
        return float(v)

    def nums(self, v: Any, field: str, n: int, lo: float, hi: float) -> np.ndarray:
        out = np.empty(n)
        for i, x in enumerate(self.arr(v, field, n)):
            y = self.num(x, f"{field}[{i}]", lo, hi)
            out[i] = np.nan if y is None else y
        return out

    def coefficient(self, v: Any, field: str) -> Optional[float]:
        return self.num(v, field, COEFFICIENT_MIN, 1.0,
                        what=f"a fraction (a number from {_g(COEFFICIENT_MIN)} to 1)")

    def count(self, v: Any, field: str, optional: bool = True) -> Optional[float]:
        return self.num(v, field, 0.0, COUNT_MAX, optional=optional)


def _g(x: float) -> str:
    """``x`` short: ``-1e9``, ``1e15``, ``0.5``."""
    return re.sub(r"e\+?0*(\d)", r"e\1", f"{x:g}")


def _describe(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return f"the number {quote(repr(v))[1:-1]}"
    if isinstance(v, str):
        return f"the string {quote(v)}"
    if isinstance(v, list):
        return f"an array of {len(v):,} value(s)"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__  # pragma: no cover - not from JSON


def _settings(c: _Checker, v: Any, field: str) -> None:
    s = c.obj(v, field, optional=True) or {}
    for k, x in s.items():
        if not (x is None or isinstance(x, (str, int, float, bool))):
            c.fail(f"{field}.{k}", "a string, number, true, false or null", x)


def _units(c: _Checker, v: Any, field: str) -> None:
    """Per-unit data (`synagree.stats.regression.UnitData.to_dict`)."""
    pu = c.obj(v, field)
    assert pu is not None
    fmt = pu.get("format", 1)
    if fmt not in PER_UNIT_FORMATS or isinstance(fmt, bool):
        c.fail(f"{field}.format", "format 1 (this version's per-unit data)", fmt)
    n = len(c.texts(pu.get("ids"), f"{field}.ids"))
    c.texts(pu.get("text"), f"{field}.text", n)
    c.nums(pu.get("words"), f"{field}.words", n, 0.0, COUNT_MAX)
    c.nums(pu.get("ted"), f"{field}.ted", n, 0.0, COUNT_MAX)
    ratios = c.obj(pu.get("ratios", {}), f"{field}.ratios") or {}
    for k, r in ratios.items():
        f = f"{field}.ratios.{k}"
        c.obj(r, f)
        got = {q: c.nums(r.get(q), f"{f}.{q}", n, 0.0, COUNT_MAX)
               for q in ("correct", "gold", "system")}
        for q in ("gold", "system"):
            with np.errstate(invalid="ignore"):
                over = np.flatnonzero(got["correct"] > got[q])
            if over.size:
                i = int(over[0])
                c.fail(f"{f}.correct[{i}]", f"at most the unit's {q} words ({got[q][i]:g})",
                       r["correct"][i])
    alphas = c.obj(pu.get("alpha", {}), f"{field}.alpha") or {}
    for k, a in alphas.items():
        f = f"{field}.alpha.{k}"
        c.obj(a, f)
        do = c.nums(a.get("do"), f"{f}.do", n, 0.0, COUNT_MAX)
        m = c.nums(a.get("m"), f"{f}.m", n, 0.0, COUNT_MAX)
        de = c.num(a.get("d_e"), f"{f}.d_e", 0.0, math.inf, what="a number from 0 up")
        if de is None or de == 0:  # α undefined (every value the same): nothing to test
            continue
        # every α resampled from these sums is 1 − Σw·do / Σw·m / D_e, at least
        # 1 − max_u(do_u / m_u) / D_e
        with np.errstate(divide="ignore", invalid="ignore"):
            per = np.where(m > 0, do / m, 0.0) / de
        worst = float(np.nanmax(per)) if per.size else 0.0
        if not (1.0 - worst >= COEFFICIENT_MIN):
            i = int(np.nanargmax(per))
            c.fail(f"{f}.do[{i}]", f"per-unit sums that give alpha from {_g(COEFFICIENT_MIN)} "
                                   f"to 1 with d_e = {de:g}", a["do"][i])


def _is_metric(key: str) -> bool:
    """A fraction of the registry (`synagree.base.metrics`), or one of an earlier release."""
    if key.endswith(("_se", "_ci")):
        return False
    if key in METRICS:
        return METRICS[key].unit == FRACTION
    return key in _METRIC_NAMES or key.startswith(_METRIC_PREFIXES)


def check_agree(doc: Any, name: str) -> None:
    """Check a stored ``synagree agree`` JSON result (the fields `agree --baseline` reads).

    Parameters
    ----------
    doc : object
        The parsed document.
    name : str
        The file, for messages.

    Raises
    ------
    InputError
        ``baseline-invalid``, naming the first field that is wrong.
    """
    c = _Checker(name)
    c.obj(doc, "the document")
    c.text(doc.get("kind"), "kind")
    c.texts(doc.get("annotator_names"), "annotator_names")
    _settings(c, doc.get("settings"), "settings")
    for k, v in doc.items():
        if _is_metric(k) or (isinstance(v, float) and not k.endswith(("_se", "_ci"))):
            c.coefficient(v, k)
    details = c.obj(doc.get("details"), "details", optional=True) or {}
    if details.get("per_unit") is not None:
        _units(c, details["per_unit"], "details.per_unit")


def check_compare(doc: Any, name: str) -> None:
    """Check a stored ``synagree compare`` JSON result (the fields `compare --baseline` reads).

    Raises
    ------
    InputError
        ``baseline-invalid``, naming the first field that is wrong.
    """
    c = _Checker(name)
    c.obj(doc, "the document")
    c.text(doc.get("gold"), "gold", optional=True)
    for k in ("gold_sentences", "gold_words"):
        c.count(doc.get(k), k)
    c.text(doc.get("hierarchy"), "hierarchy", optional=True)
    c.text(doc.get("tag_syntax", "plain"), "tag_syntax")
    for i, s in enumerate(c.arr(doc.get("systems"), "systems")):
        f = f"systems[{i}]"
        c.obj(s, f)
        c.text(s.get("name"), f"{f}.name")
        if "counts" in s:  # today's shape: the metrics at the top, their counts under counts
            for k, sc in (c.obj(s["counts"], f"{f}.counts") or {}).items():
                c.obj(sc, f"{f}.counts.{k}")
                c.coefficient(s.get(k), f"{f}.{k}")
                if k.startswith("alpha_"):
                    c.count(sc.get("sampled_pairs"), f"{f}.counts.{k}.sampled_pairs")
                else:
                    c.coefficient(sc.get("f1"), f"{f}.counts.{k}.f1")
        for k, sc in (c.obj(s.get("scores", {}), f"{f}.scores") or {}).items():  # earlier
            c.obj(sc, f"{f}.scores.{k}")
            c.coefficient(sc.get("f1"), f"{f}.scores.{k}.f1")
        for v, st in (c.obj(s.get("alpha"), f"{f}.alpha", optional=True) or {}).items():
            c.obj(st, f"{f}.alpha.{v}")
            c.coefficient(st.get("alpha"), f"{f}.alpha.{v}.alpha")
            c.count(st.get("sampled_pairs"), f"{f}.alpha.{v}.sampled_pairs")
        pu = c.obj(s.get("per_unit"), f"{f}.per_unit", optional=True)
        if pu is not None:
            c.text(pu.get("synagree_version"), f"{f}.per_unit.synagree_version",
                   optional=True)
            _units(c, pu, f"{f}.per_unit")


_CHECKS = {"agree": check_agree, "compare": check_compare}


def check_stored(doc: Any, command: str, name: str) -> None:
    """Check a stored JSON result of ``command`` (``agree`` -- a stored report is read as the
    agree result it holds -- or ``compare``).

    Raises
    ------
    InputError
        ``baseline-invalid``.
    KeyError
        Another command.
    """
    _CHECKS[command](doc, name)
