"""The adjudication section of the HTML report (``synagree report --adjudicate``).

For every word of the worklist (docs/method.md §31.5) a choice between the
annotators' analyses (head and DEPREL), and two buttons that download the
adjudicated CoNLL-U and the decisions file, in the page (no server): the
page carries the consensus rows and, per choice, the row a curator's
decision writes, so the downloaded CoNLL-U is what ``synagree adjudicate
--decisions decisions.json`` writes from the downloaded decisions
(tests/test_adjudicate_browser.py checks it in a real browser).
"""
from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, cast

from markupsafe import Markup, escape

from synagree.agreement.adjudicate import AdjudicationResult
from synagree.io.conllu import DepSentence, to_conllu

__all__ = ["adjudication_section"]

_SCRIPT = """
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
  document.getElementById("adj-decisions").addEventListener("click", function () {
    var rows = chosen().map(function (c, k) {
      var r = Object.assign({}, data.rows[k].worklist);
      r.choose_annotator = c === null ? "" : c.annotator;
      return r;
    });
    save("decisions.json", JSON.stringify({worklist: rows}, null, 1) + "\\n");
  });
})();
"""


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
            who, _, rest = alt.rpartition(":")
            head, _, deprel = rest.partition("/")
            h = int(head)
            options.append({"annotator": who, "head": 0 if h == 0 else h - offset,
                            "deprel": deprel})
        misc = re.sub(r"(?<![^|])Adjudication=by:[a-z]+", "Adjudication=by:curator",
                      res.misc[k][word - offset - 1])
        rows.append({"sentence": k, "index": word - offset - 1, "options": options,
                     "misc": misc, "worklist": {key: ("" if v is None else v)
                                                for key, v in r.items()}})
    return rows


def adjudication_section(res: Optional[AdjudicationResult]) -> Markup:
    """The section's HTML (empty for None or a phrase-structure consensus)."""
    if res is None or res.kind != "dependency" or not all(
            isinstance(s, DepSentence) for s in res.consensus):
        return Markup("")
    rows = _rows(res)
    data = {"sentences": _sentences(res), "rows": rows}
    body = []
    for k, r in enumerate(rows):
        w = r["worklist"]
        opts = "".join(f'<option value="{i}">{escape(o["annotator"])}: head {o["head"]}, '
                       f'{escape(o["deprel"])}</option>' for i, o in enumerate(r["options"]))
        body.append(f'<tr><td>{escape(w["unit"])}</td><td>{w["word"]}</td>'
                    f'<td>{escape(w["form"])}</td><td>{escape(w["reason"])}</td>'
                    f'<td>{w["head"]} {escape(w["deprel"])}</td>'
                    f'<td><select class="adj-choice" data-row="{k}">'
                    f'<option value="">consensus</option>{opts}</select></td></tr>')
    payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return Markup(
        '<section id="adjudicate"><h2>Adjudication</h2>'
        f'<p>The consensus of every sentence (method §31) and the {len(rows)} word(s) of '
        'the worklist: choose an annotator\'s analysis where the consensus should change, '
        'then download the adjudicated CoNLL-U and the decisions file (what '
        '<code>synagree adjudicate --decisions decisions.json</code> applies).</p>'
        '<p><button id="adj-conllu" type="button">Download adjudicated CoNLL-U</button> '
        '<button id="adj-decisions" type="button">Download decisions</button></p>'
        '<div class="scroll"><table class="adj"><thead><tr><th>unit</th><th>word</th>'
        '<th>form</th><th>reason</th><th>consensus</th><th>choice</th></tr></thead><tbody>'
        + "".join(body) + '</tbody></table></div>'
        f'<script type="application/json" id="adj-data">{payload}</script>'
        f'<script>{_SCRIPT}</script></section>')
