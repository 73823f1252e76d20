"""TED 0 for different analyses (counted always) and --label-direction.

Fixture tests/data/extras, sentence s1 "very old dogs": a attaches very → old
→ dogs, b attaches very → dogs and old → very.  With the labels mod, mod,
root both are ε(root(mod(mod))): TED 0 although words 1 and 2 have other
heads.  With head directions a is ε(root(mod>(mod>))) and b
ε(root(mod>(mod<))): TED 1.

α with directions (all |t| = 4, the variants coincide).  Trees
A1 = ε(root(mod>(mod>))), B1 = ε(root(mod>(mod<))),
A2 = ε(root(nsubj>, obj<)), B2 = ε(root(obj>, obj<)),
A3 = ε(root(obj<, obl<)), B3 = ε(root(obj<(nmod<))); TED within units 1, 1, 2;
across units A1/B1–A2, –B2, –A3: 3 each, A1/B1–B3: 2, A2–A3 2, A2–B3 2,
B2–A3 2, B2–B3 2.  Σ TED² over unordered pairs = 1 + 2·31 + 1 + 4·4 + 4 = 84:
D_e = 168/30, D_o = (2 + 2 + 8)/6 = 2, α = 1 − 2·30/168 = 9/14.
"""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from synagree.agreement import caveats
from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.distance.ted import ted
from synagree.io.conllu import DepSentence
from synagree.stats.alpha import VARIANTS
from synagree.trees.flat import Vocabulary, dependency_tree

DATA = Path(__file__).resolve().parent / "data"
EXTRAS = DATA / "extras"
FILES = [EXTRAS / "a.conllu", EXTRAS / "b.conllu"]

# measured on the shared data (docs/agreement-extras.md); recounted independently below
PAIRS = {
    "NDT caterpillar": ("ndt/odin-caterpillar.conll", "ndt/thor-caterpillar.conll"),
    "NDT da": ("ndt/odin-danish.conll", "ndt/thor-danish.conll"),
    "NDT sv": ("ndt/odin-swedish.conll", "ndt/thor-swedish.conll"),
    "NDT no": ("ndt/odin-norwegian.conll", "ndt/thor-norwegian.conll"),
    "CDT da": ("cdt/da-lotte.conll", "cdt/da-morten.conll"),
    "CDT en": ("cdt/en-lotte.conll", "cdt/en-morten.conll"),
}
# corpus: (ted_zero_pairs, ted_zero_different_heads, alpha_plain_direction)
MEASURED = {
    "NDT caterpillar": (9, 0, 0.997681089),
    "NDT da": (82, 0, 0.982958642),
    "NDT sv": (72, 1, 0.988466673),
    "NDT no": (93, 0, 0.979096190),
    "CDT da": (52, 0, 0.957879031),
    "CDT en": (99, 0, 0.924212328),
}


def _sent(heads, labels=None):
    n = len(heads)
    return DepSentence("-", 0, 1, [f"w{i + 1}" for i in range(n)], np.array(heads),
                       labels or ["d"] * n)


def test_chain_example():
    v = Vocabulary()
    a = _sent([2, 3, 0], ["dep", "dep", "root"])
    b = _sent([3, 1, 0], ["dep", "dep", "root"])
    assert ted(dependency_tree(a, v), dependency_tree(b, v)) == 0.0
    assert ted(caveats.direction_tree(a, v), caveats.direction_tree(b, v)) == 1.0
    assert caveats.direction_label("x", 3, 1).endswith("<")
    assert caveats.direction_label("x", 1, 3).endswith(">")
    assert caveats.direction_label("x", 2, 0) == "x"


def test_fixture_counts_note_and_direction_alpha(run_cli):
    res = agree_corpus(load_corpus(FILES), direction=True)
    assert res.metrics()["ted_zero_pairs"] == 1
    assert res.metrics()["ted_zero_different_heads"] == 1
    ex = res.ted_zero.details()["examples"]
    assert ex == [{"uid": "s1", "sent_id": "s1", "a": "a", "b": "b", "words": [1, 2]}]
    assert any("TED 0 but different heads" in n for n in res.notes)
    m = res.metrics()
    for v in VARIANTS:
        assert m[f"alpha_{v}_direction"] == pytest.approx(9 / 14, abs=1e-14)
        assert res.alpha[v].alpha == pytest.approx(11 / 16, abs=1e-14)  # default unchanged
    assert m["ted_zero_different_heads_direction"] == 0
    c = res.direction.details()["counts"]["alpha_plain_direction"]
    assert (c["do_sum"], c["de_sum"]) == (12.0, 168.0)

    rc, out, err = run_cli("agree", *FILES, "--output", "json")
    d = json.loads(out)
    assert d["ted_zero_different_heads"] == 1 and d["ted_zero_pairs"] == 1
    assert "alpha_plain_direction" not in d
    rc, out, err = run_cli("agree", *FILES, "--label-direction")
    assert rc == 0, err
    rows = dict(ln.split(None, 1) for ln in out.splitlines()
                if ln and not ln.startswith("note:") and len(ln.split(None, 1)) == 2)
    assert rows["alpha_plain_direction"].strip() == f"{9 / 14:.6f}"
    assert rows["ted_zero_different_heads"].strip() == "1"
    assert rows["ted_zero_different_heads_direction"].strip() == "0"
    assert "note: 1 annotator pair(s) of a sentence have TED 0 but different heads" in out


