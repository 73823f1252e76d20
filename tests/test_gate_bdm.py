"""GATE's BDM (synagree.trees.gate_bdm, docs/method.md §23) against an independent
computation of GATE's definitions, the GATE user guide's example line, and Java's
``Float.toString``.

The reference below is written from the definitions (Maynard, Peters & Li 2006;
the GATE user guide's BDM section; GATE's ``BDMCompMain.java``) with plain Python
floats and recursion over explicit paths; it shares no code with synagree.  It is
compared with synagree's single-precision values to single precision.
"""
from __future__ import annotations

import math
import random
import struct
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from synagree.base.problems import InputError
from synagree.cli.main import main
from synagree.trees.gate_bdm import (
    BDMScore,
    ConceptGraph,
    GateBDM,
    gate_bdm_from_parameters,
    java_float_str,
)
from synagree.trees.hierarchy import Hierarchy

DATA = Path(__file__).parent / "data" / "bdm"
SEED_LINE = ("key=Service, response=Object, bdm=0.6617647, msca=Object, cp=1, dpk=1, dpr=0, "
             "n0=2.0, n1=2.0, n2=2.8333333, bran=1.9565217")


def f32(x: float) -> float:
    """x rounded to single precision (struct, not numpy)."""
    return struct.unpack("f", struct.pack("f", x))[0]


# ------------------------------------------------------------------ the reference
class Reference:
    """GATE's definitions, straightforwardly: paths, means, ratios (double precision)."""

    def __init__(self, parents: Dict[str, List[str]]):
        self.parents = parents
        self.concepts = list(parents)
        self.children: Dict[str, List[str]] = {c: [] for c in parents}
        for c, ps in parents.items():
            for p in ps:
                self.children[p].append(c)
        self.paths = {c: self._paths(c) for c in self.concepts}
        leaf_paths = [p for c in self.concepts if not self.children[c] for p in self.paths[c]]
        self.n0 = sum(len(p) - 1 for p in leaf_paths) / len(leaf_paths)
        self.n = {}
        for c in self.concepts:
            through = [len(p) - 1 for p in leaf_paths if c in p]
            self.n[c] = sum(through) / len(through)
        inner = [len(k) for k in self.children.values() if k]
        self.mean_branching = sum(inner) / len(inner) if inner else 0.0

    def _paths(self, c: str) -> List[Tuple[str, ...]]:
        if not self.parents[c]:
            return [(c,)]
        return [(c,) + rest for p in self.parents[c] for rest in self._paths(p)]

    def candidates(self, key: str, response: str) -> List[dict]:
        """Every pair of paths with a shared top class, scored."""
        out = []
        for pk in self.paths[key]:
            for pr in self.paths[response]:
                if pk[-1] != pr[-1]:
                    continue
                shared = 0
                while shared < min(len(pk), len(pr)) and pk[-1 - shared] == pr[-1 - shared]:
                    shared += 1
                msca = pk[-shared]
                cp = shared - 1
                dpk, dpr = len(pk) - shared, len(pr) - shared
                between = list(pk[1:len(pk) - shared]) + list(pr[1:len(pr) - shared])
                nodes = [msca] + between
                bran = (sum(len(self.children[c]) for c in nodes) / len(nodes)
                        / self.mean_branching)
                x = bran * cp / self.n0
                bdm = x / (x + dpk / self.n[key] + dpr / self.n[response])
                out.append(dict(bdm=bdm, msca=msca, cp=cp, dpk=dpk, dpr=dpr, bran=bran))
        return out


def close(a: float, b: float) -> bool:
    """Equal to single precision (a few units in the last place of a float)."""
    return math.isclose(a, b, rel_tol=4e-7, abs_tol=1e-7)


