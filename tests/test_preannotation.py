"""Pre-annotation: kept and changed arcs, α and LAS with and without them (docs/method.md §29).

Independent computations: kept/changed counts and LAS on kept/changed words
counted from raw CoNLL columns; restricted trees built by deleting nodes
from zss trees; α over them by the textbook double loop.  Known answer by
construction: a pre-annotation one annotator kept wholesale (their kept
share is 1, and the identities of §29.3 hold).
"""
from __future__ import annotations

import csv
import io
import json
import random
import shutil

import numpy as np
import pytest

from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.agreement.extra_file import read_with_extra
from synagree.agreement.preannotation import PreannotationOptions, preannotation_scores
from synagree.distance.ted import ted
from synagree.io.conllu import DepSentence
from synagree.trees.flat import Vocabulary, dependency_tree
from synagree.trees.restrict import restricted_heads, restricted_tree

LABELS = ["nsubj", "obj", "obl", "nmod", "amod", "det", "advmod"]


def random_tree(n, rng):
    return [(0, "root")] + [(rng.randint(1, i - 1), rng.choice(LABELS)) for i in range(2, n + 1)]


def correct(sent, rate, rng):
    """An annotator's corrections: about ``rate`` of the arcs changed (head or label)."""
    out = list(sent)
    for i in range(2, len(sent) + 1):
        if rng.random() < rate:
            h, r = out[i - 1]
            out[i - 1] = ((rng.randint(1, i - 1), r) if rng.random() < 0.5
                          else (h, rng.choice([x for x in LABELS if x != r])))
    return out


def make(tmp_path, h, seed=4, units=10, rates=(0.0, 0.25), names=("anna", "bert")):
    rng = random.Random(seed)
    pre = [random_tree(rng.randint(3, 8), rng) for _ in range(units)]
    sents = {"pre": pre}
    for name, rate in zip(names, rates):
        sents[name] = [correct(s, rate, rng) for s in pre]
    meta = [{"sent_id": f"s{k}"} for k in range(units)]
    files = {}
    for name, ss in sents.items():
        files[name] = tmp_path / f"{name}.conllu"
        files[name].write_text(h.conll_text(ss, meta), encoding="utf-8")
    return sents, files


def scores_of(files, names=("anna", "bert"), variants=("plain", "diff", "norm")):
    data = read_with_extra([files[n] for n in names], (), files["pre"], role="pre-annotation")
    return preannotation_scores(PreannotationOptions(data), variants)


# --------------------------------------------------------------------------- restriction


def zss_restricted(h, heads, labels, keep):
    """Independent: the zss tree with the dropped words deleted (children spliced into
    their place under the parent), built recursively from the full tree."""
    from zss import Node

    n = len(heads)
    kids = {i: [w for w in range(1, n + 1) if heads[w - 1] == i] for i in range(n + 1)}

    def build(w):  # the kept nodes standing for word w's subtree, in order
        sub = [x for c in kids[w] for x in build(c)]
        if w == 0 or keep[w - 1]:
            node = Node("" if w == 0 else labels[w - 1])
            for x in sub:
                node.addkid(x)
            return [node]
        return sub

    return build(0)[0]


@pytest.mark.parametrize("seed", range(12))
def test_restriction_is_deletion_for_projective_trees(h, seed):
    rng = random.Random(seed)
    v = Vocabulary()
    # projective: each word's head is its left neighbour's head chain (a right-branching spine)
    n = rng.randint(3, 9)
    heads = [0] + [rng.randint(max(1, i - 2), i - 1) for i in range(2, n + 1)]
    heads = _projective(heads)
    labels = [rng.choice(LABELS) for _ in range(n)]
    other = _projective([0] + [rng.randint(1, i - 1) for i in range(2, n + 1)])
    keep = [rng.random() < 0.6 for _ in range(n)]
    s1 = DepSentence.from_heads(heads, labels)
    s2 = DepSentence.from_heads(other, labels)
    t1, t2 = restricted_tree(s1, keep, v), restricted_tree(s2, keep, v)
    z1 = zss_restricted(h, heads, labels, keep)
    z2 = zss_restricted(h, other, labels, keep)
    assert ted(t1, t2) == h.zss_unit_distance(z1, z2)
    assert t1.size == sum(keep) + 1


