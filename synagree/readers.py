"""Readers: CoNLL-U / CoNLL-X dependency files and bracketed phrase-structure trees.

Conventions (SPEC §1–2, and the decisions SPEC §10 asks for):

* Dependency files are read with the ``conllu`` package, one line at a time so
  that every word keeps its line number.  CoNLL-X and CoNLL-U share the
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
  default and an error with ``strict=True``: see SPEC §2 and
  :func:`unreachable_words`.
* Every problem of a file is gathered (:mod:`synagree.problems`) before the
  reader raises :class:`~synagree.problems.InputError`.

Bracketed trees: ``(S (NP P) (VP V (NP D N)))``, one or more per file,
possibly across lines.  Two shapes exist (SPEC §1):

* ``delex``: leaves are categories, every bare string is a node;
* ``penn``: bare strings are words under preterminals and are dropped, so the
  preterminals become the leaves.

``style="auto"`` infers it per file by this rule: the file is ``penn`` when
every bare string is the only child of its bracket (the shape of
word-under-preterminal), otherwise ``delex``.  A file whose trees are all
unary at the bottom is ambiguous; pass ``style`` explicitly for such files.
"""
from __future__ import annotations

import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
from conllu.exceptions import ParseException
from conllu.parser import DEFAULT_FIELD_PARSERS, DEFAULT_FIELDS, parse_comment_line

from .compression import (READ_ERRORS, CorruptCompressedFile, open_binary, read_bytes,
                          strip_suffix)
from .conllu_ids import Ranges, bad_head_hint, bad_id_message, parse_head, parse_id
from .problems import WARNING, InputError, ProblemLog, quote, shorten

PathLike = Union[str, os.PathLike]

_RAW = lambda line, i: line[i]  # noqa: E731 -- keep FEATS/MISC/DEPS as written
_FIELD_PARSERS = {**DEFAULT_FIELD_PARSERS, "feats": _RAW, "misc": _RAW, "deps": _RAW,
                  "xpos": _RAW, "head": _RAW, "id": _RAW}  # ID, HEAD: conllu_ids


def _parse_columns(cols: List[str]) -> dict:
    """The 10 tab-separated columns through conllu's field parsers.

    (conllu's own ``parse_line`` also splits at runs of two spaces, which
    would cut a FORM that contains spaces; the columns are split at tabs only.)
    """
    tok = {}
    for i, name in enumerate(DEFAULT_FIELDS):
        parser = _FIELD_PARSERS.get(name)
        tok[name] = parser(cols, i) if parser else cols[i]
    return tok


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
    word_lines: List[int] = field(default_factory=list)
    metadata: Dict[str, Optional[str]] = field(default_factory=dict)
    comments: List[str] = field(default_factory=list)

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
        """|t| per SPEC §2: words + 1 (the artificial root counts)."""
        return self.n_words + 1

    def label_of(self) -> str:
        return self.sent_id or f"{Path(self.file).name}#{self.index + 1}"


@dataclass
class PhraseNode:
    label: str
    children: List["PhraseNode"] = field(default_factory=list)


@dataclass
class PhraseSentence:
    """One bracketed tree, already delexicalised (leaves are categories)."""

    file: str
    index: int
    line: int
    root: PhraseNode
    words: List[str] = field(default_factory=list)  # Penn input only
    metadata: Dict[str, Optional[str]] = field(default_factory=dict)

    @property
    def sent_id(self) -> Optional[str]:
        return self.metadata.get("sent_id")

    @property
    def text(self) -> Optional[str]:
        return " ".join(self.words) if self.words else None

    @property
    def leaves(self) -> List[str]:
        out: List[str] = []
        stack = [self.root]
        while stack:
            node = stack.pop()
            if not node.children:
                out.append(node.label)
            else:
                stack.extend(reversed(node.children))
        return out

    @property
    def size(self) -> int:
        """|t| per SPEC §2: the number of leaves (preterminals)."""
        return len(self.leaves)

    def label_of(self) -> str:
        return self.sent_id or f"{Path(self.file).name}#{self.index + 1}"


Sentence = Union[DepSentence, PhraseSentence]


