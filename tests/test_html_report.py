"""``synagree report``: the self-contained HTML report, checked in a real browser.

Headless Chromium (``chromium`` on PATH or /usr/bin/chromium; the browser
tests skip with a reason when it is absent) loads each report from disk,
runs its JavaScript, and dumps the DOM and a screenshot in one go; the tests
look for the highlighted arcs in the dumped DOM and for console messages
(uncaught errors, CSP refusals) on stderr.  Set ``SYNAGREE_SCREENSHOT_DIR``
to keep the screenshots.
"""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import time
from html import unescape as html_unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from synagree.agreement import qa
from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.agreement.report import qa_report
from synagree.cli.main import main
from synagree.render.html import build_report, read_noise, sentence_data

QA = Path(__file__).resolve().parent / "data" / "qa"
from conftest import SHARED_DATA as SHARED

IAA = SHARED / "iaa"
EWT_DEV = SHARED / "ud" / "en_ewt-ud-dev.conllu"
THREE = [QA / f"{n}.conllu" for n in ("anna", "bert", "cleo")]
MAX_BYTES = 3_000_000  # "under a few MB" at 1,000 sentences


def need_shared(path: Path = IAA):
    if not path.exists():
        pytest.skip(f"shared reference data not found at {path} (expected ../shared/data "
                    f"beside the project root)")


def chromium() -> str:
    for cand in (shutil.which("chromium"), "/usr/bin/chromium", shutil.which("chromium-browser"),
                 shutil.which("google-chrome")):
        if cand and os.path.exists(cand):
            return cand
    pytest.skip("headless browser test skipped: no chromium (/usr/bin/chromium or "
                "`chromium` on PATH); install it with `apt-get install -y chromium`")


def render(page: Path, tmp: Path, fragment: str = "", height: int = 2400):
    """Load ``page`` in headless Chromium; returns (dumped DOM, console lines, screenshot)."""
    exe = chromium()
    shot = tmp / (page.stem + ".png")
    profile = tmp / f"profile-{page.stem}"
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--no-first-run", "--disable-extensions", f"--user-data-dir={profile}",
           "--enable-logging=stderr", "--v=0", f"--window-size=1300,{height}",
           f"--screenshot={shot}", "--dump-dom", page.resolve().as_uri() + fragment]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    console = [line for line in proc.stderr.splitlines() if ":CONSOLE" in line]
    keep = os.environ.get("SYNAGREE_SCREENSHOT_DIR")
    if keep and shot.exists():
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)
    return proc.stdout, console, shot


def assert_self_contained(text: str):
    assert text.startswith("<!DOCTYPE html>")
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    assert not re.search(r"<link\b", text, re.I)
    assert not re.search(r"<script[^>]*\bsrc\s*=", text, re.I)
    for m in re.finditer(r"\b(?:src|href|xlink:href)\s*=\s*[\"']([^\"']*)", text, re.I):
        assert m.group(1).startswith(("#", "data:")), m.group(0)
    assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", text, re.I)
    assert "@import" not in text


def noise_csv(path: Path) -> Path:
    rows = ["series,p_relabel,p_reattach,run,alpha_plain,alpha_diff,alpha_norm,las"]
    for series in ("both", "relabel", "reattach"):
        for k in range(1, 11):
            p = k / 10
            pr = p if series in ("both", "relabel") else 0.0
            pa = p if series in ("both", "reattach") else 0.0
            for run in range(3):
                j = 0.01 * (run - 1)
                rows.append(f"{series},{pr},{pa},{run},{1 - 1.1 * p + j:.4f},"
                            f"{1 - 3 * p + j:.4f},{1 - 0.8 * p + j:.4f},{1 - p + j:.4f}")
    path.write_text("\n".join(rows) + "\n")
    return path


def body_ok(dom: str) -> bool:
    """The page's script ran to the end (``data-rendered``) and reported no error."""
    body = re.search(r"<body([^>]*)>", dom).group(1)
    return 'data-rendered="1"' in body and "data-js-error" not in body


