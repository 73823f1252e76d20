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
import re
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
#: two annotators with a ``batch`` comment (docs/qa-questions.md: --by, --where)
QUESTIONS = (ROOT / "tests" / "data" / "questions" / "anna.conllu",
             ROOT / "tests" / "data" / "questions" / "dan.conllu")
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


#: the absent mark of each format whose table shows one (text and Markdown: an en
#: dash; LaTeX: ``--``, its en dash)
ABSENT = {"table": "–", "markdown": "–", "latex": "--"}


@pytest.mark.parametrize("fmt", sorted(ABSENT))
def test_baseline_absent_marks_are_one_per_format(fmt, baselines):
    """A metric with no per-unit counts has no test: its interval, p-values and
    ``significant`` cells are all the format's one absent mark."""
    files, extra = baselines["compare"]
    out = output("compare", files, fmt, *extra)
    baseline = out[out.index("baseline:"):]  # after the scores, which have a MLAS row too
    row = next(line for line in baseline.splitlines()
               if line.replace("|", " ").split()[:1] == ["MLAS"])
    cells = ([c.strip() for c in row.strip("|").split("|")] if fmt == "markdown" else
             [c.strip() for c in row.rstrip("\\ ").split("&")] if fmt == "latex" else
             row.split())
    assert cells[-4:] == [ABSENT[fmt]] * 4, (fmt, row)
    other = {m for f, m in ABSENT.items() if m != ABSENT[fmt]}
    assert not any(m in cells for m in other), (fmt, row)


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
    # every header a registered key but the grid's p and the metric column (labels)
    heads = {h for head, _ in markdown_tables(md) for h in head} - {"p", "metric"}
    assert {"n", "mean", "median", "std", "min", "max"} <= heads
    assert all(is_registered(h.replace("\\_", "_")) for h in heads), heads
    assert Path(out / "summary.csv").exists()


# --------------------------------------------------------------------------
# tables of writers.text fitted on a terminal (tags --prf, --tiers)
# --------------------------------------------------------------------------

@pytest.mark.parametrize("extra", [(), ("--prf",), ("--tiers", str(TIERS / "ptb-coarse.tsv"))])
def test_writer_tables_are_fitted_on_a_terminal(extra, monkeypatch, tmp_path):
    """A tag name wider than the terminal leaves it: whole in a pipe; on a terminal cut
    and marked in the per-tag table and the ``--prf`` / ``--tiers`` tables, with the note
    on stderr."""
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
    section = out.split("Per gold coarse class" if "--tiers" in extra else
                        "variant" if extra else "Per gold tag", 1)[1]
    assert rc == 0 and long not in section and CUT.search(section)
    assert err.count("were cut to fit the terminal (70 columns)") == 1


# --------------------------------------------------------------------------
# compare's text tables (scores, breakdowns, confusions, significance), PARSEVAL's,
# tags' per-tag and per-feature tables: Table + writers.text (issue 31 item 4)
# --------------------------------------------------------------------------

THREE = (PAIR[0], PAIR[1], PAIR[1])
COMPARE_ALL = ("--names", "a", "b", "--breakdown", "--significance", "--bootstrap", "50")


