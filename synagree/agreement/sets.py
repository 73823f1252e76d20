"""Repeated runs and test–retest beside inter-annotator agreement (``agree --runs/--retest``).

docs/method.md §34.3.  Each *set* of annotation files is read and scored as
``agree`` scores annotators (`synagree.agreement.agree.agree`: α per variant
over tree edit distance, the word scores, unit-bootstrap percentile
intervals), and the sets are reported side by side, one row each:

* ``inter-annotator``: the annotators' files (two or more);
* ``runs``: several runs of one annotator or model (``--runs A1 A2 A3``):
  their own agreement, the stability of the model;
* ``retest``: an annotator's first and second pass over the same sentences
  (``--retest FIRST SECOND``, once per annotator): intra-annotator agreement.

Each set is its own corpus: its units are the sentences its files share
(matched as ``agree`` matches), so the rows may cover different sentences;
each row gives its units, and a note says so when they differ.  The
intervals resample each set's own units (independent bootstraps with one
seed), so they describe each row, not the differences between rows.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from synagree.agreement.agree import AgreementResult, agree
from synagree.base.problems import InputError
from synagree.base.table import Cell, Column, Table
from synagree.io.compression import strip_suffix
from synagree.stats.alpha import VARIANTS

__all__ = ["SET_KINDS", "DEFAULT_SET_REPLICATES", "AgreementSet", "AgreementSets",
           "agreement_sets"]

#: the kinds of set, in the order of the table
SET_KINDS = ("inter-annotator", "runs", "retest")
#: bootstrap replicates of the sets' intervals when none are asked for
DEFAULT_SET_REPLICATES = 1000

PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True)
class AgreementSet:
    """One set of files scored as annotators.

    Attributes
    ----------
    kind : str
        One of `SET_KINDS`.
    label : str
        The row's name (the annotator of a retest; ``all`` otherwise).
    annotators : list of str
        The files' names in the set.
    units : int
        The units α is computed over.
    values : dict of str to float or None
        ``alpha_<v>`` and the word scores.
    intervals : dict of str to (float, float) or None
        Their unit-bootstrap percentile intervals.
    """

    kind: str
    label: str
    annotators: List[str]
    units: int
    values: Dict[str, Optional[float]]
    intervals: Dict[str, Optional[Tuple[float, float]]]

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: the registered keys and ``<key>_ci``."""
        return {"set": self.kind, "label": self.label, "annotators": list(self.annotators),
                "units": self.units, **self.values,
                **{f"{k}_ci": (list(v) if v is not None else None)
                   for k, v in self.intervals.items()}}


