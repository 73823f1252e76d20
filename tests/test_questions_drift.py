"""``--by``: α per batch with a control band, and the homogeneity test (docs/method.md §26).

α per batch is recomputed by its definition with zss; the band by a plain
resampling loop; the generated drift (tests/data/questions: dan, whose
second half is perturbed) must put the later batches below the band, and a
round without drift must not.
"""
from __future__ import annotations

import importlib.util
import json
import random

import numpy as np
import pytest

from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.agreement.drift import parse_by
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus

QUESTIONS = "tests/data/questions"


def _make_questions(repo_root):
    spec = importlib.util.spec_from_file_location(
        "make_questions", repo_root / QUESTIONS / "make_questions.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _drifted(mq, seed: int, rate: float, n: int = 240) -> Corpus:
    """Two annotators of n generated sentences; the second's second half slips at ``rate``."""
    rng = random.Random(seed)
    ref = [mq.sentence(rng) for _ in range(n)]
    labels = [str(w[3]) for ws in ref for w in ws if w[3] not in ("root", "punct")]
    ra, rd = random.Random(f"{seed}a"), random.Random(f"{seed}d")
    a, d = [], []
    for k, ws in enumerate(ref):
        x = [list(w) for w in ws]
        mq.slips(ra, x, labels, 0.08)
        y = [list(w) for w in ws]
        mq.slips(rd, y, labels, 0.08 if k < n // 2 else rate)
        a.append(DepSentence.from_heads([w[2] for w in x], [w[3] for w in x]))
        d.append(DepSentence.from_heads([w[2] for w in y], [w[3] for w in y]))
    return Corpus.from_annotations({"a": a, "d": d})


@pytest.mark.slow
def test_alpha_per_batch_by_definition(h, repo_root):
    """α_b = 1 − D_o(b) / D_e with zss TED, D_e of the whole corpus by the double loop."""
    mq = _make_questions(repo_root)
    corpus = _drifted(mq, 3, 0.5, n=14)
    res = agree_corpus(corpus, by="order:4")
    trees = []
    for u in corpus.units:  # (tree id, zss tree, |t|)
        trees.append([(len(trees) * 2 + i, h.zss_dep_tree(s.heads.tolist(), s.deprels),
                       s.n_words + 1) for i, s in enumerate(u.ordered(corpus.annotators))])
    ted: dict = {}

    def d2(v):
        def f(x, y):
            key = (min(x[0], y[0]), max(x[0], y[0]))
            if key not in ted:
                ted[key] = h.zss_unit_distance(x[1], y[1])
            t, sx, sy = ted[key], x[2], y[2]
            return {"plain": t, "diff": t - abs(sx - sy), "norm": t / (sx + sy)}[v] ** 2
        return f

    batches = res.drift.batches
    assert [b.units for b in batches] == [4, 4, 4, 2]
    for v in ("plain", "diff", "norm"):
        alpha, _, de = h.textbook_alpha(trees, d2(v))
        assert res.alpha[v].alpha == pytest.approx(alpha, abs=1e-12)
        k = 0
        for b in batches:
            units = trees[k:k + b.units]
            k += b.units
            do = sum(sum(d2(v)(x, y) for i, x in enumerate(u) for j, y in enumerate(u) if i != j)
                     / (len(u) - 1) for u in units)
            n_b = sum(len(u) for u in units)
            assert b.alpha[v] == pytest.approx(1.0 - do / n_b / de, abs=1e-10)
        # α is the n-weighted mean of the batches' α
        n = sum(b.annotations for b in batches)
        assert sum(b.annotations * b.alpha[v] for b in batches) / n == pytest.approx(
            res.alpha[v].alpha, abs=1e-12)


def test_band_equals_a_plain_resampling_loop(repo_root):
    mq = _make_questions(repo_root)
    corpus = _drifted(mq, 4, 0.08, n=60)
    res = agree_corpus(corpus, ["plain"], by="order:12", bootstrap=4000, seed=1)
    ta = res.tree_alpha
    do = np.array([float((tm.astype(float) ** 2).sum()) for tm in ta.unit_ted])  # m = 2
    m = np.full(len(do), 2.0)
    d_e = res.alpha["plain"].d_e
    rng = np.random.default_rng(99)  # another stream: the bands agree within resampling error
    reps = []
    for _ in range(4000):
        idx = rng.integers(0, len(do), 12)
        reps.append(1.0 - do[idx].sum() / m[idx].sum() / d_e)
    lo, hi = np.quantile(reps, [0.025, 0.975])
    band = res.drift.batches[0].band["plain"]
    assert band[0] == pytest.approx(lo, abs=0.03) and band[1] == pytest.approx(hi, abs=0.03)


def test_generated_drift_puts_the_later_batches_below_the_band(run_cli, repo_root):
    d = repo_root / QUESTIONS
    rc, out, err = run_cli("agree", d / "anna.conllu", d / "dan.conllu", "--by", "batch",
                           "--variant", "norm", "--output", "json")
    assert rc == 0, err
    doc = json.loads(out)["details"]["drift"]
    status = [b["alpha_norm_status"] for b in doc["batches"]]
    assert [b["batch"] for b in doc["batches"]] == [f"week{k}" for k in range(1, 9)]
    assert status[4:] == ["below"] * 4 and "below" not in status[:4]
    assert doc["drift_p"]["norm"] < 0.01 and doc["drift_p"]["plain"] < 0.01
    assert json.loads(out)["drift_batches_outside"] == sum(s != "within" for s in status)


def test_drift_halfway_over_fresh_corpora(repo_root):
    """Three more generated rounds: every batch of the drifted half has a lower α than
    every batch of the first, at least three of its four batches fall below the band
    (α_norm; a batch is 30 sentences, so one may stay inside), none of the first half
    does, and the homogeneity test rejects."""
    mq = _make_questions(repo_root)
    for seed in (11, 12, 13):
        res = agree_corpus(_drifted(mq, seed, 0.6), ["plain", "norm"], by="order:30",
                           variant="norm")
        b = res.drift.batches
        status = [x.status("norm") for x in b]
        assert max(x.alpha["norm"] for x in b[4:]) < min(x.alpha["norm"] for x in b[:4])
        assert status[4:].count("below") >= 3, (seed, status)
        assert "below" not in status[:4], (seed, status)
        assert res.drift.p_homogeneity["plain"] < 0.01
        assert res.drift.p_homogeneity["norm"] < 0.01


@pytest.mark.slow
def test_no_drift_no_alarm(repo_root):
    """Rounds without drift: the homogeneity p rejects about 5 % at 0.05 (here at most
    4 of 24), and about 5 % of the batches fall outside their band."""
    mq = _make_questions(repo_root)
    rejected = outside = batches = 0
    for seed in range(24):
        res = agree_corpus(_drifted(mq, 100 + seed, 0.08, n=120), ["plain"], by="order:10",
                           bootstrap=400, seed=seed)
        rejected += res.drift.p_homogeneity["plain"] < 0.05
        outside += len(res.drift.outside)
        batches += len(res.drift.batches)
    assert rejected <= 4, rejected
    assert outside / batches < 0.12, (outside, batches)


def test_batches_from_comments_documents_and_order(write, run_cli, h):
    rows = [[(0, "root"), (1, "obj")], [(2, "nsubj"), (0, "root")]]
    meta = [{"sent_id": f"s{k}", "batch": "b1" if k < 2 else "b2"} for k in range(4)]
    a = write("a.conllu", h.conll_text(rows * 2, meta))
    b = write("b.conllu", h.conll_text([rows[0], rows[0], rows[1], rows[0]], meta))
    rc, out, err = run_cli("agree", a, b, "--by", "batch", "--output", "json")
    assert rc == 0, err
    batches = json.loads(out)["details"]["drift"]["batches"]
    assert [(x["batch"], x["units"], x["first_unit"], x["last_unit"]) for x in batches] == [
        ("b1", 2, "s0", "s1"), ("b2", 2, "s2", "s3")]
    for ann in ("x", "y"):  # --dirs: one batch per document
        for doc in ("d1", "d2", "d3"):
            write(f"{ann}/{doc}.conllu", h.conll_text(rows if ann == "x" or doc != "d2"
                                                      else rows[::-1]))
    rc, out, err = run_cli("agree", "--dirs", a.parent / "x", a.parent / "y", "--by",
                           "document", "--output", "json")
    assert rc == 0, err
    assert [x["batch"] for x in json.loads(out)["details"]["drift"]["batches"]] == [
        "d1", "d2", "d3"]


def test_bad_batches_are_refused(write, run_cli, h):
    rows = [[(0, "root"), (1, "obj")]] * 3
    a = write("a.conllu", h.conll_text(rows, [{"sent_id": f"s{k}", "batch": "b1"}
                                              for k in range(3)]))
    b = write("b.conllu", h.conll_text(rows, [{"sent_id": "s0", "batch": "b1"},
                                              {"sent_id": "s1", "batch": "b2"},
                                              {"sent_id": "s2", "batch": "b1"}]))
    rc, _, err = run_cli("agree", a, b, "--by", "batch")
    assert rc == 2 and "(bad-batch)" in err and "different batches" in err
    c = write("c.conllu", h.conll_text(rows, [{"sent_id": f"s{k}"} for k in range(3)]))
    rc, _, err = run_cli("agree", c, a, "--by", "batch")
    assert rc == 0, err  # a's comments give every unit its batch: enough
    d = write("d.conllu", h.conll_text(rows, [{"sent_id": f"s{k}"} for k in range(3)]))
    rc, _, err = run_cli("agree", c, d, "--by", "batch")
    assert rc == 2 and "(bad-batch)" in err and "c.conllu:1:" in err
    with pytest.raises(SystemExit) as exc:  # refused by the option parser
        run_cli("agree", c, d, "--by", "order:0")
    assert exc.value.code == 2


def test_parse_by():
    assert parse_by("document").kind == "document"
    assert parse_by(" order:7 ").size == 7
    for bad in ("", "batches", "order:", "order:x", "order:-1", "order:٣"):
        with pytest.raises(ValueError):
            parse_by(bad)


def test_real_iaa_by_order(iaa):
    files = [iaa / "ndt" / "thor-norwegian.conll", iaa / "ndt" / "odin-norwegian.conll"]
    res = agree_corpus(load_corpus(files), ["plain"], by="order:25")
    batches = res.drift.batches
    assert sum(b.units for b in batches) == res.units
    n = sum(b.annotations for b in batches)
    assert sum(b.annotations * b.alpha["plain"] for b in batches) / n == pytest.approx(
        res.alpha["plain"].alpha, abs=1e-12)
    assert all(b.band["plain"][0] <= b.band["plain"][1] for b in batches)
    assert 0.0 < res.drift.p_homogeneity["plain"] <= 1.0


@pytest.mark.slow
def test_report_has_the_three_sections(run_cli, repo_root, tmp_path):
    d = repo_root / QUESTIONS
    out = tmp_path / "r.html"
    rc, _, err = run_cli("report", d / "anna.conllu", d / "dan.conllu", "--bias", "--by",
                         "batch", "--where", "deprel=conj", "--layers", "", "-o", out,
                         "--quiet")
    assert rc == 0, err
    page = out.read_text(encoding="utf-8")
    for sid in ("bias", "drift", "where"):
        assert f'<section id="{sid}">' in page and f'href="#{sid}"' in page
    assert 'svg xmlns="http://www.w3.org/2000/svg" class="drift"' in page
    dots = page.count('<circle class="out"'), page.count('<circle class="in"')
    assert sum(dots) == 8 and dots[0] >= 4
    rc, md, _ = run_cli("report", d / "anna.conllu", d / "dan.conllu", "--by", "batch",
                        "--layers", "", "--output", "markdown", "--quiet")
    assert rc == 0 and "| week8 |" in md
    rc, js, _ = run_cli("report", d / "anna.conllu", d / "dan.conllu", "--by", "batch",
                        "--layers", "", "--output", "json", "--quiet")
    assert len(json.loads(js)["details"]["drift"]["batches"]) == 8
