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

import copy
import csv
import json
import math
import os
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union, cast

import numpy as np

from synagree.base.frames import Frames
from synagree.io.brackets import PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.noise.results import (
    ALPHA_COLUMNS,
    DEP_SCORES,
    KEY_COLUMNS,
    PHRASE_SCORES,
    _cell,
    _csv_text,
    _dumps,
    summarize,
    summary_markdown,
)
from synagree.noise.source import NoiseSource, RunSpec, load_source, perturb_sample

try:  # advisory lock on the output directory (POSIX); elsewhere no lock is taken
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]  # no such module here: no lock (checked at use)

from synagree._version import __version__
from synagree.base import native
from synagree.base.memory import check_noise
from synagree.base.option_specs import MAX_GRID_POINTS, SPECS, too_many
from synagree.base.problems import InputError
from synagree.base.progress import Progress
from synagree.base.sealed import seal
from synagree.distance import ted as _ted
from synagree.distance.dask_exec import JobMap
from synagree.distance.sums import delta_squared
from synagree.io.files import make_output_dir, output_error, write_atomic, writing
from synagree.io.formats import Sentence
from synagree.io.sources import Source
from synagree.stats.alpha import VARIANTS, AlphaStats
from synagree.stats.attachment import jaccard_scores, non_ud_labels
from synagree.stats.hierarchical import hier_metric_fn
from synagree.trees.flat import FlatTree, Vocabulary, build_tree

# the series, the grid and its bound are declared with the options (base.option_specs)
PAPER_SERIES: Tuple[str, ...] = tuple(SPECS["series"].default)
ALL_SERIES: Tuple[str, ...] = tuple(SPECS["series"].choices)
DEFAULT_GRID: Tuple[float, ...] = tuple(SPECS["grid"].default)
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
    """

    name: str
    fn: Callable[[Sequence[Sentence], Sequence[Sentence]], object]
    columns: Tuple[str, ...] = ()

    @property
    def cols(self) -> Tuple[str, ...]:
        """The metric's columns: ``columns``, or ``(name,)``."""
        return self.columns or (self.name,)

    def compute(self, originals: Sequence[Any], perturbed: Sequence[Any]
                ) -> Dict[str, Optional[float]]:
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
EXTRA_METRICS: List[Union[Metric, Callable[..., Any]]] = []


def _as_metric(m: Union[Metric, Callable[..., Any]]) -> Metric:
    if isinstance(m, Metric):
        return m
    if callable(m):
        return Metric(getattr(m, "__name__", "metric"), m)
    raise TypeError(f"not a metric: {m!r}")


def _num(x: Any) -> Optional[float]:
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


# --------------------------------------------------------------------------
# Run plan
# --------------------------------------------------------------------------


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
    """
    return [RunSpec(s, float(p), r, run_seed(seed, s, float(p), r))
            for s in series for p in grid for r in range(runs)]




def parse_grid(text: str) -> List[float]:
    """The probabilities of ``--grid``: ``"0.1,0.5,1"`` or ``"start:stop:num"``.

    ``start:stop:num`` is inclusive, like `numpy.linspace`.

    Returns
    -------
    list of float
        Fractions in [0, 1], rounded to 1e-9.

    Raises
    ------
    InputError
        Malformed, outside [0, 1], repeated values, or more than
        `MAX_GRID_POINTS` points (``usage``).
    """
    text = text.strip()
    try:
        if ":" in text:
            a, b, k = text.split(":")
            if int(k) > MAX_GRID_POINTS:  # checked before anything is allocated
                raise _too_many(text, int(k))
            if int(k) < 1:
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
        raise _too_many(text, len(vals))
    vals = [round(v, 9) for v in vals]
    if not vals or any(not 0.0 <= v <= 1.0 for v in vals):
        raise InputError.single("<command line>", None, "usage",
                                f"--grid {text!r}: probabilities must lie in [0, 1]")
    if len(set(vals)) != len(vals):
        raise InputError.single("<command line>", None, "usage",
                                f"--grid {text!r}: repeated values")
    return vals


def _too_many(text: str, count: int) -> InputError:
    """``--grid`` with more than `MAX_GRID_POINTS` points: the API's sentence
    (`synagree.base.option_specs.too_many`), naming the option and the value given."""
    return InputError.single("<command line>", None, "usage",
                             too_many(SPECS["grid"], count, "--grid") + f" ({text!r})")


def parse_series(text: str) -> List[str]:
    """The series of ``--series``: comma-separated names from `ALL_SERIES`.

    Returns
    -------
    list of str
        Without repeats, in the order given.

    Raises
    ------
    InputError
        An unknown or no series (``usage``).
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


