"""Hostile input: compressed files, one set of ID/HEAD checks for every
reader, long tokens in messages, and escaping in every text output format.

Every test here failed before the hardening it checks (see the commit that
added it); the property-based counterpart is ``tests/test_fuzz.py``.
"""
from __future__ import annotations

import bz2
import csv
import gzip
import io
import json
import lzma
import os
import pwd
import re
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from synagree.base import escape
from synagree.base.problems import InputError, Problem, quote
from synagree.cli.main import main
from synagree.evaluation import conll18
from synagree.io.compression import strip_suffix
from synagree.io.conllu import read_conllu
from synagree.io.formats import read_any, sniff_format

W = "\t".join


def word(i, head, rel="dep", form=None, upos="X"):
    return W([str(i), form or f"w{i}", "_", upos, "_", "_", str(head), rel, "_", "_"])


def sent(*words, sid=None):
    head = [f"# sent_id = {sid}"] if sid else []
    return "\n".join(head + list(words)) + "\n\n"


GOOD = sent(word(1, 0, "root"), word(2, 1, "obj"), sid="s1") + \
    sent(word(1, 2, "nsubj"), word(2, 0, "root"), sid="s2")
OTHER = sent(word(1, 0, "root"), word(2, 1, "nsubj"), sid="s1") + \
    sent(word(1, 2, "nsubj"), word(2, 0, "root"), sid="s2")


def run(capsys, *args):
    capsys.readouterr()
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, out, err


# --------------------------------------------------------------------------
# 1. Compressed input
# --------------------------------------------------------------------------

COMPRESS = {"gz": gzip.compress, "xz": lzma.compress, "bz2": bz2.compress}


@pytest.mark.parametrize("ext", sorted(COMPRESS))
def test_compressed_files_are_read_by_every_command(tmp_path, capsys, ext):
    pack = COMPRESS[ext]
    a, b = tmp_path / "a.conllu", tmp_path / "b.conllu"
    a.write_text(GOOD)
    b.write_text(OTHER)
    za, zb = tmp_path / f"a.conllu.{ext}", tmp_path / f"b.conllu.{ext}"
    za.write_bytes(pack(GOOD.encode()))
    zb.write_bytes(pack(OTHER.encode()))
    for cmd, extra in ((["agree", "--output", "json", "-q"], ["--names", "A", "B"]),
                       (["compare", "--no-alpha"], ["--names", "B"]), (["tags"], []),
                       (["categorical"], ["--names", "A", "B"])):
        plain = run(capsys, *cmd, a, b, *extra)
        packed = run(capsys, *cmd, za, zb, *extra)
        assert plain[0] == packed[0] == 0, packed[2]
        assert packed[1].replace(str(za), str(a)).replace(str(zb), str(b)) \
            .replace(za.name, a.name).replace(zb.name, b.name) == plain[1]
    # the sentences themselves, through the library
    assert [s.deprels for s in read_conllu(za)] == [s.deprels for s in read_conllu(a)]
    assert [w.deprel for w in conll18.read_treebank(zb).words] == \
        [w.deprel for w in conll18.read_treebank(b).words]


def test_compressed_format_is_sniffed_through_the_suffix_and_the_magic(tmp_path):
    conllu = tmp_path / "a.conllu.gz"
    conllu.write_bytes(gzip.compress(GOOD.encode()))
    assert sniff_format(conllu) == "conllu"
    trees = tmp_path / "t.tree.xz"
    trees.write_bytes(lzma.compress(b"(S (NP D N) (VP V))\n"))
    assert sniff_format(trees) == "phrase"
    # no telling suffix at all: the content (decompressed) decides
    anon = tmp_path / "trees.bz2"
    anon.write_bytes(bz2.compress(b"# comment\n(S (NP D N) (VP V))\n"))
    assert sniff_format(anon) == "phrase"
    assert read_any(anon)[0].root.label == "S"
    nameless = tmp_path / "data"  # gzip data without any suffix: found by its magic
    nameless.write_bytes(gzip.compress(GOOD.encode()))
    assert len(read_conllu(nameless)) == 2
    assert strip_suffix("x.conllu.GZ") == "x.conllu" and strip_suffix("x.conllu") == "x.conllu"


@pytest.mark.parametrize("make", [
    lambda: gzip.compress(GOOD.encode())[:25],  # truncated
    lambda: b"\x1f\x8b" + b"\x00" * 40,  # gzip magic, then garbage
    lambda: GOOD.encode(),  # plain text under a .gz name
    lambda: lzma.compress(GOOD.encode())[:-8],  # xz without its footer
    lambda: b"BZh91AY&SY" + b"\xff" * 30,  # bzip2 magic, corrupt block
], ids=["truncated-gz", "garbage-gz", "plain-as-gz", "truncated-xz", "corrupt-bz2"])
def test_corrupt_compressed_file_is_one_clear_error(tmp_path, capsys, make):
    bad = tmp_path / "bad.conllu.gz"
    bad.write_bytes(make())
    good = tmp_path / "good.conllu"
    good.write_text(GOOD)
    for cmd in (["agree"], ["compare", "--no-alpha"], ["tags"]):
        for files in ([bad, good], [good, bad]):
            rc, out, err = run(capsys, *cmd, *files)
            assert rc == 2 and out == ""
            lines = [ln for ln in err.splitlines() if ln.startswith(str(bad))]
            assert len(lines) == 1, err
            assert "(corrupt-compressed-file)" in lines[0]
            assert "1 error(s)" in err


# --------------------------------------------------------------------------
# 2. One set of input checks
# --------------------------------------------------------------------------

def _kinds(err: str):
    return re.findall(r"\(([a-z-]+)\)(?: \[sentence [^]]*\])?$", err, re.M)


def test_non_ascii_digit_head_is_refused_by_every_reader(tmp_path, capsys):
    bad = tmp_path / "bad.conllu"
    bad.write_text(sent(word(1, "\u0660", "root"), word(2, 1, "obj")))  # Arabic-Indic zero
    good = tmp_path / "good.conllu"
    good.write_text(sent(word(1, 0, "root"), word(2, 1, "obj")))
    for cmd in (["agree"], ["compare", "--no-alpha"]):
        rc, out, err = run(capsys, *cmd, bad, good)
        assert rc == 2 and _kinds(err) == ["bad-head"], err
        assert f"{bad}:1:" in err and "U+0660" in err
    bad.write_text(sent(word(1, 0, "root"), word(2, "01", "obj")))  # as conllu writes: no 01
    for cmd in (["agree"], ["compare", "--no-alpha"]):
        rc, out, err = run(capsys, *cmd, bad, good)
        assert rc == 2 and _kinds(err) == ["bad-head"], err


@pytest.mark.parametrize("line", [
    W(["\u00b2", "w2", "_", "X", "_", "_", "1", "obj", "_", "_"]),  # superscript two
    "\u00b2\tw2\t_\tX",  # ... on a line with too few columns (crashed compare)
    W(["1-\u0662", "w2", "_", "X", "_", "_", "_", "_", "_", "_"]),  # Arabic-Indic two
    W(["2.\u0661", "w2", "_", "X", "_", "_", "_", "_", "_", "_"]),  # empty node
])
def test_non_ascii_digit_id_is_refused_by_every_reader(tmp_path, capsys, line):
    bad = tmp_path / "bad.conllu"
    bad.write_text(sent(word(1, 0, "root"), line, word(2, 1, "obj")))
    good = tmp_path / "good.conllu"
    good.write_text(sent(word(1, 0, "root"), word(2, 1, "obj")))
    for cmd in (["agree"], ["compare", "--no-alpha"], ["tags"]):
        rc, out, err = run(capsys, *cmd, bad, good)
        assert rc == 2, err
        assert f"{bad}:2:" in err
        assert set(_kinds(err)) <= {"bad-id", "column-count"}, err


OVERLAP = sent(W(["1-2", "ab", "_", "_", "_", "_", "_", "_", "_", "_"]), word(1, 0, "root"),
               W(["2-3", "bc", "_", "_", "_", "_", "_", "_", "_", "_"]), word(2, 1, "obj"),
               word(3, 1, "obj"))


