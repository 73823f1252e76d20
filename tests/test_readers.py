"""Readers: bad input is reported (file, line, problem), never a traceback;
CoNLL-U details (multiword tokens, empty nodes, several roots, '_' labels,
comments) follow docs/method.md §1–2 and the decisions of readers.py."""
from __future__ import annotations

from fractions import Fraction

import pytest

import synagree
from synagree.base.problems import InputError
from synagree.io.brackets import read_brackets
from synagree.io.conllu import read_conllu

W = "\t".join  # one CoNLL line from columns


def word(i, head, rel="dep", form=None):
    return W([str(i), form or f"w{i}", "_", "X", "X", "_", str(head), rel, "_", "_"])


GOOD = "\n".join([word(1, 0, "root"), word(2, 1, "obj")]) + "\n\n"


def expect_error(paths, run_cli, *, file, line, kind, words=(), n_errors=None, **kw):
    """API raises InputError naming file/line/kind; the CLI exits non-zero,
    without a traceback, and prints ``file:line``."""
    with pytest.raises(InputError) as ei:
        synagree.agree([str(p) for p in paths], **kw)
    errs = ei.value.errors
    if n_errors is not None:
        assert len(errs) == n_errors, [str(e) for e in errs]
    match = [e for e in errs if e.kind == kind]
    assert match, f"no {kind!r} error in {[str(e) for e in errs]}"
    e = match[0]
    assert e.file == str(file)
    assert e.line == line
    text = str(e)
    where = f"{file}:{line}" if line is not None else str(file)
    assert text.startswith(where)
    for w in words:
        assert w.lower() in e.message.lower(), (w, e.message)

    args = ["agree", *paths]
    if kw.get("strict"):
        args.append("--strict")
    rc, out, err = run_cli(*args)
    assert rc != 0
    assert out == ""
    assert "Traceback" not in err
    assert where in err
    for w in words:
        assert w.lower() in err.lower()
    return errs, err


# --------------------------------------------------------------------------
# Every bad-input kind
# --------------------------------------------------------------------------

def test_wrong_column_count(write, run_cli):
    bad = write("bad.conllu", GOOD + word(1, 0, "root") + "\n" + "2\tw2\t_\tX\tX\t_\t1\n\n")
    good = write("good.conllu", GOOD * 2)
    expect_error([bad, good], run_cli, file=bad, line=5, kind="column-count",
                 words=("10", "columns", "found 7"), n_errors=1)


def test_spaces_instead_of_tabs(write, run_cli):
    bad = write("bad.conllu", "1 w1 _ X X _ 0 root _ _\n\n")
    good = write("good.conllu", GOOD)
    expect_error([bad, good], run_cli, file=bad, line=1, kind="column-count",
                 words=("tab",))


def test_non_integer_id(write, run_cli):
    bad = write("bad.conllu", word(1, 0, "root") + "\n" + W(["x", "w", "_", "X", "X", "_", "1",
                                                              "obj", "_", "_"]) + "\n\n")
    good = write("good.conllu", GOOD)
    errs, _ = expect_error([bad, good], run_cli, file=bad, line=2, kind="bad-id",
                           words=("'x'", "ID"))
    # the only sentence is bad: that is the one error, not also "no sentences"
    assert [e.kind for e in errs] == ["bad-id"]


def test_non_integer_head(write, run_cli):
    bad = write("bad.conllu", word(1, 0, "root") + "\n" + word(2, "one", "obj") + "\n\n")
    good = write("good.conllu", GOOD)
    errs, _ = expect_error([bad, good], run_cli, file=bad, line=2, kind="bad-head",
                           words=("HEAD", "'one'", "not an integer"))
    assert len(errs) == 1


@pytest.mark.parametrize("head", [3, 17, -1])
def test_head_out_of_range(write, run_cli, head):
    bad = write("bad.conllu", word(1, 0, "root") + "\n" + word(2, head, "obj") + "\n\n")
    good = write("good.conllu", GOOD)
    errs, _ = expect_error([bad, good], run_cli, file=bad, line=2, kind="head-out-of-range",
                           words=(f"HEAD {head} ", "out of range", "0..2"))
    assert len(errs) == 1


def test_sentence_with_no_words(write, run_cli):
    bad = write("bad.conllu", GOOD + "# sent_id = 2\n# text = nothing here\n\n" + GOOD)
    good = write("good.conllu", GOOD * 3)
    expect_error([bad, good], run_cli, file=bad, line=4, kind="no-words",
                 words=("no words",), n_errors=1)


def test_unmatched_closing_bracket(write, run_cli):
    bad = write("bad.tree", "(S (NP P) (VP V))\n(S (NP P) (VP V)))\n")
    good = write("good.tree", "(S (NP P) (VP V))\n(S (NP P) (VP V))\n")
    expect_error([bad, good], run_cli, file=bad, line=2, kind="unbalanced-brackets",
                 words=("unmatched ')'", "column 18"))