# --------------------------------------------------------------------------
# Perturbing a sample
# --------------------------------------------------------------------------


# --------------------------------------------------------------------------
# Fast evaluation: originals' trees and distances computed once
# --------------------------------------------------------------------------

def _has_ud_las(source: NoiseSource) -> bool:
    """LAS (universal relations) only where the relations are UD's, as agree reports it."""
    return source.kind == "dependency" and not non_ud_labels(source.labels)


def metric_columns(source: NoiseSource, extras: Sequence["Metric"] = ()) -> List[str]:
    """The metric columns of a run's row: the α variants, the scores (LAS where the
    relations are UD's; LAS_full, UAS, LA, or Jaccard for bracketed trees), then each
    extra metric's."""
    base = list(ALPHA_COLUMNS) + (["LAS"] if _has_ud_las(source) else []) + list(
        DEP_SCORES if source.kind == "dependency" else PHRASE_SCORES)
    for m in extras:
        base.extend(m.cols)
    return base


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
    """

    def __init__(self, source: NoiseSource, extra_metrics: Sequence[Any] = ()):
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
        self.ud = _has_ud_las(source)
        if self.kind == "dependency":
            orig = cast(List[DepSentence], self.orig)  # a dependency sample
            self._heads = np.concatenate([s.heads for s in orig]).astype(np.int32)
            self._labs = np.array([self.vocab.id(d) for s in orig for d in s.deprels],
                                  dtype=np.int32)

    def _universal_ids(self) -> np.ndarray:
        """Per label id, an id of its universal part (before ``:``)."""
        parts: Dict[str, int] = {}
        return np.array([parts.setdefault(lab.split(":", 1)[0], len(parts))
                         for lab in self.vocab.labels], dtype=np.int32)

    @property
    def columns(self) -> List[str]:
        """The metric columns of a row (α variants, scores, extra metrics)."""
        return metric_columns(self.source, self.extra)

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
            dist = _ted.pair_distances(pack, ii, jj)
            dm[ii, jj] = dist
            dm[jj, ii] = dist
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
        out: Dict[str, Optional[float]]
        if self.kind == "dependency":
            deps = cast(Sequence[DepSentence], perturbed)  # the sample's kind
            heads = np.concatenate([s.heads for s in deps])
            labs = np.array([self.vocab.id(d) for s in deps for d in s.deprels],
                            dtype=np.int32)
            he = heads == self._heads
            le = labs == self._labs
            n = float(len(he))
            out = {}
            if self.ud:
                uni = self._universal_ids()
                out["LAS"] = float(np.count_nonzero(he & (uni[labs] == uni[self._labs]))) / n
            out.update({"LAS_full": float(np.count_nonzero(he & le)) / n,
                        "UAS": float(np.count_nonzero(he)) / n,
                        "LA": float(np.count_nonzero(le)) / n})
        else:
            phrases = cast(Sequence[PhraseSentence], perturbed)  # the sample's kind
            orig = cast(List[PhraseSentence], self.orig)
            c = jaccard_scores([[a, b] for a, b in zip(orig, phrases)])
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

    def fork(self) -> "RunEvaluator":
        """A copy for one run elsewhere (a Dask task): the sample's trees and
        distances shared, the vocabulary (which a run may extend) and the
        timings its own.  A run's numbers do not depend on the vocabulary's
        numbering, only on which labels are equal, so they are those of a run
        made here."""
        twin = copy.copy(self)
        twin.vocab = copy.deepcopy(self.vocab)
        twin.timings = dict.fromkeys(self.timings, 0.0)
        return twin

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


#: one run as a job: the spec, exclude_current_label, exclude_current_head, reattach_draw
RunJob = Tuple[RunSpec, bool, bool, str]


def run_job(evaluator: RunEvaluator, job: RunJob) -> Tuple[Dict[str, object], Dict[str, float]]:
    """One run on a fork of ``evaluator`` (a Dask task): its row and its timings."""
    twin = evaluator.fork()
    spec, exclude_label, exclude_head, draw = job
    return twin.run(spec, exclude_label, exclude_head, draw), twin.timings


def iter_runs(source: NoiseSource, specs: Iterable[RunSpec], extra_metrics: Sequence[Any] = (),
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
    """
    ev = RunEvaluator(source, extra_metrics)
    for spec in specs:
        yield ev.run(spec, exclude_current_label, exclude_current_head, reattach_draw)


