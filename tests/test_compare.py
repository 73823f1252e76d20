"""``synagree compare``: units under differing sentence splits, α on joined trees,
breakdowns and confusions checked by hand, input errors, renderings.

Fixtures (tests/data/compare, see README.txt there):

* ``tiny-gold/sys``: gold "It rained." "We left." "Bye."; the system joins the
  first two sentences (``left`` a ``parataxis`` of ``rained``).  Units:
  {g1, g2 | m1}, {g3 | m2}.
* ``split4-gold/sys``: four kinds of unit: two gold sentences joined by the
  system; one gold sentence split in two; crossing boundaries (gold
  [w9 w10 w11][w12], system [w9][w10 w11 w12]); identical.
* ``bd-gold/sys``: two sentences, same tokens, errors placed for hand-counted
  breakdowns (see the comments of the breakdown tests).
"""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from synagree.base.problems import InputError
from synagree.evaluation import compare as cmp
from synagree.evaluation.conll18 import (
    OFFICIAL_METRICS,
    evaluate,
    read_treebank,
    render_scorer_table,
)
from synagree.io.conllu import read_conllu, to_conllu, write_conllu
from synagree.render import compare as render_compare
from synagree.trees import flat
from synagree.trees.flat import Vocabulary, dependency_trees

DATA = Path(__file__).resolve().parent / "data" / "compare"
CONLL18 = Path(__file__).resolve().parent / "data" / "conll18"


def units_of(res, k=0):
    return [(u.gold.start, u.gold.stop, u.system.start, u.system.stop)
            for u in res.systems[k].units]


# --------------------------------------------------------------------------- units, alpha


def test_tiny_units_and_alpha_by_hand(h):
    res = cmp.compare(DATA / "tiny-gold.conllu", [DATA / "tiny-sys.conllu"])
    s = res.systems[0]
    assert units_of(res) == [(0, 2, 0, 1), (2, 3, 1, 2)]
    assert s.joined_units == 1
    # Unit 1: gold ε(root(expl, punct), root(nsubj, punct)) vs system
    # ε(root(expl, punct, parataxis(nsubj, punct))), 7 nodes each.  Mapping the
    # second gold root to parataxis would break ancestry (parataxis is under the
    # first root), so: delete the first gold root, insert the system root above,
    # rename root -> parataxis: TED = 3 (a rename is needed, and equal node
    # counts with different shapes need at least one delete + one insert).
    # Unit 2: identical, TED 0.
    assert list(s.unit_ted) == [3.0, 0.0]
    # Cross-unit TEDs: G1 or S1 (7 nodes) vs G2 = S2 = ε(root(punct)) (3 nodes):
    # keep ε, one root and one punct, delete 4 nodes: 4.
    # |t|: 7, 7, 3, 3.  n = 4 values.
    # plain: D_o = (2·9)/4;  ordered pairs: 2·(9 + 4·16 + 0) = 146, D_e = 146/12
    #        α = 1 − (18/4)/(146/12) = 1 − 54/146 = 46/73
    # diff:  δ = TED − ||x|−|y||: 3, 0 (4 − 4), 0 → D_o = 18/4, D_e = 18/12, α = −2
    # norm:  δ = TED/(|x|+|y|): 3/14, 4/10 → computed below with fractions
    assert s.alpha_value("plain") == pytest.approx(46 / 73, abs=1e-12)
    assert s.alpha_value("diff") == pytest.approx(-2.0, abs=1e-12)
    d_u, d_x = Fraction(3, 14) ** 2, Fraction(4, 10) ** 2
    norm = 1 - (2 * d_u / 4) / ((2 * d_u + 8 * d_x) / 12)
    assert s.alpha_value("norm") == pytest.approx(float(norm), abs=1e-12)
    # the joined trees as the independent zss helper builds them give TED 3 too
    g = h.zss_dep_tree([2, 0, 2, 5, 0, 5], ["expl", "root", "punct", "nsubj", "root", "punct"])
    y = h.zss_dep_tree([2, 0, 2, 5, 2, 5], ["expl", "root", "punct", "nsubj", "parataxis",
                                              "punct"])
    assert h.zss_unit_distance(g, y) == 3


