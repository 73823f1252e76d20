"""CoNLL-U / CoNLL-X dependency files: reading, checking, writing.

Conventions (docs/method.md §1–2, and the decisions docs/method.md §10 asks for):

* Dependency files are read one line at a time so that every word keeps its
  line number; comment lines go through the ``conllu`` package's parser, word
  lines are split at tabs only and every column is kept as written (``conllu``'s
  own line parser also splits at runs of two spaces, which would cut a FORM
  that contains spaces).  CoNLL-X and CoNLL-U share the
  columns that matter (ID, HEAD = column 7, DEPREL = column 8); every word
  line must have exactly 10 tab-separated columns.
* Only the basic tree of syntactic words counts: multiword-token ranges
  (``1-2``) and empty nodes (``8.1``) are read past, not made nodes.
* A word's HEAD must be an integer in 0..n (n = words in the sentence).
  Several words with HEAD 0 are accepted: all hang from the artificial root
  and the sentence is counted as *multi-root*.
* A DEPREL of ``_`` is kept as the label ``"_"`` (an ordinary label that costs
  1 to insert, delete or rename) and reported as a warning.  The reference
  implementation turned it into the empty label, which zss inserts and
  deletes for free; the shared data has no such words.
* Words on a head cycle (not reachable from token 0) are a *warning* by
  default and an error with ``strict=True``: see docs/method.md §2.4 and
  `unreachable_words`.
* Every problem of a file is gathered (`synagree.base.problems`) before the
  reader raises `InputError`.

Bracketed phrase-structure trees are read by `synagree.io.brackets`;
`synagree.io.formats.read_any` reads either kind.
"""
from __future__ import annotations

import io
import sys
from dataclasses import dataclass, field
from itertools import compress, repeat
from pathlib import Path
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    Union,
)

import numpy as np

from synagree.base.gc_pause import paused_gc
from synagree.base.problems import WARNING, ProblemLog, quote, shorten
from synagree.io.conllu_ids import (
    ConlluId,
    Ranges,
    bad_head_hint,
    bad_id_message,
    parse_head,
    parse_id,
)
from synagree.io.files import PathLike, read_parsed, write_atomic
from synagree.io.native_scan import _scanc, scanc
from synagree.io.sources import Source
from synagree.io.text import comparable

#: heads of a sentence's words (1-based, 0 = root): an int array or a list
Heads = Union[np.ndarray, Sequence[int]]


