"""JSON from files the user gives (stored results): read within limits.

A stored result (``--baseline``, ``--compare-to``) is untrusted input: it may
be huge, nested a hundred thousand levels deep (Python's parser would recurse
until it fails), or hold numbers no synagree output holds (``NaN``,
``Infinity``, ``1e400``).  `read_json` checks the size before reading, the
nesting depth and the number of values before parsing (one pass over the
bytes, strings skipped), plans the memory the parsed document takes
(`synagree.base.memory`), and refuses non-finite numbers, naming where they
are.  What the fields must hold is checked by the reader of each kind of
document (`synagree.stats.stored_results`).
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, List, Optional, Union

import numpy as np

from synagree.base.memory import check_memory
from synagree.base.problems import InputError, shorten
from synagree.io.files import read_problem

MAX_BYTES = 256 * 2**20
"""Largest JSON file read (256 MiB: per-unit data of about 1.8 million sentences)."""
MAX_DEPTH = 64
"""Deepest nesting of arrays and objects read (synagree writes at most 7 levels)."""

# bytes of memory per parsed value, as CPython holds them (a dict or list with its
# slots, a float or int object with the pointer to it); see docs/performance.md
_CONTAINER_BYTES = 120
_VALUE_BYTES = 40

# a JSON string: quotes around anything but quotes and backslashes, or escapes
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_CHUNK = 1 << 24


class _NonFinite(float):
    """A number that is not finite (NaN, Infinity, 1e400) while parsing, to be found."""


def _shape(data: bytes) -> "tuple[int, int, int]":
    """(deepest nesting, arrays and objects, values) of JSON bytes, strings skipped."""
    stripped = _STRING.sub(b'""', data)
    depth = deepest = 0
    containers = values = 0
    for k in range(0, len(stripped), _CHUNK):
        b = np.frombuffer(stripped, np.uint8, count=min(_CHUNK, len(stripped) - k), offset=k)
        opens = (b == 0x5B) | (b == 0x7B)
        step = opens.astype(np.int64) - ((b == 0x5D) | (b == 0x7D))
        if step.size:
            level = depth + np.cumsum(step)
            deepest = max(deepest, int(level.max()))
            depth = int(level[-1])
        containers += int(opens.sum())
        values += int((b == 0x2C).sum()) + int((b == 0x3A).sum())  # , and :
    return deepest, containers, values + 1


def read_json(path: Union[str, Path], *, kind: str, what: str = "a stored synagree result",
              max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH,
              max_memory: Optional[int] = None) -> Any:
    """The parsed JSON document in ``path``, read within limits.

    Parameters
    ----------
    path : str or path-like
    kind : str
        Problem kind of a document beyond the limits or with a non-finite
        number (e.g. ``baseline-invalid``).
    what : str
        What the file should be, for messages.
    max_bytes : int
        Largest file read (default `MAX_BYTES`).
    max_depth : int
        Deepest nesting (default `MAX_DEPTH`).
    max_memory : int, optional
        The memory limit of the parsed document (`synagree.base.memory.check_memory`;
        default: its default).

    Raises
    ------
    InputError
        ``file-not-found``, ``unreadable``; ``bad-json`` (not JSON, or not
        UTF-8); ``kind``: too big, too deep, or a number that is not finite;
        ``memory-limit``: the parsed document would not fit.
    """
    name = str(path)

    def bad(message: str, k: str = kind) -> InputError:
        return InputError.single(name, None, k, message)

    p = Path(path)
    try:
        size = p.stat().st_size
        if size > max_bytes:
            raise bad(f"the file holds {size:,} bytes, above the limit of {max_bytes:,} for "
                      f"{what}")
        with open(p, "rb") as fh:  # bounded: a device's size says nothing
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        k, message = read_problem(exc)
        raise bad(message, k) from None
    if len(data) > max_bytes:  # grew since (or a file whose size says nothing)
        raise bad(f"the file holds more than {max_bytes:,} bytes, the limit for {what}")
    deepest, containers, values = _shape(data)
    if deepest > max_depth:
        raise bad(f"nested {deepest:,} levels deep, above the limit of {max_depth}: "
                  f"not {what}")
    need = containers * _CONTAINER_BYTES + values * _VALUE_BYTES + 2 * len(data)
    check_memory(need, f"reading {name} ({len(data):,} bytes, {values:,} values)",
                 "give a smaller file", max_memory)
    seen: List[str] = []

    def number(text: str) -> float:
        v = float(text)
        if math.isfinite(v):
            return v
        seen.append(text)
        return _NonFinite(v)

    def constant(text: str) -> float:
        seen.append(text)
        return _NonFinite("nan")

    try:
        doc = json.loads(data.decode("utf-8"), parse_float=number, parse_constant=constant)
    except UnicodeDecodeError as exc:
        raise bad(f"not valid UTF-8 (byte {exc.start}: {exc.reason})", "bad-json") from None
    except RecursionError:  # (the depth was checked; a very small stack only)
        raise bad(f"nested too deeply for {what}") from None
    except ValueError as exc:
        raise bad(f"not JSON: {exc}", "bad-json") from None
    if seen:
        at = _first_non_finite(doc)
        raise bad(f"{at}: {shorten(seen[0])} is not a finite number (synagree writes none)")
    return doc


def _first_non_finite(doc: Any) -> str:
    stack: List[tuple] = [(doc, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, _NonFinite):
            return path or "the document"
        if isinstance(node, dict):
            stack.extend((v, f"{path}.{k}" if path else str(k))
                         for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(node))))
    return "the document"
