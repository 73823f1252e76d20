"""Input formats: which reader a file needs, and reading any annotation file."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Union

from synagree.base.problems import InputError, ProblemLog
from synagree.io import registry
from synagree.io.brackets import PhraseSentence, read_brackets
from synagree.io.compression import strip_suffix
from synagree.io.conllu import DepSentence
from synagree.io.files import PathLike
from synagree.io.sources import Source, as_input

Sentence = Union[DepSentence, PhraseSentence]

#: file-name suffixes of CoNLL-U files and of bracketed trees (compressed or not)
CONLL_SUFFIXES = registry.get_format("conllu").suffixes
PHRASE_SUFFIXES = tuple(dict.fromkeys(x for f in registry.formats() if f.bracketed
                                      for x in f.suffixes))
#: every registered format's suffixes: the annotation files of a --dirs directory
ANNOTATION_SUFFIXES = tuple(dict.fromkeys(x for f in registry.formats() for x in f.suffixes))


def annotation_stem(name: PathLike) -> Optional[str]:
    """The name of an annotation file without its format and compression
    suffixes; None when the name has no annotation-file suffix.
    """
    p = Path(strip_suffix(Path(name).name))
    return p.stem if p.suffix.lower() in ANNOTATION_SUFFIXES else None


def sniff_format(path: Source) -> str:
    r"""The kind of a file (or a `Buffer`): ``"conllu"`` or ``"phrase"``.

    The registry's sniffer decides the format (`synagree.io.registry.sniff`:
    by the name's suffix, a compression suffix looked through, else by the
    content); this gives its kind, ``"conllu"`` for every dependency format.

    Returns
    -------
    {"conllu", "phrase"}

    Raises
    ------
    InputError
        ``ambiguous-format`` (see `synagree.io.registry.sniff`).
    """
    return _kind(registry.sniff(path))


def _kind(spec: registry.Format) -> str:
    if spec.kind == "documents":
        raise InputError.single("<command line>", None, "usage",
                                f"--format {spec.name} ({spec.description}) is read by "
                                f"categorical and spans only")
    return "phrase" if spec.kind == "phrase" else "conllu"


def format_of(fmt: str, path: Source) -> str:
    """``"conllu"`` or ``"phrase"`` for a ``--format`` value and a file.

    Parameters
    ----------
    fmt : str
        ``"auto"`` (sniff the file, `sniff_format`) or a registered format's
        name (`synagree.io.registry.format_names`).
    path : str, path-like or Buffer

    Returns
    -------
    {"conllu", "phrase"}

    Raises
    ------
    ValueError
        Unknown ``fmt``.
    """
    return _kind(registry.resolve(fmt, path))


def read_any(path: Source, fmt: str = "auto", phrase_style: str = "auto",
             log: Optional[ProblemLog] = None, strict: bool = False
             ) -> Union[List[DepSentence], List[PhraseSentence]]:
    r"""Read a dependency or phrase-structure file.

    Parameters
    ----------
    path : str, path-like or file-like
        A file, or an open text or binary stream (`synagree.io.sources`).
    fmt : str
        ``auto`` or a registered format (`synagree.io.registry`); a file of
        several annotators (``arborator``) gives every tree in file order.
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
    spec = registry.resolve(fmt, source)
    _kind(spec)  # documents (GATE): not sentences
    if spec.bracketed:
        return read_brackets(source, style=phrase_style, log=log, strict=strict)
    # every registered reader raises InputError with the errors it logged
    return registry.read_with(spec, source, log or ProblemLog(strict=strict))
