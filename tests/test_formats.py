"""The reader registry and the annotation tools' formats (issue 31 item 6, issue 33 item 1).

Each format is read from a real file of its tool, copied small into
tests/data/formats/ (sources and licences below), and its α / LAS / κ are
compared with the same annotations written by an independent route (by hand,
or by a few lines of this test that share no code with the readers) as
CoNLL-U or bracketed trees.

Data (tests/data/formats/):

* ``fr_gsd-ud-test_00006.conllu_{alice,bob,charlie}``: grew-nlp/arboratorgrew_server,
  ``test/04_multi_user/`` (Arborator-Grew's server tests: one sentence of UD French
  GSD, CC BY-SA 4.0, as saved by three users); the multi-user file is their
  concatenation, the trees of one sentence one after the other, each with its
  ``# user_id``.
* ``inception_example2.tsv``: inception-project/inception,
  ``inception/inception-io-webanno-tsv/src/test/resources/tsv3/example2.tsv``
  (Apache-2.0): WebAnno TSV 3.3 with POS, named entities and a dependency layer.
* ``wsj_0001.mrg``: nltk/nltk_data, ``corpora/treebank/combined/wsj_0001.mrg``
  (the Penn Treebank sample NLTK distributes, (C) LDC, under fair use).
* ``treetools_1.export`` and ``treetools_sample.tiger.xml``: wmaier/treetools,
  ``tests/1.export`` and the TIGER-XML sample of its tests (GPL-3.0-or-later):
  one discontinuous tree (``Who ... likes``), NEGRA export format 3 and TIGER-XML.
"""
from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

import synagree
from synagree.base.problems import InputError
from synagree.io import registry

DATA = Path(__file__).resolve().parent / "data" / "formats"
USERS = ("alice", "bob", "charlie")


def _json(run_cli, *args):
    rc, out, err = run_cli(*args, "--output", "json", "-q")
    assert rc == 0, err
    return json.loads(out)


def _numbers(doc, keys):
    return {k: doc[k] for k in keys}


def _layer_numbers(doc):
    """The numbers of each categorical layer (file names left out)."""
    keys = ("items", "units", "coefficients", "pairs", "specific", "counts", "categories")
    return {name: {k: layer.get(k) for k in keys} for name, layer in doc["layers"].items()}


def _one_line_error(run_cli, kind, *args):
    rc, out, err = run_cli(*args)
    assert rc == 2, (rc, err)
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if f"({kind})" in ln]
    assert lines, err
    return lines


# --------------------------------------------------------------------------- registry

def test_every_format_is_registered_once_with_a_reader():
    names = registry.format_names()
    assert names[0] == "auto"
    for n in ("conllu", "phrase", "ptb", "arborator", "webanno-tsv3", "tiger-xml", "negra",
              "brat", "gate"):
        assert n in names
        spec = registry.get_format(n)
        assert callable(registry.load_reader(spec.reader))
    with pytest.raises(ValueError, match="already registered"):
        registry.register_format(registry.get_format("negra"))


@pytest.mark.parametrize("name, fmt", [
    ("wsj_0001.mrg", "ptb"), ("inception_example2.tsv", "webanno-tsv3"),
    ("treetools_1.export", "negra"), ("treetools_sample.tiger.xml", "tiger-xml"),
    ("fr_gsd-ud-test_00006.conllu_alice", "conllu"), ("gate/beijing-opera.xml", "gate"),
    ("brat/s101-head.ann", "brat")])
def test_sniff_by_suffix_then_content(tmp_path, name, fmt):
    assert registry.sniff(DATA / name).name == fmt
    bare = tmp_path / "noname"  # no suffix: the content decides alone
    shutil.copy(DATA / name, bare)
    assert registry.sniff(bare).name == fmt


def test_arborator_is_sniffed_from_content(tmp_path):
    multi = tmp_path / "sample.conllu"
    multi.write_text("".join((DATA / f"fr_gsd-ud-test_00006.conllu_{u}").read_text("utf-8")
                             for u in USERS), encoding="utf-8")
    assert registry.sniff(multi).name == "arborator"
    one = tmp_path / "one.conllu"  # one user: plain CoNLL-U
    shutil.copy(DATA / "fr_gsd-ud-test_00006.conllu_alice", one)
    assert registry.sniff(one).name == "conllu"


