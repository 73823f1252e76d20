"""Hierarchical label scores for ``synagree agree`` and the API (docs/method.md §9).

Beside the exact scores of docs/method.md §6 this module computes, for dependency
corpora, label scores that give partial credit along a tag hierarchy
(`synagree.trees.hierarchy`), and, on request, Krippendorff's α with
hierarchy-aware rename costs in the tree edit distance.  The published
variants (α_plain/diff/norm with unit costs, LAS/UAS/LA) are never replaced:
every number here is reported on its own line.

Metrics (keys of `hierarchical_metrics`)
=============================================

``LA_hier``
    Hierarchical label accuracy: the mean over words of the *label credit*
    of the two annotations' DEPREL (see "Label credit" below).
``LAS_hier``
    Hierarchical LAS: per word ``[same head] * label credit``.
``kappa_hier``
    Hierarchical κ on DEPREL (docs/method.md §9): ``P(A)`` = mean over words of the
    pair agreement ``sum_l P(l|a) P(l|b)``; ``P(E) = sum_l P(l)^2`` with
    ``P(l)`` the mean leaf distribution over all compared annotations
    (pooled, as Scott's π).  This always uses the docs/method.md §9 pair agreement,
    whatever the label-credit mode.
``scott_pi``
    Scott's π on DEPREL, labels compared exactly (the flat hierarchy through
    the same code: with a flat hierarchy ``kappa_hier`` equals it).
``cohen_kappa``
    Cohen's κ on DEPREL (each annotator's own marginals); only when the
    corpus has exactly two annotators, else ``None``.
``alpha_plain_hier``, ``alpha_diff_hier``, ``alpha_norm_hier``
    Only with ``label_distance="hierarchy"``: α (docs/method.md §4–5) over a tree edit
    distance whose rename cost is the hierarchy's label distance (total
    variation between leaf distributions, `synagree.trees.hierarchy.label_distance`,
    in [0, 1]); deleting or inserting a node still costs 1 (0 for the empty
    root label, as zss).  So renaming ``nsubj`` to ``nsubj:pass`` costs less
    than renaming it to ``obj``.  |t| and the δ variants are unchanged.

Aggregation is that of docs/method.md §6: for each unit the per-word credits are
averaged over all annotator pairs of the unit and weighted by its word
count; units whose annotations differ in word count are left out (counted
as ``ignored``).  Punctuation counts; labels are DEPREL as written.  κ pools
every annotation of every compared word (a unit with m annotators of n words
adds n items with pair-averaged agreement and m·n annotations).

Label credit for a pair of annotators (``mode``)
===============================================

Neither annotator is gold, so docs/method.md §9's credit (gold vs output) is not
symmetric and a choice is needed:

``"mutual"`` (default, used by ``synagree agree``)
    ``(credit(a, b) + credit(b, a)) / 2``: the mean of "a as gold" and "b as
    gold".  Symmetric; 1 for equal labels (so hierarchical LA >= exact LA);
    equal to exact matching under a flat hierarchy; ``nsubj`` vs
    ``nsubj:pass`` gets ``(1 + 1/k) / 2`` with ``k`` the children of
    ``nsubj``.
``"agreement"``
    docs/method.md §9's pair agreement ``sum_l P(l|a) P(l|b)``, the probability that one
    leaf drawn from each annotation is the same leaf.  Symmetric, but two
    annotators who both chose the same *under-specified* label agree less than
    1 (``agr(nsubj, nsubj) = 1/k`` when ``nsubj`` has ``k`` leaf children), so
    it is not an accuracy; it is the P(A) of ``kappa_hier``.
``"credit"``
    ``credit(gold=a, output=b)`` with ``a`` the annotator listed first (corpus
    order).  The natural choice against a gold standard; ``synagree tags``
    uses it (gold file vs system file).

Hierarchies (``hierarchy_spec``)
================================

``"ud"``: `Hierarchy.from_ud` over every label of the corpus
(``plain_as_leaf`` applies to this one only); ``"msd"``:
`Hierarchy.from_msd`; ``"flat"``: no structure (everything equals the
exact scores, a sanity check); anything else is the path of a hierarchy file
(`Hierarchy.from_file`; a missing or bad file raises
`synagree.base.problems.InputError`).  The keywords win over files of the
same name (write ``./ud`` for a file called ``ud``).  A
`synagree.trees.hierarchy.Hierarchy` object is accepted too.  Labels of the
corpus that a file does not list become top-level leaves (they share nothing
with any other label) and are reported.

Caveat, UD hierarchy with ``plain_as_leaf=False``: a plain relation that has
exactly one subtype in the corpus (``aux`` with only ``aux:pass``) has the
same leaf distribution as that subtype, so the two are fully interchangeable
(credit 1, label distance 0).  This is reported as a note.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    List,
    Optional,
    Protocol,
    Sequence,
    Tuple,
    cast,
)

import numpy as np

from synagree.base.option_specs import check_fields
from synagree.base.problems import InputError, ProblemLog
from synagree.distance.ted import Costs
from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus, Unit
from synagree.io.formats import Sentence
from synagree.stats.alpha import VARIANTS, TreeAlpha, tree_alpha
from synagree.stats.attachment import word_aligned
from synagree.stats.contingency import Contingency
from synagree.stats.hierarchical_kappa import HierarchicalKappa

# loading and naming a hierarchy, and the credit of two labels, live in a light module
# of their own (what `compare` and `tags` need; issue 36: start-up): re-exported here
from synagree.stats.hierarchy_input import (
    AGREE_MODE,
    HIERARCHY_KEYWORDS,
    LABEL_DISTANCES,
    MODES,
    HierarchySpec,
    describe_hierarchy,
    hierarchy_input,
    label_credit_fn,
    load_hierarchy,
    load_hierarchy_noting_added,
)
from synagree.stats.tag_alternatives import (
    TagReader,
    annotation_distance_matrix,
    annotation_leaf_mass,
    check_syntax_option,
    check_values,
    pair_closeness_fn,
    pair_credit_fn,
    plain_syntax_note,
)
from synagree.trees.annotation_bdm import tag_closeness
from synagree.trees.flat import Vocabulary, build_tree
from synagree.trees.hierarchy import (
    PLAIN_LEAF_SUFFIX,
    Hierarchy,
    label_distance_matrix,
    pooled_leaf_mass,
)

__all__ = [
    "MODES", "AGREE_MODE", "LABEL_DISTANCES", "HIERARCHY_KEYWORDS", "METRIC_KEYS",
    "load_hierarchy", "load_hierarchy_noting_added", "describe_hierarchy", "label_credit_fn",
    "hierarchical_tree_alpha", "hierarchical_metrics", "hier_metric_fn", "HierarchyOptions",
    "hierarchy_input", "HierarchySpec",
]

#: Every key `hierarchical_metrics` may return, in report order.
METRIC_KEYS = ("LA_hier", "LAS_hier", "kappa_hier", "scott_pi",
               "cohen_kappa") + tuple(f"alpha_{v}_hier" for v in VARIANTS)

#: The keys ``bdm=True`` adds: GATE's BDM (docs/method.md §15.4, §23).
BDM_KEYS = ("LA_bdm", "LAS_bdm")
#: The keys ``wu_palmer=True`` adds: the Wu–Palmer closeness (docs/method.md §15.4).
WUP_KEYS = ("LA_wup", "LAS_wup")

@dataclass(frozen=True)
class HierarchyOptions:
    """How hierarchical label credit is given (``--hierarchy`` and its companions).

    Attributes
    ----------
    spec : str, path-like, file-like or Hierarchy
        ``"ud"``, ``"msd"``, ``"flat"``, a hierarchy file (or stream, read
        once) or a `Hierarchy`.
    label_distance : {"exact", "hierarchy"}
        ``hierarchy``: also α with hierarchy-aware rename costs (``alpha_<v>_hier``).
    plain_as_leaf : bool
        With ``ud``: a plain relation is a leaf beside its subtypes.
    label_credit : {"mutual", "agreement", "credit"}
        Credit for two annotators' labels (module docstring).
    tag_syntax : {"plain", "alternatives"}
        ``alternatives``: DEPREL values with alternatives (docs/method.md §15).
    bdm : bool
        Also GATE's BDM label closeness (``LA_bdm``, ``LAS_bdm``).
    wu_palmer : bool
        Also the Wu–Palmer closeness (``LA_wup``, ``LAS_wup``).
    """

    spec: HierarchySpec = "ud"
    label_distance: str = "exact"
    plain_as_leaf: bool = False
    label_credit: str = AGREE_MODE
    tag_syntax: str = "plain"
    bdm: bool = False
    wu_palmer: bool = False

    def __post_init__(self) -> None:
        # each setting checked as the command line checks it (synagree.base.option_specs)
        check_fields(self, "HierarchyOptions: ", _HIERARCHY_FIELDS)
        object.__setattr__(self, "spec", hierarchy_input(self.spec))  # a stream read once

    def describe(self) -> str:
        """The settings line of a result (``hierarchy`` in the signature)."""
        out = (f"{describe_hierarchy(self.spec, self.plain_as_leaf)}, label distance "
               f"{self.label_distance}, credit {self.label_credit}")
        if self.tag_syntax != "plain" or self.bdm or self.wu_palmer:  # docs/method.md §15
            out += (f", tag syntax {self.tag_syntax}" + (", bdm" if self.bdm else "")
                    + (", wu-palmer" if self.wu_palmer else ""))
        return out


#: the fields of `HierarchyOptions` declared as options, by their declaration's name
_HIERARCHY_FIELDS = {"label_distance": "label_distance", "plain_as_leaf": "plain_as_leaf",
                     "label_credit": "label_credit", "tag_syntax": "tag_syntax", "bdm": "bdm",
                     "wu_palmer": "wu_palmer"}


def _single_child_notes(h: Hierarchy, labels: Iterable[str]) -> List[str]:
    """A note on the labels used in the data whose tag has exactly one child
    (the two have the same leaf distribution, so they are interchangeable)."""
    pairs = []
    for lab in sorted(set(labels)):
        if not lab or lab not in h or h.resolve(lab) != lab:
            continue
        kids = h.children(lab)
        if len(kids) == 1 and not kids[0].endswith(PLAIN_LEAF_SUFFIX):
            pairs.append(f"{lab} = {kids[0]}")
    if not pairs:
        return []
    return [f"{len(pairs)} label(s) have a single child in the hierarchy and are "
            f"interchangeable with it (credit 1, label distance 0): " + ", ".join(pairs)]


# ---------------------------------------------------------------- alpha
def hierarchical_tree_alpha(annotation_lists: Sequence[Sequence[object]], h: Hierarchy,
                            variants: Sequence[str] = VARIANTS,
                            reader: Optional[TagReader] = None, *,
                            executor: Optional[Callable[..., Any]] = None) -> TreeAlpha:
    """α over TED with hierarchy rename costs (``alpha_*_hier``, docs/method.md §9).

    Parameters
    ----------
    annotation_lists : sequence of sequence
        Per unit, its annotations (`DepSentence` or `PhraseSentence`).
    h : Hierarchy
    variants : sequence of str
    reader : TagReader, optional
        With the ``alternatives`` syntax, a label is an annotation and the
        rename cost the total variation between annotations
        (`synagree.stats.tag_alternatives.annotation_distance_matrix`,
        docs/method.md §15.4).
    executor : callable, optional
        Runs the tiles elsewhere (Dask, `synagree.distance.dask_exec`).
    """
    vocab = Vocabulary()
    units = [[build_tree(s, vocab) for s in anns] for anns in annotation_lists]
    labels = list(vocab.labels)
    if reader is not None and reader.syntax != "plain":  # docs/method.md §15.4
        costs = Costs.with_renames(annotation_distance_matrix(h, labels, reader))
    else:
        costs = Costs.with_renames(label_distance_matrix(h, labels))
    return tree_alpha(units, variants, costs=costs, executor=executor)


# ---------------------------------------------------------------- labels
def _labels_of(sent) -> List[str]:
    if isinstance(sent, DepSentence):
        return list(sent.deprels)
    if isinstance(sent, PhraseSentence):
        out: List[str] = []
        stack: List[PhraseNode] = [sent.root]
        while stack:
            node = stack.pop()
            if node.label:
                out.append(node.label)
            stack.extend(node.children)
        return out
    return list(getattr(sent, "deprels", ()))


def _nan_to_none(x: float) -> Optional[float]:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def _stats_dict(k: HierarchicalKappa) -> dict:
    return {"items": k.n_items, "annotations": k.n_annotations,
            "p_observed": _nan_to_none(k.p_observed), "p_expected": _nan_to_none(k.p_expected),
            "kappa": _nan_to_none(k.kappa)}


def _label_scores(ann_lists: Sequence[Sequence[DepSentence]], h: Hierarchy, mode: str,
                  two_annotators: bool, reader: Optional[TagReader] = None,
                  bdm: bool = False, wu_palmer: bool = False, added: Sequence[str] = ()
                  ) -> Tuple[Dict[str, Optional[float]], dict]:
    alternatives = reader is not None and reader.syntax != "plain"  # docs/method.md §15.4
    read = reader if reader is not None else TagReader()
    cred = pair_credit_fn(h, read, mode) if alternatives else label_credit_fn(h, mode)
    agr = (pair_credit_fn(h, read, "agreement") if alternatives
           else label_credit_fn(h, "agreement"))
    closers = {}  # key suffix -> pair closeness (docs/method.md §15.4)
    if bdm:
        closers["bdm"] = pair_closeness_fn(tag_closeness(h, "bdm", added), read, mode)
    if wu_palmer:
        closers["wup"] = pair_closeness_fn(tag_closeness(h, "wu-palmer"), read, mode)
    sums = {"LA_hier": 0.0, "LAS_hier": 0.0, "agreement": 0.0, "LA": 0.0, "LAS_full": 0.0}
    for suffix in closers:
        sums.update({f"LA_{suffix}": 0.0, f"LAS_{suffix}": 0.0})
    total = 0
    label_counts: Counter = Counter()  # every compared annotation's labels (pooled)
    n_annotations = 0
    cohen_pairs: List[Tuple[str, str]] = []
    kept, ignored = word_aligned(ann_lists)
    units = len(kept)
    for anns in kept:
        n = anns[0].n_words
        pairs = list(combinations(anns, 2))
        unit = dict.fromkeys(sums, 0.0)
        for a, b in pairs:
            heads_eq = (np.asarray(a.heads) == np.asarray(b.heads)).tolist()
            for k, (la, lb) in enumerate(zip(a.deprels, b.deprels)):
                c = cred(la, lb)
                unit["LA_hier"] += c
                unit["agreement"] += agr(la, lb)
                same = la == lb
                unit["LA"] += same
                for suffix, close in closers.items():
                    closeness = close(la, lb)
                    unit[f"LA_{suffix}"] += closeness
                    unit[f"LAS_{suffix}"] += closeness if heads_eq[k] else 0.0
                if heads_eq[k]:
                    unit["LAS_hier"] += c
                    unit["LAS_full"] += same
        for key in sums:
            sums[key] += unit[key] / len(pairs)
        for a in anns:
            label_counts.update(a.deprels)
        n_annotations += len(anns) * n
        if two_annotators and len(anns) == 2:
            cohen_pairs.extend(zip(anns[0].deprels, anns[1].deprels))
        total += n
    # chance: leaf mass of the pooled annotations (hierarchical) and label counts (flat)
    hk = HierarchicalKappa(total, sums["agreement"], n_annotations,
                           annotation_leaf_mass(h, read, label_counts.items()) if alternatives
                           else pooled_leaf_mass(h, label_counts.items()))
    flat = HierarchicalKappa(total, sums["LA"], n_annotations,
                             {lab: float(c) for lab, c in label_counts.items()})
    cohen = (Contingency.from_labels(cohen_pairs).kappa() if two_annotators
             else math.nan)

    def ratio(key: str) -> Optional[float]:
        return sums[key] / total if total else None

    metrics = {"LA_hier": ratio("LA_hier"), "LAS_hier": ratio("LAS_hier"),
               "kappa_hier": _nan_to_none(hk.kappa),
               "scott_pi": _nan_to_none(flat.kappa),
               "cohen_kappa": _nan_to_none(cohen) if two_annotators else None}
    for suffix in closers:
        metrics.update({f"LA_{suffix}": ratio(f"LA_{suffix}"),
                        f"LAS_{suffix}": ratio(f"LAS_{suffix}")})
    details = {"words": total, "units": units, "ignored": ignored,
               "sums": dict(sums), "exact_la": ratio("LA"), "exact_las": ratio("LAS_full"),
               "pair_agreement": ratio("agreement"),
               "kappa_hier": _stats_dict(hk), "scott": _stats_dict(flat)}
    return metrics, details


# ---------------------------------------------------------------- main entry
def hierarchical_metrics(corpus: Corpus, hierarchy_spec: HierarchySpec = "ud",
                         label_distance: str = "exact", plain_as_leaf: bool = False,
                         mode: str = AGREE_MODE,
                         variants: Sequence[str] = VARIANTS, tag_syntax: str = "plain",
                         bdm: bool = False, wu_palmer: bool = False, *,
                         executor: Optional[Callable[..., Any]] = None
                         ) -> Tuple[Dict[str, Optional[float]], dict]:
    """Hierarchical scores of a corpus: ``(metrics, details)`` (docs/method.md §9.6).

    Dependency corpora get ``LA_hier``, ``LAS_hier``, ``kappa_hier``,
    ``scott_pi`` and ``cohen_kappa`` (None unless exactly
    two annotators); with ``label_distance="hierarchy"`` every corpus also gets
    ``alpha_<variant>_h`` for the requested ``variants``.  κ always uses the
    pair agreement of docs/method.md §9.4, whatever ``mode``.

    Parameters
    ----------
    corpus : Corpus
    hierarchy_spec : str, path-like or Hierarchy
        See `load_hierarchy`.
    label_distance : {"exact", "hierarchy"}
        ``hierarchy``: also α with hierarchy rename costs.
    plain_as_leaf : bool
        See `Hierarchy.from_ud`.
    mode : {"mutual", "agreement", "credit"}
        Label credit for a pair of annotators (module docstring).
    variants : sequence of str
        α variants for ``alpha_*_hier``.
    tag_syntax : {"plain", "alternatives"}
        ``alternatives``: DEPREL values such as ``obl|advmod`` or
        ``nsubj=0.7|obj=0.3`` are annotations with alternatives
        (docs/method.md §15.4; dependency corpora only).
    bdm : bool
        Add ``LA_bdm`` and ``LAS_bdm`` (GATE's BDM between the labels,
        following ``mode``; docs/method.md §15.4, §23).
    wu_palmer : bool
        Add ``LA_wup`` and ``LAS_wup`` (the Wu–Palmer closeness, following
        ``mode``; docs/method.md §15.4).
    executor : callable, optional
        Runs the tiles of the ``alpha_*_hier`` pass elsewhere (Dask,
        `synagree.distance.dask_exec`).

    Returns
    -------
    metrics : dict of str to float or None
        Keys of `METRIC_KEYS` that apply, fractions (None when undefined),
        ready for `AgreementResult.extra`.
    details : dict
        The sums behind them, the hierarchy used, ignored units, unknown labels
        and ``notes`` (human-readable lines).

    Raises
    ------
    InputError
        Unknown ``label_distance`` or ``mode``, or a bad hierarchy.
    """
    if label_distance not in LABEL_DISTANCES:
        raise InputError.single("<command line>", None, "usage",
                                f"unknown label distance {label_distance!r}; expected one "
                                f"of {', '.join(LABEL_DISTANCES)}")
    if mode not in MODES:
        raise InputError.single("<command line>", None, "usage",
                                f"unknown label-credit mode {mode!r}; expected one of "
                                f"{', '.join(MODES)}")
    check_syntax_option(tag_syntax)
    read = TagReader(tag_syntax)
    if tag_syntax != "plain" and corpus.kind != "dependency":
        raise InputError.single("<command line>", None, "usage",
                                "--tag-syntax alternatives reads DEPREL: dependency input only")
    ann_lists = corpus.annotation_lists()
    labels: List[str] = []
    for anns in ann_lists:
        for s in anns:
            labels.extend(_labels_of(s))
    syntax_note = None
    if tag_syntax != "plain":  # docs/method.md §15.4: every value checked, with its line
        log = ProblemLog()
        alt_count, prob_count = check_values(
            ((s.file, s.word_lines[k] if k < len(s.word_lines) else s.line, lab)
             for anns in ann_lists for s in cast(List[DepSentence], anns)
             for k, lab in enumerate(s.deprels)), read, "DEPREL", log)
        log.raise_if_errors()
        labels = read.tags(labels)
    elif corpus.kind == "dependency":
        syntax_note = plain_syntax_note(labels, "DEPREL")
    h, added = load_hierarchy_noting_added(hierarchy_spec, labels, plain_as_leaf)
    notes: List[str] = [syntax_note] if syntax_note else []
    details: dict = {"hierarchy": describe_hierarchy(hierarchy_spec, plain_as_leaf),
                     "plain_as_leaf": bool(plain_as_leaf), "label_credit": mode,
                     "label_distance": label_distance, "tags": len(h),
                     "leaves": len(h.leaves), "labels_not_in_hierarchy": added}
    if added:
        shown = ", ".join(added[:20]) + (" ..." if len(added) > 20 else "")
        notes.append(f"{len(added)} label(s) not in the hierarchy were added as top-level "
                     f"tags (no partial credit): {shown}")
    if describe_hierarchy(hierarchy_spec, plain_as_leaf) == "ud":
        notes.extend(_single_child_notes(h, labels))
    metrics: Dict[str, Optional[float]] = {}
    if corpus.kind == "dependency":
        two = len(corpus.annotators) == 2
        # dependency corpus: every annotation is a DepSentence
        m, d = _label_scores(cast(List[List[DepSentence]], ann_lists), h, mode, two, read, bdm,
                             wu_palmer, added)
        metrics.update(m)
        details.update(d)
        if not two:
            notes.append("cohen_kappa needs exactly two annotators; undefined here")
    else:
        notes.append("hierarchical label accuracy and kappa"
                     + (" and BDM credit (LA_bdm, LAS_bdm)" if bdm else "")
                     + (" and Wu-Palmer credit (LA_wup, LAS_wup)" if wu_palmer else "")
                     + " apply to dependency input only")
    if label_distance == "hierarchy":
        ta = hierarchical_tree_alpha(ann_lists, h, variants, read, executor=executor)
        for v in variants:
            st = ta.stats[v]
            metrics[f"alpha_{v}_hier"] = st.alpha
            notes.extend(n.replace(f"alpha_{v}:", f"alpha_{v}_h:") for n in st.notes)
        details["alpha_hier"] = {v: {"do_sum": st.do_sum, "de_sum": st.de_sum, "n": st.n,
                                  "d_o": _nan_to_none(st.d_o), "d_e": _nan_to_none(st.d_e)}
                              for v, st in ta.stats.items()}
    if tag_syntax != "plain" or bdm or wu_palmer:  # docs/method.md §15
        details.update(tag_syntax=tag_syntax, bdm_credit=bool(bdm),
                       wu_palmer_credit=bool(wu_palmer))
    if tag_syntax != "plain":
        details["alternatives"] = {"annotations": alt_count, "probabilities": prob_count}
        if prob_count and mode != "agreement":
            notes.append(f"{prob_count} DEPREL value(s) carry probabilities: they weigh the "
                         f"side read as output; on the side read as gold (label credit "
                         f"{mode}) alternatives are disjunctive (docs/method.md §15.4)")
    details["notes"] = notes
    ordered = {k: metrics[k] for k in METRIC_KEYS + BDM_KEYS + WUP_KEYS if k in metrics}
    return ordered, details


# ---------------------------------------------------------------- experiments hook
class ColumnsMetric(Protocol):
    """A metric function that names the columns it returns (`hier_metric_fn`)."""

    __name__: str
    columns: Tuple[str, ...]

    def __call__(self, original: Sequence[Sentence],
                 perturbed: Sequence[Sentence]) -> Dict[str, Optional[float]]: ...


def hier_metric_fn(hierarchy: HierarchySpec = "ud", label_distance: str = "hierarchy",
                   plain_as_leaf: bool = False, mode: str = AGREE_MODE,
                   variants: Sequence[str] = VARIANTS,
                   labels: Optional[Iterable[str]] = None
                   ) -> ColumnsMetric:
    """A metric function ``(original_sentences, perturbed_sentences) -> dict`` for noise runs.

    The two lists (same length, sentence k of one is sentence k of the other)
    are compared as two annotators, and the `hierarchical_metrics` of that
    two-annotator corpus are returned (``LA_hier``, ``LAS_hier``,
    ``kappa_hier``, ``scott_pi``, ``cohen_kappa`` and,
    with ``label_distance="hierarchy"`` (the default), ``alpha_plain_hier`` /
    ``alpha_diff_hier`` / ``alpha_norm_hier``).  A file is read once.

    Parameters
    ----------
    hierarchy : str, path-like or Hierarchy
    label_distance : {"exact", "hierarchy"}
    plain_as_leaf : bool
    mode : {"mutual", "agreement", "credit"}
    variants : sequence of str
    labels : iterable of str, optional
        The experiment's label set (``NoiseSource.labels``); with it a
        ``ud``/``msd``/``flat`` hierarchy is built once from those labels, so
        every run uses the same hierarchy (recommended: relabel noise may bring
        in or leave out subtypes).  Without it such a hierarchy is rebuilt from
        each call's labels.

    Returns
    -------
    callable
        With ``__name__ = "hierarchy"`` and ``columns`` = the keys it returns,
        for `synagree.noise.experiments.Metric`.

    Raises
    ------
    InputError
        Bad hierarchy or usage (at once, not at the first call).
    """
    if not isinstance(hierarchy, Hierarchy):
        if str(hierarchy) not in HIERARCHY_KEYWORDS or labels is not None:
            hierarchy = load_hierarchy(hierarchy, labels or (), plain_as_leaf=plain_as_leaf)
        else:
            load_hierarchy(hierarchy, (), plain_as_leaf=plain_as_leaf)  # usage errors now
    spec_plain = plain_as_leaf and not isinstance(hierarchy, Hierarchy)

    def metric(original: Sequence[Sentence],
               perturbed: Sequence[Sentence]) -> Dict[str, Optional[float]]:
        if len(original) != len(perturbed):
            raise ValueError(f"{len(original)} original but {len(perturbed)} perturbed "
                             f"sentences")
        units = [Unit(str(k + 1), "experiment", {"original": a, "perturbed": b})
                 for k, (a, b) in enumerate(zip(original, perturbed))]
        kind = "phrase" if original and isinstance(original[0], PhraseSentence) else "dependency"
        corpus = Corpus(["original", "perturbed"], units, kind)
        metrics, _ = hierarchical_metrics(corpus, hierarchy, label_distance, spec_plain,
                                          mode, variants)
        return metrics

    fn = cast(ColumnsMetric, metric)  # a function; mypy types no attributes set on one
    fn.__name__ = "hierarchy"
    fn.columns = tuple(k for k in METRIC_KEYS if not k.startswith("alpha_")) + (
        tuple(f"alpha_{v}_hier" for v in VARIANTS if v in variants)
        if label_distance == "hierarchy" else ())
    return fn
