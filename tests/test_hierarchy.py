"""Tests for synagree.hierarchy (docs/method.md §9: Melamed & Resnik credit)."""
from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from synagree.base.problems import InputError
from synagree.stats.contingency import Contingency
from synagree.stats.hierarchical_kappa import (
    HierarchicalKappa,
    chance_agreement,
    hierarchical_kappa,
)
from synagree.trees.hierarchy import (
    PLAIN_LEAF_SUFFIX,
    Hierarchy,
    credit,
    label_distance,
    label_distance_matrix,
    pair_agreement,
    wu_palmer_credit,
)

DATA = Path(__file__).parent / "data" / "hierarchy"
TOL = 1e-12

INVENTORY = {
    "A.1": "A", "A.2": "A", "A.1a": "A.1", "A.1b": "A.1",
    "B.1": "B", "B.2": "B", "B.3": "B",
}


def _inventory(kind: str) -> Hierarchy:
    if kind == "edges":
        return Hierarchy.from_edges(INVENTORY)
    if kind == "edge-file":
        return Hierarchy.from_file(DATA / "inventory_edges.tsv")
    if kind == "outline-file":
        return Hierarchy.from_file(DATA / "inventory_outline.txt")
    raise AssertionError(kind)


@pytest.fixture(params=["edges", "edge-file", "outline-file"])
def inv(request) -> Hierarchy:
    return _inventory(request.param)


# ------------------------------------------------------------- docs/method.md §9 tables
SPEC_TABLE = [
    ("B", "A", 0.0),
    ("A", "A", 1.0),
    ("A", "A.1", 1.0),
    ("A", "A.1b", 1.0),
    ("A.1", "A", 0.5),
    (["A.1", "A.2"], "A", 1.0),
    ("A.1a", "A", 0.25),
    (["A.1a", "B.2"], "B", 1 / 3),
    (["A.1a", "B.2"], "A.1", 0.5),
    (["A.1a", "B.2"], {"A.1": 0.5, "B.2": 0.5}, 0.75),
    (["A.1a", "B.2"], {"A.1": 0.5, "B": 0.5}, 5 / 12),  # 0.41666...
]


@pytest.mark.parametrize("gold,output,expected", SPEC_TABLE)
def test_spec_hierarchy_table(inv, gold, output, expected):
    assert abs(credit(inv, gold, output) - expected) <= TOL
    assert abs(inv.credit(gold, output) - expected) <= TOL


FLAT_TABLE = [
    ("A", 1.0),
    ({"A": 0.5, "B": 0.5}, 1.0),
    ({"A": 0.3, "C": 0.7}, 0.3),
    ({"A": 0.3, "B": 0.4, "C": 0.3}, 0.7),
    (["A", "B", "C"], 2 / 3),
]


@pytest.mark.parametrize("output,expected", FLAT_TABLE)
@pytest.mark.parametrize("tags", [["A", "B", "C"], ["A", "B"]])  # C known / unknown
def test_spec_flat_table(output, expected, tags):
    h = Hierarchy.flat(tags)
    assert abs(credit(h, ["A", "B"], output) - expected) <= TOL


def test_inventory_formats_agree():
    ref = _inventory("edges")
    for kind in ("edge-file", "outline-file"):
        h = _inventory(kind)
        assert sorted(h.tags) == sorted(ref.tags)
        for tag in ref.tags:
            assert h.parent(tag) == ref.parent(tag)
            assert h.leaf_distribution(tag) == ref.leaf_distribution(tag)


# ------------------------------------------------------------- structure
def test_leaf_distribution_uniform_over_children_not_leaves():
    h = _inventory("edges")
    assert h.leaves == ["A.1a", "A.1b", "A.2", "B.1", "B.2", "B.3"]
    assert h.leaf_distribution("A") == {"A.1a": 0.25, "A.1b": 0.25, "A.2": 0.5}
    assert h.leaf_distribution("A.1b") == {"A.1b": 1.0}
    m = h.distribution_matrix(["A", "B", "A.1"])
    np.testing.assert_allclose(m, [[.25, .25, .5, 0, 0, 0],
                                   [0, 0, 0, 1 / 3, 1 / 3, 1 / 3],
                                   [.5, .5, 0, 0, 0, 0]], rtol=0, atol=TOL)
    assert m.dtype == np.float64
    assert h.leaf_index["B.2"] == 4