# --------------------------------------------------------------------------
# Summary
# --------------------------------------------------------------------------


# --------------------------------------------------------------------------
# Progress bar (stderr, TTY only)
# --------------------------------------------------------------------------

class ProgressBar(Progress):
    """The noise runner's bar: ``[#####-----]  120/300 runs  40% ...``.

    A `synagree.base.progress.Progress`; ``enabled`` is the user's wish (no
    ``-q``): it still draws only on a terminal.  ``done`` counts resumed runs,
    which the ETA's rate leaves out.
    """

    def __init__(self, total: int, done: int = 0, enabled: bool = True, stream: Any = None,
                 label: str = "runs", width: int = 30, min_interval: float = 0.1):
        super().__init__(total, label, enabled=None if enabled else False, stream=stream,
                         done=done, width=width, min_interval=min_interval)


# --------------------------------------------------------------------------
# Experiment with an output directory (append log, resume)
# --------------------------------------------------------------------------

@dataclass
class ExperimentOutcome(Frames):
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
    config: Dict[str, Any]
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

    def to_dict(self) -> Dict[str, Any]:
        """The configuration, every run and the summary, JSON-ready."""
        return {"config": self.config, "runs": self.rows, "summary": self.summary,
                "files": {k: str(v) for k, v in self.files.items()},
                "warnings": list(self.warnings)}

    def frame_rows(self) -> List[Dict[str, Any]]:
        """One row per run and metric: the run's keys, ``metric``, ``value``."""
        keys = [c for c in self.columns if c not in self.metrics]
        return [{**{k: r.get(k) for k in keys}, "metric": m, "value": r.get(m)}
                for r in self.rows for m in self.metrics if m in r]


# keys of config.json that do not have to match for a resume
_INFO_KEYS = ("synagree_version", "created", "paths", "warnings")


def _comparable(cfg: Mapping[str, Any]) -> Dict[str, Any]:
    out = {k: v for k, v in cfg.items() if k not in _INFO_KEYS}
    if isinstance(out.get("source"), Mapping):
        out["source"] = {k: v for k, v in out["source"].items() if k not in _INFO_KEYS}
    return cast(Dict[str, Any], json.loads(json.dumps(out)))


def _diff(a: Any, b: Any, prefix: str = "") -> List[str]:
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


def _short(v: Any) -> str:
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 70 else s[:67] + "..."


def _read_log(path: Path) -> List[Dict[str, Any]]:
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
        with writing(path, "cut the torn last line of", kept="the run log is as it was"), \
                open(path, "r+b") as fh:
            fh.truncate(good_end)
            fh.flush()
            os.fsync(fh.fileno())
    return rows