def _projective(heads):
    """Heads made projective: a word whose arc would cross another hangs from its left
    neighbour instead (repeated until no arc crosses)."""
    heads = list(heads)
    changed = True
    while changed:
        changed = False
        arcs = [(min(w, hd), max(w, hd)) for w, hd in enumerate(heads, start=1) if hd]
        for w, hd in enumerate(heads, start=1):
            if not hd:
                continue
            a, b = min(w, hd), max(w, hd)
            if any(a < x < b < y or x < a < y < b for x, y in arcs):
                heads[w - 1] = w - 1
                changed = True
                break
    return heads


def test_restricted_heads_cases():
    assert restricted_heads([2, 0, 2, 3], [True, False, False, True]) == [0, 0]
    assert restricted_heads([0, 1, 2], [True, False, True]) == [0, 1]
    assert restricted_heads([0, 3, 2, 3], [True, False, False, True]) == [0, None]
    v = Vocabulary()
    s = DepSentence.from_heads([0, 1, 2], "root a b")
    assert (restricted_tree(s, [True] * 3, v).labels.tolist()
            == dependency_tree(s, v).labels.tolist())
    with pytest.raises(ValueError):
        restricted_tree(s, [True], v)


# --------------------------------------------------------------------------- known answer


def test_one_annotator_kept_the_preannotation_wholesale(tmp_path, h):
    sents, files = make(tmp_path, h)
    res = scores_of(files)
    anna, bert = res.annotator("anna"), res.annotator("bert")
    assert anna.kept_share == 1.0 and anna.changed_share == 0.0 and anna.changed == 0
    assert anna.scores["LAS_full_changed"] is None
    assert all(anna.alpha[f"alpha_{v}_changed"].alpha is None for v in ("plain", "norm"))
    assert 0.0 < bert.kept_share < 1.0
    m = res.metrics()
    # anna = pre: the words kept by all are bert's kept words (§29.3)
    assert m["kept_by_all_share"] == pytest.approx(bert.kept_share)
    assert anna.scores["LAS_full_kept"] == pytest.approx(bert.kept_share)
    for v in ("plain", "diff", "norm"):
        assert m[f"alpha_{v}_without_kept"] == pytest.approx(
            bert.alpha[f"alpha_{v}_changed"].alpha, abs=1e-12)
        assert anna.alpha[f"alpha_{v}_kept"].alpha == pytest.approx(
            m[f"alpha_{v}_with_kept"], abs=1e-12)
    # where bert changed an arc, anna (= pre) disagrees with bert by construction
    assert m["LAS_full_without_kept"] == 0.0
    assert bert.scores["LAS_full_changed"] == 0.0 and bert.scores["LAS_full_kept"] == 1.0
    # "with kept" is the ordinary α of these units
    ref = agree_corpus(load_corpus([files["anna"], files["bert"]]))
    for v in ("plain", "diff", "norm"):
        assert m[f"alpha_{v}_with_kept"] == pytest.approx(ref.alpha[v].alpha, abs=1e-12)


# --------------------------------------------------------------------------- independent


def _zss_by_id(h, heads, labels, keep):
    """Independent: the kept words as a sentence of their own, each under its nearest
    kept ancestor (0: the root), then the zss tree with children by word ID."""
    pos = {}
    for w in range(1, len(heads) + 1):
        if keep[w - 1]:
            pos[w] = len(pos) + 1
    new_heads, new_labels = [], []
    for w in pos:
        up = heads[w - 1]
        while up != 0 and not keep[up - 1]:
            up = heads[up - 1]
        new_heads.append(pos.get(up, 0))
        new_labels.append(labels[w - 1])
    return h.zss_dep_tree(new_heads, new_labels)


def _zss_alpha(h, units_heads, variant="plain"):
    """Textbook α over zss trees: units_heads[k] = list of (heads, labels, keep)."""
    units = []
    for unit in units_heads:
        if not any(unit[0][2]):
            continue
        units.append([(_zss_by_id(h, hd, lab, keep), sum(keep) + 1)
                      for hd, lab, keep in unit])

    def d2(a, b):
        t = h.zss_unit_distance(a[0], b[0])
        d = {"plain": t, "diff": t - abs(a[1] - b[1]), "norm": t / (a[1] + b[1])}[variant]
        return d * d

    return h.textbook_alpha(units, d2)[0]


