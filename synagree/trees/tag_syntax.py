r"""The column syntax for alternative tags: ``NN|NNS`` and ``NN=0.7|NNS=0.3``.

docs/method.md §15.1.  A tag column (DEPREL, UPOS, XPOS) read with the
*alternatives* syntax may hold, instead of one tag, several alternatives
separated by ``|``, each optionally followed by ``=PROBABILITY``:

``NN``
    One tag (the plain case).
``NN|NNS``
    Two alternatives without probabilities: uniform mass (1/2 each).  In a
    gold file this is a *disjunctive* gold tag (Melamed & Resnik eq. 1: any of
    the alternatives is right); in a system file a multi-tag output (eq. 2).
``NN=0.7|NNS=0.3``
    A probabilistic output.  Every alternative must then carry a
    probability in (0, 1], and they must sum to 1 within `SUM_TOLERANCE`
    (the written values are then divided by their sum, so a written sum of
    0.9999 is used as 1).

Escaping: ``\|``, ``\=`` and ``\\`` stand for a literal ``|``, ``=`` and
``\``; a backslash before any other character, an empty alternative
(``NN|``), an empty tag (``=0.5``), a repeated alternative (``NN|NN``), a
probability on some alternatives only, or a probability that is not a
number in (0, 1] is a `TagSyntaxError`.

`parse_annotation` reads the syntax into an
`synagree.trees.hierarchy.Annotation` (a ``str``, a ``tuple`` of tags, or
a ``dict`` tag -> probability); `format_annotation` writes it back, so
``parse_annotation(format_annotation(a)) == a``.
"""
from __future__ import annotations

import math
from typing import Dict, List, Mapping, Optional, Tuple, Union

__all__ = ["SUM_TOLERANCE", "SYNTAX_CHARACTERS", "TagSyntaxError", "ParsedAnnotation",
           "parse_annotation", "format_annotation", "annotation_tags", "is_alternatives",
           "has_probabilities", "looks_like_alternatives"]

#: How far written probabilities may sum from 1 (they are then divided by their sum).
SUM_TOLERANCE = 1e-3
#: The characters that have a meaning in the syntax (and must be escaped in a tag).
SYNTAX_CHARACTERS = ("|", "=", "\\")

#: What `parse_annotation` returns: a tag, alternatives, or tag -> probability.
ParsedAnnotation = Union[str, Tuple[str, ...], Dict[str, float]]


class TagSyntaxError(ValueError):
    """A column value that is not valid alternatives syntax (docs/method.md §15.1)."""


def _split(text: str, sep: str) -> List[str]:
    """Split at unescaped ``sep``; escapes are kept (undone by `_unescape`)."""
    parts: List[str] = []
    cur: List[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            if i + 1 >= len(text):
                raise TagSyntaxError(f"{text!r} ends in a lone backslash (write \\\\ for a "
                                     f"backslash)")
            nxt = text[i + 1]
            if nxt not in SYNTAX_CHARACTERS:
                raise TagSyntaxError(f"unknown escape \\{nxt} in {text!r}: only \\|, \\= and "
                                     f"\\\\ are escapes")
            cur.append(text[i:i + 2])
            i += 2
            continue
        if ch == sep:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    parts.append("".join(cur))
    return parts


def _unescape(text: str) -> str:
    out: List[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\\":
            out.append(text[i + 1])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _escape(tag: str) -> str:
    return tag.replace("\\", "\\\\").replace("|", "\\|").replace("=", "\\=")


def _probability(text: str, whole: str) -> float:
    try:
        p = float(text)
    except ValueError:
        raise TagSyntaxError(f"probability {text!r} in {whole!r} is not a number") from None
    if not math.isfinite(p) or p <= 0.0 or p > 1.0:
        raise TagSyntaxError(f"probability {text!r} in {whole!r} is not in (0, 1]")
    return p


def parse_annotation(text: str) -> ParsedAnnotation:
    r"""Read one column value in the alternatives syntax (docs/method.md §15.1).

    Parameters
    ----------
    text : str
        The value as written in the column.

    Returns
    -------
    str, tuple of str or dict of str to float
        A single tag (also for ``TAG=1``); a tuple of two or more
        alternatives (uniform mass); or ``{tag: probability}`` summing to 1.

    Raises
    ------
    TagSyntaxError
        Empty value or alternative, empty tag, repeated alternative, unknown
        escape, probabilities on some alternatives only, a probability not in
        (0, 1], or probabilities that do not sum to 1 within `SUM_TOLERANCE`.
    """
    if not text:
        raise TagSyntaxError("empty value")
    tags: List[str] = []
    probs: List[Optional[float]] = []
    for alt in _split(text, "|"):
        pieces = _split(alt, "=")
        if len(pieces) > 2:
            raise TagSyntaxError(f"alternative {alt!r} of {text!r} has more than one '=' "
                                 f"(write \\= for a literal '=')")
        tag = _unescape(pieces[0])
        if not alt:
            raise TagSyntaxError(f"empty alternative in {text!r}")
        if not tag:
            raise TagSyntaxError(f"alternative {alt!r} of {text!r} has no tag")
        if tag in tags:
            raise TagSyntaxError(f"alternative {tag!r} is repeated in {text!r}")
        tags.append(tag)
        probs.append(_probability(pieces[1], text) if len(pieces) == 2 else None)
    given = [p for p in probs if p is not None]
    if not given:
        return tags[0] if len(tags) == 1 else tuple(tags)
    if len(given) != len(probs):
        raise TagSyntaxError(f"{text!r} gives probabilities for some alternatives only "
                             f"(all or none)")
    total = math.fsum(given)
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise TagSyntaxError(f"probabilities in {text!r} sum to {round(total, 9)!r}, not 1 "
                             f"(tolerance {SUM_TOLERANCE:g})")
    if len(tags) == 1:
        return tags[0]
    if total != 1.0:
        given = [p / total for p in given]
    return dict(zip(tags, given))


def format_annotation(annotation: Union[str, Tuple[str, ...], List[str],
                                        Mapping[str, float]]) -> str:
    r"""Write an annotation in the alternatives syntax (inverse of `parse_annotation`).

    Returns
    -------
    str
        Tags escaped (``|``, ``=``, ``\``), probabilities as Python writes
        floats (the shortest form that reads back exactly).

    Raises
    ------
    TagSyntaxError
        An empty tag or no tags.
    """
    if isinstance(annotation, str):
        items: List[Tuple[str, Optional[float]]] = [(annotation, None)]
    elif isinstance(annotation, Mapping):
        items = [(t, float(p)) for t, p in annotation.items()]
    else:
        items = [(t, None) for t in annotation]
    if not items or any(not t for t, _ in items):
        raise TagSyntaxError("an annotation needs at least one non-empty tag")
    return "|".join(_escape(t) + ("" if p is None else f"={p!r}") for t, p in items)


def annotation_tags(annotation: ParsedAnnotation) -> List[str]:
    """The tags an annotation names, in order."""
    return [annotation] if isinstance(annotation, str) else list(annotation)


def is_alternatives(annotation: ParsedAnnotation) -> bool:
    """True when the annotation names more than one tag."""
    return not isinstance(annotation, str)


def has_probabilities(annotation: ParsedAnnotation) -> bool:
    """True when the annotation carries written probabilities."""
    return isinstance(annotation, dict)


def looks_like_alternatives(tag: str) -> bool:
    """True when a plain tag contains ``|`` or ``=`` (worth a note when the syntax is off)."""
    return "|" in tag or "=" in tag