def test_compare_text_holds_the_json_numbers():
    """Every score and interval of the JSON, every breakdown bin's precision, recall and
    F1 and every significance test is in the text table (percent), written whole to a
    pipe with one ``values:`` line, and every header of a numeric column of the scores,
    breakdowns and confusions is a registered key or a system's name."""
    d = json.loads(output("compare", THREE, "json", *COMPARE_ALL))
    values = list(headline_numbers(d))
    for s in d["systems"]:
        for name, bins in s["breakdowns"].items():
            values += [(f"{s['name']}.{name}.{b['bin']}.{k}", b[k]) for b in bins
                       for k in ("precision", "recall", "f1", "uas_f1") if b.get(k) is not None]
    values += [(f"significance.{t['metric']}.{k}", float(t[k])) for t in d["significance"]["pairs"]
               for k in ("value_a", "diff", "p_bootstrap", "p_randomisation")]
    values += [(f"significance.{t['metric']}.ci", x) for t in d["significance"]["pairs"]
               for x in t["ci"]]
    assert len(values) > 300 and any(k.endswith("_ci[low]") for k, _ in values)
    text = output("compare", THREE, "table", *COMPARE_ALL)
    assert not lost(values, text)
    assert len(VALUES.findall(text)) == 1 and not CUT.findall(text)
    assert "-----" not in text  # no hand-drawn rule: the writer's layout
    heads = set()
    for line in text.splitlines():
        if line.startswith(("metric ", "relation ", "upos ", "length ", "gold ")):
            heads |= set(line.split())
    allowed = {"a", "b", "a_ci", "b_ci", "metric", "relation", "upos", "length", "example"}
    assert heads and all(is_registered(h) or h in allowed for h in heads), heads


def test_parseval_text_holds_the_json_numbers():
    """PARSEVAL's text (summaries, breakdowns, confusions, significance): every label's
    precision, recall and F1 of the JSON in percent; whole in a pipe; one ``values:``."""
    files = (ROOT / "tests" / "data" / "parseval" / "gold.mrg",
             ROOT / "tests" / "data" / "parseval" / "parser-a.mrg",
             ROOT / "tests" / "data" / "parseval" / "parser-b.mrg")
    args = ("--breakdown", "--significance")
    d = json.loads(output("compare", files, "json", *args))
    values = list(headline_numbers(d))
    values += [(f"label.{k}", float(x)) for k, x in numbers(
        [s["breakdown"]["labels"] for s in d["systems"]], ("precision", "recall", "f1"))]
    assert len(values) > 20
    text = output("compare", files, "table", *args)
    assert not lost(values, text)
    assert len(VALUES.findall(text)) == 1 and not CUT.findall(text)
    assert "-----" not in text and not re.search(r"(?<!\S)--(?!\S)", text)  # absent: "–"


def test_parseval_alpha_table_is_headed_by_registered_keys():
    """PARSEVAL's α table (``--alpha``): headed ``metric`` and one column per system, its
    rows the registered keys alpha_plain/diff/norm (was the header ``alpha x 100``); the
    unit (alpha x 100) is said once, on the one ``values:`` line; the JSON's α in percent
    is in the table."""
    files = (ROOT / "tests" / "data" / "parseval" / "gold.mrg",
             ROOT / "tests" / "data" / "parseval" / "parser-a.mrg")
    text = output("compare", files, "table", "--names", "A", "--alpha")
    d = json.loads(output("compare", files, "json", "--names", "A", "--alpha"))
    lines = text.splitlines()
    head = lines.index("metric           A")
    rows = [_cells(line) for line in lines[head + 1:head + 4]]
    assert [r[0] for r in rows] == ["alpha_plain", "alpha_diff", "alpha_norm"]
    assert all(is_registered(r[0]) for r in rows)
    system = d["systems"][0]
    assert [float(r[1]) for r in rows] == [round(100 * system[f"alpha_{v}"], 2)
                                           for v in ("plain", "diff", "norm")]
    assert "alpha x 100" not in text.split("values:")[0]
    assert len(VALUES.findall(text)) == 1
    assert "alpha_*: Krippendorff's alpha x 100" in " ".join(text.split())


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex"])
def test_tags_per_tag_table_is_the_same_in_every_format(fmt):
    """The per-tag table of the text output is the one Markdown and LaTeX write: the same
    registered headers, every tag's accuracy and credit."""
    d = json.loads(output("tags", TIER_FILES, "json", "--column", "xpos"))
    values = [(f"{r['tag']}.{k}", float(r[k])) for r in d["per_tag"]
              for k in ("accuracy", "accuracy_hier") if r.get(k) is not None]
    assert len(values) > 10
    out = output("tags", TIER_FILES, fmt, "--column", "xpos").replace("\\_", "_")
    assert "accuracy_hier" in out and "Per gold tag" in out
    assert not lost(values, out.split("Per gold tag", 1)[1])


