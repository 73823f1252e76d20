"""``synagree adjudicate``: consensus trees, competence, provenance, worklist, decisions.

Oracles: networkx's ``maximum_spanning_arborescence`` for the optimum of the
consensus tree (the root constraint by the usual reduction: every root arc
costs a constant M larger than all other weights together, so the best
arborescence uses exactly one), and crowd-kit's ``OneCoinDawidSkene`` for
the competence estimates.  Data: random weights, the shared NDT/CDT
double annotations and EWT dev with three independently perturbed annotators.
"""
from __future__ import annotations

import csv
import itertools
import json
from pathlib import Path
from typing import Dict, List, Sequence

import numpy as np
import pytest

import synagree
from synagree.agreement.adjudicate import adjudicate_corpus
from synagree.cli.main import main
from synagree.io.conllu import DepSentence, read_conllu
from synagree.io.corpus import Corpus
from synagree.noise.perturb import is_tree, label_set, perturb
from synagree.stats.attachment import attachment_scores
from synagree.stats.competence import one_coin_dawid_skene
from synagree.trees.arborescence import max_arborescence, tree_weight
from synagree.trees.span_consensus import _best_set

nx = pytest.importorskip("networkx", reason="networkx is the arborescence oracle (test extra)")

EWT_DEV = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ud" / \
    "en_ewt-ud-dev.conllu"


def nx_optimum(W: np.ndarray, single_root: bool) -> float:
    """The best arborescence weight networkx finds on the complete graph of ``W``."""
    n = W.shape[0] - 1
    big = float(np.abs(W).sum()) + 1.0 if single_root else 0.0
    G = nx.DiGraph()
    for h in range(n + 1):
        for d in range(1, n + 1):
            if h != d:
                G.add_edge(h, d, weight=float(W[h, d]) - (big if h == 0 else 0.0))
    T = nx.maximum_spanning_arborescence(G, attr="weight", preserve_attrs=True)
    assert sum(1 for h, _ in T.edges() if h == 0) == 1 or not single_root
    return sum(float(W[h, d]) for h, d in T.edges())


def votes(sents: Sequence[DepSentence], weights: Sequence[float]) -> np.ndarray:
    n = sents[0].n_words
    W = np.zeros((n + 1, n + 1))
    for s, w in zip(sents, weights):
        for d in range(n):
            W[int(s.heads[d]), d + 1] += w
    return W


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["int", "float"])
def test_arborescence_equals_networkx_on_random_weights(kind):
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(1, 14))
        W = (rng.integers(0, 4, size=(n + 1, n + 1)).astype(float) if kind == "int"
             else rng.random((n + 1, n + 1)))
        for single in (False, True):
            heads = max_arborescence(W, single_root=single)
            assert is_tree(heads)
            if single:
                assert int(np.count_nonzero(heads == 0)) == 1
            assert tree_weight(W, heads) == pytest.approx(nx_optimum(W, single), abs=1e-9)


def perturbed(gold: List[DepSentence], noise: Sequence[float], seed: int = 0
              ) -> Dict[str, List[DepSentence]]:
    labels = label_set(gold)
    out = {}
    for k, p in enumerate(noise):
        rng = np.random.default_rng(seed + k)
        out[f"ann{k + 1}"] = [perturb(s, p, p, labels, rng, on_cycle="repair") for s in gold]
    return out


def check_optimal(corpus: Corpus, res, limit: int) -> int:
    """Every consensus tree is a tree whose vote weight is networkx's optimum."""
    checked = 0
    sents = iter(res.consensus)
    for u in corpus.units:
        cons = next(sents)
        if u.parts:  # joined units are split back; checked elsewhere
            for _ in range(max(len(p) for p in u.parts.values()) - 1):
                next(sents)
            continue
        anns = [u.annotations[a] for a in corpus.annotators if a in u.annotations]
        assert is_tree(cons.heads), u.uid
        if len({s.n_words for s in anns}) > 1 or checked >= limit:
            continue
        single = all(s.n_roots == 1 for s in anns)
        if single:
            assert cons.n_roots == 1, u.uid
        W = votes(anns, [1.0] * len(anns))
        assert tree_weight(W, cons.heads) == pytest.approx(nx_optimum(W, single), abs=1e-9)
        checked += 1
    return checked


@pytest.mark.slow
@pytest.mark.parametrize("pair", ["ndt/odin-danish.conll ndt/thor-danish.conll",
                                  "cdt/da-lotte.conll cdt/da-morten.conll"])
def test_consensus_is_optimal_tree_on_shared_iaa(iaa, pair):
    paths = [iaa / p for p in pair.split()]
    corpus = synagree.load_corpus(paths)
    res = adjudicate_corpus(corpus, progress=False)
    assert check_optimal(corpus, res, 150) >= 100


