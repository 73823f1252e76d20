"""Token-layer agreement of a corpus, everything ``synagree categorical`` reports.

`token_layer_agreement` computes, for one corpus, the categorical
coefficients of each requested layer (docs/method.md §12.3), per-feature
agreement on FEATS (§19), agreement on enhanced edges (§20) and, with
``bootstrap > 0``, percentile intervals by resampling sentences.  Rendering
is `synagree.render.categorical.render_token_layers`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from synagree._version import __version__
from synagree.agreement.bias import Bias, bias_of_layers
from synagree.agreement.enhanced import EnhancedAgreement, enhanced_agreement
from synagree.agreement.gwet_layers import GwetLayers, GwetOptions, gwet_of_layers
from synagree.base.frames import Frames
from synagree.base.memory import check_layer_bootstrap
from synagree.base.problems import InputError, Problem
from synagree.io.corpus import Corpus
from synagree.stats.bootstrap import check_replicates, small_sample_note
from synagree.stats.categorical import (
    COEFFICIENTS,
    LayerAgreement,
    items_from_corpus,
    layer_agreement,
    layer_bootstrap,
    layer_note,
    not_categories,
)
from synagree.stats.features import (
    CorpusFeatures,
    PerFeature,
    corpus_features,
    feature_of_layer,
    layer_items,
    per_feature_agreement,
)

__all__ = ["TokenLayerAgreement", "check_specific", "check_dependency_views",
           "token_layer_agreement"]


def complete_differs(results: Dict[str, LayerAgreement]) -> bool:
    """Do κ and π (which need every annotator's value) cover fewer items than A_o and α?

    With three or more annotators and missing annotations, Fleiss' κ and the
    Davies & Fleiss κ are computed on the items coded by every annotator;
    observed agreement and Krippendorff's α on every item coded by two or more
    (docs/method.md §12.3, §1.10).
    """
    return any(la.complete_items != la.items for la in results.values())


def item_set_note(results: Dict[str, LayerAgreement], m: int) -> Optional[str]:
    """A note when κ and π cover fewer items than A_o and α, else None."""
    if not complete_differs(results):
        return None
    return (f"with missing annotations, D&F kappa and Fleiss' kappa use only the items coded "
            f"by all {m} annotators (column 'items coded by all'); observed agreement and "
            f"Krippendorff's alpha use every item coded by two or more ('items'), alpha being "
            f"the coefficient defined for missing values (docs/method.md §12.3)")


def _without_replicates(cis: Dict[str, Dict[str, Dict[str, Any]]]) -> Dict[str, Any]:
    """The intervals of each layer or feature, without the replicate arrays."""
    return {name: {k: {kk: vv for kk, vv in v.items() if kk != "replicates"}
                   for k, v in ci.items()} for name, ci in cis.items()}


@dataclass(frozen=True)
class TokenLayerAgreement(Frames):
    """What `token_layer_agreement` computed for one corpus.

    Parameters
    ----------
    annotators : list of str
    settings : dict
        The corpus's matching settings (`synagree.io.corpus.Corpus.settings`).
    results : dict of str to LayerAgreement
        Per requested layer, in the requested order.
    feature_layers : bool
        Some layer is a single feature (``feats:NAME``).
    feature_items : str or None
        ``all`` or ``present`` when FEATS were split into features, else None.
    specific : str or None
        The layer whose specific agreement per category is reported.
    per_feature : PerFeature, optional
    enhanced : EnhancedAgreement, optional
    replicates, seed : int
        Bootstrap replicates (0: no intervals) and seed.
    level : float
        Confidence level of the intervals.
    intervals : dict, optional
        Per layer and coefficient, its interval from
        `synagree.stats.categorical.layer_bootstrap`
        (`synagree.stats.bootstrap.Interval.fields`, NaN where undefined).
    feature_intervals : dict, optional
        The same per feature of ``per_feature``.
    warnings : list of Problem
        Warnings of the corpus (head cycles, edited units, ...) and of
        splitting FEATS.
    notes : list of str
        Sentences every output format prints: the corpus's notes (how it was
        assembled), layers left out or kept although their values look like
        ids (`synagree.stats.categorical.id_like`), and intervals over fewer
        than 30 sentences.
    skipped : dict of str to str
        Layers left out as id-like, with the reason.
    unit_counts : dict of str to int
        ``joined_units`` and ``edited_units`` of the corpus (docs/method.md
        §1.7–1.8).
    bias : Bias, optional
        ``bias=True``: marginal homogeneity per annotator pair and layer
        (docs/method.md §25).
    gwet : GwetLayers, optional
        Gwet's AC1/AC2 per layer, with its standard error and interval
        (``gwet=GwetOptions(...)``, docs/method.md §34.1).

    Examples
    --------
    >>> from synagree.io.conllu import DepSentence
    >>> s = DepSentence.from_heads
    >>> corpus = Corpus.from_annotations({"a": [s([2, 0], "nsubj root")],
    ...                                   "b": [s([2, 0], "obj root")]})
    >>> rep = token_layer_agreement(corpus, ["deprel", "head"])
    >>> [(k, round(v.observed(), 2)) for k, v in rep.results.items()]
    [('deprel', 0.5), ('head', 1.0)]
    """

    annotators: List[str]
    settings: Dict[str, Any]
    results: Dict[str, LayerAgreement]
    feature_layers: bool = False
    feature_items: Optional[str] = None
    specific: Optional[str] = None
    per_feature: Optional[PerFeature] = None
    enhanced: Optional[EnhancedAgreement] = None
    replicates: int = 0
    seed: int = 0
    level: float = 0.95
    intervals: Optional[Dict[str, Dict[str, Dict[str, Any]]]] = None
    feature_intervals: Optional[Dict[str, Dict[str, Dict[str, Any]]]] = None
    warnings: List[Problem] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    skipped: Dict[str, str] = field(default_factory=dict)
    unit_counts: Dict[str, int] = field(default_factory=dict)
    bias: Optional[Bias] = None
    gwet: Optional[GwetLayers] = None

    def signature_settings(self) -> Dict[str, str]:
        """How the numbers were computed: the corpus's matching, the layers, the
        items of feature layers, the bootstrap and the version."""
        out = {k: str(v) for k, v in self.settings.items()}
        out["layers"] = ",".join(self.results) or "none"
        if self.feature_items is not None:
            out["feature_items"] = self.feature_items
        if self.gwet is not None:
            out["gwet"] = self.gwet.options.describe()
        if self.replicates:
            out["bootstrap"] = (f"{self.replicates} replicates, seed {self.seed}, "
                                f"level {self.level:g}")
        out["version"] = __version__
        return out

    def signature(self) -> str:
        """`signature_settings` as one line, ``key:value|key:value|...``."""
        return "|".join(f"{k}:{v}" for k, v in self.signature_settings().items())

    def to_dict(self, confusion: bool = False) -> Dict[str, Any]:
        """``synagree categorical --output json`` (``confusion``: with the contingency tables)."""
        d: Dict[str, Any] = {
            "synagree_version": __version__, "settings": self.signature_settings(),
            "signature": self.signature(), "annotators": self.annotators, **self.settings,
            **self.unit_counts,
            "layers": {k: v.to_dict(confusion=confusion) for k, v in self.results.items()}}
        if self.intervals:
            d["bootstrap"] = {"replicates": self.replicates, "seed": self.seed,
                              "confidence": self.level,
                              "intervals": _without_replicates(self.intervals)}
        if self.feature_items is not None:
            d["feature_items"] = self.feature_items
        if self.per_feature is not None:
            pf = d["per_feature"] = self.per_feature.to_dict(confusion=confusion)
            if self.feature_intervals:
                pf["intervals"] = _without_replicates(self.feature_intervals)
        if self.enhanced is not None:
            d["enhanced"] = self.enhanced.as_dict()
        if self.bias is not None:
            d["bias"] = self.bias.to_dict()
        if self.gwet is not None:
            d["gwet"] = self.gwet.to_dict()
        items = item_set_note(self.results, len(self.annotators))
        notes = ([items] if items else []) + list(self.notes)
        if notes:
            d["notes"] = notes
        if self.skipped:
            d["skipped_layers"] = dict(self.skipped)
        return d

    def frame_rows(self) -> List[Dict[str, Any]]:
        """One row per layer (and feature) and coefficient, with its interval."""
        rows: List[Dict[str, Any]] = []
        for kind, results, cis in (("layer", self.results, self.intervals),
                                   ("feature", self.per_feature.features
                                    if self.per_feature is not None else {},
                                    self.feature_intervals)):
            for name, la in results.items():
                coeffs = la.coefficients()
                for k in (*COEFFICIENTS, "specific_macro"):
                    ci = (cis or {}).get(name, {}).get(k)
                    rows.append({kind: name, "items": la.items, "metric": k,
                                 "value": coeffs.get(k),
                                 "ci_low": ci["low"] if ci else None,
                                 "ci_high": ci["high"] if ci else None})
        return rows


def check_specific(layers: Sequence[str], specific: Optional[str]) -> None:
    """``specific`` must be one of ``layers`` (a ``usage`` `InputError` otherwise).

    Cheap, so that a command can check it before it reads any input.
    """
    if specific is not None and specific not in layers:
        raise InputError.single("<command line>", None, "usage",
                                f"--specific {specific}: the layer is not among --layers "
                                f"({', '.join(layers)}); add it there")


def check_dependency_views(corpus: Corpus, feature_layers: Sequence[str] = (),
                           per_feature: bool = False, enhanced: bool = False) -> None:
    """The views that read FEATS or DEPS need dependency input: a usage error otherwise.

    Bracketed trees have no FEATS column and no enhanced graph, so
    ``--per-feature``, ``feats:NAME`` layers and ``--enhanced`` cannot be
    computed on them; each is named in one usage error, before anything is
    computed.

    Parameters
    ----------
    corpus : Corpus
    feature_layers : sequence of str
        The ``feats:NAME`` layers asked for.
    per_feature, enhanced : bool

    Raises
    ------
    synagree.base.problems.InputError
        ``usage``, on a phrase-structure corpus.
    """
    if corpus.kind == "dependency":
        return
    asked = (["--per-feature"] if per_feature else []) + list(feature_layers) + \
        (["--enhanced"] if enhanced else [])
    if not asked:
        return
    needs = " and ".join(x for x, on in (("FEATS", per_feature or feature_layers),
                                         ("DEPS (enhanced dependencies)", enhanced)) if on)
    raise InputError.single("<command line>", None, "usage",
                            f"{', '.join(asked)} need{'s' if len(asked) == 1 else ''} {needs}, "
                            f"which bracketed trees do not have: give CoNLL-U input")


def token_layer_agreement(corpus: Corpus, layers: Sequence[str], *,
                          specific: Optional[str] = None, per_feature: bool = False,
                          feature_items: str = "all", enhanced: bool = False,
                          set_distance: str = "masi", strict: bool = False,
                          replicates: int = 0, seed: int = 0,
                          level: float = 0.95, skip_id_like: bool = False,
                          max_memory: Optional[int] = None,
                          bias: bool = False,
                          gwet: Optional[GwetOptions] = None) -> TokenLayerAgreement:
    """Categorical agreement of each layer, with the per-feature and enhanced views.

    Parameters
    ----------
    corpus : Corpus
    layers : sequence of str
        From `synagree.stats.categorical.LAYERS`, or ``feats:NAME``.
    specific : str, optional
        A layer among ``layers`` whose specific agreement is reported.
    per_feature : bool
        Agreement on every feature of FEATS (docs/method.md §19).
    feature_items : {"all", "present"}
        Items of a feature: every word, or words where some annotator gives it.
    enhanced : bool
        Agreement on enhanced edges (docs/method.md §20).
    set_distance : {"masi", "jaccard"}
        Set distance of the enhanced α.
    strict : bool
        Out-of-order FEATS are errors rather than warnings.
    replicates, seed : int
        Bootstrap replicates (0: none) and seed; the intervals cover the token
        layers and features, not the enhanced numbers (a note says so).
    level : float
        Confidence level.
    skip_id_like : bool
        Leave out the layers whose values look like ids or numbers rather
        than categories (`synagree.stats.categorical.id_like`), with a note
        naming the column; the CLI does so for its default layers, and keeps
        a layer asked for by name (and ``specific``), noting what it looks like.
    max_memory : int, optional
        ``--max-memory`` for the bootstrap's plan
        (`synagree.base.memory.check_layer_bootstrap`).
    bias : bool
        Also the marginal-homogeneity tests of every layer per annotator
        pair: Stuart–Maxwell, and McNemar per category with Holm's
        adjustment (docs/method.md §25).
    gwet : GwetOptions, optional
        Also Gwet's AC1 or AC2 of every layer (docs/method.md §34.1).

    Raises
    ------
    synagree.base.problems.InputError
        ``usage``: ``specific`` is not among ``layers``; a ``feats:NAME``
        layer names a feature no annotator gives (a typo would read as
        perfect agreement on nothing); ``per_feature``, ``feats:NAME`` layers or
        ``enhanced`` on phrase-structure input (no FEATS, no DEPS).  Bad FEATS
        (``bad-feats``).  A bootstrap planned to need more memory than the
        limit (``memory-limit``).
    """
    check_replicates(replicates, level, "replicates")  # before any work
    layers = list(layers)
    check_specific(layers, specific)
    feature_layers = [x for x in layers if feature_of_layer(x) is not None]
    check_dependency_views(corpus, feature_layers, per_feature, enhanced)
    split = _split_features(corpus, feature_layers, per_feature, strict)
    core = _layer_core(corpus, layers, feature_items, split, skip_id_like, specific)
    features = (per_feature_agreement(corpus, items=feature_items, split=split)
                if per_feature else None)
    intervals = (_interval_section(core.items, features, replicates, seed, level, max_memory)
                 if replicates else None)
    return TokenLayerAgreement(
        list(corpus.annotators), corpus.settings(), core.results,
        feature_layers=bool(feature_layers),
        feature_items=feature_items if split is not None else None, specific=specific,
        per_feature=features,
        enhanced=_enhanced_section(corpus, set_distance, replicates) if enhanced else None,
        replicates=replicates, seed=seed, level=level,
        intervals=intervals.layers if intervals else None,
        feature_intervals=intervals.features if intervals else None,
        warnings=list(corpus.log.warnings) + (list(split.warnings) if split is not None
                                              else []),
        notes=list(corpus.notes) + core.notes + (intervals.notes if intervals else []),
        skipped=core.skipped, unit_counts=corpus.unit_counts(),
        bias=bias_of_layers(core.results) if bias else None,
        gwet=gwet_of_layers(core.items, gwet) if gwet is not None else None)


# token_layer_agreement is a core (each layer's items and agreement, `_LayerCore`) plus
# sections, each a pure function returning its part: the features split, the per-feature
# and enhanced views, the bias tests, Gwet's coefficients, the bootstrap intervals


def _split_features(corpus: Corpus, feature_layers: Sequence[str], per_feature: bool,
                    strict: bool) -> Optional[CorpusFeatures]:
    """FEATS split into features (docs/method.md §19) when a view needs them, else None."""
    if not (feature_layers or per_feature):
        return None
    split = corpus_features(corpus, strict=strict)
    unseen = [x for x in feature_layers if feature_of_layer(x) not in split.frequency]
    if unseen:  # a typo (feats:case) would read as perfect agreement on nothing
        raise InputError.single("<command line>", None, "usage",
                                f"{', '.join(unseen)}: no annotator gives this feature "
                                f"anywhere (names are case-sensitive); the input's "
                                f"features: {', '.join(split.features()) or 'none'}")
    return split


@dataclass(frozen=True)
class _LayerCore:
    """The layers kept (their items and agreement), the notes on them and the layers
    left out as id-like (why)."""

    items: Dict[str, Any]
    results: Dict[str, LayerAgreement]
    notes: List[str]
    skipped: Dict[str, str]


def _layer_core(corpus: Corpus, layers: Sequence[str], feature_items: str,
                split: Optional[CorpusFeatures], skip_id_like: bool, specific: Optional[str]
                ) -> _LayerCore:
    """Each layer's items and agreement; id-like layers left out (or kept, noted) and a
    note for each layer whose one category leaves the coefficients undefined."""
    items = {layer: (layer_items(corpus, layer, feature_items, split) if split
                     else items_from_corpus(corpus, layer)) for layer in layers}
    notes: List[str] = []
    skipped: Dict[str, str] = {}
    for layer, data in list(items.items()):
        keep = not skip_id_like or layer == specific
        note = layer_note(data, keep)
        if note is None:
            continue
        notes.append(note)
        if not keep:
            skipped[layer] = str(not_categories(data))
            del items[layer]
    results = {layer: layer_agreement(data) for layer, data in items.items()}
    for layer, la in results.items():  # absent, never zero: say why a coefficient is "–"
        used = [c for c, n in la.category_frequency().items() if n]
        if len(used) == 1 and used[0] != "_":  # (no value at all: `layer_note` says so)
            notes.append(f"layer {layer}: every annotator gives every item the one category "
                         f"{used[0]!r}: kappa, pi and alpha are undefined (chance agreement "
                         f"is 1), not 0 or 1")
    return _LayerCore(items, results, notes, skipped)


def _enhanced_section(corpus: Corpus, set_distance: str, replicates: int
                      ) -> EnhancedAgreement:
    """Agreement on the enhanced edges (docs/method.md §20); with ``replicates``, a note
    that the intervals do not cover it."""
    edges = enhanced_agreement(corpus, set_distance)
    if replicates:
        edges.notes.append("--bootstrap gives intervals for the token layers only, not "
                           "for the enhanced-edge alpha and F1")
    return edges


_Intervals = Dict[str, Dict[str, Dict[str, Any]]]


@dataclass(frozen=True)
class _IntervalSection:
    """Bootstrap intervals per layer and per feature, and the small-sample note."""

    layers: _Intervals
    features: Optional[_Intervals]
    notes: List[str]


def _interval_section(items: Dict[str, Any], features: Optional[PerFeature], replicates: int,
                      seed: int, level: float, max_memory: Optional[int]) -> _IntervalSection:
    """Bootstrap intervals of the layers, then of the features (one random stream,
    planned first: the unit x category sums grow with both)."""
    datas = list(items.items()) + (list(features.data.items()) if features is not None
                                   else [])
    check_layer_bootstrap([(name, len(d.units), d.n_categories, len(d.annotators))
                           for name, d in datas], replicates, max_memory)
    rng = np.random.default_rng(seed)  # one stream: layers first, then features

    def draw(data: Any) -> Dict[str, Dict[str, Any]]:
        return {k: iv.fields(undefined=float("nan"))
                for k, iv in layer_bootstrap(data, replicates, rng, level).items()}

    layers = {layer: draw(data) for layer, data in items.items()}
    small = small_sample_note(max((len(d.units) for d in items.values()), default=0),
                              "the bootstrap intervals")
    feats = ({f: draw(data) for f, data in features.data.items()}
             if features is not None else None)
    return _IntervalSection(layers, feats, [small] if small and items else [])
