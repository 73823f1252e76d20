"""``synagree report``: one self-contained HTML file (or the same tables as
JSON / CSV / Markdown / LaTeX) for annotation QA.

The HTML has no external resources (a Content-Security-Policy forbids any
fetch): CSS, JavaScript and SVG are inline, the noise-curve figures are
matplotlib SVG embedded in the page.  Sections:

* summary: α (plain/diff/norm), LAS/UAS/LA and the categorical coefficients
  with bootstrap confidence intervals; comparison with a previous round;
* annotators: pair-matrix heat maps (α, LAS, UAS, LA, units), leave-one-out
  α, each annotator's mean distance to the others;
* token layers: κ/π/α per layer, per document (macro and micro averages),
  specific agreement per label and a confusion heat map;
* noise curves (``--noise results.csv`` of ``synagree noise``);
* sentences, worst first: a filter box and one row per sentence; opening a
  row draws its dependency arcs (annotators mirrored above/below the words
  for two annotators, stacked otherwise), arcs whose head or label differs
  drawn with class ``arc diff`` and differing labels with ``lab diff``.
  Diagrams are drawn lazily in JavaScript from embedded JSON (rows are added
  in batches as the list scrolls), so 1,000 sentences stay light.

Written atomically (temporary file + ``os.replace``).
"""
from __future__ import annotations

import csv
import html
import io
import json
import math
import os
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from synagree._version import __version__
from synagree.agreement.qa import qa_summary, rank_units, unit_diagnostics
from synagree.base.escape import matplotlib_text
from synagree.base.jsonable import to_float
from synagree.base.problems import InputError, quote
from synagree.io.conllu import DepSentence
from synagree.noise.results import json_rows
from synagree.render.mpl import pyplot
from synagree.render.qa import render_tables
from synagree.render.rows import _f as _num

OUTPUTS = ("html", "json", "csv", "markdown", "latex")
NOISE_KEYS = ("series", "p", "p_relabel", "p_reattach", "p_random", "run", "seed")
NOISE_METRICS = ("alpha_plain", "alpha_norm", "alpha_diff", "las", "uas", "la", "jaccard")


# --------------------------------------------------------------------------
# Small HTML helpers
# --------------------------------------------------------------------------

