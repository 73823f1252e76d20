"""A new word score is one registry entry (issue 31, "adding a metric is a trap").

A metric registered at run time (`synagree.base.metrics.registered`) must be
computed and printed everywhere the built-in word scores are: ``agree`` with
two annotators (the one-pass fast path of `synagree.stats.attachment`) and
with three (per-unit credits), ``compare`` (the CoNLL 2018 scorer's keys),
their bootstrap intervals, every output format and ``compare --significance``.
Its values are checked against a direct count over the files' columns, and the
registry is clean again afterwards.
"""
from __future__ import annotations

import csv
import io
import json
from itertools import combinations
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

import numpy as np
import pytest

from synagree.base import metrics as registry
from synagree.cli.main import main

KEY = "UAS_upos"  # a word counts when its head and its UPOS are the same
ENTRY = registry.Metric(
    KEY, "words with the same head and the same UPOS", registry.FRACTION, "6.1", "agree",
    family=registry.WORD_SCORE,
    credit=registry.WordCredit(("head", "upos"), scope=("agree", "compare"), resample=4,
                               gloss="the same head and UPOS"))

UPOS = ("NOUN", "VERB", "ADJ", "DET")
LABELS = ("nsubj", "obj", "amod", "det", "obl")
Sentence = List[Tuple[int, str, str]]  # per word: head, UPOS, DEPREL


@pytest.fixture
def new_metric() -> Iterator[registry.Metric]:
    """The registry with `ENTRY`, cleaned afterwards."""
    before = list(registry.REGISTRY)
    with registry.registered(ENTRY) as (entry,):
        yield entry
    assert registry.REGISTRY == before and KEY not in registry.METRICS


