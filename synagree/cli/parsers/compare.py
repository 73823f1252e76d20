"""The options of ``synagree compare``: `synagree.cli.compare.register`.

That module is light as a whole (each input path imports its own computing modules
when it runs: PARSEVAL must stay within the compiled EVALB's time), so it is its own
parser part.
"""
from __future__ import annotations

from synagree.cli.compare import register

__all__ = ["register"]
