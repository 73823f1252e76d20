"""Hostile-input generators and the one check every fuzz case must pass.

Used by ``tests/test_fuzz.py`` (a bounded run in the test suite) and by
``scripts/fuzz.py`` (a long run that counts outcomes).  A *case* is a
command line of ``synagree`` plus the files it reads; :func:`run_case`
writes the files into a fresh directory and calls ``synagree.cli.main``
in-process; :func:`check` asserts the contract of the command line:

* the exit status is 0 or 2, never 3 (internal error) and no exception
  escapes;
* with 2, stderr lists the problems as ``FILE[:LINE]: error: MESSAGE (kind)``
  and at least one of them names an input file.

Bracket depth is kept at most :data:`MAX_DEPTH` (100) levels here: deeper
nesting is handled separately (the bracket reader's recursion).
"""
from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import lzma
import os
import re
import tempfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple

from hypothesis import strategies as st

MAX_DEPTH = 100  # bracket nesting in the generators (see the module doc)

# ---------------------------------------------------------------- tokens

NON_ASCII_DIGITS = ["\u0660", "\u0661", "\u00b2", "\u00b9", "\U0001d7d8", "\u0966", "\uff11",
                    "\u2460"]
ODD = ["\u0301", "e\u0301", "\u202e", "\u200f", "\u05d0\u05d1", "\u0627\u0644", "\x00",
       "\ufeff", "\u2028", "\u2029", "\x1b[31m", "\x7f", "\x85", "\u00a0", "\u3000",
       "\U0001f600", "\ud7ff", "\uffff", "\r", "\x0b", "\x0c"]
MARKUP = ["_", "-", "#", "(", ")", "|", "<", ">", "&", "$", "^", "\\", "=", "+", "@", "%",
           "~", "{", "}", "*", "`", "[", "]", "'", '"', ":", ",", ";", "=cmd()",
           "<script>alert(1)</script>", "</script>", "\"><img src=x onerror=alert(1)>",
           "c^d", "$x$", "\\end{tabular}", "nan", "inf", "-0.05", "1e308", "None", "null"]
LABELS = ["root", "nsubj", "obj", "det", "amod", "nmod:poss", "acl:relcl", "punct", "case",
          "advmod", "conj", "cc", "_", ""]
UPOS = ["NOUN", "VERB", "ADJ", "DET", "PRON", "ADP", "PUNCT", "X", "_"]

text_token = st.one_of(
    st.sampled_from(MARKUP + ODD + NON_ASCII_DIGITS + LABELS),
    st.text(max_size=6),
    st.lists(st.sampled_from(MARKUP + ODD + NON_ASCII_DIGITS + ["a", "b", " "]),
             max_size=6).map("".join),
)
form_token = st.one_of(st.sampled_from(["the", "dog", "runs", ".", "New York", "a b"]),
                       text_token.filter(lambda s: not re.search(r"[\t\n\r]", s)))
label_token = st.one_of(st.sampled_from(LABELS), text_token)
odd_number = st.one_of(
    st.sampled_from(["01", "-1", "+1", "0", "1-2", "2-3", "1-1", "3-2", "1.1", "0.1", "1.0",
                     "01.1", "1-", "-", ".", "_", "", " 1", "1 ", "1e3", "0x1", "99999999999999",
                     "1-99999999999999"] + NON_ASCII_DIGITS),
    st.builds(lambda d, n: str(n) + d, st.sampled_from(NON_ASCII_DIGITS), st.integers(0, 9)),
    text_token,
)


# ---------------------------------------------------------------- CoNLL-U

@st.composite
def conllu_sentence(draw, n_words: Optional[int] = None, labels=None, with_mwt=True) -> List[str]:
    """Lines of one sentence: a random tree with sequential IDs (the caller
    mutates it)."""
    n = n_words if n_words is not None else draw(st.integers(1, 8))
    labels = st.sampled_from(LABELS[:-2]) if labels is None else labels
    lines = []
    if draw(st.booleans()):
        lines.append(f"# sent_id = {draw(form_token)}")
    if draw(st.booleans()):
        lines.append(f"# text = {draw(form_token)}")
    # a tree: words attached in a random order, each to one attached before it
    order = draw(st.permutations(range(1, n + 1)))
    heads = {order[0]: 0}
    for k, w in enumerate(order[1:], start=1):
        heads[w] = order[draw(st.integers(0, k - 1))]
    covered = 0  # last word of the last multiword token
    for i in range(1, n + 1):
        head = heads[i]
        if with_mwt and covered < i < n and draw(st.integers(0, 9)) == 9:
            covered = i + 1
            lines.append("\t".join([f"{i}-{i + 1}", "ab", "_", "_", "_", "_", "_", "_", "_",
                                    "_"]))
        lines.append("\t".join([str(i), draw(form_token).replace("\t", " ").replace("\n", " ")
                                or "w", "_", draw(st.sampled_from(UPOS)), "_", "_", str(head),
                                draw(labels), "_", "_"]))
        if draw(st.integers(0, 14)) == 14:
            lines.append("\t".join([f"{i}.1", "e", "_", "X", "_", "_", "_", "_", f"{i}:dep",
                                    "_"]))
    return lines


MUTATIONS = ("id", "head", "deprel", "columns-", "columns+", "spaces", "blank", "comment",
             "dup-line", "drop-line", "odd-form", "huge", "swap-lines", "mwt", "odd-short")


