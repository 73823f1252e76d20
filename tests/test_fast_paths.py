"""The speed-ups give the same answers as the plain definitions they replace.

* trees: :func:`flat_tree` (one walk + arithmetic) and the compiled batch
  :func:`dependency_trees` against two plain postorder walks, on real and
  random trees (head cycles included);
* reading: sentence blocks, comment lines, plain IDs/HEADs and head-cycle
  detection against the straightforward versions (conllu's own comment
  parser among them);
* sums: the control-variate means from tree counts against the direct
  formula over values; within-unit TEDs taken from the tiles against the
  pair kernel.
"""
from __future__ import annotations

import random

import numpy as np
import pytest
from conllu.exceptions import ParseException
from conllu.parser import parse_comment_line

from conftest import REPO_ROOT
from synagree.distance import sums
from synagree.distance import ted as _ted
from synagree.io.conllu import (
    DepSentence,
    comment_pairs,
    read_conllu,
    sentence_blocks,
    unreachable_words,
)
from synagree.io.conllu_ids import parse_head, parse_id
from synagree.stats import alpha
from synagree.trees import flat
from synagree.trees.flat import FlatTree, Vocabulary, _postorder_arrays, dependency_tree

SAMPLE = REPO_ROOT / "synagree" / "data" / "en-sample"


def _two_walks(children, labels, size) -> FlatTree:
    lab, lml, kr, cl = _postorder_arrays(children, labels, 0, reverse=False)
    rlab, rlml, rkr, cr = _postorder_arrays(children, labels, 0, reverse=True)
    return FlatTree(lab, lml, kr, rlab, rlml, rkr, int(size), cl, cr)


def _same_tree(a: FlatTree, b: FlatTree) -> None:
    for f in ("labels", "lml", "keyroots", "r_labels", "r_lml", "r_keyroots"):
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and np.array_equal(x, y), f
    assert (a.size, a.cost_left, a.cost_right) == (b.size, b.cost_left, b.cost_right)
    assert a.key() == b.key()


def _random_sentences(count: int, seed: int):
    """Random dependency sentences; about one in seven words gets a random head,
    so some sentences have head cycles (unreachable words)."""
    rng = np.random.default_rng(seed)
    out = []
    for t in range(count):
        n = int(rng.integers(1, 30))
        heads = [int(rng.integers(0, i)) if rng.random() < 0.85 else int(rng.integers(0, n + 1))
                 for i in range(1, n + 1)]
        out.append(DepSentence("<r>", t, 0, ["w"] * n, np.asarray(heads, np.int32),
                               [f"l{x}" for x in rng.integers(0, 6, n)]))
    return out


@pytest.fixture(scope="module")
def sentences():
    real = read_conllu(SAMPLE / "ann_a" / "sample.conllu") + \
        read_conllu(SAMPLE / "ann_b" / "sample.conllu")
    return real + _random_sentences(2500, 1)


def test_flat_tree_is_the_two_postorder_walks(sentences):
    vocab = Vocabulary()
    for s in sentences:
        children = [[] for _ in range(s.n_words + 1)]
        for i, h in enumerate(s.heads.tolist(), start=1):
            children[h].append(i)
        labels = [0] + [vocab.id(d) for d in s.deprels]
        _same_tree(flat.flat_tree(children, labels, s.n_words + 1),
                   _two_walks(children, labels, s.n_words + 1))


def test_batch_trees_equal_one_by_one(sentences, monkeypatch):
    v1, v2 = Vocabulary(), Vocabulary()
    one = [dependency_tree(s, v1) for s in sentences]
    monkeypatch.setattr(flat, "BATCH_MIN", 0)
    many = flat.dependency_trees(sentences, v2)
    assert v1.labels == v2.labels  # label ids assigned in the same order
    for a, b in zip(one, many):
        _same_tree(a, b)
    nested = flat.build_trees([sentences[:3], sentences[3:5]], Vocabulary())
    assert [len(g) for g in nested] == [3, 2]


