r"""brat standoff annotation: ``.ann`` beside its ``.txt`` (docs/formats-gate-brat.md).

The format is brat's (https://brat.nlplab.org/standoff.html): the ``.txt``
holds the text, the ``.ann`` one annotation per line, tab-separated::

    T1<TAB>N 0 12<TAB>Pääkirjoitus          entity: id, type, start end, text
    R1<TAB>det Arg1:T3 Arg2:T2              relation: type, Arg1, Arg2
    A1<TAB>NUM T1 Sg                        attribute: name, target, value
    #1<TAB>Lemma T1<TAB>pää|kirjoitus       note

Entities as spans (`read_brat_entities`)
    Every ``T`` line is a labelled span ``[start, end)`` in characters of the
    ``.txt`` (a discontinuous entity, ``0 5;8 10``, from its first start to
    its last end, with its fragments kept).

Dependency trees (`read_brat`), as brat's dependency corpora (the Turku
Dependency Treebank sample of brat's ``example-data/corpora/TDT``) hold them
    Each line of the ``.txt`` is a sentence; each entity is a token (its type
    the UPOS, its attributes the FEATS ``NAME=Value`` sorted, a binary
    attribute ``NAME=Yes``, a ``Lemma`` note its lemma); each relation is an
    arc from ``Arg1`` (the head) to ``Arg2`` (the dependent), its type the
    DEPREL.  A token without a head hangs from the root (``root``; several
    make a multi-root sentence, as in CoNLL-U).  Relations whose type is in
    ``ignore`` are left out (second-layer relations such as TDT's ``xsubj``).

Every problem is a one-line error naming the ``.ann`` file and line:
``brat-line`` (a line that is not brat standoff), ``brat-offsets`` (offsets
outside the text, or an entity whose text is not the text at its offsets),
``brat-reference`` (a relation or attribute naming no entity), ``brat-tree``
(a token with two heads, a cycle, a relation between sentences, overlapping
tokens), ``brat-missing-text`` (no ``.txt`` beside the ``.ann``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from synagree.base.numbers import ascii_digits
from synagree.base.problems import ProblemLog
from synagree.io.conllu import DepSentence
from synagree.io.files import read_text

__all__ = ["BratEntity", "BratRelation", "BratDocument", "read_brat_document", "read_brat",
           "read_brat_entities", "sniff_brat", "text_path"]


@dataclass(frozen=True)
class BratEntity:
    """A ``T`` line: id, type, span ``[start, end)`` (and its fragments), text, file line."""

    id: str
    type: str
    start: int
    end: int
    text: str
    line: int
    fragments: Tuple[Tuple[int, int], ...] = ()


@dataclass(frozen=True)
class BratRelation:
    """An ``R`` line: id, type, Arg1 (head), Arg2 (dependent), file line."""

    id: str
    type: str
    arg1: str
    arg2: str
    line: int


@dataclass
class BratDocument:
    """One ``.ann`` with its text: entities, relations, attributes and lemma notes."""

    file: str
    text: str
    entities: Dict[str, BratEntity] = field(default_factory=dict)
    relations: List[BratRelation] = field(default_factory=list)
    attributes: Dict[str, Dict[str, str]] = field(default_factory=dict)
    lemmas: Dict[str, str] = field(default_factory=dict)


def text_path(ann: "str | Path") -> Path:
    """The ``.txt`` beside an ``.ann`` file."""
    return Path(ann).with_suffix(".txt")


def sniff_brat(path: "str | Path") -> bool:
    """Whether a file is a brat ``.ann`` (by its suffix)."""
    return Path(str(path)).suffix.lower() == ".ann"


def _entity(doc: BratDocument, parts: List[str], no: int, log: ProblemLog) -> None:
    ident, middle = parts[0], parts[1].split(" ", 1)
    if len(parts) < 3 or len(middle) < 2:
        log.add(doc.file, no, "brat-line", f"entity {ident}: expected 'TYPE START END<TAB>TEXT'")
        return
    frags = []
    for frag in middle[1].split(";"):
        nums = frag.split()
        if len(nums) != 2 or not all(map(ascii_digits, nums)):
            log.add(doc.file, no, "brat-line", f"entity {ident}: offsets {middle[1]!r} are not "
                    f"'START END' pairs of numbers")
            return
        frags.append((int(nums[0]), int(nums[1])))
    for a, b in frags:
        if not 0 <= a <= b <= len(doc.text):
            log.add(doc.file, no, "brat-offsets", f"entity {ident}: offsets {a} {b} are outside "
                    f"the text (0 to {len(doc.text)}) or end before they start")
            return
    written = "\t".join(parts[2:])
    at = " ".join(doc.text[a:b] for a, b in frags)
    if written != at:
        log.add(doc.file, no, "brat-offsets", f"entity {ident}: the text at {middle[1]} is "
                f"{at[:40]!r}, the .ann says {written[:40]!r}")
        return
    if ident in doc.entities:
        log.add(doc.file, no, "brat-line", f"entity id {ident} is used twice (first on line "
                f"{doc.entities[ident].line})")
        return
    doc.entities[ident] = BratEntity(ident, middle[0], frags[0][0], frags[-1][1], written, no,
                                     tuple(frags))


def _relation(doc: BratDocument, parts: List[str], no: int, log: ProblemLog) -> None:
    fields = parts[1].split()
    args = dict(f.split(":", 1) for f in fields[1:] if ":" in f)
    if len(fields) != 3 or "Arg1" not in args or "Arg2" not in args:
        log.add(doc.file, no, "brat-line", f"relation {parts[0]}: expected 'TYPE Arg1:ID "
                f"Arg2:ID'")
        return
    doc.relations.append(BratRelation(parts[0], fields[0], args["Arg1"], args["Arg2"], no))


def _parse_ann(doc: BratDocument, ann: str, log: ProblemLog) -> None:
    pending: List[Tuple[int, str, str, str]] = []  # attributes and notes: (line, kind, id, value)
    for no, line in enumerate(ann.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        parts = line.split("\t")
        kind = parts[0][:1]
        if len(parts) < 2:
            log.add(doc.file, no, "brat-line", f"not a brat standoff line: {line[:40]!r}")
        elif kind == "T":
            _entity(doc, parts, no, log)
        elif kind == "R":
            _relation(doc, parts, no, log)
        elif kind in ("A", "M"):
            f = parts[1].split()
            if len(f) < 2:
                log.add(doc.file, no, "brat-line", f"attribute {parts[0]}: expected 'NAME ID "
                        f"[VALUE]'")
            else:
                pending.append((no, "A", f[1], f"{f[0]}={f[2] if len(f) > 2 else 'Yes'}"))
        elif kind == "#":
            f = parts[1].split()
            if len(f) == 2 and f[0] == "Lemma" and len(parts) > 2:
                pending.append((no, "#", f[1], parts[2].strip()))
        elif kind not in ("E", "N", "*"):  # events, normalisations, equivalences: not read
            log.add(doc.file, no, "brat-line", f"not a brat standoff line: {line[:40]!r}")
    for no, kind, target, value in pending:
        if target not in doc.entities:
            log.add(doc.file, no, "brat-reference", f"no entity {target!r} in this file")
        elif kind == "A":
            doc.attributes.setdefault(target, {})[value.split("=")[0]] = value
        else:
            doc.lemmas[target] = value


def read_brat_document(path: "str | Path", log: Optional[ProblemLog] = None
                       ) -> Optional[BratDocument]:
    """Read one ``.ann`` and its ``.txt`` (module docstring); None when there are errors.

    Parameters
    ----------
    path : str or path-like
        The ``.ann`` file.
    log : ProblemLog, optional
        Receives the problems; None: they are raised as `InputError`.
    """
    own = log is None
    log = ProblemLog() if log is None else log
    n_before = len(log.errors)
    ann_path = Path(path)
    txt = text_path(ann_path)
    doc = None
    if ann_path.is_file() and not txt.is_file():
        log.add(str(ann_path), None, "brat-missing-text",
                f"no {txt.name} beside it (brat keeps the text in a .txt of the same name)")
    else:
        ann = read_text(ann_path, log)
        text = read_text(txt, ProblemLog()) if ann is not None else None
        if ann is not None:
            doc = BratDocument(str(ann_path), text or "")
            _parse_ann(doc, ann, log)
    if own:
        log.raise_if_errors()
    return doc if len(log.errors) == n_before else None


def read_brat_entities(path: "str | Path", log: Optional[ProblemLog] = None
                       ) -> Optional[List[BratEntity]]:
    """The entities of one ``.ann`` in text order (start, then end, then line)."""
    doc = read_brat_document(path, log)
    if doc is None:
        return None
    return sorted(doc.entities.values(), key=lambda e: (e.start, e.end, e.line))


def _sentences(text: str) -> List[Tuple[int, int]]:
    """The lines of the text as ``[start, end)`` character ranges."""
    out, start = [], 0
    for line in text.split("\n"):
        out.append((start, start + len(line)))
        start += len(line) + 1
    return out


def _heads(doc: BratDocument, tokens: List[BratEntity], ignore: Set[str], log: ProblemLog
           ) -> Tuple[Dict[str, Tuple[str, str]], bool]:
    """Each dependent's (head id, relation type); False when a tree cannot be had."""
    head_of: Dict[str, Tuple[str, str]] = {}
    sentence_of = {}
    spans = _sentences(doc.text)
    k = 0
    ok = True
    for t in tokens:
        while k < len(spans) - 1 and t.start > spans[k][1]:
            k += 1
        sentence_of[t.id] = k
    for r in doc.relations:
        if r.type in ignore:
            continue
        missing = [a for a in (r.arg1, r.arg2) if a not in doc.entities]
        if missing:
            log.add(doc.file, r.line, "brat-reference", f"relation {r.id}: no entity "
                    f"{missing[0]!r} in this file")
            ok = False
        elif sentence_of[r.arg1] != sentence_of[r.arg2]:
            log.add(doc.file, r.line, "brat-tree", f"relation {r.id} joins tokens of different "
                    f"lines (sentences) of the text")
            ok = False
        elif r.arg2 in head_of:
            first = head_of[r.arg2]
            log.add(doc.file, r.line, "brat-tree",
                    f"relation {r.id} ({r.type}) gives {r.arg2} a second head ({r.arg1}; "
                    f"{first[1]} from {first[0]} already): the relations are not a tree",
                    hint="relation types of a second layer (TDT's rel, xsubj) are left out by "
                         "synagree.io.brat.read_brat(path, ignore=[...])")
            ok = False
        else:
            head_of[r.arg2] = (r.arg1, r.type)
    return head_of, ok