@st.composite
def mutate_lines(draw, lines: List[str], k: Optional[int] = None) -> List[str]:
    """``k`` random edits of the lines of a file."""
    lines = list(lines)
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 1, 2, 3])) if k is None else k):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        what = draw(st.sampled_from(MUTATIONS))
        cols = lines[i].split("\t")
        if what in ("id", "head", "deprel") and len(cols) == 10:
            cols[{"id": 0, "head": 6, "deprel": 7}[what]] = draw(
                label_token if what == "deprel" else odd_number).replace("\t", " ") \
                .replace("\n", " ")
            lines[i] = "\t".join(cols)
        elif what == "columns-" and len(cols) > 1:
            lines[i] = "\t".join(cols[:draw(st.integers(1, len(cols) - 1))])
        elif what == "columns+":
            lines[i] = lines[i] + "\t" + "\t".join(["_"] * draw(st.integers(1, 3)))
        elif what == "spaces":
            lines[i] = lines[i].replace("\t", draw(st.sampled_from([" ", "  ", "\u00a0"])))
        elif what == "blank":
            lines.insert(i, draw(st.sampled_from(["", " ", "\t", "\r"])))
        elif what == "comment":
            lines.insert(i, "#" + draw(form_token))
        elif what == "dup-line":
            lines.insert(i, lines[i])
        elif what == "drop-line":
            del lines[i]
        elif what == "odd-form" and len(cols) == 10:
            cols[1] = draw(text_token).replace("\t", " ").replace("\n", " ")
            lines[i] = "\t".join(cols)
        elif what == "huge":
            big = draw(st.sampled_from(["x", "٠", "\u0301", "(", "a b"])) * draw(
                st.sampled_from([1000, 100_000, 300_000]))
            if len(cols) == 10:
                cols[draw(st.sampled_from([0, 1, 6, 7]))] = big
                lines[i] = "\t".join(cols)
            else:
                lines[i] = lines[i] + big
        elif what == "swap-lines" and len(lines) > 1:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif what == "odd-short":  # an odd ID on a line with too few columns
            lines[i] = "\t".join([draw(odd_number).replace("\t", " ").replace("\n", " ")]
                                 + cols[1:draw(st.integers(1, 9))])
        elif what == "mwt":
            a = draw(st.integers(0, 6))
            lines.insert(i, "\t".join([f"{a}-{a + draw(st.integers(-1, 3))}", "xy"] + ["_"] * 8))
    return lines


def join_conllu(sentences: Sequence[Sequence[str]], newline: str = "\n",
                final_blank: bool = True) -> str:
    text = (newline + newline).join(newline.join(s) for s in sentences)
    return text + (newline + newline if final_blank else newline)


@st.composite
def conllu_pair(draw) -> Tuple[str, str]:
    """Two annotations of the same sentences (labels and heads may differ),
    each possibly mutated."""
    n_sent = draw(st.integers(1, 5))
    sizes = [draw(st.integers(1, 7)) for _ in range(n_sent)]
    labels = draw(st.one_of(st.just(None), st.lists(label_token, min_size=1, max_size=5)
                            .map(st.sampled_from)))
    a = [draw(conllu_sentence(n, labels)) for n in sizes]
    b = [draw(conllu_sentence(n, labels)) for n in sizes]
    # same tokens: copy the forms of a into b
    for sa, sb in zip(a, b):
        forms = [ln.split("\t")[1] for ln in sa if not ln.startswith("#") and "\t" in ln
                 and re.fullmatch(r"[0-9]+", ln.split("\t")[0])]
        k = 0
        for j, ln in enumerate(sb):
            cols = ln.split("\t")
            if len(cols) == 10 and re.fullmatch(r"[0-9]+", cols[0]) and k < len(forms):
                cols[1] = forms[k]
                k += 1
                sb[j] = "\t".join(cols)
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    final = draw(st.integers(0, 4)) > 0  # (the last blank line missing: compare refuses)
    ta = "\n".join(draw(mutate_lines(join_conllu(a, "\n", final).split("\n"))))
    tb = "\n".join(draw(mutate_lines(join_conllu(b, "\n", final).split("\n"))))
    return ta.replace("\n", newline), tb.replace("\n", newline)


# ---------------------------------------------------------------- brackets

bracket_label = st.one_of(st.sampled_from(["S", "NP", "VP", "PP", "D", "N", "V", "P", "-NONE-",
                                           "NP-SBJ", "$", "``", "''", ".", ",", "CC"]),
                          st.text(alphabet=st.characters(blacklist_characters="()\t\n\r ",
                                                         blacklist_categories=("Zs", "Cc")),
                                  min_size=1, max_size=4))


@st.composite
def bracket_tree(draw, max_depth: int = 6, max_kids: int = 4) -> str:
    """A random tree, ``(LABEL kid ...)``; deep chains and wide nodes too."""
    shape = draw(st.sampled_from(["random", "random", "deep", "wide"]))
    if shape == "deep":
        depth = draw(st.integers(1, MAX_DEPTH - 1))
        label = draw(bracket_label)
        return "(X " * depth + f"({label} w)" + ")" * depth
    if shape == "wide":
        kids = " ".join(f"({draw(bracket_label)} w{k})" for k in range(draw(st.integers(1, 400))))
        return f"(S {kids})"

    def node(depth: int) -> str:
        label = draw(bracket_label)
        if depth >= max_depth or draw(st.integers(0, 3)) == 0:
            return f"({label} {draw(bracket_label)})" if draw(st.booleans()) else label
        kids = [node(depth + 1) for _ in range(draw(st.integers(1, max_kids)))]
        return f"({label} {' '.join(kids)})"

    return node(0) if draw(st.booleans()) else f"({node(1)})"


@st.composite
def bracket_file(draw) -> str:
    trees = draw(st.lists(bracket_tree(), min_size=1, max_size=4))
    sep = draw(st.sampled_from(["\n", "\n\n", " ", "\n# comment\n"]))
    text = sep.join(trees) + "\n"
    if draw(st.integers(0, 2)) == 2:  # random damage
        chars = list(text)
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(chars)))
            chars.insert(i, draw(st.sampled_from(["(", ")", " ", "\n", "x", "#", "\x00",
                                                  "\u0301", "٠"])))
        text = "".join(chars)
    return text


bracket_soup = st.lists(st.sampled_from(["(", ")", "(", ")", "S", "NP", " ", "\n", "#", "x y",
                                         "\t", "()", "( )", "\u202e", "\x00"]),
                        max_size=200).map("".join)


# ---------------------------------------------------------------- bytes