def test_ambiguous_input_is_an_error_naming_the_candidates(tmp_path, monkeypatch, run_cli):
    fake = registry.Format("fake-bos", "phrase", (".fake",), registry.sniff_negra,
                           "synagree.io.negra:read_negra", "test only")
    monkeypatch.setitem(registry._FORMATS, "fake-bos", fake)
    f = tmp_path / "tree"
    shutil.copy(DATA / "treetools_1.export", f)
    with pytest.raises(InputError) as exc:
        registry.sniff(f)
    [p] = exc.value.errors
    assert p.kind == "ambiguous-format" and p.file == str(f)
    assert "negra" in p.message and "fake-bos" in p.message and "--format" in p.message
    g = tmp_path / "tree2"
    shutil.copy(f, g)
    _one_line_error(run_cli, "ambiguous-format", "agree", f, g)
    # --format decides
    assert [t.root.bracketed() for t in synagree.read(f, format="negra")]


def test_gate_documents_are_for_categorical_and_spans_only(run_cli, tmp_path):
    doc = DATA / "gate" / "beijing-opera.xml"
    [line] = _one_line_error(run_cli, "usage", "agree", doc, DATA / "treetools_1.export")
    assert "categorical and spans" in line
    with pytest.raises(InputError):
        synagree.read(doc)
    with pytest.raises(InputError, match="not from a stream"):
        synagree.read(io.StringIO("T1\tN 0 1\ta\n"), format="brat")


def test_read_takes_every_registered_name_and_refuses_others():
    [t] = synagree.read(DATA / "treetools_1.export", format="negra")
    assert t.words[0] == "Who"
    with pytest.raises(ValueError, match="negra"):
        synagree.read(DATA / "treetools_1.export", format="export")


# --------------------------------------------------------------------------- arborator

@pytest.fixture
def arborator(tmp_path):
    """The three users' files (named by user) and their multi-user concatenation."""
    texts = {u: (DATA / f"fr_gsd-ud-test_00006.conllu_{u}").read_text("utf-8") for u in USERS}
    # a second sentence where the users differ in a head and a label (derived from the
    # first: alice keeps it, bob moves word 3 under word 7, charlie relabels word 11)
    second = {u: t.replace("fr-ud-test_00006", "fr-ud-test_00006b") for u, t in texts.items()}
    second["bob"] = second["bob"].replace("3\tautour\tautour\tADV\t_\t_\t2\tmod",
                                          "3\tautour\tautour\tADV\t_\t_\t7\tmod")
    second["charlie"] = second["charlie"].replace("7\tpunct", "7\tmod")
    files = []
    for u in USERS:
        p = tmp_path / f"{u}.conllu"
        p.write_text(texts[u] + second[u], encoding="utf-8")
        files.append(p)
    multi = tmp_path / "sample.conllu"
    multi.write_text("".join(texts[u] for u in USERS) + "".join(second[u] for u in USERS),
                     encoding="utf-8")
    return multi, files


AGREE_KEYS = ("alpha_plain", "alpha_diff", "alpha_norm", "LAS_full", "UAS", "LA", "units",
              "annotations", "annotator_names", "counts")


def test_arborator_agree_equals_the_per_user_files(run_cli, arborator):
    multi, files = arborator
    per_user = _json(run_cli, "agree", *files)
    assert per_user["alpha_plain"] is not None and per_user["alpha_plain"] < 1
    for fmt in ("auto", "arborator"):
        whole = _json(run_cli, "agree", multi, "--format", fmt)
        assert _numbers(whole, AGREE_KEYS) == _numbers(per_user, AGREE_KEYS)


def test_arborator_categorical_and_report_equal_the_per_user_files(run_cli, arborator):
    multi, files = arborator
    whole = _json(run_cli, "categorical", multi, "--format", "arborator")
    per_user = _json(run_cli, "categorical", *files)
    assert _layer_numbers(whole) == _layer_numbers(per_user)
    # the users' UPOS of 'match' differ
    assert whole["layers"]["upos"]["coefficients"]["scott_pi"] < 1
    rc, out, err = run_cli("report", multi, "-q", "--output", "json")
    assert rc == 0, err


def test_arborator_sentence_without_user_is_a_one_line_error(run_cli, tmp_path):
    bad = tmp_path / "bad.conllu"
    text = "".join((DATA / f"fr_gsd-ud-test_00006.conllu_{u}").read_text("utf-8")
                   for u in USERS)
    bad.write_text(text.replace("# user_id = bob\n", ""), encoding="utf-8")
    [line] = _one_line_error(run_cli, "arborator-no-user", "agree", bad, "--format",
                             "arborator")
    assert line.startswith(f"{bad}:18: error:")  # bob's tree, after alice's 16 lines


