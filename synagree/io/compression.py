"""Compressed input files (``.gz``, ``.xz``, ``.bz2``), read transparently.

A file is decompressed when its first bytes are the magic number of gzip,
xz or bzip2, whatever its name; a file whose name ends in ``.gz``, ``.xz``
or ``.bz2`` must hold such data.  Anything that cannot be decompressed (a
truncated or corrupt stream, a ``.gz`` file that is not gzip data) raises
`CorruptCompressedFile`, which the readers report as one
``corrupt-compressed-file`` error naming the file.
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import re
import zlib
from pathlib import Path
from typing import IO, Callable, Dict, Optional, Union

__all__ = ["SUFFIXES", "CorruptCompressedFile", "compression_of", "strip_suffix", "read_bytes",
           "open_binary", "open_decompressed", "decompress", "READ_ERRORS"]

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


def decompress(raw: bytes, path: PathLike = "") -> bytes:
    r"""``raw`` decompressed when it is compressed data, else ``raw`` itself.

    Parameters
    ----------
    raw : bytes
        The file's bytes.
    path : str or path-like
        Its name: a ``.gz``/``.xz``/``.bz2`` suffix demands compressed data.

    Raises
    ------
    CorruptCompressedFile
        Truncated or corrupt data, or a compression suffix on data that is not
        compressed.
    """
    magic = _by_magic(raw[:16])
    kind = magic or _by_suffix(path)
    if kind is None:
        return raw
    if magic is None:
        raise CorruptCompressedFile(
            f"the name ends in {Path(path).suffix} but the file does not hold {kind} data")
    try:
        return _DECOMPRESS[kind](raw)
    except READ_ERRORS as exc:
        reason = str(exc) or type(exc).__name__
        raise CorruptCompressedFile(f"cannot decompress ({kind}): {reason}") from None


def read_bytes(path: PathLike) -> bytes:
    r"""The file's bytes, decompressed when compressed.

    Raises
    ------
    OSError
        As from `Path.read_bytes` (missing, unreadable, a directory).
    CorruptCompressedFile
        See `decompress`.
    """
    return decompress(Path(path).read_bytes(), path)


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
