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


def sniff_format(path: PathLike) -> str:
    """Guess ``"conllu"`` or ``"phrase"`` from the first non-comment, non-blank line
    (a compression suffix is looked through: ``a.conllu.gz`` is CoNLL-U)."""
    p = Path(path)
    suffix = Path(strip_suffix(p.name)).suffix.lower()
    if suffix in (".conllu", ".conll", ".conllx"):
        return "conllu"
    if suffix in (".tree", ".trees", ".mrg", ".ptb", ".brackets"):
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
    """``"conllu"`` or ``"phrase"`` for a ``--format`` value and a file."""
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
    """Read a dependency or phrase-structure file (``fmt``: auto|conllu|phrase)."""
    if format_of(fmt, path) == "conllu":
        return read_conllu(path, log=log, strict=strict)
    return read_brackets(path, style=phrase_style, log=log, strict=strict)
