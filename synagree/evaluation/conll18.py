"""CoNLL 2018 UD shared-task evaluation, with parity to the official scorer.

Written from the definitions of ``conll18_ud_eval.py`` (Straka & Popel,
version 1.2, as shipped in ``udtools`` as ``udeval``).  Conventions:

Reading (one file = one `Treebank`)

* Lines end at ``\\n``, ``\\r\\n`` or ``\\r`` (Python universal newlines).
  A UTF-8 byte-order mark at the start is ignored.
* Comment lines (``#``) are allowed only before the first word line of a
  sentence.  ``# sent_id`` and ``# text`` are kept as sentence metadata but
  play no part in scoring.  A blank line ends a sentence; a sentence without
  words (e.g. a double blank line) and a missing blank line at the end of the
  file are errors, as they are for the scorer.
* Every non-comment line has exactly 10 tab-separated columns; the column
  values are interpreted with `conllu`'s value parsers.  (``conllu``'s
  ``parse_line`` is not used: it also splits at runs of two spaces, which
  would cut a FORM that contains spaces.)
* Empty nodes (``8.1``) are skipped: they are not words.  Their DEPS
  edges, and the edges whose head is an empty node, are left out of ELAS
  and EULAS as the IWPT scorer leaves them out, and counted
  (``Treebank.empty_node_edges``; docs/method.md §20.1).
* DEPS is read as `synagree.io.enhanced_deps.parse_deps` reads it; a
  malformed item is a ``bad-deps`` problem and a head beyond the sentence a
  ``head-out-of-range`` one.
* A *token* is a multiword-token line (``1-2``) or a word line outside a
  multiword token.  Its FORM, with every Unicode ``Zs`` character deleted,
  must not be empty; the tokens' forms concatenated make the file's
  whitespace-free *text*, and each token is the character span it covers.
  Words inside a multiword token share the span of that token.
* Word IDs run 1, 2, ... in each sentence (multiword-token members included);
  HEAD is an integer in 0..n; the HEAD links form a tree: no cycle and
  exactly one word with HEAD 0.
* Every problem of a file is gathered before `InputError` is raised.
  Files the scorer accepts are read as it reads them; this reader is stricter
  only in also checking the IDs of multiword tokens and their member words
  (the scorer trusts them; overlapping ranges are ``multiword-overlap``
  errors) and in requiring IDs and HEADs written as ``conllu`` writes
  integers, in ASCII digits (no ``01``, ``+1``, ``٠``): the checks of
  `synagree.io.conllu_ids`, shared by every reader.  It ignores a
  byte-order mark.  Compressed files (``.gz``, ``.xz``, ``.bz2``) are
  decompressed.
* A `Word` keeps its columns as written (FORM with its spaces, DEPREL
  with its subtype); ``ufeats`` and ``udeprel`` are the compared forms.

Alignment (`align`)

* The two texts must be identical, else `InputError` shows the first
  difference in context (file, line, sentence id, characters around it).
* Tokens and sentences match when their character spans are identical.
* Words: a *multiword span* is a minimal stretch of text that contains a
  multiword token (gold or system) and cuts through no multiword token of
  either file.  Inside it, gold and system words are aligned by a longest
  common subsequence of their lower-cased FORMs (ties: skip the gold word
  first); the FORM of a word that is a token on its own is taken without
  spaces, that of a multiword-token member as written.  Outside multiword
  spans, a gold and a system word align when their spans are identical.
* A system word's HEAD is mapped into gold space through the alignment: the
  gold word its head word is aligned to, ``None`` for the root, or
  `UNALIGNED`.

Metrics (`METRICS`)

* A word metric is a *key* computed on each word of an aligned pair, with
  references to other words first mapped into gold space; the pair is
  correct when the two keys are equal.  The keys are the registry's
  (`synagree.base.metrics.WordCredit`: the tuple of the word fields a score
  compares, read here as the scorer reads them, `FIELD_KEYS`), so `METRICS`
  is a live view of the registry's word scores of ``compare``.  ``Words`` has no key: being aligned
  is the credit.  Content-only metrics (CLAS, MLAS, BLEX) count only words
  whose relation is a content relation (on each side for the totals, on the
  gold word for aligned pairs).
* ELAS and EULAS (`enhanced_score`, docs/method.md §20.2) are edge metrics
  of the IWPT 2020/2021 scorer: totals are the DEPS edges of each file,
  a gold and a system edge of an aligned word pair match when their heads
  are the same word through the alignment (or both the root) and their
  labels are equal (EULAS: the universal part of each step).  Computed
  when the gold file has any DEPS edge (``enhanced=None``).
* Relations are compared without subtypes (``nsubj:pass`` -> ``nsubj``),
  except by ``LAS_full``; features are restricted to the 21 universal
  features of `UNIVERSAL_FEATURES`, sorted.  A gold LEMMA of ``_``
  accepts any system lemma.  MLAS also compares the word's functional
  children (relation in `FUNCTIONAL_DEPRELS`), in order, by head,
  relation, UPOS and universal features.
* A `Score` keeps counts (correct, gold total, system total, aligned
  total); precision = correct/system, recall = correct/gold,
  F1 = 2·correct/(gold+system), aligned accuracy = correct/aligned (0 when
  nothing is aligned; ``None`` for Tokens, Sentences and Words).

Rendering (`render_scorer_table`, `render_counts`) reproduces the
scorer's ``-v`` and ``--counts`` text layouts character for character.
"""
from __future__ import annotations

import bisect
import os
import unicodedata
from dataclasses import dataclass, field
from functools import partial
from operator import attrgetter
from pathlib import Path
from typing import (
    IO,
    Any,
    Callable,
    Dict,
    Hashable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    Tuple,
    Union,
)

import numpy as np

from synagree.base.gc_pause import paused_gc
from synagree.base.metrics import WordCredit, word_credit, word_scores
from synagree.base.problems import (
    SHOWN,
    InputError,
    Problem,
    ProblemLog,
    quote,
    shorten,
)
from synagree.base.ratios import prf_shares
from synagree.io.compression import CorruptCompressedFile, decompress, read_bytes
from synagree.io.conllu import comment_pairs, conllu_lines, has_empty_column, scan_chunks
from synagree.io.conllu_ids import (
    Ranges,
    bad_head_hint,
    bad_id_message,
    parse_head,
    parse_id,
)
from synagree.io.enhanced_deps import NO_DEPS, has_deps, parse_deps
from synagree.io.files import read_problem
from synagree.io.sources import Buffer, is_stream, is_text, stream_name
from synagree.trees.enhanced import edge_matches

__all__ = [
    "CONTENT_DEPRELS", "FUNCTIONAL_DEPRELS", "UNIVERSAL_FEATURES", "UNALIGNED",
    "Word", "Span", "Sentence", "Treebank", "WordPair", "Alignment",
    "Score", "WordMetric", "Conll18Result", "METRICS", "OFFICIAL_METRICS", "FIELD_KEYS",
    "word_metric", "pair_correct",
    "read_treebank", "align", "evaluate", "render_scorer_table", "render_counts",
    "ENHANCED_METRICS", "EnhancedInfo", "enhanced_score",
]

CONTENT_DEPRELS = frozenset({
    "nsubj", "obj", "iobj", "csubj", "ccomp", "xcomp", "obl", "vocative",
    "expl", "dislocated", "advcl", "advmod", "discourse", "nmod", "appos",
    "nummod", "acl", "amod", "conj", "fixed", "flat", "compound", "list",
    "parataxis", "orphan", "goeswith", "reparandum", "root", "dep",
})
FUNCTIONAL_DEPRELS = frozenset({"aux", "cop", "mark", "det", "clf", "case", "cc"})
UNIVERSAL_FEATURES = frozenset({
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender",
    "Animacy", "Number", "Case", "Definite", "Degree", "VerbForm", "Mood",
    "Tense", "Aspect", "Voice", "Evident", "Polarity", "Person", "Polite",
})

#: what :func:`read_treebank` reads: a path, CoNLL-U text (with a newline) or a text or
#: binary stream (compressed or not)
FileSource = Union[str, "os.PathLike[str]", IO[str], IO[bytes], Buffer]
Source = Union[FileSource, "Treebank"]