def test_overlapping_multiword_tokens_are_refused_alike(tmp_path, capsys):
    bad = tmp_path / "bad.conllu"
    bad.write_text(OVERLAP)
    good = tmp_path / "good.conllu"
    good.write_text(sent(word(1, 0, "root"), word(2, 1, "obj"), word(3, 1, "obj")))
    for cmd in (["agree"], ["compare", "--no-alpha"], ["tags"]):
        rc, out, err = run(capsys, *cmd, bad, good)
        assert rc == 2 and _kinds(err) == ["multiword-overlap"], (cmd, err)
        assert f"{bad}:3:" in err
    # nested: 1-3 then 2-3 inside it
    bad.write_text(sent(W(["1-3", "abc", "_", "_", "_", "_", "_", "_", "_", "_"]),
                        word(1, 0, "root"), W(["2-3", "bc"] + ["_"] * 8), word(2, 1, "obj"),
                        word(3, 1, "obj")))
    for cmd in (["agree"], ["compare", "--no-alpha"], ["tags"]):
        rc, out, err = run(capsys, *cmd, bad, good)
        assert rc == 2 and "multiword-overlap" in _kinds(err), (cmd, err)


def test_tags_checks_ids_like_the_other_readers(tmp_path, capsys):
    good = tmp_path / "good.conllu"
    good.write_text(sent(word(1, 0, "root"), word(2, 1, "obj"), word(3, 1, "obj")))
    bad = tmp_path / "bad.conllu"
    for text, kind in ((sent(word(1, 0, "root"), word(3, 1, "obj"), word(2, 1, "obj")),
                        "id-sequence"),
                       (sent(word(1, 0, "root"), word("01", 1, "obj"), word(3, 1, "obj")),
                        "bad-id"),
                       (sent(word(1, 0, "root"), W(["5-6", "x"] + ["_"] * 8),
                             word(2, 1, "obj"), word(3, 1, "obj")), "bad-id")):
        bad.write_text(text)
        rc, out, err = run(capsys, "tags", good, bad)
        assert rc == 2 and _kinds(err) == [kind], err
        rc, out, err = run(capsys, "agree", good, bad)
        assert rc == 2 and kind in _kinds(err), err


def test_compare_lists_every_files_errors(tmp_path, capsys):
    gold = tmp_path / "gold.conllu"
    gold.write_text(sent(word(1, 0, "root"), word(2, "x", "obj")))
    sys1 = tmp_path / "sys1.conllu"
    sys1.write_text(sent(word(1, 0, "root"), word(2, 9, "obj")))
    sys2 = tmp_path / "sys2.conllu"
    sys2.write_text(sent(word(1, 0, "root"), "2\tw2"))
    rc, out, err = run(capsys, "compare", "--no-alpha", gold, sys1, sys2)
    assert rc == 2
    assert f"{gold}:2:" in err and f"{sys1}:2:" in err and f"{sys2}:2:" in err
    assert "3 error(s)" in err
    with pytest.raises(InputError) as ei:
        from synagree.evaluation.compare import compare
        compare(gold, [sys1, sys2], alpha=False)
    assert {p.file for p in ei.value.errors} == {str(gold), str(sys1), str(sys2)}


# --------------------------------------------------------------------------
# 3. Long tokens are shortened in messages
# --------------------------------------------------------------------------

BIG = 10_000_000


@pytest.mark.slow
@pytest.mark.parametrize("case", ["id", "head", "columns", "cycle", "form-mismatch"])
def test_a_10mb_token_is_not_echoed_whole(tmp_path, capsys, case):
    big = "x" * BIG
    good = tmp_path / "good.conllu"
    good.write_text(sent(word(1, 0, "root"), word(2, 1, "obj")))
    bad = tmp_path / "bad.conllu"
    text = {
        "id": sent(word(1, 0, "root"), word(big, 1, "obj")),
        "head": sent(word(1, 0, "root"), word(2, big, "obj")),
        "columns": sent(word(1, 0, "root"), "2\t" + big),
        "cycle": sent(word(1, 2, "x", form=big), word(2, 1, "y", form=big)),
        "form-mismatch": sent(word(1, 0, "root"), word(2, 1, "obj", form=big)),
    }[case]
    bad.write_text(text)
    agree, compare, tags = ["agree", "--strict"], ["compare", "--no-alpha"], ["tags"]
    cmds = {"id": [agree, compare, tags], "head": [agree, compare], "columns": [compare],
            "cycle": [agree, compare], "form-mismatch": [tags]}[case]
    for cmd in cmds:
        rc, out, err = run(capsys, *cmd, good, bad)
        assert len(err) < 5_000, (cmd, len(err))
        assert "characters)" in err, err  # the token, shortened: its length is given
        assert rc == (0 if case == "form-mismatch" else 2), err
    if case == "columns":  # agree and tags do not quote the line at all
        for cmd in (agree, tags):
            rc, out, err = run(capsys, *cmd, good, bad)
            assert rc == 2 and len(err) < 5_000


def test_text_mismatch_with_huge_tokens_is_short(tmp_path, capsys):
    a = tmp_path / "a.conllu"
    a.write_text(sent(word(1, 0, "root", form="a" * BIG), word(2, 1, "obj")))
    b = tmp_path / "b.conllu"
    b.write_text(sent(word(1, 0, "root", form="a" * (BIG - 1) + "b"), word(2, 1, "obj")))
    rc, out, err = run(capsys, "compare", "--no-alpha", a, b)
    assert rc == 2 and "text-mismatch" in err and len(err) < 5_000


def test_problem_messages_are_tamed_in_one_place():
    p = Problem("f.conllu", 3, "bad-x", "bad " + "y" * 1000 + " \x1b[31mred\n", sent_id="s" * 500)
    text = str(p)
    assert "\x1b" not in text and "\n" not in text and len(text) < 500
    assert "1,000 characters" in text and "500 characters" in text
    assert quote("z" * 100) == repr("z" * 40) + "… (100 characters)"
    assert quote("ab") == "'ab'"
    huge = Problem("f", 1, "k", "m" * 10 ** 6)
    assert len(huge.message) < 3000


# --------------------------------------------------------------------------
# 4. Escaping in every text output format
# --------------------------------------------------------------------------

HOSTILE_LABELS = ["c^d", "=1+1", "a|b", "<img src=x onerror=alert(1)>", "*x*_y_`z`",
                  "[l](http://e)", "-2+3", "@SUM(A1)", "100%&$#~\\{}", "+cmd"]
HOSTILE_SID = "=HYPERLINK(1)|*b*_`c`_[l](u)<script>c^d \\{x} $ & # ~ %"
HOSTILE_NAMES = ["=SUM(A1)|x", "an\nna*_b_`[c]`<i>^~%&$#{}\\"]


def _hostile_pair(tmp_path):
    def doc(labels):
        s = []
        for k in range(3):
            rel = labels[k % len(labels)]
            s.append(sent(word(1, 0, "root", form="</script>"),
                          word(2, 1, rel, form='"><img src=x onerror=alert(1)>',
                               upos=labels[(k + 1) % len(labels)]),
                          word(3, 2 if k else 1, labels[(k + 2) % len(labels)], form="c^d"),
                          sid=f"{HOSTILE_SID}{k}"))
        return "".join(s)

    a = tmp_path / "=cmd|x_[y]<b>^c%d.conllu"
    b = tmp_path / "b.conllu"
    a.write_text(doc(HOSTILE_LABELS))
    b.write_text(doc(HOSTILE_LABELS[3:] + HOSTILE_LABELS[:3]))
    return a, b


_LATEX_OK = re.compile(r"\\(?:textbackslash|textasciicircum|textasciitilde|textless|textgreater"
                       r"|textbar)\{\}|\\[{}$&#_%]|\$\\alpha_\{\\mathrm\{\w+\}\}\$"
                       r"|\\(?:begin|end)\{tabular\}(?:\{[lrc]+\})?|\\(?:top|mid|bottom)rule"
                       r"| \\\\$")