@pytest.mark.slow
def test_against_an_independent_count(tmp_path, h):
    names = ("anna", "bert", "cleo")
    sents, files = make(tmp_path, h, seed=9, units=8, rates=(0.2, 0.3, 0.15), names=names)
    res = scores_of(files, names, ("plain", "norm"))
    raw = {n: [h.heads_labels(s) for s in h.raw_conll(files[n])] for n in (*names, "pre")}
    words = sum(len(hd) for hd, _ in raw["pre"])
    kept_flags = {}
    for n in names:
        flags = [[(a == p and la == lp) for a, la, p, lp in zip(hd, lab, *raw["pre"][k])]
                 for k, (hd, lab) in enumerate(raw[n])]
        kept_flags[n] = flags
        arcs = res.annotator(n)
        assert arcs.words == words
        assert arcs.kept == sum(map(sum, flags))
        assert arcs.head_changed == sum(a != p for k, (hd, _) in enumerate(raw[n])
                                        for a, p in zip(hd, raw["pre"][k][0]))
        for part, want in (("kept", True), ("changed", False)):
            got = total = 0.0
            for k in range(len(flags)):
                for w, f in enumerate(flags[k]):
                    if f != want:
                        continue
                    total += 1
                    others = [o for o in names if o != n]
                    got += np.mean([raw[o][k][0][w] == raw[n][k][0][w]
                                    and raw[o][k][1][w] == raw[n][k][1][w] for o in others])
            expected = got / total if total else None
            assert arcs.scores[f"LAS_full_{part}"] == pytest.approx(expected)
            units = [[(raw[o][k][0], raw[o][k][1], [x == want for x in flags[k]])
                      for o in names] for k in range(len(flags))]
            for v in ("plain", "norm"):
                assert arcs.alpha[f"alpha_{v}_{part}"].alpha == pytest.approx(
                    _zss_alpha(h, units, v), abs=1e-9)
    all_kept = [[all(kept_flags[n][k][w] for n in names)
                 for w in range(len(raw["pre"][k][0]))] for k in range(len(raw["pre"]))]
    units = [[(raw[o][k][0], raw[o][k][1], [not x for x in all_kept[k]]) for o in names]
             for k in range(len(raw["pre"]))]
    m = res.metrics()
    for v in ("plain", "norm"):
        assert m[f"alpha_{v}_without_kept"] == pytest.approx(_zss_alpha(h, units, v), abs=1e-9)
    assert m["kept_by_all_share"] == pytest.approx(sum(map(sum, all_kept)) / words)
    assert res.units_without_kept == sum(1 for k in all_kept if not all(k))


# --------------------------------------------------------------------------- CLI


def test_cli_outputs(tmp_path, h, run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    _, files = make(tmp_path, h)
    args = ["agree", files["anna"], files["bert"], "--preannotation", files["pre"]]
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert "Arcs (head + full DEPREL) against the pre-annotation pre" in out
    assert "kept_by_all_share" in out and "without kept arcs" in out
    rc, js, err = run_cli(*args, "--output", "json")
    d = json.loads(js)
    assert 0 < d["kept_by_all_share"] < 1 and "alpha_plain_without_kept" in d
    per = d["details"]["preannotation"]["per_annotator"]
    assert [a["annotator"] for a in per] == ["anna", "bert"] and per[0]["kept_share"] == 1.0
    rc, text, err = run_cli(*args, "--output", "csv")
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(text)))
    sections = {r["section"] for r in rows}
    assert {"summary", "preannotation_arcs", "preannotation_agreement",
            "preannotation_kept"} <= sections
    bert_row = next(r for r in rows if r["section"] == "preannotation_arcs"
                    and r["annotator"] == "bert")
    assert float(bert_row["kept_share"]) == pytest.approx(per[1]["kept_share"])
    rc, tex, err = run_cli(*args, "--output", "latex")
    assert rc == 0 and "kept\\_share" in tex