class _Unaligned:
    """Head of a system word whose head word has no gold counterpart."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNALIGNED"


UNALIGNED = _Unaligned()


# --------------------------------------------------------------------------- data


class Word:
    """One syntactic word of a file, as the scorer sees it.

    Parameters
    ----------
    index : int
        0-based position among the file's words.
    id : int
        The word's ID (1-based within its sentence).
    form, lemma, upos, xpos, feats : str
        The columns as written (FORM with its spaces).
    head : int
        The HEAD column (0 = root).
    deprel : str
        DEPREL as written, with its subtype.
    sent_index : int
        0-based sentence of the word.
    sent_id : str or None
    line : int
        1-based file line.
    start, end : int
        The character span of the word's token in the whitespace-free text.
    is_multiword : bool
        The word is a member of a multiword token.
    deps : str, optional
        DEPS as written (default ``_``).

    Attributes
    ----------
    ufeats : str
        The universal features only, sorted (what UFeats compares).
    udeprel : str
        DEPREL without subtype (what LAS compares).
    is_content, is_functional : bool
        Whether ``udeprel`` is in `CONTENT_DEPRELS` / `FUNCTIONAL_DEPRELS`.
    parent : Word or None
        The head word (None for the root).
    functional_children : sequence of Word
    edeps : sequence of (Word or None, str)
        The enhanced edges into the word (head word, None = root; label),
        edges from empty nodes left out; set when the sentence is read.
    """

    __slots__ = ("index", "id", "form", "lemma", "upos", "xpos", "feats", "head", "deprel",
                 "sent_index", "sent_id", "line", "start", "end", "is_multiword",
                 "ufeats", "udeprel", "is_content", "is_functional", "parent",
                 "functional_children", "deps", "edeps")

    def __init__(self, index: int, id: int, form: str, lemma: str, upos: str, xpos: str,
                 feats: str, head: int, deprel: str, sent_index: int, sent_id: Optional[str],
                 line: int, start: int, end: int, is_multiword: bool, deps: str = "_"):
        self.index, self.id, self.form, self.lemma = index, id, form, lemma
        self.upos, self.xpos, self.feats, self.head, self.deprel = upos, xpos, feats, head, deprel
        self.sent_index, self.sent_id, self.line = sent_index, sent_id, line
        self.start, self.end, self.is_multiword = start, end, is_multiword
        self.ufeats = "|".join(sorted(f for f in feats.split("|")
                                      if f.split("=", 1)[0] in UNIVERSAL_FEATURES))
        self.udeprel = deprel.split(":", 1)[0]
        self.is_content = self.udeprel in CONTENT_DEPRELS
        self.is_functional = self.udeprel in FUNCTIONAL_DEPRELS
        self.parent: Optional[Word] = None
        self.functional_children: Union[Tuple[()], List[Word]] = ()  # a list once there is one
        self.deps = deps
        self.edeps: Sequence[Tuple[Optional[Word], str]] = ()

    def __repr__(self) -> str:
        return (f"Word({self.form!r}, id={self.id}, head={self.head}, deprel={self.deprel!r}, "
                f"sent={self.sent_id or self.sent_index + 1}, line={self.line})")


@dataclass(frozen=True)
class Span:
    r"""A token (or sentence) as a character span [start, end) of the text.

    Parameters
    ----------
    start, end : int
        Character offsets in the whitespace-free text.
    line : int
        1-based file line.
    sent_index : int
        0-based sentence.
    """

    start: int
    end: int
    line: int
    sent_index: int


@dataclass
class Sentence:
    r"""One sentence of a `Treebank`.

    Parameters
    ----------
    index : int
        0-based position in the file.
    sent_id, text : str or None
        ``# sent_id`` and ``# text`` (no part in scoring).
    line : int
        First line of the sentence block (comments included).
    start, end : int
        Character span in the whitespace-free text.
    words : slice
        Its words in `Treebank.words`.
    """
    index: int  # 0-based position in the file
    sent_id: Optional[str]
    text: Optional[str]
    line: int  # first line of the sentence block (comments included)
    start: int  # character span in the whitespace-free text
    end: int
    words: slice  # into Treebank.words

    @property
    def label(self) -> str:
        """The sentence id, or ``#n`` (1-based position) when it has none."""
        return self.sent_id if self.sent_id is not None else f"#{self.index + 1}"


@dataclass
class Treebank:
    r"""A CoNLL-U file as the scorer sees it.

    Parameters
    ----------
    name : str
        The file name (or ``<text>``, ``<gold>``, ...).
    text : str
        Whitespace-free concatenation of the token forms.
    tokens : list of Span
    sentences : list of Sentence
    words : list of Word
    empty_node_edges : int, optional
        DEPS edges into or out of empty nodes (left out of ELAS/EULAS).
    """

    name: str
    text: str  # whitespace-free concatenation of token forms
    tokens: List[Span]
    sentences: List[Sentence]
    words: List[Word]
    empty_node_edges: int = 0  # DEPS edges into or out of empty nodes

    @property
    def has_enhanced(self) -> bool:
        """Does any word have DEPS edges (a DEPS column that is not all ``_``)?"""
        return any(has_deps(w.deps) for w in self.words)

    @property
    def enhanced_edges(self) -> int:
        """DEPS edges between words (and from the root): what ELAS counts."""
        return sum(len(w.edeps) for w in self.words)


# --------------------------------------------------------------------------- reading


def _strip_spaces(form: str) -> str:
    """Delete Unicode ``Zs`` characters (the scorer's whitespace)."""
    if form.isascii():
        return form.replace(" ", "")
    return "".join(c for c in form if unicodedata.category(c) != "Zs")


def _read_text(source: FileSource, name: Optional[str]) -> Tuple[str, str]:
    """Return (name, text) for a path, literal CoNLL-U text or a text or binary stream."""
    if is_stream(source) or isinstance(source, Buffer):
        buffer = source if isinstance(source, Buffer) else \
            Buffer.read(source, name or "<stream>")  # type: ignore[arg-type]
        label = name or buffer.name
        if buffer.data is None:
            raise InputError.single(label, None, "unreadable",
                                    f"cannot read the stream: {buffer.error}")
        if isinstance(buffer.data, str):
            return label, buffer.data
        raw: bytes = buffer.data
    elif isinstance(source, str) and is_text(source):
        return name or "<text>", source
    else:
        raw, label = b"", name or str(source)
    try:
        # .gz, .xz, .bz2 decompressed (a stream's by its first bytes only)
        data = read_bytes(Path(source)) if isinstance(source, (str, os.PathLike)) \
            else decompress(raw, name=label)  # (a stream's or a Buffer's bytes)
    except (CorruptCompressedFile, OSError) as e:  # the kinds of io.files.read_text
        raise InputError.single(label, None, *read_problem(e)) from None
    try:
        return label, data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputError.single(label, line, "encoding",
                                f"not valid UTF-8 (byte {e.start}: {e.reason})") from None


class _SentenceBuilder:
    """Words of the sentence being read, checked as a tree when it ends."""

    def __init__(self, index: int, line: int, start: int, first_word: int):
        self.index, self.line, self.start, self.first_word = index, line, start, first_word
        self.sent_id: Optional[str] = None
        self.text: Optional[str] = None
        self.started = False  # a word/token line has been seen
        self.next_id = 1
        self.ranges = Ranges()  # multiword-token ranges, checked as every reader does


