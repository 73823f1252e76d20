"""The source of a noise experiment: the sentences drawn from a treebank (with
their label set and head-cycle handling) and their perturbed copies."""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Sequence, Tuple, cast

import numpy as np

from synagree.base.problems import InputError, ProblemLog
from synagree.io.brackets import PhraseSentence
from synagree.io.conllu import DepSentence, unreachable_words
from synagree.io.corpus import kind_of, read_files
from synagree.io.formats import Sentence
from synagree.io.sources import Buffer, Input, Source, as_inputs, input_name
from synagree.noise.perturb import (
    label_set,
    nonterminal_labels,
    perturb_any,
    random_sentence,
    repair_cycles,
)


@dataclass
class NoiseSource:
    """The sample taken as correct, its label set, and where it came from.

    Built by `load_source`.

    Parameters
    ----------
    sentences : list of DepSentence or PhraseSentence
        The sample, in source order.
    labels : list of str
        The label set relabelling draws from (sorted).
    kind : {"dependency", "phrase"}
    files : list of str
    sha256 : str
        Digest of the source files (part of the configuration).
    pool : int
        Sentences available after the cycle policy.
    total : int
        Sentences read.
    sample_ids : list of str
        ``FILE#N`` of every sampled sentence.
    cycles : {"skip", "repair", "error"}
    cycle_sentences : int
    warnings : list of str
    """

    sentences: List[Sentence]
    labels: List[str]
    kind: str  # "dependency" | "phrase"
    files: List[str]
    sha256: str
    pool: int  # sentences available after the cycle policy
    total: int  # sentences read
    sample_ids: List[str]
    cycles: str = "skip"
    cycle_sentences: int = 0
    warnings: List[str] = field(default_factory=list)

    def describe(self) -> dict:
        """The source as recorded in ``config.json``."""
        return {"files": [Path(f).name for f in self.files], "paths": list(self.files),
                "sha256": self.sha256, "kind": self.kind, "sentences_read": self.total,
                "pool": self.pool, "labels": list(self.labels),
                "cycle_sentences": self.cycle_sentences}