@dataclass
class DepSentence:
    """One annotation of a sentence as a basic dependency tree.

    Parameters
    ----------
    file : str
        The file it was read from (any text when built by hand).
    index : int
        0-based position of the sentence in the file.
    line : int
        1-based line where the sentence block starts.
    forms : list of str
        Word forms of the syntactic words (``_`` when absent).
    heads : numpy.ndarray
        int32, shape (n,): ``heads[i]`` is the 1-based head of word ``i + 1``;
        0 is the artificial root.
    deprels : list of str
        DEPREL per word.
    upos, xpos, feats, lemmas : list of str
        The other columns, per word (may be left empty when built by hand).
    word_lines : list of int
        The 1-based file line of each word.
    metadata : dict
        Comment metadata (``sent_id``, ``text``, ...).
    comments : list of str
        The comment lines as read.
    multiword : list of (int, int, str)
        Multiword tokens as (first word id, last word id, surface form).
    deps : list of str
        The DEPS column per word, as written (may be left empty when built
        by hand; see `synagree.io.enhanced_deps`).
    misc : list of str
        The MISC column per word, as written (``_`` when empty; may be left
        empty when built by hand).

    See Also
    --------
    read_conllu, synagree.trees.flat.dependency_tree
    """

    file: str
    index: int  # 0-based position in the file
    line: int  # first line of the sentence block
    forms: List[str]
    heads: np.ndarray  # int32, shape (n,)
    deprels: List[str]
    upos: List[str] = field(default_factory=list)
    xpos: List[str] = field(default_factory=list)
    feats: List[str] = field(default_factory=list)
    lemmas: List[str] = field(default_factory=list)
    # a range when the word lines are consecutive (the usual case: 50 bytes
    # instead of ~36 per word for a large corpus), else a list
    word_lines: Sequence[int] = field(default_factory=list)
    metadata: Dict[str, Optional[str]] = field(default_factory=dict)
    comments: List[str] = field(default_factory=list)
    # multiword tokens as (first word id, last word id, surface form)
    multiword: List[Tuple[int, int, str]] = field(default_factory=list)
    # DEPS per word, as written (the enhanced graph; docs/method.md §20)
    deps: List[str] = field(default_factory=list)
    # MISC per word, as written
    misc: List[str] = field(default_factory=list)

    @classmethod
    def from_heads(
        cls,
        heads: Sequence[int],
        labels: Union[str, Sequence[str]],
        forms: Optional[Sequence[str]] = None,
        *,
        file: str = "-",
        sent_index: int = 0,
        line: int = 1,
        **columns: Any,
    ) -> "DepSentence":
        """A sentence built by hand from its heads and labels (examples, tests).

        Parameters
        ----------
        heads : sequence of int
            ``heads[i]`` is the 1-based head of word ``i + 1``; 0 is the root.
        labels : str or sequence of str
            DEPREL per word: a list, or one whitespace-separated string.
        forms : sequence of str, optional
            Word forms; ``["w"] * n`` when not given.
        file, sent_index, line : str, int, int
            Where the sentence "was read" (``"-"``, 0, 1 by default).
        **columns
            Any other field of `DepSentence` (``feats``, ``deps``,
            ``metadata``, ``word_lines``, ...); the rest keep their defaults.

        Raises
        ------
        ValueError
            When heads, labels and forms differ in length.
        """
        deprels = labels.split() if isinstance(labels, str) else list(labels)
        words = ["w"] * len(heads) if forms is None else list(forms)
        if not len(heads) == len(deprels) == len(words):
            raise ValueError(
                f"{len(heads)} heads, {len(deprels)} labels and {len(words)} forms: "
                "one of each per word"
            )
        return cls(file, sent_index, line, words, np.asarray(heads, dtype=np.int32),
                   deprels, **columns)

    @property
    def n_words(self) -> int:
        """Number of syntactic words (multiword tokens and empty nodes not counted)."""
        return len(self.forms)

    @property
    def sent_id(self) -> Optional[str]:
        """The ``# sent_id`` of the sentence, or None."""
        return self.metadata.get("sent_id")

    @property
    def text(self) -> Optional[str]:
        """The ``# text`` of the sentence, or None."""
        return self.metadata.get("text")

    @property
    def n_roots(self) -> int:
        """Number of words whose HEAD is 0 (more than one: a multi-root sentence)."""
        return int(np.count_nonzero(self.heads == 0))

    @property
    def size(self) -> int:
        """|t| per docs/method.md §2.3: words + 1 (the artificial root counts)."""
        return self.n_words + 1

    def label_of(self) -> str:
        """The sentence for messages: its ``sent_id``, or ``FILE#N`` (1-based)."""
        return self.sent_id or f"{Path(self.file).name}#{self.index + 1}"

    def surface_text(self) -> Optional[str]:
        """The sentence's characters without whitespace, multiword tokens by their
        surface form (how the CoNLL 2018 scorer compares tokenisations).

        Returns
        -------
        str or None
            None when every form is ``_`` (nothing to compare).
        """
        if all(f in ("_", "") for f in self.forms):
            return None
        return comparable("".join(self.surface_forms()))

    def surface_forms(self) -> List[str]:
        """The forms of the surface tokens: a multiword token's own form in place of
        its words' forms, every other word's form."""
        parts: List[str] = []
        spans = {a: (b, form) for a, b, form in self.multiword}
        w = 1
        while w <= self.n_words:
            if w in spans and spans[w][0] >= w:
                parts.append(spans[w][1])
                w = spans[w][0] + 1
            else:
                parts.append(self.forms[w - 1])
                w += 1
        return parts

    def word_text(self) -> Optional[str]:
        """The syntactic words' forms without whitespace (None when all are ``_``)."""
        if all(f in ("_", "") for f in self.forms):
            return None
        return comparable("".join(self.forms))


def unreachable_words(heads: Heads) -> List[int]:
    """1-based ids of words not reachable from token 0 (they sit on or under a cycle).

    Exactly the words a walk down from the artificial root (the way the
    reference implementation built its trees) does not reach, so exactly these
    words are left out of the TED tree (docs/method.md §2.4); found by walking
    *up* from each word once (no child lists: this runs once per sentence read).

    Parameters
    ----------
    heads : numpy.ndarray
        ``heads[i]``: the 1-based head of word ``i + 1`` (0 = root).

    Returns
    -------
    list of int
        Ascending.

    See Also
    --------
    head_cycles
    """
    hl = heads.tolist() if isinstance(heads, np.ndarray) else [int(h) for h in heads]
    n = len(hl)
    # 0 unknown, 1 on the current walk, 2 reaches the root, 3 does not
    state = [0] * (n + 1)
    state[0] = 2
    lost = False
    for start in range(1, n + 1):
        if state[start]:
            continue
        path = []
        w = start
        while not state[w]:
            state[w] = 1
            path.append(w)
            h = hl[w - 1]
            if not 0 <= h <= n:  # no such head: not anyone's child
                break
            w = h
        res = 2 if state[w] == 2 and w != path[-1] else 3
        if res == 3:
            lost = True
        for v in path:
            state[v] = res
    if not lost:
        return []
    return [i for i in range(1, n + 1) if state[i] == 3]