def check_latex(text: str):
    """Every line outside comments holds no unescaped special; the rows of a
    tabular all have as many column separators."""
    seps = None
    for line in text.splitlines():
        if line.startswith("%"):
            continue
        if line.startswith("\\begin{tabular}"):
            seps = None
        rest = _LATEX_OK.sub("", line)
        n = rest.count("&")
        rest = rest.replace("&", "")
        assert not re.search(r"[\\{}$#^_~%]", rest), (line, rest)
        if "\\\\" in line:
            seps = n if seps is None else seps
            assert n == seps, line


def check_markdown(text: str):
    """Table rows have as many unescaped ``|`` as their header; no raw HTML,
    emphasis, code or link marks from the input."""
    width = None
    for line in text.splitlines():
        if not line.startswith("|"):
            width = None
            assert "<script" not in line and "<img" not in line and "<i>" not in line
            continue
        n = len(re.findall(r"(?<!\\)\|", line))
        width = n if width is None else width
        assert n == width, line
        assert not re.search(r"(?<!\\)[*`\[\]<>]", line), line


def check_csv(text: str):
    for row in csv.reader(io.StringIO(text)):
        for cell in row:
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                assert re.fullmatch(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?%?", cell), \
                    (cell, row)


CHECK = {"latex": check_latex, "markdown": check_markdown, "csv": check_csv}


def _outputs(tmp_path, capsys, cmd, fmts, files, *extra, out_opt="--output"):
    for fmt in fmts:
        rc, out, err = run(capsys, *cmd, *map(str, files), out_opt, fmt, *extra)
        assert rc == 0, err
        CHECK[fmt](out)
        yield fmt, out


def test_agree_outputs_escape_hostile_text(tmp_path, capsys):
    files = _hostile_pair(tmp_path)
    seen = 0
    # (CSV with --worst is refused: two tables in one file)
    for fmt, out in _outputs(tmp_path, capsys, ["agree", "-q", "--worst", "3"],
                             ["latex"], files):
        seen += "HYPERLINK" in out
    assert seen == 1  # the hostile sentence ids were in the output, escaped
    for fmt, out in _outputs(tmp_path, capsys, ["agree", "-q"],
                             ["csv", "latex"], files, "--names", *HOSTILE_NAMES):
        pass


def test_compare_outputs_escape_hostile_text(tmp_path, capsys):
    a, b = _hostile_pair(tmp_path)
    for fmt, out in _outputs(tmp_path, capsys, ["compare", "--no-alpha", "--breakdown"],
                             ["csv", "latex"], [a, b], "--names", HOSTILE_NAMES[0]):
        if fmt == "csv":
            assert "'=1+1" in out and "'=SUM(A1)|x" in out
        else:
            assert "=SUM(A1)\\textbar{}x" in out
    rc, out, err = run(capsys, "compare", "--no-alpha", "--breakdown", a, b,
                       "--names", HOSTILE_NAMES[1])
    assert rc == 0 and "\n" not in HOSTILE_NAMES[1].split("\n")[0]
    assert "an\\x0ana" in out  # the plain-text table keeps one row per line


def test_categorical_outputs_escape_hostile_text(tmp_path, capsys):
    files = _hostile_pair(tmp_path)
    for fmt, out in _outputs(tmp_path, capsys, ["categorical", "--specific", "deprel"],
                             ["csv", "markdown", "latex"], files):
        assert {"csv": "'@SUM(A1)", "markdown": "c^d",
                "latex": "c\\textasciicircum{}d"}[fmt] in out


def test_report_table_outputs_escape_hostile_text(tmp_path, capsys):
    files = _hostile_pair(tmp_path)
    for fmt, out in _outputs(tmp_path, capsys, ["report", "--bootstrap", "0", "-q",
                                                "--layers", "deprel,upos"],
                             ["csv", "markdown", "latex"], files, "--names", *HOSTILE_NAMES):
        assert "HYPERLINK" in out


def test_tags_csv_escapes_hostile_tags(tmp_path, capsys):
    files = _hostile_pair(tmp_path)
    for col in ("deprel", "upos"):
        for fmt, out in _outputs(tmp_path, capsys, ["tags", "--column", col], ["csv"], files):
            assert "\ntags,'=1+1," in out and "\n=" not in out and "\n@" not in out
    rc, out, err = run(capsys, "tags", *files)
    assert rc == 0 and "\x1b" not in out


def test_noise_summary_markdown_escapes_names():
    from synagree.noise.results import _csv_text, summary_markdown

    md = summary_markdown([{"series": "x|y\n# z", "p": 0.1, "metric": "LAS_full", "n": 1,
                            "mean": 0.5, "std": 0.0, "median": 0.5, "min": 0.5, "max": 0.5}],
                          ["LAS_full"], title="Noise experiment: a|b\n<script>*x*.conllu")
    check_markdown(md)
    assert md.splitlines()[0] == "# Noise experiment: a\\|b &lt;script&gt;\\*x\\*.conllu"
    check_csv(_csv_text([{"series": "=cmd", "p": -0.5}], ["series", "p"]))


def test_noise_outputs_escape_a_hostile_file_name(tmp_path, capsys):
    src = tmp_path / "=cmd|*x*_[y]<script>`z`.conllu"
    src.write_text(GOOD)
    out = tmp_path / "out"
    rc, _, err = run(capsys, "noise", src, "-o", out, "--sample", "2", "--grid", "0.5",
                     "--runs", "1", "--series", "relabel", "-q")
    assert rc == 0, err
    md = (out / "summary.md").read_text()
    check_markdown(md)
    assert "\\|\\*x\\*" in md and "<script>" not in md
    for name in ("summary.csv", "runs.csv"):
        check_csv((out / name).read_text())


def test_escape_functions():
    assert escape.latex("c^d") == "c\\textasciicircum{}d"
    assert escape.latex("a\n\nb") == "a  b"
    assert escape.markdown("a|b\nc") == "a\\|b c"
    assert escape.markdown("alpha_plain") == "alpha_plain"
    assert escape.markdown("_x_ *y* `z` [l](u) <b>") == \
        "\\_x\\_ \\*y\\* \\`z\\` \\[l\\](u) &lt;b&gt;"
    for number in (-0.05, "-0.05", "+1", "-1e-3", "-12.5%", 3):
        assert escape.csv_cell(number) == number
    for text in ("=1+1", "-cmd", "+x", "@f", "\tx", "\rx", "-", "-inf"):
        assert escape.csv_cell(text) == "'" + text
    assert escape.plain("a\x1b[31m\nb") == "a\\x1b[31m\\x0ab"


@pytest.mark.slow
def test_file_names_that_are_not_utf8(tmp_path):
    """A file name with the byte \\xff (a lone surrogate to Python) is written
    as ``\\udcff`` in every output, whatever the terminal's error handler."""
    import os
    import subprocess
    import sys

    root = tmp_path.resolve()
    a = os.path.join(os.fsencode(root), b"\xff.conllu")
    b = os.path.join(os.fsencode(root), b"b\xfe.conllu")
    for p, text in ((a, GOOD), (b, OTHER)):
        with open(p, "wb") as fh:
            fh.write(text.encode())
    import synagree

    here = str(__import__("pathlib").Path(synagree.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict",
               PYTHONPATH=os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]))
    html = os.path.join(os.fsencode(root), b"r.html")
    for args in ([b"agree", a, b], [b"agree", a, b, b"--output", b"json"],
                 [b"compare", a, b, b"--no-alpha"], [b"tags", a, b, b"--output", b"csv"],
                 [b"report", a, b, b"--bootstrap", b"0", b"-o", html],
                 [b"noise", a, b"-o", os.path.join(os.fsencode(root), b"nz"), b"--sample",
                  b"1", b"--runs", b"1", b"--grid", b"0.5", b"--series", b"relabel", b"-q"]):
        proc = subprocess.run([sys.executable, b"-m", b"synagree", *args], env=env,
                              capture_output=True, timeout=300)
        assert proc.returncode == 0, (args, proc.stderr.decode(errors="replace"))
        if args[0] in (b"agree", b"compare"):  # they print the names
            assert b"\\udcff" in proc.stdout, proc.stdout
    assert "\\udcff" in open(html, encoding="utf-8").read()