def check_against_reference(parents: Dict[str, List[str]]) -> int:
    """Every pair of ``parents``'s concepts: synagree's line vs the reference; the pair count."""
    graph = ConceptGraph.from_parents(parents)
    bdm = GateBDM(graph)
    ref = Reference(parents)
    assert close(bdm.n0, ref.n0)
    assert close(bdm.mean_branching, ref.mean_branching)
    order = {c: i for i, c in enumerate(graph.concepts)}
    count = 0
    for s in bdm.pairs():
        count += 1
        assert order[s.key] >= order[s.response]
        assert close(s.n0, ref.n0)
        if s.key == s.response:
            assert (s.bdm, s.msca, s.dpk, s.dpr, s.n1, s.n2, s.bran) == (
                1.0, s.key, 0, 0, 1.0, 1.0, 1.0)
            assert s.cp == min(len(p) for p in ref.paths[s.key]) - 1
            continue
        assert close(s.n1, ref.n[s.key]) and close(s.n2, ref.n[s.response])
        cands = ref.candidates(s.key, s.response)
        if not cands:
            assert (s.bdm, s.msca, s.cp, s.bran) == (0.0, None, -1, 1.0)
            continue
        best = max(c["bdm"] for c in cands)
        assert close(s.bdm, best), (s, best)
        tied = [c for c in cands if close(c["bdm"], best)]
        assert any((c["msca"], c["cp"], c["dpk"], c["dpr"]) == (s.msca, s.cp, s.dpk, s.dpr)
                   and close(c["bran"], s.bran) for c in tied), (s, tied)
    n = len(parents)
    assert count == n * (n + 1) // 2
    return count


# ------------------------------------------------------------------ shapes
def random_tree(rng: random.Random, n: int, tops: int) -> Dict[str, List[str]]:
    parents: Dict[str, List[str]] = {}
    for i in range(n):
        name = f"c{i}"
        parents[name] = [] if i < tops else [f"c{rng.randrange(i)}"]
    return parents


def test_deep_chain_with_side_leaves():
    parents: Dict[str, List[str]] = {"root": []}
    for d in range(1, 25):
        parents[f"d{d}"] = [f"d{d - 1}" if d > 1 else "root"]
        parents[f"side{d}"] = [f"d{d - 1}" if d > 1 else "root"]
    assert check_against_reference(parents) == 49 * 50 // 2


def test_wide_fan():
    parents: Dict[str, List[str]] = {"top": []}
    parents.update({f"leaf{i}": ["top"] for i in range(150)})
    parents.update({f"sub{i}": ["leaf0"] for i in range(3)})
    check_against_reference(parents)


def test_several_top_classes_random_forests():
    rng = random.Random(26)
    for trial in range(12):
        check_against_reference(random_tree(rng, rng.randrange(5, 40), rng.randrange(1, 5)))


def test_several_parents_random_dags():
    rng = random.Random(2026)
    for trial in range(12):
        n, tops = rng.randrange(6, 30), rng.randrange(1, 4)
        parents: Dict[str, List[str]] = {}
        for i in range(n):
            if i < tops:
                parents[f"c{i}"] = []
            else:
                k = rng.choice((1, 1, 2, 3))
                parents[f"c{i}"] = sorted({f"c{rng.randrange(i)}" for _ in range(k)},
                                          key=lambda c: int(c[1:]))
        check_against_reference(parents)


def test_diamond_best_chain_pair_wins():
    # X has two parents; against Y the chain through B (shared with Y) is the better one
    parents = {"T": [], "A": ["T"], "B": ["T"], "X": ["A", "B"], "Y": ["B"], "Z": ["A"]}
    check_against_reference(parents)
    s = GateBDM(ConceptGraph.from_parents(parents)).score("X", "Y")
    assert s.msca == "B" and s.cp == 1 and s.bdm > 0


def test_several_parents_across_top_classes():
    # R has parents under two top classes: pairs with one side's concepts use that chain
    parents = {"T1": [], "T2": [], "A": ["T1"], "B": ["T2"], "R": ["A", "B"], "S": ["B"]}
    check_against_reference(parents)
    b = GateBDM(ConceptGraph.from_parents(parents))
    assert b.score("R", "S").msca == "B"
    assert b.score("A", "S").gate_line().startswith("key=S, response=A, bdm=0.0,  no MSCA! cp=-1")


# ------------------------------------------------------------------ GATE's example
def test_seed_line_from_its_parameters():
    # the user guide's line: its BDM follows from its own parameters, in single precision
    assert java_float_str(gate_bdm_from_parameters(1, 1, 0, 2.0, 2.0, 2.8333333, 1.9565217)) \
        == "0.6617647"
    x = 1.9565217 * 1 / 2.0  # the same in double precision, straight from the formula
    assert math.isclose(x / (x + 1 / 2.0 + 0 / 2.8333333), 0.6617647, rel_tol=1e-7)