def _blocks_reference(text):
    blocks, cur = [], []
    for no, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if line.strip() == "":
            if cur:
                blocks.append((cur[0][0], cur))
                cur = []
        else:
            cur.append((no, line))
    if cur:
        blocks.append((cur[0][0], cur))
    return blocks


def test_sentence_blocks_match_the_line_split():
    rng = random.Random(0)
    parts = ["a", "b c", "", " ", "\t", "\r", "\u3000", "\u2028", "\x1c", "#x", "\x85"]
    for _ in range(5000):
        text = "\n".join("".join(rng.choice(parts) for _ in range(rng.randint(0, 3)))
                         for _ in range(rng.randint(0, 8)))
        assert list(sentence_blocks(text)) == _blocks_reference(text), repr(text)


@pytest.mark.parametrize("line", [
    "# sent_id = a", "#sent_id=b", "# text = x = y", "# newdoc", "# newpar id = 3", "#",
    "# =", "# = v", "# k =", "#  k  =  v  ", "# newdoc id", "# free form comment",
    "#\tk\t=\tv", "# k = v \u3000", "# \u3000k = v"])
def test_comment_lines_as_conllu_reads_them(line):
    try:
        ref = parse_comment_line(line)
    except ParseException:
        ref = []
    assert comment_pairs(line) == ref


def test_random_comment_lines_as_conllu_reads_them():
    """The CoNLL 2018 reader's both paths read comments by `comment_pairs` (issue 36:
    no conllu import at run time); conllu's own reading is the oracle."""
    rng = random.Random(36)
    parts = ["#", " ", "\t", "=", "k", "sent_id", "text", "newdoc", "newpar", "id", "v w",
             "\u3000", "\x1c", "\x85", "é", "==", "# "]
    for _ in range(20000):
        line = "#" + "".join(rng.choice(parts) for _ in range(rng.randint(0, 7)))
        try:
            ref = parse_comment_line(line)
        except ParseException:
            ref = []
        assert comment_pairs(line) == ref, repr(line)


def _unreachable_reference(heads):
    n = len(heads)
    children = [[] for _ in range(n + 1)]
    for i, h in enumerate(heads, start=1):
        if 0 <= h <= n:
            children[h].append(i)
    seen = [False] * (n + 1)
    seen[0] = True
    stack = [0]
    while stack:
        for c in children[stack.pop()]:
            if not seen[c]:
                seen[c] = True
                stack.append(c)
    return [i for i in range(1, n + 1) if not seen[i]]


def test_head_cycles_found_walking_up_match_walking_down():
    rng = np.random.default_rng(2)
    for t in range(5000):
        n = int(rng.integers(1, 15))
        heads = (rng.integers(-1, n + 2, n) if t % 3 == 0
                 else rng.integers(0, n + 1, n))
        assert unreachable_words(heads) == _unreachable_reference(heads.tolist())


@pytest.mark.parametrize("text", ["0", "1", "7", "10", "4095", "4096", "12345", "01", "00",
                                  "-1", "+1", "1.0", "\u0661", "\u00b2", " 1", "1 ", ""])
def test_plain_numbers_read_as_the_regex_reads_them(text):
    from synagree.io import conllu as reader
    from synagree.io.conllu_ids import _HEAD_RE, _ID_RE, ConlluId

    m = _ID_RE.fullmatch(text)
    if m is not None and m.group(1) is not None:
        assert parse_id(text) == ConlluId(int(text))
    elif m is None:
        assert parse_id(text) is None
    h = parse_head(text)
    assert h == (int(text) if _HEAD_RE.fullmatch(text) else None)
    fast = reader._NUMBER_OF.get(text)
    assert fast is None or fast == h


def test_control_variate_means_from_tree_counts():
    rng = np.random.default_rng(3)
    hist = rng.integers(0, 4, (30, 7)).astype(float)
    value_tree = rng.integers(0, 30, 200)
    s = rng.integers(2, 40, 200).astype(float)
    got = sums._cv_means(s, hist, value_tree)
    # direct: every value's histogram, the formula over values
    h = hist[value_tree]
    n = s.shape[0]
    H1 = h.sum(axis=0)
    direct_h = (2 * n * (h * h).sum() - 2 * (H1 * H1).sum()) / (n * (n - 1))
    assert got[5] == direct_h


