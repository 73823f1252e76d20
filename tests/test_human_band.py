"""The parser beside a second human (docs/method.md §28): compare GOLD SYS --humans ...

Checked against independent computations: every pair's α by the textbook
double loop over zss tree edit distances, LAS by counting raw CoNLL columns,
and the paired-bootstrap intervals by materialising each resample (the units
repeated as the weights say) and recomputing every α and LAS from scratch
with the same draws.  Known answers by construction: a "parser" that is a
copy of one human is within the band against the other human (its agreement
with them equals the human-human agreement, d = 0 in every replicate) and
above it against the human it copies; a parser with many errors is below.
"""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from synagree.agreement.extra_file import read_with_extra
from synagree.agreement.human_band import BandOptions, human_band, verdict_of
from synagree.stats.bootstrap import resample_weights

LABELS = ["nsubj", "obj", "obl", "nmod", "amod", "det", "advmod"]


def random_tree(n: int, rng: random.Random):
    """(head, deprel) per word: word 1 is the root, every other word hangs from an
    earlier one (a tree by construction)."""
    return [(0, "root")] + [(rng.randint(1, i - 1), rng.choice(LABELS)) for i in range(2, n + 1)]


def perturb(sent, rate: float, rng: random.Random):
    out = list(sent)
    for i in range(2, len(sent) + 1):
        if rng.random() < rate:
            h, r = out[i - 1]
            if rng.random() < 0.5:
                out[i - 1] = (rng.randint(1, i - 1), r)
            else:
                out[i - 1] = (h, rng.choice(LABELS))
    return out


def corpus(seed: int = 1, units: int = 12, rates=(0.15, 0.15, 0.45)):
    """Gold, two humans (light noise) and a parser (heavy noise) of ``units`` sentences."""
    rng = random.Random(seed)
    gold = [random_tree(rng.randint(3, 7), rng) for _ in range(units)]
    return {"gold": gold, "anna": [perturb(s, rates[0], rng) for s in gold],
            "bert": [perturb(s, rates[1], rng) for s in gold],
            "parser": [perturb(s, rates[2], rng) for s in gold]}


def write_files(tmp_path: Path, h, sents: dict) -> dict:
    meta = [{"sent_id": f"s{k}"} for k in range(len(next(iter(sents.values()))))]
    out = {}
    for name, ss in sents.items():
        p = tmp_path / f"{name}.conllu"
        p.write_text(h.conll_text(ss, meta), encoding="utf-8")
        out[name] = p
    return out


# --------------------------------------------------------------------------- known answers


def test_copy_of_a_human_is_within_the_band(tmp_path, h, run_cli):
    sents = corpus()
    sents["parser"] = list(sents["anna"])  # the parser is a copy of anna
    files = write_files(tmp_path, h, sents)
    rc, out, err = run_cli("compare", files["bert"], files["parser"], "--humans", files["anna"],
                           "--output", "json", "--bootstrap", "300")
    assert rc == 0, err
    d = json.loads(out)
    assert d["references"] == ["bert"] and d["units"] == 12
    for c in d["comparisons"]:
        # its agreement with bert is anna's: equal values, d = 0 in every replicate
        assert c["system"] == c["human_mean"] == c["humans"]["anna"]
        assert c["diff"] == 0.0 and c["diff_ci"] == [0.0, 0.0]
        assert c["verdict"] == "within" and c["p_value"] == 1.0
    assert d["verdicts"][0].startswith("parser against bert: within the human band on "
                                       "alpha_plain")


def test_copy_is_above_the_band_against_the_human_it_copies(tmp_path, h):
    sents = corpus()
    sents["parser"] = list(sents["anna"])
    files = write_files(tmp_path, h, sents)
    data = read_with_extra([files["anna"], files["bert"]], (), files["parser"])
    band = human_band(BandOptions(data, replicates=300))  # each human as the reference
    assert band.references == ["anna", "bert"]
    for m in band.metrics_compared:
        against_anna = band.comparison("anna", m)
        assert against_anna.system == 1.0  # identical trees, identical words
        assert against_anna.verdict == "above"
        assert band.comparison("bert", m).verdict == "within"


