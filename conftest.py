"""Doctest set-up shared by every docstring example of the package.

The names below are in every example's namespace, so that an example shows
what it computes rather than the same imports again (numpy's ``np``
convention, extended to the project's corpus builders).
"""
from __future__ import annotations

import numpy as np
import pytest

from synagree.agreement.agree import agree_corpus
from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus

DOCTEST_NAMES = dict(np=np, DepSentence=DepSentence, Corpus=Corpus, PhraseNode=PhraseNode,
                     PhraseSentence=PhraseSentence, agree_corpus=agree_corpus)


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace: dict) -> None:
    doctest_namespace.update(DOCTEST_NAMES)
