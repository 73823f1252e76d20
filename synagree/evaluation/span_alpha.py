"""Krippendorff's unitizing α over span annotations (``synagree spans --coefficient alpha-u``).

docs/method.md §34.4.  The spans are those ``synagree spans`` compares
(`synagree.evaluation.spans`): the constituents (or preterminals) of
bracketed trees over token positions, or the words of CoNLL-U files over
character positions labelled by one column.  The continuum is

* bracketed trees: the sentences every file annotates, one after the other,
  each as long as its tokens (a span of sentence k at token a is at
  a + the tokens of the sentences before it);
* CoNLL-U: the whitespace-free text the files share (`synagree.evaluation.conll18`),
  from 0 to its last character.

Every file is one observer and every label a category
(`synagree.stats.unitizing`).  Krippendorff's α_u does not allow one
observer's units of a category to overlap; constituents nest (an NP inside an
NP), and the words of a multiword token share its span, so such a span
inside another of the same label by the same annotator is left out, only the
outermost kept (a loud choice: the output counts them per annotator).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, cast

from synagree.base.problems import InputError
from synagree.base.table import Column, Table
from synagree.evaluation.conll18 import align, read_treebank
from synagree.evaluation.spans import (
    CONLLU_LAYERS,
    PHRASE_LAYERS,
    documents_of_treebank,
    documents_of_trees,
)
from synagree.io.brackets import PhraseSentence
from synagree.io.corpus import from_files
from synagree.io.formats import format_of
from synagree.io.sources import Source, as_inputs, input_name
from synagree.stats.gate_prf import SpanAnnotation
from synagree.stats.unitizing import Unit, UnitizingAlpha, unitizing_alpha

__all__ = ["SPAN_COEFFICIENTS", "SpanAlphaU", "SpanLayer", "read_spans", "span_alpha_u",
           "outermost"]

#: ``spans --coefficient``
SPAN_COEFFICIENTS = ("alpha-u", "gamma")


def outermost(spans: Sequence[Tuple[int, int, str]]) -> Tuple[List[Tuple[int, int, str]], int]:
    """The spans ``(start, end, label)`` without those inside another of the same label.

    Returns the kept spans and how many were left out.

    Examples
    --------
    >>> outermost([(0, 5, "NP"), (0, 2, "NP"), (3, 5, "PP"), (0, 5, "NP")])
    ([(0, 5, 'NP'), (3, 5, 'PP')], 2)
    """
    kept: List[Tuple[int, int, str]] = []
    last_end: Dict[str, int] = {}
    for a, b, lab in sorted(spans, key=lambda s: (s[0], -s[1], s[2])):
        if b <= last_end.get(lab, -1):
            continue
        kept.append((a, b, lab))
        last_end[lab] = b
    return kept, len(spans) - len(kept)


@dataclass(frozen=True)
class SpanAlphaU:
    """α_u of span annotations.

    Attributes
    ----------
    files, annotators : list of str
    layer : str
    positions : str
        ``tokens`` or ``characters``.
    result : UnitizingAlpha
    dropped : dict of str to int
        Per annotator, spans left out inside another of the same label.
    notes : list of str
    """

    files: List[str]
    annotators: List[str]
    layer: str
    positions: str
    result: UnitizingAlpha
    dropped: Dict[str, int]
    notes: List[str] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: the settings, α_u and per category."""
        return {"files": list(self.files), "annotators": list(self.annotators),
                "layer": self.layer, "positions": self.positions,
                "coefficient": "alpha-u", **self.result.to_dict(),
                "nested_left_out": dict(self.dropped), "notes": list(self.notes)}

    def tables(self) -> List[Table]:
        """The ``alpha_u`` table: the overall row, then one row per category."""
        t = Table("alpha_u", [Column("category"), Column("d_o", "number"),
                              Column("d_e", "number"), Column("alpha_u", "number")],
                  title=f"Krippendorff's unitizing alpha over {self.layer} ({self.positions}; "
                        f"{self.result.observers} annotators, continuum of "
                        f"{self.result.length} {self.positions})", notes=list(self.notes))
        r = self.result
        t.add("ALL", r.observed, r.expected, r.alpha)
        for c, (o, e, a) in sorted(r.per_category.items()):
            t.add(c, o, e, a)
        return [t]


def _usage(message: str) -> InputError:
    return InputError.single("<command line>", None, "usage", message)


@dataclass(frozen=True)
class SpanLayer:
    """The spans ``spans --coefficient`` compares (module docstring).

    Attributes
    ----------
    files, annotators : list of str
    layer, positions : str
    spans : dict of str to list of (int, int, str)
        Per annotator, ``(start, end, label)`` over the continuum.
    length : int
        The continuum's positions.
    notes : list of str
    """

    files: List[str]
    annotators: List[str]
    layer: str
    positions: str
    spans: Dict[str, List[Tuple[int, int, str]]]
    length: int
    notes: List[str]


