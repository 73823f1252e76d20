"""Agreement per category of aligned words: specific agreement, one-vs-rest α, bin scores.

docs/method.md §21.  Words of the annotations of one unit are aligned by
position (the same tokenisation); every word gets a *category* from each
annotation (its DEPREL, the length and direction of its arc, ...).

`CategoryTable` counts, per category c, over the annotator pairs of every
unit (each pair weighted 1/P_u, P_u = m_u(m_u − 1)/2 the pairs of the unit,
so a unit weighs its word count whatever its number of annotators, as
LAS/UAS/LA do, docs/method.md §6.1):

* ``first``, ``second``: words the first (second) annotator of the pair, in
  annotator order, puts in c;
* ``both``: words both put in c;
* ``both_also``: words both put in c *and* on which they also agree on a
  second decision (the head, for labels; the label, for arc lengths);

from which the *specific (positive) agreement*
p_s(c) = 2·both / (first + second) and its stricter twin
2·both_also / (first + second) follow.  ``confusion`` holds the pairs of
different categories given to one word.

The chance-corrected per-category coefficient is Krippendorff's α on the
binary variable "is the word in c" (one-vs-rest), from the coincidences of
all values of every word (m_u values per word, missing annotations simply
absent): with k the annotations that put a word in c,

    n_c   = Σ_words k                       (values in c)
    dis_c = Σ_words 2·k·(m − k) / (m − 1)    (ordered disagreeing value pairs)
    α_c   = 1 − (n − 1)·dis_c / (2·n_c·(n − n_c))

with n = Σ_words m.  Over all categories at once (nominal α on the
category) the disagreement is Σ_c dis_c / 2 and
α = 1 − (n − 1)·dis / (n² − Σ_c n_c²).

`BinScores` counts the words each word score credits (LAS_full/UAS/LA: the
registry's word scores for any relations) per bin of words (the bin may depend on
the pair, e.g. the UPOS when both annotators agree on it), with the same
pair weights, so the bins add up to the corpus LAS/UAS/LA counts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from synagree.base.metrics import word_scores

__all__ = ["CategoryTable", "BinScores"]


def _grow(a: np.ndarray, k: int) -> np.ndarray:
    return a if a.shape[0] >= k else np.concatenate([a, np.zeros(k - a.shape[0])])


@dataclass
class CategoryTable:
    """Per-category counts over aligned words of annotator pairs (docs/method.md §21.2).

    Counts are floats: with more than two annotators each pair weighs
    1/(number of pairs of its unit).  Ratios (`specific`, `alpha`) are
    derived; undefined ones are None.

    Parameters
    ----------
    categories : list of str
        Category of each code, in order of first appearance.
    first, second, both, both_also : numpy.ndarray
        (K,) pair-weighted word counts (see the module docstring).
    values : numpy.ndarray
        (K,) n_c: the values (annotations of a word) in each category.
    disagree : numpy.ndarray
        (K,) dis_c: ordered value pairs of one word that disagree on being in
        c, each weighted 1/(m − 1).
    n_values : float
        n: all values of the counted words.
    words : float
        Pair-weighted words counted (Σ over units of their word count).
    units : int
        Units counted.
    confusion : dict of (int, int) to list of float
        ``(c_first, c_second)`` (different categories) to
        ``[words, words with the second decision agreeing]``.
    """

    categories: List[str] = field(default_factory=list)
    first: np.ndarray = field(default_factory=lambda: np.zeros(0))
    second: np.ndarray = field(default_factory=lambda: np.zeros(0))
    both: np.ndarray = field(default_factory=lambda: np.zeros(0))
    both_also: np.ndarray = field(default_factory=lambda: np.zeros(0))
    values: np.ndarray = field(default_factory=lambda: np.zeros(0))
    disagree: np.ndarray = field(default_factory=lambda: np.zeros(0))
    n_values: float = 0.0
    words: float = 0.0
    units: int = 0
    confusion: Dict[Tuple[int, int], List[float]] = field(default_factory=dict)
    _index: Dict[str, int] = field(default_factory=dict, repr=False)

    def code(self, category: str) -> int:
        """The code of ``category`` (a new one is appended when unseen)."""
        c = self._index.get(category)
        if c is None:
            c = self._index[category] = len(self.categories)
            self.categories.append(category)
        return c

    def index(self, category: str) -> Optional[int]:
        """The code of ``category``, or None when it never occurred."""
        return self._index.get(category)

    def add_unit(self, codes: np.ndarray, also: np.ndarray) -> None:
        """Count one unit: ``codes[r, i]`` is annotation r's category of word i
        (codes from `code`), ``also[r, i]`` its second decision (any integers,
        compared for equality).  Needs two or more annotations (rows)."""
        codes = np.asarray(codes, dtype=np.int64)
        also = np.asarray(also)
        m, w = codes.shape
        if m < 2:
            raise ValueError("a unit needs two or more annotations")
        K = len(self.categories)
        for name in ("first", "second", "both", "both_also", "values", "disagree"):
            setattr(self, name, _grow(getattr(self, name), K))
        weight = 2.0 / (m * (m - 1))
        for i, j in combinations(range(m), 2):
            ci, cj = codes[i], codes[j]
            same = ci == cj
            same_also = also[i] == also[j]
            self.first += weight * np.bincount(ci, minlength=K)
            self.second += weight * np.bincount(cj, minlength=K)
            self.both += weight * np.bincount(ci[same], minlength=K)
            self.both_also += weight * np.bincount(ci[same & same_also], minlength=K)
            for x, y, s in zip(ci[~same].tolist(), cj[~same].tolist(),
                               same_also[~same].tolist()):
                cell = self.confusion.setdefault((x, y), [0.0, 0.0])
                cell[0] += weight
                cell[1] += weight * s
        for c in np.unique(codes).tolist():
            k = (codes == c).sum(axis=0).astype(np.float64)
            self.values[c] += float(k.sum())
            self.disagree[c] += float((2.0 * k * (m - k) / (m - 1)).sum())
        self.n_values += float(m * w)
        self.words += float(w)
        self.units += 1

    def _at(self, arr: np.ndarray, category: str) -> float:
        c = self._index.get(category)
        return 0.0 if c is None or c >= arr.shape[0] else float(arr[c])

    def counts(self, category: str) -> Dict[str, float]:
        """The counts of a category: ``first``, ``second``, ``both``, ``both_also``,
        ``values``, ``disagree``."""
        return {k: self._at(getattr(self, k), category)
                for k in ("first", "second", "both", "both_also", "values", "disagree")}

    def specific(self, category: str, also: bool = False) -> Optional[float]:
        """Specific agreement 2·both / (first + second) (``also``: with ``both_also``)."""
        d = self.counts(category)
        den = d["first"] + d["second"]
        return 2.0 * d["both_also" if also else "both"] / den if den > 0 else None

    def alpha(self, category: str) -> Optional[float]:
        """One-vs-rest Krippendorff's α of ``category``; None when undefined
        (fewer than two values, or every value in the category or none)."""
        n = self.n_values
        nc = self._at(self.values, category)
        de = 2.0 * nc * (n - nc)
        if n < 2 or de <= 0:
            return None
        return 1.0 - (n - 1.0) * self._at(self.disagree, category) / de

    def alpha_all(self) -> Optional[float]:
        """Krippendorff's nominal α on the category over all words (None if undefined)."""
        n = self.n_values
        de = n * n - float(self.values @ self.values)
        if n < 2 or de <= 0:
            return None
        return 1.0 - (n - 1.0) * float(self.disagree.sum()) / 2.0 / de

    def totals(self) -> Dict[str, float]:
        """The counts summed over categories (``first`` = ``second`` = ``words``)."""
        return {"first": float(self.first.sum()), "second": float(self.second.sum()),
                "both": float(self.both.sum()), "both_also": float(self.both_also.sum()),
                "values": float(self.values.sum()), "disagree": float(self.disagree.sum())}

    def order(self) -> List[str]:
        """Categories by decreasing ``first + second``, then by name."""
        tot = self.first + self.second
        return sorted(self.categories, key=lambda c: (-float(tot[self._index[c]]), c))

    def confusions(self) -> List[Tuple[str, str, float, float, float]]:
        """Unordered pairs of different categories given to one word.

        Returns
        -------
        list of (str, str, float, float, float)
            ``(c1, c2, first_c1, first_c2, also)`` with ``c1 < c2`` by name:
            words where the first annotator of the pair chose c1 and the second
            c2, the reverse, and of both the words whose second decision agrees.
            Most frequent pair first.
        """
        merged: Dict[Tuple[str, str], List[float]] = {}
        for (x, y), (cnt, also) in self.confusion.items():
            a, b = self.categories[x], self.categories[y]
            key = (a, b) if a < b else (b, a)
            cell = merged.setdefault(key, [0.0, 0.0, 0.0])
            cell[0 if a < b else 1] += cnt
            cell[2] += also
        rows = [(a, b, v[0], v[1], v[2]) for (a, b), v in merged.items()]
        return sorted(rows, key=lambda r: (-(r[2] + r[3]), r[0], r[1]))


