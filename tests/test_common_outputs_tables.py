"""The invariance checks of tests/test_common_outputs.py on the tables that options add.

``agree --breakdown``, ``--baseline`` (``agree`` and ``compare``), ``tags --tiers
--majority`` / ``--lexicon`` and the noise experiment's ``summary.md`` are written
through `synagree.base.table` and `synagree.render.writers` (issue 31, item 4).
For each: every number of the JSON (intervals included) appears in CSV, Markdown
and LaTeX by the suite's rounding rule (`appears`); the text written to a pipe
holds no cut cell and exactly one ``values:`` line; on a narrow terminal the
text columns are cut, each cut marked, and the command says how to see them
whole; every numeric column is headed by a registered key.
"""
from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Iterator, List, Sequence, Tuple

import pytest
from test_common_outputs import (
    CUT,
    GENERIC_HEADERS,
    NUMERIC_CELL,
    ROOT,
    SAMPLE,
    VALUES,
    appears,
    headline_numbers,
    markdown_tables,
    numbers_in,
    output,
    run,
)

from synagree.base.metrics import is_registered

PAIR = (SAMPLE / "ann_a" / "sample.conllu", SAMPLE / "ann_b" / "sample.conllu")
BREAKDOWN = ("--breakdown", "--coefficient", "ac1", "--bootstrap", "50")
TIERS = ROOT / "tests" / "data" / "tiers"
TIER_FILES = (TIERS / "gold.conllu", TIERS / "system.conllu")
TIER_ARGS = ("--column", "xpos", "--tiers", str(TIERS / "ptb-coarse.tsv"),
             "--lexicon", str(TIERS / "lexicon.tsv"))
REGRESSION = ROOT / "tests" / "data" / "regression"


def numbers(x: object, keys: Sequence[str] = ()) -> Iterator[Tuple[str, float]]:
    """Every finite float of a JSON value (``keys``: only under these keys), lists of
    two numbers (intervals) included: ``(path, value)``."""
    def walk(v: object, path: Tuple[str, ...], taken: bool) -> Iterator[Tuple[str, float]]:
        if isinstance(v, dict):
            for k, w in v.items():
                yield from walk(w, path + (str(k),), taken or not keys or k in keys)
        elif isinstance(v, list):
            for i, w in enumerate(v):
                yield from walk(w, path + (str(i),), taken)
        elif isinstance(v, float) and math.isfinite(v) and taken:
            yield ".".join(path), v

    yield from walk(x, (), False)


def lost(values: Sequence[Tuple[str, float]], text: str) -> List[str]:
    written = numbers_in(text)
    return sorted(k for k, x in values if not appears(x, written))


def unregistered_numeric_headers(markdown: str) -> set:
    bad = set()
    for head, rows in markdown_tables(markdown):
        for k, h in enumerate(head):
            cells = [r[k] for r in rows if k < len(r)]
            h = h.replace("\\_", "_")
            if (cells and all(NUMERIC_CELL.match(c) for c in cells) and not is_registered(h)
                    and h not in GENERIC_HEADERS):
                bad.add(h)
    return bad


# --------------------------------------------------------------------------
# agree --breakdown
# --------------------------------------------------------------------------

def test_breakdown_numbers_in_every_format():
    d = json.loads(output("agree", PAIR, "json", *BREAKDOWN))["details"]["breakdown"]
    values = list(headline_numbers(d))
    assert len(values) > 50 and any(k.startswith("gwet.") for k, _ in values)
    assert any(k.endswith("gwet_ci[low]") for k, _ in values)
    for fmt in ("csv", "markdown", "latex"):
        assert not lost(values, output("agree", PAIR, fmt, *BREAKDOWN)), fmt


def test_breakdown_text_in_a_pipe():
    text = output("agree", PAIR, "table", *BREAKDOWN)
    assert "Sentence length" in text and not CUT.findall(text)
    assert len(VALUES.findall(text)) == 1
    md = output("agree", PAIR, "markdown", *BREAKDOWN)
    assert not unregistered_numeric_headers(md[md.index("**Labels"):])  # the breakdown's