def test_compare_breakdown_is_fitted_on_a_terminal(monkeypatch, tmp_path):
    """A relation name wider than a terminal leaves it: whole in a pipe; on a terminal cut
    and marked in the breakdown and confusion tables (numbers whole), the note on stderr
    once."""
    from synagree.render import fit

    long = "a-very-long-relation-name-that-a-terminal-cannot-hold-whole"
    paths = []
    for name, p in zip("ab", PAIR):
        rows = []
        for line in p.read_text(encoding="utf-8").split("\n"):
            c = line.split("\t")
            if len(c) == 10 and c[7] == "obl":
                c[7] = long
            rows.append("\t".join(c))
        paths.append(tmp_path / f"{name}.conllu")
        paths[-1].write_text("\n".join(rows), encoding="utf-8")
    rc, piped, err = run("compare", *paths, "--breakdown")
    assert rc == 0 and long in piped and not CUT.findall(piped)
    monkeypatch.setattr(fit, "is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "60")
    rc, out, err = run("compare", *paths, "--breakdown")
    def tables(text: str) -> str:  # the breakdowns and confusions (a note names the label)
        return text.split("LAS by gold relation", 1)[1].split("\nnote:", 1)[0]

    assert rc == 0 and long not in tables(out) and CUT.search(tables(out))
    assert err.count("were cut to fit the terminal (60 columns)") == 1
    assert [x for x in numbers_in(tables(out)) if x[1] == 2] == \
        [x for x in numbers_in(tables(piped)) if x[1] == 2]


# --------------------------------------------------------------------------
# agree's summary: the text is the Markdown's tables (summary_document)
# --------------------------------------------------------------------------

def _text_rows(text: str, first: str) -> List[List[str]]:
    """The rows of the text table whose header starts with ``first`` (to a blank line
    or its notes)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:1] == [first])
    rows = []
    for line in lines[start:]:
        if not line.strip() or line.startswith("note: "):
            break
        rows.append(line.split("  "))
    return [[c.strip() for c in r if c.strip()] for r in rows]


@pytest.mark.parametrize("extra", [(), ("--bootstrap", "50")])
def test_agree_summary_text_is_the_markdown_table(extra):
    """``agree``'s text summary is written from the tables Markdown writes (settings,
    then metrics with their intervals): the same headers and cells, every number of the
    JSON's top level in it, one ``values:`` line, nothing cut in a pipe."""
    text = output("agree", PAIR, "table", *extra)
    md = output("agree", PAIR, "markdown", *extra).replace("\\[", "[").replace("\\]", "]")
    (shead, srows), (mhead, mrows), *_ = markdown_tables(md)
    assert _text_rows(text, "name") == [shead, *srows]
    assert _text_rows(text, "metric") == [mhead, *mrows]
    assert mhead == (["metric", "value", "value_ci"] if extra else ["metric", "value"])
    d = json.loads(output("agree", PAIR, "json", *extra))
    values = [(k, x) for k, x in headline_numbers(d) if "." not in k.split("[")[0]]
    assert len(values) >= (21 if extra else 7)
    assert not lost(values, text)
    assert len(VALUES.findall(text)) == 1 and not CUT.findall(text)


