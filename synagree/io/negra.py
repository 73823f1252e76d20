"""NEGRA export format (versions 3 and 4): discontinuous phrase-structure trees.

A sentence lies between ``#BOS N`` and ``#EOS N``.  Word lines give
``word [lemma] tag morph edge parent [secondary edge, parent]...``; node
lines start ``#5NN`` and give ``#id [lemma] category morph edge parent ...``.
Version 4 adds the lemma column; the version is the file's ``#FORMAT N``
line, else it is told by the columns (a version-3 line has an odd number of
columns, a version-4 line an even one: word, tag, morph, edge and parent
plus pairs of secondary edges).  Parent 0 is the virtual root.  Header
tables (``#BOT`` ... ``#EOT``) and ``%%`` comments are skipped.  The trees
are ordered by first terminals (`synagree.io.discontinuous`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional

from synagree.base.numbers import ascii_digits
from synagree.base.problems import ProblemLog, quote
from synagree.io.brackets import PhraseSentence
from synagree.io.discontinuous import NonTerminal, Terminal, build_sentence
from synagree.io.files import read_parsed
from synagree.io.sources import Source

__all__ = ["read_negra"]


@dataclass
class _Sentence:
    line: int
    sent_id: Optional[str]
    terminals: List[Terminal] = field(default_factory=list)
    nodes: Dict[str, NonTerminal] = field(default_factory=dict)


def _columns(line: str) -> List[str]:
    return line.split("%%", 1)[0].split()


def _version(lines: List[str]) -> Optional[int]:
    for line in lines:
        cols = _columns(line)
        if cols[:1] == ["#FORMAT"] and len(cols) > 1 and cols[1] in ("3", "4"):
            return int(cols[1])
        if cols[:1] == ["#BOS"]:
            break
    return None


def read_negra(path: Source, log: Optional[ProblemLog] = None) -> List[PhraseSentence]:
    r"""Read a NEGRA export file (format 3 or 4) into `PhraseSentence` trees.

    Parameters
    ----------
    path : str, path-like, file-like or Buffer
    log : ProblemLog, optional

    Raises
    ------
    InputError
        Every problem: ``negra-line`` (a line of the wrong shape, a word
        outside ``#BOS``/``#EOS``, an unfinished sentence), ``bad-parent``,
        ``unattached-node``, ``empty-tree``, ``empty-file``.

    Examples
    --------
    >>> import io
    >>> from synagree.io.negra import read_negra
    >>> text = ("#BOS 1\nDogs NN -- SB 500\nbark VV -- HD 500\n#500 S -- -- 0\n#EOS 1\n")
    >>> [t] = read_negra(io.StringIO(text))
    >>> t.root.bracketed(), t.words
    ('(VROOT (S NN VV))', ['Dogs', 'bark'])
    """
    return read_parsed(path, log, _parse, "file holds no #BOS sentence")


def _parse(name: str, text: str, log: ProblemLog) -> List[PhraseSentence]:
    out: List[PhraseSentence] = []
    lines = text.splitlines()
    version = _version(lines)
    sent: Optional[_Sentence] = None
    in_table = False
    for no, line in enumerate(lines, 1):
        cols = _columns(line)
        if not cols:
            continue
        head = cols[0]
        if head in ("#BOT", "#EOT"):
            in_table = head == "#BOT"
            continue
        if in_table or head == "#FORMAT":
            continue
        if head == "#BOS":
            if sent is not None:
                log.add(name, sent.line, "negra-line",
                        "sentence not closed by #EOS before the next #BOS")
            sent = _Sentence(no, cols[1] if len(cols) > 1 else None)
        elif sent is None:
            log.add(name, no, "negra-line",
                    f"line {quote(line)} outside a sentence (#BOS ... #EOS)")
        elif head == "#EOS":
            tree = build_sentence(name, len(out), sent.line, sent.terminals, sent.nodes, None,
                                  log, sent_id=sent.sent_id)
            if tree is not None:
                out.append(tree)
            sent = None
        else:
            _node_line(cols, version, no, sent, name, log)
    if sent is not None:
        log.add(name, sent.line, "negra-line", "sentence not closed by #EOS at the end of the file")
    return out


def _node_line(cols: List[str], version: Optional[int], no: int, sent: _Sentence,
               name: str, log: ProblemLog) -> None:
    """One word or node line into the sentence being read."""
    v = version or (4 if len(cols) % 2 == 0 else 3)
    width = 6 if v == 4 else 5
    if len(cols) < width or (len(cols) - width) % 2:
        log.add(name, no, "negra-line",
                f"expected {width} columns (format {v}: word{' lemma' if v == 4 else ''} tag "
                f"morph edge parent) and pairs of secondary edges, found {len(cols)}")
        return
    tag = cols[2] if v == 4 else cols[1]
    parent = cols[width - 1]
    if not ascii_digits(parent):
        log.add(name, no, "negra-line", f"parent {quote(parent)} is not a node number")
        return
    par = None if int(parent) == 0 else str(int(parent))
    if cols[0].startswith("#") and ascii_digits(cols[0][1:]):
        sent.nodes[str(int(cols[0][1:]))] = NonTerminal(tag, par, no)
    else:
        sent.terminals.append(Terminal(cols[0], tag, par, no))
