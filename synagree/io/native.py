"""Inputs of any registered format as the text of the scorers' own formats.

``compare`` scores dependency input the CoNLL 2018 scorer's way
(`synagree.evaluation.conll18.read_treebank`) and bracketed input EVALB's
way, each reading its own format line by line.  A file of another
registered format is read by its reader (`synagree.io.registry`), every
problem reported with the file's own lines, then written as CoNLL-U or as
bracketed trees (one a line) into a `Buffer` named as the file, which the
scorer reads.  The scorer's own checks then run on that text.
"""
from __future__ import annotations

from typing import List, Sequence

from synagree.base.problems import InputError, ProblemLog
from synagree.io import registry
from synagree.io.brackets import PhraseSentence, RawTree, _label_and_kids, parse_bracket_file
from synagree.io.conllu import DepSentence, to_conllu
from synagree.io.files import read_text
from synagree.io.formats import read_any
from synagree.io.sources import Buffer, Input, Source, as_input, input_name

__all__ = ["native_input", "to_brackets", "one_tree_a_line"]


def _escape(text: str) -> str:
    return text.replace("(", "-LRB-").replace(")", "-RRB-").replace(" ", "_")


def to_brackets(sentences: Sequence[PhraseSentence]) -> str:
    """Penn-style bracketed trees, one a line: ``(S (NP (DT the) (NN dog)) (VBD ran))``.

    Each leaf (a tag) gets its word; brackets in words and tags are written
    ``-LRB-``/``-RRB-`` (as the Penn Treebank writes them), spaces ``_``.

    Raises
    ------
    InputError
        ``discontinuous-tree``: a tree whose leaves are not in sentence
        order (bracketed trees and PARSEVAL have no discontinuous
        constituents).
    """
    lines: List[str] = []
    for s in sentences:
        if s.leaf_order:
            raise InputError.single(s.file, s.line, "discontinuous-tree",
                                    f"sentence {s.label_of()} has discontinuous constituents; "
                                    f"bracketed trees (PARSEVAL) cannot hold them (agree and "
                                    f"spans read them, ordered by first terminal)")
        words = iter(s.words)
        text: dict = {}
        for node in s.root.postorder():
            if not node.children:
                text[id(node)] = f"({_escape(node.label)} {_escape(next(words, '_'))})"
            else:
                text[id(node)] = "(" + " ".join(
                    [_escape(node.label)] + [text.pop(id(c)) for c in node.children]) + ")"
        lines.append(text[id(s.root)])
    return "\n".join(lines) + "\n"


def _raw_text(tree: RawTree) -> str:
    """A parsed bracketed tree written on one line, its brackets as read."""
    out: List[str] = []
    stack: List[object] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        label, kids = _label_and_kids(item)  # type: ignore[arg-type]
        out.append("(" + label)
        stack.append(")")
        for kid in reversed(kids):
            stack.append(kid)
            stack.append(" ")
    return "".join(out).replace(" )", ")")


def one_tree_a_line(source: Input) -> Input:
    """A Penn ``.mrg`` file whose trees span lines, one tree a line (EVALB's input).

    The file itself when every tree is on a line of its own already (EVALB
    then reports each line's problems as it would).  Otherwise each parsed
    tree is written back on one line, its brackets as read (the unlabelled
    outer bracket included), into a `Buffer` named as the file.
    """
    log = ProblemLog()
    raw = parse_bracket_file(source, log)
    if raw is None:
        log.raise_if_errors()
        return source
    text = read_text(source, ProblemLog()) or ""
    if len([ln for ln in text.splitlines() if ln.strip()]) == len(raw):
        return source
    real = source.real_name if isinstance(source, Buffer) else str(source)
    return Buffer(input_name(source), real, "\n".join(_raw_text(t) for _, t in raw) + "\n")


def native_input(path: Source, fmt: str = "auto") -> Source:
    """``path`` itself when it is CoNLL-U or bracketed, else its trees as such text.

    Parameters
    ----------
    path : str, path-like, file-like or Buffer
    fmt : str
        ``--format`` (``auto``: sniffed).

    Raises
    ------
    InputError
        The file's problems (its reader's), ``discontinuous-tree`` (see
        `to_brackets`), or ``usage`` for a file of several annotators (one
        annotator per file here).
    """
    source = as_input(path)
    spec = registry.resolve(fmt, source)
    if spec.name == "ptb":
        return one_tree_a_line(source)
    if spec.name == "conllu" or spec.bracketed:
        return source
    if spec.multi_annotator:
        raise InputError.single(input_name(source), None, "usage",
                                f"a {spec.name} file holds several annotators; compare takes "
                                f"one per file (agree, report and categorical read it whole)")
    sents = read_any(source, fmt=spec.name)
    real = source.real_name if isinstance(source, Buffer) else str(source)
    if spec.kind == "phrase":
        text = to_brackets([s for s in sents if isinstance(s, PhraseSentence)])
    else:
        text = to_conllu([s for s in sents if isinstance(s, DepSentence)])
    return Buffer(input_name(source), real, text)

