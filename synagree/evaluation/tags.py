"""Tag-level evaluation of a tagger or parser against gold (``synagree tags``).

`evaluate_tags` compares one CoNLL-U column (``deprel``, ``upos``,
``xpos`` or ``feats``) of a system file with the same column of a gold file,
word by word, and reports:

* exact accuracy: share of words whose system tag equals the gold tag as
  written (string equality);
* hierarchical credit (Melamed & Resnik, docs/method.md §9): the mean over words of
  ``credit(gold, system)``, the probability the system tag puts on the gold
  tag's leaves (an under-specified system tag gets partial credit, a more
  specific one full credit);
* Cohen's κ and Scott's π on exact tags, and the hierarchical κ of docs/method.md §9
  (``P(A)`` = mean pair agreement ``sum_l P(l|gold) P(l|system)``, ``P(E)``
  from the pooled leaf distribution of both files).  Undefined κ (every tag
  the same) is ``None``;
* a per-tag breakdown: for each gold tag, its count, exact accuracy, mean
  credit and the most frequent *other* system tag it got (ties broken
  alphabetically).

Sentences pair by ``# sent_id`` when every sentence of both files carries
one (order may differ), else by position.  Both files must have the same
tokenisation: the same sentences, with the same number of syntactic words
in each (multiword-token ranges ``1-2`` and empty nodes ``8.1`` are
skipped).  Any mismatch is an
`synagree.base.problems.InputError` naming file and line; differing word
forms are only warnings.  Only the compared column is read, so a tagger's
output with ``_`` heads is fine.  An empty or ``_`` value is the tag ``"_"``.

Hierarchies: ``ud`` (``a:b`` IS-A ``a``), ``msd`` (positional tags; ``Ncms-``
is ``Ncms``), ``flat``, a hierarchy file, or a
`synagree.trees.hierarchy.Hierarchy`; ``ud``/``msd``/``flat`` are built
from the tags of both files.  Default: ``ud`` for ``deprel``, ``flat`` for
the other columns.  Tags missing from a hierarchy file become top-level
leaves and are listed in `TagsResult.added_tags`.

Rendering (`render_tags`) is separate from computing.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from synagree._version import __version__
from synagree.base.command_options import TagsOptions
from synagree.base.frames import Frames, metric_rows
from synagree.base.jsonable import finite_or_none
from synagree.base.memory import DEFAULT_MAX_MEMORY, check_resampling
from synagree.base.problems import WARNING, InputError, Problem, ProblemLog, quote
from synagree.base.ratios import OptionalShare, Share
from synagree.base.sealed import seal
from synagree.evaluation.features import FeatureScores, feature_scores
from synagree.evaluation.label_prf import note_written_alternatives, tag_prf
from synagree.evaluation.tiers import (
    SIBLING_CREDIT,
    TiersResult,
    TiersSpec,
    resolve_tiers_spec,
    tiers_for_words,
)
from synagree.io import registry
from synagree.io.compression import strip_suffix
from synagree.io.conllu import (
    DepSentence,
    has_empty_column,
    scan_chunks,
    sentence_blocks,
    split_columns,
)
from synagree.io.conllu_ids import Ranges, bad_id_message, parse_id
from synagree.io.files import read_text
from synagree.io.formats import CONLL_SUFFIXES
from synagree.io.lexicon import Lexicon, lexicon_from_words, read_lexicon
from synagree.io.sources import Buffer, Source, as_input, check_input, input_name
from synagree.io.text import comparable
from synagree.stats.bootstrap import check_replicates
from synagree.stats.contingency import Contingency
from synagree.stats.features import check_feats
from synagree.stats.gate_prf import BDMCounts, SpanAnnotation, bdm_diff
from synagree.stats.gwet import WEIGHTS, GwetAC, gwet_of_labels
from synagree.stats.hierarchical_kappa import HierarchicalKappa
from synagree.stats.hierarchy_input import (
    HierarchySpec,
    describe_hierarchy,
    hierarchy_input,
    load_hierarchy,
    load_hierarchy_noting_added,
)
from synagree.stats.prf import PRF, prf_table
from synagree.stats.tag_alternatives import (
    TagReader,
    annotation_leaf_mass,
    check_syntax_option,
    check_values,
    flat_credit_fn,
    gold_closeness_fn,
    gold_credit_fn,
    plain_syntax_note,
)
from synagree.stats.tag_intervals import tag_intervals
from synagree.trees.annotation_bdm import tag_closeness
from synagree.trees.hierarchy import Hierarchy, pooled_leaf_mass

__all__ = ["COLUMNS", "TagRow", "TagsResult", "evaluate_tags", "evaluate_tag_pairs",
           "read_tag_column", "default_hierarchy", "load_lexicon"]

#: CoNLL-U column index (0-based) of each evaluable column.
COLUMNS = {"upos": 3, "xpos": 4, "feats": 5, "deprel": 7}


@dataclass
class TagSentence:
    r"""The compared column of one sentence.

    Parameters
    ----------
    file : str
    index : int
        0-based position in the file.
    line : int
        1-based first line of the sentence block.
    words : list of (int, str, str)
        Per syntactic word: (line, form, tag).
    sent_id : str, optional
        The ``# sent_id`` comment's value.
    """

    file: str
    index: int
    line: int
    words: List[Tuple[int, str, str]]
    sent_id: Optional[str] = None


def _sent_id(line: str) -> Optional[str]:
    """The value of a ``# sent_id = VALUE`` comment (as every reader reads it), else None."""
    key, eq, value = line.strip()[1:].partition("=")
    return value.strip() or None if eq and key.strip() == "sent_id" else None


def tag_sentences(sentences: Sequence[DepSentence], column: str) -> List[TagSentence]:
    """The tag column of sentences read by a registered reader (`synagree.io.registry`).

    Parameters
    ----------
    sentences : sequence of DepSentence
    column : {"deprel", "upos", "xpos", "feats"}
    """
    field_of = {"deprel": "deprels", "upos": "upos", "xpos": "xpos", "feats": "feats"}
    out = []
    for k, s in enumerate(sentences):
        tags = getattr(s, field_of[column]) or ["_"] * s.n_words
        lines = list(s.word_lines) or [s.line] * s.n_words
        out.append(TagSentence(s.file, k, s.line,
                               [(lines[i], s.forms[i], tags[i] or "_") for i in range(s.n_words)],
                               s.sent_id))
    return out