def test_dirs(tmp_path, h, run_cli):
    _, files = make(tmp_path, h)
    for name in ("anna", "bert", "parser"):
        (tmp_path / name).mkdir()
    shutil.copy(files["anna"], tmp_path / "anna" / "doc.conllu")
    shutil.copy(files["bert"], tmp_path / "bert" / "doc.conllu")
    shutil.copy(files["pre"], tmp_path / "parser" / "doc.conllu")
    rc, js, err = run_cli("agree", "--dirs", tmp_path / "anna", tmp_path / "bert",
                          "--preannotation", tmp_path / "parser", "--output", "json")
    assert rc == 0, err
    assert json.loads(js)["details"]["preannotation"]["preannotation"] == "parser"
    rc, _, err = run_cli("agree", "--dirs", tmp_path / "anna", tmp_path / "bert",
                         "--preannotation", files["pre"])
    assert rc == 2 and "not-a-directory" in err


def test_bad_input(tmp_path, h, run_cli):
    _, files = make(tmp_path, h)
    rc, _, err = run_cli("agree", files["anna"], files["bert"], "--preannotation",
                         files["pre"], "--names", "pre", "x")
    assert rc == 2 and "(duplicate-annotator)" in err
    a, b = tmp_path / "a.tree", tmp_path / "b.tree"
    a.write_text("(S (NP D N) (VP V))\n", encoding="utf-8")
    b.write_text("(S (NP D) (VP N V))\n", encoding="utf-8")
    p = tmp_path / "p.tree"
    p.write_text("(S (NP D N) (VP V))\n", encoding="utf-8")
    rc, _, err = run_cli("agree", a, b, "--preannotation", p)
    assert rc == 2 and "dependency" in err and "Traceback" not in err
    rc, _, err = run_cli("agree", files["anna"], files["bert"], "--preannotation",
                         tmp_path / "missing.conllu")
    assert rc == 2 and "(file-not-found)" in err


def test_report_section(tmp_path, h, run_cli):
    _, files = make(tmp_path, h)
    out = tmp_path / "r.html"
    rc, _, err = run_cli("report", files["anna"], files["bert"], "--preannotation",
                         files["pre"], "-o", out, "-q")
    assert rc == 0, err
    page = out.read_text(encoding="utf-8")
    assert '<section id="preannotation">' in page and "without kept arcs" in page
    rc, md, err = run_cli("report", files["anna"], files["bert"], "--preannotation",
                          files["pre"], "--output", "markdown", "-q")
    assert rc == 0 and "**Arcs (head + full DEPREL)" in md
    rc, text, err = run_cli("report", files["anna"], files["bert"], "--preannotation",
                            files["pre"], "--output", "csv", "-q")
    assert rc == 0 and "preannotation_arcs,bert,kept_share," in text


# --------------------------------------------------------------------------- shared data


@pytest.mark.slow
def test_shared_iaa_data(iaa, tmp_path, run_cli):
    """NDT Danish: the pre-annotation is a copy of odin's file (odin kept it wholesale):
    thor's kept share is LAS_full between the two, and α with the kept arcs is agree's α."""
    odin, thor = iaa / "ndt" / "odin-danish.conll", iaa / "ndt" / "thor-danish.conll"
    pre = tmp_path / "parser.conll"
    shutil.copy(odin, pre)
    rc, js, err = run_cli("agree", odin, thor, "--preannotation", pre, "--output", "json")
    assert rc == 0, err
    d = json.loads(js)
    per = {a["annotator"]: a for a in d["details"]["preannotation"]["per_annotator"]}
    assert per["odin-danish"]["kept_share"] == 1.0
    assert per["thor-danish"]["kept_share"] == pytest.approx(d["LAS_full"], abs=1e-12)
    assert d["kept_by_all_share"] == pytest.approx(d["LAS_full"], abs=1e-12)
    for v in ("plain", "diff", "norm"):
        assert d[f"alpha_{v}_with_kept"] == pytest.approx(d[f"alpha_{v}"], abs=1e-12)
        assert d[f"alpha_{v}_without_kept"] == pytest.approx(
            per["thor-danish"][f"alpha_{v}_changed"], abs=1e-12)
    assert d["alpha_plain_without_kept"] < d["alpha_plain"]
    assert d["details"]["preannotation"]["units"] == 130
