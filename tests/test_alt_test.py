"""The alternative annotator test (synagree.stats.alt_test, synagree alt-test).

Oracle: the procedure of the authors' reference implementation
(nitaytech/AltTest, ``alt_test_example.ipynb``), written out below in the
reference's terms (annotations as dicts of instances, a scoring function of
one annotation against the remaining humans' list, scipy's ``ttest_1samp``
with ``alternative='less'``, its Benjamini–Yekutieli step-up), on

* random annotations in the reference's format, with missing instances, for
  its two scoring functions (accuracy and negative RMSE);
* three annotators plus a perturbed candidate of a dependency treebank,
  scored per sentence by LAS computed here from the raw columns;

and the decision flips where `critical_epsilon` says.  The reference's own
example data (hundreds of kB per data set) is not stored in this repository.
"""
from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Callable, Dict, List

import numpy as np
import pytest

import synagree
from conftest import raw_conll
from synagree.base.problems import InputError
from synagree.cli.main import main
from synagree.stats.alt_test import (
    alt_test_scores,
    by_rejections,
    leave_one_out_scores,
)

stats = pytest.importorskip("scipy.stats", reason="scipy (the t-test oracle) is not installed")

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "synagree" / "data" / "en-sample" / "ann_a" / "sample.conllu"


# --------------------------------------------------------------------------
# The oracle: the reference implementation's procedure
# --------------------------------------------------------------------------

def accuracy(pred, annotations) -> float:
    return float(np.mean([pred == a for a in annotations]))


def neg_rmse(pred, annotations) -> float:
    return -float(np.sqrt(np.mean([(pred - a) ** 2 for a in annotations])))


def step_up_by(p_values: List[float], q: float) -> List[int]:
    """Benjamini–Yekutieli as the reference applies it: indices rejected."""
    p = np.array(p_values, dtype=float)
    m = len(p)
    idx = np.argsort(p)
    harmonic = sum(1.0 / k for k in range(1, m + 1))
    last = -1
    for rank in range(m):
        if p[idx[rank]] <= (rank + 1) / m * q / harmonic:
            last = rank
    return [int(i) for i in idx[: last + 1]]


def reference(llm: Dict, humans: Dict[str, Dict], score: Callable, epsilon: float,
              q: float = 0.05, per_instance: int = 2, per_human: int = 30):
    """(winning rate, advantage probability, {human: p}, {human: won}) as the reference."""
    who: Dict = {}
    for h, anns in humans.items():
        for i in anns:
            who.setdefault(i, []).append(h)
    keep = {i for i, hs in who.items() if len(hs) >= per_instance and i in llm}
    p_values, rhos, tested = [], [], []
    for h in humans:
        inst = [i for i in humans[h] if i in keep]
        if len(inst) < per_human:
            continue
        llm_ind, hum_ind = [], []
        for i in inst:
            rest = [humans[o][i] for o in who[i] if o != h]
            s_h, s_c = score(humans[h][i], rest), score(llm[i], rest)
            llm_ind.append(1 if s_c >= s_h else 0)
            hum_ind.append(1 if s_h >= s_c else 0)
        d = [a - b for a, b in zip(hum_ind, llm_ind)]
        p_values.append(float(stats.ttest_1samp(d, epsilon, alternative="less").pvalue))
        rhos.append(float(np.mean(llm_ind)))
        tested.append(h)
    won = step_up_by(p_values, q)
    return (len(won) / len(tested), float(np.mean(rhos)), dict(zip(tested, p_values)),
            {h: k in won for k, h in enumerate(tested)})


def scores_of(llm: Dict, humans: Dict[str, Dict], score: Callable):
    """The leave-one-out score matrices of `alt_test_scores` from the reference's format."""
    names = list(humans)
    units = sorted({i for a in humans.values() for i in a} | set(llm))
    hs = np.full((len(names), len(units)), np.nan)
    cs = np.full((len(names), len(units)), np.nan)
    for j, h in enumerate(names):
        for u, i in enumerate(units):
            rest = [humans[o][i] for o in names if o != h and i in humans[o]]
            if i in humans[h] and rest and i in llm:
                hs[j, u] = score(humans[h][i], rest)
                cs[j, u] = score(llm[i], rest)
    return names, hs, cs


