"""Per-feature agreement and evaluation on FEATS (docs/method.md §19).

Hand-derived values on tests/data/feats first (the derivations are in
docs/morphology.md and repeated in the comments), then parity with
scikit-learn, statsmodels and the official UD scorer (udeval), the problems
of malformed FEATS, the outputs of the two commands, and real data (skipped
when absent).
"""
from __future__ import annotations

import csv
import io
import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from synagree.agreement.agree import load_corpus
from synagree.base.problems import InputError, ProblemLog
from synagree.evaluation.features import feature_scores
from synagree.evaluation.tags import evaluate_tags
from synagree.render.features import per_feature_header
from synagree.stats.categorical import layer_agreement
from synagree.stats.features import (
    check_feats,
    corpus_features,
    feature_items,
    parse_feats,
    per_feature_agreement,
)
from synagree.stats.krippendorff import krippendorff_alpha

FEATS = Path(__file__).resolve().parent / "data" / "feats"
ANN = [FEATS / f"ann{i}.conllu" for i in (1, 2, 3)]
from conftest import SHARED_DATA as SHARED

EWT_TEST = SHARED / "ud" / "en_ewt-ud-test.conllu"


def f(x):
    return pytest.approx(float(x), abs=1e-12)


def raw_feats(path):
    """FEATS per word by str.split, without synagree: [{name: value}] per word."""
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit():
            out.append({} if cols[5] == "_" else dict(e.split("=", 1) for e in cols[5].split("|")))
    return out


def two():
    return load_corpus(ANN[:2])


# --------------------------------------------------------------------------
# Splitting FEATS
# --------------------------------------------------------------------------

def test_parse_feats_canonical_order_and_absent():
    assert parse_feats("_") == {} and parse_feats("") == {}
    assert parse_feats("Case=Nom|Number[psor]=Sing") == {"Case": "Nom", "Number[psor]": "Sing"}
    log = ProblemLog()
    assert parse_feats("PronType=Rel,Int", log, "a.conllu", 3) == {"PronType": "Int,Rel"}
    assert parse_feats("Number=Sing|Case=Nom", log, "a.conllu", 4) == {"Number": "Sing",
                                                                       "Case": "Nom"}
    assert [(p.line, p.kind, p.severity) for p in log] == [(3, "unsorted-feats", "warning"),
                                                          (4, "unsorted-feats", "warning")]
    # UD's order ignores case: abbr < Case < foreign
    log = ProblemLog()
    parse_feats("Abbr=Yes|Case=Nom|Foreign=Yes", log)
    parse_feats("Mood=Cnd,Ind", log)
    assert not log.problems


@pytest.mark.parametrize("text", ["Case", "=Nom", "Case=", "Case=Nom|Case=Acc",
                                  "PronType=Int,Int", "PronType=Int,", "Case=_",
                                  "Case=Nom||Number=Sing", "appell|mask|ub|ent"])
def test_malformed_feats_are_errors_with_file_and_line(text):
    log = ProblemLog()
    parse_feats(text, log, "x.conllu", 7, "s1")
    [p] = log.problems
    assert (p.file, p.line, p.kind, p.severity, p.sent_id) == ("x.conllu", 7, "bad-feats",
                                                               "error", "s1")


def test_check_feats_lists_every_bad_value():
    log = ProblemLog()
    out = check_feats([("g", 1, "Case=Nom"), ("g", 2, "Case"), ("s", 5, "Case"),
                       ("s", 6, "Case=Nom")], log)
    assert out == [{"Case": "Nom"}, {}, {}, {"Case": "Nom"}]
    assert [(p.file, p.line) for p in log.errors] == [("g", 2), ("s", 5)]


# --------------------------------------------------------------------------
# Hand-derived: categorical (docs/morphology.md)
# --------------------------------------------------------------------------

