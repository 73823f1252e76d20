"""``--where``: α over the arcs a query selects (docs/method.md §27).

The restricted trees are rebuilt here independently (each word kept when it
matches or lies above a matching word, from the heads alone), their TEDs
computed with zss and α by the textbook double loop; synagree must give the
same α, D_o and D_e for every variant.
"""
from __future__ import annotations

import json
import random
from typing import Callable, List, Sequence

import pytest
from zss import Node

from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus
from synagree.trees.query import parse_query

UPOS = {"nsubj": "PRON", "obj": "NOUN", "obl": "NOUN", "nmod": "NOUN", "case": "ADP",
        "det": "DET", "conj": "NOUN", "cc": "CCONJ", "amod": "ADJ", "root": "VERB",
        "obl:tmod": "NOUN", "punct": "PUNCT"}


def pruned(heads: Sequence[int], rels: Sequence[str], upos: Sequence[str],
           match: Callable[[int], bool]):
    """The zss tree of the words that match or lie above a matching word, and |t|."""
    n = len(heads)

    def reachable(w):
        seen = set()
        while w != 0:
            if w in seen:
                return False
            seen.add(w)
            w = heads[w - 1]
        return True

    keep = set()
    for w in range(1, n + 1):
        if reachable(w) and match(w):
            x = w
            while x != 0:
                keep.add(x)
                x = heads[x - 1]
    nodes = {0: Node("")}
    for w in sorted(keep):
        nodes[w] = Node(rels[w - 1] if match(w) else "*")
    for w in sorted(keep):
        nodes[heads[w - 1]].addkid(nodes[w])
    return nodes[0], len(keep) + 1


def matcher(query: str, heads, rels, upos) -> Callable[[int], bool]:
    """An independent reading of the query language of docs/method.md §27."""
    terms = []
    for part in query.split(","):
        neg = "!=" in part
        field, _, value = part.partition("!=" if neg else "=")
        terms.append((field.strip(), set(value.strip().split("|")), neg))

    def value(field: str, w: int):
        if field.startswith("head."):
            h = heads[w - 1]
            if h == 0:
                return None
            w, field = h, field[5:]
        return {"deprel": rels, "upos": upos}[field][w - 1]

    def ok(w: int) -> bool:
        for field, vals, neg in terms:
            v = value(field, w)
            if v is None:
                return False
            hit = v in vals or (field.endswith("deprel") and v.split(":")[0] in vals)
            if hit == neg:
                return False
        return True
    return ok


def random_tree(rng: random.Random):
    n = rng.randint(2, 9)
    heads = [0] + [rng.randint(1, i) for i in range(1, n)]
    rels = ["root"] + rng.choices(list(UPOS)[:-1], k=n - 1)
    return heads, rels


def corpus_of(seed: int, units: int = 18):
    rng = random.Random(seed)
    a: List[DepSentence] = []
    b: List[DepSentence] = []
    for _ in range(units):
        heads, rels = random_tree(rng)
        h2, r2 = list(heads), list(rels)
        for i in range(1, len(h2)):
            if rng.random() < 0.25:
                r2[i] = rng.choice(list(UPOS)[:-1])
            if rng.random() < 0.15:
                h2[i] = rng.randint(1, i)  # an earlier word: still a tree
        for hs, rs, out in ((heads, rels, a), (h2, r2, b)):
            out.append(DepSentence.from_heads(hs, rs, upos=[UPOS[r] for r in rels]))
    return Corpus.from_annotations({"a": a, "b": b})


