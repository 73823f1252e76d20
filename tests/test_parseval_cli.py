"""``synagree compare`` on bracketed files: errors, options, outputs, extras."""
from __future__ import annotations

import csv
import io
import json
import random

import pytest
from evalb_trees import random_files

from synagree.evaluation.parseval import parseval
from synagree.evaluation.parseval_alpha import detail_trees
from synagree.io.brackets import PhraseNode
from synagree.io.evalb_params import load_params
from synagree.trees.spans import constituent_spans

GOLD = "(TOP (S (NP (DT a) (NN b)) (VP (VB c) (NP (NN d)))))\n(TOP (S (NN x) (VB y)))\n"
SYS = "(TOP (S (NP (DT a)) (VP (NN b) (VB c) (NP (NN d)))))\n(TOP (S (NN x) (VB y)))\n"


@pytest.fixture
def files(write):
    return write("g.mrg", GOLD), write("s.mrg", SYS)


def test_default_table(files, run_cli):
    rc, out, err = run_cli("compare", *files)
    assert rc == 0, err
    assert "bracketing F-measure" in out and "params_sha256:" in out


@pytest.mark.parametrize("bad,kind,line", [
    ("(S (NN a)\n(S (NN b))\n", "unbalanced-brackets", 1),
    ("(S (NN a))\n(NP the dog)\n", "stray-text", 2),
    ("(S (NN a))\n\n", "empty-tree", 2),
    ("(S (NN a))\n(S (NN b))\n(S (NN c))\n", "sentence-count-mismatch", 3),
])
def test_bad_gold_is_file_line_exit_2(bad, kind, line, write, run_cli):
    g = write("bad.mrg", bad)
    s = write("s2.mrg", "(S (NN a))\n(S (NN b))\n")
    rc, out, err = run_cli("compare", g, s)
    assert rc == 2 and out == ""
    assert f"bad.mrg:{line}: error:" in err and f"({kind})" in err


def test_bad_params(files, write, run_cli):
    prm = write("x.prm", "LABELLED 1\nDEBUG 5\nEQ_LABEL ADVP\nDELETE_LABEL A B\n")
    rc, out, err = run_cli("compare", *files, "--params", prm)
    assert rc == 2
    for line in (1, 2, 3, 4):
        assert f"x.prm:{line}: error:" in err
    assert err.count("(bad-params)") == 4


def test_usage_errors(files, write, run_cli):
    rc, _, err = run_cli("compare", *files, "--hierarchy", "ud")
    assert rc == 2 and "dependency (CoNLL-U) input only" in err
    rc, _, err = run_cli("compare", files[0], files[1], files[1], "--output", "evalb")
    assert rc == 2 and "one system file" in err
    rc, _, err = run_cli("compare", *files, "--output", "evalb", "--alpha")
    assert rc == 2 and "--alpha" in err
    conllu = write("x.conllu", "1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n\n")
    rc, _, err = run_cli("compare", files[0], conllu)
    assert rc == 2 and "(mixed-formats)" in err
    rc, _, err = run_cli("compare", conllu, conllu, "--params", "nk")
    assert rc == 2 and "bracketed" in err


def test_max_error_stops_with_status_1(write, run_cli):
    g = write("g.mrg", "(S (NN a) (NN b))\n" * 15)
    s = write("s.mrg", "(S (NN a))\n" * 15)
    rc, out, err = run_cli("compare", g, s, "--output", "evalb")
    assert rc == 1
    assert "Summary" not in out and out.count("Length unmatch") == 0
    assert err.count("Length unmatch") == 12 and "MAX_ERROR 10" in err
    rc, out, err = run_cli("compare", g, s, "--output", "json")
    assert rc == 1
    assert json.loads(out)["systems"][0]["stopped"]["id"] == 12


def test_json_csv_latex_carry_the_counts(files, run_cli):
    rc, out, _ = run_cli("compare", *files, "--output", "json", "--names", "p")
    d = json.loads(out)
    s = d["systems"][0]
    assert d["kind"] == "parseval" and d["settings"]["params"] == "COLLINS.prm"
    assert (s["summary"]["all"]["matched"], s["summary"]["all"]["gold"],
            s["summary"]["all"]["test"]) == (3, 5, 5)
    assert s["sentences"][0]["crossing"] == 1 and s["per_unit"]["ids"] == ["#1", "#2"]
    rc, out, _ = run_cli("compare", *files, "--output", "csv", "--names", "p")
    rows = list(csv.DictReader(io.StringIO(out)))
    b = [r for r in rows if r["section"] == "summary:all" and r["metric"] == "bracketing"][0]
    assert (b["correct"], b["gold"], b["predicted"]) == ("3", "5", "5")
    rc, out, _ = run_cli("compare", *files, "--output", "latex", "--names", "p")
    assert "p & 60.00 & 60.00 & 60.00 & 50.00 & 100.00" in out


