r"""GATE's span F-measures between two or more annotations (``synagree spans``, docs/method.md §24).

Annotations are labelled spans: the constituents (or the preterminals) of
bracketed trees over token positions, or the words of CoNLL-U files over
character positions with one column as the label.  Each pair of files is
compared as GATE's Annotation Diff compares a key (gold) set with a response
set, and scored strict, lenient and average
(`synagree.stats.gate_prf.annotation_diff`); with a hierarchy and
``bdm=True`` also by GATE's BDM-based counts
(`synagree.stats.gate_prf.bdm_diff`, §23.3).

* **Bracketed trees** are read as ``agree`` reads them (sentences matched by
  ``# sent_id`` or position, one bracket style decided for all files); each
  sentence is a document, its tokens numbered from 0.  Two annotations of a
  sentence must have the same number of tokens (``span-token-mismatch``),
  else token positions would not name the same words.
* **CoNLL-U** files are read as the CoNLL 2018 scorer reads them: the
  whitespace-free text must be the same in every file
  (``text-mismatch``), and each word is the character span of its token in
  that text (the words of a multiword token share its span).  Where the
  files tokenise alike every word has a coextensive partner and lenient
  equals strict; they part where the tokenisation differs.

With more than two files every pair is compared, the earlier file as key;
``overall`` sums the counts over the pairs before the ratios (GATE's micro
summary).  Per label, the counts are those of the label's annotations alone
(GATE's IAA plugin per label).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

from synagree._version import __version__
from synagree.base.frames import Frames
from synagree.base.option_specs import SPECS, check_args
from synagree.base.problems import InputError, Problem, ProblemLog
from synagree.evaluation.conll18 import Treebank, align, read_treebank
from synagree.io.brackets import PhraseSentence
from synagree.io.corpus import from_files
from synagree.io.formats import format_of
from synagree.io.native import native_input
from synagree.io.sources import Buffer, Source, as_inputs, input_name
from synagree.stats.gate_prf import (
    LABEL_MODES,
    BDMCounts,
    DiffCounts,
    SpanAnnotation,
    annotation_diff,
    bdm_diff,
    by_label,
)
from synagree.stats.hierarchy_input import describe_hierarchy, load_hierarchy_noting_added
from synagree.trees.annotation_bdm import tag_closeness
from synagree.trees.constituent_spans import constituent_spans, preterminal_spans
from synagree.trees.hierarchy import Hierarchy

__all__ = ["PHRASE_LAYERS", "CONLLU_LAYERS", "SpanPair", "SpanResult", "span_agreement",
           "compare_documents", "documents_of_trees", "documents_of_treebank"]

#: Span layers of bracketed trees (``--layer``'s first two choices, declared with the
#: options: `synagree.base.option_specs`).
PHRASE_LAYERS: Tuple[str, ...] = SPECS["layer"].choices[:2]
#: Span layers of CoNLL-U files: the column that labels each word (the other choices).
CONLLU_LAYERS: Tuple[str, ...] = SPECS["layer"].choices[2:]

#: One document: its annotations in document order.
Document = List[SpanAnnotation]


@dataclass(frozen=True)
class SpanPair:
    """One key file against one response file.

    Parameters
    ----------
    key, response : str
        Annotator names (the key is read as gold).
    counts : DiffCounts
        GATE's counts over all labels (as ``labels`` says).
    per_label : dict of str to DiffCounts
        Each label's annotations alone, most frequent key label first.
    bdm : BDMCounts, optional
        GATE's BDM-based counts (with a hierarchy and ``bdm=True``).
    """

    key: str
    response: str
    counts: DiffCounts
    per_label: Dict[str, DiffCounts] = field(default_factory=dict)
    bdm: Optional[BDMCounts] = None

    def as_dict(self) -> dict:
        """JSON-ready: the counts and measures, per label too."""
        d = {"key": self.key, "response": self.response, **self.counts.as_dict(),
             "per_label": {k: v.as_dict() for k, v in self.per_label.items()}}
        if self.bdm is not None:
            d["bdm"] = self.bdm.as_dict()
        return d


@dataclass(frozen=True)
class SpanResult(Frames):
    """GATE's span F-measures of every pair of files (docs/method.md §24).

    Parameters
    ----------
    files : list of str
    annotators : list of str
    layer : str
        ``constituents``, ``preterminals`` or a CoNLL-U column.
    offsets : {"tokens", "characters"}
    labels : {"type", "feature", "none"}
    documents : int
        Documents compared (sentences of bracketed trees; 1 for CoNLL-U).
    pairs : list of SpanPair
    hierarchy : str, optional
        The hierarchy of the BDM-based counts.
    notes : list of str
    warnings : list of Problem
    """

    files: List[str]
    annotators: List[str]
    layer: str
    offsets: str
    labels: str
    documents: int
    pairs: List[SpanPair]
    hierarchy: Optional[str] = None
    notes: List[str] = field(default_factory=list)
    warnings: List[Problem] = field(default_factory=list)

    @property
    def overall(self) -> DiffCounts:
        """The counts summed over the pairs."""
        out = DiffCounts()
        for p in self.pairs:
            out = out + p.counts
        return out

    @property
    def overall_bdm(self) -> Optional[BDMCounts]:
        """The BDM-based counts summed over the pairs (None without BDM)."""
        if not self.pairs or self.pairs[0].bdm is None:
            return None
        out = BDMCounts()
        for p in self.pairs:
            assert p.bdm is not None
            out = out + p.bdm
        return out

    def frame_rows(self) -> List[Dict[str, Any]]:
        """One row per pair of files, measure (strict, lenient, average) and metric."""
        rows: List[Dict[str, Any]] = []
        for p in self.pairs:
            for measure in ("strict", "lenient", "average"):
                for metric, value in (("precision", p.counts.precision(measure)),
                                      ("recall", p.counts.recall(measure)),
                                      ("f1", p.counts.f1(measure))):
                    rows.append({"key": p.key, "response": p.response, "measure": measure,
                                 "metric": metric, "value": value})
        return rows

    def settings(self) -> Dict[str, str]:
        """How the numbers were computed, for the signature."""
        out = {"layer": self.layer, "offsets": self.offsets, "labels": self.labels}
        if self.hierarchy is not None:
            out["bdm_hierarchy"] = self.hierarchy
        out["version"] = __version__
        return out

    def signature(self) -> str:
        """`settings` as one line, ``key:value|key:value|...``."""
        return "|".join(f"{k}:{v}" for k, v in self.settings().items())

    def to_dict(self) -> dict:
        """JSON-ready data with stable keys (fractions, not percent)."""
        d = {"synagree_version": __version__, "settings": self.settings(),
             "signature": self.signature(), "files": list(self.files),
             "annotators": list(self.annotators), "layer": self.layer,
             "offsets": self.offsets, "labels": self.labels, "documents": self.documents,
             "overall": self.overall.as_dict(),
             "pairs": [p.as_dict() for p in self.pairs]}
        if self.hierarchy is not None:
            d["hierarchy"] = self.hierarchy
            ob = self.overall_bdm
            if ob is not None:
                d["overall_bdm"] = ob.as_dict()
        d["notes"] = list(self.notes)
        d["warnings"] = [w.as_dict() for w in self.warnings]
        return d


# ---------------------------------------------------------------- documents
def documents_of_trees(sentences: Sequence[Optional[PhraseSentence]], layer: str
                       ) -> List[Optional[Document]]:
    """Each tree's spans as a document (None where the tree is absent).

    Parameters
    ----------
    sentences : sequence of PhraseSentence or None
    layer : {"constituents", "preterminals"}
    """
    spans = constituent_spans if layer == "constituents" else preterminal_spans
    return [None if s is None else [SpanAnnotation(a, b, lab) for lab, a, b in spans(s.root)]
            for s in sentences]


def documents_of_treebank(tb: Treebank, column: str) -> Document:
    """The words of a CoNLL-U file as character spans labelled by one column.

    Parameters
    ----------
    tb : Treebank
    column : {"upos", "xpos", "deprel", "feats", "lemma", "form"}
    """
    return [SpanAnnotation(w.start, w.end, getattr(w, column)) for w in tb.words]


# ---------------------------------------------------------------- comparing
def compare_documents(key_docs: Sequence[Document], resp_docs: Sequence[Document], labels: str,
                      score: Optional[Callable[[str, str], float]]
                      ) -> Tuple[DiffCounts, Dict[str, DiffCounts], Optional[BDMCounts]]:
    """Keys against responses, document by document: GATE's counts summed over the
    documents, per label, and the BDM-based counts when ``score`` is given."""
    counts = DiffCounts()
    per_label: Dict[str, DiffCounts] = {}
    key_count: Dict[str, int] = {}
    bdm = BDMCounts() if score is not None else None
    for keys, resp in zip(key_docs, resp_docs):
        counts = counts + annotation_diff(keys, resp, labels)
        for name, (k, r) in by_label(keys, resp).items():  # (one pass: linear)
            key_count[name] = key_count.get(name, 0) + len(k)
            per_label[name] = per_label.get(name, DiffCounts()) + annotation_diff(k, r, "none")
        if score is not None:
            assert bdm is not None
            bdm = bdm + bdm_diff(keys, resp, score)
    order = sorted(per_label, key=lambda n: (-key_count.get(n, 0), n))
    return counts, {n: per_label[n] for n in order}, bdm


def span_agreement(paths: Sequence[Source], layer: Optional[str] = None,
                   labels: str = "type", hierarchy: Union[str, Path, Hierarchy, None] = None,
                   bdm: bool = False, fmt: str = "auto", phrase_style: str = "auto",
                   names: Optional[Sequence[str]] = None, allow_missing: bool = False,
                   check_text: bool = True) -> SpanResult:
    """GATE's strict, lenient and average P/R/F1 between files (module docstring).

    Parameters
    ----------
    paths : sequence of str, path-like or file-like
        Files, or text or binary streams of them (`synagree.io.sources`:
        ``ann1``, ``ann2``, ... and ``<ann1>`` in messages unless they have a
        real ``.name``).
        Two or more files, all bracketed trees or all CoNLL-U; the first of
        each pair is the key (gold).
    layer : str, optional
        Bracketed trees: ``constituents`` (default) or ``preterminals``;
        CoNLL-U: the column (default ``upos``).
    labels : {"type", "feature", "none"}
        How labels enter (`synagree.stats.gate_prf`).
    hierarchy : str, path-like, Hierarchy or None
        For ``bdm``: ``ud``, ``msd``, ``flat``, a hierarchy file or a
        `Hierarchy` over the labels.
    bdm : bool
        Also GATE's BDM-based counts (needs ``hierarchy``).
    fmt : str
        ``auto`` or a format of the reader registry (`synagree.io.registry`,
        docs/formats.md); ``auto``: each file sniffed.
    phrase_style : {"auto", "delex", "penn"}
    names : sequence of str, optional
        Annotator names (default: the file names).
    allow_missing : bool
        Bracketed trees matched by ``# sent_id``: sentences some files lack
        are left out of those pairs.
    check_text : bool
        Bracketed trees: check each sentence's words (Penn style).

    Raises
    ------
    TypeError, ValueError
        ``layer`` or ``labels`` not one of the choices of ``--layer`` and
        ``--labels`` (`synagree.base.option_specs`).
    InputError
        ``usage`` (fewer than two files, mixed formats, a layer or label mode
        that does not apply, ``bdm`` without ``hierarchy``),
        ``span-token-mismatch``, ``text-mismatch`` and every reading problem.
    """
    check_args("span_agreement(): ", layer=layer, labels=labels)  # as --layer and --labels
    paths = as_inputs(paths)  # streams read once: sniffed, then read
    kind, layer = _check_span_options(paths, layer, labels, bdm, hierarchy, fmt, names)
    core = (_phrase_documents(paths, layer, names, fmt, phrase_style, allow_missing, check_text)
            if kind == "phrase" else _conllu_documents(paths, layer, names, fmt))
    credit = _bdm_section(core, hierarchy) if hierarchy is not None and bdm else None
    return SpanResult([input_name(p) for p in paths], core.annotators, layer, core.offsets,
                      labels, core.documents,
                      _pair_section(core, labels, credit.score if credit else None),
                      credit.description if credit else None,
                      core.notes + (credit.notes if credit else []), core.warnings)


# span_agreement is a core (each annotator's documents, `_SpanCore`) plus sections, each a
# pure function of the core returning its frozen part: the BDM credit, the pairs' counts

@dataclass(frozen=True)
class _SpanCore:
    """Each annotator's documents, and what reading them noted."""

    annotators: List[str]
    docs: Dict[str, List[Optional[Document]]]
    offsets: str  # "tokens" or "characters"
    documents: int
    notes: List[str]
    warnings: List[Problem]


