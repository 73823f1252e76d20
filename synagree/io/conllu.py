"""Readers: CoNLL-U / CoNLL-X dependency files and bracketed phrase-structure trees.

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
  default and an error with ``strict=True``: see docs/method.md §2 and
  :func:`unreachable_words`.
* Every problem of a file is gathered (:mod:`synagree.problems`) before the
  reader raises :class:`~synagree.base.problems.InputError`.

Bracketed trees: ``(S (NP P) (VP V (NP D N)))``, one or more per file,
possibly across lines.  Two shapes exist (docs/method.md §1):

* ``delex``: leaves are categories, every bare string is a node;
* ``penn``: bare strings are words under preterminals and are dropped, so the
  preterminals become the leaves.

``style="auto"`` decides once for a whole corpus, from all its files
(:func:`decide_phrase_style`): Penn when every bare string in every tree is
the only child of its bracket, delexicalised when some string stands beside
another node and the Penn-shaped trees use the same leaf vocabulary; any
other mix is an error asking for an explicit style.  The decision is reported
with every result.
"""
from __future__ import annotations

import io
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from synagree.base.problems import WARNING, ProblemLog, quote, shorten
from synagree.io.conllu_ids import (
    Ranges,
    bad_head_hint,
    bad_id_message,
    parse_head,
    parse_id,
)
from synagree.io.files import PathLike, raise_new_errors, read_text, write_atomic
from synagree.io.text import comparable


@dataclass
class DepSentence:
    """One annotation of a sentence as a basic dependency tree.

    ``heads[i]`` is the 1-based head of word ``i + 1`` (0 = root);
    ``word_lines[i]`` the file line of that word.
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

    @property
    def n_words(self) -> int:
        return len(self.forms)

    @property
    def sent_id(self) -> Optional[str]:
        return self.metadata.get("sent_id")

    @property
    def text(self) -> Optional[str]:
        return self.metadata.get("text")

    @property
    def n_roots(self) -> int:
        return int(np.count_nonzero(self.heads == 0))

    @property
    def size(self) -> int:
        """|t| per docs/method.md §2: words + 1 (the artificial root counts)."""
        return self.n_words + 1

    def label_of(self) -> str:
        return self.sent_id or f"{Path(self.file).name}#{self.index + 1}"

    def surface_text(self) -> Optional[str]:
        """The sentence's characters without whitespace, multiword tokens by their
        surface form (how the CoNLL 2018 scorer compares tokenisations); None when
        every form is ``_`` (nothing to compare)."""
        if all(f in ("_", "") for f in self.forms):
            return None
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
        return comparable("".join(parts))

    def word_text(self) -> Optional[str]:
        """The syntactic words' forms without whitespace (None when all are ``_``)."""
        if all(f in ("_", "") for f in self.forms):
            return None
        return comparable("".join(self.forms))


def unreachable_words(heads: "np.ndarray | Sequence[int]") -> List[int]:
    """1-based ids of words not reachable from token 0 (they sit on or under a cycle).

    Exactly the words that a walk down from the artificial root (the way the
    reference implementation built its trees) does not reach, so exactly
    these words are left out of the TED tree; found by walking *up* from each
    word once (no child lists: this runs once per sentence read).
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


def head_cycles(heads: Sequence[int]) -> List[List[int]]:
    """Every head cycle, each as its member words (1-based, in walking order).

    Words under a cycle but not on it are in none of them.  One pass: every
    word is walked at most once.
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


def read_conllu(path: PathLike, log: Optional[ProblemLog] = None,
                strict: bool = False) -> List[DepSentence]:
    """Read a CoNLL-U or CoNLL-X file into :class:`DepSentence` objects.

    Every problem of the file is gathered; if any is an error (or a warning
    under ``strict``) :class:`InputError` is raised after the whole file was
    read.  Pass a shared ``log`` to collect warnings across files.
    """
    path = Path(path)
    log = log if log is not None else ProblemLog(strict=strict)
    sentences: List[DepSentence] = []
    with raise_new_errors(log) as n_before:
        text = read_text(path, log)
        if text is not None:
            sentences = _parse_conllu_text(text, str(path), log)
            # "no sentences" only when nothing else was wrong: a file whose every
            # sentence has errors does hold sentences, and those errors say why
            if not sentences and len(log.errors) == n_before:
                log.add(str(path), None, "empty-file", "file holds no sentences")
    return sentences