def test_extras_significance_and_baseline(files, write, tmp_path, run_cli):
    g, s = files
    rc, out, err = run_cli("compare", g, s, g, "--names", "A", "B", "--breakdown", "--alpha",
                           "--significance", "--bootstrap", "200")
    assert rc == 0, err
    assert "significance: paired bootstrap" in out and "bracket_F1" in out
    old = tmp_path / "old.json"
    assert run_cli("compare", g, g, "--names", "v1", "-o", old)[0] == 0
    rc, out, err = run_cli("compare", g, s, "--names", "v2", "--baseline", old,
                           "--bootstrap", "100")
    assert rc == 0, err
    assert "#1" in out  # the sentence that got worse
    rc, _, err = run_cli("compare", g, s, "--params", "nk", "--baseline", old)
    assert rc == 2 and "(baseline-mismatch)" in err  # another parameter file


def test_dependency_baseline_refused(files, tmp_path, run_cli, repo_root):
    dep = repo_root / "tests" / "data" / "compare" / "tiny-gold.conllu"
    old = tmp_path / "dep.json"
    assert run_cli("compare", dep, dep, "--no-alpha", "-o", old)[0] == 0
    rc, _, err = run_cli("compare", *files, "--baseline", old)
    assert rc == 2 and "(baseline-mismatch)" in err


def test_the_light_constants_agree_with_the_library():
    from synagree.cli import baseline, tag_options
    from synagree.evaluation.compare import SIGNIFICANCE_REPLICATES
    from synagree.stats.regression import BASELINE_REPLICATES
    from synagree.stats.tag_alternatives import TAG_SYNTAXES
    assert baseline.BASELINE_REPLICATES == BASELINE_REPLICATES == SIGNIFICANCE_REPLICATES
    assert tag_options.TAG_SYNTAXES == TAG_SYNTAXES


def test_engines_agree_on_random_pairs():
    pytest.importorskip("synagree.evaluation._parsevalc")
    for seed in range(5):
        g, s = random_files(500 + seed, 60)
        a = parseval(g.split("\n")[:-1], s.split("\n")[:-1], "new", engine="c")
        b = parseval(g.split("\n")[:-1], s.split("\n")[:-1], "new", engine="python")
        assert a.engine == "c" and b.engine == "python"
        assert [x.as_dict() for x in a.sentences] == [x.as_dict() for x in b.sentences]


def test_evalb_trees_hold_evalb_brackets():
    """The α trees rebuilt from EVALB's kept brackets give those brackets back
    (trees/spans.py, an independent walk)."""
    prm = load_params("collins")
    rng = random.Random(3)
    g, s = random_files(rng.randint(0, 10**6), 80)
    res = parseval(g.split("\n")[:-1], s.split("\n")[:-1], prm, detail=True)
    assert res.details
    for d in res.details.values():
        gt, tt = detail_trees(d, prm)
        for tree, brackets in ((gt, d.gold), (tt, d.test)):
            spans = [(sp.start, sp.end, sp.label) for sp in constituent_spans(tree)]
            canon = [(a, b, "ADVP" if lab == "PRT" else lab) for a, b, lab in brackets]
            if tree.label == "" and not any(lab == "" for _, _, lab in canon):
                spans = spans[1:]  # the unlabelled root added over loose words
            assert sorted(spans) == sorted(canon)


def test_constituent_spans_root_leaf():
    assert constituent_spans(PhraseNode("X")) == []


def test_unlabelled_brackets_still_cost_an_edit_in_alpha():
    """LABELED 0: every bracket carries one label, not the root's free empty label, so a
    bracket one side lacks is one deletion (TED 1), as for any other tree."""
    from synagree.evaluation.parseval import parseval
    from synagree.evaluation.parseval_alpha import detail_trees
    from synagree.io.brackets import PhraseSentence
    from synagree.io.evalb_params import parse_params
    from synagree.stats.alpha import tree_alpha
    from synagree.trees.flat import Vocabulary, phrase_tree

    params = parse_params(b"LABELED 0\n")
    r = parseval(["(S (NP (DT a) (NN b)) (VB c))"], ["(S (DT a) (NN b) (VB c))"], params,
                 detail=True)
    g, t = detail_trees(r.details[1], params)  # details by sentence id, from 1
    v = Vocabulary()
    trees = [[phrase_tree(PhraseSentence("-", 0, 1, x), v) for x in (g, t)]]
    assert float(tree_alpha(trees).unit_ted[0][0, 1]) == 1.0
