"""The main computation: read → trees → distances → statistics.

:func:`agree` is what ``synagree agree`` runs.  It returns an
:class:`AgreementResult` holding counts (not only ratios); rendering lives in
:mod:`synagree.report`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from synagree._version import __version__
from synagree.agreement.caveats import add_ted_zero_counts
from synagree.base.memory import DEFAULT_MAX_MEMORY, check_resampling
from synagree.base.problems import InputError, Problem
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus, from_dirs, from_files
from synagree.stats.alpha import (
    VARIANTS,
    AlphaStats,
    TreeAlpha,
    sampling_plan,
    tree_alpha,
)
from synagree.stats.attachment import Counts, attachment_scores, jaccard_scores
from synagree.stats.bootstrap import bootstrap as _bootstrap
from synagree.trees.flat import FlatTree, Vocabulary, build_trees


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
    # Further metrics added by feature modules (hierarchical credit, CIs, ...):
    # name -> number (fraction) or None; rendered after the core rows, and
    # written to JSON under the same keys at the top level.
    extra: Dict[str, Optional[float]] = field(default_factory=dict)
    extra_details: Dict[str, object] = field(default_factory=dict)
    bootstrap: Optional[object] = None  # synagree.stats.bootstrap.BootstrapResult
    # the trees behind alpha: trees[k][i] is corpus.units[k]'s i-th annotation
    # in annotator order (Unit.ordered), label ids from ``vocab``
    trees: List[List[FlatTree]] = field(default_factory=list)
    vocab: Optional[Vocabulary] = None

    def alpha_value(self, variant: str) -> Optional[float]:
        st = self.alpha.get(variant)
        return None if st is None else st.alpha

    @property
    def score_names(self) -> List[str]:
        return ["jaccard"] if self.kind == "phrase" else ["las", "uas", "la"]

    def to_dict(self) -> dict:
        """Stable JSON-ready keys; see README ("JSON output")."""
        d: dict = {"synagree_version": __version__, "kind": self.kind}
        if self.corpus is not None:
            d.update(self.corpus.settings())
        for v in VARIANTS:
            if v in self.alpha:
                d[f"alpha_{v}"] = self.alpha[v].alpha
        for m in self.score_names:
            d[m] = self.scores.ratio(m)
        ci = (self.extra_details.get("ci") or {}) if self.extra_details else {}
        for name, interval in ci.items():
            d[f"{name}_ci"] = interval
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
            **{k: v for k, v in self.extra.items()},
            "details": dict(self.extra_details),
            "notes": list(self.notes),
            "warnings": [p.as_dict() for p in self.warnings],
        })
        return d


def load_corpus(paths: Sequence["str | os.PathLike"] = (), dirs: Sequence = (),
                fmt: str = "auto", phrase_style: str = "auto", strict: bool = False,
                allow_missing: bool = False, names: Optional[Sequence[str]] = None,
                check_text: bool = True) -> Corpus:
    """Read annotations from files (one per annotator) or annotator directories.

    Units are matched and checked as :mod:`synagree.corpus` describes:
    by ``# sent_id`` when every sentence carries one, else by position; every
    unit's annotations must be of the same text unless ``check_text`` is
    false.  ``names`` (files only): one annotator name per file.
    """
    if dirs:
        if names:
            raise InputError.single("<command line>", None, "usage",
                                    "--names goes with files; with --dirs the directory "
                                    "names are the annotator names")
        return from_dirs(dirs, fmt=fmt, phrase_style=phrase_style, strict=strict,
                         allow_missing=allow_missing, check_text=check_text)
    return from_files(paths, names=names, fmt=fmt, phrase_style=phrase_style, strict=strict,
                      allow_missing=allow_missing, check_text=check_text)


def agree_corpus(corpus: Corpus, variants: Sequence[str] = VARIANTS, *,
                 bootstrap: int = 0, seed: int = 0, level: float = 0.95,
                 sample_pairs: Optional[int] = None, exact: bool = False,
                 executor=None, progress: Optional[bool] = None,
                 max_memory: int = DEFAULT_MAX_MEMORY) -> AgreementResult:
    """α (requested variants) and the uncorrected scores for an assembled corpus.

    ``bootstrap``: number of unit-resampling replicates for percentile CIs
    (at ``level``, seeded by ``seed``); ``sample_pairs``: estimate D_e from
    that many random pairs (automatic above :data:`AUTO_SAMPLE_THRESHOLD`
    annotations unless ``exact``); ``executor``: run the all-pairs tiles
    elsewhere (see :mod:`synagree.dask_exec`); ``progress``: progress bar on
    stderr (only when it is a terminal); ``max_memory``: bytes the bootstrap's
    unit x unit tables may take (planned before any work, see
    :mod:`synagree.memory`).
    """
    vocab = Vocabulary()
    ann_lists = corpus.annotation_lists()
    tree_units = build_trees(ann_lists, vocab)  # one compiled pass for large corpora
    n_pairable = sum(len(u) for u in tree_units if len(u) >= 2)
    # the bootstrap needs the exact unit x unit sums
    sample_pairs, target_se, auto_note = sampling_plan(n_pairable, sample_pairs,
                                                       exact or bool(bootstrap))
    if bootstrap and sample_pairs:
        raise ValueError("the bootstrap needs exact D_e sums: do not combine it with "
                         "sampled pairs (use --exact)")
    if bootstrap:
        check_resampling(sum(1 for u in tree_units if len(u) >= 2), bootstrap, 1, max_memory)
    ta = tree_alpha(tree_units, variants, keep_unit_matrix=bool(bootstrap),
                    sample_pairs=sample_pairs, seed=seed, executor=executor,
                    progress=progress, target_se=target_se, full_rows=True)
    if corpus.kind == "phrase":
        scores = jaccard_scores(ann_lists)
    else:
        scores = attachment_scores(ann_lists)
    boot = None
    details: Dict[str, object] = {}
    if bootstrap and ta.sums is not None and ta.sums.m.shape[0] > 0:
        correct, total = scores.unit_arrays()
        boot = _bootstrap(ta.sums, B=bootstrap, seed=seed, level=level, variants=variants,
                          correct=correct, total=total)
        cis = {name: boot.ci(name) for name in boot.replicates}
        details["bootstrap"] = {"replicates": bootstrap, "seed": seed, "level": level}
        details["ci"] = {name: list(ci) if ci else None for name, ci in cis.items()}
        for v, st in ta.stats.items():
            st.ci = cis[f"alpha_{v}"]
    dep = [s for anns in ann_lists for s in anns if isinstance(s, DepSentence)]
    multi = sum(1 for s in dep if s.n_roots > 1)
    cycles = sum(1 for p in corpus.log.problems if p.kind == "cycle")
    notes = list(corpus.notes) + [n for st in ta.stats.values() for n in st.notes]
    if auto_note:
        notes.insert(0, auto_note)
    if scores.ignored:
        notes.append(f"{scores.ignored} unit(s) whose annotations differ in word count were "
                     f"left out of LAS/UAS/LA (they still count in alpha)")
    if multi:
        notes.append(f"{multi} annotation(s) have several root words; all hang from the "
                     f"artificial root")
    if cycles:
        notes.append(f"{cycles} annotation(s) have words on a head cycle: those words are "
                     f"left out of the TED tree but counted in |t| and LAS/UAS/LA "
                     f"(docs/method.md §2.4)")
    extra: Dict[str, Optional[float]] = {f"alpha_{v}_se": st.alpha_se
                                         for v, st in ta.stats.items()
                                         if st.alpha_se is not None}
    any_stats = next(iter(ta.stats.values()))
    res = AgreementResult(
        kind=corpus.kind, annotators=list(corpus.annotators), units_total=len(ann_lists),
        units=any_stats.units, annotations=any_stats.n, alpha=ta.stats,
        scores=scores, multi_root=multi, cycle_sentences=cycles,
        distinct_trees=ta.n_distinct, warnings=list(corpus.log.warnings), notes=notes,
        tree_alpha=ta, corpus=corpus, extra=extra, extra_details=details, bootstrap=boot,
        trees=tree_units, vocab=vocab)
    add_ted_zero_counts(res)  # pairs with TED 0 but different heads (always, it is cheap)
    return res


def agree(paths: Sequence["str | os.PathLike"] = (), dirs: Sequence = (),
          fmt: str = "auto", phrase_style: str = "auto",
          variants: Sequence[str] = VARIANTS, strict: bool = False,
          allow_missing: bool = False,
          names: Optional[Sequence[str]] = None, check_text: bool = True,
          **options) -> AgreementResult:
    """Agreement between annotators: α_plain/α_diff/α_norm plus LAS/UAS/LA (or Jaccard).

    ``paths``: one file per annotator; or ``dirs``: one directory per
    annotator.  ``fmt``: ``auto`` | ``conllu`` | ``phrase``.  ``strict``
    turns warnings (head cycles, missing labels) into errors.  Raises
    :class:`synagree.base.problems.InputError` on bad input.  Further keyword
    ``options`` (``bootstrap``, ``seed``, ``level``, ``sample_pairs``,
    ``exact``, ``executor``, ``progress``) go to :func:`agree_corpus`.
    """
    corpus = load_corpus(paths, dirs, fmt=fmt, phrase_style=phrase_style, strict=strict,
                         allow_missing=allow_missing, names=names, check_text=check_text)
    return agree_corpus(corpus, variants, **options)