def test_number_all_words_by_hand():
    # ann1: Sing _ Plur _ _ Sing _ Plur _ ; ann2: Sing Sing Plur _ _ Sing _ Sing _
    la = layer_agreement(feature_items(two(), "Number"))
    assert la.layer == "feats:Number" and la.items == 9
    assert la.observed() == f(Fraction(7, 9))
    # Cohen: P_e = (2·4 + 2·1 + 5·4)/81 = 30/81; κ = 33/51
    assert la.davies_fleiss() == f(Fraction(33, 51))
    # Scott: pooled Sing 6, Plur 3, _ 9 of 18: P_e = 7/18; π = 7/11
    assert la.fleiss() == f(Fraction(7, 11))
    # α: Σ n_c² = 126, 4 disagreeing ordered pairs: 1 − 17·4/198 = 65/99
    assert la.alpha() == f(Fraction(65, 99))


def test_number_present_words_by_hand():
    # items She saw them reads books; A_o 3/5; P_e = (2·4 + 2·1)/25 = 0.4; κ = 1/3
    la = layer_agreement(feature_items(two(), "Number", "present"))
    assert la.items == 5 and la.units == 2
    assert la.observed() == f(Fraction(3, 5))
    assert la.davies_fleiss() == f(Fraction(1, 3))
    assert la.fleiss() == f(Fraction(7, 27))  # P_e = .46: (0.6 − .46)/.54
    assert la.alpha() == f(Fraction(1, 3))  # n = 10, Σ n_c² = 46: 1 − 9·4/54


def test_per_feature_order_counts_and_edge_cases():
    pf = per_feature_agreement(two())
    assert list(pf.features) == ["Number", "Person", "PronType", "Case", "Mood", "Tense",
                                 "VerbForm", "Gender", "Number[psor]", "Poss",
                                 "Gender[psor]"]
    assert pf.given["Number"] == 9 and pf.given["Gender[psor]"] == 1
    # PronType: Int,Rel vs Int is one disagreement; κ = (72 − 34)/(81 − 34)
    assert pf.features["PronType"].davies_fleiss() == f(Fraction(38, 47))
    # Gender[psor]: only ann1 uses it, once: A_o = 8/9 = P_e, κ = 0, π = −1/17, α = 0
    g = pf.features["Gender[psor]"]
    assert g.observed() == f(Fraction(8, 9)) and g.davies_fleiss() == f(0)
    assert g.fleiss() == f(Fraction(-1, 17)) and g.alpha() == f(0)
    assert all(pf.features[x].observed() == 1.0 for x in ("Person", "Case", "Poss"))
    d = pf.to_dict()
    assert d["items"] == "all" and d["features"]["Number"]["pair_agree"] == 7
    assert d["features"]["Number"]["pair_items"] == 9


def test_whole_column_layer_is_unchanged():
    from synagree.stats.categorical import items_from_corpus
    la = layer_agreement(items_from_corpus(two(), "feats"))
    assert la.observed() == f(Fraction(5, 9))


# --------------------------------------------------------------------------
# Hand-derived: tags against gold
# --------------------------------------------------------------------------

def test_tags_per_feature_by_hand():
    res = evaluate_tags(ANN[0], ANN[1], "feats", per_feature=True)
    fs = res.per_feature
    rows = {r.feature: r for r in fs.rows}
    n = rows["Number"]
    assert (n.gold, n.system, n.correct, n.agree) == (4, 5, 3, 7)
    assert (n.precision, n.recall, n.f1) == (f(Fraction(3, 5)), f(Fraction(3, 4)),
                                             f(Fraction(2, 3)))
    assert n.cohen_kappa == f(Fraction(11, 17)) and n.scott_pi == f(Fraction(7, 11))
    p = rows["PronType"]
    assert (p.gold, p.system, p.correct) == (4, 4, 3)
    gp = rows["Gender[psor]"]
    assert (gp.gold, gp.system, gp.correct, gp.universal) == (1, 0, 0, False)
    assert np.isnan(gp.precision) and gp.recall == 0.0
    assert (fs.gold, fs.system, fs.correct) == (24, 24, 21)
    assert fs.micro_f1 == f(Fraction(7, 8))
    assert fs.macro_f1 == f((Fraction(2, 3) + Fraction(3, 4) + 8) / 11)
    assert (fs.set_equal, fs.ufeats_equal, fs.words) == (5, 6, 9)
    assert fs.totals(universal=True) == (22, 23, 20)
    assert res.exact == 5  # the whole-string accuracy equals the feature-set accuracy here
    d = res.to_dict()["per_feature"]
    assert d["counts"]["ufeats_equal"] == 6 and d["universal_counts"]["correct"] == 20


