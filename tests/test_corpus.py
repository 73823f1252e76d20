"""Corpus assembly (docs/method.md §1): annotator directories with missing annotations,
sent_id matching, and phrase-structure input — all checked against values
worked out by hand in the comments."""
from __future__ import annotations

import json
import shutil
from fractions import Fraction

import pytest
from zss import Node

import synagree
from synagree.base.problems import InputError
from synagree.io.brackets import read_brackets
from synagree.io.formats import sniff_format
from synagree.stats.attachment import brackets

# --------------------------------------------------------------------------
# Annotator directories (tests/data/core/dirs)
# --------------------------------------------------------------------------
#
#   anna/doc1-anna.conllu  bob/doc1-bob.conllu  carl/doc1-carl.conllu   (PREFIX-ANNOTATOR)
#   anna/doc2.conllu       bob/doc2.conllu      (carl lacks doc2)       (identical names)
#   anna/doc3-anna.conllu  (only anna: a unit with one annotation, not pairable)
#
# Trees (ε = artificial root, |t| = words + 1):
#   T1 = ε(r(x))  word 1 → 2 "x", word 2 → 0 "r"     |t| = 3
#   T1' = ε(r(x)) word 1 → 0 "r", word 2 → 1 "x"     same labelled tree as T1
#   T2 = ε(r(y))                                      |t| = 3
#   T3 = ε(r)                                         |t| = 2
#   T4 = ε(s)                                         |t| = 2
#
#   doc1 s1: anna T1, bob T1, carl T2
#   doc1 s2: anna T3, bob T4, carl T3
#   doc2 s1: anna T1, bob T1'
#   doc3 s1: anna T3 only
#
# TED: T1–T2 1 (rename), T1–T3 1 (delete x), T1–T4 2, T2–T3 1, T2–T4 2,
#      T3–T4 1 (rename).  n = 8 pairable values: T1 ×4, T2 ×1, T3 ×2, T4 ×1.
#
# plain: D_o·n = (0+1+0+1+1+1)/2 + (1+0+1+1+0+1)/2 + 0 = 4 → D_o = 1/2
#        Σ_{ordered} δ² = 2·(4·1·1 + 4·2·1 + 4·1·4 + 1·2·1 + 1·1·4 + 2·1·1) = 72
#        D_e = 72/56 = 9/7 → α = 1 − (1/2)/(9/7) = 11/18
# diff:  δ = TED − ||x|−|y||: T1–T2 1, T1–T3 0, T1–T4 1, T2–T3 0, T2–T4 1, T3–T4 1
#        D_o = 1/2 (the same within-unit pairs), Σ δ² = 2·(4 + 0 + 4 + 0 + 1 + 2) = 22
#        D_e = 22/56 → α = 1 − 28/22 = −3/11
# norm:  δ = TED/(|x|+|y|): T1–T2 1/6, T1–T3 1/5, T1–T4 2/5, T2–T3 1/5, T2–T4 2/5, T3–T4 1/4
#        D_o·n = 4·(1/36)/2 + 4·(1/16)/2 = 13/72
#        Σ δ² = 2·(4/36 + 8/25 + 16/25 + 2/25 + 4/25 + 2/16) = 517/180
#
# LAS/UAS/LA (mean over annotator pairs per unit, weighted by words):
#   doc1 s1 (2 words): anna–bob 2/2/2, anna–carl 1/2/1, bob–carl 1/2/1 → 4/3, 2, 4/3
#   doc1 s2 (1 word):  anna–bob 0/1/0, anna–carl 1/1/1, bob–carl 0/1/0 → 1/3, 1, 1/3
#   doc2 s1 (2 words): heads 2,0 vs 0,1 and labels x,r vs r,x → 0, 0, 0
#   words = 5: LAS = (5/3)/5 = 1/3, UAS = 3/5, LA = 1/3

DIRS_EXPECTED = {
    "alpha_plain": Fraction(11, 18),
    "alpha_diff": Fraction(-3, 11),
    "alpha_norm": 1 - (Fraction(13, 72) / 8) / (Fraction(517, 180) / 56),
    "LAS_full": Fraction(1, 3), "UAS": Fraction(3, 5), "LA": Fraction(1, 3),
}


