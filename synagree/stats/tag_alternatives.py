"""Tag columns read with the alternatives syntax, scored with hierarchies (docs/method.md §15).

The shared machinery of ``synagree tags``, ``compare`` and ``agree --hierarchy``
for ``--tag-syntax alternatives``, ``--bdm`` and ``--wu-palmer``:

* `TagReader`: a column value -> annotation, under the ``plain`` syntax
  (every value is one tag, as before) or the ``alternatives`` syntax of
  `synagree.trees.tag_syntax`; cached per value.
* `check_values`: every value of a file checked once, each bad one an error
  naming file, line, column and value (kind ``tag-syntax``); a gold file may
  not carry probabilities (gold alternatives are disjunctive).
* `plain_syntax_note`: the loud note when the syntax is off but values
  contain ``|`` or ``=``.
* Scores of a (gold, system) value pair: `gold_credit_fn` (Melamed &
  Resnik eq. 1-2), `gold_closeness_fn` (GATE's BDM or Wu–Palmer),
  `flat_credit_fn`; of two annotators' values: `pair_credit_fn`,
  `pair_closeness_fn`; the TED rename costs between values:
  `annotation_distance_matrix`.
"""
from __future__ import annotations

import functools
import math
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from synagree.base.problems import InputError, ProblemLog, quote
from synagree.trees.annotation_bdm import (
    Closeness,
    closeness_against_gold,
    expected_closeness,
)
from synagree.trees.hierarchy import Hierarchy, _annotation_weights, label_distance_matrix
from synagree.trees.tag_syntax import (
    ParsedAnnotation,
    TagSyntaxError,
    annotation_tags,
    has_probabilities,
    is_alternatives,
    looks_like_alternatives,
    parse_annotation,
)

__all__ = ["TAG_SYNTAXES", "check_syntax_option", "TagReader", "check_values",
           "plain_syntax_note", "gold_credit_fn", "flat_credit_fn", "gold_closeness_fn",
           "pair_credit_fn", "pair_closeness_fn", "annotation_leaf_mass",
           "annotation_distance_matrix"]

#: The values of ``--tag-syntax``.
TAG_SYNTAXES = ("plain", "alternatives")

Value = Tuple[str, Optional[int], str]  # (file, line, column value)


def check_syntax_option(syntax: str, column: Optional[str] = None) -> None:
    """Refuse an unknown syntax, and ``alternatives`` on the FEATS column.

    Parameters
    ----------
    syntax : {"plain", "alternatives"}
    column : str, optional
        The column read (``feats`` uses ``|`` and ``=`` itself).

    Raises
    ------
    InputError
        ``usage``.
    """
    if syntax not in TAG_SYNTAXES:
        raise InputError.single("<command line>", None, "usage",
                                f"unknown tag syntax {syntax!r}; expected one of "
                                f"{', '.join(TAG_SYNTAXES)}")
    if syntax == "alternatives" and column == "feats":
        raise InputError.single("<command line>", None, "usage",
                                "--tag-syntax alternatives cannot read the feats column: "
                                "'|' and '=' are FEATS's own separators")


class TagReader:
    """Column value -> annotation under a tag syntax, cached (docs/method.md §15.1).

    Parameters
    ----------
    syntax : {"plain", "alternatives"}
    """

    def __init__(self, syntax: str = "plain") -> None:
        check_syntax_option(syntax)
        self.syntax = syntax
        self._cache: Dict[str, ParsedAnnotation] = {}

    def __call__(self, value: str) -> ParsedAnnotation:
        """The annotation of ``value`` (`TagSyntaxError` if it is not valid)."""
        if self.syntax == "plain":
            return value
        got = self._cache.get(value)
        if got is None:
            got = self._cache[value] = parse_annotation(value)
        return got

    def tags(self, values: Iterable[str]) -> List[str]:
        """The distinct tags the values name, in first-seen order ("" skipped)."""
        out: Dict[str, None] = {}
        for v in dict.fromkeys(values):
            if v:
                out.update(dict.fromkeys(annotation_tags(self(v))))
        return list(out)


