r"""GATE's classification agreement: observed agreement, Cohen's κ and Scott's π.

docs/method.md §24.5.  This follows ``gate.util.ClassificationMeasures``
(gate-core, ``src/main/java/gate/util/ClassificationMeasures.java``, commit
``201b66e65604078fa57b47fb23333b17be1c19ed``) to the letter:

Pairing (``calculateConfusionMatrix``)
    The annotations of set 1 and of set 2 are those of the type that carry
    the feature (its name present, whatever its value).  For each annotation
    of set 1: if another annotation of set 1 is *coextensive* with it (same
    start and end), it is skipped ("Same span annotations in set 1");
    otherwise the coextensive annotations of set 2 are collected: none, it is
    skipped ("no counterpart"); more than one, it is skipped ("Same span
    annotations in set 2"); exactly one, the pair of feature values (as
    strings) adds 1 to the confusion matrix, rows set 1, columns set 2.  The
    categories are the values seen in counted pairs, in Java's ``String``
    order (``TreeSet``).

Measures (``computeKappaPairwise``), with N the sum of the matrix, C_i the
row sums and R_i the column sums::

    observed = Σ_i n_ii / N                       (0 when N = 0)
    P_E(κ)   = Σ_i C_i R_i / N²                  Cohen
    P_E(π)   = Σ_i ((C_i + R_i) / 2N)²          Scott (Siegel & Castellan)
    κ = (observed − P_E) / (1 − P_E); 1 when P_E = 1; 0 when N = 0

Pooling (the ``ClassificationMeasures(Collection)`` constructor, used by
GATE's Corpus Quality Assurance for its corpus figures)
    The documents' matrices are summed cell by cell over the union of their
    categories, and the measures computed once on the sum.

GATE computes in Java ``float`` (32 bits); this module in double precision,
so the figures agree with GATE's to float precision (about 1e-7 relative)
and are, if anything, the more exact.

Examples
--------
>>> a = [(0, 5, "yes"), (6, 9, "no"), (10, 12, "yes")]
>>> b = [(0, 5, "yes"), (6, 9, "yes"), (10, 12, "yes")]
>>> t = classification_table(a, b)
>>> t.labels, t.counts
(('no', 'yes'), ((0, 1), (0, 2)))
>>> round(t.observed, 4), round(t.cohen_kappa, 4), round(t.scott_pi, 4)
(0.6667, 0.0, -0.2)
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Dict, Iterable, List, Sequence, Tuple

__all__ = ["ClassificationTable", "classification_table", "pool_tables", "java_string_order"]

#: one annotation: (start, end, feature value as a string)
Item = Tuple[int, int, str]


def java_string_order(value: str) -> bytes:
    """Sort key of Java's ``String.compareTo`` (UTF-16 code units, unsigned)."""
    return value.encode("utf-16-be", errors="surrogatepass")


