"""The public Python API: one call per command, each returning a finished result.

``synagree.agree``, ``synagree.compare``, ``synagree.tags``,
``synagree.categorical``, ``synagree.report``, ``synagree.noise_experiment``,
``synagree.read``, ``synagree.ted`` and ``synagree.krippendorff_alpha``
are the supported entry points (``synagree.__all__``); every other module is
implementation and may change.  This module holds the calls that need more
than one layer of the package (reading, computing and, for the report,
rendering): it sits at the top, beside the command line, and like it only
reads, calls and wraps.

Every result has ``to_dict()`` (the command's JSON), ``to_frame()`` (a
long-form pandas DataFrame, `synagree.base.frames`) and ``_repr_html_`` (a
compact table in Jupyter).  Inputs are paths, ``pathlib.Path`` objects or
open streams (text, binary, compressed), as docs/api.md describes.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

from synagree.agreement.agree import load_corpus
from synagree.agreement.report import ReportResult, qa_report
from synagree.agreement.token_layers import TokenLayerAgreement, token_layer_agreement
from synagree.base.frames import Frames
from synagree.base.memory import DEFAULT_MAX_MEMORY, limited
from synagree.io.sources import Source
from synagree.noise.experiments import (
    DEFAULT_GRID,
    PAPER_SERIES,
    ExperimentOutcome,
    run_noise_experiment,
)
from synagree.render.html import build_report
from synagree.stats.baseline_options import BaselineOptions
from synagree.stats.categorical import DEFAULT_LAYERS

__all__ = ["categorical", "report", "noise_experiment", "Report"]

Paths = Sequence["str | os.PathLike[str]"]


def categorical(paths: Sequence[Source] = (), dirs: Paths = (), *,
                names: Optional[Sequence[str]] = None, fmt: str = "auto",
                phrase_style: str = "auto", strict: bool = False, allow_missing: bool = False,
                check_text: bool = True, match: str = "auto",
                layers: Optional[Sequence[str]] = None, specific: Optional[str] = None,
                per_feature: bool = False, feature_items: str = "all", enhanced: bool = False,
                set_distance: str = "masi", bootstrap: int = 0, seed: int = 0,
                level: float = 0.95,
                max_memory: int = DEFAULT_MAX_MEMORY) -> TokenLayerAgreement:
    """Categorical agreement on token layers (``synagree categorical``).

    Observed agreement, Cohen's κ (Davies & Fleiss' κ for more than two
    annotators), Scott's π (Fleiss' κ), nominal Krippendorff's α and specific
    agreement per layer (docs/method.md §12.3).

    Parameters
    ----------
    paths, dirs, names, fmt, phrase_style, strict, allow_missing, check_text, match
        The annotations and how they are read and matched, as for
        `synagree.agree` (`synagree.agreement.agree.load_corpus`).
    layers : sequence of str, optional
        From ``deprel, head, upos, xpos, feats, head+deprel`` and
        ``feats:NAME``.  None: the default layers, leaving out (with a note)
        a layer whose values look like ids or numbers; a layer named here is
        always kept.
    specific : str, optional
        A layer whose specific agreement per category is listed.
    per_feature, feature_items, enhanced, set_distance
        Per-feature agreement of FEATS and the items of a feature (``all``
        words or those where some annotator gives it, ``present``); α over
        the enhanced (DEPS) edges with ``masi`` or ``jaccard`` set distance.
    bootstrap, seed, level
        Unit-resampling replicates of the percentile intervals (0: none).
    max_memory : int
        Bytes the bootstrap may plan to use.

    Returns
    -------
    TokenLayerAgreement

    Examples
    --------
    >>> import io, synagree
    >>> row = "{}\\tw\\t_\\t{}\\t_\\t_\\t{}\\t{}\\t_\\t_\\n"
    >>> a = row.format(1, "NOUN", 2, "nsubj") + row.format(2, "VERB", 0, "root") + "\\n"
    >>> b = row.format(1, "PRON", 2, "nsubj") + row.format(2, "VERB", 0, "root") + "\\n"
    >>> res = synagree.categorical([io.StringIO(a), io.StringIO(b)], layers=["deprel", "upos"])
    >>> [(r["layer"], r["metric"], r["value"]) for r in res.frame_rows()][:2]
    [('deprel', 'observed', 1.0), ('deprel', 'cohen_kappa', 1.0)]
    """
    with limited(max_memory):  # the reading budget is a share of it
        corpus = load_corpus(paths, dirs, fmt=fmt, phrase_style=phrase_style, strict=strict,
                             allow_missing=allow_missing, names=names, check_text=check_text,
                             match=match)
    return token_layer_agreement(corpus, DEFAULT_LAYERS if layers is None else layers,
                                 specific=specific, per_feature=per_feature,
                                 feature_items=feature_items, enhanced=enhanced,
                                 set_distance=set_distance, strict=strict,
                                 replicates=bootstrap, seed=seed, level=level,
                                 skip_id_like=layers is None, max_memory=max_memory)


@dataclass
class Report(Frames):
    """A computed QA report (`ReportResult`) with its renderings.

    ``html`` is the one-file page of ``synagree report``; `render` gives any
    other format; ``to_dict`` the JSON.
    """

    result: ReportResult
    title: Optional[str] = None
    max_sentences: Optional[int] = 5000
    noise: Any = None  # noise-experiment rows or a results path, drawn in the page

    def render(self, output: str = "html") -> str:
        """The report as ``html``, ``json``, ``csv``, ``markdown`` or ``latex`` text."""
        return build_report(self.result, output, noise=self.noise,
                            max_sentences=self.max_sentences, title=self.title)

    @property
    def html(self) -> str:
        """The offline HTML page (no file written)."""
        return self.render("html")

    def to_dict(self) -> Dict[str, Any]:
        """``synagree report --output json``."""
        return self.result.to_dict()

    def frame_rows(self) -> List[Dict[str, Any]]:
        """The corpus's metrics, then per annotator pair and metric."""
        return self.result.frame_rows()