@st.composite
def damage_bytes(draw, data: bytes) -> bytes:
    """Byte-level damage: invalid UTF-8, surrogates encoded as bytes, NUL,
    BOMs, truncation."""
    out = bytearray(data)
    for _ in range(draw(st.sampled_from([0] * 10 + [1, 2, 3]))):
        i = draw(st.integers(0, len(out)))
        out[i:i] = draw(st.sampled_from([b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xff", b"\xc3",
                                         b"\x00", b"\xef\xbb\xbf", b"\xe6", b"\xf4\x90\x80\x80",
                                         b"\xc0\x80"]))
    if draw(st.integers(0, 9)) == 9:
        out = out[:draw(st.integers(0, len(out)))]
    return bytes(out)


COMPRESSORS = {".gz": gzip.compress, ".xz": lzma.compress, ".bz2": bz2.compress}


@st.composite
def maybe_compressed(draw, data: bytes, name: str) -> Tuple[bytes, str]:
    """Sometimes compressed (and then sometimes truncated or misnamed)."""
    how = draw(st.sampled_from(["plain"] * 12 + [".gz", ".xz", ".bz2", "bad"]))
    if how == "plain":
        return data, name
    if how == "bad":
        return data, name + draw(st.sampled_from(list(COMPRESSORS)))  # not compressed data
    packed = COMPRESSORS[how](data)
    if draw(st.integers(0, 5)) == 5:
        packed = packed[:draw(st.integers(0, len(packed)))]
    return packed, name + how


# ---------------------------------------------------------------- cases

@dataclass
class Case:
    """A command line; ``{0}``, ``{1}``, ... in ``args`` are the files, ``{out}``
    an output path in the case's directory."""

    args: List[str]
    files: List[Tuple[str, bytes]] = field(default_factory=list)
    #: all files in one directory (brat: an .ann file's text is the .txt beside it)
    same_dir: bool = False

    def describe(self) -> str:
        return (" ".join(self.args) + "\n"
                + "\n".join(f"--- {n} ({len(d)} bytes)\n{d[:2000]!r}" for n, d in self.files))


# (\udcff: the byte \xff in a file name that is not UTF-8, as Python sees it)
FILE_NAMES = ["a", "b", "ann 1", "=cmd|x", "é\u0301", "\u202eevil", "x_[y]<z>^%", "\udcff-x"]


@st.composite
def conllu_case(draw) -> Case:
    ta, tb = draw(conllu_pair())
    files = []
    names = draw(st.lists(st.sampled_from(FILE_NAMES), min_size=2, max_size=2, unique=True))
    for text, base in ((ta, names[0]), (tb, names[1])):
        data = draw(damage_bytes(text.encode("utf-8", "surrogatepass")))
        suffix = draw(st.sampled_from([".conllu", ".conllu", ".conll", ".txt", ""]))
        data, fname = draw(maybe_compressed(data, base + suffix))
        files.append((fname, data))
    command = draw(st.sampled_from(["agree", "agree-out", "compare", "compare-alpha", "tags",
                                    "categorical", "report", "report-html", "noise"]))
    args = {
        "agree": ["agree", "{0}", "{1}", "-q"],
        "agree-out": ["agree", "{0}", "{1}", "-q", "--worst", "2", "--output",
                      draw(st.sampled_from(["json", "csv", "latex", "table"]))],
        "compare": ["compare", "{0}", "{1}", "--no-alpha", "--breakdown", "-q"],
        "compare-alpha": ["compare", "{0}", "{1}", "-q", "--output",
                          draw(st.sampled_from(["table", "json", "csv", "latex"]))],
        "tags": ["tags", "{0}", "{1}", "--column",
                 draw(st.sampled_from(["deprel", "upos", "xpos", "feats"])), "--output",
                 draw(st.sampled_from(["table", "json", "csv"]))],
        "categorical": ["categorical", "{0}", "{1}", "--specific", "deprel", "--output",
                        draw(st.sampled_from(["table", "json", "csv", "markdown", "latex"]))],
        "report": ["report", "{0}", "{1}", "--bootstrap", "0", "-q", "--output",
                   draw(st.sampled_from(["csv", "markdown", "latex", "json"]))],
        "report-html": ["report", "{0}", "{1}", "--bootstrap", "0", "-q", "-o", "{out}/r.html"],
        "noise": ["noise", "{0}", "-o", "{out}/noise", "--sample", "3", "--grid", "0.5",
                  "--runs", "1", "--series", "both", "-q"],
    }[command]
    if command.startswith(("agree", "report", "categorical")) and draw(st.booleans()):
        args.append("--allow-missing")
    return Case(args, files)


@st.composite
def bracket_case(draw) -> Case:
    texts = [draw(st.one_of(bracket_file(), bracket_file(), bracket_soup)) for _ in range(2)]
    if draw(st.booleans()):  # the same trees, so that agreement is computed
        texts[1] = texts[0]
    files = []
    for k, text in enumerate(texts):
        data = draw(damage_bytes(text.encode("utf-8", "surrogatepass")))
        suffix = draw(st.sampled_from([".tree", ".mrg", ".ptb", ""]))
        data, fname = draw(maybe_compressed(data, f"t{k}{suffix}"))
        files.append((fname, data))
    style = draw(st.sampled_from(["auto", "delex", "penn"]))
    command = draw(st.sampled_from(["agree", "report", "categorical"]))
    args = {"agree": ["agree", "{0}", "{1}", "-q", "--format", "phrase", "--phrase-style", style,
                      "--output", draw(st.sampled_from(["table", "json", "csv", "latex"]))],
            "report": ["report", "{0}", "{1}", "--bootstrap", "0", "-q", "--format", "phrase",
                       "-o", "{out}/r.html"],
            "categorical": ["categorical", "{0}", "{1}", "--format", "phrase"]}[command]
    return Case(args, files)


@st.composite
def bytes_case(draw) -> Case:
    """Random bytes (or random text) in files with telling names."""
    blobs = [draw(st.one_of(st.binary(max_size=600),
                            st.text(max_size=300).map(lambda s: s.encode("utf-8",
                                                                         "surrogatepass"))))
             for _ in range(2)]
    names = [draw(st.sampled_from(["x.conllu", "x.tree", "x", "x.conllu.gz", "x.xz"])) for _ in
             range(2)]
    files = [("0-" + names[0], blobs[0]), ("1-" + names[1], blobs[1])]
    command = draw(st.sampled_from([["agree", "{0}", "{1}", "-q"],
                                    ["compare", "{0}", "{1}", "--no-alpha", "-q"],
                                    ["tags", "{0}", "{1}"], ["categorical", "{0}", "{1}"]]))
    return Case(list(command), files)


