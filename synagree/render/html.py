"""``synagree report``: one self-contained HTML file (or the same tables as
JSON / CSV / Markdown / LaTeX) for annotation QA.

The HTML has no external resources (a Content-Security-Policy forbids any
fetch): CSS, JavaScript and SVG are inline, the noise-curve figures are
matplotlib SVG embedded in the page.  The page is the Jinja2 template
``assets/report.html.j2`` (macros in ``assets/tables.html.j2``; autoescaped),
with ``assets/report.css`` and ``assets/report.js`` inlined and the sentence
data as JSON in a ``<script type="application/json">`` block; the assets are
read with :mod:`importlib.resources`.  Sections:

* summary: α (plain/diff/norm), LAS/UAS/LA and the categorical coefficients
  with bootstrap confidence intervals; comparison with a previous round;
* annotators: with three annotators or more, pair-matrix heat maps (α, LAS,
  UAS, LA, units), leave-one-out α (when it has a value), each annotator's
  mean distance to the others; with two, one compact pair panel.  Every
  section or part left out as empty is named with its reason (`OMITTED`);
* token layers: κ/π/α per layer, per document (macro and micro averages),
  specific agreement per label and a confusion heat map;
* noise curves (``--noise results.csv`` of ``synagree noise``): the figures of
  :mod:`synagree.render.plots` with this corpus's own α and LAS as reference
  lines; runs recorded on other files are refused;
* sentences, worst first: a filter box and one row per sentence; opening a
  row draws its dependency arcs (annotators mirrored above/below the words
  for two annotators, stacked otherwise), arcs whose head or label differs
  drawn with class ``arc diff`` and differing labels with ``lab diff``; or
  its phrase-structure trees (one ``svg.phrase`` per annotator, stacked,
  leaves in order), constituents whose labelled bracket is missing from
  another annotator's tree drawn with class ``con diff``.  Diagrams are
  drawn lazily in JavaScript from embedded JSON (rows are added in batches
  as the list scrolls), so 1,000 sentences stay light.

The CLI writes the page atomically (temporary file + ``os.replace``).
"""
from __future__ import annotations

import csv
import functools
import importlib
import io
import json
import math
import os
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

from markupsafe import Markup

from synagree._version import __version__
from synagree.agreement.adjudicate import AdjudicationResult
from synagree.agreement.qa import rank_units, unit_diagnostics
from synagree.agreement.report import ReportResult
from synagree.base.jsonable import json_ready, to_float
from synagree.base.metrics import word_scores
from synagree.base.problems import InputError, quote
from synagree.base.table import format_value
from synagree.io.brackets import PhraseNode, PhraseSentence
from synagree.io.conllu import DepSentence
from synagree.noise.results import check_run_value, json_rows, read_config
from synagree.render.html_adjudicate import adjudication_section
from synagree.render.html_questions import SECTIONS as QUESTION_SECTIONS
from synagree.render.html_questions import append_tables, question_page
from synagree.render.mpl import pyplot
from synagree.render.plots import (
    Reference,
    choose_metrics,
    corpus_reference,
    describe,
    series_figure,
)
from synagree.render.qa import render_tables
from synagree.render.report_sections import SECTION_IDS, extra_text, html_sections
from synagree.render.units import unit_change_rows
from synagree.stats.attachment import brackets
from synagree.stats.categorical import COEFFICIENTS

if TYPE_CHECKING:
    import jinja2

OUTPUTS = ("html", "table", "json", "csv", "markdown", "latex")
NOISE_KEYS = ("series", "p", "p_relabel", "p_reattach", "p_random", "run", "seed")
NOISE_METRICS = ("alpha_plain", "alpha_norm", "alpha_diff", "LAS", "LAS_full", "UAS", "LA",
                 "jaccard")


# --------------------------------------------------------------------------
# Templates and assets (synagree/render/assets/)
# --------------------------------------------------------------------------

def _asset(name: str) -> str:
    """The text of ``synagree/render/assets/NAME``, read through
    :mod:`importlib.resources` (works from a wheel or a zip too)."""
    return resources.files("synagree.render").joinpath("assets").joinpath(name) \
        .read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def _environment() -> jinja2.Environment:
    """The Jinja2 environment of the page: templates from the assets, every
    value autoescaped, an undefined name an error.

    jinja2 is loaded here, when a page is rendered, as `synagree.render.mpl.pyplot`
    loads matplotlib: ``report``'s tables and ``report --help`` do without it (issue 36)."""
    j2 = importlib.import_module("jinja2")
    return j2.Environment(loader=j2.FunctionLoader(_asset), autoescape=True,
                          undefined=j2.StrictUndefined, trim_blocks=True,
                          lstrip_blocks=True, keep_trailing_newline=True)


