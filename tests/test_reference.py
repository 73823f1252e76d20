"""REFERENCE.md reproduced to 1e-6 on the shared IAA data (docs/method.md §7).

Expected values are copied from ../shared/REFERENCE.md (computed by the
published reference implementation, independently confirmed); nothing here is
taken from synagree's own output.  Cycle and multi-root counts are recounted
from the raw file columns in this file.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import synagree
from synagree.base.problems import InputError

TOL = 1e-6

# corpus: (annotator files under data/iaa, REFERENCE.md row)
REFERENCE = {
    "NDT 1": (("ndt/odin-danish.conll", "ndt/thor-danish.conll"),
              dict(alpha_plain=0.983827037, alpha_diff=0.930487493, alpha_norm=0.988325065,
                   LAS_full=0.939665472, UAS=0.962962963, LA=0.959976105, ignored=0)),
    "NDT 2": (("ndt/odin-swedish.conll", "ndt/thor-swedish.conll"),
              dict(alpha_plain=0.989163844, alpha_diff=0.949510856, alpha_norm=0.991011822,
                   LAS_full=0.944165621, UAS=0.961104141, LA=0.964868256, ignored=0)),
    "NDT 3": (("ndt/odin-norwegian.conll", "ndt/thor-norwegian.conll"),
              dict(alpha_plain=0.978533804, alpha_diff=0.911812495, alpha_norm=0.987406729,
                   LAS_full=0.952929394, UAS=0.967451177, LA=0.970455684, ignored=0)),
    "NDT caterpillar": (("ndt/odin-caterpillar.conll", "ndt/thor-caterpillar.conll"),
                        dict(alpha_plain=0.997612315, alpha_diff=0.988720689,
                             alpha_norm=0.998912376, LAS_full=0.991304348, UAS=0.991304348,
                             LA=1.000000000, ignored=0)),
    "CDT da": (("cdt/da-lotte.conll", "cdt/da-morten.conll"),
               dict(alpha_plain=0.956800418, alpha_diff=0.847465951, alpha_norm=0.962290316,
                    LAS_full=0.904344194, UAS=0.961152882, LA=0.923976608, ignored=0)),
    "CDT en": (("cdt/en-lotte.conll", "cdt/en-morten.conll"),
               dict(alpha_plain=0.923657620, alpha_diff=0.707400303, alpha_norm=0.949866595,
                    LAS_full=0.884406657, UAS=0.938314038, LA=0.919500724, ignored=0)),
}
# docs/method.md §7 sizes (sentences, tokens) of the paper's corpora
SIZES = {"NDT 1": (130, 1674), "NDT 2": (110, 1594), "NDT 3": (150, 1997),
         "CDT da": (162, 2394), "CDT en": (264, 5528)}
CORPORA = sorted(REFERENCE)
CDT = ["CDT da", "CDT en"]


def _paths(iaa, corpus):
    return [iaa / f for f in REFERENCE[corpus][0]]


def _check(values: dict, expected: dict, where: str):
    for key, want in expected.items():
        got = values[key]
        assert got is not None, f"{where}: {key} is None"
        if key == "ignored":
            assert got == want, f"{where}: {key} = {got}, expected {want}"
        else:
            assert abs(got - want) <= TOL, f"{where}: {key} = {got!r}, expected {want} ± {TOL}"


@pytest.fixture(scope="module")
def api_results(iaa):
    cache = {}

    def get(corpus):
        if corpus not in cache:
            cache[corpus] = synagree.agree(_paths(iaa, corpus))
        return cache[corpus]

    return get


@pytest.mark.parametrize("corpus", CORPORA)
def test_reference_api(api_results, corpus):
    res = api_results(corpus)
    values = {f"alpha_{v}": res.alpha_value(v) for v in ("plain", "diff", "norm")}
    values.update({m: res.scores.ratio(m) for m in ("LAS_full", "UAS", "LA")})
    values["ignored"] = res.scores.ignored
    _check(values, REFERENCE[corpus][1], f"API {corpus}")
    assert res.kind == "dependency"
    assert len(res.annotators) == 2


@pytest.mark.parametrize("corpus", sorted(SIZES))
def test_reference_sizes(api_results, corpus):
    """Sentence and token counts of docs/method.md §7 (tokens = words compared by LAS)."""
    res = api_results(corpus)
    sents, tokens = SIZES[corpus]
    assert res.units == sents
    assert res.units_total == sents
    assert res.annotations == 2 * sents
    assert res.scores.total == tokens


@pytest.mark.parametrize("corpus", CORPORA)
def test_reference_cli_json(iaa, tmp_path, run_cli, corpus):
    out = tmp_path / "result.json"
    rc, stdout, err = run_cli("agree", *_paths(iaa, corpus), "--output", "json", "-o", out)
    assert rc == 0, err
    assert "Traceback" not in err
    assert stdout == "", "with -o the result goes to the file, not stdout"
    data = json.loads(out.read_text(encoding="utf-8"))
    _check(data, REFERENCE[corpus][1], f"CLI {corpus}")


def test_entry_point_subprocess(iaa):
    """`python -m synagree agree ... --output json` works as a real process."""
    paths = _paths(iaa, "CDT da")
    proc = subprocess.run([sys.executable, "-m", "synagree", "agree", *map(str, paths),
                           "--output", "json"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    data = json.loads(proc.stdout)
    _check(data, REFERENCE["CDT da"][1], "subprocess CDT da")
    # the head-cycle warnings reach stderr, naming the file
    assert "cycle" in proc.stderr and "da-lotte.conll" in proc.stderr


# --------------------------------------------------------------------------
# Head cycles and multiple roots in the CDT files, recounted from raw columns
# --------------------------------------------------------------------------

def _independent_counts(h, paths):
    """Per file: cycle sentences as {(file, sentence index): cycle-member lines}
    and the number of sentences with more than one HEAD = 0."""
    cycles = {}
    multi = 0
    for p in paths:
        for k, words in enumerate(h.raw_conll(p)):
            heads, _ = h.heads_labels(words)
            if sum(1 for x in heads if x == 0) > 1:
                multi += 1
            if h.unreachable(heads):
                members = h.on_cycle(heads)
                assert members, "a word off the root must sit on or under a cycle"
                cycles[(str(p), k)] = {words[w - 1][0] for w in members}
    return cycles, multi


@pytest.mark.parametrize("corpus", CDT)
def test_cdt_cycle_warnings(api_results, iaa, h, corpus):
    paths = _paths(iaa, corpus)
    cycles, multi = _independent_counts(h, paths)
    assert cycles, f"{corpus} is known to contain head cycles"
    res = api_results(corpus)
    warns = [w for w in res.warnings if w.kind == "cycle"]
    assert len(warns) == len(cycles)
    assert res.cycle_sentences == len(cycles)
    assert res.multi_root == multi
    # every cycle sentence has one warning; it names the file and the line of
    # a word on the cycle
    lines_by_file = {}
    for (f, _k), lines in cycles.items():
        lines_by_file.setdefault(f, []).append(lines)
    for w in warns:
        assert w.severity == "warning"
        assert w.file in lines_by_file, w
        assert w.line is not None
        matching = [ls for ls in lines_by_file[w.file] if w.line in ls]
        assert len(matching) == 1, f"warning line {w.line} is not on a cycle: {w}"
        lines_by_file[w.file].remove(matching[0])
        assert f"{w.file}:{w.line}" in str(w)
        assert "cycle" in w.message
    assert all(not v for v in lines_by_file.values()), "some cycle had no warning"


def test_ndt_has_no_cycles_or_warnings(api_results, iaa, h):
    for corpus in ("NDT 1", "NDT 2", "NDT 3", "NDT caterpillar"):
        cycles, multi = _independent_counts(h, _paths(iaa, corpus))
        res = api_results(corpus)
        assert res.cycle_sentences == len(cycles) == 0
        assert res.multi_root == multi
        assert not [w for w in res.warnings if w.kind == "cycle"]


@pytest.mark.parametrize("corpus", CDT)
def test_cdt_counts_in_json(iaa, h, tmp_path, run_cli, corpus):
    paths = _paths(iaa, corpus)
    cycles, multi = _independent_counts(h, paths)
    out = tmp_path / "r.json"
    rc, _, err = run_cli("agree", *paths, "--output", "json", "-o", out)
    assert rc == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["cycle_sentences"] == len(cycles)
    assert data["multi_root"] == multi
    cyc = [w for w in data["warnings"] if w["kind"] == "cycle"]
    assert len(cyc) == len(cycles)
    assert all(w["file"] and w["line"] for w in cyc)
    # stderr lists them as file:line
    for w in cyc:
        assert f"{w['file']}:{w['line']}" in err


@pytest.mark.parametrize("corpus", CDT)
def test_cdt_strict_api_raises(iaa, h, corpus):
    paths = _paths(iaa, corpus)
    cycles, _ = _independent_counts(h, paths)
    with pytest.raises(InputError) as ei:
        synagree.agree(paths, strict=True)
    errs = [e for e in ei.value.errors if e.kind == "cycle"]
    assert len(errs) == len(cycles)
    assert all(e.severity == "error" for e in errs)
    assert {e.file for e in errs} == {f for f, _ in cycles}


def test_cdt_strict_cli_fails(iaa, run_cli):
    paths = _paths(iaa, "CDT en")
    rc, out, err = run_cli("agree", *paths, "--strict", "--output", "json")
    assert rc != 0
    assert out == ""
    assert "Traceback" not in err
    assert "en-lotte.conll:" in err and "en-morten.conll:" in err
    assert "error" in err and "cycle" in err