def test_structure_queries():
    h = _inventory("edges")
    assert h.parent("A.1a") == "A.1" and h.parent("A") is None
    assert h.children("A") == ("A.1", "A.2")
    assert h.ancestors("A.1a") == ["A.1", "A"]
    assert h.depth("A") == 1 and h.depth("A.1b") == 3
    assert h.is_a("A.1a", "A") and h.is_a("A", "A") and not h.is_a("A", "A.1a")
    assert not h.is_a("B.1", "A")
    assert h.leaf_set("A.1") == {"A.1a", "A.1b"}


def test_unknown_tag_is_new_top_level_leaf():
    h = _inventory("edges")
    dist_a = h.leaf_distribution("A")
    assert "Z" not in h
    assert credit(h, "Z", "Z") == 1.0
    assert credit(h, "A", "Z") == 0.0
    assert h.parent("Z") is None and h.children("Z") == ()
    assert h.added_tags == ["Z"]
    assert h.leaves[-1] == "Z"
    assert h.leaf_distribution("A") == dist_a
    assert h.distribution_matrix(["Q"]).shape == (1, 8)


def test_empty_string_is_not_a_tag():
    h = _inventory("edges")
    with pytest.raises(ValueError):
        h.leaf_distribution("")
    with pytest.raises(ValueError):
        Hierarchy.from_edges({"": "A"})
    assert "" not in Hierarchy.flat(["", "x"]).tags


def test_from_edges_rejects_cycle():
    with pytest.raises(ValueError, match="cycle"):
        Hierarchy.from_edges({"a": "b", "b": "c", "c": "a"})


def test_output_validation():
    h = _inventory("edges")
    with pytest.raises(ValueError):
        credit(h, "A", {"A": 0.5, "B": 0.4})
    with pytest.raises(ValueError):
        credit(h, "A", {"A": 1.2, "B": -0.2})
    with pytest.raises(ValueError):
        credit(h, "A", [])
    # within 1e-9 is accepted
    assert abs(credit(h, "A", {"A": 0.5, "B": 0.5 + 1e-10}) - 0.5) < 1e-9
    # duplicate tags in a collection count once
    assert credit(h, "A", ["A", "A", "B"]) == 0.5
    # overlapping gold tags are a union, not a sum
    assert credit(h, ["A", "A.1"], "A") == 1.0


# ------------------------------------------------------------- agreement
def test_pair_agreement_examples():
    h = _inventory("edges")
    assert pair_agreement(h, "A.1a", "A.1a") == 1.0
    assert abs(pair_agreement(h, "A", "A") - 3 / 8) <= TOL  # .25²+.25²+.5²
    assert abs(pair_agreement(h, "A.1", "A.1b") - 0.5) <= TOL
    assert pair_agreement(h, "A", "B") == 0.0
    assert abs(chance_agreement(h, ["A", "A"]) - 3 / 8) <= TOL


