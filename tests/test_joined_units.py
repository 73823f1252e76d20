"""Real annotations as they come (issue 19, docs/method.md §1.7–1.10).

Joined units where annotators split the text differently, edited units where
their texts differ by local edits, ``--match text``, one round of problems,
pooled κ/π item sets, texts without words, and ``tags`` by sent_id.

The hand-joined files are written by the helpers of this module, which work
on the CoNLL lines as text (renumbering IDs and HEADs), independently of
``synagree.io.units``: a unit joined by synagree must give exactly the
numbers of the same sentences written out by hand as one multi-root
sentence on every side.
"""
from __future__ import annotations

import json
import random
import re
import unicodedata
from pathlib import Path
from typing import Dict, List, Sequence

import pytest

import synagree
from synagree.base.problems import InputError

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
NDT = SHARED / "iaa" / "ndt"
TEXTS = ("caterpillar", "danish", "norwegian", "swedish")

Block = List[List[str]]  # a sentence: its word lines, split into 10 columns


# --------------------------------------------------------------------------- helpers
# (text-level, independent of synagree)


def _ndt(name: str) -> Path:
    p = NDT / name
    if not p.is_file():
        pytest.skip(f"shared data not found at {p}")
    return p


def read_blocks(path: Path) -> List[Block]:
    """The sentences of a CoNLL file as lists of 10-column rows (comments dropped)."""
    out: List[Block] = []
    cur: Block = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            if cur:
                out.append(cur)
            cur = []
        elif not line.startswith("#"):
            cur.append(line.split("\t"))
    if cur:
        out.append(cur)
    return out


def merge(blocks: Sequence[Block]) -> Block:
    """Sentences written as ONE sentence: IDs and non-zero HEADs renumbered, so every
    sentence root keeps HEAD 0 (a multi-root sentence)."""
    out: Block = []
    offset = 0
    for b in blocks:
        for row in b:
            row = list(row)
            row[0] = str(int(row[0]) + offset)
            if row[6] != "0":
                row[6] = str(int(row[6]) + offset)
            out.append(row)
        offset += len(b)
    return out


def delete_leaf(block: Block) -> Block:
    """The sentence without its last word that no other word depends on (not a root)."""
    heads = {int(r[6]) for r in block}
    k = max(int(r[0]) for r in block if int(r[0]) not in heads and r[6] != "0")
    out = []
    for row in block:
        i, h = int(row[0]), int(row[6])
        if i == k:
            continue
        row = list(row)
        row[0] = str(i - 1 if i > k else i)
        row[6] = str(h - 1 if h > k else h)
        out.append(row)
    return out


def relabel(block: Block, every: int = 5) -> Block:
    """Every ``every``-th word gets the label XX (a third annotator's choices)."""
    return [r[:7] + ["XX"] + r[8:] if int(r[0]) % every == 0 else list(r) for r in block]


def write_blocks(path: Path, blocks: Sequence[Block], ids: Sequence[str] = ()) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    parts = []
    for k, b in enumerate(blocks):
        head = f"# sent_id = {ids[k]}\n" if ids else ""
        parts.append(head + "\n".join("\t".join(r) for r in b) + "\n")
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path


def apply_groups(blocks: List[Block], groups: Sequence[Sequence[int]]) -> List[Block]:
    """Each group of consecutive sentence indices merged into one sentence."""
    starts = {g[0]: g for g in groups}
    out: List[Block] = []
    i = 0
    while i < len(blocks):
        if i in starts:
            g = starts[i]
            out.append(merge([blocks[k] for k in g]))
            i = g[-1] + 1
        else:
            out.append(blocks[i])
            i += 1
    return out


def numbers(res) -> Dict[str, float]:
    out = {f"alpha_{v}": res.alpha_value(v) for v in ("plain", "diff", "norm")}
    out.update({m: res.scores.ratio(m) for m in res.score_names})
    out.update(units=res.units, annotations=res.annotations, ignored=res.scores.ignored)
    return out


# --------------------------------------------------------------------------- joined units