@pytest.mark.slow
def test_noise_names_in_figures_are_literal_text(tmp_path, capsys):
    """Series and metric names of a noise table are text in the figures (no
    mathtext) and safe file names (no path separators)."""
    runs = tmp_path / "runs.csv"
    runs.write_text('series,p,run,alpha_plain,$x\n"$\\\\frac{1$",0.1,0,0.9,0.9\n'
                    '"../x/y",0.2,0,0.8,0.8\n"a$b$c",0.3,0,0.7,0.8\n')
    rc, out, err = run(capsys, "plot", runs, "-o", tmp_path / "figs", "--formats", "svg")
    assert rc == 0, err
    made = sorted(p.name for p in (tmp_path / "figs").iterdir())
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+\.svg", n) for n in made), made
    assert not (tmp_path / "x").exists()
    good = tmp_path / "good.conllu"
    good.write_text(GOOD)
    other = tmp_path / "other.conllu"
    other.write_text(GOOD)
    rc, out, err = run(capsys, "report", good, other, "--names", "a", "b", "--bootstrap", "0",
                       "--noise", runs, "-o", tmp_path / "r.html", "-q")
    assert rc == 0, err


# --------------------------------------------------------------------------
# 7. The HTML report in a browser: nothing injected, nothing fetched
# --------------------------------------------------------------------------

class _Elements(__import__("html.parser").parser.HTMLParser):
    """The elements of an HTML document: tag names, event-handler attributes,
    the body's attributes and the title."""

    def __init__(self, text: str):
        super().__init__()
        self.tags, self.handlers, self.body, self.title = [], [], {}, ""
        self.styles, self.scripts = [], []  # their texts
        self._in = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.handlers += [(tag, k) for k, v in attrs if k.startswith("on")]
        if tag == "body":
            self.body = dict(attrs)
        self._in = tag
        if tag in ("style", "script"):
            getattr(self, tag + "s").append("")

    def handle_data(self, data):
        if self._in == "title":
            self.title += data
        elif self._in in ("style", "script"):
            getattr(self, self._in + "s")[-1] += data

    def handle_endtag(self, tag):
        self._in = None


def _no_injected_elements(els: _Elements):
    assert "data-pwned" not in els.body
    assert els.title == "</title><script>document.title='pwned'</script>"
    for tag in ("img", "iframe", "link", "object", "embed", "b"):
        assert tag not in els.tags, tag
    assert els.tags.count("script") == 2  # the data and the page's code
    import json
    data, code = els.scripts
    assert json.loads(data)["annotators"]  # the hostile text stays inside the JSON data
    assert not [t for t in els.styles + [code] if "leak" in t or "pwned" in t]
    assert not els.handlers, els.handlers


@pytest.mark.slow
def test_html_report_injection_in_the_browser(tmp_path):
    """Word forms, labels, sent_ids, file names, noise series, the title and a
    link's filter carry ``<script>``, ``"><img onerror=...>``, ``</script>`` and
    URLs of a local server that records every request.  The page (checked as
    written, then served from that server and loaded in headless Chromium)
    holds no injected element, runs no injected code, and the server sees no
    request but the page's own."""
    import http.server
    import subprocess
    import threading
    import urllib.parse

    seen = []
    site = tmp_path / "site"
    site.mkdir()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k):
            super().__init__(*a, directory=str(site), **k)

        def do_GET(self):
            seen.append(self.path)
            return super().do_GET()

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        xss = ['<script>document.body.setAttribute("data-pwned","1")</script>',
               '"><img src=x onerror="document.body.setAttribute(\'data-pwned\',\'2\')">',
               '</script><script>document.body.setAttribute("data-pwned","3")</script>',
               f"<img src='{base}/leak-img'>",
               f"<style>@import url({base}/leak-css)</style><link rel=stylesheet "
               f"href={base}/leak-link>",
               f"<iframe src={base}/leak-frame></iframe>"]

        def doc(shift):
            out = []
            for k in range(4):
                def x(j):
                    return xss[(k + j + shift) % len(xss)]
                out.append(f"# sent_id = {xss[k]}{k}\n# text = {xss[k + 1]}\n"
                           + W(["1", x(2), "_", x(3), "_", "_", "0", "root", "_", "_"]) + "\n"
                           + W(["2", x(4), "_", x(5), "_", "_", "1", x(shift), "_", "_"]) + "\n"
                           + W(["3", "w", "_", "X", "_", "_", "1" if shift else "2", x(1), "_",
                                "_"]) + "\n\n")
            return "".join(out)

        a = tmp_path / '"><img src=x onerror=alert(1)>.conllu'
        b = tmp_path / "<b onmouseover=alert(1)>b.conllu"
        a.write_text(doc(0))
        b.write_text(doc(1))
        noise = tmp_path / "noise.csv"
        buf = io.StringIO()
        csv.writer(buf).writerows([["series", "p_relabel", "p_reattach", "run", "alpha_plain",
                                    "LAS_full"]] + [[s, p, 0, 0, 0.9, 0.8] for s in xss[:3]
                                               for p in (0.1, 0.5)])
        noise.write_text(buf.getvalue())
        page = site / "r.html"
        # (the two annotations differ in hostile forms on purpose: no text check)
        assert main(["report", str(a), str(b), "--no-text-check", "--bootstrap", "40",
                     "--noise", str(noise),
                     "-o", str(page), "-q",
                     "--title", "</title><script>document.title='pwned'</script>"]) == 0
        text = page.read_text(encoding="utf-8")
        _no_injected_elements(_Elements(text))  # as written

        from test_html_report import chromium

        exe = chromium()  # skips, with the reason, when there is no Chromium
        fragment = "#q=" + urllib.parse.quote(xss[1])
        profile = tmp_path / "profile"
        proc = subprocess.run(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-extensions", f"--user-data-dir={profile}", "--enable-logging=stderr",
             "--v=0", "--window-size=1300,2400", "--virtual-time-budget=5000", "--dump-dom",
             f"{base}/r.html{fragment}"],
            capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0, proc.stderr[-2000:]
    finally:
        server.shutdown()
    dom = proc.stdout
    els = _Elements(dom)  # as rendered, after the page's script ran
    assert els.body.get("data-rendered") == "1" and "data-js-error" not in els.body, els.body
    _no_injected_elements(els)
    # the hostile text is there, as text: in the tables and the drawn sentences
    assert "&lt;script&gt;document.body.setAttribute" in dom
    assert dom.count('<details class="sent"') >= 1 and "<svg" in dom
    assert set(seen) <= {"/r.html", "/favicon.ico"} and "/r.html" in seen, seen
    console = [ln for ln in proc.stderr.splitlines() if ":CONSOLE" in ln]
    assert console == [], console  # not even a refusal by the Content-Security-Policy


@pytest.mark.slow
@pytest.mark.parametrize("name,text", [
    ("runs.csv", "series,p,run,las\nboth,,0,0.5\n"),  # no p
    ("runs.csv", "series,p,run,las\nboth,0.1,0,0.5,9\n"),  # a field more than the header
    ("runs.csv", "series,p,run,las\nboth,nan,0,0.5\n"),
    ("runs.jsonl", '{"series": "both", "p": 0.1}\nnot json\n'),
    ("runs.jsonl", '[1, 2]\n'),
    ("results.json", '{"rows": 3}'),
    ("results.json", '[{"series": "both", "p": "x"}]'),
    ("results.json", '[{"series": "both", "p": 0.1, "LAS_full": [1]}]'),
    ("runs.csv", b"series,p,run,las\nboth,0.1,0,\xff\n"),
    # numbers no run records (found by scripts/fuzz.py: a figure overflowed on them)
    ("runs.csv", "series,p,run,,x\nroot,0.5,1,9.5e+306,0.5\n"),
    ("runs.csv", "series,p,run,LAS_full\nroot,0.5,1,1e400\n"),
    ("results.json", '[{"series": "both", "p": 0.1, "LAS_full": -2e13}]'),
])
def test_bad_noise_tables_are_input_errors(tmp_path, capsys, name, text):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    good = tmp_path / "good.conllu"
    good.write_text(GOOD)
    other = tmp_path / "other.conllu"
    other.write_text(GOOD)
    for cmd in (["plot", path, "-o", tmp_path / "figs", "--formats", "svg"],
                ["report", good, other, "--names", "a", "b", "--bootstrap", "0", "--noise", path,
                 "-o", tmp_path / "r.html"]):
        rc, out, err = run(capsys, *cmd)
        if rc == 0 and cmd[0] == "report" and text.startswith("series,p,run,las\nboth,"):
            continue  # the report's reader makes p from p_relabel, ... and ignores extras
        assert rc == 2 and f"{path}" in err, err
        assert set(_kinds(err)) <= {"bad-results", "encoding"}, err


