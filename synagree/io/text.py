"""What counts as the same text when annotations of a unit are compared."""
from __future__ import annotations

import unicodedata
from typing import Optional, Sequence


def comparable(text: str) -> str:
    """Text for the identity check of a unit's annotations (docs/method.md §1.5).

    The text is put in Unicode NFC (so ``e`` + combining acute and ``é``
    compare equal), whitespace is removed, and an underscore inside a form is
    read as a space (CoNLL-X treebanks write ``New_York`` for a multiword unit
    that another annotation may split).
    """
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return "".join(text.replace("_", " ").split())


def only_difference(a: str, b: str) -> Optional[str]:
    """The Unicode normalisation under which two different texts are equal, if any.

    The identity check compares text in NFC (`comparable`).  Two texts that
    still differ but are equal under NFKC (compatibility characters such as
    ``ﬁ`` for ``fi`` or full-width digits) look the same on screen; a message
    about them names the normalisation.

    Returns
    -------
    str or None
        ``"NFKC"`` when ``a != b`` but their NFKC forms are equal, else None.
    """
    if a != b and unicodedata.normalize("NFKC", a) == unicodedata.normalize("NFKC", b):
        return "NFKC"
    return None


_NO_FORM = ("_", "")


def same_words(forms: Sequence[Sequence[str]]) -> bool:
    """Are these annotations of the same words, so that words pair by position?

    The same number of words, and at every position the same form
    (`comparable`) wherever the annotations give one (``_`` matches any
    form).  The word-by-word scores (LAS/UAS/LA, token layers) compare only
    such annotations (docs/method.md §1.8, §6.1): a unit whose texts differ by
    an edit is left out even when the word counts agree.

    Parameters
    ----------
    forms : sequence of sequence of str
        The forms of each annotation.
    """
    first = forms[0]
    n = len(first)
    if any(len(f) != n for f in forms[1:]):
        return False
    rest = [f for f in forms[1:] if f != first]  # lists compared in C: the usual case
    if not rest:
        return True
    for column in zip(first, *rest):
        seen = {comparable(x) for x in column if x not in _NO_FORM}
        seen.discard("")
        if len(seen) > 1:
            return False
    return True