def read_treebank(source: FileSource, name: Optional[str] = None) -> Treebank:
    r"""Read a CoNLL-U file as the CoNLL 2018 scorer reads it (docs/method.md §11.1).

    Deliberately not the package's CoNLL-U reader, `synagree.io.conllu.read_conllu`
    (behind `synagree.read` and every other command), which reads the basic tree
    of each sentence into a `synagree.io.conllu.DepSentence` and reads past
    multiword tokens and empty nodes.  Scoring against a gold file with another
    tokenisation needs what that reader leaves out, read the scorer's way: the
    tokens with their character spans in the whitespace-free text, the
    multiword tokens, DEPS and the edges into empty nodes, and the scorer's
    refusals (one root per sentence, no empty sentence, the final blank line).

    A file is read from the records of the package's CoNLL-U scan,
    `synagree.io.conllu.scan_chunks` (the C scan behind `synagree.read`):
    lines, sentence blocks, the ten columns, the comments' metadata.  The
    scorer's strictness is a **mode** of reading those records: every check
    listed in the module docstring is made on them (a comment after a word
    line, two blank lines in a row, no final blank line, one root, no cycle,
    ...), where the package's readers are lenient.  Whatever that mode does
    not read as plainly valid (any problem, a lone ``\r``, an empty column,
    a whitespace-only line, ...) is read line by line, by the records of
    `synagree.io.conllu.conllu_lines` in its scorer mode (``scorer=True``: a
    lone ``\r`` ends a line, only an empty line is blank), which reports
    every problem with the same messages and exit status as always; the two
    give the same `Treebank` on every file the first reads
    (tests/test_conll18_fastpath.py).  Files of the other
    registered formats (`synagree.io.registry`) reach it as CoNLL-U written
    from their reader's sentences (`synagree.io.native`).

    Parameters
    ----------
    source : str, path-like or file-like
        A path, CoNLL-U text (any string containing a newline) or a text or
        binary stream (read to its end).  Compressed files and streams are
        decompressed.
    name : str, optional
        The name used in messages; default: the path, the stream's name, or
        ``<text>``.

    Raises
    ------
    InputError
        Every problem of the file: column count, IDs, HEAD out of range, head
        cycles, not exactly one root, empty sentences, a missing final blank
        line, ...
    """
    name, content = _read_text(source, name)
    fast = _scanned_treebank(name, content)
    if fast is not None:
        return fast
    lines = list(conllu_lines(content, scorer=True))  # the scorer's line reading

    log = ProblemLog()
    chars: List[str] = []
    tokens: List[Span] = []
    words: List[Word] = []
    sentences: List[Sentence] = []
    position = 0  # characters so far
    sent: Optional[_SentenceBuilder] = None
    mwt_left = 0  # members still expected for the current multiword token
    mwt_line = 0
    bad_sentence = False
    empty_edges = [0]  # DEPS edges into or out of empty nodes

    def problem(line_no: int, kind: str, message: str) -> None:
        nonlocal bad_sentence
        bad_sentence = True
        log.add(name, line_no, kind, message, sent_id=sent.sent_id if sent else None)

    for line_no, line in lines:
        if sent is None:
            sent = _SentenceBuilder(len(sentences), line_no, position, len(words))
            bad_sentence = False
        if not line:  # ---- end of sentence
            if mwt_left:
                problem(mwt_line, "unfinished-multiword-token",
                        f"multiword token is missing {mwt_left} word line(s) before the "
                        f"blank line {line_no}")
                mwt_left = 0
            if not sent.started:
                problem(line_no, "empty-sentence",
                        "sentence without words (a blank line must follow a sentence; "
                        "double blank line?)")
            else:
                if not bad_sentence:
                    _link_tree(words[sent.first_word:], name, line_no, sent, log)
                    empty_edges[0] += _link_deps(words[sent.first_word:], name, sent, log)
                sentences.append(Sentence(sent.index, sent.sent_id, sent.text, sent.line,
                                          sent.start, position,
                                          slice(sent.first_word, len(words))))
            sent = None
            continue
        if line.startswith("#") and not sent.started:
            _read_comment(line, sent)
            continue
        if line.startswith("#"):
            problem(line_no, "comment-inside-sentence",
                    "comment line after the first word line of a sentence")
            continue

        sent.started = True
        cols = line.split("\t")
        if len(cols) != 10:
            _column_count(line, line_no, cols, sent, problem)
            continue
        wid = parse_id(cols[0])
        if wid is None:
            problem(line_no, "bad-id", bad_id_message(cols[0]))
            continue
        if wid.is_empty_node:  # not a word; its DEPS edges are counted, then left out
            try:
                empty_edges[0] += len(parse_deps(cols[8]))
            except ValueError as e:
                problem(line_no, "bad-deps", str(e))
            continue
        if mwt_left:  # ---- member word of a multiword token
            if wid.is_range:
                if wid.first > sent.ranges.end:  # (an overlap is reported below)
                    problem(line_no, "unfinished-multiword-token",
                            f"multiword token at line {mwt_line} is missing {mwt_left} word "
                            f"line(s)")
                mwt_left = 0
            else:
                _add_word(words, cols, wid, line_no, sent, tokens[-1], True, problem)
                mwt_left -= 1
                continue

        form = _strip_spaces(cols[1])
        if not form:  # reported; the word is still read so that IDs stay in step
            problem(line_no, "empty-form", "empty FORM (after deleting spaces)")
        token = Span(position, position + len(form), line_no, sent.index)
        chars.append(form)
        tokens.append(token)
        position = token.end
        if wid.is_range:  # ---- multiword token line
            first, _, last = wid
            trouble = sent.ranges.check(wid, sent.next_id)
            if trouble is not None:
                problem(line_no, *trouble)
            mwt_left, mwt_line = last - first + 1, line_no
        else:
            _add_word(words, cols, wid, line_no, sent, token, False, problem)

    if sent is not None and sent.started:  # (trailing comment lines are harmless)
        if mwt_left:
            problem(mwt_line, "unfinished-multiword-token",
                    f"file ends inside the multiword token of line {mwt_line}")
        problem(len(lines), "no-final-blank-line",
                "the file does not end with a blank line after the last sentence")
    log.raise_if_errors()
    return Treebank(name, "".join(chars), tokens, sentences, words, empty_edges[0])


# --------------------------------------------------------------------------- the fast path
#
# A file the scorer accepts is read from the records of the package's CoNLL-U
# scan (`synagree.io.conllu.scan_chunks`: the C scan behind `synagree.read`),
# with every check of the line-by-line reader above made on them; the first
# thing that is not plainly valid (any problem, or anything unusual: a lone
# ``\r``, an empty column, a whitespace-only line, a comment after a word line,
# two blank lines in a row, no final blank line, an ID the scan does not read as
# a plain number and that is neither a multiword range nor an empty node, a HEAD
# out of range, a cycle, not one root, a malformed DEPS) sends the whole file to
# the line-by-line reader, which reports it as it always did.  So the problems,
# their order and their messages are that reader's by construction, and a file
# read by the fast path gives the same `Treebank` (tests/test_conll18.py checks
# both paths on the same files).


class _Bail(Exception):
    """The fast path met something it leaves to the line-by-line reader."""


class _Derived:
    """What `Word` derives from its FEATS and DEPREL, once per distinct value."""

    def __init__(self) -> None:
        self.ufeats: Dict[str, str] = {}
        self.rel: Dict[str, Tuple[str, bool, bool]] = {}
        self.bare: Dict[str, str] = {}  # FORM without Zs characters

    def feats(self, feats: str) -> str:
        u = self.ufeats.get(feats)
        if u is None:
            u = self.ufeats[feats] = "|".join(sorted(
                f for f in feats.split("|") if f.split("=", 1)[0] in UNIVERSAL_FEATURES))
        return u

    def relation(self, deprel: str) -> Tuple[str, bool, bool]:
        r = self.rel.get(deprel)
        if r is None:
            u = deprel.split(":", 1)[0]
            r = self.rel[deprel] = (u, u in CONTENT_DEPRELS, u in FUNCTIONAL_DEPRELS)
        return r

    def form(self, form: str) -> str:
        b = self.bare.get(form)
        if b is None:
            b = self.bare[form] = _strip_spaces(form)
        return b


def _scanner_text(content: str) -> Optional[str]:
    """The text as the scan should see it, or None when the fast path cannot read it
    as the scorer does (a lone ``\r``, an empty column)."""
    text = content[1:] if content.startswith("\ufeff") else content
    if "\r" in text:
        if text.count("\r") != text.count("\r\n"):
            return None  # a lone \r ends a line for the scorer, not for the scan
        text = text.replace("\r\n", "\n")
    if has_empty_column(text):
        return None  # an empty column: the scan reads it as "_", the scorer as ""
    return text


