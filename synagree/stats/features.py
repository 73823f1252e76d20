"""Per-feature agreement on FEATS: one categorical layer per morphological feature.

The FEATS column of CoNLL-U is a set of ``Name=Value`` pairs joined by ``|``
(``Case=Nom|Number=Sing``); a feature may hold several values joined by ``,``
(``PronType=Int,Rel``).  docs/method.md §19 defines what is compared:

* **splitting** (`parse_feats`): every ``|``-separated element must be
  ``Name=Value`` with a non-empty name and value list, a name may occur once,
  a value once in its list, and no value may be ``_``; anything else is a
  ``bad-feats`` error naming file and line (the element cannot be read as a
  feature).  UD orders features by name and the values of a multi-valued
  feature alphabetically (case-insensitively); another order is an
  ``unsorted-feats`` warning and the feature is compared in the canonical
  (sorted) order, so ``PronType=Rel,Int`` and ``PronType=Int,Rel`` agree.
* **items** of feature F (`feature_items`): with ``items="all"`` (the
  default) every word is an item and its category is the value of F, or
  `ABSENT` (``_``) when the word does not carry F; with ``items="present"``
  only the words where at least one annotator gives F are items (the others
  are left out; ``_`` stays a category there).
* **coefficients**: those of the token layers (`synagree.stats.categorical`,
  docs/method.md §12.3) on these items, under the layer name ``feats:F``.

Only the per-feature views split FEATS; the ``feats`` layer compares the
column as written.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from synagree.base.problems import WARNING, InputError, Problem, ProblemLog, quote
from synagree.stats.categorical import (
    ItemData,
    LayerAgreement,
    items_from_corpus,
    layer_agreement,
)

__all__ = ["ABSENT", "FEATURE_ITEMS", "FEATURE_PREFIX", "parse_feats", "feature_layer",
           "feature_of_layer", "check_feats", "CorpusFeatures", "corpus_features",
           "feature_items", "layer_items", "PerFeature", "per_feature_agreement"]

#: The category of a word that does not carry the feature.
ABSENT = "_"
#: Which words are the items of a feature: every word, or words where some annotator gives it.
FEATURE_ITEMS = ("all", "present")
#: Layer names of single features: ``feats:Case``.
FEATURE_PREFIX = "feats:"


def _ud_key(text: str) -> str:
    return text.lower()


def parse_feats(text: str, log: Optional[ProblemLog] = None, file: str = "<input>",
                line: Optional[int] = None, sent_id: Optional[str] = None) -> Dict[str, str]:
    """The features of one FEATS value, ``{name: value}`` with values in canonical order.

    docs/method.md §19.1.  ``_`` (or an empty value) is no feature at all.

    Parameters
    ----------
    text : str
        The FEATS column of one word.
    log : ProblemLog, optional
        Receives ``bad-feats`` errors (elements that are not ``Name=Value``, a
        repeated name or value, an empty name or value, the value ``_``) and
        ``unsorted-feats`` warnings (names or values not in UD's
        case-insensitive alphabetical order).
    file, line, sent_id :
        Where the value was read, for the problems.

    Returns
    -------
    dict of str to str
        The readable features (malformed elements are left out); a
        multi-valued feature's values sorted and joined by ``,``.
    """
    text = text.strip()
    if text in ("", ABSENT):
        return {}
    out: Dict[str, str] = {}
    bad: List[str] = []
    names: List[str] = []
    unsorted_values = False
    for element in text.split("|"):
        name, eq, value = element.partition("=")
        values = value.split(",")
        if not eq or not name or not value or "" in values:
            bad.append(f"{quote(element)} is not Name=Value" if element else "an empty element")
            continue
        if name in out:
            bad.append(f"feature {quote(name)} occurs twice")
            continue
        if len(set(values)) != len(values):
            bad.append(f"{quote(element)} repeats a value")
            continue
        if ABSENT in values:
            bad.append(f"{quote(element)}: the value '_' would read as the absent feature")
            continue
        ordered = sorted(values, key=_ud_key)
        unsorted_values = unsorted_values or ordered != values
        out[name] = ",".join(ordered)
        names.append(name)
    if log is not None:
        if bad:
            log.add(file, line, "bad-feats",
                    f"FEATS {quote(text)} cannot be split into features: {bad[0]}"
                    + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else "")
                    + " (UD FEATS: Name=Value pairs joined by '|', several values joined by "
                      "',')", sent_id=sent_id)
        elif unsorted_values or names != sorted(names, key=_ud_key):
            log.add(file, line, "unsorted-feats",
                    f"FEATS {quote(text)} is not in UD order (features by name, values "
                    f"alphabetically, ignoring case); compared in that order",
                    severity=WARNING, sent_id=sent_id)
    return out


def feature_layer(feature: str) -> str:
    """The layer name of one feature, ``feats:NAME``."""
    return FEATURE_PREFIX + feature


def feature_of_layer(layer: str) -> Optional[str]:
    """The feature a layer name ``feats:NAME`` stands for; None for other layers."""
    if layer.startswith(FEATURE_PREFIX) and len(layer) > len(FEATURE_PREFIX):
        return layer[len(FEATURE_PREFIX):]
    return None


def check_feats(values: Iterable[Tuple[str, Optional[int], str]],
                log: ProblemLog) -> List[Dict[str, str]]:
    """Split many FEATS values, each with its file and line; problems go to ``log``.

    Parameters
    ----------
    values : iterable of (str, int or None, str)
        (file, line, FEATS) per word.
    log : ProblemLog

    Returns
    -------
    list of dict of str to str
        `parse_feats` of each value.
    """
    cache: Dict[str, Dict[str, str]] = {}
    out = []
    for file, line, text in values:
        d = cache.get(text)
        if d is None:
            mark = len(log)
            d = parse_feats(text, log, file, line)
            if len(log) == mark:  # a clean value: no need to read it again
                cache[text] = d
        out.append(d)
    return out


@dataclass
class CorpusFeatures:
    """The features of every word of every annotation of a corpus, split once.

    Built by `corpus_features`.

    Parameters
    ----------
    by_sentence : dict of int to list of dict
        ``id(sentence)`` to the features of its words (`parse_feats`).
    frequency : dict of str to int
        Per feature: how many (word, annotator) values carry it, over all
        annotations read.
    warnings : list of Problem
        ``unsorted-feats`` warnings.
    """

    by_sentence: Dict[int, List[Dict[str, str]]]
    frequency: Dict[str, int]
    warnings: List[Problem] = field(default_factory=list)

    def features(self) -> List[str]:
        """Every feature seen, the most frequent first (ties: by name)."""
        return sorted(self.frequency, key=lambda f: (-self.frequency[f], f))

    def values(self, sentence, feature: str) -> List[str]:
        """The value of ``feature`` per word of ``sentence`` (`ABSENT` where it has none)."""
        return [d.get(feature, ABSENT) for d in self.by_sentence[id(sentence)]]


def corpus_features(corpus, strict: bool = False) -> CorpusFeatures:
    """Split the FEATS of every annotation of a dependency corpus (docs/method.md §19.1).

    Parameters
    ----------
    corpus : Corpus
    strict : bool
        ``unsorted-feats`` warnings become errors.

    Raises
    ------
    InputError
        ``bad-feats`` (every one, with file and line), or ``unsorted-feats``
        under ``strict``.
    """
    log = ProblemLog(strict=strict)
    by_sentence: Dict[int, List[Dict[str, str]]] = {}
    frequency: Dict[str, int] = {}
    for unit in corpus.units:
        for sent in unit.annotations.values():
            if id(sent) in by_sentence:
                continue
            feats = list(sent.feats) or [ABSENT] * sent.n_words
            lines = list(sent.word_lines) or [None] * sent.n_words
            dicts = [parse_feats(text, log, sent.file, line, sent.sent_id)
                     for text, line in zip(feats, lines)]
            by_sentence[id(sent)] = dicts
            for d in dicts:
                for f in d:
                    frequency[f] = frequency.get(f, 0) + 1
    log.raise_if_errors()
    return CorpusFeatures(by_sentence, frequency, log.warnings)


def feature_items(corpus, feature: str, items: str = "all",
                  split: Optional[CorpusFeatures] = None) -> ItemData:
    """Items of one feature, ready for the token-layer coefficients (docs/method.md §19.2).

    Parameters
    ----------
    corpus : Corpus
        A dependency corpus.
    feature : str
        The feature name (``Case``, ``Number[psor]``).
    items : {"all", "present"}
        ``all``: every word, `ABSENT` where it lacks the feature; ``present``:
        only words where at least one annotator gives the feature.
    split : CorpusFeatures, optional
        `corpus_features` of the corpus (split once for many features).

    Returns
    -------
    ItemData
        Layer ``feats:FEATURE``.

    Raises
    ------
    ValueError
        Unknown ``items``.
    InputError
        Malformed FEATS (when ``split`` is not given).
    """
    if items not in FEATURE_ITEMS:
        raise ValueError(f"unknown items {items!r}; expected one of {', '.join(FEATURE_ITEMS)}")
    if split is None:
        split = corpus_features(corpus)
    units = [replace(u, annotations={a: replace(s, feats=split.values(s, feature))
                                     for a, s in u.annotations.items()})
             if len(u.annotations) >= 2 else u for u in corpus.units]
    data = items_from_corpus(replace(corpus, units=units), "feats")
    data.layer = feature_layer(feature)
    if items == "all":
        return data
    absent = data.categories.index(ABSENT) if ABSENT in data.categories else -1
    given = ((data.codes >= 0) & (data.codes != absent)).any(1)
    keep_unit = np.zeros(len(data.units), dtype=bool)
    keep_unit[data.unit_of_item[given]] = True
    new_index = np.cumsum(keep_unit) - 1
    return ItemData(data.layer, data.annotators, data.categories, data.codes[given],
                    new_index[data.unit_of_item[given]],
                    [u for u, k in zip(data.units, keep_unit) if k],
                    [d for d, k in zip(data.documents, keep_unit) if k], data.ignored_units,
                    None if data.positions is None else
                    [p for p, k in zip(data.positions, keep_unit) if k])


def layer_items(corpus, layer: str, items: str = "all",
                split: Optional[CorpusFeatures] = None) -> ItemData:
    """Items of any token layer: `feature_items` for ``feats:NAME``, else
    `synagree.stats.categorical.items_from_corpus`.

    Parameters
    ----------
    corpus : Corpus
    layer : str
        A layer of `synagree.stats.categorical.LAYERS` or ``feats:NAME``.
    items : {"all", "present"}
        For feature layers (see `feature_items`).
    split : CorpusFeatures, optional
    """
    feature = feature_of_layer(layer)
    if feature is None:
        return items_from_corpus(corpus, layer)
    return feature_items(corpus, feature, items, split)


def _given(data: ItemData) -> int:
    """(word, annotator) values that carry the feature (not absent, not missing)."""
    absent = data.categories.index(ABSENT) if ABSENT in data.categories else -1
    return int(((data.codes >= 0) & (data.codes != absent)).sum())


@dataclass
class PerFeature:
    """Agreement per feature of FEATS (docs/method.md §19).

    Built by `per_feature_agreement`.

    Parameters
    ----------
    items : {"all", "present"}
        Which words are items (see `feature_items`).
    features : dict of str to LayerAgreement
        Per feature, the most frequent first; layers ``feats:NAME``.
    given : dict of str to int
        Per feature: values that carry it over the compared items (word ×
        annotator).
    data : dict of str to ItemData
        The items of each feature (for the bootstrap).
    warnings : list of Problem
        ``unsorted-feats`` warnings.
    """

    items: str
    features: Dict[str, LayerAgreement]
    given: Dict[str, int]
    data: Dict[str, ItemData] = field(default_factory=dict)
    warnings: List[Problem] = field(default_factory=list)

    def to_dict(self, confusion: bool = False) -> dict:
        """JSON-ready: the item definition and, per feature, counts and coefficients."""
        return {"items": self.items, "absent": ABSENT,
                "features": {f: {"given": self.given[f], **la.coefficients(),
                                 "pair_items": sum(p.items for p in la.pairs),
                                 "pair_agree": sum(p.contingency.agree for p in la.pairs),
                                 "layer": la.to_dict(confusion=confusion)}
                             for f, la in self.features.items()},
                "warnings": [p.as_dict() for p in self.warnings]}


def per_feature_agreement(corpus, features: Optional[Sequence[str]] = None,
                          items: str = "all", by_document: bool = True,
                          strict: bool = False,
                          split: Optional[CorpusFeatures] = None) -> PerFeature:
    """Token-layer agreement on every feature of FEATS (docs/method.md §19).

    Parameters
    ----------
    corpus : Corpus
        A dependency corpus.
    features : sequence of str, optional
        Features to compare; None: every feature seen in the corpus.
    items : {"all", "present"}
        See `feature_items`.
    by_document : bool
        Also per document.
    strict : bool
        ``unsorted-feats`` warnings become errors.
    split : CorpusFeatures, optional
        `corpus_features` of the corpus, if already split (``strict`` is then
        not used).

    Returns
    -------
    PerFeature
        Features ordered by how many compared values carry them (most first;
        ties by name).

    Raises
    ------
    InputError
        Malformed FEATS (``bad-feats``), every one with file and line.
    """
    if items not in FEATURE_ITEMS:
        raise InputError.single("<command line>", None, "usage",
                                f"unknown feature items {items!r}; choose from "
                                f"{', '.join(FEATURE_ITEMS)}")
    if split is None:
        split = corpus_features(corpus, strict=strict)
    names = list(features) if features is not None else split.features()
    data = {f: feature_items(corpus, f, items, split) for f in names}
    given = {f: _given(d) for f, d in data.items()}
    order = sorted(names, key=lambda f: (-given[f], f)) if features is None else names
    return PerFeature(items, {f: layer_agreement(data[f], by_document) for f in order},
                      {f: given[f] for f in order}, {f: data[f] for f in order},
                      list(split.warnings))