def test_tags_without_per_feature_is_unchanged():
    res = evaluate_tags(ANN[0], ANN[1], "feats")
    assert res.per_feature is None and "per_feature" not in res.to_dict()


def test_ufeats_equals_compare_and_udeval():
    from synagree.evaluation.compare import compare
    fs = evaluate_tags(ANN[0], ANN[1], "feats", per_feature=True).per_feature
    score = compare(ANN[0], [ANN[1]], alpha=False).systems[0].scores["UFeats"]
    assert score.correct == fs.ufeats_equal == 6
    udeval = pytest.importorskip("udtools.udeval")
    ev = udeval.evaluate(*(udeval.load_conllu(io.StringIO(p.read_text()), p.name, {})
                           for p in ANN[:2]))
    assert ev["UFeats"].correct == fs.ufeats_equal


# --------------------------------------------------------------------------
# Parity with scikit-learn and statsmodels
# --------------------------------------------------------------------------

def _random_files(tmp_path, m, seed, words=300):
    rng = random.Random(seed)
    values = {"Case": ["Nom", "Acc", "Gen"], "Number": ["Sing", "Plur"],
              "PronType": ["Prs", "Int,Rel", "Dem"]}
    base = [{k: rng.choice(v) for k, v in values.items() if rng.random() < 0.5}
            for _ in range(words)]
    paths = []
    for a in range(m):
        lines = []
        for i, feats in enumerate(base):
            feats = dict(feats)
            for k, v in values.items():
                if rng.random() < 0.25:
                    if k in feats and rng.random() < 0.3:
                        del feats[k]
                    else:
                        feats[k] = rng.choice(v)
            text = "|".join(f"{k}={feats[k]}" for k in sorted(feats)) or "_"
            k = i % 10
            if k == 0:
                lines.append(f"# sent_id = s{i // 10}")
            lines.append("\t".join([str(k + 1), f"w{i}", "_", "X", "_", text,
                                    "0" if k == 0 else "1", "root" if k == 0 else "dep",
                                    "_", "_"]))
            if k == 9:
                lines.append("")
        p = tmp_path / f"r{a}.conllu"
        p.write_text("\n".join(lines) + "\n\n")
        paths.append(p)
    return paths


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cohen_kappa_per_feature_matches_sklearn(tmp_path, seed):
    sk = pytest.importorskip("sklearn.metrics")
    paths = _random_files(tmp_path, 2, seed)
    pf = per_feature_agreement(load_corpus(paths))
    a, b = raw_feats(paths[0]), raw_feats(paths[1])
    for name, la in pf.features.items():
        x = [w.get(name, "_") for w in a]
        y = [w.get(name, "_") for w in b]
        assert la.davies_fleiss() == pytest.approx(sk.cohen_kappa_score(x, y), abs=1e-12)
        assert la.observed() == pytest.approx(np.mean([u == v for u, v in zip(x, y)]),
                                              abs=1e-12)
        ts = {r.feature: r for r in
              evaluate_tags(paths[0], paths[1], "feats", per_feature=True).per_feature.rows}
        assert ts[name].cohen_kappa == pytest.approx(sk.cohen_kappa_score(x, y), abs=1e-12)