def read_tag_column(path: Source, column: str,
                    log: Optional[ProblemLog] = None, fmt: str = "auto") -> List[TagSentence]:
    r"""Sentences of a CoNLL-U/X file with one column's tags.

    Multiword-token ranges and empty nodes are skipped; an empty or ``_``
    value is the tag ``"_"``.

    Parameters
    ----------
    path : str, path-like, file-like or Buffer
        A file, or a stream (`synagree.io.sources`; pass a `Buffer` to read a
        stream's columns more than once).
    column : {"deprel", "upos", "xpos", "feats"}
    log : ProblemLog, optional
        Receives the problems (unreadable file, not 10 tab-separated columns,
        bad or out-of-sequence ID, empty file); the caller raises.
    fmt : str
        ``--format``: CoNLL-U files are read here, column by column (no
        HEAD is checked: a tag column needs none); a file of another
        dependency format of the registry (``webanno-tsv3``) is read by its
        reader and its records give the column (`tag_sentences`).

    Returns
    -------
    list of TagSentence
        Empty when the file could not be read.

    Raises
    ------
    ValueError
        Unknown column.
    """
    if column not in COLUMNS:
        raise ValueError(f"unknown column {column!r}; expected one of {tuple(COLUMNS)}")
    idx = COLUMNS[column]
    source = as_input(path)
    name = input_name(source)
    log = log if log is not None else ProblemLog()
    errors_before = len(log.errors)
    try:
        spec = registry.resolve(fmt, source)
    except InputError as exc:
        log.extend(exc.errors)
        return []
    if spec.kind != "dependency" or spec.multi_annotator:
        log.add(name, None, "usage", f"tags compares one dependency file with another; "
                f"{name} is read as {spec.name}")
        return []
    if spec.name != "conllu":
        try:
            return tag_sentences(registry.read_with(spec, source, log), column)
        except InputError:
            return []  # the problems are in the log
    text = read_text(source, log)
    if text is None or len(log.errors) > errors_before:
        return []
    fast = _scanned_tag_sentences(name, text, column)
    if fast is not None:
        return fast
    out: List[TagSentence] = []
    for first, lines in sentence_blocks(text):
        words: List[Tuple[int, str, str]] = []
        ranges = Ranges()
        broken = False  # a line could not be read: word IDs cannot be checked for sequence
        sid: Optional[str] = None
        for no, line in lines:
            if line.startswith("#"):
                sid = _sent_id(line) or sid
                continue
            cols = split_columns(line, name, no, log)
            if cols is None:
                broken = True
                continue
            cid = parse_id(cols[0])  # IDs are checked as every reader checks them
            if cid is None:
                log.add(name, no, "bad-id", bad_id_message(cols[0]))
                broken = True
                continue
            if cid.is_range:
                problem = ranges.check(cid, None if broken else len(words) + 1)
                if problem is not None:
                    log.add(name, no, *problem)
                continue
            if cid.is_empty_node:
                continue
            if not broken and cid.first != len(words) + 1:
                log.add(name, no, "id-sequence", f"word ID {cid.first} out of sequence: "
                        f"expected {len(words) + 1}")
                broken = True
            words.append((no, cols[1], cols[idx].strip() or "_"))
        if words:
            out.append(TagSentence(name, len(out), first, words, sid))
    if not out and len(log.errors) == errors_before:
        log.add(name, None, "empty-file", "file holds no sentences")
    return out


#: a column's place among the scan's columns (FORM, LEMMA, UPOS, XPOS, FEATS, DEPREL, ...)
_SCANNED = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 7: 5}


def _scanned_tag_sentences(name: str, text: str, column: str) -> Optional[List[TagSentence]]:
    """`read_tag_column`'s sentences from the records of the package's CoNLL-U scan
    (`synagree.io.conllu.scan_chunks`, the C scan behind `synagree.read`), or None
    when the file needs the line-by-line reading: anything it would report, and
    anything unusual (a ``\r``, a byte-order mark, an empty column, a whitespace-only
    line, an ID the scan does not read as a plain number that is neither a
    multiword range nor an empty node).  Files it reads give the same sentences
    (tests/test_tags_fastpath.py)."""
    if "\r" in text or text.startswith("\ufeff") or has_empty_column(text):
        return None
    at = _SCANNED[COLUMNS[column]]
    out: List[TagSentence] = []
    tags: Dict[str, str] = {}
    for scan, base in scan_chunks(text, ProblemLog()):
        if not scan.fine.all():
            return None  # a line without 10 columns, or a whitespace-only one
        rows, ids = scan.rows.tolist(), scan.ids.tolist()
        forms, values = scan.columns[0], scan.columns[at]
        r = 0
        for b, (start, end) in enumerate(zip(scan.starts, scan.ends)):
            words: List[Tuple[int, str, str]] = []
            ranges = Ranges()
            while r < len(rows) and rows[r] < end:
                if ids[r] == 0:  # a multiword range, an empty node, or a bad ID
                    cid = scan.line_id(rows[r])
                    if cid is None or cid.is_word or (
                            cid.is_range and ranges.check(cid, len(words) + 1) is not None):
                        return None
                elif ids[r] != len(words) + 1:
                    return None
                else:
                    tag = tags.get(values[r])
                    if tag is None:
                        tag = tags[values[r]] = values[r].strip() or "_"
                    words.append((base + rows[r] + 1, forms[r], tag))
                r += 1
            if words:
                out.append(TagSentence(name, len(out), base + start + 1, words,
                                       scan.metadata[b].get("sent_id")))
    return out or None  # (no sentence: the line-by-line reading reports it)


def pair_by_sent_id(gold: List[TagSentence], system: List[TagSentence], log: ProblemLog
                    ) -> List[TagSentence]:
    """The system's sentences in gold's order, matched by ``# sent_id``.

    When every sentence of both files carries a sent_id, sentences pair by it
    (as in ``agree`` and ``categorical``, docs/method.md §1.4): a sent_id
    occurring twice in a file, or missing from one of them, is an error in
    ``log``.  Otherwise the system's list is returned as it is (sentences pair
    by position).
    """
    if not gold or not system or not all(x.sent_id for x in gold + system):
        return system
    by_id: Dict[str, TagSentence] = {}
    for side in (gold, system):
        seen: Dict[str, TagSentence] = {}
        for x in side:
            assert x.sent_id is not None
            if x.sent_id in seen:
                log.add(x.file, x.line, "duplicate-sent-id",
                        f"sent_id {x.sent_id!r} occurs twice (first at line "
                        f"{seen[x.sent_id].line})", sent_id=x.sent_id)
            seen.setdefault(x.sent_id, x)
        if side is system:
            by_id = seen
    gold_ids = {x.sent_id for x in gold}
    out: List[TagSentence] = []
    for g in gold:
        assert g.sent_id is not None
        match = by_id.get(g.sent_id)
        if match is None:
            log.add(g.file, g.line, "sentence-mismatch",
                    f"sent_id {g.sent_id!r} is missing from {system[0].file} (tags pairs "
                    f"sentences by sent_id when every sentence has one)", sent_id=g.sent_id)
        else:
            out.append(match)
    for x in system:
        if x.sent_id not in gold_ids:
            log.add(x.file, x.line, "sentence-mismatch",
                    f"sent_id {x.sent_id!r} is missing from {gold[0].file} (tags pairs "
                    f"sentences by sent_id when every sentence has one)", sent_id=x.sent_id)
    return out


