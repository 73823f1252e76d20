"""Mathet et al.'s γ over span annotations (``synagree spans --coefficient gamma``).

docs/method.md §34.5.  The spans and the continuum are those of
``--coefficient alpha-u`` (`synagree.evaluation.span_alpha.read_spans`):
constituents or preterminals of bracketed trees over the tokens of the
sentences one after another, or the words of CoNLL-U files over the
characters of their shared text, labelled by one column.  Each file is an
annotator and each span a unit ``(annotator, start, end, label)``; γ and its
conventions are those of `synagree.stats.gamma` (pygamma-agreement's
defaults).  Units may overlap and nest (γ allows it); a span an annotator
gives twice (a unary chain X → X over the same words) is one unit, as in
pygamma, and the output counts them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from synagree.base.option_specs import check_as
from synagree.base.problems import InputError
from synagree.base.table import Column, Table
from synagree.evaluation.span_alpha import read_spans
from synagree.io.sources import Source
from synagree.stats.gamma import PRECISION_LEVELS, GammaResult, GammaTooLarge, gamma

__all__ = ["SpanGamma", "span_gamma", "GAMMA_DEFAULTS", "precision_level"]

#: the defaults of ``spans --coefficient gamma`` (pygamma's n_samples; seed ours)
GAMMA_DEFAULTS = {"samples": 30, "seed": 0}


def _usage(message: str) -> InputError:
    return InputError.single("<command line>", None, "usage", message)


def precision_level(value: Optional[str]) -> Optional[float]:
    """``--gamma-precision``: ``high``, ``medium``, ``low`` (pygamma's 0.01, 0.02, 0.1) or a
    number in (0, 1); None for None.

    Examples
    --------
    >>> precision_level("medium"), precision_level("0.05"), precision_level(None)
    (0.02, 0.05, None)
    """
    if value is None:
        return None
    if value in PRECISION_LEVELS:
        return PRECISION_LEVELS[value]
    try:
        level = float(value)
    except ValueError:
        level = float("nan")
    if not 0 < level < 1:
        raise _usage(f"--gamma-precision {value!r}: expected high, medium, low or a number "
                     f"between 0 and 1 (exclusive)")
    return level


@dataclass(frozen=True)
class SpanGamma:
    """γ of span annotations.

    Attributes
    ----------
    files, annotators : list of str
        Annotators in sorted order (pygamma's).
    categories : list of str
        Sorted.
    layer, positions : str
    result : GammaResult
    duplicates : dict of str to int
        Per annotator, spans given again (same start, end and label), counted once.
    notes : list of str
    """

    files: List[str]
    annotators: List[str]
    categories: List[str]
    layer: str
    positions: str
    result: GammaResult
    duplicates: Dict[str, int]
    notes: List[str] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: the settings, γ, the disorders and the sampled disorders."""
        return {"files": list(self.files), "annotators": list(self.annotators),
                "layer": self.layer, "positions": self.positions, "coefficient": "gamma",
                "dissimilarity": "combined categorical (alpha=1, beta=1, delta_empty=1)",
                "sampler": "statistical", "categories": list(self.categories),
                **self.result.to_dict(), "duplicates_left_out": dict(self.duplicates),
                "notes": list(self.notes)}

    def tables(self) -> List[Table]:
        """The ``gamma`` table: one row."""
        r = self.result
        t = Table("gamma", [Column("gamma", "number"), Column("gamma_ci", "interval"),
                            Column("d_o", "number"), Column("d_e", "number"),
                            Column("d_e_se", "number"), Column("samples", "count"),
                            Column("seed", "count"), Column("units", "count")],
                  title=f"Mathet et al.'s gamma over {self.layer} ({self.positions}; "
                        f"{r.annotators} annotators, {len(self.categories)} categories)",
                  notes=list(self.notes))
        t.add(r.gamma, r.gamma_interval, r.observed, r.expected, r.expected_se,
              len(r.samples), r.seed, r.units)
        return [t]


def span_gamma(paths: Sequence[Source], layer: Optional[str] = None, *,
               samples: int = 30, seed: int = 0, precision: Optional[float] = None,
               budget: Optional[int] = None, fmt: str = "auto", phrase_style: str = "auto",
               names: Optional[Sequence[str]] = None, allow_missing: bool = False,
               check_text: bool = True) -> SpanGamma:
    """γ of two or more files' spans (module docstring).

    Parameters
    ----------
    paths, layer, fmt, phrase_style, names, allow_missing, check_text
        As for `synagree.evaluation.span_alpha.span_alpha_u`: two or more files, all
        bracketed trees or all CoNLL-U, and how to read them.
    samples : int
        Random continua for the expected disorder (default 30, pygamma's).
    seed : int
        Of the sampler (``numpy.random.RandomState``).
    precision : float, optional
        pygamma's precision level: more samples when the first ones vary too much.
    budget : int, optional
        The exact best alignment's budget (`synagree.stats.gamma.best_disorder`; its
        defaults by the number of files).

    Raises
    ------
    TypeError, ValueError
        ``samples``, ``seed`` or ``budget`` outside the range of its command-line option
        (``--gamma-samples``: 2 to 1,000,000; ``--gamma-seed``: 0 to 2**32 - 1;
        ``--gamma-budget``: 1 or more).
    InputError
        ``usage`` (fewer than two files, mixed formats, a layer that
        does not apply, no spans), ``gamma-too-large`` (above the budget), and every reading
        problem.

    Examples
    --------
    >>> import io
    >>> a = io.StringIO("(S (NP (D a)) (VP (V b) (NP (N c))))\\n(S (NP (N d)) (VP (V e)))\\n")
    >>> b = io.StringIO("(S (NP (D a)) (VP (V b) (N c)))\\n(S (NP (N d)) (VP (V e)))\\n")
    >>> r = span_gamma([a, b], phrase_style="penn", samples=10)
    >>> r.categories, r.result.units, round(r.result.observed, 4)  # one NP alone: 1 / (13 / 2)
    (['NP', 'S', 'VP'], 13, 0.1538)
    """
    # as --gamma-samples, --gamma-seed and --gamma-budget (synagree.base.option_specs)
    samples = check_as("samples", "gamma_samples", samples, "span_gamma(): ", optional=False)
    seed = check_as("seed", "gamma_seed", seed, "span_gamma(): ", optional=False)
    budget = check_as("budget", "gamma_budget", budget, "span_gamma(): ")
    got = read_spans(paths, layer, "gamma", fmt=fmt, phrase_style=phrase_style, names=names,
                     allow_missing=allow_missing, check_text=check_text)
    notes = list(got.notes)
    order = sorted(range(len(got.annotators)), key=lambda k: got.annotators[k])
    annotators = [got.annotators[k] for k in order]
    categories = sorted({lab for a in annotators for _, _, lab in got.spans[a]})
    index = {c: k for k, c in enumerate(categories)}
    units: List[np.ndarray] = []
    duplicates: Dict[str, int] = {}
    for a in annotators:
        kept = sorted({(s, e, index[lab]) for s, e, lab in got.spans[a] if e > s})
        duplicates[a] = sum(1 for s, e, _ in got.spans[a] if e > s) - len(kept)
        units.append(np.array(kept, dtype=float).reshape(-1, 3))
    if not any(len(u) for u in units):
        raise _usage("gamma: the files have no spans to compare")
    if any(duplicates.values()):
        notes.append("a span an annotator gives twice (same words, same label) is one unit, "
                     "as in pygamma: " + ", ".join(f"{a} {n}" for a, n in duplicates.items()))
    notes.append(f"expected disorder from {samples} random continua (pygamma's statistical "
                 f"sampler, seed {seed}); gamma_ci: gamma with D_e at its mean -/+ 1.96 "
                 f"standard errors")
    try:
        res = gamma(units, len(categories), n_samples=samples, seed=seed,
                    precision_level=precision, budget=budget)
    except GammaTooLarge as exc:
        raise InputError.single("<command line>", None, "gamma-too-large",
                                f"gamma over {len(annotators)} files: {exc}; the exact best "
                                f"alignment grows fast with long chains of spans that may "
                                f"align (and with the files): raise --gamma-budget, compare "
                                f"fewer files or split the input") from None
    if math.isnan(res.gamma):
        notes.append("gamma is undefined: every random continuum aligns perfectly (D_e = 0)")
    return SpanGamma(list(got.files), annotators, categories, got.layer, got.positions, res,
                     duplicates, notes)