@pytest.fixture(scope="module")
def ewt_gold() -> List[DepSentence]:
    if not EWT_DEV.is_file():
        pytest.skip(f"EWT dev not found at {EWT_DEV} (shared reference data)")
    return read_conllu(EWT_DEV)[:600]


@pytest.mark.slow
def test_ewt_consensus_beats_every_annotator_and_is_optimal(ewt_gold):
    anns = perturbed(ewt_gold, (0.15, 0.15, 0.15))
    corpus = Corpus.from_annotations(anns)
    res = adjudicate_corpus(corpus, progress=False)
    assert check_optimal(corpus, res, 200) >= 200

    def las(sents):
        return attachment_scores([[g, s] for g, s in zip(ewt_gold, sents)]).ratio("LAS")

    assert las(res.consensus) > max(las(s) for s in anns.values())
    assert res.decided["decided_by_vote"] + res.decided["decided_by_tie"] + \
        res.decided["decided_by_tree"] == res.words
    assert [s.annotator for s in res.scores] == list(anns)


@pytest.mark.slow
def test_competence_ranks_annotators_and_matches_crowdkit(ewt_gold):
    crowdkit = pytest.importorskip("crowdkit.aggregation", reason="crowd-kit is the oracle")
    pd = pytest.importorskip("pandas")
    noise = (0.4, 0.12, 0.05)  # the noisiest annotator first: equal weights favour it in ties
    gold = ewt_gold[:300]
    anns = perturbed(gold, noise, seed=11)
    corpus = Corpus.from_annotations(anns)
    eq = adjudicate_corpus(corpus, "equal", progress=False)
    co = adjudicate_corpus(corpus, "competence", progress=False)
    skills = co.competence.skills
    assert skills[0] < skills[1] < skills[2]  # the true order
    assert [s.competence for s in co.scores] == list(skills)

    def las(sents):
        return attachment_scores([[g, s] for g, s in zip(gold, sents)]).ratio("LAS")

    assert las(co.consensus) >= las(eq.consensus)
    # the same arc-choice data through crowd-kit: head offset, root its own label
    rows = []
    task = 0
    for k in range(len(gold)):
        n = gold[k].n_words
        for w, sents in enumerate(anns.values()):
            h = sents[k].heads
            rows.extend((task + d, w, "root" if h[d] == 0 else str(int(h[d]) - d - 1))
                        for d in range(n))
        task += n
    df = pd.DataFrame(rows, columns=["task", "worker", "label"])
    # as many EM rounds as synagree ran (it stops on the skills, crowd-kit on its ELBO)
    rounds = co.competence.iterations
    oracle = crowdkit.OneCoinDawidSkene(n_iter=rounds, tol=-np.inf).fit(df).skills_
    assert np.allclose(oracle.sort_index().to_numpy(), skills, atol=1e-9)


@pytest.mark.slow
def test_one_coin_dawid_skene_equals_crowdkit_iteration_by_iteration():
    crowdkit = pytest.importorskip("crowdkit.aggregation", reason="crowd-kit is the oracle")
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 9, 300)
    rows = [(t, w, int(truth[t] if rng.random() < acc else rng.integers(0, 9)))
            for t in range(300) for w, acc in enumerate((0.9, 0.7, 0.5, 0.2))
            if rng.random() > 0.2]
    df = pd.DataFrame(rows, columns=["task", "worker", "label"])
    for n_iter in (1, 5, 40):
        oracle = crowdkit.OneCoinDawidSkene(n_iter=n_iter, tol=-np.inf).fit(df)
        mine = one_coin_dawid_skene(df.task, df.worker, df.label, 4, n_iter=n_iter, tol=0)
        assert np.allclose(oracle.skills_.sort_index().to_numpy(), mine.skills, atol=1e-12)


# --------------------------------------------------------------------------- small cases


def s(heads, labels, forms=None, **kw):
    return DepSentence.from_heads(heads, labels, forms, **kw)


def test_majority_tree_is_kept_and_provenance_written():
    corpus = Corpus.from_annotations({
        "a": [s([2, 0, 2], "nsubj root obj")], "b": [s([2, 0, 2], "nsubj root obj")],
        "c": [s([0, 1, 1], "root dep obj")]})
    res = adjudicate_corpus(corpus)
    assert res.consensus[0].heads.tolist() == [2, 0, 2]
    assert res.misc[0][0].startswith("Adjudication=by:vote;head:2(2),0(1)")
    assert res.decided == {"unanimous": 0, "decided_by_vote": 3, "decided_by_tie": 0,
                           "decided_by_tree": 0, "decided_by_curator": 0}
    text = res.to_conllu()
    assert text.splitlines()[0].split("\t")[9].startswith("Adjudication=")