def _align(gold: List[TagSentence], system: List[TagSentence], gold_name: str,
           system_name: str, log: ProblemLog, check_text: bool = True
           ) -> List[Tuple[str, str]]:
    """(gold tag, system tag) per word; mismatches go to ``log``.

    Sentences pair by position (``system`` in gold's order already, see
    `pair_by_sent_id`).  A word whose form differs from gold is a
    warning (compared anyway); with ``check_text``, a sentence where most
    words differ is not the same sentence (the files are misaligned) and is a
    ``text-mismatch`` error, as for every unit (docs/method.md §1.5).
    """
    pairs: List[Tuple[str, str]] = []
    for g, s in zip(gold, system):
        if len(g.words) != len(s.words):
            log.add(system_name, s.line, "word-count-mismatch",
                    f"sentence {s.index + 1} has {len(s.words)} words here but "
                    f"{len(g.words)} in {gold_name} (line {g.line}); tags needs the same "
                    f"tokenisation in both files")
            continue
        differ = [(gw, sw) for gw, sw in zip(g.words, s.words)
                  if gw[1] != sw[1] and comparable(gw[1]) and comparable(sw[1])]
        if check_text and 2 * len(differ) > len(g.words):
            log.add(system_name, s.line, "text-mismatch",
                    f"sentence {s.index + 1} is not the text of sentence {g.index + 1} of "
                    f"{gold_name} (line {g.line}): {len(differ)} of {len(g.words)} word "
                    f"forms differ, e.g. {quote(differ[0][1][1])} for {quote(differ[0][0][1])}; "
                    f"are the files aligned? (--no-text-check compares them anyway)")
            continue
        for (gl, gf, gt), (sl, sf, st) in zip(g.words, s.words):
            if gf != sf:
                log.add(system_name, sl, "form-mismatch",
                        f"word form {quote(sf)} differs from {quote(gf)} in {gold_name} "
                        f"(line {gl}); "
                        f"compared anyway", severity=WARNING)
            pairs.append((gt, st))
    if len(gold) != len(system):
        longer, lname, other = ((gold, gold_name, system_name) if len(gold) > len(system)
                                else (system, system_name, gold_name))
        extra = longer[min(len(gold), len(system))]
        log.add(lname, extra.line, "sentence-count-mismatch",
                f"{gold_name} has {len(gold)} sentences, {system_name} has {len(system)}: "
                f"sentence {extra.index + 1} (from this line on) has no counterpart in "
                f"{other}")
    return pairs


class TagShares:
    """The per-word means of a tally of tags (NaN for no words; the optional sums'
    means None when they were not computed).

    Needs ``exact``, ``credit``, ``alt_correct``, ``bdm``, ``wup`` and
    `tallied` (`TagRow`: its ``count``; `TagsResult`: its ``words``).
    """

    exact: int
    credit: float
    alt_correct: Optional[float]
    bdm: Optional[float]
    wup: Optional[float]

    @property
    def tallied(self) -> int:
        """The words tallied: the denominator of every mean."""
        raise NotImplementedError

    accuracy = Share("exact", "tallied")  # exact accuracy
    alt_accuracy = OptionalShare("alt_correct", "tallied")  # with alternatives
    mean_bdm = OptionalShare("bdm", "tallied")  # GATE BDM
    mean_wup = OptionalShare("wup", "tallied")  # Wu–Palmer closeness
    mean_credit = Share("credit", "tallied")  # hierarchical credit


@dataclass
class TagRow(TagShares):
    """Per gold tag: count, exact matches, total credit, most frequent other system tag.

    Parameters
    ----------
    tag : str
        The gold tag.
    count : int
        Words with this gold tag.
    exact : int
        Of them, tagged exactly so by the system.
    credit : float
        Σ of their credit (docs/method.md §9.3).
    confusion : str, optional
        The most frequent *other* system tag (ties: alphabetically first).
    confusion_count : int
    alt_correct : float, optional
        With ``--tag-syntax alternatives``: Σ of the system's mass on the gold
        alternatives (docs/method.md §15.2).
    bdm : float, optional
        With ``--bdm``: Σ of their GATE BDM (docs/method.md §15.3, §23).
    wup : float, optional
        With ``--wu-palmer``: Σ of their Wu–Palmer closeness (docs/method.md §15.3).
    """

    tag: str
    count: int
    exact: int
    credit: float
    confusion: Optional[str] = None
    confusion_count: int = 0
    alt_correct: Optional[float] = None
    bdm: Optional[float] = None
    wup: Optional[float] = None

    @property
    def tallied(self) -> int:
        """The words with this gold tag (``count``)."""
        return self.count

    def as_dict(self) -> Dict[str, Any]:
        """The row as a JSON-ready dict (NaN as None)."""
        d = {"tag": self.tag, "count": self.count, "exact": self.exact,
             "accuracy": finite_or_none(self.accuracy), "credit": self.credit,
             "accuracy_hier": finite_or_none(self.mean_credit), "confusion": self.confusion,
             "confusion_count": self.confusion_count}
        if self.alt_correct is not None:  # --tag-syntax alternatives (docs/method.md §15)
            d.update(alt_correct=self.alt_correct, accuracy_alt=finite_or_none(self.alt_accuracy))
        if self.bdm is not None:  # --bdm
            d.update(bdm=self.bdm, accuracy_bdm=finite_or_none(self.mean_bdm))
        if self.wup is not None:  # --wu-palmer
            d.update(wup=self.wup, accuracy_wup=finite_or_none(self.mean_wup))
        return d