# hand-joined trees of split4 (heads within the unit, 0 = artificial root)
SPLIT4_UNITS = [
    # g0 + g1 | m0: gold ε(root(nsubj), root(obj)), system ε(root(nsubj, conj(obj)))
    (([2, 0, 0, 3], ["nsubj", "root", "root", "obj"]),
     ([2, 0, 2, 3], ["nsubj", "root", "conj", "obj"])),
    # g2 | m1 + m2: system sentence 2 (w7 w8) is offset by 2
    (([2, 0, 2, 3], ["det", "root", "obj", "amod"]),
     ([2, 0, 0, 3], ["det", "root", "root", "amod"])),
    # g3 + g4 | m3 + m4: crossing boundaries
    (([0, 1, 2, 0], ["root", "obj", "amod", "root"]),
     ([0, 0, 2, 2], ["root", "root", "amod", "obj"])),
    # g5 | m5: identical
    (([0, 1], ["root", "punct"]), ([0, 1], ["root", "punct"])),
]


def test_split4_grouping_and_joined_trees(h):
    res = cmp.compare(DATA / "split4-gold.conllu", [DATA / "split4-sys.conllu"])
    assert units_of(res) == [(0, 2, 0, 1), (2, 3, 1, 3), (3, 5, 3, 5), (5, 6, 5, 6)]
    assert [u.joined for u in res.systems[0].units] == [True, True, True, False]
    gold_tb = read_treebank(DATA / "split4-gold.conllu")
    sys_tb = read_treebank(DATA / "split4-sys.conllu")
    for unit, ((gh, gl), (sh, sl)) in zip(res.systems[0].units, SPLIT4_UNITS):
        gj = cmp.joined_sentence(gold_tb, unit.gold)
        sj = cmp.joined_sentence(sys_tb, unit.system)
        assert (gj.heads.tolist(), gj.deprels) == (gh, gl)
        assert (sj.heads.tolist(), sj.deprels) == (sh, sl)
    want = [h.zss_unit_distance(h.zss_dep_tree(gh, gl), h.zss_dep_tree(sh, sl))
            for (gh, gl), (sh, sl) in SPLIT4_UNITS]
    assert list(res.systems[0].unit_ted) == want
    assert want[-1] == 0 and all(d > 0 for d in want[:3])
    # α from the same joined trees by the textbook definition
    trees = [t for pair in SPLIT4_UNITS for t in pair]
    zt = [h.zss_dep_tree(hh, ll) for hh, ll in trees]
    sizes = [len(hh) + 1 for hh, _ in trees]
    ids = list(range(len(trees)))
    units = [ids[2 * k:2 * k + 2] for k in range(4)]
    d2 = lambda a, b: h.zss_unit_distance(zt[a], zt[b]) ** 2  # noqa: E731
    alpha, _, _ = h.textbook_alpha(units, d2)
    assert res.systems[0].alpha_value("plain") == pytest.approx(alpha, abs=1e-12)
    d2n = lambda a, b: (h.zss_unit_distance(zt[a], zt[b]) / (sizes[a] + sizes[b])) ** 2  # noqa
    assert res.systems[0].alpha_value("norm") == pytest.approx(
        h.textbook_alpha(units, d2n)[0], abs=1e-12)


