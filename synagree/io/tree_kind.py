"""Which kind of trees a file holds, from a look at its head: what ``synagree compare``
asks before it chooses the CoNLL 2018 metrics or PARSEVAL.

Kept apart from `synagree.io.evalb_lines` (EVALB's line reading, its parameter files
and their digests), so that a comparison of CoNLL-U files does not load those
(issue 36: start-up); `synagree.io.evalb_lines` re-exports both functions.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional, Union

from synagree.io import registry
from synagree.io.compression import READ_ERRORS, SNIFF_BYTES, open_binary

__all__ = ["bracketed_file", "trees_span_lines"]


def bracketed_file(path: Union[str, Path]) -> Optional[bool]:
    r"""Does the file hold phrase-structure trees, as the reader registry sniffs it?

    How ``synagree compare`` chooses PARSEVAL or the CoNLL 2018 metrics
    (`synagree.io.registry.sniff`: the suffix, else the content; bracketed
    trees, TIGER-XML and NEGRA are phrase structure); compressed files are
    looked into.

    Returns
    -------
    bool or None
        None when the file cannot be read or holds only white space (the
        reader then says why).

    Raises
    ------
    InputError
        ``ambiguous-format`` (see `synagree.io.registry.sniff`).
    """
    spec = registry.sniff_or_none(path)
    return None if spec is None else spec.kind == "phrase"


def trees_span_lines(path: Union[str, Path]) -> bool:
    r"""Does a bracketed tree of the file run over more than one line (as in a Penn ``.mrg``)?

    Brackets are counted line by line, nothing parsed (``compare`` asks before
    choosing to join the trees one a line for EVALB: `synagree.io.native`): True
    when a line opens more brackets than it closes.  Only the lines that start in
    the first `SNIFF_BYTES` are looked at (each at most `SNIFF_BYTES` long: not a
    whole bomb, nor an endless line).  An unreadable file is False (the reader
    reports it).
    """
    try:
        with open_binary(path) as fh:
            head = fh.read(SNIFF_BYTES)
            start = head.rfind(b"\n") + 1  # of the last line, cut at SNIFF_BYTES
            if 0 < start < len(head) == SNIFF_BYTES:
                head += fh.readline(start)  # its rest, up to SNIFF_BYTES in all
    except READ_ERRORS:
        return False
    # one read and one split, not a readline per line (5 ms on a 1 MB file before)
    return any(line.count(b"(") > line.count(b")") for line in head.split(b"\n"))