class _PageFacts(HTMLParser):
    """What a reader of a report page gets besides the drawings: every table
    (cell text, tooltip, inline style), the headings, captions, notes and list
    items inside ``<main>``, the number of inline SVG figures and the embedded
    sentence data.  Markup details (attribute order, how a quote is escaped)
    do not count."""

    BLOCKS = ("h2", "h3", "figcaption", "summary", "li", "p", "label", "button")
    VOID = {"meta", "br", "img", "input", "link", "hr", "col", "source", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list = []
        self.tables: list = []
        self.blocks: list = []
        self.cell = self.block = None
        self.svgs = 0
        self.data = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "svg" in self.stack:
            self.stack.append(tag)
            return
        if tag not in self.VOID:
            self.stack.append(tag)
        if tag == "svg":
            self.svgs += 1
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = ["", a.get("title"), a.get("style")]
            self.tables[-1][-1].append(self.cell)
        elif tag in self.BLOCKS and "main" in self.stack:
            self.block = [tag, ""]
            self.blocks.append(self.block)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in self.VOID or tag not in self.stack:
            return
        while self.stack.pop() != tag:
            pass
        if tag in ("td", "th"):
            self.cell = None

    def handle_data(self, d):
        if not self.stack or self.stack[-1] == "style" or "svg" in self.stack:
            return
        if self.stack[-1] == "script":
            self.data += d if "synagree-data" in self.get_starttag_text() else ""
            return
        if self.cell is not None:
            self.cell[0] += d
        if self.block is not None and self.block[0] in self.stack:
            self.block[1] += d


class _Tags(HTMLParser):
    """The element names of a page."""

    def __init__(self):
        super().__init__()
        self.seen: set = set()

    def handle_starttag(self, tag, attrs):
        self.seen.add(tag)


def page_facts(html: str) -> dict:
    """:class:`_PageFacts` of a page, whitespace collapsed; a table cell is
    ``[text]``, or ``[text, title, style]`` when it has either."""
    p = _PageFacts()
    p.feed(html)
    p.close()
    norm = lambda s: re.sub(r"\s+", " ", s).strip()  # noqa: E731
    tables = [[[[norm(c[0])] + ([c[1], c[2]] if c[1] or c[2] else []) for c in r]
                for r in t] for t in p.tables]
    return {"tables": tables, "blocks": [[t, norm(x)] for t, x in p.blocks],
            "svgs": p.svgs, "data": json.loads(p.data)}


def sentence_payload(html: str) -> dict:
    m = re.search(r'<script id="synagree-data" type="application/json">(.*?)</script>', html,
                  re.S)
    return json.loads(m.group(1))


# --------------------------------------------------------------------------
# Reports built once per module
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return tmp_path_factory.mktemp("reports")


@pytest.fixture(scope="module")
def three_report(out):
    csv = noise_csv(out / "noise.csv")
    page = out / "three.html"
    rc = main(["report", *map(str, THREE), "--allow-missing", "--bootstrap", "100",
               "--noise", str(csv), "-o", str(page), "-q"])
    assert rc == 0
    return page


@pytest.fixture(scope="module")
def cdt_report(out):
    need_shared()
    page = out / "cdt-da.html"
    rc = main(["report", str(IAA / "cdt" / "da-lotte.conll"), str(IAA / "cdt" / "da-morten.conll"),
               "--bootstrap", "200", "-o", str(page), "-q", "--title", "CDT Danish"])
    assert rc == 0
    return page


@pytest.fixture(scope="module")
def ewt_1000(out):
    """EWT dev (first 1,000 sentences) against a copy with some heads and labels
    changed by a seeded RNG (reattachments keep a tree: the new head is never a
    descendant of the word)."""
    need_shared(EWT_DEV)
    blocks = [b for b in EWT_DEV.read_text(encoding="utf-8").split("\n\n") if b.strip()][:1000]
    rng = random.Random(2024)
    word = lambda line: line and not line.startswith("#") and line.split("\t")[0].isdigit()  # noqa
    labels = sorted({ln.split("\t")[7] for b in blocks for ln in b.split("\n") if word(ln)})
    copy = []
    for b in blocks:
        lines = b.split("\n")
        ids = [i for i, ln in enumerate(lines) if word(ln)]
        heads = [int(lines[i].split("\t")[6]) for i in ids]
        for k, i in enumerate(ids):
            cols = lines[i].split("\t")
            if rng.random() < 0.05:
                cols[7] = rng.choice(labels)
            if rng.random() < 0.05:
                desc, grew = {k + 1}, True
                while grew:
                    grew = False
                    for j, h in enumerate(heads, start=1):
                        if j not in desc and h in desc:
                            desc.add(j)
                            grew = True
                heads[k] = rng.choice([h for h in range(len(ids) + 1) if h not in desc])
                cols[6] = str(heads[k])
            lines[i] = "\t".join(cols)
        copy.append("\n".join(lines))
    (out / "ewt").mkdir()
    a, b = out / "ewt" / "gold.conllu", out / "ewt" / "noisy.conllu"
    a.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    b.write_text("\n\n".join(copy) + "\n\n", encoding="utf-8")
    page = out / "ewt1000.html"
    t0 = time.perf_counter()
    rc = main(["report", str(a), str(b), "--bootstrap", "100", "-o", str(page), "-q"])
    elapsed = time.perf_counter() - t0
    assert rc == 0
    return page, elapsed


# --------------------------------------------------------------------------
# Content checks (no browser)
# --------------------------------------------------------------------------

@pytest.mark.slow
def test_fixture_report_content(three_report):
    html = three_report.read_text(encoding="utf-8")
    assert_self_contained(html)
    for sid in ("summary", "annotators", "layers", "noise", "sentences"):
        assert f'id="{sid}"' in html
    assert "Davies &amp; Fleiss κ" in html and re.search(r"Fleiss&#(x27|39); κ", html)
    assert html.count('<figure class="noise"') == 3 and html.count("<svg") >= 3
    data = sentence_payload(html)
    assert data["annotators"] == ["anna", "bert", "cleo"]
    assert [s["id"] for s in data["sentences"]][0] == "s1"
    s1 = data["sentences"][0]
    assert s1["c"] == pytest.approx(1.0) and s1["x"] == [2]
    assert [data["labels"][i] for i in s1["l"][2]] == ["root", "subj"]
    # pairwise α 4/9 in the heat map, hand value (tests/test_qa.py)
    assert "0.444" in html
    # written atomically: no temporary files left, ordinary permissions
    assert not [p for p in three_report.parent.iterdir() if p.name.endswith(".tmp")]
    um = os.umask(0)
    os.umask(um)
    assert three_report.stat().st_mode & 0o777 == 0o666 & ~um


@pytest.mark.parametrize("files", [("cdt/en-lotte.conll", "cdt/en-morten.conll"),
                                   ("ndt/odin-swedish.conll", "ndt/thor-swedish.conll")])
@pytest.mark.slow
def test_report_on_shared_data(files):
    need_shared()
    rep = qa_report(load_corpus([IAA / f for f in files]), bootstrap=100)
    res = rep.agreement
    html = build_report(rep, "html")
    assert_self_contained(html)
    data = sentence_payload(html)
    assert len(data["sentences"]) == res.units
    worst = qa.worst_units(res, 5)
    assert [s["id"] for s in data["sentences"][:5]] == [w.label for w in worst]
    # two annotators: one pair panel, no 2 x 2 heat maps (tests/test_report_layout.py)
    assert '<figure class="pair">' in html and "pairwise α plain" not in html
    assert "Specific agreement per category" in html and "Confusion matrix" in html
    # the table outputs of the same report
    for fmt in ("markdown", "csv", "latex"):
        text = build_report(rep, fmt)
        assert "alpha_plain" in text and worst[0].label in text
    d = json.loads(build_report(rep, "json"))
    assert d["worst"]["units"][0]["uid"] == worst[0].uid
    assert d["pairs"]["alpha_plain"][0][1] == pytest.approx(res.alpha["plain"].alpha)
    assert d["alpha_plain"] == pytest.approx(res.alpha["plain"].alpha)  # agree's keys on top
    assert d["bootstrap"]["metrics"]["alpha_plain"]["low"] is not None


def test_noise_reader(tmp_path):
    rows = read_noise(noise_csv(tmp_path / "n.csv"))
    assert len(rows) == 90 and rows[0]["p"] == pytest.approx(0.1)
    reattach = [r for r in rows if r["series"] == "reattach"]
    assert reattach[-1]["p"] == pytest.approx(1.0) and reattach[-1]["p_relabel"] == 0
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    assert main(["report", *map(str, THREE), "--allow-missing", "--noise", str(bad)]) == 2


def test_cli_outputs_and_compare(tmp_path, capsys):
    files = [str(f) for f in THREE]
    prev = tmp_path / "round1.json"
    assert main(["report", *files, "--allow-missing", "--bootstrap", "60", "-o", str(prev),
                 "-q"]) == 0  # format from the suffix
    d = json.loads(prev.read_text())
    assert "bootstrap" in d and d["details"]["per_unit"]["ids"]
    assert main(["report", *files, "--allow-missing", "--bootstrap", "60",
                 "--baseline", str(prev), "--output", "markdown", "--test-replicates",
                 "100"]) == 0
    text = capsys.readouterr().out
    assert "Change since the previous round" in text
    row = [line for line in text.splitlines() if line.startswith("| alpha_plain |")][-1]
    assert row.rstrip().endswith("| no |")  # the same round again: no change
    page = tmp_path / "cmp.html"
    assert main(["report", *files, "--allow-missing", "--compare-to",  # the old spelling
                 str(prev), "-o", str(page), "-q", "--test-replicates", "100"]) == 0
    assert 'id="comparison"' in page.read_text()
    for fmt, needle in (("csv", "table,row,column,value"), ("latex", "\\begin{tabular}")):
        assert main(["report", *files, "--allow-missing", "--bootstrap", "0",
                     "--output", fmt]) == 0
        assert needle in capsys.readouterr().out
    # bad input: exit status 2 with a message, never a traceback
    assert main(["report", *files, "--allow-missing", "--compare-to",
                 str(tmp_path / "missing.json")]) == 2
    assert main(["report", *files, "--allow-missing", "--baseline-top", "3"]) == 2
    (tmp_path / "junk.json").write_text("{not json")
    assert main(["report", *files, "--allow-missing", "--compare-to",
                 str(tmp_path / "junk.json")]) == 2
    assert main(["report"]) == 2
    assert main(["report", *files, "--allow-missing", "--layers", "bogus"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "unknown layer" in err


# --------------------------------------------------------------------------
# In the browser
# --------------------------------------------------------------------------

@pytest.mark.slow
def test_browser_fixture_report(three_report, out):
    dom, console, shot = render(three_report, out)
    assert console == [], console
    assert body_ok(dom)
    # every sentence is listed; s1 (the only disagreement) is open and drawn
    assert len(re.findall(r'<details class="sent"', dom)) == 3
    diagrams = re.findall(r'<svg class="dep[^"]*"', dom)
    assert len(diagrams) >= 3 + 2  # s1, s2, s3 open: three annotators stacked / two mirrored
    # the differing arc: word 2 of s1 (label obj/obj/subj) in every annotator's tree
    arcs = re.findall(r'<path[^>]*class="arc diff[^"]*"[^>]*data-word="2"', dom)
    assert len(arcs) == 3 and all("diff-label" in a and "diff-head" not in a for a in arcs)
    assert re.search(r'<text[^>]*class="lab diff"[^>]*>subj</text>', dom)
    assert re.search(r'class="tok diff"[^>]*>apples<', dom)
    # agreeing arcs are not highlighted
    assert re.search(r'<path[^>]*class="arc"[^>]*data-word="1"', dom)
    assert dom.count("<figure class=\"noise\"") == 3
    assert shot.exists() and shot.stat().st_size > 10_000


@pytest.mark.slow
def test_browser_filter_from_link(three_report, out):
    dom, console, _ = render(three_report, out, fragment="#q=birds")
    assert console == []
    rows = re.findall(r'<details class="sent"[^>]*data-id="([^"]+)"', dom)
    assert rows == ["s2"]
    assert "1 of 3 sentences" in dom


@pytest.mark.slow
def test_browser_cdt_report(cdt_report, out):
    html = cdt_report.read_text(encoding="utf-8")
    assert_self_contained(html)
    dom, console, shot = render(cdt_report, out, height=3200)
    assert console == [], console
    assert body_ok(dom)
    drawn = re.findall(r'<svg class="dep mirrored"', dom)
    assert len(drawn) == 5  # the five worst sentences are open; the rest lazy
    diff_arcs = re.findall(r'<path[^>]*class="arc diff', dom)
    assert len(diff_arcs) >= 10
    assert "diff-head" in dom and "diff-label" in dom
    assert len(re.findall(r'<details class="sent"', dom)) == 40  # first batch only
    assert shot.stat().st_size > 50_000


@pytest.mark.slow
def test_ewt_1000_sentence_report(ewt_1000, out):
    page, elapsed = ewt_1000
    size = page.stat().st_size
    assert size < MAX_BYTES, f"report is {size / 1e6:.2f} MB"
    html = page.read_text(encoding="utf-8")
    assert_self_contained(html)
    data = sentence_payload(html)
    assert len(data["sentences"]) == 1000
    assert data["sentences"][0]["c"] >= data["sentences"][-1]["c"]
    t0 = time.perf_counter()
    dom, console, _ = render(page, out)
    browser_s = time.perf_counter() - t0
    assert console == [], console
    assert body_ok(dom)
    assert len(re.findall(r'<details class="sent"', dom)) == 40
    assert len(re.findall(r'<svg class="dep mirrored"', dom)) == 5
    assert "arc diff" in dom
    print(f"\nEWT 1,000 sentences: report {size / 1e6:.2f} MB, built in {elapsed:.1f} s, "
          f"rendered in {browser_s:.1f} s")


def test_assets_inline_safely(monkeypatch):
    """The page's assets come from the package (importlib.resources); one that
    would end its <style>/<script> element early is refused, not inlined."""
    from synagree.render import html as page

    assert "function drawPhrase" in page._asset("report.js")
    assert "svg.phrase" in page._asset("report.css")
    page._inline.cache_clear()
    monkeypatch.setattr(page, "_asset", lambda name: "var x = '</SCRIPT><b>';")
    with pytest.raises(ValueError, match="cannot be inlined"):
        page._inline("report.js", "</script")
    page._inline.cache_clear()


@pytest.mark.slow
def test_sentence_data_limit(three_report):
    corpus = load_corpus(THREE, allow_missing=True)
    res = agree_corpus(corpus)
    d = sentence_data(res, "plain", limit=1)
    assert len(d["sentences"]) == 1 and d["total"] == 3


@pytest.mark.slow
def test_browser_tokenisation_mismatch_and_phrase_trees(tmp_path):
    """Annotations with different word counts are drawn one tree per annotator
    (no word-by-word highlighting); bracketed trees are drawn as trees, with the
    brackets below (see test_browser_phrase_trees)."""
    a, b = tmp_path / "x.conllu", tmp_path / "y.conllu"
    a.write_text("# text = New York rocks\n1\tNew\t_\tX\tX\t_\t2\tcompound\t_\t_\n"
                 "2\tYork\t_\tX\tX\t_\t3\tnsubj\t_\t_\n3\trocks\t_\tX\tX\t_\t0\troot\t_\t_\n\n")
    b.write_text("# text = New York rocks\n1\tNew_York\t_\tX\tX\t_\t2\tnsubj\t_\t_\n"
                 "2\trocks\t_\tX\tX\t_\t0\troot\t_\t_\n\n")
    page = tmp_path / "tok.html"
    assert main(["report", str(a), str(b), "--bootstrap", "0", "-o", str(page), "-q"]) == 0
    dom, console, _ = render(page, tmp_path)
    assert console == [] and body_ok(dom)
    assert len(re.findall(r'<svg class="dep"', dom)) == 2
    assert "tokenised this sentence differently" in dom and "arc diff" not in dom
    page2 = tmp_path / "phrase.html"
    assert main(["report", str(QA / "phrase-a.tree"), str(QA / "phrase-b.tree"),
                 "--bootstrap", "40", "-o", str(page2), "-q"]) == 0
    dom, console, _ = render(page2, tmp_path)
    assert console == [] and body_ok(dom)
    assert '<pre class="brackets">phrase-a: (S (NP D N)' in dom
    assert len(re.findall(r'<svg class="phrase"', dom)) == 6


# --------------------------------------------------------------------------
# Phrase-structure trees
# --------------------------------------------------------------------------

def labelled_brackets(text: str) -> list:
    """Independent of synagree: the nodes of a bracketed tree with bare leaves,
    ``(S (NP D N) V)``, in preorder as ``(label, first leaf, last leaf, is leaf)``."""
    tokens = re.findall(r"\(|\)|[^\s()]+", text)
    nodes, stack, leaf, pos = [], [], 0, 0
    while pos < len(tokens):
        tok = tokens[pos]
        if tok == "(":
            stack.append(len(nodes))
            nodes.append([tokens[pos + 1], leaf, None, False])
            pos += 2
            continue
        if tok == ")":
            nodes[stack.pop()][2] = leaf - 1
        else:
            nodes.append([tok, leaf, leaf, True])
            leaf += 1
        pos += 1
    return [tuple(n) for n in nodes]


def drawn_constituents(svg: str) -> list:
    """``(label, first, last, classes, rect x, rect y, rect width)`` of every
    constituent drawn in one ``<svg class="phrase">`` (leaf numbers 0-based)."""
    out = []
    for m in re.finditer(r'<g class="(con[^"]*)" data-span="(\d+)-(\d+)" data-label="([^"]*)">'
                         r'<rect x="([-\d.e]+)" y="([-\d.e]+)" width="([\d.e]+)"', svg):
        cls, a, b, lab, x, y, w = m.groups()
        out.append((html_unescape(lab), int(a) - 1, int(b) - 1, cls.split(), float(x), float(y),
                    float(w)))
    return out


def phrase_svgs(dom: str) -> list:
    return re.findall(r'<svg class="phrase"[^>]*data-annotator="([^"]*)"[^>]*>(.*?)</svg>', dom,
                      re.S)


def check_phrase_drawing(dom: str, data: dict):
    """Every opened phrase-structure sentence: one tree per annotation, its
    constituents those of the brackets, marked ``diff`` exactly when their
    labelled bracket is missing from another annotation, leaves left to right,
    and no two labels of a row overlapping."""
    svgs = phrase_svgs(dom)
    opened = data["sentences"][:len(svgs) // 2]
    assert len(svgs) == sum(len(s["a"]) for s in opened) > 0
    k = 0
    for s in opened:
        trees = [labelled_brackets(b) for b in s["b"]]
        keys = [{(lab, a, b) for lab, a, b, _ in t} for t in trees]
        for j, t in enumerate(trees):
            name, svg = svgs[k]
            k += 1
            assert html_unescape(name) == data["annotators"][s["a"][j]]
            drawn = drawn_constituents(svg)
            assert [(lab, a, b) for lab, a, b, *_ in drawn] == [n[:3] for n in t]
            for (lab, a, b, leaf), (_, _, _, cls, *_) in zip(t, drawn):
                missing = any((lab, a, b) not in keys[o] for o in range(len(trees)) if o != j)
                assert ("diff" in cls) == missing, (s["id"], lab, a, b)
                assert ("leaf" in cls) == leaf
            leaves = [d for d in drawn if "leaf" in d[3]]
            centres = [x + w / 2 for *_, x, _, w in leaves]
            assert [d[1] for d in leaves] == list(range(len(leaves)))
            assert centres == sorted(centres) and len(set(centres)) == len(centres)
            rows: dict = {}
            for *_, x, y, w in drawn:
                rows.setdefault(y, []).append((x, x + w))
            for boxes in rows.values():
                boxes.sort()
                assert all(b0[1] <= b1[0] + 0.5 for b0, b1 in zip(boxes, boxes[1:])), boxes


@pytest.mark.slow
def test_browser_phrase_trees(tmp_path):
    """A phrase-structure pair: each opened sentence is drawn as one SVG tree per
    annotator, the constituents that are not in the other tree marked ``diff``
    (with red edges into them), agreeing ones not."""
    page = tmp_path / "phrase.html"
    assert main(["report", str(QA / "phrase-a.tree"), str(QA / "phrase-b.tree"),
                 "--bootstrap", "0", "-o", str(page), "-q"]) == 0
    html = page.read_text(encoding="utf-8")
    assert_self_contained(html)
    dom, console, shot = render(page, tmp_path)
    assert console == [], console
    assert body_ok(dom)
    data = sentence_payload(html)
    assert [s["id"] for s in data["sentences"]] == ["1", "3", "2"]
    check_phrase_drawing(dom, data)
    svgs = phrase_svgs(dom)
    assert len(svgs) == 6  # three sentences, all opened, two annotators each
    # sentence 1: (VP V (NP D N)) against (VP V (NP D) N)
    assert [c[:3] for c in drawn_constituents(svgs[0][1]) if "diff" in c[3]] == [("NP", 3, 4)]
    assert [c[:3] for c in drawn_constituents(svgs[1][1]) if "diff" in c[3]] == [("NP", 3, 3)]
    assert len(re.findall(r'class="edge diff"', svgs[0][1])) == 1
    # sentence 2 (ranked last): the same tree twice, nothing marked
    assert "diff" not in svgs[4][1] + svgs[5][1]
    assert "Constituents not in every tree" in dom and "NP 4\u20135 (not in phrase-b)" in dom
    assert shot.stat().st_size > 10_000


def long_tree(n: int, seed: int, hostile: str, penn: bool = True) -> str:
    """A deterministic tree over ``n`` leaves: phrases nested at random by
    ``seed``, long labels, a hostile label, and every 17th tag from the 6th on
    changed for an odd ``seed``; Penn style with words (the same for every
    ``seed``; long ones and a hostile one) or delexicalised (bare tags)."""
    pad = random.Random(n)
    words = [f"w{i}" + "x" * pad.choice([0, 0, 3, 9]) for i in range(n)]
    words[n // 2] = hostile
    tags = ["DT", "NN", "VBZ", "IN", "JJ", "NNP-LONG-TAG", hostile]
    rng = random.Random(seed)

    def build(lo, hi):
        if hi - lo == 1:
            tag = tags[(lo + (seed % 2 == 1 and lo % 17 == 5)) % len(tags)]
            return f"({tag} {words[lo]})" if penn else tag
        k = rng.randint(2, min(4, hi - lo))
        cuts = sorted(rng.sample(range(lo + 1, hi), k - 1))
        parts = [build(a, b) for a, b in zip([lo] + cuts, cuts + [hi])]
        label = rng.choice(["NP", "VP", "PP", "S", "SBAR-ADV-2", "ADJP"])
        return f"({label} {' '.join(parts)})"

    return f"(ROOT {build(0, n)})"


@pytest.mark.slow
@pytest.mark.parametrize("style", ["penn", "delex"])
def test_browser_long_phrase_trees(tmp_path, style):
    """Sentences of 40 and 80 leaves with long labels stay readable (no two labels
    of a row overlap; the words sit under their leaves; the diagram scrolls
    sideways), differing leaves are marked too, and hostile labels and words
    are drawn as text."""
    hostile = "<img/src=x/onerror=document.body.dataset.pwned=1>"  # (no spaces, brackets)
    penn = style == "penn"
    # and a short tree whose long labels sit closer than their widths over short leaves
    dense = ("(ROOT (S (SBAR-ADV-2 (X a) (X b)) (SBAR-ADV-2 (X c) (X d)) (NP-SBJ-LONG (X e))))"
             if penn else "(ROOT (S (SBAR-ADV-2 X X) (SBAR-ADV-2 X X) (NP-SBJ-LONG X)))")
    a, b = tmp_path / "a.tree", tmp_path / "b.tree"
    for f, shift in ((a, 0), (b, 1)):
        f.write_text("\n".join([long_tree(n, n + shift, hostile, penn) for n in (80, 40)]
                               + [dense]) + "\n", encoding="utf-8")
    page = tmp_path / "long.html"
    assert main(["report", str(a), str(b), "--phrase-style", style, "--bootstrap", "0",
                 "-o", str(page), "-q"]) == 0
    html = page.read_text(encoding="utf-8")
    assert_self_contained(html)
    dom, console, _ = render(page, tmp_path)
    assert console == [], console
    assert body_ok(dom) and "data-pwned" not in re.search(r"<body[^>]*>", dom).group(0)
    tags = _Tags()
    tags.feed(dom)
    assert "img" not in tags.seen and "svg" in tags.seen
    data = sentence_payload(html)
    check_phrase_drawing(dom, data)
    svgs = phrase_svgs(dom)
    assert len(svgs) == 6 and [s["id"] for s in data["sentences"]][2] == "3"
    for _, svg in svgs[:4]:
        drawn = drawn_constituents(svg)
        leaves = [x + w / 2 for lab, a0, b0, cls, x, y, w in drawn if "leaf" in cls]
        assert len(leaves) in (40, 80)
        assert any("leaf" in c[3] and "diff" in c[3] for c in drawn)  # the changed tags
        assert any("leaf" not in c[3] and "diff" in c[3] for c in drawn)
        words = re.findall(r'<text x="([\d.e]+)"[^>]*class="word">([^<]*)</text>', svg)
        if penn:
            assert [float(x) for x, _ in words] == pytest.approx(leaves)
            assert html_unescape(words[len(words) // 2][1]) == hostile
        else:
            assert words == []
    width = int(re.search(r'<svg class="phrase" width="(\d+)"', dom).group(1))
    assert width > 1300  # wider than the window: the diagram scrolls
    assert re.search(r"\.diagram\{overflow-x:auto", html)


# --------------------------------------------------------------------------
# The page says what it said before (tables, notes, data)
# --------------------------------------------------------------------------

GOLDEN = QA / "report-facts.json"


def golden_pages(tmp: Path) -> dict:
    """The pages whose :func:`page_facts` are kept in ``tests/data/qa/report-facts.json``
    (seeded bootstrap: the numbers are reproducible)."""
    files = [str(f) for f in THREE]
    prev = tmp / "round1.json"
    assert main(["report", *files, "--allow-missing", "--bootstrap", "50", "--seed", "1",
                 "-o", str(prev), "-q"]) == 0
    pages = {}
    for name, args in (
            ("three", [*files, "--allow-missing", "--noise", str(noise_csv(tmp / "noise.csv")),
                       "--compare-to", str(prev), "--title", 'Three <b>"annotators"</b> & co']),
            ("phrase", [str(QA / "phrase-a.tree"), str(QA / "phrase-b.tree")])):
        page = tmp / f"{name}.html"
        assert main(["report", *args, "--bootstrap", "50", "--seed", "1", "-o", str(page),
                     "-q"]) == 0
        pages[name] = page_facts(page.read_text(encoding="utf-8"))
    return pages


def dump_facts(pages: dict) -> str:
    """JSON with one table row, block or sentence per line (readable diffs)."""
    def one(x):
        return json.dumps(x, ensure_ascii=False, separators=(",", ":"))

    out = []
    for name, f in pages.items():
        tables = ",\n".join("  [\n" + ",\n".join("   " + one(r) for r in t) + "\n  ]"
                            for t in f["tables"])
        blocks = ",\n".join("  " + one(b) for b in f["blocks"])
        d = f["data"]
        head = one({k: v for k, v in d.items() if k != "sentences"})
        sents = ",\n".join("  " + one(s) for s in d["sentences"])
        out.append(f'{one(name)}: {{"svgs": {f["svgs"]},\n "tables": [\n{tables}\n ],\n'
                   f' "blocks": [\n{blocks}\n ],\n "data": {head[:-1]}, "sentences": [\n'
                   f'{sents}\n ]}}}}')
    return "{" + ",\n".join(out) + "}\n"


@pytest.mark.slow
def test_report_facts_unchanged(tmp_path):
    """Every table cell (with its tooltip and colour), heading, caption and note
    of the page, and the embedded sentence data, as recorded from the page
    before its templates moved to files.  Keys added to a sentence's data are
    allowed; changed or removed ones are not.  After an intended change of the
    page, rewrite the record with ``SYNAGREE_UPDATE_GOLDEN=1`` and review its
    diff."""
    pages = golden_pages(tmp_path)
    if os.environ.get("SYNAGREE_UPDATE_GOLDEN"):
        GOLDEN.write_text(dump_facts(pages), encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for name, facts in want.items():
        got = pages[name]
        for key in ("blocks", "svgs"):
            assert got[key] == facts[key], (name, key)
        assert len(got["tables"]) == len(facts["tables"])
        for i, (g, w) in enumerate(zip(got["tables"], facts["tables"])):
            assert g == w, (name, f"table {i}")
        gd, wd = got["data"], facts["data"]
        assert {k: v for k, v in gd.items() if k != "sentences"} == \
               {k: v for k, v in wd.items() if k != "sentences"}
        assert len(gd["sentences"]) == len(wd["sentences"])
        for g, w in zip(gd["sentences"], wd["sentences"]):
            assert {k: g.get(k) for k in w} == w, (name, w["id"])