def test_unclosed_opening_bracket(write, run_cli):
    bad = write("bad.tree", "(S (NP P) (VP V))\n\n(S (NP P)\n   (VP V)\n")
    good = write("good.tree", "(S (NP P) (VP V))\n(S (NP P) (VP V))\n")
    expect_error([bad, good], run_cli, file=bad, line=3, kind="unbalanced-brackets",
                 words=("unclosed '('",))


def test_empty_file(write, run_cli):
    bad = write("bad.conllu", "")
    good = write("good.conllu", GOOD)
    expect_error([bad, good], run_cli, file=bad, line=None, kind="empty-file",
                 words=("empty",))
    blank = write("blank.conllu", "\n\n  \n")
    expect_error([blank, good], run_cli, file=blank, line=None, kind="empty-file")


def test_undecodable_bytes(write, run_cli):
    bad = write("bad.conllu", (GOOD + word(1, 0, "root") + "\n").encode("utf-8")
                + "2\tw\xe6\t_\tX\tX\t_\t1\tobj\t_\t_\n\n".encode("latin-1"))
    good = write("good.conllu", GOOD * 2)
    expect_error([bad, good], run_cli, file=bad, line=5, kind="encoding",
                 words=("not UTF-8",))


def test_missing_file(write, tmp_path, run_cli):
    good = write("good.conllu", GOOD)
    missing = tmp_path / "nowhere.conllu"
    expect_error([missing, good], run_cli, file=missing, line=None, kind="file-not-found",
                 words=("no such file",))


def test_mismatched_sentence_counts(write, run_cli):
    s = lambda text, words: f"# text = {text}\n" + "\n".join(  # noqa: E731
        word(i, 0 if i == 1 else 1, "x", form=text.split()[i - 1])
        for i in range(1, words + 1)) + "\n\n"
    a = write("a.conllu", s("one two", 2) + s("three four five", 3) + s("six", 1))
    b = write("b.conllu", s("one two", 2) + s("six", 1))
    # a: sentence 1 = lines 1-3, blank line 4, sentence 2 from line 5; the texts
    # aligned, a's sentence 2 has no counterpart in b (docs/method.md §1.7)
    errs, err = expect_error([a, b], run_cli, file=a, line=5, kind="unaligned-sentence",
                             words=("no counterpart", "sentence 2", "three four five",
                                    f"in {b}: ", "near its line 5:"))
    assert len(errs) == 1
    # without the text (--no-text-check), the counts must agree, and the error
    # names where the files part ways
    with pytest.raises(InputError) as ei:
        synagree.agree([a, b], check_text=False)
    (e,) = ei.value.errors
    assert e.kind == "sentence-count-mismatch" and e.file == str(a) and e.line == 5
    for w in ("different sentence counts", "sentence 2", "three four five", "'six'"):
        assert w in e.message
    assert "a.conllu: 3" in e.message and "b.conllu: 2" in e.message


def test_dirs_with_different_sentence_counts(tmp_path, h, run_cli):
    for ann, n in (("ann1", 2), ("ann2", 3)):
        (tmp_path / ann).mkdir()
        (tmp_path / ann / "doc.conllu").write_text(h.conll_text([[(0, "root")]] * n))
        (tmp_path / ann / "other.conllu").write_text(h.conll_text([[(0, "root")]]))
    d1, d2 = tmp_path / "ann1", tmp_path / "ann2"
    with pytest.raises(InputError) as ei:
        synagree.agree(dirs=[d1, d2])
    (e,) = ei.value.errors  # the texts aligned, ann2's third sentence has no counterpart
    assert e.kind == "unaligned-sentence" and e.file == str(d2 / "doc.conllu")
    assert str(d1 / "doc.conllu") in e.message and "other.conllu" not in e.message
    with pytest.raises(InputError) as ei:  # without the text: the counts must agree
        synagree.agree(dirs=[d1, d2], check_text=False)
    (e,) = ei.value.errors
    assert e.kind == "sentence-count-mismatch"
    assert str(d1 / "doc.conllu") in e.message and str(d2 / "doc.conllu") in e.message
    assert "other.conllu" not in e.message
    assert "'doc'" in e.message
    rc, out, err = run_cli("agree", "--dirs", d1, d2)
    assert rc != 0 and out == "" and "Traceback" not in err
    assert str(d2 / "doc.conllu") in err


