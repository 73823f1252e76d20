"""Every metric key a command writes to JSON is registered (`synagree.base.metrics`).

Each command runs on small bundled or test data with the options that add
metrics; its JSON is walked at the **metric levels** listed in `LEVELS`, and
every key there whose value is a number (not a bool) or, for a key ending in
``_ci``, a ``[low, high]`` interval must satisfy `is_registered`.

Metric levels (paths: ``*`` any key of an object, fnmatch patterns such as
``alpha_*`` some keys, ``[]`` every item of a list):

* ``agree``/``report``: the top level (the result); ``counts.alpha_*`` (the
  sums behind α), ``counts.scores`` and ``counts.scores.correct`` (the words
  behind the word scores); the same α sums of the optional sections
  (``details.unlabelled.counts.*``, ``details.direction.counts.*``); the
  ``--breakdown`` output (``details.breakdown``, its ``totals``, label and arc
  rows, label confusions, UPOS and length bins with their α sums); the
  ``--worst`` units (``details.worst[]``; the report's ``worst``,
  ``worst.units[]``); the report's leave-one-out and annotator-distance rows
  and its layers (``categorical.*`` and their ``coefficients``, ``pairs[]``).
  With ``--runs``/``--retest``: each set (``sets[]``).
* ``compare``: the top level, each system (``systems[]``), the counts of each
  of its metrics (``systems[].counts.*``), its ``--prf`` variants and their
  per-label rows, and its ``enhanced`` record.
* ``tags``: the top level, ``counts``, ``gwet`` (``--coefficient``), ``per_tag[]``,
  the ``--prf`` variants and their per-label rows, ``per_feature`` with its counts and feature rows,
  ``tiers`` with its level blocks, per-class rows and the lexicon's total,
  per-class and per-form rows.
* ``categorical``: the top level, each layer (``layers.*``) with its
  ``coefficients``, ``counts``, ``pairs[]``, ``documents.*`` and
  ``macro_documents``; the ``--per-feature`` rows (``per_feature.features.*``
  and the layer inside each); the ``--enhanced`` record, its levels and their
  pairs; the ``--coefficient`` layers (``gwet.layers.*``).
* ``alt-test``: the top level and each left-out human (``humans[]``).

Objects keyed by metric (`KEYED`: ``systems[].counts``,
``significance.values.*``, ``significance.ci.*``, a layer's
``coefficient_items``, the intervals of ``categorical``'s ``bootstrap``):
each of their keys must be registered, whatever its value.

Not metric levels, with the reason:

* ``settings``, ``signature``, ``params`` (EVALB's parameter file): settings;
* ``details.per_unit`` / ``systems[].per_unit``: the per-unit format of
  method §18.1, versioned on its own (``format``);
* ``details.hierarchy``, ``details.bootstrap``, ``details.ted_zero``: a
  section's working record (settings, sums of its own, examples);
* records of a test or an interval whose fields are statistics *of* the metric
  that the record names (``significance.pairs[]``, ``baseline``, the
  ``estimate``/``low``/``high``/``se`` of a ``bootstrap`` interval);
* records that reproduce another program's report under that program's names
  (``systems[].summary`` of PARSEVAL: EVALB, method §22.3; ``bdm_prf``: GATE,
  method §23.3);
* objects keyed by α variant (``contribution``, ``alpha_without``,
  ``influence`` of a ``--worst`` unit) and the report's ``pairs`` table (one
  list per column, no number at its level);
* objects keyed by data (labels, tags, categories, documents, annotators,
  systems), whose keys are not names of ours, and the report's
  ``bootstrap.metrics``, whose keys join a layer and a coefficient
  (``deprel_kappa``);
* ``systems[].breakdowns`` of ``compare`` (rows of ``gold``, ``system``,
  ``aligned``, ``las``, ``uas``, ``precision``, ``recall``, ``f1``,
  ``uas_f1``): its ``las``/``uas`` are the counts of correct words under the
  names `RENAMED` gives to ``agree``'s former word scores, so they cannot be
  registered as they are; renaming them changes ``compare``'s JSON (left to
  the vocabulary work of issue 21).

A level that matches nothing in every run of its command fails the test, so
the list cannot silently go stale.
"""
from __future__ import annotations

import fnmatch
import json
import os
from pathlib import Path
from typing import Any, Dict, Iterator, List, Sequence, Tuple

import pytest

from synagree.base.metrics import is_registered

KeyPath = Tuple[str, ...]
ROOT = Path(__file__).resolve().parents[1]

SAMPLE = ["synagree/data/en-sample/ann_a", "synagree/data/en-sample/ann_b"]
SAMPLE_FILES = [f"{d}/sample.conllu" for d in SAMPLE]
QA = ["tests/data/qa/anna.conllu", "tests/data/qa/bert.conllu", "tests/data/qa/cleo.conllu"]
HUMANS = [f"tests/data/humans/{n}.conllu" for n in ("gold", "anna", "bert")]
ENHANCED = ["tests/data/enhanced/anna.conllu", "tests/data/enhanced/bert.conllu"]
FEATS = ["tests/data/feats/ann1.conllu", "tests/data/feats/ann2.conllu",
         "tests/data/feats/ann3.conllu"]

