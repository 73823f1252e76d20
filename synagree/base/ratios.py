"""Ratios of counts, with a stated value over nothing.

`ratio` divides; `Share` declares a record's derived ratio by the names of
its counts (``accuracy = Share("correct", "words")``) instead of a property
each, so every accuracy, share, precision, recall and F1 of a tally is
computed the same way.  Over nothing (a denominator of 0) a ratio is
``empty``: NaN where it is undefined, 0.0 where a convention says so
(scikit-learn's ``zero_division=0``, the CoNLL 2018 scorer).
"""
from __future__ import annotations

import math
from typing import Any, Optional, Tuple, overload

__all__ = ["ratio", "Share", "OptionalShare", "prf_shares"]


def ratio(num: float, den: float, empty: float = math.nan) -> float:
    """``num / den``, or ``empty`` when ``den`` is 0."""
    return num / den if den else empty


class Share:
    """A derived ratio of a record: ``scale · numerator / (sum of the denominators)``.

    Parameters
    ----------
    num : str
        The attribute holding the numerator.
    *den : str
        The attributes whose sum is the denominator.
    scale : float
        2 for an F1 (``2 · correct / (gold + system)``).
    empty : float
        The value when the denominator is 0.
    """

    def __init__(self, num: str, *den: str, scale: float = 1, empty: float = math.nan):
        self.num, self.den, self.scale, self.empty = num, den, scale, empty
        top = num if scale == 1 else f"{scale:g}·{num}"
        bottom = den[0] if len(den) == 1 else f"({' + '.join(den)})"
        self.__doc__ = f"{top} / {bottom} ({empty} over nothing)"  # what help() shows

    def _value(self, obj: Any) -> Optional[float]:
        num = getattr(obj, self.num)
        if num is None:
            return None
        return ratio(self.scale * num, sum(getattr(obj, d) for d in self.den), self.empty)

    @overload
    def __get__(self, obj: None, owner: type) -> "Share": ...

    @overload
    def __get__(self, obj: object, owner: type) -> float: ...

    def __get__(self, obj: Optional[object], owner: type) -> Any:
        if obj is None:
            return self
        return self._value(obj)


def prf_shares(correct: str, gold: str, system: str, empty: float = math.nan
               ) -> Tuple[Share, Share, Share]:
    """``(precision, recall, f1)`` of a tally, by the names of its counts:
    correct / system, correct / gold, 2·correct / (gold + system)."""
    return (Share(correct, system, empty=empty), Share(correct, gold, empty=empty),
            Share(correct, gold, system, scale=2, empty=empty))


class OptionalShare(Share):
    """A `Share` whose numerator may be None (not computed): then the share is None."""

    @overload  # type: ignore[override]
    def __get__(self, obj: None, owner: type) -> "OptionalShare": ...

    @overload
    def __get__(self, obj: object, owner: type) -> Optional[float]: ...

    def __get__(self, obj: Optional[object], owner: type) -> Any:
        if obj is None:
            return self
        return self._value(obj)
