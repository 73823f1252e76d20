"""Chance-corrected agreement from counts: the one engine behind every κ and π.

Every coefficient of the form (P_o − P_e) / (1 − P_e) is computed here, from
counts (docs/method.md §9.4, §12.3; the terms of Artstein & Poesio 2008):

* two annotators (or gold and system), a K × K contingency table with total
  n, diagonal sum and margins (`agreement_coefficients`, `Contingency`):
  A_o = Σ_k n_kk / n; **Cohen's κ** with P_e = Σ_k p_a(k)·p_b(k)
  (`paired_chance`); **Scott's π** with P_e = Σ_k ((n_k· + n_·k)/2n)²
  (`pooled_chance`); specific agreement p_s(k) = 2 n_kk / (n_k· + n_·k);
* m annotators over the items every one of them coded
  (`multi_rater_coefficients`): **Fleiss' κ** (the multi-annotator π, pooled
  chance) and the **Davies & Fleiss κ** (the multi-annotator Cohen's κ,
  chance the mean over annotator pairs, `mean_pair_chance`); with m = 2 they
  are π and κ;
* hierarchical κ (`synagree.stats.hierarchical_kappa`): soft pair agreement,
  chance pooled over leaf mass, `pooled_chance` again.

`chance_corrected` makes the correction: NaN where P_e is within 1e-12 of 1
(no variation) or either term is NaN (no items).

Every function takes one table (scalars and (K,) arrays) or a batch of them
(leading dimensions: bootstrap replicates).  A chance term of one table is
summed with `math.fsum`, exactly rounded, so it does not depend on how the
categories are numbered; a batch is summed by numpy along the categories (the
replicates' own arithmetic), so a point estimate and a replicate with unit
weights can differ in the last bit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Hashable, Iterable, List, Mapping, Optional, Tuple, Union, overload

import numpy as np

__all__ = ["chance_corrected", "paired_chance", "pooled_chance", "mean_pair_chance",
           "agreement_coefficients", "multi_rater_coefficients", "one_table", "observed_agreement",
           "cohen_kappa", "scott_pi", "specific_agreement", "Contingency"]

#: 1 − P_e at or below this: the coefficient is undefined (every value the same).
DEGENERATE_TOLERANCE = 1e-12

Number = Union[float, np.ndarray]


@overload
def chance_corrected(p_a: float, p_e: float) -> float: ...


@overload
def chance_corrected(p_a: np.ndarray, p_e: Number) -> np.ndarray: ...


def chance_corrected(p_a: Number, p_e: Number) -> Number:
    """(P_o − P_e) / (1 − P_e), the form of every κ and π in the project.

    Parameters
    ----------
    p_a : float or numpy.ndarray
        Observed agreement, a fraction.
    p_e : float or numpy.ndarray
        Chance agreement, a fraction.

    Returns
    -------
    float or numpy.ndarray
        NaN where undefined (1 − P_e ≤ 1e-12, or either term NaN); an array,
        element by element, when either term is one.
    """
    if np.ndim(p_a) == 0 and np.ndim(p_e) == 0:
        pa, pe = float(p_a), float(p_e)
        if math.isnan(pa) or math.isnan(pe) or 1.0 - pe <= DEGENERATE_TOLERANCE:
            return math.nan
        return (pa - pe) / (1.0 - pe)
    a, e = np.broadcast_arrays(np.asarray(p_a, dtype=np.float64),
                               np.asarray(p_e, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(1.0 - e > DEGENERATE_TOLERANCE, (a - e) / (1.0 - e), np.nan)


def _sum_categories(x: np.ndarray, n: Number) -> Number:
    """Σ over the last axis (exactly rounded for one table, numpy's sum for a batch);
    NaN where the table's total ``n`` is 0."""
    if x.ndim == 1:
        return math.fsum(x.tolist()) if n else math.nan
    return np.where(np.asarray(n) == 0, np.nan, x.sum(-1))


def _per_table(n: Number) -> np.ndarray:
    """``n`` with a trailing axis, to divide (…, K) counts by their table's total."""
    return np.asarray(n, dtype=np.float64)[..., None]


def paired_chance(rows: np.ndarray, cols: np.ndarray, n: Number) -> Number:
    """Cohen's chance term Σ_k (rows_k / n)(cols_k / n): each side's own margins.

    ``rows`` and ``cols`` are (K,) or (…, K) counts, ``n`` the total of each
    table; NaN for an empty table.
    """
    nn = _per_table(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _sum_categories((np.asarray(rows) / nn) * (np.asarray(cols) / nn), n)


def pooled_chance(mass: np.ndarray, n: Number) -> Number:
    """The pooled chance term Σ_k (mass_k / n)² of Scott's π, Fleiss' κ and
    hierarchical κ.

    ``mass`` is (K,) or (…, K): how many values (or how much leaf mass) fell
    in each category, both sides pooled; ``n`` the values in all (2 × items
    for a contingency table).  NaN for no values.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.asarray(mass, dtype=np.float64) / _per_table(n)
    return _sum_categories(p * p, n)


def mean_pair_chance(proportions: np.ndarray) -> Number:
    """The Davies & Fleiss chance term: the mean over ordered annotator pairs
    a ≠ b of Σ_k p_a(k)·p_b(k).

    ``proportions`` is m × K (or m × … × K): each annotator's category
    proportions.
    """
    marg = np.asarray(proportions, dtype=np.float64)
    m = marg.shape[0]
    tot = marg.sum(0)
    if marg.ndim == 2:
        both = math.fsum((tot * tot).tolist()) - math.fsum((marg * marg).ravel().tolist())
        return both / (m * (m - 1))
    return ((tot * tot).sum(-1) - (marg * marg).sum((0, -1))) / (m * (m - 1))


def _as_float(out: Mapping[str, Number]) -> Dict[str, Number]:
    return {k: float(v) if np.ndim(v) == 0 else v for k, v in out.items()}


def one_table(out: Mapping[str, Number]) -> Dict[str, float]:
    """The coefficients of one table (scalars) typed as floats."""
    return {k: float(v) for k, v in out.items()}


def agreement_coefficients(n: Number, agree: Number, rows: np.ndarray,
                           cols: np.ndarray) -> Dict[str, Number]:
    """A_o, Cohen's κ and Scott's π of a two-annotator table, from its sums.

    Parameters
    ----------
    n, agree : float or numpy.ndarray
        Items, and items on the diagonal: scalars for one table, arrays of
        shape S for a batch.
    rows, cols : numpy.ndarray
        Row and column margins (annotator a, annotator b): (K,) or S × K.

    Returns
    -------
    dict of str to float or numpy.ndarray
        ``observed``, ``cohen_kappa``, ``scott_pi`` (fractions; NaN where
        undefined): floats for one table, arrays of shape S for a batch.
    """
    n_ = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = np.asarray(agree, dtype=np.float64) / n_
    pooled = np.asarray(rows, dtype=np.float64) + np.asarray(cols, dtype=np.float64)
    return _as_float({"observed": observed,
                      "cohen_kappa": chance_corrected(observed, paired_chance(rows, cols, n_)),
                      "scott_pi": chance_corrected(observed, pooled_chance(pooled, 2 * n_))})


def multi_rater_coefficients(n_items: Number, agree_pairs: Number, counts: np.ndarray,
                             m: int, marginals: Optional[np.ndarray] = None
                             ) -> Dict[str, Number]:
    """Fleiss' κ and the Davies & Fleiss κ of items coded by each of m annotators.

    P_o = Σ_i Σ_k n_ik (n_ik − 1) / (N m (m − 1)) (the mean agreeing share of
    ordered annotator pairs); with m = 2 the coefficients are Scott's π and
    Cohen's κ.

    Parameters
    ----------
    n_items : float or numpy.ndarray
        N, the items (scalar, or shape S for a batch).
    agree_pairs : float or numpy.ndarray
        Σ over the items of Σ_k n_ik (n_ik − 1), the ordered agreeing pairs.
    counts : numpy.ndarray
        (K,) or S × K: Σ over the items of n_ik.
    m : int
        Annotators (values per item).
    marginals : numpy.ndarray, optional
        m × K (or m × S × K): each annotator's category counts over the
        items; None: no Davies & Fleiss κ.

    Returns
    -------
    dict of str to float or numpy.ndarray
        ``scott_pi`` (Fleiss' κ) and, with ``marginals``, ``cohen_kappa``
        (Davies & Fleiss); NaN where undefined (no items, m < 2, P_e = 1).
    """
    N = np.asarray(n_items, dtype=np.float64)
    if m < 2:
        nan = float("nan") if N.ndim == 0 else np.full(N.shape, np.nan)
        return {"scott_pi": nan, **({"cohen_kappa": nan} if marginals is not None else {})}
    with np.errstate(divide="ignore", invalid="ignore"):
        po = np.asarray(agree_pairs, dtype=np.float64) / (N * m * (m - 1))
        out = {"scott_pi": chance_corrected(po, pooled_chance(counts, N * m))}
        if marginals is not None:
            out["cohen_kappa"] = chance_corrected(
                po, mean_pair_chance(np.asarray(marginals, dtype=np.float64) / _per_table(N)))
    return _as_float(out)


def _table_coefficients(table: np.ndarray) -> Dict[str, Number]:
    t = np.asarray(table, dtype=np.float64)
    return agreement_coefficients(t.sum(), np.trace(t), t.sum(1), t.sum(0))


def observed_agreement(table: np.ndarray) -> float:
    """A_o of a K × K contingency table (rows: annotator a, columns: b): the share
    of items on the diagonal; NaN for an empty table."""
    return float(_table_coefficients(table)["observed"])


def cohen_kappa(table: np.ndarray) -> float:
    """Cohen's κ of a K × K contingency table: chance from each side's own margins.

    NaN when P_e = 1 (no variation) or the table is empty.
    """
    return float(_table_coefficients(table)["cohen_kappa"])


def scott_pi(table: np.ndarray) -> float:
    """Scott's π of a K × K contingency table: chance from the pooled margins.

    NaN when P_e = 1 or the table is empty.
    """
    return float(_table_coefficients(table)["scott_pi"])


def _specific(diag: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    denom = rows + cols
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, 2 * diag / np.where(denom > 0, denom, 1), np.nan)


def specific_agreement(table: np.ndarray) -> np.ndarray:
    """Specific agreement p_s(k) = 2 n_kk / (n_k. + n_.k) per category of a
    K × K table: (K,) fractions, NaN for unused categories."""
    t = np.asarray(table, dtype=np.float64)
    return _specific(np.diag(t), t.sum(1), t.sum(0))


@dataclass
class Contingency:
    """A K × K contingency table kept sparse: nonzero cells (row, column, count).

    Parameters
    ----------
    K : int
        Number of categories.
    rows, cols : numpy.ndarray
        int64 cell coordinates (rows: annotator a or gold, columns: b or the
        system).
    counts : numpy.ndarray
        int64 counts of the cells.
    """

    K: int
    rows: np.ndarray  # int64
    cols: np.ndarray
    counts: np.ndarray  # int64

    @classmethod
    def from_codes(cls, codes: np.ndarray, a: int, b: int, K: int) -> "Contingency":
        """From an items × annotators code array: columns ``a`` (rows) and ``b``, both present."""
        x = np.asarray(codes, dtype=np.int64)
        ok = (x[:, a] >= 0) & (x[:, b] >= 0)
        return cls.from_pairs(x[ok, a], x[ok, b], K)

    @classmethod
    def from_pairs(cls, r: np.ndarray, c: np.ndarray, K: int,
                   w: Optional[np.ndarray] = None) -> "Contingency":
        """From row and column codes of items (with optional integer weights ``w``)."""
        key = np.asarray(r, np.int64) * max(K, 1) + np.asarray(c, np.int64)
        if w is None:
            uniq, cnt = np.unique(key, return_counts=True)
        else:
            uniq, inv = np.unique(key, return_inverse=True)
            cnt = np.bincount(inv, weights=w, minlength=len(uniq)).astype(np.int64)
        return cls(K, uniq // max(K, 1), uniq % max(K, 1), cnt.astype(np.int64))

    @classmethod
    def from_labels(cls, pairs: Iterable[Tuple[Hashable, Hashable]]) -> "Contingency":
        """From the two labels of each item (any hashable labels, coded in order of
        first use): tags, feature values, tiers."""
        index: Dict[Hashable, int] = {}
        r: List[int] = []
        c: List[int] = []
        for a, b in pairs:
            r.append(index.setdefault(a, len(index)))
            c.append(index.setdefault(b, len(index)))
        return cls.from_pairs(np.array(r, np.int64), np.array(c, np.int64), len(index))

    @classmethod
    def from_dense(cls, t: np.ndarray) -> "Contingency":
        """From a dense K × K table."""
        t = np.asarray(t)
        r, c = np.nonzero(t)
        return cls(t.shape[0], r.astype(np.int64), c.astype(np.int64),
                   t[r, c].astype(np.int64))

    def __add__(self, other: "Contingency") -> "Contingency":
        return Contingency.from_pairs(np.concatenate([self.rows, other.rows]),
                                      np.concatenate([self.cols, other.cols]), self.K,
                                      np.concatenate([self.counts, other.counts]))

    def dense(self) -> np.ndarray:
        """The dense K × K int64 table."""
        t = np.zeros((self.K, self.K), dtype=np.int64)
        t[self.rows, self.cols] = self.counts
        return t

    @property
    def total(self) -> int:
        """Number of items."""
        return int(self.counts.sum())

    @property
    def agree(self) -> int:
        """Items on the diagonal."""
        return int(self.counts[self.rows == self.cols].sum())

    def diag(self) -> np.ndarray:
        """The diagonal, (K,)."""
        d = np.zeros(self.K)
        on = self.rows == self.cols
        d[self.rows[on]] = self.counts[on]
        return d

    def row_sums(self) -> np.ndarray:
        """Row margins, (K,)."""
        return np.bincount(self.rows, weights=self.counts, minlength=self.K)

    def col_sums(self) -> np.ndarray:
        """Column margins, (K,)."""
        return np.bincount(self.cols, weights=self.counts, minlength=self.K)

    def coefficients(self) -> Dict[str, float]:
        """``observed``, ``cohen_kappa`` and ``scott_pi`` (`agreement_coefficients`)."""
        return one_table(agreement_coefficients(self.total, self.agree, self.row_sums(),
                                                self.col_sums()))

    def observed(self) -> float:
        """Observed agreement A_o (NaN for an empty table)."""
        return self.coefficients()["observed"]

    def kappa(self) -> float:
        """Cohen's κ (NaN when undefined)."""
        return self.coefficients()["cohen_kappa"]

    def pi(self) -> float:
        """Scott's π (NaN when undefined)."""
        return self.coefficients()["scott_pi"]

    def specific(self) -> np.ndarray:
        """Specific agreement per category (see `specific_agreement`)."""
        return _specific(self.diag(), self.row_sums(), self.col_sums())

    def cells(self) -> List[List[int]]:
        """The nonzero cells as ``[row, column, count]`` lists (JSON-ready)."""
        return [[int(i), int(j), int(v)] for i, j, v in zip(self.rows, self.cols, self.counts)]
