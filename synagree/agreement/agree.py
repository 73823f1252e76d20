"""The main computation: read → trees → distances → statistics.

`agree` is what ``synagree agree`` runs.  It returns an
`AgreementResult` holding counts (not only ratios); rendering lives in
`synagree.render`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, cast

from synagree._version import __version__
from synagree.agreement.caveats import add_ted_zero_counts
from synagree.base.memory import DEFAULT_MAX_MEMORY, check_resampling
from synagree.base.problems import InputError, Problem
from synagree.io.brackets import PhraseSentence
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
    """Agreement over a corpus: α per variant, the uncorrected scores, and counts.

    Returned by `agree` and `agree_corpus`.  Ratios are fractions in [0, 1]
    (not percent); α is kept as sums (`AlphaStats`) so that it can be merged
    and checked (docs/method.md §5).

    Attributes
    ----------
    kind : str
        ``"dependency"`` or ``"phrase"``.
    annotators : list of str
        Annotator names, in corpus order.
    units_total : int
        All units read, including those with fewer than two annotations.
    units : int
        Pairable units (two or more annotations).
    annotations : int
        Pairable values n (annotations of the pairable units).
    alpha : dict of str to AlphaStats
        α per variant (``"plain"``, ``"diff"``, ``"norm"``; docs/method.md §4).
    scores : Counts
        LAS/UAS/LA (dependency) or bracket Jaccard (phrase), as counts
        (docs/method.md §6).
    multi_root : int
        Annotations with more than one word attached to the root.
    cycle_sentences : int
        Annotations with words on a head cycle (docs/method.md §2.4).
    distinct_trees : int
        Distinct labelled trees among the pairable annotations.
    warnings : list of Problem
        Input warnings gathered while reading.
    notes : list of str
        What a reader of the result must know (degenerate α, sampling, ...).
    tree_alpha : TreeAlpha or None
        The distances behind α (per-unit TED matrices, per-unit sums).
    corpus : Corpus or None
        The corpus the result was computed from.
    extra, extra_details : dict
        Metrics added by feature modules (hierarchical credit, CIs, TED-0
        counts, ...): name to a fraction or None, and structured details.
    bootstrap : BootstrapResult or None
        The bootstrap replicates, when requested.
    trees : list of list of FlatTree
        ``trees[k][i]``: the i-th annotation of ``corpus.units[k]`` in
        annotator order.
    vocab : Vocabulary or None
        Label ids of ``trees``.

    See Also
    --------
    agree, agree_corpus

    Examples
    --------
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus
    >>> s = DepSentence.from_heads
    >>> corpus = Corpus.from_annotations(
    ...     {"a": [s([2, 0, 2], "nsubj root obj"), s([0, 1, 2], "root dep dep")],
    ...      "b": [s([2, 0, 2], "nsubj root iobj"), s([0, 1, 2], "root dep dep")]})
    >>> res = agree_corpus(corpus)
    >>> res.units, res.annotations, res.distinct_trees
    (2, 4, 3)
    >>> round(res.alpha_value("plain"), 4), round(res.scores.ratio("las"), 4)
    (0.9189, 0.8333)
    >>> d = res.to_dict()
    >>> d["kind"], d["units"], round(d["alpha_plain"], 4)
    ('dependency', 2, 0.9189)
    """

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
    # how the numbers were computed (variants, distance, labels, D_e, matching,
    # bootstrap, version): printed with every output, see signature()
    settings: Dict[str, str] = field(default_factory=dict)
    bootstrap: Optional[object] = None  # synagree.stats.bootstrap.BootstrapResult
    # the trees behind alpha: trees[k][i] is corpus.units[k]'s i-th annotation
    # in annotator order (Unit.ordered), label ids from ``vocab``
    trees: List[List[FlatTree]] = field(default_factory=list)
    vocab: Optional[Vocabulary] = None

    def alpha_value(self, variant: str) -> Optional[float]:
        """α of ``variant`` (``"plain"``, ``"diff"``, ``"norm"``); None if undefined."""
        st = self.alpha.get(variant)
        return None if st is None else st.alpha

    @property
    def score_names(self) -> List[str]:
        """The uncorrected scores of this kind: ``["las", "uas", "la"]`` or ``["jaccard"]``."""
        return ["jaccard"] if self.kind == "phrase" else ["las", "uas", "la"]

    def add_alpha_metrics(self, ta: TreeAlpha, suffix: str) -> Dict[str, dict]:
        """Record a further α computation (other trees or costs) as metrics
        ``alpha_{variant}{suffix}`` in ``extra`` (with SEs when sampled) and its
        notes; returns the sums behind each, for ``extra_details``."""
        counts: Dict[str, dict] = {}
        for v, st in ta.stats.items():
            key = f"alpha_{v}{suffix}"
            self.extra[key] = st.alpha
            counts[key] = {"do_sum": st.do_sum, "de_sum": st.de_sum, "n": st.n,
                           "d_o": st.d_o, "d_e": st.d_e}
            if st.alpha_se is not None:
                self.extra[f"{key}_se"] = st.alpha_se
            self.notes.extend(n.replace(f"alpha_{v}:", f"{key}:", 1) for n in st.notes)
        return counts

    def signature(self) -> str:
        """The settings as one line, ``key:value|key:value|...`` (like sacrebleu's):
        two published numbers are comparable when their signatures are equal."""
        return "|".join(f"{k}:{v}" for k, v in self.settings.items())

    def to_dict(self) -> dict:
        """The result as JSON-ready data with stable keys (see docs/output.md).

        Returns
        -------
        dict
            ``alpha_plain``, ``alpha_diff``, ``alpha_norm``, the scores (``las``,
            ``uas``, ``la`` or ``jaccard``, fractions), counts of units and
            annotations, the sums behind every α under ``counts``, the ``extra``
            metrics at the top level, ``details``, ``notes`` and ``warnings``.
        """
        d: dict = {"synagree_version": __version__, "kind": self.kind,
                   "settings": dict(self.settings), "signature": self.signature()}
        if self.corpus is not None:
            d.update(self.corpus.settings())
            d.update(self.corpus.unit_counts())  # joined_units, edited_units (§1.7–1.8)
        for v in VARIANTS:
            if v in self.alpha:
                d[f"alpha_{v}"] = self.alpha[v].alpha
        for m in self.score_names:
            d[m] = self.scores.ratio(m)
        # extra_details["ci"]: name -> [low, high] or None, as agree_corpus sets it
        ci = cast(Dict[str, object],
                  (self.extra_details.get("ci") or {}) if self.extra_details else {})
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
                check_text: bool = True, match: str = "auto") -> Corpus:
    """Read annotations from files (one per annotator) or annotator directories.

    Units are matched and checked as `synagree.io.corpus` describes
    (docs/method.md §1.4–1.5, §1.7–1.9): as ``match`` says (by default by
    ``# sent_id`` when every sentence carries one, else by position, joining
    sentences that annotators split differently); every unit's annotations
    must be of the same text, or of one text with local edits, unless
    ``check_text`` is false.

    Parameters
    ----------
    paths : sequence of str or path-like
        One annotation file per annotator (two or more); ignored when ``dirs``
        is given.
    dirs : sequence of str or path-like
        One directory per annotator, named after the annotator; files are
        matched by name into documents.
    fmt : {"auto", "conllu", "phrase"}
        Input format; ``"auto"`` decides per file (docs/method.md §1.2).
    phrase_style : {"auto", "penn", "delex"}
        How bare strings of bracketed trees are read (docs/method.md §1.6).
    strict : bool
        Turn warnings (head cycles, missing labels) into errors.
    allow_missing : bool
        Accept sentences (or, with ``dirs``, documents) that some annotators
        lack; needs ``# sent_id`` when matching files.
    names : sequence of str, optional
        One annotator name per file (files only); None: the file stems.
    check_text : bool
        Check that the annotations of each unit are of the same text.
    match : {"auto", "sent_id", "position", "text"}
        How sentences are matched into units (`synagree.io.matching`).

    Returns
    -------
    Corpus
        Units × annotators, with how they were matched.

    Raises
    ------
    InputError
        Bad or inconsistent input (every problem of every file gathered first),
        or ``names`` given together with ``dirs``.

    See Also
    --------
    synagree.io.corpus.from_files, synagree.io.corpus.from_dirs, agree_corpus

    Examples
    --------
    >>> import os, shutil, tempfile
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence, write_conllu
    >>> def s(rels):
    ...     return DepSentence("-", 0, 1, ["I", "saw", "her"], np.array([2, 0, 2]), rels,
    ...                        metadata={"sent_id": "s1"})
    >>> tmp = tempfile.mkdtemp()
    >>> a, b = os.path.join(tmp, "ann1.conllu"), os.path.join(tmp, "ann2.conllu")
    >>> write_conllu(a, [s(["nsubj", "root", "obj"])])
    >>> write_conllu(b, [s(["nsubj", "root", "iobj"])])
    >>> corpus = load_corpus([a, b])
    >>> corpus.annotators, corpus.matching, len(corpus.units)
    (['ann1', 'ann2'], 'sent_id', 1)
    >>> shutil.rmtree(tmp)
    """
    if dirs:
        if names:
            raise InputError.single("<command line>", None, "usage",
                                    "--names goes with files; with --dirs the directory "
                                    "names are the annotator names")
        return from_dirs(dirs, fmt=fmt, phrase_style=phrase_style, strict=strict,
                         allow_missing=allow_missing, check_text=check_text, match=match)
    return from_files(paths, names=names, fmt=fmt, phrase_style=phrase_style, strict=strict,
                      allow_missing=allow_missing, check_text=check_text, match=match)


def agree_corpus(corpus: Corpus, variants: Sequence[str] = VARIANTS, *,
                 bootstrap: int = 0, seed: int = 0, level: float = 0.95,
                 sample_pairs: Optional[int] = None, exact: bool = False,
                 executor=None, progress: Optional[bool] = None,
                 max_memory: int = DEFAULT_MAX_MEMORY) -> AgreementResult:
    """α (requested variants) and the uncorrected scores for an assembled corpus.

    Parameters
    ----------
    corpus : Corpus
        Units × annotators, e.g. from `load_corpus`.
    variants : sequence of str
        Any of ``"plain"``, ``"diff"``, ``"norm"`` (docs/method.md §4).
    bootstrap : int
        Number of unit-resampling replicates for percentile confidence
        intervals (docs/method.md §5.4); 0: none.
    seed : int
        Seed of the bootstrap and of sampled pairs.
    level : float
        Confidence level of the intervals, a fraction (0.95 = 95 %).
    sample_pairs : int, optional
        Estimate D_e from that many random pairs (docs/method.md §5.3).  None:
        exact, unless the corpus has more than `AUTO_SAMPLE_THRESHOLD`
        pairable annotations and ``exact`` is false.
    exact : bool
        Force the exact D_e on large corpora.
    executor : callable, optional
        Runs the all-pairs tiles elsewhere (see `synagree.distance.dask_exec`);
        None: locally.
    progress : bool
        Progress bar on stderr (only when it is a terminal).
    max_memory : int
        Bytes the bootstrap's unit × unit tables may take (planned before any
        work, see `synagree.base.memory`).

    Returns
    -------
    AgreementResult

    Raises
    ------
    ValueError
        ``bootstrap`` combined with ``sample_pairs`` (the bootstrap needs exact
        sums), or an unknown variant.
    InputError
        The bootstrap's tables would exceed ``max_memory``.

    See Also
    --------
    agree : read files and compute in one call.
    synagree.stats.alpha.tree_alpha : α over trees, without the scores.

    Examples
    --------
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus
    >>> s = DepSentence.from_heads
    >>> corpus = Corpus.from_annotations(
    ...     {"a": [s([2, 0, 2], "nsubj root obj"), s([0, 1, 2], "root dep dep")],
    ...      "b": [s([2, 0, 2], "nsubj root iobj"), s([0, 1, 2], "root dep dep")]})
    >>> res = agree_corpus(corpus, ["plain", "norm"])
    >>> sorted(res.alpha), round(res.alpha["plain"].alpha, 4)
    (['norm', 'plain'], 0.9189)
    >>> res.alpha["plain"].do_sum, res.alpha["plain"].de_sum
    (2.0, 74.0)
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
    # every annotation of a corpus is of its kind
    if corpus.kind == "phrase":
        scores = jaccard_scores(cast(List[List[PhraseSentence]], ann_lists))
    else:
        scores = attachment_scores(cast(List[List[DepSentence]], ann_lists))
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
    if corpus.joined_units or corpus.edited_units:  # docs/method.md §1.7–1.8
        details["unit_changes"] = corpus.unit_changes()
    # sentences as read: a joined unit's sentences each (joining adds roots, §1.7)
    dep = [s for u in corpus.units for a, ann in u.annotations.items()
           for s in (u.parts.get(a) or (ann,)) if isinstance(s, DepSentence)]
    multi = sum(1 for s in dep if s.n_roots > 1)
    cycles = sum(1 for p in corpus.log.problems if p.kind == "cycle")
    notes = list(corpus.notes) + [n for st in ta.stats.values() for n in st.notes]
    if auto_note:
        notes.insert(0, auto_note)
    if scores.ignored:
        notes.append(f"{scores.ignored} unit(s) whose annotations differ in word count (or in "
                     f"words: edited units) were left out of LAS/UAS/LA (they still count in "
                     f"alpha)")
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
    res.settings = result_settings(corpus, variants, ta, seed, bootstrap, level)
    return res


