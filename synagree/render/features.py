"""Rows of the per-feature FEATS tables (``categorical --per-feature``, ``tags --per-feature``).

docs/method.md §19.
"""
from typing import Dict, List, Optional

from synagree.base.table import Column, Table, format_value, key_value
from synagree.evaluation.features import FeatureScores
from synagree.render.categorical import coefficient_cells
from synagree.render.rows import render_rows
from synagree.render.writers import csv_value, text
from synagree.stats.categorical import COEFFICIENTS
from synagree.stats.features import PerFeature

#: How each item definition is named in the tables.
ITEM_SETS = {"all": "all words", "present": "words with it"}


def per_feature_header(m: int) -> List[str]:
    """The header of `per_feature_rows`: registered keys (`synagree.base.metrics`).

    Parameters
    ----------
    m : int
        Annotators (the header is the same for every ``m``: with more than
        two, ``cohen_kappa`` is the Davies & Fleiss κ and ``scott_pi`` Fleiss' κ,
        as the ``values:`` line says).
    """
    return ["feature", "item set", "given", "items", *COEFFICIENTS, "pair_agree", "pair_items"]


def per_feature_rows(pf: PerFeature, cis: Optional[Dict[str, Dict[str, dict]]] = None
                     ) -> List[List[str]]:
    """One row per feature: item set, values with it, items, coefficients, pair counts.

    Parameters
    ----------
    pf : PerFeature
        From `synagree.stats.features.per_feature_agreement`.
    cis : dict, optional
        ``{feature: {coefficient: {"low", "high"}}}``: intervals appended to
        the cells.
    """
    rows = []
    for feature, la in pf.features.items():
        c = la.coefficients()
        row = [feature, ITEM_SETS.get(pf.items, pf.items), str(pf.given[feature]),
               str(la.items)]
        row += coefficient_cells(c, (cis or {}).get(feature))
        row += [str(sum(p.contingency.agree for p in la.pairs)),
                str(sum(p.items for p in la.pairs))]
        rows.append(row)
    return rows


def per_feature_caption(items: str) -> str:
    """The caption of the per-feature table: what the items are.

    Parameters
    ----------
    items : {"all", "present"}
    """
    what = ("every word, '_' where it lacks the feature" if items == "all" else
            "the words where some annotator gives the feature; '_' where another lacks it")
    return f"Per-feature agreement on FEATS (items: {what}; most frequent feature first)"


#: Columns of the per-feature tag-evaluation CSV.
SCORE_HEADER = ["feature", "universal", "words", "gold", "system", "correct", "agree",
                "precision", "recall", "f1", "accuracy", "cohen_kappa", "scott_pi"]


def _ratio(a: int, b: int) -> Optional[float]:
    return a / b if b else None


def feature_score_rows(fs: FeatureScores) -> List[List[object]]:
    """CSV rows of per-feature scores: ``ALL``, ``UFeats``, then one per feature.

    ``ALL`` pools every feature, ``UFeats`` the universal ones; in these two
    rows ``agree`` counts the words whose whole feature sets (universal ones
    only for ``UFeats``) are equal and ``accuracy`` is its share of the words.

    Returns
    -------
    list of list
        Rows under `SCORE_HEADER`; ratios at full precision, undefined ones empty.
    """
    out: List[List[object]] = []
    for name, universal, agree in (("ALL", "", fs.set_equal),
                                   ("UFeats", "yes", fs.ufeats_equal)):
        g, s, c = fs.totals(universal=bool(universal))
        ratios = (_ratio(c, s), _ratio(c, g), _ratio(2 * c, g + s), _ratio(agree, fs.words))
        out.append([name, universal, fs.words, g, s, c, agree, *ratios, "", ""])
    for r in fs.rows:
        out.append([r.feature, "yes" if r.universal else "no", r.words, r.gold, r.system,
                    r.correct, r.agree, r.precision, r.recall, r.f1, r.accuracy, r.cohen_kappa,
                    r.scott_pi])
    return [[csv_value(v) for v in row] for row in out]


def feature_score_tables(fs: FeatureScores) -> List[Table]:
    """The per-feature scores as the table model: a summary (micro and macro scores, the
    feature-set and UFeats accuracies), then one row per feature under the CSV's keys
    (`SCORE_HEADER`)."""
    def six(x: Optional[float]) -> str:
        return format_value(x, digits=6, missing="undefined")

    summary = key_value("per_feature_summary", [
        ("micro P / R / F1", " / ".join(six(x) for x in
                                        (fs.micro_precision, fs.micro_recall, fs.micro_f1)),
         "text"),
        ("macro F1 (features)", six(fs.macro_f1), "text"),
        ("feature-set accuracy", f"{six(fs.set_accuracy)} ({fs.set_equal} of {fs.words} words)",
         "text"),
        ("UFeats accuracy", f"{six(fs.ufeats_accuracy)} ({fs.ufeats_equal} of {fs.words} "
                            f"words; universal features only)", "text")],
        title="Per feature (FEATS split into Name=Value; '_' = absent; every word an item)")
    rows = Table("per_feature", [Column("feature"), Column("universal", "boolean")]
                 + [Column(k, "count") for k in ("gold", "system", "correct")]
                 + [Column(k, "number") for k in ("precision", "recall", "f1", "accuracy",
                                                  "cohen_kappa")],
                 [[r.feature, r.universal, r.gold, r.system, r.correct, r.precision, r.recall,
                   r.f1, r.accuracy, r.cohen_kappa] for r in fs.rows])
    return [summary, rows]


def feature_score_table(fs: FeatureScores) -> str:
    """The per-feature scores as text (`feature_score_tables`, written by
    `synagree.render.writers.text`)."""
    return "\n".join(text(t) for t in feature_score_tables(fs))


def render_per_feature(pf: PerFeature, fmt: str,
                       cis: Optional[Dict[str, Dict[str, dict]]] = None) -> str:
    """The per-feature agreement table in ``fmt`` (table, csv, markdown, latex).

    Parameters
    ----------
    pf : PerFeature
    fmt : str
    cis : dict, optional
        See `per_feature_rows`.
    """
    m = len(next(iter(pf.features.values())).annotators) if pf.features else 2
    return render_rows(per_feature_header(m), per_feature_rows(pf, cis), fmt,
                       caption=per_feature_caption(pf.items))
