"""The report adapts to what it shows (issue 27, items 2 and 3): two annotators get one
pair panel and no leave-one-out table, empty sections are left out with a note, and
drawings of 100-word sentences stay inside their panel in a real browser (headless
Chromium over the DevTools protocol, tests/browser.py; skipped without chromium),
with differences told by a dash pattern as well as by colour."""
from __future__ import annotations

import json
import os
import random
import re
import shutil
from pathlib import Path

import pytest
from browser import Browser, chromium_path
from PIL import Image
from test_html_report import THREE, page_facts

SAMPLE = Path(__file__).resolve().parents[1] / "synagree" / "data" / "en-sample"
A, B = SAMPLE / "ann_a" / "sample.conllu", SAMPLE / "ann_b" / "sample.conllu"


def sections(html: str) -> dict:
    """Section id -> its HTML (the ``<section>`` elements of ``<main>``)."""
    return {m.group(1): m.group(0) for m in
            re.finditer(r'<section id="([a-z]+)"[^>]*>.*?</section>', html, re.S)}


# --------------------------------------------------------------------------
# Two annotators, three annotators, empty sections
# --------------------------------------------------------------------------

def test_two_annotator_report_has_a_pair_panel_and_no_empty_section(run_cli, tmp_path):
    page = tmp_path / "two.html"
    rc, _, err = run_cli("report", A, B, "--bootstrap", "0", "-o", page, "-q")
    assert rc == 0, err
    html = page.read_text(encoding="utf-8")
    facts = page_facts(html)
    headings = [text for tag, text in facts["blocks"] if tag in ("h2", "h3")]
    assert "Leave one annotator out" not in headings
    assert "Mean distance to the other annotators" not in headings
    assert 'class="heatmap"' not in sections(html)["annotators"]
    assert '<figure class="pair"><figcaption>The pair: ann_a × ann_b' in html
    pair = next(t for t in facts["tables"] if t[0] == [["measure"], ["value"]])
    rows = {r[0][0]: r[1][0] for r in pair[1:]}
    from synagree.agreement.agree import agree

    res = agree([A, B])
    assert rows["α plain"] == f"{res.alpha['plain'].alpha:.4f}"
    assert rows["LAS_full"] == f"{res.scores.ratio('LAS_full'):.4f}"
    assert rows["sentences annotated by both"] == "40"
    notes = [text for tag, text in facts["blocks"] if tag in ("li", "p")]
    assert any(n.startswith("Pairwise heat maps, leave-one-annotator-out") for n in notes)
    assert any(n.startswith("Noise curves: no noise-experiment results") for n in notes)
    assert any(n.startswith("Change since a previous round: not asked for") for n in notes)
    # no section without content: every table has a row, every section more than a heading
    for t in facts["tables"]:
        assert len(t) > 1
    for sid, body in sections(html).items():
        if 'hidden' in body.split(">", 1)[0]:
            continue
        text = re.sub(r"<[^>]+>", " ", body)
        assert len(text.split()) > 8, sid
    assert 'id="noise"' not in html and 'id="comparison"' not in html
    # the table outputs: one pair table, no 2 x 2 matrices, no leave-one-out
    rc, md, _ = run_cli("report", A, B, "--bootstrap", "0", "--output", "markdown")
    assert "**Pair: ann_a × ann_b**" in md and "**Pairs: " not in md
    assert "Leave one annotator out" not in md and "pair is the corpus" in md


def test_three_annotators_keep_matrices_and_leave_one_out(run_cli, tmp_path):
    page = tmp_path / "three.html"
    rc, _, err = run_cli("report", *THREE, "--allow-missing", "--bootstrap", "0", "-o", page,
                         "-q")
    assert rc == 0, err
    html = page.read_text(encoding="utf-8")
    assert html.count('class="heatmap"') >= 6 and "Leave one annotator out" in html
    assert '<figure class="pair">' not in html


