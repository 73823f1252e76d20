"""The invariance suite: every command x every output format on real data (issue 31).

In the spirit of scikit-learn's ``test_common.py``: the commands, their output
formats and the metric keys are read from the registries (`synagree.cli.main.COMMANDS`,
each command's ``--output`` choices, `synagree.base.metrics`), not listed by hand,
and every check runs on every (command, data set) pair that applies:

* every registered metric value of the JSON output (intervals included)
  appears in the CSV, Markdown and LaTeX outputs (`appears`: the rounding rule);
* a text table written to a pipe never holds a cut cell;
* every text table prints exactly one ``values:`` line;
* a metric the JSON leaves out is named in a note;
* a key printed by several commands on the same files has the same value.

Data sets: the bundled ``synagree/data/en-sample`` (always), and, when
``../shared/data`` is there, a slice of the UD English EWT dev set with a
perturbed copy, the NDT Danish pair, the CDT Danish pair; the bracketed files
of ``tests/data/parseval``.  Each command runs once per data set and format
(outputs are cached for the session).

A check a command does not meet yet is an ``xfail(strict=True)`` naming why
(`KNOWN`), so that fixing it makes the suite say so.
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import re
from pathlib import Path
from typing import Dict, Iterator, List, Sequence, Tuple

import pytest

from conftest import SHARED_DATA
from synagree.base.metrics import FRACTION, is_registered, metric
from synagree.cli.main import COMMANDS, build_parser, main
from synagree.render.fit import ELLIPSIS

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "synagree" / "data" / "en-sample"

# --------------------------------------------------------------------------
# The data sets: name -> (files, needs shared data)
# --------------------------------------------------------------------------

EWT_SENTENCES = 60


def _ewt_slice(tmp: Path) -> Tuple[Path, Path]:
    """The first `EWT_SENTENCES` sentences of UD EWT dev, and a copy in which every
    third ``nsubj`` is an ``obj`` and every fifth other word's relation is ``dep``."""
    text = (SHARED_DATA / "ud" / "en_ewt-ud-dev.conllu").read_text(encoding="utf-8")
    blocks = text.split("\n\n")[:EWT_SENTENCES]
    gold = "\n\n".join(blocks) + "\n\n"
    out, k = [], 0
    for line in gold.split("\n"):
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit():
            k += 1
            if cols[7] == "nsubj" and k % 3 == 0:
                cols[7] = "obj"
            elif k % 5 == 0 and cols[6] != "0":
                cols[7] = "dep"
            line = "\t".join(cols)
        out.append(line)
    a, b = tmp / "ewt-gold.conllu", tmp / "ewt-system.conllu"
    a.write_text(gold, encoding="utf-8")
    b.write_text("\n".join(out), encoding="utf-8")
    return a, b


def datasets(tmp: Path) -> Dict[str, Tuple[Path, Path]]:
    """Every data set that is there: name -> (first file, second file)."""
    out = {"sample": (SAMPLE / "ann_a" / "sample.conllu", SAMPLE / "ann_b" / "sample.conllu"),
           "bracketed": (ROOT / "tests" / "data" / "parseval" / "gold.mrg",
                         ROOT / "tests" / "data" / "parseval" / "parser-a.mrg")}
    if (SHARED_DATA / "iaa").is_dir():
        iaa = SHARED_DATA / "iaa"
        out["ndt"] = (iaa / "ndt" / "odin-danish.conll", iaa / "ndt" / "thor-danish.conll")
        out["cdt"] = (iaa / "cdt" / "da-lotte.conll", iaa / "cdt" / "da-morten.conll")
        out["ewt"] = _ewt_slice(tmp)
    return out


SHARED_SETS = ("ndt", "cdt", "ewt")

# --------------------------------------------------------------------------
# The commands: read from the CLI's registry
# --------------------------------------------------------------------------