@functools.lru_cache(maxsize=None)
def _inline(name: str, end_tag: str) -> Markup:
    """An asset to inline in a ``<style>`` or ``<script>`` element, checked not to
    end that element early (it is raw text there, not escaped)."""
    text = _asset(name)
    low = text.lower()
    if end_tag in low or "<!--" in low:
        raise ValueError(f"assets/{name} holds {end_tag!r} or '<!--': it cannot be inlined")
    return Markup(text)


# --------------------------------------------------------------------------
# Tables and heat maps (what the macros of assets/tables.html.j2 show)
# --------------------------------------------------------------------------

def _agree_colour(v: Optional[float], lo: float) -> str:
    """Orange (lo) → light grey → sky blue (1) for an agreement value: the
    Okabe–Ito ends, told apart with red–green colour blindness too (the cell
    also shows the number)."""
    if v is None or not math.isfinite(v):
        return "#eeeeee"
    t = max(0.0, min(1.0, (v - lo) / (1.0 - lo) if lo < 1 else 1.0))
    stops = [(0.0, (230, 159, 0)), (0.5, (242, 242, 242)), (1.0, (86, 180, 233))]
    for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
        if t <= t1:
            f = (t - t0) / (t1 - t0)
            rgb = [round(a + f * (b - a)) for a, b in zip(c0, c1)]
            return "#%02x%02x%02x" % tuple(rgb)
    return "#56b4e9"


def _heatmap(names: Sequence[str], matrix, title: str, integer: bool = False) -> dict:
    """A pair matrix for the ``heatmap`` macro: counts, or agreement values
    coloured from the lowest off-diagonal value (at most 0.5) to 1."""
    vals = [x for i, row in enumerate(matrix) for j, x in enumerate(row)
            if i != j and x is not None]
    lo = min([0.5] + [v for v in vals if isinstance(v, (int, float))]) if not integer else 0
    rows = []
    for i, a in enumerate(names):
        cells = []
        for j in range(len(names)):
            x = matrix[i][j]
            if integer:
                cells.append({"kind": "cnt", "text": str(int(x))})
            elif i == j or x is None:
                cells.append({"kind": "na"})
            else:
                cells.append({"kind": "val", "text": f"{x:.3f}", "bg": _agree_colour(x, lo),
                              "title": f"{a} × {names[j]}: {x:.6f}"})
        rows.append({"name": a, "cells": cells})
    return {"title": title, "names": list(names), "rows": rows}


def _confusion(c: dict, top: int = 25) -> dict:
    """Pooled contingency table (rows: first annotator of each pair) as a heat map of
    the ``top`` most frequent categories (the rest summed as "(other)"), for the
    ``confusion`` macro."""
    cats = c["categories"]
    K = len(cats)
    table = [[0] * K for _ in range(K)]
    for p in c["pairs"]:
        for i, j, v in p.get("table", []):
            table[i][j] += v
    freq = [sum(table[k]) + sum(table[r][k] for r in range(K)) for k in range(K)]
    order = sorted(range(K), key=lambda k: -freq[k])
    keep = [k for k in order[:top] if freq[k] > 0]
    other = len(order) > len(keep)
    idx = {k: n for n, k in enumerate(keep)}
    size = len(keep) + (1 if other else 0)
    grid = [[0] * size for _ in range(size)]
    for i in range(K):
        for j in range(K):
            if table[i][j]:
                grid[idx.get(i, size - 1)][idx.get(j, size - 1)] += table[i][j]
    labels = [cats[k] for k in keep] + (["(other)"] if other else [])
    off = max([grid[i][j] for i in range(size) for j in range(size) if i != j] + [1])
    on = max([grid[i][i] for i in range(size)] + [1])
    first = c["pairs"][0]["a"] if c["pairs"] else "annotator 1"
    second = c["pairs"][0]["b"] if c["pairs"] else "annotator 2"
    rows = []
    for i in range(size):
        cells: List[Optional[dict]] = []
        for j in range(size):
            v = grid[i][j]
            if not v:
                cells.append(None)
                continue
            if i == j:  # Okabe–Ito blue: agreement (and on the diagonal)
                a = 0.15 + 0.85 * math.log1p(v) / math.log1p(on)
                col = f"rgba(0,114,178,{a:.3f})"
            else:  # vermillion: confusion
                a = 0.15 + 0.85 * math.log1p(v) / math.log1p(off)
                col = f"rgba(213,94,0,{a:.3f})"
            cells.append({"text": str(v), "bg": col, "title": f"{labels[i]} / {labels[j]}: {v}"})
        rows.append({"name": labels[i], "cells": cells})
    pairs_note = ("summed over annotator pairs, rows: first annotator of each pair"
                  if len(c["pairs"]) > 1 else f"rows: {first}, columns: {second}")
    caption = (f'Confusion matrix of {c["layer"]} ({pairs_note}; {len(keep)} most frequent '
               f'categories{", the rest as (other)" if other else ""}; blue, on the diagonal: '
               f'agreement; orange, off it: confusion; shade ∝ log count)')
    return {"caption": caption, "labels": labels, "rows": rows}