@pytest.mark.parametrize("gold, system", [
    (DATA / "split4-gold.conllu", DATA / "split4-sys.conllu"),
    (CONLL18 / "tokenisation-gold.conllu", CONLL18 / "tokenisation-sys.conllu"),
    (DATA / "bd-gold.conllu", DATA / "bd-sys.conllu"),
])
@pytest.mark.parametrize("batch_min", [1, 10 ** 9])
def test_unit_trees_equal_trees_of_joined_sentences(gold, system, batch_min, monkeypatch):
    """α's trees are built from the two columns a tree needs (one sentence) or
    from `joined_sentence` (several): array for array the trees of the full
    sentences, in the same label ids (by the compiled batch and tree by tree)."""
    monkeypatch.setattr(flat, "BATCH_MIN", batch_min)
    gold_tb, sys_tb = read_treebank(gold), read_treebank(system)
    units = list(cmp.sentence_units(evaluate(gold_tb, sys_tb).alignment))
    got = cmp._GoldTrees(gold_tb).pairs(sys_tb, units)
    vocab = Vocabulary()
    want = dependency_trees([s for u in units for s in (cmp.joined_sentence(gold_tb, u.gold),
                                                       cmp.joined_sentence(sys_tb, u.system))],
                            vocab)
    trees = [t for pair in got for t in pair]
    assert len(trees) == len(want) == 2 * len(units)
    for a, b in zip(trees, want):
        assert a.size == b.size and a.cost_left == b.cost_left and a.cost_right == b.cost_right
        for f in ("labels", "lml", "keyroots", "r_labels", "r_lml", "r_keyroots"):
            assert getattr(a, f).tolist() == getattr(b, f).tolist(), f


def test_same_splits_give_one_unit_per_sentence():
    res = cmp.compare(DATA / "bd-gold.conllu", [DATA / "bd-sys.conllu"])
    assert units_of(res) == [(0, 1, 0, 1), (1, 2, 1, 2)]
    assert res.systems[0].joined_units == 0
    assert not any("join" in n for n in res.notes)


def test_differing_tokenisation_gives_different_node_counts():
    """The scorer-parity tokenisation fixture: trees of a unit differ in size."""
    res = cmp.compare(CONLL18 / "tokenisation-gold.conllu", [CONLL18 / "tokenisation-sys.conllu"])
    s = res.systems[0]
    gold_tb = read_treebank(CONLL18 / "tokenisation-gold.conllu")
    sys_tb = read_treebank(CONLL18 / "tokenisation-sys.conllu")
    sizes = [(cmp.joined_sentence(gold_tb, u.gold).n_words,
              cmp.joined_sentence(sys_tb, u.system).n_words) for u in s.units]
    assert any(a != b for a, b in sizes)
    assert all(s.alpha_value(v) is not None for v in ("plain", "diff", "norm"))
    assert s.scores["Words"].correct < s.scores["Words"].gold_total


def test_conll18_split_fixture_units():
    res = cmp.compare(CONLL18 / "split-gold.conllu", [CONLL18 / "split-sys.conllu"])
    # gold g1 g2 | g3, system m1 | m2 m3
    assert units_of(res) == [(0, 2, 0, 1), (2, 3, 1, 3)]


def test_empty_nodes_change_nothing():
    a = cmp.compare(DATA / "bd-gold.conllu", [DATA / "bd-sys.conllu"], breakdown=True)
    b = cmp.compare(DATA / "bd-gold-empty.conllu", [DATA / "bd-sys.conllu"], breakdown=True)
    sa, sb = a.systems[0], b.systems[0]
    assert sa.scores == sb.scores
    for v in ("plain", "diff", "norm"):
        assert sa.alpha_value(v) == sb.alpha_value(v)
    assert sa.breakdowns == sb.breakdowns
    assert sa.confusion.counts == sb.confusion.counts
    assert "ghost" not in read_treebank(DATA / "bd-gold-empty.conllu").text


def test_scores_are_the_scorers():
    res = cmp.compare(DATA / "bd-gold.conllu", [DATA / "bd-sys.conllu"])
    ref = evaluate(DATA / "bd-gold.conllu", DATA / "bd-sys.conllu")
    for m in OFFICIAL_METRICS + ("LAS_full",):
        assert res.systems[0].scores[m] == ref[m]


# --------------------------------------------------------------------------- input errors