def head_cycles(heads: Heads) -> List[List[int]]:
    """Every head cycle, each as its member words (1-based, in walking order).

    Words under a cycle but not on it are in none of them.  One pass: every
    word is walked at most once.

    Parameters
    ----------
    heads : sequence of int
        ``heads[i]``: the 1-based head of word ``i + 1`` (0 = root).

    See Also
    --------
    unreachable_words
    """
    heads = [int(h) for h in heads]
    n = len(heads)
    state = [0] * (n + 1)  # 0 new, 1 on the current path, 2 done
    state[0] = 2
    cycles = []
    for start in range(1, n + 1):
        path = []
        w = start
        while state[w] == 0:
            state[w] = 1
            path.append(w)
            w = heads[w - 1]
        if state[w] == 1:
            cycles.append(path[path.index(w):])
        for v in path:
            state[v] = 2
    return cycles


def read_conllu(path: Source, log: Optional[ProblemLog] = None,
                strict: bool = False) -> List[DepSentence]:
    r"""Read a CoNLL-U or CoNLL-X file into `DepSentence` objects.

    Only the basic tree counts: multiword-token ranges and empty nodes are read
    past (docs/method.md §1.2).  Every problem of the file is gathered; if any
    is an error (or a warning under ``strict``) `InputError` is raised after the
    whole file was read.

    Parameters
    ----------
    path : str, path-like or file-like
        The file (``.gz``/``.xz``/``.bz2`` decompressed), or an open text or
        binary stream, read to its end (`synagree.io.sources`; messages name
        it by its ``.name``, else ``<stream>``).
    log : ProblemLog, optional
        Pass a shared log to collect warnings across files; None: a new one.
    strict : bool
        Warnings (head cycles, DEPREL ``_``) count as errors (when ``log`` is
        None; a given log keeps its own setting).

    Raises
    ------
    InputError
        Unreadable or empty file, wrong column count, bad ID or HEAD, HEAD out
        of range 0..n, ...: every error of the file at once.
    """
    return read_parsed(path, log if log is not None else ProblemLog(strict=strict),
                       lambda name, text, lg: _parse_conllu_text(text, name, lg),
                       "file holds no sentences")


def split_columns(line: str, fname: str, no: int, log: ProblemLog,
                  sent_id: Optional[str] = None) -> Optional[List[str]]:
    r"""The 10 tab-separated columns of a word line, or None after logging an error.

    Parameters
    ----------
    line : str
        The word line, without its line break.
    fname : str
        The file, for the message.
    no : int
        1-based line number, for the message.
    log : ProblemLog
        Receives a ``column-count`` error when there are not 10 columns.
    sent_id : str, optional
        The sentence's id, for the message.
    """
    cols = line.split("\t")
    if len(cols) == 10:
        return cols
    hint = " (columns must be separated by tabs)" if len(cols) == 1 else ""
    log.add(fname, no, "column-count",
            f"expected 10 tab-separated columns, found {len(cols)}{hint}", sent_id=sent_id)
    return None


def conllu_lines(text: str, scorer: bool = False) -> Iterator[Tuple[int, str]]:
    r"""The lines of CoNLL-U text with their 1-based numbers: every CoNLL-U reader's records.

    The one line reader under the line-by-line paths of the package's CoNLL-U
    readers (`read_conllu` and `synagree.evaluation.tags.read_tag_column`,
    through `sentence_blocks`) and of the CoNLL 2018 scorer's
    (`synagree.evaluation.conll18.read_treebank`), in one of two modes; the
    files those readers find plainly valid are read from `scan_chunks` instead.

    Parameters
    ----------
    text : str
        The file's text.
    scorer : bool
        False (every command's readers): lines end at ``\n``; where the text
        has a ``\r``, the ``\r``\ s ending a line are dropped.  True (the
        CoNLL 2018 scorer's strictness, for ``compare``): a leading BOM is
        dropped, ``\r\n`` and a lone ``\r`` end a line as ``\n`` does, and
        the newline that ends the last line opens no new one; what counts as
        a blank line is then the reader's business (the scorer's: an empty
        line only).

    Returns
    -------
    iterator of (int, str)
        ``(line number, line)``, the line without its line ending.
    """
    if scorer:
        if text.startswith("\ufeff"):
            text = text[1:]
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if lines and lines[-1] == "":
            lines.pop()  # the final newline ends the last line, it opens none
        yield from enumerate(lines, 1)
        return
    cr = "\r" in text
    for no, line in enumerate(io.StringIO(text, newline="\n"), start=1):
        if line[-1:] == "\n":
            line = line[:-1]
        if cr:
            line = line.rstrip("\r")
        yield no, line


