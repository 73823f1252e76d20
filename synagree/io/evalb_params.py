"""EVALB parameter files (``.prm``): reading them as EVALB does, but strictly.

docs/method.md §22.1.  EVALB (Sekine & Collins 1997, the 2006 version) reads a
parameter file line by line: trailing white space is cut, a line starting with
``#`` or shorter than three characters is skipped, the key is the text before
the first white space and the value everything after the white space that
follows it.  The keys it knows:

======================== ====================================================
``DEBUG N``              0: none; 1: the data of each sentence after its row;
                         2: also the bracketing details (our ``--output evalb``)
``MAX_ERROR N``          stop after more than N error sentences (default 10)
``CUTOFF_LEN N``         the second summary covers sentences of length ≤ N
                         (default 40)
``LABELED 0|1``          unlabelled or labelled brackets (default 1)
``DELETE_LABEL L``       a preterminal L goes with its word; a phrase L loses
                         its bracket only (repeatable)
``DELETE_LABEL_FOR_LENGTH L``  preterminals L do not count in the length
``EQ_LABEL L1 L2``       the two labels are the same (both ways)
``EQ_WORD W1 W2``        the two words are the same (both ways)
``QUOTE_LABEL L``        preterminals L over ``'``, ``"`` or ``/`` may be
                         reinserted when the lengths differ (the 2006 fix)
======================== ====================================================

EVALB warns about an unknown key or a malformed value on stderr and goes on
(``atoi`` reads ``10 # comment`` as 10 and ``ten`` as 0, a label key takes the
whole rest of the line, spaces included); here each of these is an error
naming the file and line (kind ``bad-params``), since a silently ignored
setting changes the numbers.  EVALB's fixed arrays (100 delete labels, 100
label and word pairs, 20 quote labels, 499 bytes a line) are limits here too.

A number too large for a C ``int`` is read as EVALB reads it (`c_atoi`):
glibc's ``atoi`` is ``(int) strtol(s, NULL, 10)``, so a value beyond the
64-bit ``long`` saturates to ``LONG_MAX`` (or ``LONG_MIN``) and the cast keeps
its low 32 bits, two's complement: ``MAX_ERROR 99999999999999999999999`` is
``-1`` (EVALB stops at the first error sentence, and so does synagree, saying
so), ``MAX_ERROR 4294967296`` is ``0``, ``MAX_ERROR 2147483648`` is
``-2147483648``.  The same for ``DEBUG``, ``CUTOFF_LEN`` and ``LABELED``
(whose ranges are checked on the value EVALB would see).

Files are read as bytes and every byte is kept as one character (Latin-1), as
EVALB compares bytes; `EvalbParams.sha256` is the SHA-256 of the file's bytes,
so two results are comparable only when their parameter files are the same
file.  Three standard files come with synagree (`BUNDLED`): ``collins``
(``COLLINS.prm``, the usual one), ``new`` (``new.prm``: COLLINS plus the quote
fixes, ``S1``, ``?`` and ``!`` deleted) and ``nk`` (``nk.prm``: ``new.prm``
with ``MAX_ERROR 10000``, as neural constituency parsers use it).
"""
from __future__ import annotations

import hashlib
import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

from synagree.base.problems import InputError, Problem
from synagree.io.compression import read_bytes

# reading a parameter file's bytes: a light module shared with the fast path (issue 36)
from synagree.io.evalb_text import (
    BUNDLED,
    C_SPACE,
    DEFAULT_PARAMS,
    c_atoi,
    latin1_text,
    read_settings,
)
from synagree.io.files import read_problem
from synagree.io.sources import Buffer, Source, as_input, input_name

#: where the bundled parameter files are read from: `importlib.resources`, loaded by its
#: module path when a bundled file is asked for (a run with ``--params FILE`` needs none)
RESOURCES = "importlib.resources"

__all__ = ["EvalbParams", "BUNDLED", "DEFAULT_PARAMS", "read_params", "parse_params",
           "load_params", "C_SPACE", "c_atoi"]

