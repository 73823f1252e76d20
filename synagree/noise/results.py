"""The result files of a noise experiment: their columns, reading them back
(checked row by row) and the per-point summary (CSV, Markdown).

Kept apart from the experiment runner (:mod:`synagree.noise.experiments`) so
that the figures (:mod:`synagree.render.plots`) and the report read results
without the runner."""
from __future__ import annotations

import csv
import io
import json
import math
import os
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from synagree.base.escape import csv_cell
from synagree.base.escape import markdown as md
from synagree.base.jsonable import json_ready, to_float
from synagree.base.metrics import RENAMED
from synagree.base.problems import InputError, quote
from synagree.base.table import Cell, Column, Table, format_value, markdown
from synagree.noise.source import _digest
from synagree.stats.alpha import VARIANTS

ALPHA_COLUMNS: Tuple[str, ...] = tuple(f"alpha_{v}" for v in VARIANTS)


DEP_SCORES: Tuple[str, ...] = ("LAS_full", "UAS", "LA")


PHRASE_SCORES: Tuple[str, ...] = ("jaccard",)


KEY_COLUMNS: Tuple[str, ...] = ("series", "p", "p_relabel", "p_reattach", "p_random", "run",
                                "seed")


def summarize(rows: Sequence[Mapping[str, object]],
              metrics: Sequence[str]) -> List[Dict[str, object]]:
    """Per (series, p, metric): n, mean, median, std (ddof=1), min, max.

    Groups come in the order of first appearance; undefined values are left
    out.

    Parameters
    ----------
    rows : sequence of mapping
        Run rows (with ``series`` and ``p``).
    metrics : sequence of str
    """
    groups: Dict[Tuple[str, float], List[Mapping[str, object]]] = {}
    for r in rows:
        groups.setdefault((str(r["series"]), round(to_float(r["p"]), 9)), []).append(r)
    out = []
    for (series, p), rs in groups.items():
        for m in metrics:
            vals = np.array([to_float(r[m]) for r in rs if r.get(m) is not None], dtype=float)
            rec: Dict[str, object] = {"series": series, "p": p, "metric": m,
                                      "n": int(len(vals))}
            if len(vals):
                rec.update(mean=float(vals.mean()), median=float(np.median(vals)),
                           std=float(vals.std(ddof=1)) if len(vals) > 1 else 0.0,
                           min=float(vals.min()), max=float(vals.max()))
            else:
                rec.update(mean=None, median=None, std=None, min=None, max=None)
            out.append(rec)
    return out


METRIC_TITLES = {"alpha_plain": "α_plain", "alpha_diff": "α_diff", "alpha_norm": "α_norm",
                 "LAS": "LAS", "LAS_full": "LAS_full", "UAS": "UAS", "LA": "LA",
                 "jaccard": "Jaccard"}


SERIES_TITLES = {"both": "relabel + reattach (p_relabel = p_reattach = p)",
                 "relabel": "relabel only (p_reattach = 0)",
                 "reattach": "reattach only (p_relabel = 0)",
                 "random": "uniform random trees (fraction p of sentences replaced)"}


def summary_tables(summary: Sequence[Mapping[str, object]], metrics: Sequence[str]
                   ) -> List[Tuple[str, Table, Table]]:
    """The tables of ``summary.md``, per series: ``(series, means, statistics)``.

    ``means``: one row per p, one column per metric (headed by its registered key)
    holding mean ± sample standard deviation over the runs in percent with one
    decimal; ``statistics``: per p and metric n, mean, median, std, min and max in
    percent with two decimals.

    Parameters
    ----------
    summary : sequence of mapping
        From `summarize`.
    metrics : sequence of str
    """
    by_series: Dict[str, List[Mapping[str, object]]] = {}
    for rec in summary:
        by_series.setdefault(str(rec["series"]), []).append(rec)
    out = []
    stats = ("mean", "median", "std", "min", "max")
    for series, recs in by_series.items():
        ps = list(dict.fromkeys(to_float(r["p"]) for r in recs))
        # a record's statistics are floats or None (`summarize`)
        idx: Dict[Tuple[float, object], Mapping[str, Any]] = {
            (to_float(r["p"]), r["metric"]): r for r in recs}
        means = Table(f"means_{series}", [Column("p")]
                      + [Column(m) for m in metrics])
        full = Table(f"statistics_{series}", [Column("p"), Column("metric"),
                                              Column("n", "count")]
                     + [Column(k, "percent", 2) for k in stats])
        for p in ps:
            cells: List[Cell] = [f"{p:g}"]  # the grid's p as given
            for m in metrics:
                r = idx.get((p, m))
                cells.append("–" if r is None or r["mean"] is None else
                             format_value(r["mean"], "percent", 1) + " ± "
                             + format_value(r["std"], "percent", 1))
            means.add(*cells)
            for m in metrics:
                r = idx.get((p, m))
                if r is not None:
                    full.add(f"{p:g}", m, r["n"], *(r[k] for k in stats))
        out.append((series, means, full))
    return out