def test_texts_differ_error_names_files_and_lines():
    with pytest.raises(InputError) as ei:
        cmp.compare(DATA / "bd-gold.conllu", [DATA / "bd-sys.conllu",
                                              DATA / "bd-typo-sys.conllu"])
    errs = ei.value.errors
    assert {(Path(e.file).name, e.line, e.kind) for e in errs} == {
        ("bd-gold.conllu", 4, "text-mismatch"), ("bd-typo-sys.conllu", 4, "text-mismatch")}
    assert all("c[a]t" in e.message or "c[u]t" in e.message for e in errs)


def test_texts_differ_cli_exit_2_without_traceback(run_cli):
    rc, out, err = run_cli("compare", DATA / "bd-gold.conllu", DATA / "bd-typo-sys.conllu")
    assert rc == 2 and out == ""
    assert "bd-typo-sys.conllu:4: error:" in err and "bd-gold.conllu:4: error:" in err
    assert "text-mismatch" in err and "Traceback" not in err


def test_malformed_and_missing_files_exit_2(run_cli, write):
    bad = write("bad.conllu", "1\tx\t_\t_\t_\t_\t0\troot\t_\n\n")
    rc, _, err = run_cli("compare", DATA / "bd-gold.conllu", bad)
    assert rc == 2 and "bad.conllu:1" in err and "Traceback" not in err
    rc, _, err = run_cli("compare", DATA / "bd-gold.conllu", DATA / "nope.conllu")
    assert rc == 2 and "nope.conllu" in err
    rc, _, err = run_cli("compare", DATA / "bd-gold.conllu", DATA / "bd-sys.conllu",
                         "--hierarchy", DATA / "no-such-hierarchy.txt")
    assert rc == 2 and "no-such-hierarchy.txt" in err


def test_usage_errors_exit_2(run_cli):
    rc, _, err = run_cli("compare", "-v", DATA / "bd-gold.conllu", DATA / "bd-sys.conllu",
                         DATA / "bd-sys.conllu")
    assert rc == 2 and "exactly one system" in err
    rc, _, err = run_cli("compare", DATA / "bd-gold.conllu", DATA / "bd-sys.conllu",
                         "--names", "a", "b")
    assert rc == 2 and "name(s)" in err
    rc, _, err = run_cli("compare", DATA / "bd-gold.conllu", DATA / "bd-sys.conllu",
                         "--significance", "--sample-pairs", "100")
    assert rc == 2


# --------------------------------------------------------------------------- breakdowns
#
# bd fixture, word by word (gold -> system; head, relation):
#   b1  The    DET   2 det         -> 2 det          LAS ok
#       cat    NOUN  3 nsubj       -> 3 obj          head ok, label wrong
#       sat    VERB  0 root        -> 0 root         LAS ok
#       on     ADP   6 case        -> 6 case         LAS ok
#       the    DET   6 det         -> 6 det          LAS ok
#       mat    NOUN  3 obl         -> 2 nsubj:outer  head wrong
#       .      PUNCT 3 punct       -> 3 punct        LAS ok
#   b2  Dogs   NOUN  2 nsubj:pass  -> 2 nsubj        LAS ok (universal relation), LAS_full wrong
#       bark   VERB  0 root        -> 0 root         LAS ok
#       loudly ADV   2 advmod      -> 1 advmod       head wrong
#       .      PUNCT 2 punct       -> 2 discourse    head ok, label wrong
# LAS 7/11, UAS 9/11, LAS_full 6/11.  CLAS: gold content words cat sat mat Dogs
# bark loudly (6), system content words cat(obj) sat mat(nsubj) Dogs bark loudly
# .(discourse) (7), correct sat Dogs bark (3): P 3/7, R 3/6 (as udeval prints).


def bins(res, name):
    return {b.bin: (b.gold, b.system, b.aligned, b.las, b.uas)
            for b in res.systems[0].breakdowns[name]}


@pytest.fixture(scope="module")
def bd():
    return cmp.compare(DATA / "bd-gold.conllu", [DATA / "bd-sys.conllu"], breakdown=True,
                       hierarchy="ud")


