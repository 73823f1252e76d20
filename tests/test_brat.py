"""brat standoff (.ann + .txt): dependency trees, entity spans, errors.

Real files from brat's repository (nlplab/brat), cut to their first lines:

* tests/data/formats/brat/s101-head.{ann,txt}: the first four lines of
  ``example-data/corpora/TDT/s101`` (Turku Dependency Treebank sample; commit
  cc3fd9c4beab869f1b178f6a9065b5a491049394): tokens as entities, dependencies as
  relations, morphology as attributes, lemmas as notes.  s101-head.conllu is
  the same annotation converted by hand (the second-layer ``rel`` relation R14
  left out).
* tests/data/formats/brat/esp-503-head.{ann,txt}: the first four lines of
  ``example-data/corpora/CoNLL-ST_2002/esp.train-doc-503`` (CoNLL 2002 Spanish
  named entities; commits d3348d83c6e4e863b6b4294d67f6b19238c2da9b (.ann) and
  a38831481cd08b09b72589beb019bb801945db5a (.txt)).

Oracles: read_conllu on the hand conversion; the transcriptions of GATE's
AnnotationDiffer (tests/test_gate_spans.py) and ClassificationMeasures
(tests/test_gate_documents.py) on entity lists written out here by hand.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_gate_documents import Ann, GateCM, close
from test_gate_spans import gate_annotation_differ

from synagree.base.problems import InputError
from synagree.cli.main import main
from synagree.evaluation.brat_documents import brat_classification, brat_spans
from synagree.io.brat import read_brat
from synagree.io.conllu import read_conllu

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "formats" / "brat"
TDT = DATA / "s101-head.ann"
NER = DATA / "esp-503-head.ann"


def test_tdt_trees_equal_the_hand_conversion():
    got = read_brat(TDT, ignore=["rel"])
    want = read_conllu(DATA / "s101-head.conllu")
    assert len(got) == len(want) == 4
    for g, w in zip(got, want):
        assert g.forms == w.forms and list(g.heads) == list(w.heads)
        assert g.deprels == w.deprels and g.upos == w.upos
        assert g.feats == w.feats and g.lemmas == w.lemmas
        assert g.metadata["sent_id"] == w.metadata["sent_id"]


def test_tdt_second_head_is_a_clear_error():
    with pytest.raises(InputError) as exc:
        read_brat(TDT)
    (p,) = exc.value.errors
    assert (p.kind, p.line) == ("brat-tree", 166)  # R26 gives T22 a second head (R14 rel)
    assert "R26" in p.message and "T22" in p.message


def _edit(src: Path, dst: Path, replace: dict) -> Path:
    text = src.read_text(encoding="utf-8")
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    dst.write_text(text, encoding="utf-8")
    return dst


def test_agree_on_brat_equals_agree_on_the_hand_conversion(tmp_path, capsys):
    brat, conllu = tmp_path / "brat", tmp_path / "conllu"
    brat.mkdir()
    conllu.mkdir()
    no_rel = {"R14\trel Arg1:T25 Arg2:T22\n": ""}
    _edit(TDT, brat / "a.ann", no_rel)
    _edit(TDT, brat / "b.ann", {**no_rel, "R4\tamod Arg1:T8": "R4\tdet Arg1:T8",
                                "R10\tnommod Arg1:T8": "R10\tnommod Arg1:T13"})
    for n in "ab":
        shutil.copy(DATA / "s101-head.txt", brat / f"{n}.txt")
    src = DATA / "s101-head.conllu"
    shutil.copy(src, conllu / "a.conllu")
    # the same two edits by hand: word 1 of sentence 4 det, word 6 of sentence 4 under word 7
    _edit(src, conllu / "b.conllu",
          {"1\tViimeisetkin\tviimeinen\tA\t_\tCASE=Nom|CASECHANGE=Cap|CLIT=Foc_kin|CMP=Pos|"
           "NUM=Pl\t2\tamod": "1\tViimeisetkin\tviimeinen\tA\t_\tCASE=Nom|CASECHANGE=Cap|"
           "CLIT=Foc_kin|CMP=Pos|NUM=Pl\t2\tdet",
           "NUM=Sg\t2\tnommod": "NUM=Sg\t7\tnommod"})
    out = {}
    for kind, files in (("brat", [brat / "a.ann", brat / "b.ann"]),
                        ("conllu", [conllu / "a.conllu", conllu / "b.conllu"])):
        rc = main(["agree", *map(str, files), "--output", "json"])
        assert rc == 0, capsys.readouterr().err
        out[kind] = json.loads(capsys.readouterr().out)
    numbers = {k: v for k, v in out["conllu"].items() if isinstance(v, (int, float))}
    assert numbers and numbers["UAS"] < 1 and numbers["LAS_full"] < 1
    assert {k: out["brat"][k] for k in numbers} == numbers


# the NER file's entities, by hand from esp-503-head.ann, and a second annotator's
KEY = [(4, 19, "PER"), (20, 26, "LOC"), (36, 39, "ORG"), (129, 146, "ORG"), (187, 204, "MISC"),
       (214, 225, "ORG"), (231, 239, "ORG"), (264, 297, "LOC"), (315, 325, "ORG")]
RESPONSE_ANN = ("T1\tPER 4 19\tCristina Heusel\nT2\tLOC 20 26\tMadrid\n"
                "T3\tORG 143 146\tTVE\nT4\tORG 187 204\tLiga de Campeones\n"
                "T5\tORG 214 225\tReal Madrid\nT6\tLOC 231 239\tValencia\n"
                "T7\tLOC 264 282\tEstadio Parisiense\nT8\tORG 315 325\tLa Primera\n")
RESPONSE = [(4, 19, "PER"), (20, 26, "LOC"), (143, 146, "ORG"), (187, 204, "ORG"),
            (214, 225, "ORG"), (231, 239, "LOC"), (264, 282, "LOC"), (315, 325, "ORG")]


@pytest.fixture
def ner_pair(tmp_path):
    a = tmp_path / "key.ann"
    shutil.copy(NER, a)
    shutil.copy(DATA / "esp-503-head.txt", tmp_path / "key.txt")
    b = tmp_path / "resp.ann"
    b.write_text(RESPONSE_ANN, encoding="utf-8")
    shutil.copy(DATA / "esp-503-head.txt", tmp_path / "resp.txt")
    return a, b


def test_spans_equal_annotation_differ_per_type(ner_pair):
    res = brat_spans(list(ner_pair))
    want = [0, 0, 0, 0]
    for label in {x[2] for x in KEY + RESPONSE}:
        got = gate_annotation_differ([x for x in KEY if x[2] == label],
                                     [x for x in RESPONSE if x[2] == label], False)
        want = [w + g for w, g in zip(want, got)]
    c = res.pairs[0].counts
    assert [c.correct, c.partial, c.missing, c.spurious] == want
    assert (res.pairs[0].key, res.pairs[0].response) == ("key", "resp")


def test_categorical_equals_classification_measures(ner_pair, capsys):
    res = brat_classification(list(ner_pair))
    cm = GateCM()
    cm.calculate_confusion_matrix([Ann(s, e, {"type": t}) for s, e, t in KEY],
                                  [Ann(s, e, {"type": t}) for s, e, t in RESPONSE], "type")
    cohen, pi = cm.kappas()
    t = res.pairs[0].pooled
    assert t.total == 6 and t.agreed == 4
    assert close(t.observed, cm.observed()) and close(t.cohen_kappa, cohen)
    assert close(t.scott_pi, pi)
    rc = main(["categorical", *map(str, ner_pair), "--output", "json"])
    assert rc == 0
    assert json.loads(capsys.readouterr().out)["pairs"][0]["pooled"]["agreed_trials"] == 4
    rc = main(["spans", *map(str, ner_pair)])
    assert rc == 0 and "ORG" in capsys.readouterr().out


GOOD_TXT = "Dogs bark\n"
GOOD_ANN = "T1\tN 0 4\tDogs\nT2\tV 5 9\tbark\nR1\tnsubj Arg1:T2 Arg2:T1\n"
BAD = {
    "offsets": ("T1\tN 0 4\tDogs\nT2\tV 5 30\tbark\n", "brat-offsets", 2),
    "text": ("T1\tN 0 4\tCats\n", "brat-offsets", 1),
    "line": ("T1\tN 0 4\tDogs\nX\n", "brat-line", 2),
    "reference": (GOOD_ANN + "R2\tdep Arg1:T2 Arg2:T9\n", "brat-reference", 4),
    "cycle": ("T1\tN 0 4\tDogs\nT2\tV 5 9\tbark\nR1\tnsubj Arg1:T2 Arg2:T1\n"
              "R2\tdep Arg1:T1 Arg2:T2\n", "brat-tree", 1),
    "overlap": ("T1\tN 0 4\tDogs\nT2\tV 2 9\tgs bark\n", "brat-tree", 2),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_files_are_one_line_errors(case, tmp_path, capsys):
    content, kind, line = BAD[case]
    bad = tmp_path / "bad.ann"
    bad.write_text(content, encoding="utf-8")
    (tmp_path / "bad.txt").write_text(GOOD_TXT, encoding="utf-8")
    good = tmp_path / "good.ann"
    good.write_text(GOOD_ANN, encoding="utf-8")
    (tmp_path / "good.txt").write_text(GOOD_TXT, encoding="utf-8")
    rc = main(["agree", str(bad), str(good)])
    err = capsys.readouterr().err
    assert rc == 2 and "Traceback" not in err
    assert f"{bad}:{line}: error:" in err and f"({kind})" in err


def test_missing_text_is_an_error(tmp_path, capsys):
    bad = tmp_path / "bad.ann"
    bad.write_text(GOOD_ANN, encoding="utf-8")
    good = tmp_path / "good.ann"
    good.write_text(GOOD_ANN, encoding="utf-8")
    (tmp_path / "good.txt").write_text(GOOD_TXT, encoding="utf-8")
    for command in (["agree"], ["spans"], ["categorical"]):
        rc = main([*command, str(bad), str(good)])
        err = capsys.readouterr().err
        assert rc == 2 and "(brat-missing-text)" in err and "Traceback" not in err
