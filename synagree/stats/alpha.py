"""Krippendorff's α: generic, and over tree edit distance (docs/method.md §4–5).

With n pairable values (values of units that have at least two) and m_u
values in unit u:

    D_o = (1/n) · Σ_u 1/(m_u − 1) · Σ_{i≠j in u} δ²(v_ui, v_uj)
    D_e = 1/(n(n − 1)) · Σ_{ordered pairs of distinct pairable values} δ²
    α   = 1 − D_o / D_e

Results are kept as sums (`AlphaStats`: the D_o and D_e numerators and
n), so they can be merged, resampled and checked; α is derived.

Degenerate cases are reported, never raised: D_e = 0 (all pairable values
identical, so there is no variation to agree on) leaves α undefined
(``None`` with a note); a corpus of a single unit has D_o = D_e and so α = 0
by construction (noted too).

The syntactic variants take δ from one TED per tree pair:

    plain: δ = TED(x, y)
    diff:  δ = TED(x, y) − | |x| − |y| |
    norm:  δ = TED(x, y) / (|x| + |y|)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import (
    Any,
    Dict,
    List,
    Optional,
    Sequence,
    Tuple,
)

import numpy as np

from synagree.base.frames import Frames
from synagree.base.native import threads
from synagree.base.option_specs import SPECS, check_args, check_value, shown
from synagree.distance import ted as _ted
from synagree.distance.dask_exec import Executor
from synagree.distance.sums import VARIANTS as VARIANTS  # (re-exported)
from synagree.distance.sums import (
    SampledDe,
    UnitSums,
    UnitTrees,
    delta_squared,
    sampled_de,
    unit_sums,
)
from synagree.trees.flat import FlatTree


@dataclass
class AlphaStats(Frames):
    """α as counts, from which D_o, D_e and α are derived (docs/method.md §5).

    Parameters
    ----------
    do_sum : float
        Σ_u (1/(m_u−1)) Σ_{i≠j in u} δ² (n·D_o).
    de_sum : float
        Σ_{i≠j} δ² over all ordered pairs of pairable values (n(n−1)·D_e).
    n : int
        Pairable values.
    units : int
        Pairable units.
    notes : list of str
        Degenerate cases and sampling, for people.
    alpha_se : float, optional
        Standard error of α when D_e was estimated from sampled pairs.
    sampled_pairs : int, optional
        Pairs drawn for D_e, when sampled.
    ci : (float, float), optional
        Bootstrap percentile interval of α.

    Examples
    --------
    >>> st = AlphaStats(do_sum=2.0, de_sum=74.0, n=4, units=2)
    >>> st.d_o, round(st.d_e, 4), round(st.alpha, 4)
    (0.5, 6.1667, 0.9189)
    >>> AlphaStats(0.0, 0.0, 4, 2).alpha is None  # D_e = 0: undefined
    True
    """

    do_sum: float
    de_sum: float
    n: int
    units: int
    notes: List[str] = field(default_factory=list)
    alpha_se: Optional[float] = None  # when D_e was estimated from sampled pairs
    sampled_pairs: Optional[int] = None
    ci: Optional[Tuple[float, float]] = None  # bootstrap percentile interval

    @property
    def d_o(self) -> float:
        """Observed disagreement D_o = do_sum / n (NaN when n = 0)."""
        return self.do_sum / self.n if self.n else float("nan")

    @property
    def d_e(self) -> float:
        """Expected disagreement D_e = de_sum / (n(n−1)) (NaN when n < 2)."""
        return self.de_sum / (self.n * (self.n - 1)) if self.n > 1 else float("nan")

    @property
    def alpha(self) -> Optional[float]:
        """α = 1 − D_o/D_e, or None when undefined (n < 2, or D_e = 0; docs/method.md §5.2)."""
        if self.n < 2 or self.de_sum <= 0.0:
            return None
        return 1.0 - self.d_o / self.d_e

    def to_dict(self) -> Dict[str, Any]:
        """α with its sums, JSON-ready (None for undefined values)."""
        d: Dict[str, Any] = {"alpha": self.alpha,
                             "d_o": self.d_o if self.n else None,
                             "d_e": self.d_e if self.n > 1 else None,
                             "do_sum": self.do_sum, "de_sum": self.de_sum, "n": self.n,
                             "units": self.units}
        if self.ci is not None:
            d["alpha_ci"] = list(self.ci)
        if self.alpha_se is not None:
            d.update(alpha_se=self.alpha_se, sampled_pairs=self.sampled_pairs)
        d["notes"] = list(self.notes)
        return d

    def frame_rows(self) -> List[Dict[str, Any]]:
        """One row: α, D_o, D_e and the counts, with the interval when there is one."""
        d = self.to_dict()
        ci = d.get("alpha_ci")
        return [{"alpha": d["alpha"], "ci_low": ci[0] if ci else None,
                 "ci_high": ci[1] if ci else None, "d_o": d["d_o"], "d_e": d["d_e"],
                 "n": self.n, "units": self.units}]


def _degenerate_notes(stats: AlphaStats, what: str) -> None:
    if stats.n < 2:
        stats.notes.append(f"{what}: no unit has two or more annotations; α is undefined")
    elif stats.de_sum <= 0.0:
        stats.notes.append(f"{what}: D_e = 0 (all pairable values are identical, no "
                           f"variation to measure agreement on); α is undefined")
    elif stats.units == 1:
        stats.notes.append(f"{what}: only one unit, so D_o = D_e and α = 0 by construction")


# --------------------------------------------------------------------------
# Syntactic α over trees
# --------------------------------------------------------------------------



@dataclass
class TreeAlpha:
    """Syntactic α for every requested variant, with the distances behind it.

    Parameters
    ----------
    stats : dict of str to AlphaStats
        Per variant (``"plain"``, ``"diff"``, ``"norm"``).
    unit_ted : list of numpy.ndarray
        Per pairable unit, the m_u × m_u TED matrix (annotations in order).
    n_distinct : int
        Distinct trees among the pairable values.
    sums : UnitSums, optional
        Per-unit sums (with ``S[u, v]`` when kept); None when D_e was sampled.
    sampled : SampledDe, optional
        The D_e estimate, when sampled.
    """

    stats: Dict[str, AlphaStats]
    unit_ted: List[np.ndarray]  # per pairable unit: m_u × m_u TED matrix
    n_distinct: int
    sums: Optional["UnitSums"] = None  # per-unit sums (S[u, v] when kept)
    sampled: Optional["SampledDe"] = None
    plan: Optional["DePlan"] = None  # how D_e was computed, and why

    def alpha(self, variant: str) -> Optional[float]:
        """α of ``variant``, or None when it is undefined."""
        return self.stats[variant].alpha


def _unit_teds(ut: UnitTrees, costs: Optional["_ted.Costs"],
               within: Optional[np.ndarray]) -> List[np.ndarray]:
    """Per unit, the m_u × m_u TED matrix of its annotations (D_o, diagnostics).

    ``within``: the TEDs of each unit's distinct-tree pairs in
    :attr:`UnitTrees.woff` order, as the exact tiles return them; computed
    here (one kernel call over all units) when ``None``.
    """
    woff = ut.woff
    U = ut.n_units
    k_u = np.diff(ut.uoff)  # distinct trees per unit
    m_u = ut.m.astype(np.int64)  # annotations per unit
    if within is None:
        # pairs (a < b in CSR order) of each unit's distinct trees; units of two
        # distinct trees (nearly all) in one array operation
        first = ut.uoff[:-1]
        two = np.flatnonzero(k_u == 2)
        pi_parts = [ut.utree[first[two]]]
        pj_parts = [ut.utree[first[two] + 1]]
        order = [woff[two]]
        for u in np.flatnonzero(k_u > 2).tolist():
            t = ut.utree[ut.uoff[u]:ut.uoff[u + 1]]
            a, b = np.triu_indices(t.shape[0], 1)
            pi_parts.append(t[a])
            pj_parts.append(t[b])
            order.append(woff[u] + np.arange(a.shape[0]))
        where = np.concatenate(order)
        within = np.zeros(int(woff[-1]))
        within[where] = _ted.pair_distances(ut.pack, np.concatenate(pi_parts),
                                            np.concatenate(pj_parts), costs)
    out: List[Optional[np.ndarray]] = [None] * U
    # two annotations (the usual case): 2 × 2 views of one block, no array per unit
    pairs = np.flatnonzero(m_u == 2)
    block = np.zeros((pairs.shape[0], 2, 2))
    d2 = np.zeros(pairs.shape[0])
    diff = k_u[pairs] == 2  # two different trees (else one tree twice: distance 0)
    d2[diff] = within[woff[pairs[diff]]]
    block[:, 0, 1] = block[:, 1, 0] = d2
    for r, u in enumerate(pairs.tolist()):
        out[u] = block[r]
    for u in np.flatnonzero(m_u != 2).tolist():
        ids = ut.which[u]
        t = ut.utree[ut.uoff[u]:ut.uoff[u + 1]]
        k = t.shape[0]
        dm = np.zeros((k, k))
        a, b = np.triu_indices(k, 1)
        dm[a, b] = within[woff[u]:woff[u + 1]]
        dm[b, a] = dm[a, b]
        pos = np.searchsorted(t, ids)  # each annotation's distinct tree (t is sorted)
        out[u] = dm[np.ix_(pos, pos)]
    return out  # type: ignore[return-value]


def _within_sums(ut: UnitTrees, unit_ted: List[np.ndarray]) -> np.ndarray:
    """(U, 3): Σ_{i≠j in u} δ² per unit and variant, from the units' TED matrices
    (D_o stays exact when D_e is sampled).  Units of two annotations in one array
    operation: their sum is δ² + δ², as the 2 × 2 matrix's sum is, bit for bit."""
    sizes = ut.pack.sizes
    m = ut.m
    diag = np.zeros((ut.n_units, 3))
    two = np.flatnonzero(m == 2)
    if two.shape[0]:
        ids = np.stack([ut.which[k] for k in two.tolist()])
        t = np.array([unit_ted[k][0, 1] for k in two.tolist()], dtype=np.float64)
        for vi, v in enumerate(VARIANTS):
            d2 = delta_squared(t, sizes[ids[:, 0]], sizes[ids[:, 1]], v)
            diag[two, vi] = d2 + d2
    for k in np.flatnonzero(m != 2).tolist():
        s = sizes[ut.which[k]]
        tm = unit_ted[k]
        for vi, v in enumerate(VARIANTS):
            diag[k, vi] = delta_squared(tm, s[:, None], s[None, :], v).sum()
    return diag