def _check_span_options(paths: Sequence[Any], layer: Optional[str], labels: str, bdm: bool,
                        hierarchy: object, fmt: str, names: Optional[Sequence[str]]
                        ) -> Tuple[str, str]:
    """The input kind (``phrase`` or ``conllu``) and the layer; InputError ``usage``."""
    if len(paths) < 2:
        raise InputError.single("<command line>", None, "usage",
                                "spans compares two or more files")
    if labels not in LABEL_MODES:
        raise InputError.single("<command line>", None, "usage",
                                f"unknown label mode {labels!r}; expected one of "
                                f"{', '.join(LABEL_MODES)}")
    if bdm and hierarchy is None:
        raise InputError.single("<command line>", None, "usage",
                                "--bdm needs --hierarchy ud|msd|flat|FILE")
    kinds = {format_of(fmt, p) for p in paths}
    if len(kinds) != 1:
        raise InputError.single("<command line>", None, "usage",
                                "spans needs all files in one format (bracketed trees or "
                                "CoNLL-U), got both")
    kind = kinds.pop()
    allowed = PHRASE_LAYERS if kind == "phrase" else CONLLU_LAYERS
    layer = layer or allowed[0]
    if layer not in allowed:
        what = "bracketed trees" if kind == "phrase" else "CoNLL-U files"
        raise InputError.single("<command line>", None, "usage",
                                f"layer {layer!r} does not apply to {what}; choose from "
                                f"{', '.join(allowed)}")
    if names is not None and len(names) != len(paths):
        raise InputError.single("<command line>", None, "usage",
                                f"{len(names)} names for {len(paths)} files")
    return kind, layer


