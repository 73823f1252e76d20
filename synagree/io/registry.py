"""The reader registry: one table of input formats and one sniffer.

Every command and `synagree.read` find the reader of a file here: a
`Format` row gives the format's name (what ``--format NAME`` takes), the
kind of annotation it holds (dependency trees, phrase-structure trees), its
file-name suffixes, a content sniffer and its reader.

**Sniffing** (`sniff`, docs/formats.md): the name's suffix (a compression
suffix looked through: ``a.conllu.gz`` is CoNLL-U) picks the candidates;
where it names one format, that is the format; where it names several (or
none), the file's first lines decide among the candidates (every format
when the suffix names none).  A format that *refines* another (``arborator``
refines ``conllu``: CoNLL-U where one sentence carries the trees of several
``# user_id``\\ s) wins over the one it refines.  Two formats that both match
and do not refine one another are an ``ambiguous-format`` error naming the
file and the candidates: ``--format NAME`` decides.  A file no sniffer
recognises (and an unreadable one) is read as CoNLL-U, whose reader then
reports each line it cannot read, as before the registry.

Readers are named ``"module:function"`` and imported when a file of their
format is read: this module stays free of numpy and of the readers, so that
``synagree compare`` on bracketed files (EVALB's speed, benchmarks/) sniffs
its input without loading the dependency readers.  The import is a lookup in
the table, not a way around an import cycle (the readers live in
`synagree.io` too).

Registering a format is one call (`register_format`); the GATE XML and brat
readers register themselves the same way.
"""
from __future__ import annotations

import importlib
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from synagree.base.problems import InputError
from synagree.io.compression import READ_ERRORS, open_binary, strip_suffix
from synagree.io.sources import Buffer, Source, as_input, head_lines, input_name

__all__ = ["Format", "register_format", "get_format", "format_names", "formats", "sniff",
           "sniff_or_none", "resolve", "load_reader", "read_with", "AUTO", "HEAD_LINES"]

AUTO = "auto"
#: lines of a file's start the content sniffers see
HEAD_LINES = 200
#: bytes of a file's start read for sniffing (at most)
HEAD_BYTES = 1 << 16

#: a content sniffer: the file's first lines (decoded, newlines kept) -> does it match?
Sniffer = Callable[[List[str]], bool]


@dataclass(frozen=True)
class Format:
    """One input format of the registry.

    Parameters
    ----------
    name : str
        What ``--format`` takes.
    kind : {"dependency", "phrase", "documents"}
        What the reader gives: `synagree.io.conllu.DepSentence` or
        `synagree.io.brackets.PhraseSentence` lists; ``documents``: annotated
        documents that only ``categorical`` and ``spans`` read, with their own
        options (GATE XML: ``--sets``, ``--type``).
    suffixes : tuple of str
        File-name suffixes (lower case, with the dot), compression suffixes
        looked through.
    sniff : callable
        The file's first lines -> whether they are of this format.
    reader : str
        ``"module:function"``: ``function(source, log)`` gives the
        sentences of one input (its problems in ``log``).  Bracketed formats
        name the bracket parser, whose style is decided once per corpus.
    description : str
        One line for docs/formats.md and ``--help``.
    bracketed : bool
        Read as bracketed trees (`synagree.io.brackets`), the style decided
        once for every bracketed file of a corpus.
    split : str or None
        ``"module:function"`` for a file that holds several annotators:
        ``function(source, log)`` gives ``(annotator, Buffer)`` pairs, each
        read with the format ``inner``.
    inner : str or None
        The format of each annotator's part of a split file.
    refines : str or None
        The format this one is a special case of (it wins when both match).
    aliases : tuple of str
        Other names ``--format`` accepts for it.
    needs_path : bool
        The reader reads files beside the one given (brat's ``.txt``): a
        stream is refused (`read_with`).
    """

    name: str
    kind: str
    suffixes: Tuple[str, ...]
    sniff: Sniffer
    reader: str
    description: str
    bracketed: bool = False
    split: Optional[str] = None
    inner: Optional[str] = None
    refines: Optional[str] = None
    aliases: Tuple[str, ...] = ()
    needs_path: bool = False

    @property
    def multi_annotator(self) -> bool:
        """Does one file of this format hold several annotators?"""
        return self.split is not None


_FORMATS: Dict[str, Format] = {}
_ALIASES: Dict[str, str] = {}


def register_format(fmt: Format) -> Format:
    """Add a format to the registry (its name and aliases must be new).

    Raises
    ------
    ValueError
        A name or alias already taken, or an unknown kind.
    """
    if fmt.kind not in ("dependency", "phrase", "documents"):
        raise ValueError(f"unknown format kind {fmt.kind!r}")
    for n in (fmt.name, *fmt.aliases):
        if n == AUTO or n in _FORMATS or n in _ALIASES:
            raise ValueError(f"format name {n!r} is already registered")
    _FORMATS[fmt.name] = fmt
    for a in fmt.aliases:
        _ALIASES[a] = fmt.name
    return fmt


def formats() -> List[Format]:
    """Every registered format, in registration order."""
    return list(_FORMATS.values())