def tree_alpha(units: Sequence[Sequence[FlatTree]],
               variants: Sequence[str] = VARIANTS,
               costs: Optional["_ted.Costs"] = None,
               keep_unit_matrix: bool = False,
               sample_pairs: Optional[int] = None, seed: int = 0,
               executor: Optional[Executor] = None, progress: Optional[bool] = None,
               tile: int = 512, target_se: Optional[float] = None,
               full_rows: bool = False, exact: bool = False) -> TreeAlpha:
    """α_plain / α_diff / α_norm for units given as lists of annotation trees.

    docs/method.md §4–5.  Units with fewer than two trees take no part.  One
    TED per pair of distinct trees serves every variant (see
    `synagree.distance.ted`):
    plain δ = TED, diff δ = TED − | |x| − |y| |, norm δ = TED / (|x| + |y|).

    Parameters
    ----------
    units : sequence of sequence of FlatTree
        Per unit, its annotations' trees (label ids from one `Vocabulary`).
    variants : sequence of str
        Any of ``"plain"``, ``"diff"``, ``"norm"``.
    costs : Costs, optional
        Edit costs (docs/method.md §3.2); None: unit costs.
    keep_unit_matrix : bool
        Keep the unit × unit δ² sums (O(units²) memory, needed for the
        bootstrap).
    sample_pairs : int, optional
        Estimate D_e from that many random value pairs (D_o stays exact) and
        report a standard error (docs/method.md §5.3).  None: by cost
        (`plan_de`): exact when it fits `EXACT_BUDGET_CELLS`, else sampled
        until every α's SE is at most `AUTO_TARGET_SE`.
    seed : int
        Seed of the sampled pairs.
    executor : callable, optional
        Runs the tiles of the exact pass elsewhere (e.g. Dask,
        `synagree.distance.dask_exec`); a sampled D_e is computed here, and the
        plan's note says so.
    progress : bool, optional
        Progress bar on stderr when it is a terminal, titled ``exact D_e`` or
        ``sampled D_e``; None: the process default (`synagree.base.progress.wanted`).
    tile : int
        Units per tile of the all-pairs computation.
    target_se : float, optional
        With ``sample_pairs``: draw more pairs until the SE of α is at most this.
    full_rows : bool
        Keep each unit's δ² sums against every value (O(units) memory, exact
        D_e only), from which `synagree.agreement.influence` derives α without
        each unit.
    exact : bool
        Compute D_e exactly whatever it costs (``keep_unit_matrix`` implies it).

    Returns
    -------
    TreeAlpha

    Raises
    ------
    ValueError
        Unknown variant; an argument outside its range.
    TypeError
        ``units`` not a sequence of sequences of `FlatTree`; an argument of
        the wrong type (the message names it, the value and what is allowed).

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> ta = tree_alpha([[a, b], [c, c], [a]])  # the last unit takes no part
    >>> st = ta.stats["plain"]
    >>> st.do_sum, st.de_sum, st.n, st.units, round(st.alpha, 4)
    (2.0, 74.0, 4, 2, 0.9189)
    >>> tree_alpha([[a, a], [b, b]]).stats["plain"].notes
    []
    >>> tree_alpha([[a, b]]).stats["plain"].notes
    ['alpha_plain: only one unit, so D_o = D_e and α = 0 by construction']
    """

    _check_arguments(units, variants, costs, keep_unit_matrix, sample_pairs, seed, progress,
                     tile, target_se, full_rows, exact)
    pairable = [list(u) for u in units if len(u) >= 2]
    ut = UnitTrees.build(pairable)
    n = ut.n_values

    sums = sampled = None
    auto = sample_pairs is None  # the rule decides; the sampler may find exact cheaper
    plan = plan_de(ut.pack, n, sample_pairs, exact or keep_unit_matrix, target_se)
    sample_pairs, target_se = plan.sample_pairs, plan.target_se
    if sample_pairs:
        unit_ted = _unit_teds(ut, costs, None)
        do_sums = UnitSums(_within_sums(ut, unit_ted), np.zeros((ut.n_units, 3)),
                           ut.m).do_sum()
        sampled = sampled_de(ut, int(sample_pairs), seed=seed, costs=costs,
                             target_se=target_se, d_o=do_sums / max(n, 1),
                             progress=progress,
                             max_pairs=max(plan.max_pairs, int(sample_pairs)),
                             max_cells=float(plan.cells) * SAMPLED_TO_EXACT if auto else None)
        de_sums = sampled.d_e * n * (n - 1)
        if sampled.projected is not None:  # the exact pass costs less: do it
            pairs, cells = sampled.projected
            plan = DePlan(None, None, 0, plan.cells,
                          f"D_e computed exactly: sampling until the SE of every alpha is at "
                          f"most {target_se:g} would need about {pairs:,} pairs "
                          f"({cells / 1e9:.1f} G cells), more time than the exact pass "
                          f"({plan.cells / 1e9:.1f} G cells; {_wall_note(cells, plan.cells)})")
            sampled = None
    if executor is not None and sampled is not None:  # say where the work was done
        plan = replace(plan, note=(plan.note + "; " if plan.note else "") + SAMPLED_HERE)
    if sampled is None:
        sums = unit_sums(ut, costs, want_s=keep_unit_matrix, tile=tile, executor=executor,
                         progress=progress, want_full=full_rows)
        do_sums, de_sums = sums.do_sum(), sums.de_sum()
        # the tiles computed the within-unit TEDs too: no second kernel
        unit_ted = _unit_teds(ut, costs, sums.within)

    stats: Dict[str, AlphaStats] = {}
    for v in variants:
        vi = VARIANTS.index(v)
        st = AlphaStats(float(do_sums[vi]), float(de_sums[vi]), n, ut.n_units)
        if sampled is not None:
            st.sampled_pairs = sampled.pairs
            de = sampled.d_e[vi]
            st.alpha_se = float(st.d_o / de ** 2 * sampled.se[vi]) if de > 0 else None
            se_text = f"SE of alpha {st.alpha_se:.2g}" if st.alpha_se is not None else "no SE"
            st.notes.append(f"alpha_{v}: D_e estimated from {sampled.pairs:,} sampled pairs "
                            f"({se_text}); D_o exact")
        _degenerate_notes(st, f"alpha_{v}")
        stats[v] = st
    return TreeAlpha(stats, unit_ted, len(ut.pack), sums, sampled, plan)


