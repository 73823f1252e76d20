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
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from synagree.agreement.adjudicate import AdjudicationResult, adjudicate_corpus
from synagree.agreement.agree import load_corpus
from synagree.agreement.gwet_layers import GwetOptions
from synagree.agreement.report import ReportResult, qa_report
from synagree.agreement.token_layers import TokenLayerAgreement, token_layer_agreement
from synagree.base.command_options import (
    CategoricalOptions,
    NoiseOptions,
    ReadOptions,
    ReportOptions,
)
from synagree.base.frames import Frames
from synagree.base.memory import limited
from synagree.base.option_specs import check_args, shown
from synagree.base.sealed import seal
from synagree.io.sources import Source
from synagree.noise.experiments import ExperimentOutcome, run_noise_experiment
from synagree.render.html import build_report, read_noise
from synagree.stats.baseline_options import BaselineOptions
from synagree.stats.categorical import DEFAULT_LAYERS
from synagree.stats.regression import load_baseline

__all__ = ["adjudicate", "categorical", "report", "noise_experiment", "Report"]

Paths = Sequence["str | os.PathLike[str]"]


def categorical(paths: Sequence[Source] = (), options: Optional[CategoricalOptions] = None,
                *, dirs: Paths = (), **overrides: Any) -> TokenLayerAgreement:
    """Categorical agreement on token layers (``synagree categorical``).

    Observed agreement, Cohen's κ (Davies & Fleiss' κ for more than two
    annotators), Scott's π (Fleiss' κ), nominal Krippendorff's α and specific
    agreement per layer (docs/method.md §12.3).

    Parameters
    ----------
    paths, dirs
        The annotations (paths, texts or streams, one per annotator) or
        annotator directories, as for `synagree.agree`.
    options : CategoricalOptions, optional
        Every option (`synagree.base.command_options.CategoricalOptions`).
    **overrides
        Any field of `CategoricalOptions` by name: ``names``, ``fmt``,
        ``phrase_style``, ``strict``, ``allow_missing``, ``check_text``,
        ``match`` (how they are read, `synagree.agreement.agree.load_corpus`)
        and those below.
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
    max_memory : int or str
        Bytes the bootstrap may plan to use (or a size such as ``"4G"``).
    coefficient : {"ac1", "ac2"}, optional
        Also Gwet's AC1 or AC2 per layer (``TokenLayerAgreement.gwet``,
        docs/method.md §34.1), its interval at ``level``.
    ac2_weights : {"ordinal", "quadratic"}, optional
        AC2's weights; or ``hierarchy``: AC2's weights from a tag hierarchy's
        mutual credit.
    hierarchy : str, path-like or Hierarchy, optional

    Returns
    -------
    TokenLayerAgreement

    Raises
    ------
    TypeError, ValueError
        An option of the wrong type or outside its range.
    InputError
        Bad input.

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
    o = CategoricalOptions.build(options, overrides, "categorical()")
    with limited(o.max_memory):  # the reading budget is a share of it
        corpus = load_corpus(paths, dirs, **o.read_kwargs())
    layers = DEFAULT_LAYERS if o.layers is None else o.layers
    return seal(token_layer_agreement(corpus, layers,
                                      specific=o.specific, per_feature=o.per_feature,
                                      feature_items=o.feature_items, enhanced=o.enhanced,
                                      set_distance=o.set_distance, strict=o.strict,
                                      replicates=o.bootstrap, seed=o.seed, level=o.level,
                                      skip_id_like=o.layers is None,
                                      max_memory=o.max_memory,
                                      gwet=(GwetOptions(o.coefficient, o.ac2_weights, o.hierarchy,
                                                        o.level)
                                            if o.coefficient is not None else None)))


def adjudicate(paths: Sequence[Source] = (), dirs: Paths = (), *, weights: str = "equal",
               decisions: "Optional[str | os.PathLike[str]]" = None,
               progress: Optional[bool] = None, read: Optional[ReadOptions] = None,
               **read_overrides: Any) -> AdjudicationResult:
    """One consensus tree per unit, its provenance and worklist (``synagree adjudicate``).

    The consensus is the maximum spanning arborescence of the annotators'
    (weighted) arc votes with one child of the root, each arc labelled by
    vote (docs/method.md §31, docs/adjudication.md).

    Parameters
    ----------
    paths, dirs
        The annotations, as for `synagree.agree` (dependency or bracketed
        input; bracketed: the non-crossing span consensus, method §31.6).
    weights : {"equal", "competence"}
        Vote weights: 1 each, or from each annotator's accuracy estimated by
        one-coin Dawid–Skene over head (span) choices (`synagree.stats.competence`).
    decisions : str or path-like, optional
        A curator's decisions file (the worklist with choices) applied on top.
    progress : bool, optional
    read : ReadOptions, optional
        How the files are read and matched, as for `synagree.agree`
        (`synagree.base.command_options.ReadOptions`).
    **read_overrides
        Any field of `ReadOptions` by name (``names``, ``fmt``, ``phrase_style``,
        ``strict``, ``allow_missing``, ``check_text``, ``match``).

    Returns
    -------
    AdjudicationResult
        ``consensus`` (the sentences or trees), ``to_conllu()`` / ``to_text()``,
        ``worklist``,
        ``scores`` (each annotator against the consensus), ``to_dict()``,
        ``to_frame()``.

    Raises
    ------
    TypeError, ValueError
        ``weights`` not one of ``--weights``' choices, ``decisions`` not a
        path (`synagree.base.option_specs`), or a bad reading option.
    InputError
        Bad input or decisions.

    Examples
    --------
    >>> import io, synagree
    >>> row = "{}\\tw\\t_\\t_\\t_\\t_\\t{}\\t{}\\t_\\t_\\n"
    >>> a = row.format(1, 2, "nsubj") + row.format(2, 0, "root") + "\\n"
    >>> b = row.format(1, 0, "root") + row.format(2, 1, "obj") + "\\n"
    >>> res = synagree.adjudicate([io.StringIO(a), io.StringIO(a), io.StringIO(b)])
    >>> res.consensus[0].heads.tolist(), res.decided["decided_by_vote"]
    ([2, 0], 2)
    >>> [(s.annotator, s.LAS) for s in res.scores]
    [('ann1', 1.0), ('ann2', 1.0), ('ann3', 0.0)]
    """
    checked = check_args("adjudicate(): ", weights=weights, decisions=decisions)
    o = ReadOptions.build(read, read_overrides, "adjudicate()")
    corpus = load_corpus(paths, dirs, **o.read_kwargs())
    return adjudicate_corpus(corpus, checked["weights"], decisions=checked["decisions"],
                             progress=progress)


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
    #: the consensus and its worklist, in the HTML page (``adjudicate=True``)
    adjudication: Optional[AdjudicationResult] = None

    def render(self, output: str = "html") -> str:
        """The report as ``html``, ``json``, ``csv``, ``markdown`` or ``latex`` text."""
        return build_report(self.result, output, noise=self.noise,
                            max_sentences=self.max_sentences, title=self.title,
                            adjudication=self.adjudication if output == "html" else None)

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


def report(paths: Sequence[Source] = (), options: Optional[ReportOptions] = None, *,
           dirs: Paths = (), **overrides: Any) -> Report:
    """The annotation-QA report (``synagree report``), in memory.

    Parameters
    ----------
    paths, dirs
        The annotations (paths, texts or streams) or directories, as for
        `synagree.agree`.
    options : ReportOptions, optional
        Every option (`synagree.base.command_options.ReportOptions`).
    **overrides
        Any field of `ReportOptions` by name: the reading options of
        `synagree.agree` (``names``, ``fmt``, ...) and those below.
    layers : sequence of str, optional
        Token layers for categorical agreement (None: the default ones,
        id-like layers left out with a note).
    bootstrap, seed, level
        One set of unit resamples for every interval (0: none).
    worst : int
        Sentences in the worst list.
    variant : str
        The α variant the worst sentences are ranked by.
    baseline : str, path-like or BaselineOptions, optional
        An earlier run to compare with (docs/method.md §18): its JSON file or
        the options.
    sample_pairs, exact
        How D_e is computed (docs/method.md §5.3).
    title, max_sentences, noise
        Of the HTML page: its title, the worst sentences kept, noise-curve rows
        (or a noise-experiment directory) drawn with the corpus's reference lines.
    adjudicate : bool
        The HTML page also holds the consensus's worklist, with a choice between
        the annotators and downloads of the adjudicated file and the decisions
        (``synagree report --adjudicate``; docs/adjudication.md).
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
    o = ReportOptions.build(options, overrides, "report()")
    baseline = o.baseline
    if isinstance(baseline, (str, os.PathLike)):
        baseline = BaselineOptions(load_baseline(Path(baseline), "agree", max_memory=o.max_memory),
                                   str(baseline), seed=o.seed, level=o.level)
    # a noise-results file read (and refused) before the long work, as the CLI does
    noise = read_noise(o.noise) if isinstance(o.noise, (str, os.PathLike)) else o.noise
    with limited(o.max_memory):  # the reading budget is a share of it
        corpus = load_corpus(paths, dirs, **o.read_kwargs())
    result = qa_report(corpus, layers=DEFAULT_LAYERS if o.layers is None else o.layers,
                       skip_id_like=o.layers is None, bootstrap=o.bootstrap, seed=o.seed,
                       level=o.level, worst=o.worst, variant=o.variant, baseline=baseline,
                       sample_pairs=o.sample_pairs, exact=o.exact, max_memory=o.max_memory)
    adjudication = adjudicate_corpus(corpus, progress=False) if o.adjudicate else None
    return seal(Report(result, title=o.title, max_sentences=o.max_sentences, noise=noise,
                       adjudication=adjudication))