def format_names(with_aliases: bool = False) -> List[str]:
    """``auto`` and every registered name (and alias): the ``--format`` choices."""
    names = [AUTO, *_FORMATS]
    return names + list(_ALIASES) if with_aliases else names


def get_format(name: str) -> Format:
    """The format called ``name`` (or one of its aliases).

    Raises
    ------
    ValueError
        Unknown name (the message lists the known ones).
    """
    key = _ALIASES.get(name, name)
    if key not in _FORMATS:
        raise ValueError(f"unknown format {name!r} (expected one of "
                         f"{', '.join(format_names(with_aliases=True))})")
    return _FORMATS[key]


def load_reader(ref: str) -> Callable[..., Any]:
    """The function a ``"module:function"`` reference names."""
    module, _, func = ref.partition(":")
    return getattr(importlib.import_module(module), func)  # type: ignore[no-any-return]


def read_with(spec: Format, source: Any, log: Any) -> List[Any]:
    """The sentences of ``source`` read by ``spec``'s reader (its problems in ``log``).

    Raises
    ------
    InputError
        The reader's errors; ``usage`` for a stream given to a reader that
        needs a file on disk (`Format.needs_path`).
    """
    if spec.needs_path and isinstance(source, Buffer):
        raise InputError.single(source.name, None, "usage",
                                f"{spec.name} input is read from files on disk "
                                f"({spec.description}), not from a stream")
    return list(load_reader(spec.reader)(source, log=log))


def _name_of(source: Any) -> str:
    """The name whose suffix counts: a stream's real name, a path's."""
    name = source.real_name if isinstance(source, Buffer) else str(source)
    return name or ""


def _head(source: Any) -> List[str]:
    """The first `HEAD_LINES` lines (at most `HEAD_BYTES` bytes) of an input."""
    out: List[str] = []
    if isinstance(source, Buffer):
        lines: Iterable[str] = head_lines(source)
        for line in lines:
            out.append(line)
            if len(out) >= HEAD_LINES:
                break
        return out
    try:
        with open_binary(source) as fh:
            head = fh.read(HEAD_BYTES)  # never a whole bomb, nor an endless line (/dev/zero)
    except READ_ERRORS:  # the reader reports it
        return []
    for raw in io.BytesIO(head):
        out.append(raw.decode("utf-8", errors="replace"))
        if len(out) >= HEAD_LINES:
            break
    return out


def _most_specific(found: List[Format]) -> List[Format]:
    """Drop the formats that another match refines."""
    refined = {f.refines for f in found if f.refines}
    return [f for f in found if f.name not in refined]


def sniff(path: Source) -> Format:
    r"""The format of a file (or a `Buffer`): by suffix, then by content.

    See the module docstring for the rule.

    Raises
    ------
    InputError
        ``ambiguous-format``: the content matches several formats that the
        suffix does not tell apart (the message names them; ``--format``).
    """
    source = as_input(path)
    name = _name_of(source)
    suffix = Path(strip_suffix(Path(name).name)).suffix.lower() if name else ""
    by_suffix = [f for f in _FORMATS.values() if suffix and suffix in f.suffixes]
    if len(by_suffix) == 1:
        return by_suffix[0]
    candidates = by_suffix or list(_FORMATS.values())
    head = _head(source)
    found = _most_specific([f for f in candidates if head and f.sniff(head)])
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        names = ", ".join(f.name for f in found)
        raise InputError.single(input_name(source), None, "ambiguous-format",
                                f"cannot tell the format: the file reads as {names}; "
                                f"give --format NAME")
    if by_suffix:
        return by_suffix[0]  # the reader of the suffix's first format reports what is wrong
    return _FORMATS["conllu"]


def resolve(fmt: str, path: Source) -> Format:
    """The format of ``path`` under ``--format fmt`` (``auto``: `sniff`)."""
    return sniff(path) if fmt == AUTO else get_format(fmt)


# --------------------------------------------------------------------------- sniffers

_CONLL_WORD = re.compile(r"^\d+(?:[-.]\d+)?\t")
_USER = re.compile(r"^#\s*user_id\s*=\s*(.*?)\s*$")
_SENT = re.compile(r"^#\s*sent_id\s*=\s*(.*?)\s*$")


def _first_data_line(head: List[str]) -> Optional[str]:
    return next((ln.strip() for ln in head if ln.strip() and not ln.lstrip().startswith("#")),
                None)


def sniff_conllu(head: List[str]) -> bool:
    """The first line that is not a comment is a word line: an ID (``N``, ``N-M``,
    ``N.M``) and ten tab-separated columns."""
    line = next((ln for ln in head if ln.strip() and not ln.lstrip().startswith("#")), None)
    if line is None:
        return False
    line = line.lstrip("\ufeff").rstrip("\r\n")
    return bool(_CONLL_WORD.match(line)) and line.count("\t") == 9


def sniff_brackets(head: List[str]) -> bool:
    """``(`` starts the first line that is not blank or a comment."""
    line = _first_data_line(head)
    return line is not None and line.lstrip("\ufeff").startswith("(")


