"""The CoNLL-U and bracket readers as they were before the fast path (issue 24).

A verbatim copy (only renamed where noted, doctest examples dropped) of the
detailed readers of ``synagree/io/conllu.py`` and ``synagree/io/brackets.py``
at commit 66d92b7, kept as the baseline that the fast readers must match
exactly: every `Problem` (file, line, sent_id, kind, severity, message) and
every field of every parsed sentence (tests/test_reader_parity.py), and the
speed they are measured against (benchmarks/bench_reader.py).

``old_read_conllu`` and ``old_parse_bracket_file`` are the old entry points
(`read_conllu` / `parse_bracket_file`); the rest are the old module-level
helpers they called.  Do not edit: a change here changes the baseline.
"""
from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from synagree.base.problems import WARNING, ProblemLog, quote, shorten
from synagree.io.conllu import DepSentence
from synagree.io.conllu_ids import Ranges, bad_head_hint, bad_id_message, parse_head, parse_id
from synagree.io.files import PathLike, raise_new_errors, read_text

Heads = Sequence[int]


def old_read_conllu(path: PathLike, log: Optional[ProblemLog] = None,
                    strict: bool = False) -> List[DepSentence]:
    """`synagree.io.conllu.read_conllu` before the fast path (body verbatim)."""
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

    Returns
    -------
    list of list of int

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

    Returns
    -------
    list of str or None

    """
    cols = line.split("\t")
    if len(cols) == 10:
        return cols
    hint = " (columns must be separated by tabs)" if len(cols) == 1 else ""
    log.add(fname, no, "column-count",
            f"expected 10 tab-separated columns, found {len(cols)}{hint}", sent_id=sent_id)
    return None




def sentence_blocks(text: str) -> Iterator[Tuple[int, List[Tuple[int, str]]]]:
    r"""Split CoNLL text into sentence blocks at blank lines.

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
        deps=[v or "_" for v in fields[8]],
    )
    lost = unreachable_words(head_list)
    if lost:
        cyc = sorted(w for cycle in head_cycles(head_list) for w in cycle)
        # short (one line of a listing): three words of the cycle, the rest
        # counted; the line is the cycle's first word's; the result's note explains
        desc = ", ".join(f"{w} ({shorten(sent.forms[w - 1], 20)})" for w in cyc[:3])
        extra = len(lost) - min(len(cyc), 3)
        more = f" and {extra} more" if extra else ""
        log.add(fname, sent.word_lines[cyc[0] - 1] if cyc else first, "cycle",
                f"head cycle in sentence {index + 1}: words {desc}{more} unreachable "
                f"from the root (§2.4)", severity=WARNING, sent_id=sid)
    return sent


_TOKEN = re.compile(r"\(|\)|[^\s()]+")
RawTree = list


def old_parse_bracket_file(path: PathLike,
                           log: ProblemLog) -> Optional[List[Tuple[int, RawTree]]]:
    """`synagree.io.brackets.parse_bracket_file` before the fast path (body verbatim)."""
    n_before = len(log.errors)
    text = read_text(path, log)
    if text is None:
        return None
    raw = _parse_brackets(text, str(path), log)
    if len(log.errors) > n_before:
        return None
    if not raw:
        log.add(str(path), None, "empty-file", "file holds no bracketed trees")
        return None
    return raw


def _parse_brackets(text: str, fname: str, log: ProblemLog) -> List[Tuple[int, RawTree]]:
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