def test_breakdown_is_fitted_on_a_terminal(monkeypatch, tmp_path):
    """Label names longer than the terminal leaves them are cut and marked; the
    command says how to see them whole; numbers are never cut."""
    from synagree.render import fit

    src = [p.read_text(encoding="utf-8") for p in PAIR]
    long = "a-very-long-relation-name-that-a-terminal-cannot-hold-whole"
    paths = []
    for name, text in zip("ab", src):
        rows = []
        for line in text.split("\n"):
            c = line.split("\t")
            if len(c) == 10 and c[7] == "nsubj":
                c[7] = long
            rows.append("\t".join(c))
        p = tmp_path / f"{name}.conllu"
        p.write_text("\n".join(rows), encoding="utf-8")
        paths.append(p)
    rc, piped, err = run("agree", *paths, "--breakdown")
    assert rc == 0 and long in piped and not CUT.findall(piped)
    monkeypatch.setattr(fit, "is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "60")
    rc, out, err = run("agree", *paths, "--breakdown")
    assert rc == 0 and long not in out and CUT.search(out)
    assert err.count("were cut to fit the terminal (60 columns)") == 1
    def decimals(text: str) -> list:  # the values (a wrapped header may show a digit)
        return [x for x in numbers_in(text.split("Labels", 1)[1]) if x[1] > 0]

    assert decimals(out) == decimals(piped)


# --------------------------------------------------------------------------
# --baseline (agree and compare)
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def baselines(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("baseline")
    gold, v1, v2 = (REGRESSION / f"{n}.conllu" for n in ("gold", "v1", "v2"))
    out = {}
    for cmd, names in (("compare", ("parser",)), ("agree", ("gold", "parser"))):
        old = tmp / f"{cmd}.json"
        rc, _, err = run(cmd, gold, v1, "--names", *names, "-o", old)
        assert rc == 0, err
        out[cmd] = ((gold, v2), ("--names", *names, "--baseline", str(old)))
    return out


@pytest.mark.parametrize("cmd", ["agree", "compare"])
def test_baseline_numbers_in_every_format(cmd, baselines):
    files, extra = baselines[cmd]
    d = json.loads(output(cmd, files, "json", *extra))
    bc = d["details"]["baseline"] if cmd == "agree" else d["baseline"]
    values = [(k, x) for k, x in numbers(bc, ("old", "new", "delta", "ci", "p_bootstrap",
                                              "p_randomisation"))]
    assert any(".ci." in k for k, _ in values) and len(values) > 20
    for fmt in ("csv", "markdown", "latex"):
        assert not lost(values, output(cmd, files, fmt, *extra)), fmt
    text = output(cmd, files, "table", *extra)
    assert len(VALUES.findall(text)) == 1 and not CUT.findall(text)
    md = output(cmd, files, "markdown", *extra)
    assert not unregistered_numeric_headers(md[md.index("**baseline:"):])


# --------------------------------------------------------------------------
# tags --tiers --majority / --lexicon
# --------------------------------------------------------------------------

def test_lexicon_numbers_in_every_format():
    d = json.loads(output("tags", TIER_FILES, "json", *TIER_ARGS))["tiers"]["lexicon"]
    rows = [d["total"], *d["per_class"]]
    values = [(f"{r['name']}.{k}", float(r[k])) for r in rows
              for k in ("words", "unknown", "known", "decided", "ambiguous", "gap",
                        "recovered", "decided_share") if r.get(k) is not None]
    values = [(k, x) for k, x in values if not k.startswith("ALL.") or "share" not in k]
    assert len(values) > 40
    for fmt in ("csv", "markdown", "latex"):
        assert not lost(values, output("tags", TIER_FILES, fmt, *TIER_ARGS)), fmt
    md = output("tags", TIER_FILES, "markdown", *TIER_ARGS)
    assert "decided_share" in md and "lexicon_tags" in md
    assert not unregistered_numeric_headers(md)
    text = output("tags", TIER_FILES, "table", *TIER_ARGS)
    assert len(VALUES.findall(text)) == 1 and not CUT.findall(text)


def test_majority_table_in_every_format(tmp_path):
    """A mapping derived from gold (--tiers upos --majority) on a file where one fine
    tag goes with two coarse tags: the ambiguity table in every text format."""
    text = TIER_FILES[0].read_text(encoding="utf-8")
    lines, done = [], False
    for line in text.split("\n"):
        c = line.split("\t")
        if len(c) == 10 and c[4] == "NNS" and not done:
            c[3], done = "PROPN", True  # NNS is NOUN elsewhere: it goes with two coarse tags
        lines.append("\t".join(c))
    gold = tmp_path / "gold.conllu"
    gold.write_text("\n".join(lines), encoding="utf-8")
    files = (gold, TIER_FILES[1])
    args = ("--column", "xpos", "--tiers", "upos", "--majority", "--tiers-unmapped", "own-class")
    d = json.loads(output("tags", files, "json", *args))["tiers"]["majority"]
    assert d["ambiguous"], d
    counts = [(f"{a['fine']}.{k}", float(v)) for a in d["ambiguous"]
              for k, v in (("words", a["words"]), ("minority", a["minority"]))]
    for fmt in ("table", "markdown", "latex"):
        out = output("tags", files, fmt, *args)
        assert "minority_words" in out.replace("\\_", "_"), fmt
        assert not lost(counts, out.split("majority mapping", 1)[1]), fmt
    assert len(VALUES.findall(output("tags", files, "table", *args))) == 1


# --------------------------------------------------------------------------
# noise: summary.md
# --------------------------------------------------------------------------

def test_noise_summary_md_holds_the_csv_numbers(tmp_path):
    out = tmp_path / "exp"
    rc, _, err = run("noise", PAIR[0], "-o", out, "--sample", "4", "--grid", "0.5,1",
                     "--runs", "2", "--series", "relabel")
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO((out / "summary.csv").read_text())))
    values = [(f"{r['p']}.{r['metric']}.{k}", float(r[k])) for r in rows
              for k in ("mean", "median", "std", "min", "max") if r[k]]
    assert len(values) >= 20
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert not lost(values, md)
    assert len(VALUES.findall(md)) == 1
    heads = {h for head, _ in markdown_tables(md) for h in head} - {"p", "metric", "n", "mean",
                                                                    "median", "std", "min",
                                                                    "max"}
    assert heads and all(is_registered(h.replace("\\_", "_")) for h in heads), heads
    assert Path(out / "summary.csv").exists()