# --------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------

def read_text(path: "PathLike", log: ProblemLog) -> Optional[str]:
    """The file's text (UTF-8, BOM dropped), or None after logging why not:
    missing or unreadable file, corrupt compressed file, every line with
    undecodable bytes, empty file.  ``.gz``/``.xz``/``.bz2`` files are
    decompressed (:mod:`synagree.compression`)."""
    path = Path(path)
    try:
        raw = read_bytes(path)
    except CorruptCompressedFile as exc:
        log.add(str(path), None, "corrupt-compressed-file", str(exc))
        return None
    except FileNotFoundError:
        log.add(str(path), None, "file-not-found", "no such file")
        return None
    except IsADirectoryError:
        log.add(str(path), None, "not-a-file", "is a directory, expected a file")
        return None
    except OSError as exc:
        log.add(str(path), None, "unreadable", f"cannot read file: {exc.strerror}")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        for no, chunk in enumerate(raw.split(b"\n"), start=1):
            try:
                chunk.decode("utf-8")
            except UnicodeDecodeError as exc:
                log.add(str(path), no, "encoding",
                        f"undecodable bytes (not UTF-8) at column {exc.start + 1}")
        text = raw.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        log.add(str(path), None, "empty-file", "file is empty (no sentences)")
        return None
    return text


@contextmanager
def _raise_new_errors(log: ProblemLog) -> Iterator[int]:
    """Read one file into ``log``; afterwards raise :class:`InputError` with the
    errors it added (the whole file is read first).  Yields the error count
    before, so the reader can tell whether anything else went wrong."""
    n_before = len(log.errors)
    yield n_before
    if len(log.errors) > n_before:
        raise InputError(log.errors[n_before:], log.warnings)


def unreachable_words(heads: np.ndarray) -> List[int]:
    """1-based ids of words not reachable from token 0 (they sit on or under a cycle).

    Walks down from the artificial root the way the reference implementation
    built its trees, so exactly these words are left out of the TED tree.
    """
    n = len(heads)
    children: List[List[int]] = [[] for _ in range(n + 1)]
    for i, h in enumerate(heads, start=1):
        if 0 <= h <= n:
            children[h].append(i)
    seen = np.zeros(n + 1, dtype=bool)
    seen[0] = True
    stack = [0]
    while stack:
        node = stack.pop()
        for c in children[node]:
            if not seen[c]:
                seen[c] = True
                stack.append(c)
    return [i for i in range(1, n + 1) if not seen[i]]


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


# --------------------------------------------------------------------------
# CoNLL-U / CoNLL-X
# --------------------------------------------------------------------------

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
    with _raise_new_errors(log) as n_before:
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


