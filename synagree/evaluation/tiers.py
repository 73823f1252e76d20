r"""Tiered tag sets: a fine tag column evaluated at the coarse level too (docs/method.md §16).

With a tag mapping fine -> coarse (`synagree.io.tagmap`), ``synagree tags
--tiers MAPPING`` reports, beside the usual fine-tag scores:

* **coarse level**: both gold and system tags mapped to their coarse tag;
  accuracy (``coarse_accuracy``), Cohen's κ and Scott's π;
* **fine level**: exact fine tags (``fine_accuracy``, κ, π; the same numbers
  as ``accuracy``, ``cohen_kappa`` and ``scott_pi`` of `synagree tags`);
* **fine with coarse-level credit** (``tier_credit``), per word::

      1                               same fine tag
      w                               another fine tag of the same coarse class
      1/k + w (k - 1)/k               the bare coarse tag C of the gold tag's class,
                                      k = fine tags of C in the mapping
      0                               otherwise (another coarse class)

  ``w`` is the *sibling credit* (default 1/2, the Wu–Palmer value ``2
  depth(lca) / (depth a + depth b)`` of two siblings under one coarse tag).  A bare
  coarse tag earns the expected credit of a fine tag of its class drawn
  uniformly, Melamed & Resnik's reading of an under-specified tag; with
  ``w = 0`` it is exactly their credit ``1/k``.  So guessing a fine tag of
  the right class at random earns, on average, what the honest coarse
  answer earns;
* **recoverability**: how many fine tag types of the mapping are not
  determined by their coarse tag (their class has more than one fine tag),
  the share of gold words whose fine tag is not so determined, and what a
  tiered tagger could reach by recovering each fine tag as the most frequent
  gold fine tag of its coarse class (``recovery_ceiling``, from gold coarse
  tags; ``recovered_accuracy``, from the system's coarse tags).  Both use the
  gold counts: an oracle, optimistic for a real recovery step;
* per gold coarse class, the same counts.

Gold tags must be fine tags of the mapping; a system tag may be a fine tag
or a bare coarse tag.  Tags the mapping lacks are an error listing them
(``tag-map-unmapped``) unless ``unmapped="own-class"``: each becomes a fine
tag of its own one-tag class, and they are listed in the result.

A mapping taken from a gold column that is not a function of the fine tag is
refused unless ``majority=True``: then each fine tag goes to its most
frequent coarse tag and the ambiguous fine tags are reported
(`synagree.io.tagmap.derive_majority_tag_map`, docs/method.md §16.4).  With
a lexicon (``lexicon=``) the result also says how often the coarse tag and
the lexicon decide the fine tag (`synagree.evaluation.tier_lexicon`,
docs/method.md §16.5).
"""
from __future__ import annotations

import math
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from synagree.base.jsonable import finite_or_none
from synagree.base.option_specs import SPECS
from synagree.base.problems import InputError, ProblemLog, quote
from synagree.base.ratios import Share
from synagree.evaluation.tier_lexicon import LexiconResult, lexicon_recovery
from synagree.io.lexicon import Lexicon
from synagree.io.sources import is_stream
from synagree.io.tagmap import (
    FineAmbiguity,
    TagMap,
    derive_majority_tag_map,
    derive_tag_map,
    read_tag_map,
)
from synagree.stats.contingency import Contingency

__all__ = ["SIBLING_CREDIT", "UNMAPPED_POLICIES", "TierRow", "TiersResult", "tier_credit",
           "tier_scores", "resolve_tiers_spec", "tiers_for_words"]

#: Default credit of another fine tag in the gold tag's coarse class.
SIBLING_CREDIT = 0.5
#: What a tag that the mapping lacks does: an error, or its own coarse class (declared
#: with the options, `synagree.base.option_specs`)
UNMAPPED_POLICIES: Tuple[str, ...] = SPECS["unmapped"].choices

