"""The adjudication section of the HTML report (``synagree report --adjudicate``).

For every word of the worklist (docs/method.md §31.5) a choice between the
annotators' analyses (head and DEPREL), and two buttons that download the
adjudicated CoNLL-U and the decisions file, in the page (no server): the
page carries the consensus rows and, per choice, the row a curator's
decision writes, so the downloaded CoNLL-U is what ``synagree adjudicate
--decisions decisions.json`` writes from the downloaded decisions
(tests/test_adjudicate_browser.py checks it in a real browser).

Bracketed input (docs/method.md §31.6): for every unit of the worklist a
choice between the annotators' trees (``choose_annotator`` on the unit's
first worklist row), and buttons that download the adjudicated trees (one
a line) and the decisions file, with the same guarantee.
"""
from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple, cast

from markupsafe import Markup, escape

from synagree.agreement.adjudicate import AdjudicationResult, bracket_line
from synagree.io.brackets import PhraseSentence
from synagree.io.conllu import DepSentence, to_conllu
from synagree.io.corpus import Corpus

__all__ = ["adjudication_section"]

#: what both pages share: the data, saving a download, the choices, the decisions
_JS_HEAD = """
(function () {
  var data = JSON.parse(document.getElementById("adj-data").textContent);
  function save(name, text) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], {type: "text/plain"}));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
  function chosen() {
    var out = [];
    document.querySelectorAll("select.adj-choice").forEach(function (s) {
      out.push(s.value === "" ? null : data.rows[+s.dataset.row].options[+s.value]);
    });
    return out;
  }
"""
_JS_TAIL = """  document.getElementById("adj-decisions").addEventListener("click", function () {
    var rows = chosen().map(function (c, k) {
      var r = Object.assign({}, data.rows[k].worklist);
      r.choose_annotator = c === null ? "" : c.annotator;
      return r;
    });
    save("decisions.json", JSON.stringify({worklist: rows}, null, 1) + "\\n");
  });
})();
"""
_SCRIPT = _JS_HEAD + """
  document.getElementById("adj-conllu").addEventListener("click", function () {
    var sents = data.sentences.map(function (s) {
      return {comments: s.comments, words: s.words.map(function (w) { return w.slice(); })};
    });
    chosen().forEach(function (c, k) {
      if (c === null) return;
      var r = data.rows[k], w = sents[r.sentence].words[r.index];
      w[6] = String(c.head); w[7] = c.deprel; w[9] = r.misc;
    });
    save("adjudicated.conllu", sents.map(function (s) {
      return s.comments.concat(s.words.map(function (w) { return w.join("\\t"); }))
        .join("\\n") + "\\n\\n";
    }).join(""));
  });
""" + _JS_TAIL


def _sentences(res: AdjudicationResult) -> List[Dict[str, Any]]:
    """The consensus as comment lines and word rows of ten columns (`to_conllu`)."""
    out = []
    for k, sent in enumerate(res.consensus):
        dep = cast(DepSentence, sent)
        lines = to_conllu([dep], misc=[res.misc[k]], deps=[dep.deps]).rstrip("\n").split("\n")
        words = [ln.split("\t") for ln in lines if not ln.startswith("#")]
        out.append({"comments": [ln for ln in lines if ln.startswith("#")], "words": words})
    return out


def _rows(res: AdjudicationResult) -> List[Dict[str, Any]]:
    """Per word row of the worklist: where it is, the options, the curator's MISC."""
    starts: Dict[str, List[int]] = {}
    for k, uid in enumerate(res.unit_of):
        starts.setdefault(uid, []).append(k)
    rows = []
    for r in res.worklist_rows():
        if not r["word"]:
            continue  # whole units (split differently): decided in the decisions file
        word = int(r["word"])
        offset = 0
        for k in starts[r["unit"]]:
            sent = cast(DepSentence, res.consensus[k])
            if word <= offset + sent.n_words:
                break
            offset += sent.n_words
        options = []
        for alt in r["votes"].split(" "):
            # annotator:head/deprel, the deprel perhaps with a subtype (obl:agent)
            found = re.fullmatch(r"(.*):(\d+)/(.*)", alt)
            assert found is not None, alt  # as the worklist writes it
            who, h, deprel = found.group(1), int(found.group(2)), found.group(3)
            options.append({"annotator": who, "head": 0 if h == 0 else h - offset,
                            "deprel": deprel})
        misc = re.sub(r"(?<![^|])Adjudication=by:[a-z]+", "Adjudication=by:curator",
                      res.misc[k][word - offset - 1])
        rows.append({"sentence": k, "index": word - offset - 1, "options": options,
                     "misc": misc, "worklist": {key: ("" if v is None else v)
                                                for key, v in r.items()}})
    return rows