def _e(x) -> str:
    return html.escape("" if x is None else str(x), quote=True)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "",
           raw: bool = False) -> str:
    """An HTML table; cells are escaped unless ``raw``."""
    h = "".join(f"<th>{_e(c)}</th>" for c in header)
    body = []
    for r in rows:
        cells = "".join(f"<td>{c if raw else _e(c)}</td>" for c in r)
        body.append(f"<tr>{cells}</tr>")
    return (f'<table class="{cls}"><thead><tr>{h}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def _agree_colour(v: Optional[float], lo: float) -> str:
    """Red (lo) → yellow → green (1) for an agreement value."""
    if v is None or not math.isfinite(v):
        return "#eeeeee"
    t = max(0.0, min(1.0, (v - lo) / (1.0 - lo) if lo < 1 else 1.0))
    stops = [(0.0, (215, 48, 39)), (0.5, (254, 224, 139)), (1.0, (26, 152, 80))]
    for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
        if t <= t1:
            f = (t - t0) / (t1 - t0)
            rgb = [round(a + f * (b - a)) for a, b in zip(c0, c1)]
            return "#%02x%02x%02x" % tuple(rgb)
    return "#1a9850"


def _heatmap(names: Sequence[str], matrix, title: str, integer: bool = False) -> str:
    vals = [x for i, row in enumerate(matrix) for j, x in enumerate(row)
            if i != j and x is not None]
    lo = min([0.5] + [v for v in vals if isinstance(v, (int, float))]) if not integer else 0
    head = "".join(f"<th>{_e(n)}</th>" for n in names)
    rows = []
    for i, a in enumerate(names):
        cells = []
        for j in range(len(names)):
            x = matrix[i][j]
            if integer:
                cells.append(f'<td class="cnt">{int(x)}</td>')
            elif i == j or x is None:
                cells.append('<td class="na"></td>')
            else:
                cells.append(f'<td style="background:{_agree_colour(x, lo)}" '
                             f'title="{_e(a)} × {_e(names[j])}: {x:.6f}">{x:.3f}</td>')
        rows.append(f"<tr><th>{_e(a)}</th>{''.join(cells)}</tr>")
    return (f'<figure class="heat"><figcaption>{_e(title)}</figcaption>'
            f'<table class="heatmap"><thead><tr><th></th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></figure>')


def _confusion(c: dict, top: int = 25) -> str:
    """Pooled contingency table (rows: first annotator of each pair) as a heat map of
    the ``top`` most frequent categories (the rest summed as "(other)")."""
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
    head = "".join(f'<th class="rot"><div>{_e(lab)}</div></th>' for lab in labels)
    rows = []
    for i in range(size):
        cells = []
        for j in range(size):
            v = grid[i][j]
            if not v:
                cells.append("<td></td>")
                continue
            if i == j:
                a = 0.15 + 0.85 * math.log1p(v) / math.log1p(on)
                col = f"rgba(26,152,80,{a:.3f})"
            else:
                a = 0.15 + 0.85 * math.log1p(v) / math.log1p(off)
                col = f"rgba(215,48,39,{a:.3f})"
            cells.append(f'<td style="background:{col}" title="{_e(labels[i])} / '
                         f'{_e(labels[j])}: {v}">{v}</td>')
        rows.append(f"<tr><th>{_e(labels[i])}</th>{''.join(cells)}</tr>")
    pairs_note = ("summed over annotator pairs, rows: first annotator of each pair"
                  if len(c["pairs"]) > 1 else f"rows: {first}, columns: {second}")
    return (f'<figure class="heat confusion"><figcaption>Confusion matrix of '
            f'{_e(c["layer"])} ({_e(pairs_note)}; {len(keep)} most frequent categories'
            f'{", the rest as (other)" if other else ""}; green: agreement, red: '
            f'confusion, shade ∝ log count)</figcaption><div class="scroll">'
            f'<table class="heatmap confusion"><thead><tr><th></th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div></figure>')


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
                        row[k] = float(v)
                    except ValueError:
                        if k in NOISE_METRICS or k in NOISE_KEYS:
                            raise InputError.single(str(p), no, "bad-results",
                                                    f"column {quote(k)}: {quote(v)} is not "
                                                    f"a number")
                        row[k] = v
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


def noise_svgs(rows: Sequence[Dict[str, object]]) -> List[str]:
    """One inline SVG per series: mean of each metric over runs against p, with
    the min–max band over runs, in percent."""
    plt = pyplot()

    styles = {"alpha_plain": ("#0072B2", "o", "-", "α plain"),
              "alpha_norm": ("#009E73", "s", "-", "α norm"),
              "alpha_diff": ("#D55E00", "^", "-", "α diff"),
              "las": ("#000000", "D", "--", "LAS"), "uas": ("#999999", "v", ":", "UAS"),
              "la": ("#CC79A7", "x", "-.", "LA"), "jaccard": ("#000000", "D", "--", "Jaccard")}
    titles = {"both": "Relabelling and reattachment (p_relabel = p_reattach = p)",
              "relabel": "Relabelling only (p_reattach = 0)",
              "reattach": "Reattachment only (p_relabel = 0)",
              "random": "Uniform random trees (fraction p of sentences)"}
    metrics = [m for m in NOISE_METRICS if any(r.get(m) is not None for r in rows)]
    extra = sorted({k for r in rows for k, v in r.items() if k not in NOISE_KEYS
                    and k not in NOISE_METRICS and isinstance(v, float)})
    metrics += extra
    series = list(dict.fromkeys(str(r["series"]) for r in rows))
    out: List[str] = []
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "synagree",
                                "font.size": 9, "axes.spines.top": False,
                                "axes.spines.right": False}):
        for s in series:
            fig, ax = plt.subplots(figsize=(6.0, 3.8))
            for m in metrics:
                by_p: Dict[float, List[float]] = {}
                for r in rows:
                    v = r.get(m)
                    if r["series"] == s and isinstance(v, float) and math.isfinite(v):
                        by_p.setdefault(round(to_float(r["p"]), 9), []).append(v)
                if not by_p:
                    continue
                ps = sorted(by_p)
                mean = [100 * sum(by_p[p]) / len(by_p[p]) for p in ps]
                lo = [100 * min(by_p[p]) for p in ps]
                hi = [100 * max(by_p[p]) for p in ps]
                col, mk, ls, lab = styles.get(m, (None, ".", "-", matplotlib_text(m)))
                line, = ax.plot(ps, mean, marker=mk, ls=ls, color=col, label=lab, lw=1.5,
                                ms=4)
                ax.fill_between(ps, lo, hi, color=line.get_color(), alpha=0.15, lw=0)
            ax.axhline(0, color="0.6", lw=0.8, zorder=0)
            ax.set_xlabel("noise probability p")
            ax.set_ylabel("agreement (%)")
            ax.set_title(titles.get(s, matplotlib_text(s)))
            ax.grid(True, color="0.92", lw=0.6)
            ax.legend(loc="lower left", ncol=2, fontsize=8, framealpha=0.9)
            fig.tight_layout()
            buf = io.StringIO()
            fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
            plt.close(fig)
            svg = buf.getvalue()
            svg = svg[svg.index("<svg"):]
            # unique ids per figure: matplotlib's ids are per-file
            svg = svg.replace('id="', f'id="n{len(out)}-').replace('url(#', f'url(#n{len(out)}-') \
                     .replace('href="#', f'href="#n{len(out)}-')
            out.append(f'<figure class="noise" data-series="{_e(s)}">{svg}</figure>')
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
    ``b`` (bracketed trees per annotator) instead of ``f/h/l``.
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
        out.append(rec)
    return {"annotators": list(corpus.annotators), "labels": list(labels),
            "variant": variant, "sentences": out, "total": total}