# --------------------------------------------------------------------------
# Noise curves (matplotlib → inline SVG)
# --------------------------------------------------------------------------

def read_noise(path: "str | os.PathLike") -> List[Dict[str, object]]:
    """Rows of a noise-experiment table: CSV with columns ``series``, ``p_relabel``,
    ``p_reattach`` (or ``p``), ``run`` and metric columns; ``results.json`` /
    ``runs.jsonl`` of ``synagree noise`` work too.  ``p`` defaults to the
    largest of p_relabel, p_reattach and p_random."""
    p = Path(path)
    if not p.is_file():
        raise InputError.single(str(p), None, "file-not-found", "no such noise results file")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.single(str(p), None, "encoding",
                                f"not UTF-8 (byte {exc.start}: {exc.reason})") from None
    rows: List[Dict[str, object]] = []
    if p.suffix in (".jsonl", ".json"):
        rows = json_rows(text, p, need_p=False)  # checked: runs of numbers
    else:
        reader = csv.DictReader(io.StringIO(text))
        fields = reader.fieldnames or []
        if "series" not in fields or not ({"p", "p_relabel", "p_reattach"} & set(fields)):
            raise InputError.single(str(p), 1, "bad-results",
                                    "not a noise results table (needs columns series and "
                                    "p_relabel/p_reattach or p)")
        for no, rec in enumerate(reader, start=2):
            row: Dict[str, object] = {}
            for k, v in rec.items():
                if k is None:
                    continue
                if k == "series":
                    row[k] = v
                elif v is None or v.strip() == "":
                    row[k] = None
                else:
                    try:
                        value = float(v)
                    except ValueError:
                        if k in NOISE_METRICS or k in NOISE_KEYS:
                            raise InputError.single(str(p), no, "bad-results",
                                                    f"column {quote(k)}: {quote(v)} is not "
                                                    f"a number")
                        row[k] = v
                    else:
                        check_run_value(p, no, k, value)
                        row[k] = value
            rows.append(row)
    for i, r in enumerate(rows, start=1):
        if r.get("p") is None:
            r["p"] = max(to_float(r.get(k) or 0.0) for k in ("p_relabel", "p_reattach",
                                                           "p_random"))
        if not math.isfinite(to_float(r["p"])):
            raise InputError.single(str(p), None, "bad-results", f"run {i}: p is not a number")
    if not rows:
        raise InputError.single(str(p), None, "empty-input", "no runs in the noise results")
    return rows


def noise_svgs(rows: Sequence[Dict[str, object]], metrics: Optional[Sequence[str]] = None,
               ylim: Optional[Tuple[float, float]] = None,
               reference: Optional[Reference] = None) -> List[Tuple[str, str]]:
    """One inline SVG per series, as ``(series, svg)``: the figures of
    :func:`synagree.render.plots.series_figure` (mean of each chosen metric
    over runs against p with the min–max band, α_diff on its own panel, the
    corpus's own values as reference lines)."""
    plt = pyplot()
    chosen = choose_metrics(rows, metrics)
    if reference is not None:  # (the page says the note once, under the figures)
        reference = Reference(reference.values, reference.label)
    series = list(dict.fromkeys(str(r["series"]) for r in rows))
    out: List[Tuple[str, str]] = []
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "synagree"}):
        for s in series:
            fig = series_figure(rows, s, chosen, "minmax", ylim, reference, width=6.0)
            buf = io.StringIO()
            fig.savefig(buf, format="svg", bbox_inches="tight",
                        metadata={"Date": None, "Creator": None,
                                  "Description": describe(s, chosen, ylim, "minmax")})
            plt.close(fig)
            svg = buf.getvalue()
            svg = svg[svg.index("<svg"):]
            # unique ids per figure: matplotlib's ids are per-file
            svg = svg.replace('id="', f'id="n{len(out)}-').replace('url(#', f'url(#n{len(out)}-') \
                     .replace('href="#', f'href="#n{len(out)}-')
            out.append((s, svg))
    return out


