"""How units are cut into batches (``--by``, ``agree(by=...)``): `Grouping` and `parse_by`.

Plain data and one parser, no numpy: the command line checks ``--by`` with
`parse_by` while it parses its options (``synagree agree --help`` imports nothing
that computes: issue 36), and `synagree.agreement.drift` computes with the result.
"""
from __future__ import annotations

from dataclasses import dataclass

from synagree.base.numbers import ascii_digits

__all__ = ["Grouping", "parse_by"]


@dataclass(frozen=True)
class Grouping:
    """How units are cut into batches: ``batch``, ``document`` or ``order`` (of ``size``)."""

    kind: str
    size: int = 0

    def describe(self) -> str:
        """``batch``, ``document`` or ``order:N``."""
        return f"order:{self.size}" if self.kind == "order" else self.kind


def parse_by(text: str) -> Grouping:
    """``batch``, ``document`` or ``order:N`` (N a whole number ≥ 1) as a `Grouping`.

    Raises
    ------
    ValueError
        Anything else (the message names the allowed forms).

    Examples
    --------
    >>> parse_by("order:50")
    Grouping(kind='order', size=50)
    >>> parse_by("order:0")
    Traceback (most recent call last):
    ...
    ValueError: expected batch, document or order:N with N a whole number from 1, got 'order:0'
    """
    t = text.strip()
    if t in ("batch", "document"):
        return Grouping(t)
    if t.startswith("order:"):
        n = t[len("order:"):]
        if ascii_digits(n) and int(n) >= 1:
            return Grouping("order", int(n))
    raise ValueError(f"expected batch, document or order:N with N a whole number from 1, "
                     f"got {text!r}")