def _phrase_documents(paths: Sequence[Any], layer: str, names: Optional[Sequence[str]],
                      fmt: str, phrase_style: str, allow_missing: bool, check_text: bool
                      ) -> _SpanCore:
    """The core of bracketed trees: one document per sentence, offsets in tokens."""
    corpus = from_files(paths, names=names, fmt=fmt, phrase_style=phrase_style,
                        allow_missing=allow_missing, check_text=check_text)
    annotators = list(corpus.annotators)
    per_annotator: Dict[str, List[Optional[PhraseSentence]]] = {
        a: [cast(Optional[PhraseSentence], u.annotations.get(a)) for u in corpus.units]
        for a in annotators}  # a phrase corpus holds PhraseSentence annotations
    docs = {a: documents_of_trees(per_annotator[a], layer) for a in annotators}
    _check_tokens(per_annotator, annotators)
    return _SpanCore(annotators, docs, "tokens", len(corpus.units), list(corpus.notes),
                     list(corpus.log.warnings))


def _conllu_documents(paths: Sequence[Any], layer: str, names: Optional[Sequence[str]],
                      fmt: str) -> _SpanCore:
    """The core of CoNLL-U files: one document per file, offsets in characters of the
    same text."""
    log = ProblemLog()
    tbs: List[Treebank] = []
    for p in paths:
        try:
            tbs.append(read_treebank(native_input(p, fmt)))  # e.g. WebAnno TSV
        except InputError as exc:  # every file's problems, then one error
            log.extend(exc.errors)
    log.raise_if_errors()
    for tb in tbs[1:]:
        align(tbs[0], tb)  # the same text, or a text-mismatch error
    annotators = list(names) if names is not None else [
        f"ann{k + 1}" if isinstance(p, Buffer) and p.real_name is None
        else Path(input_name(p)).name for k, p in enumerate(paths)]
    if len(set(annotators)) != len(annotators):
        annotators = [input_name(p) for p in paths]
    docs: Dict[str, List[Optional[Document]]] = {
        a: [documents_of_treebank(tb, layer)] for a, tb in zip(annotators, tbs)}
    return _SpanCore(annotators, docs, "characters", 1, [], [])