# --------------------------------------------------------------------------
# Sentence data for the lazy diagrams
# --------------------------------------------------------------------------

def sentence_data(result, variant: str = "plain", limit: Optional[int] = None) -> dict:
    """Compact JSON for the sentence list: every pairable unit, worst first.

    Per sentence: ``k`` rank, ``id``, ``doc``, ``t`` text, ``c`` share of D_o,
    ``e`` mean TED, ``a`` annotator indices, ``f`` forms (``F``: forms per
    annotator when the tokenisations differ), ``h`` heads and ``l`` label ids
    per annotator, ``x`` differing word ids; phrase-structure units carry
    ``b`` (bracketed trees per annotator) and ``p`` (the trees to draw, see
    :func:`phrase_trees`) instead of ``f/h/l/x``.
    """

    diags = unit_diagnostics(result)
    total = len(diags)
    if diags and variant not in diags[0].contribution:
        variant = next(iter(diags[0].contribution))
    d_o = result.alpha[variant].d_o if variant in result.alpha else 0.0
    diags = rank_units(diags, variant)
    if limit is not None:
        diags = diags[:limit]
    corpus = result.corpus
    ann_index = {a: i for i, a in enumerate(corpus.annotators)}
    labels: Dict[str, int] = {}
    out = []
    for rank, d in enumerate(diags, start=1):
        unit = corpus.units[d.position]
        sents = [unit.annotations[a] for a in d.annotators]
        rec: dict = {"k": rank, "id": d.label, "doc": d.document,
                     "c": round(d.contribution.get(variant, 0.0) / d_o, 6) if d_o else 0.0,
                     "e": round(d.mean_ted, 3), "a": [ann_index[a] for a in d.annotators]}
        rec["t"] = d.text or ""  # "# text", or the words of the first annotation
        if all(isinstance(s, DepSentence) for s in sents):
            if d.same_tokens:
                rec["f"] = sents[0].forms
            else:
                rec["F"] = [s.forms for s in sents]
            rec["h"] = [s.heads.tolist() for s in sents]
            rec["l"] = [[labels.setdefault(x, len(labels)) for x in s.deprels] for s in sents]
            rec["x"] = [w.index for w in d.differing_words]
        else:
            rec["b"] = [s.root.bracketed() for s in sents]
            rec["p"] = phrase_trees(sents)
        out.append(rec)
    return {"annotators": list(corpus.annotators), "labels": list(labels),
            "variant": variant, "sentences": out, "total": total}


def phrase_trees(sents: Sequence[PhraseSentence]) -> List[dict]:
    """The phrase-structure trees of one sentence, one per annotation, to draw.

    Per tree: ``n`` the node labels in preorder, ``u`` the preorder index of
    each node's parent (-1 for the root) and ``d`` the nodes whose labelled
    bracket (first leaf, last leaf, label; as in
    :func:`synagree.stats.attachment.brackets`, leaves included) is missing
    from some other annotation, as ``[node, j, ...]`` with the positions ``j``
    of the annotations that lack it; ``w`` the words under the leaves, for
    Penn-style input whose words line up with them.  Walks are iterative, as
    trees may nest deeper than Python's recursion limit.

    >>> from synagree.io.brackets import PhraseNode as N, PhraseSentence as S
    >>> a = S("a", 0, 1, N("S", [N("NP", [N("D"), N("N")]), N("V")]))
    >>> b = S("b", 0, 1, N("S", [N("D"), N("VP", [N("N"), N("V")])]))
    >>> t = phrase_trees([a, b])
    >>> t[0]["n"], t[0]["u"], t[0]["d"]
    (['S', 'NP', 'D', 'N', 'V'], [-1, 0, 1, 1, 0], [[1, 1]])
    >>> t[1]["n"], t[1]["d"]  # VP (leaves 1-2) is not in a
    (['S', 'D', 'VP', 'N', 'V'], [[2, 0]])
    """
    sets = [brackets(s.root) for s in sents]
    out = []
    for j, s in enumerate(sents):
        labels: List[str] = []
        parents: List[int] = []
        stack: List[Tuple[PhraseNode, int]] = [(s.root, -1)]
        while stack:
            node, up = stack.pop()
            labels.append(node.label)
            parents.append(up)
            stack.extend((c, len(labels) - 1) for c in reversed(node.children))
        n = len(labels)
        leaf = [True] * n
        for i in range(1, n):
            leaf[parents[i]] = False
        first, last, k = [n] * n, [-1] * n, 0
        for i in range(n):  # preorder meets the leaves left to right
            if leaf[i]:
                first[i] = last[i] = k
                k += 1
        for i in range(n - 1, 0, -1):  # children after their parent in preorder
            p = parents[i]
            first[p], last[p] = min(first[p], first[i]), max(last[p], last[i])
        diff = []
        for i in range(n):
            key = (first[i], last[i], labels[i])
            missing = [o for o in range(len(sents)) if o != j and key not in sets[o]]
            if missing:
                diff.append([i] + missing)
        tree: dict = {"n": labels, "u": parents, "d": diff}
        if s.words and len(s.words) == k:
            tree["w"] = list(s.words)
        out.append(tree)
    return out


