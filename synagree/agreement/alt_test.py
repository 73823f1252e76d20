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
import numbers
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, cast

import numpy as np

from synagree.agreement.extra_file import read_with_extra
from synagree.base.command_options import ReadOptions
from synagree.base.option_specs import SPECS, check_as, check_value
from synagree.base.problems import InputError
from synagree.distance.tree_pairs import ted
from synagree.io.brackets import PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus
from synagree.io.json_input import read_json
from synagree.io.text import same_words
from synagree.stats.alt_test import (
    DEFAULT_EPSILON,
    DEFAULT_Q,
    MIN_UNITS,
    AltTestResult,
    alt_test_scores,
    label_scores,
    leave_one_out_scores,
)
from synagree.stats.attachment import WORD_METRICS, jaccard

__all__ = ["ALT_TEST_METRICS", "alt_test", "alt_test_corpus", "pair_unit_scores",
           "alt_test_labels", "alt_test_label_files", "check_labels"]

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
             min_units: int = MIN_UNITS, candidate_name: Optional[str] = None,
             read: Optional[ReadOptions] = None, **read_overrides: Any) -> AltTestResult:
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
    candidate_name : str, optional
        The candidate's name (default: its file name).
    read : ReadOptions, optional
        How the files are read and matched, as for ``agree``
        (`synagree.base.command_options.ReadOptions`: ``names``, ``fmt``,
        ``phrase_style``, ``match``, ``allow_missing``, ``check_text``);
    **read_overrides
        Any field of `ReadOptions` by name.

    Returns
    -------
    AltTestResult

    Raises
    ------
    TypeError, ValueError
        ``metric`` not one of the scores of ``--score``
        (`synagree.base.option_specs`).
    InputError
        Fewer than three humans, too few units, a metric that does not apply
        to the input's kind, ε out of [0, 1), and every problem of reading and
        matching.

    Examples
    --------
    >>> import synagree
    >>> callable(synagree.alt_test)
    True
    """
    metric = check_as("metric", "score", metric, "alt_test(): ")  # as --score
    o = ReadOptions.build(read, read_overrides, "alt_test()")
    data = read_with_extra(humans, dirs, candidate, role="candidate", option="--candidate",
                           names=o.names, extra_name=candidate_name, fmt=o.fmt,
                           phrase_style=o.phrase_style, allow_missing=o.allow_missing,
                           check_text=o.check_text, match=o.match)
    return alt_test_corpus(data.corpus, data.extra, metric=metric, epsilon=epsilon, q=q,
                           min_units=min_units)


def _is_number(v: object) -> bool:
    return (isinstance(v, numbers.Real) and not isinstance(v, bool)
            and math.isfinite(float(v)))  # type: ignore[arg-type]


def check_labels(labels: object, scoring: str, what: str,
                 bad: Callable[[str], Exception], nested: bool) -> None:
    """Raise ``bad(message)`` unless ``labels`` is ``{instance: label}`` (``nested``:
    ``{annotator: {instance: label}}``) with numeric labels for ``neg_rmse``.

    The message names the annotator and the instance of the first bad label.
    """
    if not isinstance(labels, Mapping):
        raise bad(f"{what} must be a mapping "
                  f"({'{annotator: {instance: label}}' if nested else '{instance: label}'}), "
                  f"not {type(labels).__name__}")
    groups = labels.items() if nested else [(None, labels)]
    for who, anns in groups:
        where = f"{what}[{who!r}]" if nested else what
        if not isinstance(anns, Mapping):
            raise bad(f"{where} must be a mapping {{instance: label}}, not "
                      f"{type(anns).__name__}")
        for i, v in anns.items():
            if scoring == "neg_rmse" and not _is_number(v):
                raise bad(f"{where}[{i!r}] = {v!r}: neg_rmse needs finite numbers "
                          f"(use --scoring accuracy for categories)")
            if v is None or (isinstance(v, float) and math.isnan(v)):
                raise bad(f"{where}[{i!r}] is {v!r}: leave a missing label out of the mapping")


def alt_test_labels(humans: Mapping[str, Mapping[Any, Any]], candidate: Mapping[Any, Any], *,
                    scoring: str = "accuracy", epsilon: float = DEFAULT_EPSILON,
                    q: float = DEFAULT_Q, min_units: int = MIN_UNITS,
                    candidate_name: str = "candidate") -> AltTestResult:
    """The alternative annotator test on label data, as the authors' reference.

    docs/method.md §34.2.  The data are those of the reference implementation
    (nitaytech/AltTest, ``alt_test(llm_annotations, humans_annotations,
    scoring_function, epsilon)``): each instance annotated by at least two
    humans and by the candidate is scored; S(x, i) is label x's alignment with
    the remaining humans' labels of i (``accuracy``: the share equal to x;
    ``neg_rmse``: −√(mean squared difference),
    `synagree.stats.alt_test.label_alignment`).  Unlike the reference, fewer
    than three humans (with ``min_units`` instances each) is refused, as the
    paper requires.

    Parameters
    ----------
    humans : mapping
        ``{annotator: {instance: label}}``, three or more annotators.
    candidate : mapping
        ``{instance: label}``: the LLM's or parser's labels.
    scoring : str
        ``accuracy`` (categories; default) or ``neg_rmse`` (numbers).
    epsilon : float
        ε, the cost-benefit allowance in [0, 1) (0.2 experts, 0.15 skilled,
        0.1 crowd workers).
    q : float
        The Benjamini–Yekutieli level, in (0, 1).
    min_units : int
        A human with fewer scored instances is left out, and named (the
        reference: 30).
    candidate_name : str
        The candidate's name in the result.

    Returns
    -------
    AltTestResult
        ``metric`` is the scoring; the notes say how many instances were left
        out (fewer than two humans, or no candidate label).

    Raises
    ------
    TypeError
        ``humans`` or ``candidate`` not mappings (of mappings); an option of
        the wrong type.
    ValueError
        A label that is None or NaN, or not a finite number with ``neg_rmse``;
        an option out of its range.
    InputError
        ``usage``: fewer than three humans with ``min_units`` instances.

    Examples
    --------
    >>> import synagree
    >>> truth = {i: i % 3 for i in range(40)}
    >>> humans = {h: {i: (t if i % 10 != k else 9) for i, t in truth.items()}
    ...           for k, h in enumerate(["ann1", "ann2", "ann3"])}  # each errs on 4 of 40
    >>> r = synagree.alt_test_labels(humans, truth, epsilon=0.1, candidate_name="llm")
    >>> r.metric, len(r.humans), r.winning_rate, r.advantage_probability, r.passed
    ('accuracy', 3, 1.0, 1.0, True)
    """
    where = "alt_test_labels(): "
    scoring = check_value(SPECS["scoring"], scoring, where)
    epsilon = check_value(SPECS["epsilon"], epsilon, where)
    q = check_value(SPECS["fdr"], q, where)
    min_units = check_value(SPECS["min_units"], min_units, where)

    def bad(message: str) -> Exception:
        return (TypeError if "must be a mapping" in message else ValueError)(where + message)

    check_labels(humans, scoring, "humans", bad, nested=True)
    check_labels(candidate, scoring, "candidate", bad, nested=False)
    sc = label_scores({str(h): dict(a) for h, a in humans.items()}, dict(candidate), scoring)
    result = alt_test_scores(sc.names, sc.human_scores, sc.candidate_scores,
                             candidate=candidate_name, metric=scoring, epsilon=epsilon, q=q,
                             min_units=min_units)
    if sc.dropped:
        result.notes.append(f"{sc.dropped} instance(s) left out: annotated by fewer than two "
                            f"humans or not by the candidate")
    return result


def _candidate_of(doc: Any, path: str, name: Optional[str], scoring: str) -> Tuple[str, Any]:
    """(name, {instance: label}) of a candidate file: flat, or ``{name: {instance: label}}``."""
    def bad(message: str) -> InputError:
        return InputError.single(path, None, "bad-json", message)

    if isinstance(doc, Mapping) and doc and all(isinstance(v, Mapping) for v in doc.values()):
        if name is None and len(doc) > 1:
            raise bad(f"the file holds {len(doc)} candidates ({', '.join(map(str, doc))}): "
                      f"name one with --names")
        name = name if name is not None else str(next(iter(doc)))
        if name not in doc:
            raise bad(f"no candidate {name!r} in the file ({', '.join(map(str, doc))})")
        check_labels(doc[name], scoring, f"[{name!r}]", bad, nested=False)
        return name, doc[name]
    check_labels(doc, scoring, "the candidate's labels", bad, nested=False)
    return (name if name is not None else os.path.splitext(os.path.basename(path))[0]), doc


def alt_test_label_files(humans: "str | os.PathLike[str]", candidate: "str | os.PathLike[str]",
                         *, name: Optional[str] = None, scoring: str = "accuracy",
                         epsilon: float = DEFAULT_EPSILON, q: float = DEFAULT_Q,
                         min_units: int = MIN_UNITS) -> AltTestResult:
    """`alt_test_labels` on JSON files in the reference implementation's format.

    ``synagree alt-test --label-data HUMANS.json --candidate CANDIDATE.json``.

    Parameters
    ----------
    humans : str or path-like
        A JSON object ``{annotator: {instance: label}}`` (the reference's
        ``human_annotations.json``).
    candidate : str or path-like
        A JSON object ``{instance: label}``, or ``{name: {instance: label}}``
        for several candidates (the reference's ``llm_annotations.json``).
    name : str, optional
        Which candidate of several; for one, its name (default: its key, or
        the file name without the suffix).
    scoring, epsilon, q, min_units
        As `alt_test_labels`.

    Raises
    ------
    InputError
        ``bad-json``: a file that is not JSON, not of that shape, with a label
        that is null (or not a finite number with ``neg_rmse``), several
        candidates and no ``name``, or no candidate ``name``; the reading
        problems of `synagree.io.json_input.read_json`; the refusals of
        `alt_test_labels`.
    """
    where = "alt_test_label_files(): "
    scoring = check_value(SPECS["scoring"], scoring, where)
    h_path, c_path = str(humans), str(candidate)
    what = "annotations as JSON ({annotator: {instance: label}})"
    h_doc = read_json(h_path, kind="bad-json", what=what)
    check_labels(h_doc, scoring, "the humans' labels",
                 lambda m: InputError.single(h_path, None, "bad-json", m), nested=True)
    c_doc = read_json(c_path, kind="bad-json", what=what)
    c_name, labels = _candidate_of(c_doc, c_path, name, scoring)
    return alt_test_labels(h_doc, labels, scoring=scoring, epsilon=epsilon, q=q,
                           min_units=min_units, candidate_name=c_name)