@dataclass(frozen=True)
class TagsResult(TagShares, Frames):
    r"""Tag evaluation as counts; ratios are derived (fractions, not percent).

    Returned by `evaluate_tags`; docs/method.md §13.3.

    Parameters
    ----------
    gold_file, system_file : str
    column : str
    hierarchy : str
        ``ud``, ``msd``, ``flat``, ``file PATH`` or ``custom``.
    plain_as_leaf : bool
    sentences, words : int
    exact : int
        Words with system tag == gold tag.
    credit : float
        Σ over words of credit(gold, system).
    cohen_kappa, scott_pi : float or None
        On exact tags; None when undefined.
    hier_kappa : HierarchicalKappa
    per_tag : list of TagRow
        Most frequent gold tag first.
    added_tags : list of str
        Tags a hierarchy file lacked, added as top-level leaves.
    form_mismatches : int
        Words whose forms differ between the files (warnings).
    warnings : list of Problem
    tag_syntax : {"plain", "alternatives"}
        How column values were read (docs/method.md §15.1).
    alt_correct : float, optional
        With ``alternatives``: Σ over words of the system's mass on the gold
        alternatives (exact tags, no hierarchy).
    bdm : float, optional
        With ``bdm=True``: Σ over words of GATE's BDM (§15.3, §23).
    bdm_prf : BDMCounts, optional
        With ``bdm=True``: GATE's BDM-based counts, precision, recall and F1
        over the words as annotations (§23.3).
    wup : float, optional
        With ``wu_palmer=True``: Σ over words of the Wu–Palmer closeness (§15.3).
    gold_alternatives, system_alternatives, system_probabilities : int
        Words whose gold / system value names several tags; system values
        with probabilities.
    notes : list of str
    prf : dict of str to PRF, optional
        Strict and lenient micro/macro P/R/F1 over tags
        (`synagree.evaluation.label_prf.tag_prf`; None unless asked for).
    per_feature : FeatureScores, optional
        Per-feature scores of FEATS (``column="feats"``, ``per_feature=True``;
        docs/method.md §19.4).
    tiers : TiersResult, optional
        With a tag mapping: coarse, fine and tiered scores (docs/method.md §16).

    Examples
    --------
    >>> import os, tempfile
    >>> row = "{}\t{}\t_\t{}\t_\t_\t{}\t{}\t_\t_\n"
    >>> def write(rows):
    ...     fd, path = tempfile.mkstemp(suffix=".conllu")
    ...     with os.fdopen(fd, "w") as f:
    ...         _ = f.write("".join(row.format(*r) for r in rows) + "\n")
    ...     return path
    >>> gold = write([(1, "She", "PRON", 2, "nsubj:pass"), (2, "left", "VERB", 0, "root")])
    >>> system = write([(1, "She", "PRON", 2, "nsubj"), (2, "left", "NOUN", 0, "root")])
    >>> res = evaluate_tags(gold, system, "upos")
    >>> res.words, res.accuracy, res.to_dict()["hierarchy"]
    (2, 0.5, 'flat')

    >>> os.remove(gold); os.remove(system)
    """

    gold_file: str
    system_file: str
    column: str
    hierarchy: str  # description: ud | msd | flat | file PATH | custom
    plain_as_leaf: bool
    sentences: int
    words: int
    exact: int  # words with system tag == gold tag
    credit: float  # sum over words of credit(gold, system)
    cohen_kappa: Optional[float]
    scott_pi: Optional[float]
    hier_kappa: HierarchicalKappa
    per_tag: List[TagRow]
    added_tags: List[str] = field(default_factory=list)
    form_mismatches: int = 0
    warnings: List[Problem] = field(default_factory=list)
    tag_syntax: str = "plain"
    alt_correct: Optional[float] = None
    bdm: Optional[float] = None
    bdm_prf: Optional[BDMCounts] = None
    wup: Optional[float] = None
    gold_alternatives: int = 0
    system_alternatives: int = 0
    system_probabilities: int = 0
    notes: List[str] = field(default_factory=list)
    prf: Optional[Dict[str, PRF]] = None  # docs/method.md §17; None unless asked for
    per_feature: Optional[FeatureScores] = None
    tiers: Optional[TiersResult] = None
    gwet: Optional[GwetAC] = None  # coefficient="ac1"|"ac2": docs/method.md §34.1
    # bootstrap percentile intervals over sentences (bootstrap=B): metric -> (low, high)
    intervals: Dict[str, Optional[Tuple[float, float]]] = field(default_factory=dict)
    level: float = 0.95  # of the intervals
    # how the numbers were computed: printed with every output (the signature)
    settings: Dict[str, str] = field(default_factory=dict)

    def signature(self) -> str:
        """The settings as one line, ``key:value|key:value|...``."""
        return "|".join(f"{k}:{v}" for k, v in self.settings.items())

    @property
    def tallied(self) -> int:
        """The words compared (``words``)."""
        return self.words

    @property
    def hierarchical_kappa(self) -> Optional[float]:
        """Hierarchical κ (None when undefined)."""
        return finite_or_none(self.hier_kappa.kappa)

    def frame_rows(self) -> List[Dict[str, object]]:
        """One row per metric over every word (tag ``ALL``), then per gold tag and metric."""
        rows: List[Dict[str, object]] = metric_rows(self.to_dict(), tag="ALL", count=self.words)
        for r in self.per_tag:
            d = r.as_dict()
            rows += [{"tag": r.tag, "count": r.count, "metric": k, "value": d[k]}
                     for k in ("accuracy", "accuracy_hier", "accuracy_alt", "accuracy_bdm",
                               "accuracy_wup") if k in d]
        return rows

    def to_dict(self) -> Dict[str, Any]:
        """The result as JSON-ready data with stable keys."""
        d: Dict[str, Any] = {
            "synagree_version": __version__, "settings": dict(self.settings),
            "signature": self.signature(),
            "gold": self.gold_file, "system": self.system_file, "column": self.column,
            "hierarchy": self.hierarchy, "plain_as_leaf": self.plain_as_leaf,
            "sentences": self.sentences, "words": self.words,
            "accuracy": finite_or_none(self.accuracy),
            "accuracy_hier": finite_or_none(self.mean_credit),
            "cohen_kappa": self.cohen_kappa, "scott_pi": self.scott_pi,
            "kappa_hier": self.hierarchical_kappa,
            **{f"{k}_ci": (list(iv) if iv else None) for k, iv in self.intervals.items()},
            "counts": {"exact": self.exact, "credit": self.credit,
                       "hier_p_observed": finite_or_none(self.hier_kappa.p_observed),
                       "hier_p_expected": finite_or_none(self.hier_kappa.p_expected)},
            "added_tags": list(self.added_tags),
            "form_mismatches": self.form_mismatches,
            "per_tag": [r.as_dict() for r in self.per_tag],
            "warnings": [p.as_dict() for p in self.warnings],
        }
        if self.tag_syntax != "plain" or self.bdm is not None or self.wup is not None:
            d["tag_syntax"] = self.tag_syntax  # docs/method.md §15
            d["bdm_credit"] = self.bdm is not None
            d["wu_palmer_credit"] = self.wup is not None
        if self.alt_correct is not None:
            d["accuracy_alt"] = finite_or_none(self.alt_accuracy)
            d["counts"]["alt_correct"] = self.alt_correct
            d["alternatives"] = {"gold_words": self.gold_alternatives,
                                 "system_words": self.system_alternatives,
                                 "system_probabilities": self.system_probabilities}
        if self.bdm is not None:
            d["accuracy_bdm"] = finite_or_none(self.mean_bdm)
            d["counts"]["bdm"] = self.bdm
        if self.bdm_prf is not None:
            d["bdm_prf"] = self.bdm_prf.as_dict()
        if self.wup is not None:
            d["accuracy_wup"] = finite_or_none(self.mean_wup)
            d["counts"]["wup"] = self.wup
        if self.notes:
            d["notes"] = list(self.notes)
        if self.prf is not None:
            d["prf"] = prf_table(self.prf)
        if self.per_feature is not None:
            d["per_feature"] = self.per_feature.to_dict()
        if self.tiers is not None:
            d["tiers"] = self.tiers.to_dict()
        if self.gwet is not None:
            d["gwet"] = self.gwet.to_dict()
        return d