@pytest.mark.parametrize("seed", [0, 5])
def test_fleiss_kappa_and_alpha_per_feature_match_statsmodels(tmp_path, seed):
    ir = pytest.importorskip("statsmodels.stats.inter_rater")
    paths = _random_files(tmp_path, 3, seed)
    pf = per_feature_agreement(load_corpus(paths))
    raws = [raw_feats(p) for p in paths]
    for name, la in pf.features.items():
        table = np.array([[w.get(name, "_") for w in r] for r in raws]).T
        counts, _ = ir.aggregate_raters(table)
        assert la.fleiss() == pytest.approx(ir.fleiss_kappa(counts, method="fleiss"),
                                            abs=1e-12)
        assert la.alpha() == pytest.approx(krippendorff_alpha(table.T.tolist()).alpha,
                                           abs=1e-12)


def test_three_annotators_hand_files_match_statsmodels():
    ir = pytest.importorskip("statsmodels.stats.inter_rater")
    pf = per_feature_agreement(load_corpus(ANN))
    raws = [raw_feats(p) for p in ANN]
    for name, la in pf.features.items():
        table = np.array([[w.get(name, "_") for w in r] for r in raws]).T
        counts, _ = ir.aggregate_raters(table)
        expected = ir.fleiss_kappa(counts, method="fleiss")
        assert la.fleiss() == pytest.approx(expected, abs=1e-12, nan_ok=True)


# --------------------------------------------------------------------------
# Commands: options, formats, problems
# --------------------------------------------------------------------------

def test_categorical_formats_carry_the_rows(run_cli, tmp_path):
    base = ["categorical", *ANN[:2], "--layers", "feats:Number", "--per-feature"]
    rc, out, _ = run_cli(*base, "--output", "csv")
    assert rc == 0
    every = list(csv.DictReader(io.StringIO(out)))  # one table, a section column
    assert "\n\n" not in out
    first = [r for r in every if r["section"] == "layers"]
    assert [first[0][k] for k in ("layer", "items", "observed")] == ["feats:Number", "9",
                                                                      "0.7778"]
    header = per_feature_header(2)
    rows = [[r[k] for k in header] for r in every if r["section"] == "per_feature"]
    assert rows[0] == ["Number", "all words", "9", "9", "0.7778", "0.6471", "0.6364",
                       "0.6566", "7", "9"]
    assert len(rows) == 11
    for fmt, marker in (("markdown", "| Gender\\[psor\\] |"), ("latex", "Gender[psor] &")):
        rc, out, _ = run_cli(*base, "--output", fmt)
        assert rc == 0 and marker in out
    target = tmp_path / "r.json"
    rc, _, _ = run_cli(*base, "-o", target, "--bootstrap", "40")
    d = json.loads(target.read_text())
    assert d["feature_items"] == "all" and d["layers"]["feats:Number"]["items"] == 9
    pf = d["per_feature"]
    assert pf["items"] == "all" and pf["features"]["Number"]["pair_agree"] == 7
    assert set(pf["intervals"]["Number"]) == {"observed", "cohen_kappa", "scott_pi",
                                              "alpha_nominal"}
    assert "feats:Number" in d["bootstrap"]["intervals"]


def test_categorical_present_items_are_stated(run_cli):
    rc, out, _ = run_cli("categorical", *ANN[:2], "--layers", "feats",
                         "--per-feature", "--feature-items", "present", "--output", "csv")
    assert rc == 0
    rows = [[r[k] for k in per_feature_header(2)] for r in csv.DictReader(io.StringIO(out))
            if r["section"] == "per_feature"]
    number = next(r for r in rows if r[0] == "Number")
    assert number[1:5] == ["words with it", "9", "5", "0.6000"]


def test_bad_layer_names_are_usage_errors(run_cli):
    rc, _, err = run_cli("categorical", *ANN[:2], "--layers", "feats:")
    assert rc == 2 and "feats:NAME" in err


def _with_feats(tmp_path, name, feats):
    text = ANN[0].read_text().replace("Mood=Ind|Tense=Past|VerbForm=Fin", feats)
    p = tmp_path / name
    p.write_text(text)
    return p