def _nodes(sent: Sentence) -> int:
    """Nodes of a sentence's tree (words + the root for a dependency tree)."""
    if isinstance(sent, PhraseSentence):
        return len(sent.root.postorder())
    return len(sent.heads) + 1


def plan_experiment(source: NoiseSource, runs: int, extras: Sequence["Metric"] = (),
                    max_memory: Optional[int] = None) -> None:
    """Plan a noise experiment's memory before it starts (`synagree.base.memory.check_noise`).

    Every run's row is held until the results are written (``runs`` × the
    columns); the sample's distinct trees have their pairwise TEDs held (and
    each run's new trees against them: about four K × K float64 tables); the
    TED tables are sized by the largest sentence of the sample.

    Parameters
    ----------
    source : NoiseSource
    runs : int
        Runs in all (series × grid points × runs per point).
    extras : sequence of Metric
    max_memory : int, optional
        ``--max-memory`` (default: `synagree.base.memory.current_limit`).

    Raises
    ------
    InputError
        ``memory-limit``, with a hint.
    """
    columns = (len(KEY_COLUMNS) + len(ALPHA_COLUMNS)
               + len(DEP_SCORES if source.kind == "dependency" else PHRASE_SCORES)
               + sum(len(_as_metric(m).cols) for m in extras))
    nodes = max((_nodes(s) for s in source.sentences), default=1)
    k = len(source.sentences)
    check_noise(runs, columns, nodes, native.threads(), max_memory, extra=32.0 * k * k)


def _start_or_resume(out: Path, config: Dict[str, Any], overwrite: bool) -> None:
    """Start an experiment in ``out`` (config.json written) or check that the one there
    has the same configuration, so it can be resumed (``--overwrite``: discard it)."""
    cfg_path, log_path = out / "config.json", out / "runs.jsonl"
    if overwrite:
        for name in ("config.json", "runs.jsonl", "runs.csv", "results.json",
                     "summary.csv", "summary.md"):
            with writing(out / name, "remove (--overwrite)"):
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


def _write_results(out: Path, config: Dict[str, Any], columns: List[str],
                   rows: List[Dict[str, Any]], summary: List[Dict[str, Any]],
                   metrics: List[str], source: Any, seed: int, runs: int) -> Dict[str, Path]:
    """results.json, summary.csv and summary.md of a finished experiment."""
    files = {"json": out / "results.json", "summary_csv": out / "summary.csv",
             "summary_md": out / "summary.md"}
    write_atomic(files["json"], _dumps({"config": config, "columns": columns,
                                        "rows": rows, "summary": summary},
                                       indent=1) + "\n")
    write_atomic(files["summary_csv"], _csv_text(
        summary, ["series", "p", "metric", "n", "mean", "median", "std", "min", "max"]))
    title = f"Noise experiment: {', '.join(config['source']['files'])}"
    write_atomic(files["summary_md"], summary_markdown(summary, metrics, title)
                 + f"\nSample: {len(source.sentences)} of {source.pool} sentences, "
                   f"seed {seed}, {runs} runs per point, "
                   f"{len(source.labels)} labels.\n")
    return files


# --------------------------------------------------------------------------
# Core + sections (as agree_corpus's, synagree.agreement.core): the core computed
# once, each part of the outcome a pure function of it returning a frozen dataclass
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class NoiseCore:
    """What every part of a noise experiment builds on, computed once by `noise_core`.

    Attributes
    ----------
    source : NoiseSource
        The sample taken as correct, its label set and where it came from.
    extras : tuple of Metric
        The extra metrics of every run (``hierarchy`` adds its own).
    specs : tuple of RunSpec
        The run plan, series by series, point by point (`run_plan`).
    config : dict
        The stored configuration (``config.json``; a resume must match it).
    columns, metrics : tuple of str
        A row's columns (the run's keys, then the metrics) and its metrics.
    draw : (bool, bool, str)
        ``exclude_current_label``, ``exclude_current_head``, ``reattach_draw``.
    """

    source: NoiseSource
    extras: Tuple["Metric", ...]
    specs: Tuple[RunSpec, ...]
    config: Dict[str, Any]
    columns: Tuple[str, ...]
    metrics: Tuple[str, ...]
    draw: Tuple[bool, bool, str]


