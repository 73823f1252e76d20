"""Did pre-annotation anchor the annotators?  Kept and changed arcs (docs/method.md §29).

When annotators correct a parser's output, the arcs they keep are the
parser's, and two annotators who both kept an arc agree because of the
parser, not necessarily because of each other (Berzak et al. 2016).  Given
the pre-annotation file (read with the annotators', matched as ``agree``
matches them: `synagree.agreement.extra_file`), on the **shared units** whose
annotations are all of the same words as the pre-annotation:

* a word's arc is **kept** by an annotator when its head and its full DEPREL
  equal the pre-annotation's, else **changed** (head changed, or only the
  label); ``kept_share`` and ``changed_share`` per annotator;
* per annotator, the agreement with the other annotators on the words that
  annotator kept and on those they changed: ``LAS_kept`` / ``LAS_changed``
  (and ``LAS_full_*``; per word the mean over the other annotators of the
  LAS credit), ``alpha_<v>_kept`` / ``alpha_<v>_changed`` (α over every
  annotator's tree restricted to those words, `synagree.trees.restrict`);
* α and LAS **with and without the kept arcs**: with: over the same units,
  all words; without: over the words that at least one annotator changed,
  i.e. every tree restricted to them (the words every annotator kept are left
  out of every annotation; units where every annotator kept every arc drop
  out).  A word every annotator kept adds nothing to D_o (all its arcs
  agree) but takes part in D_e and in LAS; without them, α and LAS measure
  agreement where the annotators decided something.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple, cast

import numpy as np

from synagree.agreement.core import Value
from synagree.agreement.extra_file import WithExtra
from synagree.base.problems import InputError
from synagree.io.conllu import DepSentence
from synagree.io.text import same_words
from synagree.stats.alpha import VARIANTS, AlphaStats, tree_alpha
from synagree.stats.attachment import WORD_METRICS, non_ud_labels
from synagree.trees.flat import FlatTree, Vocabulary
from synagree.trees.restrict import restricted_tree

__all__ = ["PreannotationOptions", "AnnotatorArcs", "Preannotation", "preannotation_scores"]

#: the word scores of the analysis (LAS when every label is a UD relation)
_SCORES = ("LAS", "LAS_full")


@dataclass(frozen=True)
class PreannotationOptions:
    """The annotators and the pre-annotation they corrected, read together.

    Attributes
    ----------
    data : WithExtra
        The annotators and (as the extra file) the pre-annotation
        (`synagree.agreement.extra_file.read_with_extra`).
    """

    data: WithExtra


@dataclass(frozen=True)
class AnnotatorArcs:
    """One annotator's arcs against the pre-annotation, and agreement on them.

    Attributes
    ----------
    annotator : str
    words : int
        Words compared (of the units every file annotates with the same words).
    kept, head_changed, label_changed : int
        Words whose head and full DEPREL equal the pre-annotation's; whose
        head differs; whose head is the same and label differs.
    scores : dict of str to float or None
        ``LAS_kept``, ``LAS_changed``, ``LAS_full_kept``, ``LAS_full_changed``
        (None where there is no such word).
    alpha : dict of str to AlphaStats
        ``alpha_<v>_kept`` and ``alpha_<v>_changed``: the sums of α over the
        trees restricted to the annotator's kept (changed) words.
    """

    annotator: str
    words: int
    kept: int
    head_changed: int
    label_changed: int
    scores: Dict[str, Optional[float]]
    alpha: Dict[str, AlphaStats]

    @property
    def changed(self) -> int:
        """Words whose arc differs from the pre-annotation's (head or label)."""
        return self.words - self.kept

    @property
    def kept_share(self) -> Optional[float]:
        """kept / words, a fraction (None without words)."""
        return self.kept / self.words if self.words else None

    @property
    def changed_share(self) -> Optional[float]:
        """changed / words, a fraction (None without words)."""
        return self.changed / self.words if self.words else None

    def as_dict(self) -> dict:
        """JSON-ready: the shares and scores at the top (registered keys), the counts."""
        d: dict = {"annotator": self.annotator, "kept_share": self.kept_share,
                   "changed_share": self.changed_share}
        d.update(self.scores)
        d.update({k: st.alpha for k, st in self.alpha.items()})
        d["counts"] = {"words": self.words, "kept": self.kept, "changed": self.changed,
                       "head_changed": self.head_changed, "label_changed": self.label_changed,
                       **{k: {"do_sum": st.do_sum, "de_sum": st.de_sum, "n": st.n,
                              "units": st.units} for k, st in self.alpha.items()}}
        return d


