"""Influence: how much α changes when one unit (sentence) or annotator is left out.

Unit influence comes from the sums of the all-pairs pass, with no tree edit
distance recomputed.  With n pairable values, ``diag[u]`` = Σ_{i≠j in u} δ²
(the unit's ordered within-unit pairs) and ``full[u]`` = Σ_{i in u} Σ_{j} δ²(v_i, v_j)
(the unit's values against *every* pairable value, its own included; the
per-value row sums of δ² added up over the unit's values), leaving unit u
(m_u values) out gives

    n'      = n − m_u
    do_sum' = do_sum − diag[u] / (m_u − 1)
    de_sum' = de_sum − 2·full[u] + diag[u]
    α_{−u}  = 1 − (do_sum' / n') / (de_sum' / (n'(n' − 1)))

D_e loses every ordered pair with at least one value in u: Σ_{i in u} Σ_j δ²
counts the pairs (i, j) with i in u, the same sum counts (j, i) again, and
the pairs with both values in u (``diag[u]``) were subtracted twice.  The
influence of u is Δα = α_{−u} − α: positive when α rises without the unit
(the unit lowers agreement), negative when the unit raises it.
``full`` is kept by `synagree.alpha.tree_alpha` with ``full_rows=True``
(O(units) memory, see `synagree.distance.sums.unit_sums`); it needs the
exact D_e: with sampled pairs there is no unit influence.

Annotator influence (α without each annotator, at least three annotators)
is *recomputed*: D_e without annotator a needs the δ² sums between a's
values and each other's across units, which per-unit sums do not hold, so
each left-out subset goes through a TED pass of its own
(`synagree.qa.leave_one_out`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

from synagree.agreement.core import corpus_of
from synagree.stats.alpha import VARIANTS, AlphaStats

__all__ = ["UnitInfluence", "alpha_without_units", "unit_influence", "rank_by_influence",
           "INFLUENCE_UNAVAILABLE"]

INFLUENCE_UNAVAILABLE = ("unit influence needs the exact D_e sums (D_e was estimated "
                         "from sampled pairs; use --exact)")


@dataclass
class UnitInfluence:
    """α without one pairable unit, per variant (docs/method.md §12.1).

    Parameters
    ----------
    index : int
        Pairable unit k, in the order of `synagree.stats.alpha.tree_alpha`.
    position : int
        Index in ``corpus.units``.
    uid : str
    sent_id : str or None
    values : int
        The unit's annotations m_u.
    alpha_without : dict of str to float or None
        α without the unit, per variant.
    delta : dict of str to float or None
        α_{−u} − α; None when either is undefined.
    """

    index: int  # pairable unit k, in the order of tree_alpha
    position: int  # index in corpus.units
    uid: str
    sent_id: Optional[str]
    values: int  # m_u annotations
    alpha_without: Dict[str, Optional[float]]
    delta: Dict[str, Optional[float]]  # α_{−u} − α; None when either is undefined

    @property
    def label(self) -> str:
        """The unit's ``sent_id``, else its uid."""
        return self.sent_id or self.uid

    def to_dict(self) -> dict:
        """The entry as a JSON-ready dict (``delta`` as ``influence``)."""
        return {"position": self.position, "uid": self.uid, "sent_id": self.sent_id,
                "values": self.values,
                "alpha_without": dict(self.alpha_without), "influence": dict(self.delta)}


