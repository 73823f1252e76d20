"""The `synagree agree` command: output formats agree with each other, JSON keys,
--metric, -o, and the bundled-sample fallback."""
from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest

import synagree
import synagree.stats.alpha

# tests/data/core/dirs: values worked out by hand in test_corpus.py
HAND = {"alpha_plain": Fraction(11, 18), "alpha_diff": Fraction(-3, 11),
        "alpha_norm": 1 - (Fraction(13, 72) / 8) / (Fraction(517, 180) / 56),
        "LAS_full": Fraction(1, 3), "UAS": Fraction(3, 5), "LA": Fraction(1, 3)}
TABLE_NAMES = {"alpha_plain": "alpha_plain", "alpha_diff": "alpha_diff",
               "alpha_norm": "alpha_norm", "LAS_full": "LAS_full", "UAS": "UAS", "LA": "LA"}
NUMERIC = list(HAND)


@pytest.fixture(scope="module")
def dirs(core_data):
    base = core_data / "dirs"
    return [base / "anna", base / "bob", base / "carl"]


def _json(run_cli, *args):
    rc, out, err = run_cli("agree", *args, "--output", "json")
    assert rc == 0, err
    return json.loads(out)


def test_json_keys_and_hand_values(dirs, run_cli):
    data = _json(run_cli, "--dirs", *dirs, "--allow-missing")
    for key in ("alpha_plain", "alpha_diff", "alpha_norm", "LAS_full", "UAS", "LA", "units",
                "annotations", "ignored"):
        assert key in data, key
    for k, v in HAND.items():
        assert data[k] == pytest.approx(float(v), abs=1e-12), k
    assert data["units"] == 3 and data["annotations"] == 8 and data["ignored"] == 0


def test_formats_carry_the_same_numbers(dirs, run_cli):
    data = _json(run_cli, "--dirs", *dirs, "--allow-missing")

    # table: six decimals
    rc, table, err = run_cli("agree", "--dirs", *dirs, "--allow-missing")
    assert rc == 0, err
    rows = {}
    for line in table.splitlines():
        if line.startswith("note:") or not line.strip():
            continue
        key, _, val = line.partition("  ")
        rows[key.strip()] = val.strip()
    for k in NUMERIC:
        assert float(rows[TABLE_NAMES[k]]) == pytest.approx(data[k], abs=5e-7), k
        assert rows[TABLE_NAMES[k]] == f"{data[k]:.6f}"
    assert rows["ignored units"] == str(data["ignored"])
    assert rows["annotations"] == str(data["annotations"])

    # csv: full precision, one header and one data row
    rc, text, err = run_cli("agree", "--dirs", *dirs, "--allow-missing", "--output", "csv")
    assert rc == 0, err
    recs = list(csv.DictReader(io.StringIO(text)))
    assert len(recs) == 1
    for k in NUMERIC:
        assert float(recs[0][k]) == data[k], k
    for k in ("units", "annotations", "ignored"):
        assert int(recs[0][k]) == data[k]

    # latex: percent with one decimal, in the order α_plain, α_diff, α_norm, LAS, UAS, LA
    rc, tex, err = run_cli("agree", "--dirs", *dirs, "--allow-missing", "--output", "latex")
    assert rc == 0, err
    body = [ln for ln in tex.splitlines() if "&" in ln]
    header, row = body[0], body[1]
    assert "alpha" in header and "LAS" in header
    cells = [c.strip() for c in row.rstrip("\\ ").split("&")][1:]
    assert cells == [f"{100 * data[k]:.1f}" for k in NUMERIC]
    assert cells[1].startswith("-")  # α_diff is negative here: −27.3
    assert cells[0] == "61.1"


def test_metric_plain_only(dirs, run_cli, monkeypatch):
    """--metric plain asks the α computation for plain only, and reports only it.
    (The engine derives every variant from the same TED sums; what --metric
    controls is the set of variants requested and reported.)"""
    import synagree.agreement.agree

    seen = []
    real = synagree.agreement.agree.tree_alpha

    def spy(units, variants=synagree.stats.alpha.VARIANTS, *args, **kw):
        seen.append(tuple(variants))
        return real(units, variants, *args, **kw)

    monkeypatch.setattr(synagree.agreement.agree, "tree_alpha", spy)
    data = _json(run_cli, "--dirs", *dirs, "--allow-missing", "--metric", "plain")
    assert seen == [("plain",)]
    assert "alpha_plain" in data
    assert "alpha_diff" not in data and "alpha_norm" not in data
    assert "alpha_plain" in data["counts"]
    assert "alpha_diff" not in data["counts"] and "alpha_norm" not in data["counts"]
    assert data["alpha_plain"] == pytest.approx(float(HAND["alpha_plain"]), abs=1e-12)
    assert data["LAS_full"] == pytest.approx(1 / 3)
    seen.clear()
    rc, table, _ = run_cli("agree", "--dirs", *dirs, "--allow-missing", "--metric", "diff")
    assert rc == 0
    assert seen == [("diff",)]
    assert "alpha_diff" in table and "alpha_plain" not in table and "alpha_norm" not in table
    res = synagree.agree(dirs=dirs, variants=("norm",), allow_missing=True)
    assert set(res.alpha) == {"norm"}
    assert res.alpha_value("norm") == pytest.approx(float(HAND["alpha_norm"]), abs=1e-12)


