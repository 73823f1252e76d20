"""Is agreement drifting within a round?  α per batch with a control band (``--by``).

docs/method.md §26.  The pairable units are cut into **batches**, in corpus
order:

``batch``      the value of a ``# batch = ...`` comment (every pairable unit
               needs one, and a unit's annotations that carry one must agree);
``document``   the unit's document (with ``--dirs``: the file name shared by
               the annotators' directories);
``order:N``    consecutive groups of N pairable units (the last one may be
               smaller).

Batches are listed in the order of their first unit.  For batch b with
units U_b and n_b pairable values,

    α_b = 1 − D_o(b) / D_e,   D_o(b) = (1/n_b) Σ_{u ∈ U_b} Σ_{i≠j in u} δ² / (m_u − 1)

with D_e **of the whole corpus**: the chance baseline is the trees'
variation over the round, not the (noisy) variation within a few dozen
sentences, so batches differ only by their observed disagreement, and α is
the n-weighted mean of the α_b.  The **control band** of a batch of s units
is the central ``level`` interval of α over s units drawn with replacement
from all pairable units of the corpus (B replicates, D_e held fixed): where
α_b would fall if the batch were a random sample of the round.  A batch
outside its band is ``below`` or ``above``; with many batches about
(1 − level) of them fall outside by chance.

The band screens batches one by one; whether agreement varies between the
batches at all is one test, the **homogeneity p** (``drift_p``): the
dispersion T = Σ_b n_b (α_b − α)² against its distribution when the units are
shuffled between the batches (batch sizes kept, B permutations),
p = (1 + #{T* ≥ T}) / (B + 1).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from synagree.agreement.core import Core, DictSection, Value, corpus_of, variants_of
from synagree.base.groupings import Grouping, parse_by  # declared where --by is parsed
from synagree.base.problems import InputError
from synagree.distance.sums import delta_squared
from synagree.stats.bootstrap import percentile_interval

__all__ = ["DRIFT_REPLICATES", "Grouping", "parse_by", "Batch", "Drift", "drift_section"]

#: Replicates of the control band when the command asks for no bootstrap.
DRIFT_REPLICATES = 1000
#: Replicate rows resampled at once (bounds the memory of the band).
_CHUNK_CELLS = 4_000_000


@dataclass
class Batch:
    """One batch: its units, its α per variant and the control band.

    Attributes
    ----------
    name : str
        The batch value, the document, or ``1``, ``2``, ... for ``order:N``.
    units : int
        Pairable units.
    annotations : int
        Their annotations (n_b).
    first, last : str
        Ids (``sent_id`` or position) of the first and last unit.
    do_sum : dict of str to float
        Per variant, Σ_u Σ_{i≠j} δ² / (m_u − 1) over the batch (n_b · D_o(b)).
    alpha : dict of str to float or None
        Per variant, α_b with the corpus's D_e (None where D_e is 0).
    band : dict of str to (float, float) or None
        Per variant, the control band for a batch of this many units.
    """

    name: str
    units: int
    annotations: int
    first: str
    last: str
    do_sum: Dict[str, float]
    alpha: Dict[str, Optional[float]]
    band: Dict[str, Optional[Tuple[float, float]]] = field(default_factory=dict)

    def status(self, variant: str) -> str:
        """``below`` or ``above`` the band, ``within`` it, or "" without a band."""
        a, b = self.alpha.get(variant), self.band.get(variant)
        if a is None or b is None:
            return ""
        return "below" if a < b[0] else ("above" if a > b[1] else "within")

    def to_dict(self) -> dict:
        """JSON-ready: counts, α and band per variant (``alpha_<v>``, ``alpha_<v>_band``)."""
        d: dict = {"batch": self.name, "units": self.units, "annotations": self.annotations,
                   "first_unit": self.first, "last_unit": self.last}
        for v, a in self.alpha.items():
            band = self.band.get(v)
            d[f"alpha_{v}"] = a
            d[f"alpha_{v}_band"] = None if band is None else list(band)
            d[f"alpha_{v}_status"] = self.status(v) or None
            d[f"do_sum_{v}"] = self.do_sum[v]
        return d


@dataclass
class Drift(DictSection):
    """The ``drift`` section: α per batch in order, with control bands (docs/method.md §26).

    Attributes
    ----------
    by : Grouping
    variant : str
        The variant whose band decides ``drift_batches_outside``.
    d_e : dict of str to float
        The corpus's D_e per variant.
    p_homogeneity : dict of str to float or None
        Per variant, the permutation p of the batches' dispersion (None with
        fewer than two batches or D_e = 0).
    batches : list of Batch
    replicates, seed : int
    level : float
    notes : list of str
    """

    by: Grouping
    variant: str
    d_e: Dict[str, float]
    p_homogeneity: Dict[str, Optional[float]]
    batches: List[Batch]
    replicates: int
    seed: int
    level: float
    notes: List[str] = field(default_factory=list)

    name = "drift"

    @property
    def outside(self) -> List[Batch]:
        """The batches outside their band (on ``variant``)."""
        return [b for b in self.batches if b.status(self.variant) in ("below", "above")]

    def metrics(self) -> Dict[str, Value]:
        """``drift_batches``, ``drift_batches_outside`` (counts)."""
        return {"drift_batches": len(self.batches), "drift_batches_outside": len(self.outside)}

    def to_dict(self) -> dict:
        """JSON-ready: the grouping, the band's settings, every batch, the notes."""
        return {"by": self.by.describe(), "variant": self.variant,
                "drift_p": dict(self.p_homogeneity),
                "band": {"replicates": self.replicates, "seed": self.seed,
                         "level": self.level,
                         "method": "units resampled with replacement from the whole corpus, "
                                   "D_e of the corpus"},
                "d_e": dict(self.d_e), "batches": [b.to_dict() for b in self.batches],
                "notes": list(self.notes)}