# --------------------------------------------------------------------------- webanno-tsv3

def _tsv_trees(text):
    """Header plus the sentences of example2.tsv that are trees (3 to 7; sentences 1
    and 2 give some tokens two heads or none, on purpose: see the error test)."""
    blocks = text.split("\n\n")
    header = text[:text.index("#Text=")]
    return header + "\n\n".join(b for b in blocks if b.startswith("#Text=")
                                and not b.startswith(("#Text=Ms.", "#Text=Rolls")))


def _tsv_to_conllu(text):
    """An independent conversion: token lines -> CoNLL-U (the layout of example2.tsv:
    id, offsets, token, POS, NE, DependencyType, governor)."""
    out = []
    for block in text.split("\n\n"):
        rows = [ln.split("\t") for ln in block.splitlines() if ln and not ln.startswith("#")]
        if not rows:
            continue
        pos = {r[0]: str(k + 1) for k, r in enumerate(rows)}
        for k, r in enumerate(rows):
            head = "0" if r[6] == r[0] else pos[r[6]]
            out.append("\t".join([str(k + 1), r[2], "_", "_", r[3], "_", head, r[5], "_", "_"]))
        out.append("")
    return "\n".join(out) + "\n"


@pytest.fixture
def webanno(tmp_path):
    real = (DATA / "inception_example2.tsv").read_text("utf-8")
    a = _tsv_trees(real)
    # a second annotator: two labels and one head changed
    b = (a.replace("3-6\t158-162\tyear\tNN\t_\tTMP\t3-4", "3-6\t158-162\tyear\tNN\t_\tNMOD\t3-4")
          .replace("5-7\t304-308\tFeb.\tNNP\t_\tTMP\t5-5", "5-7\t304-308\tFeb.\tNNP\t_\tTMP\t5-6")
          .replace("4-3\t207-211\tInc.\tNNP\tORG[7]\tPOSTHON",
                   "4-3\t207-211\tInc.\tVB\tORG[7]\tAPPO"))
    assert b != a
    paths = {}
    for name, text in (("a", a), ("b", b)):
        paths[name] = tmp_path / f"{name}.tsv"
        paths[name].write_text(text, encoding="utf-8")
        paths[name + "c"] = tmp_path / f"{name}.conllu"
        paths[name + "c"].write_text(_tsv_to_conllu(text), encoding="utf-8")
    return paths


def test_webanno_tsv3_agree_and_categorical_equal_conllu(run_cli, webanno):
    w = webanno
    tsv = _json(run_cli, "agree", w["a"], w["b"])
    conllu = _json(run_cli, "agree", w["ac"], w["bc"], "--names", "a", "b")
    assert tsv["units"] == 5 and tsv["alpha_plain"] < 1
    assert _numbers(tsv, AGREE_KEYS) == _numbers(conllu, AGREE_KEYS)
    tsv = _json(run_cli, "categorical", w["a"], w["b"], "--layers", "deprel,xpos")
    conllu = _json(run_cli, "categorical", w["ac"], w["bc"], "--names", "a", "b",
                   "--layers", "deprel,xpos")
    assert _layer_numbers(tsv) == _layer_numbers(conllu)
    assert tsv["layers"]["xpos"]["coefficients"]["scott_pi"] < 1
    tsv = _json(run_cli, "report", w["a"], w["b"])
    conllu = _json(run_cli, "report", w["ac"], w["bc"], "--names", "a", "b")
    assert _numbers(tsv, AGREE_KEYS) == _numbers(conllu, AGREE_KEYS)


def test_webanno_tsv3_compare_equals_conllu(run_cli, webanno):
    w = webanno
    tsv = _json(run_cli, "compare", w["a"], w["b"], "--no-alpha")
    conllu = _json(run_cli, "compare", w["ac"], w["bc"], "--no-alpha", "--names", "b.tsv")
    assert tsv["systems"][0]["LAS"] != conllu["systems"][0]["UAS"]  # two different numbers
    for key in ("LAS", "UAS", "LAS_full", "UPOS", "XPOS", "Words", "counts"):
        assert tsv["systems"][0][key] == conllu["systems"][0][key]