def alpha_without_units(sums, variants: Sequence[str] = VARIANTS
                        ) -> Dict[str, List[Optional[float]]]:
    """α without each unit, from `synagree.distance.sums.UnitSums` holding ``full``.

    Returns ``{variant: [α_{−u} for every unit u]}``, ``None`` where α without
    the unit is undefined (fewer than two values left, or D_e = 0).

    Parameters
    ----------
    sums : synagree.distance.sums.UnitSums
        Per-unit sums of one all-pairs pass, computed with ``want_full=True``
        (``tree_alpha(..., full_rows=True)``).
    variants : sequence of str
        Any of ``"plain"``, ``"diff"``, ``"norm"``.

    Returns
    -------
    dict
        Variant name to a list of α (or ``None``), one per unit, in unit order.

    Raises
    ------
    ValueError
        When ``sums`` carries no full row sums.
    """
    if getattr(sums, "full", None) is None:
        raise ValueError("these sums carry no full row sums (compute them with "
                         "tree_alpha(..., full_rows=True))")
    m = sums.m
    n = float(m.sum())
    U = m.shape[0]
    de_all = sums.de_sum()
    do_all = sums.do_sum()
    out: Dict[str, List[Optional[float]]] = {}
    for v in variants:
        vi = VARIANTS.index(v)
        diag = sums.diag[:, vi]
        do_rest = do_all[vi] - diag / (m - 1.0)
        de_rest = de_all[vi] - 2.0 * sums.full[:, vi] + diag
        # D_e' is a difference of sums: what is zero in exact arithmetic may come
        # out as rounding noise; below this it counts as 0 (α undefined)
        tol = 1e-12 * max(float(de_all[vi]), 1.0)
        vals: List[Optional[float]] = []
        for u in range(U):
            de_u = float(de_rest[u]) if de_rest[u] > tol else 0.0
            st = AlphaStats(max(float(do_rest[u]), 0.0), de_u, int(round(n - m[u])), U - 1)
            vals.append(st.alpha)
        out[v] = vals
    return out


def _positions(result) -> List[int]:
    corpus = corpus_of(result)
    return [pos for pos, u in enumerate(corpus.units)
            if len(u.ordered(corpus.annotators)) >= 2]


def unit_influence(result, variants: Optional[Sequence[str]] = None
                   ) -> Optional[List[UnitInfluence]]:
    """α without each pairable unit of an agreement result, and the change Δα.

    Computed from the unit sums that `synagree.agreement.agree.agree_corpus`
    keeps (no tree edit distance is recomputed; see the module docstring for
    the formulas).

    Parameters
    ----------
    result : synagree.agreement.agree.AgreementResult
        A result of `synagree.agree` / `synagree.agreement.agree.agree_corpus`.
    variants : sequence of str, optional
        The variants to compute (default: every variant of ``result``).

    Returns
    -------
    list of UnitInfluence or None
        One entry per pairable unit in corpus order; ``None`` when the result
        has no exact per-unit sums (D_e estimated from sampled pairs).
    """
    ta = getattr(result, "tree_alpha", None)
    sums = getattr(ta, "sums", None)
    if sums is None or sums.full is None:
        return None
    variants = [v for v in (variants or VARIANTS) if v in result.alpha]
    without = alpha_without_units(sums, variants)
    corpus = result.corpus
    positions = _positions(result)
    out: List[UnitInfluence] = []
    for k, pos in enumerate(positions):
        unit = corpus.units[pos]
        aw = {v: without[v][k] for v in variants}
        full = {v: result.alpha[v].alpha for v in variants}
        delta = {v: (None if aw[v] is None or full[v] is None else aw[v] - full[v])
                 for v in variants}
        out.append(UnitInfluence(k, pos, unit.uid, unit.sent_id, int(sums.m[k]), aw, delta))
    return out


def rank_by_influence(items: Sequence, variant: str = "plain") -> List:
    """Largest Δα first (the units whose removal raises α most).

    Undefined Δα last, ties in corpus order.

    Parameters
    ----------
    items : sequence
        Objects with ``.influence`` or ``.delta`` dicts and ``.position``
        (`UnitInfluence`, `synagree.agreement.qa.UnitDiag`).
    variant : str
    """
    def key(x):
        d = getattr(x, "influence", None)
        if d is None:
            d = x.delta
        val = d.get(variant)
        return (val is None, -(val or 0.0), x.position)
    return sorted(items, key=key)


