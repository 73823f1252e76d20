"""Bracketed trees read as EVALB reads them: one sentence a line, byte by byte.

docs/method.md §22.2.  EVALB's ``read_line`` reads each line of a file as one
sentence, whatever it holds: ``(TOP (S ...))``, ``( (S ...))`` or several
trees.  Scanning the line:

* ``(LABEL`` followed by white space, a word and ``)`` is a *terminal*
  (a preterminal and its word).  Its tag is kept as written.  Unless the tag is
  a ``DELETE_LABEL_FOR_LENGTH`` label it counts in the sentence's *length*;
  if the tag is a ``DELETE_LABEL`` label (compared as written, without
  ``EQ_LABEL``) the word is dropped, else it is the next word.  A terminal
  whose tag is a ``QUOTE_LABEL`` label and whose word is ``'``, ``"`` or
  ``/`` is remembered (with the word position, the bracket count and the open
  brackets) for the 2006 length fix, dropped or not.
* any other ``(LABEL`` opens a *bracket* starting at the next word;
  ``( (S ...))`` opens one with the empty label;
* ``)`` closes the innermost open bracket: it ends before the next word, so a
  bracket over nothing but dropped words has no words at all.

EVALB loops on any other text (a word beside a bracket, ``(NP the dog)``,
text outside the brackets) until its error limit kills it, and corrupts its
memory on a ``)`` too many; these, and an unclosed ``(``, are errors here
(``stray-text``, ``unbalanced-brackets``), as is a gold line without any
terminal (``empty-tree``).  A system line without words is EVALB's *skip*
sentence (a parser's failure), not an error.

Files are read as bytes and each byte is kept as one character (Latin-1):
EVALB compares bytes and pads its debug columns by bytes.  Where a line
exceeds one of EVALB's fixed buffers (a 5,000-byte line, 200 words or brackets
in a sentence, 20 quote terminals, a 100-byte word, a 30-byte label) the
compiled program misreads it or overwrites memory; synagree reads it in full
and says so (warning ``evalb-limit``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from synagree.base.problems import InputError, Problem, ProblemLog, quote
from synagree.io.compression import CorruptCompressedFile, decompress, read_bytes
from synagree.io.evalb_params import C_SPACE, EvalbParams
from synagree.io.evalb_text import latin1_text, split_lines
from synagree.io.files import read_problem
from synagree.io.sources import Buffer, Source, as_input, input_name

# the two questions `synagree compare` asks before choosing a path live in a light module
# of their own (a CoNLL-U comparison need not load this one: issue 36, start-up); the
# names stay importable from here
from synagree.io.tree_kind import bracketed_file, trees_span_lines

__all__ = ["BracketLines", "QuoteTerm", "ParsedLine", "read_bracket_lines", "parse_line",
           "bracketed_file", "trees_span_lines",
           "parse_lines", "limit_problems", "LIMITS", "QUOTE_WORDS"]

#: EVALB's fixed buffers (evalb.c): bytes a line, words and brackets a sentence,
#: quote terminals a sentence, bytes of a word and of a label (with the NUL)
LIMITS = {"line": 5000, "words": 200, "brackets": 200, "quotes": 20, "word": 100,
          "label": 30, "debug_span": 1000}
#: the words a QUOTE_LABEL terminal must have to be a quote terminal (evalb.c)
QUOTE_WORDS = frozenset(("'", '"', "/"))

_WS = "[" + re.escape(C_SPACE) + "]"
_NT = "[^" + re.escape(C_SPACE) + "()]"
# one step of read_line's scan: white space; '(' with its label and, when white
# space follows, the word after it and whether ')' closes it; ')'; anything else
_STEP = re.compile(rf"({_WS}+)|\(({_NT}*)(?:({_WS}+)({_NT}*)(\))?)?|(\))|(.)", re.S)

_WORD = re.compile(f"{_NT}*")


@dataclass
class BracketLines:
    r"""A bracketed file's lines: EVALB's sentences.

    Parameters
    ----------
    file : str
        The path as given.
    lines : list of str
        Each line without its ``\n``, one character per byte (Latin-1).
    """

    file: str
    lines: List[str]

    def __len__(self) -> int:
        return len(self.lines)

    def text(self, index: int) -> str:
        """Line ``index`` (0-based) as text: its bytes read as UTF-8, bad bytes replaced."""
        return self.lines[index].encode("latin-1").decode("utf-8", errors="replace")


@dataclass
class QuoteTerm:
    """A quote terminal of a line, remembered for EVALB's length fix (2006).

    Parameters
    ----------
    word, label : str
    index : int
        The word position it has, or would have had (0-based).
    bracket : int
        Brackets opened before it.
    ends : tuple of int
        The brackets open around it.
    """

    word: str
    label: str
    index: int
    bracket: int
    ends: Tuple[int, ...]


@dataclass
class ParsedLine:
    r"""One line as EVALB reads it (before its brackets are massaged).

    Parameters
    ----------
    terminals : list of (str, str)
        The kept words with their tags, ``(word, tag)``.
    brackets : list of list
        Per bracket ``[start, end, label, buf_start, buf_end]``: its first word
        and the word after its last (``end - start`` words), the label as
        written, and where in the line the text after its label starts and its
        ``)`` stands.
    quotes : list of QuoteTerm
    length : int
        EVALB's sentence length: terminals whose tag is not a
        ``DELETE_LABEL_FOR_LENGTH`` label, dropped ones included.
    n_terminals : int
        Every ``(TAG word)`` of the line, dropped or not.
    trace : list of str
        With ``debug``: EVALB's ``DEBUG 2`` lines printed while reading.
    """

    terminals: List[Tuple[str, str]]
    brackets: List[list]
    quotes: List[QuoteTerm]
    length: int
    n_terminals: int
    trace: List[str] = field(default_factory=list)


class LineError(ValueError):
    """A line EVALB cannot read: ``kind`` and ``column`` (1-based) with the message."""

    def __init__(self, kind: str, column: int, message: str):
        super().__init__(message)
        self.kind, self.column = kind, column


def parse_line(line: str, params: EvalbParams, debug: bool = False) -> ParsedLine:
    r"""Read one line as EVALB's ``read_line`` does.

    Parameters
    ----------
    line : str
        One character per byte (Latin-1), without the ``\n``.
    params : EvalbParams
        ``DELETE_LABEL``, ``DELETE_LABEL_FOR_LENGTH`` and ``QUOTE_LABEL`` apply
        while reading.
    debug : bool
        Record EVALB's ``DEBUG 2`` lines (`ParsedLine.trace`).

    Raises
    ------
    LineError
        ``stray-text`` (text outside a ``(TAG word)`` bracket, a NUL byte) or
        ``unbalanced-brackets``; the first problem of the line.
    """
    deleted = params.delete_labels
    for_length = params.delete_labels_for_length
    quote_labels = params.quote_labels
    terminals: List[Tuple[str, str]] = []
    brackets: List[list] = []
    quotes: List[QuoteTerm] = []
    stack: List[int] = []
    trace: List[str] = []
    length = n_terms = 0
    pos, n = 0, len(line)
    step = _STEP.match
    if "\x00" in line:
        col = line.index("\x00") + 1
        raise LineError("stray-text", col,
                        f"NUL byte at column {col} (EVALB stops reading the line there)")
    while pos < n:
        m = step(line, pos)
        assert m is not None  # the last alternative matches anything
        if m.group(1) is not None:  # white space
            pos = m.end()
            continue
        if m.group(6) is not None:  # ')'
            if not stack:
                raise LineError("unbalanced-brackets", pos + 1,
                                f"')' at column {pos + 1} closes no bracket")
            b = brackets[stack.pop()]
            b[1] = len(terminals)
            b[4] = pos
            pos += 1
            continue
        if m.group(7) is not None:  # any other character
            word = _WORD.match(line, pos).group() or line[pos]  # type: ignore[union-attr]
            where = ("stands beside a bracket, not as the one word of a (TAG word) "
                     "preterminal" if stack else "stands outside any bracket")
            raise LineError("stray-text", pos + 1,
                            f"{quote(latin1_text(word))} at column {pos + 1} {where}")
        label = m.group(2)
        label_end = m.end(2)
        if m.group(3) is not None:  # white space after the label: a word may follow
            word = m.group(4)
            if debug:
                trace.append(f"label={label}, word={word}, wid={len(terminals)}")
            if m.group(5) is not None:  # (TAG word): a terminal
                n_terms += 1
                if label not in for_length:
                    length += 1
                if label in quote_labels and word in QUOTE_WORDS:
                    quotes.append(QuoteTerm(word, label, len(terminals), len(brackets),
                                            tuple(stack)))
                if label not in deleted:
                    terminals.append((word, label))
                pos = m.end()
                continue
            if word:  # (LABEL word word ...): the second element is stray
                raise LineError("stray-text", m.start(4) + 1,
                                f"{quote(latin1_text(word))} at column {m.start(4) + 1} stands "
                                f"beside a bracket, not as the one word of a (TAG word) "
                                f"preterminal")
        stack.append(len(brackets))
        brackets.append([len(terminals), -1, label, label_end, -1])
        pos = m.end()
    if stack:
        b = brackets[stack[0]]
        raise LineError("unbalanced-brackets", b[3] - len(b[2]),
                        f"{len(stack)} '(' not closed on this line (the first at column "
                        f"{b[3] - len(b[2])}); EVALB reads one sentence a line")
    return ParsedLine(terminals, brackets, quotes, length, n_terms, trace)


def read_bracket_lines(path: Source, log: Optional[ProblemLog] = None
                       ) -> Optional[BracketLines]:
    r"""A bracketed file's lines (``.gz``/``.xz``/``.bz2`` decompressed).

    Parameters
    ----------
    path : str, path-like, file-like or Buffer
        A file, or a stream (`synagree.io.sources`: binary data decompressed
        when compressed, text taken as its UTF-8 bytes).
    log : ProblemLog, optional
        Receives ``file-not-found``, ``not-a-file``, ``unreadable``,
        ``corrupt-compressed-file`` or ``empty-file``; None: they are raised.

    Returns
    -------
    BracketLines or None
        None when the file could not be read (the problem is in ``log``).

    Raises
    ------
    InputError
        Without ``log``, when the file cannot be read or is empty.
    """
    own = log is None
    log = ProblemLog() if log is None else log
    source = as_input(path)
    name = input_name(source)
    out: Optional[BracketLines] = None
    raw: Optional[bytes] = None
    if isinstance(source, Buffer) and source.data is None:
        log.add(name, None, "unreadable", f"cannot read the stream: {source.error}")
    else:
        try:
            if isinstance(source, Buffer):
                assert source.data is not None
                raw = (source.data.encode("utf-8") if isinstance(source.data, str)
                       else decompress(source.data, name=name))  # by its first bytes only
            else:
                raw = read_bytes(source)
        except (CorruptCompressedFile, OSError) as exc:
            log.add(name, None, *read_problem(exc))
    if raw is not None:
        if not raw:
            log.add(name, None, "empty-file", "file is empty (no sentences)")
        else:
            out = BracketLines(name, split_lines(raw))  # as fgets reads them
    if own and log.errors:
        raise InputError(log.errors)
    return out


def parse_lines(bl: BracketLines, params: EvalbParams, gold: bool, debug: bool = False
                ) -> Tuple[List[ParsedLine], List[Problem]]:
    r"""Every line of a file read (`parse_line`), with the problems of all lines.

    Parameters
    ----------
    bl : BracketLines
    params : EvalbParams
    gold : bool
        A gold file: a line without any ``(TAG word)`` is an error
        (``empty-tree``); in a system file it is EVALB's skip sentence.
    debug : bool
        Record the ``DEBUG 2`` lines.

    Returns
    -------
    (list of ParsedLine, list of Problem)
        The lines (None where a line has an error) and the errors, one per bad
        line.
    """
    out: List[ParsedLine] = []
    problems: List[Problem] = []
    for no, line in enumerate(bl.lines, start=1):
        try:
            pl = parse_line(line, params, debug)
        except LineError as exc:
            problems.append(Problem(bl.file, no, exc.kind, str(exc)))
            out.append(None)  # type: ignore[arg-type]
            continue
        if gold and pl.n_terminals == 0:
            problems.append(Problem(bl.file, no, "empty-tree",
                                    "gold tree has no (TAG word) terminal"
                                    + ("" if line.strip(C_SPACE) else " (a blank line)")
                                    + ": EVALB reads one sentence a line"))
        out.append(pl)
    return out, problems


def limit_problems(bl: BracketLines, lines: List[ParsedLine], debug: int = 0
                   ) -> List[Problem]:
    r"""Warnings (``evalb-limit``) for lines beyond EVALB's fixed buffers (`LIMITS`).

    Parameters
    ----------
    bl : BracketLines
    lines : list of ParsedLine
        ``bl``'s lines read.
    debug : int
        The ``DEBUG`` level: at 2, a bracket over 999 bytes of text overflows
        EVALB's debug buffer too.

    Returns
    -------
    list of Problem
        One warning per line over a limit, naming every limit it exceeds.
    """
    out: List[Problem] = []
    for no, (text, pl) in enumerate(zip(bl.lines, lines), start=1):
        if pl is None:
            continue
        over = []
        if len(text) + 1 >= LIMITS["line"]:
            over.append(f"{len(text) + 1} bytes (EVALB reads {LIMITS['line'] - 1} bytes a "
                        f"line at a time)")
        if len(pl.terminals) > LIMITS["words"]:
            over.append(f"{len(pl.terminals)} words (EVALB holds {LIMITS['words']})")
        if len(pl.brackets) > LIMITS["brackets"]:
            over.append(f"{len(pl.brackets)} brackets (EVALB holds {LIMITS['brackets']})")
        if len(pl.quotes) > LIMITS["quotes"]:
            over.append(f"{len(pl.quotes)} quote terminals (EVALB holds "
                        f"{LIMITS['quotes']})")
        if any(len(w) >= LIMITS["word"] for w, _ in pl.terminals):
            over.append(f"a word of {LIMITS['word']} bytes or more")
        if any(len(t) >= LIMITS["label"] for _, t in pl.terminals) or \
                any(len(b[2]) >= LIMITS["label"] for b in pl.brackets):
            over.append(f"a label of {LIMITS['label']} bytes or more")
        if debug > 1 and any(b[4] - b[3] >= LIMITS["debug_span"] for b in pl.brackets):
            over.append(f"a bracket over {LIMITS['debug_span']} bytes or more of text "
                        f"(EVALB's DEBUG 2 buffer)")
        if over:
            out.append(Problem(bl.file, no, "evalb-limit",
                               "; ".join(over) + ": the compiled EVALB misreads this line "
                               "or overwrites its memory here; synagree reads it in full",
                               severity="warning"))
    return out
