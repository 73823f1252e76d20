"""Files of ``A<TAB>B`` lines: the tag mappings and the lexicons of tiered tagging.

UTF-8 text (compressed files are read as every input is).  A line that starts
with ``#`` followed by a space (or a lone ``#``) is a comment and blank lines
are ignored; there are no end-of-line comments, so a field may begin with
``#``.  Every other line is two non-empty tab-separated fields (blanks around a
field are dropped).
"""
from __future__ import annotations

import re
from typing import List, Tuple

from synagree.base.problems import ProblemLog, quote
from synagree.io.files import read_text
from synagree.io.sources import Source, as_input, input_name

__all__ = ["read_tab_pairs"]

_COMMENT = re.compile(r"#( |$)")


def read_tab_pairs(path: Source, placeholder: str, layout: str, kind: str, log: ProblemLog
                   ) -> Tuple[str, List[Tuple[int, str, str]]]:
    """``(name, rows)``: the file's name in messages and its ``(line, A, B)`` rows.

    Parameters
    ----------
    path : str, path-like or file-like
        A file, or a stream (`synagree.io.sources`).
    placeholder : str
        The name of a stream without a real ``.name``, in messages (``<tiers>``).
    layout : str
        What a line holds, for messages (``FINE<TAB>COARSE``).
    kind : str
        The problem kind of a line that is not two non-empty fields
        (``tag-map-fields``), added to ``log`` (the line is skipped).
    log : ProblemLog

    Raises
    ------
    InputError
        The reading problems of `synagree.io.files.read_text`.
    """
    source = as_input(path, placeholder)
    name = input_name(source)
    text = read_text(source, log)
    log.raise_if_errors()
    rows = []
    for number, raw in enumerate((text or "").splitlines(), start=1):
        content = raw.strip()
        if not content or _COMMENT.match(content):
            continue
        fields = [f.strip() for f in content.split("\t")]
        if len(fields) != 2 or not all(fields):
            log.add(name, number, kind,
                    f"expected '{layout}' (two non-empty tab-separated fields), "
                    f"got {quote(content)}")
            continue
        rows.append((number, fields[0], fields[1]))
    return name, rows