@pytest.fixture(scope="module")
def dirs(core_data):
    base = core_data / "dirs"
    return [base / "anna", base / "bob", base / "carl"]


def _values(res):
    d = {f"alpha_{v}": res.alpha_value(v) for v in ("plain", "diff", "norm")}
    d.update({m: res.scores.ratio(m) for m in ("LAS_full", "UAS", "LA")})
    return d


def test_dirs_hand_checked(dirs):
    res = synagree.agree(dirs=dirs, allow_missing=True)
    assert res.annotators == ["anna", "bob", "carl"]
    assert res.units_total == 4
    assert res.units == 3
    assert res.annotations == 8
    assert res.scores.ignored == 0
    for k, want in DIRS_EXPECTED.items():
        assert _values(res)[k] == pytest.approx(float(want), abs=1e-12), k


def test_dirs_units_and_documents(dirs):
    corpus = synagree.load_corpus(dirs=dirs, allow_missing=True)
    docs = sorted({u.document for u in corpus.units})
    assert docs == ["doc1", "doc2", "doc3"]  # annotator suffix stripped
    by_doc = {}
    for u in corpus.units:
        by_doc.setdefault(u.document, []).append(sorted(u.annotations))
    assert by_doc["doc1"] == [["anna", "bob", "carl"]] * 2
    assert by_doc["doc2"] == [["anna", "bob"]]
    assert by_doc["doc3"] == [["anna"]]
    assert sorted(corpus.files["carl"]) == [str(dirs[2] / "doc1-carl.conllu")]


def test_dirs_cli_json(dirs, run_cli):
    rc, out, err = run_cli("agree", "--dirs", *dirs, "--allow-missing", "--output", "json")
    assert rc == 0, err
    data = json.loads(out)
    for k, want in DIRS_EXPECTED.items():
        assert data[k] == pytest.approx(float(want), abs=1e-12), k
    assert data["units"] == 3 and data["annotations"] == 8 and data["annotators"] == 3


def test_dirs_order_of_directories_irrelevant(dirs):
    a = _values(synagree.agree(dirs=dirs, allow_missing=True))
    b = _values(synagree.agree(dirs=list(reversed(dirs)), allow_missing=True))
    for k in a:
        assert a[k] == pytest.approx(b[k], abs=1e-12)


def test_two_dirs_subset(dirs):
    """anna and bob only: doc1 s1 T1/T1, s2 T3/T4, doc2 T1/T1'.

    values T1,T1,T3,T4,T1,T1 (n = 6); D_o·n = 2·1²/1 = 2 → D_o = 1/3.
    Σ δ² (ordered) = 2·(T1×T3: 4·1·1 + T1×T4: 4·1·4 + T3×T4: 1) = 42, D_e = 42/30 = 7/5
    → α_plain = 1 − (1/3)/(7/5) = 16/21.  LAS: (2 + 0 + 0)/5 = 2/5.
    """
    res = synagree.agree(dirs=dirs[:2], allow_missing=True)
    assert res.units == 3 and res.annotations == 6
    assert res.alpha_value("plain") == pytest.approx(16 / 21, abs=1e-12)
    assert res.scores.ratio("LAS_full") == pytest.approx(2 / 5, abs=1e-12)


def test_dirs_too_few_and_not_a_directory(dirs, tmp_path):
    with pytest.raises(InputError) as ei:
        synagree.agree(dirs=dirs[:1])
    assert ei.value.errors[0].kind == "too-few-inputs"
    with pytest.raises(InputError) as ei:
        synagree.agree(dirs=[dirs[0], tmp_path / "nope"])
    assert ei.value.errors[0].kind == "not-a-directory"
    assert str(tmp_path / "nope") in str(ei.value)


# --------------------------------------------------------------------------
# Files per annotator, matched by position or by sent_id
# --------------------------------------------------------------------------

