"""Is an annotator systematically different, or just noisy?  (``--bias``)

docs/method.md §25.  Per annotator pair and token layer (DEPREL for
``agree``; every layer of ``categorical``), the square table of the labels
the two gave to the words both annotated (word-aligned units, as the token
layers: units whose annotations differ in words are left out):

* the Stuart–Maxwell test of marginal homogeneity (statistic, degrees of
  freedom, p): do the two use the labels equally often?
* per label, McNemar's exact test on the label-versus-rest 2 × 2 table and
  the direction of the difference (which annotator uses the label more),
  with Holm's adjustment over the labels of the pair and layer; a label is
  *flagged* when its adjusted p is below the significance level (0.05).

Random disagreement leaves the margins equal in expectation (each label lost
somewhere is gained as often elsewhere); a preference (``obl`` where the
other writes ``nmod``) moves mass from one label to another and is flagged
on both, in opposite directions.  The tests compare counts of words, which
are not independent within a sentence; the p-values are those of the tests
as defined (items independent), and the section says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Dict, List, Mapping, Optional, Sequence

import numpy as np

from synagree.agreement.core import Core, DictSection, Value, dependency_corpus
from synagree.stats.categorical import LayerAgreement, items_from_corpus
from synagree.stats.contingency import Contingency
from synagree.stats.marginal_homogeneity import (
    StuartMaxwell,
    holm,
    label_vs_rest,
    mcnemar_exact,
    stuart_maxwell,
)

__all__ = ["SIGNIFICANCE", "CORRECTION", "LabelBias", "PairBias", "Bias", "pair_bias",
           "bias_of_layers", "bias_section"]

#: A label is flagged when its Holm-adjusted p-value is below this.
SIGNIFICANCE = 0.05
#: The multiple-comparison correction over the labels of one pair and layer.
CORRECTION = "holm"

_INDEPENDENCE = ("bias tests: words are treated as independent items (words of one "
                 "sentence are not quite), so read the p-values as a screen for labels to "
                 "look at, not as exact error rates")


@dataclass
class LabelBias:
    """One label of one pair and layer: its label-versus-rest McNemar test.

    Attributes
    ----------
    label : str
    first, second : int
        Words the first / second annotator gives the label (row and column
        sums of the square table).
    both : int
        Words both give it.
    first_only, second_only : int
        Words only the first (b) / only the second (c) gives it.
    p : float or None
        McNemar's exact two-sided p; None when b + c = 0 (not tested).
    p_holm : float or None
        Holm-adjusted over the tested labels of the pair and layer.
    flagged : bool
        ``p_holm`` below the significance level.
    """

    label: str
    first: int
    second: int
    both: int
    first_only: int
    second_only: int
    p: Optional[float]
    p_holm: Optional[float] = None
    flagged: bool = False

    @property
    def more(self) -> str:
        """``"first"`` or ``"second"``: who gives the label more often; "" when equal."""
        if self.first > self.second:
            return "first"
        return "second" if self.second > self.first else ""

    def to_dict(self, first: str, second: str) -> dict:
        """JSON-ready, ``more`` as the annotator's name (None when equal)."""
        who = {"first": first, "second": second}.get(self.more)
        return {"label": self.label, "first": self.first, "second": self.second,
                "both": self.both, "first_only": self.first_only,
                "second_only": self.second_only, "more": who, "mcnemar_p": self.p,
                "mcnemar_p_holm": self.p_holm, "flagged": self.flagged}


@dataclass
class PairBias:
    """The marginal-homogeneity tests of one annotator pair on one layer.

    Attributes
    ----------
    layer : str
    first, second : str
        The annotators (rows, columns of the square table).
    items : int
        Words both annotated (the table's total).
    labels : list of LabelBias
        Every label either annotator uses on these words, most used first.
    test : StuartMaxwell
    """

    layer: str
    first: str
    second: str
    items: int
    labels: List[LabelBias]
    test: StuartMaxwell

    @property
    def flagged(self) -> List[LabelBias]:
        """The flagged labels, smallest adjusted p first."""
        return sorted((x for x in self.labels if x.flagged),
                      key=lambda x: (x.p_holm or 0.0, x.label))

    @property
    def tested(self) -> int:
        """Labels with at least one discordant word (the Holm family)."""
        return sum(1 for x in self.labels if x.p is not None)

    def who(self, lb: LabelBias) -> str:
        """The annotator who uses ``lb`` more ("" when equal)."""
        return {"first": self.first, "second": self.second}.get(lb.more, "")

    def to_dict(self) -> dict:
        """JSON-ready: the pair, the Stuart–Maxwell test and every label."""
        return {"layer": self.layer, "first": self.first, "second": self.second,
                "items": self.items, "labels_used": len(self.labels),
                "labels_tested": self.tested,
                "stuart_maxwell": self.test.statistic, "stuart_maxwell_df": self.test.df,
                "stuart_maxwell_p": self.test.p,
                "flagged": [x.label for x in self.flagged],
                "labels": [x.to_dict(self.first, self.second) for x in self.labels]}