def test_webanno_tsv3_errors_name_the_line_and_the_layer(run_cli, tmp_path):
    x, y = tmp_path / "x.tsv", tmp_path / "y.tsv"
    shutil.copy(DATA / "inception_example2.tsv", x)
    shutil.copy(DATA / "inception_example2.tsv", y)
    lines = _one_line_error(run_cli, "webanno-heads", "agree", x, y)
    assert lines[0].startswith(f"{x}:10: error: token 1-3 'plays' has 2 dependency relations")
    assert len(lines) == 12  # six tokens of sentences 1 and 2, in each file
    no_dep = tmp_path / "pos-only.tsv"
    no_dep.write_text("#FORMAT=WebAnno TSV 3.3\n"
                      "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS|PosValue\n"
                      "\n\n#Text=Dogs bark\n1-1\t0-4\tDogs\tNNS\t\n1-2\t5-9\tbark\tVBP\t\n",
                      encoding="utf-8")
    shutil.copy(no_dep, tmp_path / "pos-only2.tsv")
    [line, _] = _one_line_error(run_cli, "webanno-no-dependency-layer", "agree", no_dep,
                                tmp_path / "pos-only2.tsv")
    assert "dependency.Dependency" in line


# --------------------------------------------------------------------------- ptb

def test_ptb_mrg_several_multiline_trees(run_cli, tmp_path):
    trees = synagree.read(DATA / "wsj_0001.mrg")
    assert [t.line for t in trees] == [2, 17] and trees[1].words[:2] == ["Mr.", "Vinken"]
    # a second annotator attaches "as a nonexecutive director" to the NP, by hand
    mrg = (DATA / "wsj_0001.mrg").read_text("utf-8")
    other = mrg.replace("(NP (DT the) (NN board) )\n        (PP-CLR",
                        "(NP (DT the) (NN board) \n        (PP-CLR").replace(
        "(NN director) ))\n        (NP-TMP", "(NN director) )))\n        (NP-TMP")
    b = tmp_path / "b.mrg"
    b.write_text(other, encoding="utf-8")
    # the same trees written by hand, one a line
    one_a = tmp_path / "a1.tree"
    one_b = tmp_path / "b1.tree"
    t1 = ("( (S (NP-SBJ (NP (NNP Pierre) (NNP Vinken)) (, ,) (ADJP (NP (CD 61) (NNS years)) "
          "(JJ old)) (, ,)) (VP (MD will) (VP (VB join) {np} (NP-TMP (NNP Nov.) (CD 29)))) "
          "(. .)))")
    np_a = "(NP (DT the) (NN board)) (PP-CLR (IN as) (NP (DT a) (JJ nonexecutive) (NN director)))"
    np_b = ("(NP (DT the) (NN board) (PP-CLR (IN as) (NP (DT a) (JJ nonexecutive) "
            "(NN director))))")
    t2 = ("( (S (NP-SBJ (NNP Mr.) (NNP Vinken)) (VP (VBZ is) (NP-PRD (NP (NN chairman)) "
          "(PP (IN of) (NP (NP (NNP Elsevier) (NNP N.V.)) (, ,) (NP (DT the) (NNP Dutch) "
          "(VBG publishing) (NN group)))))) (. .)))")
    one_a.write_text(t1.format(np=np_a) + "\n" + t2 + "\n", encoding="utf-8")
    one_b.write_text(t1.format(np=np_b) + "\n" + t2 + "\n", encoding="utf-8")
    keys = ("alpha_plain", "alpha_diff", "alpha_norm", "units", "counts")
    mrg_json = _json(run_cli, "agree", DATA / "wsj_0001.mrg", b)
    hand = _json(run_cli, "agree", one_a, one_b)
    assert mrg_json["alpha_plain"] < 1
    assert _numbers(mrg_json, keys) == _numbers(hand, keys)
    # compare: PARSEVAL (EVALB reads a tree a line: the .mrg trees are joined first)
    p_mrg = _json(run_cli, "compare", DATA / "wsj_0001.mrg", b)
    p_hand = _json(run_cli, "compare", one_a, one_b)
    assert p_mrg["systems"][0]["summary"] == p_hand["systems"][0]["summary"]


# --------------------------------------------------------------------------- negra / tiger