# --------------------------------------------------------------------------
# 5. The file system's edges: outputs through links, to devices and FIFOs,
#    into unwritable folders and full disks (issue 23)
# --------------------------------------------------------------------------
#
# Some cases need an ordinary user (root may write anywhere): the command then
# runs in a subprocess as ``nobody`` (set in the child before exec), and the
# test skips with the reason where that cannot be done.  A full disk is a small
# tmpfs in a private mount namespace (``unshare -m``: it vanishes with the
# process) or the file-size limit (RLIMIT_FSIZE, ``ulimit -f``).

NOBODY = 65534


def _world_dir() -> Path:
    """A fresh folder under the system's temporary directory that ``nobody`` can enter
    (pytest's ``tmp_path`` is private to its user)."""
    d = Path(tempfile.mkdtemp(prefix="synagree-edges-"))
    d.chmod(0o755)
    return d


_NOBODY_PREFIX = None


def _nobody_prefix():
    """The command prefix that runs a program as ``nobody`` (setpriv, runuser), or a skip
    when neither works here; [] when we are an ordinary user already."""
    global _NOBODY_PREFIX
    if os.geteuid() != 0:
        return []
    if _NOBODY_PREFIX is None:
        try:
            pwd.getpwuid(NOBODY)
        except KeyError:
            pytest.skip("no user 'nobody' (uid 65534) to run as an ordinary user")
        tried = []
        for prefix in (["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"],
                       ["runuser", "-u", pwd.getpwuid(NOBODY).pw_name, "--"]):
            if not shutil.which(prefix[0]):
                continue
            probe = subprocess.run(prefix + [sys.executable, "-c",
                                             "import os, synagree; print(os.geteuid())"],
                                   capture_output=True, text=True)
            if probe.returncode == 0 and probe.stdout.strip() == str(NOBODY):
                _NOBODY_PREFIX = prefix
                break
            tried.append(f"{prefix[0]}: {probe.stderr.strip()[-200:]}")
        else:
            _NOBODY_PREFIX = []
            why = "; ".join(tried) or "no setpriv or runuser"
            pytest.skip(f"cannot run Python as nobody here ({why})")
    if not _NOBODY_PREFIX:
        pytest.skip("cannot run Python as nobody here")
    return _NOBODY_PREFIX


def cli(*args, user=None, fsize=None, address_space=None, stdout=subprocess.PIPE, cwd=None,
        timeout=300, env=None):
    """``synagree ARGS`` in a subprocess (as ``nobody`` with ``user="nobody"``, under
    RLIMIT_FSIZE ``fsize`` / RLIMIT_AS ``address_space`` bytes); (rc, stdout, stderr)."""
    prefix = _nobody_prefix() if user == "nobody" else []

    def pre():
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    r = subprocess.run(prefix + [sys.executable, "-m", "synagree", *map(str, args)],
                       stdout=stdout, stderr=subprocess.PIPE, preexec_fn=pre, cwd=cwd,
                       timeout=timeout, env={**os.environ, "SYNAGREE_DEBUG": "", **(env or {})})
    out = r.stdout.decode("utf-8", "replace") if isinstance(r.stdout, bytes) else ""
    err = r.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "internal error" not in err, err
    return r.returncode, out, err


def _pair_files(d: Path):
    a, b = d / "a.conllu", d / "b.conllu"
    a.write_text(GOOD)
    b.write_text(OTHER)
    for p in (a, b):
        p.chmod(0o644)
    return a, b


def _leftovers(d: Path):
    return sorted(p.name for p in d.iterdir() if p.name.endswith(".tmp"))


def _one_output_error(err: str, path) -> str:
    lines = [ln for ln in err.splitlines() if ": error: " in ln]
    assert len(lines) == 1, err
    assert str(path) in lines[0], err
    return lines[0]


def test_output_through_a_symlink_updates_its_target(tmp_path, capsys):
    a, b = _pair_files(tmp_path)
    real = tmp_path / "results" / "r.json"
    real.parent.mkdir()
    real.write_text("old")
    os.chmod(real, 0o600)  # the target's permissions are kept
    link = tmp_path / "latest.json"
    link.symlink_to("results/r.json")  # relative, as ln -s makes it
    chain = tmp_path / "chain.json"
    chain.symlink_to(link)  # a link to a link
    for out in (link, chain):
        rc, _, err = run(capsys, "agree", a, b, "-q", "-o", out)
        assert rc == 0, err
        assert link.is_symlink() and os.readlink(link) == "results/r.json"
        assert chain.is_symlink() and real.is_file() and not real.is_symlink()
        assert json.loads(real.read_text())["kind"] == "dependency"
        assert stat.S_IMODE(real.stat().st_mode) == 0o600
        assert _leftovers(tmp_path) == _leftovers(real.parent) == []
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to("made-here.json")  # as the shell does: the target is created
    rc, _, err = run(capsys, "agree", a, b, "-q", "-o", dangling)
    assert rc == 0 and dangling.is_symlink() and (tmp_path / "made-here.json").is_file()


def test_output_to_a_fifo_is_written_directly(tmp_path, capsys):
    a, b = _pair_files(tmp_path)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    rc, _, err = run(capsys, "agree", a, b, "-q", "-o", fifo)
    reader.join(30)
    assert rc == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO
    assert json.loads(got[0])["kind"] == "dependency"
    assert _leftovers(tmp_path) == []


@pytest.fixture
def char_devices():
    """Copies of /dev/null and /dev/full (mknod: root only) in a folder only root may
    write in, as /dev."""
    d = _world_dir()
    null, full = d / "null", d / "full"
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        os.chmod(null, 0o666)
        os.chmod(full, 0o666)
    except OSError as exc:
        shutil.rmtree(d)
        pytest.skip(f"cannot make device nodes here ({exc.strerror}): needs root")
    yield null, full
    shutil.rmtree(d)


def test_output_to_a_character_device(capsys, char_devices):
    null, full = char_devices
    a, b = _pair_files(null.parent)
    rc, _, err = run(capsys, "agree", a, b, "-q", "-o", null)
    assert rc == 0, err
    assert stat.S_ISCHR(os.lstat(null).st_mode)
    rc, _, err = run(capsys, "agree", a, b, "-q", "-o", full)  # writing gives ENOSPC
    assert rc == 2 and stat.S_ISCHR(os.lstat(full).st_mode)
    line = _one_output_error(err, full)
    assert "No space left on device" in line and "(write-failed)" in line
    assert _leftovers(null.parent) == []


@pytest.mark.slow
def test_output_to_dev_null_as_an_ordinary_user(char_devices):
    """The device in a folder the user may not write (as /dev): no temporary file."""
    null, _ = char_devices
    d = null.parent
    a, b = _pair_files(d)
    rc, out, err = cli("agree", a, b, "-q", "-o", null, user="nobody")
    assert rc == 0, err
    assert stat.S_ISCHR(os.lstat(null).st_mode) and _leftovers(d) == []


