"""Structured input problems.

Readers never stop at the first problem: they gather every problem of a file
as a :class:`Problem` record (file, line, sentence id, kind, severity,
message) into a :class:`ProblemLog`.  Errors make the caller raise
:class:`InputError` once the whole file has been read; warnings are reported
and the computation goes on.  ``strict=True`` turns warnings into errors.

Line numbers are 1-based; ``line=None`` means the problem concerns the file
as a whole (e.g. an empty file).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Iterable, Iterator, List, Optional

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """One problem found in the input."""

    file: str
    line: Optional[int]
    kind: str  # short machine-readable key, e.g. "head-out-of-range"
    message: str
    severity: str = ERROR
    sent_id: Optional[str] = None

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        sent = f" [sentence {self.sent_id}]" if self.sent_id else ""
        return f"{where}: {self.severity}: {self.message} ({self.kind}){sent}"

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class ProblemLog:
    """Problems gathered while reading; ``strict`` promotes warnings to errors."""

    strict: bool = False
    problems: List[Problem] = field(default_factory=list)

    def add(self, file: str, line: Optional[int], kind: str, message: str,
            severity: str = ERROR, sent_id: Optional[str] = None) -> None:
        if self.strict and severity == WARNING:
            severity = ERROR
        self.problems.append(Problem(str(file), line, kind, message, severity, sent_id))

    def extend(self, problems: Iterable[Problem]) -> None:
        for p in problems:
            self.add(p.file, p.line, p.kind, p.message, p.severity, p.sent_id)

    @property
    def errors(self) -> List[Problem]:
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def warnings(self) -> List[Problem]:
        return [p for p in self.problems if p.severity == WARNING]

    def raise_if_errors(self) -> None:
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
    first_seen: dict = {}
    for p in problems:
        first_seen.setdefault(p.file, len(first_seen))
    return sorted(problems, key=lambda p: (first_seen[p.file], p.line or 0))


class InputError(Exception):
    """Bad input: carries every error found (and the warnings seen so far)."""

    def __init__(self, errors: List[Problem], warnings: Optional[List[Problem]] = None):
        self.errors = _in_line_order(errors)
        self.warnings = list(warnings or [])
        super().__init__(self.format())

    @classmethod
    def single(cls, file: str, line: Optional[int], kind: str, message: str,
               sent_id: Optional[str] = None) -> "InputError":
        return cls([Problem(str(file), line, kind, message, ERROR, sent_id)])

    def format(self, limit: int = 50) -> str:
        lines = [str(p) for p in self.errors[:limit]]
        if len(self.errors) > limit:
            lines.append(f"... and {len(self.errors) - limit} more errors")
        return "\n".join(lines)