# --------------------------------------------------------------------------
# The page
# --------------------------------------------------------------------------

CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "img-src data:; font-src data:")
SECTIONS = (("summary", "Summary"), ("comparison", "Change"), ("annotators", "Annotators"),
            ("layers", "Token layers"), ("noise", "Noise"), *QUESTION_SECTIONS,
            ("sentences", "Sentences"))


def _json_script(data) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _summary(result, qa: dict) -> dict:
    s = qa["summary"]
    bs = (qa.get("bootstrap") or {})
    metrics = bs.get("metrics", {})
    conf = bs.get("confidence")
    names = {"alpha_plain": "α plain (TED)", "alpha_diff": "α diff", "alpha_norm": "α norm",
             "LAS": "LAS", "LAS_full": "LAS_full", "UAS": "UAS", "LA": "label accuracy",
             "jaccard": "bracket Jaccard"}
    rows = []
    for key in ("alpha_plain", "alpha_diff", "alpha_norm", *word_scores("agree"), "jaccard"):
        if key not in s:
            continue
        b = metrics.get(key, {})
        rows.append([names.get(key, key)] + [format_value(x) for x in
                                    (s[key], b.get("low"), b.get("high"), b.get("se"))])
    ci_head = ([f"{100 * conf:g}% CI low", "high", "bootstrap SE"] if conf
               else ["CI low", "high", "SE"])
    boot_note = (f"Percentile bootstrap over sentences: {bs['replicates']} replicates, seed "
                 f"{bs['seed']}, {bs['units']} sentences resampled with replacement; α, "
                 f"LAS and the token-layer coefficients share the resamples."
                 if bs else "No bootstrap (run with --bootstrap B for confidence intervals).")
    changes = result.unit_changes.payload if result.unit_changes is not None else []
    ch_header, ch_rows = unit_change_rows(changes)  # joined / edited units (method §1.7–1.8)
    return {"header": ["measure", "estimate"] + ci_head, "rows": rows,
            "changes": {"header": ch_header, "rows": ch_rows} if ch_rows else None,
            "bootstrap_note": boot_note,
            # the result's notes, then the report's (small samples, id-like layers left out)
            "notes": list(dict.fromkeys(list(result.notes) + list(qa.get("notes") or []))),
            "warnings": [str(w) for w in result.warnings[:20]],
            "warnings_total": len(result.warnings)}


def _comparison(result) -> List[list]:
    """The rows of the change since a stored round (``--baseline``, docs/method.md §18)."""
    rows: List[list] = []
    if result.baseline is None:
        return rows
    for r in result.baseline.results:
        for c in r.metrics:
            lo, hi = c.ci if c.ci is not None else (None, None)
            rows.append([c.metric, format_value(c.old), format_value(c.new),
                         ("+" if (c.delta or 0) > 0 else "") + format_value(c.delta),
                         f"[{format_value(lo)}, {format_value(hi)}]",
                         format_value(c.p_bootstrap, digits=3),
                         format_value(c.p_randomisation, digits=3),
                         {"kind": "sig", "sig": c.significant}])
    return rows