@dataclass
class Preannotation:
    """The section ``preannotation``: kept and changed arcs, α and LAS with and without them.

    Returned by `preannotation_scores` (docs/method.md §29).

    Attributes
    ----------
    preannotation : str
        The pre-annotation's name (its file stem).
    annotators : list of str
    units : int
        Units compared: every file annotates them, with the same words.
    units_shared : int
        Units every file annotates.
    units_without_kept : int
        Units with at least one word some annotator changed.
    words : int
        Words of the units compared.
    kept_by_all : int
        Words every annotator kept.
    per_annotator : list of AnnotatorArcs
    with_kept, without_kept : dict of str to AlphaStats
        α over the units compared, all words; over the words some annotator changed.
    scores : dict of str to float or None
        ``LAS_with_kept``, ``LAS_without_kept`` and their ``LAS_full_`` twins.
    notes : list of str
    """

    preannotation: str
    annotators: List[str]
    units: int
    units_shared: int
    units_without_kept: int
    words: int
    kept_by_all: int
    per_annotator: List[AnnotatorArcs]
    with_kept: Dict[str, AlphaStats]
    without_kept: Dict[str, AlphaStats]
    scores: Dict[str, Optional[float]]
    notes: List[str] = field(default_factory=list)
    name = "preannotation"

    def annotator(self, name: str) -> AnnotatorArcs:
        """The arcs of annotator ``name``; KeyError if none."""
        for a in self.per_annotator:
            if a.annotator == name:
                return a
        raise KeyError(name)

    def metrics(self) -> Dict[str, Value]:
        """``kept_by_all_share``, ``alpha_<v>_with_kept``, ``alpha_<v>_without_kept`` and
        ``LAS[_full]_with_kept`` / ``_without_kept`` (fractions)."""
        out: Dict[str, Value] = {
            "kept_by_all_share": self.kept_by_all / self.words if self.words else None}
        for v, st in self.with_kept.items():
            out[f"alpha_{v}_with_kept"] = st.alpha
        for v, st in self.without_kept.items():
            out[f"alpha_{v}_without_kept"] = st.alpha
        out.update(self.scores)
        return out

    def details(self) -> dict:
        """The counts, each annotator's arcs and the sums behind every α."""
        return {"preannotation": self.preannotation, "annotators": list(self.annotators),
                "units": self.units, "units_shared": self.units_shared,
                "units_without_kept": self.units_without_kept, "words": self.words,
                "kept_by_all": self.kept_by_all,
                "per_annotator": [a.as_dict() for a in self.per_annotator],
                "counts": {**{f"alpha_{v}_with_kept": _sums(st)
                              for v, st in self.with_kept.items()},
                           **{f"alpha_{v}_without_kept": _sums(st)
                              for v, st in self.without_kept.items()}},
                "notes": list(self.notes)}

    def to_dict(self) -> dict:
        """The metrics and the details in one JSON-ready dict."""
        return {**self.metrics(), **self.details()}


def _sums(st: AlphaStats) -> dict:
    return {"do_sum": st.do_sum, "de_sum": st.de_sum, "n": st.n, "units": st.units}


def _restricted_alpha(units: Sequence[Sequence[DepSentence]], masks: Sequence[np.ndarray],
                      variants: Sequence[str], sample_pairs: Optional[int], seed: int,
                      progress: Optional[bool]) -> Tuple[Dict[str, AlphaStats], int]:
    """α over every annotation of each unit restricted to the unit's mask (units with an
    empty mask left out), and the number of units that took part."""
    vocab = Vocabulary()
    trees: List[List[FlatTree]] = []
    for anns, mask in zip(units, masks):
        if mask.any():
            trees.append([restricted_tree(s, mask, vocab) for s in anns])
    ta = tree_alpha(trees, variants, sample_pairs=sample_pairs, seed=seed, progress=progress)
    return dict(ta.stats), len(trees)