# --------------------------------------------------------------------------
# tables of writers.text fitted on a terminal (tags --prf, --tiers)
# --------------------------------------------------------------------------

@pytest.mark.parametrize("extra", [("--prf",), ("--tiers", str(TIERS / "ptb-coarse.tsv"))])
def test_writer_tables_are_fitted_on_a_terminal(extra, monkeypatch, tmp_path):
    """A tag name wider than the terminal leaves it: whole in a pipe; on a terminal cut
    and marked in the ``--prf`` / ``--tiers`` tables, with the note on stderr."""
    from synagree.render import fit

    long = "NNS-a-very-long-tag-name-that-no-narrow-terminal-can-show-whole"
    paths = []
    for p in TIER_FILES:
        text = p.read_text(encoding="utf-8").replace("\tNNS\t", f"\t{long}\t")
        paths.append(tmp_path / p.name)
        paths[-1].write_text(text, encoding="utf-8")
    if "--tiers" in extra:
        mapping = (TIERS / "ptb-coarse.tsv").read_text(encoding="utf-8")
        extra = ("--tiers", str(tmp_path / "map.tsv"))
        (tmp_path / "map.tsv").write_text(mapping.replace("NNS\t", f"{long}\t"),
                                          encoding="utf-8")
    args = ("tags", *paths, "--column", "xpos", *extra)
    rc, piped, err = run(*args)
    assert rc == 0, err
    assert long in piped and not CUT.findall(piped)
    monkeypatch.setattr(fit, "is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "70")
    rc, out, err = run(*args)
    section = out.split("Per gold coarse class" if "--tiers" in extra else "variant", 1)[1]
    assert rc == 0 and long not in section and CUT.search(section)
    assert err.count("were cut to fit the terminal (70 columns)") == 1
