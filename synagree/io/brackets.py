"""Bracketed phrase-structure trees: reading, bracket style, delexicalising.

Trees such as ``(S (NP D N) (VP V))``, one or more per file, possibly across
lines, are read into `PhraseSentence` objects whose leaves are categories
(docs/method.md §1.2, §1.6, §2.2).  Penn-style input (``(D the)``) has its
words dropped under the preterminals; `decide_phrase_style` picks the style
once for a whole corpus.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from synagree.base.gc_pause import paused_gc
from synagree.base.problems import InputError, Problem, ProblemLog, quote
from synagree.io.files import raise_new_errors, read_text
from synagree.io.native_scan import scanc
from synagree.io.sources import Source, as_input, input_name
from synagree.io.text import comparable


@dataclass(eq=False)
class PhraseNode:
    """A node of a delexicalised phrase-structure tree.

    Every walk over these trees is iterative (`postorder`), since a
    file may nest brackets deeper than Python's recursion limit; equality
    compares whole trees, iteratively too.

    Parameters
    ----------
    label : str
        The category.
    children : list of PhraseNode
        In order; empty for a leaf.
    """

    label: str
    children: List["PhraseNode"] = field(default_factory=list)

    def postorder(self) -> List["PhraseNode"]:
        """Every node of the tree, children before parents, left to right."""
        out: List[PhraseNode] = []
        stack: List[Tuple[PhraseNode, bool]] = [(self, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded or not node.children:
                out.append(node)
            else:
                stack.append((node, True))
                stack.extend((c, False) for c in reversed(node.children))
        return out

    def bracketed(self) -> str:
        """The tree as brackets, leaves bare: ``(S (NP D N) V)``."""
        text: Dict[int, str] = {}
        for node in self.postorder():
            text[id(node)] = (node.label if not node.children else
                              "(" + " ".join([node.label] + [text.pop(id(c))
                                                             for c in node.children]) + ")")
        return text[id(self)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PhraseNode):
            return NotImplemented
        return self.bracketed() == other.bracketed()

    def __repr__(self) -> str:
        return f"PhraseNode({self.bracketed()!r})"


@dataclass
class PhraseSentence:
    """One bracketed tree, already delexicalised (leaves are categories).

    Parameters
    ----------
    file : str
        The file it was read from.
    index : int
        0-based position of the tree in the file.
    line : int
        1-based line where the tree starts.
    root : PhraseNode
    words : list of str
        The words of Penn-style input (empty for delexicalised input).
    metadata : dict
        ``sent_id`` and the like, when known.
    leaf_order : list of int
        Discontinuous trees (TIGER-XML, NEGRA): the 0-based position in
        ``words`` of each leaf, left to right in the tree (whose children are
        ordered by their first terminal, docs/method.md §1.11); empty when the
        leaves are in sentence order.
    """

    file: str
    index: int
    line: int
    root: PhraseNode
    words: List[str] = field(default_factory=list)  # Penn input only
    metadata: Dict[str, Optional[str]] = field(default_factory=dict)
    leaf_order: List[int] = field(default_factory=list)  # discontinuous trees only

    @property
    def sent_id(self) -> Optional[str]:
        """The ``sent_id`` of the metadata, or None."""
        return self.metadata.get("sent_id")

    @property
    def text(self) -> Optional[str]:
        """The words joined by spaces (Penn input), or None."""
        return " ".join(self.words) if self.words else None

    @property
    def leaves(self) -> List[str]:
        """The leaf categories, left to right."""
        out: List[str] = []
        stack = [self.root]
        while stack:
            node = stack.pop()
            if not node.children:
                out.append(node.label)
            else:
                stack.extend(reversed(node.children))
        return out

    @property
    def size(self) -> int:
        """|t| per docs/method.md §2.3: the number of leaves (preterminals)."""
        return len(self.leaves)

    def label_of(self) -> str:
        """The sentence for messages: its ``sent_id``, or ``FILE#N`` (1-based)."""
        return self.sent_id or f"{Path(self.file).name}#{self.index + 1}"

    def surface_text(self) -> Optional[str]:
        """The words of a Penn-style tree without whitespace; None for
        delexicalised trees (no words to compare).
        """
        return comparable("".join(self.words)) if self.words else None

    word_text = surface_text


