"""``synagree agree --baseline``: agreement against a stored ``agree`` JSON result.

docs/method.md §18.  Two annotation rounds of the same sentences (or one
round before and after guideline changes) are compared unit by unit.
`unit_data` gives, per pairable unit, the counts a later comparison needs:
the per-unit counts behind LAS/UAS/LA (or Jaccard), the mean TED over
annotator pairs and, per α variant, the unit's D_o sum Σ_{i≠j} δ²/(m_u − 1)
(docs/method.md §12.1); `add_unit_data` stores them under
``details.per_unit`` of the JSON output.  `agree_baseline` compares.

A unit's id is its uid (``# sent_id``, else its position; docs/method.md
§1.4); its text digest is that of the first annotation's words (word forms;
leaves of phrase trees) joined by spaces.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

import numpy as np

from synagree.agreement.core import Core
from synagree.agreement.qa import pairable_units
from synagree.base.metrics import FRACTION, RENAMED, is_registered, metric
from synagree.base.problems import InputError
from synagree.distance.sums import delta_squared
from synagree.io.conllu import DepSentence
from synagree.stats.alpha import VARIANTS
from synagree.stats.baseline_options import BaselineOptions
from synagree.stats.hierarchical import BDM_KEYS, METRIC_KEYS, WUP_KEYS
from synagree.stats.regression import (
    BaselineComparison,
    ResultView,
    UnitData,
    regression,
    settings_check,
    text_digest,
)
from synagree.stats.significance import RatioUnits

__all__ = ["unit_data", "PerUnit", "agreement_view", "agree_baseline",
           "MUST_MATCH", "NOTE_ONLY", "HIERARCHY_METRICS"]

MUST_MATCH = ("kind", "distance", "labels")
"""Settings that make two agreement results incomparable when they differ."""
NOTE_ONLY = ("variants", "d_e", "matching", "text_check", "phrase_style", "bootstrap",
             "version")
"""Settings whose difference is a note (any other differing setting is an error)."""

HIERARCHY_METRICS = METRIC_KEYS + BDM_KEYS + WUP_KEYS
"""Metrics read through the ``hierarchy`` setting (``--hierarchy``, ``--label-distance``,
``--tag-syntax``, ``--bdm``, ``--wu-palmer``): when both sides have it and it differs they
are left out (a result from before GATE's BDM says ``bdm`` there, one since ``bdm (GATE)``)."""

_NOT_METRICS = {"units", "units_total", "annotations", "annotators", "ignored", "multi_root",
                "cycle_sentences", "distinct_trees"}


def _words(sent) -> List[str]:
    if isinstance(sent, DepSentence):
        return list(sent.forms)
    return list(getattr(sent, "words", None) or getattr(sent, "leaves", None) or [])


def unit_data(res: Core) -> UnitData:
    """The per-unit data of an agreement result (its pairable units, in corpus order).

    Read straight from the per-unit TED matrices behind α (no per-unit
    diagnostics are built), in O(units): cheap enough for every JSON output.

    Parameters
    ----------
    res : AgreementResult
        With its corpus and per-unit TED matrices (as `agree` returns it).

    Returns
    -------
    UnitData
        ``words``: |t| − 1 of the first annotation (its words, for dependency
        trees); ``ted``: the mean TED over annotator pairs.

    Raises
    ------
    ValueError
        The result carries no corpus or no per-unit TED matrices.
    """
    pr = pairable_units(res)
    corpus = res.corpus
    ta = res.tree_alpha
    assert corpus is not None  # pairable_units needs it
    teds = ta.unit_ted if ta is not None else []
    U = len(pr.positions)
    if len(teds) != U:
        raise ValueError("the AgreementResult carries no per-unit TED matrices")
    ids = [corpus.units[pos].uid for pos in pr.positions]
    text = [text_digest(" ".join(_words(sents[0]))) for sents in pr.sentences]
    m = np.array([len(a) for a in pr.annotators], dtype=np.float64)
    size = np.array([[sents[0].size, sents[1].size] for sents in pr.sentences],
                    dtype=np.float64).reshape(U, 2)
    words = size[:, 0] - 1
    # two annotations (the usual case): one TED, the D_o sum 2·δ² (= δ² + δ² of the
    # 2 × 2 matrix, bit for bit); other units from their matrices
    two = np.flatnonzero(m == 2)
    t2 = np.array([teds[k][0, 1] for k in two.tolist()], dtype=np.float64)
    ted = np.zeros(U)
    ted[two] = t2
    more = np.flatnonzero(m != 2).tolist()
    for k in more:
        tm = np.asarray(teds[k], dtype=np.float64)
        ted[k] = float(np.mean(tm[np.triu_indices(tm.shape[0], 1)]))
    alphas = {}
    for v in VARIANTS:
        st = res.alpha.get(v)
        if st is None:
            continue
        do = np.zeros(U)
        d2 = delta_squared(t2, size[two, 0], size[two, 1], v)
        do[two] = d2 + d2
        for k in more:
            sz = np.array([x.size for x in pr.sentences[k]], dtype=np.float64)
            tm = np.asarray(teds[k], dtype=np.float64)
            do[k] = float(delta_squared(tm, sz[:, None], sz[None, :], v).sum()) / (len(sz) - 1)
        alphas[f"alpha_{v}"] = (do, m.copy(), float(st.d_e))
    correct, total = res.scores.unit_arrays()
    ratios = {}
    if total.shape[0] == U:
        ratios = {k: RatioUnits(c, total, total) for k, c in correct.items()
                  if c.shape[0] == U}
    return UnitData(ids, text, words, ted, ratios, alphas)


@dataclass(frozen=True)
class PerUnit:
    """The per-unit data of a result, written to JSON so that it can serve as a baseline."""

    data: UnitData
    name = "per_unit"

    def metrics(self) -> Dict[str, Optional[float]]:
        """None at the top level."""
        return {}

    def details(self) -> dict:
        """`UnitData.to_dict`."""
        return self.data.to_dict()


def agreement_view(doc: dict) -> ResultView:
    """An ``agree`` JSON result (`AgreementResult.to_dict`) as a `ResultView`.

    The metrics are the top-level fractions (α variants,
    ``las``/``uas``/``la`` or ``jaccard``, and the metrics added by options such
    as ``--hierarchy``); standard errors and intervals are left out.

    Raises
    ------
    ValueError
        Malformed per-unit data.
    """
    renamed = RENAMED["agree"]  # results stored by earlier releases: today's keys
    values: Dict[str, Optional[float]] = {}
    for k, x in doc.items():
        k = renamed.get(k, k)
        if k in _NOT_METRICS or k.endswith(("_se", "_ci")) or isinstance(x, bool):
            continue
        if isinstance(x, float) or (x is None and is_registered(k)
                                    and metric(k).unit == FRACTION):
            values[k] = x  # integers are counts (units, ted_zero_pairs ...), not metrics
    settings = {str(k): str(v) for k, v in (doc.get("settings") or {}).items()}
    settings["kind"] = str(doc.get("kind"))
    pu = (doc.get("details") or {}).get("per_unit")
    units = UnitData.from_dict(pu) if isinstance(pu, dict) else None
    if units is not None:
        units.ratios = {renamed.get(k, k): r for k, r in units.ratios.items()}
    return ResultView("now", values, settings, units)


def _hierarchy_check(ov: ResultView, nv: ResultView) -> List[str]:
    """Differing hierarchy settings on both sides: the metrics read through them are
    left out (a note), not reported as a change of the annotators; the setting is then
    no longer checked."""
    o, n = ov.settings.get("hierarchy"), nv.settings.get("hierarchy")
    if o is None or n is None or o == n:
        return []
    for v in (ov, nv):
        del v.settings["hierarchy"]
    left = [k for k in HIERARCHY_METRICS if k in ov.values or k in nv.values]
    for v in (ov, nv):
        for k in left:
            v.values.pop(k, None)
    return [f"{', '.join(left) or 'hierarchy metrics'} not compared: hierarchy {o} in the "
            f"baseline, {n} now"]


def agree_baseline(res: Core, now: dict, options: BaselineOptions) -> BaselineComparison:
    """Compare ``res`` with a stored ``synagree agree`` JSON result (docs/method.md §18).

    Settings in `MUST_MATCH` (and unknown ones) must be equal; those in
    `NOTE_ONLY` and different annotators are notes.  The sentence lists rank
    units by the rise of their mean TED, then by the fall of LAS-correct words
    (Jaccard for phrase structure).

    Parameters
    ----------
    res : AgreementResult
    now : dict
        The result's JSON data (`AgreementResult.to_dict`: metrics and settings).
    options : BaselineOptions
        The stored result, its name, and the tests' replicates, seed, level
        and list length.

    Raises
    ------
    InputError
        Incompatible settings (``baseline-mismatch``), malformed per-unit data
        (``bad-json``).
    """
    notes: List[str] = []
    doc, baseline = options.doc, options.path
    try:
        ov = agreement_view(doc)
    except ValueError as exc:
        raise InputError.single(baseline, None, "bad-json",
                                f"not a usable baseline: {exc}") from None
    nd = now
    nv = agreement_view(nd)
    nv.units = unit_data(res)
    ov.name = baseline
    notes += _hierarchy_check(ov, nv)
    notes += settings_check(ov.settings, nv.settings, baseline=baseline,
                            must_match=MUST_MATCH, note_only=NOTE_ONLY)
    if doc.get("annotator_names") != nd.get("annotator_names"):
        notes.append(f"annotators: {', '.join(map(str, doc.get('annotator_names') or []))} in "
                     f"the baseline, {', '.join(res.annotators)} now")
    score = "jaccard" if res.kind == "phrase" else "LAS_full"
    r = regression(ov, nv, B=options.replicates, seed=options.seed, level=options.level,
                   top=options.top, lists_by=(("ted", -1), (score, 1)))
    return BaselineComparison(baseline, "agree", [r], notes)
