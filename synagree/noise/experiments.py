"""Noise-sensitivity experiments (docs/method.md §8): ``synagree noise``.

A sample of sentences from a treebank is taken as correct.  Each *run* makes a
perturbed copy (`synagree.noise.perturb`) and measures agreement between the
original and the copy as two annotators: α_plain, α_diff, α_norm and LAS, UAS,
LA (Jaccard instead of LAS/UAS/LA for bracketed trees), plus any extra
metrics (`EXTRA_METRICS`).

Series (``--series``, comma-separated):

* ``both``     – p_relabel = p_reattach = p   (the paper's Figure 3);
* ``relabel``  – p_relabel = p, p_reattach = 0 (Figure 4);
* ``reattach`` – p_relabel = 0, p_reattach = p (Figure 5);
* ``random``   – the uniform baseline: each sentence is, with probability
  p, replaced by a uniformly drawn random tree on its words with uniformly
  drawn labels (`synagree.noise.perturb.random_sentence`); the others stay
  intact.  p = 1 is the fully random annotator.  Recorded with
  p_relabel = p_reattach = 0 and p_random = p.  Dependency input only.

For bracketed input "relabel" relabels non-terminals and "reattach" moves
constituents (`synagree.noise.perturb.perturb_phrase`).

Reproducibility.  The sample is ``--sample`` sentences drawn without
replacement from the pooled source files with ``numpy.random.default_rng(seed)``
(kept in source order).  Each run has its own seed (column ``seed``), derived
from (seed, series, p, run index) by `numpy.random.SeedSequence`, so a
run does not depend on which other runs were made or in which order:
``perturb_sample(source, p_relabel, p_reattach, default_rng(row_seed))``
recreates its perturbed copy exactly.  The label set is the sorted set of
labels used anywhere in the source files (``--label-set sample``: only those
used in the sample); for bracketed input, the non-terminal labels.

Sentences with head cycles (``--cycles``): ``skip`` (default) leaves them
out of the pool before sampling; ``repair`` attaches the lowest-numbered word
of each cycle to the root (`synagree.noise.perturb.repair_cycles`);
``error`` refuses the source.

Output directory:

* ``config.json``  – the run configuration; a rerun with a different
  configuration is refused (``--overwrite`` starts afresh);
* ``runs.jsonl``   – the append log, one JSON object per finished run, each
  written with flush + fsync; a rerun resumes from it (a torn last line from a
  kill is dropped), so a kill loses at most the run in progress;
* ``runs.csv``     – the same rows as a tidy table (rewritten from the log
  when a run starts and ends, appended to in between);
* ``results.json`` – configuration, rows and summary, written at the end;
* ``summary.csv`` / ``summary.md`` – per (series, p, metric): n, mean,
  median, sample standard deviation (ddof = 1), min, max;
* with ``synagree noise --plot``: the figures of `synagree.render.plots`.

Metric values are fractions (1.0 = 100 %); an undefined α (D_e = 0) is
``null`` in JSON and empty in CSV and is left out of the summary.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import (
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
)

import numpy as np

try:  # advisory lock on the output directory (POSIX); elsewhere no lock is taken
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None

from synagree._version import __version__
from synagree.base.escape import csv_cell
from synagree.base.escape import markdown as md
from synagree.base.jsonable import json_ready
from synagree.base.problems import InputError, ProblemLog, quote
from synagree.base.progress import Progress
from synagree.distance import ted as _ted
from synagree.distance.sums import delta_squared
from synagree.io.conllu import DepSentence, unreachable_words
from synagree.io.corpus import kind_of, read_files
from synagree.io.files import write_atomic
from synagree.io.formats import Sentence
from synagree.noise.perturb import (
    label_set,
    nonterminal_labels,
    perturb_any,
    random_sentence,
    repair_cycles,
)
from synagree.stats.alpha import VARIANTS, AlphaStats
from synagree.stats.attachment import jaccard_scores
from synagree.stats.hierarchical import hier_metric_fn
from synagree.trees.flat import FlatTree, Vocabulary, build_tree

PAPER_SERIES: Tuple[str, ...] = ("both", "relabel", "reattach")
ALL_SERIES: Tuple[str, ...] = PAPER_SERIES + ("random",)
DEFAULT_GRID: Tuple[float, ...] = tuple(round(0.1 * k, 10) for k in range(1, 11))
ALPHA_COLUMNS: Tuple[str, ...] = tuple(f"alpha_{v}" for v in VARIANTS)
DEP_SCORES: Tuple[str, ...] = ("las", "uas", "la")
PHRASE_SCORES: Tuple[str, ...] = ("jaccard",)
KEY_COLUMNS: Tuple[str, ...] = ("series", "p", "p_relabel", "p_reattach", "p_random", "run",
                                "seed")
CONFIG_VERSION = 1


# --------------------------------------------------------------------------
# Extra metrics hook
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Metric:
    """An extra per-run metric of a noise experiment.

    Parameters
    ----------
    name : str
        The column (or the metric's name, with ``columns``).
    fn : callable
        ``fn(originals, perturbed)`` gets the sample and its perturbed copy
        (lists of sentences, aligned) and returns a number, or a mapping
        column → number for several columns.  Values are fractions; None
        means undefined.
    columns : tuple of str
        The columns of a mapping-valued metric.

    See Also
    --------
    EXTRA_METRICS, synagree.stats.hierarchical.hier_metric_fn

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.noise.perturb import label_set
    >>> def s(heads, rels):
    ...     return DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    >>> sents = [s([2, 0, 2], ["nsubj", "root", "obj"]), s([0, 1], ["root", "obj"]),
    ...          s([2, 0, 4, 2], ["det", "root", "case", "obl"])]
    >>> src = NoiseSource(sents, label_set(sents), "dependency", [], "", 3, 3, ["#1", "#2", "#3"])
    >>> same_root = Metric("same_root", lambda o, p: np.mean(
    ...     [list(a.heads).index(0) == list(b.heads).index(0) for a, b in zip(o, p)]))
    >>> same_root.cols, same_root.compute(sents, sents)
    (('same_root',), {'same_root': 1.0})
    """

    name: str
    fn: Callable[[Sequence[Sentence], Sequence[Sentence]], object]
    columns: Tuple[str, ...] = ()

    @property
    def cols(self) -> Tuple[str, ...]:
        """The metric's columns: ``columns``, or ``(name,)``."""
        return self.columns or (self.name,)

    def compute(self, originals, perturbed) -> Dict[str, Optional[float]]:
        """The metric's columns for one run (NaN as None)."""
        out = self.fn(originals, perturbed)
        if isinstance(out, Mapping):
            return {c: _num(out.get(c)) for c in self.cols}
        return {self.cols[0]: _num(out)}


#: Extra metrics computed in every run (after the built-in ones), e.g. the
#: hierarchical label credit.  Append `Metric` objects (or plain
#: functions ``fn(originals, perturbed) -> float``, named by ``__name__``);
#: or pass ``extra_metrics=`` to `run_noise_experiment`.  Their names
#: are part of the stored configuration, so a resumed run computes the same.
EXTRA_METRICS: List[Union[Metric, Callable]] = []


def _as_metric(m) -> Metric:
    if isinstance(m, Metric):
        return m
    if callable(m):
        return Metric(getattr(m, "__name__", "metric"), m)
    raise TypeError(f"not a metric: {m!r}")


def _num(x) -> Optional[float]:
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


# --------------------------------------------------------------------------
# Run plan
# --------------------------------------------------------------------------

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

    Examples
    --------
    >>> spec = RunSpec("relabel", 0.3, 0, run_seed(7, "relabel", 0.3, 0))
    >>> spec.p_relabel, spec.p_reattach, spec.p_random, spec.key
    (0.3, 0.0, 0.0, ('relabel', 0.3, 0))
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


def run_seed(seed: int, series: str, p: float, run: int) -> int:
    """The seed of one run: independent of the other runs of the experiment.

    Derived from (seed, series, p, run) by `numpy.random.SeedSequence`
    (docs/method.md §8.4).

    Parameters
    ----------
    seed : int
        The experiment's seed.
    series : str
    p : float
        Rounded to 1e-6.
    run : int

    Returns
    -------
    int
        A 32-bit seed.

    Examples
    --------
    >>> run_seed(0, "both", 0.5, 3) == run_seed(0, "both", 0.5, 3)
    True
    >>> len({run_seed(0, "both", 0.5, r) for r in range(100)})
    100
    """
    ss = np.random.SeedSequence([int(seed) & 0xFFFFFFFF, zlib.crc32(series.encode()),
                                 int(round(p * 1_000_000)), int(run)])
    return int(ss.generate_state(1, dtype=np.uint32)[0])


def run_plan(series: Sequence[str], grid: Sequence[float], runs: int,
             seed: int) -> List[RunSpec]:
    """All runs, series by series, point by point.

    Parameters
    ----------
    series : sequence of str
    grid : sequence of float
        Probabilities, fractions.
    runs : int
        Runs per point.
    seed : int

    Returns
    -------
    list of RunSpec

    Examples
    --------
    >>> plan = run_plan(["relabel", "random"], [0.5, 1.0], runs=2, seed=0)
    >>> len(plan), [(s.series, s.p, s.run) for s in plan[:3]]
    (8, [('relabel', 0.5, 0), ('relabel', 0.5, 1), ('relabel', 1.0, 0)])
    """
    return [RunSpec(s, float(p), r, run_seed(seed, s, float(p), r))
            for s in series for p in grid for r in range(runs)]


MAX_GRID_POINTS = 1000


def parse_grid(text: str) -> List[float]:
    """The probabilities of ``--grid``: ``"0.1,0.5,1"`` or ``"start:stop:num"``.

    ``start:stop:num`` is inclusive, like `numpy.linspace`.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of float
        Fractions in [0, 1], rounded to 1e-9.

    Raises
    ------
    InputError
        Malformed, outside [0, 1], repeated values, or more than
        `MAX_GRID_POINTS` points (``usage``).

    Examples
    --------
    >>> parse_grid("0:1:5"), parse_grid("0.1, 0.5,1")
    ([0.0, 0.25, 0.5, 0.75, 1.0], [0.1, 0.5, 1.0])
    >>> try:
    ...     parse_grid("0.5,1.5")
    ... except InputError as exc:
    ...     print(exc.errors[0].message)
    --grid '0.5,1.5': probabilities must lie in [0, 1]
    """
    text = text.strip()
    try:
        if ":" in text:
            a, b, k = text.split(":")
            if not 1 <= int(k) <= MAX_GRID_POINTS:  # checked before anything is allocated
                raise InputError.single("<command line>", None, "usage",
                                        f"--grid {text!r}: the number of points must be from "
                                        f"1 to {MAX_GRID_POINTS:,}")
            vals = np.linspace(float(a), float(b), int(k)).tolist()
        else:
            vals = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise InputError.single("<command line>", None, "usage",
                                f"bad --grid {text!r}: give 'p1,p2,...' or 'start:stop:num'")
    if len(vals) > MAX_GRID_POINTS:
        raise InputError.single("<command line>", None, "usage",
                                f"--grid {text!r}: {len(vals):,} points; at most "
                                f"{MAX_GRID_POINTS:,}")
    vals = [round(v, 9) for v in vals]
    if not vals or any(not 0.0 <= v <= 1.0 for v in vals):
        raise InputError.single("<command line>", None, "usage",
                                f"--grid {text!r}: probabilities must lie in [0, 1]")
    if len(set(vals)) != len(vals):
        raise InputError.single("<command line>", None, "usage",
                                f"--grid {text!r}: repeated values")
    return vals


def parse_series(text: str) -> List[str]:
    """The series of ``--series``: comma-separated names from `ALL_SERIES`.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of str
        Without repeats, in the order given.

    Raises
    ------
    InputError
        An unknown or no series (``usage``).

    Examples
    --------
    >>> parse_series("relabel, random,relabel")
    ['relabel', 'random']
    """
    names = [s.strip() for s in text.split(",") if s.strip()]
    bad = [s for s in names if s not in ALL_SERIES]
    if bad or not names:
        raise InputError.single("<command line>", None, "usage",
                                f"unknown series {', '.join(bad) or text!r}; choose from "
                                f"{', '.join(ALL_SERIES)}")
    return list(dict.fromkeys(names))


# --------------------------------------------------------------------------
# Source
# --------------------------------------------------------------------------

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

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.noise.perturb import label_set
    >>> def s(heads, rels):
    ...     return DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    >>> sents = [s([2, 0, 2], ["nsubj", "root", "obj"]), s([0, 1], ["root", "obj"]),
    ...          s([2, 0, 4, 2], ["det", "root", "case", "obl"])]
    >>> src = NoiseSource(sents, label_set(sents), "dependency", [], "", 3, 3, ["#1", "#2", "#3"])
    >>> src.labels, src.describe()["pool"]
    (['case', 'det', 'nsubj', 'obj', 'obl', 'root'], 3)
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


def _digest(paths: Sequence[Path]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(os.fsencode(p.name) + b"\0")  # (a name need not be valid UTF-8)
        with open(p, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        h.update(b"\0")
    return h.hexdigest()


def load_source(paths: Sequence["str | os.PathLike"], sample: Optional[int] = 100,
                seed: int = 0, fmt: str = "auto", phrase_style: str = "auto",
                cycles: str = "skip", label_scope: str = "source") -> NoiseSource:
    r"""Read and pool the source files, apply the cycle policy, draw the sample.

    docs/method.md §8.1: the sample is drawn without replacement with
    ``numpy.random.default_rng(seed)`` and kept in source order.

    Parameters
    ----------
    paths : sequence of str or path-like
    sample : int, optional
        Sentences to draw; None (or more than the pool) takes every sentence.
    seed : int
    fmt : {"auto", "conllu", "phrase"}
    phrase_style : {"auto", "delex", "penn"}
    cycles : {"skip", "repair", "error"}
        Sentences with head cycles: left out of the pool, repaired
        (`synagree.noise.perturb.repair_cycles`), or refused.
    label_scope : {"source", "sample"}
        Relabelling draws from the labels of every source file, or only from
        those of the sample.

    Returns
    -------
    NoiseSource

    Raises
    ------
    InputError
        No or bad input, mixed formats, a cycle with ``cycles="error"``, no
        usable sentence, ``sample < 1``.
    ValueError
        Unknown ``cycles`` or ``label_scope``.

    Examples
    --------
    >>> import os, shutil, tempfile
    >>> tmp = tempfile.mkdtemp()
    >>> row = "{}\tw\t_\t_\t_\t_\t{}\t{}\t_\t_\n"
    >>> text = "".join(row.format(i + 1, h, r) for i, (h, r) in enumerate(
    ...     [(2, "nsubj"), (0, "root"), (2, "obj")])) + "\n"
    >>> path = os.path.join(tmp, "source.conllu")
    >>> with open(path, "w") as f:
    ...     _ = f.write(text * 5)
    >>> src = load_source([path], sample=2, seed=0)
    >>> len(src.sentences), src.pool, src.labels, src.sample_ids
    (2, 5, ['nsubj', 'obj', 'root'], ['source.conllu#4', 'source.conllu#5'])
    >>> shutil.rmtree(tmp)
    """
    if cycles not in ("skip", "repair", "error"):
        raise ValueError(f"cycles must be skip, repair or error, not {cycles!r}")
    if label_scope not in ("source", "sample"):
        raise ValueError(f"label_scope must be source or sample, not {label_scope!r}")
    if not paths:
        raise InputError.single("<command line>", None, "empty-input",
                                "no source treebank given")
    paths = [Path(p) for p in paths]
    docs, _ = read_files(paths, fmt, phrase_style, ProblemLog())
    sents: List[Sentence] = [s for d in docs for s in d]
    kinds = {kind_of(d) for d in docs}
    if len(kinds) > 1:
        raise InputError.single(str(paths[0]), None, "mixed-formats",
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
        raise InputError.single(str(paths[0]), None, "empty-input",
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
        labels = nonterminal_labels(scope)
        if not labels:
            labels = sorted({s.root.label for s in scope})
    return NoiseSource(chosen, labels, kind, [str(p) for p in paths], _digest(paths),
                       len(pool), len(sents),
                       [f"{Path(s.file).name}#{s.index + 1}" for s in chosen], cycles, n_cyc,
                       warnings)


# --------------------------------------------------------------------------
# Perturbing a sample
# --------------------------------------------------------------------------

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

    Returns
    -------
    list of DepSentence or PhraseSentence

    Raises
    ------
    ValueError
        Probabilities without a generator.
    InputError
        ``p_random`` with phrase-structure input.

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.noise.perturb import label_set
    >>> def s(heads, rels):
    ...     return DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    >>> sents = [s([2, 0, 2], ["nsubj", "root", "obj"]), s([0, 1], ["root", "obj"]),
    ...          s([2, 0, 4, 2], ["det", "root", "case", "obl"])]
    >>> src = NoiseSource(sents, label_set(sents), "dependency", [], "", 3, 3, ["#1", "#2", "#3"])
    >>> spec = RunSpec("relabel", 1.0, 0, 123)
    >>> a, b = perturb_sample(src, spec), perturb_sample(src, spec)
    >>> [x.deprels for x in a] == [x.deprels for x in b]  # the seed fixes the copy
    True
    >>> perturb_sample(src, 0.0, 0.0, np.random.default_rng(0)) == sents
    True
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
        return [random_sentence(s, source.labels, rng) if c < p_rand else s
                for s, c in zip(source.sentences, coins)]
    if p_rel == 0 and p_att == 0:
        return list(source.sentences)
    return [perturb_any(s, p_rel, p_att, source.labels, rng,
                        exclude_current_label=exclude_current_label,
                        exclude_current_head=exclude_current_head,
                        reattach_draw=reattach_draw)
            for s in source.sentences]


# --------------------------------------------------------------------------
# Fast evaluation: originals' trees and distances computed once
# --------------------------------------------------------------------------

class RunEvaluator:
    """Agreement between the fixed sample and perturbed copies of it.

    The sample's trees, their distinct set and all their pairwise TEDs are
    computed once; a run builds only the perturbed trees and computes the
    TEDs of the *new* distinct trees against the originals and each other.
    The numbers are those of `synagree.agreement.agree.agree_corpus` on a
    two-annotator corpus (original, perturbed) — tested to 1e-12.

    Parameters
    ----------
    source : NoiseSource
    extra_metrics : sequence of Metric or callable

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.noise.perturb import label_set
    >>> def s(heads, rels):
    ...     return DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    >>> sents = [s([2, 0, 2], ["nsubj", "root", "obj"]), s([0, 1], ["root", "obj"]),
    ...          s([2, 0, 4, 2], ["det", "root", "case", "obl"])]
    >>> src = NoiseSource(sents, label_set(sents), "dependency", [], "", 3, 3, ["#1", "#2", "#3"])
    >>> ev = RunEvaluator(src)
    >>> ev.columns
    ['alpha_plain', 'alpha_diff', 'alpha_norm', 'las', 'uas', 'la']
    >>> row = ev.evaluate(sents)  # the sample against itself
    >>> row["alpha_plain"], row["las"]
    (1.0, 1.0)
    >>> row = ev.run(RunSpec("relabel", 1.0, 0, 5), exclude_current_label=True)
    >>> row["las"], row["uas"], row["alpha_plain"] < 1.0
    (0.0, 1.0, True)
    """

    def __init__(self, source: NoiseSource, extra_metrics: Sequence = ()):
        self.source = source
        self.kind = source.kind
        self.vocab = Vocabulary(source.labels)
        self.orig = list(source.sentences)
        self.extra = [_as_metric(m) for m in extra_metrics]
        trees = [build_tree(s, self.vocab) for s in self.orig]
        self.orig_distinct, self.orig_which = _ted.dedupe(trees)
        self.orig_keys = {t.key(): k for k, t in enumerate(self.orig_distinct)}
        self.orig_dm = _ted.distance_matrix(_ted.TreePack(self.orig_distinct))
        self.timings: Dict[str, float] = {"perturb": 0.0, "trees": 0.0, "ted": 0.0,
                                          "alpha": 0.0, "scores": 0.0, "extra": 0.0}
        if self.kind == "dependency":
            self._heads = np.concatenate([s.heads for s in self.orig]).astype(np.int32)
            self._labs = np.array([self.vocab.id(d) for s in self.orig for d in s.deprels],
                                  dtype=np.int32)

    @property
    def columns(self) -> List[str]:
        """The metric columns of a row (α variants, scores, extra metrics)."""
        base = list(ALPHA_COLUMNS) + list(DEP_SCORES if self.kind == "dependency"
                                          else PHRASE_SCORES)
        for m in self.extra:
            base.extend(m.cols)
        return base

    # -- alpha ---------------------------------------------------------------
    def alpha_stats(self, perturbed: Sequence[Sentence]) -> Dict[str, AlphaStats]:
        """α (as sums) per variant between the sample and ``perturbed``."""
        t0 = time.perf_counter()
        trees = [build_tree(s, self.vocab) for s in perturbed]
        t1 = time.perf_counter()
        self.timings["trees"] += t1 - t0
        K0 = len(self.orig_distinct)
        new: List[FlatTree] = []
        new_keys: Dict[bytes, int] = {}
        which_p = np.empty(len(trees), dtype=np.int64)
        for k, t in enumerate(trees):
            key = t.key()
            d = self.orig_keys.get(key)
            if d is None:
                d = new_keys.get(key)
                if d is None:
                    d = K0 + len(new)
                    new_keys[key] = d
                    new.append(t)
            which_p[k] = d
        K = K0 + len(new)
        dm = np.zeros((K, K), dtype=np.float64)
        dm[:K0, :K0] = self.orig_dm
        all_trees = self.orig_distinct + new
        if new:
            pack = _ted.TreePack(all_trees)
            nn = len(new)
            ii = np.repeat(np.arange(K0, K, dtype=np.int64), K0)
            jj = np.tile(np.arange(K0, dtype=np.int64), nn)
            iu, ju = np.triu_indices(nn, k=1)
            ii = np.concatenate([ii, iu.astype(np.int64) + K0])
            jj = np.concatenate([jj, ju.astype(np.int64) + K0])
            d = _ted.pair_distances(pack, ii, jj)
            dm[ii, jj] = d
            dm[jj, ii] = d
        t2 = time.perf_counter()
        self.timings["ted"] += t2 - t1
        sizes = np.array([t.size for t in all_trees], dtype=np.float64)
        which = np.concatenate([self.orig_which, which_p])
        counts = np.bincount(which, minlength=K).astype(np.float64)
        n = len(which)
        units = len(trees)
        out: Dict[str, AlphaStats] = {}
        for v in VARIANTS:
            d2 = delta_squared(dm, sizes[:, None], sizes[None, :], v)
            de_sum = float(counts @ d2 @ counts)
            do_sum = float(2.0 * d2[self.orig_which, which_p].sum())
            out[v] = AlphaStats(do_sum, de_sum, n, units)
        self.timings["alpha"] += time.perf_counter() - t2
        return out

    # -- uncorrected scores --------------------------------------------------
    def scores(self, perturbed: Sequence[Sentence]) -> Dict[str, Optional[float]]:
        """LAS/UAS/LA (or Jaccard) between the sample and ``perturbed``, fractions."""
        t0 = time.perf_counter()
        if self.kind == "dependency":
            heads = np.concatenate([s.heads for s in perturbed])
            labs = np.array([self.vocab.id(d) for s in perturbed for d in s.deprels],
                            dtype=np.int32)
            he = heads == self._heads
            le = labs == self._labs
            n = float(len(he))
            out = {"las": float(np.count_nonzero(he & le)) / n,
                   "uas": float(np.count_nonzero(he)) / n,
                   "la": float(np.count_nonzero(le)) / n}
        else:
            c = jaccard_scores([[a, b] for a, b in zip(self.orig, perturbed)])
            out = {"jaccard": c.ratio("jaccard")}
        self.timings["scores"] += time.perf_counter() - t0
        return out

    def evaluate(self, perturbed: Sequence[Sentence]) -> Dict[str, Optional[float]]:
        """Every metric (fractions) between the sample and ``perturbed``."""
        st = self.alpha_stats(perturbed)
        row: Dict[str, Optional[float]] = {f"alpha_{v}": st[v].alpha for v in VARIANTS}
        row.update(self.scores(perturbed))
        if self.extra:
            t0 = time.perf_counter()
            for m in self.extra:
                row.update(m.compute(self.orig, perturbed))
            self.timings["extra"] += time.perf_counter() - t0
        return row

    def run(self, spec: RunSpec, exclude_current_label: bool = False,
            exclude_current_head: bool = False,
            reattach_draw: str = "nondominated") -> Dict[str, object]:
        """One run: perturb with the spec's seed and evaluate; a table row."""
        t0 = time.perf_counter()
        pert = perturb_sample(self.source, spec, exclude_current_label=exclude_current_label,
                              exclude_current_head=exclude_current_head,
                              reattach_draw=reattach_draw)
        self.timings["perturb"] += time.perf_counter() - t0
        row: Dict[str, object] = {"series": spec.series, "p": spec.p,
                                  "p_relabel": spec.p_relabel, "p_reattach": spec.p_reattach,
                                  "p_random": spec.p_random, "run": spec.run,
                                  "seed": spec.seed}
        row.update(self.evaluate(pert))
        return row


def iter_runs(source: NoiseSource, specs: Iterable[RunSpec], extra_metrics: Sequence = (),
              exclude_current_label: bool = False,
              exclude_current_head: bool = False,
              reattach_draw: str = "nondominated") -> Iterator[Dict[str, object]]:
    """Rows for ``specs``, computed in memory (no files).

    Parameters
    ----------
    source : NoiseSource
    specs : iterable of RunSpec
    extra_metrics : sequence of Metric or callable
    exclude_current_label, exclude_current_head : bool
    reattach_draw : {"nondominated", "reject"}

    Yields
    ------
    dict
        A row: the spec's columns (``series``, ``p``, ``p_relabel``, ...,
        ``seed``) and every metric (fractions; None when undefined).

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.noise.perturb import label_set
    >>> def s(heads, rels):
    ...     return DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    >>> sents = [s([2, 0, 2], ["nsubj", "root", "obj"]), s([0, 1], ["root", "obj"]),
    ...          s([2, 0, 4, 2], ["det", "root", "case", "obl"])]
    >>> src = NoiseSource(sents, label_set(sents), "dependency", [], "", 3, 3, ["#1", "#2", "#3"])
    >>> rows = list(iter_runs(src, run_plan(["reattach"], [0.0, 1.0], 1, seed=0)))
    >>> [(r["p"], r["uas"] == 1.0, r["la"]) for r in rows]
    [(0.0, True, 1.0), (1.0, False, 1.0)]
    """
    ev = RunEvaluator(source, extra_metrics)
    for spec in specs:
        yield ev.run(spec, exclude_current_label, exclude_current_head, reattach_draw)


# --------------------------------------------------------------------------
# Summary
# --------------------------------------------------------------------------

def summarize(rows: Sequence[Mapping[str, object]],
              metrics: Sequence[str]) -> List[Dict[str, object]]:
    """Per (series, p, metric): n, mean, median, std (ddof=1), min, max.

    Groups come in the order of first appearance; undefined values are left
    out.

    Parameters
    ----------
    rows : sequence of mapping
        Run rows (with ``series`` and ``p``).
    metrics : sequence of str

    Returns
    -------
    list of dict

    Examples
    --------
    >>> rows = [{"series": "both", "p": 0.5, "las": 0.6}, {"series": "both", "p": 0.5, "las": 0.8},
    ...         {"series": "both", "p": 0.5, "las": None}]
    >>> [(r["n"], round(r["mean"], 4), round(r["std"], 4)) for r in summarize(rows, ["las"])]
    [(2, 0.7, 0.1414)]
    """
    groups: Dict[Tuple[str, float], List[Mapping[str, object]]] = {}
    for r in rows:
        groups.setdefault((str(r["series"]), round(float(r["p"]), 9)), []).append(r)
    out = []
    for (series, p), rs in groups.items():
        for m in metrics:
            vals = np.array([float(r[m]) for r in rs if r.get(m) is not None], dtype=float)
            rec: Dict[str, object] = {"series": series, "p": p, "metric": m,
                                      "n": int(len(vals))}
            if len(vals):
                rec.update(mean=float(vals.mean()), median=float(np.median(vals)),
                           std=float(vals.std(ddof=1)) if len(vals) > 1 else 0.0,
                           min=float(vals.min()), max=float(vals.max()))
            else:
                rec.update(mean=None, median=None, std=None, min=None, max=None)
            out.append(rec)
    return out


METRIC_TITLES = {"alpha_plain": "α_plain", "alpha_diff": "α_diff", "alpha_norm": "α_norm",
                 "las": "LAS", "uas": "UAS", "la": "LA", "jaccard": "Jaccard"}
SERIES_TITLES = {"both": "relabel + reattach (p_relabel = p_reattach = p)",
                 "relabel": "relabel only (p_reattach = 0)",
                 "reattach": "reattach only (p_relabel = 0)",
                 "random": "uniform random trees (fraction p of sentences replaced)"}


def _pct(x, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * float(x):.{digits}f}"


def summary_markdown(summary: Sequence[Mapping[str, object]], metrics: Sequence[str],
                     title: Optional[str] = None) -> str:
    """Markdown: per series, means ± sd (percent), then full statistics.

    Parameters
    ----------
    summary : sequence of mapping
        From `summarize`.
    metrics : sequence of str
    title : str, optional
        A level-1 heading.

    Returns
    -------
    str

    Examples
    --------
    >>> rows = [{"series": "relabel", "p": 0.5, "las": 0.6},
    ...         {"series": "relabel", "p": 0.5, "las": 0.8}]
    >>> md = summary_markdown(summarize(rows, ["las"]), ["las"])
    >>> [line for line in md.splitlines() if line.startswith("| 0.5 |")][0]
    '| 0.5 | 70.0 ± 14.1 |'
    """

    lines: List[str] = []
    if title:
        lines += [f"# {md(title)}", ""]
    lines += ["Values in percent.  Mean ± sample standard deviation over runs; the full "
              "statistics (median, min, max) follow each table.", ""]
    by_series: Dict[str, List[Mapping[str, object]]] = {}
    for rec in summary:
        by_series.setdefault(str(rec["series"]), []).append(rec)
    for series, recs in by_series.items():
        lines += [f"## {md(series)}: {md(SERIES_TITLES.get(series, series))}", ""]
        ps = list(dict.fromkeys(float(r["p"]) for r in recs))
        idx = {(float(r["p"]), r["metric"]): r for r in recs}
        lines.append("| p | " + " | ".join(md(METRIC_TITLES.get(m, m)) for m in metrics) + " |")
        lines.append("|---:|" + "---:|" * len(metrics))
        for p in ps:
            cells = []
            for m in metrics:
                r = idx.get((p, m))
                if r is None or r["mean"] is None:
                    cells.append("–")
                else:
                    cells.append(f"{_pct(r['mean'])} ± {_pct(r['std'])}")
            lines.append(f"| {p:g} | " + " | ".join(cells) + " |")
        lines += ["", "<details><summary>full statistics</summary>", "",
                  "| p | metric | n | mean | median | std | min | max |",
                  "|---:|---|---:|---:|---:|---:|---:|---:|"]
        for p in ps:
            for m in metrics:
                r = idx.get((p, m))
                if r is None:
                    continue
                lines.append(f"| {p:g} | {md(METRIC_TITLES.get(m, m))} | {r['n']} | "
                             + " | ".join(_pct(r[k], 2) for k in
                                          ("mean", "median", "std", "min", "max")) + " |")
        lines += ["", "</details>", ""]
    return "\n".join(lines)


def _csv_text(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for r in rows:
        w.writerow([_cell(r.get(c)) for c in columns])
    return buf.getvalue()


def _cell(v) -> str:

    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(csv_cell(v))


def read_rows(path: "str | os.PathLike") -> List[Dict[str, object]]:
    r"""Rows back from ``runs.csv``, ``runs.jsonl`` or ``results.json``.

    A directory is looked into for those files.  Every row must be a run: a
    ``series``, a finite number ``p`` and numbers (or nothing) in the other
    columns.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    list of dict

    Raises
    ------
    InputError
        Missing or unreadable file; a summary table instead of the run table;
        anything else is a ``bad-results`` error naming the file and line.

    Examples
    --------
    >>> import os, tempfile
    >>> fd, path = tempfile.mkstemp(suffix=".csv")
    >>> with os.fdopen(fd, "w") as f:
    ...     _ = f.write("series,p,run,seed,las\nboth,0.5,0,17,0.75\nboth,1.0,0,18,\n")
    >>> for r in read_rows(path):
    ...     print(r)
    {'series': 'both', 'p': 0.5, 'run': 0, 'seed': 17, 'las': 0.75}
    {'series': 'both', 'p': 1.0, 'run': 0, 'seed': 18, 'las': None}
    >>> os.remove(path)
    """
    path = Path(path)
    if not path.exists():
        raise InputError.single(str(path), None, "file-not-found", "no such file")
    if path.is_dir():
        for name in ("runs.csv", "results.json", "runs.jsonl"):
            if (path / name).exists():
                return read_rows(path / name)
        raise InputError.single(str(path), None, "empty-input",
                                "directory holds no runs.csv / results.json / runs.jsonl")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.single(str(path), None, "encoding",
                                f"not UTF-8 (byte {exc.start}: {exc.reason})") from None
    except OSError as exc:
        raise InputError.single(str(path), None, "unreadable",
                                f"cannot read file: {exc.strerror or exc}") from None
    if path.suffix in (".jsonl", ".json"):
        return json_rows(text, path)
    rows = []
    lines = []
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or "series" not in reader.fieldnames or "p" not in reader.fieldnames:
        raise InputError.single(str(path), 1, "bad-results",
                                "not a noise results table (needs columns series and p)")
    if "metric" in reader.fieldnames and "run" not in reader.fieldnames:
        raise InputError.single(str(path), 1, "bad-results",
                                "this is a summary table (one row per point and metric); give "
                                "the run table runs.csv (or results.json) instead")
    for rec in reader:
        no = reader.line_num
        if None in rec:
            raise InputError.single(str(path), no, "bad-results",
                                    f"{len(reader.fieldnames) + len(rec[None])} fields, but "
                                    f"the header has {len(reader.fieldnames)}")
        row: Dict[str, object] = {}
        for k, v in rec.items():
            if k == "series":
                row[k] = v
            elif v is None or v == "":
                row[k] = None
            else:
                try:
                    row[k] = int(v) if k in ("run", "seed") else float(v)
                except ValueError:
                    raise InputError.single(str(path), no, "bad-results",
                                            f"column {quote(k)}: {quote(v)} is not a number")
        rows.append(row)
        lines.append(no)
    return _checked_rows(rows, path, lines)


def json_rows(text: str, path: Path, need_p: bool = True) -> List[Dict[str, object]]:
    """The runs of ``runs.jsonl`` / ``results.json`` text, checked as `read_rows` checks them.

    Parameters
    ----------
    text : str
    path : pathlib.Path
        Its suffix says which format (``.jsonl``: one run per line); named in
        errors.
    need_p : bool
        Every run needs a number ``p``.

    Returns
    -------
    list of dict

    Raises
    ------
    InputError
        ``bad-results``: not JSON, no list of runs, or a run that is not one.

    Examples
    --------
    >>> from pathlib import Path
    >>> json_rows('{"rows": [{"series": "random", "p": 1, "las": 0.1}]}', Path("results.json"))
    [{'series': 'random', 'p': 1, 'las': 0.1}]
    """
    if path.suffix == ".jsonl":
        rows, lines = [], []
        for no, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except ValueError as exc:
                    raise InputError.single(str(path), no, "bad-results",
                                            f"not a JSON line: {exc}") from None
                lines.append(no)
        return _checked_rows(rows, path, lines, need_p)
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InputError.single(str(path), getattr(exc, "lineno", None), "bad-results",
                                f"not JSON: {exc}") from None
    rows = data.get("rows") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise InputError.single(str(path), None, "bad-results",
                                "no list of runs (a list, or an object with \"rows\")")
    return _checked_rows(rows, path, None, need_p)


def _checked_rows(rows: list, path: Path, lines: Optional[List[int]],
                  need_p: bool = True) -> List[Dict[str, object]]:
    """``rows`` when every one is a run (see `read_rows`); numbers as floats."""
    out = []
    for i, r in enumerate(rows):
        line = lines[i] if lines else None
        where = "" if lines else f"run {i + 1}: "

        def bad(msg: str):
            return InputError.single(str(path), line, "bad-results", where + msg)

        if not isinstance(r, dict) or "series" not in r:
            raise bad("not a run (needs series and p)")
        p = r.get("p")
        if (need_p or p is not None) and (isinstance(p, bool) or not isinstance(p, (int, float))
                                          or not math.isfinite(p)):
            raise bad(f"p is {quote(p)}, not a number")
        row: Dict[str, object] = {"series": str(r["series"])}
        for k, v in r.items():
            if k == "series":
                continue
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise bad(f"column {quote(k)}: {quote(v)} is not a number")
            row[str(k)] = v
        out.append(row)
    return out


# --------------------------------------------------------------------------
# Progress bar (stderr, TTY only)
# --------------------------------------------------------------------------

class ProgressBar(Progress):
    """The noise runner's bar: ``[#####-----]  120/300 runs  40% ...``.

    A `synagree.base.progress.Progress`; ``enabled`` is the user's wish (no
    ``-q``): it still draws only on a terminal.  ``done`` counts resumed runs,
    which the ETA's rate leaves out.

    Examples
    --------
    >>> import io
    >>> bar = ProgressBar(10, done=4, stream=io.StringIO())  # not a terminal: silent
    >>> bar.enabled, bar.text().split("  elapsed")[0]
    (False, '[############------------------]  4/10 runs  40%')
    """

    def __init__(self, total: int, done: int = 0, enabled: bool = True, stream=None,
                 label: str = "runs", width: int = 30, min_interval: float = 0.1):
        super().__init__(total, label, enabled=None if enabled else False, stream=stream,
                         done=done, width=width, min_interval=min_interval)


# --------------------------------------------------------------------------
# Experiment with an output directory (append log, resume)
# --------------------------------------------------------------------------

@dataclass
class ExperimentOutcome:
    r"""What `run_noise_experiment` did: rows, summary, files and timings.

    Parameters
    ----------
    out_dir : pathlib.Path
    config : dict
        The stored configuration.
    rows : list of dict
        Every run done so far (resumed and new), in plan order.
    summary : list of dict
        `summarize` of the rows.
    columns, metrics : list of str
    resumed : int
        Runs found done in the log.
    computed : int
        Runs computed now.
    seconds : float
    timings : dict of str to float
        Seconds per stage.
    files : dict of str to pathlib.Path
        The files written (``results.json`` and the summaries only when every
        run is done).
    warnings : list of str

    Examples
    --------
    >>> import os, shutil, tempfile
    >>> tmp = tempfile.mkdtemp()
    >>> row = "{}\tw\t_\t_\t_\t_\t{}\t{}\t_\t_\n"
    >>> text = "".join(row.format(i + 1, h, r) for i, (h, r) in enumerate(
    ...     [(2, "nsubj"), (0, "root"), (2, "obj")])) + "\n"
    >>> path = os.path.join(tmp, "source.conllu")
    >>> with open(path, "w") as f:
    ...     _ = f.write(text * 5)
    >>> res = run_noise_experiment([path], os.path.join(tmp, "out"), sample=2,
    ...                            series=["both"], grid=[1.0], runs=1)
    >>> res.metrics[:3], res.resumed, res.computed, res.files["summary_md"].name
    (['alpha_plain', 'alpha_diff', 'alpha_norm'], 0, 1, 'summary.md')
    >>> shutil.rmtree(tmp)
    """
    out_dir: Path
    config: dict
    rows: List[Dict[str, object]]
    summary: List[Dict[str, object]]
    columns: List[str]
    metrics: List[str]
    resumed: int  # runs found done in the log
    computed: int  # runs computed now
    seconds: float
    timings: Dict[str, float]
    files: Dict[str, Path]
    warnings: List[str] = field(default_factory=list)


# keys of config.json that do not have to match for a resume
_INFO_KEYS = ("synagree_version", "created", "paths", "warnings")


def _comparable(cfg: Mapping) -> dict:
    out = {k: v for k, v in cfg.items() if k not in _INFO_KEYS}
    if isinstance(out.get("source"), Mapping):
        out["source"] = {k: v for k, v in out["source"].items() if k not in _INFO_KEYS}
    return json.loads(json.dumps(out))


def _diff(a, b, prefix: str = "") -> List[str]:
    out = []
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for k in sorted(set(a) | set(b)):
            if k not in a:
                out.append(f"{prefix}{k}: (absent) → {_short(b[k])}")
            elif k not in b:
                out.append(f"{prefix}{k}: {_short(a[k])} → (absent)")
            else:
                out.extend(_diff(a[k], b[k], f"{prefix}{k}."))
    elif a != b:
        out.append(f"{prefix.rstrip('.')}: {_short(a)} → {_short(b)}")
    return out


def _short(v) -> str:
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 70 else s[:67] + "..."


def _read_log(path: Path) -> List[dict]:
    """Rows of the append log; a torn (unterminated or unparsable) last line is cut off."""
    if not path.exists():
        return []
    data = path.read_bytes()
    rows = []
    good_end = 0
    pos = 0
    lines = data.split(b"\n")
    for k, line in enumerate(lines):
        end = pos + len(line) + 1
        last = k == len(lines) - 1
        if line.strip():
            terminated = not last
            try:
                rec = json.loads(line.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                rec = None
            if rec is None or not terminated:
                if any(x.strip() for x in lines[k + 1:]):
                    raise InputError.single(str(path), k + 1, "corrupt-log",
                                            "unreadable line in the middle of the run log; "
                                            "fix or remove it (or use --overwrite)")
                break  # torn last line from an interrupted write
            rows.append(rec)
            good_end = end
        elif not last:
            good_end = end
        pos = end
    if good_end < len(data):
        with open(path, "r+b") as fh:
            fh.truncate(good_end)
            fh.flush()
            os.fsync(fh.fileno())
    return rows


def _path_to_str(o):
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def _dumps(obj, **kw) -> str:
    return json.dumps(json_ready(obj), ensure_ascii=False, default=_path_to_str, **kw)


def run_noise_experiment(sources: Sequence["str | os.PathLike"],
                         out_dir: "str | os.PathLike", *,
                         sample: Optional[int] = 100, seed: int = 0,
                         series: Sequence[str] = PAPER_SERIES,
                         grid: Sequence[float] = DEFAULT_GRID, runs: int = 10,
                         fmt: str = "auto", phrase_style: str = "auto", cycles: str = "skip",
                         label_scope: str = "source", exclude_current_label: bool = False,
                         exclude_current_head: bool = False,
                         extra_metrics: Optional[Sequence] = None,
                         progress: bool = False, overwrite: bool = False,
                         max_runs: Optional[int] = None,
                         hierarchy: Optional[str] = None,
                         reattach_draw: str = "nondominated") -> ExperimentOutcome:
    r"""Run (or resume) a noise experiment into ``out_dir``; see the module docstring.

    docs/method.md §8.  Every finished run is appended to ``runs.jsonl`` at
    once, so a rerun with the same configuration resumes.

    Parameters
    ----------
    sources : sequence of str or path-like
        The treebank files taken as correct.
    out_dir : str or path-like
    sample : int, optional
        Sentences in the sample (None: all).
    seed : int
    series : sequence of str
        From `ALL_SERIES`.
    grid : sequence of float
        Probabilities, fractions in [0, 1].
    runs : int
        Runs per point.
    fmt, phrase_style, cycles, label_scope
        See `load_source`.
    exclude_current_label, exclude_current_head : bool
        See `synagree.noise.perturb.perturb`.
    extra_metrics : sequence, optional
        `Metric` objects or functions; None: `EXTRA_METRICS`.
    progress : bool
        Progress bar (on a terminal only).
    overwrite : bool
        Discard an earlier experiment in ``out_dir``.
    max_runs : int, optional
        Stop after computing that many new runs (for tests and chunked work);
        rerunning continues.
    hierarchy : str, optional
        ``ud``, ``msd``, ``flat`` or a hierarchy file: adds the hierarchical
        label metrics of `synagree.stats.hierarchical.hier_metric_fn`
        (``hier_las``, ``alpha_plain_h``, ...) to every run, over one hierarchy
        built from the experiment's label set.
    reattach_draw : {"nondominated", "reject"}

    Returns
    -------
    ExperimentOutcome

    Raises
    ------
    InputError
        Bad input or usage, another run writing to ``out_dir``, or ``out_dir``
        holding an experiment with another configuration.

    Examples
    --------
    >>> import os, shutil, tempfile
    >>> tmp = tempfile.mkdtemp()
    >>> row = "{}\tw\t_\t_\t_\t_\t{}\t{}\t_\t_\n"
    >>> text = "".join(row.format(i + 1, h, r) for i, (h, r) in enumerate(
    ...     [(2, "nsubj"), (0, "root"), (2, "obj")])) + "\n"
    >>> path = os.path.join(tmp, "source.conllu")
    >>> with open(path, "w") as f:
    ...     _ = f.write(text * 5)
    >>> out = os.path.join(tmp, "out")
    >>> res = run_noise_experiment([path], out, sample=3, series=["relabel"], grid=[0.0, 1.0],
    ...                            runs=2, max_runs=3)
    >>> res.computed, len(res.rows), "json" in res.files  # stopped early: no results.json
    (3, 3, False)
    >>> res = run_noise_experiment([path], out, sample=3, series=["relabel"], grid=[0.0, 1.0],
    ...                            runs=2)
    >>> res.resumed, res.computed, sorted(os.listdir(out))[:3]
    (3, 1, ['.lock', 'config.json', 'results.json'])
    >>> [r["mean"] for r in res.summary if r["metric"] == "uas"]
    [1.0, 1.0]
    >>> shutil.rmtree(tmp)
    """
    t_start = time.perf_counter()
    series = list(series)
    for s in series:
        if s not in ALL_SERIES:
            raise InputError.single("<command line>", None, "usage",
                                    f"unknown series {s!r}; choose from {', '.join(ALL_SERIES)}")
    grid = [round(float(p), 9) for p in grid]
    if runs < 1:
        raise InputError.single("<command line>", None, "usage", "--runs must be >= 1")
    extras = [_as_metric(m) for m in (EXTRA_METRICS if extra_metrics is None
                                      else extra_metrics)]
    source = load_source(sources, sample=sample, seed=seed, fmt=fmt,
                         phrase_style=phrase_style, cycles=cycles, label_scope=label_scope)
    if hierarchy:
        fn = hier_metric_fn(hierarchy, labels=source.labels)
        extras.append(Metric(f"hierarchy:{hierarchy}", fn, tuple(fn.columns)))
    if "random" in series and source.kind != "dependency":
        raise InputError.single(str(sources[0]), None, "usage",
                                "series 'random' needs dependency input")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    src = source.describe()
    config = {
        "synagree_noise_config": CONFIG_VERSION,
        "synagree_version": __version__,
        "source": src,
        "format": fmt, "phrase_style": phrase_style, "cycles": cycles,
        "label_scope": label_scope,
        "sample": sample, "sample_ids": source.sample_ids, "seed": int(seed),
        "series": series, "grid": grid, "runs": int(runs),
        "exclude_current_label": bool(exclude_current_label),
        "exclude_current_head": bool(exclude_current_head),
        "reattach_draw": reattach_draw,
        "extra_metrics": [m.name for m in extras],
        "warnings": source.warnings,
    }
    cfg_path = out / "config.json"
    log_path = out / "runs.jsonl"
    csv_path = out / "runs.csv"
    lock_fh = open(out / ".lock", "a+")
    try:
        try:
            if fcntl is not None:
                fcntl.flock(lock_fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise InputError.single(str(out), None, "busy",
                                    "another synagree noise run is writing to this directory")
        if overwrite:
            for name in ("config.json", "runs.jsonl", "runs.csv", "results.json",
                         "summary.csv", "summary.md"):
                try:
                    (out / name).unlink()
                except FileNotFoundError:
                    pass
        if cfg_path.exists():
            try:
                old = json.loads(cfg_path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                old = None
            if not isinstance(old, dict) or not isinstance(old.get("source", {}), Mapping):
                raise InputError.single(str(cfg_path), None, "corrupt-config",
                                        "config.json is unreadable or not a noise "
                                        "configuration; use --overwrite to start afresh")
            diffs = _diff(_comparable(old), _comparable(config))
            if diffs:
                raise InputError.single(
                    str(cfg_path), None, "config-mismatch",
                    f"{out} holds an experiment with a different configuration, so it "
                    f"cannot be resumed: " + "; ".join(diffs[:8])
                    + ("; ..." if len(diffs) > 8 else "")
                    + ". Use another output directory, or --overwrite to discard it")
        elif log_path.exists() and log_path.stat().st_size:
            raise InputError.single(str(log_path), None, "config-missing",
                                    "runs.jsonl exists without config.json; use --overwrite "
                                    "or another output directory")
        else:
            write_atomic(cfg_path, _dumps(config, indent=2) + "\n")

        specs = run_plan(series, grid, runs, seed)
        spec_keys = {s.key: s for s in specs}
        done: Dict[Tuple[str, float, int], dict] = {}
        for rec in _read_log(log_path):
            try:
                key = (rec["series"], round(float(rec["p"]), 9), int(rec["run"]))
            except (KeyError, TypeError, ValueError):
                raise InputError.single(str(log_path), None, "corrupt-log",
                                        "a row of the run log lacks series/p/run")
            if key in spec_keys:
                done[key] = rec
        todo = [s for s in specs if s.key not in done]
        evaluator = RunEvaluator(source, extras)
        columns = list(KEY_COLUMNS) + evaluator.columns
        metrics = evaluator.columns
        write_atomic(csv_path, _csv_text([done[s.key] for s in specs if s.key in done],
                                         columns))
        bar = ProgressBar(len(specs), len(done), enabled=progress)
        computed = 0
        stopped = False
        try:
            with open(log_path, "a", encoding="utf-8") as log_fh, \
                    open(csv_path, "a", encoding="utf-8", newline="") as csv_fh:
                cw = csv.writer(csv_fh, lineterminator="\n")
                for spec in todo:
                    if max_runs is not None and computed >= max_runs:
                        stopped = True
                        break
                    row = evaluator.run(spec, exclude_current_label, exclude_current_head,
                                        reattach_draw)
                    log_fh.write(_dumps(row) + "\n")
                    log_fh.flush()
                    os.fsync(log_fh.fileno())
                    cw.writerow([_cell(row.get(c)) for c in columns])
                    csv_fh.flush()
                    done[spec.key] = row
                    computed += 1
                    bar.update()
        finally:
            bar.close()
        rows = [done[s.key] for s in specs if s.key in done]
        summary = summarize(rows, metrics)
        files = {"config": cfg_path, "log": log_path, "csv": csv_path}
        write_atomic(csv_path, _csv_text(rows, columns))
        if not stopped:
            files["json"] = out / "results.json"
            files["summary_csv"] = out / "summary.csv"
            files["summary_md"] = out / "summary.md"
            write_atomic(files["json"], _dumps({"config": config, "columns": columns,
                                                "rows": rows, "summary": summary},
                                               indent=1) + "\n")
            write_atomic(files["summary_csv"], _csv_text(
                summary, ["series", "p", "metric", "n", "mean", "median", "std", "min",
                          "max"]))
            title = f"Noise experiment: {', '.join(src['files'])}"
            write_atomic(files["summary_md"], summary_markdown(summary, metrics, title)
                         + f"\nSample: {len(source.sentences)} of {source.pool} sentences, "
                           f"seed {seed}, {runs} runs per point, "
                           f"{len(source.labels)} labels.\n")
    finally:
        lock_fh.close()
    return ExperimentOutcome(out, config, rows, summary, columns, metrics, len(done) - computed,
                             computed, time.perf_counter() - t_start, dict(evaluator.timings),
                             files, source.warnings)


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