def check_values(values: Iterable[Value], reader: TagReader, column: str, log: ProblemLog,
                 gold: bool = False) -> Tuple[int, int]:
    """Check every value once; problems go to ``log`` (kind ``tag-syntax``).

    Parameters
    ----------
    values : iterable of (file, line, value)
    reader : TagReader
    column : str
        Named in the messages.
    log : ProblemLog
    gold : bool
        A gold file: probabilities are refused (gold alternatives are
        disjunctive, docs/method.md §15.2).

    Returns
    -------
    with_alternatives, with_probabilities : int
        How many values name more than one tag; how many carry probabilities.
    """
    alternatives = probabilities = 0
    if reader.syntax == "plain":
        return 0, 0
    for file, line, value in values:
        try:
            ann = reader(value)
        except TagSyntaxError as exc:
            log.add(file, line, "tag-syntax", f"{column} value {quote(value)}: {exc}")
            continue
        if is_alternatives(ann):
            alternatives += 1
        if has_probabilities(ann):
            probabilities += 1
            if gold:
                log.add(file, line, "tag-syntax",
                        f"{column} value {quote(value)}: gold alternatives are disjunctive "
                        f"and carry no probabilities (write them without '=')")
    return alternatives, probabilities


def plain_syntax_note(values: Iterable[str], column: str, option: str = "--tag-syntax "
                      "alternatives") -> Optional[str]:
    """The note for values containing ``|`` or ``=`` read as plain tags (None if none).

    Parameters
    ----------
    values : iterable of str
    column : str
    option : str
        How to turn the syntax on, named in the note.
    """
    seen = [v for v in values if looks_like_alternatives(v)]
    if not seen:
        return None
    return (f"{len(seen)} {column} value(s) contain '|' or '=' (e.g. {quote(seen[0])}) and "
            f"were read as plain tags (no partial credit); give {option} to read them as "
            f"alternatives (docs/method.md §15.1)")


# ------------------------------------------------------------------ gold vs system
def gold_credit_fn(h: Hierarchy, reader: TagReader) -> Callable[[str, str], float]:
    """``f(gold value, system value)``: Melamed & Resnik credit (eq. 1-2), cached.

    Gold alternatives are disjunctive; the system's alternatives or
    probabilities are its distribution (docs/method.md §15.2).
    """
    def credit(g: str, s: str) -> float:
        if g == s and reader.syntax == "plain":
            return 1.0
        gold = reader(g)
        return h.credit(gold if isinstance(gold, str) else list(gold), reader(s))

    return functools.lru_cache(maxsize=None)(credit)


def flat_credit_fn(reader: TagReader) -> Callable[[str, str], float]:
    """``f(gold value, system value)``: the system's mass on the gold alternatives, exactly.

    Accuracy with alternatives (``alt_accuracy``, docs/method.md §15.2): eq. 1-2
    with no hierarchy; 0/1 exact accuracy for single tags.
    """
    def flat(g: str, s: str) -> float:
        gold = set(annotation_tags(reader(g)))
        return math.fsum(w for t, w in _annotation_weights(reader(s)).items() if t in gold)

    return functools.lru_cache(maxsize=None)(flat)


def gold_closeness_fn(closeness: Closeness, reader: TagReader) -> Callable[[str, str], float]:
    """``f(gold value, system value)``: a tag closeness against disjunctive gold, cached.

    `synagree.trees.annotation_bdm.closeness_against_gold` (docs/method.md
    §15.3) of a closeness on single tags (GATE's BDM or Wu–Palmer,
    `synagree.trees.annotation_bdm.tag_closeness`).
    """
    def close(g: str, s: str) -> float:
        gold = reader(g)
        return closeness_against_gold(closeness, gold if isinstance(gold, str) else list(gold),
                                      reader(s))

    return functools.lru_cache(maxsize=None)(close)


