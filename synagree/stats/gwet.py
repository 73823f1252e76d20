"""Gwet's AC1 and AC2 from counts, with Gwet's standard error and interval.

docs/method.md §34.1.  The input is the items × categories table of rating
counts r_ik (how many raters put item i in category k), so any number of
raters and missing ratings are taken as they come (Gwet 2014, *Handbook of
Inter-Rater Reliability*, 4th ed., ch. 2–5; the formulas of the ``irrCAC``
package, the tests' oracle):

* r_i = Σ_k r_ik; n the items with r_i ≥ 1, n₂ those with r_i ≥ 2;
* weighted counts r*_ik = Σ_l w_kl r_il (w = identity: AC1);
* p_a = (1/n₂) Σ_{i: r_i ≥ 2} Σ_k r_ik (r*_ik − 1) / (r_i (r_i − 1));
* π_k = (1/n) Σ_i r_ik / r_i;
* p_e = T_w / (q (q − 1)) · Σ_k π_k (1 − π_k), T_w = Σ_kl w_kl, q the
  categories;
* AC = (p_a − p_e) / (1 − p_e) (`synagree.stats.contingency.chance_corrected`).

The variance is Gwet's linearisation over items (finite-population
correction 0: the items are a sample of an infinite population):
ac_i = (n/n₂)(p_a|i − p_e [r_i ≥ 2]) / (1 − p_e),
p_e|i = T_w/(q(q − 1)) Σ_k r_ik (1 − π_k) / r_i,
ac*_i = ac_i − 2 (1 − AC)(p_e|i − p_e)/(1 − p_e),
v = Σ_i (ac*_i − AC)² / (n (n − 1)); the interval is AC ± t_{n−1} √v with
its upper end capped at 1, as irrCAC does.  A standard error of exactly 0 is
taken as 1e-15 (irrCAC's convention), so the interval is a point.

Where the package differs: with fewer than two categories (q < 2) the
coefficient is undefined and is NaN here (irrCAC divides by 1 − p_e with
p_e = 1 − 1e-15).

Weights (`weight_matrix`): ``identity`` (AC1); ``ordinal`` and
``quadratic`` as irrCAC defines them over the categories in order: numeric
order when every label is a number (quadratic then uses the values),
otherwise the labels' sorted order, ranked 1..q (a loud choice: on nominal
labels an order is rarely meaningful, and the output names the order);
``hierarchy``: w_kl the *mutual* credit of labels k and l in a tag
hierarchy, (credit(k, l) + credit(l, k)) / 2 (`synagree.trees.hierarchy`,
symmetric, 1 on the diagonal).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from synagree.base.table import Column, Table
from synagree.stats.contingency import chance_corrected
from synagree.stats.student_t import t_quantile
from synagree.trees.hierarchy import Hierarchy

__all__ = ["WEIGHTS", "GwetAC", "gwet_from_counts", "gwet_from_codes", "gwet_of_labels",
           "rating_counts", "weight_matrix", "category_order", "gwet_table"]

#: the weights of AC2 besides a hierarchy's credit (``identity`` gives AC1)
WEIGHTS = ("identity", "ordinal", "quadratic")


@dataclass(frozen=True)
class GwetAC:
    """Gwet's AC1 (identity weights) or AC2 of one set of items.

    Attributes
    ----------
    name : str
        ``AC1`` or ``AC2``.
    weights : str
        ``identity``, ``ordinal``, ``quadratic`` or ``hierarchy``.
    value : float
        The coefficient (NaN where undefined).
    p_a, p_e : float
        Observed (weighted) and chance agreement, fractions.
    se : float
        Gwet's standard error.
    ci : tuple of float
        The interval (t with n − 1 degrees of freedom, upper end capped at 1).
    level : float
        Its confidence level.
    items : int
        Items with at least one rating (n).
    pairable : int
        Items with two or more ratings (n₂), the items of p_a.
    categories : int
        q, the categories of the chance term.
    """

    name: str
    weights: str
    value: float
    p_a: float
    p_e: float
    se: float
    ci: Tuple[float, float]
    level: float
    items: int
    pairable: int
    categories: int

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready fields (the confidence level is a setting of the report)."""
        return {"coefficient": self.name, "weights": self.weights, "gwet_ac": self.value,
                "gwet_se": self.se, "gwet_ci": [self.ci[0], self.ci[1]], "p_a": self.p_a,
                "p_e": self.p_e, "items": self.items, "pairable_items": self.pairable,
                "n_categories": self.categories}