def noise_core(sources: Sequence[Source], *, sample: Optional[int], seed: int,
               series: Sequence[str], grid: Sequence[float], runs: int, fmt: str,
               phrase_style: str, cycles: str, label_scope: str, draw: Tuple[bool, bool, str],
               extra_metrics: Optional[Sequence[Any]], hierarchy: Optional[str],
               max_memory: Optional[int] = None) -> NoiseCore:
    """The core of `run_noise_experiment`: the options checked, the source read and
    sampled, the extra metrics, the run plan and the configuration (no file written).

    ``draw`` is ``(exclude_current_label, exclude_current_head, reattach_draw)``; the
    other parameters are `run_noise_experiment`'s.  The memory plan
    (`plan_experiment`) refuses an experiment too large for ``max_memory`` before
    the run plan is made.

    Raises
    ------
    ValueError
        A grid above `MAX_GRID_POINTS` points.
    InputError
        An unknown series, ``runs`` below 1, a bad source, ``random`` on bracketed
        trees, an experiment planned to need more memory than ``max_memory``.
    """
    sample = sample or None  # 0: all, as on the command line
    series = list(series)
    for s in series:
        if s not in ALL_SERIES:
            raise InputError.single("<command line>", None, "usage",
                                    f"unknown series {s!r}; choose from {', '.join(ALL_SERIES)}")
    grid = [round(float(p), 9) for p in grid]
    if len(grid) > MAX_GRID_POINTS:  # the command line's and NoiseOptions' bound
        raise ValueError(too_many(SPECS["grid"], len(grid), "run_noise_experiment(): grid"))
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
        raise InputError.single(source.files[0], None, "usage",
                                "series 'random' needs dependency input")
    plan_experiment(source, len(series) * len(grid) * int(runs), extras, max_memory)
    config = {
        "synagree_noise_config": CONFIG_VERSION,
        "synagree_version": __version__,
        "source": source.describe(),
        "format": fmt, "phrase_style": phrase_style, "cycles": cycles,
        "label_scope": label_scope,
        "sample": sample, "sample_ids": source.sample_ids, "seed": int(seed),
        "series": series, "grid": grid, "runs": int(runs),
        "exclude_current_label": bool(draw[0]),
        "exclude_current_head": bool(draw[1]),
        "reattach_draw": draw[2],
        "extra_metrics": [m.name for m in extras],
        "warnings": source.warnings,
    }
    metrics = tuple(metric_columns(source, extras))
    return NoiseCore(source, tuple(extras), tuple(run_plan(series, grid, runs, seed)), config,
                     tuple(KEY_COLUMNS) + metrics, metrics, draw)


@dataclass(frozen=True)
class NoiseRuns:
    """The section ``runs``: one row per run, in plan order (`runs_section`).

    Attributes
    ----------
    rows : tuple of dict
        The run's keys (``series``, ``p``, ..., ``seed``) and every metric
        (fractions; None when undefined).
    timings : dict of str to float
        Seconds per stage.
    """

    rows: Tuple[Dict[str, object], ...]
    timings: Dict[str, float]


def runs_section(core: NoiseCore, specs: Optional[Sequence[RunSpec]] = None,
                 executor: Optional["JobMap"] = None) -> NoiseRuns:
    """The runs of ``specs`` (default: the core's whole plan), computed in memory.

    A pure function of the core: each run is perturbed with its own seed, so its
    row does not depend on which other runs are made, in which order or where
    (``executor``).  `run_noise_experiment` computes the same rows, logging each.
    """
    evaluator = RunEvaluator(core.source, core.extras)
    todo = core.specs if specs is None else tuple(specs)
    rows = tuple(_rows(evaluator, todo, *core.draw, executor))
    return NoiseRuns(rows, dict(evaluator.timings))