class _FastReader:
    """The fast path's state over one file (see the comment above)."""

    def __init__(self, name: str):
        self.name = name
        self.derived = _Derived()
        self.chars: List[str] = []
        self.tokens: List[Span] = []
        self.words: List[Word] = []
        self.sentences: List[Sentence] = []
        self.heads: List[int] = []
        self.with_deps: List[int] = []  # sentences with a DEPS value
        self.position = 0
        self.empty_edges = 0
        self.next_line = 0  # the 0-based line where the next block must start

    def chunk(self, scan: Any, base: int) -> None:
        """Every block of one scanned chunk, as sentences."""
        rows, ids, heads = scan.rows.tolist(), scan.ids.tolist(), scan.heads.tolist()
        fine = scan.fine.tolist()
        r = 0
        for b, (start, end) in enumerate(zip(scan.starts, scan.ends)):
            if base + start != self.next_line or not fine[b]:
                raise _Bail  # two blank lines, a whitespace-only or broken line
            self.next_line = base + end + 1
            ra = r
            r = bisect.bisect_left(rows, end, r)  # the block's rows (rows are ascending)
            n_comments = len(scan.comments[b])
            if r == ra or rows[ra] != start + n_comments:
                raise _Bail  # no word line, or a comment after one
            meta = scan.metadata[b]
            self.block(scan, base, start, range(ra, r), rows, ids, heads,
                       meta.get("sent_id"), meta.get("text"))

    def block(self, scan: Any, base: int, start: int, span: range, rows: List[int],
              ids: List[int], heads: List[int], sent_id: Optional[str],
              text: Optional[str]) -> None:
        """One sentence: its tokens and words (as `read_treebank` reads them).

        The per-word work of a file (issue 36: reading is a tenth of ``compare``):
        a plain word (the common case) is made here, its token and `Word` inline,
        the derived fields looked up in `_Derived`'s caches (the `Span` set field by
        field: filling its ``__dict__`` at once is faster but makes every token's dict
        larger, 5 MB more on EWT test); a multiword range or
        an empty node goes through `token` and the checks as before."""
        forms, lemmas, upos, xpos, feats, deprels, deps, _ = scan.columns
        d = self.derived
        bare, ufeats_of, rel_of = d.bare, d.ufeats, d.rel
        words, heads_out, chars, tokens = self.words, self.heads, self.chars, self.tokens
        k = len(self.sentences)
        index = first_word = len(words)
        sent_start = position = self.position  # `position`: where the next token starts
        next_id, mwt_left = 1, 0
        ranges: Optional[Ranges] = None
        token: Optional[Span] = None
        t_start = t_end = 0  # the current token's span
        has_deps_here = False
        lo, hi = span.start, span.stop
        for wid, row, head, form, lemma, up, xp, f, rel, dep in zip(
                ids[lo:hi], rows[lo:hi], heads[lo:hi], forms[lo:hi], lemmas[lo:hi],
                upos[lo:hi], xpos[lo:hi], feats[lo:hi], deprels[lo:hi], deps[lo:hi]):
            line = base + row + 1
            if wid == 0:  # a multiword range, an empty node, or something to report
                cid = scan.line_id(row)
                if cid is None or cid.is_word or mwt_left:
                    raise _Bail
                if cid.is_empty_node:
                    self.empty_edges += len(parse_deps(dep))  # ValueError: bail
                    continue
                token = self.token(d.form(form), position, line, k)
                t_start = position
                t_end = position = token.end
                if ranges is None:
                    ranges = Ranges()
                if ranges.check(cid, next_id) is not None:
                    raise _Bail
                mwt_left = cid.second - cid.first + 1
                continue
            member = mwt_left > 0
            if member:
                mwt_left -= 1
            else:  # the word's own token (`token`, inline)
                b = bare.get(form)
                if b is None:
                    b = d.form(form)
                if not b:
                    raise _Bail  # an empty FORM
                t_start = position
                t_end = position = t_start + len(b)
                token = _new_span(Span)  # `Span(...)` without its __init__'s call
                _set(token, "start", t_start)
                _set(token, "end", t_end)
                _set(token, "line", line)
                _set(token, "sent_index", k)
                chars.append(b)
                tokens.append(token)
            if wid != next_id or head < 0:
                raise _Bail
            next_id = wid + 1
            assert token is not None
            if dep not in NO_DEPS:  # `has_deps`, inline
                has_deps_here = True
            u = ufeats_of.get(f)
            if u is None:
                u = d.feats(f)
            derived = rel_of.get(rel)
            if derived is None:
                derived = d.relation(rel)
            w = _new_word(Word)  # `Word.__init__`'s fields, from the caches
            w.index, w.id, w.form, w.lemma = index, wid, form, lemma
            w.upos, w.xpos, w.feats, w.head, w.deprel = up, xp, f, head, rel
            w.sent_index, w.sent_id, w.line = k, sent_id, line
            w.start, w.end, w.is_multiword = t_start, t_end, member
            w.ufeats = u
            w.udeprel, w.is_content, w.is_functional = derived
            w.parent, w.functional_children, w.deps, w.edeps = None, (), dep, ()
            words.append(w)
            heads_out.append(head)
            index += 1
        self.position = position
        if mwt_left:
            raise _Bail
        if has_deps_here:
            self.with_deps.append(k)
        self.sentences.append(Sentence(k, sent_id, text, base + start + 1, sent_start,
                                       self.position, slice(first_word, len(words))))

    def token(self, form: str, start: int, line: int, k: int) -> Span:
        """A multiword range's token, its text from character ``start`` (a plain
        word's is made inline in `block`)."""
        if not form:
            raise _Bail  # an empty FORM
        token = Span(start, start + len(form), line, k)
        self.chars.append(form)
        self.tokens.append(token)
        return token

    def link(self) -> None:
        """Parents and functional children, after checking every sentence's tree
        (HEADs in range, one root, no cycle) at once."""
        words = self.words
        n = len(words)
        bounds = np.array([s.words.start for s in self.sentences] + [n], np.int64)
        size = np.diff(bounds)
        first = np.repeat(bounds[:-1], size)
        heads = np.array(self.heads, np.int64)
        if n == 0 or (heads > np.repeat(size, size)).any():
            raise _Bail
        if (np.bincount(np.repeat(np.arange(len(size)), size)[heads == 0],
                        minlength=len(size)) != 1).any():
            raise _Bail  # not exactly one root
        up = np.where(heads > 0, first + heads - 1, n)
        up = np.append(up, n)
        for _ in range(int(size.max()).bit_length()):  # 2^k > n steps up end at the root
            up = up[up]
        if (up[:n] != n).any():
            raise _Bail  # a cycle
        parent = np.where(heads > 0, first + heads - 1, -1).tolist()
        for w, p in zip(words, parent):
            if p >= 0:
                w.parent = pw = words[p]
                if w.is_functional:
                    if pw.functional_children:
                        pw.functional_children.append(w)  # type: ignore[union-attr]
                    else:
                        pw.functional_children = [w]
        log = ProblemLog()
        for k in self.with_deps:
            sent = self.sentences[k]
            builder = _SentenceBuilder(k, sent.line, sent.start, sent.words.start)
            self.empty_edges += _link_deps(words[sent.words], self.name, builder, log)
        if log.problems:
            raise _Bail  # a DEPS head beyond its sentence


_new_word = _new_span = object.__new__
_set = object.__setattr__  # (a frozen dataclass's fields, as its __init__ sets them)


def _scanned_treebank(name: str, content: str) -> Optional[Treebank]:
    """The `Treebank` of a file read from the package's scan (the fast path above), or
    None when the file needs the line-by-line reader."""
    text = _scanner_text(content)
    if text is None or not text:
        return None
    reader = _FastReader(name)
    try:
        last = 0
        with paused_gc():
            for scan, base in scan_chunks(text, ProblemLog()):
                reader.chunk(scan, base)
                last = base + scan.n_lines
            reader.link()
    except (_Bail, ValueError):  # (ValueError: a malformed DEPS)
        return None
    if reader.next_line != last - 1:  # the last sentence ends in one blank line, then the file
        return None
    return Treebank(name, "".join(reader.chars), reader.tokens, reader.sentences,
                    reader.words, reader.empty_edges)