# Three sentences, two annotators.
#   s1: a = ε(root(obj)),            b = ε(root(obj))            (identical)
#   s2: a = ε(root(nsubj, obj)),     b = ε(root(nsubj, iobj))    TED 1, LAS 2/3 words
#   s3: a = ε(root),                 b = ε(root)
S_A = {"s1": [(0, "root"), (1, "obj")], "s2": [(2, "nsubj"), (0, "root"), (2, "obj")],
       "s3": [(0, "root")]}
S_B = {"s1": [(0, "root"), (1, "obj")], "s2": [(2, "nsubj"), (0, "root"), (2, "iobj")],
       "s3": [(0, "root")]}


def _file(write, h, name, table, order):
    return write(name, h.conll_text([table[s] for s in order],
                                    [{"sent_id": s} for s in order]))


def test_sent_id_order_does_not_matter(write, h):
    """LAS by hand: (2 + 2 + 1 correct of 2 + 3 + 1 words) = 5/6."""
    a = _file(write, h, "a.conllu", S_A, ["s1", "s2", "s3"])
    b_ord = _file(write, h, "b.conllu", S_B, ["s1", "s2", "s3"])
    b_shuf = _file(write, h, "b-shuffled.conllu", S_B, ["s3", "s1", "s2"])
    r1 = synagree.agree([a, b_ord])
    r2 = synagree.agree([a, b_shuf], names=["a", "b"])
    assert r1.scores.ratio("LAS_full") == pytest.approx(5 / 6)
    for k, v in _values(r1).items():
        assert _values(r2)[k] == pytest.approx(v, abs=1e-12), k
    assert [u.uid for u in r2.corpus.units] == ["s1", "s2", "s3"]
    # by position the shuffled file would compare different sentences: ignored
    # units (different word counts) show it is sent_id that matched them
    assert r2.scores.ignored == 0


def test_sent_id_mismatch_is_an_error_unless_allowed(write, h, run_cli):
    a = _file(write, h, "a.conllu", S_A, ["s1", "s2", "s3"])
    b = _file(write, h, "b.conllu", S_B, ["s1", "s3"])  # lacks s2
    with pytest.raises(InputError) as ei:
        synagree.agree([a, b])
    (e,) = ei.value.errors
    assert e.kind == "sentence-mismatch"
    assert "s2" in e.message and str(b) in e.message
    # a: s1 = comment line 1, words 2-3, blank 4; s2 starts at line 5
    assert e.file == str(a) and e.line == 5
    rc, _, err = run_cli("agree", a, b)
    assert rc != 0 and "Traceback" not in err and "allow-missing" in err

    # allowed: s2 has one annotation and takes no part; the result equals the
    # corpus that has only s1 and s3
    res = synagree.agree([a, b], allow_missing=True)
    assert res.units_total == 3 and res.units == 2 and res.annotations == 4
    a13 = _file(write, h, "a13.conllu", S_A, ["s1", "s3"])
    ref = synagree.agree([a13, b])
    for k, v in _values(ref).items():
        got = _values(res)[k]
        assert (got is None and v is None) or got == pytest.approx(v, abs=1e-12), k
    # s1 and s3 agree fully: LAS = 1, and α_plain = 1 (D_o = 0, D_e > 0)
    assert res.scores.ratio("LAS_full") == 1.0
    assert res.alpha_value("plain") == 1.0
    rc, out, err = run_cli("agree", a, b, "--allow-missing", "--output", "json")
    assert rc == 0, err
    assert json.loads(out)["units"] == 2