#: Why a part of the page is left out (one line each, shown where it would be).
OMITTED = {
    "pairs": "Pairwise heat maps, leave-one-annotator-out α and each annotator's distance to "
             "the others need three annotators or more; with two, the pair is the corpus "
             "(the pair panel above).",
    "loo": "Leave one annotator out: no annotator's departure leaves a sentence with two "
           "annotations, so there is nothing to show.",
    "comparison": "Change since a previous round: not asked for (--baseline PREVIOUS.json).",
    "layers_phrase": "Token layers: phrase-structure trees have none.",
    "layers_none": "Token layers: none asked for (--layers).",
    "layers_skipped": "Token layers: every layer asked for was left out (see the notes).",
    "noise": "Noise curves: no noise-experiment results given (--noise RESULTS).",
    "sentences": "Sentences: no sentence has two annotations to compare.",
}


def _pair_panel(result, qa: dict) -> dict:
    """The two-annotator panel: every pairwise number of the one pair, as rows."""
    pm = qa["pairs"]
    a, b = pm["annotators"]
    rows = []
    for key, label in (("alpha_plain", "α plain"), ("alpha_diff", "α diff"),
                       ("alpha_norm", "α norm"), ("LAS_full", "LAS_full"), ("UAS", "UAS"),
                       ("LA", "label accuracy")):
        if key in pm and pm[key][0][1] is not None:
            rows.append([label, format_value(pm[key][0][1])])
    units = pm["units"]
    rows.append(["sentences annotated by both", str(int(units[0][1]))])
    rows.append([f"sentences annotated by {a} / {b}", f"{int(units[0][0])} / {int(units[1][1])}"])
    dist = qa["annotator_distances"]
    if dist:
        rows.append(["mean TED between the two", format_value(dist[0]["mean_ted"], digits=3)])
        rows.append(["mean TED / (|x|+|y|)", format_value(dist[0]["mean_norm"])])
    return {"title": f"The pair: {a} × {b}", "rows": rows}


def _annotators(result, qa: dict) -> dict:
    """The annotator section: with three annotators or more, the heat maps, the
    leave-one-out table (when it has a value) and the distances; with two, one
    compact pair panel, and notes for what is left out."""
    pm = qa["pairs"]
    omitted: List[str] = []
    if len(pm["annotators"]) == 2:
        omitted.append(OMITTED["pairs"])
        return {"pair": _pair_panel(result, qa), "heatmaps": [],
                "loo": {"header": [], "rows": []}, "distances": [],
                "annotator_notes": omitted}
    heat = []
    words = word_scores("agree", ud=False)  # the registry's word scores for any labels
    for key, label in (("alpha_plain", "pairwise α plain (units both annotated)"),
                       ("alpha_diff", "pairwise α diff"), ("alpha_norm", "pairwise α norm"),
                       *((k, f"pairwise {k}") for k in words)):
        if key not in pm or (key in words and result.kind != "dependency"):
            continue
        heat.append(_heatmap(pm["annotators"], pm[key], label))
    heat.append(_heatmap(pm["annotators"], pm["units"],
                         "sentences annotated (diagonal) / annotated by both", integer=True))
    loo = qa["leave_one_out"]
    loo_keys = [k for k in (loo[0] if loo else {}) if k.startswith("alpha_")]
    if not any(x[k] is not None for x in loo for k in loo_keys):
        loo = []
        omitted.append(OMITTED["loo"])
    loo_rows = [[x["annotator"], str(x["units"])] +
                [f"{format_value(x[k])} ({'+' if (x['change_' + k[6:]] or 0) > 0 else ''}"
                 f"{format_value(x['change_' + k[6:]])})" if x[k] is not None else "–"
                 for k in loo_keys] for x in loo]
    dist_rows = [[x["annotator"], str(x["units"]), str(x["comparisons"]),
                  format_value(x["mean_ted"], digits=3), format_value(x["mean_norm"])]
                 for x in qa["annotator_distances"]]
    return {"pair": None, "heatmaps": heat,
            "loo": {"header": ["without", "sentences"] + [k.replace("alpha_", "α ") + " (change)"
                                                          for k in loo_keys],
                    "rows": loo_rows},
            "distances": dist_rows, "annotator_notes": omitted}