def noise_experiment(sources: Sequence[Source], out_dir: "str | os.PathLike[str]",
                     options: Optional[NoiseOptions] = None,
                     **overrides: Any) -> ExperimentOutcome:
    """The noise experiments of Skjærholt (2014) (``synagree noise``; docs/method.md §8).

    (``synagree.noise`` is the subpackage that implements them, hence the name.)

    Perturbs a sample of trees taken as correct at each probability of
    ``grid`` for each of ``series`` and measures α and the word scores
    against the originals, ``runs`` times each; every finished run is
    appended to ``out_dir/runs.jsonl``, so a second call with the same
    settings resumes.  The full set of options is
    `synagree.noise.experiments.run_noise_experiment`.

    Parameters
    ----------
    sources : sequence of str, path-like or file-like
        The trees taken as correct (paths, texts or streams).
    out_dir : str or path-like
        Where the runs are written.
    options : NoiseOptions, optional
        `synagree.base.command_options.NoiseOptions`.
    **overrides
        Any field of `NoiseOptions` by name: ``sample``, ``seed``,
        ``series``, ``grid``, ``runs``, ``fmt``, ``phrase_style``,
        ``hierarchy``, ``progress``, ``overwrite``, ``max_memory``.

    Returns
    -------
    ExperimentOutcome
        ``rows``, ``summary``, ``to_frame()`` (one row per run and metric).
    """
    o = NoiseOptions.build(options, overrides, "noise_experiment()")
    if not isinstance(out_dir, (str, os.PathLike)):
        raise TypeError(f"noise_experiment(): out_dir must be a path (str or pathlib.Path), "
                        f"not {type(out_dir).__name__} {shown(out_dir)}")
    return run_noise_experiment(sources, out_dir, **o.as_kwargs())