def random_annotations(seed: int, kind: str):
    rng = random.Random(seed)
    m = rng.randint(3, 6)
    n = rng.randint(35, 90)
    truth = [rng.randint(1, 5) for _ in range(n)]
    humans = {}
    for h in range(m):
        noise = rng.uniform(0.1, 0.5)
        humans[f"h{h}"] = {f"i{i}": (t if rng.random() > noise else rng.randint(1, 5))
                           for i, t in enumerate(truth) if rng.random() > 0.1}
    c_noise = rng.uniform(0.0, 0.6)
    llm = {f"i{i}": (t if rng.random() > c_noise else rng.randint(1, 5))
           for i, t in enumerate(truth)}
    return llm, humans, accuracy if kind == "accuracy" else neg_rmse


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("kind", ["accuracy", "neg_rmse"])
@pytest.mark.parametrize("epsilon", [0.0, 0.1, 0.2])
def test_equals_reference_on_random_annotations(seed, kind, epsilon):
    llm, humans, score = random_annotations(seed, kind)
    wr, ap, p, won = reference(llm, humans, score, epsilon)
    names, hs, cs = scores_of(llm, humans, score)
    r = alt_test_scores(names, hs, cs, epsilon=epsilon)
    assert r.winning_rate == pytest.approx(wr, abs=1e-12)
    assert r.advantage_probability == pytest.approx(ap, abs=1e-12)
    assert r.passed == (wr >= 0.5)
    for h in r.humans:
        if math.isnan(p[h.annotator]):
            assert math.isnan(h.p_value)
        else:
            assert h.p_value == pytest.approx(p[h.annotator], abs=1e-9)
        assert h.won == won[h.annotator]