@dataclass
class Bias(DictSection):
    """The ``bias`` section: marginal homogeneity per annotator pair and layer.

    Attributes
    ----------
    pairs : list of PairBias
        Per layer (in order), per pair of annotators (corpus order).
    significance : float
        The level below which an adjusted p flags a label.
    notes : list of str
    """

    pairs: List[PairBias]
    significance: float = SIGNIFICANCE
    notes: List[str] = field(default_factory=list)

    name = "bias"

    def metrics(self) -> Dict[str, Value]:
        """``bias_flagged_labels``: flagged (pair, layer, label) triples."""
        return {"bias_flagged_labels": sum(len(p.flagged) for p in self.pairs)}

    def to_dict(self) -> dict:
        """JSON-ready: the method, every pair's tests, the notes."""
        return {"test": "Stuart-Maxwell (per pair); McNemar exact, label vs rest (per label)",
                "correction": CORRECTION, "significance": self.significance,
                "pairs": [p.to_dict() for p in self.pairs], "notes": list(self.notes)}


def pair_bias(layer: str, categories: Sequence[str], first: str, second: str,
              table: "Contingency | np.ndarray",
              significance: float = SIGNIFICANCE) -> PairBias:
    """The tests of one square table (docs/method.md §25).

    Parameters
    ----------
    layer : str
    categories : sequence of str
        The label of each row / column.
    first, second : str
        The annotators of the rows and of the columns.
    table : Contingency or numpy.ndarray
        K × K counts.
    significance : float
        Holm-adjusted p below this flags a label.
    """
    t = table.dense() if isinstance(table, Contingency) else np.asarray(table, dtype=np.int64)
    used = [k for k in range(t.shape[0]) if t[k, :].sum() + t[:, k].sum() > 0]
    t = t[np.ix_(used, used)]
    rows: List[LabelBias] = []
    for i, k in enumerate(used):
        both, b, c = label_vs_rest(t, i)
        rows.append(LabelBias(str(categories[k]), both + b, both + c, both, b, c,
                              mcnemar_exact(b, c) if b + c else None))
    tested = [x for x in rows if x.p is not None]
    for x, adj in zip(tested, holm([float(x.p) for x in tested if x.p is not None])):
        x.p_holm = adj
        x.flagged = adj < significance
    rows.sort(key=lambda x: (-(x.first + x.second), x.label))
    return PairBias(layer, first, second, int(t.sum()), rows, stuart_maxwell(t))


def bias_of_layers(results: Mapping[str, LayerAgreement],
                   significance: float = SIGNIFICANCE) -> Bias:
    """The ``bias`` section of token-layer agreement (``categorical --bias``).

    One `PairBias` per layer and annotator pair, from the pair's contingency
    table as `synagree.stats.categorical.layer_agreement` counted it.
    """
    pairs: List[PairBias] = []
    notes = [_INDEPENDENCE]
    for layer, la in results.items():
        for pc in la.pairs:
            if pc.items == 0:
                notes.append(f"bias: {layer}: {pc.a} and {pc.b} share no word; not tested")
                continue
            pairs.append(pair_bias(layer, la.categories, pc.a, pc.b, pc.contingency,
                                   significance))
    return Bias(pairs, significance, notes + _degenerate(pairs))


def _degenerate(pairs: Sequence[PairBias]) -> List[str]:
    notes = []
    for p in pairs:
        if p.test.df == 0:
            notes.append(f"bias: {p.layer}, {p.first} × {p.second}: the two agree on every "
                         f"word, so there is nothing to test (Stuart-Maxwell df 0, p 1)")
        elif len(p.test.components) > 1:
            notes.append(f"bias: {p.layer}, {p.first} × {p.second}: the labels fall into "
                         f"{len(p.test.components)} groups never confused with one another; "
                         f"Stuart-Maxwell sums the groups' statistics and degrees of freedom "
                         f"(docs/method.md §25.1)")
    return notes


def bias_section(core: Core, significance: float = SIGNIFICANCE) -> Bias:
    """The ``bias`` section of an agreement result: DEPREL (in full) per annotator pair.

    Parameters
    ----------
    core : AgreementResult
        A dependency result carrying its corpus.
    significance : float

    Raises
    ------
    InputError
        ``usage``: a phrase-structure corpus (no word-level labels to test).
    """
    corpus = dependency_corpus(core, "--bias tests the labels of words (DEPREL)")
    data = items_from_corpus(corpus, "deprel")
    names = list(data.annotators)
    notes = [_INDEPENDENCE]
    if data.ignored_units:
        notes.append(f"bias: {data.ignored_units} unit(s) whose annotations differ in words "
                     f"are left out (words cannot be aligned)")
    pairs: List[PairBias] = []
    K = data.n_categories
    for a, b in combinations(range(len(names)), 2):
        c = Contingency.from_codes(data.codes, a, b, K)
        if c.total == 0:
            notes.append(f"bias: {names[a]} and {names[b]} share no word; not tested")
            continue
        pairs.append(pair_bias("deprel", data.categories, names[a], names[b], c,
                               significance))
    return Bias(pairs, significance, notes + _degenerate(pairs))
