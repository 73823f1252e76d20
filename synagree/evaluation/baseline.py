"""``synagree compare --baseline``: parser results against a stored ``compare`` JSON.

docs/method.md §18.  `add_unit_data` stores, per system, the per-unit counts
a later comparison needs (units as in §11.3: gold sentences, or groups of them
where the system splits sentences differently); `compare_baseline` turns a
`synagree.evaluation.compare.CompareResult` and a stored JSON result into
`synagree.stats.regression.ResultView` pairs and compares them
(`synagree.stats.regression.regression`).

Per unit: the LAS, UAS and CLAS counts of §11.5 (correct, gold, system
words), TED(gold, system) and, per α variant, the unit's D_o sum
Σ_{i≠j} δ²/(m_u − 1) = 2δ² (two values per unit).  A unit's id is its gold
sentences' ids (``# sent_id``, else ``#n``) joined by ``+``; its text digest
is that of its gold word forms joined by spaces.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, List, Optional

import numpy as np

from synagree._version import __version__
from synagree.base.problems import InputError
from synagree.distance.sums import delta_squared
from synagree.evaluation.compare import (
    CompareResult,
    SystemResult,
    _per_unit_ratios,
    _unit_index,
)
from synagree.stats.alpha import VARIANTS
from synagree.stats.regression import (
    BASELINE_REPLICATES,
    BaselineComparison,
    ResultView,
    UnitData,
    pair_systems,
    regression,
    text_digest,
)

__all__ = ["unit_data", "add_unit_data", "system_view", "compare_baseline", "LISTS_BY"]

LISTS_BY = (("LAS", 1), ("ted", -1))
"""Sentence lists of ``compare --baseline``: by the change in LAS-correct words, then TED."""


def unit_data(sr: SystemResult) -> Optional[UnitData]:
    r"""The per-unit data of one system (None without the scorer's alignment)."""
    if sr.conll18 is None:
        return None
    al = sr.conll18.alignment
    gold, system = al.gold, al.system
    units = sr.units
    U = len(units)
    g_unit, s_unit = _unit_index(units, len(gold.sentences), len(system.sentences))
    ratios = _per_unit_ratios(al, g_unit, s_unit, U, sr.conll18) if U else {}
    ids, text = [], []
    g_words = np.zeros(U)
    s_words = np.zeros(U)
    for k, u in enumerate(units):
        ids.append("+".join(gold.sentences[i].label for i in u.gold))
        first, last = gold.sentences[u.gold.start], gold.sentences[u.gold.stop - 1]
        ws = gold.words[first.words.start:last.words.stop]
        text.append(text_digest(" ".join(w.form for w in ws)))
        g_words[k] = len(ws)
        sf, sl = system.sentences[u.system.start], system.sentences[u.system.stop - 1]
        s_words[k] = sl.words.stop - sf.words.start
    ted = (np.asarray(sr.unit_ted, dtype=np.float64) if sr.unit_ted is not None
           and len(sr.unit_ted) == U else np.full(U, np.nan))
    alphas = {}
    if sr.alpha and sr.unit_ted is not None and len(sr.unit_ted) == U:
        for v in VARIANTS:
            st = sr.alpha.get(v)
            if st is None:
                continue
            # |t| = words + 1 per unit (docs/method.md §11.3); m_u = 2: D_o sum = 2 δ²
            do = 2.0 * delta_squared(ted, g_words + 1.0, s_words + 1.0, v)
            alphas[f"alpha_{v}"] = (do, np.full(U, 2.0), float(st.d_e))
    return UnitData(ids, text, g_words, ted, dict(ratios), alphas)


def add_unit_data(res: CompareResult) -> CompareResult:
    r"""Store every system's per-unit data in ``res`` (``per_unit`` in its JSON).

    Returns
    -------
    CompareResult
        ``res`` itself.
    """
    for k, sr in enumerate(res.systems):  # a system's result is frozen: replaced whole
        ud = unit_data(sr)
        if ud is not None:
            res.systems[k] = replace(sr, per_unit={**ud.to_dict(),
                                                   "synagree_version": __version__})
    return res


def system_view(d: dict, hierarchy: Optional[str] = None) -> ResultView:
    """A system of a ``compare`` JSON (``systems[i]``) as a `ResultView`.

    Parameters
    ----------
    d : dict
        One entry of the JSON's ``systems``.
    hierarchy : str, optional
        The result's hierarchy (a setting of ``LAS_hier``).

    Returns
    -------
    ResultView
        Values: every score's F1 and ``alpha_<variant>``.

    Raises
    ------
    ValueError
        Malformed per-unit data.
    """
    if "counts" in d:  # today's shape: the metrics at the top, their counts under "counts"
        values: Dict[str, Optional[float]] = {k: d.get(k) for k in d["counts"]}
        sampled = [k[len("alpha_"):] for k, c in d["counts"].items()
                   if k.startswith("alpha_") and c.get("sampled_pairs")]
    else:  # releases before the metric registry: "scores" and "alpha" dicts
        values = {k: s.get("f1") for k, s in d.get("scores", {}).items()}
        for v, st in (d.get("alpha") or {}).items():
            values[f"alpha_{v}"] = st.get("alpha")
        sampled = [v for v, st in (d.get("alpha") or {}).items() if st.get("sampled_pairs")]
    settings = {"hierarchy": str(hierarchy)}
    settings["alpha d_e"] = (f"sampled ({', '.join(sampled)})" if sampled else "exact")
    pu = d.get("per_unit")
    units = UnitData.from_dict(pu) if isinstance(pu, dict) else None
    return ResultView(str(d.get("name")), values, settings, units)


def compare_baseline(res: CompareResult, doc: dict, baseline: str = "<baseline>", *,
                     B: int = BASELINE_REPLICATES, R: Optional[int] = None, seed: int = 0,
                     level: float = 0.95, top: int = 10) -> BaselineComparison:
    r"""Compare ``res`` with a stored ``synagree compare`` JSON result (docs/method.md §18).

    Systems are paired by name; when each side has one system under different
    names, the two are paired with a note.  A different gold file, gold size,
    hierarchy (``LAS_hier`` is then left out), tag syntax (``LAS_hier`` and ``LAS_bdm``
    are then left out) or a sampled D_e is a note.

    Parameters
    ----------
    res : CompareResult
        The new result (its per-unit data is added when missing).
    doc : dict
        The stored JSON result (`synagree.stats.regression.load_baseline`).
    baseline : str
        Its file name, for messages.
    B, R, seed, level, top
        As for `synagree.stats.regression.regression`.

    Raises
    ------
    InputError
        Malformed per-unit data in ``doc`` (``bad-json``).
    """
    if any(s.per_unit is None for s in res.systems):
        add_unit_data(res)
    notes: List[str] = []
    if doc.get("gold") != res.gold:
        notes.append(f"gold file: {doc.get('gold')} in the baseline, {res.gold} now")
    if (doc.get("gold_sentences"), doc.get("gold_words")) != (res.gold_sentences, res.gold_words):
        notes.append(f"gold size: {doc.get('gold_sentences')} sentences, "
                     f"{doc.get('gold_words')} words in the baseline; {res.gold_sentences} "
                     f"sentences, {res.gold_words} words now")
    try:
        old_views = [system_view(d, doc.get("hierarchy")) for d in doc.get("systems", [])]
        new_views = [system_view(s.as_dict(), res.hierarchy) for s in res.systems]
    except ValueError as exc:
        raise _bad(baseline, str(exc)) from None
    pairs, pair_notes = pair_systems(old_views, new_views)
    notes += pair_notes
    old_syntax = str(doc.get("tag_syntax", "plain"))
    old_bdm = str(doc.get("bdm_definition", ""))
    results = []
    for ov, nv in pairs:
        pair_notes = []
        if ov.settings["hierarchy"] != nv.settings["hierarchy"]:
            for v in (ov, nv):
                v.values.pop("LAS_hier", None)
            pair_notes.append(f"LAS_hier not compared: hierarchy {ov.settings['hierarchy']} "
                              f"in the baseline, {nv.settings['hierarchy']} now")
        if old_bdm != "gate" and "LAS_bdm" in ov.values:  # method §23: another formula then
            for v in (ov, nv):
                v.values.pop("LAS_bdm", None)
            pair_notes.append("LAS_bdm not compared: the baseline's LAS_bdm is the earlier "
                              "Wu-Palmer formula, not GATE's BDM (docs/method.md §23)")
        if old_syntax != res.tag_syntax:  # label credit read differently (method §15)
            for v in (ov, nv):
                v.values.pop("LAS_hier", None)
                v.values.pop("LAS_bdm", None)
            pair_notes.append(f"LAS_hier and LAS_bdm not compared: tag syntax {old_syntax} "
                              f"in the baseline, {res.tag_syntax} now")
        if "sampled" in ov.settings["alpha d_e"] + nv.settings["alpha d_e"]:
            pair_notes.append(f"alpha D_e: {ov.settings['alpha d_e']} in the baseline, "
                              f"{nv.settings['alpha d_e']} now; the sampled D_e's error is "
                              f"not in the tests")
        r = regression(ov, nv, B=B, R=R, seed=seed, level=level, top=top, lists_by=LISTS_BY)
        r.notes[:0] = pair_notes
        results.append(r)
    old_version = next((d.get("per_unit", {}).get("synagree_version") for d in
                        doc.get("systems", []) if isinstance(d.get("per_unit"), dict)), None)
    if old_version is not None and old_version != __version__:
        notes.append(f"version: synagree {old_version} in the baseline, {__version__} now")
    return BaselineComparison(baseline, "compare", results, notes)


def _bad(baseline: str, message: str) -> InputError:
    return InputError.single(baseline, None, "bad-json", f"not a usable baseline: {message}")