def _read_comment(line: str, sent: _SentenceBuilder) -> None:
    """A comment line before a sentence's words: ``sent_id`` and ``text`` are kept.

    Its pairs are read as the package's scan reads them for the fast path
    (`synagree.io.conllu.comment_pairs`: ``conllu.parser.parse_comment_line``'s
    reading, tests/test_fast_paths.py; the conllu package is not imported at run
    time, issue 36: start-up)."""
    for key, value in comment_pairs(line):
        if key == "sent_id":
            sent.sent_id = value
        elif key == "text":
            sent.text = value


def _column_count(line: str, line_no: int, cols: List[str], sent: _SentenceBuilder,
                  problem: Callable[[int, str, str], None]) -> None:
    """A line without 10 columns: the problem, and the word counted on (one slip, one
    problem)."""
    hint = " (columns must be separated by tabs)" if len(cols) == 1 else ""
    problem(line_no, "column-count",
            f"expected 10 tab-separated columns, found {len(cols)}{hint}: {quote(line, 60)}")
    wid = parse_id(cols[0])
    if wid is not None and wid.is_word:
        sent.next_id = wid.first + 1


def _add_word(words: List[Word], cols: List[str], wid, line_no: int, sent: _SentenceBuilder,
              token: Span, is_multiword: bool, problem) -> None:
    if not wid.is_word:
        problem(line_no, "bad-id", f"word ID {quote(cols[0])} where {sent.next_id} was expected")
        return
    wid = wid.first
    if wid != sent.next_id:  # reported; resynchronise so that one slip is one problem
        problem(line_no, "bad-id", f"word ID {quote(cols[0])} where {sent.next_id} was expected")
    head = parse_head(cols[6])
    if head is None or head < 0:
        problem(line_no, "bad-head", f"HEAD {quote(cols[6])} is not a non-negative integer"
                + bad_head_hint(cols[6]))
        head = 0
    sent.next_id = wid + 1
    word = Word(len(words), wid, cols[1], cols[2], cols[3], cols[4], cols[5], head,
                cols[7], sent.index, sent.sent_id, line_no, token.start, token.end,
                is_multiword, cols[8])
    if has_deps(cols[8]):
        try:
            parse_deps(cols[8])
        except ValueError as e:
            problem(line_no, "bad-deps", str(e))
    words.append(word)


def _link_deps(sent_words: Sequence[Word], name: str, sent: _SentenceBuilder,
               log: ProblemLog) -> int:
    """Set every word's ``edeps``; the number of edges from empty nodes (left out)."""
    n = len(sent_words)
    from_empty = 0
    for w in sent_words:
        if not has_deps(w.deps):
            continue
        edges: List[Tuple[Optional[Word], str]] = []
        for hid, label in parse_deps(w.deps):  # (checked when the word was read)
            if hid.is_empty_node:
                from_empty += 1
            elif hid.first > n:
                log.add(name, w.line, "head-out-of-range",
                        f"DEPS head {hid.first} points outside the sentence of {n} words",
                        sent_id=sent.sent_id)
            else:
                edges.append((sent_words[hid.first - 1] if hid.first else None, label))
        w.edeps = edges
    return from_empty


def _link_tree(sent_words: Sequence[Word], name: str, end_line: int,
               sent: _SentenceBuilder, log: ProblemLog) -> None:
    """Set parents and functional children; check range, cycles and the single root."""
    n = len(sent_words)
    ok = True
    for w in sent_words:
        if w.head > n:
            log.add(name, w.line, "head-out-of-range",
                    f"HEAD {w.head} points outside the sentence of {n} words", sent_id=sent.sent_id)
            ok = False
    if not ok:
        return
    for w in sent_words:
        w.parent = sent_words[w.head - 1] if w.head else None
    roots = [w for w in sent_words if w.parent is None]
    if len(roots) != 1:
        where = roots[1].line if roots else end_line
        log.add(name, where, "root-count",
                f"a sentence needs exactly one word with HEAD 0, this one has {len(roots)}",
                sent_id=sent.sent_id)
    # Words not reachable from the root lie on (or hang from) a cycle.
    state: Dict[int, bool] = {}  # id(word) -> True when known to reach the root
    for w in sent_words:
        path: List[Word] = []
        seen: Set[int] = set()
        node: Optional[Word] = w
        while node is not None and id(node) not in state and id(node) not in seen:
            seen.add(id(node))
            path.append(node)
            node = node.parent
        reaches = node is None or state.get(id(node), False)
        if node is not None and id(node) in seen:
            reaches = False
            log.add(name, node.line, "cycle",
                    f"word {node.id} ({quote(node.form)}) is on a HEAD cycle", sent_id=sent.sent_id)
        for p in path:
            state[id(p)] = reaches
    for w in sent_words:
        if w.parent is not None and w.is_functional:
            if w.parent.functional_children:
                w.parent.functional_children.append(w)
            else:
                w.parent.functional_children = [w]


# --------------------------------------------------------------------------- alignment


class WordPair:
    r"""An aligned gold/system word pair, heads mapped into gold space.

    Parameters
    ----------
    gold, system : Word
    gold_head : Word or None
        The gold word's head word (None = root).
    system_head : Word, None or UNALIGNED
        The gold word the system word's head is aligned to (None = root,
        `UNALIGNED` when that head word is not aligned).
    """

    __slots__ = ("gold", "system", "gold_head", "system_head")

    def __init__(self, gold: Word, system: Word, gold_head, system_head):
        self.gold, self.system = gold, system
        self.gold_head, self.system_head = gold_head, system_head

    def __repr__(self) -> str:
        return f"WordPair(gold={self.gold!r}, system={self.system!r})"


class Alignment(Sequence[WordPair]):
    r"""The aligned word pairs of two treebanks, in text order.

    A sequence of `WordPair`; ``gold`` and ``system`` are the treebanks.

    Parameters
    ----------
    gold, system : Treebank
    matches : list of (Word, Word)
        Aligned (gold word, system word) pairs.
    """

    def __init__(self, gold: Treebank, system: Treebank, matches: List[Tuple[Word, Word]]):
        self.gold, self.system = gold, system
        to_gold: List[object] = [UNALIGNED] * len(system.words)
        for g, s in matches:
            to_gold[s.index] = g
        self._to_gold = to_gold
        self.pairs = [WordPair(g, s, g.parent, self.to_gold(s.parent)) for g, s in matches]
        self._equal: Dict[str, "np.ndarray"] = {}

    def to_gold(self, word: Optional[Word]):
        """Map a system word into gold space: its gold word or `UNALIGNED` (None stays None)."""
        return None if word is None else self._to_gold[word.index]

    def field_equal(self, name: str) -> "np.ndarray":
        """Per aligned pair (bool array): is the `FIELD_KEYS` field ``name`` the same on
        both words, references mapped into gold space?  Computed once per field."""
        eq = self._equal.get(name)
        if eq is None:
            eq = self._equal[name] = np.array(_field_flags(name, self.pairs, self.to_gold),
                                              dtype=bool)
        return eq

    def __getitem__(self, i):
        return self.pairs[i]

    def __len__(self) -> int:
        return len(self.pairs)

    def __iter__(self) -> Iterator[WordPair]:
        return iter(self.pairs)


def _lcs_form(w: Word) -> str:
    """A token's own word by its space-free form, an MWT member as written."""
    return (w.form if w.is_multiword else _strip_spaces(w.form)).lower()


