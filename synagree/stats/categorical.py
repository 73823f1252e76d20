"""Categorical agreement on token layers (labels, heads, UPOS, XPOS, FEATS).

Every word of a sentence is an *item*; each annotator assigns it one
*category* per layer:

* ``deprel`` -- the dependency label, compared in full (subtypes included);
* ``head``   -- the head, as a category: the signed offset of the head from
  the word (``+1``, ``-2``, ...) or ``root`` for HEAD 0.  Two annotators
  agree on the category exactly when they chose the same head; offsets are
  used instead of absolute positions so that a category means the same thing
  in every sentence (only the chance term depends on this choice);
* ``upos``, ``xpos``, ``feats`` -- the column as written (``_`` included);
* ``head+deprel`` -- head offset and label together (the LAS decision).

Words are aligned by position, so a sentence whose annotations differ in
word count, or in a word (an edited unit, docs/method.md §1.8), cannot be
compared token by token: it is left out of every layer and counted in
``ignored_units``.  A sentence missing for some annotators
(``--allow-missing``) contributes items with missing values.

Coefficients (the terms of the GATE user guide's IAA chapter, after
Artstein & Poesio 2008; κ and π by the one engine of
`synagree.stats.contingency`, from counts):

* observed agreement A_o: share of items on which two annotators agree;
* Cohen's κ: chance from each annotator's own category distribution,
  P_e = Σ_k p_a(k)·p_b(k);
* Scott's π: chance from the pooled distribution, P_e = Σ_k ((p_a(k)+p_b(k))/2)²;
* for more than two annotators (items coded by all of them):
  Fleiss' κ (Fleiss 1971, also Siegel & Castellan's κ: the multi-annotator
  π, pooled distribution; what ``statsmodels`` computes) and the
  Davies & Fleiss (1982) κ (the multi-annotator Cohen's κ: chance is the mean
  over annotator pairs of Σ_k p_a(k)·p_b(k)); with two annotators they equal
  Scott's π and Cohen's κ exactly;
* Krippendorff's α, nominal (from the coincidence matrix; takes every item
  with two or more values, so missing values are fine);
* specific (positive) agreement per category k,
  p_s(k) = 2·n_kk / (n_k· + n_·k) over a contingency table (summed over
  annotator pairs for the pooled view);
* the contingency (confusion) matrix itself.

Averages: *micro* over documents pools all items into one set of counts;
*macro* is the unweighted mean of the per-document coefficient (documents
where it is defined).  Over categories: the micro-average of specific
agreement is the observed agreement; the macro-average is the unweighted
mean of p_s(k) over the categories that occur.

Everything is stored as counts (contingency tables, coincidences, marginal
counts); coefficients are derived.  `layer_bootstrap` resamples *sentences*
(clusters of items) with replacement, seeded, on the one resampling engine
(`synagree.stats.bootstrap`), and recomputes the pooled coefficients from
per-sentence sums.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from itertools import combinations
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from synagree.base.option_specs import DEFAULT_TOKEN_LAYERS, TOKEN_LAYERS
from synagree.base.problems import InputError
from synagree.io.text import same_words
from synagree.stats.bootstrap import Interval, bootstrap
from synagree.stats.contingency import Contingency, multi_rater_coefficients, one_table

LAYERS = TOKEN_LAYERS  # declared with the options (synagree.base.option_specs)
DEFAULT_LAYERS = DEFAULT_TOKEN_LAYERS
COEFFICIENTS = ("observed", "cohen_kappa", "scott_pi", "alpha_nominal")  # pooled, bootstrapped


# --------------------------------------------------------------------------
# Multi-annotator coefficients on code arrays (the engine: synagree.stats.contingency)
# --------------------------------------------------------------------------

def fleiss_kappa(counts: np.ndarray) -> float:
    """Fleiss' κ (1971) of an items × categories table of rating counts.

    Every item must have the same number of ratings m ≥ 2 (as in
    ``statsmodels.stats.inter_rater.fleiss_kappa``).  The multi-annotator
    Scott's π.

    Parameters
    ----------
    counts : array-like
        N × K: how many annotators put item i in category k.

    Returns
    -------
    float
        NaN when P_e = 1 or there are no items.

    Raises
    ------
    ValueError
        Items with different numbers of ratings, or fewer than two.
    """
    c = np.asarray(counts, dtype=np.float64)
    if c.size == 0:
        return float("nan")
    m = c.sum(1)
    if np.any(m != m[0]) or m[0] < 2:
        raise ValueError("every item needs the same number (≥ 2) of ratings")
    return float(multi_rater_coefficients(c.shape[0], (c * (c - 1)).sum(), c.sum(0),
                                          int(m[0]))["scott_pi"])


def davies_fleiss_kappa(codes: np.ndarray, n_categories: Optional[int] = None) -> float:
    """Davies & Fleiss (1982) κ of an items × annotators array of category codes.

    Multi-annotator Cohen's κ: P_o is the mean pairwise agreement per item (as
    Fleiss), P_e the mean over annotator pairs of Σ_k p_a(k) p_b(k).  No
    missing values (every item coded by every annotator).

    Parameters
    ----------
    codes : array-like
        N × m integer category codes (0..K−1).
    n_categories : int, optional
        K; None: the largest code + 1.

    Returns
    -------
    float
        NaN with no items, fewer than two annotators, or P_e = 1.
    """
    x = np.asarray(codes, dtype=np.int64)
    N, m = x.shape
    if N == 0 or m < 2:
        return float("nan")
    K = int(n_categories if n_categories is not None else x.max() + 1)
    marg = np.stack([np.bincount(x[:, a], minlength=K) for a in range(m)])
    return float(multi_rater_coefficients(N, _agreeing_pairs(x).sum(), marg.sum(0), m,
                                          marg)["cohen_kappa"])


def coincidences(codes: np.ndarray, n_categories: int) -> np.ndarray:
    """Krippendorff's coincidence matrix of an items × annotators code array.

    Each ordered pair of values (a ≠ b) of an item with m_i ≥ 2 values adds
    1/(m_i − 1); items with fewer than two values take no part.

    Parameters
    ----------
    codes : array-like
        N × m category codes, -1 = missing.
    n_categories : int

    Returns
    -------
    numpy.ndarray
        K × K, symmetric; its total is the number of pairable values.

    See Also
    --------
    alpha_from_coincidences
    """
    x = np.asarray(codes, dtype=np.int64)
    K = n_categories
    o = np.zeros((K, K))
    if x.size == 0:
        return o
    mi = (x >= 0).sum(1)
    w = np.where(mi >= 2, 1.0 / np.maximum(mi - 1, 1), 0.0)
    m = x.shape[1]
    for a in range(m):
        for b in range(m):
            if a != b:
                ok = (x[:, a] >= 0) & (x[:, b] >= 0)
                np.add.at(o, (x[ok, a], x[ok, b]), w[ok])
    return o


def _alpha_nominal(nc: np.ndarray, dis: float) -> float:
    """Nominal α from the coincidence margins n_c and Σ_{c≠k} o_ck; NaN if undefined."""
    n = float(nc.sum())
    de = n * n - float(nc @ nc)
    if n < 2 or de <= 0:
        return float("nan")
    return float(1.0 - (n - 1) * dis / de)


def alpha_from_coincidences(o: np.ndarray) -> float:
    """Nominal α = 1 − (n − 1) Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k.

    Parameters
    ----------
    o : array-like
        K × K coincidence matrix (`coincidences`).

    Returns
    -------
    float
        NaN if undefined (fewer than two values, or a single category).
    """
    o = np.asarray(o, dtype=np.float64)
    return _alpha_nominal(o.sum(1), o.sum() - np.trace(o))


def nominal_alpha(codes: np.ndarray, n_categories: Optional[int] = None) -> float:
    """Krippendorff's nominal α of an items × annotators code array (-1 = missing).

    Parameters
    ----------
    codes : array-like
        N × m category codes.
    n_categories : int, optional
        K; None: the largest code + 1.

    Returns
    -------
    float
        NaN if undefined.

    See Also
    --------
    synagree.stats.krippendorff.krippendorff_alpha : the same from values.
    """
    x = np.asarray(codes, dtype=np.int64)
    K = int(n_categories if n_categories is not None else max(int(x.max()) + 1, 1))
    return alpha_from_coincidences(coincidences(x, K))


# --------------------------------------------------------------------------
# Items from a corpus
# --------------------------------------------------------------------------

def _layer_values(sent, layer: str) -> List[str]:
    if layer == "deprel":
        return list(sent.deprels)
    if layer in ("head", "head+deprel"):
        heads = sent.heads.tolist()
        offs = ["root" if h == 0 else f"{h - i:+d}" for i, h in enumerate(heads, start=1)]
        if layer == "head":
            return offs
        return [f"{o}/{d}" for o, d in zip(offs, sent.deprels)]
    if layer in ("upos", "xpos", "feats"):
        vals = getattr(sent, layer)
        return list(vals) if vals else ["_"] * sent.n_words
    raise ValueError(f"unknown layer {layer!r}; expected one of {LAYERS}")


@dataclass
class ItemData:
    """Items (words) × annotators as category codes, grouped in units (sentences).

    Built by `items_from_corpus` (docs/method.md §12.3).

    Parameters
    ----------
    layer : str
        One of `LAYERS`.
    annotators : list of str
    categories : list of str
        Category of each code.
    codes : numpy.ndarray
        (items, m) int32; -1 = missing.
    unit_of_item : numpy.ndarray
        (items,): index into ``units``.
    units : list of str
        Ids of the units (sentences) that take part.
    documents : list of str
        Document of each unit.
    ignored_units : int
        Units left out because their annotations differ in word count.
    positions : list of int, optional
        Per unit: its index in ``corpus.units``.
    """

    layer: str
    annotators: List[str]
    categories: List[str]
    codes: np.ndarray  # (items, m) int32, -1 = missing
    unit_of_item: np.ndarray  # (items,) index into ``units``
    units: List[str]  # unit ids (sentences that take part)
    documents: List[str]  # per unit
    ignored_units: int = 0  # annotations differ in word count
    positions: Optional[List[int]] = None  # per unit: index in corpus.units

    @property
    def n_categories(self) -> int:
        """Number of categories K."""
        return len(self.categories)

    def subset_units(self, keep: np.ndarray) -> "ItemData":
        """Only the items of the units where ``keep[u]`` (a boolean array over units)."""
        keep = np.asarray(keep, dtype=bool)
        new_index = np.cumsum(keep) - 1
        sel = keep[self.unit_of_item]
        return ItemData(self.layer, self.annotators, self.categories, self.codes[sel],
                        new_index[self.unit_of_item[sel]],
                        [u for u, k in zip(self.units, keep) if k],
                        [d for d, k in zip(self.documents, keep) if k], 0,
                        None if self.positions is None else
                        [p for p, k in zip(self.positions, keep) if k])


def items_from_corpus(corpus, layer: str) -> ItemData:
    """Token-layer items of a dependency corpus (docs/method.md §12.3).

    Every word of a unit is an item; units whose annotations differ in word
    count are left out (``ignored_units``), units with one annotation take no
    part.  The ``head`` layer's categories are signed head offsets (``+1``,
    ``-2``) or ``root``.

    Parameters
    ----------
    corpus : Corpus
        A dependency corpus.
    layer : str
        One of `LAYERS`: ``deprel``, ``head``, ``upos``, ``xpos``, ``feats``,
        ``head+deprel``.

    Raises
    ------
    ValueError
        Unknown layer.
    InputError
        A phrase-structure corpus (``not-dependency``).
    """
    if layer not in LAYERS:
        raise ValueError(f"unknown layer {layer!r}; expected one of {', '.join(LAYERS)}")
    if getattr(corpus, "kind", "dependency") != "dependency":
        files = [f for fs in (getattr(corpus, "files", None) or {}).values() for f in fs]
        raise InputError.single(files[0] if files else "<input>", None, "not-dependency",
                                f"categorical agreement needs dependency (CoNLL) input, not "
                                f"{getattr(corpus, 'kind', 'this')} trees")
    names = list(corpus.annotators)
    col = {a: k for k, a in enumerate(names)}
    cat_index: Dict[str, int] = {}
    cats: List[str] = []
    rows: List[np.ndarray] = []
    unit_ids: List[str] = []
    docs: List[str] = []
    positions: List[int] = []
    ignored = 0
    for pos, unit in enumerate(corpus.units):
        anns = unit.annotations
        if len(anns) < 2:
            continue
        if not same_words([s.forms for s in anns.values()]):
            ignored += 1  # another word count, or an edited unit (docs/method.md §1.8)
            continue
        n = next(iter(anns.values())).n_words
        block = np.full((n, len(names)), -1, dtype=np.int32)
        for a, s in anns.items():
            vals = _layer_values(s, layer)
            for i, v in enumerate(vals):
                c = cat_index.get(v)
                if c is None:
                    c = cat_index[v] = len(cats)
                    cats.append(v)
                block[i, col[a]] = c
        rows.append(block)
        unit_ids.append(unit.uid)
        docs.append(unit.document)
        positions.append(pos)
    codes = np.concatenate(rows) if rows else np.zeros((0, len(names)), np.int32)
    uoi = (np.repeat(np.arange(len(rows)), [r.shape[0] for r in rows]) if rows
           else np.zeros(0, np.int64))
    return ItemData(layer, names, cats, codes, uoi, unit_ids, docs, ignored, positions)


#: The CoNLL-U column (and its CoNLL-X name) of each layer, for notes.
LAYER_COLUMNS = {"deprel": "DEPREL", "head": "HEAD", "upos": "UPOS (CoNLL-X CPOSTAG)",
                 "xpos": "XPOS (CoNLL-X POSTAG)", "feats": "FEATS", "head+deprel": "HEAD+DEPREL"}
#: A layer whose distinct values are at least this share of its words looks like ids.
ID_LIKE_DISTINCT = 0.9
#: ... counted only from this many distinct values on (a tiny corpus has few words).
ID_LIKE_MIN_VALUES = 20
# a number (12, -3, 1.5, 2e-3) or an id (w12, s3-4, t_7, 1.2): at most two letters, digits
_ID_OR_NUMBER = re.compile(r"^(?:[+-]?\d+(?:[.,]\d+)?(?:[eE][+-]?\d+)?"
                           r"|[A-Za-z]{0,2}[-_#:.]?\d+(?:[-_.:]\d+)*)$")


def layer_note(data: ItemData, keep: bool) -> Optional[str]:
    """The note for a token layer that carries no categories to agree on (see
    `not_categories`), left out or (``keep``: asked for by name) kept; None
    for an ordinary layer.
    """
    why = not_categories(data)
    if why is None:
        return None
    if keep:
        return (f"{why}; kept because it was asked for by name, but its coefficients say "
                f"nothing about the annotation")
    return f"{why}; left out (name the layer in --layers to keep it)"


def not_categories(data: ItemData) -> Optional[str]:
    """Why a token layer has no categories to agree on, or None: its values look
    like ids or numbers (`id_like`), or no word has one (every value ``_``).
    """
    why = id_like(data)
    if why is not None:
        return why
    used = np.unique(data.codes[data.codes >= 0])
    if len(used) and all(data.categories[int(c)] == "_" for c in used):
        column = LAYER_COLUMNS.get(data.layer, data.layer)
        return f"layer {data.layer} (column {column}): no word has a value (every one is '_')"
    return None


def id_like(data: ItemData) -> Optional[str]:
    """Why the values of a token layer look like ids or numbers rather than
    categories, or None.

    Such a column (token ids copied into POSTAG, say) agrees trivially: κ
    1.0 over as many categories as words says nothing about annotation.  A
    layer looks like ids when its distinct values (``_`` aside) number at
    least `ID_LIKE_MIN_VALUES` and `ID_LIKE_DISTINCT` of its words (nearly
    every value distinct), or when more than 10 distinct values are all
    numbers or short ids (``12``, ``-0.5``, ``w12``, ``s3-4``).  ``head`` and
    ``head+deprel`` never do: their categories are head offsets by design.

    Returns
    -------
    str or None
        The reason, naming the layer's column.
    """
    if data.layer in ("head", "head+deprel"):
        return None
    used = np.unique(data.codes[data.codes >= 0])
    values = [data.categories[int(c)] for c in used if data.categories[int(c)] != "_"]
    if not values:
        return None
    placeholder = [k for k, c in enumerate(data.categories) if c == "_"]
    words = int(np.sum(np.any((data.codes >= 0) & ~np.isin(data.codes, placeholder), axis=1)))
    column = LAYER_COLUMNS.get(data.layer, data.layer)
    where = f"layer {data.layer} (column {column}): {len(values)} distinct values over " \
            f"{words} words"
    numeric = sum(1 for v in values if _ID_OR_NUMBER.match(v))
    if len(values) > 10 and numeric == len(values):
        return (f"{where}, all numbers or ids (such as {', '.join(map(repr, values[:3]))}): "
                f"they look like ids, not categories")
    if len(values) >= ID_LIKE_MIN_VALUES and len(values) >= ID_LIKE_DISTINCT * words:
        return f"{where}: nearly every value is distinct, as ids are, not categories"
    return _id_feature(values, where)


def _id_feature(values: List[str], where: str) -> Optional[str]:
    """Why a feature of ``Name=Value|...`` values holds ids (CDT's ``id=94`` in FEATS:
    at least `ID_LIKE_MIN_VALUES` distinct numbers, one in most values), or None."""
    numbers: Dict[str, set] = {}
    holding: Dict[str, int] = {}
    for v in values:
        for f in v.split("|"):
            name, eq, val = f.partition("=")
            if eq and _ID_OR_NUMBER.match(val):
                numbers.setdefault(name, set()).add(val)
                holding[name] = holding.get(name, 0) + 1
    for name, seen in numbers.items():
        if len(seen) >= ID_LIKE_MIN_VALUES and holding[name] >= len(values) / 2:
            return (f"{where}: its feature {name!r} takes {len(seen)} distinct numbers "
                    f"(such as {name}={sorted(seen)[0]}): they look like ids, not categories")
    return None


# --------------------------------------------------------------------------
# Counts per layer
# --------------------------------------------------------------------------

def pair_table(codes: np.ndarray, a: int, b: int, K: int) -> np.ndarray:
    """K × K contingency table of annotators a (rows) and b (columns), both present.

    Parameters
    ----------
    codes : numpy.ndarray
        (items, m) codes, -1 = missing.
    a, b : int
        Annotator columns.
    K : int
        Number of categories.

    Returns
    -------
    numpy.ndarray
        int64 (K, K).
    """
    return Contingency.from_codes(codes, a, b, K).dense()


def _agreeing_pairs(codes: np.ndarray) -> np.ndarray:
    """Per item: ordered annotator pairs (a ≠ b, both present) with equal values,
    i.e. Σ_k n_ik (n_ik − 1)."""
    N, m = codes.shape
    out = np.zeros(N)
    for a in range(m):
        for b in range(a + 1, m):
            out += 2.0 * ((codes[:, a] >= 0) & (codes[:, a] == codes[:, b]))
    return out


def _value_counts(codes: np.ndarray, K: int, rows: Optional[np.ndarray] = None,
                  n_rows: int = 1) -> np.ndarray:
    """n_rows × K counts of the values given (summed into ``rows``, default all 0)."""
    out = np.zeros((n_rows, K))
    r = np.zeros(codes.shape[0], np.int64) if rows is None else rows
    for a in range(codes.shape[1]):
        ok = codes[:, a] >= 0
        np.add.at(out, (r[ok], codes[ok, a]), 1)
    return out


@dataclass
class PairCounts:
    """The contingency table of one annotator pair on one layer.

    Parameters
    ----------
    a, b : str
        The annotators (rows: ``a``, columns: ``b``).
    contingency : Contingency
    """
    a: str
    b: str
    contingency: Contingency  # rows: annotator a, columns: annotator b

    @property
    def table(self) -> np.ndarray:
        """The dense K × K contingency table."""
        return self.contingency.dense()

    @property
    def items(self) -> int:
        """Items coded by both annotators."""
        return self.contingency.total

    def coefficients(self) -> Dict[str, float]:
        """``observed``, ``cohen_kappa`` and ``scott_pi`` of the pair."""
        return self.contingency.coefficients()


@dataclass
class LayerAgreement:
    """Agreement on one token layer, kept as counts; coefficients are derived.

    docs/method.md §12.3.  ``kappa`` is Cohen's κ for two annotators and the
    Davies & Fleiss κ for more; ``pi`` is Scott's π for two and Fleiss' κ for
    more; ``alpha`` is Krippendorff's nominal α.

    Parameters
    ----------
    layer : str
    annotators : list of str
    categories : list of str
    items : int
        Items with two or more values.
    units : int
        Units (sentences) that take part.
    ignored_units : int
        Units left out (annotations differ in word count).
    pairs : list of PairCounts
        One per annotator pair.
    complete_items : int
        Items coded by every annotator (used by Fleiss / Davies & Fleiss).
    complete_counts : numpy.ndarray
        (K,): Σ over complete items of n_ik.
    complete_agree : float
        Σ over complete items of Σ_k n_ik (n_ik − 1).
    rater_marginals : numpy.ndarray
        (m, K) over complete items.
    alpha_counts : numpy.ndarray
        (K,): coincidence margins n_c.
    alpha_dis : float
        Σ_{c≠k} o_ck, the off-diagonal coincidences.
    by_document : dict of str to LayerAgreement
        The same per document.
    """

    layer: str
    annotators: List[str]
    categories: List[str]
    items: int
    units: int
    ignored_units: int
    pairs: List[PairCounts]
    complete_items: int  # items coded by every annotator (used by Fleiss / D&F)
    complete_counts: np.ndarray  # K: Σ over complete items of n_ik
    complete_agree: float  # Σ over complete items of Σ_k n_ik (n_ik − 1)
    rater_marginals: np.ndarray  # m × K over complete items
    alpha_counts: np.ndarray  # K: n_c, values of items with ≥ 2 values (coincidence margins)
    alpha_dis: float  # Σ_{c≠k} o_ck: off-diagonal coincidences
    by_document: Dict[str, "LayerAgreement"] = field(default_factory=dict)

    # ---- pooled coefficients -------------------------------------------------
    @property
    def m(self) -> int:
        """Number of annotators."""
        return len(self.annotators)

    def pooled(self) -> Contingency:
        """Σ over annotator pairs of the contingency tables (rows: first of the pair)."""
        out = Contingency.from_pairs(np.zeros(0, np.int64), np.zeros(0, np.int64),
                                     len(self.categories))
        for p in self.pairs:
            out = out + p.contingency
        return out

    def pooled_table(self) -> np.ndarray:
        """The dense pooled table (see `pooled`)."""
        return self.pooled().dense()

    def observed(self) -> float:
        """Mean pairwise agreement over all (item, annotator pair) comparisons."""
        return self.pooled().observed()

    def _multi(self) -> Dict[str, float]:
        return one_table(multi_rater_coefficients(self.complete_items, self.complete_agree,
                                                  self.complete_counts, self.m,
                                                  self.rater_marginals))

    def fleiss(self) -> float:
        """Fleiss' (1971) κ on the items coded by every annotator (= Scott's π for m = 2)."""
        return self._multi()["scott_pi"]

    def davies_fleiss(self) -> float:
        """Davies & Fleiss (1982) κ on complete items (= Cohen's κ for m = 2)."""
        return self._multi()["cohen_kappa"]

    def alpha(self) -> float:
        """Krippendorff's nominal α over items with two or more values."""
        return _alpha_nominal(self.alpha_counts, self.alpha_dis)

    def specific(self) -> Dict[str, float]:
        """Specific agreement per category over the pooled pair tables."""
        ps = self.pooled().specific()
        return {c: float(v) for c, v in zip(self.categories, ps) if not math.isnan(v)}

    def category_frequency(self) -> Dict[str, int]:
        """How often each category occurs in the pooled pair tables (both sides)."""
        t = self.pooled()
        f = t.row_sums() + t.col_sums()
        return {c: int(v) for c, v in zip(self.categories, f) if v}

    def specific_macro(self) -> float:
        """Unweighted mean of specific agreement over the categories that occur."""
        vals = list(self.specific().values())
        return float(np.mean(vals)) if vals else float("nan")

    def coefficients(self) -> Dict[str, float]:
        """Pooled (micro over documents) coefficients.

        ``kappa`` is Cohen's κ for two annotators and the Davies & Fleiss κ
        for more; ``pi`` is Scott's π for two and Fleiss' κ for more.
        """
        return {"observed": self.observed(), "cohen_kappa": self.davies_fleiss(),
                "scott_pi": self.fleiss(), "alpha_nominal": self.alpha(),
                "specific_macro": self.specific_macro()}

    def pair_mean(self, which: str) -> float:
        """Mean over annotator pairs of the pair coefficient ``which`` (defined ones only)."""
        vals = [p.coefficients()[which] for p in self.pairs]
        vals = [v for v in vals if not math.isnan(v)]
        return float(np.mean(vals)) if vals else float("nan")

    def macro_documents(self) -> Dict[str, float]:
        """Unweighted mean over documents of each coefficient (defined ones only)."""
        out: Dict[str, float] = {}
        if not self.by_document:
            return out
        per = [d.coefficients() for d in self.by_document.values()]
        for k in per[0]:
            vals = [p[k] for p in per if not math.isnan(p[k])]
            out[k] = float(np.mean(vals)) if vals else float("nan")
        return out

    def to_dict(self, confusion: bool = True) -> dict:
        """JSON-ready counts and coefficients (pair tables as cells when ``confusion``)."""
        d = {
            "layer": self.layer, "annotators": list(self.annotators),
            "items": self.items, "units": self.units, "ignored_units": self.ignored_units,
            "complete_items": self.complete_items,
            # the items behind each coefficient (docs/method.md §12.3)
            "coefficient_items": {"observed": self.items, "cohen_kappa": self.complete_items,
                                  "scott_pi": self.complete_items, "alpha_nominal": self.items},
            "categories": list(self.categories),
            "coefficients": self.coefficients(),
            "coefficient_names": {"cohen_kappa": "Cohen's kappa" if self.m == 2
                                  else "Davies & Fleiss kappa",
                                  "scott_pi": "Scott's pi" if self.m == 2 else "Fleiss' kappa",
                                  "alpha_nominal": "Krippendorff's alpha (nominal)",
                                  "observed": "observed agreement",
                                  "specific_macro": "macro-average of specific agreement"},
            "pairs": [{"a": p.a, "b": p.b, "items": p.items, **p.coefficients(),
                       **({"table": p.contingency.cells()} if confusion else {})}
                      for p in self.pairs],
            "specific": self.specific(),
            "category_frequency": self.category_frequency(),
            "counts": {"complete_agree": self.complete_agree,
                       "complete_counts": self.complete_counts.tolist(),
                       "rater_marginals": self.rater_marginals.tolist(),
                       "alpha_counts": self.alpha_counts.tolist(),
                       "alpha_disagreement": self.alpha_dis},
            "documents": {doc: {"items": la.items, **la.coefficients()}
                          for doc, la in self.by_document.items()},
            "macro_documents": self.macro_documents(),
        }
        return d


def _layer_counts(data: ItemData) -> LayerAgreement:
    K = data.n_categories
    m = len(data.annotators)
    codes = data.codes
    pairs = [PairCounts(data.annotators[a], data.annotators[b],
                        Contingency.from_codes(codes, a, b, K))
             for a, b in combinations(range(m), 2)]
    complete = (codes >= 0).all(1) if codes.size else np.zeros(0, bool)
    cc = codes[complete]
    marg = np.zeros((m, K), dtype=np.int64)
    for a in range(m):
        marg[a] = np.bincount(cc[:, a], minlength=K) if cc.size else 0
    items_with_two = int(((codes >= 0).sum(1) >= 2).sum()) if codes.size else 0
    return LayerAgreement(
        data.layer, list(data.annotators), list(data.categories), items_with_two,
        len(data.units), data.ignored_units, pairs, int(complete.sum()),
        marg.sum(0), float(_agreeing_pairs(cc).sum()), marg, *_alpha_sums(codes, K))


def _alpha_sums(codes: np.ndarray, K: int) -> Tuple[np.ndarray, float]:
    """(n_c per category, Σ_{c≠k} o_ck) over items with two or more values."""
    present = (codes >= 0).sum(1)
    two = present >= 2
    agree = _agreeing_pairs(codes[two])
    p = present[two]
    dis = float(((p * (p - 1) - agree) / np.maximum(p - 1, 1)).sum())
    return _value_counts(codes[two], K)[0], dis


def layer_agreement(data: ItemData, by_document: bool = True) -> LayerAgreement:
    """Counts and coefficients for one layer; per document too when asked.

    Parameters
    ----------
    data : ItemData
    by_document : bool
        Also fill `LayerAgreement.by_document`.
    """
    la = _layer_counts(data)
    if by_document:
        docs = sorted(set(data.documents))
        doc_arr = np.array(data.documents, dtype=object)
        for doc in docs:
            la.by_document[doc] = _layer_counts(data.subset_units(doc_arr == doc))
    return la


def categorical_agreement(corpus, layers: Sequence[str] = DEFAULT_LAYERS,
                          by_document: bool = True) -> Dict[str, LayerAgreement]:
    """Agreement on each token layer of a dependency corpus (docs/method.md §12.3).

    Parameters
    ----------
    corpus : Corpus
        A dependency corpus.
    layers : sequence of str
        Layers from `LAYERS` (default: deprel, head, upos, xpos, feats).
    by_document : bool
        Also per document.

    Raises
    ------
    InputError
        A phrase-structure corpus.
    ValueError
        Unknown layer.
    """
    return {layer: layer_agreement(items_from_corpus(corpus, layer), by_document)
            for layer in layers}


# --------------------------------------------------------------------------
# Bootstrap over sentences
# --------------------------------------------------------------------------

@dataclass
class UnitSums:
    """Per-unit sums from which every pooled coefficient can be recomputed.

    Under any unit weights (bootstrap multiplicities), by
    `coefficients_from_sums`.

    Parameters
    ----------
    pair_items, pair_agree : numpy.ndarray
        U × P: items both present / agreeing items, per annotator pair.
    complete_items, complete_agree : numpy.ndarray
        (U,): complete items, and Σ_k n_ik (n_ik − 1) over them.
    complete_counts : numpy.ndarray
        U × K category counts over complete items.
    rater_marginals : numpy.ndarray
        m × U × K.
    alpha_dis : numpy.ndarray
        (U,): Σ_items (m_i² − Σ_k n_ik²)/(m_i − 1).
    alpha_counts : numpy.ndarray
        U × K: Σ_items n_ik (items with ≥ 2 values).
    m : int
        Annotators.
    """

    pair_items: np.ndarray  # U × P items both present, per pair
    pair_agree: np.ndarray  # U × P agreeing items, per pair
    complete_items: np.ndarray  # U
    complete_agree: np.ndarray  # U
    complete_counts: np.ndarray  # U × K
    rater_marginals: np.ndarray  # m × U × K
    alpha_dis: np.ndarray  # U: Σ_items (m_i² − Σ_k n_ik²)/(m_i − 1)
    alpha_counts: np.ndarray  # U × K: Σ_items n_ik (items with ≥ 2 values)
    m: int

    @property
    def n_units(self) -> int:
        """Number of units U."""
        return self.complete_items.shape[0]


def unit_sums(data: ItemData) -> UnitSums:
    """The per-unit sums of a layer's items (see `UnitSums`)."""
    codes = data.codes
    U = len(data.units)
    K = data.n_categories
    m = len(data.annotators)
    uoi = data.unit_of_item
    pairs = list(combinations(range(m), 2))
    pi = np.zeros((U, len(pairs)))
    pa = np.zeros((U, len(pairs)))
    for k, (a, b) in enumerate(pairs):
        ok = (codes[:, a] >= 0) & (codes[:, b] >= 0)
        pi[:, k] = np.bincount(uoi[ok], minlength=U)
        pa[:, k] = np.bincount(uoi[ok & (codes[:, a] == codes[:, b])], minlength=U)
    present = (codes >= 0).sum(1)
    complete = present == m
    ci = np.bincount(uoi[complete], minlength=U).astype(np.float64)
    agree_item = _agreeing_pairs(codes)
    ca = np.bincount(uoi[complete], weights=agree_item[complete], minlength=U)
    cc = _value_counts(codes[complete], K, uoi[complete], U)
    rm = np.zeros((m, U, K))
    for a in range(m):
        np.add.at(rm[a], (uoi[complete], codes[complete, a]), 1)
    two = present >= 2
    dis_item = np.zeros(len(present))
    # ordered disagreeing pairs / (m_i − 1) = (m_i (m_i − 1) − agreeing) / (m_i − 1)
    dis_item[two] = (present[two] * (present[two] - 1) - agree_item[two]) / (present[two] - 1)
    ad = np.bincount(uoi, weights=dis_item, minlength=U)
    ac = _value_counts(codes[two], K, uoi[two], U)
    return UnitSums(pi, pa, ci, ca, cc, rm, ad, ac, m)


def coefficients_from_sums(s: UnitSums, w: np.ndarray) -> Dict[str, np.ndarray]:
    """Pooled coefficients for unit weights ``w`` (B × U; one row per replicate).

    With ``w`` all ones this is `LayerAgreement.coefficients` (without
    the category macro-average).

    Parameters
    ----------
    s : UnitSums
    w : array-like
        (B, U) or (U,) unit weights.

    Returns
    -------
    dict of str to numpy.ndarray
        ``observed``, ``cohen_kappa``, ``scott_pi``, ``alpha_nominal``, each (B,).
    """
    w = np.atleast_2d(np.asarray(w, dtype=np.float64))
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = (w @ s.pair_agree).sum(1) / (w @ s.pair_items).sum(1)
        multi = multi_rater_coefficients(
            w @ s.complete_items, w @ s.complete_agree, w @ s.complete_counts, s.m,
            np.stack([w @ s.rater_marginals[a] for a in range(s.m)]))
        kappa, pi = multi["cohen_kappa"], multi["scott_pi"]
        nc = w @ s.alpha_counts
        n = nc.sum(1)
        de = n * n - (nc * nc).sum(1)
        alpha = np.where((n >= 2) & (de > 0), 1 - (n - 1) * (w @ s.alpha_dis) / de, np.nan)
    return {"observed": observed, "cohen_kappa": kappa, "scott_pi": pi, "alpha_nominal": alpha}


def layer_bootstrap(data: ItemData, B: int = 1000, seed: "int | np.random.Generator" = 0,
                    level: float = 0.95, weights: Optional[np.ndarray] = None
                    ) -> Dict[str, Interval]:
    """Percentile CIs of the pooled coefficients, resampling sentences.

    Sentences (clusters of items) are drawn with replacement on the one
    resampling engine (`synagree.stats.bootstrap.bootstrap`); the pooled
    coefficients are recomputed from per-sentence sums (`coefficients_from_sums`,
    docs/method.md §12.3).

    Parameters
    ----------
    data : ItemData
    B : int
        Replicates.
    seed : int or numpy.random.Generator
        A Generator continues its stream (one stream across layers).
    level : float
        Confidence level, a fraction (0.95 = 95 %).
    weights : numpy.ndarray, optional
        (B, U) multiplicities, to share resamples with other statistics; None:
        drawn from ``seed``.

    Returns
    -------
    dict of str to Interval
        Per coefficient of `COEFFICIENTS`; the estimate is the coefficient at
        unit weights.
    """
    s = unit_sums(data)
    res = bootstrap(lambda w: coefficients_from_sums(s, w), s.n_units, B, seed, level,
                    weights=weights)
    est = coefficients_from_sums(s, np.ones((1, s.n_units)))
    return {k: res.interval(k, float(est[k][0])) for k in COEFFICIENTS}


# --------------------------------------------------------------------------
# Rendering and CLI
# --------------------------------------------------------------------------