#: per command: the runs (arguments after the command; ``--output json`` is added)
RUNS: Dict[str, List[List[str]]] = {
    "agree": [
        ["--dirs", *SAMPLE, "--hierarchy", "ud", "--bootstrap", "50", "--breakdown",
         "--unlabelled", "--label-direction", "--bdm", "--wu-palmer", "--worst", "3"],
        [*QA, "--allow-missing", "--hierarchy", "ud", "--label-distance", "hierarchy"],
        ["tests/data/core/phrase/delex-a.tree", "tests/data/core/phrase/delex-b.tree",
         "--breakdown", "--bootstrap", "40"],
        [*HUMANS, "--breakdown", "--coefficient", "ac1", "--bootstrap", "40"],
        [*HUMANS, "--runs", "tests/data/humans/post-anna.conllu",
         "tests/data/humans/post-bert.conllu", "--retest", "tests/data/humans/anna.conllu",
         "tests/data/humans/post-anna.conllu", "--bootstrap", "40"],
    ],
    "adjudicate": [
        ["--dirs", *SAMPLE, "-o", os.devnull, "--weights", "competence"],
    ],
    "report": [
        [*QA, "--allow-missing", "--bootstrap", "40", "--seed", "1",
         "--layers", "deprel,upos"],
    ],
    "compare": [
        ["tests/data/compare/bd-gold.conllu", "tests/data/compare/bd-sys.conllu",
         "tests/data/compare/bd-gold.conllu", "--hierarchy", "ud", "--bdm", "--wu-palmer",
         "--prf", "--breakdown", "--bootstrap", "40", "--significance",
         "--test-replicates", "50"],
        ENHANCED,
        ["tests/data/parseval/gold.mrg", "tests/data/parseval/parser-a.mrg",
         "tests/data/parseval/parser-b.mrg", "--alpha", "--bootstrap", "40"],
    ],
    "tags": [
        ["tests/data/tagcredit/gold.conllu", "tests/data/tagcredit/system.conllu",
         "--bdm", "--wu-palmer", "--prf", "--bootstrap", "40", "--coefficient", "ac2"],
        ["tests/data/tagcredit/gold.conllu", "tests/data/tagcredit/system.conllu",
         "--column", "xpos", "--hierarchy", "tests/data/tagcredit/xpos.txt",
         "--tag-syntax", "alternatives", "--wu-palmer"],
        [*FEATS[:2], "--column", "feats", "--per-feature"],
        ["tests/data/tiers/gold.conllu", "tests/data/tiers/system.conllu", "--column", "xpos",
         "--tiers", "upos", "--majority", "--tiers-unmapped", "own-class",
         "--lexicon", "tests/data/tiers/lexicon.tsv"],
    ],
    "categorical": [
        [*SAMPLE_FILES, "--layers", "deprel,head,upos,feats,head+deprel", "--bootstrap",
         "40", "--specific", "deprel"],
        [*FEATS, "--per-feature", "--layers", "feats"],
        [*ENHANCED, "--enhanced"],
        [*SAMPLE_FILES, "--layers", "deprel,head", "--coefficient", "ac2", "--ac2-weights",
         "quadratic"],
    ],
    "alt-test": [
        [*HUMANS, "--candidate", "tests/data/humans/parser.conllu"],
    ],
}

_AGREE_LEVELS: List[KeyPath] = [
    (), ("counts", "alpha_*"), ("counts", "scores"), ("counts", "scores", "correct"),
    ("details", "unlabelled", "counts", "*"), ("details", "direction", "counts", "*"),
    ("details", "breakdown"), ("details", "breakdown", "totals"),
    ("details", "breakdown", "labels"), ("details", "breakdown", "labels", "rows", "[]"),
    ("details", "breakdown", "arcs"), ("details", "breakdown", "arcs", "rows", "[]"),
    ("details", "breakdown", "label_confusions", "[]"),
    ("details", "breakdown", "upos", "[]"), ("details", "breakdown", "lengths", "[]"),
    ("details", "breakdown", "lengths", "[]", "counts", "*"),
    ("details", "breakdown", "gwet", "rows", "[]"),
]
_LAYER_LEVELS: List[KeyPath] = [(), ("coefficients",), ("counts",), ("pairs", "[]"),
                             ("documents", "*"), ("macro_documents",)]

