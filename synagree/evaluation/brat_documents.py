r"""brat standoff files compared as spans: GATE's span measures and classification agreement.

docs/formats-gate-brat.md.  Each ``.ann`` file (with its ``.txt``) is one
annotator's annotation of one text; its entities are labelled character
spans (`synagree.io.brat.read_brat_entities`, label = entity type).

* `brat_spans`: GATE's strict, lenient and average P/R/F1 between every pair
  of files, the earlier the key, each entity type its own annotation type
  (`synagree.stats.gate_prf.annotation_diff`, labels ``type``).
* `brat_classification`: GATE's classification agreement of the entity
  types: entities paired when coextensive, exactly as
  `synagree.stats.gate_classification` pairs GATE annotations (the type is
  the category).

The files must annotate the same text (``text-mismatch`` otherwise): spans
of different texts name different words.
"""
from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from synagree.base.problems import InputError, ProblemLog
from synagree.evaluation.gate_documents import GateClassificationPair, GateClassificationResult
from synagree.evaluation.spans import SpanPair, SpanResult, compare_documents
from synagree.io.brat import BratDocument, read_brat_document
from synagree.stats.gate_classification import classification_table, pool_tables
from synagree.stats.gate_prf import SpanAnnotation

__all__ = ["brat_spans", "brat_classification"]


def _read(paths: Sequence["str | Path"], names: Optional[Sequence[str]]
          ) -> Tuple[List[str], List[BratDocument]]:
    if len(paths) < 2:
        raise InputError.single("<command line>", None, "usage",
                                "brat files: give two or more .ann files, one per annotator")
    if names is not None and len(names) != len(paths):
        raise InputError.single("<command line>", None, "usage",
                                f"{len(names)} names for {len(paths)} files")
    log = ProblemLog()
    docs = [read_brat_document(p, log) for p in paths]
    log.raise_if_errors()
    got = [d for d in docs if d is not None]
    for d in got[1:]:
        if d.text != got[0].text:
            log.add(d.file, None, "text-mismatch",
                    f"its .txt is not the text of {got[0].file}'s: spans of different texts "
                    f"name different words")
    log.raise_if_errors()
    stems = [Path(str(p)).stem for p in paths]
    if names is None:
        names = stems if len(set(stems)) == len(stems) else [str(p) for p in paths]
    return list(names), got


def _spans(doc: BratDocument) -> List[SpanAnnotation]:
    ents = sorted(doc.entities.values(), key=lambda e: (e.start, e.end, e.line))
    return [SpanAnnotation(e.start, e.end, e.type) for e in ents]


def brat_spans(paths: Sequence["str | Path"], names: Optional[Sequence[str]] = None
               ) -> SpanResult:
    r"""GATE's strict, lenient and average P/R/F1 of the entities of brat files.

    Parameters
    ----------
    paths : sequence of str or path-like
        Two or more ``.ann`` files of one text, one per annotator (the first
        of each pair is the key).
    names : sequence of str, optional
        Annotator names (default: the file stems).

    Returns
    -------
    SpanResult
        Character offsets, labels ``type`` (each entity type its own
        annotation type), one document.

    Raises
    ------
    InputError
        Reading problems (`synagree.io.brat`), ``text-mismatch``, ``usage``.
    """
    names, docs = _read(paths, names)
    spans: Dict[str, List[SpanAnnotation]] = {n: _spans(d) for n, d in zip(names, docs)}
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            counts, per_label, _ = compare_documents([spans[a]], [spans[b]], "type", None)
            pairs.append(SpanPair(a, b, counts, per_label, None))
    return SpanResult([d.file for d in docs], names, "entities", "characters", "type", 1,
                      pairs, notes=["brat entities: each entity type its own annotation type"])


def brat_classification(paths: Sequence["str | Path"], names: Optional[Sequence[str]] = None
                        ) -> GateClassificationResult:
    r"""GATE's observed agreement, Cohen's κ and Scott's π of brat entity types.

    Entities of two files are paired when coextensive (same start and end),
    each entity skipped when its span is taken twice in its own file, or is
    absent or doubled in the other (GATE's ``ClassificationMeasures``,
    `synagree.stats.gate_classification`); the entity type is the category.

    Parameters
    ----------
    paths : sequence of str or path-like
        Two or more ``.ann`` files of one text, one per annotator.
    names : sequence of str, optional

    Returns
    -------
    GateClassificationResult
        One "document" (the text); the sets are the annotators, the type
        ``entity`` and the feature ``type``.
    """
    names, docs = _read(paths, names)
    items = {n: [(s.start, s.end, s.label) for s in _spans(d)] for n, d in zip(names, docs)}
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            t = classification_table(items[a], items[b])
            pairs.append(GateClassificationPair(a, b, ((docs[0].file, t),), pool_tables([t])))
    return GateClassificationResult(tuple(d.file for d in docs), tuple(names), "entity", "type",
                                    tuple(pairs))