# --------------------------------------------------------------------------
# The page
# --------------------------------------------------------------------------

CSS = r"""
:root{--fg:#222;--mut:#666;--line:#ddd;--diff:#d62728;--acc:#1f77b4}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);
margin:0;background:#fafafa}
header{background:#263238;color:#fff;padding:14px 24px}
header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#cfd8dc;font-size:13px}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid var(--line);padding:6px 24px;
z-index:5}nav a{margin-right:14px;color:var(--acc);text-decoration:none;font-size:13px}
main{padding:8px 24px 40px;max-width:1400px}
section{background:#fff;border:1px solid var(--line);border-radius:6px;padding:10px 16px;
margin:14px 0}
h2{font-size:17px;margin:6px 0 10px}h3{font-size:14px;margin:14px 0 6px}
table{border-collapse:collapse;margin:6px 0;font-size:13px}
th,td{border:1px solid var(--line);padding:3px 7px;text-align:right}
th:first-child,td:first-child{text-align:left}thead th{background:#f1f3f4}
.note{color:var(--mut);font-size:12.5px}.warn{color:#8a4b00}
.heat{display:inline-block;vertical-align:top;margin:4px 18px 8px 0}
.heat figcaption{font-size:12.5px;color:var(--mut);max-width:640px}
.heatmap td{min-width:52px;text-align:center}.heatmap td.na{background:#f5f5f5}
.heatmap.confusion td{min-width:26px;font-size:11px;padding:2px 3px}
.heatmap th.rot{height:90px;vertical-align:bottom;padding:2px}
.heatmap th.rot div{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:normal;
font-size:11px;white-space:nowrap}
.scroll{overflow-x:auto;max-width:100%}
.bar{display:inline-block;height:9px;background:#4e79a7;vertical-align:middle;margin-right:6px}
figure.noise{display:inline-block;margin:4px 8px}figure.noise svg{max-width:600px;height:auto}
.sig{color:var(--diff);font-weight:600}.ci{color:var(--mut);font-size:12px}
#sent-controls{display:flex;gap:14px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
#sent-filter{font:inherit;padding:5px 8px;width:min(480px,90vw);border:1px solid #bbb;
border-radius:4px}
details.sent{border-top:1px solid #eee;padding:2px 0}
details.sent>summary{cursor:pointer;list-style:revert;padding:3px 2px;white-space:nowrap;
overflow:hidden;text-overflow:ellipsis}
details.sent>summary span{margin-right:10px}
.rk{color:var(--mut);display:inline-block;min-width:42px}.sid{font-weight:600}
.share{color:var(--diff)}.ted{color:var(--mut)}.doc{color:var(--mut);font-size:12px}
.diagram{overflow-x:auto;padding:4px 0 8px 20px}
svg.dep{display:block;margin:4px 0;font:12px system-ui,sans-serif}
svg.dep .tok{font-size:13px;fill:#111}svg.dep .tok.diff{fill:var(--diff);font-weight:700}
svg.dep .arc{fill:none;stroke:#607d8b;stroke-width:1.2}
svg.dep .arc.diff{stroke:var(--diff);stroke-width:2.2}
svg.dep .arrow{fill:#607d8b}svg.dep .arrow.diff{fill:var(--diff)}
svg.dep .lab{font-size:10.5px;fill:#37474f;paint-order:stroke;stroke:#fff;stroke-width:3px}
svg.dep .lab.diff{fill:var(--diff);font-weight:700}
svg.dep .ann-name{font-size:11px;fill:#1565c0;font-weight:600}
.words{font-size:12.5px;color:#444;margin:2px 0 4px}
pre.brackets{font-size:12px;white-space:pre-wrap;margin:2px 0}
#js-errors{color:#fff;background:var(--diff);padding:6px 10px}
#sent-more{margin:8px 0}
"""