def read_spans(paths: Sequence[Source], layer: Optional[str], coefficient: str, *,
               fmt: str = "auto", phrase_style: str = "auto",
               names: Optional[Sequence[str]] = None, allow_missing: bool = False,
               check_text: bool = True) -> SpanLayer:
    """Every file's spans of ``layer`` over one continuum (module docstring).

    ``coefficient`` names the measure in the messages.

    Raises
    ------
    InputError
        As `span_alpha_u`.
    """
    paths = as_inputs(paths)
    if len(paths) < 2:
        raise _usage(f"{coefficient} compares two or more files")
    kinds = {format_of(fmt, p) for p in paths}
    if len(kinds) != 1:
        raise _usage("spans needs all files in one format (bracketed trees or CoNLL-U), "
                     "got both")
    kind = kinds.pop()
    allowed = PHRASE_LAYERS if kind == "phrase" else CONLLU_LAYERS
    layer = layer or allowed[0]
    if layer not in allowed:
        raise _usage(f"layer {layer!r} does not apply to "
                     f"{'bracketed trees' if kind == 'phrase' else 'CoNLL-U files'}; choose "
                     f"from {', '.join(allowed)}")
    notes: List[str] = []
    spans: Dict[str, List[Tuple[int, int, str]]] = {}
    if kind == "phrase":
        corpus = from_files(paths, names=names, fmt="phrase", phrase_style=phrase_style,
                            allow_missing=allow_missing, check_text=check_text)
        annotators = list(corpus.annotators)
        shared = [u for u in corpus.units if all(a in u.annotations for a in annotators)]
        if len(shared) < len(corpus.units):
            notes.append(f"{len(corpus.units) - len(shared)} sentence(s) some file lacks are "
                         f"left out of the continuum")
        offset, length = [], 0
        for u in shared:
            sizes = {cast(PhraseSentence, s).size for s in u.annotations.values()}
            if len(sizes) != 1:
                raise InputError.single(str(u.uid), None, "span-token-mismatch",
                                        f"sentence {u.uid} has {sorted(sizes)} tokens in the "
                                        f"files; token spans of different tokenisations "
                                        f"name different words")
            offset.append(length)
            length += sizes.pop()
        for a in annotators:
            docs = documents_of_trees([cast(PhraseSentence, u.annotations[a]) for u in shared],
                                      layer)
            spans[a] = [(o + s.start, o + s.end, s.label)
                        for o, d in zip(offset, docs) for s in (d or [])]
        positions = "tokens"
    else:
        tbs = [read_treebank(p) for p in paths]
        for tb in tbs[1:]:
            align(tbs[0], tb)
        annotators = list(names) if names is not None else [
            Path(input_name(p)).name for p in paths]
        if len(set(annotators)) != len(annotators):
            annotators = [input_name(p) for p in paths]
        docs_c: Dict[str, List[SpanAnnotation]] = {
            a: documents_of_treebank(tb, layer) for a, tb in zip(annotators, tbs)}
        spans = {a: [(s.start, s.end, s.label) for s in d] for a, d in docs_c.items()}
        length = max((b for ss in spans.values() for _, b, _ in ss), default=0)
        positions = "characters"
    return SpanLayer([input_name(p) for p in paths], annotators, layer, positions, spans,
                     length, notes)


def span_alpha_u(paths: Sequence[Source], layer: Optional[str] = None, *,
                 fmt: str = "auto", phrase_style: str = "auto",
                 names: Optional[Sequence[str]] = None, allow_missing: bool = False,
                 check_text: bool = True) -> SpanAlphaU:
    """Krippendorff's α_u of two or more files' spans (module docstring).

    Parameters
    ----------
    paths : sequence of str, path-like or file-like
        Two or more files, all bracketed trees or all CoNLL-U.
    layer : str, optional
        As for `synagree.evaluation.spans.span_agreement`.
    fmt, phrase_style, names, allow_missing, check_text
        As for `synagree.evaluation.spans.span_agreement`.

    Raises
    ------
    InputError
        ``usage`` (fewer than two files, mixed formats, a layer that does not
        apply), ``text-mismatch`` and every reading problem.

    Examples
    --------
    >>> import io
    >>> a = io.StringIO("(S (NP (D a)) (VP (V b) (NP (N c))))\\n(S (NP (N d)) (VP (V e)))\\n")
    >>> b = io.StringIO("(S (NP (D a)) (VP (V b) (N c)))\\n(S (NP (N d)) (VP (V e)))\\n")
    >>> r = span_alpha_u([a, b], phrase_style="penn")
    >>> r.positions, r.result.length, r.result.per_category["S"][0]
    ('tokens', 5, 0.0)
    >>> r.result.per_category["NP"][2] < 1.0 == r.result.per_category["VP"][2]
    True
    """
    layer_spans = read_spans(paths, layer, "alpha-u", fmt=fmt, phrase_style=phrase_style,
                             names=names, allow_missing=allow_missing, check_text=check_text)
    annotators, spans, notes = layer_spans.annotators, layer_spans.spans, list(layer_spans.notes)
    layer, length, positions = layer_spans.layer, layer_spans.length, layer_spans.positions
    observers, dropped = [], {}
    for a in annotators:
        kept, n = outermost(spans[a])
        dropped[a] = n
        observers.append([Unit(s, e - s, lab) for s, e, lab in kept if e > s])
    if any(dropped.values()):
        notes.append("spans inside another of the same label by the same annotator are left "
                     "out (alpha_u's units of a category must not overlap): "
                     + ", ".join(f"{a} {n}" for a, n in dropped.items()))
    if length <= 0:
        raise _usage("alpha-u: the files have no positions to compare (an empty continuum)")
    return SpanAlphaU(list(layer_spans.files), annotators, layer, positions,
                      unitizing_alpha(observers, 0, length), dropped, notes)
