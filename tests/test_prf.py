"""Micro/macro P/R/F1 over labels, strict and lenient (``compare --prf``, ``tags --prf``).

docs/method.md §17.  The expected values on ``tests/data/prf`` are derived by
hand (see docs/prf.md); scikit-learn's ``precision_recall_fscore_support``
is the independent implementation for parity, on the tiny files, on random
data and on UD EWT against a perturbed copy.
"""
from __future__ import annotations

import csv
import io
import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import pytest

from synagree.evaluation.compare import compare
from synagree.evaluation.conll18 import align
from synagree.evaluation.label_prf import (
    COMPARE_VARIANTS,
    UNLABELLED_CLASS,
    relation_prf,
    tag_prf,
    top_level_tag,
)
from synagree.evaluation.tags import evaluate_tags
from synagree.render.compare import render
from synagree.render.tags import render_tags
from synagree.stats.prf import LabelCounts, prf_from_counts, prf_from_pairs
from synagree.trees.hierarchy import Hierarchy

DATA = Path(__file__).resolve().parent / "data" / "prf"
GOLD, SYSTEM = DATA / "gold.conllu", DATA / "system.conllu"
CONLL18 = Path(__file__).resolve().parent / "data" / "conll18"
TOL = 1e-12


def _close(x, frac) -> bool:
    return abs(x - float(frac)) < TOL


# ------------------------------------------------------------------ arithmetic


def test_label_counts_zero_division_is_zero():
    assert LabelCounts("x", 0, 3, 0).precision == 0.0
    assert LabelCounts("x", 0, 0, 3).recall == 0.0
    assert LabelCounts("x", 0, 0, 0).f1 == 0.0
    c = LabelCounts("x", 2, 5, 3)
    assert (c.precision, c.recall) == (2 / 3, 2 / 5)
    assert _close(c.f1, 2 * Fraction(2, 3) * Fraction(2, 5) / (Fraction(2, 3) + Fraction(2, 5)))


def test_counts_refused_when_inconsistent():
    with pytest.raises(ValueError, match="correct"):
        prf_from_counts({"a": 3}, {"a": 2}, {"a": 5})
    with pytest.raises(ValueError):
        prf_from_counts({"a": 1}, {"a": 2}, {})


def test_no_labels_is_undefined_not_zero():
    r = prf_from_counts({}, {}, {})
    assert r.labels == 0
    d = r.as_dict()
    assert d["macro_f1"] is None and d["micro_f1"] is None


def test_labels_are_the_union_and_zero_count_labels_are_left_out():
    r = prf_from_counts({}, {"a": 1, "b": 0}, {"c": 2})
    assert [c.label for c in r.per_label] == ["a", "c"]


# ------------------------------------------------------------------ tags, by hand

# gold / system DEPREL of tests/data/prf (8 words):
#   nsubj:pass/nsubj  aux:pass/aux:pass  root/root  advmod/advmod
#   nsubj/nsubj       root/root          obj/iobj   obl:tmod/obl


def test_tags_deprel_by_hand():
    res = evaluate_tags(GOLD, SYSTEM, prf=True)
    assert res.prf is not None
    s, le = res.prf["strict"], res.prf["lenient"]
    # strict: 9 labels; correct root 2, aux:pass, advmod, nsubj
    assert (s.labels, s.correct, s.gold, s.system) == (9, 5, 8, 8)
    assert s.micro_f1 == 0.625 == res.accuracy
    assert _close(s.macro_precision, Fraction(7, 18))  # (1 + 1/2 + 1 + 1) / 9
    assert _close(s.macro_recall, Fraction(4, 9))
    assert _close(s.macro_f1, Fraction(11, 27))  # (1 + 2/3 + 1 + 1) / 9
    assert s.label("nsubj") == LabelCounts("nsubj", 1, 1, 2)
    assert s.label("iobj") == LabelCounts("iobj", 0, 0, 1)
    # lenient: universal parts; only obj/iobj differs
    assert (le.labels, le.correct) == (7, 7)
    assert le.micro_f1 == 0.875
    assert _close(le.macro_precision, Fraction(5, 7))
    assert _close(le.macro_recall, Fraction(5, 7))
    assert _close(le.macro_f1, Fraction(5, 7))
    assert le.notes == []