def report(paths: Sequence[Source] = (), dirs: Paths = (), *,
           names: Optional[Sequence[str]] = None, fmt: str = "auto",
           phrase_style: str = "auto", strict: bool = False, allow_missing: bool = False,
           check_text: bool = True, match: str = "auto",
           layers: Optional[Sequence[str]] = None, bootstrap: int = 0, seed: int = 0,
           level: float = 0.95, worst: int = 20, variant: str = "plain",
           baseline: Optional[BaselineOptions] = None, sample_pairs: Optional[int] = None,
           exact: bool = False, title: Optional[str] = None,
           max_sentences: Optional[int] = 5000, noise: Any = None,
           max_memory: int = DEFAULT_MAX_MEMORY) -> Report:
    """The annotation-QA report (``synagree report``), in memory.

    Parameters
    ----------
    paths, dirs, names, fmt, phrase_style, strict, allow_missing, check_text, match
        The annotations and how they are read, as for `synagree.agree`.
    layers : sequence of str, optional
        Token layers for categorical agreement (None: the default ones,
        id-like layers left out with a note).
    bootstrap, seed, level
        One set of unit resamples for every interval (0: none).
    worst : int
        Sentences in the worst list.
    variant : str
        The α variant the worst sentences are ranked by.
    baseline : BaselineOptions, optional
        An earlier run to compare with (docs/method.md §18).
    sample_pairs, exact
        How D_e is computed (docs/method.md §5.3).
    title, max_sentences, noise
        Of the HTML page: its title, the worst sentences kept, noise-curve rows
        (or a noise-experiment directory) drawn with the corpus's reference lines.
    max_memory : int

    Returns
    -------
    Report
        ``.html`` (the page), ``.render(fmt)``, ``.to_dict()``, ``.to_frame()``.

    Examples
    --------
    >>> import io, synagree
    >>> row = "{}\\tw\\t_\\t_\\t_\\t_\\t{}\\t{}\\t_\\t_\\n"
    >>> a = (row.format(1, 2, "nsubj") + row.format(2, 0, "root") + "\\n") * 3
    >>> b = (row.format(1, 2, "obj") + row.format(2, 0, "root") + "\\n") * 3
    >>> rep = synagree.report([io.StringIO(a), io.StringIO(b)], layers=["deprel"])
    >>> rep.html.startswith("<!DOCTYPE html>"), rep.to_dict()["UAS"]
    (True, 1.0)
    """
    with limited(max_memory):  # the reading budget is a share of it
        corpus = load_corpus(paths, dirs, fmt=fmt, phrase_style=phrase_style, strict=strict,
                             allow_missing=allow_missing, names=names, check_text=check_text,
                             match=match)
    result = qa_report(corpus, layers=DEFAULT_LAYERS if layers is None else layers,
                       skip_id_like=layers is None, bootstrap=bootstrap, seed=seed,
                       level=level, worst=worst, variant=variant, baseline=baseline,
                       sample_pairs=sample_pairs, exact=exact, max_memory=max_memory)
    return Report(result, title=title, max_sentences=max_sentences, noise=noise)


def noise_experiment(sources: Sequence[Source], out_dir: "str | os.PathLike[str]", *,
          sample: Optional[int] = 100, seed: int = 0,
          series: Sequence[str] = PAPER_SERIES, grid: Sequence[float] = DEFAULT_GRID,
          runs: int = 10, fmt: str = "auto", phrase_style: str = "auto",
          hierarchy: Optional[str] = None, progress: bool = False,
          overwrite: bool = False,
          max_memory: Optional[int] = None) -> ExperimentOutcome:
    """The noise experiments of Skjærholt (2014) (``synagree noise``; docs/method.md §8).

    (``synagree.noise`` is the subpackage that implements them, hence the name.)

    Perturbs a sample of trees taken as correct at each probability of
    ``grid`` for each of ``series`` and measures α and the word scores
    against the originals, ``runs`` times each; every finished run is
    appended to ``out_dir/runs.jsonl``, so a second call with the same
    settings resumes.  The full set of options is
    `synagree.noise.experiments.run_noise_experiment`.

    Returns
    -------
    ExperimentOutcome
        ``rows``, ``summary``, ``to_frame()`` (one row per run and metric).
    """
    return run_noise_experiment(sources, out_dir, sample=sample, seed=seed, series=series,
                                grid=grid, runs=runs, fmt=fmt, phrase_style=phrase_style,
                                hierarchy=hierarchy, progress=progress, overwrite=overwrite,
                                max_memory=max_memory)

