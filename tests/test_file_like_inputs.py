"""File-like inputs (issue 22, item 1): every reader takes a stream as it takes a path.

The numbers are checked against the CLI's JSON on the same files written to
disk (the CLI reads paths only), and the names against what the brief says:
unnamed streams are ``ann1``, ``ann2``, ... (``<ann1>`` in messages), a
stream with a real ``.name`` is named as its file.
"""
from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
from pathlib import Path

import pytest

import synagree
from synagree.base.problems import InputError

SAMPLE = Path(__file__).resolve().parents[1] / "synagree" / "data" / "en-sample"
A = (SAMPLE / "ann_a" / "sample.conllu").read_text(encoding="utf-8")
B = (SAMPLE / "ann_b" / "sample.conllu").read_text(encoding="utf-8")
ROW = "{}\t{}\t_\t{}\t_\t_\t{}\t{}\t_\t_\n"


@pytest.fixture(scope="module")
def cli_json(tmp_path_factory):
    """The CLI's JSON for the two sample annotations as files (a.conllu, b.conllu)."""
    from synagree.cli.main import main

    d = tmp_path_factory.mktemp("cli")
    (d / "a.conllu").write_text(A, encoding="utf-8")
    (d / "b.conllu").write_text(B, encoding="utf-8")
    out = d / "r.json"
    assert main(["agree", str(d / "a.conllu"), str(d / "b.conllu"), "-q", "--output", "json",
                 "-o", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def _alphas(doc: dict) -> dict:
    return {k: doc[k] for k in ("alpha_plain", "alpha_diff", "alpha_norm", "LAS", "UAS")}


@pytest.mark.parametrize("make", [
    pytest.param(lambda t: io.StringIO(t), id="StringIO"),
    pytest.param(lambda t: io.BytesIO(t.encode("utf-8")), id="BytesIO"),
    pytest.param(lambda t: io.BytesIO(gzip.compress(t.encode("utf-8"))), id="gzip-BytesIO"),
    pytest.param(lambda t: io.BytesIO(lzma.compress(t.encode("utf-8"))), id="xz-BytesIO"),
    pytest.param(lambda t: io.BytesIO(bz2.compress(t.encode("utf-8"))), id="bz2-BytesIO"),
    pytest.param(lambda t: gzip.GzipFile(fileobj=io.BytesIO(gzip.compress(t.encode()))),
                 id="gzip-reader"),
    pytest.param(lambda t: io.BytesIO(("\ufeff" + t).encode("utf-8")), id="BOM"),
])
def test_agree_streams_equal_the_cli(cli_json, make):
    res = synagree.agree([make(A), make(B)])
    d = res.to_dict()
    assert d["alpha_plain"] == cli_json["alpha_plain"]  # the done-when, exactly
    assert _alphas(d) == _alphas(cli_json)
    assert res.annotators == ["ann1", "ann2"]


def test_agree_path_objects_and_a_mix(cli_json, tmp_path):
    pa, pb = tmp_path / "anna.conllu", tmp_path / "ben.conllu.gz"
    pa.write_text(A, encoding="utf-8")
    pb.write_bytes(gzip.compress(B.encode("utf-8")))
    res = synagree.agree([pa, pb])  # pathlib.Path
    assert _alphas(res.to_dict()) == _alphas(cli_json)
    assert res.annotators == ["anna", "ben"]
    mixed = synagree.agree([io.StringIO(A), pb])  # a stream and a path
    assert _alphas(mixed.to_dict()) == _alphas(cli_json)
    assert mixed.annotators == ["ann1", "ben"]
    with open(pa, encoding="utf-8") as fa, open(pb, "rb") as fb:  # open files: their names
        named = synagree.agree([fa, fb])
    assert named.annotators == ["anna", "ben"]
    assert _alphas(named.to_dict()) == _alphas(cli_json)
    again = synagree.agree([io.StringIO(A), io.StringIO(B)], names=["x", "y"])
    assert again.annotators == ["x", "y"]


def test_stream_problems_name_the_stream(tmp_path):
    bad = ROW.format(1, "Hi", "X", 5, "root") + "\n"
    with pytest.raises(InputError) as exc:
        synagree.agree([io.StringIO(A), io.StringIO(bad)])
    assert [(p.file, p.line, p.kind) for p in exc.value.errors] == \
        [("<ann2>", 1, "head-out-of-range")]
    named = tmp_path / "bad.conllu"
    named.write_text(bad, encoding="utf-8")
    with open(named, encoding="utf-8") as fh, pytest.raises(InputError) as exc:
        synagree.agree([io.StringIO(A), fh])
    assert exc.value.errors[0].file == str(named)
    with pytest.raises(InputError) as exc:  # an empty stream, a corrupt gzip stream
        synagree.agree([io.StringIO(""), io.BytesIO(gzip.compress(b"1\tx")[:12])])
    assert [(p.file, p.kind) for p in exc.value.errors] == \
        [("<ann1>", "empty-file"), ("<ann2>", "corrupt-compressed-file")]
    with pytest.raises(InputError) as exc:  # bytes that are not UTF-8
        synagree.agree([io.StringIO(A), io.BytesIO(b"1\t\xff\t_\t_\t_\t_\t0\troot\t_\t_\n\n")])
    assert (exc.value.errors[0].file, exc.value.errors[0].kind) == ("<ann2>", "encoding")


def test_a_closed_stream_is_unreadable():
    closed = io.StringIO(A)
    closed.close()
    with pytest.raises(InputError) as exc:
        synagree.agree([io.StringIO(A), closed])
    assert [(p.file, p.kind) for p in exc.value.errors] == [("<ann2>", "unreadable")]


def test_one_stream_or_the_same_twice_is_refused():
    with pytest.raises(InputError) as exc:
        synagree.agree(io.StringIO(A))  # not a list: its lines are no files
    assert exc.value.errors[0].kind == "usage"
    s = io.StringIO(A)
    with pytest.raises(InputError) as exc:
        synagree.agree([s, s])
    assert exc.value.errors[0].kind == "duplicate-input"
    with pytest.raises(TypeError, match="file-like object"):
        synagree.agree([A.encode(), B.encode()])


def test_phrase_structure_streams(core_data):
    a = (core_data / "phrase" / "penn-a.mrg").read_text(encoding="utf-8")
    b = (core_data / "phrase" / "penn-b.mrg").read_text(encoding="utf-8")
    by_path = synagree.agree([core_data / "phrase" / "penn-a.mrg",
                              core_data / "phrase" / "penn-b.mrg"])
    by_stream = synagree.agree([io.StringIO(a), io.BytesIO(gzip.compress(b.encode()))])
    assert by_stream.to_dict()["alpha_plain"] == by_path.to_dict()["alpha_plain"]
    assert by_stream.kind == by_path.kind == "phrase"


def test_readers_take_streams():
    from synagree.base.problems import ProblemLog
    from synagree.io.brackets import parse_bracket_file, read_brackets
    from synagree.io.conllu import read_conllu

    by_path = read_conllu(SAMPLE / "ann_a" / "sample.conllu")
    by_stream = read_conllu(io.BytesIO(gzip.compress(A.encode())))
    assert [s.heads.tolist() for s in by_stream] == [s.heads.tolist() for s in by_path]
    assert by_stream[0].file == "<stream>"
    assert parse_bracket_file(io.StringIO("(S (NP D N) V)\n"), ProblemLog()) == \
        [(1, ["S", ["NP", "D", "N"], "V"])]
    [s] = read_brackets(io.BytesIO(b"(S (NP (D the) (N dog)) (V ran))\n"))
    assert s.root.bracketed() == "(S (NP D N) V)"


def test_read():
    sents = synagree.read(io.StringIO(A))
    by_path = synagree.read(SAMPLE / "ann_a" / "sample.conllu")
    by_text = synagree.read(A)  # text itself
    assert [s.heads.tolist() for s in sents] == [s.heads.tolist() for s in by_path] == \
        [s.heads.tolist() for s in by_text]
    assert [s.deprels for s in sents] == [s.deprels for s in by_path]
    assert (sents[0].file, by_text[0].file) == ("<stream>", "<text>")
    assert synagree.read(A, name="anna")[0].file == "anna"
    assert synagree.read(str(SAMPLE / "ann_a" / "sample.conllu"))[0].file.endswith("sample.conllu")
    [p] = synagree.read("(S (NP D N) V)\n")
    assert p.root.bracketed() == "(S (NP D N) V)"
    [p] = synagree.read(io.StringIO("(S (NP (D the) N) V)"), format="phrase",
                        phrase_style="penn")
    assert (p.root.bracketed(), p.words) == ("(S (NP D))", ["the", "N", "V"])
    with pytest.raises(InputError) as exc:
        synagree.read(ROW.format(1, "Hi", "X", 3, "root"), name="mine")
    assert (exc.value.errors[0].file, exc.value.errors[0].kind) == ("mine", "head-out-of-range")
    with pytest.raises(ValueError, match="format"):
        synagree.read(A, format="xml")


def test_compare_streams():
    from synagree.evaluation.compare import compare

    by_path = compare(SAMPLE / "ann_a" / "sample.conllu", [SAMPLE / "ann_b" / "sample.conllu"],
                      alpha=False)
    res = compare(io.BytesIO(gzip.compress(A.encode())),
                  [io.BytesIO(B.encode()), io.StringIO(B)], alpha=False)
    assert [s.value("LAS") for s in res.systems] == [by_path.systems[0].value("LAS")] * 2
    assert [s.name for s in res.systems] == ["<system 1>", "<system 2>"]


def _with_xpos(text: str) -> str:
    """XPOS = UPOS_DEPREL (so that UPOS is a function of XPOS)."""
    out = []
    for ln in text.splitlines():
        c = ln.split("\t")
        if len(c) == 10:
            c[4] = f"{c[3]}_{c[7].split(':')[0]}"
        out.append("\t".join(c))
    return "\n".join(out) + "\n"


def test_tags_streams_with_tiers_and_hierarchy(tmp_path):
    from synagree.evaluation.tags import evaluate_tags

    a, b = _with_xpos(A), _with_xpos(B)
    (tmp_path / "a.conllu").write_text(a, encoding="utf-8")
    (tmp_path / "b.conllu").write_text(b, encoding="utf-8")
    by_path = evaluate_tags(tmp_path / "a.conllu", tmp_path / "b.conllu", column="xpos",
                            tiers="upos", unmapped="own-class")
    res = evaluate_tags(io.StringIO(a), io.BytesIO(gzip.compress(b.encode())), column="xpos",
                        tiers="upos", unmapped="own-class")  # the gold stream is read twice
    assert res.accuracy == by_path.accuracy
    assert res.to_dict()["tiers"] == by_path.to_dict()["tiers"]
    assert (res.gold_file, res.system_file) == ("<gold>", "<system>")
    tags = sorted({ln.split("\t")[4] for t in (a, b) for ln in t.splitlines()
                   if ln and ln[0].isdigit()})
    tiers = io.StringIO("".join(f"{t}\t{t.split('_')[0]}\n" for t in tags))
    hier = io.StringIO("ROOT\n" + "".join(f"  {t}\n" for t in tags))
    res = evaluate_tags(io.StringIO(a), io.StringIO(b), column="xpos", tiers=tiers,
                        hierarchy=hier)
    assert res.hierarchy == "file <hierarchy>"
    assert res.to_dict()["tiers"]["mapping"].startswith("file <tiers>")


def test_hierarchy_stream_in_agree():
    by_keyword = synagree.agree([io.StringIO(A), io.StringIO(B)], hierarchy="flat")
    labels = sorted({ln.split("\t")[7] for t in (A, B) for ln in t.splitlines()
                     if ln and ln[0].isdigit()})
    flat = io.StringIO("".join(f"{lab}\n" for lab in labels))
    by_stream = synagree.agree([io.StringIO(A), io.StringIO(B)], hierarchy=flat)
    d1, d2 = by_keyword.to_dict(), by_stream.to_dict()
    assert d2["LA_hier"] == d1["LA_hier"]
    assert by_stream.settings["hierarchy"].startswith("file <hierarchy>")


def test_lexicon_stream():
    from synagree.evaluation.tags import load_lexicon

    lex = load_lexicon(io.StringIO("can\tMD\ncan\tNN\n"), "xpos")
    assert lex.tags("can") == {"MD": 1, "NN": 1} and lex.source == "file <lexicon>"


def test_parseval_streams():
    from synagree.evaluation.parseval import parseval

    g = "(TOP (S (NP (NNP Ann)) (VP (VBZ sings)) (. .)))\n"
    t = "(TOP (S (NP (NNP Ann)) (VP (VBZ sings) (. .))))\n"
    by_lines = parseval([g.strip()], [t.strip()])
    by_streams = parseval(io.BytesIO(gzip.compress(g.encode())), io.StringIO(t))
    assert by_streams.all.fraction("f_measure") == by_lines.all.fraction("f_measure")
    assert by_streams.gold_file == "<gold>"
    prm = io.BytesIO(b"DELETE_LABEL TOP\n")  # punctuation kept: the VPs differ
    other = parseval([g.strip()], [t.strip()], params=prm)  # a parameter file in a stream
    assert other.all.fraction("f_measure") != by_lines.all.fraction("f_measure")
    with pytest.raises(InputError) as exc:
        parseval([g.strip()], [t.strip()], params=io.StringIO("NO_SUCH_KEY 1\n"))
    assert exc.value.errors[0].file == "<params>"


def test_noise_source_stream():
    from synagree.noise.source import load_source

    src = load_source([io.StringIO(A)], sample=3, seed=1)
    by_path = load_source([SAMPLE / "ann_a" / "sample.conllu"], sample=3, seed=1)
    assert src.files == ["<source1>"]
    assert [s.heads.tolist() for s in src.sentences] == \
        [s.heads.tolist() for s in by_path.sentences]
    assert src.sha256 != load_source([io.StringIO(B)], sample=3, seed=1).sha256


def test_spans_streams(core_data):
    from synagree.evaluation.spans import span_agreement

    by_path = span_agreement([SAMPLE / "ann_a" / "sample.conllu",
                              SAMPLE / "ann_b" / "sample.conllu"], names=["x", "y"]).to_dict()
    by_stream = span_agreement([io.StringIO(A), io.BytesIO(gzip.compress(B.encode()))],
                               names=["x", "y"]).to_dict()
    assert by_stream["files"] == ["<ann1>", "<ann2>"]
    assert {k: v for k, v in by_stream.items() if k != "files"} == \
        {k: v for k, v in by_path.items() if k != "files"}
    trees = [core_data / "phrase" / f for f in ("penn-a.mrg", "penn-b.mrg")]
    res = span_agreement([io.StringIO(trees[0].read_text(encoding="utf-8")), trees[1]])
    assert res.annotators == ["ann1", "penn-b"]