#: commands that take two annotation files and print tables of them
PAIR_COMMANDS = ("agree", "compare", "tags", "categorical", "spans", "report")
#: the other commands, and why the suite does not run them on a pair of files
OTHER_COMMANDS = {
    "bdm": "writes GATE's score file of a concept hierarchy, not tables of annotations",
    "plan": "takes a pilot study and a target width, not a pair of files "
            "(its tables go through Table and the writers: tests/test_plan.py)",
    "noise": "a long experiment writing a folder (tests/test_experiments.py)",
    "plot": "draws figures of a noise experiment",
    "alt-test": "takes three or more humans and a candidate, not a pair (its numbers: "
                "tests/test_alt_test.py; its output set: test_alt_test_offers_the_same_set)",
    "adjudicate": "writes the consensus CoNLL-U (-o); its summary's numbers against its "
                  "JSON: tests/test_adjudicate.py; its output set: "
                  "test_alt_test_offers_the_same_set",
}
#: commands that do not read bracketed files
DEPENDENCY_ONLY = ("tags", "categorical", "report")
#: the text formats whose numbers are checked against the JSON
TEXT_FORMATS = ("csv", "markdown", "latex")


def test_every_command_is_covered():
    assert set(COMMANDS) == set(PAIR_COMMANDS) | set(OTHER_COMMANDS)


#: the output formats every command that prints tables offers (docs/output.md)
TABLE_FORMATS = {"table", "json", "csv", "markdown", "latex"}


@pytest.mark.parametrize("cmd", PAIR_COMMANDS)
def test_the_same_output_set(cmd):
    """table, json, csv, markdown, latex everywhere; html only where there is a page,
    evalb only where EVALB's report is the point."""
    formats = set(output_formats(cmd))
    assert TABLE_FORMATS <= formats, TABLE_FORMATS - formats
    assert formats - TABLE_FORMATS <= {"report": {"html"}, "compare": {"evalb"}}.get(cmd, set())


@pytest.mark.parametrize("cmd", ["alt-test", "adjudicate"])
def test_alt_test_offers_the_same_set(cmd):
    assert set(output_formats(cmd)) == TABLE_FORMATS


def output_formats(command: str) -> Tuple[str, ...]:
    """The ``--output`` choices of ``command`` (its parser, not a list kept here)."""
    ap = build_parser(command)
    sub = next(a for a in ap._actions if a.dest == "command")
    p = sub.choices[command]  # type: ignore[attr-defined]
    act = next(a for a in p._actions if a.dest == "output")
    return tuple(act.choices)