def test_all_problems_of_a_file_reported(write, run_cli):
    bad = write("bad.conllu",
                word(1, 0, "root") + "\n" + "2\tw2\t_\tX\tX\t_\t1\tobj\n\n"  # line 2: 8 columns
                + word(1, 0, "root") + "\n" + word(2, "zz", "obj") + "\n\n"  # line 5: HEAD zz
                + word(1, 0, "root") + "\n" + word(2, 9, "obj") + "\n\n")  # line 8: HEAD 9
    other = write("other.conllu", GOOD * 2 + word(1, 0, "root") + "\n" + word(2, 5) + "\n\n")
    with pytest.raises(InputError) as ei:
        synagree.agree([bad, other])
    got = sorted((e.file, e.line, e.kind) for e in ei.value.errors)
    assert got == sorted([(str(bad), 2, "column-count"), (str(bad), 5, "bad-head"),
                          (str(bad), 8, "head-out-of-range"),
                          (str(other), 8, "head-out-of-range")])  # the other file's too
    rc, out, err = run_cli("agree", bad, other)
    assert rc != 0 and "Traceback" not in err
    for line in (2, 5, 8):
        assert f"{bad}:{line}:" in err
    assert f"{other}:8:" in err
    assert "4 error(s)" in err


def test_broken_line_does_not_cascade(write):
    """A dropped word line must not make the next word 'out of sequence', nor a
    HEAD pointing at the dropped word 'out of range'."""
    bad = write("bad.conllu", word(1, 3, "x") + "\n" + "2\tw2\t_\tX\n" + word(3, 0, "root")
                + "\n\n")
    with pytest.raises(InputError) as ei:
        read_conllu(bad)
    assert [(e.line, e.kind) for e in ei.value.errors] == [(2, "column-count")]


def test_id_out_of_sequence(write, run_cli):
    bad = write("bad.conllu", word(1, 0, "root") + "\n" + word(3, 1) + "\n\n")
    good = write("good.conllu", GOOD)
    expect_error([bad, good], run_cli, file=bad, line=2, kind="id-sequence",
                 words=("out of sequence",))


# --------------------------------------------------------------------------
# CoNLL-U details
# --------------------------------------------------------------------------

def test_multiword_tokens_and_empty_nodes_are_not_nodes(core_data, h):
    """mwt-a.conllu has a `2-3` range and a `5.1` empty node; mwt-a-plain.conllu
    is the same without those lines.  mwt-b differs in two labels.

    By hand: s1 has 5 words, s2 7.  b relabels s1 word 4 (obl→obj) and s2 word
    6 (orphan→obj), heads all equal: LAS = LA = 10/12, UAS = 12/12.
    Trees (siblings by id): A1 = ε(root(obl(case, det), punct)), B1 the same
    with obj; A2 = ε(root(nsubj, obj, conj(cc, orphan), punct)), B2 with obj
    for orphan.  TED(A1, B1) = TED(A2, B2) = 1 (one rename).  Across sentences
    TED = 5: 2 insertions (8 vs 6 nodes) and A1's/B1's three labels under root
    other than punct have no counterpart that keeps ancestry (3 renames).
    |t|: 6 and 8.  α_plain: D_o = (2·1 + 2·1)/4 = 1, D_e = 2·(1 + 1 + 4·25)/12 = 17
    → α = 16/17.
    """
    a, plain, b = core_data / "mwt-a.conllu", core_data / "mwt-a-plain.conllu", \
        core_data / "mwt-b.conllu"
    sa = read_conllu(a)
    assert [s.n_words for s in sa] == [5, 7]
    assert [s.forms for s in sa][0] == ["Vamos", "a", "el", "mar", "."]
    r_mwt = synagree.agree([a, b])
    r_plain = synagree.agree([plain, b])
    for v in ("plain", "diff", "norm"):
        assert r_mwt.alpha_value(v) == r_plain.alpha_value(v)
    for m in ("LAS_full", "UAS", "LA"):
        assert r_mwt.scores.ratio(m) == r_plain.scores.ratio(m)
    assert r_mwt.scores.ratio("LAS_full") == pytest.approx(10 / 12)
    assert r_mwt.scores.ratio("UAS") == 1.0
    assert r_mwt.scores.ratio("LA") == pytest.approx(10 / 12)
    # the hand-derived TEDs, confirmed with zss on independently built trees
    A1 = h.zss_dep_tree([0, 4, 4, 1, 1], ["root", "case", "det", "obl", "punct"])
    B1 = h.zss_dep_tree([0, 4, 4, 1, 1], ["root", "case", "det", "obj", "punct"])
    A2 = h.zss_dep_tree([2, 0, 2, 5, 2, 5, 2],
                        ["nsubj", "root", "obj", "cc", "conj", "orphan", "punct"])
    B2 = h.zss_dep_tree([2, 0, 2, 5, 2, 5, 2],
                        ["nsubj", "root", "obj", "cc", "conj", "obj", "punct"])
    d = h.zss_unit_distance
    assert d(A1, B1) == d(A2, B2) == 1
    assert d(A1, A2) == d(A1, B2) == d(B1, A2) == d(B1, B2) == 5
    assert r_mwt.alpha_value("plain") == pytest.approx(16 / 17, abs=1e-12)
    # diff: δ across = 5 − |6 − 8| = 3: D_e = 2·(1 + 1 + 4·9)/12 = 19/3 → α = 16/19
    assert r_mwt.alpha_value("diff") == pytest.approx(16 / 19, abs=1e-12)
    # norm: δ = 1/12, 1/16 within; 5/14 across
    do = Fraction(2, 144) + Fraction(2, 256)
    de = 2 * (Fraction(1, 144) + Fraction(1, 256) + 4 * Fraction(25, 196))
    want = 1 - (do / 4) / (de / 12)
    assert r_mwt.alpha_value("norm") == pytest.approx(float(want), abs=1e-12)