@st.composite
def noise_table_case(draw) -> Case:
    """A noise results table (``plot``, ``report --noise``) with odd series and
    column names and values."""
    name = st.one_of(st.sampled_from(["both", "relabel", "x/y", "../up", "$\\frac{1$", "a$b$c",
                                      "<script>", "", ".", "\u202e", "nan"]), text_token)
    metrics = draw(st.lists(st.one_of(st.sampled_from(["alpha_plain", "LAS_full", "UAS",
                                                       "jaccard"]), name),
                            min_size=1, max_size=3, unique=True))
    cols = ["series", "p", "run"] + metrics
    value = st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(repr),
                      st.sampled_from(["", "0.5", "-1", "1e400", "x"]))
    rows = [[draw(name), draw(st.sampled_from(["0.1", "0.5", "1", "-0", "nan", "x", ""])),
             draw(st.sampled_from(["0", "1", "x"]))] + [draw(value) for _ in metrics]
            for _ in range(draw(st.integers(0, 6)))]
    buf = io.StringIO()
    import csv
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    w.writerows(rows)
    data = buf.getvalue().encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        args = ["plot", "{0}", "-o", "{out}/plots", "--formats", "svg", "-q"]
    else:
        args = ["report", "{1}", "{2}", "--bootstrap", "0", "-q", "--noise", "{0}", "-o",
                "{out}/r.html"]
    good = join_conllu([draw(conllu_sentence(3, with_mwt=False))]).encode("utf-8",
                                                                         "surrogatepass")
    return Case(args, [("runs.csv", data), ("a.conllu", good), ("b.conllu", good)])


# ---------------------------------------------------------------- hierarchies, tiers

tag_token = st.one_of(st.sampled_from(LABELS[:-1] + UPOS + ["nsubj:pass", "obl:tmod", "NN",
                                                            "NNS", "VB", "a:b:c", "#x", ":"]),
                      text_token.map(lambda t: t.replace("\n", " ").replace("\r", " ")))


@st.composite
def hierarchy_file(draw) -> str:
    """A hierarchy file (outline or edge format, docs/hierarchy.md), often broken:
    cycles, two parents, odd indentation, three fields, deep chains, odd text."""
    shape = draw(st.sampled_from(["edges", "outline", "chain", "soup"]))
    if shape == "edges":
        lines = []
        for _ in range(draw(st.integers(0, 12))):
            child, parent = draw(tag_token), draw(tag_token)
            lines.append(draw(st.sampled_from([f"{child}\t{parent}", child, f"{child}\t",
                                               f"{child}\t{parent}\t{parent}",
                                               f"{child} {parent}", f"# {child}"])))
    elif shape == "outline":
        lines = [" " * draw(st.sampled_from([0, 0, 2, 2, 4, 1, 3, 8])) + draw(tag_token)
                 for _ in range(draw(st.integers(0, 12)))]
        if lines and draw(st.booleans()):
            lines.insert(draw(st.integers(0, len(lines))), "\t" + draw(tag_token))
    elif shape == "chain":  # a long chain, possibly closed into a cycle
        tags = [f"t{k}" for k in range(draw(st.sampled_from([2, 10, 300, 3000])))]
        lines = [f"{a}\t{b}" for a, b in zip(tags, tags[1:])] + ["root\tt0", "nsubj\troot"]
        if draw(st.booleans()):
            lines.append(f"{tags[-1]}\t{tags[0]}")
    else:
        lines = draw(st.lists(st.sampled_from(["\t", "  ", "#", "a", "b\ta", "a\tb",
                                               "\ufeff", "root", "\u202e", "\x00", ""]),
                              max_size=30).map(lambda xs: ["".join(xs)]))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines) + \
        draw(st.sampled_from(["\n", "", "\n\n"]))


@st.composite
def tier_mapping(draw) -> str:
    """A FINE<TAB>COARSE mapping (docs/tiers.md) over the generators' tags: half the time
    a whole mapping of the tags (with a line or two spoilt), else random lines."""
    if draw(st.booleans()):
        coarse = st.sampled_from(["C1", "C2", "C3", "NOUN", "VERB", "x y"])
        lines = [f"{t}\t{draw(coarse)}" for t in dict.fromkeys(UPOS + LABELS[:-1])]
        for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
            i = draw(st.integers(0, len(lines) - 1))
            lines[i] = draw(st.sampled_from([lines[i].replace("\t", " "), "", "# x",
                                             lines[i] + "\tz", lines[i].split("\t")[0]]))
        return "\n".join(lines) + "\n"
    lines = []
    for _ in range(draw(st.integers(0, 12))):
        fine, coarse = draw(tag_token), draw(tag_token)
        lines.append(draw(st.sampled_from([f"{fine}\t{coarse}", f"{fine}\t{coarse}",
                                           f"{fine} {coarse}", f"{fine}\t", f"\t{coarse}",
                                           f"{fine}\t{coarse}\t{coarse}", f"# {fine}",
                                           fine])))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines) + "\n"


@st.composite
def hierarchy_case(draw) -> Case:
    """Annotations with ``--hierarchy FILE`` (agree, tags, compare, noise)."""
    ta, tb = draw(conllu_pair())
    h = draw(damage_bytes(draw(hierarchy_file()).encode("utf-8", "surrogatepass")))
    files = [("a.conllu", ta.encode("utf-8", "surrogatepass")),
             ("b.conllu", tb.encode("utf-8", "surrogatepass")),
             (draw(st.sampled_from(["h.txt", "h.tsv", "h"])), h)]
    command = draw(st.sampled_from(["agree", "agree-h", "tags", "compare", "noise"]))
    args = {"agree": ["agree", "{0}", "{1}", "-q", "--hierarchy", "{2}"],
            "agree-h": ["agree", "{0}", "{1}", "-q", "--hierarchy", "{2}", "--label-distance",
                        "hierarchy", "--output", "json"],
            "tags": ["tags", "{0}", "{1}", "--hierarchy", "{2}", "--output",
                     draw(st.sampled_from(["table", "json", "csv"]))],
            "compare": ["compare", "{0}", "{1}", "--no-alpha", "-q", "--hierarchy", "{2}"],
            "noise": ["noise", "{0}", "-o", "{out}/noise", "--sample", "2", "--grid", "0.5",
                      "--runs", "1", "--series", "relabel", "-q", "--hierarchy", "{2}"]}[command]
    return Case(args, files)