JS = r"""
(function () {
  "use strict";
  var errBox = document.getElementById("js-errors");
  window.addEventListener("error", function (e) {
    errBox.hidden = false;
    errBox.textContent += "JavaScript error: " + e.message + "\n";
    document.body.setAttribute("data-js-error", "1");
  });
  var D = JSON.parse(document.getElementById("synagree-data").textContent);
  var NS = "http://www.w3.org/2000/svg";
  var ANN = D.annotators, LAB = D.labels, S = D.sentences;
  var list = document.getElementById("sent-list");
  var box = document.getElementById("sent-filter");
  var only = document.getElementById("only-diff");
  var count = document.getElementById("sent-count");
  var more = document.getElementById("sent-more");
  var BATCH = 40, OPEN_FIRST = D.open_first, matches = [], shown = 0;

  function svg(tag, attrs, text) {
    var n = document.createElementNS(NS, tag);
    for (var k in attrs) n.setAttribute(k, attrs[k]);
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function h(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function haystack(s) {
    if (s._h === undefined) {
      var parts = [s.id, s.doc, s.t || ""];
      s.a.forEach(function (ai) { parts.push(ANN[ai]); });
      if (s.x) s.x.forEach(function (w) {
        s.l.forEach(function (row) { parts.push(LAB[row[w - 1]]); });
      });
      s._h = parts.join(" \u0001 ").toLowerCase();
    }
    return s._h;
  }
  function applyFilter() {
    var terms = box.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    matches = S.filter(function (s) {
      if (only.checked && !(s.c > 0 || s.e > 0)) return false;
      var hay = haystack(s);
      return terms.every(function (t) { return hay.indexOf(t) >= 0; });
    });
    list.textContent = "";
    shown = 0;
    renderMore(terms.length === 0);
    count.textContent = matches.length + " of " + S.length + " sentences" +
      (D.total > S.length ? " (" + D.total + " in the corpus; the report keeps the " +
       S.length + " worst)" : "");
  }
  function renderMore(openFirst) {
    var end = Math.min(matches.length, shown + BATCH);
    var frag = document.createDocumentFragment(), toOpen = [];
    for (var i = shown; i < end; i++) {
      var row = makeRow(matches[i]);
      frag.appendChild(row.node);
      if (openFirst && i < OPEN_FIRST) toOpen.push(row);
    }
    list.appendChild(frag);
    toOpen.forEach(function (row) { row.node.open = true; row.draw(); });
    shown = end;
    more.hidden = shown >= matches.length;
  }
  function makeRow(s) {
    var d = h("details", "sent");
    d.setAttribute("data-rank", s.k);
    d.setAttribute("data-id", s.id);
    var sm = h("summary");
    sm.appendChild(h("span", "rk", "#" + s.k));
    sm.appendChild(h("span", "sid", s.id));
    sm.appendChild(h("span", "share", (100 * s.c).toFixed(2) + "% of D_o"));
    sm.appendChild(h("span", "ted", "TED " + s.e));
    sm.appendChild(h("span", "doc", s.doc));
    sm.appendChild(h("span", "txt", s.t));
    d.appendChild(sm);
    var body = h("div", "diagram");
    d.appendChild(body);
    function draw() { if (!body.firstChild) drawSentence(s, body); }
    d.addEventListener("toggle", function () { if (d.open) draw(); });
    return {node: d, draw: draw};
  }
  function differs(s, j, w) {
    if (s.F) return {head: false, label: false};
    var hd = false, lb = false;
    for (var o = 0; o < s.h.length; o++) {
      if (o === j) continue;
      if (s.h[o][w] !== s.h[j][w]) hd = true;
      if (s.l[o][w] !== s.l[j][w]) lb = true;
    }
    return {head: hd, label: lb};
  }
  function levels(heads) {
    var arcs = [];
    heads.forEach(function (hh, i) {
      if (hh > 0) arcs.push({lo: Math.min(hh, i + 1), hi: Math.max(hh, i + 1), w: i});
    });
    arcs.sort(function (a, b) { return (a.hi - a.lo) - (b.hi - b.lo); });
    var lev = {};
    arcs.forEach(function (a, i) {
      var L = 1;
      for (var j = 0; j < i; j++) {
        var b = arcs[j];
        if (b.lo >= a.lo && b.hi <= a.hi && lev[b.w] + 1 > L) L = lev[b.w] + 1;
      }
      lev[a.w] = Math.min(L, 24);
    });
    return lev;
  }
  function drawSentence(s, body) {
    if (s.b) {
      s.a.forEach(function (ai, j) {
        body.appendChild(h("pre", "brackets", ANN[ai] + ": " + s.b[j]));
      });
      return;
    }
    var m = s.a.length;
    if (m === 2 && !s.F) body.appendChild(diagram(s, [0, 1]));
    else for (var j = 0; j < m; j++) body.appendChild(diagram(s, [j]));
    if (s.F) body.appendChild(h("p", "words", "The annotators tokenised this sentence " +
      "differently; words cannot be compared one to one."));
    else if (s.x.length) {
      var parts = s.x.map(function (w) {
        var hs = s.h.map(function (r) { return r[w - 1]; }).join("/");
        var ls = s.l.map(function (r) { return LAB[r[w - 1]]; }).join("/");
        return w + " " + s.f[w - 1] + " (head " + hs + ", label " + ls + ")";
      });
      body.appendChild(h("p", "words", "Differing words (" +
        s.a.map(function (ai) { return ANN[ai]; }).join("/") + "): " + parts.join("; ")));
    }
  }
  function diagram(s, which) {
    var forms = s.F ? s.F[which[0]] : s.f, n = forms.length;
    var xs = [], x = 70;
    for (var i = 0; i < n; i++) {
      var w = Math.max(34, forms[i].length * 7.4 + 14);
      xs.push(x + w / 2);
      x += w;
    }
    var W = x + 20, UNIT = 15, mirrored = which.length === 2;
    var levs = which.map(function (j) { return levels(s.h[j]); });
    function maxLev(lv) { var M = 0; for (var k in lv) if (lv[k] > M) M = lv[k]; return M; }
    var up = (maxLev(levs[0]) + 1) * UNIT + 22;
    var down = mirrored ? (maxLev(levs[1]) + 1) * UNIT + 22 : 0;
    var yTok = up + 16, H = yTok + 8 + (mirrored ? down + 8 : 6);
    var root = svg("svg", {"class": "dep" + (mirrored ? " mirrored" : ""), width: W,
                           height: H, viewBox: "0 0 " + W + " " + H});
    var diffWords = {};
    which.forEach(function (j) {
      for (var wi = 0; wi < n; wi++) {
        var df = differs(s, j, wi);
        if (df.head || df.label) diffWords[wi] = true;
      }
    });
    for (var t = 0; t < n; t++) {
      var tok = svg("text", {x: xs[t], y: yTok, "text-anchor": "middle",
                             "class": "tok" + (diffWords[t] ? " diff" : "")}, forms[t]);
      tok.appendChild(svg("title", {}, (t + 1) + " " + forms[t]));
      root.appendChild(tok);
    }
    which.forEach(function (j, side) {
      var dir = side === 0 ? -1 : 1;
      var base = side === 0 ? up : yTok + 8;
      var span = side === 0 ? up - 10 : down - 10;
      var g = svg("g", {"class": "ann", "data-annotator": ANN[s.a[j]]});
      g.appendChild(svg("text", {x: 4, y: side === 0 ? 12 : H - 5, "class": "ann-name"},
                        ANN[s.a[j]] + (mirrored ? (side === 0 ? " \u25B2" : " \u25BC") : "")));
      var heads = s.h[j], labs = s.l[j], lv = levs[side];
      for (var w = 0; w < n; w++) {
        var hd = heads[w], lab = LAB[labs[w]], df = differs(s, j, w);
        var dcls = (df.head || df.label) ? " diff" : "";
        var cls = "arc" + dcls + (df.head ? " diff-head" : "") + (df.label ? " diff-label" : "");
        var xd = xs[w], path, lx, ly, tip;
        if (hd === 0) {
          var yEnd = base + dir * span;
          path = "M" + xd + "," + yEnd + " L" + xd + "," + base;
          lx = xd; ly = yEnd + (dir < 0 ? 10 : -3);
          tip = ANN[s.a[j]] + ": ROOT \u2192 " + forms[w] + " (" + lab + ")";
        } else {
          var xh = xs[hd - 1], hh = ((lv[w] || 1) * UNIT + 6) / 0.75;
          var yc = base + dir * hh;
          path = "M" + xh + "," + base + " C" + xh + "," + yc + " " + xd + "," + yc + " " +
                 xd + "," + base;
          lx = (xh + xd) / 2; ly = base + dir * hh * 0.75 + (dir < 0 ? -2 : 10);
          tip = ANN[s.a[j]] + ": " + forms[hd - 1] + " \u2192 " + forms[w] + " (" + lab + ")";
        }
        var p = svg("path", {d: path, "class": cls, "data-word": w + 1});
        p.appendChild(svg("title", {}, tip));
        g.appendChild(p);
        var a = 4;
        g.appendChild(svg("polygon", {"class": "arrow" + dcls, points:
          (xd - a) + "," + (base + dir * 2 * a) + " " + (xd + a) + "," + (base + dir * 2 * a) +
          " " + xd + "," + base}));
        g.appendChild(svg("text", {x: lx, y: ly, "text-anchor": "middle",
                                   "class": "lab" + (df.label ? " diff" : "")}, lab));
      }
      root.appendChild(g);
    });
    return root;
  }
  var timer = null;
  box.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(applyFilter, 150);
  });
  only.addEventListener("change", applyFilter);
  more.addEventListener("click", function () { renderMore(false); });
  if ("IntersectionObserver" in window) {
    new IntersectionObserver(function (entries) {
      entries.forEach(function (en) { if (en.isIntersecting && !more.hidden) renderMore(false); });
    }, {rootMargin: "400px"}).observe(more);
  }
  // a link may carry a filter: report.html#q=WORDS (and &only=1)
  var hq = /^#q=([^&]*)(&only=1)?/.exec(window.location.hash || "");
  if (hq) {
    box.value = decodeURIComponent(hq[1].replace(/\+/g, " "));
    only.checked = !!hq[2];
  }
  applyFilter();
  document.body.setAttribute("data-rendered", "1");
})();
"""