_TOKEN = re.compile(r"\(|\)|[^\s()]+")


# A parsed bracket is a list ``[label, child, ...]``; a child is a nested list
# or a bare string.  Every walk over these (and over PhraseNode trees) uses an
# explicit stack: a file may nest brackets far deeper than Python's recursion
# limit.
RawTree = List[Any]


PHRASE_STYLES = ("auto", "delex", "penn")


# auto style: share of the bare strings of the Penn-shaped trees of a file that
# must also occur as leaves of certainly-delexicalised trees of the corpus for
# the file to be read as delexicalised too (see docs/method.md §1).
DELEX_LEAF_COVERAGE = 0.9


def parse_bracket_file(path: Source, log: ProblemLog) -> Optional[List[Tuple[int, RawTree]]]:
    r"""The raw bracketed trees of a file, as parsed nested lists.

    Parameters
    ----------
    path : str, path-like or file-like
        The file (``.gz``/``.xz``/``.bz2`` decompressed), or an open text or
        binary stream (`synagree.io.sources`).
    log : ProblemLog
        Receives every problem (unbalanced brackets, stray text, empty file).

    Returns
    -------
    list of (int, list) or None
        ``(first line, tree)`` per tree, a tree being ``[label, child, ...]``
        with bare strings as ``str``; None when the file cannot be read or has
        errors (they are in ``log``).

    See Also
    --------
    phrase_sentences : delexicalise the parsed trees.
    """
    n_before = len(log.errors)
    source = as_input(path)
    text = read_text(source, log)
    if text is None:
        return None
    raw = _parse_brackets(text, input_name(source), log)
    if len(log.errors) > n_before:
        return None
    if not raw:
        log.add(input_name(source), None, "empty-file", "file holds no bracketed trees")
        return None
    return raw


def read_brackets(path: Source, style: str = "auto", log: Optional[ProblemLog] = None,
                  strict: bool = False) -> List[PhraseSentence]:
    r"""Read the bracketed trees of one file, delexicalised.

    Returns trees in delexicalised form (docs/method.md §1.6): the compared tree
    is the same whichever style the file was written in.  ``auto`` decides
    from this one file by `decide_phrase_style`; to decide once for a
    corpus of several files, use `synagree.io.corpus.read_files`.

    Parameters
    ----------
    path : str, path-like or file-like
        The file (``.gz``/``.xz``/``.bz2`` decompressed), or an open text or
        binary stream (`synagree.io.sources`).
    style : {"auto", "delex", "penn"}
        ``delex``: bare strings are leaf categories; ``penn``: bare strings are
        words under preterminals, dropped.
    log : ProblemLog, optional
        Shared log for warnings across files; None: a new one.
    strict : bool
        Warnings count as errors (when ``log`` is None).

    Raises
    ------
    InputError
        The file cannot be read, has unbalanced brackets or stray text, or
        ``auto`` finds conflicting evidence (every problem gathered first).
    ValueError
        Unknown ``style``.
    """
    if style not in PHRASE_STYLES:
        raise ValueError(f"style must be auto, delex or penn, not {style!r}")
    source = as_input(path)
    name = input_name(source)
    log = log if log is not None else ProblemLog(strict=strict)
    out: List[PhraseSentence] = []
    with raise_new_errors(log):
        raw = parse_bracket_file(source, log)
        if raw is not None:
            decision = decide_phrase_style([(name, raw)], style)
            out = phrase_sentences(name, raw, decision.style, log)
    return out