def test_unlabelled_direction_runs(run_cli):
    rc, out, err = run_cli("agree", *FILES, "--label-direction", "--unlabelled",
                           "--output", "json")
    d = json.loads(out)
    # labels are only the directions: s1 chains ε(x(x>(x>))) / ε(x(x>(x<))), TED 1
    assert d["alpha_plain_unlabelled_direction"] == pytest.approx(24 / 49, abs=1e-12)
    assert "alpha_norm_unlabelled_direction" in d["details"]["direction"]["counts"]


def _trees(n):
    for heads in itertools.product(range(n + 1), repeat=n):
        if heads.count(0) != 1 or any(heads[i] == i + 1 for i in range(n)):
            continue
        ok = True
        for w in range(1, n + 1):
            seen, x = set(), w
            while x != 0 and x not in seen:
                seen.add(x)
                x = heads[x - 1]
            ok &= x == 0
        if ok:
            yield heads


def _projective(heads):
    for d in range(1, len(heads) + 1):
        h = heads[d - 1]
        for k in range(min(h, d) + 1, max(h, d)):
            x = k
            while x not in (0, h):
                x = heads[x - 1]
            if x != h:
                return False
    return True


@pytest.mark.parametrize("n", [3, 4, 5])
def test_direction_separates_projective_trees(n):
    """Every tree of n words (equal labels): plain trees collide a lot; with head
    directions no two *projective* trees collide, non-projective ones still can."""
    v = Vocabulary()
    plain, direc = {}, {}
    for heads in _trees(n):
        s = _sent(list(heads))
        plain.setdefault(dependency_tree(s, v).key(), []).append(heads)
        direc.setdefault(caveats.direction_tree(s, v).key(), []).append(heads)
    assert any(len(g) > 1 for g in plain.values())
    for group in direc.values():
        assert sum(map(_projective, group)) <= 1, group
    if n == 3:  # 1 → 3 → 2 (projective) and 2 → 3 → 1 (non-projective): same tree
        assert any(set(g) == {(0, 3, 1), (3, 0, 2)} for g in direc.values())


def _zss_key(h, heads, labels):
    return h.zss_shape(h.zss_dep_tree(heads, labels))


def _direction_labels(heads, labels):
    return [lab if hd == 0 else lab + ("<" if hd < i else ">")
            for i, (hd, lab) in enumerate(zip(heads, labels), start=1)]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PAIRS))
def test_shared_data_counts_recounted(iaa, h, name):
    """Recounted from the raw columns: identical zss trees (TED 0) with other heads."""
    files = [iaa / f for f in PAIRS[name]]
    res = agree_corpus(load_corpus(files), direction=True)
    zero = differ = differ_dir = 0
    for sa, sb in zip(*(h.raw_conll(f) for f in files)):
        (ha, la), (hb, lb) = h.heads_labels(sa), h.heads_labels(sb)
        if _zss_key(h, ha, la) == _zss_key(h, hb, lb) and len(ha) == len(hb):
            zero += 1
            differ += ha != hb
        if (_zss_key(h, ha, _direction_labels(ha, la)) == _zss_key(h, hb, _direction_labels(hb, lb))
                and ha != hb):
            differ_dir += 1
    want_zero, want_differ, want_alpha = MEASURED[name]
    m = res.metrics()
    assert (m["ted_zero_pairs"], m["ted_zero_different_heads"]) \
        == (zero, differ) == (want_zero, want_differ)
    assert m["ted_zero_different_heads_direction"] == differ_dir == 0
    assert m["alpha_plain_direction"] == pytest.approx(want_alpha, abs=1e-9)


@pytest.mark.slow
def test_direction_alpha_against_zss(iaa, h):
    """NDT caterpillar: α over direction-labelled trees, recomputed with zss."""
    files = [iaa / "ndt" / f"{a}-caterpillar.conll" for a in ("odin", "thor")]
    res = agree_corpus(load_corpus(files))
    ta = caveats.direction_alpha(res)
    units = []
    for sa, sb in zip(*(h.raw_conll(f) for f in files)):
        unit = []
        for s in (sa, sb):
            hd, lab = h.heads_labels(s)
            unit.append((h.zss_dep_tree(hd, _direction_labels(hd, lab)), len(hd) + 1))
        units.append(unit)

    def d2(variant):
        def f(a, b):
            t = h.zss_unit_distance(a[0], b[0])
            d = {"plain": t, "diff": t - abs(a[1] - b[1]), "norm": t / (a[1] + b[1])}[variant]
            return d * d
        return f

    for v in VARIANTS:
        assert ta.alpha(v) == pytest.approx(h.textbook_alpha(units, d2(v))[0], abs=1e-9)


def test_phrase_structure(run_cli):
    files = [DATA / "qa" / "phrase-a.tree", DATA / "qa" / "phrase-b.tree"]
    rc, out, err = run_cli("agree", *files, "--label-direction", "--output", "json")
    assert rc == 0, err
    d = json.loads(out)
    assert "ted_zero_pairs" not in d and "alpha_plain_direction" not in d
    assert any("dependency trees only" in n for n in d["notes"])

