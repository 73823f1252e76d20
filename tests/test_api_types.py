"""Typed entry points (issue 35, item 3): every public function refuses wrong arguments
at its boundary with the documented exceptions only.

Bad input data are `InputError`; a bad argument is `TypeError` (wrong type) or
`ValueError` (right type, wrong value), with a sentence naming the argument.  The
property test drives every function of ``synagree.__all__`` with one wrong value
per call (any of its options, or its inputs) and checks that nothing else comes
out: no ``AttributeError`` from deep inside, no ``KeyError``, no ``nan`` for
nonsense.  Deterministic (``derandomize=True``), a few seconds per function.
"""
from __future__ import annotations

import io
import math
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import synagree  # noqa: E402
from synagree.base.command_options import (  # noqa: E402
    AgreeOptions,
    CategoricalOptions,
    CompareOptions,
    NoiseOptions,
    ParsevalOptions,
    ReportOptions,
    TagsOptions,
)
from synagree.base.option_specs import SPECS  # noqa: E402
from synagree.base.problems import InputError  # noqa: E402

DOCUMENTED = (TypeError, ValueError, InputError)
ROW = "{}\t{}\t_\t{}\t_\t_\t{}\t{}\t_\t_\n"
A = (ROW.format(1, "Dogs", "NOUN", 2, "nsubj") + ROW.format(2, "bark", "VERB", 0, "root")
     + "\n" + ROW.format(1, "Cats", "NOUN", 2, "nsubj") + ROW.format(2, "nap", "VERB", 0, "root")
     + "\n")
B = A.replace("nsubj", "obj", 1)
TREE_G = "(S (NP (DT a) (NN b)) (VP (VB c)))\n"
TREE_S = "(S (NP (DT a)) (NN b) (VP (VB c)))\n"