#: (file, line, tag) of one word.
Word = Tuple[str, int, str]
TiersSpec = Union[str, "os.PathLike[str]", TagMap, IO[str], IO[bytes]]


def tier_credit(gold: str, system: str, tag_map: TagMap,
                sibling_credit: float = SIBLING_CREDIT) -> float:
    """The credit of one system tag against a gold fine tag (module docstring).

    Parameters
    ----------
    gold : str
        A fine tag of the mapping.
    system : str
        A fine tag or a bare coarse tag of the mapping.
    tag_map : TagMap
    sibling_credit : float
        ``w``, in [0, 1].

    Raises
    ------
    ValueError
        ``gold`` is not a fine tag, or ``system`` is not in the mapping.
    """
    g, coarse, fine = _classes(gold, system, tag_map)
    if fine == gold:
        return 1.0
    if coarse != g:
        return 0.0
    if fine is not None:
        return float(sibling_credit)
    k = sum(1 for c in tag_map.fine_to_coarse.values() if c == g)
    return 1.0 / k + sibling_credit * (k - 1) / k


def _classes(gold: str, system: str, tag_map: TagMap) -> Tuple[str, str, Optional[str]]:
    """(gold coarse tag, system coarse tag, system fine tag or None for a bare coarse one);
    ValueError when ``gold`` is not a fine tag or ``system`` not in the mapping."""
    g = tag_map.fine_to_coarse.get(gold)
    if g is None:
        raise ValueError(f"gold tag {gold!r} is not a fine tag of the mapping")
    s = tag_map.resolve(system)
    if s is None:
        raise ValueError(f"system tag {system!r} is not in the mapping")
    return (g, *s)


class TierShares:
    """The shares of the words of a tally of tiered tags (NaN for no words).

    Needs ``words``, ``coarse_correct``, ``fine_exact``, ``credit``,
    ``majority_count`` and ``recovered`` (`TierRow` and `TiersResult` have them).
    """

    words: int
    coarse_correct: int
    fine_exact: int
    credit: float
    majority_count: int
    recovered: int

    coarse_accuracy = Share("coarse_correct", "words")
    fine_accuracy = Share("fine_exact", "words")
    mean_credit = Share("credit", "words")  # ``tier_credit``
    recovery_ceiling = Share("majority_count", "words")
    recovered_accuracy = Share("recovered", "words")


@dataclass
class TierRow(TierShares):
    """Counts of one gold coarse class (docs/method.md §16.3).

    Parameters
    ----------
    coarse : str
    fine_types : int
        Fine tags of the class in the mapping.
    gold_fine_types : int
        Distinct gold fine tags of the class.
    words : int
        Gold words of the class.
    coarse_correct : int
        Of them, system tags in the same class.
    fine_exact : int
        Of them, the same fine tag.
    credit : float
        Σ of their `tier_credit`.
    bare_coarse : int
        Of them, the system gave the bare coarse tag of the class.
    majority_fine : str or None
        The most frequent gold fine tag of the class (ties: alphabetical).
    majority_count : int
        Its gold words (the recovery ceiling's numerator).
    recovered : int
        Words whose system coarse tag is this class and whose gold fine tag
        is ``majority_fine``.
    """

    coarse: str
    fine_types: int
    gold_fine_types: int
    words: int = 0
    coarse_correct: int = 0
    fine_exact: int = 0
    credit: float = 0.0
    bare_coarse: int = 0
    majority_fine: Optional[str] = None
    majority_count: int = 0
    recovered: int = 0

    def as_dict(self) -> dict:
        """The row as JSON-ready data (NaN as None)."""
        return {"coarse": self.coarse, "fine_types": self.fine_types,
                "gold_fine_types": self.gold_fine_types, "words": self.words,
                "coarse_correct": self.coarse_correct,
                "coarse_accuracy": finite_or_none(self.coarse_accuracy),
                "fine_exact": self.fine_exact, "fine_accuracy": finite_or_none(self.fine_accuracy),
                "credit": self.credit, "tier_credit": finite_or_none(self.mean_credit),
                "bare_coarse": self.bare_coarse, "majority_fine": self.majority_fine,
                "majority_count": self.majority_count,
                "recovery_ceiling": finite_or_none(self.recovery_ceiling),
                "recovered": self.recovered,
                "recovered_accuracy": finite_or_none(self.recovered_accuracy)}