def _corpus(seed: int, n_sentences: int = 30) -> List[Sentence]:
    """Random trees: word 1 is the root, every other word hangs from an earlier one."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_sentences):
        n = int(rng.integers(3, 9))
        out.append([(0 if i == 1 else int(rng.integers(1, i)), str(rng.choice(UPOS)),
                     "root" if i == 1 else str(rng.choice(LABELS))) for i in range(1, n + 1)])
    return out


def _variant(gold: List[Sentence], seed: int) -> List[Sentence]:
    """Another annotation of the same words: some heads, UPOS and labels changed."""
    rng = np.random.default_rng(seed)
    out = []
    for sent in gold:
        words = []
        for i, (h, u, d) in enumerate(sent, 1):
            if i > 1 and rng.random() < 0.25:
                h = int(rng.integers(1, i))
            if rng.random() < 0.25:
                u = str(rng.choice(UPOS))
            if i > 1 and rng.random() < 0.2:
                d = str(rng.choice(LABELS))
            words.append((h, u, d))
        out.append(words)
    return out


def _write(path: Path, sents: List[Sentence]) -> Path:
    blocks = []
    for k, sent in enumerate(sents):
        text = " ".join(f"w{i}" for i in range(1, len(sent) + 1))
        rows = [f"# sent_id = s{k}", f"# text = {text}"]
        rows += [f"{i}\tw{i}\tw{i}\t{u}\t_\t_\t{h}\t{d}\t_\t_"
                 for i, (h, u, d) in enumerate(sent, 1)]
        blocks.append("\n".join(rows) + "\n")
    path.write_text("\n".join(blocks) + "\n", encoding="utf-8")
    return path


def _same_head_upos(a: List[Sentence], b: List[Sentence]) -> Tuple[int, int]:
    """(words with the same head and UPOS, words): the direct count."""
    hits = sum(x[0] == y[0] and x[1] == y[1] for sa, sb in zip(a, b) for x, y in zip(sa, sb))
    return hits, sum(len(s) for s in a)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.fixture
def files(tmp_path: Path) -> Dict[str, Tuple[Path, List[Sentence]]]:
    gold = _corpus(1)
    anns = {"a": gold, "b": _variant(gold, 2), "c": _variant(gold, 3)}
    return {k: (_write(tmp_path / f"{k}.conllu", v), v) for k, v in anns.items()}


def _csv_value(text: str, key: str) -> float:
    """The value of ``key`` in a CSV output: a column of the agree CSV (one row per
    corpus) or a ``score`` row of the compare CSV (long format)."""
    rows = list(csv.DictReader(io.StringIO(text)))
    if key in rows[0]:
        return float(rows[0][key])
    return float(next(r["value"] for r in rows if r.get("metric") == key
                      and r.get("section") == "score"))


@pytest.mark.slow
@pytest.mark.parametrize("names", [("a", "b"), ("a", "b", "c")])
def test_agree_computes_and_prints_the_new_metric(new_metric, files, capsys, names):
    """Two annotators (the fast path) and three (pair-averaged per unit)."""
    paths = [str(files[n][0]) for n in names]
    pairs = list(combinations([files[n][1] for n in names], 2))
    # pair-averaged per unit, weighted by words: with the same words per pair, the mean
    # over pairs of the pair's share of credited words
    counts = [_same_head_upos(x, y) for x, y in pairs]
    expected = sum(c for c, _ in counts) / sum(w for _, w in counts)

    d = json.loads(_run(capsys, "agree", *paths, "--output", "json", "--bootstrap", "200"))
    assert d[KEY] == pytest.approx(expected, abs=1e-12)
    lo, hi = d[f"{KEY}_ci"]
    assert lo <= d[KEY] <= hi and lo < hi
    assert d["counts"]["scores"]["correct"][KEY] == pytest.approx(
        expected * d["counts"]["scores"]["total"])

    table = _run(capsys, "agree", *paths, "--bootstrap", "200")
    row = next(line for line in table.splitlines() if line.split()[:1] == [KEY])
    # the value and its interval (the metrics table's column value_ci)
    assert f"{expected:.6f}"[:6] in row and row.rstrip().endswith("]") and "value_ci" in table
    assert f"{KEY}: the same head and UPOS" in " ".join(table.split())  # values: line

    text = _run(capsys, "agree", *paths, "--output", "csv", "--bootstrap", "200")
    assert _csv_value(text, KEY) == pytest.approx(expected, abs=1e-12)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert float(rows[0][f"{KEY}_ci_low"]) == pytest.approx(lo)
    assert float(rows[0][f"{KEY}_ci_high"]) == pytest.approx(hi)

    latex = _run(capsys, "agree", *paths, "--output", "latex")
    assert latex.count(KEY.replace("_", r"\_")) == 1
    assert f"{100 * expected:.1f}" in latex


@pytest.mark.slow
def test_compare_computes_and_prints_the_new_metric(new_metric, files, capsys):
    """Against gold: the scorer's key of the new metric, its interval, every format and
    the significance tests between two systems."""
    gold, sys_b, sys_c = (str(files[k][0]) for k in "abc")
    expected = {k: _same_head_upos(files["a"][1], files[k][1]) for k in "bc"}
    f1 = {k: c / w for k, (c, w) in expected.items()}  # gold tokenisation: F1 = accuracy

    d = json.loads(_run(capsys, "compare", gold, sys_b, sys_c, "--output", "json",
                        "--bootstrap", "200", "--significance", "--test-replicates", "200"))
    for s, k in zip(d["systems"], "bc"):
        assert s[KEY] == pytest.approx(f1[k], abs=1e-12)
        assert s["counts"][KEY]["correct"] == expected[k][0]
        lo, hi = s[f"{KEY}_ci"]
        assert lo <= s[KEY] <= hi and lo < hi
    sig = d["significance"]
    assert KEY in sig["metrics"]
    (test,) = [t for t in sig["pairs"] if t["metric"] == KEY]
    assert test["diff"] == pytest.approx(f1["b"] - f1["c"], abs=1e-12)
    assert test["p_bootstrap"] is not None and test["p_randomisation"] is not None

    table = _run(capsys, "compare", gold, sys_b, sys_c, "--bootstrap", "200",
                 "--significance", "--test-replicates", "200")
    row = next(line for line in table.splitlines() if line.split()[:1] == [KEY])
    assert f"{100 * f1['b']:.2f}" in row and f"{100 * f1['c']:.2f}" in row and "[" in row
    tests = table.split("significance:", 1)[1].splitlines()  # A, B, metric, ...
    assert any(line.split()[2:3] == [KEY] for line in tests)

    text = _run(capsys, "compare", gold, sys_b, sys_c, "--output", "csv", "--bootstrap", "200",
                "--significance", "--test-replicates", "200")
    rows = list(csv.DictReader(io.StringIO(text)))
    score = [r for r in rows if r["section"] == "score" and r["metric"] == KEY]
    assert [float(r["value"]) for r in score] == pytest.approx([f1["b"], f1["c"]], abs=1e-12)
    assert any(r["section"] == "significance" and r["metric"] == KEY for r in rows)

    latex = _run(capsys, "compare", gold, sys_b, sys_c, "--output", "latex")
    assert KEY.replace("_", r"\_") in latex
    assert f"{100 * f1['b']:.2f}" in latex and f"{100 * f1['c']:.2f}" in latex


def test_two_annotators_take_the_one_pass_path(new_metric, files, monkeypatch):
    """With two annotations per unit the new metric comes from `_pair_credits` (which
    once kept its own table of flags), never from the per-unit credits."""
    from synagree.agreement.agree import agree
    from synagree.stats import attachment

    def per_unit(*args, **kwargs):
        raise AssertionError("the per-unit path was taken")

    monkeypatch.setattr(attachment, "unit_word_credits", per_unit)
    res = agree([files["a"][0], files["b"][0]])
    hits, words = _same_head_upos(files["a"][1], files["b"][1])
    assert res.scores.correct[KEY] == hits and res.scores.total == words


def test_registering_a_key_twice_or_an_unknown_field_is_refused(new_metric):
    with pytest.raises(ValueError, match="registered already"):
        registry.register(ENTRY)
    with pytest.raises(ValueError, match="unknown word field"):
        registry.WordCredit(("head", "colour"))
    assert KEY in registry.word_scores("agree") and KEY in registry.word_scores("compare")
    assert KEY in registry.resampled_scores("compare")


def test_the_registry_lists_are_the_old_lists():
    """The queries give the lists that were written out by hand before (the golden
    outputs depend on their order)."""
    assert registry.word_scores("agree") == ("LAS", "LAS_full", "UAS", "LA")
    assert registry.word_scores("agree", ud=False) == ("LAS_full", "UAS", "LA")
    assert registry.word_scores("compare") == (
        "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS", "CLAS", "MLAS",
        "BLEX", "LAS_full")
    assert registry.resampled_scores("compare") == ("LAS", "UAS", "CLAS")
    assert registry.ud_only_scores("compare") == ("CLAS", "MLAS", "BLEX")
