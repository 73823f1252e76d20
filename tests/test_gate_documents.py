"""GATE XML documents: the reader, GATE's ClassificationMeasures and AnnotationDiffer on them.

Oracles, written here from GATE's Java sources without synagree:

* ``gate_classification_measures`` / ``gate_pooled``: a line-by-line transcription of
  ``gate.util.ClassificationMeasures`` (gate-core,
  ``src/main/java/gate/util/ClassificationMeasures.java``, commit
  201b66e65604078fa57b47fb23333b17be1c19ed): the double loop over set 1 with its
  duplicate check, the coextensive search in set 2, the hash of hashes, the
  ``TreeSet`` of values, ``computeKappaPairwise`` in Java ``float`` (numpy.float32),
  and the ``ClassificationMeasures(Collection)`` constructor that sums the tables.
* ``gate_annotation_differ`` of tests/test_gate_spans.py (``AnnotationDiffer``).
* GATE's own expected values: ``gate.util.TestClassificationMeasures`` (gate-core,
  ``src/test/java/gate/util/TestClassificationMeasures.java``) asserts observed
  agreement 0.7777778, Cohen's kappa 0.6086957 and pi 0.59550565 for sets ann1/ann2,
  type ``sent``, feature ``Op`` of ``tests/iaa/beijing-opera.xml``, the real GATE
  document copied to tests/data/formats/gate/beijing-opera.xml from gate-core
  (``src/test/resources/gate/resources/gate.ac.uk/tests/iaa/beijing-opera.xml``,
  commit d98ea8928d5867e5aeb504f07dc6cdd1176c012e).

The documents are parsed for the oracles with xml.etree.ElementTree, not with
synagree's expat reader.
"""
from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest
from test_gate_spans import gate_annotation_differ

from synagree.base.problems import InputError
from synagree.cli.main import main
from synagree.evaluation.gate_documents import gate_classification, gate_spans
from synagree.io.gate_xml import read_gate_xml
from synagree.stats.gate_classification import classification_table, pool_tables

ROOT = Path(__file__).resolve().parents[1]
BEIJING = ROOT / "tests" / "data" / "formats" / "gate" / "beijing-opera.xml"

F32 = np.float32


# ------------------------------------------------------------------ GATE, transcribed
class Ann:
    """A GATE annotation as ClassificationMeasures sees it (identity = object)."""

    def __init__(self, start: int, end: int, features: Dict[str, str]):
        self.start, self.end, self.features = start, end, features

    def coextensive(self, other: "Ann") -> bool:
        return self.start == other.start and self.end == other.end


class GateCM:
    """gate.util.ClassificationMeasures, transcribed."""

    def __init__(self):
        self.feature_values: List[str] = []  # a TreeSet<String>, kept sorted
        self.matrix: List[List[F32]] = []

    @staticmethod
    def _tree_set(values) -> List[str]:
        return sorted(set(values), key=lambda s: s.encode("utf-16-be"))

    def calculate_confusion_matrix(self, as1: List[Ann], as2: List[Ann], feature: str):
        values = []
        count_map: Dict[str, Dict[str, F32]] = {}
        relevant1 = [a for a in as1 if feature in a.features]
        relevant2 = [a for a in as2 if feature in a.features]
        for ann1 in relevant1:
            dupes = []
            for other in relevant1:
                if other is ann1:
                    continue
                if other.coextensive(ann1):
                    dupes.append(other)
                    dupes.append(ann1)
            if len(dupes) > 1:
                continue
            coext = [ann2 for ann2 in relevant2 if ann2.coextensive(ann1)]
            if len(coext) == 1:
                v1 = str(ann1.features[feature])
                v2 = str(coext[0].features[feature])
                values += [v1, v2]
                sub = count_map.get(v1)
                if sub is None:
                    count_map[v1] = {v2: F32(1)}
                else:
                    c = sub.get(v2)
                    sub[v2] = F32(1) if c is None else F32(int(c) + 1)
        self.feature_values = self._tree_set(values)
        self.matrix = self._convert(count_map, self.feature_values)

    @staticmethod
    def _convert(count_map, values) -> List[List[F32]]:
        return [[count_map.get(a, {}).get(b, F32(0)) for b in values] for a in values]

    @classmethod
    def pooled(cls, tables: List["GateCM"]) -> "GateCM":
        count_map: Dict[str, Dict[str, F32]] = {}
        new_values = []
        for t in tables:
            for i, v1 in enumerate(t.feature_values):
                new_values.append(v1)
                for j, v2 in enumerate(t.feature_values):
                    add = t.matrix[i][j]
                    sub = count_map.get(v1)
                    if sub is None:
                        count_map[v1] = {v2: add}
                    else:
                        c = sub.get(v2)
                        sub[v2] = add if c is None else F32(F32(int(c)) + add)
        out = cls()
        out.feature_values = cls._tree_set(new_values)
        out.matrix = cls._convert(count_map, out.feature_values)
        return out

    def observed(self) -> F32:
        agreed = F32(0)
        for i in range(len(self.feature_values)):
            agreed = F32(agreed + self.matrix[i][i])
        total = F32(0)
        for row in self.matrix:
            for x in row:
                total = F32(total + x)
        return F32(agreed / total) if total > 0 else F32(0)

    def kappas(self) -> Tuple[F32, F32]:
        obs = self.observed()
        k = len(self.feature_values)
        mc = [F32(0)] * k
        mr = [F32(0)] * k
        total = F32(0)
        for i in range(k):
            s = F32(0)
            for j in range(k):
                s = F32(s + self.matrix[i][j])
            mc[i] = s
            total = F32(total + s)
            s = F32(0)
            for j in range(k):
                s = F32(s + self.matrix[j][i])
            mr[i] = s
        pe = F32(0)
        if total > 0:
            double_sum = F32(total * total)
            for i in range(k):
                pe = F32(pe + F32(F32(mc[i] * mr[i]) / double_sum))
        if pe == F32(1.0):
            cohen = F32(1.0)
        elif total > 0:
            cohen = F32(F32(obs - pe) / F32(F32(1.0) - pe))
        else:
            cohen = F32(0)
        pe = F32(0)
        if total > 0:
            double_sum = F32(2 * total)
            for i in range(k):
                p = F32(F32(mc[i] + mr[i]) / double_sum)
                pe = F32(pe + F32(p * p))
        if pe == F32(1.0):
            pi = F32(1.0)
        elif total > 0:
            pi = F32(F32(obs - pe) / F32(F32(1.0) - pe))
        else:
            pi = F32(0)
        return cohen, pi


