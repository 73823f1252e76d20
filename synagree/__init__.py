"""synagree: chance-corrected agreement for syntactic annotation.

Krippendorff's α over tree edit distance (Skjærholt 2014) in three variants
(plain, diff, norm), for dependency and phrase-structure trees, beside
LAS/UAS/label accuracy; conventions in ``docs/method.md``.

The package is layered, data flowing one way::

    base -> io -> trees -> distance -> stats -> agreement | evaluation | noise -> render -> cli

The names below are loaded on first use, so that ``import synagree`` (and
``synagree --help``) stays light.

Examples
--------
>>> import synagree
>>> synagree.__version__
'0.1.0'
"""
from __future__ import annotations

import importlib
from typing import Any, List

from synagree._version import __version__

# public name -> module that defines it
_EXPORTS = {
    "agree": "synagree.agreement.agree",
    "agree_corpus": "synagree.agreement.agree",
    "load_corpus": "synagree.agreement.agree",
    "read": "synagree.io.read",
    "AgreementResult": "synagree.agreement.agree",
    "AlphaStats": "synagree.stats.alpha",
    "krippendorff_alpha": "synagree.stats.krippendorff",
    "ted": "synagree.distance.tree_pairs",
    "tree_alpha": "synagree.stats.alpha",
    "InputError": "synagree.base.problems",
    "Problem": "synagree.base.problems",
    "ProblemLog": "synagree.base.problems",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'synagree' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(__all__)