def test_tags_upos_flat_lenient_equals_strict_and_says_so():
    res = evaluate_tags(GOLD, SYSTEM, column="upos", prf=True)
    s, le = res.prf["strict"], res.prf["lenient"]
    assert (s.labels, s.correct) == (6, 6)
    assert _close(s.macro_precision, Fraction(3, 4))
    assert _close(s.macro_recall, Fraction(25, 36))
    assert _close(s.macro_f1, (1 + 1 + Fraction(2, 3) + Fraction(2, 3) + Fraction(4, 5)) / 6)
    assert le.as_dict()["per_label"] == s.as_dict()["per_label"]
    assert le.notes == ["lenient = strict: no tag has an ancestor in the flat hierarchy"]


def test_top_level_tag():
    msd = Hierarchy.from_msd(["Ncmsn", "Vmip3s", "Ncms-"])
    assert top_level_tag(msd, "Ncms-") == "N"
    assert top_level_tag(msd, "Vmip3s") == "V"
    leaf = Hierarchy.from_ud(["nsubj", "nsubj:pass"], plain_as_leaf=True)
    assert top_level_tag(leaf, "nsubj") == top_level_tag(leaf, "nsubj:pass") == "nsubj"
    res = tag_prf([("Ncmsn", "Ncfsn"), ("Vmip3s", "Ncmsn")], "msd")
    assert res["lenient"].correct == 1 and res["strict"].correct == 0


def test_tags_default_output_unchanged_without_prf():
    res = evaluate_tags(GOLD, SYSTEM)
    assert res.prf is None
    assert "prf" not in res.to_dict()
    assert "P/R/F1" not in render_tags(res, "table")
    assert render_tags(res, "csv").splitlines()[0] == \
        "section,tag,count,exact,accuracy,accuracy_hier,confusion,confusion_count,note"


def test_tags_outputs_carry_the_numbers():
    res = evaluate_tags(GOLD, SYSTEM, prf=True)
    d = json.loads(render_tags(res, "json"))
    assert d["prf"]["strict"]["macro_f1"] == res.prf["strict"].macro_f1
    assert d["prf"]["lenient"]["per_label"][0] == {
        "label": "nsubj", "correct": 2, "gold": 2, "system": 2,
        "precision": 1.0, "recall": 1.0, "f1": 1.0}
    rows = list(csv.DictReader(io.StringIO(render_tags(res, "csv"))))
    assert rows[0]["tag"] == "ALL" and rows[0]["variant"] == ""
    macro = [r for r in rows if r["tag"] == "MACRO" and r["variant"] == "strict"][0]
    assert float(macro["f1"]) == res.prf["strict"].macro_f1 and macro["labels"] == "9"
    micro = [r for r in rows if r["tag"] == "MICRO" and r["variant"] == "lenient"][0]
    assert (micro["correct"], micro["gold"], micro["system"]) == ("7", "8", "8")
    obl = [r for r in rows if r["tag"] == "obl" and r["variant"] == "strict"][0]
    assert (obl["correct"], obl["gold"], obl["system"], obl["count"]) == ("0", "0", "1", "")
    text = render_tags(res, "table")
    assert "strict 9 5 8 8 0.6250" in " ".join(text.split())
    for fmt in ("markdown", "latex"):  # the same tables in every format (issue 31)
        out = render_tags(res, fmt)
        assert "lenient: per tag" in out and "0.6250" in out and "micro" in out
    assert "lenient: per tag" in text


# ------------------------------------------------------------------ compare, by hand


def test_compare_by_hand():
    res = compare(GOLD, [SYSTEM], alpha=False, prf=True)
    s = res.systems[0]
    p = s.prf
    assert list(p) == list(COMPARE_VARIANTS)
    # strict: head + full DEPREL: was, seen, Dogs, chase
    assert (p["strict"].labels, p["strict"].correct) == (9, 4)
    assert _close(p["strict"].macro_precision, Fraction(5, 18))  # (1 + 1/2 + 1) / 9
    assert _close(p["strict"].macro_recall, Fraction(1, 3))
    assert _close(p["strict"].macro_f1, Fraction(8, 27))
    # lenient: + She (nsubj), today (obl); not there (head), cats (iobj)
    assert (p["lenient"].labels, p["lenient"].correct) == (7, 6)
    assert _close(p["lenient"].macro_f1, Fraction(4, 7))
    assert _close(p["lenient"].macro_precision, Fraction(4, 7))
    assert (p["unlabelled"].labels, p["unlabelled"].correct) == (1, 7)
    assert p["unlabelled"].per_label[0].label == UNLABELLED_CLASS
    assert p["unlabelled"].macro_f1 == p["unlabelled"].micro_f1 == 0.875
    # label-only = the tags numbers on the same files
    tags = evaluate_tags(GOLD, SYSTEM, prf=True).prf
    for k in ("strict", "lenient"):
        assert p[f"{k}_label_only"].as_dict()["per_label"] == tags[k].as_dict()["per_label"]


