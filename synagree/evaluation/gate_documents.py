r"""GATE documents compared as GATE compares them: classification agreement and span P/R/F.

docs/formats-gate-brat.md, docs/method.md §24.5.  Each annotation set of a
GATE XML document (`synagree.io.gate_xml`) is an annotator.

* `gate_classification`: for every pair of sets, the observed agreement,
  Cohen's κ and Scott's π of one feature of one annotation type, per document
  and pooled over the documents by summing their confusion matrices
  (`synagree.stats.gate_classification`, GATE's ``ClassificationMeasures``).
* `gate_spans`: for every pair of sets (the earlier one the key), GATE's
  strict, lenient and average P/R/F of the annotations of one type
  (`synagree.stats.gate_prf`, GATE's ``AnnotationDiffer``), counts summed over
  the documents.

A set named in ``sets`` that a document lacks is an error
(``gate-missing-set``): GATE would compare it as empty, which reads as
disagreement that nobody expressed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from synagree.base.problems import InputError, ProblemLog
from synagree.evaluation.spans import SpanPair, SpanResult, compare_documents
from synagree.io.gate_xml import GateDocument, read_gate_xml
from synagree.io.sources import Source, as_inputs
from synagree.stats.gate_classification import (
    ClassificationTable,
    classification_table,
    pool_tables,
)
from synagree.stats.gate_prf import SpanAnnotation

__all__ = ["GateClassificationPair", "GateClassificationResult", "gate_classification",
           "gate_spans", "read_gate_documents", "parse_sets"]


def parse_sets(spec: Optional[str]) -> List[str]:
    """``--sets A,B[,C...]``: two or more distinct set names (a usage error otherwise)."""
    names = [x.strip() for x in (spec or "").split(",")]
    if spec is None or len(names) < 2 or any(not x for x in names) or \
            len(set(names)) != len(names):
        raise InputError.single("<command line>", None, "usage",
                                "--format gate needs --sets NAME1,NAME2[,...]: two or more "
                                "distinct annotation set names")
    return names


def read_gate_documents(paths: Sequence[Source], sets: Sequence[str]) -> List[GateDocument]:
    """Every document read, each checked to hold every set; all problems raised together."""
    log = ProblemLog()
    docs: List[GateDocument] = []
    for p in as_inputs(paths):
        doc = read_gate_xml(p, log=log)
        if doc is None:
            continue
        missing = [s for s in sets if s not in doc.sets]
        if missing:
            have = ", ".join(repr(s) for s in doc.sets) or "none"
            log.add(doc.file, None, "gate-missing-set",
                    f"no annotation set {', '.join(repr(s) for s in missing)} (the document "
                    f"has {have})")
        docs.append(doc)
    log.raise_if_errors()
    return docs


@dataclass(frozen=True)
class GateClassificationPair:
    """Two sets compared: one table per document and the pooled table."""

    set1: str
    set2: str
    documents: Tuple[Tuple[str, ClassificationTable], ...]
    pooled: ClassificationTable

    def to_dict(self) -> dict:
        """JSON-ready: per document and pooled."""
        return {"set1": self.set1, "set2": self.set2,
                "documents": [{"document": d, **t.to_dict()} for d, t in self.documents],
                "pooled": self.pooled.to_dict()}


@dataclass(frozen=True)
class GateClassificationResult:
    """GATE's classification agreement of every pair of sets (module docstring)."""

    files: Tuple[str, ...]
    sets: Tuple[str, ...]
    type: str
    feature: str
    pairs: Tuple[GateClassificationPair, ...]
    notes: Tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        """JSON-ready."""
        return {"files": list(self.files), "sets": list(self.sets), "type": self.type,
                "feature": self.feature, "pairs": [p.to_dict() for p in self.pairs],
                "notes": list(self.notes)}


def _items(doc: GateDocument, set_name: str, type_: str, feature: str
           ) -> List[Tuple[int, int, str]]:
    return [(a.start, a.end, a.features[feature]) for a in doc.annotations(set_name, type_)
            if feature in a.features]


def _classes(doc: GateDocument, set_name: str, type_: str, feature: str) -> set:
    return {a.classes.get(feature, "") for a in doc.annotations(set_name, type_)
            if feature in a.features}