def test_position_matching_without_sent_id(write, h):
    """Without sent_ids, sentences are matched by position in the texts: the
    shuffled order leaves sentences without counterpart, which is refused,
    naming both files and lines; with the check off the pairing is by
    position, as asked."""
    a = write("a.conllu", h.conll_text([S_A["s1"], S_A["s2"], S_A["s3"]]))
    b = write("b.conllu", h.conll_text([S_B["s3"], S_B["s1"], S_B["s2"]]))
    with pytest.raises(InputError) as ei:
        synagree.agree([a, b])
    errs = ei.value.errors
    assert errs and {e.kind for e in errs} <= {"unaligned-sentence", "text-mismatch"}
    assert {e.file for e in errs} <= {str(a), str(b)}
    assert any(f"{b}:" in e.message for e in errs if e.file == str(a)) or \
        any(f"{a}:" in e.message for e in errs if e.file == str(b))
    res = synagree.agree([a, b], check_text=False)
    assert res.corpus.text_check == "off"
    # word counts 2/1, 3/2, 1/3: all differ → every unit ignored in LAS
    assert res.scores.ignored == 3
    assert res.units == 3


def test_ignored_units_counted_but_in_alpha(write, h):
    """Unit 2 differs in word count: out of LAS (ignored = 1), still in α.

    a: s1 ε(root(obj)), s2 ε(root(obj, obj));  b: s1 ε(root(obj)), s2 ε(root(obj)).
    LAS over s1 only = 2/2.  α_plain: values A1, A1, A2, B2 with TED(A2, B2) = 1
    (delete one obj), TED(A1, A2) = 1, TED(A1, B2) = 0 (B2 = A1).
    D_o·n = 2·1 → D_o = 1/2; Σ δ² = 2·(A1×A2 ·2: 2 + A2×B2: 1 + A1×B2 ·2: 0) = 6,
    D_e = 6/12 = 1/2 → α = 0.
    """
    a = write("a.conllu", h.conll_text([[(0, "root"), (1, "obj")],
                                         [(0, "root"), (1, "obj"), (1, "obj")]]))
    # b's unit 2 is the same text tokenised as w1 w2w3: it pairs, text-checked
    b_text = h.conll_text([[(0, "root"), (1, "obj")], [(0, "root"), (1, "obj")]])
    blocks = b_text.split("\n\n")
    blocks[1] = blocks[1].replace("\tw2\tw2\t", "\tw2w3\tw2w3\t")
    b = write("b.conllu", "\n\n".join(blocks))
    res = synagree.agree([a, b])
    assert res.scores.ignored == 1
    assert res.scores.ratio("LAS_full") == 1.0
    assert res.annotations == 4
    assert res.alpha_value("plain") == pytest.approx(0.0, abs=1e-12)
    assert any("differ in word count" in n for n in res.notes)


# --------------------------------------------------------------------------
# Phrase structure (tests/data/core/phrase)
# --------------------------------------------------------------------------
#
#   A = (S (NP P) (VP V (NP D N)))      leaves P V D N  |A| = 4
#   B = (S (NP P) (VP V D N))           leaves P V D N  |B| = 4
#   C = (S (NP N) (VP V))               leaves N V      |C| = 2
#   unit 1: A / B, unit 2: C / C.  penn-*.mrg hold the same trees with words
#   (penn-b with unlabelled "( ... )" wrappers).
#
# TED(A, B) = 1: delete the inner NP (its children D, N move up to VP).
# Jaccard(A, B): brackets of A = {P(0,0), V(1,1), D(2,2), N(3,3), NP(0,0),
#   NP(2,3), VP(1,3), S(0,3)} (8); B has the same without NP(2,3) (7):
#   |A ∩ B| / |A ∪ B| = 7/8.  Corpus Jaccard (weights = leaves of the first
#   annotation): (4·7/8 + 2·1)/6 = 11/12.

def _zss(label, *kids):
    n = Node(label)
    for k in kids:
        n.addkid(k if isinstance(k, Node) else Node(k))
    return n


ZA = _zss("S", _zss("NP", "P"), _zss("VP", "V", _zss("NP", "D", "N")))
ZB = _zss("S", _zss("NP", "P"), _zss("VP", "V", "D", "N"))
ZC = _zss("S", _zss("NP", "N"), _zss("VP", "V"))


@pytest.fixture(scope="module")
def phrase(core_data):
    return core_data / "phrase"


