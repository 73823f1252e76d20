"""WebAnno / INCEpTION TSV 3.x with a dependency layer: one annotator's trees.

The header declares the layers, one ``#T_SP=`` (span), ``#T_CH=`` (chain)
or ``#T_RL=`` (relation) line each: the layer's type, then its features,
each one column of the token lines (a relation layer's last item,
``BT_type``, is the column of the governor's address).  A token line is
``SENT-TOK  BEGIN-END  TOKEN  column...``; sub-token lines (``1-3.1``) carry
no token and are skipped.  Read, as INCEpTION writes them:

* the dependency layer ``...dependency.Dependency`` (required): its
  ``DependencyType`` column is the DEPREL, written on the *dependent's*
  line, and its ``BT_`` column the governor's ``SENT-TOK`` address; the root
  is a relation from a token to itself (DKPro's ``ROOT``).  Every token needs
  exactly one relation (``webanno-heads``);
* ``...pos.POS``: ``PosValue`` is XPOS, ``coarseValue`` UPOS;
  ``...Lemma``: ``value`` is the lemma; ``...morph.MorphologicalFeatures``:
  ``value`` is FEATS.

Stacked values (``A|B``) are several annotations on one token; a
disambiguation suffix (``[3]``, ``[1_2]``) is dropped; ``_`` and ``*`` are
no value; backslash escapes are undone.  ``#Text=`` is the sentence's text
and ``#Sentence.id=`` its ``sent_id``.  Every problem names the file's line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import numpy as np

from synagree.base.problems import ProblemLog, quote
from synagree.io.conllu import DepSentence, report_cycles
from synagree.io.files import read_parsed
from synagree.io.sources import Source

__all__ = ["read_webanno_tsv", "DEPENDENCY_LAYER"]

#: the type name of DKPro's (INCEpTION's) dependency layer
DEPENDENCY_LAYER = "de.tudarmstadt.ukp.dkpro.core.api.syntax.type.dependency.Dependency"
_POS = "de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS"
_LEMMA = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Lemma"
_MORPH = "de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.morph.MorphologicalFeatures"
_SUFFIX = re.compile(r"\[[0-9_]+\]$")
_ESCAPE = re.compile(r"\\(.)")


def _values(cell: str) -> List[str]:
    """The stacked values of a cell, suffixes dropped, escapes undone; ``_``/``*``: none."""
    if cell in ("_", "*", ""):
        return []
    parts = re.split(r"(?<!\\)\|", cell)
    return [_ESCAPE.sub(r"\1", _SUFFIX.sub("", p)) for p in parts]


@dataclass
class _Columns:
    """Where the read columns are (0-based, counting the three fixed ones)."""

    total: int = 3
    deprel: Optional[int] = None
    governor: Optional[int] = None
    xpos: Optional[int] = None
    upos: Optional[int] = None
    lemma: Optional[int] = None
    feats: Optional[int] = None


def _header(lines: List[str], name: str, log: ProblemLog) -> Optional[_Columns]:
    cols = _Columns()
    first = next((ln for ln in lines if ln.strip()), "").lstrip("\ufeff")
    if not first.startswith("#FORMAT=WebAnno TSV 3"):
        log.add(name, 1, "webanno-header",
                f"not WebAnno TSV 3: the first line is {quote(first)}, not "
                f"'#FORMAT=WebAnno TSV 3.x' (give another --format)")
        return None
    for line in lines:
        if line.startswith("#Text=") or (line and not line.startswith("#")):
            break
        kind, _, decl = line.partition("=")
        if kind not in ("#T_SP", "#T_CH", "#T_RL"):
            continue
        layer, *features = decl.split("|")
        where = {f: cols.total + k for k, f in enumerate(features)}
        if layer == DEPENDENCY_LAYER and kind == "#T_RL":
            cols.deprel = where.get("DependencyType")
            cols.governor = next((c for f, c in where.items() if f.startswith("BT_")), None)
        elif layer == _POS:
            cols.xpos, cols.upos = where.get("PosValue"), where.get("coarseValue")
        elif layer == _LEMMA:
            cols.lemma = where.get("value")
        elif layer == _MORPH:
            cols.feats = where.get("value")
        cols.total += len(features)
    if cols.deprel is None or cols.governor is None:
        log.add(name, None, "webanno-no-dependency-layer",
                f"no dependency layer: the header declares no '#T_RL={DEPENDENCY_LAYER}"
                f"|DependencyType|...|BT_...' layer (export with the Dependency layer; "
                f"agreement on trees needs it)")
        return None
    return cols


@dataclass
class _Sentence:
    line: int
    metadata: Dict[str, Optional[str]] = field(default_factory=dict)
    tokens: List[Tuple[int, str, List[str]]] = field(default_factory=list)  # line, id, cells


def read_webanno_tsv(path: Source, log: Optional[ProblemLog] = None) -> List[DepSentence]:
    r"""Read a WebAnno/INCEpTION TSV 3.x file's dependency trees.

    Parameters
    ----------
    path : str, path-like, file-like or Buffer
    log : ProblemLog, optional

    Raises
    ------
    InputError
        Every problem: ``webanno-header`` (not TSV 3), ``webanno-no-dependency-layer``
        (the header lacks the layer), ``column-count``, ``webanno-heads`` (a token
        with no relation or several, a governor in another sentence or unknown),
        ``empty-file``.

    Examples
    --------
    >>> import io
    >>> from synagree.io.webanno_tsv import read_webanno_tsv, DEPENDENCY_LAYER
    >>> text = ("#FORMAT=WebAnno TSV 3.3\n"
    ...         f"#T_RL={DEPENDENCY_LAYER}|DependencyType|BT_x.POS\n\n\n"
    ...         "#Text=Dogs bark\n1-1\t0-4\tDogs\tnsubj\t1-2\t\n1-2\t5-9\tbark\tROOT\t1-2\t\n")
    >>> [s] = read_webanno_tsv(io.StringIO(text))
    >>> s.forms, s.heads.tolist(), s.deprels
    (['Dogs', 'bark'], [2, 0], ['nsubj', 'ROOT'])
    """
    return read_parsed(path, log, _parse, "file holds no sentences")


def _parse(name: str, text: str, log: ProblemLog) -> List[DepSentence]:
    lines = text.splitlines()
    cols = _header(lines, name, log)
    if cols is None:
        return []
    out: List[DepSentence] = []
    for sent in _sentences(lines, cols, name, log):
        tree = _tree(sent, cols, name, len(out), log)
        if tree is not None:
            out.append(tree)
    return out


def _sentences(lines: List[str], cols: _Columns, name: str, log: ProblemLog
               ) -> List[_Sentence]:
    out: List[_Sentence] = []
    cur: Optional[_Sentence] = None
    for no, line in enumerate(lines, 1):
        if not line.strip():
            cur = None
            continue
        if line.startswith("#"):
            if line.startswith("#Text="):
                if cur is None or cur.tokens:
                    cur = _Sentence(no)
                    out.append(cur)
                cur.metadata["text"] = line[len("#Text="):]
            elif line.startswith("#Sentence.id=") and cur is not None:
                cur.metadata["sent_id"] = line[len("#Sentence.id="):]
            continue
        cells = line.split("\t")
        if cells and cells[-1] == "":
            cells.pop()  # INCEpTION ends every token line with a tab
        if "." in cells[0]:
            continue  # a sub-token line
        if len(cells) != cols.total:
            log.add(name, no, "column-count",
                    f"expected {cols.total} tab-separated columns (the header's layers), "
                    f"found {len(cells)}")
            continue
        if cur is None:
            cur = _Sentence(no)
            out.append(cur)
        cur.tokens.append((no, cells[0], cells))
    return out


def _cell(cells: List[str], col: Optional[int]) -> str:
    if col is None:
        return "_"
    vals = _values(cells[col])
    return "|".join(vals) if vals else "_"


def _tree(sent: _Sentence, cols: _Columns, name: str, index: int, log: ProblemLog
          ) -> Optional[DepSentence]:
    assert cols.deprel is not None and cols.governor is not None
    position = {tid: k + 1 for k, (_, tid, _) in enumerate(sent.tokens)}
    heads: List[int] = []
    deprels: List[str] = []
    ok = True
    for no, tid, cells in sent.tokens:
        labels = _values(cells[cols.deprel])
        governors = _values(cells[cols.governor])
        if len(governors) != 1:
            how_many = (f"{len(governors)} dependency relations" if governors
                        else "no dependency relation")
            log.add(name, no, "webanno-heads",
                    f"token {tid} {quote(cells[2])} has {how_many} (a tree gives each token "
                    f"one head; the root's is a relation to itself)")
            ok = False
            continue
        gov = governors[0]
        if gov not in position:
            log.add(name, no, "webanno-heads",
                    f"token {tid} {quote(cells[2])}: governor {quote(gov)} is no token of "
                    f"its sentence")
            ok = False
            continue
        heads.append(0 if gov == tid else position[gov])
        deprels.append(labels[0] if labels else "_")
    if not ok:
        return None
    tree = DepSentence(name, index, sent.line, [t[2][2] for t in sent.tokens],
                       np.asarray(heads, dtype=np.int32), deprels,
                       upos=[_cell(c, cols.upos) for _, _, c in sent.tokens],
                       xpos=[_cell(c, cols.xpos) for _, _, c in sent.tokens],
                       feats=[_cell(c, cols.feats) for _, _, c in sent.tokens],
                       lemmas=[_cell(c, cols.lemma) for _, _, c in sent.tokens],
                       word_lines=[t[0] for t in sent.tokens],
                       metadata=dict(sent.metadata))
    report_cycles(tree, heads, log)
    return tree