def result_settings(corpus: Corpus, variants: Sequence[str], ta, seed: int, bootstrap: int,
                    level: float) -> Dict[str, str]:
    """The settings signature of an agreement result (docs/output.md).

    Examples
    --------
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus
    >>> s = DepSentence.from_heads([0, 1], "root dep", ["a", "b"])
    >>> res = agree_corpus(Corpus.from_annotations({"x": [s, s], "y": [s, s]}))
    >>> res.settings["d_e"], res.settings["labels"]
    ('exact', 'DEPREL in full')
    >>> res.signature().startswith("variants:plain,diff,norm|")
    True
    """
    s = {"variants": ",".join(v for v in VARIANTS if v in variants),
         "distance": "TED unit costs (root label free)",
         "labels": "DEPREL in full" if corpus.kind == "dependency" else "bracket labels",
         "d_e": ("exact" if ta.sampled is None else
                 f"sampled ({ta.sampled.pairs} pairs, seed {seed})")}
    s.update(corpus.settings())
    if bootstrap:
        s["bootstrap"] = f"{bootstrap} replicates, seed {seed}, level {level:g}"
    s["version"] = __version__
    return s


def agree(paths: Sequence["str | os.PathLike"] = (), dirs: Sequence = (),
          fmt: str = "auto", phrase_style: str = "auto",
          variants: Sequence[str] = VARIANTS, strict: bool = False,
          allow_missing: bool = False,
          names: Optional[Sequence[str]] = None, check_text: bool = True,
          match: str = "auto", **options) -> AgreementResult:
    r"""Agreement between annotators: α_plain/α_diff/α_norm plus LAS/UAS/LA (or Jaccard).

    Reads the files with `load_corpus`, then computes with `agree_corpus`.

    Parameters
    ----------
    paths : sequence of str or path-like
        One annotation file per annotator (two or more).
    dirs : sequence of str or path-like
        Instead of ``paths``: one directory per annotator.
    fmt : {"auto", "conllu", "phrase"}
        Input format.
    phrase_style : {"auto", "penn", "delex"}
        Bracket style of phrase-structure input (docs/method.md §1.6).
    variants : sequence of str
        α variants to compute (docs/method.md §4).
    strict : bool
        Turn warnings (head cycles, missing labels) into errors.
    allow_missing : bool
        Accept annotations that some annotators lack.
    names : sequence of str, optional
        One annotator name per file; None: the file stems.
    check_text : bool
        Check that each unit's annotations are of the same text.
    match : {"auto", "sent_id", "position", "text"}
        How sentences are matched into units (docs/method.md §1.9).
    **options
        ``bootstrap``, ``seed``, ``level``, ``sample_pairs``, ``exact``,
        ``executor``, ``progress``, ``max_memory``: see `agree_corpus`.

    Returns
    -------
    AgreementResult
        Ratios are fractions, not percent.

    Raises
    ------
    InputError
        Bad input, every problem of every file gathered first.

    Examples
    --------
    >>> import os, shutil, tempfile
    >>> tmp = tempfile.mkdtemp()
    >>> rows = {"a": [("2", "nsubj"), ("0", "root"), ("2", "obj")],
    ...         "b": [("2", "nsubj"), ("0", "root"), ("2", "iobj")]}
    >>> for ann, words in rows.items():
    ...     lines = [f"{i}\tw{i}\t_\t_\t_\t_\t{h}\t{r}\t_\t_" for i, (h, r) in enumerate(words, 1)]
    ...     with open(os.path.join(tmp, ann + ".conllu"), "w") as f:
    ...         _ = f.write("\n".join(lines) + "\n\n" + "\n".join(lines) + "\n\n")
    >>> res = agree([os.path.join(tmp, "a.conllu"), os.path.join(tmp, "b.conllu")])
    >>> res.annotators, res.units, round(res.scores.ratio("las"), 4)
    (['a', 'b'], 2, 0.6667)
    >>> round(res.alpha_value("plain"), 4)  # the same disagreement in both units
    -0.5
    >>> shutil.rmtree(tmp)
    """
    corpus = load_corpus(paths, dirs, fmt=fmt, phrase_style=phrase_style, strict=strict,
                         allow_missing=allow_missing, names=names, check_text=check_text,
                         match=match)
    return agree_corpus(corpus, variants, **options)