#: the note of a sampled D_e when an executor was given: it ran no tiles
SAMPLED_HERE = ("the sampled pairs were computed here, not on the cluster (--dask runs the "
                "exact passes; --exact makes this one exact)")
#: D_e is computed exactly when its all-pairs pass fits this many dynamic-programming
#: cells (the textbook cells of the distinct tree pairs, an upper bound from the trees'
#: keyroot sums): about a second of the C kernel on two cores (docs/method.md §5.3)
EXACT_BUDGET_CELLS = 2_000_000_000
#: cells the C kernel fills per second on one core (for the time estimate of --exact)
KERNEL_CELLS_PER_SECOND = 1_000_000_000
#: DP cells per second of the sampled draws over those of the exact pass, both on
#: every thread (the draws' kernel calls take chunks of 262,144 pairs over all
#: threads, as the exact pass takes its tiles): random pairs share their first tree
#: less often, so the C kernel's SIMD batches keep their column layout for fewer
#: pairs than in the exact pass's tiles.  The cost rule compares estimated wall times,
#: cells over each path's throughput (EWT test against a 10%-perturbed copy, 2 threads,
#: 3 interleaved rounds, 2026-11-29, issue 36, the gather-free SIMD kernel: 0.439
#: against 0.886 G cells/s; 0.184 against 0.322 without SIMD; benchmarks/README.md).
SAMPLED_TO_EXACT = 0.50
#: pairs drawn first when the rule samples D_e: a pilot, just enough for the strata's
#: spreads (12 size bins give 78 strata, 64 pairs each at least: 4,992) and small beside
#: the exact pass (EWT test: about 0.007 G cells against 4-5 G), so that when its
#: projection says the SE target costs more than the exact pass, switching to it
#: wastes little (issue 36: a first draw of 200,000 pairs made the default 5-14 %
#: slower than --exact on EWT against a 5 %-perturbed copy; 20,000 pairs still cost
#: 28 ms of the switch's 38 ms, 5,000 cost 16 ms, with the same decisions on both
#: perturbations and the same pairs drawn in all on the light one)
AUTO_FIRST_PAIRS = 5_000
#: sampled D_e: pairs are drawn until every alpha's standard error is at most this
AUTO_TARGET_SE = 1e-4


