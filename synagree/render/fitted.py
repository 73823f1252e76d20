"""A `Document` of the table model written in one format, the text fitted to the terminal.

Kept for the modules that import it (the human band, the pre-annotation and
the planning tables): `synagree.render.writers` now fits every text table
itself (`synagree.render.writers.text`), so these are its functions under
their earlier names.
"""
from __future__ import annotations

from typing import Optional

from synagree.base.table import Document, Table
from synagree.render import writers

__all__ = ["fitted_text", "write_document", "FORMATS"]

FORMATS = writers.FORMATS


def fitted_text(table: Table, width: Optional[int] = None) -> str:
    """One table as aligned text at most ``width`` columns wide (`writers.text`)."""
    return writers.text(table, width)


def write_document(doc: Document, fmt: str, width: Optional[int] = None) -> str:
    """``doc`` in one of `FORMATS` (`writers.write`; ``table`` fitted to ``width``)."""
    return writers.write(doc, fmt, width)