@dataclass
class BinScores:
    """Word-score counts per bin, pair-weighted (docs/method.md §21.3).

    Parameters
    ----------
    scores : tuple of str
        The word scores counted, in column order (default: the registry's word
        scores for any relations, `synagree.base.metrics.word_scores`:
        ``LAS_full``, ``UAS``, ``LA``).
    counts : dict of str to numpy.ndarray
        Bin to ``[words, <one count per score>]``.
    """

    scores: Tuple[str, ...] = field(default_factory=lambda: word_scores("agree", ud=False))
    counts: Dict[str, np.ndarray] = field(default_factory=dict)

    def add(self, keys: Sequence[str], credited: Mapping[str, np.ndarray],
            weight: float) -> None:
        """Add the words of one annotator pair: ``keys[i]`` is word i's bin,
        ``credited[score][i]`` whether the score credits word i."""
        flags = np.stack([np.ones(len(keys))] + [credited[m] for m in self.scores],
                         axis=1).astype(np.float64)
        for k, row in zip(keys, flags):
            c = self.counts.get(k)
            if c is None:
                c = self.counts[k] = np.zeros(1 + len(self.scores))
            c += weight * row

    def words(self, key: str) -> float:
        """Pair-weighted words in the bin."""
        c = self.counts.get(key)
        return 0.0 if c is None else float(c[0])

    def correct(self, key: str, metric: str) -> float:
        """Pair-weighted words of the bin credited by ``metric`` (``las``, ``uas``, ``la``)."""
        c = self.counts.get(key)
        return 0.0 if c is None else float(c[1 + self.scores.index(metric)])

    def ratio(self, key: str, metric: str) -> Optional[float]:
        """``correct / words``; None for an empty bin."""
        w = self.words(key)
        return self.correct(key, metric) / w if w > 0 else None

    def order(self) -> List[str]:
        """Bins by decreasing words, then by name."""
        return sorted(self.counts, key=lambda k: (-self.words(k), k))