def test_seed_line_reproduced_from_a_hierarchy():
    bdm = GateBDM(ConceptGraph.from_file(DATA / "seed.txt"))
    assert bdm.score("Service", "Object").gate_line() == SEED_LINE
    assert bdm.score("Object", "Service").gate_line() == SEED_LINE  # the key is the later one
    parents = {c: list(bdm.graph.parents(c)) for c in bdm.graph.concepts}
    check_against_reference(parents)


def test_score_fields_are_single_precision_values():
    s = GateBDM(ConceptGraph.from_file(DATA / "seed.txt")).score("Service", "Object")
    for v in (s.bdm, s.n0, s.n1, s.n2, s.bran):
        assert f32(v) == v
    assert s.n2 == f32(17 / 6) and s.bran == f32(f32(3.0) / f32(23 / 15))


def test_from_hierarchy_excludes_added_tags():
    h = Hierarchy.from_edges({"NN": "N", "NNS": "N", "VB": "V", "VBD": "V"})
    h.resolve("XX")  # an unknown tag, added as a top-level leaf
    b = GateBDM(ConceptGraph.from_hierarchy(h, exclude=h.added_tags))
    assert "XX" not in b and b.n0 == 1.0
    assert b.bdm("XX", "XX") == 1.0 and b.bdm("XX", "NN") == 0.0


# ------------------------------------------------------------------ Java's Float.toString
@pytest.mark.parametrize("value, text", [
    (1.0, "1.0"), (0.0, "0.0"), (-0.0, "-0.0"), (2.0, "2.0"), (0.5, "0.5"), (0.1, "0.1"),
    (1e-3, "0.001"), (9.999e-4, "9.999E-4"), (1e-4, "1.0E-4"), (1e7, "1.0E7"),
    (9999999.0, "9999999.0"), (123456.7, "123456.7"), (100.0, "100.0"),
    (3.4028235e38, "3.4028235E38"), (1.4e-45, "1.4E-45"), (1.17549435e-38, "1.1754944E-38"),
    (float("inf"), "Infinity"), (float("-inf"), "-Infinity"), (float("nan"), "NaN"),
    (2.8333333, "2.8333333"), (45 / 68, "0.6617647"), (1.9565217, "1.9565217"),
    (0.33333334, "0.33333334"), (-12.5, "-12.5"),
])
def test_java_float_str(value, text):
    assert java_float_str(value) == text


def test_java_float_str_round_trips():
    rng = random.Random(3)
    for _ in range(3000):
        bits = rng.getrandbits(32)
        x = struct.unpack("f", struct.pack("I", bits))[0]
        if math.isnan(x) or math.isinf(x):
            continue
        text = java_float_str(x)
        back = f32(float(text.replace("E", "e")))
        assert back == x, (x, text)


