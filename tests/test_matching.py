"""Units are matched by identity, never by luck (docs/method.md §1).

Each test here failed on the code before corpus assembly was unified: the
directory mode ignored ``# sent_id``, position matching was never checked,
the bracket style was guessed file by file, unmatched directory names gave
exit 0 with every α undefined, the same file could be given twice, and deep
brackets ended in a RecursionError.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import synagree
from synagree.base.problems import InputError
from synagree.io.brackets import read_brackets
from synagree.io.conllu import read_conllu, to_conllu

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
NDT = SHARED / "iaa" / "ndt"


def _ndt(name: str) -> Path:
    p = NDT / name
    if not p.is_file():
        pytest.skip(f"shared data not found at {p}")
    return p


def _with_ids(path: Path, prefix: str = "s"):
    sents = read_conllu(path)
    for i, s in enumerate(sents):
        s.metadata = {"sent_id": f"{prefix}{i + 1}"}
        s.comments = []
    return sents


def _values(res):
    out = {v: res.alpha_value(v) for v in ("plain", "diff", "norm")}
    out.update({m: res.scores.ratio(m) for m in res.score_names})
    return out


# --------------------------------------------------------------------------
# 1. --dirs matches by sent_id; --allow-missing works with --dirs
# --------------------------------------------------------------------------

def test_shuffled_dirs_with_sent_ids_equal_files_in_order(tmp_path, run_cli):
    a_sents = _with_ids(_ndt("odin-danish.conll"))
    b_sents = _with_ids(_ndt("thor-danish.conll"))
    fa, fb = tmp_path / "odin.conllu", tmp_path / "thor.conllu"
    fa.write_text(to_conllu(a_sents))
    fb.write_text(to_conllu(b_sents))
    in_order = synagree.agree([fa, fb])
    shuffled = list(b_sents)
    random.Random(7).shuffle(shuffled)
    (tmp_path / "odin").mkdir()
    (tmp_path / "thor").mkdir()
    (tmp_path / "odin" / "danish.conllu").write_text(to_conllu(a_sents))
    (tmp_path / "thor" / "danish.conllu").write_text(to_conllu(shuffled))
    res = synagree.agree(dirs=[tmp_path / "odin", tmp_path / "thor"])
    assert res.corpus.matching == "sent_id"
    assert _values(res) == pytest.approx(_values(in_order), abs=1e-12)
    assert _values(in_order)["plain"] == pytest.approx(0.983827037, abs=1e-9)
    rc, out, err = run_cli("agree", "--dirs", tmp_path / "odin", tmp_path / "thor",
                           "--output", "json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["matching"] == "sent_id"
    assert data["alpha_plain"] == pytest.approx(in_order.alpha_value("plain"), abs=1e-12)


def test_allow_missing_with_dirs(tmp_path, write, h):
    """Sentence s2 is absent from bob's file: an error, or with allow_missing a
    missing annotation (so units 1 and 3 pair, s2 stands alone)."""
    meta = [{"sent_id": f"s{i}"} for i in (1, 2, 3)]
    trees = [[(0, "root"), (1, "obj")], [(0, "root")], [(2, "nsubj"), (0, "root")]]
    (tmp_path / "anna").mkdir()
    (tmp_path / "bob").mkdir()
    (tmp_path / "anna" / "d.conllu").write_text(h.conll_text(trees, meta))
    (tmp_path / "bob" / "d.conllu").write_text(h.conll_text([trees[2], trees[0]],
                                                            [meta[2], meta[0]]))
    dirs = [tmp_path / "anna", tmp_path / "bob"]
    with pytest.raises(InputError) as ei:
        synagree.agree(dirs=dirs)
    assert ei.value.errors[0].kind == "sentence-mismatch"
    assert "--allow-missing" in ei.value.errors[0].hint
    res = synagree.agree(dirs=dirs, allow_missing=True)
    assert res.units == 2 and res.units_total == 3
    assert res.scores.ratio("LAS_full") == 1.0
    assert any("missing" in n for n in res.notes)


# --------------------------------------------------------------------------
# 2. Position matching is checked: misaligned files are an error
# --------------------------------------------------------------------------

def test_rotated_file_is_an_error_naming_files_and_lines(tmp_path, run_cli):
    """A file rotated by one sentence: the texts, aligned, show the first
    sentence of one file and the last of the other without counterpart (each
    an error naming where its text is); --no-text-check pairs by position."""
    a = _ndt("odin-danish.conll")
    sents = read_conllu(_ndt("thor-danish.conll"))
    rotated = tmp_path / "thor-rotated.conll"
    rotated.write_text(to_conllu(sents[1:] + sents[:1]))
    with pytest.raises(InputError) as ei:
        synagree.agree([a, rotated])
    errs = ei.value.errors
    assert [e.kind for e in errs] == ["unaligned-sentence"] * 2
    first, last = errs
    assert first.file == str(a) and first.line == 1
    assert f"in {rotated}: " in first.message and "near its line 1:" in first.message
    assert "line 1925" in first.message
    assert last.file == str(rotated) and "near its line 1907:" in last.message
    assert "--match text" in first.hint
    rc, out, err = run_cli("agree", a, rotated)
    assert rc == 2 and out == ""
    assert "unaligned-sentence" in err and "Traceback" not in err
    # the check can be turned off explicitly, and the output then says so
    rc, out, err = run_cli("agree", a, rotated, "--no-text-check", "--output", "json")
    assert rc == 0, err
    assert json.loads(out)["text_check"] == "off"


def test_retokenised_annotations_still_pair(tmp_path):
    """One annotator splits "New_York" into two words, another keeps a multiword
    token: same text, so they pair (left out of LAS, kept in alpha)."""
    a = tmp_path / "a.conllu"
    b = tmp_path / "b.conllu"
    a.write_text("1\tNew_York\t_\tX\tX\t_\t2\tnsubj\t_\t_\n2\trocks\t_\tX\tX\t_\t0\troot\t_\t_\n\n"
                 "1\tyes\t_\tX\tX\t_\t0\troot\t_\t_\n\n")
    b.write_text("1\tNew\t_\tX\tX\t_\t2\tcompound\t_\t_\n2\tYork\t_\tX\tX\t_\t3\tnsubj\t_\t_\n"
                 "3\trocks\t_\tX\tX\t_\t0\troot\t_\t_\n\n"
                 "1-2\tyes\t_\t_\t_\t_\t_\t_\t_\t_\n1\tye\t_\tX\tX\t_\t0\troot\t_\t_\n"
                 "2\ts\t_\tX\tX\t_\t1\tdep\t_\t_\n\n")
    res = synagree.agree([a, b])
    assert res.units == 2 and res.scores.ignored == 2
    assert res.corpus.text_check == "on"


def test_forms_all_underscore_skip_the_check_with_a_note(tmp_path, h):
    text = h.conll_text([[(0, "root"), (1, "obj")], [(0, "root")]])
    a = tmp_path / "a.conll"
    b = tmp_path / "b.conll"
    a.write_text(re.sub(r"\tw\d+\tw\d+\t", "\t_\t_\t", text))
    b.write_text(re.sub(r"\tw\d+\tw\d+\t", "\t_\t_\t", text))
    res = synagree.agree([a, b])
    assert res.corpus.text_check == "not possible"
    assert any("'_'" in n for n in res.notes)


# --------------------------------------------------------------------------
# 3. The bracket style is a property of the corpus
# --------------------------------------------------------------------------

LEAVES = ["n_le", "v_le", "d_le", "p_le", "a_le", "c_le"]
RULES = ["hd-cmp", "sb-hd", "hd-adj", "np", "vp"]


def _random_delex(rng: random.Random, n_leaves: int, unary_bottom: bool) -> str:
    """A delexicalised derivation-like tree; with ``unary_bottom`` every leaf
    category sits alone under a unary rule (the shape auto used to take for
    Penn-style words)."""
    items = [f"(lex {x})" if unary_bottom else x
             for x in (rng.choice(LEAVES) for _ in range(n_leaves))]
    while len(items) > 1:
        k = rng.randint(2, min(3, len(items)))
        i = rng.randrange(0, len(items) - k + 1)
        items[i:i + k] = [f"({rng.choice(RULES)} {' '.join(items[i:i + k])})"]
    return items[0] if items[0].startswith("(") else f"(root {items[0]})"


def test_delex_corpus_with_an_all_unary_file_reads_as_delex(tmp_path, run_cli):
    rng = random.Random(3)
    files = []
    for ann, unary in (("ann1", False), ("ann2", False), ("ann3", True)):
        p = tmp_path / f"{ann}.tree"
        p.write_text("\n".join(_random_delex(rng, rng.randint(3, 9), unary)
                               for _ in range(30)) + "\n")
        files.append(p)
    auto = synagree.agree(files)
    explicit = synagree.agree(files, phrase_style="delex")
    assert auto.corpus.phrase_style.style == "delex"
    assert _values(auto) == _values(explicit)
    # the file on its own is all-unary at the bottom: Penn-shaped, read as Penn;
    # within the corpus it is read as delex
    alone = read_brackets(files[2])
    assert alone[0].words and not auto.corpus.units[0].annotations["ann3"].words
    rc, out, err = run_cli("agree", *files, "--output", "json")
    assert rc == 0, err
    assert json.loads(out)["phrase_style"].startswith("delex (auto:")
    rc, out, err = run_cli("agree", *files)
    assert rc == 0 and re.search(r"^phrase style +delex", out, re.M)


def test_penn_file_with_one_flat_bracket_is_an_error(tmp_path):
    """One (NNP John Smith) used to flip a whole Penn file to delex."""
    penn = ["(S (NP (DT the) (NN dog)) (VP (VBD barked)))",
            "(S (NP (NNP John Smith)) (VP (VBD left)))",
            "(S (NP (PRP it)) (VP (VBD rained)))"]
    a = tmp_path / "a.mrg"
    b = tmp_path / "b.mrg"
    a.write_text("\n".join(penn) + "\n")
    b.write_text("\n".join(penn) + "\n")
    with pytest.raises(InputError) as ei:
        synagree.agree([a, b])
    assert {e.kind for e in ei.value.errors} == {"ambiguous-phrase-style"}
    assert "--phrase-style" in ei.value.errors[0].message
    res = synagree.agree([a, b], phrase_style="penn")
    assert res.corpus.phrase_style.describe() == "penn"
    assert res.alpha_value("plain") is None or res.alpha_value("plain") == 1.0


def test_file_mixing_both_shapes_is_an_error(tmp_path):
    mixed = "(S (NP (DT the) (NN dog)) (VP (VBD barked)))\n(S (NP D N) (VP V))\n"
    a = tmp_path / "a.tree"
    b = tmp_path / "b.tree"
    a.write_text(mixed)
    b.write_text(mixed)
    with pytest.raises(InputError) as ei:
        synagree.agree([a, b])
    assert ei.value.errors[0].kind == "ambiguous-phrase-style"


# --------------------------------------------------------------------------
# 4.–6. Directory names, the same file twice, deep brackets
# --------------------------------------------------------------------------

def test_directory_per_corpus_instead_of_per_annotator(tmp_path, h, run_cli):
    """Two directories each holding both annotators' files of one text: the
    files pair across texts by name (odin-danish ~ odin-swedish as 'odin'), and
    the text check refuses that pairing."""
    for corpus, n in (("danish", 2), ("swedish", 3)):
        (tmp_path / corpus).mkdir()
        t = h.conll_text([[(0, "root")] + [(1, "dep")] * (n - 1)]).replace("\tw", f"\t{corpus}")
        for ann in ("odin", "thor"):
            (tmp_path / corpus / f"{ann}-{corpus}.conll").write_text(t)
    rc, out, err = run_cli("agree", "--dirs", tmp_path / "danish", tmp_path / "swedish")
    assert rc == 2 and out == ""
    assert "unaligned-sentence" in err or "text-mismatch" in err
    assert "odin-danish.conll" in err and "odin-swedish.conll" in err


def test_directories_sharing_no_name(tmp_path, h, run_cli):
    for d, name in (("a", "x1.conll"), ("b", "y1.conll")):
        (tmp_path / d).mkdir()
        (tmp_path / d / name).write_text(h.conll_text([[(0, "root")]]))
    rc, out, err = run_cli("agree", "--dirs", tmp_path / "a", tmp_path / "b",
                           "--allow-missing")
    assert rc == 2 and out == ""
    assert "no document is annotated in two or more directories" in err
    assert "x1.conll" in err and "y1.conll" in err and "one directory per annotator" in err


def test_annotator_prefix_naming(tmp_path, h):
    """ANNOTATOR-TEXT.conll files match across annotator directories."""
    for ann, lab in (("odin", "obj"), ("thor", "iobj")):
        (tmp_path / ann).mkdir()
        (tmp_path / ann / f"{ann}-danish.conll").write_text(
            h.conll_text([[(0, "root"), (1, lab)], [(0, "root")]]))
    res = synagree.agree(dirs=[tmp_path / "odin", tmp_path / "thor"])
    assert res.units == 2
    assert {u.document for u in res.corpus.units} == {"danish"}
    assert res.scores.ratio("LAS_full") == pytest.approx(2 / 3)
    assert any("odin-danish.conll → danish" in n for n in res.notes)


def test_same_path_twice_is_an_error(tmp_path, h, run_cli):
    a = tmp_path / "a.conllu"
    a.write_text(h.conll_text([[(0, "root")]]))
    with pytest.raises(InputError) as ei:
        synagree.agree([a, tmp_path / "." / "a.conllu"])
    assert [e.kind for e in ei.value.errors] == ["duplicate-input"]
    rc, _, err = run_cli("agree", a, a)
    assert rc == 2 and err.count("duplicate-input") == 1


def test_names_must_match_the_files(tmp_path, h, run_cli):
    a = tmp_path / "a.conllu"
    b = tmp_path / "b.conllu"
    a.write_text(h.conll_text([[(0, "root")]]))
    b.write_text(h.conll_text([[(0, "root")]]))
    rc, _, err = run_cli("agree", a, b, "--names", "x")
    assert rc == 2 and "--names gives 1 name(s) for 2 files" in err


@pytest.mark.slow
@pytest.mark.parametrize("depth", [330, 3000])
def test_deep_brackets_are_read_and_scored(tmp_path, depth, run_cli):
    """Chains X(X(...(a b)...)) vs X(X(...(a c)...)): one rename each (TED 1)."""
    a = tmp_path / "a.tree"
    b = tmp_path / "b.tree"
    a.write_text("(X " * depth + "a b" + ")" * depth + "\n(S (NP a) b)\n")
    b.write_text("(X " * depth + "a c" + ")" * depth + "\n(S (NP a) c)\n")
    res = synagree.agree([a, b])
    assert res.tree_alpha.unit_ted[0][0, 1] == 1
    assert res.tree_alpha.unit_ted[1][0, 1] == 1
    # brackets: depth X spans + S/NP... differ only in the last leaf's label
    assert res.scores.ratio("jaccard") < 1
    for cmd in (["agree", a, b, "--worst", "2"], ["report", a, b, "-o", tmp_path / "r.html"]):
        rc, _, err = run_cli(*cmd)
        assert rc == 0, err


def test_tags_refuses_misaligned_files(tmp_path, run_cli):
    """``tags`` pairs sentences by position too: swapped sentences were scored
    (accuracy 1.0, four form warnings); now they are a text-mismatch error,
    and --no-text-check compares them anyway."""
    row = "{}\t{}\t_\tX\tX\t_\t{}\t{}\t_\t_\n"
    s1 = row.format(1, "Dogs", 2, "nsubj") + row.format(2, "bark", 0, "root")
    s2 = row.format(1, "Cats", 2, "nsubj") + row.format(2, "nap", 0, "root")
    gold, system = tmp_path / "g.conllu", tmp_path / "s.conllu"
    gold.write_text(s1 + "\n" + s2 + "\n")
    system.write_text(s2 + "\n" + s1 + "\n")
    rc, out, err = run_cli("tags", gold, system)
    assert rc == 2 and out == "" and err.count("text-mismatch") == 2
    assert f"{system}:1" in err and "line 1" in err
    rc, out, err = run_cli("tags", gold, system, "--no-text-check", "-q")
    assert rc == 0 and "form mismatches" in out