Record = Tuple[int, int, int, str, Dict[str, str]]


def etree_sets(path: Path) -> Tuple[str, Dict[str, List[Record]]]:
    """(text, {set: [(id, start, end, type, features)]}) by ElementTree (the oracle's parser)."""
    root = ET.parse(path).getroot()
    twn = root.find("TextWithNodes")
    offsets = {}
    text = twn.text or ""
    for node in twn:
        offsets[node.get("id")] = len(text)
        text += node.tail or ""
    sets = {}
    for s in root.findall("AnnotationSet"):
        anns = []
        for a in s.findall("Annotation"):
            feats = {f.find("Name").text or "": f.find("Value").text or ""
                     for f in a.findall("Feature")}
            anns.append((int(a.get("Id")), offsets[a.get("StartNode")],
                         offsets[a.get("EndNode")], a.get("Type"), feats))
        sets[s.get("Name", "")] = sorted(anns)
    return text, sets


def oracle_cm(sets, s1: str, s2: str, type_: str, feature: str) -> GateCM:
    cm = GateCM()
    cm.calculate_confusion_matrix([Ann(a[1], a[2], a[4]) for a in sets[s1] if a[3] == type_],
                                  [Ann(a[1], a[2], a[4]) for a in sets[s2] if a[3] == type_],
                                  feature)
    return cm


def close(ours: float, gate: F32) -> bool:
    return abs(ours - float(gate)) <= 2e-6 * max(1.0, abs(float(gate)))


# ------------------------------------------------------------------ random documents
def random_document(rng: random.Random, path: Path, sets=("A", "B", "C")) -> Path:
    """A GATE XML document with random sentences (duplicates and missing features included)."""
    length = 200
    text = "".join(rng.choice("abcde ") for _ in range(length))
    spans = [(s, s + rng.randint(1, 12)) for s in sorted(rng.sample(range(length - 13), 12))]
    values = ["true", "false", "maybe", ""]
    node_ids = sorted({0, length} | {x for sp in spans for x in sp})
    parts, last = [], 0
    for n in node_ids:
        parts.append(text[last:n] + f'<Node id="{n}"/>')
        last = n
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<GateDocument>",
           "<TextWithNodes>" + "".join(parts) + text[last:] + "</TextWithNodes>"]
    next_id = 0
    for name in sets:
        out.append(f'<AnnotationSet Name="{name}">')
        for s, e in spans:
            for _ in range(rng.choice([0, 1, 1, 1, 1, 2])):  # absent, one, or a duplicate
                feat = ""
                if rng.random() < 0.85:
                    feat = ('<Feature><Name className="java.lang.String">Op</Name>'
                            f'<Value className="java.lang.String">{rng.choice(values)}</Value>'
                            "</Feature>")
                type_ = "sent" if rng.random() < 0.9 else "other"
                out.append(f'<Annotation Id="{next_id}" Type="{type_}" StartNode="{s}" '
                           f'EndNode="{e}">{feat}</Annotation>')
                next_id += 1
        out.append("</AnnotationSet>")
    out.append("</GateDocument>")
    path.write_text("\n".join(out), encoding="utf-8")
    return path