def phrase_sentences(fname: str, raw_trees: Sequence[Tuple[int, RawTree]], style: str,
                     log: ProblemLog) -> List[PhraseSentence]:
    """Delexicalise parsed trees in the given style (``delex`` or ``penn``).

    Parameters
    ----------
    fname : str
        The file the trees came from (for messages and `PhraseSentence.file`).
    raw_trees : sequence of (int, list)
        ``(first line, tree)`` as `parse_bracket_file` returns them.
    style : {"delex", "penn"}
    log : ProblemLog
        Receives an ``empty-tree`` error per tree without nodes.
    """
    out: List[PhraseSentence] = []
    for index, (line, tree) in enumerate(raw_trees):
        words: List[str] = []
        root = _delex(tree, style, words)
        if root is None:
            log.add(fname, line, "empty-tree", "tree has no nodes")
            continue
        out.append(PhraseSentence(fname, index, line, root, words))
    return out


def _parse_brackets(text: str, fname: str, log: ProblemLog) -> List[Tuple[int, RawTree]]:
    """Tokenise and build nested lists ``[label, child...]`` with line numbers.

    A bare string child is kept as ``str``.  Reports unbalanced brackets and
    stray text with line numbers.  A clean text (balanced, nothing outside
    the brackets) is parsed by a fast path -- the C parse of
    ``synagree/io/_scanc.c``, or `_parse_brackets_json` -- and any other by
    `_parse_brackets_detailed`, which finds the problems; the trees are the
    same (tests/test_reader_parity.py).
    """
    c = scanc(log)
    with paused_gc():  # many lists, no cycles
        trees = c.brackets(text, c.table()) if c is not None else _parse_brackets_json(text)
        if trees is None:
            trees = _parse_brackets_detailed(text, fname, log)
    return trees


# a line whose first character other than whitespace is '#' (a comment line
# when it stands between trees)
_COMMENT_LINE = re.compile(r"^[^\S\n]*#", re.MULTILINE)


def _parse_brackets_json(text: str) -> Optional[List[Tuple[int, RawTree]]]:
    """The trees of a clean text, parsed as JSON; None when the text is not
    clean (or has a comment line), for `_parse_brackets_detailed` to read.

    The tokens (`_TOKEN`'s: a bracket, or a run of characters that are
    neither whitespace nor brackets) are joined as JSON strings, and ``"(",``
    and ``,")"`` turned into JSON's brackets; `json.loads` (C) builds the
    nested lists.  The JSON is valid and has only lists at the top exactly
    when the brackets balance and no token stands outside them.  A tree's
    first line is the line of its outermost ``(``.
    """
    if _COMMENT_LINE.search(text):
        return None
    quoted = text.replace("\\", "\\\\").replace('"', '\\"') if "\\" in text or '"' in text \
        else text  # (only inside tokens)
    tokens = quoted.replace("(", " ( ").replace(")", " ) ").split()
    if not tokens:
        return []
    js = ('["' + '","'.join(tokens) + '"]').replace('"(",")"', "[]").replace(
        '"(",', "[").replace(',")"', "]")
    try:
        trees = json.loads(js, strict=False)
    except (ValueError, RecursionError):  # (json nests by recursion)
        return None
    if not all(isinstance(t, list) for t in trees):
        return None
    # '(', ')' and '\n' are single bytes of UTF-8, never inside another character
    raw = np.frombuffer(text.encode("utf-8", "surrogatepass"), np.uint8)
    at = np.flatnonzero((raw == 40) | (raw == 41))
    opens = raw[at] == 40
    outermost = at[opens & (np.cumsum(np.where(opens, 1, -1)) == 1)]
    lines = np.searchsorted(np.flatnonzero(raw == 10), outermost) + 1
    if len(lines) != len(trees):  # pragma: no cover - cannot happen for valid JSON
        return None
    return list(zip(lines.tolist(), trees))