@pytest.mark.slow
def test_output_to_a_stdout_link(tmp_path):
    """``-o /dev/stdout`` (here a link to /proc/self/fd/1 of our own): the result goes
    down the pipe, after what the command wrote before; the link stays."""
    a, b = _pair_files(tmp_path)
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    rc, out, err = cli("agree", a, b, "-q", "--output", "json", "-o", link)
    assert rc == 0, err
    assert json.loads(out)["kind"] == "dependency"
    assert link.is_symlink() and _leftovers(tmp_path) == []
    # standard output appended to a file (>>): what was there stays
    log = tmp_path / "log.txt"
    log.write_text("earlier\n")
    with open(log, "ab") as fh:
        rc, _, err = cli("agree", a, b, "-q", "--output", "json", "-o", link, stdout=fh)
    assert rc == 0, err
    text = log.read_text()
    assert text.startswith("earlier\n{") and json.loads(text[len("earlier\n"):])


@pytest.mark.slow
def test_output_into_an_unwritable_folder_as_an_ordinary_user():
    d = _world_dir()
    try:
        a, b = _pair_files(d)
        locked = d / "locked"
        locked.mkdir(mode=0o755)  # root's: nobody may not write in it
        (locked / "r.json").write_text("old")
        (locked / "r.json").chmod(0o666)  # even with the file itself writable
        for target in (locked / "r.json", locked / "new.json", locked / "sub" / "x.json"):
            rc, out, err = cli("agree", a, b, "-q", "-o", target, user="nobody")
            assert rc == 2, err
            line = _one_output_error(err, target.parent if target.parent.name == "sub"
                                     else target)
            assert "Permission denied" in line, line
            assert (locked / "r.json").read_text() == "old"
            assert sorted(p.name for p in locked.iterdir()) == ["r.json"]
    finally:
        shutil.rmtree(d)


@pytest.mark.slow
def test_file_too_large(tmp_path):
    """RLIMIT_FSIZE (``ulimit -f``): EFBIG while writing; the old file is kept whole."""
    a, b = _pair_files(tmp_path)
    target = tmp_path / "r.json"
    target.write_text("old")
    rc, _, err = cli("agree", a, b, "-q", "--output", "json", "-o", target, fsize=512)
    assert rc == 2, err
    line = _one_output_error(err, target)
    assert "File too large" in line and "(write-failed)" in line
    assert target.read_text() == "old" and _leftovers(tmp_path) == []


def _unshare_tmpfs_ok() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-m", "sh", "-c",
                           "mount -t tmpfs -o size=16k tmpfs /mnt"],
                          capture_output=True).returncode == 0


def test_disk_full_on_a_small_tmpfs(tmp_path):
    if not _unshare_tmpfs_ok():
        pytest.skip("needs root and mount namespaces (unshare -m) for a private tmpfs")
    a, b = _pair_files(tmp_path)
    mnt = tmp_path / "small"
    mnt.mkdir()
    script = (f"mount -t tmpfs -o size=64k tmpfs {mnt} && "
              f"printf old > {mnt}/r.json && "
              f"(dd if=/dev/zero of={mnt}/filler bs=1k count=1000 2>/dev/null; true) && "
              f"{sys.executable} -m synagree agree {a} {b} -q --worst 40 --output json "
              f"-o {mnt}/r.json; echo rc=$?; ls -A {mnt}; cat {mnt}/r.json")
    r = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True,
                       timeout=300)
    out, err = r.stdout, r.stderr
    assert "rc=2" in out, (out, err)
    line = _one_output_error(err, mnt / "r.json")
    assert "No space left on device" in line
    listing = out.split("rc=2\n", 1)[1]
    assert listing.split() == ["filler", "r.json", "old"], out  # no temporary, old kept


@pytest.mark.slow
def test_standard_output_to_a_full_device(tmp_path):
    a, b = _pair_files(tmp_path)
    with open("/dev/full", "wb") as full:
        rc, _, err = cli("agree", a, b, "-q", stdout=full)
    assert rc == 2 and "No space left on device" in err and "<stdout>" in err


@pytest.mark.slow
def test_noise_resume_into_a_read_only_folder():
    d = _world_dir()
    try:
        src = d / "src.conllu"
        src.write_text(GOOD * 3)
        src.chmod(0o644)
        out = d / "n"
        args = ["noise", src, "-o", out, "--sample", "2", "--grid", "0.5", "--runs", "2",
                "--series", "both", "-q"]
        rc, _, err = cli(*args, "--overwrite")
        assert rc == 0, err
        os.remove(out / "results.json")  # as if interrupted: a resume writes again
        before = {p.name: p.read_bytes() for p in out.iterdir()}
        rc, _, err = cli(*args, user="nobody")
        assert rc == 2, err
        line = _one_output_error(err, out)
        assert "Permission denied" in line
        assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    finally:
        shutil.rmtree(d)


@pytest.mark.slow
def test_noise_log_full_mid_run_then_resumes(tmp_path):
    """A full disk in the middle of an experiment: exit 2, the finished runs kept, and
    rerunning resumes from them."""
    src = tmp_path / "src.conllu"
    src.write_text(GOOD * 3)
    out = tmp_path / "n"
    args = ["noise", src, "-o", out, "--sample", "2", "--grid", "0.2,0.4,0.6,0.8",
            "--runs", "4", "--series", "both", "-q"]
    rc, _, err = cli(*args, fsize=3000)
    assert rc == 2, err
    line = _one_output_error(err, out)
    assert "File too large" in line and "rerun" in line
    assert _leftovers(out) == []
    rc, _, err = cli(*args)
    assert rc == 0, err
    rows = [json.loads(x) for x in (out / "runs.jsonl").read_text().splitlines()]
    assert len(rows) == 16 and (out / "results.json").is_file()


@pytest.mark.slow
def test_plots_into_an_unwritable_folder():
    pytest.importorskip("matplotlib")
    d = _world_dir()
    try:
        runs = d / "runs.csv"
        runs.write_text("series,p,run,las,alpha_plain\nboth,0.1,0,0.9,0.8\nboth,0.5,0,0.5,0.4\n")
        runs.chmod(0o644)
        figs = d / "figs"
        figs.mkdir(mode=0o755)
        rc, _, err = cli("plot", runs, "-o", figs, "--formats", "svg", user="nobody",
                         env={"MPLCONFIGDIR": str(d / "mpl")})
        assert rc == 2, err
        assert "Permission denied" in _one_output_error(err, figs)
        assert list(figs.iterdir()) == []
    finally:
        shutil.rmtree(d)


# --------------------------------------------------------------------------
# 6. Options: --dask addresses
# --------------------------------------------------------------------------

@pytest.mark.parametrize("address", ["http://x", "x", "tcp://", "tcp://host", "tcp://:8786",
                                     "tcp://host:0", "tcp://host:99999", "tcp://host:port",
                                     "tls://h:1/path", "", "local:8786", "tcp://a b:1"])
def test_bad_dask_address_is_refused_before_any_work(tmp_path, capsys, address):
    a, b = _pair_files(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["agree", str(a), str(b), "-q", "--dask", address])
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert "argument --dask" in err and "tcp://HOST:PORT" in err, err


@pytest.mark.parametrize("address", ["local", "tcp://10.0.0.5:8786", "tls://sched.example:8786",
                                     "tcp://[::1]:8786", "ws://host:80", "wss://host:443"])
def test_good_dask_addresses_pass(address):
    from synagree.distance.dask_exec import check_address
    assert check_address(address) == address


# --------------------------------------------------------------------------
# 7. Stored results as untrusted input (--baseline, --compare-to)
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """The inputs and the JSON results of agree, compare and report on them."""
    d = tmp_path_factory.mktemp("stored")
    a, b = d / "a.conllu", d / "b.conllu"
    a.write_text(GOOD)
    b.write_text(OTHER)
    docs = {}
    for cmd, args in (("agree", ["agree", a, b, "-q", "--output", "json"]),
                      ("compare", ["compare", a, b, "-q", "--output", "json"]),
                      ("report", ["report", a, b, "-q", "--output", "json", "--bootstrap", "40",
                                  "--layers", ""])):
        out = d / f"{cmd}.json"
        assert main([str(x) for x in args] + ["-o", str(out)]) == 0
        docs[cmd] = json.loads(out.read_text())
    assert docs["agree"]["details"]["per_unit"]["alpha"]  # the fields the cases break
    assert docs["compare"]["systems"][0]["per_unit"]["alpha"]
    assert docs["report"]["bootstrap"]["metrics"]
    return a, b, docs