def summary_markdown(summary: Sequence[Mapping[str, object]], metrics: Sequence[str],
                     title: Optional[str] = None) -> str:
    """Markdown: per series, means ± sd (percent), then full statistics (`summary_tables`,
    written by the table model's Markdown writer, `synagree.base.table.markdown`).

    Parameters
    ----------
    summary : sequence of mapping
        From `summarize`.
    metrics : sequence of str
    title : str, optional
        A level-1 heading.
    """
    lines: List[str] = []
    if title:
        lines += [f"# {md(title)}", ""]
    lines += ["*values: percent; mean ± sample standard deviation over runs (the full "
              "statistics, median, min and max, follow each table)*", ""]
    for series, means, full in summary_tables(summary, metrics):
        lines += [f"## {md(series)}: {md(SERIES_TITLES.get(series, series))}", "",
                  markdown(means), "<details><summary>full statistics</summary>", "",
                  markdown(full), "</details>", ""]
    return "\n".join(lines)


def _csv_text(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for r in rows:
        w.writerow([_cell(r.get(c)) for c in columns])
    return buf.getvalue()


def _cell(v) -> str:

    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(csv_cell(v))


def read_rows(path: "str | os.PathLike") -> List[Dict[str, object]]:
    r"""Rows back from ``runs.csv``, ``runs.jsonl`` or ``results.json``.

    A directory is looked into for those files.  Every row must be a run: a
    ``series``, a finite number ``p`` and numbers (or nothing) in the other
    columns.

    Raises
    ------
    InputError
        Missing or unreadable file; a summary table instead of the run table;
        anything else is a ``bad-results`` error naming the file and line.
    """
    path = Path(path)
    if not path.exists():
        raise InputError.single(str(path), None, "file-not-found", "no such file")
    if path.is_dir():
        for name in ("runs.csv", "results.json", "runs.jsonl"):
            if (path / name).exists():
                return read_rows(path / name)
        raise InputError.single(str(path), None, "empty-input",
                                "directory holds no runs.csv / results.json / runs.jsonl")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.single(str(path), None, "encoding",
                                f"not UTF-8 (byte {exc.start}: {exc.reason})") from None
    except OSError as exc:
        raise InputError.single(str(path), None, "unreadable",
                                f"cannot read file: {exc.strerror or exc}") from None
    if path.suffix in (".jsonl", ".json"):
        return json_rows(text, path)
    rows = []
    lines = []
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or "series" not in reader.fieldnames or "p" not in reader.fieldnames:
        raise InputError.single(str(path), 1, "bad-results",
                                "not a noise results table (needs columns series and p)")
    if "metric" in reader.fieldnames and "run" not in reader.fieldnames:
        raise InputError.single(str(path), 1, "bad-results",
                                "this is a summary table (one row per point and metric); give "
                                "the run table runs.csv (or results.json) instead")
    for rec in reader:
        no = reader.line_num
        if None in rec:
            raise InputError.single(str(path), no, "bad-results",
                                    f"{len(reader.fieldnames) + len(rec[None])} fields, but "
                                    f"the header has {len(reader.fieldnames)}")
        row: Dict[str, object] = {}
        for k, v in rec.items():
            if k == "series":
                row[k] = v
            elif v is None or v == "":
                row[k] = None
            else:
                try:
                    row[k] = int(v) if k in ("run", "seed") else float(v)
                except ValueError:
                    raise InputError.single(str(path), no, "bad-results",
                                            f"column {quote(k)}: {quote(v)} is not a number")
        rows.append(row)
        lines.append(no)
    return _checked_rows(rows, path, lines)


def json_rows(text: str, path: Path, need_p: bool = True) -> List[Dict[str, object]]:
    """The runs of ``runs.jsonl`` / ``results.json`` text, checked as `read_rows` checks them.

    Parameters
    ----------
    text : str
    path : pathlib.Path
        Its suffix says which format (``.jsonl``: one run per line); named in
        errors.
    need_p : bool
        Every run needs a number ``p``.

    Raises
    ------
    InputError
        ``bad-results``: not JSON, no list of runs, or a run that is not one.
    """
    if path.suffix == ".jsonl":
        rows, lines = [], []
        for no, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except ValueError as exc:
                    raise InputError.single(str(path), no, "bad-results",
                                            f"not a JSON line: {exc}") from None
                lines.append(no)
        return _checked_rows(rows, path, lines, need_p)
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InputError.single(str(path), getattr(exc, "lineno", None), "bad-results",
                                f"not JSON: {exc}") from None
    found = data.get("rows") if isinstance(data, dict) else data
    if not isinstance(found, list):
        raise InputError.single(str(path), None, "bad-results",
                                "no list of runs (a list, or an object with \"rows\")")
    return _checked_rows(found, path, None, need_p)


#: the largest magnitude of a number in a run table (fractions, alphas, counts)
MAX_RUN_VALUE = 1e12


def check_run_value(path: "str | os.PathLike", line: Optional[int], column: str,
                    value: float, where: str = "") -> None:
    """Refuse a number no run records: not finite, or beyond `MAX_RUN_VALUE`.

    A run holds fractions, alphas and counts; anything else is a damaged
    table, and a figure could not draw it (matplotlib overflows formatting
    it in percent).

    Raises
    ------
    InputError
        ``bad-results`` naming the file, line (or run) and column.
    """
    if not (math.isfinite(value) and abs(value) <= MAX_RUN_VALUE):
        raise InputError.single(str(path), line, "bad-results",
                                f"{where}column {quote(column)}: {quote(value)} is not a "
                                f"finite number of magnitude at most {MAX_RUN_VALUE:g}")


def _checked_rows(rows: list, path: Path, lines: Optional[List[int]],
                  need_p: bool = True) -> List[Dict[str, object]]:
    """``rows`` when every one is a run (see `read_rows`); numbers as floats."""
    out = []
    for i, r in enumerate(rows):
        line = lines[i] if lines else None
        where = "" if lines else f"run {i + 1}: "

        def bad(msg: str):
            return InputError.single(str(path), line, "bad-results", where + msg)

        if not isinstance(r, dict) or "series" not in r:
            raise bad("not a run (needs series and p)")
        p = r.get("p")
        if (need_p or p is not None) and (isinstance(p, bool) or not isinstance(p, (int, float))
                                          or not math.isfinite(p)):
            raise bad(f"p is {quote(p)}, not a number")
        row: Dict[str, object] = {"series": str(r["series"])}
        for k, v in r.items():
            if k == "series":
                continue
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise bad(f"column {quote(k)}: {quote(v)} is not a number")
            if v is not None:
                check_run_value(path, line, str(k), v, where)
            row[RENAMED["noise"].get(str(k), str(k))] = v  # runs of earlier releases: today's keys
        out.append(row)
    return out


def read_config(path: "str | os.PathLike") -> Optional[dict]:
    """The configuration the runs in ``path`` were made with, or None.

    ``results.json`` carries it (``"config"``); beside ``runs.csv`` or
    ``runs.jsonl`` (or in a results directory) it is ``config.json``.  A bare
    table written by other means has none.

    Parameters
    ----------
    path : str or path-like
        What `read_rows` reads.

    Raises
    ------
    InputError
        ``bad-results``: a ``config.json`` or ``results.json`` that is not a
        JSON object.
    """
    p = Path(path)
    candidates = ([p / "results.json", p / "config.json"] if p.is_dir() else
                  [p] if p.suffix == ".json" else []) + [p.parent / "config.json"]
    for c in candidates:
        if not c.is_file():
            continue
        try:
            data = json.loads(c.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError.single(str(c), None, "bad-results",
                                    f"cannot read the experiment's configuration: {exc}")
        if c.name == "results.json" or (c == p and c.name != "config.json"):
            data = data.get("config") if isinstance(data, dict) else None
            if data is None:
                continue
        if not isinstance(data, dict) or not isinstance(data.get("source", {}), dict):
            raise InputError.single(str(c), None, "bad-results",
                                    "not a noise-experiment configuration (a JSON object with "
                                    "\"source\")")
        return data
    return None


def runs_mismatch(config: Mapping, files: Mapping[str, Sequence[str]],
                  kind: str) -> Optional[str]:
    r"""Why runs made with ``config`` are not runs on the corpus of ``files``, or None.

    The runs' source (its file names and their SHA-256, as `run_noise_experiment`
    records them) must be files of the corpus, byte for byte, read as the
    corpus's kind of tree (dependency or phrase structure).

    Parameters
    ----------
    config : mapping
        From `read_config`.
    files : mapping of str to sequence of str
        The corpus's files per annotator (`synagree.io.corpus.Corpus.files`).
    kind : {"dependency", "phrase"}
    """
    src = config.get("source") or {}
    names = [str(n) for n in src.get("files") or []]
    if src.get("kind") and src["kind"] != kind:
        return f"the runs were made on {src['kind']} trees, this corpus has {kind} trees"
    ours = [str(f) for fs in files.values() for f in fs]
    by_name: Dict[str, List[str]] = {}
    for f in ours:
        by_name.setdefault(Path(f).name, []).append(f)
    shown = ", ".join(dict.fromkeys(Path(f).name for f in ours)) or "none"
    missing = [n for n in names if n not in by_name]
    if not names or missing:
        return (f"the runs were made on {', '.join(names) or 'an unrecorded source'}, which "
                f"{'is' if len(missing) <= 1 else 'are'} not among this corpus's files "
                f"({shown})")
    want = src.get("sha256")
    if not want:
        return "the runs do not record their source's SHA-256, so they cannot be checked"
    # files of the same name (one per annotator directory): any choice that matches
    choices: List[List[str]] = [[]]
    for n in names:
        choices = [c + [f] for c in choices for f in by_name[n]][:256]
    if any(_digest([Path(f) for f in c]) == want for c in choices):
        return None
    return (f"the runs were made on files named {', '.join(names)} but with other contents "
            f"(SHA-256 {str(want)[:12]}… recorded) than this corpus's")


def _dumps(obj, **kw) -> str:
    return json.dumps(json_ready(obj), ensure_ascii=False, default=_path_to_str, **kw)


def _path_to_str(o):
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")