def preannotation_scores(options: PreannotationOptions, variants: Sequence[str] = VARIANTS,
                         sample_pairs: Optional[int] = None, seed: int = 0,
                         progress: Optional[bool] = None) -> Preannotation:
    """Kept and changed arcs per annotator, agreement on each, α with and without them.

    docs/method.md §29 and the module docstring.

    Parameters
    ----------
    options : PreannotationOptions
    variants : sequence of str
        α variants.
    sample_pairs : int, optional
        Estimate each D_e from that many pairs (as the agreement run does);
        None: by cost (`synagree.stats.alpha.plan_de`).
    seed : int
    progress : bool, optional

    Raises
    ------
    InputError
        ``usage``: phrase-structure input (arcs are dependency arcs).
    """
    data = options.data
    if data.corpus.kind != "dependency":
        raise InputError.single("<command line>", None, "usage",
                                "--preannotation compares dependency arcs: it needs CoNLL-U "
                                "annotations, not phrase-structure trees")
    variants = [v for v in VARIANTS if v in variants]
    humans = data.annotators
    shared = data.shared_units()
    units: List[List[DepSentence]] = []
    pres: List[DepSentence] = []
    for u in shared:
        anns = [cast(DepSentence, u.annotations[a]) for a in humans]
        pre = cast(DepSentence, u.annotations[data.extra])
        if same_words([s.forms for s in (*anns, pre)]):
            units.append(anns)
            pres.append(pre)
    labels = (lab for anns in units for s in anns for lab in s.deprels)
    scores_of = _SCORES if not non_ud_labels(labels) else ("LAS_full",)
    k = len(humans)
    # per unit: kept[h] (bool per word), and credit[m][h] (per word: mean over the
    # other annotators of the word's credit under metric m)
    kept: List[np.ndarray] = []
    head_same: List[np.ndarray] = []
    credit: Dict[str, List[np.ndarray]] = {m: [] for m in scores_of}
    for anns, pre in zip(units, pres):
        hs = np.stack([s.heads == pre.heads for s in anns])
        ls = np.stack([np.fromiter(map(str.__eq__, s.deprels, pre.deprels), dtype=bool,
                                   count=pre.n_words) for s in anns])
        kept.append(hs & ls)
        head_same.append(hs)
        for m in scores_of:
            c = np.zeros((k, pre.n_words))
            for i in range(k):
                for j in range(i + 1, k):
                    same = WORD_METRICS[m](anns[i], anns[j]).astype(float)
                    c[i] += same
                    c[j] += same
            credit[m].append(c / max(k - 1, 1))
    words = int(sum(p.n_words for p in pres))
    per: List[AnnotatorArcs] = []
    for i, h in enumerate(humans):
        kept_i = [x[i] for x in kept]
        n_kept = int(sum(int(x.sum()) for x in kept_i))
        n_head = int(sum(int((~x[i]).sum()) for x in head_same))
        scores: Dict[str, Optional[float]] = {}
        for m in scores_of:
            for part, want in (("kept", True), ("changed", False)):
                sel = [x == want for x in kept_i]
                total = sum(int(s.sum()) for s in sel)
                got = sum(float(c[i][s].sum()) for c, s in zip(credit[m], sel))
                scores[f"{m}_{part}"] = got / total if total else None
        alpha: Dict[str, AlphaStats] = {}
        for part, want in (("kept", True), ("changed", False)):
            part_alpha, _ = _restricted_alpha(units, [x == want for x in kept_i], variants,
                                              sample_pairs, seed, progress)
            alpha.update({f"alpha_{v}_{part}": s for v, s in part_alpha.items()})
        per.append(AnnotatorArcs(h, words, n_kept, n_head, words - n_kept - n_head, scores,
                                 alpha))
    all_kept: List[np.ndarray] = [np.asarray(x.all(axis=0)) for x in kept]
    with_kept, _ = _restricted_alpha(units, [np.ones(p.n_words, dtype=bool) for p in pres],
                                     variants, sample_pairs, seed, progress)
    without_kept, n_without = _restricted_alpha(units, [~x for x in all_kept], variants,
                                                sample_pairs, seed, progress)
    total_scores: Dict[str, Optional[float]] = {}
    for m in scores_of:
        # LAS among the annotators: per word the mean credit over annotator pairs
        pair_credit = [c.sum(axis=0) / k for c in credit[m]]  # Σ_i mean_j / k = mean pair
        for part, sel in (("with_kept", [np.ones_like(x) for x in all_kept]),
                          ("without_kept", [~x for x in all_kept])):
            total = sum(int(s.sum()) for s in sel)
            got = sum(float(c[s].sum()) for c, s in zip(pair_credit, sel))
            total_scores[f"{m}_{part}"] = got / total if total else None
    notes: List[str] = []
    if len(shared) < len(data.corpus.units):
        notes.append(f"{len(data.corpus.units) - len(shared)} unit(s) lack an annotation or "
                     f"the pre-annotation and are left out")
    if len(units) < len(shared):
        notes.append(f"{len(shared) - len(units)} shared unit(s) whose annotations are not of "
                     f"the pre-annotation's words (edited or joined units) are left out of "
                     f"the kept/changed analysis")
    if "LAS" not in scores_of:
        notes.append("LAS (on universal relations) is reported for UD relations only; "
                     "LAS_full compares the labels as written")
    for v, st in without_kept.items():
        notes.extend(f"alpha_{v}_without_kept: {n.split(': ', 1)[-1]}" for n in st.notes)
    return Preannotation(data.extra, list(humans), len(units), len(shared), n_without, words,
                         int(sum(int(x.sum()) for x in all_kept)), per, with_kept,
                         without_kept, total_scores, notes)