def _score_counts(sc):
    return sc.correct, sc.gold_total, sc.system_total


@pytest.mark.parametrize("gold,system", [
    (GOLD, SYSTEM),
    (CONLL18 / "tokenisation-gold.conllu", CONLL18 / "tokenisation-sys.conllu"),
    (CONLL18 / "split-gold.conllu", CONLL18 / "split-sys.conllu"),
])
def test_micro_is_the_scorers_las_full_las_uas(gold, system):
    s = compare(gold, [system], alpha=False, prf=True).systems[0]
    for variant, metric in (("strict", "LAS_full"), ("lenient", "LAS"), ("unlabelled", "UAS")):
        r = s.prf[variant]
        assert (r.correct, r.gold, r.system) == _score_counts(s.scores[metric]), variant
        assert abs(r.micro_f1 - s.scores[metric].f1) < TOL


def test_compare_default_output_unchanged_without_prf():
    res = compare(GOLD, [SYSTEM], alpha=False)
    assert res.systems[0].prf is None
    assert "prf" not in res.systems[0].as_dict()
    for fmt in ("table", "csv", "latex"):
        assert "P/R/F1" not in render(res, fmt) and "prf:" not in render(res, fmt)
        assert "macro" not in render(res, fmt)


def test_compare_outputs_carry_the_numbers():
    res = compare(GOLD, [SYSTEM], alpha=False, prf=True, names=["sys"])
    p = res.systems[0].prf
    d = json.loads(render(res, "json"))["systems"][0]["prf"]
    assert set(d) == set(COMPARE_VARIANTS)
    assert d["lenient"]["macro_f1"] == p["lenient"].macro_f1
    assert d["strict"]["correct"] == 4 and d["strict"]["labels"] == 9
    rows = list(csv.DictReader(io.StringIO(render(res, "csv"))))
    prf_rows = [r for r in rows if r["section"].startswith("prf:")]
    macro = [r for r in prf_rows if r["section"] == "prf:strict" and r["metric"] == "macro"][0]
    assert float(macro["f1"]) == p["strict"].macro_f1
    assert float(macro["precision"]) == p["strict"].macro_precision
    labels = [r for r in prf_rows if r["section"] == "prf:lenient" and r["metric"] == "labels"]
    assert labels[0]["value"] == "7"
    nsubj = [r for r in prf_rows if r["section"] == "prf:strict" and r["bin"] == "nsubj"][0]
    assert (nsubj["correct"], nsubj["gold"], nsubj["predicted"]) == ("1", "1", "2")
    latex = render(res, "latex")
    assert "macro F1 strict & 29.63 \\\\" in latex  # a row per metric
    assert "macro F1 lenient & 57.14 \\\\" in latex
    table = render(res, "table")
    assert "sys: P/R/F1 over relations" in table
    assert "lenient 7 6 8 8 75.00" in " ".join(table.split())
    markdown = render(res, "markdown")  # the summaries in Markdown too (issue 31)
    assert "| lenient | 7 | 6 | 8 | 8 | 75.00 |" in markdown and "prf: micro:" in markdown


# ------------------------------------------------------------------ sklearn parity

try:
    from sklearn import metrics as skm
except ImportError:  # pragma: no cover - sklearn is a test dependency
    skm = None
needs_sklearn = pytest.mark.skipif(skm is None, reason="scikit-learn is not installed")
NONE = "\x00none"


def _sk(y_true: Sequence[str], y_pred: Sequence[str], labels=None) -> Tuple[float, float, float]:
    p, r, f, _ = skm.precision_recall_fscore_support(y_true, y_pred, labels=labels,
                                                     average="macro", zero_division=0)
    return float(p), float(r), float(f)


def _sk_micro(y_true, y_pred, labels=None) -> Tuple[float, float, float]:
    p, r, f, _ = skm.precision_recall_fscore_support(y_true, y_pred, labels=labels,
                                                     average="micro", zero_division=0)
    return float(p), float(r), float(f)


def _assert_same(ours, theirs):
    assert all(abs(a - b) < 1e-12 for a, b in zip(ours, theirs)), (ours, theirs)