def _check_tokens(doc: BratDocument, tokens: List[BratEntity], log: ProblemLog) -> bool:
    ok = True
    for a, b in zip(tokens, tokens[1:]):
        if b.start < a.end:
            log.add(doc.file, b.line, "brat-tree", f"entity {b.id} overlaps {a.id}: entities "
                    f"read as tokens may not overlap")
            ok = False
    for t in tokens:
        if "\n" in doc.text[t.start:t.end]:
            log.add(doc.file, t.line, "brat-tree", f"entity {t.id} spans two lines (sentences)")
            ok = False
    return ok


def read_brat(path: "str | Path", log: Optional[ProblemLog] = None,
              ignore: Sequence[str] = ()) -> List[DepSentence]:
    r"""Read a brat ``.ann`` (with its ``.txt``) as dependency trees (module docstring).

    Parameters
    ----------
    path : str or path-like
        The ``.ann`` file.
    log : ProblemLog, optional
        Receives the problems (the errors are then raised all together).
    ignore : sequence of str
        Relation types left out (second-layer relations).

    Returns
    -------
    list of DepSentence
        One per line of the text that holds entities; ``sent_id`` is the
        line's number in the text (the same in every annotator's file).

    Raises
    ------
    InputError
        Every problem of the file (module docstring).
    """
    log = ProblemLog() if log is None else log
    n_before = len(log.errors)
    doc = read_brat_document(path, log)
    if doc is None:
        log.raise_if_errors()
        return []
    tokens = sorted(doc.entities.values(), key=lambda e: (e.start, e.end, e.line))
    ok = _check_tokens(doc, tokens, log)
    head_of, ok2 = _heads(doc, tokens, set(ignore), log)
    if ok and ok2:
        out = _trees(doc, tokens, head_of, log)
    else:
        out = []
    if len(log.errors) > n_before:
        log.raise_if_errors()
    return out