def run(*args: object) -> Tuple[int, str, str]:
    """``synagree ARGS`` in-process: (exit status, stdout, stderr); stdout is not a
    terminal (a pipe)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in args] + ["-q"])
    return rc, out.getvalue(), err.getvalue()


_CACHE: Dict[Tuple[str, ...], Tuple[int, str, str]] = {}


def output(command: str, files: Sequence[Path], fmt: str, *extra: str) -> str:
    """The output of ``synagree COMMAND FILES --output FMT EXTRA`` (cached)."""
    key = (command, *map(str, files), fmt, *extra)
    if key not in _CACHE:
        _CACHE[key] = run(command, *files, "--output", fmt, *extra)
    rc, out, err = _CACHE[key]
    assert rc == 0, f"{' '.join(key)}: exit {rc}: {err}"
    return out


# --------------------------------------------------------------------------
# Which command runs on which data set
# --------------------------------------------------------------------------

#: (command, data set) pairs that do not apply, and why
NOT_APPLICABLE = {
    ("tags", "bracketed"): "tags reads token columns of dependency files",
    ("categorical", "bracketed"): "categorical reads token layers of dependency files",
    ("spans", "cdt"): "CDT's files have sentences with two roots, which spans refuses",
    ("compare", "cdt"): "CDT's files have sentences with two roots, which the CoNLL 2018 "
                        "reader of compare refuses (as the official scorer does)",
    ("spans", "bracketed"): "the parser output retokenises a sentence of the gold file, and "
                            "spans needs the same tokens",
}


def cases(shared: bool = True) -> List[Tuple[str, str]]:
    """Every (command, data set) pair; the shared data sets as ``slow`` params."""
    out = []
    for cmd in PAIR_COMMANDS:
        for name in ("sample", "bracketed", *SHARED_SETS):
            if (cmd, name) in NOT_APPLICABLE:
                continue
            marks = [pytest.mark.slow] if name in ("ndt", "cdt") else []
            out.append(pytest.param(cmd, name, id=f"{cmd}-{name}", marks=marks))
    return out


@pytest.fixture(scope="session")
def data(tmp_path_factory) -> Dict[str, Tuple[Path, Path]]:
    return datasets(tmp_path_factory.mktemp("common"))


def files_of(data: Dict[str, Tuple[Path, Path]], name: str) -> Tuple[Path, Path]:
    if name not in data:
        pytest.skip(f"shared reference data not found at {SHARED_DATA} (data set {name!r})")
    return data[name]


#: a check a (command, data set) does not pass yet: (check, command, data set or "*")
#: -> why; the test is xfail(strict=True), so that fixing it shows
KNOWN: Dict[Tuple[str, str, str], str] = {}


def known(request, check: str, cmd: str, name: str) -> None:
    why = KNOWN.get((check, cmd, name)) or KNOWN.get((check, cmd, "*"))
    if why:
        request.applymarker(pytest.mark.xfail(reason=why, strict=True))


# --------------------------------------------------------------------------
# 1. every registered number of the JSON is in CSV, Markdown and LaTeX
# --------------------------------------------------------------------------

NUMBER = re.compile(r"(?<![\w.])[-+−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


#: parts of a JSON path holding the records behind the headline numbers (the sums
#: behind each ratio, per-unit, per-document, per-pair and per-tag lists): JSON and
#: CSV detail, not what the text formats are asked to repeat
DETAIL = frozenset({"counts", "details", "per_unit", "documents", "macro_documents", "pairs",
                    "worst", "units", "per_tag", "bins", "breakdowns", "confusion",
                    "sentences"})


def headline_numbers(x: object, path: Tuple[str, ...] = ()) -> Iterator[Tuple[str, float]]:
    """Every finite number of a JSON value held under a registered key whose unit is
    a fraction, outside `DETAIL` (an interval ``<key>_ci`` gives both ends):
    ``(path, value)``."""
    key = path[-1] if path else ""
    if isinstance(x, dict):
        for k, v in x.items():
            if k not in DETAIL:
                yield from headline_numbers(v, path + (str(k),))
    elif isinstance(x, list):
        if key.endswith("_ci") and is_registered(key):
            for end, v in zip(("low", "high"), x):
                if isinstance(v, float) and math.isfinite(v):
                    yield ".".join(path) + f"[{end}]", v
            return
        for i, v in enumerate(x):
            yield from headline_numbers(v, path + (str(i),))
    elif (isinstance(x, float) and math.isfinite(x) and is_registered(key)
          and metric(key).unit == FRACTION and not key.endswith("_se")):
        yield ".".join(path), x


def numbers_in(text: str) -> List[Tuple[float, int]]:
    """Every number written in ``text``: (value, decimals)."""
    out = []
    for m in NUMBER.finditer(text):
        s = m.group().replace("−", "-")
        frac = s.split(".")[1] if "." in s else ""
        digits = len(re.split(r"[eE]", frac)[0]) if "e" not in s.lower() else 17
        out.append((float(s), digits))
    return out


def appears(x: float, written: Sequence[Tuple[float, int]]) -> bool:
    """The rounding rule: ``x`` appears when some number ``y`` written with ``d``
    decimals is ``x`` or ``100 x`` (percent) rounded to ``d`` decimals, that is
    within half a unit of its last decimal (exact values, as CSV writes them,
    pass with ``d`` up to 17)."""
    for y, d in written:
        tol = 0.5 * 10.0 ** -d + 1e-9
        if abs(y - x) <= tol or abs(y - 100 * x) <= tol:
            return True
    return False


@pytest.mark.parametrize("cmd,name", cases())
def test_json_numbers_in_every_format(cmd, name, data, request):
    known(request, "numbers", cmd, name)
    files = files_of(data, name)
    extra = ("--bootstrap", "50") if cmd in ("agree", "compare") else ()
    values = list(headline_numbers(json.loads(output(cmd, files, "json", *extra))))
    assert values, f"{cmd} {name}: no registered number in the JSON"
    missing = {}
    for fmt in TEXT_FORMATS:
        if fmt not in output_formats(cmd):
            continue
        written = numbers_in(output(cmd, files, fmt, *extra))
        lost = sorted(k for k, x in values if not appears(x, written))
        if lost:
            missing[fmt] = lost
    assert not missing, f"{cmd} {name}: JSON numbers missing: {missing}"


# --------------------------------------------------------------------------
# 2. a text table written to a pipe holds no cut cell
# --------------------------------------------------------------------------

#: a cut cell: a character, then the ellipsis, then the end of the cell (the lists
#: of differing words end in " … (N words)" and of edited words in " …": a space
#: before the ellipsis, not a cut)
CUT = re.compile(r"\S" + ELLIPSIS + r"(?=\s|$)", re.M)


def text_format(cmd: str) -> str:
    """The command's text table format (``table``; ``markdown`` for ``report``, whose
    first format is its HTML page)."""
    return "table" if "table" in output_formats(cmd) else "markdown"


def _long_run(cmd: str) -> Tuple[str, ...]:
    """Options that add the tables with the longest cells (ids, documents, words)."""
    return {"agree": ("--worst", "8"), "report": ("--worst", "8")}.get(cmd, ())


@pytest.mark.parametrize("cmd,name", cases())
def test_no_cut_cell_in_a_pipe(cmd, name, data, request):
    known(request, "cut", cmd, name)
    files = files_of(data, name)
    text = output(cmd, files, text_format(cmd), *_long_run(cmd))
    cut = CUT.findall(text)
    assert not cut, f"{cmd} {name}: {len(cut)} cut cell(s) written to a pipe"


def test_the_check_sees_a_cut_cell(data, monkeypatch):
    """The same worst list on a narrow terminal is cut, and `CUT` sees it."""
    from synagree.render import fit

    monkeypatch.setattr(fit, "is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, err = run("agree", *data["sample"], "--worst", "8")
    assert rc == 0 and CUT.search(out)
    assert err.count("were cut to fit the terminal (80 columns)") == 1


# --------------------------------------------------------------------------
# 3. one ``values:`` line per text table
# --------------------------------------------------------------------------

VALUES = re.compile(r"^\*?values: ", re.M)


@pytest.mark.parametrize("cmd,name", cases())
def test_one_values_line(cmd, name, data, request):
    known(request, "values", cmd, name)
    files = files_of(data, name)
    text = output(cmd, files, text_format(cmd))
    assert len(VALUES.findall(text)) == 1, f"{cmd} {name}: {len(VALUES.findall(text))} " \
                                           f"values: lines"


# --------------------------------------------------------------------------
# 4. the same key has the same value in every command that prints it
# --------------------------------------------------------------------------

def top_numbers(cmd: str, files: Sequence[Path]) -> Dict[str, float]:
    """The registered fractions a command's JSON gives for the pair as a whole: the
    top level (agree, report, tags), the one system (compare), the layer's
    coefficients as ``<layer>_<key>`` (categorical, report)."""
    d = json.loads(output(cmd, files, "json"))
    out: Dict[str, float] = {}

    def take(x: dict, prefix: str = "") -> None:
        for k, v in x.items():
            if isinstance(v, float) and is_registered(k) and metric(k).unit == FRACTION:
                out[prefix + k] = v

    take(d)
    if cmd == "compare" and len(d.get("systems", ())) == 1:
        take(d["systems"][0])
    for layer, c in (d.get("layers") or d.get("categorical") or {}).items():
        take(c.get("coefficients") or {}, f"{layer}_")
    return out


@pytest.mark.parametrize("name", ["sample", pytest.param("ewt", marks=pytest.mark.slow),
                                  pytest.param("ndt", marks=pytest.mark.slow)])
def test_same_key_same_value(name, data, request):
    known(request, "same", "*", name)
    files = files_of(data, name)
    seen: Dict[str, Tuple[str, float]] = {}
    clashes = []
    shared = 0
    for cmd in PAIR_COMMANDS:
        for k, x in top_numbers(cmd, files).items():
            if k in seen:
                shared += 1
                other, y = seen[k]
                if not math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12):
                    clashes.append(f"{k}: {other} {y!r}, {cmd} {x!r}")
            else:
                seen[k] = (cmd, x)
    assert shared >= 5, "too few keys printed by two commands to compare"
    assert not clashes, f"{name}: " + "; ".join(clashes)


# --------------------------------------------------------------------------
# 5. options: refused without the option they qualify; hints name only own options
# --------------------------------------------------------------------------

def test_worst_by_needs_worst(data):
    rc, out, err = run("agree", *data["sample"], "--worst-by", "influence")
    assert rc == 2 and out == ""
    assert "--worst-by needs --worst" in err and "Traceback" not in err
    rc, out, err = run("agree", *data["sample"], "--worst", "2", "--worst-by", "influence")
    assert rc == 0, err


def test_hints_name_only_options_of_the_command():
    """The unaligned-sentence hint offers ``--match text``: kept for ``agree``, left
    out for ``spans`` (which has no --match), whose other advice stays."""
    gold = ROOT / "tests" / "data" / "parseval" / "gold.mrg"
    other = ROOT / "tests" / "data" / "parseval" / "parser-b.mrg"
    for cmd in PAIR_COMMANDS:
        rc, _, err = run(cmd, gold, other)
        hint = err[err.find("hint:"):]
        offered = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", hint))
        own = {o for a in build_parser(cmd)._subparsers._group_actions[0]  # type: ignore
               .choices[cmd]._actions for o in a.option_strings}
        assert offered <= own, (cmd, offered - own)
        if cmd in ("agree", "spans"):
            assert rc == 2 and "--no-text-check" in hint, cmd
            assert ("--match" in hint) == (cmd == "agree"), cmd


# --------------------------------------------------------------------------
# 6. absent, never zero: a metric left undefined is named in a note
# --------------------------------------------------------------------------

def undefined_metrics(x: object, path: Tuple[str, ...] = ()) -> Iterator[str]:
    """The registered keys whose value is null outside `DETAIL` (the metric could not
    be computed on this data)."""
    if isinstance(x, dict):
        for k, v in x.items():
            if k in DETAIL:
                continue
            if v is None and is_registered(k) and not k.endswith(("_ci", "_se")):
                yield ".".join(path + (k,))
            else:
                yield from undefined_metrics(v, path + (str(k),))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from undefined_metrics(v, path + (str(i),))


def all_notes(x: object) -> str:
    """Every string held under a key holding ``note`` (or a list of them), joined."""
    out: List[str] = []

    def walk(v: object, noted: bool) -> None:
        if isinstance(v, dict):
            for k, w in v.items():
                walk(w, noted or "note" in str(k) or str(k) in ("skipped_layers", "warnings"))
        elif isinstance(v, list):
            for w in v:
                walk(w, noted)
        elif isinstance(v, str) and noted:
            out.append(v)

    walk(x, False)
    return "\n".join(out)


@pytest.mark.parametrize("cmd,name", cases())
def test_absent_metrics_have_a_note(cmd, name, data, request):
    known(request, "absent", cmd, name)
    files = files_of(data, name)
    d = json.loads(output(cmd, files, "json"))
    notes = all_notes(d)
    def named(key: str) -> bool:  # leave_one_out: "leave_one_out" or "leave-one-out"
        return any(k in notes for k in (key, key.replace("_", "-"), key.replace("_", " ")))

    silent = [p for p in undefined_metrics(d) if not named(p.rsplit(".", 1)[-1])
              and not any(named(part) for part in p.split(".")[:-1] if len(part) > 2)]
    assert not silent, f"{cmd} {name}: undefined without a note: {silent}"


def test_single_category_layer_has_a_note(tmp_path):
    """A layer with one category: kappa undefined (null, "–"), and a note says why."""
    paths = []
    for name, src in zip("ab", (SAMPLE / "ann_a" / "sample.conllu",
                                SAMPLE / "ann_b" / "sample.conllu")):
        rows = [("\t".join(c[:3] + ["NOUN"] + c[4:]) if len(c) == 10 else "\t".join(c))
                for c in (line.split("\t") for line in
                          src.read_text(encoding="utf-8").split("\n"))]
        p = tmp_path / f"{name}.conllu"
        p.write_text("\n".join(rows), encoding="utf-8")
        paths.append(p)
    rc, out, err = run("categorical", *paths, "--output", "json")
    d = json.loads(out)
    assert d["layers"]["upos"]["coefficients"]["cohen_kappa"] is None
    assert [p for p in undefined_metrics(d) if ".upos." in p]
    assert "layer upos: every annotator gives every item the one category 'NOUN'" in \
        all_notes(d)
    for fmt in ("table", "markdown", "latex", "csv"):
        rc, out, err = run("categorical", *paths, "--output", fmt)
        assert "the one category 'NOUN'" in out, fmt


# --------------------------------------------------------------------------
# 7. every numeric column is headed by a registered key (or says whose values)
# --------------------------------------------------------------------------

NUMERIC_CELL = re.compile(r"^[-+−]?[\d.,]+%?$|^\\?\[.*\\?\]$|^–$|^--$|^$")
#: headers of a numeric column that name no metric, by design: the value column of a
#: two-column summary, a row number
GENERIC_HEADERS = {"value", "estimate", "#", "rank"}


def markdown_tables(text: str) -> Iterator[Tuple[List[str], List[List[str]]]]:
    """(header, rows) of every pipe table of a Markdown text."""
    lines = text.splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.startswith("|") and re.match(r"^\|[-:|]+\|$", lines[i + 1]):
            rows, j = [], i + 2
            while j < len(lines) and lines[j].startswith("|"):
                rows.append([c.strip() for c in lines[j].strip("|").split(" | ")])
                j += 1
            yield [c.strip() for c in line.strip("|").split(" | ")], rows


@pytest.mark.parametrize("cmd,name", [c for c in cases() if c.values[1] in ("sample", "ewt")])
def test_numeric_headers_are_registered(cmd, name, data, request):
    known(request, "headers", cmd, name)
    files = files_of(data, name)
    # with --bootstrap, as the numbers check: the interval columns are headed too
    extra = ("--bootstrap", "50") if cmd in ("agree", "compare") else ()
    systems = set()
    if cmd == "compare":  # one column per system: its header is the system's name
        systems = {s["name"] for s in json.loads(output(cmd, files, "json"))["systems"]}
    bad = set()
    for head, rows in markdown_tables(output(cmd, files, "markdown", *extra)):
        for k, h in enumerate(head):
            cells = [r[k] for r in rows if k < len(r)]
            h = h.replace("\\_", "_")
            # <name>_ci: the interval of the column <name> (the registry's convention)
            base = h[:-3] if h.endswith("_ci") else h
            if (cells and all(NUMERIC_CELL.match(c) for c in cells) and not is_registered(h)
                    and base not in GENERIC_HEADERS | systems):
                bad.add(h)
    assert not bad, f"{cmd} {name}: numeric columns headed by unregistered names: {bad}"




@pytest.mark.parametrize("cmd", ["tags", "compare"])
def test_prf_numbers_in_every_format(cmd, data):
    """``tags --prf`` and ``compare --prf`` (their tables through `Table` and the
    writers): every registered number of the JSON, the P/R/F1 of each variant included,
    is in Markdown (and CSV; LaTeX for tags, whose table it is: compare's LaTeX keeps its
    one row per metric with the macro F1), and the text prints one ``values:`` line."""
    files = data["sample"]
    values = list(headline_numbers(json.loads(output(cmd, files, "json", "--prf"))))
    assert any(".prf." in k or k.startswith("prf.") for k, _ in values)
    for fmt in ("csv", "markdown", "latex") if cmd == "tags" else ("csv", "markdown"):
        written = numbers_in(output(cmd, files, fmt, "--prf"))
        lost = sorted(k for k, x in values if not appears(x, written))
        assert not lost, (fmt, lost)
    assert len(VALUES.findall(output(cmd, files, "table", "--prf"))) == 1


def test_tags_tiers_numbers_in_every_format():
    """``tags --tiers`` (summary and per-class tables through `Table` and the writers):
    every registered number of the JSON's ``tiers`` is in CSV, Markdown and LaTeX."""
    d = ROOT / "tests" / "data" / "tiers"
    files = (d / "gold.conllu", d / "system.conllu")
    extra = ("--column", "xpos", "--tiers", str(d / "ptb-coarse.tsv"))
    values = [(k, x) for k, x in headline_numbers(json.loads(output("tags", files, "json",
                                                                     *extra)))
              if k.startswith("tiers.")]
    assert len(values) > 10
    for fmt in TEXT_FORMATS:
        written = numbers_in(output("tags", files, fmt, *extra))
        lost = sorted(k for k, x in values if not appears(x, written))
        assert not lost, (fmt, lost)