def rating_counts(codes: np.ndarray, n_categories: int) -> np.ndarray:
    """The items × categories rating counts r_ik of an items × raters code array.

    Parameters
    ----------
    codes : array-like
        N × m category codes, -1 for a missing rating.
    n_categories : int

    Examples
    --------
    >>> rating_counts(np.array([[0, 1, -1], [1, 1, 1]]), 2).tolist()
    [[1, 1], [0, 3]]
    """
    x = np.asarray(codes, dtype=np.int64)
    out = np.zeros((x.shape[0], n_categories), dtype=np.int64)
    for a in range(x.shape[1] if x.ndim == 2 else 0):
        ok = x[:, a] >= 0
        np.add.at(out, (np.nonzero(ok)[0], x[ok, a]), 1)
    return out


def _number(label: str) -> Optional[float]:
    try:
        v = float(label)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def category_order(labels: Sequence[str]) -> Tuple[List[str], List[float]]:
    """The order of ``labels`` for ordinal and quadratic weights, and their values.

    Numeric order and the numbers themselves when every label is a number;
    otherwise the labels sorted as strings and ranked 1..q (irrCAC's rule for
    labels that are not numbers).
    """
    nums = [_number(str(lab)) for lab in labels]
    if labels and all(v is not None for v in nums):
        pairs = sorted(zip((float(v) for v in nums if v is not None), labels))
        return [lab for _, lab in pairs], [v for v, _ in pairs]
    ordered = sorted(labels)
    return ordered, [float(k) for k in range(1, len(ordered) + 1)]


def weight_matrix(kind: str, labels: Sequence[str],
                  hierarchy: Optional[Hierarchy] = None) -> np.ndarray:
    """The q × q agreement weights of AC2, indexed as ``labels``.

    Parameters
    ----------
    kind : {"identity", "ordinal", "quadratic", "hierarchy"}
    labels : sequence of str
        The categories, in code order.
    hierarchy : Hierarchy, optional
        Required for ``hierarchy``: w_kl = (credit(k, l) + credit(l, k)) / 2.

    Raises
    ------
    ValueError
        An unknown kind, or ``hierarchy`` without one.

    Examples
    --------
    >>> weight_matrix("quadratic", ["1", "2", "3"]).tolist()
    [[1.0, 0.75, 0.0], [0.75, 1.0, 0.75], [0.0, 0.75, 1.0]]
    """
    q = len(labels)
    if kind == "identity":
        return np.eye(q)
    if kind == "hierarchy":
        if hierarchy is None:
            raise ValueError("hierarchy weights need a hierarchy")
        w = np.eye(q)
        for k in range(q):
            for m in range(k + 1, q):
                w[k, m] = w[m, k] = 0.5 * (hierarchy.credit(labels[k], labels[m])
                                           + hierarchy.credit(labels[m], labels[k]))
        return w
    if kind not in WEIGHTS:
        raise ValueError(f"unknown weights {kind!r}; expected one of "
                         f"{', '.join(WEIGHTS)} or hierarchy")
    ordered, values = category_order(labels)
    pos = {lab: k for k, lab in enumerate(ordered)}
    rank = np.array([pos[lab] for lab in labels], dtype=np.float64)
    if kind == "ordinal":
        n = np.abs(rank[:, None] - rank[None, :]) + 1
        raw = n * (n - 1) / 2
        top = raw.max() if q else 0.0
        return 1.0 - raw / top if top > 0 else np.ones((q, q))
    val = np.array([values[pos[lab]] for lab in labels])
    span = float(val.max() - val.min()) if q else 0.0
    if span == 0:
        return np.ones((q, q))
    return 1.0 - ((val[:, None] - val[None, :]) / span) ** 2