def test_phrase_hand_checked_pair(phrase, h):
    a, b = read_brackets(phrase / "delex-a.tree")[0], read_brackets(phrase / "delex-b.tree")[0]
    ba, bb = brackets(a.root), brackets(b.root)
    assert ba == {(0, 0, "P"), (1, 1, "V"), (2, 2, "D"), (3, 3, "N"), (0, 0, "NP"),
                  (2, 3, "NP"), (1, 3, "VP"), (0, 3, "S")}
    assert ba - bb == {(2, 3, "NP")} and bb <= ba
    assert h.zss_unit_distance(ZA, ZB) == 1
    res = synagree.agree([phrase / "delex-a.tree", phrase / "delex-b.tree"])
    assert res.kind == "phrase"
    assert res.tree_alpha.unit_ted[0][0, 1] == 1
    assert res.tree_alpha.unit_ted[1][0, 1] == 0
    assert res.scores.ratio("jaccard") == pytest.approx(11 / 12, abs=1e-12)


def test_phrase_alpha_hand_checked(phrase, h):
    """TED(A, C) = 4 (rename P→N, delete NP, D, N), TED(B, C) = 3 (rename P→N,
    delete D, N) — confirmed with zss.  Values A, B, C, C:
    plain: D_o = 2·1/4 = 1/2; Σ δ² = 2·(1 + 2·16 + 2·9) = 102, D_e = 102/12
           → α = 1 − 1/17 = 16/17
    diff:  δ = 1−0, 4−2, 3−2 = 1, 2, 1: Σ = 2·(1 + 2·4 + 2·1) = 22, D_e = 22/12
           → α = 1 − (1/2)/(11/6) = 8/11
    norm:  δ = 1/8, 4/6, 3/6: D_o = 2·(1/64)/4; Σ = 2·(1/64 + 2·4/9 + 2·1/4)
    """
    assert h.zss_unit_distance(ZA, ZC) == 4
    assert h.zss_unit_distance(ZB, ZC) == 3
    res = synagree.agree([phrase / "delex-a.tree", phrase / "delex-b.tree"])
    assert res.alpha_value("plain") == pytest.approx(16 / 17, abs=1e-12)
    assert res.alpha_value("diff") == pytest.approx(8 / 11, abs=1e-12)
    do = Fraction(2, 64) / 4
    de = 2 * (Fraction(1, 64) + 2 * Fraction(4, 9) + 2 * Fraction(1, 4)) / 12
    assert res.alpha_value("norm") == pytest.approx(float(1 - do / de), abs=1e-12)