def _parse_brackets_detailed(text: str, fname: str,
                             log: ProblemLog) -> List[Tuple[int, RawTree]]:
    """`_parse_brackets` token by token, logging every problem where it is."""
    trees = []
    stack: List[List[Any]] = []
    starts: List[int] = []
    for no, line in enumerate(text.split("\n"), start=1):
        if not stack and line.lstrip().startswith("#"):
            continue  # comment line between trees
        for m in _TOKEN.finditer(line):
            tok = m.group()
            if tok == "(":
                node: List[Any] = []
                if stack:
                    stack[-1].append(node)
                else:
                    starts.append(no)
                stack.append(node)
            elif tok == ")":
                if not stack:
                    log.add(fname, no, "unbalanced-brackets",
                            f"unmatched ')' at column {m.start() + 1}")
                    continue
                node = stack.pop()
                if not stack:
                    trees.append((starts[-1], node))
            else:
                if not stack:
                    log.add(fname, no, "stray-text",
                            f"text {tok!r} outside any bracket at column {m.start() + 1}")
                    continue
                stack[-1].append(tok)
    if stack:
        log.add(fname, starts[-1] if starts else None, "unbalanced-brackets",
                f"{len(stack)} unclosed '(' in the tree starting here")
    return trees


def _label_and_kids(node: List[Any]) -> Tuple[str, List[Any]]:
    """A parsed bracket ``[label, child...]``; ``( (S ...))`` has the label ``""``."""
    if node and isinstance(node[0], str):
        return node[0], node[1:]
    return "", node


def _raw_brackets(tree: RawTree) -> Iterator[Tuple[str, List[Any]]]:
    """Every bracket of a parsed tree as ``(label, children)``, iteratively."""
    stack = [tree]
    while stack:
        label, kids = _label_and_kids(stack.pop())
        yield label, kids
        stack.extend(k for k in kids if isinstance(k, list))


@dataclass
class StringShapes:
    """Where the bare strings of some trees stand.

    ``only_child``: strings that are the only child of their bracket (the
    Penn shape ``(TAG word)``, also possible for a delexicalised leaf under a
    unary node); ``beside``: strings with a sibling (only delexicalised trees
    have these).
    """

    only_child: List[str] = field(default_factory=list)
    beside: List[str] = field(default_factory=list)

    @property
    def penn_shaped(self) -> bool:
        """True when no string stands beside another node."""
        return not self.beside


def string_shapes(tree: RawTree) -> StringShapes:
    """The `StringShapes` of one parsed tree.

    Parameters
    ----------
    tree : list
        A parsed tree ``[label, child, ...]`` (`parse_bracket_file`).
    """
    out = StringShapes()
    for _, kids in _raw_brackets(tree):
        strings = [k for k in kids if isinstance(k, str)]
        if strings:
            (out.only_child if len(kids) == 1 else out.beside).extend(strings)
    return out


@dataclass(frozen=True)
class StyleDecision:
    """The bracket style a corpus is read in, and why (reported in outputs).

    Parameters
    ----------
    style : {"delex", "penn"}
    how : str
        ``"explicit"`` or ``"auto: <the evidence>"``.
    """

    style: str  # "delex" or "penn"
    how: str  # "explicit" or "auto: <the evidence>"

    def describe(self) -> str:
        """The style, with the evidence when it was decided automatically."""
        return self.style if self.how == "explicit" else f"{self.style} ({self.how})"


