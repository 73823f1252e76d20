"""Tests for synagree.hierarchy_scores: hierarchical LA/LAS/kappa and alpha
with hierarchy-aware TED rename costs (docs/method.md §9 in `agree`).

Hand-computed values refer to tests/data/hier/ud-{a,b,c}.conllu:

    s1  a: det nsubj:pass aux:pass root punct      (heads 2 4 4 0 4)
        b: det nsubj      aux      root punct      (heads 2 4 4 0 4)
        c: det nsubj:pass aux:pass root punct      (heads 2 4 4 0 3)
    s2  a: obj nsubj root   b: obj nsubj:outer root   c: nsubj nsubj root
    s3  a, c: 2 words; b: 3 words (left out of the label scores)

Under the UD hierarchy nsubj -> {nsubj:pass, nsubj:outer} and aux ->
{aux:pass} (a single child: aux and aux:pass are interchangeable).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import random
from fractions import Fraction as F
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

import synagree
from synagree.base.problems import InputError
from synagree.cli import agree as cli_agree
from synagree.cli.parsers import agree as agree_parser
from synagree.distance.ted import Costs, TreePack, distance_matrix, pair_distances
from synagree.io.conllu import read_conllu
from synagree.io.corpus import Corpus, Unit
from synagree.render.agreement import render
from synagree.stats import hierarchical as hs
from synagree.stats.alpha import tree_alpha
from synagree.stats.attachment import attachment_scores
from synagree.stats.contingency import Contingency
from synagree.stats.hierarchical_kappa import hierarchical_kappa
from synagree.trees.flat import Vocabulary, build_tree, flat_tree, to_zss
from synagree.trees.hierarchy import Hierarchy, label_distance, label_distance_matrix

DATA = Path(__file__).resolve().parent / "data" / "hier"
from conftest import SHARED_DATA

EWT_TEST = SHARED_DATA / "ud" / "en_ewt-ud-test.conllu"
TOL = 1e-12


def ud_files(*names):
    return [DATA / f"ud-{n}.conllu" for n in names]


def corpus_of(*names) -> Corpus:
    return synagree.load_corpus(ud_files(*names))


def close(x, expected, tol=TOL):
    return x is not None and abs(x - float(expected)) <= tol


# ------------------------------------------------------------- hand values
def test_two_annotators_hand_values():
    m, d = hs.hierarchical_metrics(corpus_of("a", "b"), "ud")
    # s1: 1 + 3/4 + 1 + 1 + 1, s2: 1 + 3/4 + 1; 8 words; s3 ignored
    assert close(m["LA_hier"], F(15, 16))
    assert close(m["LAS_hier"], F(15, 16))
    assert close(d["exact_la"], F(5, 8)) and close(d["exact_las"], F(5, 8))
    # P(A) = 7/8, P(E) = 10/64  ->  kappa = 23/27
    assert close(d["kappa_hier"]["p_observed"], F(7, 8))
    assert close(d["kappa_hier"]["p_expected"], F(10, 64))
    assert close(m["kappa_hier"], F(23, 27))
    assert close(m["scott_pi"], F(31, 55))
    assert close(m["cohen_kappa"], F(4, 7))
    assert d["words"] == 8 and d["units"] == 2 and d["ignored"] == 1
    assert list(m) == ["LA_hier", "LAS_hier", "kappa_hier", "scott_pi",
                       "cohen_kappa"]
    assert any("single child" in n and "aux = aux:pass" in n for n in d["notes"])


def test_three_annotators_pairwise_mean_weighted_by_words():
    m, d = hs.hierarchical_metrics(corpus_of("a", "b", "c"), "ud")
    # s1 pairs: LA 4.75, 5, 4.75; LAS 4.75, 4, 3.75.  s2 pairs: 2.75, 2, 1.75
    assert close(m["LA_hier"], (F(29, 6) + F(13, 6)) / 8)  # 7/8
    assert close(m["LAS_hier"], (F(25, 6) + F(13, 6)) / 8)  # 19/24
    assert m["cohen_kappa"] is None
    assert any("exactly two annotators" in n for n in d["notes"])
    # exact scores agree with the core's LAS / LA (same aggregation)
    res = synagree.agree(ud_files("a", "b", "c"))
    assert close(d["exact_la"], res.scores.ratio("LA"))
    assert close(d["exact_las"], res.scores.ratio("LAS_full"))


@pytest.mark.parametrize("mode,expected_la", [("mutual", F(15, 16)),
                                              ("agreement", F(7, 8)),
                                              ("credit", F(15, 16))])
def test_label_credit_modes(mode, expected_la):
    m, _ = hs.hierarchical_metrics(corpus_of("a", "b"), "ud", mode=mode)
    assert close(m["LA_hier"], expected_la)
    # kappa never depends on the mode (docs/method.md §9 pair agreement)
    assert close(m["kappa_hier"], F(23, 27))


def test_credit_mode_takes_first_annotator_as_gold():
    # a = gold: credit(nsubj:pass, nsubj) = 1/2, credit(nsubj, nsubj:outer) = 1
    m_ab, _ = hs.hierarchical_metrics(corpus_of("a", "b"), "ud", mode="credit")
    # b = gold: credit(nsubj, nsubj:pass) = 1, credit(nsubj:outer, nsubj) = 1/2
    ba = synagree.load_corpus(ud_files("b", "a"))
    m_ba, _ = hs.hierarchical_metrics(ba, "ud", mode="credit")
    assert close(m_ab["LA_hier"], F(15, 16)) and close(m_ba["LA_hier"], F(15, 16))
    words = [("nsubj:pass", "nsubj"), ("nsubj", "nsubj:outer")]
    h = Hierarchy.from_ud(["nsubj:pass", "nsubj:outer", "aux:pass"])
    f = hs.label_credit_fn(h, "credit")
    assert [f(x, y) for x, y in words] == [0.5, 1.0]
    g = hs.label_credit_fn(h, "mutual")
    assert [g(x, y) for x, y in words] == [0.75, 0.75]
    assert g("nsubj", "nsubj") == 1.0
    assert hs.label_credit_fn(h, "agreement")("nsubj", "nsubj") == 0.5


def test_kappas_match_the_hierarchy_module():
    corpus = corpus_of("a", "b")
    m, _ = hs.hierarchical_metrics(corpus, "ud")
    pairs = []
    for a, b in corpus.annotation_lists():
        if a.n_words == b.n_words:
            pairs.extend(zip(a.deprels, b.deprels))
    labels = [x for p in pairs for x in p] + ["advmod"]
    h = Hierarchy.from_ud(labels)
    assert close(m["kappa_hier"], hierarchical_kappa(h, pairs).kappa)
    assert close(m["scott_pi"], Contingency.from_labels(pairs).pi())
    assert close(m["cohen_kappa"], Contingency.from_labels(pairs).kappa())


def test_flat_hierarchy_gives_the_exact_scores():
    for names in (("a", "b"), ("a", "b", "c")):
        m, d = hs.hierarchical_metrics(corpus_of(*names), "flat", label_distance="hierarchy")
        assert close(m["LA_hier"], d["exact_la"]) and close(m["LAS_hier"], d["exact_las"])
        assert close(m["kappa_hier"], m["scott_pi"])
        res = synagree.agree(ud_files(*names))
        for v in ("plain", "diff", "norm"):
            assert close(m[f"alpha_{v}_hier"], res.alpha_value(v), 1e-12)


def test_plain_as_leaf_makes_ud_subtypes_distinct():
    m, d = hs.hierarchical_metrics(corpus_of("a", "b"), "ud", label_distance="hierarchy",
                                   plain_as_leaf=True)
    assert close(m["LA_hier"], d["exact_la"])
    res = synagree.agree(ud_files("a", "b"))
    assert close(m["alpha_plain_hier"], res.alpha_value("plain"))
    assert d["hierarchy"] == "ud (plain as leaf)"
    assert not any("single child" in n for n in d["notes"])


def test_hierarchy_file():
    m, d = hs.hierarchical_metrics(corpus_of("a", "b"), str(DATA / "ud-deprel.hier"),
                                   label_distance="hierarchy")
    # aux now has two children: aux:pass vs aux gets (1/2 + 1)/2 = 3/4
    assert close(m["LA_hier"], F(29, 32))
    assert d["labels_not_in_hierarchy"] == ["advmod"]
    assert any("advmod" in n for n in d["notes"])
    assert d["hierarchy"].startswith("file ")
    assert m["alpha_plain_hier"] is not None


def test_bad_or_missing_hierarchy_file_is_input_error(tmp_path):
    with pytest.raises(InputError) as e:
        hs.hierarchical_metrics(corpus_of("a", "b"), str(DATA / "bad.hier"))
    assert e.value.errors[0].kind == "hierarchy-indentation"
    assert e.value.errors[0].line == 3
    with pytest.raises(InputError) as e:
        hs.hierarchical_metrics(corpus_of("a", "b"), str(tmp_path / "nope.hier"))
    assert e.value.errors[0].kind == "hierarchy-not-found"
    with pytest.raises(InputError):
        hs.load_hierarchy("msd", [], plain_as_leaf=True)
    with pytest.raises(InputError):
        hs.hierarchical_metrics(corpus_of("a", "b"), "ud", label_distance="bogus")


# ------------------------------------------------------------- alpha with hierarchy costs
def _zss_costs(h: Hierarchy):
    ins = lambda node: 0.0 if node.label == "" else 1.0  # noqa: E731
    upd = lambda a, b: label_distance(h, a.label, b.label)  # noqa: E731
    return ins, ins, upd


def _zss_distance(a, b, h):
    import zss

    ins, rem, upd = _zss_costs(h)
    return zss.distance(a, b, get_children=lambda n: n.children, insert_cost=ins,
                        remove_cost=rem, update_cost=upd)


def test_alpha_h_matches_textbook_alpha_over_zss(h):
    """α_*_h equals α by definition with zss.distance under the same costs."""
    hier = Hierarchy.from_ud(["det", "nsubj:pass", "aux:pass", "root", "punct", "obj",
                              "nsubj", "aux", "nsubj:outer", "advmod"])
    for names in (("a", "b"), ("a", "b", "c")):
        corpus = corpus_of(*names)
        m, d = hs.hierarchical_metrics(corpus, hier, label_distance="hierarchy")
        units = []
        for anns in corpus.annotation_lists():
            units.append([(h.zss_dep_tree(list(s.heads), s.deprels), s.size) for s in anns])

        def d2(variant):
            def f(x, y):
                t = _zss_distance(x[0], y[0], hier)
                if variant == "diff":
                    t -= abs(x[1] - y[1])
                elif variant == "norm":
                    t /= x[1] + y[1]
                return t * t
            return f

        for v in ("plain", "diff", "norm"):
            ref, do, de = h.textbook_alpha(units, d2(v))
            assert abs(m[f"alpha_{v}_hier"] - ref) < 1e-9
            assert abs(d["alpha_hier"][v]["d_o"] - do) < 1e-9


UD_LABELS = ["nsubj", "nsubj:pass", "nsubj:outer", "obj", "iobj", "obl", "obl:tmod",
             "obl:npmod", "obl:agent", "nmod", "nmod:poss", "nmod:tmod", "aux", "aux:pass",
             "acl", "acl:relcl", "compound", "compound:prt", "det", "det:predet", "punct",
             "root", "cc", "cc:preconj", "advmod", "obl:arg:loc"]


def _random_tree(rng: random.Random, vocab: Vocabulary):
    n = rng.randint(0, 9)
    heads = [rng.randint(0, i - 1) for i in range(1, n + 1)]  # a random recursive tree
    labels = [rng.choice(UD_LABELS) for _ in range(n)]
    children = [[] for _ in range(n + 1)]
    for i, hd in enumerate(heads, start=1):
        children[hd].append(i)
    for kids in children:
        rng.shuffle(kids)  # arbitrary sibling order
    ids = [0] + [vocab.id(lab) for lab in labels]
    return flat_tree(children, ids, size=n + 1)


@pytest.mark.slow
def test_hierarchy_ted_equals_zss_distance_on_random_pairs():
    rng = random.Random(20140611)
    vocab = Vocabulary()
    n_pairs = 1200
    trees = [_random_tree(rng, vocab) for _ in range(2 * n_pairs)]
    hier = Hierarchy.from_ud(UD_LABELS)
    costs = Costs.with_renames(label_distance_matrix(hier, list(vocab.labels)))
    assert costs.rename[vocab.id("nsubj"), vocab.id("nsubj:pass")] < \
        costs.rename[vocab.id("nsubj"), vocab.id("obj")] == 1.0
    pack = TreePack(trees)
    i = np.arange(0, 2 * n_pairs, 2)
    j = i + 1
    ours = pair_distances(pack, i, j, costs)
    zt = [to_zss(t, vocab) for t in trees]
    ref = np.array([_zss_distance(zt[a], zt[b], hier) for a, b in zip(i, j)])
    np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-9)
    assert np.count_nonzero(ours != np.round(ours)) > 100  # fractional costs were exercised
    # the all-pairs kernel (what tree_alpha uses) gives the same numbers
    sub = list(range(60))
    dm = distance_matrix(TreePack([trees[k] for k in sub]), costs)
    for a, b in combinations(sub[:25], 2):
        assert abs(dm[a, b] - _zss_distance(zt[a], zt[b], hier)) < 1e-9


# ------------------------------------------------------------- result / CLI helpers
def _ns(**kw):
    base = dict(hierarchy=None, label_distance="exact", plain_as_leaf=False,
                label_credit="mutual")
    base.update(kw)
    return argparse.Namespace(**base)


def test_hierarchy_section_adds_rows_to_agreement_result():
    before = synagree.agree(ud_files("a", "b"))
    assert cli_agree.hierarchy_options(_ns()) is None  # no --hierarchy: no section
    options = cli_agree.hierarchy_options(_ns(hierarchy="ud", label_distance="hierarchy"))
    res = synagree.agree(ud_files("a", "b"), hierarchy=options)
    assert set(res.metrics()) - set(before.metrics()) == set(hs.METRIC_KEYS)
    assert res.hierarchy.details()["label_credit"] == "mutual"
    table = render(res, "table")
    assert "LAS_hier" in table and "alpha_plain_hier" in table
    data = json.loads(render(res, "json"))
    assert abs(data["LA_hier"] - 15 / 16) < TOL
    assert data["details"]["hierarchy"]["hierarchy"] == "ud"
    assert abs(data["alpha_plain"] - res.alpha_value("plain")) < TOL  # untouched


def test_hierarchy_respects_requested_variants():
    res = synagree.agree(ud_files("a", "b"), variants=("plain",),
                         hierarchy=hs.HierarchyOptions("ud", "hierarchy"))
    assert "alpha_plain_hier" in res.metrics() and "alpha_diff_hier" not in res.metrics()


def test_parser_args_and_validation():
    p = argparse.ArgumentParser()
    agree_parser.add_hierarchy_args(p)
    args = p.parse_args(["--hierarchy", "msd", "--label-distance", "hierarchy"])
    assert args.hierarchy == "msd" and args.label_distance == "hierarchy"
    assert args.label_credit == hs.AGREE_MODE and not args.plain_as_leaf
    with pytest.raises(InputError, match="needs --hierarchy"):
        cli_agree.validate_args(p.parse_args(["--label-distance", "hierarchy"]))
    with pytest.raises(InputError, match="plain-as-leaf"):
        cli_agree.validate_args(p.parse_args(["--plain-as-leaf"]))
    with pytest.raises(InputError):
        cli_agree.validate_args(p.parse_args(["--hierarchy", str(DATA / "bad.hier")]))
    cli_agree.validate_args(p.parse_args(["--hierarchy", "ud", "--plain-as-leaf"]))


def test_phrase_corpus_gets_alpha_h_only(write):
    a = write("a.tree", "(S (NP D N) (VP V))\n(S (NP-SBJ N) (VP V (NP N)))\n")
    b = write("b.tree", "(S (NP D N) (VP V (NP N)))\n(S (NP N) (VP V (NP N)))\n")
    corpus = synagree.load_corpus([a, b])
    edges = write("phr.hier", "NP\nNP-SBJ\tNP\nNP-OBJ\tNP\n")
    m, d = hs.hierarchical_metrics(corpus, str(edges), label_distance="hierarchy")
    assert set(m) == {"alpha_plain_hier", "alpha_diff_hier", "alpha_norm_hier"}
    assert any("dependency input only" in n for n in d["notes"])
    res = synagree.agree([a, b])
    # NP vs NP-SBJ costs 1/2 instead of 1: the observed disagreement shrinks
    assert d["alpha_hier"]["plain"]["d_o"] < res.alpha["plain"].d_o


def test_msd_hierarchy_on_phrase_trees_with_positional_leaf_tags(write, h):
    """Delexicalised trees whose leaves are MSD tags: α with msd rename costs."""
    a = write("a.tree", "(S (NP Ncmsn) (VP Vmip3s (NP Ncfsa)))\n"
                        "(S (NP Agpmsn Ncmsn) (VP Vmip3p))\n")
    b = write("b.tree", "(S (NP Nc) (VP Vmip3s (NP Ncfsn)))\n"
                        "(S (NP Agpms Ncmsn) (VP Vmip3s))\n")
    corpus = synagree.load_corpus([a, b])
    m, d = hs.hierarchical_metrics(corpus, "msd", label_distance="hierarchy")
    res = synagree.agree([a, b])
    assert d["alpha_hier"]["plain"]["d_o"] < res.alpha["plain"].d_o
    hier = Hierarchy.from_msd(["S", "NP", "VP", "Ncmsn", "Vmip3s", "Ncfsa", "Agpmsn", "Vmip3p",
                               "Nc", "Ncfsn", "Agpms"])
    # renames: Ncmsn->Nc 1/2 (Nc = {Ncm.., Ncf..}), Ncfsa->Ncfsn 1, Agpmsn->Agpms 0,
    # Vmip3p->Vmip3s 1
    assert label_distance(hier, "Ncmsn", "Nc") == 0.5
    assert label_distance(hier, "Agpmsn", "Agpms") == 0.0
    ta, tb = (synagree.load_corpus([a, b]).annotation_lists())[0]
    vocab = Vocabulary()
    t1, t2 = build_tree(ta, vocab), build_tree(tb, vocab)
    costs = Costs.with_renames(label_distance_matrix(hier, list(vocab.labels)))
    assert abs(pair_distances(TreePack([t1, t2]), np.array([0]), np.array([1]),
                              costs)[0] - 1.5) < 1e-12
    assert abs(_zss_distance(to_zss(t1, vocab), to_zss(t2, vocab), hier) - 1.5) < 1e-12


def test_hier_metric_fn_for_noise_experiments():
    a = read_conllu(DATA / "ud-a.conllu")[:2]
    b = read_conllu(DATA / "ud-b.conllu")[:2]
    fn = hs.hier_metric_fn("ud")
    out = fn(a, b)
    assert close(out["LA_hier"], F(15, 16))
    assert set(out) == set(hs.METRIC_KEYS)
    assert out["alpha_plain_hier"] is not None
    assert fn.__name__ == "hierarchy" and fn.columns == hs.METRIC_KEYS
    fn2 = hs.hier_metric_fn(str(DATA / "ud-deprel.hier"), label_distance="exact")
    assert close(fn2(a, b)["LA_hier"], F(29, 32))
    assert "alpha_plain_hier" not in fn2.columns and set(fn2(a, b)) == set(fn2.columns)
    # a hierarchy pinned by the experiment's label set: nsubj gets a third child
    fn3 = hs.hier_metric_fn("ud", labels=["nsubj:pass", "nsubj:outer", "nsubj:xsubj",
                                          "aux:pass"])
    # s1: nsubj:pass/nsubj (1 + 1/3)/2; s2: nsubj/nsubj:outer the same
    assert close(fn3(a, b)["LA_hier"], (6 + 2 * F(2, 3)) / 8)
    with pytest.raises(InputError):
        hs.hier_metric_fn("msd", plain_as_leaf=True)
    with pytest.raises(ValueError):
        fn(a, b[:1])


# ------------------------------------------------------------- UD English-EWT
def strip_subtypes(sents, share: float, seed: int):
    """A copy in which each subtyped relation loses its subtype with
    probability ``share`` (``nsubj:pass`` -> ``nsubj``)."""
    rng = random.Random(seed)
    out, changed, subtyped = [], 0, 0
    for s in sents:
        rels = list(s.deprels)
        for k, r in enumerate(rels):
            if ":" in r:
                subtyped += 1
                if rng.random() < share:
                    rels[k] = r.split(":", 1)[0]
                    changed += 1
        out.append(dataclasses.replace(s, deprels=rels))
    return out, changed, subtyped


def _pair_corpus(gold, other) -> Corpus:
    units = [Unit(str(k), "ewt", {"gold": g, "stripped": o})
             for k, (g, o) in enumerate(zip(gold, other))]
    return Corpus(["gold", "stripped"], units, "dependency")


def ewt_subtype_experiment(path: Path = EWT_TEST, share: float = 0.5, seed: int = 7,
                           alpha_sentences=None) -> dict:
    """Numbers of the EWT check: exact/hierarchical LAS on the whole file, D_o
    under both costs on the whole file, α on the first ``alpha_sentences``
    sentences (all when None; the all-pairs TED is what costs time)."""
    gold = read_conllu(path)
    stripped, changed, subtyped = strip_subtypes(gold, share, seed)
    corpus = _pair_corpus(gold, stripped)
    m, d = hs.hierarchical_metrics(corpus, "ud")
    exact = attachment_scores(corpus.annotation_lists())
    # D_o over the whole file from the within-unit distances (2 annotators:
    # D_o = mean over units of TED^2)
    vocab = Vocabulary()
    trees = [build_tree(s, vocab) for pair in zip(gold, stripped) for s in pair]
    hier = hs.load_hierarchy("ud", vocab.labels)
    costs_h = Costs.with_renames(label_distance_matrix(hier, list(vocab.labels)))
    pack = TreePack(trees)
    i = np.arange(0, len(trees), 2)
    d_exact = pair_distances(pack, i, i + 1)
    d_hier = pair_distances(pack, i, i + 1, costs_h)
    out = {"sentences": len(gold), "words": d["words"], "subtyped": subtyped,
           "stripped": changed, "LAS_full": exact.ratio("LAS_full"), "LA": exact.ratio("LA"),
           "LAS_hier": m["LAS_hier"], "LA_hier": m["LA_hier"],
           "kappa_hier": m["kappa_hier"],
           "scott_pi": m["scott_pi"],
           "cohen_kappa": m["cohen_kappa"],
           "d_o_exact_all": float(np.mean(d_exact ** 2)),
           "d_o_hier_all": float(np.mean(d_hier ** 2))}
    k = len(gold) if alpha_sentences is None else alpha_sentences
    units = [[trees[2 * u], trees[2 * u + 1]] for u in range(k)]
    ta_exact = tree_alpha(units)
    ta_hier = tree_alpha(units, costs=costs_h)
    # the API path, with the hierarchy of the whole file (a subset's own "ud"
    # hierarchy may lack some subtypes and so differ)
    mh, dh = hs.hierarchical_metrics(_pair_corpus(gold[:k], stripped[:k]), hier,
                                     label_distance="hierarchy")
    out.update({"alpha_sentences": k,
                "alpha_plain": ta_exact.alpha("plain"), "alpha_plain_hier": ta_hier.alpha("plain"),
                "alpha_diff": ta_exact.alpha("diff"), "alpha_diff_hier": ta_hier.alpha("diff"),
                "alpha_norm": ta_exact.alpha("norm"), "alpha_norm_hier": ta_hier.alpha("norm"),
                "d_o_exact": ta_exact.stats["plain"].d_o, "d_o_hier": ta_hier.stats["plain"].d_o,
                "d_e_exact": ta_exact.stats["plain"].d_e, "d_e_hier": ta_hier.stats["plain"].d_e,
                "api_alpha_plain_h": mh["alpha_plain_hier"],
                "api_d_o_hier": dh["alpha_hier"]["plain"]["d_o"]})
    return out


@pytest.mark.skipif(not EWT_TEST.is_file(),
                    reason=f"shared UD English-EWT test file not found at {EWT_TEST}")
@pytest.mark.slow
def test_ewt_losing_subtypes_costs_less_under_the_hierarchy():
    r = ewt_subtype_experiment(alpha_sentences=500)
    print("\nEWT test, 50% of subtyped relations stripped (seed 7):")
    for key, val in r.items():
        print(f"  {key:20s} {val:.6f}" if isinstance(val, float) else f"  {key:20s} {val}")
    assert r["stripped"] > 0.4 * r["subtyped"]
    drop_exact = 1.0 - r["LAS_full"]
    drop_hier = 1.0 - r["LAS_hier"]
    assert drop_exact > 0 and 0 < drop_hier < drop_exact
    assert r["LA_hier"] > r["LA"]
    assert r["d_o_hier_all"] < r["d_o_exact_all"]
    assert r["d_o_hier"] < r["d_o_exact"]
    assert r["alpha_plain_hier"] > r["alpha_plain"]
    # the agree/API path computes the same α as tree_alpha with the same costs
    assert abs(r["api_alpha_plain_h"] - r["alpha_plain_hier"]) < 1e-12
    assert abs(r["api_d_o_hier"] - r["d_o_hier"]) < 1e-12


if __name__ == "__main__":  # full-file numbers (slow: all-pairs TED twice)
    for key, val in ewt_subtype_experiment().items():
        print(f"{key:20s} {val:.6f}" if isinstance(val, float) else f"{key:20s} {val}")