def test_bad_feats_refuse_the_per_feature_views_only(run_cli, tmp_path):
    bad = _with_feats(tmp_path, "bad.conllu", "Mood|Tense=Past")
    rc, _, err = run_cli("categorical", bad, ANN[1], "--per-feature")
    assert rc == 2 and f"{bad}:4: error:" in err and "(bad-feats)" in err
    rc, _, err = run_cli("tags", ANN[0], bad, "--column", "feats", "--per-feature")
    assert rc == 2 and f"{bad}:4: error:" in err
    # the whole-string views do not split FEATS
    assert run_cli("categorical", bad, ANN[1], "--layers", "feats")[0] == 0
    assert run_cli("tags", ANN[0], bad, "--column", "feats")[0] == 0


def test_unsorted_feats_warn_and_match_canonically(run_cli, tmp_path):
    odd = _with_feats(tmp_path, "odd.conllu", "VerbForm=Fin|Tense=Past|Mood=Ind")
    rc, out, err = run_cli("categorical", ANN[0], odd, "--layers", "feats:Tense",
                           "--output", "csv")
    assert rc == 0 and "(unsorted-feats)" in err and f"{odd}:4: warning:" in err
    assert out.splitlines()[1].startswith("layers,feats:Tense,9,1.0000")
    rc, _, err = run_cli("categorical", ANN[0], odd, "--layers", "feats:Tense", "-q")
    assert rc == 0 and err == ""
    rc, _, err = run_cli("categorical", ANN[0], odd, "--layers", "feats:Tense", "--strict")
    assert rc == 2 and f"{odd}:4: error:" in err
    res = evaluate_tags(ANN[0], odd, "feats", per_feature=True)
    assert [p.kind for p in res.warnings] == ["unsorted-feats"]
    assert res.per_feature.set_equal == 9 and res.exact == 8


def test_tags_per_feature_needs_the_feats_column(run_cli):
    rc, _, err = run_cli("tags", ANN[0], ANN[1], "--column", "upos", "--per-feature")
    assert rc == 2 and "--column feats" in err and "(usage)" in err