def test_noisy_parser_is_below_the_band(tmp_path, h, run_cli):
    files = write_files(tmp_path, h, corpus(seed=3, units=30, rates=(0.05, 0.05, 0.6)))
    rc, out, err = run_cli("compare", files["gold"], files["parser"], "--humans", files["anna"],
                           files["bert"], "--output", "json", "--bootstrap", "500")
    assert rc == 0, err
    d = json.loads(out)
    verdicts = {c["metric"]: c["verdict"] for c in d["comparisons"]}
    assert verdicts["alpha_plain"] == "below" and verdicts["LAS_full"] == "below"
    c = next(c for c in d["comparisons"] if c["metric"] == "LAS_full")
    assert c["diff_ci"][1] < 0 and c["p_value"] < 0.05


def test_verdict_rule():
    assert verdict_of((-0.1, 0.2)) == "within"
    assert verdict_of((-0.1, -1e-13)) == "within"  # rounding forgiven
    assert verdict_of((-0.1, -0.001)) == "below"
    assert verdict_of((0.001, 0.1)) == "above"
    assert verdict_of(None) == "undefined"


# --------------------------------------------------------------------------- independent


def _zss_units(h, sents: dict, names):
    """Per unit, per file: (zss tree, |t|)."""
    units = []
    for k in range(len(sents[names[0]])):
        row = []
        for n in names:
            heads = [x for x, _ in sents[n][k]]
            labels = [r for _, r in sents[n][k]]
            row.append((h.zss_dep_tree(heads, labels), len(heads) + 1))
        units.append(row)
    return units


def _textbook(h, units, variant="plain"):
    cache: dict = {}

    def d2(a, b):
        key = (id(a[0]), id(b[0]))
        if key not in cache:
            cache[key] = h.zss_unit_distance(a[0], b[0])
        t = cache[key]
        d = {"plain": t, "diff": t - abs(a[1] - b[1]), "norm": t / (a[1] + b[1])}[variant]
        return d * d

    return h.textbook_alpha(units, d2)[0]


def _las_full(a, b):
    same = sum(1 for x, y in zip(a, b) for p, q in zip(x, y) if p == q)
    return same, sum(len(x) for x in a)


@pytest.mark.slow
def test_pair_values_and_paired_intervals_against_brute_force(tmp_path, h):
    sents = corpus(seed=5, units=9)
    files = write_files(tmp_path, h, sents)
    data = read_with_extra([files["gold"], files["anna"], files["bert"]], (), files["parser"])
    B, seed, level = 30, 3, 0.9
    band = human_band(BandOptions(data, references=["gold"], replicates=B),
                      ["plain", "norm"], seed=seed, level=level)
    names = ["gold", "anna", "bert", "parser"]
    zunits = _zss_units(h, sents, names)
    idx = {n: i for i, n in enumerate(names)}
    # point values of every pair
    for p in band.pairs:
        i, j = idx[p.a], idx[p.b]
        pair_units = [[u[i], u[j]] for u in zunits]
        for v in ("plain", "norm"):
            assert p.values[f"alpha_{v}"] == pytest.approx(_textbook(h, pair_units, v), abs=1e-9)
        same, total = _las_full(sents[p.a], sents[p.b])
        assert p.values["LAS_full"] == pytest.approx(same / total, abs=1e-12)
    # the paired bootstrap: the same unit draws for every pair, each resample materialised
    W = resample_weights(len(zunits), B, seed)
    reps: dict = {}
    for a in names:
        for b in names:
            if a >= b:
                continue
            alphas, las = [], []
            for w in W:
                chosen = [k for k, c in enumerate(w) for _ in range(int(c))]
                alphas.append(_textbook(h, [[zunits[k][idx[a]], zunits[k][idx[b]]]
                                            for k in chosen]))
                same, total = _las_full([sents[a][k] for k in chosen],
                                        [sents[b][k] for k in chosen])
                las.append(same / total)
            reps[(a, b)] = reps[(b, a)] = {"alpha_plain": np.array(alphas),
                                           "LAS_full": np.array(las)}
    lo_q, hi_q = (1 - level) / 2, 1 - (1 - level) / 2
    for m in ("alpha_plain", "LAS_full"):
        human = (reps[("anna", "gold")][m] + reps[("bert", "gold")][m]) / 2
        diff = reps[("parser", "gold")][m] - human
        c = band.comparison("gold", m)
        assert c.diff_ci == pytest.approx(tuple(np.quantile(diff, [lo_q, hi_q])), abs=1e-9)
        assert c.human_ci == pytest.approx(tuple(np.quantile(human, [lo_q, hi_q])), abs=1e-9)
        p = band.pair("parser", "gold")
        assert p.ci[m] == pytest.approx(
            tuple(np.quantile(reps[("parser", "gold")][m], [lo_q, hi_q])), abs=1e-9)
        # the p-value: the shifted bootstrap, ties counted as extreme
        d = c.diff
        expected = (1 + np.count_nonzero(np.abs(diff - d) >= abs(d) * (1 - 1e-12) - 1e-15)) \
            / (B + 1)
        assert c.p_value == pytest.approx(expected, abs=1e-12)