def test_crossing_merges_equal_hand_joined_sentences(tmp_path):
    """Annotator 1 merges sentences i, i+1, annotator 2 merges i+1, i+2 (four
    groups): each group becomes one joined unit, and every number equals that
    of the files where every annotator writes i..i+2 as one multi-root
    sentence."""
    odin = read_blocks(_ndt("odin-danish.conll"))
    thor = read_blocks(_ndt("thor-danish.conll"))
    cleo = [relabel(b) for b in thor]
    starts = (2, 10, 31, 57)
    a = apply_groups(odin, [(i, i + 1) for i in starts])
    b = apply_groups(thor, [(i + 1, i + 2) for i in starts])
    files = [write_blocks(tmp_path / "split" / f"{n}.conllu", x)
             for n, x in (("odin", a), ("thor", b), ("cleo", cleo))]
    joined = synagree.agree(files)
    assert joined.corpus.joined_units == 4 and joined.corpus.edited_units == 0
    assert joined.corpus.matching == "position" and joined.corpus.text_check == "on"
    triples = [(i, i + 1, i + 2) for i in starts]
    hand = [write_blocks(tmp_path / "hand" / f"{n}.conllu", apply_groups(x, triples))
            for n, x in (("odin", odin), ("thor", thor), ("cleo", cleo))]
    by_hand = synagree.agree(hand)
    assert by_hand.corpus.joined_units == 0
    assert numbers(joined) == pytest.approx(numbers(by_hand), rel=1e-12, abs=1e-12)
    assert joined.units == len(odin) - 2 * len(starts)
    unit = next(u for u in joined.corpus.units if u.joined)
    assert [len(unit.parts[n]) for n in ("odin", "thor", "cleo")] == [2, 2, 3]
    assert unit.uid == "3+4"  # odin's sentences 3 and 4 (the first annotator's)


def test_sentence_without_text_keeps_its_place(tmp_path):
    """A sentence whose forms are all '_' (UD EWT has lines of underscores) does
    not stop the texts of its document from being aligned."""
    odin = read_blocks(_ndt("odin-danish.conll"))
    thor = read_blocks(_ndt("thor-danish.conll"))
    for blocks in (odin, thor):
        blocks[20] = [r[:1] + ["_"] + r[2:] for r in blocks[20]]
    a = write_blocks(tmp_path / "a.conllu", apply_groups(odin, [(50, 51)]))
    b = write_blocks(tmp_path / "b.conllu", thor)
    res = synagree.agree([a, b])
    assert res.corpus.joined_units == 1 and res.units == len(odin) - 1
    assert any("1 unit(s) have an annotation without word forms" in n for n in res.notes)
    unit = next(u for u in res.corpus.units if not u.annotations["a"].surface_text())
    assert unit.uid == "21" and not unit.joined