@dataclass
class TiersResult(TierShares):
    """Coarse, fine and tiered scores with recoverability, as counts (docs/method.md §16).

    Parameters
    ----------
    mapping : str
        Where the mapping came from (``file PATH``, ``gold COLUMN``, ``custom``).
    sibling_credit : float
    unmapped : str
        The policy for tags the mapping lacks.
    words : int
    coarse_correct, fine_exact : int
    credit : float
        Σ of `tier_credit` over words.
    bare_coarse : int
        System words that are a bare coarse tag.
    coarse_cohen_kappa, coarse_scott_pi, fine_cohen_kappa, fine_scott_pi : float or None
    coarse_types, fine_types : int
        Of the mapping.
    ambiguous_coarse_types, ambiguous_fine_types : int
        Coarse classes with more than one fine tag; their fine tags.
    ambiguous_words : int
        Gold words whose class has more than one fine tag.
    majority_count, recovered : int
        Σ over classes of `TierRow` ``majority_count`` / ``recovered``.
    per_class : list of TierRow
        Most gold words first.
    own_class : list of str
        Tags the mapping lacked, each given its own class.
    ambiguity : list of FineAmbiguity, optional
        With a majority mapping: the fine tags gold shows with several coarse
        tags (docs/method.md §16.4).
    lexicon : LexiconResult, optional
        With a lexicon: what the coarse tag and the lexicon decide
        (docs/method.md §16.5).
    """

    mapping: str
    sibling_credit: float
    unmapped: str
    words: int
    coarse_correct: int
    fine_exact: int
    credit: float
    bare_coarse: int
    coarse_cohen_kappa: Optional[float]
    coarse_scott_pi: Optional[float]
    fine_cohen_kappa: Optional[float]
    fine_scott_pi: Optional[float]
    coarse_types: int
    fine_types: int
    ambiguous_coarse_types: int
    ambiguous_fine_types: int
    ambiguous_words: int
    majority_count: int
    recovered: int
    per_class: List[TierRow] = field(default_factory=list)
    own_class: List[str] = field(default_factory=list)
    ambiguity: Optional[List[FineAmbiguity]] = None
    lexicon: Optional[LexiconResult] = None

    @property
    def majority_minority(self) -> int:
        """With a majority mapping: gold words whose coarse tag is not their fine tag's
        majority (0 otherwise)."""
        return sum(a.minority for a in self.ambiguity or [])

    ambiguous_share = Share("ambiguous_words", "words")

    def to_dict(self) -> dict:
        """JSON-ready data with stable keys."""
        d = {
            "mapping": self.mapping, "sibling_credit": self.sibling_credit,
            "unmapped": self.unmapped, "own_class_tags": list(self.own_class),
            "words": self.words,
            "coarse": {"correct": self.coarse_correct,
                       "coarse_accuracy": finite_or_none(self.coarse_accuracy),
                       "coarse_cohen_kappa": self.coarse_cohen_kappa,
                       "coarse_scott_pi": self.coarse_scott_pi},
            "fine": {"exact": self.fine_exact, "fine_accuracy": finite_or_none(self.fine_accuracy),
                     "fine_cohen_kappa": self.fine_cohen_kappa,
                     "fine_scott_pi": self.fine_scott_pi},
            "tiered": {"credit": self.credit, "tier_credit": finite_or_none(self.mean_credit),
                       "bare_coarse": self.bare_coarse},
            "recoverability": {
                "coarse_types": self.coarse_types, "fine_types": self.fine_types,
                "ambiguous_coarse_types": self.ambiguous_coarse_types,
                "ambiguous_fine_types": self.ambiguous_fine_types,
                "ambiguous_words": self.ambiguous_words,
                "ambiguous_share": finite_or_none(self.ambiguous_share),
                "majority_count": self.majority_count,
                "recovery_ceiling": finite_or_none(self.recovery_ceiling),
                "recovered": self.recovered,
                "recovered_accuracy": finite_or_none(self.recovered_accuracy)},
            "per_class": [r.as_dict() for r in self.per_class],
        }
        if self.ambiguity is not None:
            d["majority"] = {"ambiguous_fine_types": len(self.ambiguity),
                             "minority_words": self.majority_minority,
                             "ambiguous": [a.as_dict() for a in self.ambiguity]}
        if self.lexicon is not None:
            d["lexicon"] = self.lexicon.to_dict()
        return d