def sniff_arborator(head: List[str]) -> bool:
    """CoNLL-U where one ``sent_id`` carries trees of two ``# user_id``\\ s."""
    if not sniff_conllu(head):
        return False
    users: Dict[str, set] = {}
    sent: Optional[str] = None
    user: Optional[str] = None
    for line in head:
        if not line.strip():
            if sent is not None and user is not None:
                users.setdefault(sent, set()).add(user)
            sent = user = None
            continue
        m = _SENT.match(line)
        if m:
            sent = m.group(1)
        m = _USER.match(line)
        if m:
            user = m.group(1)
    if sent is not None and user is not None:
        users.setdefault(sent, set()).add(user)
    return any(len(u) > 1 for u in users.values())


def sniff_ptb(head: List[str]) -> bool:
    """Bracketed trees whose first tree opens with an unlabelled bracket: ``( (S``."""
    line = _first_data_line(head)
    return line is not None and re.match(r"^\ufeff?\(\s*(\(|$)", line) is not None


def sniff_webanno(head: List[str]) -> bool:
    """The first line is ``#FORMAT=WebAnno TSV 3.x``."""
    first = next((ln.strip() for ln in head if ln.strip()), "")
    return first.lstrip("\ufeff").startswith("#FORMAT=WebAnno TSV 3")


def sniff_negra(head: List[str]) -> bool:
    """A ``#BOS`` line opens the first sentence (NEGRA export format 3 or 4)."""
    return any(ln.startswith("#BOS") for ln in head)


def sniff_tiger(head: List[str]) -> bool:
    """XML with TIGER's ``<graph`` and ``<terminals>`` elements."""
    text = "".join(head)
    return text.lstrip("\ufeff \t\r\n").startswith("<") and "<terminals" in text and \
        "<graph" in text


_BRAT_LINE = re.compile(r"^[TREAMN#]\d*\t")


def sniff_brat(head: List[str]) -> bool:
    """brat standoff: every non-blank line starts with an annotation id and a tab (``T1``)."""
    lines = [ln for ln in head if ln.strip()]
    return bool(lines) and all(_BRAT_LINE.match(ln) for ln in lines)


def sniff_gate(head: List[str]) -> bool:
    """A ``<GateDocument`` element near the start."""
    return "<GateDocument" in "".join(head[:20])


# --------------------------------------------------------------------------- the table

register_format(Format(
    "conllu", "dependency", (".conllu", ".conll", ".conllx"), sniff_conllu,
    "synagree.io.conllu:read_conllu", "CoNLL-U or CoNLL-X, one annotator per file",
    aliases=("conll", "conllx", "dependency")))
register_format(Format(
    "phrase", "phrase", (".tree", ".trees", ".brackets"), sniff_brackets,
    "synagree.io.brackets:parse_bracket_file",
    "bracketed trees, one or more per file, possibly across lines", bracketed=True))
register_format(Format(
    "ptb", "phrase", (".mrg", ".ptb"), sniff_ptb,
    "synagree.io.brackets:parse_bracket_file",
    "Penn Treebank .mrg: several bracketed trees per file, each in an unlabelled outer "
    "bracket, words under preterminals", bracketed=True, refines="phrase"))
register_format(Format(
    "arborator", "dependency", (".conllu",), sniff_arborator,
    "synagree.io.conllu:read_conllu",
    "Arborator-Grew CoNLL-U: the trees of several users per sentence, told apart by "
    "'# user_id'; each user is an annotator",
    split="synagree.io.arborator:split_users", inner="conllu", refines="conllu"))
register_format(Format(
    "webanno-tsv3", "dependency", (".tsv",), sniff_webanno,
    "synagree.io.webanno_tsv:read_webanno_tsv",
    "WebAnno/INCEpTION TSV 3.x with a dependency layer, one file per annotator"))
register_format(Format(
    "tiger-xml", "phrase", (".xml",), sniff_tiger, "synagree.io.tiger_xml:read_tiger_xml",
    "TIGER-XML phrase-structure graphs, discontinuous constituents included"))
register_format(Format(
    "negra", "phrase", (".export", ".negra"), sniff_negra, "synagree.io.negra:read_negra",
    "NEGRA export format 3 or 4, discontinuous constituents included"))
register_format(Format(
    "brat", "dependency", (".ann",), sniff_brat, "synagree.io.brat:read_brat",
    "brat standoff .ann beside its .txt: relations as dependency trees (entities as spans "
    "in categorical and spans)", needs_path=True))
register_format(Format(
    "gate", "documents", (".xml",), sniff_gate, "synagree.io.gate_xml:read_gate_xml",
    "GATE XML documents, each annotation set an annotator (categorical and spans, with "
    "--sets and --type)"))


def sniff_or_none(path: Source) -> Optional[Format]:
    """`sniff`, or None when the input cannot be read or holds only white space.

    (``compare`` then lets the reader its options point to report why.)
    """
    source = as_input(path)
    head = _head(source)
    if not any(line.strip() for line in head):
        return None
    return sniff(source)