def test_tags_formats(run_cli, tmp_path):
    rc, out, _ = run_cli("tags", ANN[0], ANN[1], "--column", "feats", "--per-feature",
                         "--output", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert [r[:2] for r in rows[:4]] == [["section", "feature"], ["per_feature", "ALL"],
                                          ["per_feature", "UFeats"], ["per_feature", "Number"]]
    assert rows[1][4:8] == ["24", "24", "21", "5"] and rows[2][4:8] == ["22", "23", "20", "6"]
    rc, out, _ = run_cli("tags", ANN[0], ANN[1], "--column", "feats", "--per-feature",
                         "--output", "json")
    d = json.loads(out)["per_feature"]
    assert d["features"][0]["feature"] == "Number" and d["micro_f1"] == 0.875
    rc, out, _ = run_cli("tags", ANN[0], ANN[1], "--column", "feats", "--output", "csv")
    assert out.splitlines()[0].startswith("section,tag,count,exact")


# --------------------------------------------------------------------------
# Real data (skipped when absent)
# --------------------------------------------------------------------------

def _perturb_number(src: Path, dst: Path, every: int = 20) -> int:
    """Flip Sing/Plur on every ``every``-th word that carries Number; the count flipped."""
    seen = flipped = 0
    out = []
    for line in src.read_text(encoding="utf-8").splitlines(keepends=True):
        cols = line.rstrip("\n").split("\t")
        if len(cols) == 10 and cols[0].isdigit() and ("Number=Sing" in cols[5].split("|")
                                                       or "Number=Plur" in cols[5].split("|")):
            seen += 1
            if seen % every == 0:
                feats = ["Number=" + ("Plur" if e == "Number=Sing" else "Sing")
                         if e in ("Number=Sing", "Number=Plur") else e
                         for e in cols[5].split("|")]
                cols[5] = "|".join(feats)
                line = "\t".join(cols) + "\n"
                flipped += 1
        out.append(line)
    dst.write_text("".join(out), encoding="utf-8")
    return flipped


@pytest.fixture(scope="module")
def ewt_perturbed(tmp_path_factory):
    if not EWT_TEST.is_file():
        pytest.skip(f"UD EWT test file not found at {EWT_TEST}")
    dst = tmp_path_factory.mktemp("feats") / "ewt-perturbed.conllu"
    return dst, _perturb_number(EWT_TEST, dst)


@pytest.mark.slow
def test_real_data_tags_find_the_flips(ewt_perturbed):
    dst, flipped = ewt_perturbed
    res = evaluate_tags(EWT_TEST, dst, "feats", per_feature=True)
    rows = {r.feature: r for r in res.per_feature.rows}
    n = rows["Number"]
    assert flipped > 400 and n.gold == n.system and n.correct == n.gold - flipped
    assert all(r.correct == r.gold == r.system for name, r in rows.items() if name != "Number")
    assert res.per_feature.set_equal == res.words - flipped
    sk = pytest.importorskip("sklearn.metrics")
    x = [w.get("Number", "_") for w in raw_feats(EWT_TEST)]
    y = [w.get("Number", "_") for w in raw_feats(dst)]
    assert n.cohen_kappa == pytest.approx(sk.cohen_kappa_score(x, y), abs=1e-12)
    udeval = pytest.importorskip("udtools.udeval")
    ev = udeval.evaluate(*(udeval.load_conllu(io.StringIO(p.read_text(encoding="utf-8")),
                                              p.name, {}) for p in (EWT_TEST, dst)))
    assert ev["UFeats"].correct == res.per_feature.ufeats_equal


def test_real_data_categorical_number(ewt_perturbed):
    dst, flipped = ewt_perturbed
    corpus = load_corpus([EWT_TEST, dst])
    split = corpus_features(corpus)
    assert not split.warnings  # EWT writes FEATS in UD order
    la = layer_agreement(feature_items(corpus, "Number", split=split), by_document=False)
    assert la.pairs[0].items - la.pairs[0].contingency.agree == flipped


def test_iaa_files_have_no_ud_feats(shared_data):
    ndt = sorted((shared_data / "iaa" / "ndt").glob("*-norwegian.conll"))
    with pytest.raises(InputError) as exc:
        corpus_features(load_corpus(ndt))
    assert {p.kind for p in exc.value.errors} == {"bad-feats"}
    cdt = sorted((shared_data / "iaa" / "cdt").glob("en-*.conll"))
    assert corpus_features(load_corpus(cdt)).features() == ["id"]


def test_feature_scores_compare_canonical_values():
    fs = feature_scores([("PronType=Int,Rel", "PronType=Rel,Int"), ("Case=Nom", "_")])
    [case, pron] = sorted(fs.rows, key=lambda r: r.feature)
    assert (pron.correct, pron.agree, fs.set_equal) == (1, 2, 1)
    assert (case.gold, case.system, case.correct, case.cohen_kappa) == (1, 0, 0, 0.0)


def test_feature_items_without_a_feature_view_is_refused(run_cli):
    # an option that would change nothing is an error, not silently ignored
    ann = Path(__file__).resolve().parent / "data" / "feats"
    rc, _, err = run_cli("categorical", str(ann / "ann1.conllu"), str(ann / "ann2.conllu"),
                         "--layers", "upos", "--feature-items", "present")
    assert rc == 2 and "--feature-items" in err


def test_categorical_unseen_feature_layer_is_an_error(run_cli):
    # review: feats:case (a typo of Case) gave observed agreement 1.0 on every word
    rc, out, err = run_cli("categorical", FEATS / "ann1.conllu", FEATS / "ann2.conllu",
                           "--layers", "feats:case,feats:Case")
    assert rc == 2 and out == ""
    assert "feats:case: no annotator gives this feature anywhere" in err and "Case," in err