_USE = {"agree": lambda a, b, f: ["agree", a, b, "-q", "--baseline", f],
        "compare": lambda a, b, f: ["compare", a, b, "-q", "--baseline", f],
        "report": lambda a, b, f: ["report", a, b, "-q", "--output", "json", "--bootstrap", "40",
                                   "--layers", "", "--baseline", f]}


def _refused(capsys, stored, command, path, field=None):
    a, b, _ = stored
    rc, out, err = run(capsys, *_USE[command](a, b, path))
    assert rc == 2 and out == "", err
    errors = [ln for ln in err.splitlines() if ": error: " in ln]
    assert len(errors) == 1 and errors[0].startswith(f"{path}: error: "), err
    assert errors[0].endswith("(baseline-invalid)"), err
    if field is not None:
        assert f": error: {field}: " in errors[0], err
    return errors[0]


def _edit(doc, path, value):
    """A deep copy of ``doc`` with the value at ``path`` (keys and indices) replaced
    (``value`` is ``_DELETE``: removed)."""
    doc = json.loads(json.dumps(doc))
    node = doc
    for k in path[:-1]:
        node = node[k]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


_DELETE = object()
PU = ("details", "per_unit")
SPU = ("systems", 0, "per_unit")
WRONG_FIELDS = [
    ("agree", ("settings",), [1], "settings"),
    ("agree", ("details",), "x", "details"),
    ("agree", ("annotator_names",), 5, "annotator_names"),
    ("agree", ("annotator_names",), [1, 2], "annotator_names[0]"),
    ("agree", ("kind",), 3, "kind"),
    ("agree", ("LAS_full",), True, "LAS_full"),
    ("agree", ("alpha_plain",), "0.9", "alpha_plain"),
    ("agree", ("alpha_plain",), 1e308, "alpha_plain"),
    ("agree", ("alpha_diff",), 1.5, "alpha_diff"),
    ("agree", ("settings", "d_e"), {"x": 1}, "settings.d_e"),
    ("agree", PU, [], "details.per_unit"),
    ("agree", PU + ("format",), 2, "details.per_unit.format"),
    ("agree", PU + ("ids",), "s1", "details.per_unit.ids"),
    ("agree", PU + ("ids",), _DELETE, "details.per_unit.ids"),
    ("agree", PU + ("text",), [1, 2], "details.per_unit.text[0]"),
    ("agree", PU + ("text",), ["x"], "details.per_unit.text"),
    ("agree", PU + ("ted",), ["a", 1], "details.per_unit.ted[0]"),
    ("agree", PU + ("ted",), [1], "details.per_unit.ted"),
    ("agree", PU + ("words",), [1, -2], "details.per_unit.words[1]"),
    ("agree", PU + ("words",), [10 ** 400, 1], "details.per_unit.words[0]"),
    ("agree", PU + ("ratios",), [], "details.per_unit.ratios"),
    ("agree", PU + ("ratios", "LAS_full"), 3, "details.per_unit.ratios.LAS_full"),
    ("agree", PU + ("ratios", "LAS_full", "correct"), [99, 0],
     "details.per_unit.ratios.LAS_full.correct[0]"),
    ("agree", PU + ("alpha", "alpha_plain"), "x", "details.per_unit.alpha.alpha_plain"),
    ("agree", PU + ("alpha", "alpha_plain", "m"), {}, "details.per_unit.alpha.alpha_plain.m"),
    ("agree", PU + ("alpha", "alpha_plain", "d_e"), "x",
     "details.per_unit.alpha.alpha_plain.d_e"),
    ("agree", PU + ("alpha", "alpha_plain", "d_e"), 1e-308,
     "details.per_unit.alpha.alpha_plain.do[0]"),
    ("agree", PU + ("alpha", "alpha_plain", "do"), [1e308, 0],
     "details.per_unit.alpha.alpha_plain.do[0]"),
    ("compare", ("systems",), {}, "systems"),
    ("compare", ("systems", 0), [], "systems[0]"),
    ("compare", ("systems", 0, "name"), 1, "systems[0].name"),
    ("compare", ("systems", 0, "counts"), [], "systems[0].counts"),
    ("compare", ("systems", 0, "counts", "LAS"), 0.5, "systems[0].counts.LAS"),
    ("compare", ("systems", 0, "counts", "LAS", "f1"), "x", "systems[0].counts.LAS.f1"),
    ("compare", ("systems", 0, "counts", "LAS", "f1"), 1e308, "systems[0].counts.LAS.f1"),
    ("compare", ("systems", 0, "LAS"), "x", "systems[0].LAS"),
    ("compare", ("systems", 0, "alpha_plain"), 2, "systems[0].alpha_plain"),
    ("compare", ("gold_words",), -1, "gold_words"),
    ("compare", ("gold",), 5, "gold"),
    ("compare", ("hierarchy",), [], "hierarchy"),
    ("compare", SPU + ("ids",), None, "systems[0].per_unit.ids"),
    ("compare", SPU + ("ratios", "LAS", "gold"), [0, 0],
     "systems[0].per_unit.ratios.LAS.correct[0]"),
    ("compare", SPU + ("synagree_version",), 1, "systems[0].per_unit.synagree_version"),
    # a stored report is read as the agree result it holds (one engine, docs/method.md §18)
    ("report", ("alpha_plain",), "0.9", "alpha_plain"),
    ("report", ("annotator_names",), 5, "annotator_names"),
    ("report", PU + ("ted",), ["a", 1], "details.per_unit.ted[0]"),
]


@pytest.mark.parametrize("command,path,value,field", WRONG_FIELDS,
                         ids=[f"{c}-{f}-{i}" for i, (c, _, _, f) in enumerate(WRONG_FIELDS)])
def test_stored_result_with_a_wrong_field_is_one_clear_error(tmp_path, capsys, stored, command,
                                                              path, value, field):
    f = tmp_path / "old.json"
    f.write_text(json.dumps(_edit(stored[2][command], path, value)))
    _refused(capsys, stored, command, f, field)


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e400"])
@pytest.mark.parametrize("command,where", [("agree", "alpha_plain"),
                                           ("agree", "details.per_unit.ted[1]"),
                                           ("agree", "unused"),
                                           ("compare", "systems[0].counts.LAS.f1"),
                                           ("report", "alpha_plain")])
def test_non_finite_numbers_are_refused_where_they_are(tmp_path, capsys, stored, token, command,
                                                       where):
    doc = stored[2][command]
    path = [int(k) if k.isdigit() else k for k in re.split(r"\.|\[|\]\.?", where) if k]
    doc = _edit(doc, path, "@@")
    f = tmp_path / "old.json"
    f.write_text(json.dumps(doc).replace('"@@"', token))
    line = _refused(capsys, stored, command, f, where)
    assert "not a finite number" in line