def tier_scores(pairs: Sequence[Tuple[str, str]], tag_map: TagMap,
                sibling_credit: float = SIBLING_CREDIT, unmapped: str = "error") -> TiersResult:
    """The `TiersResult` of ``(gold, system)`` tag pairs (docs/method.md §16).

    Parameters
    ----------
    pairs : sequence of (str, str)
        Gold tags must be fine tags of ``tag_map``; system tags fine or bare
        coarse tags (see `tiers_for_words` for checking data first).
    tag_map : TagMap
    sibling_credit : float
        In [0, 1].
    unmapped : str
        Recorded in the result (the policy that built ``tag_map``).

    Raises
    ------
    ValueError
        A sibling credit outside [0, 1], or a tag the mapping lacks.
    """
    if not 0.0 <= sibling_credit <= 1.0 or math.isnan(sibling_credit):
        raise ValueError(f"sibling credit must be in [0, 1], got {sibling_credit!r}")
    classes = tag_map.classes
    confusion = Counter(pairs)
    rows: Dict[str, TierRow] = {}
    gold_fine: Dict[str, Counter] = {}
    credits: Dict[str, List[float]] = {}
    coarse_pairs: List[Tuple[str, str]] = []
    coarse_correct = fine_exact = bare = 0
    for (g, s), n in confusion.items():
        gc, sc, sf = _classes(g, s, tag_map)
        row = rows.get(gc)
        if row is None:
            row = rows[gc] = TierRow(gc, len(classes[gc]), 0)
        gold_fine.setdefault(gc, Counter())[g] += n
        credits.setdefault(gc, []).append(n * tier_credit(g, s, tag_map, sibling_credit))
        row.words += n
        coarse_pairs.extend([(gc, sc)] * n)
        if sc == gc:
            row.coarse_correct += n
            coarse_correct += n
            if sf is None:
                row.bare_coarse += n
        if sf is None:
            bare += n
        if sf == g:
            row.fine_exact += n
            fine_exact += n
    for gc, row in rows.items():
        cnt = gold_fine[gc]
        row.gold_fine_types = len(cnt)
        row.majority_fine, row.majority_count = min(cnt.items(), key=lambda kv: (-kv[1], kv[0]))
    for (g, s), n in confusion.items():
        answer = tag_map.resolve(s)
        gc = tag_map.fine_to_coarse[g]
        if answer is not None and answer[0] == gc and rows[gc].majority_fine == g:
            rows[gc].recovered += n
    for gc, row in rows.items():
        row.credit = math.fsum(credits[gc])
    per_class = sorted(rows.values(), key=lambda r: (-r.words, r.coarse))
    ambiguous = [c for c, fines in classes.items() if len(fines) > 1]
    coarse = Contingency.from_labels(coarse_pairs).coefficients()
    fine = Contingency.from_labels(pairs).coefficients()
    return TiersResult(
        mapping=tag_map.source, sibling_credit=float(sibling_credit), unmapped=unmapped,
        words=len(pairs), coarse_correct=coarse_correct, fine_exact=fine_exact,
        credit=math.fsum(c for cs in credits.values() for c in cs), bare_coarse=bare,
        coarse_cohen_kappa=finite_or_none(coarse["cohen_kappa"]),
        coarse_scott_pi=finite_or_none(coarse["scott_pi"]),
        fine_cohen_kappa=finite_or_none(fine["cohen_kappa"]),
        fine_scott_pi=finite_or_none(fine["scott_pi"]),
        coarse_types=len(classes), fine_types=len(tag_map.fine_to_coarse),
        ambiguous_coarse_types=len(ambiguous),
        ambiguous_fine_types=sum(len(classes[c]) for c in ambiguous),
        ambiguous_words=sum(r.words for r in rows.values() if r.fine_types > 1),
        majority_count=sum(r.majority_count for r in rows.values()),
        recovered=sum(r.recovered for r in rows.values()),
        per_class=per_class, own_class=list(tag_map.own_class))