def _check_arguments(units: object, variants: object, costs: object, keep_unit_matrix: object,
                     sample_pairs: object, seed: object, progress: object, tile: object,
                     target_se: object, full_rows: object, exact: object) -> None:
    """`tree_alpha`'s arguments checked at the boundary (TypeError / ValueError)."""
    where = "tree_alpha(): "
    check_args(where, variants=variants, seed=seed, progress=progress, exact=exact)
    # the low-level pass takes any positive number of pairs (the commands' ≥ 100 is policy)
    check_value(replace(SPECS["sample_pairs"], lo=1), sample_pairs, where)
    for name, value in (("keep_unit_matrix", keep_unit_matrix), ("full_rows", full_rows)):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{where}{name} must be True or False, not "
                            f"{type(value).__name__} {shown(value)}")
    if costs is not None and not isinstance(costs, _ted.Costs):
        raise TypeError(f"{where}costs must be a synagree.distance.ted.Costs or None, not "
                        f"{type(costs).__name__} {shown(costs)}")
    if isinstance(tile, bool) or not isinstance(tile, (int, np.integer)) or tile < 1:
        raise (TypeError if not isinstance(tile, (int, np.integer)) else ValueError)(
            f"{where}tile must be a whole number ≥ 1, got {shown(tile)}")
    if target_se is not None and (isinstance(target_se, bool)
                                  or not isinstance(target_se, (int, float, np.floating))
                                  or not 0 < float(target_se) < float("inf")):
        raise (TypeError if not isinstance(target_se, (int, float, np.floating))
               or isinstance(target_se, bool) else ValueError)(
            f"{where}target_se must be a positive number or None, got {shown(target_se)}")
    if isinstance(units, (str, bytes)) or not isinstance(units, Sequence):
        raise TypeError(f"{where}units must be a sequence of units, each a sequence of "
                        f"FlatTree, not {type(units).__name__} {shown(units)}")
    for k, u in enumerate(units):
        if isinstance(u, (str, bytes)) or not isinstance(u, Sequence) or \
                not all(isinstance(t, FlatTree) for t in u):
            raise TypeError(f"{where}unit {k + 1} must be a sequence of FlatTree (from "
                            f"synagree.trees.flat), not {shown(u)}")