@dataclass(frozen=True)
class AgreementSets:
    """The sets side by side (`agreement_sets`).

    Attributes
    ----------
    sets : list of AgreementSet
    metrics : list of str
        The columns: ``alpha_<v>`` then the word scores.
    replicates, seed : int
    level : float
    notes : list of str
    """

    sets: List[AgreementSet]
    metrics: List[str]
    replicates: int
    seed: int
    level: float
    notes: List[str] = field(default_factory=list)

    def table(self) -> Table:
        """The ``agreement_sets`` table: one row per set, each metric with its interval."""
        cols = [Column("set"), Column("label"), Column("files", "count"),
                Column("units", "count")]
        for m in self.metrics:
            cols += [Column(m, "number"), Column(f"{m}_ci", "interval")]
        t = Table("agreement_sets", cols,
                  title=f"Agreement of each set of files ({100 * self.level:g}% unit-bootstrap "
                        f"intervals, {self.replicates} replicates, seed {self.seed})",
                  notes=list(self.notes))
        for s in self.sets:
            row: List[Cell] = [s.kind, s.label, len(s.annotators), s.units]
            for m in self.metrics:
                row += [s.values.get(m), s.intervals.get(m)]
            t.add(*row)
        return t

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready: the settings and one record per set."""
        return {"bootstrap": {"replicates": self.replicates, "seed": self.seed,
                              "confidence": self.level},
                "sets": [s.to_dict() for s in self.sets], "notes": list(self.notes)}


def _stem(path: "str | os.PathLike[str]") -> str:
    return Path(strip_suffix(Path(path).name)).stem


def _scored(kind: str, label: str, res: AgreementResult, metrics: Sequence[str]
            ) -> AgreementSet:
    d = res.to_dict()
    values = {m: d.get(m) for m in metrics}
    intervals: Dict[str, Optional[Tuple[float, float]]] = {
        m: ((float(d[f"{m}_ci"][0]), float(d[f"{m}_ci"][1]))
            if d.get(f"{m}_ci") is not None else None) for m in metrics}
    names = list(res.corpus.annotators) if res.corpus is not None else []
    return AgreementSet(kind, label, names, int(d.get("units", 0)),
                        values, intervals)


def _usage(message: str) -> InputError:
    return InputError.single("<command line>", None, "usage", message)


def agreement_sets(files: Sequence[PathLike] = (), *, dirs: Sequence[PathLike] = (),
                   runs: Sequence[PathLike] = (),
                   retest: Sequence[Tuple[PathLike, PathLike]] = (),
                   variants: Sequence[str] = VARIANTS, bootstrap: int = 0, seed: int = 0,
                   level: float = 0.95, names: Optional[Sequence[str]] = None,
                   fmt: str = "auto", phrase_style: str = "auto", strict: bool = False,
                   allow_missing: bool = False, check_text: bool = True,
                   match: str = "auto", progress: Optional[bool] = None) -> AgreementSets:
    """Inter-annotator agreement beside the runs' own and each retest's (module docstring).

    Parameters
    ----------
    files, dirs : sequence of str or path-like
        The annotators (two or more files, or directories).
    runs : sequence of str or path-like
        Runs of one annotator or model (two or more; directories with ``dirs``).
    retest : sequence of (first, second)
        Per annotator, the first and the second pass.
    variants : sequence of str
        α variants.
    bootstrap : int
        Replicates of every set's intervals; 0: `DEFAULT_SET_REPLICATES`.
    seed, level
        The bootstrap's seed and the intervals' level.
    names, fmt, phrase_style, strict, allow_missing, check_text, match
        As for `synagree.agree` (``names`` names the annotators' files only).

    Raises
    ------
    InputError
        ``usage``: fewer than two annotators, one run, no runs and no retest;
        and every problem of reading and matching a set.

    Examples
    --------
    >>> import io
    >>> row = "{}\\tw\\t_\\tX\\t_\\t_\\t{}\\t{}\\t_\\t_\\n"
    >>> def conll(*heads):
    ...     return io.StringIO("".join(row.format(1, h, "dep") + row.format(2, 0, "root")
    ...                                + "\\n" for h in heads))
    >>> s = agreement_sets([conll(2, 2, 2), conll(2, 2, 0)], runs=[conll(2, 2, 0),
    ...                    conll(2, 2, 0)], variants=["plain"], bootstrap=40)
    >>> [(x.kind, x.units, x.values["alpha_plain"]) for x in s.sets][1]
    ('runs', 3, 1.0)
    """
    humans = list(dirs or files)
    if len(humans) < 2:
        raise _usage("agreement beside runs or a retest needs two or more annotators' files "
                     "for the inter-annotator row")
    if not runs and not retest:
        raise _usage("give --runs (two or more runs) or --retest FIRST SECOND")
    if runs and len(runs) < 2:
        raise _usage(f"--runs: give two or more runs of the annotator or model; "
                     f"{len(runs)} given")
    reps = bootstrap or DEFAULT_SET_REPLICATES

    def score(paths: Sequence[PathLike], set_names: Optional[Sequence[str]] = None
              ) -> AgreementResult:
        files_, dirs_ = ((), list(paths)) if dirs else (list(paths), ())
        return agree(files_, dirs=dirs_, names=None if dirs else set_names, fmt=fmt,
                     phrase_style=phrase_style, strict=strict, allow_missing=allow_missing,
                     check_text=check_text, match=match, variants=variants, bootstrap=reps,
                     seed=seed, level=level, progress=progress)

    first = score(humans, names)
    metrics = [f"alpha_{v}" for v in VARIANTS if v in variants] + list(first.score_names)
    sets = [_scored("inter-annotator", "all", first, metrics)]
    if runs:
        sets.append(_scored("runs", "all", score(runs), metrics))
    for a, b in retest:
        label = _stem(a)
        sets.append(_scored("retest", label, score([a, b], [f"{label}-1", f"{label}-2"]),
                            metrics))
    notes = []
    if len({s.units for s in sets}) > 1:
        notes.append("each set is scored on the sentences its own files share, so the rows "
                     "cover different numbers of units")
    if not bootstrap:
        notes.append(f"intervals from {reps} unit-bootstrap replicates (--bootstrap sets "
                     f"another number)")
    notes.append("each row's interval resamples its own units: it does not test the "
                 "difference between rows")
    return AgreementSets(sets, metrics, reps, seed, level, notes)
