"""`read`: one annotation from text, a stream or a file, as a list of sentences.

The way in for data in memory (a parser's output, a converted spaCy or Stanza
document): CoNLL-U or bracketed text as a string, or an open stream, read as
the command line reads a file (every check, every problem with its line).

Why a list of sentences and not a `synagree.io.corpus.Corpus`: a corpus is
units × annotators, matched across two or more annotations; one annotation
has nothing to be matched with.  Two lists make a corpus with
`Corpus.from_annotations` (by position), or pass the streams themselves to
`synagree.agree`, which matches and checks them as it matches files.
"""
from __future__ import annotations

from typing import List, Optional, Union

from synagree.io import registry
from synagree.io.brackets import PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.io.formats import read_any
from synagree.io.sources import Buffer, Source, as_input

__all__ = ["read", "is_text"]


def is_text(s: str) -> bool:
    """Is the string ``s`` annotation text rather than a path?

    Text holds a line break, or is one bracketed tree (starts with ``(``
    after blanks); any other string is a path.
    """
    return "\n" in s or "\r" in s or s.lstrip().startswith("(")


def read(source: Union[str, Source], format: str = "auto", name: Optional[str] = None, *,
         phrase_style: str = "auto", strict: bool = False
         ) -> Union[List[DepSentence], List[PhraseSentence]]:
    r"""Read one annotation: CoNLL-U (or CoNLL-X) or bracketed trees.

    Parameters
    ----------
    source : str, path-like or file-like
        Annotation **text** (a string with a line break, or one bracketed
        tree starting with ``(``; `is_text`), a **path** (any other string, or
        a `pathlib.Path`; ``.gz``/``.xz``/``.bz2`` decompressed), or an open
        text or binary **stream** (compressed or not), read to its end.
    format : str
        ``auto`` (default: by the name's suffix, else by the content) or a
        format of the reader registry (docs/formats.md): ``conllu``,
        ``phrase``, ``ptb``, ``arborator`` (every user's tree, in file
        order), ``webanno-tsv3``, ``tiger-xml``, ``negra``.
    name : str, optional
        The name of text or a stream in messages and in each sentence's
        ``file`` (default ``<text>``, or the stream's own ``.name``, else
        ``<stream>``); its suffix also decides ``auto``.  A path is named by
        itself.
    phrase_style : {"auto", "delex", "penn"}
        How bare strings of bracketed trees are read (docs/method.md §1.6).
    strict : bool
        Warnings (head cycles, DEPREL ``_``) count as errors.

    Returns
    -------
    list of DepSentence or list of PhraseSentence
        In file order.

    Raises
    ------
    InputError
        Every problem of the input, with its line (``<text>:3: ...``).
    ValueError
        Unknown ``format`` or ``phrase_style``.
    TypeError
        ``source`` is neither text, a path nor a stream.

    Examples
    --------
    >>> import synagree
    >>> text = ("1\tDogs\t_\tNOUN\t_\t_\t2\tnsubj\t_\t_\n"
    ...         "2\tbark\t_\tVERB\t_\t_\t0\troot\t_\t_\n\n")
    >>> [s] = synagree.read(text)
    >>> s.forms, s.heads.tolist(), s.deprels, s.file
    (['Dogs', 'bark'], [2, 0], ['nsubj', 'root'], '<text>')
    >>> [t] = synagree.read("(S (NP (D the) (N dog)) (VP (V ran)))")
    >>> t.root.bracketed(), t.words
    ('(S (NP D N) (VP V))', ['the', 'dog', 'ran'])
    >>> import io
    >>> try:
    ...     synagree.read(io.StringIO(text.replace("\t2\tnsubj", "\t7\tnsubj")), name="mine")
    ... except synagree.InputError as exc:
    ...     print(exc.errors[0])
    mine:1: error: HEAD 7 of word 1 is out of range 0..2 (head-out-of-range)
    """
    if format not in registry.format_names(with_aliases=True):
        raise ValueError(f"format must be one of {', '.join(registry.format_names())}, "
                         f"not {format!r}")
    if isinstance(source, str) and is_text(source):
        src: Union[Source, Buffer] = Buffer(name or "<text>", name, source)
    else:
        src = as_input(source, name or "<stream>")
        if name and isinstance(src, Buffer):
            src = Buffer(name, name, src.data, src.error)
    return read_any(src, fmt=format, phrase_style=phrase_style, strict=strict)