def load_lexicon(spec: Union[Source, Lexicon], column: str) -> Lexicon:
    r"""A lexicon: a `Lexicon`, a CoNLL-U treebank (its ``column``), or a ``WORD<TAB>FINE`` file.

    A name ending in ``.conllu``, ``.conll`` or ``.conllx`` (compressed or
    not) is a treebank; anything else a lexicon file
    (`synagree.io.lexicon.read_lexicon`).  A stream is judged by its real
    ``.name``; one without is a lexicon file (a treebank given so is refused
    by the lexicon reader: ``lexicon-fields``).

    Parameters
    ----------
    spec : str, path-like, file-like or Lexicon
    column : str
        The fine column, read from a treebank.

    Raises
    ------
    InputError
        The reading problems of either kind of file.
    """
    if isinstance(spec, Lexicon):
        return spec
    source = as_input(spec, "<lexicon>")
    named = source.real_name if isinstance(source, Buffer) else str(source)
    if named and Path(strip_suffix(Path(named).name)).suffix.lower() in CONLL_SUFFIXES:
        log = ProblemLog()
        sents = read_tag_column(source, column, log)
        log.raise_if_errors()
        return lexicon_from_words(((form, tag) for s in sents for _, form, tag in s.words),
                                  f"treebank {input_name(source)} ({column})")
    return read_lexicon(source)


def _words(sentences: List[TagSentence]) -> List[Tuple[str, int, str]]:
    """(file, line, tag) of every word, in order."""
    return [(s.file, line, tag) for s in sentences for line, _, tag in s.words]


def default_hierarchy(column: str) -> str:
    """The default hierarchy of a column: ``ud`` for ``deprel``, ``flat`` otherwise."""
    return "ud" if column == "deprel" else "flat"


def evaluate_tag_pairs(pairs: Sequence[Tuple[str, str]],
                       hierarchy: HierarchySpec = "flat",
                       plain_as_leaf: bool = False, tag_syntax: str = "plain",
                       bdm: bool = False, wu_palmer: bool = False) -> Dict[str, Any]:
    """The scores of `TagsResult` for ``(gold, system)`` tag pairs.

    Parameters
    ----------
    pairs : sequence of (str, str)
        (gold tag, system tag) per word.
    hierarchy : str or Hierarchy
        ``ud``, ``msd``, ``flat``, a file, or a `Hierarchy`; ``ud``/``msd``/
        ``flat`` are built from the tags of the pairs.
    plain_as_leaf : bool
        See `Hierarchy.from_ud`.
    tag_syntax : {"plain", "alternatives"}
        ``alternatives``: values such as ``NN|NNS`` or ``NN=0.7|NNS=0.3``
        are read as alternatives (docs/method.md §15): gold disjunctive,
        system a distribution; adds ``alt_correct`` and the alternative
        counts.
    bdm : bool
        Add ``bdm``, the summed GATE BDM (docs/method.md §15.3, §23), and
        ``bdm_prf``, GATE's BDM-based P/R/F1 with each word an annotation
        (§23.3).
    wu_palmer : bool
        Add ``wup``, the summed Wu–Palmer closeness (docs/method.md §15.3).

    Returns
    -------
    dict
        The constructor's fields ``words``, ``exact``, ``credit``,
        ``cohen_kappa``, ``scott_pi``, ``hier_kappa``, ``per_tag``,
        ``added_tags`` (and ``alt_correct``, ``gold_alternatives``,
        ``system_alternatives``, ``system_probabilities``, ``bdm``,
        ``bdm_prf``, ``wup`` when asked for).
    """
    confusion = Counter(pairs)
    read = TagReader(tag_syntax)
    tags = read.tags(t for pair in confusion for t in pair)
    h, added = load_hierarchy_noting_added(hierarchy, tags, plain_as_leaf)
    gold_credit = gold_credit_fn(h, read)
    flat = flat_credit_fn(read) if tag_syntax != "plain" else None
    closeness = gold_closeness_fn(tag_closeness(h, "bdm", added), read) if bdm else None
    wup_fn = gold_closeness_fn(tag_closeness(h, "wu-palmer"), read) if wu_palmer else None
    alt_sums: List[float] = []
    bdm_sums: List[float] = []
    wup_sums: List[float] = []
    gold_alts = sys_alts = sys_probs = 0
    exact = 0
    rows: Dict[str, TagRow] = {}
    others: Dict[str, Counter[str]] = {}
    gold_counts: Counter[str] = Counter()
    sys_counts: Counter[str] = Counter()
    credits = []
    agreements = []
    for (g, s), c in confusion.items():
        cr = gold_credit(g, s)
        credits.append(c * cr)
        agreements.append(c * h.pair_agreement(read(g), read(s)))
        row = rows.setdefault(g, TagRow(g, 0, 0, 0.0, alt_correct=0.0 if flat else None,
                                        bdm=0.0 if closeness else None,
                                        wup=0.0 if wup_fn else None))
        row.count += c
        row.credit += c * cr
        if flat is not None:
            alt_sums.append(c * flat(g, s))
            row.alt_correct = (row.alt_correct or 0.0) + alt_sums[-1]
            ga, sa = read(g), read(s)
            gold_alts += c * (not isinstance(ga, str))
            sys_alts += c * (not isinstance(sa, str))
            sys_probs += c * isinstance(sa, dict)
        if closeness is not None:
            bdm_sums.append(c * closeness(g, s))
            row.bdm = (row.bdm or 0.0) + bdm_sums[-1]
        if wup_fn is not None:
            wup_sums.append(c * wup_fn(g, s))
            row.wup = (row.wup or 0.0) + wup_sums[-1]
        if g == s:
            row.exact += c
            exact += c
        else:
            others.setdefault(g, Counter())[s] += c
        gold_counts[g] += c
        sys_counts[s] += c
    credit_sum = math.fsum(credits)
    agreement_sum = math.fsum(agreements)
    for g, cnt in others.items():
        top, n = min(cnt.items(), key=lambda kv: (-kv[1], kv[0]))
        rows[g].confusion, rows[g].confusion_count = top, n
    counts = chain(gold_counts.items(), sys_counts.items())
    leaf_mass = (pooled_leaf_mass(h, counts) if tag_syntax == "plain"
                 else annotation_leaf_mass(h, read, counts))
    n = len(pairs)
    hk = HierarchicalKappa(n, agreement_sum, 2 * n, leaf_mass)
    flat_agreement = Contingency.from_labels(pairs).coefficients()
    per_tag = sorted(rows.values(), key=lambda r: (-r.count, r.tag))
    out: Dict[str, object] = {"words": n, "exact": exact, "credit": credit_sum,
           "cohen_kappa": finite_or_none(flat_agreement["cohen_kappa"]),
           "scott_pi": finite_or_none(flat_agreement["scott_pi"]),
           "hier_kappa": hk, "per_tag": per_tag, "added_tags": added}
    if flat is not None:
        out.update(alt_correct=math.fsum(alt_sums), gold_alternatives=gold_alts,
                   system_alternatives=sys_alts, system_probabilities=sys_probs)
    if closeness is not None:
        out["bdm"] = math.fsum(bdm_sums)
        # GATE's BDM-based P/R/F (§23.3): word k is the span [k, k+1) on both sides
        out["bdm_prf"] = bdm_diff((SpanAnnotation(k, k + 1, g) for k, (g, _) in enumerate(pairs)),
                                  (SpanAnnotation(k, k + 1, s) for k, (_, s) in enumerate(pairs)),
                                  closeness)
    if wup_fn is not None:
        out["wup"] = math.fsum(wup_sums)
    return out