def _wall_note(sampled_cells: float, exact_cells: float) -> str:
    """What the cost rule compared: the wall time of each path, in words."""
    t = threads()
    exact_s = exact_cells / (KERNEL_CELLS_PER_SECOND * t)
    return (f"compared as wall time on {t} thread(s): about {exact_s:,.1f} s exact against "
            f"{exact_s * sampled_cells / (exact_cells * SAMPLED_TO_EXACT):,.1f} s sampled, the "
            f"sampled pairs' cells at {SAMPLED_TO_EXACT:g}x the exact pass's throughput")


def exact_cells(pack: "_ted.TreePack") -> int:
    """The dynamic-programming cells of every pair of distinct trees of ``pack``.

    An upper bound: the kernel takes the cheaper orientation per pair; this
    takes the cheaper one for all pairs (Σ_{i<j} c_i c_j from the trees'
    keyroot sums c, `synagree.trees.flat.FlatTree.cost_left`), in O(trees).
    """
    def pairs(c: np.ndarray) -> float:
        c = c.astype(np.float64)
        return float(c.sum() ** 2 - (c * c).sum()) / 2.0

    return int(min(pairs(pack.cl), pairs(pack.cr)))


@dataclass(frozen=True)
class DePlan:
    """How D_e is computed: exact, or from sampled pairs (docs/method.md §5.3).

    Attributes
    ----------
    sample_pairs : int or None
        Pairs drawn first (None: exact).
    target_se : float or None
        Draw more pairs until every α's SE is at most this.
    max_pairs : int
        At most this many pairs (about the cost of the exact pass).
    cells : int
        The exact pass's cells (`exact_cells`).
    note : str or None
        What a reader must know (sampled by the cost rule; exact above budget).
    """

    sample_pairs: Optional[int]
    target_se: Optional[float]
    max_pairs: int
    cells: int
    note: Optional[str]