# treetools' continuous analysis of the sentence (tests/continuous.export, bracketed),
# written by hand in the two formats
CONT_EXPORT = """#BOS 2
Who WP -- -- 504
did VB -- HD 504
Fritz NNP -- HD 504
tell VB -- HD 503
Hans NNP -- -- 503
that IN -- HD 502
Manfred NNP -- HD 501
likes VB -- HD 500
? ? -- -- 0
#500 VP -- -- 502
#501 NP -- -- 502
#502 SBAR -- -- 503
#503 VP -- -- 504
#504 S -- -- 0
#EOS 2
"""
CONT_TIGER = """<s id="2"><graph root="0"><terminals>
<t id="1" word="Who" pos="WP"/><t id="2" word="did" pos="VB"/><t id="3" word="Fritz" pos="NNP"/>
<t id="4" word="tell" pos="VB"/><t id="5" word="Hans" pos="NNP"/><t id="6" word="that" pos="IN"/>
<t id="7" word="Manfred" pos="NNP"/><t id="8" word="likes" pos="VB"/><t id="9" word="?" pos="?"/>
</terminals><nonterminals>
<nt id="500" cat="VP"><edge idref="8"/></nt><nt id="501" cat="NP"><edge idref="7"/></nt>
<nt id="502" cat="SBAR"><edge idref="6"/><edge idref="501"/><edge idref="500"/></nt>
<nt id="503" cat="VP"><edge idref="4"/><edge idref="5"/><edge idref="502"/></nt>
<nt id="504" cat="S"><edge idref="1"/><edge idref="2"/><edge idref="3"/><edge idref="503"/></nt>
<nt id="0" cat="VROOT"><edge idref="504"/><edge idref="9"/></nt>
</nonterminals></graph></s>
"""
# the two analyses as bracketed trees by hand: the discontinuous one with every node's
# children in the order of their first word (docs/method.md §1.11)
DISCONT_BR = ("(VROOT (S (VP (SBAR (VP (WP Who) (VB likes)) (IN that) (NP (NNP Manfred))) "
              "(VB tell) (NNP Hans)) (VB did) (NNP Fritz)) (? ?))")
CONT_BR = ("(VROOT (S (WP Who) (VB did) (NNP Fritz) (VP (VB tell) (NNP Hans) (SBAR (IN that) "
           "(NP (NNP Manfred)) (VP (VB likes))))) (? ?))")


@pytest.fixture
def phrase_files(tmp_path):
    """Two annotators of two sentences: A = (discontinuous, continuous), B = the reverse."""
    real_export = (DATA / "treetools_1.export").read_text("utf-8")
    real_tiger = (DATA / "treetools_sample.tiger.xml").read_text("utf-8")
    s_start, s_end = real_tiger.index("<s id"), real_tiger.index("</s>") + len("</s>")
    discont_tiger = real_tiger[s_start:s_end] + "\n"
    head, tail = real_tiger[:s_start], real_tiger[s_end:]
    out = {}
    for name, (x, y) in {"a": (0, 1), "b": (1, 0)}.items():
        export = [real_export.replace("#BOS 1\n", "#BOS {n}\n").replace("#EOS 1\n", "#EOS {n}\n"),
                  CONT_EXPORT.replace("#BOS 2\n", "#BOS {n}\n").replace("#EOS 2\n", "#EOS {n}\n")]
        tiger = [discont_tiger.replace('"1">', '"{n}">', 1),
                 CONT_TIGER.replace('id="2"', 'id="{n}"', 1)]
        brackets = [DISCONT_BR, CONT_BR]
        for ext, parts, join in (("export", export, ""), ("xml", tiger, None),
                                 ("tree", brackets, "\n")):
            text = [parts[x].replace("{n}", "1"), parts[y].replace("{n}", "2")]
            body = head + "".join(text) + tail if join is None else join.join(text) + "\n"
            out[f"{name}.{ext}"] = tmp_path / f"{name}.{ext}"
            out[f"{name}.{ext}"].write_text(body, encoding="utf-8")
    return out


PHRASE_KEYS = ("alpha_plain", "alpha_diff", "alpha_norm", "units", "annotations", "counts")


def test_negra_and_tiger_equal_hand_written_brackets(run_cli, phrase_files):
    f = phrase_files
    negra = _json(run_cli, "agree", f["a.export"], f["b.export"])
    tiger = _json(run_cli, "agree", f["a.xml"], f["b.xml"])
    # the bracketed discontinuous tree lists its words in tree order: no text check there
    hand = _json(run_cli, "agree", f["a.tree"], f["b.tree"], "--no-text-check")
    assert negra["units"] == 2 and negra["alpha_plain"] not in (None, 0, 1)
    assert _numbers(negra, PHRASE_KEYS) == _numbers(hand, PHRASE_KEYS)
    assert _numbers(tiger, PHRASE_KEYS) == _numbers(negra, PHRASE_KEYS)