def test_output_file(dirs, tmp_path, run_cli):
    target = tmp_path / "new" / "sub" / "result.json"
    rc, out, err = run_cli("agree", "--dirs", *dirs, "--allow-missing", "--output", "json",
                           "-o", target)
    assert rc == 0, err
    assert out == ""
    expected = _json(run_cli, "--dirs", *dirs, "--allow-missing")
    assert json.loads(target.read_text(encoding="utf-8")) == expected
    # no temporary files are left beside it
    assert [p.name for p in target.parent.iterdir()] == ["result.json"]
    # the format follows the suffix of -o unless --output names one
    rc, _, _ = run_cli("agree", "--dirs", *dirs, "--allow-missing", "--out", target)
    assert rc == 0
    assert json.loads(target.read_text(encoding="utf-8"))["units"] == 3
    rc, _, _ = run_cli("agree", "--dirs", *dirs, "--allow-missing", "--output", "table",
                       "--out", target)  # overwrite, table
    assert rc == 0
    head, first = target.read_text(encoding="utf-8").splitlines()[:2]
    assert head.split() == ["name", "value"] and first.startswith("kind")  # writers.text


def test_no_input_falls_back_to_sample_from_any_directory(repo_root, tmp_path, monkeypatch,
                                                           run_cli):
    """The bundled sample is package data: found whatever the working directory."""
    sample = repo_root / "synagree" / "data" / "en-sample"
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_cli("agree", "--output", "json")
    assert rc == 0, err
    assert "en-sample" in err
    data = json.loads(out)
    subdirs = sorted(str(p) for p in sample.iterdir() if p.is_dir())
    assert len(subdirs) >= 2
    ref = synagree.agree(dirs=subdirs)
    assert data["units"] == ref.units > 0
    for v in ("plain", "diff", "norm"):
        assert data[f"alpha_{v}"] == ref.alpha_value(v)


def test_no_command_and_usage_errors(run_cli, dirs, core_data):
    rc, out, err = run_cli()
    assert rc != 0 and "Traceback" not in err
    rc, out, err = run_cli("agree", core_data / "mwt-a.conllu", "--dirs", *dirs, "--allow-missing")
    assert rc != 0 and "Traceback" not in err and "either files or --dirs" in err
    rc, out, err = run_cli("agree", core_data / "mwt-a.conllu")
    assert rc != 0 and "Traceback" not in err and "at least two" in err
    with pytest.raises(SystemExit) as ei:
        run_cli("agree", "--output", "yaml")
    assert ei.value.code != 0


def test_names_option(core_data, run_cli):
    data = _json(run_cli, core_data / "mwt-a.conllu", core_data / "mwt-b.conllu",
                 "--names", "ana", "bea")
    assert data["annotator_names"] == ["ana", "bea"]
    assert data["LAS_full"] == pytest.approx(10 / 12)


def test_quiet_suppresses_warnings(write, h, run_cli):
    a = write("a.conllu", h.conll_text([[(0, "root"), (1, "_")]]))
    b = write("b.conllu", h.conll_text([[(0, "root"), (1, "obj")]]))
    rc, _, err = run_cli("agree", a, b)
    assert rc == 0 and "missing-deprel" in err
    rc, _, err = run_cli("agree", a, b, "-q")
    assert rc == 0 and err == ""


def test_agree_hierarchy_options_add_lines_without_replacing_published_alphas(tmp_path):
    """--hierarchy/--label-distance add hier_* and alpha_*_h keys; the published
    variants are unchanged, and hierarchy costs can only lower distances."""
    import json

    from synagree.cli.main import main

    sample = "synagree/data/en-sample"
    a, b = f"{sample}/ann_a/sample.conllu", f"{sample}/ann_b/sample.conllu"
    plain = tmp_path / "plain.json"
    hier = tmp_path / "hier.json"
    assert main(["agree", a, b, "-q", "--output", "json", "-o", str(plain)]) == 0
    assert main(["agree", a, b, "-q", "--output", "json", "-o", str(hier), "--hierarchy", "ud",
                 "--label-distance", "hierarchy"]) == 0
    p, h = json.loads(plain.read_text()), json.loads(hier.read_text())
    for k in ("alpha_plain", "alpha_diff", "alpha_norm", "LAS_full", "UAS", "LA"):
        assert h[k] == p[k]
    assert h["LAS_hier"] >= h["LAS_full"] and h["LA_hier"] >= h["LA"]
    assert h["counts"]["alpha_plain"]["do_sum"] == p["counts"]["alpha_plain"]["do_sum"]
    assert h["alpha_plain_hier"] >= h["alpha_plain"] - 1e-12