@dataclass(frozen=True)
class EvalbParams:
    r"""The settings of one EVALB parameter file.

    The defaults are EVALB's own, those it uses without ``-p``.  Labels and
    words are strings of Latin-1 characters, one per byte of the file.

    Parameters
    ----------
    name : str
        The file's name (``COLLINS.prm`` for the bundled ``collins``).
    source : str
        Where it was read: ``bundled:collins``, a path, or ``defaults``.
    sha256 : str
        SHA-256 of the file's bytes (of the empty string for ``defaults``).
    debug : int
        ``DEBUG``: 0, 1 or 2.
    max_error : int
        ``MAX_ERROR``.
    cutoff_len : int
        ``CUTOFF_LEN``.
    labeled : bool
        ``LABELED``.
    delete_labels, delete_labels_for_length, quote_labels : tuple of str
    eq_labels, eq_words : tuple of (str, str)
    """

    name: str = "(EVALB defaults)"
    source: str = "defaults"
    sha256: str = hashlib.sha256(b"").hexdigest()
    debug: int = 0
    max_error: int = 10
    cutoff_len: int = 40
    labeled: bool = True
    delete_labels: Tuple[str, ...] = ()
    delete_labels_for_length: Tuple[str, ...] = ()
    eq_labels: Tuple[Tuple[str, str], ...] = ()
    eq_words: Tuple[Tuple[str, str], ...] = ()
    quote_labels: Tuple[str, ...] = ()
    _eq_label_set: frozenset = field(default=frozenset(), init=False, repr=False,
                                     compare=False)
    _eq_word_set: frozenset = field(default=frozenset(), init=False, repr=False,
                                    compare=False)

    def __post_init__(self) -> None:
        both = lambda pairs: frozenset(pairs) | frozenset((b, a) for a, b in pairs)  # noqa: E731
        object.__setattr__(self, "_eq_label_set", both(self.eq_labels))
        object.__setattr__(self, "_eq_word_set", both(self.eq_words))

    def same_label(self, a: str, b: str) -> bool:
        """EVALB's ``label_comp``: equal, or an ``EQ_LABEL`` pair (either order)."""
        return a == b or (a, b) in self._eq_label_set

    def same_word(self, a: str, b: str) -> bool:
        """EVALB's ``word_comp``: equal, or an ``EQ_WORD`` pair (either order)."""
        return a == b or (a, b) in self._eq_word_set

    def is_deleted(self, label: str) -> bool:
        """A bracket label (already trimmed) that ``DELETE_LABEL`` removes.

        EVALB compares with ``label_comp``, so an ``EQ_LABEL`` partner of a
        deleted label is deleted too.
        """
        return any(self.same_label(label, d) for d in self.delete_labels)

    def settings(self) -> Dict[str, str]:
        """The settings as strings, for the result's signature (docs/output.md)."""
        return {"params": self.name, "params_sha256": self.sha256}

    def as_dict(self) -> dict:
        """Every setting, JSON-ready (labels as text: Latin-1 bytes read as UTF-8)."""
        t = latin1_text
        return {"name": self.name, "source": self.source, "sha256": self.sha256,
                "DEBUG": self.debug, "MAX_ERROR": self.max_error,
                "CUTOFF_LEN": self.cutoff_len, "LABELED": int(self.labeled),
                "DELETE_LABEL": [t(x) for x in self.delete_labels],
                "DELETE_LABEL_FOR_LENGTH": [t(x) for x in self.delete_labels_for_length],
                "EQ_LABEL": [[t(a), t(b)] for a, b in self.eq_labels],
                "EQ_WORD": [[t(a), t(b)] for a, b in self.eq_words],
                "QUOTE_LABEL": [t(x) for x in self.quote_labels]}


def parse_params(data: bytes, file: str = "<params>", name: Optional[str] = None,
                 source: Optional[str] = None) -> EvalbParams:
    r"""The settings of a parameter file's bytes, read as EVALB reads them.

    Parameters
    ----------
    data : bytes
        The file's content.
    file : str
        Its name in messages.
    name, source : str, optional
        `EvalbParams.name` and ``source`` (default: ``file``'s base name and
        ``file``).

    Raises
    ------
    InputError
        ``bad-params``: an unknown key, a key without a value, a value that is
        not a whole number (``DEBUG`` 0 to 2, ``LABELED`` 0 or 1), a label key
        with more or fewer than one label (``EQ_LABEL``/``EQ_WORD``: two), more
        entries than EVALB's arrays hold, or a line over 499 bytes.  Every
        problem of the file is listed.
    """
    errors: List[Problem] = []
    fields = read_settings(data, lambda no, msg: errors.append(
        Problem(file, no, "bad-params", msg)))
    if errors:
        raise InputError(errors)
    return EvalbParams(name=name if name is not None else Path(file).name,
                       source=source if source is not None else file, **fields)


def read_params(path: Source) -> EvalbParams:
    """The settings of a parameter file on disk (or in a stream).

    Parameters
    ----------
    path : str, path-like or file-like
        A file, or a text or binary stream of one (`synagree.io.sources`;
        ``<params>`` in messages unless it has a real ``.name``).

    Raises
    ------
    InputError
        ``file-not-found``, ``not-a-file``, ``unreadable``, or ``bad-params``
        (`parse_params`).
    """
    source = as_input(path, "<params>")
    name = input_name(source)
    if isinstance(source, Buffer):
        if source.data is None:
            raise InputError.single(name, None, "unreadable",
                                    f"cannot read the stream: {source.error}")
        data = (source.data.encode("utf-8") if isinstance(source.data, str)
                else source.data)
        return parse_params(data, name)
    try:
        data = read_bytes(source, name, plain=True)
    except OSError as exc:
        raise InputError.single(name, None, *read_problem(exc)) from None
    return parse_params(data, name)


def load_params(spec: Union[Source, EvalbParams] = DEFAULT_PARAMS) -> EvalbParams:
    """A bundled parameter file by name (`BUNDLED`), a file, or settings as they are.

    Parameters
    ----------
    spec : str, path-like, file-like or EvalbParams
        ``collins``, ``new`` or ``nk`` (a file of that name is read as
        ``./collins``), else a path, or a stream of a parameter file.

    Raises
    ------
    InputError
        See `read_params`.
    """
    if isinstance(spec, EvalbParams):
        return spec
    if isinstance(spec, str) and spec in BUNDLED:
        fname = BUNDLED[spec]
        data = importlib.import_module(RESOURCES).files("synagree").joinpath(
            "data", "evalb", fname).read_bytes()
        return parse_params(data, fname, name=fname, source=f"bundled:{spec}")
    return read_params(spec)