def _macro(r):
    return r.macro_precision, r.macro_recall, r.macro_f1


def _micro(r):
    return r.micro_precision, r.micro_recall, r.micro_f1


def _raw_words(path: Path) -> List[List[str]]:
    """Word lines (10 columns) of a CoNLL-U file, multiword ranges and empty nodes left out."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if "-" in cols[0] or "." in cols[0]:
            continue
        out.append(cols)
    return out


def _sklearn_items(gold: Path, system: Path, head: bool, lenient: bool):
    """y_true / y_pred of a head+label (or label-only) variant, equal tokenisation.

    A word with a wrong head (``head``) counts as a miss of its gold label and
    a false alarm of its system label: two items, (gold, NONE) and (NONE,
    system); NONE is left out of the labels averaged.
    """
    yt, yp = [], []
    for g, s in zip(_raw_words(gold), _raw_words(system)):
        gl, sl = g[7], s[7]
        if lenient:
            gl, sl = gl.split(":")[0], sl.split(":")[0]
        if head and g[6] != s[6]:
            yt += [gl, NONE]
            yp += [NONE, sl]
        else:
            yt.append(gl)
            yp.append(sl)
    labels = sorted((set(yt) | set(yp)) - {NONE})
    return yt, yp, labels


def _check_compare_parity(gold: Path, system: Path, res=None):
    res = res or compare(gold, [system], alpha=False, prf=True).systems[0].prf
    for variant, head, lenient in (("strict", True, False), ("lenient", True, True),
                                   ("strict_label_only", False, False),
                                   ("lenient_label_only", False, True)):
        yt, yp, labels = _sklearn_items(gold, system, head, lenient)
        assert res[variant].labels == len(labels), variant
        _assert_same(_macro(res[variant]), _sk(yt, yp, labels))
        _assert_same(_micro(res[variant]), _sk_micro(yt, yp, labels))


@needs_sklearn
def test_sklearn_parity_tiny_compare():
    _check_compare_parity(GOLD, SYSTEM)


@needs_sklearn
@pytest.mark.parametrize("column", ["deprel", "upos"])
def test_sklearn_parity_tiny_tags(column):
    res = evaluate_tags(GOLD, SYSTEM, column=column, prf=True).prf["strict"]
    col = {"deprel": 7, "upos": 3}[column]
    yt = [w[col] for w in _raw_words(GOLD)]
    yp = [w[col] for w in _raw_words(SYSTEM)]
    _assert_same(_macro(res), _sk(yt, yp))
    _assert_same(_micro(res), _sk_micro(yt, yp))


@needs_sklearn
@pytest.mark.parametrize("seed", range(20))
def test_sklearn_parity_random_pairs(seed):
    rng = random.Random(seed)
    labels = [f"l{k}" for k in range(rng.randint(1, 8))]
    n = rng.randint(1, 60)
    yt = [rng.choice(labels) for _ in range(n)]
    yp = [rng.choice(labels + ["extra"]) for _ in range(n)]
    res = prf_from_pairs(list(zip(yt, yp)))
    _assert_same(_macro(res), _sk(yt, yp))
    _assert_same(_micro(res), _sk_micro(yt, yp))
    assert res.labels == len(set(yt) | set(yp))


# ------------------------------------------------------------------ real data


def perturbed_copy(src: Path, dst: Path, seed: int = 1) -> Dict[str, int]:
    """A copy of a CoNLL-U file with labels and heads changed; trees stay trees.

    Per word, with a seeded generator: 10% subtype dropped or added
    (``nsubj:pass`` → ``nsubj``, ``obl`` → ``obl:tmod``), 8% another
    universal relation, 8% the head moved to the grandparent (never the root,
    so one root word and no cycle), 5% another UPOS.  Returns what changed.
    """
    rng = random.Random(seed)
    rels = ["nsubj", "obj", "iobj", "obl", "advmod", "amod", "nmod", "det", "case", "conj"]
    upos = ["NOUN", "VERB", "ADJ", "ADV", "PROPN", "PRON"]
    changed = {"subtype": 0, "relation": 0, "head": 0, "upos": 0}
    out: List[str] = []
    block: List[List[str]] = []

    def flush():
        heads = {int(c[0]): int(c[6]) for c in block if c[0].isdigit()}
        for c in block:
            if len(c) == 1:
                out.append(c[0])
                continue
            if c[0].isdigit():
                u = rng.random()
                if u < 0.10:
                    c[7] = c[7].split(":")[0] if ":" in c[7] else c[7] + ":tmod"
                    changed["subtype"] += 1
                elif u < 0.18:
                    c[7] = rng.choice([r for r in rels if r != c[7].split(":")[0]])
                    changed["relation"] += 1
                h = heads[int(c[0])]
                if rng.random() < 0.08 and h and heads[h]:
                    c[6] = str(heads[h])
                    changed["head"] += 1
                if rng.random() < 0.05:
                    c[3] = rng.choice([t for t in upos if t != c[3]])
                    changed["upos"] += 1
            out.append("\t".join(c))
        block.clear()

    for line in src.read_text(encoding="utf-8").splitlines():
        if not line:
            flush()
            out.append("")
        elif line.startswith("#"):
            block.append([line])
        else:
            block.append(line.split("\t"))
    flush()
    dst.write_text("\n".join(out) + "\n", encoding="utf-8")
    return changed


@pytest.fixture(scope="module")
def ewt_pair(tmp_path_factory):
    gold = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ud" / \
        "en_ewt-ud-test.conllu"
    if not gold.is_file():
        pytest.skip(f"UD EWT test file not found at {gold}")
    system = tmp_path_factory.mktemp("prf") / "ewt-perturbed.conllu"
    perturbed_copy(gold, system)
    return gold, system


@pytest.mark.slow
@needs_sklearn
def test_real_data_ewt_parity_and_consistency(ewt_pair):
    gold, system = ewt_pair
    s = compare(gold, [system], alpha=False, prf=True).systems[0]
    _check_compare_parity(gold, system, s.prf)
    for variant, metric in (("strict", "LAS_full"), ("lenient", "LAS"), ("unlabelled", "UAS")):
        assert (s.prf[variant].correct, s.prf[variant].gold, s.prf[variant].system) == \
            _score_counts(s.scores[metric])
    p = s.prf
    # lenient forgives the subtype changes: more correct, fewer labels
    assert p["lenient"].correct > p["strict"].correct
    assert p["lenient"].labels < p["strict"].labels
    # macro weighs rare relations, which the subtype noise hits hardest
    assert p["strict"].macro_f1 < p["strict"].micro_f1
    tags = evaluate_tags(gold, system, prf=True).prf
    for k in ("strict", "lenient"):
        assert tags[k].as_dict()["per_label"] == p[f"{k}_label_only"].as_dict()["per_label"]
    up = evaluate_tags(gold, system, column="upos", prf=True).prf["strict"]
    yt = [w[3] for w in _raw_words(gold)]
    yp = [w[3] for w in _raw_words(system)]
    _assert_same(_macro(up), _sk(yt, yp))


def test_relation_prf_on_an_alignment_directly():
    al = align(GOLD.read_text(encoding="utf-8"), SYSTEM.read_text(encoding="utf-8"))
    assert relation_prf(al)["strict"].correct == 4


def test_cli_prf_output_follows_the_suffix(run_cli, tmp_path):
    out = tmp_path / "res.json"
    rc, _, err = run_cli("compare", GOLD, SYSTEM, "--prf", "--no-alpha", "-q", "-o", out)
    assert rc == 0, err
    d = json.loads(out.read_text(encoding="utf-8"))
    assert d["systems"][0]["prf"]["unlabelled"]["micro_f1"] == 0.875
    out = tmp_path / "tags.csv"
    rc, _, err = run_cli("tags", GOLD, SYSTEM, "--prf", "-q", "-o", out)
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [r["f1"] for r in rows if r["tag"] == "MACRO"] == [repr(11 / 27), repr(5 / 7)]


def test_per_feature_and_prf_refused_in_one_csv(run_cli, tmp_path):
    # two row sets with different columns do not fit one CSV document
    gold = DATA.parent / "feats" / "ann1.conllu"
    system = DATA.parent / "feats" / "ann2.conllu"
    out = tmp_path / "both.csv"
    rc, _, err = run_cli("tags", str(gold), str(system), "--column", "feats", "--per-feature",
                         "--prf", "-o", str(out))
    assert rc == 2 and "--per-feature and --prf" in err and not out.exists()
    rc, _, err = run_cli("tags", str(gold), str(system), "--column", "feats", "--per-feature",
                         "--prf", "-o", str(tmp_path / "both.json"))
    assert rc == 0, err
    data = json.loads((tmp_path / "both.json").read_text())
    assert data["per_feature"] and data["prf"]["strict"]["labels"] > 0