@pytest.mark.slow
def test_joined_units_in_every_output(tmp_path, run_cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # text tables fit the terminal: room for the paths
    odin = read_blocks(_ndt("odin-danish.conll"))
    thor = read_blocks(_ndt("thor-danish.conll"))
    a = write_blocks(tmp_path / "odin.conllu", apply_groups(odin, [(4, 5)]))
    b = write_blocks(tmp_path / "thor.conllu", thor)
    rc, out, err = run_cli("agree", a, b, "--output", "json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["joined_units"] == 1 and d["edited_units"] == 0
    [change] = d["details"]["unit_changes"]
    assert change["joined"] and change["unit"] == "5"
    assert [len(v) for v in change["sentences"].values()] == [1, 2]
    rc, out, err = run_cli("agree", a, b)
    assert rc == 0 and re.search(r"^joined units +1$", out, re.M)
    assert re.search(r"^edited units +0$", out, re.M)
    assert "1 unit(s) join several sentences" in out
    rc, out, err = run_cli("agree", a, b, "--output", "csv")
    assert rc == 0 and "joined_units" in out.splitlines()[0]
    rc, out, err = run_cli("agree", a, b, "--worst", "2")
    assert rc == 0 and "1 joined or edited unit(s)" in out and f"{b}:" in out
    rc, out, err = run_cli("agree", a, b, "--output", "latex")
    assert rc == 0 and "% units: 1 joined units, 0 edited units" in out
    rc, out, err = run_cli("categorical", a, b, "--output", "json")
    assert rc == 0 and json.loads(out)["joined_units"] == 1
    rc, out, err = run_cli("report", a, b, "-o", tmp_path / "r.html", "--bootstrap", "0")
    assert rc == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "1 joined or edited unit(s)" in page


#: per text: how each annotator groups sentences, and the smallest groups that cover
#: every annotator's (what a joined unit is, written by hand)
SPLITS: Dict[str, Dict[str, List[Sequence[int]]]] = {
    "danish": {"odin": [(3, 4), (40, 41)], "thor": [(4, 5), (41, 42)], "cleo": [],
               "by hand": [(3, 4, 5), (40, 41, 42)]},
    "swedish": {"odin": [], "thor": [], "cleo": [(5, 6), (20, 21)],
                "by hand": [(5, 6), (20, 21)]},
}


def _cdt_style(root: Path, joined: bool) -> List[Path]:
    """Three annotators' directories of the NDT texts as they come: cleo lacks a
    document, the annotators split some sentences differently, and some texts
    carry edits (a word deleted, a form changed).  ``joined``: every group of
    sentences split differently is written by hand as one sentence on every
    side instead."""
    for text in TEXTS:
        odin = read_blocks(_ndt(f"odin-{text}.conll"))
        thor = read_blocks(_ndt(f"thor-{text}.conll"))
        cleo = [relabel(b) for b in thor]
        if text == "danish":
            odin[41] = delete_leaf(odin[41])  # an edit inside a joined unit
        if text == "swedish":
            thor[10] = delete_leaf(thor[10])
        if text == "norwegian":  # a form changed: the word count stays
            k = len(cleo[12]) // 2
            cleo[12] = [r[:1] + [r[1] + "x"] + r[2:] if int(r[0]) == k else r
                        for r in cleo[12]]
        splits = SPLITS.get(text, {})
        for name, blocks in (("odin", odin), ("thor", thor), ("cleo", cleo)):
            if name == "cleo" and text == "caterpillar":
                continue  # a document cleo did not annotate
            groups = splits.get("by hand" if joined else name, [])
            write_blocks(root / name / f"{name}-{text}.conll", apply_groups(blocks, groups))
    return [root / n for n in ("odin", "thor", "cleo")]


@pytest.mark.slow
def test_cdt_style_directories_with_missing_resplit_and_edited(tmp_path, run_cli):
    """``agree --dirs A B C --allow-missing`` on documents per annotator, some
    missing, some re-split or edited: exit 0 without --no-text-check, the
    joined and edited units counted, and the numbers of the same files with
    every joined unit written out by hand as one multi-root sentence."""
    dirs = _cdt_style(tmp_path / "as-they-come", joined=False)
    rc, out, err = run_cli("agree", "--dirs", *dirs, "--allow-missing", "--output", "json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["joined_units"] == 4  # two crossing merges (danish), two merges (swedish)
    assert d["edited_units"] == 3  # a word deleted in a joined unit, a word deleted, a form
    assert err.count("(text-edit)") == 3
    res = synagree.agree(dirs=dirs, allow_missing=True)
    hand = synagree.agree(dirs=_cdt_style(tmp_path / "by-hand", joined=True), allow_missing=True)
    assert hand.corpus.joined_units == 0 and hand.corpus.edited_units == 3
    assert numbers(res) == pytest.approx(numbers(hand), rel=1e-12, abs=1e-12)
    assert res.scores.ignored == 3  # every edited unit is out of LAS (one keeps its length)
    edited = [u for u in res.corpus.units if u.edited]
    assert sorted(len(u.edits[0].pieces) for u in edited) == [1, 1, 1]
    assert any(u.joined for u in edited)


def test_edit_with_equal_word_count_is_out_of_las_but_in_alpha(tmp_path):
    odin = read_blocks(_ndt("odin-caterpillar.conll"))
    edited = [list(map(list, b)) for b in odin]
    edited[3][0][1] = edited[3][0][1] + "s"
    a = write_blocks(tmp_path / "a.conllu", odin)
    b = write_blocks(tmp_path / "b.conllu", edited)
    res = synagree.agree([a, b])
    assert res.corpus.edited_units == 1 and res.scores.ignored == 1
    assert res.units == len(odin)  # kept in alpha
    [w] = [p for p in res.warnings if p.kind == "text-edit"]
    assert w.file == str(b) and "kept in alpha" in w.message
    with pytest.raises(InputError) as ei:  # --strict: the warning is an error
        synagree.agree([a, b], strict=True)
    assert [e.kind for e in ei.value.errors] == ["text-edit"]


def test_phrase_structure_joined_units_equal_hand_joined(tmp_path):
    """Bracketed trees: a joined unit is the trees under one unlabelled bracket,
    as ``( (S ...) (S ...) )`` written by hand reads."""
    trees = ["(S (NP (D the) (N dog)) (VP (V barked)))", "(S (NP (N cats)) (VP (V nap)))",
             "(S (INTJ (UH yes)))", "(S (NP (PRP it)) (VP (V rained) (ADV again)))"]
    other = ["(S (NP (D the) (N dog)) (VP (V barked)))", "(S (NP (N cats)) (V nap))",
             "(S (UH yes))", "(S (NP (PRP it)) (VP (V rained)) (ADV again))"]
    a = tmp_path / "a.mrg"
    b = tmp_path / "b.mrg"
    a.write_text("\n".join(trees) + "\n")
    b.write_text("\n".join([other[0], f"( {other[1]} {other[2]} )", other[3]]) + "\n")
    res = synagree.agree([a, b])
    assert res.corpus.joined_units == 1
    ha, hb = tmp_path / "ha.mrg", tmp_path / "hb.mrg"
    ha.write_text("\n".join([trees[0], f"( {trees[1]} {trees[2]} )", trees[3]]) + "\n")
    hb.write_text(b.read_text())
    hand = synagree.agree([ha, hb])
    assert numbers(res) == pytest.approx(numbers(hand), rel=1e-12, abs=1e-12)


# --------------------------------------------------------------------------- --match text


def test_match_text_equals_hand_aligned(tmp_path, run_cli):
    """The same trees in another order, with other ids and extra sentences on one
    side: --match text gives the numbers of the files aligned by hand, and the
    same numbers once the extra sentences are deleted."""
    odin = read_blocks(_ndt("odin-danish.conll"))
    thor = read_blocks(_ndt("thor-danish.conll"))
    extra = read_blocks(_ndt("thor-swedish.conll"))[:25]
    by_hand = synagree.agree([write_blocks(tmp_path / "o.conllu", odin),
                              write_blocks(tmp_path / "t.conllu", thor)])
    rng = random.Random(5)
    order = list(range(len(thor)))
    rng.shuffle(order)
    shuffled = [thor[i] for i in order]
    ids = [f"t-{rng.randrange(10**6)}-{k}" for k in range(len(thor))]
    a = write_blocks(tmp_path / "a.conllu", odin, [f"a{k}" for k in range(len(odin))])
    with_extra = shuffled[:]
    for k, x in enumerate(extra):
        with_extra.insert(rng.randrange(len(with_extra) + 1), x)
    b = write_blocks(tmp_path / "b.conllu", with_extra,
                     ids + [f"x{k}" for k in range(len(extra))])
    c = write_blocks(tmp_path / "c.conllu", shuffled, ids)
    res = synagree.agree([a, b], match="text")
    assert res.corpus.matching == "text"
    assert numbers(res) == pytest.approx(numbers(by_hand), rel=1e-12, abs=1e-12)
    assert res.units_total == len(odin) + len(extra)
    assert any(f"{len(extra)} sentence(s) have the same words in no other" in n
               for n in res.notes)
    without = synagree.agree([a, c], match="text")
    assert numbers(without) == pytest.approx(numbers(by_hand), rel=1e-12, abs=1e-12)
    # auto matches by sent_id here (every sentence has one): nothing pairs, and the
    # error names --match text
    rc, out, err = run_cli("agree", a, b)
    assert rc == 2 and "--match text" in err
    rc, out, err = run_cli("agree", a, b, "--match", "text", "--output", "json")
    assert rc == 0, err
    assert json.loads(out)["matching"] == "text"


def test_match_text_with_dirs_and_duplicates(tmp_path):
    """A word sequence twice in one file and once in the other is ambiguous: an
    error naming both places; twice in both files, it is matched one to one."""
    odin = read_blocks(_ndt("odin-caterpillar.conll"))
    thor = read_blocks(_ndt("thor-caterpillar.conll"))
    write_blocks(tmp_path / "odin" / "cat.conllu", odin + [odin[2]])
    write_blocks(tmp_path / "thor" / "cat.conllu", list(reversed(thor)))
    dirs = [tmp_path / "odin", tmp_path / "thor"]
    with pytest.raises(InputError) as ei:
        synagree.agree(dirs=dirs, match="text")
    [e] = ei.value.errors
    assert e.kind == "duplicate-text" and e.line is not None and "also sentence 3" in e.message
    write_blocks(tmp_path / "thor" / "cat.conllu", list(reversed(thor)) + [thor[2]])
    res = synagree.agree(dirs=dirs, match="text")
    assert res.units == len(odin) + 1


# --------------------------------------------------------------------------- shifts


def test_shifted_file_is_refused_in_every_positional_mode(tmp_path, run_cli):
    """A file rotated by one sentence: exit 2 by position, by auto, by sent_id
    (ids given by position, so each id names the next sentence's text); only
    --no-text-check pairs by position.  --match text is not position pairing:
    it finds every sentence's counterpart and gives the in-order numbers."""
    odin = read_blocks(_ndt("odin-swedish.conll"))
    thor = read_blocks(_ndt("thor-swedish.conll"))
    rotated = thor[1:] + thor[:1]
    a = write_blocks(tmp_path / "a.conllu", odin)
    b = write_blocks(tmp_path / "b.conllu", rotated)
    for mode in ("auto", "position"):
        rc, out, err = run_cli("agree", a, b, "--match", mode)
        assert rc == 2 and out == "" and "unaligned-sentence" in err, mode
    ids = [f"s{k}" for k in range(len(odin))]
    ia = write_blocks(tmp_path / "ia.conllu", odin, ids)
    ib = write_blocks(tmp_path / "ib.conllu", rotated, ids)
    for mode in ("auto", "sent_id"):
        with pytest.raises(InputError) as ei:
            synagree.agree([ia, ib], match=mode)
        kinds = {e.kind for e in ei.value.errors}
        assert kinds == {"text-shift", "text-mismatch"}, mode
        assert sum(e.kind == "text-shift" for e in ei.value.errors) >= len(odin) - 2
    rc, out, err = run_cli("agree", ia, ib, "--no-text-check", "--output", "json")
    assert rc == 0 and json.loads(out)["text_check"] == "off"
    in_order = synagree.agree([a, write_blocks(tmp_path / "t.conllu", thor)])
    assert numbers(synagree.agree([a, b], match="text")) == pytest.approx(numbers(in_order))


# --------------------------------------------------------------------------- one round


def test_every_problem_in_one_round(tmp_path, run_cli):
    """A missing document, a bad row and an unaligned sentence, in three
    documents, are reported together, not one class of problem per run."""
    odin = read_blocks(_ndt("odin-caterpillar.conll"))
    thor = read_blocks(_ndt("thor-caterpillar.conll"))
    for name, blocks in (("odin", odin), ("thor", thor)):
        write_blocks(tmp_path / name / "one.conllu", blocks)
    write_blocks(tmp_path / "odin" / "missing.conllu", odin)  # thor lacks it
    write_blocks(tmp_path / "odin" / "bad.conllu", odin)
    bad = thor[:2] + [[r[:6] + ["99"] + r[7:] for r in thor[2]]] + thor[3:]
    write_blocks(tmp_path / "thor" / "bad.conllu", bad)
    write_blocks(tmp_path / "odin" / "unaligned.conllu", odin)
    write_blocks(tmp_path / "thor" / "unaligned.conllu", thor[:4] + thor[5:])
    rc, out, err = run_cli("agree", "--dirs", tmp_path / "odin", tmp_path / "thor")
    assert rc == 2 and out == ""
    for kind in ("missing-annotation", "head-out-of-range", "unaligned-sentence"):
        assert f"({kind})" in err, kind


# --------------------------------------------------------------------------- no text


def _delex(blocks: List[Block]) -> List[Block]:
    return [[r[:1] + ["_", "_"] + r[3:] for r in b] for b in blocks]


def test_forms_all_underscore_rotated_is_refused(tmp_path, run_cli):
    odin = _delex(read_blocks(_ndt("odin-danish.conll")))
    thor = _delex(read_blocks(_ndt("thor-danish.conll")))
    a = write_blocks(tmp_path / "a.conll", odin)
    b = write_blocks(tmp_path / "b.conll", thor[1:] + thor[:1])
    rc, out, err = run_cli("agree", a, b)
    assert rc == 2 and "(position-mismatch)" in err and "sent_id" in err
    rc, out, err = run_cli("agree", a, b, "--no-text-check", "-q")
    assert rc == 0
    c = write_blocks(tmp_path / "c.conll", [delete_leaf(x) if k == 7 else x
                                           for k, x in enumerate(thor)])
    res = synagree.agree([a, c])
    assert res.corpus.text_check == "not possible"
    assert any("1 of 130 unit(s) paired by position without word forms differ in word count"
               in n for n in res.notes)


def test_nfd_text_pairs_with_nfc_and_compatibility_characters_are_named(tmp_path):
    odin = read_blocks(_ndt("odin-danish.conll"))
    thor = read_blocks(_ndt("thor-danish.conll"))
    nfd = [[r[:1] + [unicodedata.normalize("NFD", r[1])] + r[2:] for r in b] for b in thor]
    assert any(r[1] != unicodedata.normalize("NFC", r[1]) for b in nfd for r in b)
    a = write_blocks(tmp_path / "a.conllu", odin)
    res = synagree.agree([a, write_blocks(tmp_path / "nfd.conllu", nfd)])
    plain_ = synagree.agree([a, write_blocks(tmp_path / "t.conllu", thor)])
    assert numbers(res) == pytest.approx(numbers(plain_), rel=1e-12, abs=1e-12)
    assert res.corpus.edited_units == 0
    lig = [list(map(list, b)) for b in thor]
    lig[0][0][1] = "ﬁ" + lig[0][0][1]
    odin2 = [list(map(list, b)) for b in odin]
    odin2[0][0][1] = "fi" + odin2[0][0][1]
    res = synagree.agree([write_blocks(tmp_path / "a2.conllu", odin2),
                          write_blocks(tmp_path / "lig.conllu", lig)])
    [w] = [p for p in res.warnings if p.kind == "text-edit"]
    assert "NFKC" in w.message


# --------------------------------------------------------------------------- pooled κ/π


def test_pooled_kappa_pi_say_which_items(tmp_path, run_cli, monkeypatch):
    """Three annotators, one of them missing a document: κ and π cover only the
    items every annotator coded, and the row says how many."""
    monkeypatch.setenv("COLUMNS", "400")  # the header whole on one line
    odin = read_blocks(_ndt("odin-caterpillar.conll"))
    thor = read_blocks(_ndt("thor-caterpillar.conll"))
    for name, blocks in (("odin", odin), ("thor", thor), ("cleo", [relabel(b) for b in thor])):
        write_blocks(tmp_path / name / "cat.conllu", blocks)
        write_blocks(tmp_path / name / "more.conllu", blocks[:5]) if name != "cleo" else None
    dirs = [tmp_path / n for n in ("odin", "thor", "cleo")]
    rc, out, err = run_cli("categorical", "--dirs", *dirs, "--allow-missing", "--output", "json")
    assert rc == 0, err
    deprel = json.loads(out)["layers"]["deprel"]
    words = sum(len(b) for b in odin)
    assert deprel["items"] == words + sum(len(b) for b in odin[:5])
    assert deprel["coefficient_items"] == {"observed": deprel["items"], "cohen_kappa": words,
                                           "scott_pi": words, "alpha_nominal": deprel["items"]}
    rc, out, err = run_cli("categorical", "--dirs", *dirs, "--allow-missing")
    header = out.splitlines()[1]
    assert header.split()[:3] == ["layer", "items", "complete_items"]
    row = out.splitlines()[2].split()
    assert row[:3] == ["deprel", str(deprel["items"]), str(words)]
    assert "use only the items coded by all 3 annotators" in out


# --------------------------------------------------------------------------- tags


def test_tags_pairs_by_sent_id(tmp_path, run_cli):
    odin = read_blocks(_ndt("odin-caterpillar.conll"))
    thor = read_blocks(_ndt("thor-caterpillar.conll"))
    ids = [f"s{k}" for k in range(len(odin))]
    g = write_blocks(tmp_path / "g.conllu", odin, ids)
    s = write_blocks(tmp_path / "s.conllu", thor, ids)
    order = list(reversed(range(len(thor))))
    sh = write_blocks(tmp_path / "sh.conllu", [thor[i] for i in order], [ids[i] for i in order])
    rc, in_order, err = run_cli("tags", g, s, "--output", "json")
    assert rc == 0, err
    rc, shuffled, err = run_cli("tags", g, sh, "--output", "json")
    assert rc == 0, err
    x, y = json.loads(in_order), json.loads(shuffled)
    assert x["accuracy"] == y["accuracy"] and x["counts"] == y["counts"]