def split_columns(line: str, fname: str, no: int, log: ProblemLog,
                  sent_id: Optional[str] = None) -> Optional[List[str]]:
    """The 10 tab-separated columns of a word line, or None after logging a
    "column-count" error naming the file and line."""
    cols = line.split("\t")
    if len(cols) == 10:
        return cols
    hint = " (columns must be separated by tabs)" if len(cols) == 1 else ""
    log.add(fname, no, "column-count",
            f"expected 10 tab-separated columns, found {len(cols)}{hint}", sent_id=sent_id)
    return None


def sentence_blocks(text: str) -> Iterator[Tuple[int, List[Tuple[int, str]]]]:
    """Sentence blocks, one at a time: (first line number, [(line number, line)]).

    Blank lines (empty or whitespace only, ``\\r`` ignored) separate blocks.
    Lines are taken one at a time (``io.StringIO`` splits at ``\\n`` only, as
    ``str.split("\\n")`` does) so that a large file never exists as one
    list of all its lines.
    """
    cur: List[Tuple[int, str]] = []
    cr = "\r" in text
    for no, line in enumerate(io.StringIO(text, newline="\n"), start=1):
        if line[-1:] == "\n":
            line = line[:-1]
        if cr:
            line = line.rstrip("\r")
        if not line or line.isspace():  # what line.strip() == "" means, cheaper
            if cur:
                yield cur[0][0], cur
                cur = []
        else:
            cur.append((no, line))
    if cur:
        yield cur[0][0], cur


def _comment_pairs(line: str) -> List[Tuple[str, Optional[str]]]:
    """``# key = value`` as ``conllu.parser.parse_comment_line`` reads it, without
    its per-call set-up (this runs for every comment line): key and value
    stripped, a line without a key or a value gives nothing, except ``newpar``
    and ``newdoc``, kept with a value of None."""
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


def _parse_conllu_text(text: str, fname: str, log: ProblemLog) -> List[DepSentence]:
    sentences = []
    for index, (first, lines) in enumerate(sentence_blocks(text)):
        sent = _parse_block(index, first, lines, fname, log)
        if sent is not None:
            sentences.append(sent)
    return sentences


def _parse_block(index: int, first: int, lines: List[Tuple[int, str]], fname: str,
                 log: ProblemLog) -> Optional[DepSentence]:
    metadata: Dict[str, Optional[str]] = {}
    comments: List[str] = []
    words: List[Tuple[int, dict]] = []
    multiword: List[Tuple[int, int, str]] = []
    ok = True
    # word lines too broken to read: with any, IDs cannot be checked for sequence
    # and HEAD may point at one of them (so the HEAD range widens by as many)
    dropped = 0
    ranges = Ranges()
    for no, line in lines:
        if line.startswith("#"):
            comments.append(line)
            for key, value in _comment_pairs(line):  # free-form comments: no pair
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
    )
    lost = unreachable_words(head_list)
    if lost:
        cyc = sorted(w for cycle in head_cycles(head_list) for w in cycle)
        desc = ", ".join(f"{w} ({shorten(sent.forms[w - 1])})" for w in cyc)
        extra = len(lost) - len(cyc)
        under = f", and {extra} word(s) under it" if extra else ""
        log.add(fname, sent.word_lines[cyc[0] - 1] if cyc else first, "cycle",
                f"head cycle in sentence {index + 1} (line {first}): words {desc}{under} "
                f"are not reachable from the root; they are left out of the TED tree "
                f"but counted in |t| and LAS/UAS/LA (docs/method.md §2.4)",
                severity=WARNING, sent_id=sid)
    return sent


def to_conllu(sentences: Iterable[DepSentence]) -> str:
    """CoNLL-U text of :class:`DepSentence` objects: comment lines as read (or
    ``# sent_id`` / ``# text`` from the metadata), then one line per word
    (ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL; DEPS and MISC ``_``)."""
    def col(values: Sequence[str], i: int) -> str:
        return values[i] if i < len(values) and values[i] not in (None, "") else "_"

    blocks = []
    for s in sentences:
        lines = list(s.comments) if s.comments else [
            f"# {k} = {v}" for k, v in s.metadata.items() if v is not None]
        for i in range(s.n_words):
            lines.append("\t".join([str(i + 1), col(s.forms, i), col(s.lemmas, i),
                                    col(s.upos, i), col(s.xpos, i), col(s.feats, i),
                                    str(int(s.heads[i])), col(s.deprels, i), "_", "_"]))
        blocks.append("\n".join(lines) + "\n\n")
    return "".join(blocks)


def write_conllu(path: PathLike, sentences: Iterable[DepSentence]) -> None:
    """Write :func:`to_conllu` of ``sentences`` to ``path`` (atomically)."""

    write_atomic(path, to_conllu(sentences))
