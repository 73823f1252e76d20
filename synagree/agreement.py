"""The main computation: read → trees → distances → statistics.

:func:`agree` is what ``synagree agree`` runs.  It returns an
:class:`AgreementResult` holding counts (not only ratios); rendering lives in
:mod:`synagree.report`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from . import __version__
from .alpha import VARIANTS, AlphaStats, TreeAlpha, tree_alpha
from .attachment import Counts, attachment_scores, jaccard_scores
from .corpus import Corpus, from_dirs, from_files
from .problems import Problem
from .readers import DepSentence
from .trees import Vocabulary, build_tree


@dataclass
class AgreementResult:
    """Agreement over a corpus.  Ratios are fractions (not percent)."""

    kind: str  # "dependency" | "phrase"
    annotators: List[str]
    units_total: int  # all units read
    units: int  # pairable units (≥ 2 annotations)
    annotations: int  # pairable values n
    alpha: Dict[str, AlphaStats]
    scores: Counts  # LAS/UAS/LA or Jaccard
    multi_root: int  # annotations with more than one root word
    cycle_sentences: int  # annotations with words on a head cycle
    distinct_trees: int
    warnings: List[Problem] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    tree_alpha: Optional[TreeAlpha] = None
    corpus: Optional[Corpus] = None

    def alpha_value(self, variant: str) -> Optional[float]:
        st = self.alpha.get(variant)
        return None if st is None else st.alpha

    @property
    def score_names(self) -> List[str]:
        return ["jaccard"] if self.kind == "phrase" else ["las", "uas", "la"]

    def to_dict(self) -> dict:
        """Stable JSON-ready keys; see README ("JSON output")."""
        d: dict = {"synagree_version": __version__, "kind": self.kind}
        for v in VARIANTS:
            if v in self.alpha:
                d[f"alpha_{v}"] = self.alpha[v].alpha
        for m in self.score_names:
            d[m] = self.scores.ratio(m)
        d.update({
            "units": self.units,
            "units_total": self.units_total,
            "annotations": self.annotations,
            "annotators": len(self.annotators),
            "annotator_names": list(self.annotators),
            "ignored": self.scores.ignored,
            "multi_root": self.multi_root,
            "cycle_sentences": self.cycle_sentences,
            "distinct_trees": self.distinct_trees,
            "counts": {
                **{f"alpha_{v}": {"do_sum": s.do_sum, "de_sum": s.de_sum, "n": s.n,
                                  "d_o": s.d_o, "d_e": s.d_e}
                   for v, s in self.alpha.items()},
                "scores": {"correct": dict(self.scores.correct), "total": self.scores.total,
                           "units": self.scores.units},
            },
            "notes": list(self.notes),
            "warnings": [p.as_dict() for p in self.warnings],
        })
        return d


def load_corpus(paths: Sequence["str | os.PathLike"] = (), dirs: Sequence = (),
                fmt: str = "auto", phrase_style: str = "auto", strict: bool = False,
                allow_missing: bool = False, names: Optional[Sequence[str]] = None) -> Corpus:
    """Read annotations from files (one per annotator) or annotator directories."""
    if dirs:
        return from_dirs(dirs, fmt=fmt, phrase_style=phrase_style, strict=strict)
    return from_files(paths, names=names, fmt=fmt, phrase_style=phrase_style, strict=strict,
                      allow_missing=allow_missing)


def agree_corpus(corpus: Corpus, variants: Sequence[str] = VARIANTS) -> AgreementResult:
    """α (requested variants) and the uncorrected scores for an assembled corpus."""
    vocab = Vocabulary()
    ann_lists = corpus.annotation_lists()
    tree_units = [[build_tree(s, vocab) for s in anns] for anns in ann_lists]
    ta = tree_alpha(tree_units, variants)
    if corpus.kind == "phrase":
        scores = jaccard_scores(ann_lists)
    else:
        scores = attachment_scores(ann_lists)
    dep = [s for anns in ann_lists for s in anns if isinstance(s, DepSentence)]
    multi = sum(1 for s in dep if s.n_roots > 1)
    cycles = sum(1 for p in corpus.log.problems if p.kind == "cycle")
    notes = [n for st in ta.stats.values() for n in st.notes]
    if scores.ignored:
        notes.append(f"{scores.ignored} unit(s) whose annotations differ in word count were "
                     f"left out of LAS/UAS/LA (they still count in alpha)")
    if multi:
        notes.append(f"{multi} annotation(s) have several root words; all hang from the "
                     f"artificial root")
    if cycles:
        notes.append(f"{cycles} annotation(s) have words on a head cycle: those words are "
                     f"left out of the TED tree but counted in |t| and LAS/UAS/LA (SPEC §2)")
    pairable = [u for u in ann_lists if len(u) >= 2]
    return AgreementResult(
        kind=corpus.kind, annotators=list(corpus.annotators), units_total=len(ann_lists),
        units=len(pairable), annotations=sum(len(u) for u in pairable), alpha=ta.stats,
        scores=scores, multi_root=multi, cycle_sentences=cycles,
        distinct_trees=ta.n_distinct, warnings=list(corpus.log.warnings), notes=notes,
        tree_alpha=ta, corpus=corpus)


def agree(paths: Sequence["str | os.PathLike"] = (), dirs: Sequence = (),
          fmt: str = "auto", phrase_style: str = "auto",
          variants: Sequence[str] = VARIANTS, strict: bool = False,
          allow_missing: bool = False,
          names: Optional[Sequence[str]] = None) -> AgreementResult:
    """Agreement between annotators: α_plain/α_diff/α_norm plus LAS/UAS/LA (or Jaccard).

    ``paths``: one file per annotator; or ``dirs``: one directory per
    annotator.  ``fmt``: ``auto`` | ``conllu`` | ``phrase``.  ``strict``
    turns warnings (head cycles, missing labels) into errors.  Raises
    :class:`synagree.problems.InputError` on bad input.
    """
    corpus = load_corpus(paths, dirs, fmt=fmt, phrase_style=phrase_style, strict=strict,
                         allow_missing=allow_missing, names=names)
    return agree_corpus(corpus, variants)