def gate_classification(paths: Sequence[Source], sets: Sequence[str], type_: str,
                        feature: str) -> GateClassificationResult:
    r"""GATE's observed agreement, Cohen's κ and Scott's π between annotation sets.

    Parameters
    ----------
    paths : sequence of str, path-like or file-like
        GATE XML documents.
    sets : sequence of str
        Two or more annotation set names (every pair is compared, the
        earlier as GATE's set 1).
    type_ : str
        The annotation type.
    feature : str
        The feature whose values are the categories.

    Returns
    -------
    GateClassificationResult

    Raises
    ------
    InputError
        Reading problems, ``gate-missing-set``.

    Examples
    --------
    >>> import io
    >>> def ann(i, a, b, v):
    ...     return (f'<Annotation Id="{i}" Type="sent" StartNode="{a}" EndNode="{b}">'
    ...             f'<Feature><Name>Op</Name><Value>{v}</Value></Feature></Annotation>')
    >>> nodes = "".join(f'<Node id="{k}"/>x' for k in range(4)) + '<Node id="4"/>'
    >>> xml = (f"<GateDocument><TextWithNodes>{nodes}</TextWithNodes>"
    ...        f'<AnnotationSet Name="A">{ann(1, 0, 1, "yes")}{ann(2, 1, 2, "no")}'
    ...        f'{ann(3, 2, 4, "yes")}</AnnotationSet><AnnotationSet Name="B">'
    ...        f'{ann(4, 0, 1, "yes")}{ann(5, 1, 2, "yes")}{ann(6, 2, 4, "yes")}'
    ...        f"</AnnotationSet></GateDocument>")
    >>> r = gate_classification([io.StringIO(xml)], ["A", "B"], "sent", "Op")
    >>> p = r.pairs[0].pooled
    >>> p.agreed, p.total, round(p.observed, 4), p.cohen_kappa, round(p.scott_pi, 4)
    (2, 3, 0.6667, 0.0, -0.2)
    """
    docs = read_gate_documents(paths, sets)
    pairs = []
    classes: set = set()
    for i, a in enumerate(sets):
        for b in sets[i + 1:]:
            per_doc = tuple((d.file, classification_table(_items(d, a, type_, feature),
                                                          _items(d, b, type_, feature)))
                            for d in docs)
            pairs.append(GateClassificationPair(a, b, per_doc,
                                                pool_tables([t for _, t in per_doc])))
    for d in docs:
        for s in sets:
            classes |= _classes(d, s, type_, feature)
    notes = []
    if len(classes) > 1:
        notes.append(f"the values of feature {feature!r} are of several Java classes "
                     f"({', '.join(sorted(classes))}); they are compared as strings, as GATE "
                     f"does (GATE warns: results may be inconsistent)")
    return GateClassificationResult(tuple(d.file for d in docs), tuple(sets), type_, feature,
                                    tuple(pairs), tuple(notes))


def gate_spans(paths: Sequence[Source], sets: Sequence[str], type_: str) -> SpanResult:
    r"""GATE's strict, lenient and average P/R/F of one annotation type between sets.

    Each document's annotations of ``type_`` in the key set (the earlier of
    each pair) are compared with the response set's by
    `synagree.stats.gate_prf.annotation_diff` (no significant features:
    labels ``none``), in ascending annotation-id order; the counts are summed
    over the documents (GATE's micro summary).

    Parameters
    ----------
    paths : sequence of str, path-like or file-like
        GATE XML documents.
    sets : sequence of str
        Two or more annotation set names.
    type_ : str

    Returns
    -------
    SpanResult
        As `synagree.evaluation.spans.span_agreement` gives it (character
        offsets, one document per file).

    Raises
    ------
    InputError
        Reading problems, ``gate-missing-set``.
    """
    docs = read_gate_documents(paths, sets)
    per_set: Dict[str, List[List[SpanAnnotation]]] = {
        s: [[SpanAnnotation(a.start, a.end, type_) for a in d.annotations(s, type_)]
            for d in docs] for s in sets}
    pairs = []
    for i, a in enumerate(sets):
        for b in sets[i + 1:]:
            counts, per_label, _ = compare_documents(per_set[a], per_set[b], "none", None)
            pairs.append(SpanPair(a, b, counts, per_label, None))
    names = ", ".join(Path(d.file).name for d in docs)
    return SpanResult([d.file for d in docs], list(sets), type_, "characters", "none",
                      len(docs), pairs,
                      notes=[f"GATE documents: annotation type {type_!r} of the sets "
                             f"{', '.join(sets)}; files {names}"])