def test_shared_units_only(tmp_path, h, run_cli):
    """With --allow-missing, a sentence the parser lacks is left out of every pair."""
    sents = corpus(seed=2, units=6)
    files = write_files(tmp_path, h, sents)
    text = files["parser"].read_text(encoding="utf-8").split("\n\n")
    files["parser"].write_text("\n\n".join(text[1:]), encoding="utf-8")  # drops s0
    rc, out, err = run_cli("compare", files["gold"], files["parser"], "--humans", files["anna"],
                           "--allow-missing", "--output", "json", "--bootstrap", "50")
    assert rc == 0, err
    d = json.loads(out)
    assert d["units"] == 5 and d["units_total"] == 6
    assert any("left out" in n for n in d["notes"])
    gold_anna = next(p for p in d["pairs"] if {p["a"], p["b"]} == {"gold", "anna"})
    same, total = _las_full(sents["gold"][1:], sents["anna"][1:])
    assert gold_anna["LAS_full"] == pytest.approx(same / total)


# --------------------------------------------------------------------------- CLI


def test_text_output_and_names(tmp_path, h, run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    files = write_files(tmp_path, h, corpus())
    rc, out, err = run_cli("compare", files["gold"], files["parser"], "--humans", files["anna"],
                           files["bert"], "--names", "G", "P", "A", "B", "--bootstrap", "50")
    assert rc == 0, err
    assert "P against G:" in out and "A × B" in out and "P × G" in out
    assert "human band" in out and "verdict" in out


@pytest.mark.parametrize("extra,message", [
    (["--breakdown"], "--breakdown does not go with --humans"),
    (["--significance"], "--significance does not go with --humans"),
    (["--names", "x"], "one name per file"),
    (["--output", "evalb"], "--output evalb"),
])
def test_usage_errors(tmp_path, h, run_cli, extra, message):
    files = write_files(tmp_path, h, corpus(units=3))
    rc, out, err = run_cli("compare", files["gold"], files["parser"], "--humans", files["anna"],
                           *extra)
    assert rc == 2 and message in err and "Traceback" not in err


def test_one_system_only(tmp_path, h, run_cli):
    files = write_files(tmp_path, h, corpus(units=3))
    rc, _, err = run_cli("compare", files["gold"], files["parser"], files["bert"], "--humans",
                         files["anna"])
    assert rc == 2 and "one system file" in err


def test_system_named_as_a_human(tmp_path, h, run_cli):
    files = write_files(tmp_path, h, corpus(units=3))
    rc, _, err = run_cli("compare", files["gold"], files["parser"], "--humans", files["anna"],
                         "--names", "gold", "anna", "anna")
    assert rc == 2 and "(duplicate-annotator)" in err
    # file stems that repeat: named as agree names them (parent folders, else paths)
    other = tmp_path / "x"
    other.mkdir()
    copy = other / "anna.conllu"
    shutil.copy(files["parser"], copy)
    rc, out, err = run_cli("compare", files["gold"], copy, "--humans", files["anna"],
                           "--output", "json", "--bootstrap", "40")
    assert rc == 0, err
    d = json.loads(out)
    assert d["system"].endswith("anna.conllu") and len({d["system"], *d["humans"]}) == 3


def test_output_is_not_an_input(tmp_path, h, run_cli):
    files = write_files(tmp_path, h, corpus(units=3))
    before = files["anna"].read_bytes()
    rc, _, err = run_cli("compare", files["gold"], files["parser"], "--humans", files["anna"],
                         "-o", files["anna"])
    assert rc == 2 and "is also an input" in err
    assert files["anna"].read_bytes() == before


def test_report_section(tmp_path, h, run_cli):
    sents = corpus()
    files = write_files(tmp_path, h, sents)
    out = tmp_path / "r.html"
    rc, _, err = run_cli("report", files["anna"], files["bert"], "--system", files["parser"],
                         "--reference", "bert", "--bootstrap", "100", "-o", out, "-q")
    assert rc == 0, err
    page = out.read_text(encoding="utf-8")
    assert '<section id="human-band">' in page and 'href="#human-band"' in page
    assert "parser against bert:" in page
    rc, js, err = run_cli("report", files["anna"], files["bert"], "--system", files["parser"],
                          "--bootstrap", "100", "--output", "json", "-q")
    assert rc == 0, err
    band = json.loads(js)["details"]["human_band"]
    assert band["references"] == ["anna", "bert"] and len(band["verdicts"]) == 2
    rc, _, err = run_cli("report", files["anna"], files["bert"], "--reference", "bert",
                         "--output", "json")
    assert rc == 2 and "--reference" in err


# --------------------------------------------------------------------------- shared data


def _corrupt(src: Path, dst: Path, every: int = 4) -> None:
    """Every ``every``-th word's DEPREL replaced by ``dep`` (a parser with label errors)."""
    lines, k = [], 0
    for line in src.read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit():
            k += 1
            if k % every == 0:
                cols[7] = "dep"
        lines.append("\t".join(cols))
    dst.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.slow
def test_shared_iaa_data(iaa, tmp_path, run_cli):
    """NDT Danish (odin, thor): a copy of odin is within the band against thor; a parser
    with a quarter of its labels wrong is below it."""
    odin, thor = iaa / "ndt" / "odin-danish.conll", iaa / "ndt" / "thor-danish.conll"
    copy = tmp_path / "parser.conll"
    shutil.copy(odin, copy)
    rc, out, err = run_cli("compare", thor, copy, "--humans", odin, "--output", "json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["units"] == 130
    assert all(c["verdict"] == "within" and c["diff"] == 0.0 for c in d["comparisons"])
    # the human-human pair is agree's α and LAS_full
    rc, js, err = run_cli("agree", odin, thor, "--output", "json")
    ref = json.loads(js)
    pair = next(p for p in d["pairs"] if p["kind"] == "human–human")
    assert pair["alpha_plain"] == pytest.approx(ref["alpha_plain"], abs=1e-12)
    assert pair["LAS_full"] == pytest.approx(ref["LAS_full"], abs=1e-12)
    bad = tmp_path / "bad.conll"
    _corrupt(odin, bad)
    rc, out, err = run_cli("compare", thor, bad, "--humans", odin, "--output", "json")
    assert rc == 0, err
    verdicts = {c["metric"]: c["verdict"] for c in json.loads(out)["comparisons"]}
    assert verdicts["alpha_plain"] == "below" and verdicts["LAS_full"] == "below"
    assert verdicts["UAS"] == "within"  # only labels were corrupted: the heads are odin's


@pytest.mark.slow
def test_three_humans_add_the_alt_test_to_the_band(tmp_path, run_cli):
    """With three or more humans the band carries the alternative annotator test of the
    parser (issue 34: "also in the report"), the same as ``synagree alt-test``; with two,
    none."""
    import synagree

    data = Path(__file__).parent / "data" / "humans"
    humans = [data / f"{n}.conllu" for n in ("gold", "anna", "bert")]
    parser = data / "parser.conllu"
    direct = synagree.alt_test(humans, parser)
    code, out, _ = run_cli("report", *humans, "--system", parser, "-q", "--output", "json")
    assert code == 0
    band = json.loads(out)["details"]["human_band"]
    assert band["alt_test"] == json.loads(json.dumps(direct.to_dict()))
    code, out, _ = run_cli("report", *humans, "--system", parser, "-q", "--output", "markdown")
    assert "winning_rate" in out and "left_out" in out
    html = tmp_path / "r.html"
    assert run_cli("report", *humans, "--system", parser, "-q", "-o", html)[0] == 0
    page = html.read_text()
    assert "Alternative annotator test" in page and "critical_epsilon" in page
    code, out, _ = run_cli("report", *humans[:2], "--system", parser, "-q", "--output", "json")
    assert json.loads(out)["details"]["human_band"]["alt_test"] is None
