"""What counts as the same text when annotations of a unit are compared."""
from __future__ import annotations


def comparable(text: str) -> str:
    """Text for the identity check of a unit's annotations (docs/method.md §1.5).

    Whitespace is removed, and an underscore inside a form is read as a space
    (CoNLL-X treebanks write ``New_York`` for a multiword unit that another
    annotation may split).

    Parameters
    ----------
    text : str

    Returns
    -------
    str

    Examples
    --------
    >>> comparable("New_York is big"), comparable("New York  is big")
    ('NewYorkisbig', 'NewYorkisbig')
    """
    return "".join(text.replace("_", " ").split())