@st.composite
def tier_case(draw) -> Case:
    """``tags --tiers MAPPING`` with a hostile mapping file (or a column)."""
    ta, tb = draw(conllu_pair())
    files = [("gold.conllu", ta.encode("utf-8", "surrogatepass")),
             ("sys.conllu", tb.encode("utf-8", "surrogatepass")),
             ("map.tsv", draw(damage_bytes(draw(tier_mapping()).encode("utf-8",
                                                                       "surrogatepass"))))]
    column = draw(st.sampled_from(["upos", "xpos", "deprel"]))
    tiers = draw(st.sampled_from(["{2}", "{2}", "{2}", "upos", "xpos", "deprel"]))
    if tiers == column and draw(st.integers(0, 9)):  # (a usage error, now and then)
        tiers = "{2}"
    args = ["tags", "{0}", "{1}", "--column", column, "--tiers", tiers, "--output",
            draw(st.sampled_from(["table", "json", "csv"]))]
    if draw(st.booleans()):
        args += ["--tiers-unmapped", draw(st.sampled_from(["error", "own-class"]))]
    if draw(st.booleans()):
        args += ["--sibling-credit", draw(st.sampled_from(["0", "0.5", "1"]))]
    return Case(args, files)


# ---------------------------------------------------------------- stored results

_STORED: dict = {}
_GOOD_PAIR = ("# sent_id = s1\n1\tDogs\t_\tNOUN\t_\t_\t2\tnsubj\t_\t_\n"
              "2\tbark\t_\tVERB\t_\t_\t0\troot\t_\t_\n\n"
              "# sent_id = s2\n1\tCats\t_\tNOUN\t_\t_\t2\tobj\t_\t_\n"
              "2\tnap\t_\tVERB\t_\t_\t0\troot\t_\t_\n3\t.\t_\tPUNCT\t_\t_\t2\tpunct\t_\t_\n\n")
STORED_COMMANDS = {
    "agree": ["agree", "{0}", "{1}", "-q", "--output", "json"],
    "compare": ["compare", "{0}", "{1}", "-q", "--output", "json"],
    "report": ["report", "{0}", "{1}", "-q", "--output", "json", "--bootstrap", "40",
               "--layers", "deprel"],
}


def stored_result(command: str) -> str:
    """The JSON output of ``command`` on a small fixed pair (computed once)."""
    if command not in _STORED:
        from synagree.cli.main import main

        other = _GOOD_PAIR.replace("\tobj\t", "\tnsubj\t")
        with tempfile.TemporaryDirectory() as tmp:
            a, b, out = Path(tmp) / "a.conllu", Path(tmp) / "b.conllu", Path(tmp) / "r.json"
            a.write_text(_GOOD_PAIR, encoding="utf-8")
            b.write_text(other, encoding="utf-8")
            args = [x.format(str(a), str(b)) for x in STORED_COMMANDS[command]]
            with contextlib.redirect_stderr(io.StringIO()):
                assert main(args + ["-o", str(out)]) == 0
            _STORED[command] = out.read_text(encoding="utf-8")
    return _STORED[command]


json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
              st.floats(allow_nan=False, allow_infinity=False),
              st.sampled_from([1e308, -1e308, 5e-324, 0.0, -0.0, 1.0, -1e9, 2.0, 10**400]),
              st.text(max_size=8)),
    lambda kids: st.one_of(st.lists(kids, max_size=4),
                           st.dictionaries(st.text(max_size=6), kids, max_size=4)),
    max_leaves=10)


def _paths(doc, prefix=()):
    """Every path (tuple of keys and indices) in a JSON document, lists shortened."""
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.extend(_paths(v, prefix + (k,)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:3]):
            out.extend(_paths(v, prefix + (i,)))
    return out


@st.composite
def stored_json(draw, command: str) -> bytes:
    """A stored result of ``command`` with hostile edits: a value replaced by any JSON
    value, a key dropped, a list cut short, NaN/Infinity, deep nesting, truncation."""
    import json as _json

    doc = _json.loads(stored_result(command))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        what = draw(st.sampled_from(["replace", "replace", "drop", "cut", "nan", "deep"]))
        if what == "replace":
            parent[path[-1]] = draw(json_value)
        elif what == "drop":
            del parent[path[-1]]
        elif what == "cut" and isinstance(parent[path[-1]], list):
            parent[path[-1]] = parent[path[-1]][:draw(st.integers(0, 2))]
        elif what == "nan":
            parent[path[-1]] = "@@NONFINITE@@"
        elif what == "deep":
            parent[path[-1]] = "@@DEEP@@"
    text = _json.dumps(doc)
    text = text.replace('"@@NONFINITE@@"', draw(st.sampled_from(["NaN", "Infinity",
                                                                 "-Infinity", "1e400"])))
    depth = draw(st.sampled_from([65, 1000, 100_000]))
    text = text.replace('"@@DEEP@@"', "[" * depth + "]" * depth)
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 9:
        data = data[:draw(st.integers(0, len(data)))]
    return data


@st.composite
def baseline_case(draw) -> Case:
    """``agree|compare --baseline`` and ``report --compare-to`` with a damaged stored result."""
    command = draw(st.sampled_from(sorted(STORED_COMMANDS)))
    data = draw(stored_json(command))
    other = _GOOD_PAIR.replace("\tobj\t", "\tnsubj\t")
    if draw(st.booleans()):  # another round: a changed label
        other = other.replace("\tpunct\t", "\tdep\t")
    files = [("a.conllu", _GOOD_PAIR.encode()), ("b.conllu", other.encode()), ("old.json", data)]
    args = [x for x in STORED_COMMANDS[command] if x not in ("--output", "json")] + \
        (["--compare-to", "{2}"] if command == "report" else ["--baseline", "{2}"])
    if command == "report":
        args += ["--output", "json"]
    if draw(st.booleans()):
        args += ["--bootstrap", draw(st.sampled_from(["10", "50"]))]  # (10: refused)
    return Case(args, files)