def check_gwet_options(coefficient: Optional[str], ac2_weights: Optional[str],
                       tag_syntax: str = "plain") -> None:
    """``coefficient`` and ``ac2_weights`` of `evaluate_tags` (a ``usage`` `InputError`)."""

    def usage(message: str) -> InputError:
        return InputError.single("<command line>", None, "usage", message)

    if coefficient is None:
        if ac2_weights is not None:
            raise usage("--ac2-weights gives the weights of --coefficient ac2, which was not "
                        "asked for")
        return
    if coefficient not in ("ac1", "ac2"):
        raise usage(f"--coefficient {coefficient}: choose from ac1, ac2")
    if ac2_weights is not None and ac2_weights not in WEIGHTS:
        raise usage(f"--ac2-weights {ac2_weights}: choose from {', '.join(WEIGHTS)}")
    if coefficient == "ac1" and ac2_weights not in (None, "identity"):
        raise usage("AC1 has identity weights; --ac2-weights ordinal|quadratic go with "
                    "--coefficient ac2")
    if tag_syntax != "plain":
        raise usage("--coefficient takes one tag per word: not with --tag-syntax "
                    "alternatives")


def evaluate_tags(gold_path: Source, system_path: Source, column: Optional[str] = None,
                  hierarchy: Optional[HierarchySpec] = None, *,
                  options: Optional[TagsOptions] = None, **overrides: Any) -> TagsResult:
    r"""Evaluate one column of a system file against a gold file (``synagree tags``).

    Parameters
    ----------
    gold_path, system_path : str, path-like or file-like
        A path, text (a string with a line break) or an open text or binary
        stream (the one rule of `synagree.io.sources.as_input`).
    column, hierarchy : optional
        The compared column and the tag hierarchy (also options, below; given
        here, they override ``options``).
    options : TagsOptions, optional
        Every option (`synagree.base.command_options.TagsOptions`; the
        defaults when None).
    **overrides
        Any field of `TagsOptions` by name (``column``, ``hierarchy``,
        ``plain_as_leaf``, ``check_text``, ``tag_syntax``, ``bdm``, ``prf``,
        ``per_feature``, ``tiers``, ``wu_palmer``, ``sibling_credit``,
        ``unmapped``, ``majority``, ``lexicon``, ``bootstrap``, ``seed``,
        ``level``, ``max_memory``), as `_evaluate_tags` describes them.

    Returns
    -------
    TagsResult

    Raises
    ------
    TypeError, ValueError
        An option of the wrong type or outside its range (the message names
        it, the value and what is allowed), or an input that is none of the
        above.
    InputError
        Bad input (see `_evaluate_tags`).

    Examples
    --------
    >>> row = "{}\t{}\t_\t{}\t_\t_\t{}\t{}\t_\t_\n"
    >>> gold = row.format(1, "She", "PRON", 2, "nsubj") + row.format(2, "left", "VERB", 0,
    ...                                                                "root") + "\n"
    >>> evaluate_tags(gold, gold.replace("VERB", "NOUN"), column="upos").accuracy
    0.5
    """
    if column is not None:
        overrides = {**overrides, "column": column}
    if hierarchy is not None:
        overrides = {**overrides, "hierarchy": hierarchy}
    opts = TagsOptions.build(options, overrides, "tags()")
    check_input(gold_path, "gold", "tags(): ")
    check_input(system_path, "system", "tags(): ")
    return seal(_evaluate_tags(gold_path, system_path, **opts.as_kwargs()))


