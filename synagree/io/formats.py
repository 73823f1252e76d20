"""Input formats: which reader a file needs, and reading any annotation file."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Union

from synagree.base.problems import ProblemLog
from synagree.io.brackets import PhraseSentence, read_brackets
from synagree.io.compression import READ_ERRORS, open_binary, strip_suffix
from synagree.io.conllu import DepSentence, read_conllu
from synagree.io.files import PathLike

Sentence = Union[DepSentence, PhraseSentence]

#: file-name suffixes of annotation files, by format (compressed or not)
CONLL_SUFFIXES = (".conllu", ".conll", ".conllx")
PHRASE_SUFFIXES = (".tree", ".trees", ".mrg", ".ptb", ".brackets")


def annotation_stem(name: PathLike) -> Optional[str]:
    """The name of an annotation file without its format and compression
    suffixes; None when the name has no annotation-file suffix.

    Examples
    --------
    >>> annotation_stem("doc1-anna.conllu.gz"), annotation_stem("notes.txt")
    ('doc1-anna', None)
    """
    p = Path(strip_suffix(Path(name).name))
    return p.stem if p.suffix.lower() in CONLL_SUFFIXES + PHRASE_SUFFIXES else None


def sniff_format(path: PathLike) -> str:
    r"""Guess ``"conllu"`` or ``"phrase"`` for a file.

    By the name's suffix (a compression suffix looked through: ``a.conllu.gz``
    is CoNLL-U), else from the first non-comment, non-blank line: ``(`` starts
    a bracketed tree.  An unreadable file is guessed CoNLL-U (the reader then
    reports the problem).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    {"conllu", "phrase"}

    Examples
    --------
    >>> import os, tempfile
    >>> sniff_format("a.conllu.gz"), sniff_format("b.mrg")
    ('conllu', 'phrase')
    >>> fd, path = tempfile.mkstemp(suffix=".txt")
    >>> with os.fdopen(fd, "w") as f:
    ...     _ = f.write("# a comment\n\n(S (NP D N))\n")
    >>> sniff_format(path)
    'phrase'
    >>> os.remove(path)
    """
    p = Path(path)
    suffix = Path(strip_suffix(p.name)).suffix.lower()
    if suffix in CONLL_SUFFIXES:
        return "conllu"
    if suffix in PHRASE_SUFFIXES:
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


def format_of(fmt: str, path: PathLike) -> str:
    """``"conllu"`` or ``"phrase"`` for a ``--format`` value and a file.

    Parameters
    ----------
    fmt : str
        ``"auto"`` (sniff the file, `sniff_format`), ``"conllu"`` (also
        ``"conll"``, ``"conllx"``, ``"dependency"``) or ``"phrase"``.
    path : str or path-like

    Returns
    -------
    {"conllu", "phrase"}

    Raises
    ------
    ValueError
        Unknown ``fmt``.

    Examples
    --------
    >>> format_of("conllx", "a.txt"), format_of("auto", "a.ptb")
    ('conllu', 'phrase')
    """
    if fmt == "auto":
        return sniff_format(path)
    if fmt in ("conllu", "conll", "conllx", "dependency"):
        return "conllu"
    if fmt == "phrase":
        return "phrase"
    raise ValueError(f"unknown format {fmt!r} (expected auto, conllu or phrase)")


def read_any(path: PathLike, fmt: str = "auto", phrase_style: str = "auto",
             log: Optional[ProblemLog] = None, strict: bool = False
             ) -> Union[List[DepSentence], List[PhraseSentence]]:
    r"""Read a dependency or phrase-structure file.

    Parameters
    ----------
    path : str or path-like
    fmt : {"auto", "conllu", "phrase"}
        See `format_of`.
    phrase_style : {"auto", "delex", "penn"}
        Bracket style (docs/method.md §1.6).
    log : ProblemLog, optional
        Shared log for warnings; None: a new one.
    strict : bool
        Warnings count as errors.

    Returns
    -------
    list of DepSentence or list of PhraseSentence

    Raises
    ------
    InputError
        Bad input (see `read_conllu` and `read_brackets`).

    Examples
    --------
    >>> import os, tempfile
    >>> fd, path = tempfile.mkstemp(suffix=".ptb")
    >>> with os.fdopen(fd, "w") as f:
    ...     _ = f.write("(S (NP (P I)) (VP (V ran)))\n")
    >>> [s] = read_any(path)
    >>> type(s).__name__, s.root.bracketed()
    ('PhraseSentence', '(S (NP P) (VP V))')
    >>> os.remove(path)
    """
    if format_of(fmt, path) == "conllu":
        return read_conllu(path, log=log, strict=strict)
    return read_brackets(path, style=phrase_style, log=log, strict=strict)