def _layers(qa: dict) -> Optional[dict]:
    cat = qa.get("categorical") or {}
    if not cat:
        return None
    bs = (qa.get("bootstrap") or {})
    metrics = bs.get("metrics", {})
    conf = bs.get("confidence")
    first = next(iter(cat.values()))
    m = len(first["annotators"])

    def with_ci(layer, k, v):
        b = metrics.get(f"{layer}_{k}")
        low = b.get("low") if b else None
        return {"kind": "ci", "value": format_value(v),
                "low": None if low is None else format_value(low),
                "high": None if low is None else format_value(b["high"])}

    rows = []
    # kappa and pi need every annotator's value: their items, when fewer (method §12.3)
    complete = any(c["complete_items"] != c["items"] for c in cat.values())
    for layer, c in cat.items():
        co = c["coefficients"]
        rows.append([layer, str(c["items"])] + ([str(c["complete_items"])] if complete else [])
                    + [str(len(c["categories"]))]
                    + [with_ci(layer, k, co[k]) for k in COEFFICIENTS]
                    + [format_value(co["specific_macro"])])
    pairs = []
    if m > 2:
        for layer, c in cat.items():
            for p in c["pairs"]:
                pairs.append([layer, f"{p['a']} × {p['b']}", str(p["items"]),
                              format_value(p["observed"]), format_value(p["cohen_kappa"]),
                              format_value(p["scott_pi"])])
    documents = []
    for layer, c in [(layer, c) for layer, c in cat.items() if len(c["documents"]) > 1][:2]:
        drow = [[doc, str(v["items"])] + [format_value(v[k]) for k in COEFFICIENTS]
                for doc, v in c["documents"].items()]
        md = c["macro_documents"]
        drow.append(["macro-average", ""] + [format_value(md.get(k)) for k in
                                             COEFFICIENTS])
        drow.append(["micro-average (pooled)", str(c["items"])] +
                    [format_value(c["coefficients"][k]) for k in COEFFICIENTS])
        documents.append({"layer": layer, "rows": drow})
    spec_layer = "deprel" if "deprel" in cat else next(iter(cat))
    c = cat[spec_layer]
    freq = c["category_frequency"]
    specific = []
    for k, v in sorted(c["specific"].items(), key=lambda kv: -freq.get(kv[0], 0)):
        w = max(0.0, min(1.0, v)) * 120
        specific.append([k, str(freq.get(k, 0)),
                         {"kind": "bar", "width": f"{w:.0f}", "value": format_value(v, digits=3)}])
    return {"header": ["layer", "items"] + (["items coded by all (κ, π)"] if complete else [])
            + ["categories", "observed agreement",
                       "Cohen's κ" if m == 2 else "Davies & Fleiss κ",
                       "Scott's π" if m == 2 else "Fleiss' κ", "Krippendorff's α",
                       "specific agreement (macro over categories)"],
            "rows": rows, "confidence": f"{100 * conf:g}" if conf else None, "pairs": pairs,
            "documents": documents, "specific_layer": spec_layer, "specific": specific,
            "confusion": _confusion(c) if c["pairs"] and "table" in c["pairs"][0] else None,
            "ignored_units": first["ignored_units"]}