def test_headline_scores_by_hand(bd):
    sc = bd.systems[0].scores
    assert (sc["LAS"].correct, sc["UAS"].correct, sc["LAS_full"].correct) == (7, 9, 6)
    assert (sc["CLAS"].correct, sc["CLAS"].gold_total, sc["CLAS"].system_total) == (3, 6, 7)
    # LAS_hier: UD hierarchy over the labels of both files: nsubj has the children
    # nsubj:pass and nsubj:outer, so credit(gold nsubj:pass, system nsubj) = 1/2;
    # the 6 LAS_full-correct words get 1, cat (nsubj -> obj) and . (punct ->
    # discourse) get 0: 6.5.
    assert sc["LAS_hier"].correct == pytest.approx(6.5)
    assert sc["LAS_hier"].f1 == pytest.approx(6.5 / 11)


def test_relation_breakdown_by_hand(bd):
    # (gold, system, aligned, las, uas) per universal relation; correct = LAS-correct
    # with that relation on both sides.
    #   nsubj: gold cat, Dogs; system Dogs, mat (nsubj:outer); correct Dogs.
    #   punct: gold both '.', system only b1 '.'; correct b1 '.'.
    assert bins(bd, "relation") == {
        "det": (2, 2, 2, 2, 2), "nsubj": (2, 2, 2, 1, 1), "root": (2, 2, 2, 2, 2),
        "punct": (2, 1, 2, 1, 1), "case": (1, 1, 1, 1, 1), "obl": (1, 0, 1, 0, 0),
        "advmod": (1, 1, 1, 0, 0), "obj": (0, 1, 0, 0, 0), "discourse": (0, 1, 0, 0, 0)}
    order = [b.bin for b in bd.systems[0].breakdowns["relation"]]
    # by gold count, then system count, then name
    assert order == ["det", "nsubj", "root", "punct", "advmod", "case", "obl", "discourse",
                     "obj"]
    punct = next(b for b in bd.systems[0].breakdowns["relation"] if b.bin == "punct")
    assert (punct.precision, punct.recall, punct.f1) == (1.0, 0.5, pytest.approx(2 / 3))


def test_upos_breakdown_by_hand(bd):
    # gold UPOS on both sides (all words aligned).  LAS-correct: The the (DET),
    # Dogs (NOUN), sat bark (VERB), on (ADP), b1 '.' (PUNCT); head-correct adds
    # cat (NOUN) and b2 '.' (PUNCT).
    assert bins(bd, "upos") == {
        "NOUN": (3, 3, 3, 1, 2), "DET": (2, 2, 2, 2, 2), "PUNCT": (2, 2, 2, 1, 2),
        "VERB": (2, 2, 2, 2, 2), "ADP": (1, 1, 1, 1, 1), "ADV": (1, 1, 1, 0, 0)}


def test_length_breakdown_by_hand(bd):
    # gold |ID-HEAD|: The 1, cat 1, on 2, the 1, mat 3, . 4 | Dogs 1, loudly 1, . 2
    #   -> 1: 5, 2: 2, 3-6: 2, root: 2
    # system: mat 6->2 = 4, loudly 3->1 = 2  -> 1: 4, 2: 3, 3-6: 2, root: 2
    # LAS-correct: The the Dogs (1), on (2), b1 '.' (3-6), sat bark (root)
    # head-correct: + cat (1), b2 '.' (2)
    assert bins(bd, "length") == {
        "1": (5, 4, 5, 3, 4), "2": (2, 3, 2, 1, 2), "3-6": (2, 2, 2, 1, 1),
        "7+": (0, 0, 0, 0, 0), "root": (2, 2, 2, 2, 2)}
    one = bd.systems[0].breakdowns["length"][0]
    assert (one.precision, one.recall) == (0.75, 0.6)


def test_direction_breakdown_by_hand(bd):
    # left = head precedes the word: gold mat, b1 '.', loudly, b2 '.'; system the
    # same four (mat 6->2, loudly 3->1).  LAS-correct: left b1 '.'; right The on
    # the Dogs; head-correct adds b2 '.' (left) and cat (right).
    assert bins(bd, "direction") == {
        "left": (4, 4, 4, 1, 2), "right": (5, 5, 5, 4, 5), "root": (2, 2, 2, 2, 2)}