def test_agree_summary_is_fitted_on_a_terminal(monkeypatch):
    """Annotator names wider than the terminal: whole in a pipe; on a terminal the
    annotators cell is cut and marked, the command says how to see it whole, and the
    metrics (numbers) are never cut."""
    from synagree.render import fit

    long = ("an-annotator-with-a-name-longer-than-any-narrow-terminal",
            "another-annotator-with-an-even-longer-name-than-that")
    rc, piped, err = run("agree", *PAIR, "--names", *long)
    assert rc == 0 and all(n in piped for n in long) and not CUT.findall(piped)
    monkeypatch.setattr(fit, "is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "60")
    rc, out, err = run("agree", *PAIR, "--names", *long)
    row = next(line for line in out.splitlines() if line.startswith("annotators"))
    assert rc == 0 and row.endswith(fit.ELLIPSIS) and len(row) <= 60
    assert err.count("were cut to fit the terminal (60 columns)") == 1
    assert _text_rows(out, "metric") == _text_rows(piped, "metric")


# --------------------------------------------------------------------------
# render_rows' tables (worst list, --bias, categorical, spans): one Table, every format
# --------------------------------------------------------------------------

def _cells(line: str) -> List[str]:
    return [c for c in re.split(r"\s{2,}", line.strip()) if c]


@pytest.mark.parametrize("cmd,extra", [("agree", ("--worst", "5", "--bias")),
                                       ("categorical", ("--layers", "deprel,upos", "--bias")),
                                       ("spans", ()),
                                       ("agree", ("--by", "batch")),
                                       ("agree", ("--where", "upos=ADP", "--where",
                                                  "head.upos=VERB"))])
def test_row_tables_are_the_same_in_text_and_markdown(cmd, extra):
    """The tables `synagree.render.rows.render_rows` and `synagree.render.questions`
    write are one `Table` in every format: each Markdown table's header and rows are
    lines of the text (written to a pipe: nothing cut), headed in text as in Markdown by
    registered keys (the --bias/--by/--where tables had short text-only headers: X2, df,
    p, p Holm, α plain), numbers aligned right in Markdown (``---:``)."""
    files = QUESTIONS if "--by" in extra or "--where" in extra else PAIR
    md = output(cmd, files, "markdown", *extra)
    text = output(cmd, files, "table", *extra)
    lines = {tuple(_cells(line)) for line in text.splitlines()}
    tables = list(markdown_tables(md))
    assert tables
    unescape = re.compile(r"\\(.)")
    for head, rows in tables:
        for r in [head, *rows]:
            cells = tuple(unescape.sub(r"\1", c) for c in r if c)
            assert cells in lines, (cmd, cells)
    # the --bias/--by/--where tables: every numeric column headed by a registered key
    questions = [(h, r) for h, r in tables if h[0] in ("layer", "batch", "query")]
    assert questions or cmd == "spans", cmd
    for head, rows in questions:
        for k, h in enumerate(head):
            cells = [r[k] for r in rows if k < len(r) and r[k]]
            if cells and all(NUMERIC_CELL.match(c) for c in cells):
                assert is_registered(h.replace("\\_", "_")), (cmd, h)
    assert re.search(r"^\|[-|]*---:", md, re.M)  # some numeric column, aligned right
    assert not CUT.findall(text) and len(VALUES.findall(text)) == 1


# --------------------------------------------------------------------------
# --significance: one table (registered headers) in text, Markdown and LaTeX
# --------------------------------------------------------------------------

PARSEVAL_THREE = tuple(ROOT / "tests" / "data" / "parseval" / f"{n}.mrg"
                       for n in ("gold", "parser-a", "parser-b"))


@pytest.mark.parametrize("files,extra", [(THREE, ("--names", "a", "b")),
                                         (PARSEVAL_THREE, ())],
                         ids=["dependency", "parseval"])
def test_significance_in_every_format(files, extra):
    """``compare --significance`` (dependency and PARSEVAL): every value, difference,
    interval and p-value of the JSON's ``significance.pairs`` is in text, Markdown and
    LaTeX (were text, CSV and JSON only), the numeric columns headed by registered keys
    (the JSON's: value_a, value_b, diff, diff_ci, p_bootstrap, p_randomisation)."""
    args = ("--significance", *extra)
    pairs = json.loads(output("compare", files, "json", *args))["significance"]["pairs"]
    values = [(f"{t['metric']}.{k}", float(t[k])) for t in pairs
              for k in ("value_a", "value_b", "diff", "p_bootstrap", "p_randomisation")]
    values += [(f"{t['metric']}.ci", float(x)) for t in pairs for x in t["ci"]]
    assert len(values) >= 7 * len(pairs) > 0
    for fmt in ("table", "markdown", "latex"):
        out = output("compare", files, fmt, *args)
        sig = out[out.index("significance: paired bootstrap"):]
        assert not lost(values, sig), fmt
        assert "p\\_randomisation" in sig or "p_randomisation" in sig, fmt
    md = output("compare", files, "markdown", *args)
    assert not unregistered_numeric_headers(md[md.index("**significance"):])
    assert "the tables of --significance" not in md


# --------------------------------------------------------------------------
# the tails (notes, values:, signature) of spans, categorical, compare and PARSEVAL:
# writers.write(Document), as the other commands (issue 31 item 4)
# --------------------------------------------------------------------------

#: a values: line in text, Markdown (italic) or LaTeX (a comment)
ANY_VALUES = re.compile(r"^(?:\*|% )?values: ", re.M)
SPANS_DELEX = (ROOT / "tests" / "data" / "spans" / "gold.tree",
               ROOT / "tests" / "data" / "spans" / "system.tree")


def _tail(notes: Sequence[str], units: str, signature: str, fmt: str) -> str:
    """What `synagree.render.writers.write` ends a document with: notes, values:,
    signature (from a document of no table)."""
    from synagree.base.table import Document
    from synagree.render import writers
    return writers.write(Document([], list(notes), units, signature), fmt)


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex"])
@pytest.mark.parametrize("cmd", ["spans", "categorical"])
def test_spans_and_categorical_tails_are_the_writers(cmd, fmt):
    """``spans`` and ``categorical``: the run's notes (the delexicalised-trees note; the
    layers left out), the one ``values:`` line and the signature end the output as
    `writers.write` ends any document (were laid by hand: ``Note:``/``Signature:`` in
    Markdown, ``% synagree signature:`` in LaTeX, in text the notes above the table)."""
    from synagree.render.categorical import layer_units
    from synagree.render.spans import SPAN_UNITS
    files, extra = ((SPANS_DELEX, ("--phrase-style", "delex")) if cmd == "spans"
                    else (PAIR, ()))
    units = SPAN_UNITS if cmd == "spans" else layer_units(2)
    d = json.loads(output(cmd, files, "json", *extra))
    notes = d["notes"]
    assert notes
    out = output(cmd, files, fmt, *extra)
    assert out.endswith(_tail(notes, units, d["signature"], fmt)), out[-600:]
    assert len(ANY_VALUES.findall(out)) == 1


TAGCREDIT = (ROOT / "tests" / "data" / "tagcredit" / "gold.conllu",
             ROOT / "tests" / "data" / "tagcredit" / "system.conllu")
PARSEVAL_PAIR = (ROOT / "tests" / "data" / "parseval" / "gold.mrg",
                 ROOT / "tests" / "data" / "parseval" / "parser-a.mrg")


@pytest.mark.parametrize("files,extra", [(TAGCREDIT, ("--no-alpha", "--breakdown")),
                                         (PARSEVAL_PAIR, ("--alpha", "--breakdown"))],
                         ids=["dependency", "parseval"])
def test_compare_tail_is_the_writers(files, extra):
    """``compare`` (dependency and PARSEVAL) text: under the scores, the JSON's notes (here
    CLAS/MLAS/BLEX left out on non-UD labels), the one ``values:`` line and the signature
    as `writers.write` ends a document, before the breakdowns (the notes were laid by hand
    after every extra table, the values: line and signature by hanging/signature_text)."""
    d = json.loads(output("compare", files, "json", *extra))
    text = output("compare", files, "table", *extra)
    units = next(line for line in text.splitlines() if line.startswith("values: "))[8:]
    notes = d.get("notes", [])
    assert notes or files == PARSEVAL_PAIR
    tail = _tail(notes, units, d["signature"], "table")
    assert tail in text and text.index(tail) < text.index("brackets by label"
                                                          if files == PARSEVAL_PAIR
                                                          else "relation ")
    assert len(VALUES.findall(text)) == 1 and text.count("signature: ") == 1
    assert all(text.count(f"note: {n}") == 1 for n in notes)