def resolve_tiers_spec(spec: TiersSpec, column: str,
                       columns: Iterable[str] = ("upos", "xpos", "feats", "deprel")
                       ) -> Union[TagMap, str]:
    """A mapping read now (a file or a `TagMap`), or the gold column to derive it from.

    A column name wins over a file of that name (write ``./upos`` for a
    file called ``upos``), as for hierarchies.

    Parameters
    ----------
    spec : str, path-like, file-like or TagMap
        A column name, a ``FINE<TAB>COARSE`` file (or a stream of one) or a
        mapping.
    column : str
        The evaluated (fine) column.
    columns : iterable of str
        The column names that mean "derive from gold".

    Returns
    -------
    TagMap or str
        The mapping, or the coarse column's name.

    Raises
    ------
    InputError
        ``usage`` (the coarse column is the evaluated one, or an empty spec),
        or the problems of `synagree.io.tagmap.read_tag_map`.
    """
    if isinstance(spec, TagMap):
        return spec
    if is_stream(spec):
        return read_tag_map(spec)  # type: ignore[arg-type]
    name = str(spec)
    if name in set(columns):
        if name == column:
            raise InputError.single("<command line>", None, "usage",
                                    f"--tiers {name} names the evaluated column "
                                    f"(--column {column}); the coarse tags must come from "
                                    f"another column or a mapping file")
        return name
    if not name:
        raise InputError.single("<command line>", None, "usage",
                                "empty --tiers: give a mapping file or a column name")
    return read_tag_map(name)


