"""CoNLL 2018 scorer parity: shared fixtures, alignment edge cases, input
errors, and an oracle comparison with the official scorer from ``udtools``."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from conftest import SHARED_DATA
from synagree.base.problems import InputError
from synagree.evaluation.conll18 import (
    METRICS,
    OFFICIAL_METRICS,
    UNALIGNED,
    Score,
    align,
    evaluate,
    read_treebank,
    render_counts,
    render_scorer_table,
)

ROOT = Path(__file__).resolve().parents[1]
SHARED = SHARED_DATA / "parity" / "conll18"
EWT = SHARED_DATA / "ud" / "en_ewt-ud-test.conllu"
OWN = Path(__file__).resolve().parent / "data" / "conll18"

needs_shared = pytest.mark.skipif(not SHARED.is_dir(),
                                  reason=f"shared parity fixtures not found at {SHARED}")


def _lines(text: str):
    return [line.rstrip() for line in text.rstrip("\n").split("\n")]


# --------------------------------------------------------------------------- parity

# expected file -> (gold, system, renderer); sysN / sys-space pair with gold.conllu
SHARED_CASES = {
    "sys1-expected.results": ("gold.conllu", "sys1.conllu", render_scorer_table),
    "sys2-expected.results": ("gold.conllu", "sys2.conllu", render_scorer_table),
    "sys-space-expected.results": ("gold.conllu", "sys-space.conllu", render_scorer_table),
    "case-expected.results": ("case-gold.conllu", "case-sys.conllu", render_scorer_table),
    "func-expected.counts": ("func-gold.conllu", "func-sys.conllu", render_counts),
}


@needs_shared
def test_every_shared_expectation_has_a_case():
    found = {p.name for p in SHARED.iterdir()
             if p.name.endswith("-expected.results") or p.name.endswith("-expected.counts")}
    assert found <= set(SHARED_CASES), f"unpaired expected files: {found - set(SHARED_CASES)}"


@needs_shared
@pytest.mark.parametrize("expected", sorted(SHARED_CASES))
def test_shared_fixture_reproduced(expected):
    gold, system, render = SHARED_CASES[expected]
    result = evaluate(SHARED / gold, SHARED / system)
    want = (SHARED / expected).read_text(encoding="utf-8")
    got = render(result)
    assert _lines(got) == _lines(want)
    assert got + "\n" == want  # exactly, trailing blanks of the counts layout included


OWN_CASES = [
    ("tokenisation", "results"), ("tokenisation", "counts"),
    ("split", "results"), ("split", "counts"),
]


@pytest.mark.parametrize("name,kind", OWN_CASES)
def test_own_fixture_reproduced(name, kind):
    """Expected outputs were produced by the official scorer (udeval --no-enhanced)."""
    result = evaluate(OWN / f"{name}-gold.conllu", OWN / f"{name}-sys.conllu")
    render = render_scorer_table if kind == "results" else render_counts
    want = (OWN / f"{name}-expected.{kind}").read_text(encoding="utf-8")
    assert _lines(render(result)) == _lines(want)


@needs_shared
def test_sys1_explanation_counts():
    r = evaluate(SHARED / "gold.conllu", SHARED / "sys1.conllu")
    assert (r["Tokens"].correct, r["Tokens"].gold_total, r["Tokens"].system_total) == (11, 15, 13)
    assert (r["Words"].correct, r["Words"].gold_total, r["Words"].system_total) == (13, 15, 14)
    assert r["UPOS"].correct == 13 and r["UPOS"].aligned_total == 13


@needs_shared
def test_las_full_compares_subtypes():
    r = evaluate(SHARED / "gold.conllu", SHARED / "sys2.conllu")
    # sys2 has advmod:unexisting-subtype where gold has advmod:neg; LAS ignores it
    assert r["LAS_full"].correct == r["LAS"].correct - 1
    r1 = evaluate(SHARED / "gold.conllu", SHARED / "sys1.conllu")
    # sys1: flat:name vs flat, advmod vs advmod:neg
    assert r1["LAS_full"].correct == r1["LAS"].correct - 2


def test_score_rates():
    s = Score(3, 4, 6, 5)
    assert (s.precision, s.recall, s.f1, s.aligned_accuracy) == (0.5, 0.75, 0.6, 0.6)
    assert Score(0, 0, 0).f1 == 0.0 and Score(0, 0, 0).aligned_accuracy is None
    assert Score(0, 3, 2, 0).aligned_accuracy == 0.0


def test_summary_lines():
    r = evaluate(OWN / "split-gold.conllu", OWN / "split-sys.conllu")
    assert render_scorer_table(r, verbose=False).split("\n") == [
        "LAS F1 Score: 69.23", "MLAS Score: 77.78", "BLEX Score: 77.78"]


# --------------------------------------------------------------------------- alignment


def _sentence(*tokens: str) -> str:
    """One sentence from tokens written ``form`` or ``surface w1 w2 ..`` (a
    multiword token); word i hangs from word 1, word 1 is the root."""
    lines, n = [], 0
    for tok in tokens:
        parts = tok.split(" ")
        if len(parts) > 1:
            lines.append(f"{n + 1}-{n + len(parts) - 1}\t{parts[0]}" + "\t_" * 8)
            parts = parts[1:]
        for form in parts:
            n += 1
            lines.append(f"{n}\t{form}\t_\t_\t_\t_\t{0 if n == 1 else 1}\t_\t_\t_")
    return "\n".join(lines) + "\n\n"


@pytest.mark.parametrize("gold,system,aligned", [
    (["one"], ["one"], 1),
    (["x", "y", "z"], ["x", "y", "z"], 3),
    # a multiword token against plain words, inside and around
    (["xyz x y z"], ["x", "y", "z"], 3),
    (["p", "qr q r", "s"], ["p", "q", "r", "s"], 4),
    (["pqrs p q r s"], ["pq p q", "rs r s"], 4),
    (["pqr p q r", "st s t"], ["p", "qrs q r s", "t"], 5),
    # tokenisation differences outside multiword tokens
    (["wxyz"], ["w", "x", "y", "z"], 0),
    (["wxy", "z"], ["w", "x", "y", "z"], 1),
    (["w", "xy", "z"], ["w", "x", "y", "z"], 2),
    # ... and across a multiword-token boundary
    (["w", "xy x y", "z"], ["w", "x", "yz"], 2),
    (["pq p q", "rs qr s"], ["p", "qr", "s"], 2),
    (["w", "xy x y", "z"], ["wx WQ XQ", "yz YQ w"], 1),
    # LCS is on lower-cased forms; members may differ from the surface
    (["Abc A B X", "de D E"], ["Ab a b", "cd c d", "e E"], 4),
    (["Im In dem", "Haus"], ["ImHaus in DEM haus"], 3),
])
def test_word_alignment(gold, system, aligned):
    r = evaluate(_sentence(*gold), _sentence(*system))
    n_gold = sum(max(1, len(t.split(" ")) - 1) for t in gold)
    n_sys = sum(max(1, len(t.split(" ")) - 1) for t in system)
    assert (r["Words"].correct, r["Words"].gold_total, r["Words"].system_total) == \
        (aligned, n_gold, n_sys)


def test_lcs_tie_skips_gold_first():
    a = align(_sentence("xy x y"), _sentence("xy y x"))
    assert [(p.gold.id, p.system.id) for p in a] == [(2, 1)]


def test_own_tokenisation_fixture_alignment():
    a = align(OWN / "tokenisation-gold.conllu", OWN / "tokenisation-sys.conllu")
    pairs = [(p.gold.sent_id, p.gold.form, p.system.form) for p in a]
    assert pairs == [
        ("t1", "Do", "do"),  # n't ~ not fails the LCS; "stop," is one system token
        ("t1", "ca", "ca"), ("t1", "n't", "n't"),  # gold MWT vs system plain tokens
        ("t1", "stop", "stop"),
        ("t1", "now", "now"), ("t1", ".", "."),  # gold plain vs system MWT
        ("t2", "In", "in"), ("t2", "dem", "dem"), ("t2", "Haus", "Haus"),  # MWT over 2 tokens
        ("t2", "Garten", "Garten"),  # "zum" (plain) vs zu+dem: no word aligned
    ]
    # system heads are mapped into gold space
    garten = a[-1]
    assert garten.gold_head is garten.system_head and garten.gold_head.form == "Haus"
    do = a[0]
    assert do.gold_head.form == "stop" and do.system_head is UNALIGNED  # "stop," unaligned
    assert do.gold.line == 4 and do.system.line == 4 and do.system.sent_id == "s1"
    assert do.gold.ufeats == "Mood=Ind|Tense=Pres|VerbForm=Fin"
    assert a[-1].system.deprel == "obl" and a[-1].gold.deprel == "nmod"


def test_sentence_splits_differ():
    r = evaluate(OWN / "split-gold.conllu", OWN / "split-sys.conllu")
    assert (r["Sentences"].correct, r["Sentences"].gold_total, r["Sentences"].system_total) == \
        (0, 3, 3)
    assert r["Words"].correct == 13 and r["UAS"].correct == 9


def test_empty_nodes_are_skipped():
    plain = evaluate(OWN / "split-gold.conllu", OWN / "split-sys.conllu")
    with_empty = evaluate(OWN / "empty-nodes-gold.conllu", OWN / "split-sys.conllu")
    assert dict(plain) == dict(with_empty)
    tb = read_treebank(OWN / "empty-nodes-gold.conllu")
    assert len(tb.words) == 13 and "ghost" not in tb.text


def test_empty_node_inside_multiword_token():
    text = ("1-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n1\tzu\t_\t_\t_\t_\t2\tcase\t_\t_\n"
            "1.1\tghost\t_\t_\t_\t_\t_\t_\t_\t_\n2\tdem\t_\t_\t_\t_\t0\troot\t_\t_\n\n")
    tb = read_treebank(text)
    assert [w.form for w in tb.words] == ["zu", "dem"] and tb.text == "zum"


def test_sentence_metadata_and_spaces_in_forms():
    tb = read_treebank("# sent_id = a\n# text = New York\n"
                     "1\tNew York\t_\tPROPN\t_\t_\t0\troot\t_\t_\n\n")
    assert tb.sentences[0].sent_id == "a" and tb.sentences[0].text == "New York"
    assert tb.text == "NewYork" and tb.words[0].form == "New York"
    nbsp = read_treebank("1\tNew\u00a0York\t_\t_\t_\t_\t0\troot\t_\t_\n\n")
    assert nbsp.text == "NewYork"


def test_inputs_as_text_stream_and_treebank():
    text = _sentence("a", "b")
    r1 = evaluate(text, io.StringIO(text))
    r2 = evaluate(read_treebank(text), text)
    assert r1["LAS"] == r2["LAS"] == Score(2, 2, 2, 2)


def test_new_metric_is_one_entry():
    from synagree.evaluation.conll18 import WordMetric
    metrics = dict(METRICS, Forms=WordMetric(lambda w, g: w.form.lower()))
    r = evaluate(OWN / "tokenisation-gold.conllu", OWN / "tokenisation-sys.conllu", metrics)
    assert r["Forms"].correct == r["Words"].correct  # aligned pairs in spans share forms


# --------------------------------------------------------------------------- errors

W = "\t_\t_\t_\t_"  # LEMMA..FEATS


def _raises(text, name="bad.conllu") -> InputError:
    with pytest.raises(InputError) as info:
        read_treebank(io.StringIO(text), name)
    return info.value


MALFORMED = [
    ("1\ta\t_\t_\n\n", 1, "column-count"),
    (f"1\ta{W}\t0\troot\t_\t_\n2\tb{W}\t_\tdep\t_\t_\n\n", 2, "bad-head"),
    (f"1\ta{W}\t0\troot\t_\t_\n2\tb{W}\t-1\tdep\t_\t_\n\n", 2, "bad-head"),
    (f"1\ta{W}\t0\troot\t_\t_\n2\tb{W}\t7\tdep\t_\t_\n\n", 2, "head-out-of-range"),
    (f"1\ta{W}\t0\troot\t_\t_\n2\tb{W}\t3\tdep\t_\t_\n3\tc{W}\t2\tdep\t_\t_\n\n", 2, "cycle"),
    (f"1\ta{W}\t0\troot\t_\t_\n2\tb{W}\t0\troot\t_\t_\n\n", 2, "root-count"),
    (f"1\ta{W}\t0\troot\t_\t_\n3\tb{W}\t1\tdep\t_\t_\n\n", 2, "bad-id"),
    (f"x\ta{W}\t0\troot\t_\t_\n\n", 1, "bad-id"),
    (f"1\ta{W}\t0\troot\t_\t_\n", 1, "no-final-blank-line"),
    (f"1\ta{W}\t0\troot\t_\t_\n\n\n", 3, "empty-sentence"),
    (f"1-2\tab{W}\t_\t_\t_\t_\n1\ta{W}\t0\troot\t_\t_\n\n", 1, "unfinished-multiword-token"),
    (f"1\ta{W}\t0\troot\t_\t_\n# late\n\n", 2, "comment-inside-sentence"),
    (f"1\t {W}\t0\troot\t_\t_\n\n", 1, "empty-form"),
]


@pytest.mark.parametrize("text,line,kind", MALFORMED)
def test_malformed_input_names_file_line_and_kind(text, line, kind):
    err = _raises(text)
    first = err.errors[0]
    assert (first.file, first.line, first.kind) == ("bad.conllu", line, kind)
    assert f"bad.conllu:{line}:" in str(err)


def test_trailing_comments_and_empty_files_are_accepted():
    assert read_treebank(io.StringIO(_sentence("a") + "# the end\n")).sentences[0].end == 1
    r = evaluate(io.StringIO(""), io.StringIO(""))
    assert r["LAS"] == Score(0, 0, 0, 0) and r["LAS"].f1 == 0.0


def test_every_problem_of_a_file_is_reported():
    text = (f"1\ta{W}\t0\troot\t_\t_\n2\tb\n3\t {W}\t1\tdep\t_\t_\n4\tc{W}\t1\tdep\t_\t_\n\n"
            f"1\ta{W}\t0\troot\t_\t_\n2\tb{W}\t0\troot\t_\t_\n\n")
    err = _raises(text)
    assert [(p.line, p.kind) for p in err.errors] == [
        (2, "column-count"), (3, "empty-form"), (7, "root-count")]


def test_missing_file(tmp_path):
    with pytest.raises(InputError) as info:
        evaluate(tmp_path / "nope.conllu", _sentence("a"))
    assert info.value.errors[0].kind == "file-not-found"


def test_texts_differ_error_shows_context():
    with pytest.raises(InputError) as info:
        evaluate(OWN / "split-gold.conllu", OWN / "typo-sys.conllu")
    err = info.value
    assert [(Path(p.file).name, p.line, p.sent_id, p.kind) for p in err.errors] == [
        ("split-gold.conllu", 18, "g3", "text-mismatch"),
        ("typo-sys.conllu", 15, "m2", "text-mismatch")]
    msg = str(err)
    assert "Then it stop[p]ed , finally ." in msg and "Then it stop[e]d , finally ." in msg
    assert "character 32" in msg


def test_texts_differ_when_one_is_shorter():
    with pytest.raises(InputError) as info:
        evaluate(_sentence("a", "b"), _sentence("a"))
    msg = str(info.value)
    assert "a[<end of text>]" in msg and "<system>:1:" in msg and "<gold>:2:" in msg


# --------------------------------------------------------------------------- oracle


def _read_ewt(path: Path):
    """Sentences as token lists; words are dicts whose 'head' is a word (or None)."""
    sentences = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        rows = [line.split("\t") for line in block.split("\n") if line and line[0] != "#"]
        if not rows:
            continue
        words, tokens, mwt = [], [], None
        for cols in rows:
            if "." in cols[0]:
                words[-1]["empties"].append(cols)
            elif "-" in cols[0]:
                a, b = map(int, cols[0].split("-"))
                mwt = [cols[1], [], b - a + 1]
                tokens.append(mwt)
            else:
                w = dict(form=cols[1], lemma=cols[2], upos=cols[3], xpos=cols[4],
                         feats=cols[5], head=int(cols[6]), deprel=cols[7], empties=[])
                words.append(w)
                if mwt is not None and len(mwt[1]) < mwt[2]:
                    mwt[1].append(w)
                else:
                    mwt = None
                    tokens.append([None, [w]])
        for w in words:
            w["head"] = words[w["head"] - 1] if w["head"] else None
        sentences.append([(t[0], t[1]) for t in tokens])
    return sentences


def _copy(sentences):
    """Deep copy keeping head references inside each sentence."""
    out = []
    for sent in sentences:
        old = [w for _, ws in sent for w in ws]
        new = {id(w): dict(w, empties=list(w["empties"])) for w in old}
        for w in new.values():
            w["head"] = new[id(w["head"])] if w["head"] is not None else None
        out.append([(mwt, [new[id(w)] for w in ws]) for mwt, ws in sent])
    return out


def _words(sent):
    return [w for _, ws in sent for w in ws]


def _is_ancestor(a, w):
    """Is ``a`` on the head chain of ``w`` (w itself excluded)?"""
    node = w["head"]
    while node is not None:
        if node is a:
            return True
        node = node["head"]
    return False


def _merge_plain(sent, t, sep):
    """Merge plain tokens t and t+1 into one word."""
    a, b = sent[t][1][0], sent[t + 1][1][0]
    if _is_ancestor(b, a):
        a["head"], a["deprel"] = b["head"], b["deprel"]
    for w in _words(sent):
        if w["head"] is b:
            w["head"] = a
    a["form"] = a["form"] + sep + b["form"]
    a["empties"] += b["empties"]
    del sent[t + 1]


def _retokenise(sent, rng, pool):
    """One random tokenisation change that keeps the text."""
    op = rng.integers(6)
    t = int(rng.integers(len(sent)))
    mwt, ws = sent[t]
    nxt = sent[t + 1] if t + 1 < len(sent) else None
    if op == 0 and mwt is None and nxt and nxt[0] is None:  # merge two tokens
        _merge_plain(sent, t, " " if rng.random() < 0.3 else "")
    elif op == 1 and mwt is None and len(ws[0]["form"]) >= 2:  # split a token
        w = ws[0]
        k = int(rng.integers(1, len(w["form"])))
        if not (w["form"][:k].strip() and w["form"][k:].strip()):
            return
        w2 = dict(w, form=w["form"][k:], head=w, deprel=str(rng.choice(pool["deprel"])),
                  empties=[])
        w["form"] = w["form"][:k]
        sent[t:t + 1] = [(None, [w]), (None, [w2])]
    elif op == 2 and mwt is None and nxt and nxt[0] is None:  # two tokens -> one MWT
        a, b = ws[0], nxt[1][0]
        surface = a["form"] + b["form"]
        for w in (a, b):
            r = rng.random()
            if r < 0.3:
                w["form"] = w["form"].upper()
            elif r < 0.45:
                w["form"] = w["form"] + "x"
        sent[t:t + 2] = [(surface, [a, b])]
    elif op == 3 and mwt is not None:  # dissolve an MWT
        if "".join(w["form"] for w in ws) == mwt.replace(" ", ""):
            sent[t:t + 1] = [(None, [w]) for w in ws]
        else:
            sent[t:t + 1] = [(None, [w]) for w in ws]
            for _ in ws[1:]:
                _merge_plain(sent, t, "")
            sent[t][1][0]["form"] = mwt
    elif op == 4 and nxt and (mwt is not None or nxt[0] is not None):  # widen an MWT
        surface = (mwt or ws[0]["form"]) + (nxt[0] or nxt[1][0]["form"])
        sent[t:t + 2] = [(surface, ws + nxt[1])]
    elif op == 5 and mwt is not None and len(ws) >= 2:  # change member forms
        w = ws[int(rng.integers(len(ws)))]
        w["form"] = w["form"].swapcase() if rng.random() < 0.5 else w["form"][:-1] or "z"


def _perturb_annotation(sent, rng, pool, p):
    words = _words(sent)
    for w in words:
        if rng.random() < p and w["head"] is not None:
            options = [h for h in words if h is not w and not _is_ancestor(w, h)]
            w["head"] = options[int(rng.integers(len(options)))]
        if rng.random() < p and w["head"] is not None:
            w["deprel"] = str(rng.choice(pool["deprel"]))
        if rng.random() < p:
            w["upos"] = str(rng.choice(pool["upos"]))
        if rng.random() < p:
            w["xpos"] = str(rng.choice(pool["xpos"]))
        if rng.random() < p:
            r = rng.random()
            if r < 0.3:
                w["feats"] = str(rng.choice(pool["feats"]))
            elif r < 0.6:  # a language-specific feature: UFeats must not see it
                w["feats"] = "Style=Coll" if w["feats"] == "_" else w["feats"] + "|Style=Coll"
            else:
                w["feats"] = "|".join(w["feats"].split("|")[1:]) or "_"
        if rng.random() < p:
            w["lemma"] = w["lemma"].upper() if rng.random() < 0.5 else "_"


def _split_sentence(sent, t):
    parts = [sent[:t], sent[t:]]
    for part in parts:
        inside = {id(w) for w in _words(part)}
        roots = [w for w in _words(part) if w["head"] is None or id(w["head"]) not in inside]
        for w in roots[1:]:
            w["head"], w["deprel"] = roots[0], "parataxis"
        roots[0]["head"], roots[0]["deprel"] = None, "root"
    return parts


def _resplit(sentences, rng):
    out = []
    for sent in sentences:
        r = rng.random()
        if r < 0.15 and out:  # merge with the previous sentence
            root = next(w for w in _words(sent) if w["head"] is None)
            prev_root = next(w for w in _words(out[-1]) if w["head"] is None)
            root["head"], root["deprel"] = prev_root, "parataxis"
            out[-1] = out[-1] + sent
        elif r < 0.3 and len(sent) >= 2:
            out.extend(_split_sentence(sent, int(rng.integers(1, len(sent)))))
        else:
            out.append(sent)
    return out


def _write(sentences, prefix) -> str:
    lines = []
    for i, sent in enumerate(sentences, 1):
        lines.append(f"# sent_id = {prefix}{i}")
        ids = {id(w): n for n, w in enumerate(_words(sent), 1)}
        for mwt, ws in sent:
            if mwt is not None:
                first = ids[id(ws[0])]
                lines.append(f"{first}-{first + len(ws) - 1}\t{mwt}" + "\t_" * 8)
            for w in ws:
                n = ids[id(w)]
                head = ids[id(w["head"])] if w["head"] is not None else 0
                lines.append("\t".join([str(n), w["form"], w["lemma"], w["upos"], w["xpos"],
                                        w["feats"], str(head), w["deprel"], "_", "_"]))
                for k, e in enumerate(w["empties"], 1):
                    lines.append("\t".join([f"{n}.{k}"] + e[1:8] + ["_", "_"]))
        lines.append("")
    return "\n".join(lines) + "\n"


def _make_pair(sentences, rng, pool, p_tok=0.1, p_ann=0.08):
    gold = _copy(sentences)
    for sent in gold:  # gold may be retokenised too (keeps its own annotation)
        if rng.random() < 0.2:
            _retokenise(sent, rng, pool)
    system = _copy(gold)
    for sent in system:
        for _ in range(int(rng.binomial(len(sent), p_tok))):
            _retokenise(sent, rng, pool)
        _perturb_annotation(sent, rng, pool, p_ann)
    for sent in gold:
        for w in _words(sent):
            if rng.random() < 0.02:
                w["lemma"] = "_"
    system = _resplit(system, rng)
    return _write(gold, "g"), _write(system, "s")


@pytest.fixture(scope="module")
def udeval():
    """The official scorer, as shipped by ``pip install udtools`` (module udtools.udeval)."""
    try:
        import udtools.udeval as mod
    except ImportError as e:
        pytest.skip(f"udtools (official CoNLL 2018 scorer) not importable: {e}")
    return mod


@pytest.fixture(scope="module")
def ewt():
    if not EWT.is_file():
        pytest.skip(f"UD English EWT test file not found at {EWT}")
    sentences = _read_ewt(EWT)
    words = [w for s in sentences for w in _words(s)]
    pool = {k: sorted({w[k] for w in words}) for k in ("deprel", "upos", "xpos", "feats")}
    return sentences, pool


def _oracle(udeval, gold_text, system_text):
    g = udeval.load_conllu(io.StringIO(gold_text), "gold", {})
    s = udeval.load_conllu(io.StringIO(system_text), "system", {})
    return udeval.evaluate(g, s)


def _counts(score):
    return (score.correct, score.gold_total, score.system_total, score.aligned_total)


@pytest.mark.slow
def test_oracle_agreement_on_generated_pairs(udeval, ewt):
    sentences, pool = ewt
    rng = np.random.default_rng(20180701)
    n_pairs, mismatches = 240, []
    for k in range(n_pairs):
        start = int(rng.integers(len(sentences) - 12))
        chunk = sentences[start:start + int(rng.integers(2, 12))]
        gold, system = _make_pair(chunk, rng, pool, p_tok=[0.05, 0.15, 0.4][k % 3])
        ours, theirs = evaluate(gold, system), _oracle(udeval, gold, system)
        for metric in OFFICIAL_METRICS:
            if _counts(ours[metric]) != _counts(theirs[metric]) or \
                    round(100 * ours[metric].f1, 2) != round(100 * theirs[metric].f1, 2):
                mismatches.append((k, metric, _counts(ours[metric]), _counts(theirs[metric])))
        assert render_scorer_table(ours) == udeval.build_evaluation_table(theirs, True, False)
        assert render_counts(ours) == udeval.build_evaluation_table(theirs, True, True)
    assert not mismatches, mismatches[:10]


@pytest.mark.slow
def test_oracle_agreement_on_whole_treebank(udeval, ewt):
    sentences, pool = ewt
    gold, system = _make_pair(sentences, np.random.default_rng(7), pool)
    ours, theirs = evaluate(gold, system), _oracle(udeval, gold, system)
    assert {m: _counts(ours[m]) for m in OFFICIAL_METRICS} == \
        {m: _counts(theirs[m]) for m in OFFICIAL_METRICS}
    assert ours["Sentences"].correct < ours["Sentences"].gold_total  # splits really differ
    assert ours["Words"].correct < ours["Words"].gold_total  # tokenisation really differs


@pytest.mark.parametrize("text,line,kind", MALFORMED)
def test_malformed_input_is_rejected_by_the_oracle_too(udeval, text, line, kind):
    with pytest.raises(Exception):
        udeval.load_conllu(io.StringIO(text), "bad", {})


def test_empty_files_render_like_the_oracle(udeval):
    assert render_scorer_table(evaluate(io.StringIO(""), io.StringIO(""))) == \
        udeval.build_evaluation_table(_oracle(udeval, "", ""), True, False)