def _trees(doc: BratDocument, tokens: List[BratEntity], head_of: Dict[str, Tuple[str, str]],
           log: ProblemLog) -> List[DepSentence]:
    out: List[DepSentence] = []
    for no, (a, b) in enumerate(_sentences(doc.text), start=1):
        toks = [t for t in tokens if a <= t.start and t.end <= b]
        if not toks:
            continue
        index = {t.id: i + 1 for i, t in enumerate(toks)}
        heads = [index[head_of[t.id][0]] if t.id in head_of else 0 for t in toks]
        if not _acyclic(heads):
            log.add(doc.file, toks[0].line, "brat-tree", f"the relations of text line {no} "
                    f"make a cycle: not a tree")
            continue
        feats = ["|".join(sorted(doc.attributes.get(t.id, {}).values(),
                                 key=lambda x: x.lower())) or "_" for t in toks]
        out.append(DepSentence(
            doc.file, len(out), toks[0].line, [t.text for t in toks],
            np.asarray(heads, dtype=np.int32),
            [head_of[t.id][1] if t.id in head_of else "root" for t in toks],
            upos=[t.type for t in toks], xpos=["_"] * len(toks), feats=feats,
            lemmas=[doc.lemmas.get(t.id, "_") for t in toks],
            word_lines=[t.line for t in toks],
            metadata={"sent_id": str(no), "text": doc.text[a:b]}))
    return out


def _acyclic(heads: List[int]) -> bool:
    """Every word reaches the root (0) by following heads."""
    state = [0] * (len(heads) + 1)  # 0 unseen, 1 on the path, 2 reaches the root
    state[0] = 2
    for start in range(1, len(heads) + 1):
        path, w = [], start
        while state[w] == 0:
            state[w] = 1
            path.append(w)
            w = heads[w - 1]
        if state[w] == 1:
            return False
        for p in path:
            state[p] = 2
    return True