def _evaluate_tags(gold_path: Source, system_path: Source,
                  column: str = "deprel", hierarchy: Optional[HierarchySpec] = None,
                  plain_as_leaf: bool = False, check_text: bool = True,
                  tag_syntax: str = "plain", bdm: bool = False, prf: bool = False,
                  per_feature: bool = False, tiers: Optional[TiersSpec] = None,
                  wu_palmer: bool = False,
                  sibling_credit: float = SIBLING_CREDIT, unmapped: str = "error",
                  majority: bool = False,
                  lexicon: Union[Source, Lexicon, None] = None, bootstrap: int = 0,
                  seed: int = 0, level: float = 0.95,
                  max_memory: int = DEFAULT_MAX_MEMORY, fmt: str = "auto",
                  coefficient: Optional[str] = None,
                  ac2_weights: Optional[str] = None) -> TagsResult:
    r"""Evaluate one column of a system file against a gold file.

    Both files must have the same tokenisation; only the compared column is
    read (docs/method.md §13.3).

    Parameters
    ----------
    gold_path, system_path : str, path-like or file-like
        Files, or open text or binary streams (compressed or not; named
        ``<gold>`` and ``<system>`` in messages unless they have a real
        ``.name``).
    column : {"deprel", "upos", "xpos", "feats"}
    hierarchy : str, path-like, file-like, Hierarchy or None
        ``"ud"``, ``"msd"``, ``"flat"``, a hierarchy file path (or stream) or
        a `Hierarchy`; None: `default_hierarchy` of the column.
    plain_as_leaf : bool
        See `Hierarchy.from_ud`.
    check_text : bool
        Refuse a sentence pair where most word forms differ (misaligned
        files); False compares it anyway.  A few differing forms are warnings
        either way.
    tag_syntax : {"plain", "alternatives"}
        ``alternatives`` reads ``NN|NNS`` and ``NN=0.7|NNS=0.3`` as
        alternatives (docs/method.md §15; not with ``feats``): gold
        alternatives are disjunctive, system ones a distribution.  With
        ``plain`` a value containing ``|`` or ``=`` is one tag, and a note
        says so.
    bdm : bool
        Also GATE's BDM, overall and per tag, and GATE's BDM-based P/R/F1
        (docs/method.md §15.3, §23).
    wu_palmer : bool
        Also the Wu–Palmer closeness, overall and per tag (docs/method.md
        §15.3; what ``bdm`` computed before GATE's BDM was implemented).
    prf : bool
        Add strict and lenient micro/macro P/R/F1 over tags
        (`TagsResult.prf`, docs/method.md §17).
    per_feature : bool
        Also score each feature of FEATS (``column="feats"`` only;
        docs/method.md §19.4): FEATS must split into ``Name=Value`` pairs.
    tiers : str, path-like, TagMap or None
        A fine -> coarse tag mapping (a ``FINE<TAB>COARSE`` file, a
        `synagree.io.tagmap.TagMap`, or the name of another gold column to
        derive it from): adds `TagsResult.tiers` (docs/method.md §16).
    sibling_credit : float
        With ``tiers``: the credit of another fine tag of the gold tag's
        coarse class (default 1/2).
    unmapped : {"error", "own-class"}
        With ``tiers``: tags the mapping lacks are an error, or each its own
        coarse class.
    majority : bool
        With ``tiers`` naming a gold column: map each fine tag to its most
        frequent coarse tag and report the ambiguous ones, instead of refusing
        a column that is not a function of the fine one (docs/method.md §16.4).
    lexicon : str, path-like, Lexicon or None
        With ``tiers``: a lexicon of fine tags per word form (a
        ``WORD<TAB>FINE`` file, or a CoNLL-U treebank, ``.conllu``/``.conll``/
        ``.conllx``, whose evaluated column gives it): adds what the coarse
        tag and the lexicon decide (docs/method.md §16.5).
    bootstrap : int
        Sentence-resampling replicates for percentile intervals of accuracy,
        Cohen's κ and Scott's π (`synagree.stats.tag_intervals`); 0: none.
    seed, level
        The bootstrap's seed and interval level.
    max_memory : int
        Bytes the bootstrap may plan to use.
    fmt : str
        ``--format`` of both files (``auto``: sniffed; `read_tag_column`).
    coefficient : {"ac1", "ac2"}, optional
        Also Gwet's AC1 or AC2 of gold and system as two raters
        (`TagsResult.gwet`, docs/method.md §34.1), its interval at ``level``.
    ac2_weights : {"ordinal", "quadratic"}, optional
        AC2's weights; None: the hierarchy's mutual credit.

    Returns
    -------
    TagsResult

    Raises
    ------
    InputError
        Unknown column, bad hierarchy, unreadable input, or differing sentence
        or word counts, or sentences where most word forms differ (every
        problem, with file and line).  A few differing word forms are only
        warnings.  With ``alternatives``: every value that is not valid
        syntax, and probabilities in the gold file (``tag-syntax``).  With
        ``per_feature``: another column (``usage``) or FEATS that cannot be
        split (``bad-feats``).

    Examples
    --------
    >>> import os, tempfile
    >>> row = "{}\t{}\t_\t{}\t_\t_\t{}\t{}\t_\t_\n"
    >>> def write(rows):
    ...     fd, path = tempfile.mkstemp(suffix=".conllu")
    ...     with os.fdopen(fd, "w") as f:
    ...         _ = f.write("".join(row.format(*r) for r in rows) + "\n")
    ...     return path
    >>> gold = write([(1, "She", "PRON", 2, "nsubj:pass"), (2, "left", "VERB", 0, "root")])
    >>> system = write([(1, "She", "PRON", 2, "nsubj"), (2, "left", "NOUN", 0, "root")])
    >>> res = evaluate_tags(gold, system)  # deprel, ud hierarchy
    >>> res.accuracy, res.mean_credit, res.hierarchy
    (0.5, 1.0, 'ud')
    >>> res.per_tag[0].tag, res.per_tag[0].confusion
    ('nsubj:pass', 'nsubj')

    >>> os.remove(gold); os.remove(system)
    """
    check_replicates(bootstrap, level)  # before any work
    hierarchy, tier_spec = _check_tag_options(column, hierarchy, plain_as_leaf, tag_syntax,
                                              per_feature, tiers, majority, lexicon,
                                              coefficient, ac2_weights)
    lex = None if lexicon is None else load_lexicon(lexicon, column)
    core = _tag_core(gold_path, system_path, column, tag_syntax, per_feature, tier_spec, fmt,
                     check_text)
    pairs = core.pairs
    scores = evaluate_tag_pairs(pairs, hierarchy, plain_as_leaf, tag_syntax, bdm, wu_palmer)
    note = (plain_syntax_note((t for pair in pairs for t in pair), column)
            if tag_syntax == "plain" and column != "feats" else None)
    if prf:
        scores["prf"] = note_written_alternatives(tag_prf(pairs, hierarchy, plain_as_leaf),
                                                  tag_syntax)
    if tier_spec is not None:
        scores["tiers"] = _tier_section(core, tier_spec, sibling_credit, unmapped, column,
                                        majority, lex)
    intervals = {}
    settings = {"column": column, "hierarchy": describe_hierarchy(hierarchy, plain_as_leaf),
                "tag_syntax": tag_syntax}
    if bootstrap:  # sentences resampled (docs/method.md §5.4): every pair is in one sentence
        check_resampling(len(core.gold), bootstrap, 1, max_memory)
        intervals = tag_intervals(pairs, [len(g.words) for g in core.gold], bootstrap, seed,
                                  level)
        settings["bootstrap"] = f"{bootstrap} replicates, seed {seed}, level {level:g}"
    if coefficient is not None:  # docs/method.md §34.1: gold and system as two raters
        scores["gwet"], settings["gwet"] = _gwet_section(core, coefficient, ac2_weights,
                                                         level, hierarchy, plain_as_leaf)
    settings["version"] = __version__
    return TagsResult(gold_file=core.gold_name, system_file=core.system_name, column=column,
                      hierarchy=describe_hierarchy(hierarchy, plain_as_leaf),
                      plain_as_leaf=bool(plain_as_leaf), sentences=len(core.gold),
                      form_mismatches=sum(1 for p in core.warnings
                                          if p.kind == "form-mismatch"),
                      warnings=list(core.warnings), tag_syntax=tag_syntax,
                      notes=[note] if note else [],
                      per_feature=feature_scores(pairs) if per_feature else None,
                      intervals=intervals, level=level, settings=settings, **scores)


