"""Tiered tagging with a lexicon and a majority mapping (``tags --tiers ... --lexicon``,
``--majority``; docs/method.md §16.4-16.5).

The fixture lexicon (tests/data/tiers/lexicon.tsv) against the 13 words of
tests/data/tiers (ptb-coarse.tsv mapping), by hand, gold fine tag: candidates
under the gold coarse tag:

    The DT: [DT]          dogs NNS: [NNS]       barked VBD: [VBD] (VBN unmapped)
    . .: [.]              She PRP: [PRP]        likes VBZ: [VBZ]
    big JJ: [] (gap: RB is unmapped)            dogs NNS: [NNS]     . .: [.]
    John NNP: [NNP]       ran VBD: [VBD, VB] (ambiguous)  home NN: unknown  . .: [.]

so 1 unknown, 12 known, 10 decided (all the gold tag), 1 ambiguous, 1 gap.  With
the system's coarse tags (NN for dogs is NOUN; VERB for likes; NN for big is
NOUN, where big has no candidate; VB for ran is VERB, ambiguous): 10 recovered.

The real-data tests recompute everything from the raw files with ``str.split``.
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from synagree.base.problems import InputError
from synagree.cli.main import main
from synagree.evaluation.tags import evaluate_tags
from synagree.io.lexicon import read_lexicon

DATA = Path(__file__).resolve().parent / "data" / "tiers"
GOLD, SYSTEM = DATA / "gold.conllu", DATA / "system.conllu"
MAPPING, LEXICON = DATA / "ptb-coarse.tsv", DATA / "lexicon.tsv"


def words_of(path: Path):
    """(form, upos, xpos) of every syntactic word, read with str.split."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit():
            out.append((cols[1], cols[3], cols[4]))
    return out


# ------------------------------------------------------------------ the fixture, by hand
def test_lexicon_by_hand():
    res = evaluate_tags(GOLD, SYSTEM, "xpos", tiers=str(MAPPING), lexicon=str(LEXICON))
    lex = res.tiers.lexicon
    t = lex.total
    assert (t.words, t.unknown, t.known) == (13, 1, 12)
    assert (t.decided, t.decided_correct, t.ambiguous, t.gap) == (10, 10, 1, 1)
    assert t.recovered == 10
    assert t.decided_share == 10 / 12 and t.unknown_share == 1 / 13
    rows = {r.name: r for r in lex.per_class}
    assert (rows["NOUN"].words, rows["NOUN"].unknown, rows["NOUN"].decided) == (4, 1, 3)
    assert (rows["VERB"].decided, rows["VERB"].ambiguous) == (2, 1)
    assert (rows["ADJ"].gap, rows["ADJ"].recovered) == (1, 0)
    assert lex.unmapped_lexicon_tags == {"VBN": 1, "RB": 1}
    forms = {r.name: r for r in lex.per_form}
    assert "home" not in forms and forms["ran"].ambiguous == 1 and forms["ran"].lexicon_tags == 2
    assert lex.per_form[0].name in ("big", "ran")  # the undecided forms come first
    # the usual tiers numbers are unchanged by the lexicon
    plain = evaluate_tags(GOLD, SYSTEM, "xpos", tiers=str(MAPPING))
    assert plain.tiers.to_dict()["tiered"] == res.tiers.to_dict()["tiered"]
    assert plain.tiers.lexicon is None and "lexicon" not in plain.tiers.to_dict()


def test_lexicon_from_a_treebank(tmp_path):
    # the gold file as its own training treebank: every form known, every tag its own
    res = evaluate_tags(GOLD, SYSTEM, "xpos", tiers=str(MAPPING), lexicon=str(GOLD))
    t = res.tiers.lexicon.total
    assert (t.unknown, t.decided, t.decided_correct, t.gap) == (0, 13, 13, 0)
    assert res.tiers.lexicon.source == f"treebank {GOLD} (xpos)"


def test_lexicon_outputs(tmp_path, capsys):
    args = ["tags", str(GOLD), str(SYSTEM), "--column", "xpos", "--tiers", str(MAPPING),
            "--lexicon", str(LEXICON)]
    assert main(args + ["-q"]) == 0
    out = capsys.readouterr().out
    assert "decided by coarse tag + lexicon    0.833333  (10/12)" in out
    assert "note: 2 lexicon tag(s) are not in the mapping" in out
    j = tmp_path / "t.json"
    assert main(args + ["-q", "-o", str(j)]) == 0
    d = json.loads(j.read_text(encoding="utf-8"))["tiers"]["lexicon"]
    assert d["total"]["decided"] == 10 and d["unmapped_lexicon_tags"] == {"VBN": 1, "RB": 1}
    c = tmp_path / "t.csv"
    assert main(args + ["-q", "-o", str(c)]) == 0
    rows = [r for r in c.read_text(encoding="utf-8").splitlines() if r.startswith("lexicon,")]
    assert rows[0].startswith("lexicon,") and len(rows) == 1 + 6 + 9  # ALL, classes, known forms