# ---------------------------------------------------------------- bounded reading (issue 35)

def _stream_compress(suffix: str, chunk: bytes, total: int) -> bytes:
    """``total`` bytes of ``chunk`` repeated, compressed as they are made (a bomb)."""
    co: Any = {".gz": lambda: zlib.compressobj(9, zlib.DEFLATED, 31), ".xz": lzma.LZMACompressor,
               ".bz2": bz2.BZ2Compressor}[suffix]()
    out = [co.compress(chunk) for _ in range(max(1, total // len(chunk)))]
    return b"".join(out) + co.flush()


@st.composite
def bomb_case(draw) -> Case:
    """A compressed file that expands past the reading budget (zeros, or a valid sentence
    repeated), sometimes truncated, or ``/dev/zero``, beside a good file; a small
    ``--max-memory`` (16M: a budget of 1 MiB) keeps each case fast."""
    ta, _ = draw(conllu_pair())
    good = ("good.conllu", ta.encode("utf-8", "surrogatepass"))
    suffix = draw(st.sampled_from([".gz", ".xz", ".bz2"]))
    chunk = draw(st.sampled_from([b"\0" * 65536, _GOOD_PAIR.encode() * 200, b"(S (X a))\n" * 5000,
                                  b"\n" * 65536]))
    data = _stream_compress(suffix, chunk, draw(st.sampled_from([2, 3, 8]) ) * 2**20)
    if draw(st.integers(0, 4)) == 4:
        data = data[:draw(st.integers(0, len(data)))]
    files = [good, ("bomb.conllu" + suffix, data)]
    where = "/dev/zero" if draw(st.integers(0, 5)) == 5 and os.path.exists("/dev/zero") \
        else "{1}"
    command = draw(st.sampled_from([
        ["agree", "{0}", where, "-q"], ["compare", where, "{0}", "--no-alpha", "-q"],
        ["tags", "{0}", where], ["categorical", "{0}", where],
        ["spans", "{0}", where, "--layer", "upos"], ["report", "{0}", where, "-q",
                                                     "--output", "json"]]))
    if command[0] == "spans":  # (no --max-memory: the default budget; a file, not /dev/zero)
        return Case([a if a != "/dev/zero" else "{1}" for a in command], files)
    return Case(command + ["--max-memory", "16M"], files)


PRM_KEYS = ["DEBUG", "MAX_ERROR", "CUTOFF_LEN", "LABELED", "DELETE_LABEL",
            "DELETE_LABEL_FOR_LENGTH", "EQ_LABEL", "EQ_WORD", "QUOTE_LABEL", "BOGUS"]
PRM_VALUES = ["0", "1", "2", "-1", "10", "99999999999999999999999", "-99999999999999999999999",
              "4294967296", "2147483648", "ten", "1 # x", "", "NP", "NP VP", "'' ``", "\xa0",
              "TOP", "-NONE-", ",", "a b c"]


@st.composite
def prm_case(draw) -> Case:
    """An EVALB parameter file (``compare --params``), often broken: unknown keys, numbers
    beyond a C int, missing and extra values, long lines, odd bytes."""
    lines = []
    for _ in range(draw(st.integers(0, 15))):
        key = draw(st.sampled_from(PRM_KEYS))
        value = draw(st.one_of(st.sampled_from(PRM_VALUES), tag_token))
        lines.append(draw(st.sampled_from([f"{key} {value}", f"{key}\t{value}", key,
                                           f"# {key}", f" {key} {value}",
                                           f"{key} {value * 60}"])))
    prm = draw(damage_bytes("\n".join(lines).encode("utf-8", "surrogatepass") + b"\n"))
    trees = [draw(st.one_of(bracket_file(), bracket_soup)) for _ in range(2)]
    if draw(st.booleans()):
        trees[1] = trees[0]
    files = [("gold.mrg", trees[0].encode("utf-8", "surrogatepass")),
             ("test.mrg", trees[1].encode("utf-8", "surrogatepass")), ("p.prm", prm)]
    args = ["compare", "{0}", "{1}", "--params", "{2}"]
    args += draw(st.sampled_from([[], ["--output", "evalb"], ["--output", "json"],
                                  ["--alpha", "-q"]]))
    return Case(args, files)


@st.composite
def bdm_case(draw) -> Case:
    """``synagree bdm`` on a hierarchy: the hostile files of `hierarchy_file`, layered
    graphs of several parents (whose chains multiply), outline and edge lines mixed."""
    shape = draw(st.sampled_from(["file", "layered", "mixed"]))
    if shape == "file":
        text = draw(hierarchy_file())
    elif shape == "layered":
        layers, width = draw(st.integers(1, 14)), draw(st.integers(1, 14))
        fan = draw(st.integers(1, width))
        text = "".join(f"L{k}C{i}\tL{k - 1}C{(i + j) % width}\n" for k in range(1, layers)
                       for i in range(width) for j in range(fan)) or "L0C0\n"
    else:
        text = "A\nB\tA\n" + draw(st.sampled_from(["  C\n", "\tD\n", "  E\tB\n", "F\n"]))
    data = draw(damage_bytes(text.encode("utf-8", "surrogatepass")))
    args = ["bdm", "{0}", "-q"] + draw(st.sampled_from([[], ["--output", "json"],
                                                        ["--output", "csv"],
                                                        ["-o", "{out}/b.txt"]]))
    return Case(args, [("h.txt", data)])


@st.composite
def spans_case(draw) -> Case:
    """``synagree spans`` on CoNLL-U pairs (every layer) or bracketed trees."""
    if draw(st.booleans()):
        ta, tb = draw(conllu_pair())
        files = [("a.conllu", ta.encode("utf-8", "surrogatepass")),
                 ("b.conllu", tb.encode("utf-8", "surrogatepass"))]
        layer = draw(st.sampled_from(["upos", "xpos", "deprel", "feats", "lemma", "form",
                                      "constituents"]))
    else:
        trees = [draw(st.one_of(bracket_file(), bracket_soup)) for _ in range(2)]
        if draw(st.booleans()):
            trees[1] = trees[0]
        files = [(f"t{k}.tree", t.encode("utf-8", "surrogatepass")) for k, t in enumerate(trees)]
        layer = draw(st.sampled_from(["constituents", "preterminals", "upos"]))
    args = ["spans", "{0}", "{1}", "--layer", layer]
    args += draw(st.sampled_from([[], ["--labels", "none"], ["--labels", "feature"],
                                  ["--output", "json"], ["--output", "csv"]]))
    return Case(args, files)


API_FUNCTIONS = ["read", "agree", "compare", "categorical", "report", "tags", "spans_api"]
API_VALUES = [None, 0, 1, -1, 5, 2.5, float("nan"), "", "x", "4G", "yes", True, [], [1, 2],
              {"a": 1}, b"bytes", ("a",)]
API_ARGS = {"read": ["format", "name"],
            "agree": ["variants", "bootstrap", "level", "seed", "sample_pairs", "worst", "by",
                      "names", "max_memory", "fmt", "match", "where", "strict"],
            "compare": ["bootstrap", "level", "significance", "test_replicates", "names",
                        "max_memory", "hierarchy"],
            "categorical": ["layers", "bootstrap", "level", "max_memory", "specific"],
            "report": ["bootstrap", "worst", "title", "max_sentences", "layers"],
            "tags": ["column", "bootstrap", "level", "hierarchy", "tag_syntax"],
            "spans_api": ["layer", "labels"]}


@st.composite
def api_case(draw) -> Case:
    """The Python API (``@api`` cases, `run_case`): files or streams (text, bytes,
    compressed, bombs) and one or two arguments of a wrong type or value."""
    ta, tb = draw(conllu_pair())
    files = [("a.conllu", ta.encode("utf-8", "surrogatepass")),
             ("b.conllu", tb.encode("utf-8", "surrogatepass"))]
    if draw(st.integers(0, 3)) == 3:
        files[1] = ("b.conllu.gz", _stream_compress(".gz", b"\0" * 65536, 3 * 2**20))
    fn = draw(st.sampled_from(API_FUNCTIONS))
    how = draw(st.sampled_from(["path", "text", "bytes"]))
    kwargs = {}
    for _ in range(draw(st.integers(0, 2))):
        kwargs[draw(st.sampled_from(API_ARGS[fn]))] = draw(st.sampled_from(range(len(API_VALUES))))
    return Case(["@api", fn, how, repr(sorted(kwargs.items()))], files)


def run_api_case(case: Case, paths: List[str]) -> Tuple[int, str, Optional[BaseException]]:
    """Call the API as the case says; the contract: a result, or `InputError`,
    `TypeError` or `ValueError` (with a sentence), nothing else (rc 3)."""
    import ast

    import synagree
    from synagree.base.memory import limited
    from synagree.base.problems import InputError
    _, fn, how, spec = case.args
    kwargs = {k: API_VALUES[v] for k, v in ast.literal_eval(spec)}

    def source(k: int) -> Any:
        data = Path(paths[k]).read_bytes()
        if how == "text":
            return io.StringIO(data.decode("utf-8", "replace"))
        return io.BytesIO(data) if how == "bytes" else paths[k]
    try:
        with limited(16 * 2**20):  # a budget of 1 MiB for the bombs
            if fn == "read":
                synagree.read(source(1), **kwargs)
            elif fn in ("agree", "categorical", "report"):
                getattr(synagree, fn)([source(0), source(1)], **kwargs)
            elif fn == "compare":
                synagree.compare(source(0), [source(1)], **kwargs)
            elif fn == "tags":
                synagree.tags(source(0), source(1), **kwargs)
            else:
                from synagree.evaluation.spans import span_agreement
                span_agreement([source(0), source(1)], **kwargs)
    except InputError as exc:
        return 2, str(exc) + "\n", None
    except (TypeError, ValueError) as exc:
        if not str(exc):
            return 3, "", exc
        return 2, f"<arguments>: error: {str(exc).splitlines()[0]} (usage)\n", None
    except BaseException as exc:  # noqa: BLE001 - reported as a failure
        return 3, "", exc
    return 0, "", None


# ---------------------------------------------------------------- the tools' formats

FORMAT_DATA = Path(__file__).resolve().parent / "data" / "formats"
_NUMBER = re.compile(r"\d+")


@st.composite
def damaged_text(draw, data: bytes) -> bytes:
    """A real file of a tool, damaged: its lines edited (`mutate_lines`), a number in a
    line made odd (offsets, ids, parents), then bytes (`damage_bytes`)."""
    lines = data.decode("utf-8").split("\n")
    lines = draw(mutate_lines(lines))
    for _ in range(draw(st.sampled_from([0, 1, 1, 2, 3]))):
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if lines and _NUMBER.search(lines[i]):
            new = draw(odd_number).replace("\n", " ")
            lines[i] = _NUMBER.sub(lambda m: new, lines[i], count=1)
    return draw(damage_bytes("\n".join(lines).encode("utf-8", "surrogatepass")))


@st.composite
def formats_case(draw) -> Case:
    """The formats of the reader registry (issue 33): each tool's real test file
    (tests/data/formats), damaged, read by the commands that take it, with and without
    ``--format``."""
    kind = draw(st.sampled_from(["arborator", "webanno-tsv3", "tiger-xml", "negra", "ptb",
                                 "brat", "gate"]))
    fmt = [] if draw(st.booleans()) else ["--format", kind]
    if kind == "arborator":
        multi = b"".join((FORMAT_DATA / f"fr_gsd-ud-test_00006.conllu_{u}").read_bytes()
                         for u in ("alice", "bob", "charlie"))
        cmd = draw(st.sampled_from([["agree"], ["categorical"], ["report", "--output", "json"],
                                    ["compare"]]))
        args = cmd + ["{0}"] + (["{0}"] if cmd == ["compare"] else []) + fmt + ["-q"]
        return Case(args, [("multi.conllu", draw(damaged_text(multi)))])
    if kind == "gate":
        data = (FORMAT_DATA / "gate" / "beijing-opera.xml").read_bytes()
        cmd = draw(st.sampled_from([
            ["categorical", "{0}", "--sets", "ann1,ann2", "--type", "sent", "--feature", "Op"],
            ["spans", "{0}", "--sets", "ann1,ann2", "--type", "Os"]]))
        return Case(cmd + ["--format", "gate"], [("doc.xml", draw(damaged_text(data)))])
    if kind == "brat":
        base = draw(st.sampled_from(["s101-head", "esp-503-head"]))
        ann = (FORMAT_DATA / "brat" / f"{base}.ann").read_bytes()
        txt = (FORMAT_DATA / "brat" / f"{base}.txt").read_bytes()
        files = [("a.ann", ann), ("a.txt", txt), ("b.ann", draw(damaged_text(ann))),
                 ("b.txt", draw(damaged_text(txt)) if draw(st.booleans()) else txt)]
        cmd = draw(st.sampled_from([["agree"], ["spans"], ["categorical"]]))
        return Case(cmd + ["{0}", "{2}"] + fmt + (["-q"] if cmd == ["agree"] else []),
                    files, same_dir=True)
    name = {"webanno-tsv3": "inception_example2.tsv", "tiger-xml": "treetools_sample.tiger.xml",
            "negra": "treetools_1.export", "ptb": "wsj_0001.mrg"}[kind]
    data = (FORMAT_DATA / name).read_bytes()
    suffix = Path(name).suffix
    files = [(f"a{suffix}", data), (f"b{suffix}", draw(damaged_text(data)))]
    commands = [["agree"], ["compare"], ["report", "--output", "json"]] + (
        [["spans"]] if kind != "webanno-tsv3" else [["categorical"]])
    cmd = draw(st.sampled_from(commands))
    return Case(cmd + ["{0}", "{1}"] + fmt + (["-q"] if cmd[0] != "spans" else []), files)


any_case = st.one_of(conllu_case(), conllu_case(), bracket_case(), bytes_case(),
                     noise_table_case(), hierarchy_case(), tier_case(), baseline_case(),
                     bomb_case(), prm_case(), bdm_case(), spans_case(), api_case(),
                     formats_case())
KINDS = {"conllu": conllu_case(), "brackets": bracket_case(), "bytes": bytes_case(),
         "noise-table": noise_table_case(), "hierarchy": hierarchy_case(),
         "tiers": tier_case(), "baseline": baseline_case(), "bombs": bomb_case(),
         "prm": prm_case(), "bdm": bdm_case(), "spans": spans_case(), "api": api_case(),
         "formats": formats_case(), "all": any_case}


# ---------------------------------------------------------------- running

@dataclass
class Outcome:
    rc: int  # 3 also for an exception escaping main
    out: str
    err: str
    paths: List[str]
    exception: Optional[BaseException] = None


def run_case(case: Case) -> Outcome:
    """Write the files into a fresh directory and run the command in-process."""
    from synagree.cli.main import main

    with tempfile.TemporaryDirectory(prefix="synagree-fuzz-") as tmp:
        paths = []
        for k, (name, data) in enumerate(case.files):
            d = Path(tmp) / ("f" if case.same_dir else f"f{k}")
            d.mkdir(exist_ok=True)
            p = d / name
            p.write_bytes(data)
            paths.append(str(p))
        if case.args[0] == "@api":
            rc, text, exc = run_api_case(case, paths)
            return Outcome(rc, "", text, paths, exc)
        args = [a.format(*paths, out=tmp) for a in case.args]
        # strict UTF-8 streams, as a terminal in a UTF-8 locale: text that cannot be
        # written (lone surrogates) fails here as it would there
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
        err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
        exc = None
        old = os.environ.pop("SYNAGREE_DEBUG", None)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = main(args)
        except SystemExit as e:  # argparse: a usage error is status 2
            rc = e.code if isinstance(e.code, int) else 2
        except BaseException as e:  # noqa: BLE001 - reported as a failure
            rc, exc = 3, e
        finally:
            if old is not None:
                os.environ["SYNAGREE_DEBUG"] = old
        texts = []
        for stream in (out, err):
            try:
                stream.flush()
            except UnicodeEncodeError as e:  # pragma: no cover - reported as a failure
                rc, exc = 3, exc or e
            texts.append(stream.buffer.getvalue().decode("utf-8", "replace"))
        return Outcome(rc, texts[0], texts[1], paths, exc)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_PROBLEM = re.compile(r"^(?P<where>.*?)(?::(?P<line>\d+))?: (?:error|warning): .* "
                      r"\((?P<kind>[a-z0-9-]+)\)(?: \[sentence .*\])?$")


def check(case: Case, o: Outcome) -> None:
    """The contract: exit 0 or 2; with 2, problems on stderr naming a file."""
    from synagree.base.problems import tame

    info = f"{case.describe()[:3000]}\nrc={o.rc}\nstderr:\n{o.err[-3000:]}"
    assert o.exception is None, f"exception {o.exception!r}\n{info}"
    assert o.rc in (0, 2), info
    assert "Traceback" not in o.err, info
    if o.rc == 2:
        names = [tame(p) for p in o.paths] + ["/dev/zero"]  # (an input of the bomb cases)
        lines = o.err.split("\n")  # (not splitlines: a tamed message has no \x0b, \x85...)
        problems = [m for m in map(_PROBLEM.match, lines) if m]
        for m in problems:
            assert not _CONTROL.search(m.group(0)), f"control character in {m.group(0)!r}"
        assert problems, f"no problem listed\n{info}"
        # a problem of the input names its file; one of the options names the command line
        if case.args[0] == "@api":  # a documented exception (InputError, TypeError,
            return  # ValueError) with a sentence: the contract of the Python functions
        assert any(m.group("where") in names or m.group("where") == "<command line>"
                   for m in problems), f"no file named\n{info}"
        for m in problems:
            assert m.group("where") in names or m.group("where").startswith("<"), \
                f"problem names no input file: {m.group(0)}\n{info}"