def sentence_blocks(text: str) -> List[Tuple[int, List[Tuple[int, str]]]]:
    """Split into sentence blocks: (first line number, [(line number, line)])."""
    blocks = []
    cur: List[Tuple[int, str]] = []
    for no, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if line.strip() == "":
            if cur:
                blocks.append((cur[0][0], cur))
                cur = []
        else:
            cur.append((no, line))
    if cur:
        blocks.append((cur[0][0], cur))
    return blocks


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
    ok = True
    # word lines too broken to read: with any, IDs cannot be checked for sequence
    # and HEAD may point at one of them (so the HEAD range widens by as many)
    dropped = 0
    ranges = Ranges()
    for no, line in lines:
        if line.startswith("#"):
            comments.append(line)
            try:
                for key, value in parse_comment_line(line):
                    metadata[key] = value
            except ParseException:
                pass  # free-form comment: kept in ``comments`` only
            continue
        cols = split_columns(line, fname, no, log, sent_id=metadata.get("sent_id"))
        if cols is None:
            ok = False
            dropped += 1
            continue
        cid = parse_id(cols[0])
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
            continue
        if cid.is_empty_node:
            continue
        tok = _parse_columns(cols)
        tok["id"] = cid.first
        words.append((no, tok))
    sid = metadata.get("sent_id")
    if not words:
        if ok:
            log.add(fname, first, "no-words", "sentence has no words (only comments)",
                    sent_id=sid)
        return None
    n = len(words)
    heads = np.zeros(n, dtype=np.int32)
    for k, (no, tok) in enumerate(words, start=1):
        if tok["id"] != k and not dropped:
            log.add(fname, no, "id-sequence",
                    f"word ID {tok['id']} out of sequence: expected {k}", sent_id=sid)
            ok = False
        raw_head = str(tok["head"])
        h = parse_head(raw_head)
        if h is None:
            log.add(fname, no, "bad-head",
                    f"HEAD {quote(raw_head)} of word {tok['id']} is not an integer"
                    + bad_head_hint(raw_head), sent_id=sid)
            ok = False
            continue
        if h < 0 or h > n + dropped:
            log.add(fname, no, "head-out-of-range",
                    f"HEAD {h} of word {tok['id']} is out of range 0..{n + dropped}",
                    sent_id=sid)
            ok = False
            continue
        heads[k - 1] = h
        if tok["deprel"] in (None, "_", ""):
            log.add(fname, no, "missing-deprel",
                    f"word {tok['id']} has no DEPREL ('_'); compared as the label '_'",
                    severity=WARNING, sent_id=sid)
    if not ok:
        return None
    sent = DepSentence(
        file=fname, index=index, line=first,
        forms=[t["form"] or "_" for _, t in words],
        heads=heads,
        deprels=[t["deprel"] if t["deprel"] not in (None, "") else "_" for _, t in words],
        upos=[t["upos"] or "_" for _, t in words],
        xpos=[t["xpos"] or "_" for _, t in words],
        feats=[t["feats"] or "_" for _, t in words],
        lemmas=[t["lemma"] or "_" for _, t in words],
        word_lines=[no for no, _ in words],
        metadata=metadata, comments=comments,
    )
    lost = unreachable_words(heads)
    if lost:
        cyc = sorted(w for cycle in head_cycles(heads) for w in cycle)
        desc = ", ".join(f"{w} ({shorten(sent.forms[w - 1])})" for w in cyc)
        extra = len(lost) - len(cyc)
        under = f", and {extra} word(s) under it" if extra else ""
        log.add(fname, sent.word_lines[cyc[0] - 1] if cyc else first, "cycle",
                f"head cycle in sentence {index + 1} (line {first}): words {desc}{under} "
                f"are not reachable from the root; they are left out of the TED tree "
                f"but counted in |t| and LAS/UAS/LA",
                severity=WARNING, sent_id=sid)
    return sent


# --------------------------------------------------------------------------
# Writing CoNLL-U (for perturbed copies, fixtures, round trips)
# --------------------------------------------------------------------------

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
    from .report import write_atomic

    write_atomic(path, to_conllu(sentences))


# --------------------------------------------------------------------------
# Bracketed phrase structure
# --------------------------------------------------------------------------

_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def read_brackets(path: PathLike, style: str = "auto", log: Optional[ProblemLog] = None,
                  strict: bool = False) -> List[PhraseSentence]:
    """Read bracketed trees; ``style`` is ``"auto"``, ``"delex"`` or ``"penn"``.

    Returns trees in delexicalised form (SPEC §1): the compared tree is the
    same whichever style the file was written in.
    """
    if style not in ("auto", "delex", "penn"):
        raise ValueError(f"style must be auto, delex or penn, not {style!r}")
    path = Path(path)
    log = log if log is not None else ProblemLog(strict=strict)
    out: List[PhraseSentence] = []
    with _raise_new_errors(log) as n_before:
        text = read_text(path, log)
        raw_trees = _parse_brackets(text, str(path), log) if text is not None else None
        if raw_trees is not None and len(log.errors) == n_before:
            if not raw_trees:
                log.add(str(path), None, "empty-file", "file holds no bracketed trees")
            if style == "auto":
                style = "penn" if all(_penn_shaped(t) for _, t in raw_trees) else "delex"
            for index, (line, tree) in enumerate(raw_trees):
                words: List[str] = []
                root = _delex(tree, style, words)
                if root is None:
                    log.add(str(path), line, "empty-tree", "tree has no nodes")
                    continue
                out.append(PhraseSentence(str(path), index, line, root, words))
    return out