def sentence_blocks(text: str) -> Iterator[Tuple[int, List[Tuple[int, str]]]]:
    r"""Split CoNLL text into sentence blocks at blank lines (`conllu_lines`' records).

    Parameters
    ----------
    text : str
        The file's text.

    Returns
    -------
    iterator of (int, list of (int, str))
        Per block: its first line number and its ``(line number, line)``
        pairs (1-based line numbers, ``\r`` stripped).
    """
    cur: List[Tuple[int, str]] = []
    for no, line in conllu_lines(text):
        if not line or line.isspace():  # what line.strip() == "" means, cheaper
            if cur:
                yield cur[0][0], cur
                cur = []
        else:
            cur.append((no, line))
    if cur:
        yield cur[0][0], cur


def comment_pairs(line: str) -> List[Tuple[str, Optional[str]]]:
    """``# key = value`` as ``conllu.parser.parse_comment_line`` reads it, without
    its per-call set-up (this runs for every comment line): key and value
    stripped, a line without a key or a value gives nothing, except ``newpar``
    and ``newdoc``, kept with a value of None.

    >>> comment_pairs("# sent_id = s1"), comment_pairs("# newdoc"), comment_pairs("# note")
    ([('sent_id', 's1')], [('newdoc', None)], [])
    """
    key, eq, value = line.strip()[1:].partition("=")
    key = key.strip()
    val = value.strip() if eq else None
    if key in ("newpar", "newdoc"):
        return [(key, val)]
    if not key or not val:
        return []
    return [(key, val)]


def _compact(lines: List[int]) -> Sequence[int]:
    """``lines`` as a range when they are consecutive numbers, else as given."""
    if lines and lines[-1] - lines[0] == len(lines) - 1:
        return range(lines[0], lines[-1] + 1)
    return lines


# "0" .. "4095" -> int: IDs and HEADs written as plain numbers (what parse_id
# and parse_head accept without a leading zero) found by one dict look-up;
# anything else goes through conllu_ids.
_NUMBER_OF: Dict[str, int] = {str(k): k for k in range(4096)}

# Column values repeat (labels, tags, features, frequent words): one string
# object per distinct value instead of one per word keeps a large corpus in a
# fraction of the memory (a 50,000-sentence corpus: ~450 MB -> see benchmarks).
_intern = sys.intern


def _parse_conllu_detailed(text: str, fname: str, log: ProblemLog) -> List[DepSentence]:
    """Every sentence of the text, one line at a time: the detailed path."""
    sentences = []
    for index, (first, lines) in enumerate(sentence_blocks(text)):
        sent = _parse_block(index, first, lines, fname, log)
        if sent is not None:
            sentences.append(sent)
    return sentences


# ---------------------------------------------------------------------------
# The fast path (issue 24): the same sentences and the same problems as the
# detailed path (`_parse_conllu_detailed`), at several times its speed.
#
# A chunk of the text (about a million characters, ending at an empty line)
# is scanned once -- cut into lines, sentence blocks and the columns of every
# 10-column line, comments read into metadata -- by the C extension
# (synagree/io/_scanc.c) or by the same scan in Python (`_scan_python`:
# str.split, map over dict look-ups, numpy).  Every word's ID and HEAD, the
# DEPRELs and the head cycles are then checked for the whole chunk at once
# (numpy), and the sentences cut out of the columns.  A
# sentence passes when every check a valid sentence passes holds: only
# comment lines and 10-column word lines, word IDs 1..n in order (multiword
# ranges and empty nodes beside them, the ranges in place), every HEAD an
# ASCII number in 0..n, no DEPREL "_" or empty, no head cycle.  Any other
# sentence -- one with an error or a warning to report, or anything unusual
# (a whitespace-only line, an ID >= 4096) -- is read again by
# `_parse_block`, the detailed path, which logs exactly what it always
# logged.  Nothing is logged by the fast path itself, so the problems and
# their order are the detailed path's by construction (checked against a
# copy of the old reader: tests/test_reader_parity.py).
# ---------------------------------------------------------------------------

_CHUNK = 1 << 20  # characters per chunk: bounds the transient memory of a large file
_NO_DEPREL = frozenset(("_", ""))


def _parse_conllu_text(text: str, fname: str, log: ProblemLog) -> List[DepSentence]:
    if "\r" in text:
        # a CR that ends a line (CRLF files) is dropped by the detailed path:
        # the same as removing it, unless a CR stands anywhere else
        if text.count("\r") != text.count("\r\n"):
            return _parse_conllu_detailed(text, fname, log)
        text = text.replace("\r\n", "\n")
    sentences: List[DepSentence] = []
    index = 0  # sentence blocks so far (the 0-based index of the next one)
    with paused_gc():  # many objects, no cycles
        for chunk, base in scan_chunks(text, log):
            index = _parse_chunk(chunk, base, index, fname, log, sentences)
    return sentences


