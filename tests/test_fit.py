"""Text tables fit the terminal (synagree/render/fit.py); intervals over fewer than
30 sentences say so in every format; token layers that look like ids are left out
unless asked for by name (issue 27, items 4 and 5)."""
from __future__ import annotations

import csv
import io
import json
import re
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import conll_text
from synagree.render.fit import ELLIPSIS, cell_width, fit_rows, layout, text_columns

# --------------------------------------------------------------------------
# fit_rows on its own
# --------------------------------------------------------------------------

words = st.text(alphabet=st.sampled_from(list("abcdefgh ijkl–日本é")), min_size=0,
                max_size=60)
numbers = st.from_regex(r"[+-]?\d{1,3}\.\d{2,4}%?", fullmatch=True)


def independent_width(s: str) -> int:
    """Display columns, written apart from fit.cell_width: East Asian W/F count 2."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4), st.integers(0, 3), st.lists(st.integers(0, 10**6), min_size=1,
                                                       max_size=6), st.integers(30, 140),
       st.data())
@pytest.mark.slow
def test_fit_rows_fits_and_only_cuts_text(n_text, n_num, seeds, width, data):
    header = [f"text column {i}" for i in range(n_text)] + [f"n{i}" for i in range(n_num)]
    rows = [[data.draw(words) for _ in range(n_text)] + [data.draw(numbers)
                                                         for _ in range(n_num)]
            for _ in seeds]
    text = list(range(n_text))
    h, body = fit_rows(header, rows, text, width)
    lines = layout(h, body)
    fixed = sum(max(independent_width(r[i]) for r in rows) for i in range(n_text, len(header)))
    floors = sum(min(max(independent_width(r[i]) for r in rows + [header]), 6 if i else 6)
                 for i in text)
    if fixed + floors + 2 * (len(header) - 1) + 6 * n_text <= width:
        assert max(independent_width(line) for line in lines) <= width, lines
    for r, orig in zip(body, rows):
        for i in range(n_text, len(header)):
            assert r[i] == orig[i]  # numbers are never cut
        for i in text:
            if r[i] != orig[i]:  # cut: a prefix of the words, then the ellipsis
                assert r[i].endswith(ELLIPSIS)
                assert orig[i].startswith(r[i][:-1].rstrip())
    if max(independent_width(line) for line in layout(header, rows)) <= width:
        assert (h, body) == (header, rows)  # a table that fits is left alone


def test_cell_width_and_text_columns():
    assert cell_width("日本語") == 6 == independent_width("日本語")
    assert text_columns(["a", "b", "c"], [["x y", "0.5 [0.1, 0.9]", "–"]]) == [0]


# --------------------------------------------------------------------------
# synagree agree A B --worst 5
# --------------------------------------------------------------------------

#: a cut cell (the list of differing words ends in "… (N words)" by design)
CUT = re.compile(ELLIPSIS + r"(?! \(\d+ words\))")


@pytest.mark.slow
def test_agree_worst_lines_fit(run_cli, iaa, monkeypatch, tmp_path):
    """Written to a pipe or a file the worst table is whole; on a terminal it fits
    the terminal, the cut cells marked with … and one note saying how to see them."""
    monkeypatch.setenv("COLUMNS", "100")  # ignored when stdout is not a terminal
    for pair in (("cdt/da-lotte.conll", "cdt/da-morten.conll"),
                 ("cdt/en-lotte.conll", "cdt/en-morten.conll")):
        rc, js, _ = run_cli("agree", *(iaa / p for p in pair), "--worst", "5", "--output",
                            "json")
        worst = json.loads(js)["details"]["worst"]
        rc, out, err = run_cli("agree", *(iaa / p for p in pair), "--worst", "5")
        assert rc == 0, err
        start = out.index("The 5 sentences")
        assert not CUT.search(out[start:]) and "were cut" not in err
        for u in worst:  # every text, document and sentence id whole
            assert u["text"] in out and u["document"] in out
        with monkeypatch.context() as m:
            m.setattr(sys.stdout, "isatty", lambda: True)
            rc, out, err = run_cli("agree", *(iaa / p for p in pair), "--worst", "5")
            lines = out[out.index("The 5 sentences"):].splitlines()
            assert max(len(line) for line in lines) <= 100  # the terminal's width
            assert any(CUT.search(line) for line in lines)  # the text was cut ...
            assert err.count("were cut to fit the terminal (100 columns)") == 1  # ... said once
            m.setenv("COLUMNS", "130")  # a wider terminal shows more of the text
            rc, out, _ = run_cli("agree", *(iaa / p for p in pair), "--worst", "5")
            start = out.index("The 5 sentences")
            assert 100 < max(len(line) for line in out[start:].splitlines()) <= 130
            page = tmp_path / "worst.txt"  # -o FILE: whole, whatever the terminal
            rc, _, err = run_cli("agree", *(iaa / p for p in pair), "--worst", "5", "-o", page)
            text = page.read_text(encoding="utf-8")
            assert rc == 0 and all(u["text"] in text for u in worst) and "were cut" not in err


# --------------------------------------------------------------------------
# small samples
# --------------------------------------------------------------------------

SMALL = "small sample"


@pytest.fixture
def two_sentences(tmp_path):
    a = [[(2, "nsubj"), (0, "root"), (2, "obj")], [(0, "root"), (1, "obj"), (1, "obl")]]
    b = [[(2, "nsubj"), (0, "root"), (2, "iobj")], [(0, "root"), (3, "obj"), (1, "obl")]]
    pa, pb = tmp_path / "a.conllu", tmp_path / "b.conllu"
    pa.write_text(conll_text(a))
    pb.write_text(conll_text(b))
    return pa, pb


def test_small_sample_note_in_every_format(run_cli, two_sentences, tmp_path):
    a, b = two_sentences
    for fmt in ("table", "json", "csv"):
        rc, out, err = run_cli("agree", a, b, "--bootstrap", "200", "--output", fmt)
        assert rc == 0, err
        assert SMALL in out, fmt
    rc, out, _ = run_cli("agree", a, b, "--bootstrap", "200", "--output", "csv")
    row = next(csv.DictReader(io.StringIO(out)))
    assert row["ci_note"].startswith(SMALL) and "2 resampled" in row["ci_note"]
    rc, out, _ = run_cli("agree", a, b, "--bootstrap", "200")
    # the interval is a column value_ci (as in Markdown), the caveat a note (SMALL above)
    assert "value_ci: the 95% bootstrap percentile interval" in out
    rc, out, _ = run_cli("agree", a, b)  # no interval, no note
    assert SMALL not in out
    for fmt in ("json", "csv", "markdown", "latex", "html"):
        page = tmp_path / f"r.{fmt}"
        rc, _, err = run_cli("report", a, b, "--bootstrap", "100", "--output", fmt, "-o",
                             page, "-q")
        assert rc == 0, err
        text = page.read_text(encoding="utf-8")
        assert text.count(SMALL) >= 1, fmt
    for fmt in ("table", "json", "csv", "markdown", "latex"):
        rc, out, err = run_cli("categorical", a, b, "--bootstrap", "100", "--output", fmt)
        assert rc == 0, err
        assert SMALL in out, fmt


def test_no_small_sample_note_from_30_sentences(run_cli, tmp_path):
    a = [[(2, "nsubj"), (0, "root")]] * 30
    b = [[(2, "nsubj"), (0, "root")]] * 29 + [[(2, "obj"), (0, "root")]]
    pa, pb = tmp_path / "a.conllu", tmp_path / "b.conllu"
    pa.write_text(conll_text(a))
    pb.write_text(conll_text(b))
    rc, out, _ = run_cli("agree", pa, pb, "--bootstrap", "100")
    assert rc == 0 and "value_ci" in out and SMALL not in out


# --------------------------------------------------------------------------
# token layers that look like ids
# --------------------------------------------------------------------------

def with_column(sentences, column: int, values) -> str:
    """CoNLL-X text with column ``column`` (0-based) of the k-th word overall set to
    ``values(k, i)`` (i: the word's index in its sentence)."""
    out, k = [], 0
    for line in conll_text(sentences).split("\n"):
        cols = line.split("\t")
        if len(cols) == 10:
            cols[column] = values(k, int(cols[0]))
            k += 1
        out.append("\t".join(cols))
    return "\n".join(out)


@pytest.fixture
def id_columns(tmp_path):
    """Two annotators of 12 sentences of 12 words: POSTAG holds a running token id,
    CPOSTAG a number from the word's position in its sentence (12 values, each
    repeated), FEATS real categories."""
    chain = [(2, "nsubj"), (0, "root"), (2, "obj")] + [(i, "dep") for i in range(3, 12)]
    sents = [chain] * 12
    other = [chain[:2] + [(2, "iobj")] + chain[3:]] * 12
    paths = []
    for name, ss in (("a", sents), ("b", other)):
        text = with_column(ss, 4, lambda k, i: f"w{k + 1}")
        rows = []
        for line in text.split("\n"):
            cols = line.split("\t")
            if len(cols) == 10:
                cols[3] = str(int(cols[0]) * 7)  # numbers
                cols[5] = "Case=Nom" if int(cols[0]) % 2 else "Case=Acc"
            rows.append("\t".join(cols))
        p = tmp_path / f"{name}.conll"
        p.write_text("\n".join(rows))
        paths.append(p)
    return paths


def test_id_like_layers_left_out_unless_named(run_cli, id_columns):
    rc, out, err = run_cli("categorical", *id_columns, "--output", "json")
    assert rc == 0, err
    d = json.loads(out)
    assert set(d["layers"]) == {"deprel", "head", "feats"}
    assert set(d["skipped_layers"]) == {"upos", "xpos"}
    assert any("XPOS (CoNLL-X POSTAG)" in n and "144 distinct values over 144 words" in n
               for n in d["notes"])
    rc, out, _ = run_cli("categorical", *id_columns)
    assert "note: layer xpos" in out and "left out" in out
    rc, out, _ = run_cli("categorical", *id_columns, "--layers", "deprel,xpos", "--output",
                         "json")
    d = json.loads(out)
    assert set(d["layers"]) == {"deprel", "xpos"} and "skipped_layers" not in d
    assert any("kept because it was asked for by name" in n for n in d["notes"])
    for fmt in ("markdown", "latex", "csv"):
        rc, out, _ = run_cli("categorical", *id_columns, "--output", fmt)
        assert "layer xpos (column XPOS" in out, fmt


def test_report_leaves_out_id_like_layers(run_cli, id_columns, tmp_path):
    page = tmp_path / "r.html"
    rc, _, err = run_cli("report", *id_columns, "--bootstrap", "0", "-o", page, "-q")
    assert rc == 0, err
    html = page.read_text(encoding="utf-8")
    assert "they look like ids, not categories; left out" in html
    rows = [m for m in html.split("<tr>") if m.startswith("<td>xpos</td>")]
    assert not rows
    rc, out, _ = run_cli("report", *id_columns, "--bootstrap", "0", "--output", "json")
    d = json.loads(out)
    assert set(d["categorical"]) == {"deprel", "head", "feats"}
    assert set(d["skipped_layers"]) == {"upos", "xpos"}


@pytest.mark.parametrize("width", [20, 40, 60, 100, 400])
def test_signature_folds_after_a_bar_and_joins_back(width):
    from synagree.render.fit import signature_text

    sig = ("variants:plain,diff,norm|distance:TED unit costs (root label free)|labels:DEPREL "
           "in full|d_e:sampled (199960 pairs, seed 0)|matching:sent_id|version:0.1.0")
    text = signature_text(sig, width)
    lines = text.split("\n")
    assert lines[0].startswith("signature: ")
    assert "".join(line[len("signature: "):] for line in lines) == sig
    fields = sig.split("|")
    for line in lines:  # a line is longer than the width only when one field is
        if len(line) > width:
            assert line.strip().rstrip("|").removeprefix("signature: ") in fields
    if len("signature: " + sig) <= width:
        assert lines == ["signature: " + sig]
    else:
        assert all(line.endswith("|") for line in lines[:-1])


def test_an_id_feature_in_feats_is_id_like(run_cli, id_columns, tmp_path):
    """FEATS whose values carry a token id as a feature (CDT's ``case=gen|id=94``):
    left out of categorical and report as id-like, with a note naming the feature."""
    paths = []
    for p in id_columns:
        rows = []
        for k, line in enumerate(p.read_text().split("\n")):
            cols = line.split("\t")
            if len(cols) == 10:
                cols[5] = f"Case={'Nom' if k % 2 else 'Acc'}|id={k % 40}"
            rows.append("\t".join(cols))
        q = tmp_path / f"feats-{p.name}"
        q.write_text("\n".join(rows))
        paths.append(q)
    for cmd in ("categorical", "report"):
        rc, out, err = run_cli(cmd, *paths, "--output", "json", "-q")
        assert rc == 0, err
        d = json.loads(out)
        assert "feats" in d["skipped_layers"], cmd
        assert "feature 'id' takes 40 distinct numbers" in out, cmd  # the reason, said
    rc, out, _ = run_cli("categorical", *paths, "--layers", "feats", "--output", "json")
    assert "feats" in json.loads(out)["layers"]  # named: kept


def test_wrap_header_breaks_keys_after_underscores():
    """A registered key as a header may break after its underscores (never inside a
    piece), a phrase at its spaces; a piece wider than the width stays whole."""
    from synagree.render.fit import wrap_header

    assert wrap_header("cohen_kappa_macro", 6) == ["cohen_", "kappa_", "macro"]
    assert wrap_header("cohen_kappa_macro", 12) == ["cohen_kappa_", "macro"]
    assert wrap_header("alpha_plain without", 8) == ["alpha_", "plain", "without"]
    assert wrap_header("share of D_o", 6) == ["share", "of D_o"]
    assert wrap_header("share of D_o", 5) == ["share", "of D_", "o"]
    assert wrap_header("specific", 3) == ["specific"]
    for h in ("d_o_share", "pair_agree", "a b_c d"):
        for w in range(1, 12):
            assert "".join(wrap_header(h, w)).replace(" ", "") == h.replace(" ", "")


ROOT_DATA = Path(__file__).parent / "data"


def test_key_headers_fit_the_terminal_whole(run_cli, monkeypatch):
    """categorical's key headers wrap at their underscores on a 100-column terminal, so
    the layer names are not cut (they were, as whole keys)."""
    from synagree.render import fit

    monkeypatch.setattr(fit, "is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "100")
    feats = ROOT_DATA / "feats"
    rc, out, err = run_cli("categorical", feats / "ann1.conllu", feats / "ann2.conllu",
                           "--layers", "feats,feats:Number,feats:PronType")
    # (the items column holds numbers: aligned right)
    assert rc == 0 and re.search(r"feats:PronType +9 ", out) and "were cut" not in err
    assert max(len(line) for line in out.splitlines() if "signature" not in line) <= 100
    assert re.search(r"cohen_kappa_\n +macro\n", out)  # the key broken after a "_"