# ------------------------------------------------------------------ reading and the CLI
def test_file_with_several_parents_and_errors(tmp_path):
    f = tmp_path / "dag.tsv"
    f.write_text("Robot\tAgent\nRobot\tProduct\nAgent\tObject\nProduct\tObject\n"
                 "Robot\tAgent\n", encoding="utf-8")
    g = ConceptGraph.from_file(f)
    assert g.parents("Robot") == ("Agent", "Product") and g.tops == ["Object"]
    bad = tmp_path / "bad.tsv"
    bad.write_text("A\tB\nB\tC\nC\tA\nD, E\tA\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        ConceptGraph.from_file(bad)
    assert [e.kind for e in err.value.errors] == ["bdm-concept-name"]
    cyc = tmp_path / "cycle.tsv"
    cyc.write_text("A\tB\nB\tC\nC\tA\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        ConceptGraph.from_file(cyc)
    assert err.value.errors[0].kind == "hierarchy-cycle" and err.value.errors[0].line == 1


def test_cli_writes_gate_file(tmp_path, capsys):
    out = tmp_path / "scores.txt"
    assert main(["bdm", str(DATA / "seed.txt"), "-o", str(out), "-q"]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == ("##The following are the BDM scores for each pair of concepts in "
                        "the ontology named seed.")
    assert SEED_LINE in lines
    n = len(ConceptGraph.from_file(DATA / "seed.txt"))
    assert len(lines) == 1 + n * (n + 1) // 2
    # what GATE's IAA plugin reads: key, response and bdm from the first three fields
    for line in lines[1:]:
        terms = line.split(", ")
        assert terms[0].startswith("key=") and terms[1].startswith("response=")
        float(terms[2][4:])


def test_cli_json_and_csv_agree_with_gate_lines(tmp_path):
    import csv
    import json
    j, c = tmp_path / "s.json", tmp_path / "s.csv"
    assert main(["bdm", str(DATA / "seed.txt"), "-o", str(j), "-q"]) == 0
    assert main(["bdm", str(DATA / "seed.txt"), "-o", str(c), "-q"]) == 0
    data = json.loads(j.read_text(encoding="utf-8"))
    rows = list(csv.DictReader(c.read_text(encoding="utf-8").splitlines()))
    assert len(rows) == len(data["pairs"]) and data["n0"] == 2.0
    for row, pair in zip(rows, data["pairs"]):
        s = BDMScore(**pair)
        assert f32(float(row["bdm"])) == s.bdm and row["msca"] == (s.msca or "")


def test_cli_bad_hierarchy_exit_2(tmp_path, capsys):
    bad = tmp_path / "cycle.tsv"
    bad.write_text("A\tB\nB\tA\n", encoding="utf-8")
    assert main(["bdm", str(bad)]) == 2
    assert "hierarchy-cycle" in capsys.readouterr().err
    assert main(["bdm", str(tmp_path / "missing.txt")]) == 2


# ---------------------------------------------------------------- the work, planned first
def _layered(layers: int, width: int) -> str:
    return "".join(f"L{k}C{i}\tL{k - 1}C{j}\n" for k in range(1, layers)
                   for i in range(width) for j in range(width))


def test_bdm_work_counts_chains_without_making_them():
    """The counts of bdm_work against the chains GateBDM enumerates (small graphs)."""
    from synagree.trees.gate_bdm import bdm_work
    for layers, width in ((2, 3), (3, 3), (4, 2)):
        parents = {}
        for line in _layered(layers, width).splitlines():
            child, parent = line.split("\t")
            parents.setdefault(child, []).append(parent)
        graph = ConceptGraph.from_parents(parents)
        w = bdm_work(graph)
        chains = GateBDM(graph)._chains
        assert w.chains == sum(len(c) for c in chains)
        assert w.most_chains == max(len(c) for c in chains)
        assert w.entries == sum(len(ch) for c in chains for ch in c)
        assert w.most_chains == width ** (layers - 1)


def test_layered_12_by_12_refused_at_once(tmp_path, capsys):
    h = tmp_path / "layered.txt"
    h.write_text(_layered(12, 12))
    # how fast the refusal comes is measured in benchmarks/bench_bounded.py (goal: < 2 s)
    assert main(["bdm", str(h), "-o", str(tmp_path / "out.txt")]) == 2
    err = capsys.readouterr().err
    assert "bdm-too-large" in err and str(h) in err and "fewer parents" in err
    assert not (tmp_path / "out.txt").exists()


@pytest.mark.slow
def test_very_deep_chain_refused_not_hanging(tmp_path, capsys):
    h = tmp_path / "deep.txt"
    h.write_text("C0\n" + "".join(f"C{i}\tC{i - 1}\n" for i in range(1, 20000)))
    assert main(["bdm", str(h)]) == 2
    err = capsys.readouterr().err
    assert "bdm-too-large" in err and "20,000 concepts" in err and "Traceback" not in err


def test_small_layered_graph_still_computed(tmp_path, capsys):
    h = tmp_path / "small.txt"
    h.write_text(_layered(4, 3))
    assert main(["bdm", str(h)]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 + 12 * 13 // 2  # the header, every pair of 12


def test_outline_line_in_an_edge_file_is_an_error_naming_it(tmp_path, capsys):
    h = tmp_path / "mixed.txt"
    h.write_text("A\nB\tA\n  C\n")
    assert main(["bdm", str(h)]) == 2
    err = capsys.readouterr().err
    assert f"{h}:3:" in err and "hierarchy-fields" in err and "line 2" in err
