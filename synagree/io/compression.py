"""Compressed input files (``.gz``, ``.xz``, ``.bz2``), read transparently.

A file is decompressed when its first bytes are the magic number of gzip,
xz or bzip2, whatever its name; a file whose name ends in ``.gz``, ``.xz``
or ``.bz2`` must hold such data.  Anything that cannot be decompressed (a
truncated or corrupt stream, a ``.gz`` file that is not gzip data) raises
`CorruptCompressedFile`, which the readers report as one
``corrupt-compressed-file`` error naming the file.

Every read is **bounded** (docs/performance.md, "The reading budget"): a
file, a stream or a decompressed stream is read in chunks of `CHUNK` bytes
and refused (`synagree.base.problems.InputError`, kind ``input-too-large``,
naming it, the size reached and how to raise the limit) as soon as it
passes the reading budget (`synagree.base.memory.read_budget`, a share of
``--max-memory`` and of the memory the machine leaves).  A decompression
bomb, a huge valid file and an endless device (``/dev/zero``) stop there,
in seconds, with the memory held near the budget.
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import re
import stat
import zlib
from pathlib import Path
from typing import IO, Callable, Dict, List, Optional, Union

from synagree.base.memory import human, read_budget
from synagree.base.problems import InputError

__all__ = ["SUFFIXES", "CorruptCompressedFile", "compression_of", "strip_suffix", "read_bytes",
           "open_binary", "open_decompressed", "decompress", "READ_ERRORS", "read_limited",
           "too_large", "read_head", "CHUNK", "SNIFF_BYTES"]

#: bytes read at a time from a file or a (decompressed) stream
CHUNK = 1 << 20
#: bytes looked at when a file's format is guessed from its first lines
SNIFF_BYTES = 1 << 20

PathLike = Union[str, os.PathLike]

#: compression name by file-name suffix
SUFFIXES = {".gz": "gzip", ".xz": "xz", ".bz2": "bzip2"}
_MAGIC = (("gzip", re.compile(rb"\x1f\x8b")),
          ("xz", re.compile(rb"\xfd7zXZ\x00")),
          # "BZh", block size, then the magic of a block or of the end of the stream
          ("bzip2", re.compile(rb"BZh[1-9](?:1AY&SY|\x17rE8P\x90)")))
_DECOMPRESS = {"gzip": gzip.decompress, "xz": lzma.decompress, "bzip2": bz2.decompress}
_OPEN: Dict[str, Callable[..., io.BufferedIOBase]] = {"gzip": gzip.open, "xz": lzma.open,
                                                      "bzip2": bz2.open}
#: what reading a (compressed) stream may raise
READ_ERRORS = (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError)


class CorruptCompressedFile(ValueError):
    """A compressed file that cannot be decompressed; the message says why.

    A `ValueError`; the readers report it as one ``corrupt-compressed-file``
    error naming the file.
    """


def _by_suffix(path: PathLike) -> Optional[str]:
    return SUFFIXES.get(Path(path).suffix.lower())


def _by_magic(head: bytes) -> Optional[str]:
    for name, magic in _MAGIC:
        if magic.match(head):
            return name
    return None


def compression_of(path: PathLike, head: bytes = b"") -> Optional[str]:
    """The compression of a file: from its first bytes, else from its name.

    Parameters
    ----------
    path : str or path-like
        The file name (only its suffix is used).
    head : bytes
        The file's first bytes (16 suffice); empty: decide by name.

    Returns
    -------
    {"gzip", "xz", "bzip2"} or None
    """
    return _by_magic(head) or _by_suffix(path)


def strip_suffix(name: PathLike) -> str:
    """The file name without a compression suffix (``a.conllu.gz`` -> ``a.conllu``)."""
    name = str(name)
    for suffix in SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def too_large(name: str, reached: int, budget: Optional[int] = None,
              decompressed: bool = False, whole: bool = False) -> InputError:
    """The ``input-too-large`` error of ``name``, refused after ``reached`` bytes.

    Parameters
    ----------
    name : str
        The file or stream, as messages name it.
    reached : int
        Bytes (or characters of a text stream) read when it was refused.
    budget : int, optional
        The budget that was passed, when one was given (default: `read_budget`,
        whose message says how to raise it).
    decompressed : bool
        ``reached`` counts decompressed bytes.
    whole : bool
        ``reached`` is the file's size (refused before it was read).
    """
    if budget is None:
        cap, how = read_budget()
    else:
        cap, how = int(budget), "the budget given"
    what = " (decompressed)" if decompressed else ""
    return InputError.single(
        name, None, "input-too-large",
        f"{'the file holds' if whole else 'reading stopped after'} {human(reached)}{what}, "
        f"more than the reading budget of "
        f"{human(cap)} ({how})")


def read_limited(fh: "IO[bytes] | io.BufferedIOBase", name: str, budget: Optional[int] = None,
                 decompressed: bool = False, size: Optional[int] = None,
                 cap: Optional[int] = None) -> bytes:
    r"""Everything ``fh`` gives, read in chunks and refused as soon as it passes ``budget``.

    Parameters
    ----------
    fh : binary file-like
        A file, a device, a pipe or a decompressing stream.
    name : str
        Its name in the refusal.
    budget : int, optional
        Bytes allowed (default: `synagree.base.memory.read_budget`).
    decompressed : bool
        ``fh`` decompresses (said in the refusal).
    size : int, optional
        The size ``fh`` should give (a regular file's): read in one call when it
        fits the budget, no chunks joined (a file of the budget or less is then
        the bytes of that one read, without a copy).
    cap : int, optional
        The bytes allowed, when the caller has already worked out ``budget``'s
        default (`synagree.base.memory.read_budget` reads ``/proc`` each time).

    Raises
    ------
    InputError
        ``input-too-large`` (`too_large`) once more than ``budget`` bytes came.
    """
    if cap is None:
        cap = read_budget()[0] if budget is None else int(budget)
    step = CHUNK if size is None else max(size + 1, 1)  # +1: sees the end in that one read
    parts: List[bytes] = []
    total = 0
    while True:
        chunk = fh.read(min(step, cap + 1 - total))
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
        if total > cap:
            raise too_large(name, total, budget, decompressed)
        step = CHUNK
    return parts[0] if len(parts) == 1 else b"".join(parts)


def decompress(raw: bytes, path: PathLike = "", name: Optional[str] = None,
               budget: Optional[int] = None) -> bytes:
    r"""``raw`` decompressed when it is compressed data, else ``raw`` itself.

    Decompressed incrementally, within the reading budget.

    Parameters
    ----------
    raw : bytes
        The file's bytes.
    path : str or path-like
        Its name: a ``.gz``/``.xz``/``.bz2`` suffix demands compressed data.
    name : str, optional
        The name in messages (default: ``path``, else ``<stream>``).
    budget : int, optional
        Bytes allowed, compressed or not (default: `read_budget`).

    Raises
    ------
    CorruptCompressedFile
        Truncated or corrupt data, or a compression suffix on data that is not
        compressed.
    InputError
        ``input-too-large``: more than the budget (decompressed).
    """
    label = name or str(path) or "<stream>"
    cap = read_budget()[0] if budget is None else int(budget)
    magic = _by_magic(raw[:16])
    kind = magic or _by_suffix(path)
    if kind is None:
        if len(raw) > cap:
            raise too_large(label, len(raw), budget)
        return raw
    if magic is None:
        raise CorruptCompressedFile(
            f"the name ends in {Path(path).suffix} but the file does not hold {kind} data")
    return _read_decompressed(io.BytesIO(raw), kind, label, budget)


def _read_decompressed(fh: "IO[bytes]", kind: str, label: str,
                       budget: Optional[int]) -> bytes:
    try:
        with _OPEN[kind](fh, "rb") as z:
            return read_limited(z, label, budget, True)
    except READ_ERRORS as exc:
        reason = str(exc) or type(exc).__name__
        raise CorruptCompressedFile(f"cannot decompress ({kind}): {reason}") from None


def read_bytes(path: PathLike, name: Optional[str] = None, budget: Optional[int] = None,
               plain: bool = False) -> bytes:
    r"""The file's bytes, decompressed when compressed, within the reading budget.

    A regular file larger than the budget is refused before it is read; any
    other (a device, a FIFO, a decompressed stream) as soon as the bytes read
    pass the budget.

    Parameters
    ----------
    path : str or path-like
    name : str, optional
        The name in messages (default: ``path``).
    budget : int, optional
        Bytes allowed (default: `synagree.base.memory.read_budget`).
    plain : bool
        Do not decompress (formats that are never compressed).

    Raises
    ------
    OSError
        As from `open` (missing, unreadable, a directory).
    CorruptCompressedFile
        See `decompress`.
    InputError
        ``input-too-large``.
    """
    label = name or str(path)
    cap = read_budget()[0] if budget is None else int(budget)
    with open(path, "rb") as fh:
        st = os.fstat(fh.fileno())
        if stat.S_ISREG(st.st_mode) and st.st_size > cap:
            raise too_large(label, st.st_size, budget, whole=True)
        size = st.st_size if stat.S_ISREG(st.st_mode) else None
        if plain:
            return read_limited(fh, label, budget, size=size, cap=cap)
        head = fh.peek(16)[:16]
        magic = _by_magic(head)
        if magic is None:
            raw = read_limited(fh, label, budget, size=size, cap=cap)
            if _by_suffix(path) is None and _by_magic(raw[:16]) is None:
                return raw  # plain bytes (decompress would say so: one budget read less)
            return decompress(raw, path, label, budget)  # a suffix without its data
        return _read_decompressed(fh, magic, label, budget)


def read_head(fh: "IO[bytes] | io.BufferedIOBase") -> bytes:
    """The first `SNIFF_BYTES` bytes of ``fh``: for guessing a format, never a whole
    endless stream."""
    return fh.read(SNIFF_BYTES)


def open_decompressed(fileobj: IO[bytes], kind: str) -> IO[bytes]:
    r"""A binary stream of compressed data (``kind`` as `compression_of` says),
    decompressed on the fly.
    """
    return _OPEN[kind](fileobj, "rb")  # type: ignore[return-value]


def open_binary(path: PathLike) -> io.BufferedIOBase:
    r"""The file opened for reading, decompressing on the fly.

    For peeking at the start of a large file; whether it is compressed is
    decided by its first bytes only.  Errors surface while reading.
    """
    fh = open(path, "rb")
    try:
        head = fh.peek(16)[:16] if hasattr(fh, "peek") else b""
    except OSError:
        head = b""
    kind = _by_magic(head)
    if kind is None:
        return fh
    fh.close()
    return _OPEN[kind](path, "rb")
