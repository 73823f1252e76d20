"""Inputs: a path, text, or a file-like object read once (text or binary, compressed or not).

**The one rule for inputs** (`as_input`, used by every function that takes an
annotation, a hierarchy, a lexicon or a parameter file):

- a `pathlib.Path` (any ``os.PathLike``) is a path;
- a ``str`` is **text** when it holds a line break (``\\n`` or ``\\r``) —
  `is_text` — and a path otherwise (so a command-line argument, which holds no
  line break, is always a path, whatever its first character);
- an object with ``read()`` is a stream (below);
- anything else is a ``TypeError`` naming what was given.

Every reader that takes a file also takes an open **stream**: a text stream
(``io.StringIO``, ``open(p)``), a binary one (``io.BytesIO``, ``open(p, "rb")``)
or a compressed one (gzip, xz or bzip2 bytes are recognised by their first
bytes, as for files; ``gzip.open(p)`` is read as the plain bytes it gives).
A stream is read once, from where it stands to its end, and is not closed.

A stream is known by its **name** in messages and in the results' file lists:
its ``.name`` when it has a real one (a non-empty string not in angle
brackets, as an opened file's path), else a placeholder the caller gives
(``<ann1>``, ``<stream>``).  The annotator a stream stands for is named
after its real name's stem, as a file is, else ``ann1``, ``ann2``, ...
(`synagree.io.corpus.from_files`).
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union, cast

from synagree.base.memory import read_budget
from synagree.base.problems import InputError, Problem
from synagree.io.compression import (
    CHUNK,
    READ_ERRORS,
    SNIFF_BYTES,
    compression_of,
    open_decompressed,
    read_head,
    too_large,
)

__all__ = ["Source", "Buffer", "Input", "is_text", "is_one_tree", "is_stream", "stream_name",
           "as_input", "as_inputs", "check_input", "one_or_many", "input_name", "head_lines",
           "system_names"]

#: what a reader accepts: a path, or a text or binary stream
Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes], "Buffer"]


@dataclass(frozen=True)
class Buffer:
    r"""A stream's content, read once, with the names it is known by.

    Parameters
    ----------
    name : str
        The name in messages and file lists: the stream's real name or a
        placeholder (``<ann1>``).
    real_name : str or None
        The stream's own ``.name`` when it is a real one (annotator names
        derive from it as from a path).
    data : str or bytes or None
        What the stream gave; None when it could not be read.
    error : str or None
        Why it could not be read.
    """

    name: str
    real_name: Optional[str]
    data: Union[str, bytes, None]
    error: Optional[str] = None

    @classmethod
    def read(cls, stream: Union[IO[str], IO[bytes]], placeholder: str) -> "Buffer":
        """Read ``stream`` to its end (a read error is kept, not raised).

        Parameters
        ----------
        stream : text or binary file-like
        placeholder : str
            The name when the stream has no real one.
        """
        real = stream_name(stream)
        name = real or placeholder
        try:
            data = _read_bounded(stream, name)
        except READ_ERRORS as exc:  # closed, not readable, a broken compressed stream
            return cls(name, real, None, str(exc) or type(exc).__name__)
        if not isinstance(data, (str, bytes, bytearray)):
            return cls(name, real, None, f"read() gave {type(data).__name__}, "
                                         f"not text or bytes")
        return cls(name, real, bytes(data) if isinstance(data, bytearray) else data)


def _read_bounded(stream: Union[IO[str], IO[bytes]], name: str) -> object:
    """What ``stream`` gives, read in chunks within the reading budget (characters of a
    text stream count as bytes); what ``read`` gave when it is neither text nor bytes.

    Raises
    ------
    InputError
        ``input-too-large``.
    """
    budget = read_budget()[0]
    parts: List[Union[str, bytes]] = []
    total = 0
    while True:
        chunk = stream.read(min(CHUNK, budget + 1 - total))
        if not isinstance(chunk, (str, bytes, bytearray)):
            return chunk  # Buffer.read says what it was
        if isinstance(chunk, bytearray):
            chunk = bytes(chunk)
        if parts and type(chunk) is not type(parts[0]):
            return chunk.__class__  # a stream mixing text and bytes: refused by type
        parts.append(chunk)
        if not chunk:
            break
        total += len(chunk)
        if total > budget:
            parts.clear()
            raise too_large(name, total)
    return parts[0][:0].join(parts)  # type: ignore[arg-type]


#: a source once streams are read: a path or a `Buffer`
Input = Union[Path, Buffer]


def is_text(s: str) -> bool:
    """Is the string ``s`` annotation text rather than a path?

    Text holds a line break; any other string is a path.  This is the one
    rule every input-taking function applies (`as_input`; docs/api.md,
    "Inputs").  (`synagree.read` alone also reads one bracketed tree without
    a line break, a string starting with ``(``, as text: `is_one_tree`.)

    Examples
    --------
    >>> is_text("1\\tDogs\\t_\\t_\\t_\\t_\\t0\\troot\\t_\\t_\\n"), is_text("gold.conllu")
    (True, False)
    """
    return "\n" in s or "\r" in s


def is_one_tree(s: str) -> bool:
    """Is ``s`` one bracketed tree on one line (its first non-blank character ``(``)?

    `synagree.read`'s convenience for ``read("(S (NP ...))")``; every other
    function applies `is_text` only.
    """
    return s.lstrip().startswith("(")


def is_stream(x: object) -> bool:
    """Is ``x`` a file-like object (it has ``read``), not a path?"""
    return hasattr(x, "read") and not isinstance(x, (str, bytes, os.PathLike))


def stream_name(stream: object) -> Optional[str]:
    """The stream's ``.name`` when it is a real one, else None.

    A real name is a non-empty string (or bytes) not in angle brackets:
    ``open(path)`` and ``gzip.open(path)`` have one, ``io.StringIO`` and
    ``sys.stdin`` (``<stdin>``) have none, nor has a stream opened on a file
    descriptor (an int).
    """
    name = getattr(stream, "name", None)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    if not isinstance(name, str) or not name or (name.startswith("<") and name.endswith(">")):
        return None
    return name


def as_input(source: object, placeholder: str = "<stream>") -> Input:
    r"""The one rule for inputs: a path as a `pathlib.Path`, text or a stream as a `Buffer`.

    A ``str`` is text when `is_text` says so (it holds a line break), else a
    path; a stream is read to its end.

    Parameters
    ----------
    source : str, path-like, file-like or Buffer
    placeholder : str
        The name of text, or of a stream that has no real one.

    Raises
    ------
    TypeError
        ``source`` is none of these (a sentence says what was given).
    """
    if isinstance(source, (Path, Buffer)):
        return source
    if isinstance(source, str) and is_text(source):
        return Buffer(placeholder, None, source)
    if isinstance(source, (str, os.PathLike)):
        return Path(source)
    if is_stream(source):
        return Buffer.read(source, placeholder)  # type: ignore[arg-type]
    raise TypeError(f"an input must be a path (str or pathlib.Path), text (a str with a line "
                    f"break) or a file-like object with read(), not {type(source).__name__} "
                    f"{_shown(source)}")


def _shown(x: object) -> str:
    """``x``'s repr, cut to 60 characters (for messages)."""
    r = repr(x)
    return r if len(r) <= 60 else r[:57] + "..."


def check_input(source: object, what: str, where: str = "",
                also: Tuple[type, ...] = ()) -> None:
    """Is ``source`` something `as_input` takes (a path, text, a stream, a `Buffer`, or one
    of ``also``)?  Else a ``TypeError`` naming ``what`` and the value (``where``: the
    function, ``"compare(): "``)."""
    if isinstance(source, (str, os.PathLike, Buffer) + also) or is_stream(source):
        return
    extra = "".join(f" or a {t.__name__}" for t in also)
    raise TypeError(f"{where}{what} must be a path (str or pathlib.Path), text or a "
                    f"file-like object{extra}, not {type(source).__name__} {_shown(source)}")


def one_or_many(sources: object, what: str = "inputs") -> List[object]:
    """``sources`` as a list: one input (a path, text, a stream, a `Buffer`) is a list of one.

    A sequence (list, tuple, ...) is taken item by item; a single ``str``,
    ``os.PathLike``, stream or `Buffer` is one input, never iterated (a string's
    characters or a stream's lines are not inputs).  Anything else that is
    not iterable is a ``TypeError`` naming ``what``.
    """
    if isinstance(sources, (str, os.PathLike, Buffer)) or is_stream(sources):
        return [sources]
    if isinstance(sources, (bytes, bytearray, dict)) or not hasattr(sources, "__iter__"):
        raise TypeError(f"{what} must be a path, text, a file-like object or a sequence of "
                        f"them, not {type(sources).__name__} {_shown(sources)}")
    return list(cast(Iterable[object], sources))


def input_name(source: Input) -> str:
    """The name of an input in messages: the path as given, or the `Buffer`'s name."""
    return source.name if isinstance(source, Buffer) else str(source)


def system_names(files: Sequence[str], names: Optional[Sequence[str]] = None) -> List[str]:
    """The names of the systems of a comparison, one per system file (by its name).

    ``names`` when given (as many as files, distinct: else a ``usage``
    error); otherwise each file's base name, its name as given where two
    base names are alike, and ``#K`` (its position) appended to any name
    still taken.
    """
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(files):
            raise InputError.single("<command line>", None, "usage",
                                    f"{len(names)} name(s) for {len(files)} system file(s)")
        if len(set(names)) != len(names):
            raise InputError.single("<command line>", None, "usage",
                                    "system names must be distinct")
        return names
    base = [Path(f).name or f for f in files]
    out: List[str] = []
    for k, (b, f) in enumerate(zip(base, files)):
        n = b if base.count(b) == 1 else f
        while n in out:
            n = f"{n}#{k + 1}"
        out.append(n)
    return out


def head_lines(buffer: Buffer) -> Iterator[str]:
    r"""The lines of the buffer's first `SNIFF_BYTES` (decompressed), decoded (for sniffing
    a format: never a whole decompression bomb or one endless line).

    Undecodable bytes are replaced; a broken compressed stream stops the
    lines (the reader reports it).
    """
    data = buffer.data
    if data is None:
        return
    if isinstance(data, str):
        yield from io.StringIO(data[:SNIFF_BYTES])
        return
    kind = compression_of("", data[:16])
    fh: IO[bytes] = io.BytesIO(data)
    if kind is not None:
        fh = open_decompressed(fh, kind)
    try:
        head = read_head(fh)
    except READ_ERRORS:
        return
    for raw in io.BytesIO(head):
        yield raw.decode("utf-8", errors="replace")


def as_inputs(sources: object, placeholder: str = "<ann{}>") -> List[Input]:
    r"""Every source as an `Input`: paths as paths, streams read (in order) into buffers.

    Parameters
    ----------
    sources : sequence of str, path-like or file-like
        Not a single path or stream (a string or a stream is iterable, and
        taking its characters or lines for files would be a quiet guess).
    placeholder : str
        A stream's name when it has no real one; ``{}`` is its 1-based
        position among ``sources`` (``<ann1>``).

    Raises
    ------
    InputError
        ``usage``: ``sources`` is a single path or stream; the same stream
        object given twice (``duplicate-input``, as the same file twice).
    TypeError
        An item is neither a path nor a stream.
    """
    if isinstance(sources, (str, bytes, os.PathLike, Buffer)) or is_stream(sources):
        raise InputError.single("<arguments>", None, "usage",
                                f"give a list of inputs (paths or file-like objects), not one "
                                f"{type(sources).__name__}")
    items = list(sources)  # type: ignore[call-overload]
    seen: Dict[int, int] = {}
    problems = []
    for i, x in enumerate(items):
        if is_stream(x):
            if id(x) in seen:
                problems.append(Problem(stream_name(x) or placeholder.format(i + 1), None,
                                        "duplicate-input",
                                        f"the same stream is given twice (inputs {seen[id(x)]} "
                                        f"and {i + 1}); each annotator needs their own"))
            seen.setdefault(id(x), i + 1)
    if problems:
        raise InputError(problems)
    return [as_input(x, placeholder.format(i + 1)) for i, x in enumerate(items)]