def test_hierarchical_kappa_hand_example():
    h = _inventory("edges")
    pairs = [("A.1a", "A.1a"), ("A.1", "A.1b"), ("B", "B.2"), ("A", "B.1")]
    # Leaves (A.1a, A.1b, A.2, B.1, B.2, B.3); distributions:
    #   A.1a=(1,0,0,0,0,0)  A.1=(1/2,1/2,0,0,0,0)  A.1b=(0,1,0,0,0,0)
    #   B=(0,0,0,1/3,1/3,1/3)  B.2=(0,0,0,0,1,0)  A=(1/4,1/4,1/2,0,0,0)
    #   B.1=(0,0,0,1,0,0)
    # Pair agreements: 1, 1/2, 1/3, 0 -> sum 11/6, P(A) = 11/24.
    # Leaf mass over the 8 annotations:
    #   A.1a: 1+1+1/2+1/4 = 11/4   A.1b: 1/2+1+1/4 = 7/4   A.2: 1/2
    #   B.1: 1/3+1 = 4/3           B.2: 1/3+1 = 4/3        B.3: 1/3   (total 8)
    # P(l) = 11/32, 7/32, 2/32, 1/6, 1/6, 1/24
    # P(E) = (121+49+4)/1024 + 1/36 + 1/36 + 1/576 = 1047/4608 = 349/1536
    # kappa = (11/24 - 349/1536) / (1 - 349/1536) = (355/1536)/(1187/1536)
    #       = 355/1187
    res = hierarchical_kappa(h, pairs)
    assert isinstance(res, HierarchicalKappa)
    assert res.n_items == 4 and res.n_annotations == 8
    assert abs(res.sum_agreement - 11 / 6) <= TOL
    assert abs(res.p_observed - 11 / 24) <= TOL
    assert abs(res.p_expected - float(Fraction(349, 1536))) <= TOL
    assert abs(res.kappa - float(Fraction(355, 1187))) <= TOL
    assert abs(sum(res.leaf_mass.values()) - 8) <= TOL
    # merging two halves gives the whole
    merged = hierarchical_kappa(h, pairs[:1]).merge(hierarchical_kappa(h, pairs[1:]))
    assert abs(merged.kappa - res.kappa) <= TOL
    assert merged.n_items == 4
    assert set(res.as_dict()) >= {"n_items", "sum_agreement", "p_observed",
                                  "p_expected", "kappa"}


def test_hierarchical_kappa_degenerate():
    h = _inventory("edges")
    res = hierarchical_kappa(h, [("A.2", "A.2"), ("A.2", "A.2")])
    assert res.p_expected == 1.0 and res.p_observed == 1.0
    assert math.isnan(res.kappa)
    assert math.isnan(hierarchical_kappa(h, []).kappa)
    # identical under-specified tags: P(A) = P(E) = 3/8 -> kappa 0
    assert abs(hierarchical_kappa(h, [("A", "A")]).kappa) <= TOL


def test_flat_hierarchy_kappa_equals_scotts_pi():
    rng = random.Random(7)
    labels = ["x", "y", "z", "w"]
    h = Hierarchy.flat(labels)
    for _ in range(50):
        n = rng.randint(2, 40)
        pairs = []
        for _ in range(n):
            a = rng.choice(labels)
            b = a if rng.random() < 0.5 else rng.choice(labels)
            pairs.append((a, b))
        res = hierarchical_kappa(h, pairs)
        pi = Contingency.from_labels(pairs).pi()
        if math.isnan(pi):
            assert math.isnan(res.kappa)
        else:
            assert abs(res.kappa - pi) <= TOL
        assert abs(res.p_observed - Contingency.from_labels(pairs).observed()) <= TOL


