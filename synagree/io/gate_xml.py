r"""GATE XML documents: the text and every annotation set (docs/formats-gate-brat.md).

The format is the one GATE writes with "Save as XML" and reads back with
``gate.corpora.DocumentStaxUtils`` (gate-core, commit
``d98ea8928d5867e5aeb504f07dc6cdd1176c012e``)::

    <GateDocument>
      <GateDocumentFeatures> <Feature><Name ..>..</Name><Value ..>..</Value></Feature> ...
      <TextWithNodes>text with <Node id="4"/>anchors<Node id="11"/> in it</TextWithNodes>
      <AnnotationSet>                     (the default set: no Name)
      <AnnotationSet Name="ann1">
        <Annotation Id="3" Type="sent" StartNode="4" EndNode="11">
          <Feature><Name className="java.lang.String">Op</Name>
                   <Value className="java.lang.String">true</Value></Feature>
        </Annotation> ...

A node's offset is its place in the text of ``TextWithNodes`` (counted in
characters), whatever its id; an annotation's span is the offsets of its
start and end nodes.  A feature's value is kept as the text written (GATE's
``String.valueOf`` of the value for the Java types it writes as text) with
its ``className``; a ``<Value/>`` with no text is the empty string.

Every problem is a one-line error naming the file and line: XML that is not
well formed or truncated (``gate-xml``), a document that is not a GATE
document or lacks its ``TextWithNodes`` (``gate-structure``), an annotation
whose node is not in the text or ends before it starts (``gate-offsets``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Tuple
from xml.parsers import expat

from synagree.base.numbers import ascii_digits
from synagree.base.problems import ProblemLog
from synagree.io.files import read_text
from synagree.io.sources import Buffer, Source, as_input, head_lines, input_name

__all__ = ["GateAnnotation", "GateDocument", "read_gate_xml", "sniff_gate_xml"]

#: the name GATE gives the default annotation set (its XML has no Name)
DEFAULT_SET = ""


@dataclass(frozen=True)
class GateAnnotation:
    """One annotation of a GATE document.

    Parameters
    ----------
    id : int
        GATE's annotation id (``Id``; numbered in order where absent).
    type : str
    start, end : int
        Character offsets, ``start <= end`` (GATE's node offsets).
    features : mapping of str to str
        Feature name to value, as written.
    classes : mapping of str to str
        Feature name to the value's ``className`` (``java.lang.String`` ...).
    line : int
        The file line of its ``<Annotation>``.
    """

    id: int
    type: str
    start: int
    end: int
    features: Mapping[str, str] = field(default_factory=dict)
    classes: Mapping[str, str] = field(default_factory=dict)
    line: int = 0


@dataclass(frozen=True)
class GateDocument:
    """A GATE document: its text and its annotation sets by name (``""``: the default set).

    Examples
    --------
    >>> xml = ('<GateDocument><TextWithNodes><Node id="0"/>Hi<Node id="2"/></TextWithNodes>'
    ...        '<AnnotationSet Name="a"><Annotation Id="1" Type="T" StartNode="0" '
    ...        'EndNode="2"><Feature><Name className="java.lang.String">f</Name>'
    ...        '<Value className="java.lang.String">x</Value></Feature></Annotation>'
    ...        '</AnnotationSet></GateDocument>')
    >>> import io
    >>> doc = read_gate_xml(io.StringIO(xml), name="d.xml")
    >>> doc.text, sorted(doc.sets)
    ('Hi', ['a'])
    >>> a = doc.sets["a"][0]
    >>> (a.type, a.start, a.end, dict(a.features))
    ('T', 0, 2, {'f': 'x'})
    """

    file: str
    text: str
    sets: Dict[str, List[GateAnnotation]]

    def annotations(self, set_name: str, type_: Optional[str] = None
                    ) -> List[GateAnnotation]:
        """The annotations of one set (of one type), in ascending ``id`` order.

        Ascending id is the order in which GATE's ``AnnotationSetImpl`` (a hash
        map keyed by id) gives them back for ids below its table size.
        """
        anns = self.sets.get(set_name, [])
        return sorted((a for a in anns if type_ is None or a.type == type_), key=lambda a: a.id)


def sniff_gate_xml(path: Source) -> bool:
    """Whether a file looks like a GATE XML document (``<GateDocument`` near its start)."""
    source = as_input(path)
    if isinstance(source, Buffer):
        head = "".join(line for _, line in zip(range(20), head_lines(source)))
    else:
        try:
            with open(source, "rb") as fh:
                head = fh.read(4096).decode("utf-8", errors="replace")
        except OSError:
            return False
    return "<GateDocument" in head


class _Reader:
    """Expat callbacks building one document (line numbers from the parser)."""

    def __init__(self, name: str, parser: "expat.XMLParserType", log: ProblemLog) -> None:
        self.name, self.parser, self.log = name, parser, log
        self.stack: List[str] = []
        self.text: List[str] = []
        self.n_chars = 0
        self.nodes: Dict[str, int] = {}
        self.sets: Dict[str, List[GateAnnotation]] = {}
        self.pending: List[Tuple[Dict[str, str], int, str]] = []  # (attrs, line, set)
        self.features: Dict[str, str] = {}
        self.classes: Dict[str, str] = {}
        self.feature: Dict[str, str] = {}  # Name / Value text of the feature being read
        self.value_class = ""
        self.buffer: List[str] = []
        self.current_set: Optional[str] = None
        self.saw_text = False
        self.annotation_features: List[Tuple[Dict[str, str], Dict[str, str]]] = []

    def start(self, tag: str, attrs: Dict[str, str]) -> None:
        line = self.parser.CurrentLineNumber
        if not self.stack and tag != "GateDocument":
            self.log.add(self.name, line, "gate-structure",
                         f"root element is <{tag}>, expected <GateDocument> (not a GATE "
                         f"XML document)")
            raise _Stop()
        parent = self.stack[-1] if self.stack else ""
        self.stack.append(tag)
        if tag == "TextWithNodes":
            self.saw_text = True
        elif tag == "Node" and parent == "TextWithNodes":
            self.nodes[attrs.get("id", "")] = self.n_chars
        elif tag == "AnnotationSet":
            self.current_set = attrs.get("Name", DEFAULT_SET)
            self.sets.setdefault(self.current_set, [])
        elif tag == "Annotation":
            self.features, self.classes = {}, {}
            self.pending.append((dict(attrs), line, self.current_set or DEFAULT_SET))
        elif tag in ("Name", "Value"):
            self.buffer = []
            if tag == "Value":
                self.value_class = attrs.get("className", "java.lang.String")
        elif tag == "Feature":
            self.feature = {}

    def chars(self, data: str) -> None:
        if self.stack and self.stack[-1] == "TextWithNodes":
            self.text.append(data)
            self.n_chars += len(data)
        elif self.stack and self.stack[-1] in ("Name", "Value"):
            self.buffer.append(data)

    def end(self, tag: str) -> None:
        self.stack.pop()
        if tag in ("Name", "Value"):
            self.feature[tag] = "".join(self.buffer)
        elif tag == "Feature" and self.stack and self.stack[-1] == "Annotation":
            name = self.feature.get("Name", "")
            self.features[name] = self.feature.get("Value", "")
            self.classes[name] = self.value_class
        elif tag == "Annotation":
            self.annotation_features.append((dict(self.features), dict(self.classes)))

    def finish(self) -> Optional[GateDocument]:
        if not self.saw_text:
            self.log.add(self.name, None, "gate-structure",
                         "no <TextWithNodes> element (not a GATE XML document)")
            return None
        next_id = 0
        for (attrs, line, set_name), (feats, classes) in zip(self.pending,
                                                            self.annotation_features):
            ann = self._annotation(attrs, line, feats, classes, next_id)
            if ann is not None:
                next_id = max(next_id, ann.id + 1)
                self.sets[set_name].append(ann)
        return GateDocument(self.name, "".join(self.text), self.sets)

    def _annotation(self, attrs: Dict[str, str], line: int, feats: Dict[str, str],
                    classes: Dict[str, str], next_id: int) -> Optional[GateAnnotation]:
        where = f"annotation {attrs.get('Id', '?')}"
        offsets = []
        for key in ("StartNode", "EndNode"):
            node = attrs.get(key)
            if node is None or node not in self.nodes:
                self.log.add(self.name, line, "gate-offsets",
                             f"{where}: {key} {node!r} is not a node of <TextWithNodes>"
                             if node is not None else f"{where}: no {key} attribute")
                return None
            offsets.append(self.nodes[node])
        if offsets[1] < offsets[0]:
            self.log.add(self.name, line, "gate-offsets",
                         f"{where} ends (offset {offsets[1]}) before it starts "
                         f"(offset {offsets[0]})")
            return None
        raw_id = attrs.get("Id")
        if raw_id is not None and not ascii_digits(raw_id):
            self.log.add(self.name, line, "gate-structure",
                         f"annotation Id {raw_id!r} is not a number")
            return None
        return GateAnnotation(int(raw_id) if raw_id is not None else next_id,
                              attrs.get("Type", ""), offsets[0], offsets[1], feats, classes,
                              line)


class _Stop(Exception):
    """Stop parsing: the problem is logged."""


def read_gate_xml(path: Source, log: Optional[ProblemLog] = None, name: Optional[str] = None
                  ) -> Optional[GateDocument]:
    r"""Read one GATE XML document (module docstring).

    Parameters
    ----------
    path : str, path-like or file-like
        A file (``.gz``/``.xz``/``.bz2`` decompressed) or a stream
        (`synagree.io.sources`).
    log : ProblemLog, optional
        Receives the problems (and the document is None when there are
        errors); None: they are raised.
    name : str, optional
        The name of a stream in messages.

    Returns
    -------
    GateDocument or None

    Raises
    ------
    InputError
        Without ``log``: ``gate-xml``, ``gate-structure``, ``gate-offsets``
        and the reading problems (``file-not-found``, ``empty-file``, ...).
    """
    own = log is None
    log = ProblemLog() if log is None else log
    source = as_input(path, name or "<stream>")
    file = input_name(source)
    n_before = len(log.errors)
    text = read_text(source, log)
    doc = None if text is None else _parse(text, file, log)
    if own:
        log.raise_if_errors()
    return doc if len(log.errors) == n_before else None


def _parse(text: str, file: str, log: ProblemLog) -> Optional[GateDocument]:
    parser = expat.ParserCreate()
    reader = _Reader(file, parser, log)
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    parser.CharacterDataHandler = reader.chars
    parser.buffer_text = True
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        message = expat.errors.messages.get(exc.code, str(exc))
        log.add(file, exc.lineno, "gate-xml",
                f"not well-formed XML: {message} (column {exc.offset + 1})")
        return None
    except _Stop:
        return None
    return reader.finish()
