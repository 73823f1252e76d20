"""Whole numbers as files and settings write them: ASCII digits only.

``str.isdigit()`` is also true of '²' and '①', which ``int()`` refuses (an
internal error where a reader trusted it), and of '١' (Arabic-Indic one), which
``int()`` reads, silently.  Every reader and setting that takes a whole number
checks it with `ascii_digits` first, so both are the input's errors.
"""
from __future__ import annotations

__all__ = ["ascii_digits"]


def ascii_digits(text: str) -> bool:
    """Is ``text`` one or more ASCII digits (0-9), nothing else?

    Examples
    --------
    >>> ascii_digits("42"), ascii_digits("4\\u00b2"), ascii_digits("\\u0661"), ascii_digits("")
    (True, False, False, False)
    """
    return text.isascii() and text.isdigit()