@dataclass(frozen=True)
class _BdmSection:
    """GATE's BDM over a hierarchy of the labels: the closeness, its name, the notes."""

    score: Any
    description: str
    notes: List[str]


def _bdm_section(core: _SpanCore, hierarchy: Any) -> _BdmSection:
    """The BDM closeness of the labels the core holds (a note names those the
    hierarchy lacks)."""
    all_labels = list(dict.fromkeys(s.label for ds in core.docs.values() for d in ds if d
                                    for s in d))
    h, added = load_hierarchy_noting_added(hierarchy, all_labels)
    notes = []
    if added:
        notes.append(f"{len(added)} label(s) are not in the hierarchy (BDM 0 with any "
                     f"other label): " + ", ".join(added[:20])
                     + (" ..." if len(added) > 20 else ""))
    return _BdmSection(tag_closeness(h, "bdm", added), describe_hierarchy(hierarchy), notes)


def _pair_section(core: _SpanCore, labels: str, score: Any) -> List[SpanPair]:
    """Every pair of annotators (the first the key) over the documents both have."""
    pairs: List[SpanPair] = []
    for i, a in enumerate(core.annotators):
        for b in core.annotators[i + 1:]:
            both = [(x, y) for x, y in zip(core.docs[a], core.docs[b])
                    if x is not None and y is not None]
            counts, per_label, bdm_counts = compare_documents(
                [x for x, _ in both], [y for _, y in both], labels, score)
            pairs.append(SpanPair(a, b, counts, per_label, bdm_counts))
    return pairs


def _check_tokens(per_annotator: Dict[str, List[Optional[PhraseSentence]]],
                  annotators: Sequence[str]) -> None:
    """Every sentence has the same number of tokens in every file, else an error each."""
    log = ProblemLog()
    first = annotators[0]
    for other in annotators[1:]:
        for s, t in zip(per_annotator[first], per_annotator[other]):
            if s is None or t is None or s.size == t.size:
                continue
            log.add(t.file, t.line, "span-token-mismatch",
                    f"sentence {t.label_of()} has {t.size} tokens here but {s.size} in "
                    f"{s.file} (line {s.line}); token spans of different tokenisations "
                    f"name different words")
    log.raise_if_errors()