def tiers_for_words(spec: Union[TagMap, str], gold: Sequence[Word], system: Sequence[Word],
                    coarse: Optional[Sequence[Word]] = None,
                    sibling_credit: float = SIBLING_CREDIT,
                    unmapped: str = "error", fine_name: str = "fine",
                    majority: bool = False, lexicon: Optional[Lexicon] = None,
                    forms: Optional[Sequence[str]] = None) -> TiersResult:
    """`tier_scores` of aligned words, checking the data against the mapping first.

    Parameters
    ----------
    spec : TagMap or str
        A mapping, or the name of the gold column it is derived from
        (`resolve_tiers_spec`); then ``coarse`` holds that column.
    gold, system : sequence of (file, line, tag)
        The aligned words (word k of one is word k of the other).
    coarse : sequence of (file, line, tag), optional
        The gold words' coarse column, for a derived mapping.
    sibling_credit : float
    unmapped : {"error", "own-class"}
    fine_name : str
        The evaluated column, for messages.
    majority : bool
        A mapping derived from gold: each fine tag to its most frequent
        coarse tag, the ambiguous ones reported (`TiersResult.ambiguity`),
        instead of refusing a column that is not a function.
    lexicon : Lexicon, optional
        Add `TiersResult.lexicon` (needs ``forms``).
    forms : sequence of str, optional
        The gold words' forms, for ``lexicon``.

    Raises
    ------
    InputError
        ``tag-map-not-a-function`` (derived mapping, without ``majority``),
        ``tag-map-unmapped`` (one error per tag the mapping lacks, at its
        first word, with its count), ``usage`` (bad policy or sibling credit,
        ``majority`` with a mapping file).
    """
    if unmapped not in UNMAPPED_POLICIES:
        raise InputError.single("<command line>", None, "usage",
                                f"unknown unmapped-tag policy {unmapped!r}; expected one of "
                                f"{', '.join(UNMAPPED_POLICIES)}")
    if not 0.0 <= sibling_credit <= 1.0 or math.isnan(sibling_credit):
        raise InputError.single("<command line>", None, "usage",
                                f"the sibling credit must be in [0, 1], got {sibling_credit!r}")
    if len(gold) != len(system):
        raise ValueError(f"{len(gold)} gold but {len(system)} system words")
    ambiguity: Optional[List[FineAmbiguity]] = None
    if isinstance(spec, TagMap):
        if majority:
            raise InputError.single("<command line>", None, "usage",
                                    "--majority derives the mapping from a gold column "
                                    "(--tiers COLUMN); a mapping file already gives one "
                                    "coarse tag per fine tag")
        tag_map = spec
    else:
        if coarse is None or len(coarse) != len(gold):
            raise ValueError("a mapping derived from gold needs the gold coarse column")
        rows = [(f, line, t, c[2]) for (f, line, t), c in zip(gold, coarse)]
        if majority:
            tag_map, ambiguity = derive_majority_tag_map(rows, fine_name, spec)
        else:
            tag_map = derive_tag_map(rows, fine_name, spec)
    tag_map = _check_unmapped(tag_map, gold, system, unmapped)
    result = tier_scores([(g[2], s[2]) for g, s in zip(gold, system)], tag_map, sibling_credit,
                         unmapped)
    result.ambiguity = ambiguity
    if lexicon is not None:
        if forms is None or len(forms) != len(gold):
            raise ValueError("a lexicon needs the gold words' forms")
        result.lexicon = lexicon_recovery(forms, [g[2] for g in gold], [s[2] for s in system],
                                          tag_map, lexicon)
    return result


def _check_unmapped(tag_map: TagMap, gold: Sequence[Word], system: Sequence[Word],
                    unmapped: str) -> TagMap:
    """``tag_map``, extended by own classes under ``own-class``; else an error per unmapped tag."""
    log = ProblemLog()
    where = tag_map.source
    missing: Dict[str, Tuple[str, int, int, bool]] = {}  # tag -> file, line, count, coarse
    for words, is_gold in ((gold, True), (system, False)):
        for file, line, tag in words:
            if tag in tag_map.fine_to_coarse:
                continue
            is_coarse = tag_map.resolve(tag) is not None
            if not is_gold and is_coarse:
                continue  # a bare coarse answer
            key = ("gold " if is_gold else "system ") + tag
            if key in missing:
                f, ln, n, c = missing[key]
                missing[key] = (f, ln, n + 1, c)
            else:
                missing[key] = (file, line, 1, is_coarse)
    added: List[str] = []
    for key, (file, line, n, is_coarse) in missing.items():
        side, tag = key.split(" ", 1)
        if is_coarse:  # gold, a coarse tag only: never guessed
            log.add(file, line, "tag-map-unmapped",
                    f"gold tag {quote(tag)} ({n} word(s) in all, first here) is a coarse tag "
                    f"of the mapping ({where}), not a fine one; gold tags must be fine tags")
        elif unmapped == "own-class":
            added.append(tag)
        else:
            log.add(file, line, "tag-map-unmapped",
                    f"{side} tag {quote(tag)} ({n} word(s) in all, first here) is not in the "
                    f"tag mapping ({where}); add it to the mapping, or give --tiers-unmapped "
                    f"own-class to make each such tag its own coarse class")
    log.raise_if_errors()
    return tag_map.with_own_classes(added) if added else tag_map