def scan_chunks(text: str, log: Optional[ProblemLog] = None) -> Iterator[Tuple["_Scan", int]]:
    r"""The records of the package's CoNLL-U reader: ``text`` scanned in chunks.

    The one scan under `read_conllu` (and so `synagree.read`) and the CoNLL 2018
    scorer's reader (`synagree.evaluation.conll18.read_treebank`): lines cut at
    ``\n`` only, sentence blocks, the columns of every 10-column line, comments
    read into metadata, nothing judged (`_Scan`), by the C extension where it is
    built, else by the same scan in Python.  Chunks of about a million
    characters end at an empty line, so that no block spans two of them.

    Parameters
    ----------
    text : str
        CoNLL text whose lines end at ``\n`` (a ``\r`` is part of its line).
    log : ProblemLog, optional
        Receives a ``bad-environment`` error (`synagree.io.native_scan.scanc`);
        None: raised.

    Returns
    -------
    iterator of (_Scan, int)
        Each chunk's scan and the lines before it (its line ``i`` is the
        text's 0-based line ``base + i``; a chunk's last line, empty, is the
        next chunk's first).
    """
    base = 0  # lines before the chunk
    pos, size = 0, len(text)
    c = scanc(log)
    scan, table = (_scan_c, c.table()) if c is not None else (_scan_python, None)
    while pos < size:
        # chunks end at an empty line, so no sentence spans two of them
        cut = text.find("\n\n", pos + _CHUNK)
        end = size if cut < 0 else cut + 1
        chunk = scan(text, pos, end, table)
        yield chunk, base
        base += chunk.n_lines - 1
        pos = end


class _Scan(NamedTuple):
    """One chunk of CoNLL text cut into lines, blocks and columns, nothing
    judged yet.

    Lines are 0-based within the chunk.  A block is a run of lines between
    empty lines: ``starts``/``ends`` (its first line, the line after its
    last), ``fine`` (True when every line of it that is not a row is a
    comment), its comment lines and their metadata (as `comment_pairs`
    reads them).  ``n_lines``: the lines of the chunk (its newlines + 1).
    ``rows`` are the lines with exactly 9 tabs (10 columns);
    per row: ``ids``, the ID when it is a plain word number (ASCII digits,
    no leading zero, 1 .. 4095), else 0; ``heads``, the HEAD when it is a
    plain number (0 .. 4095), else -1; and the columns FORM, LEMMA, UPOS,
    XPOS, FEATS, DEPREL, DEPS, MISC as written, interned, an empty value read as
    ``_`` (but an empty DEPREL kept empty).  ``lines(s, e)`` gives the text
    of lines s .. e-1.
    """

    n_lines: int
    starts: List[int]
    ends: List[int]
    fine: np.ndarray
    comments: List[List[str]]
    metadata: List[Dict[str, Optional[str]]]
    rows: np.ndarray
    ids: np.ndarray
    heads: np.ndarray
    columns: List[List[str]]
    lines: Callable[[int, int], List[str]]

    def line_id(self, line: int) -> Optional[ConlluId]:
        """The ID column of ``line`` (a row) as `parse_id` reads it: for the rows whose
        ``ids`` is 0 (a multiword range, an empty node or an ID to report)."""
        return parse_id(self.lines(line, line + 1)[0].partition("\t")[0])


def has_empty_column(text: str) -> bool:
    """``text`` has an empty column (two tabs in a row, or a tab ending a line), which
    the scan reads as ``_`` (`_Scan`)."""
    return "\t\t" in text or "\t\n" in text or text.endswith("\t")


def _scan_python(text: str, begin: int, end: int, table: object = None) -> _Scan:
    """`_Scan` of the chunk ``text[begin:end]`` with str methods, dict
    look-ups and numpy (``table`` is not used)."""
    chunk = text[begin:end]
    lines = chunk.split("\n")
    n_lines = len(lines)
    is_row = np.fromiter(map(str.count, lines, repeat("\t")), np.int64, n_lines) == 9
    starts: List[int] = []
    ends: List[int] = []
    fine: List[bool] = []
    comments: List[List[str]] = []
    metadata: List[Dict[str, Optional[str]]] = []
    prev, com, meta, ok = -1, [], {}, True  # the open block's
    for i in np.flatnonzero(~is_row).tolist():  # empty lines, comments, broken lines
        line = lines[i]
        if line:
            if line[0] == "#":
                com.append(line)
                for key, value in comment_pairs(line):
                    meta[_intern(key)] = value
            else:  # a wrong column count, or a whitespace-only line
                ok = False
            continue
        if i > prev + 1:
            starts.append(prev + 1)
            ends.append(i)
            fine.append(ok)
            comments.append(com)
            metadata.append(meta)
            com, meta, ok = [], {}, True
        prev = i
    if prev + 1 < n_lines:
        starts.append(prev + 1)
        ends.append(n_lines)
        fine.append(ok)
        comments.append(com)
        metadata.append(meta)
    rows = np.flatnonzero(is_row)
    n_rows = len(rows)
    cells = "\t".join(map(lines.__getitem__, rows.tolist())).split("\t") if n_rows else []
    ids = np.fromiter(map(_NUMBER_OF.get, cells[0::10], repeat(0)), np.int64, n_rows)
    heads = np.fromiter(map(_NUMBER_OF.get, cells[6::10], repeat(-1)), np.int64, n_rows)
    columns = [cells[c::10] for c in (1, 2, 3, 4, 5, 7, 8, 9)]
    if has_empty_column(chunk):
        columns = [[v or "_" for v in col] if k != 5 and "" in col else col
                   for k, col in enumerate(columns)]
    columns = [list(map(_intern, col)) for col in columns]
    return _Scan(n_lines, starts, ends, np.array(fine, bool), comments, metadata, rows, ids,
                 heads, columns, lambda s, e: lines[s:e])