def _digest(paths: Sequence[Input]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(os.fsencode(Path(input_name(p)).name) + b"\0")  # (need not be valid UTF-8)
        if isinstance(p, Buffer):  # a stream: what it gave (text as UTF-8)
            data = p.data if isinstance(p.data, bytes) else (p.data or "").encode(
                "utf-8", errors="surrogateescape")
            h.update(data)
        else:
            with open(p, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
        h.update(b"\0")
    return h.hexdigest()


def load_source(paths: Sequence[Source], sample: Optional[int] = 100,
                seed: int = 0, fmt: str = "auto", phrase_style: str = "auto",
                cycles: str = "skip", label_scope: str = "source") -> NoiseSource:
    r"""Read and pool the source files, apply the cycle policy, draw the sample.

    docs/method.md §8.1: the sample is drawn without replacement with
    ``numpy.random.default_rng(seed)`` and kept in source order.

    Parameters
    ----------
    paths : sequence of str, path-like or file-like
        Files, or open text or binary streams (compressed or not; named
        ``<source1>``, ... unless they have a real ``.name``).
    sample : int, optional
        Sentences to draw; None (or more than the pool) takes every sentence.
    seed : int
    fmt : str
        ``auto`` or a format of the reader registry (`synagree.io.registry`,
        docs/formats.md); ``auto``: each file sniffed.
    phrase_style : {"auto", "delex", "penn"}
    cycles : {"skip", "repair", "error"}
        Sentences with head cycles: left out of the pool, repaired
        (`synagree.noise.perturb.repair_cycles`), or refused.
    label_scope : {"source", "sample"}
        Relabelling draws from the labels of every source file, or only from
        those of the sample.

    Raises
    ------
    InputError
        No or bad input, mixed formats, a cycle with ``cycles="error"``, no
        usable sentence, ``sample < 1``.
    ValueError
        Unknown ``cycles`` or ``label_scope``.
    """
    if cycles not in ("skip", "repair", "error"):
        raise ValueError(f"cycles must be skip, repair or error, not {cycles!r}")
    if label_scope not in ("source", "sample"):
        raise ValueError(f"label_scope must be source or sample, not {label_scope!r}")
    if not paths:
        raise InputError.single("<command line>", None, "empty-input",
                                "no source treebank given")
    file_paths = as_inputs(paths, "<source{}>")
    docs, _ = read_files(file_paths, fmt, phrase_style, ProblemLog())
    sents: List[Sentence] = [s for d in docs for s in d]
    kinds = {kind_of(d) for d in docs}
    if len(kinds) > 1:
        raise InputError.single(input_name(file_paths[0]), None, "mixed-formats",
                                "the source files mix dependency and phrase-structure trees")
    kind = kinds.pop()
    warnings: List[str] = []
    pool: List[Sentence] = []
    n_cyc = 0
    for s in sents:
        if isinstance(s, DepSentence) and unreachable_words(s.heads):
            n_cyc += 1
            if cycles == "error":
                raise InputError.single(s.file, s.line, "cycle",
                                        f"{s.label_of()} has a head cycle; the noise "
                                        f"experiment needs trees (use --cycles skip or repair)")
            if cycles == "skip":
                continue
            s, moved = repair_cycles(s)
            warnings.append(f"{s.label_of()}: head cycle repaired (words {moved} attached "
                            f"to the root)")
        pool.append(s)
    if n_cyc and cycles == "skip":
        warnings.append(f"{n_cyc} sentence(s) with head cycles left out of the pool")
    if not pool:
        raise InputError.single(input_name(file_paths[0]), None, "empty-input",
                                "no usable sentences in the source")
    rng = np.random.default_rng(int(seed))
    if sample is None or sample >= len(pool):
        if sample is not None and sample > len(pool):
            warnings.append(f"--sample {sample} is more than the {len(pool)} sentences "
                            f"available; using all of them")
        idx = list(range(len(pool)))
    else:
        if sample < 1:
            raise InputError.single("<command line>", None, "usage", "--sample must be >= 1")
        idx = sorted(rng.choice(len(pool), size=int(sample), replace=False).tolist())
    chosen = [pool[i] for i in idx]
    scope = chosen if label_scope == "sample" else sents
    if kind == "dependency":
        labels = label_set([s for s in scope if isinstance(s, DepSentence)])
    else:
        phrases = [s for s in scope if isinstance(s, PhraseSentence)]
        labels = nonterminal_labels(phrases)
        if not labels:
            labels = sorted({s.root.label for s in phrases})
    return NoiseSource(chosen, labels, kind, [input_name(p) for p in file_paths],
                       _digest(file_paths),
                       len(pool), len(sents),
                       [f"{Path(s.file).name}#{s.index + 1}" for s in chosen], cycles, n_cyc,
                       warnings)


def perturb_sample(source: NoiseSource, spec_or_p_relabel, p_reattach: Optional[float] = None,
                   rng: Optional[np.random.Generator] = None, *, p_random: float = 0.0,
                   exclude_current_label: bool = False,
                   exclude_current_head: bool = False,
                   reattach_draw: str = "nondominated") -> List[Sentence]:
    """The perturbed copy of the sample for one run.

    Either ``perturb_sample(source, spec)`` with a `RunSpec` (its seed is used),
    or ``perturb_sample(source, p_relabel, p_reattach, rng, p_random=...)``.
    Sentences are perturbed in sample order, all from the one generator, so a
    run's copy is recreated exactly from its seed.

    Parameters
    ----------
    source : NoiseSource
    spec_or_p_relabel : RunSpec or float
    p_reattach : float, optional
    rng : numpy.random.Generator, optional
        Needed unless a `RunSpec` is given.
    p_random : float
        Share of sentences replaced by uniform random trees (dependency only).
    exclude_current_label, exclude_current_head : bool
    reattach_draw : {"nondominated", "reject"}
        See `synagree.noise.perturb.perturb`.

    Raises
    ------
    ValueError
        Probabilities without a generator.
    InputError
        ``p_random`` with phrase-structure input.
    """
    if isinstance(spec_or_p_relabel, RunSpec):
        spec = spec_or_p_relabel
        p_rel, p_att, p_rand = spec.p_relabel, spec.p_reattach, spec.p_random
        rng = np.random.default_rng(spec.seed)
    else:
        p_rel, p_att, p_rand = float(spec_or_p_relabel), float(p_reattach or 0.0), p_random
        if rng is None:
            raise ValueError("pass a numpy Generator")
    if p_rand > 0:
        if source.kind != "dependency":
            raise InputError.single("<series>", None, "usage",
                                    "the random baseline is defined for dependency trees only")
        coins = rng.random(len(source.sentences))
        deps = cast(List[DepSentence], source.sentences)  # a dependency source
        return [random_sentence(s, source.labels, rng) if c < p_rand else s
                for s, c in zip(deps, coins)]
    if p_rel == 0 and p_att == 0:
        return list(source.sentences)
    return [perturb_any(s, p_rel, p_att, source.labels, rng,
                        exclude_current_label=exclude_current_label,
                        exclude_current_head=exclude_current_head,
                        reattach_draw=reattach_draw)
            for s in source.sentences]


@dataclass(frozen=True)
class RunSpec:
    """One run of a noise experiment: series, probability, run index and seed.

    Parameters
    ----------
    series : {"both", "relabel", "reattach", "random"}
    p : float
        The probability of the series' noise, a fraction.
    run : int
        0-based run index at this point.
    seed : int
        The run's own seed (`run_seed`).
    """
    series: str
    p: float
    run: int
    seed: int

    @property
    def p_relabel(self) -> float:
        """The relabel probability of the run (``both`` and ``relabel``)."""
        return self.p if self.series in ("both", "relabel") else 0.0

    @property
    def p_reattach(self) -> float:
        """The reattach (or move) probability of the run (``both``, ``reattach``)."""
        return self.p if self.series in ("both", "reattach") else 0.0

    @property
    def p_random(self) -> float:
        """The share of sentences replaced by random trees (``random``)."""
        return self.p if self.series == "random" else 0.0

    @property
    def key(self) -> Tuple[str, float, int]:
        """``(series, p, run)``: what identifies a run in the log."""
        return (self.series, round(self.p, 9), self.run)
