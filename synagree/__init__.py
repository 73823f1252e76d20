"""synagree: chance-corrected agreement for syntactic annotation.

Krippendorff's α over tree edit distance (Skjærholt 2014) in three variants
(plain, diff, norm), for dependency and phrase-structure trees, beside
LAS/UAS/label accuracy.  See ``SPEC.md`` conventions in the README.

Quick start::

    import synagree
    res = synagree.agree(["a.conllu", "b.conllu"])
    res.alpha_value("plain"), res.scores.ratio("las")
"""
__version__ = "0.1.0"

from synagree.base.problems import InputError, Problem, ProblemLog
from synagree.agreement.agree import AgreementResult, agree, agree_corpus, load_corpus
from synagree.stats.alpha import AlphaStats, krippendorff_alpha, tree_alpha

__all__ = ["__version__", "agree", "agree_corpus", "load_corpus", "AgreementResult",
           "AlphaStats", "krippendorff_alpha", "tree_alpha", "InputError", "Problem",
           "ProblemLog"]
