"""Input formats: which reader a file needs, and reading any annotation file."""
from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import Iterable, List, Optional, Union

from synagree.base.problems import ProblemLog
from synagree.io.brackets import PhraseSentence, read_brackets
from synagree.io.compression import READ_ERRORS, open_binary, read_head, strip_suffix
from synagree.io.conllu import DepSentence, read_conllu
from synagree.io.files import PathLike
from synagree.io.sources import Buffer, Source, as_input, head_lines

Sentence = Union[DepSentence, PhraseSentence]

#: file-name suffixes of annotation files, by format (compressed or not)
CONLL_SUFFIXES = (".conllu", ".conll", ".conllx")
PHRASE_SUFFIXES = (".tree", ".trees", ".mrg", ".ptb", ".brackets")


def annotation_stem(name: PathLike) -> Optional[str]:
    """The name of an annotation file without its format and compression
    suffixes; None when the name has no annotation-file suffix.
    """
    p = Path(strip_suffix(Path(name).name))
    return p.stem if p.suffix.lower() in CONLL_SUFFIXES + PHRASE_SUFFIXES else None


def sniff_format(path: Source) -> str:
    r"""Guess ``"conllu"`` or ``"phrase"`` for a file (or a `Buffer`).

    By the name's suffix (a compression suffix looked through: ``a.conllu.gz``
    is CoNLL-U), else from the first non-comment, non-blank line: ``(`` starts
    a bracketed tree.  An unreadable file is guessed CoNLL-U (the reader then
    reports the problem).

    Returns
    -------
    {"conllu", "phrase"}
    """
    source = as_input(path)
    name = source.real_name if isinstance(source, Buffer) else source.name
    suffix = Path(strip_suffix(Path(name).name)).suffix.lower() if name else ""
    if suffix in CONLL_SUFFIXES:
        return "conllu"
    if suffix in PHRASE_SUFFIXES:
        return "phrase"
    if isinstance(source, Buffer):
        return _sniff_lines(head_lines(source))
    try:
        with open_binary(source) as fh:
            head = read_head(fh)  # not a whole bomb, nor an endless line
        return _sniff_lines(raw.decode("utf-8", errors="replace") for raw in BytesIO(head))
    except READ_ERRORS:  # the reader reports it
        pass
    return "conllu"


def _sniff_lines(lines: Iterable[str]) -> str:
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        return "phrase" if line.startswith("(") else "conllu"
    return "conllu"


def format_of(fmt: str, path: Source) -> str:
    """``"conllu"`` or ``"phrase"`` for a ``--format`` value and a file.

    Parameters
    ----------
    fmt : str
        ``"auto"`` (sniff the file, `sniff_format`), ``"conllu"`` (also
        ``"conll"``, ``"conllx"``, ``"dependency"``) or ``"phrase"``.
    path : str, path-like or Buffer

    Returns
    -------
    {"conllu", "phrase"}

    Raises
    ------
    ValueError
        Unknown ``fmt``.
    """
    if fmt == "auto":
        return sniff_format(path)
    if fmt in ("conllu", "conll", "conllx", "dependency"):
        return "conllu"
    if fmt == "phrase":
        return "phrase"
    raise ValueError(f"unknown format {fmt!r} (expected auto, conllu or phrase)")


def read_any(path: Source, fmt: str = "auto", phrase_style: str = "auto",
             log: Optional[ProblemLog] = None, strict: bool = False
             ) -> Union[List[DepSentence], List[PhraseSentence]]:
    r"""Read a dependency or phrase-structure file.

    Parameters
    ----------
    path : str, path-like or file-like
        A file, or an open text or binary stream (`synagree.io.sources`).
    fmt : {"auto", "conllu", "phrase"}
        See `format_of`.
    phrase_style : {"auto", "delex", "penn"}
        Bracket style (docs/method.md §1.6).
    log : ProblemLog, optional
        Shared log for warnings; None: a new one.
    strict : bool
        Warnings count as errors.

    Raises
    ------
    InputError
        Bad input (see `read_conllu` and `read_brackets`).
    """
    source = as_input(path)  # a stream read once: sniffed, then parsed
    if format_of(fmt, source) == "conllu":
        return read_conllu(source, log=log, strict=strict)
    return read_brackets(source, style=phrase_style, log=log, strict=strict)