def _parse_brackets(text: str, fname: str, log: ProblemLog):
    """Tokenise and build nested lists ``[label, child...]`` with line numbers.

    A bare string child is kept as ``str``.  Reports unbalanced brackets and
    stray text with line numbers.
    """
    trees = []
    stack: List[list] = []
    starts: List[int] = []
    for no, line in enumerate(text.split("\n"), start=1):
        if not stack and line.lstrip().startswith("#"):
            continue  # comment line between trees
        for m in _TOKEN.finditer(line):
            tok = m.group()
            if tok == "(":
                node: list = []
                if stack:
                    stack[-1].append(node)
                else:
                    starts.append(no)
                stack.append(node)
            elif tok == ")":
                if not stack:
                    log.add(fname, no, "unbalanced-brackets",
                            f"unmatched ')' at column {m.start() + 1}")
                    continue
                node = stack.pop()
                if not stack:
                    trees.append((starts[-1], node))
            else:
                if not stack:
                    log.add(fname, no, "stray-text",
                            f"text {tok!r} outside any bracket at column {m.start() + 1}")
                    continue
                stack[-1].append(tok)
    if stack:
        log.add(fname, starts[-1] if starts else None, "unbalanced-brackets",
                f"{len(stack)} unclosed '(' in the tree starting here")
    return trees


def _label_and_kids(node: list) -> Tuple[str, list]:
    """A parsed bracket ``[label, child...]``; ``( (S ...))`` has the label ``""``."""
    if node and isinstance(node[0], str):
        return node[0], node[1:]
    return "", node


def _penn_shaped(node: list) -> bool:
    """True when every bare string under ``node`` is the only child of its bracket."""
    _, kids = _label_and_kids(node)
    strings = [k for k in kids if isinstance(k, str)]
    if strings and len(kids) != 1:
        return False
    return all(_penn_shaped(k) for k in kids if isinstance(k, list))


def _delex(node: list, style: str, words: List[str]) -> Optional[PhraseNode]:
    label, kids = _label_and_kids(node)
    if style == "penn" and len(kids) == 1 and isinstance(kids[0], str):
        words.append(kids[0])
        return PhraseNode(label)
    children = []
    for k in kids:
        if isinstance(k, str):
            if style == "penn":
                words.append(k)
                continue
            children.append(PhraseNode(k))
        else:
            child = _delex(k, style, words)
            if child is not None:
                children.append(child)
    if label == "" and len(children) == 1:
        return children[0]  # drop an unlabelled wrapper bracket
    if label == "" and not children:
        return None
    return PhraseNode(label, children)


def sniff_format(path: PathLike) -> str:
    """Guess ``"conllu"`` or ``"phrase"`` from the first non-comment, non-blank line
    (a compression suffix is looked through: ``a.conllu.gz`` is CoNLL-U)."""
    p = Path(path)
    suffix = Path(strip_suffix(p.name)).suffix.lower()
    if suffix in (".conllu", ".conll", ".conllx"):
        return "conllu"
    if suffix in (".tree", ".trees", ".mrg", ".ptb", ".brackets"):
        return "phrase"
    try:
        with open_binary(p) as fh:
            for raw in fh:
                line = raw.decode("utf-8", errors="replace").strip()
                if not line or line.startswith("#"):
                    continue
                return "phrase" if line.startswith("(") else "conllu"
    except READ_ERRORS:  # the reader reports it
        pass
    return "conllu"


def read_any(path: PathLike, fmt: str = "auto", phrase_style: str = "auto",
             log: Optional[ProblemLog] = None, strict: bool = False) -> List[Sentence]:
    """Read a dependency or phrase-structure file (``fmt``: auto|conllu|phrase)."""
    if fmt == "auto":
        fmt = sniff_format(path)
    if fmt in ("conllu", "conll", "conllx", "dependency"):
        return read_conllu(path, log=log, strict=strict)
    if fmt == "phrase":
        return read_brackets(path, style=phrase_style, log=log, strict=strict)
    raise ValueError(f"unknown format {fmt!r} (expected auto, conllu or phrase)")
