"""What counts as the same text when annotations of a unit are compared."""
from __future__ import annotations


def comparable(text: str) -> str:
    """Text for the identity check: whitespace removed, and an underscore inside
    a form read as a space (CoNLL-X treebanks write ``New_York`` for a
    multiword unit that another annotation may split)."""
    return "".join(text.replace("_", " ").split())