def test_sentence_length_breakdown_by_hand(bd):
    got = bins(bd, "sentence_length")
    assert got["1-10"] == (11, 11, 11, 7, 9)
    assert all(got[b] == (0, 0, 0, 0, 0) for b in ("11-20", "21-30", "31-40", "41+"))


def test_sentence_length_bin_edges():
    side = cmp.Side(lambda w: w, [1, 10, 11, 20, 40, 41, 400])

    class W:
        def __init__(self, k):
            self.sent_index = k

    assert [cmp._sentence_length(W(k), side) for k in range(7)] == \
        ["1-10", "1-10", "11-20", "11-20", "31-40", "41+", "41+"]


def test_confusions_by_hand(bd):
    # head-correct pairs: The cat sat on the . | Dogs bark . (9)
    c = bd.systems[0].confusion
    assert c.counts == {("det", "det"): 2, ("nsubj", "obj"): 1, ("root", "root"): 2,
                        ("case", "case"): 1, ("punct", "punct"): 1, ("nsubj", "nsubj"): 1,
                        ("punct", "discourse"): 1}
    assert c.top() == [("nsubj", "obj", 1, "b1"), ("punct", "discourse", 1, "b2")]
    rows, cols, m = c.matrix()
    assert m.sum() == 9 and rows[0] in ("det", "root", "nsubj", "punct")


def test_full_label_breakdown_and_confusions():
    res = cmp.compare(DATA / "bd-gold.conllu", [DATA / "bd-sys.conllu"], breakdown=True,
                      full_labels=True, alpha=False)
    s = res.systems[0]
    assert s.confusion.top() == [("nsubj", "obj", 1, "b1"), ("nsubj:pass", "nsubj", 1, "b2"),
                                 ("punct", "discourse", 1, "b2")]
    rel = bins(res, "relation")
    assert rel["nsubj:pass"] == (1, 0, 1, 0, 0) and rel["nsubj"] == (1, 1, 1, 0, 0)
    assert rel["nsubj:outer"] == (0, 1, 0, 0, 0)
    assert bins(res, "upos")["NOUN"] == (3, 3, 3, 0, 2)  # Dogs no longer LAS_full-correct
    assert s.alpha is None


def test_unaligned_system_words_get_their_own_upos_bin():
    res = cmp.compare(CONLL18 / "tokenisation-gold.conllu",
                      [CONLL18 / "tokenisation-sys.conllu"], breakdown=True, alpha=False)
    s = res.systems[0]
    upos = {b.bin: b for b in s.breakdowns["upos"]}
    unaligned = s.scores["Words"].system_total - s.scores["Words"].correct
    assert unaligned > 0 and upos[cmp.UNALIGNED_BIN].system == unaligned
    assert upos[cmp.UNALIGNED_BIN].gold == 0
    for name, bds in s.breakdowns.items():  # every breakdown partitions the words
        assert sum(b.gold for b in bds) == s.scores["Words"].gold_total, name
        assert sum(b.system for b in bds) == s.scores["Words"].system_total, name


# --------------------------------------------------------------------------- rendering, CLI


