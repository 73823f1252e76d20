"""Structured input problems.

Readers never stop at the first problem: they gather every problem of a file
as a `Problem` record (file, line, sentence id, kind, severity,
message) into a `ProblemLog`.  Errors make the caller raise
`InputError` once the whole file has been read; warnings are reported
and the computation goes on.  ``strict=True`` turns warnings into errors.

Line numbers are 1-based; ``line=None`` means the problem concerns the file
as a whole (e.g. an empty file).

Input text in messages is shortened here, in one place: a message quotes
input through `quote` (at most `SHOWN` characters, then ``…``
and the length), and every `Problem` tames its message and sentence
id on creation (`tame`): control characters escaped, any run of more
than `LONG_RUN` non-space characters and any message over
`LONG_MESSAGE` characters shortened.  A 10 MB token is never echoed
whole to stderr or into a JSON report.
"""
from __future__ import annotations

import re
import sys
import textwrap
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence

# quoting input in a message: in a light module shared with the fast paths (issue 36)
from synagree.base.escape import SHOWN as SHOWN  # re-exported (moved to base.escape)
from synagree.base.escape import quote as quote
from synagree.base.escape import shorten as shorten

ERROR = "error"
WARNING = "warning"

LONG_RUN = 200  #: longer runs of non-space characters in a message are shortened
LONG_MESSAGE = 2000  #: longer messages are shortened

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_LONG_RUN = re.compile(r"\S{%d,}" % (LONG_RUN + 1))


def _escape_control(m: "re.Match[str]") -> str:
    c = m.group()
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(c, f"\\u{ord(c):04x}")


