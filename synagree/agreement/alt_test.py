"""``synagree alt-test``: can a parser or an LLM replace one of the human annotators?

docs/method.md §34.2.  The humans' files and the candidate's are read
together as ``agree`` reads annotators (`synagree.agreement.extra_file`,
the candidate the extra file); every unit is scored per pair of annotations
with one per-unit metric (higher is better):

* ``LAS``, ``LAS_full``, ``UAS``, ``LA``: the share of the unit's words
  credited (docs/method.md §6.1; dependency input; a unit whose annotations
  differ in words is not scored, and counted in a note);
* ``jaccard``: the constituent Jaccard of §6.2 (bracketed input);
* ``ted``: minus the tree edit distance of the two trees (§3, unit costs;
  either kind), the per-unit quantity behind α's observed disagreement.

The alternative annotator test itself is `synagree.stats.alt_test`.
"""
from __future__ import annotations

import math
import os
from typing import Dict, List, Optional, Sequence, Tuple, cast

import numpy as np

from synagree.agreement.extra_file import read_with_extra
from synagree.base.problems import InputError
from synagree.distance.tree_pairs import ted
from synagree.io.brackets import PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus
from synagree.io.text import same_words
from synagree.stats.alt_test import (
    DEFAULT_EPSILON,
    DEFAULT_Q,
    MIN_UNITS,
    AltTestResult,
    alt_test_scores,
    leave_one_out_scores,
)
from synagree.stats.attachment import WORD_METRICS, jaccard

__all__ = ["ALT_TEST_METRICS", "alt_test", "alt_test_corpus", "pair_unit_scores"]

#: per input kind, the per-unit metrics the alt-test scores with (the first is the default)
ALT_TEST_METRICS = {"dependency": ("LAS", "LAS_full", "UAS", "LA", "ted"),
                    "phrase": ("jaccard", "ted")}

Pair = Tuple[str, str]


def _word_score(metric: str, a: DepSentence, b: DepSentence) -> float:
    if not same_words([a.forms, b.forms]):
        return math.nan
    credit = WORD_METRICS[metric](a, b)
    return float(np.mean(credit)) if len(credit) else math.nan


def pair_unit_scores(corpus: Corpus, x: str, y: str, metric: str) -> np.ndarray:
    """The per-unit scores of annotators ``x`` and ``y`` (NaN where either lacks the unit,
    or, for the word scores, where their words differ)."""
    units = corpus.units
    out = np.full(len(units), np.nan)
    both = [k for k, u in enumerate(units) if x in u.annotations and y in u.annotations]
    if metric == "ted":
        if both:
            d = ted([units[k].annotations[x] for k in both],
                    [units[k].annotations[y] for k in both])
            out[both] = -np.asarray(d, dtype=np.float64)
        return out
    for k in both:
        a, b = units[k].annotations[x], units[k].annotations[y]
        out[k] = (jaccard(cast(PhraseSentence, a), cast(PhraseSentence, b))
                  if metric == "jaccard"
                  else _word_score(metric, cast(DepSentence, a), cast(DepSentence, b)))
    return out


def _check_metric(kind: str, metric: Optional[str]) -> str:
    allowed = ALT_TEST_METRICS.get(kind, ("ted",))
    if metric is None:
        return allowed[0]
    if metric not in allowed:
        raise InputError.single("<command line>", None, "usage",
                                f"--score {metric}: on {kind} input choose from "
                                f"{', '.join(allowed)}")
    return metric