def _scan_c(text: str, begin: int, end: int, table: object) -> _Scan:
    """`_Scan` of the chunk ``text[begin:end]`` by the C extension (the same
    as `_scan_python`); ``table``: ``_scanc.table()``, one for all chunks of
    a file."""
    (n_lines, n_rows, rows, ids, heads, starts, n_blocks, block_start, block_end, fine,
     comments, metadata, columns) = _scanc.scan(
        text, begin, end, table)
    at = np.frombuffer(starts, np.int64)
    return _Scan(n_lines, np.frombuffer(block_start, np.int64, n_blocks).tolist(),
                 np.frombuffer(block_end, np.int64, n_blocks).tolist(),
                 np.frombuffer(fine, np.bool_, n_blocks), comments, metadata,
                 np.frombuffer(rows, np.int64, n_rows), np.frombuffer(ids, np.int64, n_rows),
                 np.frombuffer(heads, np.int64, n_rows), columns,
                 lambda s, e: text[int(at[s]):int(at[e]) - 1].split("\n"))


def _parse_chunk(scan: _Scan, base: int, index: int, fname: str, log: ProblemLog,
                 out: List[DepSentence]) -> int:
    """Append the sentences of a scanned chunk (line ``base + 1`` onwards) to
    ``out``; return the index of the next sentence block."""
    starts, ends = scan.starts, scan.ends
    if not starts:
        return index
    bad = ~scan.fine
    rows, ids = scan.rows, scan.ids
    r_start = np.searchsorted(rows, starts)  # each block's rows
    r_end = np.searchsorted(rows, ends)
    multiword: Dict[int, List[Tuple[int, int, str]]] = {}
    special = np.flatnonzero(ids == 0)  # multiword ranges, empty nodes, bad IDs
    if len(special):
        _check_specials(scan, special, r_start, r_end, bad, multiword)
    is_word = ids > 0
    words = np.flatnonzero(is_word)  # rows that are words
    n = len(words)
    k_start = np.searchsorted(words, r_start)  # each block's words
    k_end = np.searchsorted(words, r_end)
    n_words = k_end - k_start
    bad |= n_words == 0
    forms, lemmas, upos, xpos, feats, deprels, deps, misc = scan.columns
    if n:
        first_of = np.repeat(k_start, n_words)  # each word's block: its first word
        heads = scan.heads[words]
        wrong = ((ids[words] != np.arange(1, n + 1) - first_of) | (heads < 0)
                 | (heads > np.repeat(n_words, n_words)))
        if "_" in deprels or "" in deprels:  # a warning to give, or a multiword row
            wrong |= np.fromiter(map(_NO_DEPREL.__contains__, deprels), bool,
                                 len(rows))[words]
        # head cycles: from every word, 2^k > n steps up end at the root (index
        # n) exactly when the word is reachable from it
        up = np.where(heads > 0, first_of + heads - 1, n)
        up[wrong] = n
        up = np.append(up, n)
        for _ in range(int(n_words.max()).bit_length()):
            up = up[up]
        wrong |= up[:n] != n
        if wrong.any():
            bad[np.searchsorted(k_end, np.flatnonzero(wrong), side="right")] = True
        head_arr = heads.astype(np.int32)
        line_of = (rows[words] + (base + 1)).tolist()
        has_special = (r_end - r_start != n_words).tolist()
        word_mask = is_word.tolist()
    # one sentence per block, in order; a block that failed a check is read
    # again by the detailed path
    for b, (s, bad_b, ra, rz, a, z, metadata, comments) in enumerate(zip(
            starts, bad.tolist(), r_start.tolist(), r_end.tolist(), k_start.tolist(),
            k_end.tolist(), scan.metadata, scan.comments)):
        if bad_b:
            index = _reread(scan.lines(s, ends[b]), base + s + 1, index, fname, log, out)
            continue
        first_line, last_line = line_of[a], line_of[z - 1]
        if has_special[b]:
            mask = word_mask[ra:rz]
            out.append(DepSentence(
                fname, index, base + s + 1, list(compress(forms[ra:rz], mask)),
                head_arr[a:z].copy(), list(compress(deprels[ra:rz], mask)),
                list(compress(upos[ra:rz], mask)), list(compress(xpos[ra:rz], mask)),
                list(compress(feats[ra:rz], mask)), list(compress(lemmas[ra:rz], mask)),
                range(first_line, last_line + 1) if last_line - first_line == z - a - 1
                else line_of[a:z],
                metadata, comments, multiword.get(b) or [], list(compress(deps[ra:rz], mask)),
                list(compress(misc[ra:rz], mask))))
        else:
            out.append(DepSentence(
                fname, index, base + s + 1, forms[ra:rz], head_arr[a:z].copy(),
                deprels[ra:rz], upos[ra:rz], xpos[ra:rz], feats[ra:rz], lemmas[ra:rz],
                range(first_line, last_line + 1) if last_line - first_line == z - a - 1
                else line_of[a:z],
                metadata, comments, [], deps[ra:rz], misc[ra:rz]))
        index += 1
    return index