def test_phrase_report_says_why_it_has_no_token_layers(run_cli, tmp_path):
    qa = Path(__file__).resolve().parent / "data" / "qa"
    page = tmp_path / "p.html"
    rc, _, err = run_cli("report", qa / "phrase-a.tree", qa / "phrase-b.tree", "--bootstrap",
                         "0", "-o", page, "-q")
    assert rc == 0, err
    html = page.read_text(encoding="utf-8")
    assert 'id="layers"' not in html
    assert "Token layers: phrase-structure trees have none." in html


# --------------------------------------------------------------------------
# Long sentences in a real browser
# --------------------------------------------------------------------------

def long_dependency_pair(tmp: Path, n: int = 100) -> tuple:
    """Two annotations of one n-word sentence (and a short one); some heads and
    labels differ."""
    rng = random.Random(n)
    words = [f"w{i}" + "x" * rng.choice([0, 3, 8]) for i in range(1, n + 1)]
    heads = [0] + [rng.randint(max(1, i - 8), i - 1) for i in range(2, n + 1)]
    labels = ["root"] + [rng.choice(["nsubj", "obj", "obl", "nmod", "det"]) for _ in words[1:]]
    other_h, other_l = list(heads), list(labels)
    for i in range(6, n, 13):
        other_h[i] = max(1, heads[i] - 1)
    for i in range(4, n, 11):
        other_l[i] = "dep"
    paths = []
    for name, hs, ls in (("a", heads, labels), ("b", other_h, other_l)):
        lines = ["# sent_id = long", "# text = " + " ".join(words)]
        lines += ["\t".join([str(i), w, w, "X", "X", "_", str(h), lab, "_", "_"])
                  for i, (w, h, lab) in enumerate(zip(words, hs, ls), start=1)]
        lines += ["", "# sent_id = short", "1\ta\ta\tX\tX\t_\t0\troot\t_\t_",
                  "2\tb\tb\tX\tX\t_\t1\tobj\t_\t_", ""]
        p = tmp / f"{name}.conllu"
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(p)
    return tuple(paths)


def long_phrase_pair(tmp: Path, n: int = 100) -> tuple:
    def tree(seed):
        rng = random.Random(seed)

        def build(lo, hi):
            if hi - lo == 1:
                return f"(NN w{lo})"
            k = rng.randint(2, min(3, hi - lo))
            cuts = sorted(rng.sample(range(lo + 1, hi), k - 1))
            return "(" + rng.choice(["NP", "VP", "PP", "S"]) + " " + " ".join(
                build(a, b) for a, b in zip([lo] + cuts, cuts + [hi])) + ")"
        return f"(ROOT {build(0, n)})"

    paths = []
    for name, seed in (("a", 1), ("b", 2)):
        p = tmp / f"{name}.tree"
        p.write_text(tree(seed) + "\n" + tree(3) + "\n", encoding="utf-8")
        paths.append(p)
    return tuple(paths)


MEASURE = """(() => {
  const shown = [...document.querySelectorAll('.diagram')].filter(p => p.querySelector('svg'));
  const px = v => parseFloat(v);
  return {
    win: window.innerWidth, doc: document.documentElement.scrollWidth,
    panels: shown.map(p => {
      const r = p.getBoundingClientRect(), sec = p.closest('section').getBoundingClientRect();
      return {left: r.left, right: r.right, top: r.top + window.scrollY,
              bottom: r.bottom + window.scrollY, secRight: sec.right,
              overflow: getComputedStyle(p).overflowX, scrollW: p.scrollWidth,
              clientW: p.clientWidth, wide: p.classList.contains('wide'),
              note: !!(p.nextElementSibling && p.nextElementSibling.className === 'wide-note'),
              svgs: [...p.querySelectorAll('svg')].map(s => ({
                attr: px(s.getAttribute('width')), drawn: s.getBoundingClientRect().width}))};
    }),
    tokenFont: (() => { const t = document.querySelector('svg.dep .tok, svg.phrase .con text');
                        return t ? px(getComputedStyle(t).fontSize) : null; })(),
    diffStyle: [...document.querySelectorAll('.arc.diff, .edge.diff')].slice(0, 3).map(e => {
      const c = getComputedStyle(e); return [c.stroke, c.strokeDasharray, px(c.strokeWidth)]; }),
    sameStyle: [...document.querySelectorAll('path.arc:not(.diff), path.edge:not(.diff)')]
               .slice(0, 3).map(e => {
      const c = getComputedStyle(e); return [c.stroke, c.strokeDasharray, px(c.strokeWidth)]; }),
  };
})()"""