QUERIES = ["deprel=conj", "upos=ADP", "head.upos=VERB", "deprel=obl|nmod,head.upos=NOUN",
           "deprel!=det", "deprel=obl"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_where_alpha_equals_zss_by_the_definition(seed, h):
    corpus = corpus_of(seed)
    res = agree_corpus(corpus, where=QUERIES)
    for q, row in zip(QUERIES, res.where.rows):
        units = []
        for u in corpus.units:
            sents = u.ordered(corpus.annotators)
            ms = [matcher(q, s.heads.tolist(), s.deprels, s.upos) for s in sents]
            if not any(m(w) for s, m in zip(sents, ms) for w in range(1, s.n_words + 1)):
                continue
            units.append([pruned(s.heads.tolist(), s.deprels, s.upos, m)
                          for s, m in zip(sents, ms)])
        assert row.units == len(units) and row.query == parse_query(q).text()
        cache: dict = {}
        for v in ("plain", "diff", "norm"):
            def d2(x, y, v=v):
                key = (id(x[0]), id(y[0]))
                if key not in cache:
                    cache[key] = h.zss_unit_distance(x[0], y[0])
                t = cache[key]
                return {"plain": t, "diff": t - abs(x[1] - y[1]),
                        "norm": t / (x[1] + y[1])}[v] ** 2
            alpha, do, de = h.textbook_alpha(units, d2)
            st = row.stats[v]
            assert st.d_o == pytest.approx(do, abs=1e-12), (q, v)
            assert st.d_e == pytest.approx(de, abs=1e-12), (q, v)
            assert (st.alpha is None) == (alpha is None)
            if alpha is not None:
                assert st.alpha == pytest.approx(alpha, abs=1e-12)


def test_the_query_language():
    s = DepSentence.from_heads([2, 0, 4, 2, 2], "nsubj root case obl:tmod punct",
                               upos=["PRON", "VERB", "ADP", "NOUN", "PUNCT"])
    m = lambda q: parse_query(q).matches(s).tolist()  # noqa: E731
    assert m("deprel=obl") == [False, False, False, True, False]  # subtypes match
    assert m("deprel=obl:tmod") == m("deprel=obl")
    assert m("deprel=obl:agent") == [False] * 5
    assert m("head.upos=VERB") == [True, False, False, True, True]
    assert m("head.upos!=VERB") == [False, False, True, False, False]  # root: no head word
    assert m("upos=ADP|PRON,head.deprel!=root") == [False, False, True, False, False]
    for bad in ("", "deprel", "lemma=be", "deprel=", "deprel=a b", "deprel=conj,,upos=X",
                "upos=|ADP"):
        with pytest.raises(ValueError):
            parse_query(bad)


def test_units_without_a_match_take_no_part_and_nothing_is_undefined():
    s = DepSentence.from_heads
    corpus = Corpus.from_annotations({"a": [s([0, 1], "root obj"), s([0, 1], "root obl")],
                                      "b": [s([0, 1], "root obj"), s([0, 1], "root obj")]})
    res = agree_corpus(corpus, where=["deprel=obl", "deprel=xcomp"])
    obl, none = res.where.rows
    assert (obl.units, obl.matches) == (1, {"a": 1, "b": 0})
    assert obl.stats["plain"].alpha == 0.0  # one unit: α = 0 by construction, noted
    assert (none.units, none.stats) == (0, {})
    assert any("matches no word" in n for n in none.notes)


@pytest.mark.slow
def test_where_on_the_shared_data_equals_zss(iaa, h):
    files = [iaa / "cdt" / "da-lotte.conll", iaa / "cdt" / "da-morten.conll"]
    corpus = load_corpus(files)
    queries = ["deprel=coord", "upos=SP,head.upos=VA"]
    res = agree_corpus(corpus, ["plain", "norm"], where=queries)
    for q, row in zip(queries, res.where.rows):
        units, cache = [], {}
        for u in corpus.units:
            sents = u.ordered(corpus.annotators)
            ms = [matcher(q, s.heads.tolist(), s.deprels, s.upos) for s in sents]
            if not any(m(w) for s, m in zip(sents, ms) for w in range(1, s.n_words + 1)):
                continue
            units.append([pruned(s.heads.tolist(), s.deprels, s.upos, m)
                          for s, m in zip(sents, ms)])
        for v in ("plain", "norm"):
            def d2(x, y, v=v):
                key = (id(x[0]), id(y[0]))
                if key not in cache:
                    cache[key] = h.zss_unit_distance(x[0], y[0])
                t = cache[key]
                return (t if v == "plain" else t / (x[1] + y[1])) ** 2
            alpha, do, de = h.textbook_alpha(units, d2)
            assert row.stats[v].alpha == pytest.approx(alpha, abs=1e-10), (q, v)
            assert row.stats[v].d_e == pytest.approx(de, rel=1e-12)


@pytest.mark.slow
def test_cli_rows_breakdown_and_errors(run_cli, repo_root, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    d = repo_root / "tests" / "data" / "questions"
    a, b = d / "anna.conllu", d / "ben.conllu"
    rc, out, err = run_cli("agree", a, b, "--where", "deprel=conj", "--where", "upos=ADP",
                           "--output", "json")
    assert rc == 0, err
    rows = json.loads(out)["details"]["where"]["rows"]
    assert [r["query"] for r in rows] == ["deprel=conj", "upos=ADP"]
    assert all(set(r["counts"]) == {"alpha_plain", "alpha_diff", "alpha_norm"} for r in rows)
    rc, out, _ = run_cli("agree", a, b, "--where", "deprel=conj", "--breakdown", "--output",
                         "csv")
    assert rc == 0 and out.splitlines()[0] == "section,bin,bin2,quantity,value"
    assert any(line.startswith("where,1,,alpha_plain,") for line in out.splitlines())
    rc, out, _ = run_cli("agree", a, b, "--where", "deprel=conj", "--breakdown")
    assert rc == 0 and "Labels (words" in out and "Alpha over each query" in out
    rc, _, err = run_cli("agree", a, b, "--where", "lemma=be")
    assert rc == 2 and "(bad-where)" in err and "unknown field 'lemma'" in err
    q = repo_root / "tests" / "data" / "qa"
    rc, _, err = run_cli("agree", q / "phrase-a.tree", q / "phrase-b.tree", "--where",
                         "deprel=conj")
    assert rc == 2 and "(usage)" in err


def test_each_value_of_a_field_is_a_row():
    """``deprel=*`` (with other terms) gives the rows of the explicit queries, in order of
    frequency among the words where the other terms hold."""
    corpus = corpus_of(4)
    star = agree_corpus(corpus, ["plain"], where=["deprel=*,head.upos!=CCONJ"]).where
    names = [r.query for r in star.rows]
    words = [r for u in corpus.units for s in u.ordered(corpus.annotators)
             for r, m in zip(s.deprels, parse_query("head.upos!=CCONJ").matches(s)) if m]
    counts = {x: sum(w.split(":")[0] == x for w in words) for x in {w.split(":")[0]
                                                                     for w in words}}
    assert names == [f"deprel={x},head.upos!=CCONJ"
                     for x in sorted(counts, key=lambda x: (-counts[x], x))]
    explicit = agree_corpus(corpus, ["plain"], where=names).where
    for a, b in zip(star.rows, explicit.rows):
        assert (a.units, a.matches, a.stats["plain"].do_sum, a.stats["plain"].de_sum) == (
            b.units, b.matches, b.stats["plain"].do_sum, b.stats["plain"].de_sum)
    for bad in ("deprel=*|obl", "deprel!=*", "deprel=*,upos=*"):
        with pytest.raises(ValueError):
            parse_query(bad)