_PHRASE_SCRIPT = _JS_HEAD + """
  document.getElementById("adj-trees").addEventListener("click", function () {
    var lines = data.lines.slice();
    chosen().forEach(function (c, k) {
      if (c !== null) lines[data.rows[k].line] = c.tree;
    });
    save("adjudicated.tree", lines.map(function (l) { return l + "\\n"; }).join(""));
  });
""" + _JS_TAIL


def _section(intro: str, download: Tuple[str, str], headers: Sequence[str],
             cells: List[List[str]], options: List[List[str]], data: Dict[str, Any],
             script: str) -> Markup:
    """The section: the intro, the two buttons, one row of ``cells`` (HTML) and a
    choice between ``options`` (HTML) per worklist row, the data and the script."""
    body = []
    for k, (row, opts) in enumerate(zip(cells, options)):
        choice = "".join(f'<option value="{i}">{o}</option>' for i, o in enumerate(opts))
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in row)
                    + f'<td><select class="adj-choice" data-row="{k}">'
                    f'<option value="">consensus</option>{choice}</select></td></tr>')
    payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return Markup(
        f'<section id="adjudicate"><h2>Adjudication</h2><p>{intro}, then download the '
        f'adjudicated {download[1]} and the decisions file (what '
        '<code>synagree adjudicate --decisions decisions.json</code> applies).</p>'
        f'<p><button id="{download[0]}" type="button">Download adjudicated {download[1]}'
        '</button> <button id="adj-decisions" type="button">Download decisions</button></p>'
        '<div class="scroll"><table class="adj"><thead><tr>'
        + "".join(f"<th>{h}</th>" for h in (*headers, "choice")) + '</tr></thead><tbody>'
        + "".join(body) + '</tbody></table></div>'
        f'<script type="application/json" id="adj-data">{payload}</script>'
        f'<script>{script}</script></section>')


def _phrase_section(res: AdjudicationResult, corpus: Corpus) -> Markup:
    """The choices for bracketed input: one per unit of the worklist."""
    where = {uid: k for k, uid in enumerate(res.unit_of)}
    units = {u.uid: u for u in corpus.units}
    worklist = res.worklist_rows()
    lines = [bracket_line(cast(PhraseSentence, s)) for s in res.consensus]
    rows: List[Dict[str, Any]] = []
    cells: List[List[str]] = []
    for uid in dict.fromkeys(r["unit"] for r in worklist):
        u = units[uid]
        first = next(r for r in worklist if r["unit"] == uid)
        rows.append({"line": where[uid], "worklist": {k: ("" if v is None else v)
                                                      for k, v in first.items()},
                     "options": [{"annotator": a, "tree": bracket_line(
                         cast(PhraseSentence, u.annotations[a]))}
                         for a in corpus.annotators if a in u.annotations]})
        reasons = "; ".join(f"{r['reason']} {r['form']}".strip()
                            for r in worklist if r["unit"] == uid)
        cells.append([str(escape(uid)), str(escape(reasons)),
                      f"<code>{escape(lines[where[uid]])}</code>"])
    return _section(
        f"The consensus of every tree (method §31.6) and the {len(rows)} unit(s) of the "
        "worklist: choose an annotator's tree where the consensus should change",
        ("adj-trees", "trees"), ("unit", "worklist", "consensus"), cells,
        [[f'{escape(o["annotator"])}: {escape(o["tree"])}' for o in r["options"]]
         for r in rows], {"lines": lines, "rows": rows}, _PHRASE_SCRIPT)


def adjudication_section(res: Optional[AdjudicationResult],
                         corpus: Optional[Corpus] = None) -> Markup:
    """The section's HTML (empty for None; for a phrase-structure consensus, the
    annotators' trees come from ``corpus``, and without it the section is empty)."""
    if res is not None and res.kind == "phrase":
        return _phrase_section(res, corpus) if corpus is not None else Markup("")
    if res is None or res.kind != "dependency" or not all(
            isinstance(s, DepSentence) for s in res.consensus):
        return Markup("")
    rows = _rows(res)
    cells = [[str(escape(w["unit"])), str(w["word"]), str(escape(w["form"])),
              str(escape(w["reason"])), f'{w["head"]} {escape(w["deprel"])}']
             for w in (r["worklist"] for r in rows)]
    return _section(
        f"The consensus of every sentence (method §31) and the {len(rows)} word(s) of the "
        "worklist: choose an annotator's analysis where the consensus should change",
        ("adj-conllu", "CoNLL-U"), ("unit", "word", "form", "reason", "consensus"), cells,
        [[f'{escape(o["annotator"])}: head {o["head"]}, {escape(o["deprel"])}'
          for o in r["options"]] for r in rows],
        {"sentences": _sentences(res), "rows": rows}, _SCRIPT)