def _check_specials(scan: _Scan, special: np.ndarray, r_start: np.ndarray, r_end: np.ndarray,
                    bad: np.ndarray, multiword: Dict[int, List[Tuple[int, int, str]]]) -> None:
    """The rows whose ID is not a plain word number: multiword ranges are
    checked in place (`Ranges`) and collected, empty nodes read past; any
    other (a bad ID, a word ID 0 or >= 4096) marks its block ``bad``."""
    is_word = scan.ids > 0
    words_before: np.ndarray = np.cumsum(is_word) - is_word  # word rows before each row
    ranges: Dict[int, Ranges] = {}
    rows = scan.rows.tolist()
    for k, b in zip(special.tolist(), np.searchsorted(r_end, special, side="right").tolist()):
        if bad[b]:
            continue
        text = scan.lines(rows[k], rows[k] + 1)[0].partition("\t")[0]
        cid = parse_id(text)
        if cid is None or cid.is_word:
            bad[b] = True
        elif cid.is_range:
            next_word = int(words_before[k] - words_before[r_start[b]]) + 1
            if ranges.setdefault(b, Ranges()).check(cid, next_word) is not None:
                bad[b] = True
            else:
                multiword.setdefault(b, []).append((cid.first, cid.second,
                                                    scan.columns[0][k]))


def _reread(lines: List[str], first: int, index: int, fname: str, log: ProblemLog,
            out: List[DepSentence]) -> int:
    """Read ``lines`` (the first is line ``first``) by the detailed path, as
    `sentence_blocks` and `_parse_block` do: a whitespace-only line among them
    ends a block too.  Returns the index of the next sentence block."""
    block: List[Tuple[int, str]] = []
    for no, line in enumerate(lines + [""], start=first):
        if not line or line.isspace():
            if block:
                sent = _parse_block(index, block[0][0], block, fname, log)
                if sent is not None:
                    out.append(sent)
                index += 1
                block = []
        else:
            block.append((no, line))
    return index


def _parse_block(index: int, first: int, lines: List[Tuple[int, str]], fname: str,
                 log: ProblemLog) -> Optional[DepSentence]:
    metadata: Dict[str, Optional[str]] = {}
    comments: List[str] = []
    words: List[Tuple[int, int, List[str]]] = []  # (line, word id, columns)
    multiword: List[Tuple[int, int, str]] = []
    ok = True
    # word lines too broken to read: with any, IDs cannot be checked for sequence
    # and HEAD may point at one of them (so the HEAD range widens by as many)
    dropped = 0
    ranges = Ranges()
    for no, line in lines:
        if line.startswith("#"):
            comments.append(line)
            for key, value in comment_pairs(line):  # free-form comments: no pair
                metadata[key] = value
            continue
        cols = line.split("\t")
        if len(cols) != 10:  # logged by split_columns
            split_columns(line, fname, no, log, sent_id=metadata.get("sent_id"))
            ok = False
            dropped += 1
            continue
        c0 = cols[0]
        k = _NUMBER_OF.get(c0)
        if k is not None and k > 0:  # a plain word ID: the common case
            words.append((no, k, cols))
            continue
        cid = parse_id(c0)
        if cid is None:
            log.add(fname, no, "bad-id", bad_id_message(cols[0]),
                    sent_id=metadata.get("sent_id"))
            ok = False
            dropped += 1
            continue
        if cid.is_range:  # read past, but checked as every reader checks ranges
            problem = ranges.check(cid, None if dropped else len(words) + 1)
            if problem is not None:
                log.add(fname, no, *problem, sent_id=metadata.get("sent_id"))
                ok = False
            # its surface form serves the identity check of corpus assembly
            multiword.append((cid.first, cid.second, cols[1] or "_"))
            continue
        if cid.is_empty_node:
            continue
        # the columns as written (every field is kept raw, as _parse_columns would)
        words.append((no, cid.first, cols))
    sid = metadata.get("sent_id")
    if not words:
        if ok:
            log.add(fname, first, "no-words", "sentence has no words (only comments)",
                    sent_id=sid)
        return None
    n = len(words)
    head_list = [0] * n
    for k, (no, wid, cols) in enumerate(words, start=1):
        if wid != k and not dropped:
            log.add(fname, no, "id-sequence",
                    f"word ID {wid} out of sequence: expected {k}", sent_id=sid)
            ok = False
        raw_head = cols[6]
        h = _NUMBER_OF.get(raw_head)  # the common case, as parse_head reads it
        if h is None:
            h = parse_head(raw_head)
        if h is None:
            log.add(fname, no, "bad-head",
                    f"HEAD {quote(raw_head)} of word {wid} is not an integer"
                    + bad_head_hint(raw_head), sent_id=sid)
            ok = False
            continue
        if h < 0 or h > n + dropped:
            log.add(fname, no, "head-out-of-range",
                    f"HEAD {h} of word {wid} is out of range 0..{n + dropped}",
                    sent_id=sid)
            ok = False
            continue
        head_list[k - 1] = h
        if cols[7] in ("_", ""):
            log.add(fname, no, "missing-deprel",
                    f"word {wid} has no DEPREL ('_'); compared as the label '_'",
                    severity=WARNING, sent_id=sid)
    if not ok:
        return None
    fields = list(zip(*[c for _, _, c in words]))  # one tuple per column

    def column(i: int) -> List[str]:
        """Column i, an empty value read as ``_``, each value interned."""
        col = fields[i]
        if "" in col:
            col = tuple(v or "_" for v in col)
        return list(map(_intern, col))

    sent = DepSentence(
        file=fname, index=index, line=first,
        forms=column(1),
        heads=np.array(head_list, dtype=np.int32),
        deprels=column(7),
        upos=column(3),
        xpos=column(4),
        feats=column(5),
        lemmas=column(2),
        word_lines=_compact([no for no, _, _ in words]),
        metadata=metadata, comments=comments, multiword=multiword,
        deps=[v or "_" for v in fields[8]],
        misc=column(9),
    )
    report_cycles(sent, head_list, log)
    return sent