# ------------------------------------------------------------------ two annotators
def _support(ann: ParsedAnnotation) -> List[str]:
    return annotation_tags(ann)


def pair_credit_fn(h: Hierarchy, reader: TagReader,
                   mode: str = "mutual") -> Callable[[str, str], float]:
    """``f(a, b)``: label credit of two annotators' values, cached (docs/method.md §15.4).

    ``credit``: ``a`` read as gold (its alternatives disjunctive, its
    probabilities not used), ``b`` as output (its distribution);
    ``mutual``: the mean of both directions; ``agreement``: the pair
    agreement ``sum_l P(l|a) P(l|b)`` of the two distributions.  Equal to
    `synagree.stats.hierarchical.label_credit_fn` on single tags.

    Parameters
    ----------
    h : Hierarchy
    reader : TagReader
    mode : {"mutual", "agreement", "credit"}
    """
    return _by_mode(lambda a, b: h.credit(_support(reader(a)), reader(b)),
                    lambda a, b: h.pair_agreement(reader(a), reader(b)), mode)


def pair_closeness_fn(closeness: Closeness, reader: TagReader,
                      mode: str = "mutual") -> Callable[[str, str], float]:
    """``f(a, b)``: a tag closeness of two annotators' values, cached (docs/method.md §15.4).

    Follows the label-credit ``mode``: ``credit``: `closeness_against_gold`
    with ``a`` as gold; ``mutual``: the mean of both directions;
    ``agreement``: `synagree.trees.annotation_bdm.expected_closeness`.  All
    three are the closeness itself on single tags.

    Parameters
    ----------
    closeness : callable
        On single tags (`synagree.trees.annotation_bdm.tag_closeness`).
    reader : TagReader
    mode : {"mutual", "agreement", "credit"}
    """
    return _by_mode(lambda a, b: closeness_against_gold(closeness, _support(reader(a)), reader(b)),
                    lambda a, b: expected_closeness(closeness, reader(a), reader(b)), mode)


def _by_mode(one_way: Callable[[str, str], float], symmetric: Callable[[str, str], float],
             mode: str) -> Callable[[str, str], float]:
    """The cached pair score of a label-credit ``mode`` (docs/method.md §15.4):
    ``agreement``: ``symmetric``; ``credit``: ``one_way`` with ``a`` read as gold;
    ``mutual``: the mean of both directions; equal values score 1 except under
    ``agreement``."""
    def score(a: str, b: str) -> float:
        if mode == "agreement":
            return symmetric(a, b)
        if a == b:
            return 1.0
        if mode == "credit":
            return one_way(a, b)
        return 0.5 * (one_way(a, b) + one_way(b, a))

    return functools.lru_cache(maxsize=None)(score)


def annotation_leaf_mass(h: Hierarchy, reader: TagReader,
                         value_counts: Iterable[Tuple[str, float]]) -> Dict[str, float]:
    """``sum count * P(l | value)`` per leaf: the pooled mass behind chance agreement."""
    mass: Dict[str, float] = {}
    for value, count in value_counts:
        for leaf, p in h.distribution(reader(value)).items():
            mass[leaf] = mass.get(leaf, 0.0) + count * p
    return mass


def annotation_distance_matrix(h: Hierarchy, labels: Sequence[str],
                               reader: TagReader) -> np.ndarray:
    """TED rename costs between values: total variation between their leaf distributions.

    ``d(a, b) = 1/2 sum_l |P(l|a) - P(l|b)|`` (docs/method.md §15.4), the
    label distance of §9.6 extended to annotations with alternatives; ``""``
    (the root label) is at distance 1 from every value.

    Returns
    -------
    numpy.ndarray
        ``k x k``, symmetric, zero diagonal.
    """
    return label_distance_matrix(h, labels, reader)
