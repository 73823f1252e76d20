"""`tags --bootstrap`: the closed-form replicates equal a literal resample of the words."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from synagree.stats.bootstrap import resample_weights
from synagree.stats.tag_intervals import tag_intervals

TAGS = st.sampled_from(["N", "V", "A", "D"])
SENT = st.lists(st.tuples(TAGS, TAGS), min_size=1, max_size=6)


def _scott(pairs):
    n = len(pairs)
    acc = sum(g == s for g, s in pairs) / n
    tags = {t for p in pairs for t in p}
    pe = sum(((sum(g == t for g, _ in pairs) + sum(s == t for _, s in pairs)) / (2 * n)) ** 2
             for t in tags)
    return np.nan if pe == 1 else (acc - pe) / (1 - pe)


def _literal(sents, B, seed, level):
    """Each replicate as the words of the drawn sentences, scored from scratch."""
    W = resample_weights(len(sents), B, seed)
    out = {"accuracy": [], "cohen_kappa": [], "scott_pi": []}
    for w in W:
        words = [p for k, s in enumerate(sents) for _ in range(int(w[k])) for p in s]
        g, s = [a for a, _ in words], [b for _, b in words]
        out["accuracy"].append(np.mean([a == b for a, b in words]))
        if len(set(g) | set(s)) == 1:
            out["cohen_kappa"].append(np.nan)
        else:
            out["cohen_kappa"].append(cohen_kappa_score(g, s))
        out["scott_pi"].append(_scott(words))
    a = (1 - level) / 2
    res = {}
    for k, v in out.items():
        v = np.asarray(v, dtype=float)
        v = v[np.isfinite(v)]
        res[k] = None if v.size == 0 else tuple(np.quantile(v, [a, 1 - a]))
    return res


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(SENT, min_size=1, max_size=8), st.integers(0, 2**16))
def test_equals_literal_resampling(sents, seed):
    pairs = [p for s in sents for p in s]
    got = tag_intervals(pairs, [len(s) for s in sents], 40, seed, 0.9)
    want = _literal(sents, 40, seed, 0.9)
    for k in want:
        if want[k] is None:
            assert got[k] is None, k
        else:
            assert got[k] == pytest.approx(want[k], abs=1e-9), k


def test_lengths_must_add_up():
    with pytest.raises(ValueError, match="3 words"):
        tag_intervals([("N", "N")], [3], 10)


def test_cli_bootstrap(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    out = tmp_path / "t.json"
    rc, _, err = run_cli("tags", "tests/data/hier/msd-gold.conllu",
                         "tests/data/hier/msd-sys.conllu", "--column", "xpos",
                         "--bootstrap", "300", "--seed", "3", "-o", str(out))
    assert rc == 0, err
    d = json.loads(out.read_text())
    lo, hi = d["accuracy_ci"]
    assert lo <= d["accuracy"] <= hi
    assert "300 replicates, seed 3" in d["signature"]
    rc, text, _ = run_cli("tags", "tests/data/hier/msd-gold.conllu",
                          "tests/data/hier/msd-sys.conllu", "--column", "xpos",
                          "--bootstrap", "300", "--seed", "3")
    assert "accuracy 95% CI" in text and "signature:" in text