def render_html(result, qa: dict, noise_rows: Optional[Sequence[dict]] = None,
                title: Optional[str] = None, variant: str = "plain",
                max_sentences: Optional[int] = None, open_first: int = 5,
                noise_metrics: Optional[Sequence[str]] = None,
                noise_ylim: Optional[Tuple[float, float]] = None,
                noise_reference: Optional[Reference] = None,
                adjudication: Optional[AdjudicationResult] = None) -> str:
    """The report page for ``result`` and its :func:`synagree.agreement.qa.qa_summary`
    dict: ``assets/report.html.j2`` filled in, with ``report.css``,
    ``report.js`` and the sentence data inlined.  The noise figures draw
    ``noise_metrics`` in ``noise_ylim`` with ``noise_reference``'s lines
    (:func:`synagree.render.plots.series_figure`)."""
    corpus = result.corpus
    files = [f for fs in (corpus.files or {}).values() for f in fs]
    data = sentence_data(result, variant, max_sentences)
    data["open_first"] = open_first
    page = {
        "title": title or "Annotation agreement report",
        "subtitle": (f"{len(result.annotators)} annotators ({', '.join(result.annotators)}); "
                     f"{result.units} pairable sentences of {result.units_total}; "
                     f"{result.annotations} annotations; {result.kind} trees"),
        "files": [str(f) for f in files[:8]], "more_files": len(files) > 8,
        "summary": _summary(result, qa), "comparison": _comparison(result),
        **_annotators(result, qa), "layers": _layers(qa),
        "noise": ([(s, Markup(svg)) for s, svg in noise_svgs(noise_rows, noise_metrics,
                                                              noise_ylim, noise_reference)]
                  if noise_rows else []),
        "noise_note": noise_reference.note if noise_rows and noise_reference else None,
        "variant": data["variant"], "phrase": result.kind != "dependency",
        "csp": Markup(CSP), "version": __version__,  # (a constant)
        "signature": result.signature(),
        "css": _inline("report.css", "</style"), "js": _inline("report.js", "</script"),
        "data": Markup(_json_script(data)),
        "questions": question_page(result),  # --bias, --by, --where
        "adjudicate": adjudication_section(adjudication, corpus),  # --adjudicate (method §31)
    }
    omitted: List[str] = []  # the sections left out, each with its reason
    if not page["comparison"]:
        omitted.append(OMITTED["comparison"])
    if not page["layers"]:
        omitted.append(OMITTED["layers_phrase"] if result.kind != "dependency" else
                       OMITTED["layers_skipped"] if qa.get("skipped_layers") else
                       OMITTED["layers_none"])
    if not page["noise"]:
        omitted.append(OMITTED["noise"])
    page["show_sentences"] = bool(data["sentences"])
    if not page["show_sentences"]:
        omitted.append(OMITTED["sentences"])
    page["omitted"] = omitted
    page["extra"] = html_sections(result)  # parser vs humans, pre-annotation, plan (§28–30)
    present = {"summary", "annotators"}
    present |= {k for k in ("comparison", "layers", "noise") if page[k]}
    present |= {"sentences"} if page["show_sentences"] else set()
    present |= {x["id"] for x in page["extra"]}
    present |= {k for k, v in page["questions"].items() if v}
    present |= {"adjudicate"} if page["adjudicate"] else set()
    page["nav"] = [(sid, label) for sid, label in (*SECTIONS[:-1], *SECTION_IDS,
                                                   ("adjudicate", "Adjudication"), SECTIONS[-1])
                   if sid in present]
    return _environment().get_template("report.html.j2").render(page)


# --------------------------------------------------------------------------
# Building and the CLI
# --------------------------------------------------------------------------

def build_report(report: ReportResult, output: str = "html", *, noise=None,
                 max_sentences: Optional[int] = 5000, title: Optional[str] = None,
                 noise_metrics: Optional[Sequence[str]] = None,
                 noise_ylim: Optional[Tuple[float, float]] = None,
                 adjudication: Optional[AdjudicationResult] = None) -> str:
    """A computed report (`synagree.agreement.report.ReportResult`) as text.

    ``output``: ``html`` (one offline page), ``json`` (`ReportResult.to_dict`), or the
    tables as ``csv``, ``markdown`` or ``latex``.  ``noise``: rows or a path (see
    :func:`read_noise`), drawn with the corpus's own α and LAS as reference lines
    (:func:`synagree.render.plots.corpus_reference`); ``noise_metrics`` and
    ``noise_ylim``: see :func:`synagree.render.plots.plot_results`.
    ``adjudication``: a consensus (`synagree.agreement.adjudicate`) whose worklist the
    page lets a curator decide (``report --adjudicate``, docs/adjudication.md).
    """
    if output not in OUTPUTS:
        raise ValueError(f"unknown output {output!r}; expected one of {OUTPUTS}")
    if output == "json":
        return json.dumps(json_ready(report.to_dict()), indent=1, ensure_ascii=False,
                          allow_nan=False) + "\n"
    result = report.agreement
    qa = {"summary": json_ready(result.to_dict()), **report.tables,
          "baseline": result.baseline.as_dict() if result.baseline is not None else None,
          "signature": result.signature()}
    if output != "html":
        return append_tables(result, output,
                             render_tables(qa, output) + extra_text(result, output))
    path = noise if isinstance(noise, (str, os.PathLike)) else None
    rows = read_noise(noise) if path is not None else noise
    reference = (corpus_reference(result, read_config(path) if path is not None else None,
                                  str(path) if path is not None else "<rows>")
                 if rows else None)
    return render_html(result, qa, rows, title=title, variant=report.variant,
                       max_sentences=max_sentences, noise_metrics=noise_metrics,
                       noise_ylim=noise_ylim, noise_reference=reference,
                       adjudication=adjudication)