def test_tree_constraint_moves_a_word_and_lists_it():
    # three trees whose majority arcs make the cycle 1 -> 2 -> 3 -> 1
    corpus = Corpus.from_annotations({
        "a": [s([2, 0, 1], "dep root dep")], "b": [s([2, 3, 0], "dep dep root")],
        "c": [s([0, 3, 1], "root dep dep")]})
    res = adjudicate_corpus(corpus)
    heads = res.consensus[0].heads.tolist()
    assert is_tree(heads) and heads.count(0) == 1
    W = votes([u for u in corpus.units[0].annotations.values()], [1, 1, 1])
    assert tree_weight(W, np.array(heads)) == pytest.approx(nx_optimum(W, True))
    assert res.decided["decided_by_tree"] >= 1
    assert any(w.reason == "tree" for w in res.worklist)


def test_ties_go_to_the_earlier_annotator():
    corpus = Corpus.from_annotations({
        "a": [s([2, 0], "nsubj root")], "b": [s([0, 1], "root obj")]})
    res = adjudicate_corpus(corpus)
    assert res.consensus[0].heads.tolist() == [2, 0]
    assert res.decided["decided_by_tie"] == 2
    flipped = adjudicate_corpus(Corpus.from_annotations({
        "b": [s([0, 1], "root obj")], "a": [s([2, 0], "nsubj root")]}))
    assert flipped.consensus[0].heads.tolist() == [0, 1]


def test_columns_by_vote_and_comments_of_first_annotator():
    kw = {"upos": ["PRON", "VERB"], "lemmas": ["i", "see"]}
    corpus = Corpus.from_annotations({
        "a": [s([2, 0], "nsubj root", ["I", "saw"], upos=["X", "VERB"], lemmas=kw["lemmas"],
                metadata={"sent_id": "s1"}, comments=["# sent_id = s1"])],
        "b": [s([2, 0], "nsubj root", ["I", "saw"], **kw, comments=["# sent_id = s1b"])],
        "c": [s([2, 0], "nsubj root", ["I", "saw"], **kw)]})
    res = adjudicate_corpus(corpus)
    out = res.consensus[0]
    assert out.upos == ["PRON", "VERB"] and out.comments == ["# sent_id = s1"]
    assert res.misc[0] == ("_", "_")  # head and label unanimous


# --------------------------------------------------------------------------- command line

ROW = "{}\tw{}\t_\t_\t_\t_\t{}\t{}\t_\t_"


def conll(*sents) -> str:
    return "".join("\n".join(ROW.format(i, i, h, r) for i, (h, r) in enumerate(x, 1)) + "\n\n"
                   for x in sents)


@pytest.fixture
def three(tmp_path) -> List[Path]:
    texts = [conll([(2, "nsubj"), (0, "root"), (2, "obj")], [(0, "root"), (1, "obj")]),
             conll([(2, "nsubj"), (0, "root"), (2, "iobj")], [(0, "root"), (1, "obj")]),
             conll([(0, "root"), (1, "dep"), (1, "obj")], [(2, "nsubj"), (0, "root")])]
    paths = []
    for name, t in zip("abc", texts):
        p = tmp_path / f"{name}.conllu"
        p.write_text(t)
        paths.append(p)
    return paths