def _json_script(data) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def render_html(result, qa: dict, noise_rows: Optional[Sequence[dict]] = None,
                title: Optional[str] = None, variant: str = "plain",
                max_sentences: Optional[int] = None, open_first: int = 5) -> str:
    """The report page for ``result`` and its :func:`synagree.agreement.qa.qa_summary` dict."""
    corpus = result.corpus
    title = title or "Annotation agreement report"
    s = qa["summary"]
    bs = (qa.get("bootstrap") or {})
    metrics = bs.get("metrics", {})
    conf = bs.get("confidence")
    parts: List[str] = []
    files = [f for fs in (corpus.files or {}).values() for f in fs]
    sub = (f"{len(result.annotators)} annotators ({', '.join(result.annotators)}); "
           f"{result.units} pairable sentences of {result.units_total}; "
           f"{result.annotations} annotations; {result.kind} trees")

    # --- summary -------------------------------------------------------------
    names = {"alpha_plain": "α plain (TED)", "alpha_diff": "α diff", "alpha_norm": "α norm",
             "las": "LAS", "uas": "UAS", "la": "label accuracy", "jaccard": "bracket Jaccard"}
    rows = []
    for key in ("alpha_plain", "alpha_diff", "alpha_norm", "las", "uas", "la", "jaccard"):
        if key not in s:
            continue
        b = metrics.get(key, {})
        rows.append([names[key], _num(s[key]), _num(b.get("low")), _num(b.get("high")),
                     _num(b.get("se"))])
    ci_head = ([f"{100 * conf:g}% CI low", "high", "bootstrap SE"] if conf
               else ["CI low", "high", "SE"])
    summary = _table(["measure", "estimate"] + ci_head, rows, "summary")
    boot_note = (f"Percentile bootstrap over sentences: {bs['replicates']} replicates, seed "
                 f"{bs['seed']}, {bs['units']} sentences resampled with replacement; α, "
                 f"LAS and the token-layer coefficients share the resamples."
                 if bs else "No bootstrap (run with --bootstrap B for confidence intervals).")
    notes = "".join(f"<li>{_e(n)}</li>" for n in result.notes)
    warn = ""
    if result.warnings:
        items = "".join(f"<li>{_e(str(w))}</li>" for w in result.warnings[:20])
        more = (f"<li>… and {len(result.warnings) - 20} more</li>"
                if len(result.warnings) > 20 else "")
        warn = (f'<details class="warn"><summary>{len(result.warnings)} input warning(s)'
                f'</summary><ul>{items}{more}</ul></details>')
    parts.append(f'<section id="summary"><h2>Summary</h2>{summary}'
                 f'<p class="note">{_e(boot_note)}</p>'
                 f'{"<ul class=note>" + notes + "</ul>" if notes else ""}{warn}</section>')

    if qa.get("comparison"):
        crow = []
        for c in qa["comparison"]:
            sig = c["significant"]
            mark = ("<span class=sig>yes</span>" if sig else "no") if sig is not None else "–"
            crow.append([_e(c["metric"]), _num(c["old"]), _num(c["new"]),
                         _e(("+" if (c["delta"] or 0) > 0 else "") + _num(c["delta"])),
                         f"[{_num(c['low'])}, {_num(c['high'])}]", _num(c["p_value"], 3), mark,
                         _e(c["method"])])
        parts.append('<section id="comparison"><h2>Change since the previous round</h2>'
                     + _table(["measure", "previous", "now", "change", "CI of change", "p",
                               "significant", "test"], crow, "compare", raw=True)
                     + '<p class="note">Rounds are independent samples of sentences; the '
                       'change is significant when the percentile interval of the '
                       'difference of bootstrap replicates excludes 0 (two-sided).</p>'
                       '</section>')

    # --- annotators ----------------------------------------------------------
    pm = qa["pairs"]
    heat = []
    for key, label in (("alpha_plain", "pairwise α plain (units both annotated)"),
                       ("alpha_diff", "pairwise α diff"), ("alpha_norm", "pairwise α norm"),
                       ("las", "pairwise LAS"), ("uas", "pairwise UAS"), ("la", "pairwise LA")):
        if key not in pm or (key in ("las", "uas", "la") and result.kind != "dependency"):
            continue
        heat.append(_heatmap(pm["annotators"], pm[key], label))
    heat.append(_heatmap(pm["annotators"], pm["units"],
                         "sentences annotated (diagonal) / annotated by both", integer=True))
    loo = qa["leave_one_out"]
    loo_keys = [k for k in (loo[0] if loo else {}) if k.startswith("alpha_")]
    loo_rows = [[x["annotator"], str(x["units"])] +
                [f"{_num(x[k])} ({'+' if (x['change_' + k[6:]] or 0) > 0 else ''}"
                 f"{_num(x['change_' + k[6:]])})" if x[k] is not None else "–"
                 for k in loo_keys] for x in loo]
    dist_rows = [[x["annotator"], str(x["units"]), str(x["comparisons"]),
                  _num(x["mean_ted"], 3), _num(x["mean_norm"], 4)]
                 for x in qa["annotator_distances"]]
    parts.append('<section id="annotators"><h2>Annotators and pairs</h2>'
                 + "".join(heat)
                 + "<h3>Leave one annotator out</h3>"
                 + _table(["without", "sentences"] + [k.replace("alpha_", "α ") + " (change)"
                                                      for k in loo_keys], loo_rows, "loo")
                 + '<p class="note">α recomputed without the annotator (sentences left with '
                   'fewer than two annotations drop out; with two annotators nothing is '
                   'left to compare).</p>'
                 + "<h3>Mean distance to the other annotators</h3>"
                 + _table(["annotator", "sentences", "comparisons", "mean TED",
                           "mean TED / (|x|+|y|)"], dist_rows, "dist")
                 + "</section>")

    # --- token layers --------------------------------------------------------
    cat = qa.get("categorical") or {}
    if cat:
        first = next(iter(cat.values()))
        m = len(first["annotators"])
        crows = []

        def with_ci(layer, k, v):
            b = metrics.get(f"{layer}_{k}")
            if not b or b.get("low") is None:
                return _e(_num(v))
            return (f'{_e(_num(v))} <span class="ci">[{_e(_num(b["low"]))}, '
                    f'{_e(_num(b["high"]))}]</span>')

        for layer, c in cat.items():
            co = c["coefficients"]
            crows.append([_e(layer), str(c["items"]), str(len(c["categories"]))]
                         + [with_ci(layer, k, co[k]) for k in ("observed", "kappa", "pi",
                                                                "alpha")]
                         + [_e(_num(co["specific_macro"]))])
        body = _table(["layer", "items", "categories", "observed agreement",
                       "Cohen's κ" if m == 2 else "Davies & Fleiss κ",
                       "Scott's π" if m == 2 else "Fleiss' κ", "Krippendorff's α",
                       "specific agreement (macro over categories)"], crows, "cat", raw=True)
        if conf:
            body += (f'<p class="note">Brackets: {100 * conf:g}% bootstrap intervals (same '
                     f'resamples of sentences as the summary).</p>')
        if m > 2:
            prow = []
            for layer, c in cat.items():
                for p in c["pairs"]:
                    prow.append([layer, f"{p['a']} × {p['b']}", str(p["items"]),
                                 _num(p["observed"]), _num(p["kappa"]), _num(p["pi"])])
            body += "<h3>Per annotator pair</h3>" + _table(
                ["layer", "pair", "items", "observed", "Cohen's κ", "Scott's π"], prow, "cat")
        docs = [(layer, c) for layer, c in cat.items() if len(c["documents"]) > 1]
        for layer, c in docs[:2]:
            drow = [[doc, str(v["items"])] + [_num(v[k]) for k in ("observed", "kappa", "pi",
                                                                   "alpha")]
                    for doc, v in c["documents"].items()]
            md = c["macro_documents"]
            drow.append(["macro-average", ""] + [_num(md.get(k)) for k in
                                                 ("observed", "kappa", "pi", "alpha")])
            drow.append(["micro-average (pooled)", str(c["items"])] +
                        [_num(c["coefficients"][k]) for k in ("observed", "kappa", "pi",
                                                              "alpha")])
            body += f"<h3>Per document: {_e(layer)}</h3>" + _table(
                ["document", "items", "observed", "κ", "π", "α"], drow, "cat")
        spec_layer = "deprel" if "deprel" in cat else next(iter(cat))
        c = cat[spec_layer]
        freq = c["category_frequency"]
        srows = []
        for k, v in sorted(c["specific"].items(), key=lambda kv: -freq.get(kv[0], 0)):
            w = max(0.0, min(1.0, v)) * 120
            srows.append([_e(k), str(freq.get(k, 0)),
                          f'<span class="bar" style="width:{w:.0f}px"></span>{_num(v, 3)}'])
        body += (f"<h3>Specific agreement per category: {_e(spec_layer)}</h3>"
                 f'<div class="scroll" style="max-height:420px;overflow-y:auto">'
                 + _table(["category", "assignments", "specific agreement"], srows, "spec",
                          raw=True) + "</div>"
                 + '<p class="note">p<sub>s</sub>(k) = 2·n<sub>kk</sub> / (n<sub>k·</sub> + '
                   'n<sub>·k</sub>) over the contingency table (summed over annotator pairs); '
                   'assignments = n<sub>k·</sub> + n<sub>·k</sub>.</p>')
        if c["pairs"] and "table" in c["pairs"][0]:
            body += _confusion(c)
        parts.append(f'<section id="layers"><h2>Token layers (categorical agreement)</h2>'
                     f'{body}<p class="note">Words are items; sentences whose annotations '
                     f'differ in word count are left out ({first["ignored_units"]} here). '
                     f'Heads are compared as the signed offset of the head (root = '
                     f'"root").</p></section>')

    # --- noise ---------------------------------------------------------------
    if noise_rows:
        figs = noise_svgs(noise_rows)
        parts.append('<section id="noise"><h2>Noise experiments</h2>' + "".join(figs)
                     + '<p class="note">Lines: mean over runs; bands: min–max over runs.</p>'
                       '</section>')

    # --- sentences -----------------------------------------------------------
    data = sentence_data(result, variant, max_sentences)
    data["open_first"] = open_first
    parts.append(
        '<section id="sentences"><h2>Sentences, worst first</h2>'
        f'<p class="note">Ranked by share of D_o (α {_e(data["variant"])}). Open a sentence '
        'to draw its trees: with two annotators the first is drawn above the words and '
        'the second below; arcs and labels that differ are red.</p>'
        '<div id="sent-controls"><input id="sent-filter" type="search" '
        'placeholder="Filter: sentence id, words, annotator, label …" '
        'aria-label="Filter sentences"><label><input id="only-diff" type="checkbox"> only '
        'sentences with disagreement</label><span id="sent-count" class="note"></span></div>'
        '<div id="sent-list"></div><button id="sent-more" type="button" hidden>Show more'
        '</button></section>')

    nav = "".join(f'<a href="#{sid}">{label}</a>' for sid, label in (
        ("summary", "Summary"), ("comparison", "Change"), ("annotators", "Annotators"),
        ("layers", "Token layers"), ("noise", "Noise"), ("sentences", "Sentences"))
        if f'id="{sid}"' in "".join(parts))
    csp = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
           "img-src data:; font-src data:")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>"
        f"<header><h1>{_e(title)}</h1><p>{_e(sub)}</p>"
        f"<p>{_e('; '.join(files[:8]))}{' …' if len(files) > 8 else ''}</p></header>"
        f"<nav>{nav}</nav>"
        '<pre id="js-errors" hidden></pre>'
        f"<main>{''.join(parts)}</main>"
        f'<footer class="note" style="padding:0 24px 20px">synagree {_e(__version__)}'
        "</footer>"
        f'<script id="synagree-data" type="application/json">{_json_script(data)}</script>'
        f"<script>{JS}</script></body></html>\n")


