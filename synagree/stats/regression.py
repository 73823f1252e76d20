"""Regression tracking: a result against a stored baseline result of the same command.

docs/method.md §18.  Both sides are plain data: a `ResultView` holds a
result's metric values, its settings and, when stored, its per-unit data
(`UnitData`: per sentence an id, a digest of its text, the counts behind
every ratio metric and the per-unit D_o sums of every α).  Nothing here reads
trees; ``synagree compare --baseline`` and ``synagree agree --baseline`` build
the views with thin adapters (`synagree.evaluation.baseline`,
`synagree.agreement.baseline`).

Units are matched by id (its k-th occurrence, should an id repeat) and the
digest of their text.  Units only one side has, or whose text differs, are
listed in the notes and left out; the values, tests and sentence lists then
cover the matched units only, and say so (§18.2).

Per metric the comparison gives old, new and Δ = new − old.  With per-unit
data on both sides it adds two paired tests over the matched units (§18.3):

* **ratio metrics** (LAS, UAS, CLAS; ``las``, ``uas``, ``la``): the paired
  bootstrap and approximate randomisation of
  `synagree.stats.significance.significance`, with the baseline and the new
  result as the two systems (exact for these metrics);
* **α**: D_e is not resampled, because the unit × unit sums behind it are not
  stored (they grow with the square of the corpus).  Each side keeps its own
  D_e; the bootstrap recomputes α* = 1 − D_o*/D_e from the resampled per-unit
  D_o sums, and the randomisation swaps the two sides' per-unit D_o sums with
  D_e held at the mean of the two D_e, as in §11.5.

A change is flagged *significant* when both p-values are below 1 − level.
Without per-unit data on either side, Δ is reported with a note that no test
was possible.  The sentence lists rank the matched units by the change of a
per-unit count (``lists_by``).
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from synagree.base.problems import InputError
from synagree.io.json_input import read_json
from synagree.stats.baseline_options import BASELINE_REPLICATES
from synagree.stats.bootstrap import bootstrap
from synagree.stats.significance import RatioUnits, SystemUnits, _p_two_sided, significance
from synagree.stats.stored_results import check_stored

__all__ = ["text_digest", "UnitData", "ResultView", "MetricChange", "UnitChange",
           "Regression", "BaselineComparison", "match_units", "regression",
           "load_baseline", "result_command", "settings_check", "pair_systems"]

PER_UNIT_FORMAT = 1
_CHUNK_ELEMENTS = 4_000_000


def text_digest(text: str) -> str:
    """The first 16 hex digits of the SHA-1 of a unit's text (how units are recognised).

    Parameters
    ----------
    text : str
        The unit's words joined by single spaces.
    """
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _nums(a: np.ndarray) -> list:
    """A JSON list: integers where every value is integral, else floats."""
    a = np.asarray(a, dtype=np.float64)
    if a.size and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
        if np.all(np.abs(a) < 2.0 ** 62):
            return a.astype(np.int64).tolist()  # = [int(x) for x in a], in one call
        return [int(x) for x in a]
    return a.tolist()


@dataclass
class UnitData:
    """Per-unit data of one result: what a later comparison needs.

    Parameters
    ----------
    ids : list of str
        Unit ids (sentence ids, or ``#n`` positions).
    text : list of str
        `text_digest` of each unit's text.
    words : numpy.ndarray
        (U,) words per unit (gold words for ``compare``).
    ted : numpy.ndarray
        (U,) tree edit distance per unit (mean over annotator pairs for
        ``agree``; gold against system for ``compare``).
    ratios : dict of str to RatioUnits
        Per ratio metric, the per-unit correct, gold and system counts.
    alphas : dict of str to (numpy.ndarray, numpy.ndarray, float)
        Per α metric (``alpha_plain`` ...): per-unit D_o sums
        Σ_{i≠j} δ²/(m_u − 1), values per unit m_u, and D_e.
    """

    ids: List[str]
    text: List[str]
    words: np.ndarray
    ted: np.ndarray
    ratios: Dict[str, RatioUnits] = field(default_factory=dict)
    alphas: Dict[str, Tuple[np.ndarray, np.ndarray, float]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.ids)

    def to_dict(self) -> dict:
        """The data as a JSON-ready dict (the ``per_unit`` key of the JSON outputs)."""
        return {"format": PER_UNIT_FORMAT, "ids": list(self.ids), "text": list(self.text),
                "words": _nums(self.words), "ted": _nums(self.ted),
                "ratios": {k: {"correct": _nums(r.correct), "gold": _nums(r.gold),
                               "system": _nums(r.system)} for k, r in self.ratios.items()},
                "alpha": {k: {"do": _nums(do), "m": _nums(m), "d_e": de}
                          for k, (do, m, de) in self.alphas.items()}}

    @classmethod
    def from_dict(cls, d: dict) -> "UnitData":
        """Read `to_dict`'s output back (ValueError if it is not per-unit data)."""
        try:
            ids = [str(x) for x in d["ids"]]
            U = len(ids)

            def arr(x) -> np.ndarray:
                a = np.array([np.nan if v is None else v for v in x], dtype=np.float64)
                if a.shape != (U,):
                    raise ValueError(f"expected {U} values per unit, found {a.shape[0]}")
                return a

            ratios = {str(k): RatioUnits(arr(r["correct"]), arr(r["gold"]), arr(r["system"]))
                      for k, r in d.get("ratios", {}).items()}
            alphas = {str(k): (arr(a["do"]), arr(a["m"]),
                               float("nan") if a.get("d_e") is None else float(a["d_e"]))
                      for k, a in d.get("alpha", {}).items()}
            text = [str(x) for x in d["text"]]
            if len(text) != U:
                raise ValueError("ids and text differ in length")
            return cls(ids, text, arr(d["words"]), arr(d["ted"]), ratios, alphas)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed per-unit data ({exc!r})") from None

    def subset(self, idx: np.ndarray) -> "UnitData":
        """The units at positions ``idx``, in that order."""
        return UnitData([self.ids[i] for i in idx], [self.text[i] for i in idx],
                        self.words[idx], self.ted[idx],
                        {k: RatioUnits(r.correct[idx], r.gold[idx], r.system[idx])
                         for k, r in self.ratios.items()},
                        {k: (do[idx], m[idx], de) for k, (do, m, de) in self.alphas.items()})


@dataclass
class ResultView:
    """One side of a comparison: a result's values, settings and per-unit data.

    Parameters
    ----------
    name : str
        The system (``compare``) or ``"agreement"``.
    values : dict of str to float or None
        Metric values as the result reports them (fractions), in report order.
    settings : dict of str to str
    units : UnitData, optional
        None when the stored result has no per-unit data.
    """

    name: str
    values: Dict[str, Optional[float]]
    settings: Dict[str, str] = field(default_factory=dict)
    units: Optional[UnitData] = None


@dataclass
class MetricChange:
    """One metric, baseline against now.

    Parameters
    ----------
    metric : str
    old, new : float or None
        Fractions.
    delta : float or None
        ``new − old``.
    ci : (float, float) or None
        Percentile interval of Δ (paired bootstrap).
    p_bootstrap, p_randomisation : float or None
        Two-sided p-values; None when no test was possible.
    significant : bool or None
        Both p-values below 1 − level; None without a test.
    test : str
        How Δ was tested, or why it was not.
    """

    metric: str
    old: Optional[float]
    new: Optional[float]
    delta: Optional[float]
    ci: Optional[Tuple[float, float]] = None
    p_bootstrap: Optional[float] = None
    p_randomisation: Optional[float] = None
    significant: Optional[bool] = None
    test: str = ""

    def as_dict(self) -> dict:
        """The change as a JSON-ready dict."""
        return {"metric": self.metric, "old": self.old, "new": self.new, "delta": self.delta,
                "ci": list(self.ci) if self.ci else None, "p_bootstrap": self.p_bootstrap,
                "p_randomisation": self.p_randomisation, "significant": self.significant,
                "test": self.test}


@dataclass
class UnitChange:
    """A sentence whose per-unit counts changed.

    Parameters
    ----------
    id : str
    words : float
        Words of the unit.
    counts : dict of str to (float, float)
        Per quantity (``"LAS correct"``, ``"TED"`` ...): (old, new).
    """

    id: str
    words: float
    counts: Dict[str, Tuple[float, float]]

    def delta(self, quantity: str) -> float:
        """new − old of ``quantity``."""
        o, n = self.counts[quantity]
        return n - o

    def as_dict(self) -> dict:
        """The change as a JSON-ready dict."""
        d: dict = {"id": self.id, "words": self.words}
        for k, (o, n) in self.counts.items():
            d[k] = {"old": o, "new": n, "delta": n - o}
        return d


@dataclass
class Regression:
    """One result against its baseline: per metric old, new, Δ and tests; sentence lists.

    Parameters
    ----------
    name, baseline_name : str
        The new and the old side (system names for ``compare``).
    metrics : list of MetricChange
    worse, better : list of UnitChange
        At most ``top`` each, most changed first.
    units_matched : int
        Units compared (0 without per-unit data on both sides).
    unmatched_old, unmatched_new : list of str
        Ids of the units only one side has (or whose text differs).
    B, R, seed : int
    level : float
    lists_by : list of str
        The per-unit quantities the sentence lists are ranked by, in order.
    notes : list of str
    top : int
        The most sentences listed as worse (and as better).
    """

    name: str
    baseline_name: str
    metrics: List[MetricChange]
    worse: List[UnitChange]
    better: List[UnitChange]
    units_matched: int
    unmatched_old: List[str]
    unmatched_new: List[str]
    B: int
    R: int
    seed: int
    level: float
    lists_by: List[str]
    notes: List[str] = field(default_factory=list)
    top: int = 10

    def metric(self, name: str) -> MetricChange:
        """The change of metric ``name`` (KeyError if none)."""
        for c in self.metrics:
            if c.metric == name:
                return c
        raise KeyError(name)

    def as_dict(self) -> dict:
        """The comparison as a JSON-ready dict."""
        return {"name": self.name, "baseline_name": self.baseline_name,
                "units_matched": self.units_matched,
                "unmatched_old": list(self.unmatched_old),
                "unmatched_new": list(self.unmatched_new),
                "B": self.B, "R": self.R, "seed": self.seed, "level": self.level,
                "metrics": [c.as_dict() for c in self.metrics],
                "lists_by": list(self.lists_by), "top": self.top,
                "worse": [u.as_dict() for u in self.worse],
                "better": [u.as_dict() for u in self.better], "notes": list(self.notes)}


@dataclass
class BaselineComparison:
    """Every comparison of one command run against one baseline file.

    Parameters
    ----------
    baseline : str
        The baseline file as given.
    command : str
        ``"compare"`` or ``"agree"``.
    results : list of Regression
        One per compared system (``compare``) or one (``agree``).
    notes : list of str
        Compatibility notes about the whole file.
    """

    baseline: str
    command: str
    results: List[Regression]
    notes: List[str] = field(default_factory=list)
    name = "baseline"

    def metrics(self) -> Dict[str, Optional[float]]:
        """None at the top level: the comparison is its tables."""
        return {}

    def details(self) -> dict:
        """`as_dict`."""
        return self.as_dict()

    def as_dict(self) -> dict:
        """The comparison as a JSON-ready dict."""
        return {"baseline": self.baseline, "command": self.command,
                "results": [r.as_dict() for r in self.results], "notes": list(self.notes)}


# --------------------------------------------------------------------------- loading


def result_command(doc: object) -> Optional[str]:
    """The synagree command whose JSON output ``doc`` is, by its keys (None: not one).

    Parameters
    ----------
    doc : object
        A parsed JSON document.

    Returns
    -------
    str or None
        ``"compare"``, ``"agree"``, ``"report"``, ``"tags"``, ``"categorical"``.
    """
    if not isinstance(doc, dict):
        return None
    if "systems" in doc and "gold_sentences" in doc:
        return "compare"
    if "annotator_names" in doc and "kind" in doc:
        return "agree"
    if "summary" in doc and "worst" in doc:
        return "report"
    if "column" in doc and "per_tag" in doc:
        return "tags"
    if "layers" in doc and "annotators" in doc:
        return "categorical"
    return None


def load_baseline(path: "str | Path", command: str,
                  max_memory: Optional[int] = None) -> dict:
    """Read a stored JSON result of ``command`` (``"compare"`` or ``"agree"``).

    The file is untrusted input: read within size, depth and memory limits
    with non-finite numbers refused (`synagree.io.json_input.read_json`), then
    every field a comparison uses is checked (`synagree.stats.stored_results`).

    Parameters
    ----------
    path : str or path-like
    command : str
    max_memory : int, optional
        Memory limit of the parsed document (default: `synagree.base.memory`'s).

    Raises
    ------
    InputError
        No such file (``file-not-found``), not JSON (``bad-json``), the JSON
        output of another command (``baseline-mismatch``), or a document beyond
        the limits or with a field of the wrong type or range
        (``baseline-invalid``, naming the field).
    """
    name = str(path)
    doc = read_json(path, kind="baseline-invalid",
                    what=f"a stored result of `synagree {command}`", max_memory=max_memory)
    got = result_command(doc)
    if got == "report" and command == "agree" and isinstance(doc.get("summary"), dict):
        doc, got = doc["summary"], "agree"  # a report of earlier releases: its agree result
    if got != command:
        what = f"the JSON output of `synagree {got}`" if got else "not a synagree JSON result"
        raise InputError.single(name, None, "baseline-mismatch",
                                f"the baseline is {what}, not of `synagree {command}`: "
                                f"write it with `synagree {command} ... -o OLD.json`")
    check_stored(doc, command, name)
    return doc


def settings_check(old: Dict[str, str], new: Dict[str, str], *, baseline: str,
                   must_match: Sequence[str] = (), note_only: Sequence[str] = ()
                   ) -> List[str]:
    """Compare two results' settings: an error or a note for every difference.

    Parameters
    ----------
    old, new : dict of str to str
    baseline : str
        The baseline file (for the error message).
    must_match : sequence of str
        Keys whose difference makes the results incomparable.
    note_only : sequence of str
        Keys whose difference is a note.  A differing key in neither list is an
        error: unknown settings are taken to change the numbers.

    Returns
    -------
    list of str
        The notes.

    Raises
    ------
    InputError
        ``baseline-mismatch``, naming every differing setting that is not a note.
    """
    notes, bad = [], []
    for k in list(old) + [k for k in new if k not in old]:
        o, n = old.get(k), new.get(k)
        if o == n:
            continue
        desc = f"{k}: {o if o is not None else '(not set)'} in the baseline, " \
               f"{n if n is not None else '(not set)'} now"
        if k in note_only or (k not in must_match and (o is None or n is None)):
            notes.append(desc)
        else:
            bad.append(desc)
    if bad:
        raise InputError.single(baseline, None, "baseline-mismatch",
                                "the baseline was computed with other settings, so its "
                                "numbers are not comparable: " + "; ".join(bad))
    return notes


def pair_systems(old: Sequence[ResultView], new: Sequence[ResultView]
                 ) -> Tuple[List[Tuple[ResultView, ResultView]], List[str]]:
    """Pair the systems of a baseline with today's by name: ``(pairs, notes)``.

    One system on each side is compared whatever the names (a note says so);
    otherwise systems are paired by name, and a system on one side only is a
    note.
    """
    pairs, notes = [], []
    by_name = {v.name: v for v in old}
    if len(old) == 1 and len(new) == 1 and old[0].name != new[0].name:
        pairs.append((old[0], new[0]))
        notes.append(f"the baseline's only system {old[0].name} is compared with "
                     f"{new[0].name}")
        return pairs, notes
    for nv in new:
        if nv.name in by_name:
            pairs.append((by_name[nv.name], nv))
        else:
            notes.append(f"{nv.name}: no system of that name in the baseline, not compared")
    names = {nv.name for nv in new}
    notes += [f"{ov.name}: in the baseline only, not compared" for ov in old
              if ov.name not in names]
    return pairs, notes


# --------------------------------------------------------------------------- matching


def match_units(old: UnitData, new: UnitData) -> Tuple[np.ndarray, np.ndarray, List[str],
                                                         List[str]]:
    """Pair the units of two results by id (k-th occurrence) and text digest.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray, list of str, list of str)
        Positions in ``old`` and in ``new`` of the matched units (in ``new``'s
        order), then the ids of the unmatched units of ``old`` and of ``new``
        (a unit whose text differs counts as unmatched on both sides).
    """
    def keyed(ud: UnitData) -> Dict[Tuple[str, int], int]:
        seen: Dict[str, int] = {}
        out = {}
        for i, uid in enumerate(ud.ids):
            k = seen.get(uid, 0)
            seen[uid] = k + 1
            out[(uid, k)] = i
        return out

    ko, kn = keyed(old), keyed(new)
    io_, in_ = [], []
    for key, j in kn.items():
        i = ko.get(key)
        if i is not None and old.text[i] == new.text[j]:
            io_.append(i)
            in_.append(j)
    mo, mn = set(io_), set(in_)
    only_old = [old.ids[i] for i in range(len(old)) if i not in mo]
    only_new = [new.ids[j] for j in range(len(new)) if j not in mn]
    return (np.array(io_, dtype=np.int64), np.array(in_, dtype=np.int64), only_old, only_new)


# --------------------------------------------------------------------------- tests


def _alpha_value(do: np.ndarray, m: np.ndarray, de: float) -> Optional[float]:
    n = float(m.sum())
    if n < 2 or not (math.isfinite(de) and de > 0):
        return None
    return 1.0 - float(do.sum()) / n / de


def _alpha_test(old: Tuple[np.ndarray, np.ndarray, float],
                new: Tuple[np.ndarray, np.ndarray, float], B: int, R: int, seed: int,
                level: float):
    """Paired bootstrap and randomisation of Δα with each side's D_e fixed (§18.3)."""
    (do_o, m_o, de_o), (do_n, m_n, de_n) = old, new
    a_o, a_n = _alpha_value(do_o, m_o, de_o), _alpha_value(do_n, m_n, de_n)
    if a_o is None or a_n is None:
        return a_o, a_n, None, None, None, None
    d = a_n - a_o
    U = do_o.shape[0]
    step = max(1, _CHUNK_ELEMENTS // max(U, 1))

    def delta(W: np.ndarray) -> Dict[str, np.ndarray]:
        return {"delta": (W @ do_o) / (W @ m_o) / de_o - (W @ do_n) / (W @ m_n) / de_n}

    with np.errstate(divide="ignore", invalid="ignore"):
        boot = bootstrap(delta, U, B, np.random.default_rng([seed, 2]), level, chunk=step)
        reps, ci = boot.replicates["delta"], boot.ci("delta")
        p_boot = _p_two_sided(reps - d, d)
        dbar = 0.5 * (de_o + de_n)
        rng_ar = np.random.default_rng([seed, 3])
        stats = np.empty(R)
        so, sn, mo, mn = do_o.sum(), do_n.sum(), m_o.sum(), m_n.sum()
        for r0 in range(0, R, step):
            r1 = min(R, r0 + step)
            Z = rng_ar.integers(0, 2, size=(r1 - r0, U)).astype(np.float64)
            ddo, dm = Z @ (do_n - do_o), Z @ (m_n - m_o)
            stats[r0:r1] = ((so + ddo) / (mo + dm) - (sn - ddo) / (mn - dm)) / dbar
        observed = (so / mo - sn / mn) / dbar
        p_ar = _p_two_sided(stats, observed)
    return a_o, a_n, ci, p_boot, p_ar, d


def _significant(pb: Optional[float], pr: Optional[float], level: float) -> Optional[bool]:
    if pb is None or pr is None:
        return None
    return bool(pb < 1 - level and pr < 1 - level)


def regression(old: ResultView, new: ResultView, *, B: int = BASELINE_REPLICATES,
               R: Optional[int] = None, seed: int = 0, level: float = 0.95, top: int = 10,
               lists_by: Sequence[Tuple[str, int]] = (("LAS", 1), ("ted", -1))
               ) -> Regression:
    """Compare a result with its baseline: per metric Δ and paired tests; sentence lists.

    docs/method.md §18 and the module docstring.

    Parameters
    ----------
    old, new : ResultView
        The baseline and the new result.
    B : int
        Bootstrap replicates.
    R : int, optional
        Randomisation rounds (default ``B``).
    seed : int
    level : float
        Interval level, a fraction; a change is significant when both p-values
        are below ``1 − level``.
    top : int
        Sentences listed as worse and as better (each).
    lists_by : sequence of (str, int)
        The per-unit quantities that rank the sentence lists: a ratio metric
        (its correct count) or ``"ted"``, each with its sign (+1: a rise is
        better, −1: a rise is worse); the first decides, the next break ties.
    """
    R = B if R is None else int(R)
    notes: List[str] = []
    names = list(new.values) + [k for k in old.values if k not in new.values]
    only_new = [k for k in names if k not in old.values]
    only_old = [k for k in names if k not in new.values]
    if only_new:
        notes.append("not in the baseline, so not compared: " + ", ".join(only_new))
    if only_old:
        notes.append("in the baseline only, so not compared: " + ", ".join(only_old))
    common = [k for k in names if k in old.values and k in new.values]

    matched = 0
    unmatched_old: List[str] = []
    unmatched_new: List[str] = []
    uo = un = None
    if old.units is None or new.units is None:
        which = "the baseline" if old.units is None else "the new result"
        notes.append(f"{which} has no per-unit data: changes without tests or sentence lists "
                     f"(a JSON written by an older synagree; write the baseline again)")
    else:
        io_, in_, unmatched_old, unmatched_new = match_units(old.units, new.units)
        matched = int(io_.shape[0])
        uo, un = old.units.subset(io_), new.units.subset(in_)
        if unmatched_old or unmatched_new:
            def some(ids: List[str]) -> str:
                return ", ".join(ids[:5]) + (" ..." if len(ids) > 5 else "")
            notes.append(f"units matched by id and text: {matched}; "
                         f"{len(unmatched_old)} baseline unit(s) not matched"
                         + (f" ({some(unmatched_old)})" if unmatched_old else "")
                         + f", {len(unmatched_new)} new unit(s) not matched"
                         + (f" ({some(unmatched_new)})" if unmatched_new else "")
                         + ": they are left out, and the tested metrics' old and new values "
                           "are those of the matched units")
        if matched == 0:
            notes.append("no unit could be matched: no tests or sentence lists")
            uo = un = None

    ratio_names = [k for k in common if uo is not None and un is not None
                   and k in uo.ratios and k in un.ratios]
    alpha_names = [k for k in common if uo is not None and un is not None
                   and k in uo.alphas and k in un.alphas]
    ratio_tests = {}
    if ratio_names and uo is not None and un is not None:
        sig = significance([SystemUnits("old", {k: uo.ratios[k] for k in ratio_names}),
                            SystemUnits("new", {k: un.ratios[k] for k in ratio_names})],
                           B=B, R=R, seed=seed, level=level, metrics=ratio_names)
        ratio_tests = {t.metric: t for t in sig.pairs}

    changes: List[MetricChange] = []
    untested = []
    for k in common:
        o, n = old.values[k], new.values[k]
        if k in ratio_tests:
            t = ratio_tests[k]  # a = old, b = new: Δ = −diff
            d = (t.value_b - t.value_a if t.value_a is not None and t.value_b is not None
                 else None)
            ci = None if t.ci is None else (-t.ci[1], -t.ci[0])
            changes.append(MetricChange(
                k, t.value_a, t.value_b, d, ci, t.p_bootstrap, t.p_randomisation,
                _significant(t.p_bootstrap, t.p_randomisation, level),
                f"paired bootstrap and approximate randomisation over {matched} units"))
        elif k in alpha_names and uo is not None and un is not None:
            a_o, a_n, ci, pb, pr, d = _alpha_test(uo.alphas[k], un.alphas[k], B, R, seed,
                                                  level)
            changes.append(MetricChange(
                k, a_o, a_n, d, ci, pb, pr, _significant(pb, pr, level),
                f"paired bootstrap and randomisation over {matched} units, each side's "
                f"D_e fixed" if d is not None else "undefined alpha: no test"))
        else:
            d = None if o is None or n is None else n - o
            changes.append(MetricChange(k, o, n, d, test="no per-unit data: no test"))
            untested.append(k)
    if untested and uo is not None:
        notes.append("no per-unit counts for " + ", ".join(untested) + ": change only, no "
                     "test" + (", over all units" if unmatched_old or unmatched_new else ""))
    if alpha_names:
        notes.append("alpha tests hold each side's D_e fixed (the unit x unit sums behind "
                     "D_e are not stored; docs/method.md §18.3)")

    worse: List[UnitChange] = []
    better: List[UnitChange] = []
    used: List[str] = []
    if uo is not None and un is not None:
        keys, qty = [], {}
        for name, sign in lists_by:
            if name == "ted":
                a, b, label = uo.ted, un.ted, "TED"
            elif name in uo.ratios and name in un.ratios:
                a, b, label = uo.ratios[name].correct, un.ratios[name].correct, \
                    f"{name} correct"
            else:
                continue
            if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
                continue  # e.g. TED of a result computed without alpha
            keys.append(sign * (b - a))
            qty[label] = (a, b)
            used.append(label)
        if keys:
            score = np.stack(keys)  # (quantities, units); lexicographic: first decides
            order = np.lexsort(tuple(score[::-1]))  # ascending: most worsened first
            sgn = np.zeros(matched, dtype=np.int64)
            for row in score[::-1]:  # the first non-zero quantity decides the sign
                sgn = np.where(row != 0, np.sign(row).astype(np.int64), sgn)
            ids = un.ids

            def change(i: int) -> UnitChange:
                return UnitChange(ids[i], _num(un.words[i]),
                                  {lab: (_num(a[i]), _num(b[i])) for lab, (a, b) in qty.items()})

            worse = [change(i) for i in order if sgn[i] < 0][:top]
            up = np.lexsort(tuple((-score)[::-1]))  # most improved first, ties in order
            better = [change(i) for i in up if sgn[i] > 0][:top]
    return Regression(new.name, old.name, changes, worse, better, matched, unmatched_old,
                      unmatched_new, B, R, seed, level, used, notes, top)


def _num(x: float) -> float:
    """An integral float as int (for counts in lists)."""
    x = float(x)
    return int(x) if math.isfinite(x) and x == round(x) else x