def tame(text: Optional[str]) -> Optional[str]:
    r"""A message or sentence id made safe to print on one line.

    Control characters (and lone surrogates) are escaped, runs of more than
    `LONG_RUN` non-space characters and messages over `LONG_MESSAGE`
    characters shortened.

    Returns
    -------
    str or None
        None stays None.
    """
    if text is None:
        return None
    text = str(text)
    if len(text) > LONG_MESSAGE:
        text = shorten(text, LONG_MESSAGE // 2)
    text = _CONTROL.sub(_escape_control, text)
    if len(text) > LONG_RUN:
        text = _LONG_RUN.sub(lambda m: shorten(m.group()), text)
    return text


@dataclass(frozen=True)
class Problem:
    """One problem found in the input: where, what kind, how bad, and a message.

    Messages and sentence ids are made printable (`tame`) on creation.

    Parameters
    ----------
    file : str
        The file (or ``"<command line>"``).
    line : int or None
        1-based line number; None: the file as a whole.
    kind : str
        Short machine-readable key, e.g. ``"head-out-of-range"``.
    message : str
        What is wrong, for people.
    severity : {"error", "warning"}
    sent_id : str, optional
        The sentence's ``# sent_id``, when known.
    hint : str, optional
        What the user can do about it.  Not part of ``str(problem)``: a listing
        prints each distinct hint once, after the problems (`hint_lines`), so
        that a hundred unaligned sentences do not repeat the same advice.

    Examples
    --------
    >>> p = Problem("a.conllu", 7, "bad-head", "HEAD 'x' of word 2 is not an integer",
    ...             sent_id="s1")
    >>> print(p)
    a.conllu:7: error: HEAD 'x' of word 2 is not an integer (bad-head) [sentence s1]
    >>> p.as_dict()["severity"]
    'error'
    """

    file: str
    line: Optional[int]
    kind: str  # short machine-readable key, e.g. "head-out-of-range"
    message: str
    severity: str = ERROR
    sent_id: Optional[str] = None
    hint: Optional[str] = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", tame(self.message))
        object.__setattr__(self, "hint", tame(self.hint))
        if self.sent_id is not None:
            object.__setattr__(self, "sent_id", tame(shorten(self.sent_id, 2 * SHOWN)))

    def __str__(self) -> str:
        file = tame(self.file)
        where = file if self.line is None else f"{file}:{self.line}"
        sent = f" [sentence {self.sent_id}]" if self.sent_id else ""
        return f"{where}: {self.severity}: {self.message} ({self.kind}){sent}"

    def as_dict(self) -> Dict[str, Any]:
        """The problem's fields as a dict (JSON-ready)."""
        return asdict(self)


#: Problems of one file after which its reading stops (`ProblemLog.add`).
MAX_FILE_PROBLEMS = 10_000


@dataclass
class ProblemLog:
    """Problems gathered while reading; ``strict`` promotes warnings to errors.

    Parameters
    ----------
    strict : bool
        Record every warning as an error.
    problems : list of Problem
        The problems so far, in the order added.

    Examples
    --------
    >>> log = ProblemLog()
    >>> log.add("a.conllu", 3, "cycle", "head cycle", severity=WARNING)
    >>> log.add("a.conllu", 9, "bad-id", "ID 'x' is not a number")
    >>> len(log), len(log.errors), len(log.warnings)
    (2, 1, 1)
    >>> strict = ProblemLog(strict=True)
    >>> strict.add("a.conllu", 3, "cycle", "head cycle", severity=WARNING)
    >>> strict.errors[0].severity
    'error'
    >>> try:
    ...     log.raise_if_errors()
    ... except InputError as exc:
    ...     print(exc)
    a.conllu:9: error: ID 'x' is not a number (bad-id)
    """

    strict: bool = False
    problems: List[Problem] = field(default_factory=list)
    per_file: Dict[str, int] = field(default_factory=dict)

    def add(self, file: str, line: Optional[int], kind: str, message: str,
            severity: str = ERROR, sent_id: Optional[str] = None,
            hint: Optional[str] = None) -> None:
        """Record one problem (a warning becomes an error under ``strict``).

        Raises
        ------
        InputError
            ``too-many-problems``: the `MAX_FILE_PROBLEMS`-th problem of one
            file stops its reading (a file of millions of blank lines would
            otherwise hold millions of records): the errors so far, and this one.
        """
        if self.strict and severity == WARNING:
            severity = ERROR
        file = str(file)
        self.problems.append(Problem(file, line, kind, message, severity, sent_id, hint))
        count = self.per_file[file] = self.per_file.get(file, 0) + 1
        if count >= MAX_FILE_PROBLEMS:
            at = f" at line {line:,}" if line is not None else ""
            self.problems.append(Problem(  # (no line: listed first, before the 10,000)
                file, None, "too-many-problems",
                f"{count:,} problems in this file: reading stopped{at} (is it the file "
                f"meant, in the format meant?)"))
            self.per_file[file] = -10**18  # (the refusal is added once)
            raise InputError(self.errors, self.warnings)

    def extend(self, problems: Iterable[Problem]) -> None:
        """Record problems from elsewhere (``strict`` applies to them too)."""
        for p in problems:
            self.add(p.file, p.line, p.kind, p.message, p.severity, p.sent_id, p.hint)

    @property
    def errors(self) -> List[Problem]:
        """The problems of severity ``error``."""
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def warnings(self) -> List[Problem]:
        """The problems of severity ``warning``."""
        return [p for p in self.problems if p.severity == WARNING]

    def raise_if_errors(self) -> None:
        """Raise `InputError` with every error (and the warnings) if there is any."""
        if self.errors:
            raise InputError(self.errors, self.warnings)

    def __iter__(self) -> Iterator[Problem]:
        return iter(self.problems)

    def __len__(self) -> int:
        return len(self.problems)


def _in_line_order(problems: Iterable[Problem]) -> List[Problem]:
    """Files in the order first seen; within a file, whole-file problems first,
    then by line (stable, so problems of one line keep their order)."""
    problems = list(problems)
    first_seen: Dict[str, int] = {}
    for p in problems:
        first_seen.setdefault(p.file, len(first_seen))
    return sorted(problems, key=lambda p: (first_seen[p.file], p.line or 0))


class InputError(Exception):
    """Bad input: carries every error found (and the warnings seen so far).

    The errors are deduplicated and sorted by file (in the order first seen),
    then by line; ``str(exc)`` lists them one per line.

    Parameters
    ----------
    errors : list of Problem
    warnings : list of Problem, optional

    Attributes
    ----------
    errors, warnings : list of Problem

    Examples
    --------
    >>> exc = InputError([Problem("b.conllu", 4, "bad-id", "bad ID"),
    ...                   Problem("b.conllu", 2, "bad-head", "bad HEAD")])
    >>> [p.line for p in exc.errors]
    [2, 4]
    >>> print(InputError.single("<command line>", None, "usage", "give two files"))
    <command line>: error: give two files (usage)
    """

    def __init__(self, errors: List[Problem], warnings: Optional[List[Problem]] = None):
        # (a file given twice would list each of its problems twice)
        self.errors = _in_line_order(dict.fromkeys(errors))
        self.warnings = list(warnings or [])
        super().__init__(self.format())

    @classmethod
    def single(cls, file: str, line: Optional[int], kind: str, message: str,
               sent_id: Optional[str] = None) -> "InputError":
        """An `InputError` of one error problem."""
        return cls([Problem(str(file), line, kind, message, ERROR, sent_id)])

    def format(self, limit: int = 50) -> str:
        """The errors one per line, at most ``limit`` of them and a count of the rest,
        then each distinct hint once (`hint_lines`)."""
        lines = [str(p) for p in self.errors[:limit]]
        if len(self.errors) > limit:
            lines.append(f"... and {len(self.errors) - limit} more errors")
        return "\n".join(lines + hint_lines(self.errors))


#: hint lines are folded at this width (problem lines are not: one problem, one line)
HINT_WIDTH = 100


def hint_lines(problems: Iterable[Problem]) -> List[str]:
    """Each distinct hint of ``problems`` once, in the order first seen, as
    ``hint: ...`` folded at `HINT_WIDTH` characters (continuations indented)."""
    hints = dict.fromkeys(p.hint for p in problems if p.hint)
    # an option and the word after it stay on one line ("--match text")
    return [_KEEP.sub(" ", textwrap.fill(_OPTION_ARG.sub("\\1\0", f"hint: {h}"), HINT_WIDTH,
                                        subsequent_indent="      ", break_long_words=False,
                                        break_on_hyphens=False))
            for h in hints]


_OPTION_ARG = re.compile(r"(--[\w-]+) ")
_KEEP = re.compile("\0")


def print_problems(problems: Sequence["Problem"], limit: int = 30,
                   warnings: Sequence["Problem"] = (), warning_limit: int = 10) -> None:
    """List problems on stderr as ``file:line: severity: message (kind)``, then
    each distinct hint once (`hint_lines`).

    Parameters
    ----------
    problems : sequence of Problem
    limit : int
        At most this many are listed, then a count of the rest.
    warnings, warning_limit
        Warnings seen before ``problems`` (an `InputError`'s), listed first, at
        most ``warning_limit`` of them; their hints join the one list of hints.
    """
    for listed, most in ((warnings, warning_limit), (problems, limit)):
        for p in listed[:most]:
            print(str(p), file=sys.stderr)
        if len(listed) > most:
            print(f"... and {len(listed) - most} more", file=sys.stderr)
    for line in hint_lines([*warnings, *problems]):
        print(line, file=sys.stderr)