# _evaluate_tags is a core (the two columns read, checked, paired and aligned: `_TagCore`,
# then `evaluate_tag_pairs`) plus sections, each a pure function of the core: P/R/F1, the
# tiers, the per-feature scores, the intervals, Gwet's coefficient


def _check_tag_options(column: str, hierarchy: Optional[HierarchySpec], plain_as_leaf: bool,
                       tag_syntax: str, per_feature: bool, tiers: Optional[TiersSpec],
                       majority: bool, lexicon: object, coefficient: Optional[str],
                       ac2_weights: Optional[str]) -> Tuple[Any, Any]:
    """The options checked before any file is read: the hierarchy (a stream read once,
    loaded to report its errors first) and the tier spec; InputError ``usage``."""
    if column not in COLUMNS:
        raise InputError.single("<command line>", None, "usage",
                                f"unknown column {column!r}; expected one of "
                                f"{', '.join(COLUMNS)}")
    check_syntax_option(tag_syntax, column)
    check_gwet_options(coefficient, ac2_weights, tag_syntax)
    if per_feature and column != "feats":
        raise InputError.single("<command line>", None, "usage",
                                f"--per-feature splits FEATS: it needs --column feats, "
                                f"not {column}")
    if hierarchy is None:
        hierarchy = default_hierarchy(column)
    hierarchy = hierarchy_input(hierarchy)  # a stream read once: it is loaded twice
    if not isinstance(hierarchy, Hierarchy):
        load_hierarchy(hierarchy, (), plain_as_leaf=plain_as_leaf)  # usage / file errors first
    tier_spec = None if tiers is None else resolve_tiers_spec(tiers, column, COLUMNS)
    if (majority or lexicon is not None) and tier_spec is None:
        raise InputError.single("<command line>", None, "usage",
                                "--majority and --lexicon qualify --tiers, which was not "
                                "given")
    return hierarchy, tier_spec


@dataclass(frozen=True)
class _TagCore:
    """The two files' column, checked; the system paired to gold; the words aligned."""

    gold_name: str
    system_name: str
    gold: List[TagSentence]
    system: List[TagSentence]
    coarse: Optional[List[TagSentence]]  # the gold column of --tiers COLUMN
    pairs: List[Tuple[str, str]]
    warnings: List[Problem]


def _tag_core(gold_path: Source, system_path: Source, column: str, tag_syntax: str,
              per_feature: bool, tier_spec: Any, fmt: str, check_text: bool) -> _TagCore:
    """Read, check, pair by ``# sent_id`` and align the two columns (every problem, with
    file and line, then one error)."""
    log = ProblemLog()
    # streams read once here: the gold may be read again for a tier column
    gold_src, system_src = as_input(gold_path, "<gold>"), as_input(system_path, "<system>")
    gold_name, system_name = input_name(gold_src), input_name(system_src)
    gold = read_tag_column(gold_src, column, log, fmt)
    system = read_tag_column(system_src, column, log, fmt)
    if per_feature:  # malformed FEATS, with file and line (docs/method.md §19.1)
        check_feats(((s.file, ln, t) for s in gold + system for ln, _, t in s.words), log)
    log.raise_if_errors()
    read = TagReader(tag_syntax)  # docs/method.md §15.1: every value checked, with its line
    for side, is_gold in ((gold, True), (system, False)):
        check_values(((s.file, no, tag) for s in side for no, _, tag in s.words), read,
                     column, log, gold=is_gold)
    coarse = (read_tag_column(gold_src, tier_spec, log, fmt) if isinstance(tier_spec, str)
              else None)
    log.raise_if_errors()
    system = pair_by_sent_id(gold, system, log)  # by # sent_id where every sentence has one
    log.raise_if_errors()
    pairs = _align(gold, system, gold_name, system_name, log, check_text)
    log.raise_if_errors()
    return _TagCore(gold_name, system_name, gold, system, coarse, pairs, list(log.warnings))


def _tier_section(core: _TagCore, tier_spec: Any, sibling_credit: float, unmapped: str,
                  column: str, majority: bool, lex: Optional[Lexicon]) -> Any:
    """The tiered scores of the core's words (docs/method.md §16)."""
    return tiers_for_words(tier_spec, _words(core.gold), _words(core.system),
                           None if core.coarse is None else _words(core.coarse),
                           sibling_credit, unmapped, column, majority, lex,
                           [form for s in core.gold for _, form, _ in s.words])


def _gwet_section(core: _TagCore, coefficient: str, ac2_weights: Optional[str], level: float,
                  hierarchy: Any, plain_as_leaf: bool) -> Tuple[Any, str]:
    """Gwet's AC1/AC2 of gold and system as two raters (docs/method.md §34.1), and its
    settings line."""
    kind = ac2_weights or ("identity" if coefficient == "ac1" else "hierarchy")
    h = (load_hierarchy(hierarchy, (t for pair in core.pairs for t in pair), plain_as_leaf)
         if kind == "hierarchy" else None)
    return (gwet_of_labels(core.pairs, kind, level, h, coefficient.upper()),
            f"{coefficient.upper()}, weights {kind}, {100 * level:g}% t interval")