# ------------------------------------------------------------------ tests
def test_beijing_opera_gives_gates_own_asserted_values():
    r = gate_classification([BEIJING], ["ann1", "ann2"], "sent", "Op")
    t = r.pairs[0].documents[0][1]
    # gate.util.TestClassificationMeasures: assertEquals(..., 0.7777778f) etc.
    assert close(t.observed, F32(0.7777778))
    assert close(t.cohen_kappa, F32(0.6086957))
    assert close(t.scott_pi, F32(0.59550565))
    assert t.labels == ("", "false", "true")  # an empty <Value> is the value ""


def test_beijing_opera_every_pair_against_the_transcription():
    _, sets = etree_sets(BEIJING)
    r = gate_classification([BEIJING], ["ann1", "ann2", "ann3"], "sent", "Op")
    for p in r.pairs:
        cm = oracle_cm(sets, p.set1, p.set2, "sent", "Op")
        t = p.documents[0][1]
        assert list(t.labels) == cm.feature_values
        assert [list(map(float, row)) for row in cm.matrix] == [list(row) for row in t.counts]
        cohen, pi = cm.kappas()
        assert close(t.observed, cm.observed())
        assert close(t.cohen_kappa, cohen) and close(t.scott_pi, pi)


@pytest.mark.parametrize("seed", range(12))
def test_random_documents_per_document_and_pooled(seed, tmp_path):
    rng = random.Random(seed)
    paths = [random_document(rng, tmp_path / f"d{k}.xml") for k in range(rng.randint(1, 4))]
    res = gate_classification(paths, ["A", "B", "C"], "sent", "Op")
    for p in res.pairs:
        cms = []
        for path, (name, t) in zip(paths, p.documents):
            assert name == str(path)
            cm = oracle_cm(etree_sets(path)[1], p.set1, p.set2, "sent", "Op")
            cms.append(cm)
            cohen, pi = cm.kappas()
            assert close(t.observed, cm.observed())
            assert close(t.cohen_kappa, cohen) and close(t.scott_pi, pi)
        pooled = GateCM.pooled(cms)
        cohen, pi = pooled.kappas()
        assert list(p.pooled.labels) == pooled.feature_values
        assert close(p.pooled.observed, pooled.observed())
        assert close(p.pooled.cohen_kappa, cohen) and close(p.pooled.scott_pi, pi)


def test_duplicates_skipped_as_gate_does():
    # set 1 has two annotations on [0, 5): both skipped; set 2 has two on [6, 9): skipped
    a = [(0, 5, "x"), (0, 5, "y"), (6, 9, "x"), (10, 12, "x"), (20, 22, "y")]
    b = [(0, 5, "x"), (6, 9, "x"), (6, 9, "y"), (10, 12, "y")]
    t = classification_table(a, b)
    assert (t.duplicates_1, t.duplicates_2, t.unmatched) == (2, 1, 1)
    assert t.counts == ((0, 1), (0, 0)) and t.labels == ("x", "y")
    assert t.observed == 0.0
    empty = classification_table([], [])
    assert (empty.observed, empty.cohen_kappa, empty.scott_pi) == (0.0, 0.0, 0.0)
    one = classification_table([(0, 1, "x")], [(0, 1, "x")])
    assert (one.cohen_kappa, one.scott_pi) == (1.0, 1.0)  # P_E = 1: GATE's 1
    assert pool_tables([t, one]).counts == ((1, 1), (0, 0))


@pytest.mark.parametrize("seed", range(8))
def test_spans_equal_annotation_differ_counts(seed, tmp_path):
    rng = random.Random(100 + seed)
    paths = [random_document(rng, tmp_path / f"d{k}.xml", sets=("K", "R"))
             for k in range(rng.randint(1, 3))]
    res = gate_spans(paths, ["K", "R"], "sent")
    total = [0, 0, 0, 0]
    for path in paths:
        _, sets = etree_sets(path)
        keys = [(a[1], a[2], "") for a in sets["K"] if a[3] == "sent"]
        resps = [(a[1], a[2], "") for a in sets["R"] if a[3] == "sent"]
        got = gate_annotation_differ(keys, resps, False)
        total = [x + y for x, y in zip(total, got)]
    c = res.pairs[0].counts
    assert [c.correct, c.partial, c.missing, c.spurious] == total