def test_lexicon_file_errors(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("dogs\tNNS\ndogs\nx\ty\tz\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_lexicon(bad)
    assert [(e.line, e.kind) for e in exc.value.errors] == [(2, "lexicon-fields"),
                                                            (3, "lexicon-fields")]
    empty = tmp_path / "empty.tsv"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_lexicon(empty)
    assert exc.value.errors[0].kind == "lexicon-empty"


def test_usage_errors(capsys):
    base = ["tags", str(GOLD), str(SYSTEM), "--column", "xpos"]
    assert main(base + ["--majority"]) == 2
    assert "--majority applies with --tiers only" in capsys.readouterr().err
    assert main(base + ["--lexicon", str(LEXICON)]) == 2
    assert main(base + ["--tiers", str(MAPPING), "--majority"]) == 2
    assert "--majority derives the mapping from a gold column" in capsys.readouterr().err


# ------------------------------------------------------------------ majority mapping
def test_majority_on_the_fixture():
    # the fixture's XPOS -> UPOS is a function: majority changes nothing, and says so
    res = evaluate_tags(GOLD, SYSTEM, "xpos", tiers="upos", majority=True,
                        unmapped="own-class")
    assert res.tiers.ambiguity == [] and res.tiers.majority_minority == 0
    assert res.tiers.mapping == "gold upos (majority)"
    plain = evaluate_tags(GOLD, SYSTEM, "xpos", tiers="upos", unmapped="own-class")
    assert plain.tiers.to_dict()["coarse"] == res.tiers.to_dict()["coarse"]


@pytest.fixture(scope="module")
def ewt(shared_data):
    test = shared_data / "ud" / "en_ewt-ud-test.conllu"
    dev = shared_data / "ud" / "en_ewt-ud-dev.conllu"
    if not (test.is_file() and dev.is_file()):
        pytest.skip(f"UD English-EWT not found under {shared_data / 'ud'}")
    return test, dev


@pytest.mark.slow
def test_upos_majority_on_ewt(ewt, capsys):
    test, _ = ewt
    gold = words_of(test)
    counts = defaultdict(Counter)
    for _, upos, xpos in gold:
        counts[xpos][upos] += 1
    majority = {x: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for x, c in counts.items()}
    ambiguous = {x for x, c in counts.items() if len(c) > 1}
    minority = sum(n - c[majority[x]] for x, c in counts.items() for n in [sum(c.values())])
    assert len(ambiguous) == 23  # the EWT refusal the docs cite
    res = evaluate_tags(test, test, "xpos", tiers="upos", majority=True)
    t = res.tiers
    assert {a.fine for a in t.ambiguity} == ambiguous
    assert {a.fine: a.majority for a in t.ambiguity} == {x: majority[x] for x in ambiguous}
    assert t.majority_minority == minority == 1921  # docs/tiers.md
    assert t.coarse_accuracy == 1.0 and t.fine_accuracy == 1.0  # the file against itself
    assert main(["tags", str(test), str(test), "--column", "xpos", "--tiers", "upos",
                 "--majority", "-q"]) == 0
    out = capsys.readouterr().out
    assert "majority mapping: 23 fine tag(s)" in out
    # without --majority the same run is refused, one error per ambiguous tag
    assert main(["tags", str(test), str(test), "--column", "xpos", "--tiers", "upos"]) == 2
    assert capsys.readouterr().err.count("tag-map-not-a-function") == 23


@pytest.mark.slow
def test_ewt_lexicon_from_dev_against_an_independent_count(ewt):
    test, dev = ewt
    lexicon = defaultdict(set)
    for form, _, xpos in words_of(dev):
        lexicon[form].add(xpos)
    gold = words_of(test)
    counts = defaultdict(Counter)
    for _, upos, xpos in gold:
        counts[xpos][upos] += 1
    coarse = {x: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for x, c in counts.items()}
    want = Counter()
    for form, _, xpos in gold:
        if form not in lexicon:
            want["unknown"] += 1
            continue
        cands = [t for t in lexicon[form] if coarse.get(t) == coarse[xpos]]
        kind = "decided" if len(cands) == 1 else "ambiguous" if cands else "gap"
        want[kind] += 1
        want["decided_correct"] += len(cands) == 1 and cands[0] == xpos
    res = evaluate_tags(test, test, "xpos", tiers="upos", majority=True, lexicon=str(dev))
    t = res.tiers.lexicon.total
    got = {"unknown": t.unknown, "decided": t.decided, "ambiguous": t.ambiguous, "gap": t.gap,
           "decided_correct": t.decided_correct}
    assert got == dict(want)
    assert t.recovered == t.decided_correct  # the system is gold here
    # the numbers of docs/tiers.md
    assert (t.unknown, t.decided, t.decided_correct, t.ambiguous, t.gap) == (
        4493, 17416, 17281, 2763, 422)