def test_cli_table_json_csv_latex(run_cli):
    g, s = DATA / "bd-gold.conllu", DATA / "bd-sys.conllu"
    rc, out, err = run_cli("compare", g, s, s, "--names", "A", "B", "--hierarchy", "ud")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("gold:") and "A" in lines[2] and "B" in lines[2]
    row = {ln.split()[0]: ln.split()[1:] for ln in lines[4:] if ln.strip()}
    assert row["LAS"] == ["63.64", "63.64"] and row["LAS_hier"] == ["59.09", "59.09"]
    assert row["LAS_full"] == ["54.55", "54.55"] and "alpha_plain" in row
    rc, out, _ = run_cli("compare", g, s, "--output", "json", "--breakdown")
    d = json.loads(out)
    assert d["systems"][0]["counts"]["LAS"]["correct"] == 7
    assert d["systems"][0]["breakdowns"]["direction"][0]["bin"] == "left"
    assert d["systems"][0]["confusion"]["top"][0] == ["nsubj", "obj", 1, "b1"]
    rc, out, _ = run_cli("compare", g, s, "--output", "csv", "--breakdown")
    assert out.splitlines()[0] == ",".join(render_compare.CSV_COLUMNS)
    assert any(ln.startswith("score,bd-sys.conllu,LAS,,") for ln in out.splitlines())
    assert any(ln.startswith("breakdown:length,bd-sys.conllu,LAS,3-6,") for ln in out.splitlines())
    rc, out, _ = run_cli("compare", g, s, "--output", "latex")
    # one row per metric, one column per system (percent)
    assert "\\toprule" in out and "metric & bd-sys.conllu \\\\" in out and "63.64" in out


def test_cli_verbose_is_the_scorers_table(run_cli, tmp_path):
    g, s = DATA / "bd-gold.conllu", DATA / "bd-sys.conllu"
    rc, out, _ = run_cli("compare", "-v", g, s, "--hierarchy", "ud")
    assert rc == 0
    scorer = render_scorer_table(evaluate(g, s))
    assert out.startswith(scorer + "\n")
    rest = out[len(scorer) + 1:].splitlines()
    assert rest[0].startswith("LAS_full   |") and rest[1].startswith("LAS_hier   |")
    # alpha is not part of the scorer's output (udeval's table below ends at its last
    # metric): it is a table of the table model (writers.text), not a scorer-style block
    head = rest.index("Krippendorff's alpha between gold and system, percent")
    assert rest[head + 1].split() == ["metric", "value"]
    assert [ln.split()[0] for ln in rest[head + 2:head + 5]] == \
        ["alpha_plain", "alpha_diff", "alpha_norm"]
    assert not any("|" in ln for ln in rest[head:])
    try:
        import udtools.udeval as udeval
    except ImportError:
        return
    import io
    ref = udeval.build_evaluation_table(
        udeval.evaluate(udeval.load_conllu(io.StringIO(g.read_text()), "g", {}),
                        udeval.load_conllu(io.StringIO(s.read_text()), "s", {})), True, False)
    assert out.startswith(ref + "\n")


def test_cli_writes_out_file(run_cli, tmp_path):
    target = tmp_path / "r" / "res.json"
    rc, out, _ = run_cli("compare", DATA / "bd-gold.conllu", DATA / "bd-sys.conllu",
                         "--output", "json", "-o", target, "--no-alpha")
    assert rc == 0 and out == ""
    assert "alpha" not in json.loads(target.read_text())["systems"][0]


def test_default_names_are_made_distinct():
    res = cmp.compare(DATA / "bd-gold.conllu", [DATA / "bd-sys.conllu", DATA / "bd-sys.conllu"],
                      alpha=False)
    assert len({s.name for s in res.systems}) == 2


def test_text_inputs_and_treebanks():
    g = (DATA / "bd-gold.conllu").read_text()
    s = read_treebank(DATA / "bd-sys.conllu")
    res = cmp.compare(g, [s], alpha=False)
    assert res.gold == "<gold>" and res.systems[0].scores["LAS"].correct == 7


def test_conllu_writer_round_trip(tmp_path):
    sents = read_conllu(DATA / "bd-gold-empty.conllu")
    path = tmp_path / "w.conllu"
    write_conllu(path, sents)
    again = read_conllu(path)
    assert [(s.forms, s.heads.tolist(), s.deprels, s.upos, s.lemmas, s.sent_id) for s in sents] \
        == [(s.forms, s.heads.tolist(), s.deprels, s.upos, s.lemmas, s.sent_id) for s in again]
    # the strict scorer reader accepts it and finds the same text as the source
    assert read_treebank(path).text == read_treebank(DATA / "bd-gold.conllu").text
    assert to_conllu([]) == ""