def gwet_from_counts(counts: np.ndarray, weights: Optional[np.ndarray] = None,
                     level: float = 0.95, weights_name: Optional[str] = None) -> GwetAC:
    """Gwet's AC1/AC2 from the items × categories rating counts (module docstring).

    Parameters
    ----------
    counts : array-like
        N × q: r_ik, how many raters put item i in category k (rows of zeros,
        items nobody rated, take no part).
    weights : array-like, optional
        q × q agreement weights; None: identity (AC1).
    level : float
        Confidence level of the interval, a fraction.
    weights_name : str, optional
        The weights' name in the result; None: ``identity`` for identity
        weights, ``custom`` otherwise.

    Returns
    -------
    GwetAC
        ``AC1`` when the weights are the identity, else ``AC2``.

    Examples
    --------
    >>> r = gwet_from_counts([[2, 0], [2, 0], [1, 1], [0, 2]])
    >>> r.name, round(r.value, 4), round(r.p_a, 4), round(r.p_e, 4)
    ('AC1', 0.5294, 0.75, 0.4688)
    """
    c = np.asarray(counts, dtype=np.float64)
    c = c[c.sum(1) > 0] if c.ndim == 2 else np.zeros((0, 0))
    n, q = c.shape
    w = np.eye(q) if weights is None else np.asarray(weights, dtype=np.float64)
    identity = bool(w.shape == (q, q) and np.array_equal(w, np.eye(q)))
    name = "AC1" if identity else "AC2"
    wname = weights_name or ("identity" if identity else "custom")
    ri = c.sum(1)
    two = ri >= 2
    n2 = int(two.sum())
    nan = math.nan
    if n == 0 or n2 == 0 or q < 2:
        return GwetAC(name, wname, nan, nan, nan, nan, (nan, nan), level, n, n2, q)
    cw = c @ w.T
    sum_q = (c * (cw - 1.0)).sum(1)
    den = ri * (ri - 1.0)
    pa_i = np.where(two, sum_q / np.where(two, den, 1.0), 0.0)
    p_a = float(pa_i[two].sum() / n2)
    pi = (c / ri[:, None]).sum(0) / n
    tw = float(w.sum())
    p_e = tw * float((pi * (1.0 - pi)).sum()) / (q * (q - 1))
    ac = chance_corrected(p_a, p_e)
    if math.isnan(ac):
        return GwetAC(name, wname, nan, p_a, p_e, nan, (nan, nan), level, n, n2, q)
    ac_i = (n / n2) * (pa_i - p_e * two) / (1.0 - p_e)
    pe_i = (tw / (q * (q - 1))) * (c @ (1.0 - pi)) / ri
    ac_star = ac_i - 2.0 * (1.0 - ac) * (pe_i - p_e) / (1.0 - p_e)
    se = math.sqrt(float(((ac_star - ac) ** 2).sum()) / (n * (n - 1))) if n > 1 else nan
    if se == 0.0:
        se = 1e-15  # irrCAC's convention: the interval is a point
    half = t_quantile(0.5 + level / 2.0, n - 1) * se if n > 1 else nan
    return GwetAC(name, wname, float(ac), p_a, p_e, se,
                  (float(ac - half), float(min(1.0, ac + half))), level, n, n2, q)


def gwet_from_codes(codes: np.ndarray, n_categories: int,
                    weights: Optional[np.ndarray] = None, level: float = 0.95,
                    weights_name: Optional[str] = None) -> GwetAC:
    """Gwet's AC1/AC2 of an items × raters code array (-1 = missing).

    The rating counts (`rating_counts`) passed to `gwet_from_counts`.

    Examples
    --------
    >>> r = gwet_from_codes(np.array([[0, 0, -1], [1, 1, 1], [0, 1, 1]]), 2)
    >>> r.name, r.items, r.pairable
    ('AC1', 3, 3)
    """
    return gwet_from_counts(rating_counts(codes, n_categories), weights, level, weights_name)


def gwet_of_labels(items: Iterable[Sequence[str]], kind: str = "identity",
                   level: float = 0.95, hierarchy: Optional[Hierarchy] = None,
                   name: Optional[str] = None) -> GwetAC:
    """Gwet's AC1/AC2 of items given as their labels (one per rater, all present).

    Parameters
    ----------
    items : iterable of sequence of str
        Per item, the labels of its raters (``(gold, system)`` pairs of tags).
    kind : str
        The weights (`weight_matrix`).
    level : float
    hierarchy : Hierarchy, optional
        For ``kind="hierarchy"``.
    name : str, optional
        ``AC1`` or ``AC2`` as asked for (weights that give no partial credit
        still make AC2); None: from the weights.

    Examples
    --------
    >>> r = gwet_of_labels([("NOUN", "NOUN"), ("VERB", "VERB"), ("ADJ", "NOUN")])
    >>> r.name, round(r.value, 4)
    ('AC1', 0.52)
    """
    index: Dict[str, int] = {}
    rows = [[index.setdefault(v, len(index)) for v in item] for item in items]
    width = max((len(row) for row in rows), default=0)
    codes = np.full((len(rows), width), -1, dtype=np.int64)
    for k, row in enumerate(rows):
        codes[k, :len(row)] = row
    labels = list(index)
    r = gwet_from_codes(codes, len(labels), weight_matrix(kind, labels, hierarchy), level, kind)
    return replace(r, name=name) if name is not None and r.name != name else r


def gwet_table(rows: Dict[str, GwetAC], title: str, notes: Sequence[str] = (),
               first: str = "layer") -> Table:
    """The ``gwet`` table: one row per named result (a layer, a column of ``tags``).

    Examples
    --------
    >>> t = gwet_table({"upos": gwet_of_labels([("X", "X"), ("Y", "X")])}, "Gwet's AC1")
    >>> t.header()[:4], t.rows[0][2]
    (['layer', 'items', 'coefficient', 'weights'], 'AC1')
    """
    t = Table("gwet", [Column(first), Column("items", "count"), Column("coefficient"),
                       Column("weights"), Column("p_a", "number"), Column("p_e", "number"),
                       Column("gwet_ac", "number"), Column("gwet_se", "number"),
                       Column("gwet_ci", "interval")], title=title, notes=list(notes))
    for name, r in rows.items():
        t.add(name, r.items, r.name, r.weights, r.p_a, r.p_e, r.value, r.se, r.ci)
    return t