@pytest.mark.parametrize("type_", ["sent", "Os", "Location"])
def test_spans_on_the_real_document(type_):
    _, sets = etree_sets(BEIJING)
    res = gate_spans([BEIJING], ["ann1", "ann2", "ann3"], type_)
    for p in res.pairs:
        keys = [(a[1], a[2], "") for a in sets[p.key] if a[3] == type_]
        resps = [(a[1], a[2], "") for a in sets[p.response] if a[3] == type_]
        c = p.counts
        assert (c.correct, c.partial, c.missing, c.spurious) == \
            gate_annotation_differ(keys, resps, False)


def test_reader_offsets_and_features():
    doc = read_gate_xml(BEIJING)
    text, sets = etree_sets(BEIJING)
    assert doc.text == text
    assert set(doc.sets) == set(sets)
    for name, anns in sets.items():
        got = [(a.id, a.start, a.end, a.type, dict(a.features)) for a in doc.annotations(name)]
        assert got == anns
    loc = doc.annotations("ann1", "Location")
    assert {doc.text[a.start:a.end] for a in loc} >= {"Beijing", "China", "Japan"}


def test_cli_categorical_and_spans(capsys):
    rc = main(["categorical", str(BEIJING), "--format", "gate", "--sets", "ann1,ann2",
               "--type", "sent", "--feature", "Op", "--output", "json"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    pooled = data["pairs"][0]["pooled"]
    assert close(pooled["cohen_kappa"], F32(0.6086957))
    assert pooled["agreed_trials"] == 7 and pooled["total_trials"] == 9
    # sniffed without --format
    rc = main(["spans", str(BEIJING), "--sets", "ann1,ann2", "--type", "Os",
               "--output", "json"])
    assert rc == 0
    assert json.loads(capsys.readouterr().out)["pairs"][0]["key"] == "ann1"


BAD = {
    "truncated": ('<GateDocument><TextWithNodes><Node id="0"/>ab<Node id="2"/>'
                  '</TextWithNodes>\n<AnnotationSet Name="A">\n<Annotation Id="1"',
                  "gate-xml", 3),
    "node": ('<GateDocument><TextWithNodes><Node id="0"/>ab<Node id="2"/></TextWithNodes>\n'
             '<AnnotationSet Name="A">\n<Annotation Id="1" Type="sent" StartNode="0" '
             'EndNode="9"/>\n</AnnotationSet><AnnotationSet Name="B"/></GateDocument>',
             "gate-offsets", 3),
    "backwards": ('<GateDocument><TextWithNodes><Node id="0"/>ab<Node id="2"/>'
                  '</TextWithNodes>\n<AnnotationSet Name="A">\n<Annotation Id="1" Type="sent" '
                  'StartNode="2" EndNode="0"/>\n</AnnotationSet><AnnotationSet Name="B"/>'
                  "</GateDocument>", "gate-offsets", 3),
    "root": ("<html>\n<body/></html>", "gate-structure", 1),
    "set": ('<GateDocument><TextWithNodes>ab</TextWithNodes><AnnotationSet Name="A"/>'
            "</GateDocument>", "gate-missing-set", None),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_documents_are_one_line_errors(case, tmp_path, capsys):
    content, kind, line = BAD[case]
    path = tmp_path / "bad.xml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        gate_classification([path], ["A", "B"], "sent", "Op")
    assert [(p.kind, p.line, p.file) for p in exc.value.errors] == [(kind, line, str(path))]
    rc = main(["categorical", str(path), "--format", "gate", "--sets", "A,B", "--type", "sent",
               "--feature", "Op"])
    err = capsys.readouterr().err
    assert rc == 2 and "Traceback" not in err
    assert f"({kind})" in err and str(path) in err


def test_usage_errors(capsys, tmp_path):
    for args in (["--sets", "ann1"], ["--sets", "ann1,ann2"],
                 ["--sets", "ann1,ann2", "--type", "sent"]):
        rc = main(["categorical", str(BEIJING), "--format", "gate", *args])
        assert rc == 2
        assert "(usage)" in capsys.readouterr().err
    for args in (["categorical", "--sets", "ann1,ann2", "--type", "sent", "--feature", "Op",
                  "--layers", "upos"],
                 ["spans", "--sets", "ann1,ann2", "--type", "sent", "--bdm"],
                 ["spans", "--format", "conllu", "--type", "sent"]):
        rc = main([args[0], str(BEIJING), *args[1:]])
        assert rc == 2
        err = capsys.readouterr().err
        assert "(usage)" in err and ("not for GATE" in err or "only for GATE" in err)
    other = tmp_path / "copy.xml"
    other.write_bytes(BEIJING.read_bytes())
    rc = main(["agree", str(BEIJING), str(other), "--format", "gate"])
    assert rc == 2 and "(usage)" in capsys.readouterr().err
