"""Immutable results: a result is sealed before a public function returns it.

The public result types (`synagree.agreement.agree.AgreementResult`,
`synagree.evaluation.compare.CompareResult`, ... : every `synagree.base.frames.Frames`)
are dataclasses built step by step by their command (a section at a time);
once finished and handed to the caller, `seal` makes them read-only: assigning
or deleting a field raises ``dataclasses.FrozenInstanceError``, as on a frozen
dataclass.  ``dataclasses.replace(result, field=value)`` makes a changed copy
(unsealed), the way to derive a result from another.  The results held in a
sealed result's fields (an `AlphaStats` per variant, each system of a
comparison, ...) are sealed with it.

Examples
--------
>>> from dataclasses import dataclass
>>> @dataclass
... class R(Sealed):
...     x: int
>>> r = seal(R(1))
>>> r.x = 2  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x': a R is immutable once returned ...
"""
from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["Sealed", "seal", "is_sealed"]

T = TypeVar("T")
_FLAG = "_sealed_"


class Sealed:
    """Mixin: assignment raises once the object is sealed (`seal`)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get(_FLAG):
            raise dataclasses.FrozenInstanceError(
                f"cannot assign to field {name!r}: a {type(self).__name__} is immutable once "
                f"returned (dataclasses.replace(result, {name}=...) makes a changed copy)")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if self.__dict__.get(_FLAG):
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}: a "
                                                  f"{type(self).__name__} is immutable")
        object.__delattr__(self, name)


def is_sealed(obj: object) -> bool:
    """Has ``obj`` been sealed?"""
    return bool(getattr(obj, "__dict__", {}).get(_FLAG))


def seal(obj: T, _depth: int = 0) -> T:
    """Seal ``obj`` and the `Sealed` results in its fields (in lists, tuples and dicts too).

    Returns ``obj``.  Objects that are not `Sealed` are left as they are.
    """
    if _depth > 4 or not isinstance(obj, Sealed) or is_sealed(obj):
        return obj
    if dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name, None)
            items = (value.values() if isinstance(value, dict)
                     else value if isinstance(value, (list, tuple)) else (value,))
            for item in items:
                if isinstance(item, Sealed):
                    seal(item, _depth + 1)
    object.__setattr__(obj, _FLAG, True)
    return obj
