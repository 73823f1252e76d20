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

from typing import Dict, List, Optional

import numpy as np

from synagree.agreement.agree import AgreementResult
from synagree.agreement.qa import unit_diagnostics
from synagree.base.problems import InputError
from synagree.distance.sums import delta_squared
from synagree.io.conllu import DepSentence
from synagree.stats.alpha import VARIANTS
from synagree.stats.hierarchical import BDM_KEYS, METRIC_KEYS, WUP_KEYS
from synagree.stats.regression import (
    BASELINE_REPLICATES,
    BaselineComparison,
    ResultView,
    UnitData,
    regression,
    settings_check,
    text_digest,
)
from synagree.stats.significance import RatioUnits

__all__ = ["unit_data", "add_unit_data", "agreement_view", "agree_baseline",
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


def unit_data(res: AgreementResult) -> UnitData:
    """The per-unit data of an agreement result (its pairable units, in corpus order).

    Parameters
    ----------
    res : AgreementResult
        With its corpus and per-unit TED matrices (as `agree` returns it).

    Returns
    -------
    UnitData
        ``words``: |t| − 1 of the first annotation (its words, for dependency
        trees); ``ted``: the mean TED over annotator pairs.

    Examples
    --------
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus
    >>> from synagree.agreement.agree import agree_corpus
    >>> s = DepSentence.from_heads
    >>> res = agree_corpus(Corpus.from_annotations(
    ...     {"a": [s([2, 0, 2], "nsubj root obj"), s([0, 1, 2], "root dep dep")],
    ...      "b": [s([2, 0, 2], "nsubj root iobj"), s([0, 1, 2], "root dep dep")]}))
    >>> ud = unit_data(res)
    >>> ud.ids, ud.ted.tolist(), ud.ratios["las"].correct.tolist()
    (['1', '2'], [1.0, 0.0], [2.0, 3.0])
    >>> ud.alphas["alpha_plain"][0].tolist(), round(ud.alphas["alpha_plain"][2], 4)
    ([2.0, 0.0], 6.1667)
    """
    diags = unit_diagnostics(res)
    corpus = res.corpus
    assert corpus is not None  # unit_diagnostics needs it
    U = len(diags)
    ids = [d.uid for d in diags]
    text = [text_digest(" ".join(_words(corpus.units[d.position].ordered(d.annotators)[0])))
            for d in diags]
    words = np.array([d.sizes[0] - 1 for d in diags], dtype=np.float64)
    ted = np.array([d.mean_ted for d in diags], dtype=np.float64)
    alphas = {}
    for v in VARIANTS:
        st = res.alpha.get(v)
        if st is None:
            continue
        do = np.zeros(U)
        m = np.zeros(U)
        for k, d in enumerate(diags):
            sz = np.asarray(d.sizes, dtype=np.float64)
            tm = np.asarray(d.ted, dtype=np.float64)
            do[k] = float(delta_squared(tm, sz[:, None], sz[None, :], v).sum()) / (len(sz) - 1)
            m[k] = len(sz)
        alphas[f"alpha_{v}"] = (do, m, float(st.d_e))
    correct, total = res.scores.unit_arrays()
    ratios = {}
    if total.shape[0] == U:
        ratios = {k: RatioUnits(c, total, total) for k, c in correct.items()
                  if c.shape[0] == U}
    return UnitData(ids, text, words, ted, ratios, alphas)


def add_unit_data(res: AgreementResult) -> AgreementResult:
    """Store the per-unit data in ``res.extra_details["per_unit"]`` (JSON: ``details.per_unit``).

    Parameters
    ----------
    res : AgreementResult

    Returns
    -------
    AgreementResult
        ``res`` itself.

    Examples
    --------
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus
    >>> from synagree.agreement.agree import agree_corpus
    >>> s = DepSentence.from_heads([0, 1], "root dep", ["a", "b"])
    >>> res = agree_corpus(Corpus.from_annotations({"x": [s, s], "y": [s, s]}))
    >>> add_unit_data(res).to_dict()["details"]["per_unit"]["ids"]
    ['1', '2']
    """
    res.extra_details["per_unit"] = unit_data(res).to_dict()
    return res


def agreement_view(doc: dict) -> ResultView:
    """An ``agree`` JSON result (`AgreementResult.to_dict`) as a `ResultView`.

    The metrics are the top-level fractions (α variants,
    ``las``/``uas``/``la`` or ``jaccard``, and the metrics added by options such
    as ``--hierarchy``); standard errors and intervals are left out.

    Parameters
    ----------
    doc : dict

    Returns
    -------
    ResultView

    Raises
    ------
    ValueError
        Malformed per-unit data.

    Examples
    --------
    >>> v = agreement_view({"kind": "dependency", "alpha_plain": 0.9, "las": 0.8,
    ...                     "units": 2, "alpha_plain_se": 0.01, "settings": {"d_e": "exact"}})
    >>> v.values, v.settings
    ({'alpha_plain': 0.9, 'las': 0.8}, {'d_e': 'exact', 'kind': 'dependency'})
    """
    values: Dict[str, Optional[float]] = {}
    for k, x in doc.items():
        if k in _NOT_METRICS or k.endswith(("_se", "_ci")) or isinstance(x, bool):
            continue
        if isinstance(x, float) or (x is None and k.startswith(("alpha_", "hier_"))):
            values[k] = x  # integers are counts (units, ted_zero_pairs ...), not metrics
    settings = {str(k): str(v) for k, v in (doc.get("settings") or {}).items()}
    settings["kind"] = str(doc.get("kind"))
    pu = (doc.get("details") or {}).get("per_unit")
    units = UnitData.from_dict(pu) if isinstance(pu, dict) else None
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


def agree_baseline(res: AgreementResult, doc: dict, baseline: str = "<baseline>", *,
                   B: int = BASELINE_REPLICATES, R: Optional[int] = None, seed: int = 0,
                   level: float = 0.95, top: int = 10) -> BaselineComparison:
    """Compare ``res`` with a stored ``synagree agree`` JSON result (docs/method.md §18).

    Settings in `MUST_MATCH` (and unknown ones) must be equal; those in
    `NOTE_ONLY` and different annotators are notes.  The sentence lists rank
    units by the rise of their mean TED, then by the fall of LAS-correct words
    (Jaccard for phrase structure).

    Parameters
    ----------
    res : AgreementResult
    doc : dict
        The stored JSON result (`synagree.stats.regression.load_baseline`).
    baseline : str
        Its file name, for messages.
    B, R, seed, level, top
        As for `synagree.stats.regression.regression`.

    Returns
    -------
    BaselineComparison

    Raises
    ------
    InputError
        Incompatible settings (``baseline-mismatch``), malformed per-unit data
        (``bad-json``).

    Examples
    --------
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.io.corpus import Corpus
    >>> from synagree.agreement.agree import agree_corpus
    >>> s = DepSentence.from_heads
    >>> a, b = s([2, 0, 2], "nsubj root obj"), s([2, 0, 2], "nsubj root iobj")
    >>> c = s([0, 1, 2], "root dep dep")
    >>> old = agree_corpus(Corpus.from_annotations({"x": [a, c], "y": [b, c]}))
    >>> new = agree_corpus(Corpus.from_annotations({"x": [a, c], "y": [a, c]}))
    >>> r = agree_baseline(new, add_unit_data(old).to_dict(), B=50).results[0]
    >>> round(r.metric("las").delta, 4), [(u.id, u.counts["TED"]) for u in r.better]
    (0.1667, [('1', (1, 0))])
    """
    notes: List[str] = []
    try:
        ov = agreement_view(doc)
    except ValueError as exc:
        raise InputError.single(baseline, None, "bad-json",
                                f"not a usable baseline: {exc}") from None
    nd = res.to_dict()
    nv = agreement_view(nd)
    nv.units = unit_data(res)
    ov.name = baseline
    notes += _hierarchy_check(ov, nv)
    notes += settings_check(ov.settings, nv.settings, baseline=baseline,
                            must_match=MUST_MATCH, note_only=NOTE_ONLY)
    if doc.get("annotator_names") != nd.get("annotator_names"):
        notes.append(f"annotators: {', '.join(map(str, doc.get('annotator_names') or []))} in "
                     f"the baseline, {', '.join(res.annotators)} now")
    score = "jaccard" if res.kind == "phrase" else "las"
    r = regression(ov, nv, B=B, R=R, seed=seed, level=level, top=top,
                   lists_by=(("ted", -1), (score, 1)))
    return BaselineComparison(baseline, "agree", [r], notes)
