"""TIGER-XML: phrase-structure graphs, discontinuous constituents included.

Each ``<s>`` holds a ``<graph root="ID">`` with ``<terminals>`` (``<t id
word pos>``, in sentence order) and ``<nonterminals>`` (``<nt id cat>``
whose ``<edge idref>`` children are the node's children).  Secondary edges
(``<secedge>``) are not part of the tree and are left out.  The trees are
ordered by first terminals (`synagree.io.discontinuous`).  The file is read
with the standard library's expat parser, which gives every element its
line for messages; it is not validated against TIGER's schema (an element
the reader does not know is skipped).
"""
from __future__ import annotations

from typing import Dict, List, Optional
from xml.parsers import expat

from synagree.base.problems import ProblemLog, quote
from synagree.io.brackets import PhraseSentence
from synagree.io.discontinuous import NonTerminal, Terminal, build_sentence
from synagree.io.files import read_parsed
from synagree.io.sources import Source

__all__ = ["read_tiger_xml"]


class _Reader:
    """Expat handlers gathering one sentence at a time."""

    def __init__(self, name: str, log: ProblemLog, parser: "expat.XMLParserType"):
        self.name, self.log, self.parser = name, log, parser
        self.out: List[PhraseSentence] = []
        self.sent: Optional[str] = None
        self.line = 0
        self.root: Optional[str] = None
        self.words: List[tuple] = []  # (id, word, pos, line)
        self.nodes: Dict[str, tuple] = {}  # id -> (cat, line)
        self.parent: Dict[str, str] = {}
        self.current: Optional[str] = None  # the <nt> being read

    def start(self, tag: str, attrs: Dict[str, str]) -> None:
        line = self.parser.CurrentLineNumber
        if tag == "s":
            self.sent, self.line = attrs.get("id"), line
            self.root, self.words, self.nodes, self.parent = None, [], {}, {}
        elif self.sent is None and tag in ("graph", "t", "nt", "edge"):
            self.log.add(self.name, line, "tiger-xml", f"<{tag}> outside an <s> element")
        elif tag == "graph":
            self.root = attrs.get("root")
        elif tag == "t":
            if "id" not in attrs or "word" not in attrs:
                self.log.add(self.name, line, "tiger-xml", "<t> without id or word")
                return
            self.words.append((attrs["id"], attrs["word"], attrs.get("pos", "--"), line))
        elif tag == "nt":
            if "id" not in attrs:
                self.log.add(self.name, line, "tiger-xml", "<nt> without id")
                return
            self.current = attrs["id"]
            self.nodes[attrs["id"]] = (attrs.get("cat", "--"), line)
        elif tag == "edge" and self.current is not None:
            child = attrs.get("idref")
            if child is None:
                self.log.add(self.name, line, "tiger-xml", "<edge> without idref")
            elif child in self.parent:
                self.log.add(self.name, line, "tiger-xml",
                             f"node {quote(child)} has a second parent {quote(self.current)} "
                             f"(a secondary edge is <secedge>)", sent_id=self.sent)
            else:
                self.parent[child] = self.current

    def end(self, tag: str) -> None:
        if tag == "nt":
            self.current = None
        elif tag == "s" and self.sent is not None:
            self._finish()
            self.sent = None

    def _finish(self) -> None:
        ids = {w[0]: k for k, w in enumerate(self.words)}
        for child in self.parent:
            if child not in ids and child not in self.nodes:
                self.log.add(self.name, self.line, "bad-parent",
                             f"edge to {quote(child)}, no node of the sentence",
                             sent_id=self.sent)
                return
        terminals = [Terminal(w, pos, self.parent.get(i), line)
                     for i, w, pos, line in self.words]
        nodes = {i: NonTerminal(cat, self.parent.get(i), line)
                 for i, (cat, line) in self.nodes.items()}
        root = self.root
        if root is not None and root in ids and not nodes:
            root = None  # a one-word sentence: its word is the tree
        tree = build_sentence(self.name, len(self.out), self.line, terminals, nodes, root,
                              self.log, sent_id=self.sent)
        if tree is not None:
            self.out.append(tree)


def read_tiger_xml(path: Source, log: Optional[ProblemLog] = None) -> List[PhraseSentence]:
    r"""Read a TIGER-XML file into `PhraseSentence` trees (one per ``<s>``).

    Parameters
    ----------
    path : str, path-like, file-like or Buffer
    log : ProblemLog, optional

    Raises
    ------
    InputError
        Every problem: ``xml-syntax`` (not well-formed, with expat's line),
        ``tiger-xml`` (an element without its attributes, a node with two
        parents), ``bad-parent``, ``unattached-node``, ``empty-tree``,
        ``empty-file``.

    Examples
    --------
    >>> import io
    >>> from synagree.io.tiger_xml import read_tiger_xml
    >>> text = ('<corpus><body><s id="s1"><graph root="s1_500"><terminals>'
    ...         '<t id="s1_1" word="Dogs" pos="NN"/><t id="s1_2" word="bark" pos="VV"/>'
    ...         '</terminals><nonterminals><nt id="s1_500" cat="S">'
    ...         '<edge label="SB" idref="s1_1"/><edge label="HD" idref="s1_2"/></nt>'
    ...         '</nonterminals></graph></s></body></corpus>')
    >>> [t] = read_tiger_xml(io.StringIO(text))
    >>> t.root.bracketed(), t.words, t.sent_id
    ('(S NN VV)', ['Dogs', 'bark'], 's1')
    """
    return read_parsed(path, log, _parse, "file holds no TIGER-XML sentence (<s>)")


def _parse(name: str, text: str, log: ProblemLog) -> List[PhraseSentence]:
    parser = expat.ParserCreate()
    reader = _Reader(name, log, parser)
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        log.add(name, exc.lineno, "xml-syntax",
                f"not well-formed XML: {expat.ErrorString(exc.code)} (column {exc.offset})")
    return reader.out