#: per command: the paths whose objects hold metric keys (see the module docstring)
LEVELS: Dict[str, List[KeyPath]] = {
    "agree": _AGREE_LEVELS + [("details", "worst", "[]"), ("sets", "[]")],
    "adjudicate": [(), ("per_annotator", "[]")],
    "report": [(), ("counts", "alpha_*"), ("counts", "scores"),
               ("counts", "scores", "correct"), ("worst",), ("worst", "units", "[]"),
               ("leave_one_out", "[]"), ("annotator_distances", "[]"),
               *[("categorical", "*") + p for p in _LAYER_LEVELS]],
    "compare": [(), ("systems", "[]"), ("systems", "[]", "counts", "*"),
                ("systems", "[]", "prf", "*"), ("systems", "[]", "prf", "*", "per_label", "[]"),
                ("systems", "[]", "enhanced")],
    "tags": [(), ("counts",), ("gwet",), ("per_tag", "[]"), ("prf", "*"),
             ("prf", "*", "per_label", "[]"),
             ("per_feature",), ("per_feature", "counts"), ("per_feature", "universal_counts"),
             ("per_feature", "features", "[]"), ("tiers",), ("tiers", "*"),
             ("tiers", "per_class", "[]"), ("tiers", "lexicon", "total"),
             ("tiers", "lexicon", "per_class", "[]"), ("tiers", "lexicon", "per_form", "[]")],
    "categorical": [(), *[("layers", "*") + p for p in _LAYER_LEVELS],
                    ("per_feature", "features", "*"),
                    ("per_feature", "features", "*", "layer"),
                    ("per_feature", "features", "*", "layer", "coefficients"),
                    ("enhanced",), ("enhanced", "levels", "*"),
                    ("enhanced", "levels", "*", "pairs", "[]"), ("gwet", "layers", "*")],
    "alt-test": [(), ("humans", "[]")],
}

#: per command: objects whose every key names a metric
KEYED: Dict[str, List[KeyPath]] = {
    "agree": [],
    "adjudicate": [],
    "report": [("categorical", "*", "coefficient_items")],
    "compare": [("systems", "[]", "counts"), ("significance", "values", "*"),
                ("significance", "ci", "*")],
    "tags": [],
    "categorical": [("layers", "*", "coefficient_items"), ("bootstrap", "intervals", "*")],
    "alt-test": [],
}


def objects(doc: Any, path: KeyPath) -> Iterator[dict]:
    """The objects of ``doc`` at ``path`` (``*``/fnmatch keys, ``[]`` list items)."""
    if not path:
        if isinstance(doc, dict):
            yield doc
        return
    head, rest = path[0], path[1:]
    if head == "[]":
        for item in doc if isinstance(doc, list) else []:
            yield from objects(item, rest)
    elif isinstance(doc, dict):
        for k, v in doc.items():
            if fnmatch.fnmatchcase(k, head):
                yield from objects(v, rest)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def metric_keys(doc: Any, levels: Sequence[KeyPath], keyed: Sequence[KeyPath]
                ) -> Iterator[Tuple[KeyPath, str]]:
    """(level, key) for every key the module docstring says must be registered."""
    for level in levels:
        for obj in objects(doc, level):
            for k, v in obj.items():
                interval = (k.endswith("_ci") and isinstance(v, list) and len(v) == 2
                            and all(x is None or _number(x) for x in v))
                if _number(v) or interval:
                    yield level, k
    for level in keyed:
        for obj in objects(doc, level):
            for k in obj:
                yield level, k


def _run_json(run_cli, command: str, args: Sequence[str]) -> Any:
    rc, out, err = run_cli(command, *args, "--output", "json", "-q")
    assert rc == 0, err
    return json.loads(out)


def test_objects_and_keys():
    doc = {"a": 1, "b_ci": [0.1, 0.2], "flag": True, "name": "x",
           "rows": [{"c": 2.0, "d": None}], "counts": {"alpha_plain": {"n": 3}, "x": {"m": 1}}}
    assert [p for p, _ in metric_keys(doc, [()], [])] == [(), ()]
    assert [k for _, k in metric_keys(doc, [(), ("rows", "[]"), ("counts", "alpha_*")], [])] \
        == ["a", "b_ci", "c", "n"]
    assert [k for _, k in metric_keys(doc, [], [("counts",)])] == ["alpha_plain", "x"]


@pytest.mark.parametrize("command", sorted(RUNS))
def test_every_metric_key_is_registered(command, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    docs = [_run_json(run_cli, command, args) for args in RUNS[command]]
    missing: Dict[str, List[str]] = {}
    for doc in docs:
        for level, key in metric_keys(doc, LEVELS[command], KEYED[command]):
            if not is_registered(key):
                missing.setdefault(key, []).append(".".join(level) or "(top)")
    assert not missing, "not in synagree.base.metrics: " + "; ".join(
        f"{k} at {sorted(set(v))}" for k, v in sorted(missing.items()))
    # every listed level holds a checked key in some run: the list cannot go stale
    for level in LEVELS[command] + KEYED[command]:
        keyed = level in KEYED[command]
        found = any(True for doc in docs for _ in metric_keys(
            doc, [] if keyed else [level], [level] if keyed else []))
        assert found, f"{command}: level {'.'.join(level) or '(top)'} matched no metric key"