def test_penn_and_delex_give_the_same(phrase, run_cli):
    da, db = phrase / "delex-a.tree", phrase / "delex-b.tree"
    pa, pb = phrase / "penn-a.mrg", phrase / "penn-b.mrg"
    for x, y in ((da, pa), (db, pb)):
        for s, t in zip(read_brackets(x), read_brackets(y)):
            assert brackets(s.root) == brackets(t.root)
            assert s.leaves == t.leaves
    assert read_brackets(pa)[0].words == ["I", "saw", "the", "man"]
    assert read_brackets(pa)[0].text == "I saw the man"
    r_d = synagree.agree([da, db])
    r_p = synagree.agree([pa, pb])
    # a delexicalised and a Penn file in one corpus: conflicting evidence
    with pytest.raises(InputError) as ei:
        synagree.agree([da, pb])
    assert ei.value.errors[0].kind == "ambiguous-phrase-style"
    assert str(pb) == ei.value.errors[0].file
    r_mix = synagree.agree([da, pb], phrase_style="delex")
    assert r_mix.alpha_value("plain") != r_d.alpha_value("plain")  # pb's words become leaves
    assert r_d.corpus.phrase_style.style == "delex" and r_p.corpus.phrase_style.style == "penn"
    for r in (r_p,):
        for v in ("plain", "diff", "norm"):
            assert r.alpha_value(v) == pytest.approx(r_d.alpha_value(v), abs=1e-15)
        assert r.scores.ratio("jaccard") == pytest.approx(11 / 12, abs=1e-12)
    rc, out, err = run_cli("agree", pa, pb, "--output", "json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["kind"] == "phrase"
    assert data["alpha_plain"] == pytest.approx(16 / 17, abs=1e-12)
    assert data["jaccard"] == pytest.approx(11 / 12, abs=1e-12)


def test_auto_detection_rule(phrase):
    """Documented rule (readers.py): a file is Penn-style when every bare string
    is the only child of its bracket, otherwise delexicalised."""
    # delex-a: V has siblings under VP → delex, every string is a node
    assert read_brackets(phrase / "delex-a.tree")[0].leaves == ["P", "V", "D", "N"]
    assert read_brackets(phrase / "delex-a.tree")[0].words == []
    # penn-a: every word alone under its preterminal → penn, words dropped
    assert read_brackets(phrase / "penn-a.mrg")[1].leaves == ["N", "V"]
    # all-unary bottom is ambiguous: auto reads it as Penn (N, V taken as
    # words), and the explicit style decides otherwise
    amb = phrase / "ambiguous.tree"
    assert read_brackets(amb)[0].leaves == ["NP", "VP"]
    assert read_brackets(amb, style="delex")[0].leaves == ["N", "V"]
    assert read_brackets(amb, style="penn")[0].leaves == ["NP", "VP"]
    # the rule is per file: the same tree beside a non-unary one is delex
    assert read_brackets(phrase / "delex-b.tree")[1].leaves == ["N", "V"]
    with pytest.raises(ValueError):
        read_brackets(amb, style="bogus")


def test_phrase_style_cli(phrase, tmp_path, run_cli):
    """--phrase-style delex on the ambiguous shape: (S (NP N) (VP V)) vs
    (S (NP N) (VP V D)) differ by one inserted leaf D → TED 1, one unit → α 0;
    Jaccard: {N, V, NP(0,0), VP(1,1), S(0,1)} vs {N, V, D, NP, VP(1,2), S(0,2)}:
    ∩ = {N, V, NP} = 3, ∪ = 8 → 3/8."""
    other = tmp_path / "other.tree"
    other.write_text("(S (NP N) (VP V D))\n")
    rc, out, err = run_cli("agree", phrase / "ambiguous.tree", other, "--phrase-style",
                           "delex", "--output", "json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["jaccard"] == pytest.approx(3 / 8, abs=1e-12)
    assert data["alpha_plain"] == pytest.approx(0.0, abs=1e-12)


def test_format_phrase_flag(phrase, tmp_path, run_cli):
    """Content sniffing finds brackets in an unknown extension; an extension
    that says CoNLL needs --format phrase."""
    txt_a, txt_b = tmp_path / "a.txt", tmp_path / "b.txt"
    shutil.copy(phrase / "delex-a.tree", txt_a)
    shutil.copy(phrase / "delex-b.tree", txt_b)
    assert sniff_format(txt_a) == "phrase"
    conll_a, conll_b = tmp_path / "a.conll", tmp_path / "b.conll"
    shutil.copy(phrase / "delex-a.tree", conll_a)
    shutil.copy(phrase / "delex-b.tree", conll_b)
    assert sniff_format(conll_a) == "conllu"
    rc, _, err = run_cli("agree", conll_a, conll_b)
    assert rc != 0 and "Traceback" not in err  # read as CoNLL: column errors
    assert "column" in err
    for pair in ((txt_a, txt_b), (conll_a, conll_b)):
        rc, out, err = run_cli("agree", *pair, "--format", "phrase", "--output", "json")
        assert rc == 0, err
        data = json.loads(out)
        assert data["kind"] == "phrase"
        assert data["alpha_plain"] == pytest.approx(16 / 17, abs=1e-12)
    res = synagree.agree([conll_a, conll_b], fmt="phrase")
    assert res.scores.ratio("jaccard") == pytest.approx(11 / 12, abs=1e-12)


def test_mixed_formats_rejected(phrase, core_data, run_cli):
    rc, out, err = run_cli("agree", phrase / "delex-a.tree", core_data / "mwt-a.conllu")
    assert rc != 0 and "Traceback" not in err
    assert "mix" in err
