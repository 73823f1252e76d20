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

from synagree._version import __version__

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, List

# public name -> "module" or "module:attribute" that defines it.  Everything else
# in the package is implementation (docs/api.md says so).
_EXPORTS = {
    # one call per command
    "agree": "synagree.agreement.agree",
    "compare": "synagree.evaluation.compare",
    "compare_parseval": "synagree.evaluation.parseval_compare",
    "tags": "synagree.evaluation.tags:evaluate_tags",
    "categorical": "synagree.api",
    "report": "synagree.api",
    "adjudicate": "synagree.api",
    # (synagree.noise is the subpackage of the noise experiment, hence the longer name)
    "noise_experiment": "synagree.api",
    "alt_test": "synagree.agreement.alt_test",
    "alt_test_labels": "synagree.agreement.alt_test",
    "read": "synagree.io.read",
    "ted": "synagree.distance.tree_pairs",
    "krippendorff_alpha": "synagree.stats.krippendorff",
    # a corpus read once, computed on many times
    "load_corpus": "synagree.agreement.agree",
    "agree_corpus": "synagree.agreement.agree",
    "adjudicate_corpus": "synagree.agreement.adjudicate",
    "tree_alpha": "synagree.stats.alpha",
    # the options of each command (one frozen, validated object; keywords override it)
    "AgreeOptions": "synagree.base.command_options",
    "CompareOptions": "synagree.base.compare_options",
    "ParsevalOptions": "synagree.base.command_options",
    "TagsOptions": "synagree.base.command_options",
    "CategoricalOptions": "synagree.base.command_options",
    "ReportOptions": "synagree.base.command_options",
    "NoiseOptions": "synagree.base.command_options",
    # the results
    "AgreementResult": "synagree.agreement.agree",
    "AdjudicationResult": "synagree.agreement.adjudicate",
    "CompareResult": "synagree.evaluation.compare",
    "ParsevalComparison": "synagree.evaluation.parseval_compare",
    "TagsResult": "synagree.evaluation.tags",
    "TokenLayerAgreement": "synagree.agreement.token_layers",
    "AltTestResult": "synagree.stats.alt_test",
    "Report": "synagree.api",
    "ExperimentOutcome": "synagree.noise.experiments",
    "Alpha": "synagree.stats.krippendorff",
    "AlphaStats": "synagree.stats.alpha",
    # the errors
    "InputError": "synagree.base.problems",
    "Problem": "synagree.base.problems",
    "ProblemLog": "synagree.base.problems",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    where = _EXPORTS.get(name)
    if where is None:
        raise AttributeError(f"module 'synagree' has no attribute {name!r}")
    module, _, attribute = where.partition(":")
    value = getattr(importlib.import_module(module), attribute or name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(__all__)