def _batch_value(unit) -> Tuple[Optional[str], List[Tuple[str, int, str]]]:
    """The ``# batch`` value of a unit, and every annotation's (file, line, value)."""
    seen = []
    for s in unit.annotations.values():
        v = (getattr(s, "metadata", None) or {}).get("batch")
        if v is not None and v.strip():
            seen.append((str(s.file), int(s.line), v.strip()))
    values = {v for _, _, v in seen}
    return (next(iter(values)) if len(values) == 1 else None), seen


def _labels(core: Core, positions: Sequence[int], by: Grouping) -> List[str]:
    """The batch of each pairable unit (`InputError` ``bad-batch`` when unreadable)."""
    corpus = core.corpus
    assert corpus is not None
    if by.kind == "document":
        return [corpus.units[p].document for p in positions]
    if by.kind == "order":
        return [str(k // by.size + 1) for k in range(len(positions))]
    out: List[str] = []
    missing: List[str] = []
    for p in positions:
        unit = corpus.units[p]
        value, seen = _batch_value(unit)
        if len(seen) and value is None:
            where = "; ".join(f"{f}:{line} says {v!r}" for f, line, v in seen)
            raise InputError.single(seen[0][0], seen[0][1], "bad-batch",
                                    f"unit {unit.uid!r}: its annotations are in different "
                                    f"batches ({where}); --by batch needs one "
                                    f"'# batch = ...' value per sentence")
        if value is None:
            s = next(iter(unit.annotations.values()))
            missing.append(f"{s.file}:{s.line}")
        out.append(value or "")
    if missing:
        first = missing[0].rsplit(":", 1)
        raise InputError.single(first[0], int(first[1]), "bad-batch",
                                f"--by batch: {len(missing)} sentence(s) have no "
                                f"'# batch = ...' comment in any annotation (the first here); "
                                f"give every sentence one, or use --by document or "
                                f"--by order:N")
    return out


def _unit_sums(core: Core, variants: Sequence[str]) -> Tuple[List[int], np.ndarray, np.ndarray]:
    """Pairable units' positions, Σ_{i≠j} δ²/(m_u−1) per variant (U × V) and m_u."""
    ta = core.tree_alpha
    if ta is None:
        raise ValueError("the agreement result carries no per-unit TED matrices")
    positions = [k for k, trees in enumerate(core.trees) if len(trees) >= 2]
    if len(positions) != len(ta.unit_ted):
        raise ValueError("the agreement result's trees and TED matrices do not match")
    do = np.zeros((len(positions), len(variants)))
    m = np.zeros(len(positions))
    for k, (pos, tm) in enumerate(zip(positions, ta.unit_ted)):
        sz = np.array([t.size for t in core.trees[pos]], dtype=np.float64)
        tm = np.asarray(tm, dtype=np.float64)
        m[k] = len(sz)
        for j, v in enumerate(variants):
            do[k, j] = float(delta_squared(tm, sz[:, None], sz[None, :], v).sum()) / (m[k] - 1)
    return positions, do, m


def _band(do: np.ndarray, m: np.ndarray, d_e: float, size: int, B: int,
          rng: np.random.Generator, level: float) -> Optional[Tuple[float, float]]:
    """The central ``level`` interval of α over ``size`` units drawn with replacement."""
    if not d_e > 0 or B < 1:
        return None
    U = len(m)
    reps = np.empty(B)
    step = max(1, _CHUNK_CELLS // max(size, 1))
    for lo in range(0, B, step):
        hi = min(B, lo + step)
        idx = rng.integers(0, U, size=(hi - lo, size))
        reps[lo:hi] = 1.0 - (do[idx].sum(axis=1) / m[idx].sum(axis=1)) / d_e
    return percentile_interval(reps, level)


def _dispersion(do: np.ndarray, m: np.ndarray, batch: np.ndarray, n_batches: int) -> float:
    """Σ_b n_b (D_o(b) − D_o)², the batches' dispersion (α's, up to D_e²)."""
    n_b = np.bincount(batch, weights=m, minlength=n_batches)
    do_b = np.bincount(batch, weights=do, minlength=n_batches)
    mean = do.sum() / m.sum()
    ok = n_b > 0
    return float((n_b[ok] * (do_b[ok] / n_b[ok] - mean) ** 2).sum())


def _homogeneity_p(do: np.ndarray, m: np.ndarray, batch: np.ndarray, n_batches: int,
                   d_e: float, R: int, rng: np.random.Generator) -> Optional[float]:
    """The permutation p of the batches' dispersion (units shuffled between batches)."""
    if n_batches < 2 or not d_e > 0 or R < 1:
        return None
    observed = _dispersion(do, m, batch, n_batches)
    tol = 1e-12 * max(observed, 1e-300)
    hits = 0
    for _ in range(R):
        hits += _dispersion(do, m, rng.permutation(batch), n_batches) >= observed - tol
    return (1 + hits) / (R + 1)


def drift_section(core: Core, by: "Grouping | str", variant: str = "plain",
          replicates: int = DRIFT_REPLICATES, seed: int = 0,
          level: float = 0.95) -> Drift:
    """α per batch, in order, with the control band of each (docs/method.md §26).

    Parameters
    ----------
    core : AgreementResult
        Carrying its corpus, trees and per-unit TED matrices.
    by : Grouping or str
        ``batch``, ``document`` or ``order:N`` (`parse_by`).
    variant : str
        The variant whose band counts batches outside (every variant of the
        result gets α and a band).
    replicates : int
        Resamples per distinct batch size.
    seed : int
    level : float
        Coverage of the band, a fraction.

    Raises
    ------
    InputError
        ``bad-batch``: ``--by batch`` with a pairable unit without a
        ``# batch`` comment, or whose annotations name different batches.
    ValueError
        A bad ``by`` text.
    """
    g = parse_by(by) if isinstance(by, str) else by
    variants = variants_of(core)
    if variant not in variants:
        variant = variants[0]
    corpus = corpus_of(core)
    positions, do, m = _unit_sums(core, variants)
    labels = _labels(core, positions, g)
    order: Dict[str, List[int]] = {}
    for k, lab in enumerate(labels):
        order.setdefault(lab, []).append(k)
    d_e = {v: float(core.alpha[v].d_e) for v in variants}
    rng = np.random.default_rng(seed)
    bands: Dict[Tuple[str, int], Optional[Tuple[float, float]]] = {}
    batches: List[Batch] = []
    for name, ks in order.items():
        idx = np.array(ks)
        n_b = float(m[idx].sum())
        do_b = {v: float(do[idx, j].sum()) for j, v in enumerate(variants)}
        alpha = {v: (1.0 - do_b[v] / n_b / d_e[v] if d_e[v] > 0 else None) for v in variants}
        band = {}
        for j, v in enumerate(variants):
            key = (v, len(ks))
            if key not in bands:
                bands[key] = _band(do[:, j], m, d_e[v], len(ks), replicates, rng, level)
            band[v] = bands[key]
        first, last = corpus.units[positions[ks[0]]], corpus.units[positions[ks[-1]]]
        batches.append(Batch(name, len(ks), int(n_b), first.sent_id or first.uid,
                             last.sent_id or last.uid, do_b, alpha, band))
    batch_of = np.zeros(len(labels), dtype=np.int64)
    for b, ks in enumerate(order.values()):
        batch_of[ks] = b
    p_hom = {v: _homogeneity_p(do[:, j], m, batch_of, len(order), d_e[v], replicates, rng)
             for j, v in enumerate(variants)}
    notes = [f"drift: alpha per batch with the corpus's D_e; band: the central "
             f"{level:g} interval of alpha over as many units drawn with replacement from "
             f"the whole corpus ({replicates} replicates, seed {seed}); about "
             f"{1 - level:.0%} of batches fall outside by chance"]
    if len(batches) < 2:
        notes.append(f"drift: --by {g.describe()} gives {len(batches)} batch(es); there is "
                     f"nothing to compare")
    if g.kind == "order" and batches and batches[-1].units < g.size:
        notes.append(f"drift: the last batch holds {batches[-1].units} unit(s), fewer than "
                     f"{g.size}; its band is wider")
    small = [b.name for b in batches if b.units < 5]
    if small and g.kind != "order":
        notes.append(f"drift: {len(small)} batch(es) hold fewer than 5 units (e.g. "
                     f"{small[0]!r}); their alpha and band are rough")
    if any(core.alpha[v].sampled_pairs for v in variants):
        notes.append("drift: the corpus's D_e was estimated from sampled pairs; the band "
                     "holds it fixed")
    if all(not d_e[v] > 0 for v in variants):
        notes.append("drift: D_e = 0 (every tree identical): alpha per batch is undefined")
    if p_hom.get(variant) is not None:
        notes.append(f"drift: homogeneity of the batches (alpha_{variant}): permutation "
                     f"p = {p_hom[variant]:.4g} ({replicates} shuffles of the units between "
                     f"the batches); a small p says agreement differs between batches")
    return Drift(g, variant, d_e, p_hom, batches, replicates, seed, level, notes)