def test_cli_writes_gold_worklist_and_applies_decisions(three, tmp_path, capsys):
    gold, wl = tmp_path / "gold.conllu", tmp_path / "work.csv"
    assert main(["adjudicate", *map(str, three), "-o", str(gold), "--worklist", str(wl),
                 "-q"]) == 0
    assert "decided_by_tie" in capsys.readouterr().out
    rows = list(csv.DictReader(wl.open()))
    assert rows and {"unit", "word", "reason", "choose_annotator"} <= set(rows[0])
    # the curator picks annotator b for every listed word
    for r in rows:
        r["choose_annotator"] = "b"
    dec = tmp_path / "dec.csv"
    with dec.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    gold2 = tmp_path / "gold2.conllu"
    assert main(["adjudicate", *map(str, three), "-o", str(gold2), "--decisions", str(dec),
                 "-q", "--output", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["decided_by_curator"] == len({(r["unit"], r["word"]) for r in rows})
    b = read_conllu(three[1])
    out = read_conllu(gold2)
    for r in rows:
        k, w_ = int(r["unit"]) - 1, int(r["word"]) - 1
        assert int(out[k].heads[w_]) == int(b[k].heads[w_])
        assert out[k].deprels[w_] == b[k].deprels[w_]
    # reproducible: the same decisions give the same file
    gold3 = tmp_path / "gold3.conllu"
    assert main(["adjudicate", *map(str, three), "-o", str(gold3), "--decisions", str(dec),
                 "-q"]) == 0
    assert gold3.read_text() == gold2.read_text()


def test_cli_json_worklist_and_decisions(three, tmp_path, capsys):
    wl = tmp_path / "work.json"
    assert main(["adjudicate", *map(str, three), "-o", str(tmp_path / "g.conllu"),
                 "--worklist", str(wl), "-q"]) == 0
    data = json.loads(wl.read_text())
    assert data["worklist"][0]["rank"] == 1
    data["worklist"][0]["choose_head"] = 0
    data["worklist"][0]["choose_deprel"] = "root"
    (tmp_path / "dec.json").write_text(json.dumps(data))
    bad = dict(data["worklist"][0], choose_head=99)
    (tmp_path / "bad.json").write_text(json.dumps([bad]))
    capsys.readouterr()
    target = tmp_path / "g2.conllu"
    assert main(["adjudicate", *map(str, three), "-o", str(target), "--decisions",
                 str(tmp_path / "bad.json"), "-q"]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "choose_head 99" in err and "Traceback" not in err
    assert not target.exists()


def test_cli_refuses_to_overwrite_an_input_or_a_bad_suffix(three, capsys):
    assert main(["adjudicate", *map(str, three), "-o", str(three[0]), "-q"]) == 2
    assert "also an input" in capsys.readouterr().err
    assert main(["adjudicate", *map(str, three), "-o", "x.conllu", "--worklist", "w.txt",
                 "-q"]) == 2
    assert "--worklist" in capsys.readouterr().err


def test_api_result_frame_and_dict(three, tmp_path, capsys):
    res = synagree.adjudicate(three)
    d = res.to_dict()
    assert main(["adjudicate", *map(str, three), "-o", str(tmp_path / "g.conllu"), "-q",
                 "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(d))
    assert (tmp_path / "g.conllu").read_text() == res.to_conllu()
    pd = pytest.importorskip("pandas")
    frame = res.to_frame()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns[:3]) == ["annotator",
                                                                          "metric", "value"]
    assert d["units"] == 2 and d["annotator_names"] == ["a", "b", "c"]
    assert {r["metric"] for r in res.frame_rows()} >= {"alpha_plain", "LAS_full",
                                                       "decided_by_vote"}
    with pytest.raises(AttributeError):
        res.units = 3  # frozen


# --------------------------------------------------------------------------- phrase structure


@pytest.mark.slow
def test_span_set_is_the_maximum_non_crossing_set_by_exhaustive_search():
    def crossing(a, b):
        return a[0] < b[0] <= a[1] < b[1] or b[0] < a[0] <= b[1] < a[1]

    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, 7))
        w = np.triu(np.where(rng.random((n, n)) < 0.5, rng.integers(1, 5, (n, n)), 0)
                    ).astype(float)
        spans = [(i, j) for i in range(n) for j in range(i, n) if w[i, j] > 0]
        best = max(sum(w[x] for x in sub) for r in range(len(spans) + 1)
                   for sub in itertools.combinations(spans, r)
                   if not any(crossing(a, b) for a, b in itertools.combinations(sub, 2)))
        got = _best_set(n, w)
        assert not any(crossing(a, b) for a, b in itertools.combinations(got, 2))
        assert sum(w[x] for x in got) == pytest.approx(best)


def test_phrase_consensus_cli(tmp_path, capsys):
    trees = ["(S (NP D N) (VP V (NP N)))\n", "(S (NP D N) (VP V N))\n",
             "(S (D) (VP N V (NP N)))\n"]
    paths = []
    for k, t in enumerate(trees):
        p = tmp_path / f"t{k}.tree"
        p.write_text(t)
        paths.append(str(p))
    out = tmp_path / "gold.tree"
    assert main(["adjudicate", *paths, "-o", str(out), "-q", "--output", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert out.read_text() == "(S (NP D N) (VP V (NP N)))\n"
    assert d["kind"] == "phrase" and "jaccard" in d["per_annotator"][0]
    assert main(["adjudicate", *paths, "-o", str(out), "--weights", "competence", "-q"]) == 0


def test_decisions_that_make_a_cycle_are_refused(three, tmp_path, capsys):
    dec = tmp_path / "cycle.csv"
    dec.write_text("unit,word,choose_head\n1,2,3\n")  # 2 -> 3 -> 2
    target = tmp_path / "g.conllu"
    assert main(["adjudicate", *map(str, three), "-o", str(target), "--decisions", str(dec),
                 "-q"]) == 2
    err = capsys.readouterr().err
    assert "not a tree" in err and "cycle.csv" in err and not target.exists()