def test_accuracy_from_pair_scores_equals_reference():
    # the corpus path: S(x, i) as the mean of per-pair scores (accuracy is one)
    llm, humans, _ = random_annotations(11, "accuracy")
    names = list(humans)
    units = sorted({i for a in humans.values() for i in a})
    pairs = {}
    for x, src in [*[(h, humans[h]) for h in names], ("llm", llm)]:
        for h in names:
            if x != h:
                pairs[(x, h)] = np.array([float(src[i] == humans[h][i])
                                          if i in src and i in humans[h] else np.nan
                                          for i in units])
    hs, cs = leave_one_out_scores(names, "llm", pairs)
    r = alt_test_scores(names, hs, cs, epsilon=0.15)
    wr, ap, _, _ = reference(llm, humans, accuracy, 0.15)
    assert (r.winning_rate, r.advantage_probability) == pytest.approx((wr, ap), abs=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_decision_flips_at_the_critical_epsilon(seed):
    llm, humans, score = random_annotations(100 + seed, "accuracy")
    names, hs, cs = scores_of(llm, humans, score)
    star = alt_test_scores(names, hs, cs, epsilon=0.0).critical_epsilon
    if not 0.001 < star < 0.999:
        assert all(reference(llm, humans, score, e)[0] >= 0.5 for e in (0.0, 0.5)) \
            if star <= 0.001 else reference(llm, humans, score, 0.99)[0] < 0.5
        return
    below, above = star - 1e-7, star + 1e-7
    assert reference(llm, humans, score, below)[0] < 0.5
    assert reference(llm, humans, score, above)[0] >= 0.5
    assert not alt_test_scores(names, hs, cs, epsilon=below).passed
    assert alt_test_scores(names, hs, cs, epsilon=above).passed


def test_by_and_refusals():
    assert step_up_by([0.01, 0.9, 0.001, 0.02], 0.05) == [2, 0]
    assert by_rejections([0.01, 0.9, 0.001, 0.02], 0.05) == [True, False, True, False]
    assert by_rejections([float("nan"), 0.0001]) == [False, True]
    rng = np.random.default_rng(0)
    with pytest.raises(InputError, match="at least 3 human"):
        alt_test_scores(["a", "b"], rng.random((2, 40)), rng.random((2, 40)))
    with pytest.raises(InputError, match="too few units"):
        alt_test_scores(["a", "b", "c"], rng.random((3, 20)), rng.random((3, 20)))
    with pytest.raises(InputError, match="epsilon"):
        alt_test_scores(["a", "b", "c"], rng.random((3, 40)), rng.random((3, 40)),
                        epsilon=1.0)
    r = alt_test_scores(["a", "b", "c", "d"], rng.random((4, 40)),
                        np.vstack([rng.random((3, 40)), np.full((1, 40), np.nan)]))
    assert r.skipped == {"d": 0} and len(r.humans) == 3 and r.notes


# --------------------------------------------------------------------------
# Three annotators and a perturbed candidate of a dependency treebank
# --------------------------------------------------------------------------

LABELS = ["nsubj", "obj", "obl", "det", "amod", "advmod", "case", "punct", "nmod", "conj"]


def sentences() -> List[List[List[str]]]:
    return [[cols for _, cols in s] for s in raw_conll(SAMPLE)]


def perturbed(sents, noise: float, seed: int) -> List[List[List[str]]]:
    rng = random.Random(seed)
    out = []
    for s in sents:
        new = []
        for row in s:
            row = list(row)
            if row[7] != "root" and rng.random() < noise:
                row[7] = rng.choice([x for x in LABELS if x != row[7]])
            new.append(row)
        out.append(new)
    return out


def write(path: Path, sents) -> Path:
    path.write_text("".join("".join("\t".join(r) + "\n" for r in s) + "\n" for s in sents),
                    encoding="utf-8")
    return path


def las(a, b) -> float:
    return float(np.mean([x[6] == y[6] and x[7].split(":")[0] == y[7].split(":")[0]
                          for x, y in zip(a, b)]))


@pytest.fixture(scope="module")
def treebank(tmp_path_factory):
    d = tmp_path_factory.mktemp("alt")
    base = sentences()
    assert len(base) >= 30
    anns = {f"h{k}": perturbed(base, 0.12, k) for k in range(3)}
    cand = perturbed(base, 0.10, 99)
    files = [write(d / f"{h}.conllu", s) for h, s in anns.items()]
    return files, write(d / "model.conllu", cand), anns, cand


def test_treebank_equals_reference(treebank):
    files, cand_file, anns, cand = treebank
    humans = {h: {k: s for k, s in enumerate(sents)} for h, sents in anns.items()}
    llm = {k: s for k, s in enumerate(cand)}

    def score(x, rest):
        return float(np.mean([las(x, r) for r in rest]))

    for eps in (0.05, 0.2):
        wr, ap, p, won = reference(llm, humans, score, eps)
        r = synagree.alt_test(files, cand_file, metric="LAS", epsilon=eps)
        assert r.candidate == "model" and [h.annotator for h in r.humans] == list(anns)
        assert r.winning_rate == pytest.approx(wr, abs=1e-12)
        assert r.advantage_probability == pytest.approx(ap, abs=1e-12)
        for h in r.humans:
            assert h.p_value == pytest.approx(p[h.annotator], abs=1e-9, nan_ok=True)
    star = synagree.alt_test(files, cand_file).critical_epsilon
    if 0 < star < 1:
        assert reference(llm, humans, score, star - 1e-7)[0] < 0.5
        assert reference(llm, humans, score, star + 1e-7)[0] >= 0.5


def test_treebank_ted_metric(treebank):
    files, cand_file, _, _ = treebank
    r = synagree.alt_test(files, cand_file, metric="ted")
    assert r.metric == "ted" and len(r.humans) == 3
    assert any("tree edit distance" in n for n in r.notes)


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown", "latex"])
def test_cli_every_format(treebank, fmt, capsys):
    files, cand_file, _, _ = treebank
    assert main(["alt-test", *map(str, files), "--candidate", str(cand_file),
                 "--output", fmt]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        d = json.loads(out)
        assert d["epsilon"] == 0.2 and len(d["humans"]) == 3
        assert isinstance(d["passed"], bool)
    else:
        assert "winning" in out and "h0" in out


@pytest.mark.parametrize("extra,needle", [
    (["--epsilon", "1.5"], "epsilon"),
    (["--min-units", "500"], "too few units"),
    (["--score", "jaccard"], "choose from"),
])
def test_cli_errors(treebank, extra, needle, capsys):
    files, cand_file, _, _ = treebank
    assert main_exit(["alt-test", *map(str, files), "--candidate", str(cand_file),
                      *extra]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_cli_refuses_two_humans(treebank, capsys):
    files, cand_file, _, _ = treebank
    assert main(["alt-test", *map(str, files[:2]), "--candidate", str(cand_file)]) == 2
    assert "at least 3 human" in capsys.readouterr().err


def main_exit(argv) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        return int(exc.code or 0)