def report_cycles(sent: DepSentence, heads: Sequence[int], log: ProblemLog) -> None:
    """Log a ``cycle`` warning when words of ``sent`` are unreachable from the root.

    Every dependency reader reports cycles this way (docs/method.md §2.4).
    """
    lost = unreachable_words(heads)
    if lost:
        cyc = sorted(w for cycle in head_cycles(heads) for w in cycle)
        # short (one line of a listing): three words of the cycle, the rest
        # counted; the line is the cycle's first word's; the result's note explains
        desc = ", ".join(f"{w} ({shorten(sent.forms[w - 1], 20)})" for w in cyc[:3])
        extra = len(lost) - min(len(cyc), 3)
        more = f" and {extra} more" if extra else ""
        log.add(sent.file, sent.word_lines[cyc[0] - 1] if cyc else sent.line, "cycle",
                f"head cycle in sentence {sent.index + 1}: words {desc}{more} unreachable "
                f"from the root (§2.4)", severity=WARNING, sent_id=sent.sent_id)


def to_conllu(sentences: Iterable[DepSentence],
              misc: Optional[Sequence[Sequence[str]]] = None,
              deps: Optional[Sequence[Sequence[str]]] = None) -> str:
    r"""CoNLL-U text of `DepSentence` objects.

    Each sentence: its comment lines as read (or ``# sent_id`` / ``# text`` from
    the metadata), then one line per word (ID, FORM, LEMMA, UPOS, XPOS, FEATS,
    HEAD, DEPREL; DEPS from ``deps[k][i]`` and MISC from ``misc[k][i]`` when
    given, else ``_``),
    then a blank line.  Multiword-token lines are not written.

    See Also
    --------
    write_conllu
    """
    def col(values: Sequence[str], i: int) -> str:
        return values[i] if i < len(values) and values[i] not in (None, "") else "_"

    blocks = []
    for k, s in enumerate(sentences):
        extra = misc[k] if misc is not None else ()
        enhanced = deps[k] if deps is not None else ()
        lines = list(s.comments) if s.comments else [
            f"# {k} = {v}" for k, v in s.metadata.items() if v is not None]
        for i in range(s.n_words):
            lines.append("\t".join([str(i + 1), col(s.forms, i), col(s.lemmas, i),
                                    col(s.upos, i), col(s.xpos, i), col(s.feats, i),
                                    str(int(s.heads[i])), col(s.deprels, i),
                                    col(enhanced, i), col(extra, i)]))
        blocks.append("\n".join(lines) + "\n\n")
    return "".join(blocks)


def write_conllu(path: PathLike, sentences: Iterable[DepSentence]) -> None:
    """Write `to_conllu` of ``sentences`` to ``path`` (atomically).

    Parameters
    ----------
    path : str or path-like
        The target; missing parent directories are created.
    sentences : iterable of DepSentence
    """

    write_atomic(path, to_conllu(sentences))