def background_outside(shot: Path, panels: list, width: int) -> list:
    """Pixels to the right of each panel's section, over the panel's rows, that are
    not the page background: drawing that ran out of its panel."""
    im = Image.open(shot).convert("RGB")
    bad = []
    for p in panels:
        x0 = int(p["secRight"]) + 3
        for y in range(int(p["top"]), min(int(p["bottom"]), im.height), 3):
            for x in range(x0, min(width, im.width), 2):
                if im.getpixel((x, y)) != (250, 250, 250):  # #fafafa, the page
                    bad.append((x, y, im.getpixel((x, y))))
                    break
    return bad


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["dependency", "phrase"])
def test_browser_100_word_sentence_stays_in_its_panel(kind, run_cli, tmp_path):
    if not chromium_path():
        pytest.skip("headless browser test skipped: no chromium (/usr/bin/chromium or "
                    "`chromium` on PATH); install it with `apt-get install -y chromium`")
    a, b = (long_dependency_pair if kind == "dependency" else long_phrase_pair)(tmp_path)
    page = tmp_path / f"long-{kind}.html"
    rc, _, err = run_cli("report", a, b, "--bootstrap", "0", "-o", page, "-q")
    assert rc == 0, err
    width = 1000
    with Browser() as br:
        br.open(page.as_uri(), width, 1200)
        m = br.eval(MEASURE)
        shot = br.screenshot(tmp_path / f"long-{kind}.png")
        errors = [c for c in br.console if c.get("type") == "error" or "exceptionDetails" in c]
    keep = os.environ.get("SYNAGREE_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)
    assert errors == [], errors
    assert m["doc"] <= m["win"] == width  # nothing widens the page
    long_panel = max(m["panels"], key=lambda p: p["scrollW"])
    assert long_panel["scrollW"] > long_panel["clientW"] * 2  # the drawing is wide ...
    for p in m["panels"]:
        assert p["overflow"] == "auto"  # ... and scrolls inside its panel,
        assert p["right"] <= p["secRight"] <= width  # which stays inside the page
        for s in p["svgs"]:
            assert s["drawn"] == pytest.approx(s["attr"], abs=1)  # drawn full size: legible
    assert long_panel["wide"] and long_panel["note"]  # the frame and the line that say so
    assert m["tokenFont"] >= 12
    assert background_outside(shot, m["panels"], width) == []
    # differences: colour AND a dash pattern and weight; agreeing lines solid and thin
    assert m["diffStyle"] and m["sameStyle"]
    for stroke, dash, w in m["diffStyle"]:
        assert stroke == "rgb(213, 94, 0)" and dash not in ("none", "") and w >= 2
    for stroke, dash, w in m["sameStyle"]:
        assert dash in ("none", "") and w < 2 and stroke != "rgb(213, 94, 0)"


def test_heat_map_colours_avoid_red_and_green(tmp_path, run_cli):
    page = tmp_path / "three.html"
    rc, _, err = run_cli("report", *THREE, "--allow-missing", "--bootstrap", "0", "-o", page,
                         "-q")
    assert rc == 0, err
    facts = page_facts(page.read_text(encoding="utf-8"))
    colours = {c[2] for t in facts["tables"] for r in t for c in r if len(c) > 2 and c[2]}
    assert colours
    for style in colours:
        m = re.search(r"#([0-9a-f]{6})|rgba\((\d+),(\d+),(\d+)", style)
        rgb = (tuple(int(m.group(1)[i:i + 2], 16) for i in (0, 2, 4)) if m.group(1)
               else tuple(int(m.group(k)) for k in (2, 3, 4)))
        r, g, b = rgb
        assert not (g > r + 60 and g > b + 60), style  # no green
        assert not (r > g + 120 and r > b + 120 and g < 80), style  # no pure red
    assert json.dumps(sorted(colours))  # (for the failure message)