def alt_test_corpus(corpus: Corpus, candidate: str, *, metric: Optional[str] = None,
                    epsilon: float = DEFAULT_EPSILON, q: float = DEFAULT_Q,
                    min_units: int = MIN_UNITS) -> AltTestResult:
    """The alt-test of annotator ``candidate`` of ``corpus`` against the others.

    Parameters
    ----------
    corpus : Corpus
        The humans and the candidate, matched.
    candidate : str
        The candidate's annotator name.
    metric : str, optional
        From `ALT_TEST_METRICS` for the corpus's kind; None: LAS (dependency)
        or jaccard (bracketed).
    epsilon, q, min_units
        As `synagree.stats.alt_test.alt_test_scores`.

    Raises
    ------
    InputError
        ``usage``: an unknown candidate or metric, and the refusals of
        `synagree.stats.alt_test.alt_test_scores`.
    """
    if candidate not in corpus.annotators:
        raise InputError.single("<command line>", None, "usage",
                                f"the candidate {candidate!r} is not an annotator of the "
                                f"corpus ({', '.join(corpus.annotators)})")
    metric = _check_metric(corpus.kind, metric)
    humans = [a for a in corpus.annotators if a != candidate]
    pairs: Dict[Pair, np.ndarray] = {}
    for x in [*humans, candidate]:
        for h in humans:
            if x != h and (x, h) not in pairs:
                pairs[(x, h)] = pair_unit_scores(corpus, x, h, metric)
                if x in humans:
                    pairs[(h, x)] = pairs[(x, h)]
    hs, cs = leave_one_out_scores(humans, candidate, pairs)
    result = alt_test_scores(humans, hs, cs, candidate=candidate, metric=metric,
                             epsilon=epsilon, q=q, min_units=min_units)
    notes: List[str] = []
    if metric in WORD_METRICS:
        both = [u for u in corpus.units if len(u.annotations) >= 2]
        differ = sum(1 for u in both if not same_words(
            [cast(DepSentence, s).forms for s in u.annotations.values()]))
        if differ:
            notes.append(f"{differ} unit(s) whose annotations differ in words are not scored "
                         f"with {metric} between the annotations that differ")
    if metric == "ted":
        notes.append("ted: each unit scored by minus the tree edit distance (unit costs), "
                     "so a smaller distance is a better alignment")
    result.notes.extend(notes)
    return result


def alt_test(humans: Sequence["str | os.PathLike[str]"] = (),
             candidate: "str | os.PathLike[str]" = "", *,
             dirs: Sequence["str | os.PathLike[str]"] = (), metric: Optional[str] = None,
             epsilon: float = DEFAULT_EPSILON, q: float = DEFAULT_Q,
             min_units: int = MIN_UNITS, names: Optional[Sequence[str]] = None,
             candidate_name: Optional[str] = None, fmt: str = "auto",
             phrase_style: str = "auto", match: str = "auto", allow_missing: bool = False,
             check_text: bool = True) -> AltTestResult:
    """The alternative annotator test of a candidate's file against the humans' files.

    docs/method.md §34.2 (Calderon, Reichart & Dror 2025).  The files are read
    and matched as ``agree`` reads annotators, the candidate being one more
    (`synagree.agreement.extra_file.read_with_extra`).

    Parameters
    ----------
    humans : sequence of str or path-like
        One file per human annotator (three or more).
    candidate : str or path-like
        The candidate's file (a directory with ``dirs``).
    dirs : sequence of str or path-like
        One directory per human instead of files.
    metric : str, optional
        The per-unit score (`ALT_TEST_METRICS`); None: LAS or jaccard.
    epsilon : float
        ε, the cost-benefit allowance (0.2: expert annotators).
    q : float
        The Benjamini–Yekutieli level.
    min_units : int
        A human with fewer scored units is left out (the paper: 30).
    names, candidate_name, fmt, phrase_style, match, allow_missing, check_text
        As for ``agree`` (`synagree.agreement.agree.load_corpus`).

    Returns
    -------
    AltTestResult

    Raises
    ------
    InputError
        Fewer than three humans, too few units, an unknown metric, ε out of
        [0, 1), and every problem of reading and matching.

    Examples
    --------
    >>> import synagree
    >>> callable(synagree.alt_test)
    True
    """
    data = read_with_extra(humans, dirs, candidate, role="candidate", option="--candidate",
                           names=names, extra_name=candidate_name, fmt=fmt,
                           phrase_style=phrase_style, allow_missing=allow_missing,
                           check_text=check_text, match=match)
    return alt_test_corpus(data.corpus, data.extra, metric=metric, epsilon=epsilon, q=q,
                           min_units=min_units)