@dataclass(frozen=True)
class NoiseSummary:
    """The section ``summary``: per (series, p, metric) n, mean, median, standard
    deviation, min and max (`summarize`) of the rows given.

    Attributes
    ----------
    rows : tuple of dict
    metrics : tuple of str
    """

    rows: Tuple[Dict[str, object], ...]
    metrics: Tuple[str, ...]


def summary_section(core: NoiseCore, rows: Sequence[Mapping[str, object]]) -> NoiseSummary:
    """The summary of ``rows`` (the runs' section, or the rows of the log) over the
    core's metrics: a pure function of both."""
    return NoiseSummary(tuple(summarize(rows, list(core.metrics))), core.metrics)


def run_noise_experiment(sources: Sequence[Source],
                         out_dir: "str | os.PathLike[str]", *,
                         sample: Optional[int] = SPECS["sample"].default, seed: int = 0,
                         series: Sequence[str] = PAPER_SERIES,
                         grid: Sequence[float] = DEFAULT_GRID,
                         runs: int = SPECS["runs"].default,
                         fmt: str = "auto", phrase_style: str = "auto",
                         cycles: str = SPECS["cycles"].default,
                         label_scope: str = SPECS["label_scope"].default,
                         exclude_current_label: bool = False,
                         exclude_current_head: bool = False,
                         extra_metrics: Optional[Sequence[Any]] = None,
                         progress: bool = False, overwrite: bool = False,
                         max_runs: Optional[int] = None,
                         hierarchy: Optional[str] = None,
                         reattach_draw: str = SPECS["reattach_draw"].default,
                         max_memory: Optional[int] = None,
                         executor: Optional["JobMap"] = None) -> ExperimentOutcome:
    r"""Run (or resume) a noise experiment into ``out_dir``; see the module docstring.

    docs/method.md §8.  Every finished run is appended to ``runs.jsonl`` at
    once, so a rerun with the same configuration resumes.

    Parameters
    ----------
    sources : sequence of str, path-like or file-like
        The treebank files taken as correct, or streams of them
        (`synagree.noise.source.load_source`).
    out_dir : str or path-like
    sample : int, optional
        Sentences in the sample (0 or None: all).
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
        (``LAS_hier``, ``alpha_plain_hier``, ...) to every run, over one hierarchy
        built from the experiment's label set.
    reattach_draw : {"nondominated", "reject"}
    max_memory : int, optional
        The memory limit (``--max-memory``; see `plan_experiment`).
    executor : JobMap, optional
        Runs the runs elsewhere, one task per run (a Dask cluster:
        `synagree.distance.dask_exec.DaskExecutor`); the rows come back in
        order and are logged as they come, with the numbers of a local run.
        The timings are the workers'.

    Raises
    ------
    InputError
        Bad input or usage, another run writing to ``out_dir``, ``out_dir``
        holding an experiment with another configuration, or an experiment
        planned to need more memory than the limit (``memory-limit``, before
        anything is written).
    synagree.io.files.OutputError
        ``out_dir`` or a file in it cannot be written (the runs finished are
        kept; a rerun resumes).
    """
    t_start = time.perf_counter()
    core = noise_core(sources, sample=sample, seed=seed, series=series, grid=grid, runs=runs,
                      fmt=fmt, phrase_style=phrase_style, cycles=cycles,
                      label_scope=label_scope,
                      draw=(exclude_current_label, exclude_current_head, reattach_draw),
                      extra_metrics=extra_metrics, hierarchy=hierarchy, max_memory=max_memory)
    source, config = core.source, core.config
    out = make_output_dir(out_dir)
    cfg_path = out / "config.json"
    log_path = out / "runs.jsonl"
    csv_path = out / "runs.csv"
    with writing(out, "write in", kept="nothing was written"):
        lock_fh = open(out / ".lock", "a+")
    try:
        try:
            if fcntl is not None:
                fcntl.flock(lock_fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise InputError.single(str(out), None, "busy",
                                    "another synagree noise run is writing to this directory")
        _start_or_resume(out, config, overwrite)

        specs = core.specs
        spec_keys = {s.key: s for s in specs}
        done: Dict[Tuple[str, float, int], Dict[str, Any]] = {}
        for rec in _read_log(log_path):
            try:
                key = (rec["series"], round(float(rec["p"]), 9), int(rec["run"]))
            except (KeyError, TypeError, ValueError):
                raise InputError.single(str(log_path), None, "corrupt-log",
                                        "a row of the run log lacks series/p/run")
            if key in spec_keys:
                done[key] = rec
        todo = [s for s in specs if s.key not in done]
        evaluator = RunEvaluator(source, core.extras)
        columns, metrics = list(core.columns), list(core.metrics)
        write_atomic(csv_path, _csv_text([done[s.key] for s in specs if s.key in done],
                                         columns))
        bar = ProgressBar(len(specs), len(done), enabled=progress)
        computed = 0
        stopped = False
        try:
            with open(log_path, "a", encoding="utf-8") as log_fh, \
                    open(csv_path, "a", encoding="utf-8", newline="") as csv_fh:
                cw = csv.writer(csv_fh, lineterminator="\n")
                if max_runs is not None and len(todo) > max_runs:
                    todo, stopped = todo[:max_runs], True
                for spec, row in zip(todo, _rows(evaluator, todo, *core.draw, executor)):
                    log_fh.write(_dumps(row) + "\n")
                    log_fh.flush()
                    os.fsync(log_fh.fileno())
                    cw.writerow([_cell(row.get(c)) for c in columns])
                    csv_fh.flush()
                    done[spec.key] = row
                    computed += 1
                    bar.update()
        except BrokenPipeError:
            raise
        except OSError as exc:  # a full disk, a file-size limit ...: what is done stays
            raise output_error(out, exc, "append to the run logs (runs.jsonl, runs.csv) in",
                               kept=f"{len(done)} finished run(s) are kept in "
                                    f"{log_path.name}: rerun the same command to resume "
                                    f"from them") from None
        finally:
            bar.close()
        rows = [done[s.key] for s in specs if s.key in done]
        summary = list(summary_section(core, rows).rows)
        files = {"config": cfg_path, "log": log_path, "csv": csv_path}
        write_atomic(csv_path, _csv_text(rows, columns))
        if not stopped:
            files.update(_write_results(out, config, columns, rows, summary, metrics, source,
                                        seed, runs))
    finally:
        lock_fh.close()
    return seal(ExperimentOutcome(out, config, rows, summary, columns, metrics,
                                  len(done) - computed, computed,
                                  time.perf_counter() - t_start, dict(evaluator.timings), files,
                                  source.warnings))


def _rows(evaluator: RunEvaluator, specs: Sequence[RunSpec], exclude_current_label: bool,
          exclude_current_head: bool, reattach_draw: str,
          executor: Optional["JobMap"]) -> Iterator[Dict[str, object]]:
    """The rows of ``specs`` in order: computed here, or one task per run on ``executor``
    (the workers' timings added to ``evaluator``'s)."""
    if executor is None:
        for spec in specs:
            yield evaluator.run(spec, exclude_current_label, exclude_current_head,
                                reattach_draw)
        return
    jobs = [(spec, exclude_current_label, exclude_current_head, reattach_draw)
            for spec in specs]
    for row, timings in executor.map(run_job, evaluator, jobs):
        for k, t in timings.items():
            evaluator.timings[k] = evaluator.timings.get(k, 0.0) + t
        yield row


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