def _yes_no_example():
    # 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15
    return ([("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10
            + [("n", "n")] * 15)


def test_cohens_kappa_and_scotts_pi_hand_example():
    pairs = _yes_no_example()
    # P(o) = 35/50 = 0.7
    assert abs(Contingency.from_labels(pairs).observed() - 0.7) <= TOL
    # Cohen: annotator 1 yes 25/50, annotator 2 yes 30/50
    # P(E) = .5*.6 + .5*.4 = .5 -> kappa = (.7-.5)/.5 = .4
    assert abs(Contingency.from_labels(pairs).kappa() - 0.4) <= TOL
    # Scott: pooled yes 55/100 -> P(E) = .55² + .45² = .505
    # pi = (.7-.505)/.495 = 13/33
    assert abs(Contingency.from_labels(pairs).pi() - 13 / 33) <= TOL
    assert math.isnan(Contingency.from_labels([("a", "a")]).kappa())
    assert math.isnan(Contingency.from_labels([]).pi())


def test_cohens_kappa_against_sklearn():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = random.Random(3)
    pairs = [(rng.choice("abc"), rng.choice("abcd")) for _ in range(200)]
    a, b = zip(*pairs)
    assert abs(Contingency.from_labels(pairs).kappa() - metrics.cohen_kappa_score(a, b)) <= 1e-10


# ------------------------------------------------------------- UD
def test_ud_default_parent_is_underspecified():
    h = Hierarchy.from_ud(["nsubj", "nsubj:pass", "obj", "obl:tmod", "obl:agent"])
    assert h.parent("nsubj:pass") == "nsubj"
    assert h.leaf_set("nsubj") == {"nsubj:pass"}
    # nsubj has the single child nsubj:pass, so both are the same distribution
    assert credit(h, "nsubj:pass", "nsubj") == 1.0
    assert credit(h, "nsubj", "nsubj:pass") == 1.0
    assert credit(h, "nsubj", "obj") == 0.0
    assert pair_agreement(h, "nsubj", "obj") == 0.0
    # obl (never used plain) spreads over obl:tmod, obl:agent
    assert abs(credit(h, "obl:tmod", "obl") - 0.5) <= TOL
    assert credit(h, "obl", "obl:agent") == 1.0
    assert abs(pair_agreement(h, "obl", "obl:tmod") - 0.5) <= TOL


def test_ud_parent_created_when_absent():
    h = Hierarchy.from_ud(["nsubj:pass"])
    assert "nsubj" in h and h.children("nsubj") == ("nsubj:pass",)


def test_ud_partial_credit_two_subtypes():
    h = Hierarchy.from_ud(["nsubj", "nsubj:pass", "nsubj:outer", "obj"])
    assert abs(credit(h, "nsubj:pass", "nsubj") - 0.5) <= TOL
    assert abs(pair_agreement(h, "nsubj", "nsubj:pass") - 0.5) <= TOL
    assert credit(h, "obj", "nsubj") == 0.0


def test_ud_plain_as_leaf():
    h = Hierarchy.from_ud(["nsubj", "nsubj:pass", "nsubj:outer", "obj"],
                          plain_as_leaf=True)
    plain = "nsubj" + PLAIN_LEAF_SUFFIX
    assert plain in h.leaves
    assert h.leaf_distribution("nsubj") == {plain: 1.0}
    assert h.parent("nsubj:pass") == "nsubj"
    assert credit(h, "nsubj:pass", "nsubj") == 0.0
    assert credit(h, "nsubj", "nsubj:pass") == 0.0
    assert credit(h, "nsubj", "nsubj") == 1.0
    assert credit(h, "nsubj", "obj") == 0.0
    assert label_distance(h, "nsubj", "nsubj:pass") == 1.0
    # still siblings structurally: Wu-Palmer closeness 2*1/(2+2)
    assert wu_palmer_credit(h, "nsubj", "nsubj:pass") == 0.5
    # a relation without subtypes is unaffected
    assert h.leaf_distribution("obj") == {"obj": 1.0}


# ------------------------------------------------------------- MSD
MSD_TAGS = ["Ncmsry", "Ncmsrn", "Ncfsrn", "Vmii3s", "Ncms-", "Afpms-n"]


def test_msd_structure():
    h = Hierarchy.from_msd(MSD_TAGS)
    assert h.ancestors("Ncmsry") == ["Ncmsr", "Ncms", "Ncm", "Nc", "N"]
    assert h.ancestors("Vmii3s") == ["Vmii3", "Vmii", "Vmi", "Vm", "V"]
    assert h.parent("Afpms-n") == "Afpms"  # internal '-' kept as its own node
    assert "Ncms-" in h and h.resolve("Ncms-") == "Ncms"
    assert h.is_a("Ncmsry", "Ncms-")
    assert h.children("Nc") == ("Ncm", "Ncf")


def test_msd_credit_hand_computed():
    h = Hierarchy.from_msd(MSD_TAGS)
    # Ncms- = Ncms -> Ncmsr -> {Ncmsry, Ncmsrn}: half each
    assert abs(credit(h, "Ncmsry", "Ncms-") - 0.5) <= TOL
    assert credit(h, "Ncms-", "Ncmsrn") == 1.0  # P(ancestor | descendant) = 1
    # Nc -> {Ncm (1/2), Ncf (1/2)}; Ncm -> ... -> {Ncmsry, Ncmsrn}
    # P(Ncmsry|Nc) = 1/4, P(Ncmsrn|Nc) = 1/4, P(Ncfsrn|Nc) = 1/2
    assert h.leaf_distribution("Nc") == {"Ncmsry": 0.25, "Ncmsrn": 0.25, "Ncfsrn": 0.5}
    assert abs(credit(h, "Ncmsry", "Nc") - 0.25) <= TOL
    assert abs(credit(h, ["Ncmsry", "Ncfsrn"], "Nc") - 0.75) <= TOL
    # N has the single child Nc (so the same distribution); V shares nothing
    assert h.leaf_distribution("N") == h.leaf_distribution("Nc")
    assert credit(h, "Vmii3s", "Nc") == 0.0
    assert credit(h, "Ncmsry", "Ncmsrn") == 0.0
    # agreement Nc vs Nc: 1/16 + 1/16 + 1/4 = 3/8
    assert abs(pair_agreement(h, "Nc", "N") - 3 / 8) <= TOL
    # Ncms vs Ncmsry: 1/2
    assert abs(pair_agreement(h, "Ncms", "Ncmsry") - 0.5) <= TOL


def test_msd_internal_dash():
    h = Hierarchy.from_msd(["Ncmsrn", "Nc-s", "Nc-sr"])
    assert h.parent("Nc-s") == "Nc" and h.parent("Nc-sr") == "Nc-s"
    assert set(h.children("Nc")) == {"Ncm", "Nc-s"}
    assert abs(credit(h, "Ncmsrn", "Nc") - 0.5) <= TOL


def test_tiered_ctag_mapping_file(tmp_path):
    # a reduced tag set (Ctags) listed as parents of the fine MSDs
    f = tmp_path / "ctag.tsv"
    f.write_text("Ncmsry\tNSRY\nNcfsry\tNSRY\nNcmsrn\tNSRN\n", encoding="utf-8")
    h = Hierarchy.from_file(f)
    assert abs(credit(h, "Ncmsry", "NSRY") - 0.5) <= TOL
    assert credit(h, "NSRY", "Ncfsry") == 1.0
    assert credit(h, "NSRN", "Ncmsry") == 0.0


# ------------------------------------------------------------- file errors
def _error_of(tmp_path, text: str, name: str = "h.txt"):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        Hierarchy.from_file(f)
    return f, info.value


@pytest.mark.parametrize("text,line,kind", [
    ("a\tb\nb\tc\nc\ta\n", 1, "hierarchy-cycle"),
    ("# c\na\tb\n\na\tc\n", 4, "hierarchy-two-parents"),
    ("a\tb\nb\tb\n", 2, "hierarchy-cycle"),
    ("a\tb\nx\ty\tz\n", 2, "hierarchy-fields"),
    ("a\tb\nq\t\tr\n", 2, "hierarchy-fields"),
    ("A\n    A.1\n  A.2\n", 3, "hierarchy-indentation"),
    ("  A\n  B\n", 1, "hierarchy-indentation"),
    ("A\n  A.1\n\tA.2\n", 3, "hierarchy-indentation"),
    ("A\n  A.1\nB\n  A.1\n", 4, "hierarchy-two-parents"),
    ("A\n  A\n", 2, "hierarchy-cycle"),
    ("A\n  B\n    A\n", 3, "hierarchy-two-parents"),
    ("# only a comment\n\n", None, "hierarchy-empty"),
])
def test_hierarchy_file_errors(tmp_path, text, line, kind):
    f, err = _error_of(tmp_path, text)
    problem = err.errors[0]
    assert problem.kind == kind
    assert problem.file == str(f)
    assert problem.line == line
    assert str(f) in str(err)


def test_hierarchy_file_reports_every_error(tmp_path):
    _, err = _error_of(tmp_path, "a\tb\na\tc\nx\ty\tz\nd\te\nd\tf\n")
    assert [(p.line, p.kind) for p in err.errors] == [
        (2, "hierarchy-two-parents"), (3, "hierarchy-fields"), (5, "hierarchy-two-parents")]


def test_hierarchy_file_missing(tmp_path):
    with pytest.raises(InputError) as info:
        Hierarchy.from_file(tmp_path / "nope.tsv")
    assert info.value.errors[0].kind == "hierarchy-unreadable"


def test_outline_reopen_and_tabs(tmp_path):
    f = tmp_path / "o.txt"
    f.write_text("A\n\tA.1\nB\n\tB.1\nA   # reopened\n\tA.2\n", encoding="utf-8")
    h = Hierarchy.from_file(f)
    assert h.children("A") == ("A.1", "A.2")
    assert h.children("B") == ("B.1",)


# ------------------------------------------------------------- distances
def test_label_distance_values():
    h = _inventory("edges")
    assert label_distance(h, "A", "A") == 0.0
    assert label_distance(h, "A", "B") == 1.0
    assert abs(label_distance(h, "A", "A.1") - 0.5) <= TOL  # |.25-.5|*2 + .5, halved
    assert abs(label_distance(h, "A.1a", "A.1") - 0.5) <= TOL
    assert label_distance(h, "", "") == 0.0
    assert label_distance(h, "", "A") == 1.0 and label_distance(h, "A.1a", "") == 1.0


def test_label_distance_is_metric_on_random_tags():
    h = _inventory("edges")
    rng = random.Random(11)
    tags = h.tags + ["", "unknown"]
    for _ in range(300):
        a, b, c = (rng.choice(tags) for _ in range(3))
        dab, dba = label_distance(h, a, b), label_distance(h, b, a)
        assert dab == dba
        assert 0.0 <= dab <= 1.0
        assert (dab == 0.0) == (a == b or h.leaf_distribution(a) == h.leaf_distribution(b)
                                if a and b else a == b)
        assert dab <= label_distance(h, a, c) + label_distance(h, c, b) + 1e-12


def test_label_distance_matrix():
    h = _inventory("edges")
    labels = ["", "A", "A.1", "A.1a", "B", "B.2", "unknown"]
    d = label_distance_matrix(h, labels)
    assert d.shape == (7, 7) and d.dtype == np.float64
    assert np.all(np.diag(d) == 0.0)
    assert np.array_equal(d, d.T)
    assert np.all(d[0, 1:] == 1.0)
    for i, j in itertools.product(range(7), repeat=2):
        assert abs(d[i, j] - label_distance(h, labels[i], labels[j])) <= TOL
    assert label_distance_matrix(h, []).shape == (0, 0)


# ------------------------------------------------------------- Wu-Palmer closeness
def test_wu_palmer_credit():
    h = _inventory("edges")
    assert wu_palmer_credit(h, "A", "A") == 1.0
    assert wu_palmer_credit(h, "A.1", "A.2") == 0.5          # 2*1/(2+2)
    assert abs(wu_palmer_credit(h, "A.1a", "A.1b") - 2 / 3) <= TOL  # 2*2/(3+3)
    assert abs(wu_palmer_credit(h, "A.1a", "A.2") - 0.4) <= TOL     # 2*1/(3+2)
    assert abs(wu_palmer_credit(h, "A", "A.1") - 2 / 3) <= TOL      # 2*1/(1+2)
    assert wu_palmer_credit(h, "A.1a", "B.1") == 0.0
    assert wu_palmer_credit(h, "A.1", "A.2") == wu_palmer_credit(h, "A.2", "A.1")