# --------------------------------------------------------------------------
# Building and the CLI
# --------------------------------------------------------------------------

def build_report(result, output: str = "html", *, noise=None, bootstrap: int = 1000,
                 seed: int = 0, confidence: float = 0.95,
                 layers: Sequence[str] = ("deprel", "head", "upos", "xpos", "feats"),
                 compare_to: Optional[dict] = None, variant: str = "plain", worst: int = 20,
                 max_sentences: Optional[int] = 5000, title: Optional[str] = None) -> str:
    """The report for an :class:`~synagree.agreement.agree.AgreementResult` as text.

    ``noise``: rows or a path (see :func:`read_noise`); ``compare_to``: a
    previous ``--output json`` report (dict).  For the bootstrap the result
    should come from ``agree_corpus(..., bootstrap=B, seed=seed)``, whose α and
    LAS replicates are then reused; otherwise they are computed once more.
    """

    if output not in OUTPUTS:
        raise ValueError(f"unknown output {output!r}; expected one of {OUTPUTS}")
    qa = qa_summary(result, worst=worst, variant=variant, bootstrap_replicates=bootstrap,
                    seed=seed, confidence=confidence, layers=layers, compare_to=compare_to,
                    with_replicates=(output == "json"))
    if output == "json":
        return json.dumps(qa, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    if output != "html":
        return render_tables(qa, output)
    rows = read_noise(noise) if isinstance(noise, (str, os.PathLike)) else noise
    return render_html(result, qa, rows, title=title, variant=variant,
                       max_sentences=max_sentences)