#: values of every wrong kind: numbers of each type and sign, NaN, strings, bytes,
#: containers of the wrong items, None
JUNK = st.one_of(
    st.integers(-3, 3), st.sampled_from([10**12, -10**12]),
    st.floats(allow_nan=True, allow_infinity=True, width=32),
    st.booleans(), st.none(), st.text(max_size=6), st.binary(max_size=4),
    st.lists(st.integers(-2, 2), max_size=3), st.lists(st.text(max_size=3), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.sampled_from([object(), 1j, (1, "a"), "4G", "yes", "order:0", "B.conllu", "-1"]),
)
SETTINGS = settings(derandomize=True, max_examples=30, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


def _call(fn, *args, **kwargs):
    """Run ``fn``; only the documented exceptions may come out (a result is fine)."""
    try:
        fn(*args, **kwargs)
    except DOCUMENTED as exc:
        assert str(exc).strip(), f"{type(exc).__name__} without a message"
    # anything else propagates and fails the test, with hypothesis' minimal example


def _options(cls, skip=()):
    return st.sampled_from(sorted(n for n in cls.specs() if n not in skip))


# executor and progress: values a caller would never pass but that are "valid" types
SKIP = ("executor",)


@pytest.mark.slow
@SETTINGS
@given(name=_options(AgreeOptions, SKIP), value=JUNK)
def test_agree(name, value):
    _call(synagree.agree, [A, B], **{name: value})


@SETTINGS
@given(value=JUNK)
def test_agree_inputs(value):
    _call(synagree.agree, value)
    _call(synagree.agree, [A, value])
    _call(synagree.agree, (), value)


@SETTINGS
@given(name=_options(AgreeOptions, SKIP + tuple(n for n in SPECS if n in (
    "names", "fmt", "phrase_style", "strict", "allow_missing", "check_text", "match"))),
    value=JUNK)
def test_agree_corpus(name, value):
    corpus = synagree.load_corpus([A, B])
    _call(synagree.agree_corpus, corpus, **{name: value})
    _call(synagree.agree_corpus, value)


@SETTINGS
@given(name=st.sampled_from(["names", "fmt", "phrase_style", "strict", "allow_missing",
                             "check_text", "match"]), value=JUNK)
def test_load_corpus(name, value):
    _call(synagree.load_corpus, [A, B], **{name: value})


@SETTINGS
@given(name=_options(CompareOptions, SKIP), value=JUNK)
def test_compare(name, value):
    _call(synagree.compare, A, B, **{name: value})


@SETTINGS
@given(value=JUNK)
def test_compare_inputs(value):
    _call(synagree.compare, value, B)
    _call(synagree.compare, A, value)


@SETTINGS
@given(name=_options(ParsevalOptions, SKIP), value=JUNK)
def test_compare_parseval(name, value):
    _call(synagree.compare_parseval, TREE_G, TREE_S, **{name: value})


@SETTINGS
@given(name=_options(TagsOptions), value=JUNK)
def test_tags(name, value):
    _call(synagree.tags, A, B, **{name: value})


@SETTINGS
@given(name=_options(CategoricalOptions), value=JUNK)
def test_categorical(name, value):
    _call(synagree.categorical, [A, B], **{name: value})


@SETTINGS
@given(name=_options(ReportOptions), value=JUNK)
def test_report(name, value):
    _call(synagree.report, [A, B], **{name: value})


@settings(derandomize=True, max_examples=15, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(name=_options(NoiseOptions, ("progress",)), value=JUNK)
def test_noise_experiment(tmp_path_factory, name, value):
    out = tmp_path_factory.mktemp("noise")
    kw = {"sample": 2, "runs": 1, "grid": [0.5], "series": ["both"], name: value}
    _call(synagree.noise_experiment, [A], out, **kw)


@SETTINGS
@given(value=JUNK, which=st.sampled_from(["source", "format", "name", "phrase_style",
                                          "strict"]))
def test_read(value, which):
    if which == "source":
        _call(synagree.read, value)
    else:
        _call(synagree.read, A, **{which: value})


@SETTINGS
@given(value=JUNK, which=st.sampled_from(["a", "b", "costs", "phrase_style"]))
def test_ted(value, which):
    t = synagree.read(A)
    kw = {"a": t[0], "b": t[1], which: value}
    _call(synagree.ted, kw.pop("a"), kw.pop("b"), **kw)


@SETTINGS
@given(data=st.one_of(JUNK, st.lists(st.lists(st.integers(0, 3), max_size=4), max_size=3)),
       metric=st.one_of(st.sampled_from(["nominal", "ordinal", "interval", "ratio"]), JUNK))
def test_krippendorff_alpha(data, metric):
    try:
        a = synagree.krippendorff_alpha(data, metric)
    except DOCUMENTED:
        return
    # a number only for rectangular data of at least one unit; nan only when the data
    # leave alpha undefined (no variation), never for malformed data
    assert isinstance(data, list) and data and len({len(r) for r in data}) == 1
    assert math.isnan(float(a)) or -10 <= float(a) <= 1


# --------------------------------------------------------------------------
# The issue's cases, one by one, with the sentence each gives
# --------------------------------------------------------------------------

@pytest.mark.parametrize("call, exc, words", [
    (lambda: synagree.agree([A, B], by=5), TypeError, ["by", "5", "Grouping"]),
    (lambda: synagree.agree([A, B], max_memory="4Q"), ValueError, ["max_memory", "4G"]),
    (lambda: synagree.agree([A, B], bias="yes"), TypeError, ["bias", "'yes'", "True"]),
    (lambda: synagree.agree([A, B], names=[1, 2]), TypeError, ["names", "int"]),
    (lambda: synagree.agree([A, B], sample_pairs=0), ValueError, ["sample_pairs", "100"]),
    (lambda: synagree.report([A, B], worst=-1), ValueError, ["worst", "-1"]),
    (lambda: synagree.report([A, B], title=5), TypeError, ["title", "5"]),
    (lambda: synagree.report([A, B], noise=3), TypeError, ["noise", "3"]),
    (lambda: synagree.tags(A, B, sibling_credit=5), ValueError, ["sibling_credit", "0 to 1"]),
    (lambda: synagree.krippendorff_alpha([[1, 2, 3], [1]]), ValueError, ["rows", "1, 3"]),
    (lambda: synagree.krippendorff_alpha([]), ValueError, ["at least one"]),
    (lambda: synagree.agree([A, B], foo=1), TypeError, ["foo", "options are"]),
    (lambda: synagree.agree([A, B], options=CompareOptions()), TypeError, ["AgreeOptions"]),
])
def test_the_issues_cases(call, exc, words):
    with pytest.raises(exc) as e:
        call()
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_report_noise_nope_is_refused_before_the_work():
    # a string is a noise-results file: one that does not exist is bad input, refused
    # before any work (the CLI's --noise nope says the same)
    with pytest.raises(InputError, match="no such noise results file"):
        synagree.report([A, B], noise="nope")


def test_sizes_as_the_cli_writes_them():
    assert synagree.agree([A, B], max_memory="4G").annotators == ["ann1", "ann2"]
    assert AgreeOptions(max_memory="500M").max_memory == 500 * 2**20


def test_paths_accepted_like_every_input(tmp_path):
    a, b = tmp_path / "a.conllu", tmp_path / "b.conllu"
    a.write_text(A, encoding="utf-8")
    b.write_text(B, encoding="utf-8")
    pre = tmp_path / "pre.conllu"
    pre.write_text(A, encoding="utf-8")
    for given_as in (str(pre), pre):  # preannotation: a path, as every other input
        res = synagree.agree([a, b], preannotation=given_as)
        assert res.preannotation is not None
    h = tmp_path / "h.txt"
    h.write_text("root\nnsubj\nobj\n", encoding="utf-8")
    assert synagree.compare(a, b, hierarchy=h).systems[0].value("LAS_hier") is not None
    assert synagree.compare(a, b, hierarchy=io.StringIO("root\nnsubj\nobj\n")) is not None
    stored = tmp_path / "old.json"
    import json
    stored.write_text(json.dumps(synagree.agree([a, b], per_unit=True).to_dict()),
                      encoding="utf-8")
    assert synagree.agree([a, b], baseline=Path(stored)).baseline is not None
    prm = tmp_path / "p.prm"
    prm.write_text("DEBUG 0\nMAX_ERROR 10\nCUTOFF_LEN 40\nLABELED 1\n", encoding="utf-8")
    assert synagree.compare_parseval(TREE_G, TREE_S, params=prm) is not None


@SETTINGS
@given(value=JUNK, which=st.sampled_from(["units", "variants", "costs", "keep_unit_matrix",
                                          "sample_pairs", "seed", "progress", "tile",
                                          "target_se", "full_rows", "exact"]))
def test_tree_alpha(value, which):
    from synagree.trees.flat import Vocabulary, dependency_tree

    v = Vocabulary()
    trees = [dependency_tree(s, v) for s in synagree.read(A) + synagree.read(B)]
    units = [[trees[0], trees[2]], [trees[1], trees[3]]]
    if which == "units":
        _call(synagree.tree_alpha, value)
    else:
        _call(synagree.tree_alpha, units, **{which: value})