def test_comments_kept_as_metadata(core_data):
    s1, s2 = read_conllu(core_data / "mwt-a.conllu")
    assert s1.sent_id == "s1" and s1.text == "Vamos al mar."
    assert s2.sent_id == "s2" and s2.text == "Ana come pan y Luis fruta."
    assert s1.metadata.get("newdoc id") == "mwt-test"
    assert "# a free-form note without an equals sign" in s1.comments
    assert s1.comments[0] == "# newdoc id = mwt-test"
    assert s1.line == 1 and s2.line == 12  # 4 comments, 6 lines, blank
    assert s1.word_lines == [5, 7, 8, 9, 10]


def test_several_roots_accepted_and_counted(write, h):
    two_roots = [(0, "root"), (0, "root"), (2, "obj")]
    one_root = [(0, "root"), (1, "obj"), (1, "obj")]
    a = write("a.conllu", h.conll_text([two_roots, one_root, two_roots]))
    b = write("b.conllu", h.conll_text([one_root, one_root, two_roots]))
    res = synagree.agree([a, b])
    assert res.multi_root == 3  # two in a, one in b (counted per annotation)
    assert any("several root" in n for n in res.notes)
    (sa, _, _) = read_conllu(a)
    assert sa.n_roots == 2
    # unit 1: a = ε(root, root(obj)), b = ε(root(obj, obj)): UAS: word 1 same
    # head, word 2 (0 vs 1) differs, word 3 (2 vs 1) differs -> 1/3 of unit 1;
    # units 2 and 3 identical -> UAS = (1 + 3 + 3)/9
    assert res.scores.ratio("UAS") == pytest.approx(7 / 9)
    assert res.tree_alpha.unit_ted[0][0, 1] == h.zss_unit_distance(
        h.zss_dep_tree([0, 0, 2], ["root", "root", "obj"]),
        h.zss_dep_tree([0, 1, 1], ["root", "obj", "obj"]))


def test_underscore_deprel_warns(write, run_cli):
    a = write("a.conllu", word(1, 0, "root") + "\n" + word(2, 1, "_") + "\n\n")
    b = write("b.conllu", word(1, 0, "root") + "\n" + word(2, 1, "obj") + "\n\n")
    res = synagree.agree([a, b])
    (w,) = [p for p in res.warnings if p.kind == "missing-deprel"]
    assert w.file == str(a) and w.line == 2 and w.severity == "warning"
    assert "'_'" in w.message
    # '_' is an ordinary label: differs from obj
    assert res.scores.ratio("LA") == pytest.approx(1 / 2)
    assert read_conllu(a)[0].deprels == ["root", "_"]
    rc, out, err = run_cli("agree", a, b)
    assert rc == 0 and f"{a}:2" in err and "warning" in err
    # strict turns the warning into an error
    with pytest.raises(InputError) as ei:
        synagree.agree([a, b], strict=True)
    assert [e.kind for e in ei.value.errors] == ["missing-deprel"]
    rc, out, err = run_cli("agree", a, b, "--strict")
    assert rc != 0 and "Traceback" not in err and f"{a}:2" in err


def test_conllx_file_read(write):
    """CoNLL-X: the same 10 columns, HEAD in column 7, DEPREL in column 8."""
    x = write("a.conll", "1\tHan\than\tPP\tPP\t_\t2\tsubj\t_\t_\n"
                         "2\tsover\tsove\tVA\tVA\t_\t0\tROOT\t_\t_\n\n")
    (s,) = read_conllu(x)
    assert s.heads.tolist() == [2, 0]
    assert s.deprels == ["subj", "ROOT"]
    assert s.size == 3


def test_brackets_read_with_lines(write):
    p = write("t.tree", "# comment\n(S (NP P)\n   (VP V (NP D N)))\n\n(S (NP N) (VP V D))\n")
    t1, t2 = read_brackets(p)
    assert t1.line == 2 and t2.line == 5
    assert t1.leaves == ["P", "V", "D", "N"] and t1.size == 4
    assert t2.leaves == ["N", "V", "D"]