def plan_de(pack: "_ted.TreePack", n_values: int, sample_pairs: Optional[int] = None,
            exact: bool = False, target_se: Optional[float] = None) -> DePlan:
    """The rule for exact vs sampled D_e, by cost (docs/method.md §5.3).

    Explicit ``sample_pairs`` are kept; ``exact`` forces the exact pass.
    Otherwise D_e is exact when `exact_cells` fits `EXACT_BUDGET_CELLS`, else
    `AUTO_FIRST_PAIRS` pairs are drawn, then more until every α's SE is at
    most `AUTO_TARGET_SE`, up to as many pairs as the exact pass has.
    """
    cells = exact_cells(pack)
    D = len(pack)
    all_pairs = max(n_values * (n_values - 1), 1)
    if sample_pairs is not None:
        return DePlan(int(sample_pairs), target_se, max(all_pairs, int(sample_pairs)), cells,
                      None)
    if exact or cells <= EXACT_BUDGET_CELLS:
        note = None
        if cells > EXACT_BUDGET_CELLS:
            secs = cells / (KERNEL_CELLS_PER_SECOND * threads())
            note = (f"exact D_e over {D:,} distinct trees: about {cells / 1e9:.1f} G cells, "
                    f"roughly {secs:,.0f} s on {threads()} thread(s)")
        return DePlan(None, None, 0, cells, note)
    return DePlan(AUTO_FIRST_PAIRS, AUTO_TARGET_SE, all_pairs, cells,
                  f"D_e estimated from sampled pairs: the exact pass would take about "
                  f"{cells / 1e9:.1f} G cells, above the budget of "
                  f"{EXACT_BUDGET_CELLS / 1e9:g} G (about a second); pairs are drawn until "
                  f"the SE of every alpha is at most {AUTO_TARGET_SE:g} (--exact forces the "
                  f"exact D_e)")