def _lcs_pairs(gold: Sequence[Word], system: Sequence[Word]) -> List[Tuple[Word, Word]]:
    """Pairs of a longest common subsequence of lower-cased forms."""
    gf = [_lcs_form(w) for w in gold]
    sf = [_lcs_form(w) for w in system]
    n, m = len(gf), len(sf)
    # table[i][j] = LCS length of gf[i:] and sf[j:]
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(m - 1, -1, -1):
            if gf[i] == sf[j]:
                row[j] = below[j + 1] + 1
            else:
                row[j] = max(below[j], row[j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if gf[i] == sf[j]:
            pairs.append((gold[i], system[j]))
            i += 1
            j += 1
        elif table[i][j] == table[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def _past_span(words: Sequence[Word], i: int, end: int) -> bool:
    """Is ``words[i]`` outside a multiword span ending at ``end``?"""
    if i >= len(words):
        return True
    w = words[i]
    return w.start >= end if w.is_multiword else w.end > end


def _multiword_span(gold: Sequence[Word], system: Sequence[Word], gi: int, si: int
                    ) -> Tuple[int, int, int, int]:
    """(gs, ss, ge, se): the multiword span starting at (gi, si) holds the words
    gold[gs:ge] and system[ss:se].

    A plain word of the other file that starts before the multiword token
    opening the span (it overlaps its start) stays out of the span, as in the
    scorer; the span then grows, in text order, until no multiword token of
    either file sticks out of it.
    """
    if gold[gi].is_multiword:
        end = gold[gi].end
        if not system[si].is_multiword and system[si].start < gold[gi].start:
            si += 1
    else:
        end = system[si].end
        if not gold[gi].is_multiword and gold[gi].start < system[si].start:
            gi += 1
    gs, ss = gi, si
    while not _past_span(gold, gi, end) or not _past_span(system, si, end):
        take_gold = gi < len(gold) and (si >= len(system) or gold[gi].start <= system[si].start)
        w = gold[gi] if take_gold else system[si]
        if w.is_multiword and w.end > end:
            end = w.end
        if take_gold:
            gi += 1
        else:
            si += 1
    return gs, ss, gi, si


def _match_words(gold: Sequence[Word], system: Sequence[Word]) -> List[Tuple[Word, Word]]:
    matches: List[Tuple[Word, Word]] = []
    gi = si = 0
    while gi < len(gold) and si < len(system):
        g, s = gold[gi], system[si]
        if g.is_multiword or s.is_multiword:
            gs, ss, gi, si = _multiword_span(gold, system, gi, si)
            if gi > gs and si > ss:
                matches.extend(_lcs_pairs(gold[gs:gi], system[ss:si]))
        elif g.start == s.start and g.end == s.end:
            matches.append((g, s))
            gi += 1
            si += 1
        elif g.start <= s.start:
            gi += 1
        else:
            si += 1
    return matches


def _text_mismatch(gold: Treebank, system: Treebank) -> InputError:
    """The error for differing texts: one problem per file, each in context."""
    a, b = gold.text, system.text
    n = min(len(a), len(b))
    i, step = 0, 4096
    while i < n and a[i:i + step] == b[i:i + step]:
        i += step
    while i < n and a[i] == b[i]:
        i += 1

    def context(tb: Treebank) -> Tuple[Optional[int], Optional[str], str]:
        """(line, sentence label, tokens around character i with it bracketed)."""
        if not tb.tokens:
            return None, None, "[<empty file>]"
        k = max(bisect.bisect_right([t.start for t in tb.tokens], i) - 1, 0)
        tok = tb.tokens[k]
        form = tb.text[tok.start:tok.end]
        at = i - tok.start
        here = (f"{form[max(0, at - SHOWN):at]}[{form[at]}]{shorten(form[at + 1:])}"
                if at < len(form) else f"{shorten(form)}[<end of text>]")
        before = [shorten(tb.text[t.start:t.end]) for t in tb.tokens[max(0, k - 6):k]]
        after = [shorten(tb.text[t.start:t.end]) for t in tb.tokens[k + 1:k + 4]]
        shown = " ".join(before + [here] + after)
        label = tb.sentences[tok.sent_index].label if tok.sent_index < len(tb.sentences) else None
        return tok.line, label, shown

    sides = [(gold, "gold", *context(gold)), (system, "system", *context(system))]
    problems = []
    for (tb, role, line, label, shown), (other, orole, oline, olabel, oshown) in (
            (sides[0], sides[1]), (sides[1], sides[0])):
        msg = (f"the text (tokens concatenated, spaces removed) differs from the {orole} file "
               f"{other.name} from character {i} on: here (line {line}, sentence {label}) "
               f"'{shown}', there (line {oline}, sentence {olabel}) '{oshown}'")
        problems.append(Problem(tb.name, line, "text-mismatch", msg, sent_id=label))
    return InputError(problems)


def _as_treebank(source: Source, default_name: str) -> Treebank:
    if isinstance(source, Treebank):
        return source
    text = isinstance(source, str) and is_text(source)
    name = default_name if text or (is_stream(source) and stream_name(source) is None) \
        else None
    return read_treebank(source, name)


def align(gold: Source, system: Source) -> Alignment:
    r"""Align the words of two CoNLL-U files (paths, texts or treebanks).

    docs/method.md §11.1: the two whitespace-free texts must be identical;
    words outside multiword spans align by identical character spans, inside
    them by a longest common subsequence of lower-cased forms.

    Parameters
    ----------
    gold, system : str, path-like, text stream or Treebank
        See `read_treebank`.

    Raises
    ------
    InputError
        Malformed files, or differing texts (one problem per file, showing
        the first difference in context).
    """
    gold_tb = _as_treebank(gold, "<gold>")
    system_tb = _as_treebank(system, "<system>")
    if gold_tb.text != system_tb.text:
        raise _text_mismatch(gold_tb, system_tb)
    return Alignment(gold_tb, system_tb, _match_words(gold_tb.words, system_tb.words))


# --------------------------------------------------------------------------- scores


@dataclass(frozen=True)
class Score:
    """Counts of one metric; rates are derived (fractions, not percent).

    precision = correct/system, recall = correct/gold,
    F1 = 2·correct/(gold+system), aligned accuracy = correct/aligned
    (docs/method.md §11.2).

    Parameters
    ----------
    correct : int
    gold_total : int
    system_total : int
    aligned_total : int, optional
        Aligned words counted; None for Tokens, Sentences and Words.
    """

    correct: float  # an int but for credit-weighted scores (hierarchical LAS)
    gold_total: int
    system_total: int
    aligned_total: Optional[int] = None

    precision, recall, f1 = prf_shares("correct", "gold_total", "system_total", empty=0.0)

    @property
    def aligned_accuracy(self) -> Optional[float]:
        """correct / aligned_total; None when not defined for the metric."""
        if self.aligned_total is None:
            return None
        return self.correct / self.aligned_total if self.aligned_total else 0.0


Key = Callable[[Word, Callable[[Optional[Word]], object]], Hashable]


@dataclass(frozen=True)
class WordMetric:
    r"""A word metric: the key compared on both words of an aligned pair.

    ``key(word, g)`` is computed on both words of a pair, where ``g`` maps a
    word of that side into gold space; the pair is correct when the keys are
    equal.  ``key=None`` credits the alignment itself (``Words``).

    Parameters
    ----------
    key : callable or None
    content_only : bool
        Count only words with a content relation (CLAS, MLAS, BLEX).
    fields : tuple of str, optional
        The `FIELD_KEYS` fields the key holds (`word_metric` sets them): then
        `pair_correct` compares the pairs field by field, each field once per
        alignment (`Alignment.field_equal`), which gives what comparing the keys
        gives; None: the keys are compared.
    """

    key: Optional[Key]
    content_only: bool = False
    fields: Optional[Tuple[str, ...]] = None


def _lemma(w: Word, g) -> str:
    return w.lemma if g(w).lemma != "_" else "_"


def _children(w: Word, g) -> tuple:
    return tuple((g(c), c.udeprel, c.upos, c.ufeats) for c in w.functional_children)


FIELD_KEYS: Dict[str, Key] = {
    "head": lambda w, g: g(w.parent),
    "deprel": lambda w, g: w.deprel,
    "udeprel": lambda w, g: w.udeprel,
    "upos": lambda w, g: w.upos,
    "xpos": lambda w, g: w.xpos,
    "ufeats": lambda w, g: w.ufeats,
    "lemma": _lemma,
    "functional_children": _children,
}
"""The registry's word fields (`synagree.base.metrics.WORD_FIELDS`) as the scorer reads
them: ``key(word, g)``, ``g`` mapping a word of that side into gold space."""
FIELD_KEYS_BUILTIN = dict(FIELD_KEYS)  # (the fields `_field_flags` writes out)


#: the fields that are plain attributes of a `Word` (read by one `operator.attrgetter`)
_ATTRIBUTES = {"deprel": "deprel", "udeprel": "udeprel", "upos": "upos", "xpos": "xpos",
               "ufeats": "ufeats"}


def word_metric(credit: WordCredit) -> WordMetric:
    """The scorer's `WordMetric` of a registry credit: its key holds the credit's fields
    (`FIELD_KEYS`; none: the alignment is the credit).

    The key is built for speed, not as a literal tuple of `FIELD_KEYS`: the head
    (mapped into gold space), the plain attributes read at once by
    `operator.attrgetter`, then any other field; two words' keys are equal exactly
    when every field is.
    """
    same = credit.same
    if not same:
        return WordMetric(None, credit.content_only)
    head = FIELD_KEYS["head"] if "head" in same else None
    attrs = [_ATTRIBUTES[f] for f in same if f in _ATTRIBUTES]
    get = attrgetter(*attrs) if attrs else None
    calls = tuple(FIELD_KEYS[f] for f in same if f != "head" and f not in _ATTRIBUTES)
    key: Key
    if len(calls) == 1 and head is None and get is None:
        key = calls[0]
    elif len(calls) == 1:
        key = partial(_key_with_call, head, get, calls[0])
    elif calls:
        key = partial(_key_with_calls, head, get, calls)
    elif head is not None and get is not None:
        key = partial(_head_and, get)
    elif head is not None:
        key = head
    else:
        assert get is not None  # a field that is not the head, of no call: an attribute
        key = partial(_attributes, get)
    return WordMetric(key, credit.content_only, tuple(same))


def _head_and(get: Callable[[Word], Hashable], w: Word,
              g: Callable[[Optional[Word]], object]) -> Hashable:
    return g(w.parent), get(w)


def _attributes(get: Callable[[Word], Hashable], w: Word,
                g: Callable[[Optional[Word]], object]) -> Hashable:
    return get(w)


def _key_with_call(head: Optional[Key], get: Optional[Callable[[Word], Hashable]], call: Key,
                   w: Word, g: Callable[[Optional[Word]], object]) -> Hashable:
    return (head(w, g) if head is not None else None, get(w) if get is not None else None,
            call(w, g))


def _key_with_calls(head: Optional[Key], get: Optional[Callable[[Word], Hashable]],
                    calls: Tuple[Key, ...], w: Word, g: Callable[[Optional[Word]], object]
                    ) -> Hashable:
    return (head(w, g) if head is not None else None, get(w) if get is not None else None,
            tuple(k(w, g) for k in calls))


class _Metrics(Mapping[str, WordMetric]):
    """The registry's word scores of ``compare`` as `WordMetric` (live: a metric
    registered later is in it)."""

    def __getitem__(self, name: str) -> WordMetric:
        return word_metric(word_credit(name, "compare"))

    def __iter__(self) -> Iterator[str]:
        return iter(word_scores("compare"))

    def __len__(self) -> int:
        return len(word_scores("compare"))


METRICS: Mapping[str, WordMetric] = _Metrics()
"""Word metrics by name (the registry's, `synagree.base.metrics`); adding a metric is
adding one registry entry."""

OFFICIAL_METRICS = ("Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags",
                    "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX")
"""The scorer's metrics, in its order."""


def _span_score(gold: Sequence, system: Sequence) -> Score:
    """Spans with identical start and end (both lists sorted by start)."""
    correct = gi = si = 0
    while gi < len(gold) and si < len(system):
        g, s = gold[gi], system[si]
        if s.start < g.start:
            si += 1
        elif g.start < s.start:
            gi += 1
        else:
            correct += g.end == s.end
            gi += 1
            si += 1
    return Score(correct, len(gold), len(system))


def pair_correct(alignment: Alignment, metric: WordMetric) -> List[bool]:
    """Per aligned pair (in order): does ``metric`` count it correct?

    A content-only metric counts only pairs whose gold word has a content
    relation; ``key=None`` credits every counted pair.
    """
    pairs = alignment.pairs
    key, to_gold = metric.key, alignment.to_gold
    if key is None:
        return [p.gold.is_content for p in pairs] if metric.content_only else [True] * len(pairs)
    if metric.fields is not None:  # keys are equal exactly when every field is
        ok = np.ones(len(pairs), bool)
        for name in metric.fields:
            ok &= alignment.field_equal(name)
        if metric.content_only:
            ok &= alignment.field_equal("(content)")
        return ok.tolist()  # type: ignore[no-any-return]
    if metric.content_only:
        return [p.gold.is_content and key(p.gold, _same) == key(p.system, to_gold)
                for p in pairs]
    return [key(p.gold, _same) == key(p.system, to_gold) for p in pairs]


def _word_score(alignment: Alignment, metric: WordMetric) -> Score:
    gold_words, system_words = alignment.gold.words, alignment.system.words
    if metric.content_only:
        gold_total = sum(1 for w in gold_words if w.is_content)
        system_total = sum(1 for w in system_words if w.is_content)
        aligned = sum(1 for p in alignment.pairs if p.gold.is_content)
    else:
        gold_total, system_total = len(gold_words), len(system_words)
        aligned = len(alignment.pairs)
    if metric.key is None:
        return Score(aligned, gold_total, system_total)
    return Score(sum(pair_correct(alignment, metric)), gold_total, system_total, aligned)


def _same(word):
    return word


def _field_flags(name: str, pairs: Sequence[WordPair],
                 to_gold: Callable[[Optional[Word]], object]) -> List[bool]:
    """`Alignment.field_equal` as a list: the common fields by their definitions in
    `FIELD_KEYS` written out (same answers, without a key call per word), any other
    field by its key."""
    key = FIELD_KEYS[name] if name in FIELD_KEYS else None
    if name == "head" and key is FIELD_KEYS_BUILTIN["head"]:
        return [p.system_head is p.gold_head for p in pairs]  # (mapped; Words by identity)
    if name == "(content)":  # not a field: the gold word has a content relation
        return [p.gold.is_content for p in pairs]
    if name in _ATTRIBUTES and key is FIELD_KEYS_BUILTIN[name]:
        get = attrgetter(_ATTRIBUTES[name])
        return [get(p.gold) == get(p.system) for p in pairs]
    if key is _lemma:  # a gold lemma "_" accepts any system lemma
        return [p.gold.lemma == "_" or p.gold.lemma == p.system.lemma for p in pairs]
    if key is _children:  # no functional child on either side: equal
        return [(not p.gold.functional_children and not p.system.functional_children)
                or _children(p.gold, _same) == _children(p.system, to_gold) for p in pairs]
    if key is None:
        raise KeyError(name)
    return [key(p.gold, _same) == key(p.system, to_gold) for p in pairs]


ENHANCED_METRICS = ("ELAS", "EULAS")
"""The IWPT 2020/2021 scorer's edge metrics, in its order (after BLEX)."""


def enhanced_score(alignment: Alignment, universal: bool = False) -> Tuple[Score, int]:
    r"""ELAS (or EULAS) of an alignment, as the IWPT 2020/2021 scorer computes it.

    docs/method.md §20.2: gold total = gold DEPS edges, system total = system
    DEPS edges (edges into or out of empty nodes left out on both sides);
    correct = matching (gold edge, system edge) pairs of aligned words, the
    system head mapped into gold space (`synagree.trees.enhanced.edge_matches`).

    Parameters
    ----------
    alignment : Alignment
    universal : bool
        EULAS: labels compared by their universal part.

    Returns
    -------
    (Score, int)
        The score (no aligned total, as the scorer prints none) and the
        surplus matches it contains (pairs beyond one per gold edge, where a
        word lists an edge twice).
    """
    gold_total = sum(len(w.edeps) for w in alignment.gold.words)
    system_total = sum(len(w.edeps) for w in alignment.system.words)
    to_gold = alignment.to_gold
    correct = surplus = 0
    for p in alignment:
        if p.gold.edeps and p.system.edeps:
            hits, extra = edge_matches(p.gold.edeps,
                                       [(to_gold(h), lab) for h, lab in p.system.edeps],
                                       universal)
            correct += hits
            surplus += extra
    return Score(correct, gold_total, system_total), surplus


@dataclass(frozen=True)
class EnhancedInfo:
    r"""Whether ELAS/EULAS were computed, and what they leave out.

    Parameters
    ----------
    computed : bool
    gold_has_deps, system_has_deps : bool
        Whether each file has any DEPS edge.
    gold_empty_node_edges, system_empty_node_edges : int
        DEPS edges into or out of empty nodes, left out (docs/method.md §20.1).
    surplus : dict of str to int
        Per metric: matches beyond one per gold edge (docs/method.md §20.2).
    """

    computed: bool
    gold_has_deps: bool
    system_has_deps: bool
    gold_empty_node_edges: int = 0
    system_empty_node_edges: int = 0
    surplus: Dict[str, int] = field(default_factory=dict)

    @property
    def absent_in_system(self) -> bool:
        """ELAS/EULAS were computed (gold has DEPS) but the system has no enhanced graph:
        the scorer's 0.00 would read as a score, so `compare` leaves them out with a
        note (the scorer's own table, ``-v``, still prints them)."""
        return self.computed and not self.system_has_deps

    @property
    def reason(self) -> Optional[str]:
        """Why ELAS/EULAS were not computed (None when they were)."""
        if self.computed:
            return None
        if not self.gold_has_deps:
            return "the gold file has no enhanced graph (its DEPS column is _ throughout)"
        return "not requested"

    def notes(self, who: str = "") -> List[str]:
        """What a reader of the scores must know, as sentences."""
        pre = f"{who}: " if who else ""
        out = []
        if not self.computed and self.system_has_deps:
            out.append(f"{pre}ELAS/EULAS not computed: {self.reason}; the official scorer "
                       f"prints 0.00 for both")
        if self.computed and not self.system_has_deps:
            out.append(f"{pre}ELAS/EULAS left out: the system file has no enhanced graph "
                       f"(its DEPS column is _ throughout); the official scorer prints 0.00 "
                       f"for both (-v)")
        if self.computed and self.system_has_deps and (self.gold_empty_node_edges
                                                       or self.system_empty_node_edges):
            out.append(f"{pre}ELAS/EULAS leave out {self.gold_empty_node_edges} gold and "
                       f"{self.system_empty_node_edges} system DEPS edge(s) into or out of "
                       f"empty nodes, as the official scorer does (docs/method.md §20.1)")
        for m, k in self.surplus.items():
            if k:
                out.append(f"{pre}{m} counts {k} surplus match(es): a word lists the same "
                           f"head and label twice; every matching pair counts, as in the "
                           f"official scorer")
        return out

    def as_dict(self) -> dict:
        """The information as a JSON-ready dict."""
        return {"computed": self.computed, "reason": self.reason,
                "gold_has_deps": self.gold_has_deps, "system_has_deps": self.system_has_deps,
                "gold_empty_node_edges": self.gold_empty_node_edges,
                "system_empty_node_edges": self.system_empty_node_edges,
                "surplus_matches": dict(self.surplus)}


class Conll18Result(Mapping[str, Score]):
    r"""Metric name -> `Score`, plus the alignment they were computed on.

    A read-only mapping, returned by `evaluate`.

    Parameters
    ----------
    scores : dict of str to Score
    alignment : Alignment
    """

    def __init__(self, scores: Dict[str, Score], alignment: Alignment,
                 enhanced: Optional[EnhancedInfo] = None):
        self.scores = scores
        self.alignment = alignment
        self.enhanced = enhanced  # ELAS/EULAS computed or not, and why

    def __getitem__(self, name: str) -> Score:
        return self.scores[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.scores)

    def __len__(self) -> int:
        return len(self.scores)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}: {v.f1:.4f}" for k, v in self.scores.items())
        return f"Conll18Result({{{inner}}})"


def evaluate(gold: Source, system: Source,
             metrics: Optional[Mapping[str, WordMetric]] = None,
             enhanced: Optional[bool] = None) -> Conll18Result:
    r"""Score a system file against a gold file the way the CoNLL 2018 scorer does.

    docs/method.md §11.2; parity with ``conll18_ud_eval.py`` 1.2.

    Parameters
    ----------
    gold, system : str, path-like, text stream or Treebank
        A path, CoNLL-U text (any string with a newline), a text stream or a
        `Treebank`.
    metrics : mapping of str to WordMetric, optional
        Default `METRICS`; Tokens and Sentences are always computed.
    enhanced : bool, optional
        Add ELAS and EULAS (`enhanced_score`): None (default) when the gold
        file has DEPS edges, True always (as the IWPT scorer does), False
        never.  ``result.enhanced`` says which, and what they leave out.

    Returns
    -------
    Conll18Result

    Raises
    ------
    InputError
        Malformed files or differing texts.

    See Also
    --------
    synagree.evaluation.compare.compare : several systems, α and breakdowns.
    """
    alignment = align(gold, system)
    scores = {
        "Tokens": _span_score(alignment.gold.tokens, alignment.system.tokens),
        "Sentences": _span_score(alignment.gold.sentences, alignment.system.sentences),
    }
    for name, metric in (METRICS if metrics is None else metrics).items():
        scores[name] = _word_score(alignment, metric)
    gold_tb, system_tb = alignment.gold, alignment.system
    on = gold_tb.has_enhanced if enhanced is None else enhanced
    surplus: Dict[str, int] = {}
    if on:
        for name, universal in zip(ENHANCED_METRICS, (False, True)):
            scores[name], surplus[name] = enhanced_score(alignment, universal)
    info = EnhancedInfo(bool(on), gold_tb.has_enhanced, system_tb.has_enhanced,
                        gold_tb.empty_node_edges, system_tb.empty_node_edges, surplus)
    return Conll18Result(scores, alignment, info)


# --------------------------------------------------------------------------- rendering

_HEADER_RATES = "Metric     | Precision |    Recall |  F1 Score | AligndAcc"
_HEADER_COUNTS = "Metric     | Correct   |      Gold | Predicted | Aligned"
_RULE = "-----------+-----------+-----------+-----------+-----------"


def render_scorer_table(result: Mapping[str, Score], verbose: bool = True,
                        metrics: Sequence[str] = OFFICIAL_METRICS) -> str:
    r"""The scorer's output: its ``-v`` table, or its three summary lines.

    Character for character as ``conll18_ud_eval.py`` prints them; values in
    percent.

    Parameters
    ----------
    result : mapping of str to Score
    verbose : bool
        The full table (``-v``); else the LAS, MLAS and BLEX lines.
    metrics : sequence of str
        Rows of the table, in order.
    """
    if not verbose:
        return "\n".join([f"LAS F1 Score: {100 * result['LAS'].f1:.2f}",
                          f"MLAS Score: {100 * result['MLAS'].f1:.2f}",
                          f"BLEX Score: {100 * result['BLEX'].f1:.2f}"])
    rows = [_HEADER_RATES, _RULE]
    for name in metrics:
        s = result[name]
        acc = s.aligned_accuracy
        rows.append(f"{name:11}|{100 * s.precision:10.2f} |{100 * s.recall:10.2f} "
                    f"|{100 * s.f1:10.2f} |" + ("" if acc is None else f"{100 * acc:10.2f}"))
    return "\n".join(rows)


def render_counts(result: Mapping[str, Score], metrics: Sequence[str] = OFFICIAL_METRICS) -> str:
    r"""The scorer's ``--counts`` table."""
    rows = [_HEADER_COUNTS, _RULE]
    for name in metrics:
        s = result[name]
        aligned = s.aligned_total or (s.correct if name == "Words" else "")
        rows.append(f"{name:11}|{s.correct:10} |{s.gold_total:10} |{s.system_total:10} "
                    f"|{aligned:10}")
    return "\n".join(rows)