@dataclass(frozen=True)
class ClassificationTable:
    """GATE's confusion matrix of one comparison, and its measures.

    Parameters
    ----------
    labels : tuple of str
        The categories, in Java ``String`` order.
    counts : tuple of tuple of int
        ``counts[i][j]``: pairs valued ``labels[i]`` in set 1 and ``labels[j]``
        in set 2.
    duplicates_1, unmatched, duplicates_2 : int
        Annotations of set 1 skipped: coextensive with another of set 1, with
        no coextensive one in set 2, with several in set 2.
    """

    labels: Tuple[str, ...]
    counts: Tuple[Tuple[int, ...], ...]
    duplicates_1: int = 0
    unmatched: int = 0
    duplicates_2: int = 0

    @property
    def total(self) -> int:
        """N, the counted pairs (GATE's total trials)."""
        return sum(map(sum, self.counts))

    @property
    def agreed(self) -> int:
        """The pairs with the same value (GATE's agreed trials)."""
        return sum(self.counts[i][i] for i in range(len(self.labels)))

    @property
    def observed(self) -> float:
        """Observed agreement; 0 without pairs (GATE's)."""
        return self.agreed / self.total if self.total else 0.0

    def _marginals(self) -> Tuple[List[int], List[int]]:
        k = len(self.labels)
        rows = [sum(self.counts[i]) for i in range(k)]
        cols = [sum(self.counts[j][i] for j in range(k)) for i in range(k)]
        return rows, cols

    def _kappa(self, p_e: float) -> float:
        if p_e == 1.0:
            return 1.0
        if not self.total:
            return 0.0
        return (self.observed - p_e) / (1.0 - p_e)

    @property
    def cohen_kappa(self) -> float:
        """Cohen's κ (each set's own distribution); 1 when P_E = 1, 0 without pairs."""
        n = self.total
        rows, cols = self._marginals()
        p_e = sum(r * c / (n * n) for r, c in zip(rows, cols)) if n else 0.0
        return self._kappa(p_e)

    @property
    def scott_pi(self) -> float:
        """Scott's π (one pooled distribution); 1 when P_E = 1, 0 without pairs."""
        n = self.total
        rows, cols = self._marginals()
        p_e = sum(((r + c) / (2 * n)) ** 2 for r, c in zip(rows, cols)) if n else 0.0
        return self._kappa(p_e)

    def to_dict(self) -> dict:
        """The counts, the matrix and the three measures, JSON-ready."""
        return {"observed": self.observed, "cohen_kappa": self.cohen_kappa,
                "scott_pi": self.scott_pi, "agreed_trials": self.agreed,
                "total_trials": self.total, "duplicates_1": self.duplicates_1,
                "unmatched": self.unmatched, "duplicates_2": self.duplicates_2,
                "labels": list(self.labels), "confusion": [list(r) for r in self.counts]}


def _table(cells: Dict[Tuple[str, str], int], dup1: int = 0, unmatched: int = 0,
           dup2: int = 0) -> ClassificationTable:
    labels = tuple(sorted({v for pair in cells for v in pair}, key=java_string_order))
    counts = tuple(tuple(cells.get((a, b), 0) for b in labels) for a in labels)
    return ClassificationTable(labels, counts, dup1, unmatched, dup2)


def classification_table(set1: Iterable[Item], set2: Iterable[Item]) -> ClassificationTable:
    """GATE's confusion matrix of two annotation sets (module docstring).

    Parameters
    ----------
    set1, set2 : iterable of (int, int, str)
        The annotations of the type that carry the feature: start, end and
        the value as a string.

    Returns
    -------
    ClassificationTable
    """
    set1, set2 = list(set1), list(set2)
    spans1 = Counter((s, e) for s, e, _ in set1)
    by_span2: Dict[Tuple[int, int], List[str]] = {}
    for s, e, v in set2:
        by_span2.setdefault((s, e), []).append(v)
    cells: Dict[Tuple[str, str], int] = {}
    dup1 = unmatched = dup2 = 0
    for s, e, v in set1:
        if spans1[(s, e)] > 1:
            dup1 += 1
            continue
        others = by_span2.get((s, e), [])
        if not others:
            unmatched += 1
        elif len(others) > 1:
            dup2 += 1
        else:
            cells[(v, others[0])] = cells.get((v, others[0]), 0) + 1
    return _table(cells, dup1, unmatched, dup2)


def pool_tables(tables: Sequence[ClassificationTable]) -> ClassificationTable:
    """The documents' matrices summed cell by cell (GATE's ``ClassificationMeasures(tables)``).

    The skipped-annotation counts are summed too.
    """
    cells: Dict[Tuple[str, str], int] = {}
    for t in tables:
        for i, a in enumerate(t.labels):
            for j, b in enumerate(t.labels):
                if t.counts[i][j]:
                    cells[(a, b)] = cells.get((a, b), 0) + t.counts[i][j]
    return _table(cells, sum(t.duplicates_1 for t in tables), sum(t.unmatched for t in tables),
                  sum(t.duplicates_2 for t in tables))
