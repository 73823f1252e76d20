"""The ID and HEAD columns of CoNLL-U/CoNLL-X word lines, checked one way
for every reader (``agree``'s, ``compare``'s and ``tags``').

* An ID is a word ``N``, a multiword-token range ``N-M`` (``M >= N``) or an
  empty node ``N.K``, written in ASCII digits without leading zeros (as
  `conllu` writes them); anything else, e.g. the Arabic-Indic ``٠`` or
  a superscript ``²``, is a ``bad-id``.
* A HEAD is an integer in ASCII digits, without leading zeros (a sign is
  read so that ``-1`` can be reported as out of range); anything else is a
  ``bad-head``.
* Multiword-token ranges of a sentence start at the next word and do not
  overlap: a range starting inside the previous one is a
  ``multiword-overlap`` error, one that starts anywhere else a ``bad-id``
  (`Ranges`).
"""
from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple, Optional, Tuple

from synagree.base.problems import quote

__all__ = ["ConlluId", "parse_id", "parse_head", "bad_id_message", "bad_head_hint", "Ranges"]

_NUM = r"(?:0|[1-9][0-9]*)"
_POS = r"[1-9][0-9]*"
_ID_RE = re.compile(rf"({_NUM})|({_POS})-({_POS})|({_NUM})\.({_POS})", re.ASCII)
_HEAD_RE = re.compile(r"0|-?[1-9][0-9]*", re.ASCII)


class ConlluId(NamedTuple):
    """A parsed ID column: a word, a multiword-token range or an empty node.

    Attributes
    ----------
    first : int
        The word id (1-based), or the first id of a range / the word an empty
        node follows.
    sep : {"", "-", "."}
        ``""``: a word; ``"-"``: a range to ``second``; ``"."``: empty node
        ``first.second``.
    second : int
        End of a range, or the empty node's number.
    """

    first: int
    sep: str = ""
    second: int = 0

    @property
    def is_word(self) -> bool:
        """True for a word id ``N``."""
        return self.sep == ""

    @property
    def is_range(self) -> bool:
        """True for a multiword-token range ``N-M``."""
        return self.sep == "-"

    @property
    def is_empty_node(self) -> bool:
        """True for an empty node ``N.K``."""
        return self.sep == "."


def _plain_number(text: str) -> bool:
    """ASCII digits without a leading zero (``0`` itself included): the common
    case of an ID or HEAD, recognised without the regular expression."""
    return text.isdigit() and text.isascii() and (text[0] != "0" or len(text) == 1)


def parse_id(text: str) -> Optional[ConlluId]:
    """The ID column, or None when it is not a valid ID.

    Valid: ``N``, ``N-M`` with ``M >= N`` and ``N.K``, in ASCII digits
    without leading zeros.

    Parameters
    ----------
    text : str
        The ID column as written.

    See Also
    --------
    bad_id_message
    """
    if _plain_number(text):  # a word: most lines (same answer as the regex)
        return ConlluId(int(text))
    m = _ID_RE.fullmatch(text)
    if m is None:
        return None
    word, r1, r2, e1, e2 = m.groups()
    if word is not None:
        return ConlluId(int(word))
    if r1 is not None:
        a, b = int(r1), int(r2)
        return ConlluId(a, "-", b) if b >= a else None
    return ConlluId(int(e1), ".", int(e2))


def parse_head(text: str) -> Optional[int]:
    """The HEAD column as an integer (possibly negative), or None.

    A sign is accepted so that ``-1`` can be reported as out of range; leading
    zeros and non-ASCII digits are not.
    """
    if _plain_number(text):
        return int(text)
    return int(text) if _HEAD_RE.fullmatch(text) else None


def _non_ascii_digit(text: str) -> str:
    for c in text:
        if c.isdigit() and not c.isascii():
            name = unicodedata.name(c, "")
            return f"; {quote(c)} (U+{ord(c):04X}{' ' + name if name else ''}) is not an " \
                   f"ASCII digit"
    return ""


def bad_id_message(text: str) -> str:
    """Why ``text`` is not an ID, for an error message."""
    return (f"invalid ID {quote(text)}: expected N, N-M or N.M in ASCII digits"
            + _non_ascii_digit(text))


def bad_head_hint(text: str) -> str:
    """``"; '٠' (U+0660 ...) is not an ASCII digit"`` when that is why a HEAD is bad.

    Parameters
    ----------
    text : str
        The HEAD column as written.

    Returns
    -------
    str
        The hint, or ``""``.
    """
    return _non_ascii_digit(text)


class Ranges:
    """The multiword-token ranges of one sentence, checked line by line."""

    def __init__(self) -> None:
        self.end = 0  # last word covered by a range so far

    def check(self, rid: ConlluId, next_word: Optional[int]) -> Optional[Tuple[str, str]]:
        """Check the next range ``rid`` of the sentence.

        Parameters
        ----------
        rid : ConlluId
            A range id (``N-M``).
        next_word : int or None
            The id of the next word line; None: not known (e.g. after a broken
            line).

        Returns
        -------
        (str, str) or None
            ``(kind, message)`` when ``rid`` overlaps an earlier range
            (``multiword-overlap``) or does not start at ``next_word``
            (``bad-id``); None when it is fine.
        """
        text = f"{rid.first}-{rid.second}"
        try:
            if rid.first <= self.end:
                return ("multiword-overlap",
                        f"multiword token {text} overlaps the one ending at word {self.end}")
            if next_word is not None and rid.first != next_word:
                return ("bad-id", f"multiword token {text} should start at word {next_word}")
            return None
        finally:
            self.end = max(self.end, rid.second)