def test_negra_format_4_reads_as_format_3(tmp_path):
    rows = []
    for line in (DATA / "treetools_1.export").read_text("utf-8").splitlines():
        cols = line.split()
        rows.append(line if line.startswith("#BOS") or line.startswith("#EOS")
                    else " ".join([cols[0], "--", *cols[1:]]))
    v4 = tmp_path / "v4.export"
    v4.write_text("#FORMAT 4\n" + "\n".join(rows) + "\n", encoding="utf-8")
    [a] = synagree.read(v4)
    [b] = synagree.read(DATA / "treetools_1.export")
    assert a.root == b.root and a.words == b.words and a.leaf_order == b.leaf_order


def test_discontinuous_tree_is_ordered_by_first_terminal():
    [t] = synagree.read(DATA / "treetools_sample.tiger.xml")
    assert t.root.bracketed() == "(VROOT (S (VP (SBAR (VP WP VB) IN (NP NNP)) VB NNP) VB NNP) ?)"
    assert t.leaf_order == [0, 7, 5, 6, 3, 4, 1, 2, 8]
    assert t.words[:3] == ["Who", "did", "Fritz"]


def _span_counts(doc):
    """The spans' counts and scores (no file names)."""
    assert doc["overall"]["keys"] > 0
    return doc["overall"], doc["pairs"], doc["documents"]


def test_spans_reads_negra_tiger_and_webanno(run_cli, phrase_files, webanno):
    f = phrase_files
    negra = _json(run_cli, "spans", f["a.export"], f["b.export"], "--names", "a", "b")
    tiger = _json(run_cli, "spans", f["a.xml"], f["b.xml"], "--names", "a", "b")
    hand = _json(run_cli, "spans", f["a.tree"], f["b.tree"], "--names", "a", "b",
                 "--no-text-check")
    assert _span_counts(negra) == _span_counts(hand) == _span_counts(tiger)
    w = webanno
    tsv = _json(run_cli, "spans", w["a"], w["b"], "--names", "a", "b", "--layer", "deprel")
    conllu = _json(run_cli, "spans", w["ac"], w["bc"], "--names", "a", "b", "--layer", "deprel")
    assert _span_counts(tsv) == _span_counts(conllu)


@pytest.mark.parametrize("digit", ["\u00b2", "\u2460", "\u0661"])
def test_negra_numbers_in_other_scripts_are_one_line_errors(run_cli, tmp_path, phrase_files,
                                                            digit):
    """str.isdigit() is true of '²', '①' and Arabic-Indic digits, which int() refuses: a
    parent or node number written so is a negra-line error (the fuzz found exit 3)."""
    text = (DATA / "treetools_1.export").read_text("utf-8")
    for old in ("HD      501", "#503"):
        bad = tmp_path / f"bad{len(old)}.export"
        bad.write_text(text.replace(old, old[:-1] + digit, 1), encoding="utf-8")
        for command in ("agree", "spans"):
            kind = "negra-line" if old.startswith("HD") else "bad-parent"  # '#50²': no node
            _one_line_error(run_cli, kind, command, bad, phrase_files["b.export"],
                            "--format", "negra")


def test_bad_negra_and_tiger_are_one_line_errors(run_cli, tmp_path, phrase_files):
    bad = tmp_path / "bad.export"
    bad.write_text((DATA / "treetools_1.export").read_text("utf-8").replace(
        "HD      501", "HD      599"), encoding="utf-8")
    [line] = _one_line_error(run_cli, "bad-parent", "agree", bad, phrase_files["b.export"])
    assert line.startswith(f"{bad}:8: error: parent '599'")
    xml = tmp_path / "bad.xml"
    xml.write_text((DATA / "treetools_sample.tiger.xml").read_text("utf-8").replace(
        "</nt>", "", 1), encoding="utf-8")
    [line] = _one_line_error(run_cli, "xml-syntax", "agree", xml, phrase_files["b.xml"])
    assert line.startswith(f"{xml}:")
    _one_line_error(run_cli, "discontinuous-tree", "compare", phrase_files["a.export"],
                    phrase_files["b.export"])


def test_webanno_tsv3_tags_equals_conllu(run_cli, webanno):
    w = webanno
    for column in ("deprel", "xpos"):
        tsv = _json(run_cli, "tags", w["a"], w["b"], "--column", column)
        conllu = _json(run_cli, "tags", w["ac"], w["bc"], "--column", column)
        assert tsv["accuracy"] == conllu["accuracy"] and tsv["accuracy"] < 1
        assert tsv["per_tag"] == conllu["per_tag"]