def test_within_unit_teds_from_the_tiles_equal_the_pair_kernel(sentences):
    vocab = Vocabulary()
    trees = [dependency_tree(s, vocab) for s in sentences[:120]]
    units = [trees[k:k + m] for k, m in zip(range(0, 120, 3), [2, 3, 1, 2] * 10)]
    units = [u for u in units if len(u) >= 2]
    ut = sums.UnitTrees.build(units)
    s = sums.unit_sums(ut, tile=7)  # several tiles, diagonal and not
    assert s.within is not None
    from_tiles = alpha._unit_teds(ut, None, s.within)
    direct = alpha._unit_teds(ut, None, None)
    for a, b in zip(from_tiles, direct):
        assert np.array_equal(a, b)
    for (tm, ids) in zip(direct, ut.which):
        for i in range(len(ids)):
            for j in range(len(ids)):
                want = 0.0 if ids[i] == ids[j] else _ted.ted(ut.pack.trees[ids[i]],
                                                             ut.pack.trees[ids[j]])
                assert tm[i, j] == want


# --------------------------------------------------------------------------
# Word scores and D_o of units of two annotations, all at once
# --------------------------------------------------------------------------

def _edited(sent: DepSentence, rng) -> DepSentence:
    """A copy with a random head, label and (sometimes) a form or a word changed."""
    from dataclasses import replace

    heads = sent.heads.copy()
    rels = list(sent.deprels)
    forms = list(sent.forms)
    k = int(rng.integers(0, sent.n_words))
    if rng.random() < 0.5:
        rels[k] = ["nsubj:pass", "obj", "SUBJ", "obl:tmod", "dep"][int(rng.integers(5))]
    if rng.random() < 0.3:
        heads[k] = 0
    if rng.random() < 0.1:
        forms[k] = forms[k] + "x"  # an edited unit: not the same words
    if rng.random() < 0.05 and sent.n_words > 1:  # a word fewer
        return DepSentence.from_heads([h if h < sent.n_words else 0 for h in heads[:-1]],
                                      rels[:-1], forms[:-1])
    return replace(sent, heads=heads, deprels=rels, forms=forms)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_word_scores_of_pairs_equal_the_per_unit_credits(seed):
    from synagree.stats import attachment

    rng = np.random.default_rng(seed)
    sents = read_conllu(SAMPLE / "ann_a" / "sample.conllu") + _random_sentences(60, seed)
    units = []
    for s in sents:
        m = int(rng.choice([1, 2, 2, 2, 3]))
        units.append([s] + [_edited(s, rng) for _ in range(m - 1)])
    for metrics in (None, attachment.full_label_metrics(), ("UAS",)):
        got = attachment.attachment_scores(units, metrics)
        # the plain definition: unit_word_credits unit by unit, in order
        want = {m: 0.0 for m in got.correct}
        ignored = 0
        for anns in units:
            if len(anns) < 2:
                continue
            try:
                c = attachment.unit_word_credits(anns, list(got.correct))
            except ValueError:
                ignored += 1
                continue
            for m in want:
                want[m] += c[m]
        assert got.correct == want and got.ignored == ignored
        assert 0 < got.ignored < len(units)


def test_within_unit_sums_of_pairs_equal_the_matrix_sums():
    units = []
    vocab = Vocabulary()
    rng = np.random.default_rng(5)
    sents = _random_sentences(80, 9)
    for s in sents:
        m = int(rng.choice([2, 2, 3, 4]))
        units.append([dependency_tree(s, vocab)]
                     + [dependency_tree(_edited(s, rng), vocab) for _ in range(m - 1)])
    ut = sums.UnitTrees.build(units)
    teds = alpha._unit_teds(ut, None, None)
    got = alpha._within_sums(ut, teds)
    for k, (ids, tm) in enumerate(zip(ut.which, teds)):  # the plain definition
        s = ut.pack.sizes[ids]
        for vi, v in enumerate(sums.VARIANTS):
            assert got[k, vi] == sums.delta_squared(tm, s[:, None], s[None, :], v).sum()