@pytest.mark.parametrize("command", sorted(_USE))
def test_deeply_nested_stored_result(tmp_path, capsys, stored, command):
    f = tmp_path / "deep.json"
    doc = json.dumps(stored[2][command])
    f.write_text(doc[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    line = _refused(capsys, stored, command, f)
    assert "nested 100,001 levels deep, above the limit of 64" in line


def test_stored_result_too_big(tmp_path, capsys, stored):
    from synagree.io.json_input import MAX_BYTES
    f = tmp_path / "big.json"
    with open(f, "wb") as fh:  # sparse: nothing is read
        fh.truncate(MAX_BYTES + 1)
    line = _refused(capsys, stored, "agree", f)
    assert f"{MAX_BYTES + 1:,} bytes, above the limit" in line


def test_stored_results_read_back_unchanged(tmp_path, capsys, stored):
    """The checks refuse nothing synagree writes."""
    a, b, docs = stored
    for command, doc in docs.items():
        f = tmp_path / f"{command}.json"
        f.write_text(json.dumps(doc))
        rc, out, err = run(capsys, *_USE[command](a, b, f))
        assert rc == 0, err


# --------------------------------------------------------------------------
# 8. Memory planned against the machine
# --------------------------------------------------------------------------

GiB = 2**30


def _one_long_sentence(path: Path, n: int, shift: int) -> Path:
    with open(path, "w") as f:
        f.write("# sent_id = s1\n")
        for i in range(1, n + 1):
            h = 0 if i == 1 else (i - 1 if (i + shift) % 7 else 1)
            f.write(f"{i}\tw{i}\t_\tX\t_\t_\t{h}\t{'root' if h == 0 else 'dep'}\t_\t_\n")
        f.write("\n")
    return path


def _memory_refusal(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ": error: " in ln]
    assert len(lines) == 1 and lines[0].endswith("(memory-limit)"), err
    return lines[0]


@pytest.mark.slow
def test_one_sentence_of_100000_words_is_refused_before_the_tables(tmp_path):
    a = _one_long_sentence(tmp_path / "a.conllu", 100_000, 0)
    b = _one_long_sentence(tmp_path / "b.conllu", 100_000, 1)
    rc, out, err = cli("agree", a, b, "-q")  # the default limit, 4G
    assert rc == 2, err
    line = _memory_refusal(err)
    assert "largest tree (100,001 nodes)" in line and "74.5 GiB" in line
    assert "(--max-memory)" in line and "split the longest sentences" in line
    # --max-memory high, but 8 GB of address space: the machine's limit is named
    rc, out, err = cli("agree", a, b, "-q", "--max-memory", "1T", address_space=8 * GiB)
    assert rc == 2, err
    line = _memory_refusal(err)
    assert "more than this process can get" in line and "ulimit -v" in line
    assert "--max-memory allows 1.0 TiB" in line
    rc, out, err = cli("compare", a, b, "-q")  # the same tables, another command
    assert rc == 2 and "largest tree (100,001 nodes)" in _memory_refusal(err)


@pytest.mark.slow
def test_a_bracket_tree_of_100000_leaves_is_refused_before_the_tables(tmp_path):
    tree = "(S " + "(X a) " * 100_000 + ")\n"
    a, b = tmp_path / "a.tree", tmp_path / "b.tree"
    a.write_text(tree)
    b.write_text(tree.replace("(X a) (X a)", "(Y a) (X a)", 1))
    rc, out, err = cli("agree", a, b, "-q", "--phrase-style", "delex")
    assert rc == 2, err
    assert "largest tree (200,001 nodes)" in _memory_refusal(err)


@pytest.mark.slow
def test_bootstrap_is_planned_against_the_machine_not_the_flag(tmp_path):
    """--bootstrap 1000 --max-memory 16G where the process can get 3 GB (ulimit -v)."""
    for name in ("a", "b"):
        (tmp_path / f"{name}.conllu").write_text("".join(
            f"# sent_id = s{i}\n1\tw\t_\tX\t_\t_\t0\troot\t_\t_\n\n" for i in range(12_000)))
    rc, out, err = cli("agree", tmp_path / "a.conllu", tmp_path / "b.conllu", "-q",
                       "--bootstrap", "1000", "--max-memory", "16G", address_space=3 * GiB)
    assert rc == 2, err
    line = _memory_refusal(err)
    assert "resampling 12,000 units 1,000 times" in line and "3.5 GiB" in line
    assert "ulimit -v" in line and "--max-memory allows 16.0 GiB" in line


def test_noise_grid_times_runs_is_planned_before_starting(tmp_path):
    src = tmp_path / "src.conllu"
    src.write_text(GOOD * 3)
    out = tmp_path / "ng"
    rc, _, err = cli("noise", src, "-o", out, "--grid", "0:1:1000", "--runs", "10000",
                     timeout=60)
    assert rc == 2, err
    line = _memory_refusal(err)
    assert "30,000,000 runs" in line and "--grid, --runs" in line
    assert not out.exists() or list(out.iterdir()) == []  # nothing written


def test_categorical_bootstrap_is_planned(tmp_path, capsys):
    a, b = _pair_files(tmp_path)
    rc, out, err = run(capsys, "categorical", a, b, "--bootstrap", "1000000", "--max-memory",
                       "10M")
    assert rc == 2 and out == ""
    assert "the bootstrap of layer" in _memory_refusal(err)


# --------------------------------------------------------------------------
# 9. Options that need what the input lacks, and optional dependencies
# --------------------------------------------------------------------------

@pytest.mark.parametrize("opts,named", [(["--per-feature"], "--per-feature needs FEATS"),
                                        (["--enhanced"], "--enhanced needs DEPS"),
                                        (["--layers", "deprel,feats:Case"],
                                         "feats:Case needs FEATS"),
                                        (["--per-feature", "--enhanced"],
                                         "--per-feature, --enhanced need FEATS and DEPS")])
def test_feature_views_of_bracket_input_are_usage_errors(tmp_path, capsys, opts, named):
    p1, p2 = tmp_path / "P1.tree", tmp_path / "P2.tree"
    p1.write_text("(S (NP D N) (VP V))\n(S (NP N) (VP V (NP N)))\n")
    p2.write_text("(S (NP D N) (VP V))\n(S (NP N) (VP V N))\n")
    rc, out, err = run(capsys, "categorical", p1, p2, *opts)
    assert rc == 2 and out == ""
    lines = [ln for ln in err.splitlines() if ": error: " in ln]
    assert len(lines) == 1 and named in lines[0] and lines[0].endswith("(usage)"), err


@pytest.fixture
def no_matplotlib(monkeypatch):
    for name in list(sys.modules):
        if name == "matplotlib" or name.startswith("matplotlib."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails


def test_figures_check_matplotlib_before_any_work(tmp_path, capsys, no_matplotlib):
    src = tmp_path / "src.conllu"
    src.write_text(GOOD * 3)
    out = tmp_path / "n"
    rc, _, err = run(capsys, "noise", src, "-o", out, "--grid", "0.5", "--runs", "1",
                     "--sample", "2", "--plot")
    assert rc == 2 and "pip install 'synagree[plot]'" in err and "(missing-extra)" in err
    assert not (out / "runs.jsonl").exists() and not (out / "config.json").exists()
    assert "nothing computed" in err  # true now: no run was computed
    runs = tmp_path / "runs.csv"
    runs.write_text("series,p,run,las\nboth,0.5,0,0.8\n")
    a, b = _pair_files(tmp_path)
    rc, _, err = run(capsys, "report", a, b, "--noise", runs, "-o", tmp_path / "r.html")
    assert rc == 2 and "(missing-extra)" in err and not (tmp_path / "r.html").exists()
    rc, _, err = run(capsys, "plot", runs, "-o", tmp_path / "figs")
    assert rc == 2 and "(missing-extra)" in err


def test_readme_install_line_names_the_extras():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    lines = [ln for ln in readme.splitlines() if "pip install" in ln and "[plot" in ln]
    assert lines and "dask" in lines[0], "the README's install line should name the extras"


# --------------------------------------------------------------------------
# 10. Found by the long fuzz run (scripts/fuzz.py --kind hierarchy)
# --------------------------------------------------------------------------

@pytest.mark.parametrize("opts", [["--hierarchy", "ud"], ["--hierarchy", "flat"],
                                  ["--hierarchy", "ud", "--bdm"]])
def test_compare_label_credit_with_an_empty_deprel(tmp_path, capsys, opts):
    """The scorer's reader takes an empty DEPREL; LAS_hier and LAS_bdm credit it as the
    label "_" (as agree and tags read it) instead of failing (exit 3)."""
    gold, system = tmp_path / "g.conllu", tmp_path / "s.conllu"
    gold.write_text(sent(word(1, 0, "root"), word(2, 1, "")))
    system.write_text(sent(word(1, 0, "root"), word(2, 1, "obj")))
    for a, b in ((gold, system), (system, gold)):
        rc, out, err = run(capsys, "compare", a, b, "-q", "--no-alpha", "--output", "json",
                           *opts)
        assert rc == 0, err
        scores = json.loads(out)["systems"][0]["counts"]
        for k in ("LAS_hier", "LAS_bdm"):
            if k in scores:
                assert scores[k]["f1"] == pytest.approx(0.5)  # "_" earns nothing from "obj"