def decide_phrase_style(files: Sequence[Tuple[str, Sequence[Tuple[int, RawTree]]]],
                        style: str = "auto") -> StyleDecision:
    """One bracket style for a whole corpus (docs/method.md §1.6).

    ``auto`` decides from all files at once:

    * every bare string is the only child of its bracket, in every tree →
      ``penn`` (words under preterminals);
    * otherwise some trees have a string beside another node, which only a
      delexicalised tree has → ``delex``, provided the trees that are
      Penn-shaped are consistent with that: in each file, at least
      `DELEX_LEAF_COVERAGE` of their strings also occur as leaves of
      the certainly-delexicalised trees.  If not (a Penn file with one
      ``(NNP John Smith)``, or a file mixing both shapes), the evidence
      conflicts and `InputError` asks for an explicit style.

    Parameters
    ----------
    files : sequence of (str, sequence of (int, list))
        ``(file name, parsed trees)`` for every file of the corpus, the trees
        as `parse_bracket_file` returns them.
    style : {"auto", "delex", "penn"}
        An explicit style is returned as it is (``how="explicit"``).

    Raises
    ------
    InputError
        ``auto`` with conflicting evidence (kind ``ambiguous-phrase-style``).
    ValueError
        Unknown ``style``.
    """
    if style not in PHRASE_STYLES:
        raise ValueError(f"style must be auto, delex or penn, not {style!r}")
    if style != "auto":
        return StyleDecision(style, "explicit")
    per_file = [(f, [string_shapes(t) for _, t in trees]) for f, trees in files]
    n_trees = sum(len(s) for _, s in per_file)
    delex_leaves = {x for _, shapes in per_file for s in shapes if not s.penn_shaped
                    for x in s.only_child + s.beside}
    n_delex = sum(1 for _, shapes in per_file for s in shapes if not s.penn_shaped)
    if not n_delex:
        return StyleDecision("penn", "auto: every bare string is the only child of its "
                                     "bracket, as words under part-of-speech tags are")
    conflicts = []
    for f, shapes in per_file:
        strings = [x for s in shapes if s.penn_shaped for x in s.only_child]
        if not strings:
            continue
        seen = sum(1 for x in strings if x in delex_leaves)
        if seen < DELEX_LEAF_COVERAGE * len(strings):
            n_penn = sum(1 for s in shapes if s.penn_shaped)
            unseen = sorted({x for x in strings if x not in delex_leaves})[:5]
            conflicts.append(Problem(
                f, None, "ambiguous-phrase-style",
                f"{n_penn} tree(s) here are Penn-shaped (every bare string the only child "
                f"of its bracket) and only {seen} of their {len(strings)} strings occur as "
                f"leaves of the {n_delex} tree(s) of the corpus that must be delexicalised "
                f"(e.g. {', '.join(quote(u, 20) for u in unseen)} do not): give --phrase-style "
                f"delex (bare strings are categories) or penn (bare strings are words)"))
    if conflicts:
        raise InputError(conflicts)
    return StyleDecision("delex", f"auto: {n_delex} of {n_trees} trees have a bare string "
                                  f"beside another node, which only delexicalised trees have")


def _delex(tree: RawTree, style: str, words: List[str]) -> Optional[PhraseNode]:
    """The compared tree of a parsed bracket in ``style`` (iterative post-order).

    ``penn``: a bracket whose only child is a string is a preterminal: the
    string is a word (appended to ``words``) and the bracket becomes a leaf;
    other bare strings are words too and dropped.  ``delex``: every bare
    string is a leaf node.  An unlabelled wrapper bracket ``( (S ...))`` around
    one tree is dropped; an empty one yields None.
    """
    def finish(label: str, children: List[PhraseNode]) -> Optional[PhraseNode]:
        if label == "" and len(children) == 1:
            return children[0]
        if label == "" and not children:
            return None
        return PhraseNode(label, children)

    # frames: [label, kids, next kid index, finished children]
    label, kids = _label_and_kids(tree)
    stack: List[List[Any]] = [[label, kids, 0, []]]
    result: Optional[PhraseNode] = None
    while stack:
        frame = stack[-1]
        label, kids, i, children = frame
        if i == 0 and style == "penn" and len(kids) == 1 and isinstance(kids[0], str):
            words.append(kids[0])
            done: Optional[PhraseNode] = PhraseNode(label)
        elif i < len(kids):
            frame[2] = i + 1
            k = kids[i]
            if isinstance(k, str):
                if style == "penn":
                    words.append(k)
                else:
                    children.append(PhraseNode(k))
            else:
                sub_label, sub_kids = _label_and_kids(k)
                stack.append([sub_label, sub_kids, 0, []])
            continue
        else:
            done = finish(label, children)
        stack.pop()
        if stack:
            if done is not None:
                stack[-1][3].append(done)
        else:
            result = done
    return result
