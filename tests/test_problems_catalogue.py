"""The bad-input catalogue ``docs/problems.md`` against the code.

(a) every problem kind in the catalogue is produced by a tiny input (the
    table :data:`PRODUCERS` below; each runs the command line in-process and
    finds the kind on stderr);
(b) every kind string the code passes to ``log.add(...)``,
    ``InputError.single(...)``, ``Problem(...)`` (or returns as a
    ``(kind, message)`` pair) is in the catalogue.

A new kind fails (b) until it is catalogued, and then (a) until it has an
example here.
"""
from __future__ import annotations

import ast
import gzip
import re
import sys
from pathlib import Path

import pytest

from synagree.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "docs" / "problems.md"

W = "\t".join


def word(i, head, rel="dep", form=None):
    return W([str(i), form or f"w{i}", "_", "X", "_", "_", str(head), rel, "_", "_"])


GOOD = "\n".join([word(1, 0, "root"), word(2, 1, "obj")]) + "\n\n"
GOOD_ID = "# sent_id = s1\n" + GOOD
NO_FORMS = "\n".join([word(1, 0, "root", "_"), word(2, 1, "obj", "_")]) + "\n\n"


def _sentence(sid, *forms):
    return (f"# sent_id = {sid}\n" + "\n".join(word(i, 0 if i == 1 else 1, form=f)
                                               for i, f in enumerate(forms, 1)) + "\n\n")


SHIFT_A = _sentence("s1", "Dogs", "bark") + _sentence("s2", "Cats", "nap") + \
    _sentence("s3", "Birds", "sing")
SHIFT_B = _sentence("s1", "Cats", "nap") + _sentence("s2", "Birds", "sing") + \
    _sentence("s3", "Dogs", "bark")
TREE = "(S (NP D N) (VP V))\n"


def catalogue_kinds() -> dict:
    """kind -> severity column, from the catalogue's tables (rows ``| `kind` | ...``)."""
    kinds = {}
    for line in CATALOGUE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*`([a-z0-9-]+)`\s*\|([^|]*)\|", line)
        if m:
            assert m.group(1) not in kinds, f"{m.group(1)} catalogued twice"
            kinds[m.group(1)] = m.group(2).strip()
    return kinds


_KIND_ARG = {"add": 2, "single": 2, "Problem": 2, "problem": 1}


def source_kinds() -> dict:
    """kind -> places in the package where it is emitted."""
    found: dict = {}
    for f in sorted((ROOT / "synagree").rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            value = None
            if isinstance(node, ast.Call):
                fn = node.func
                name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", None)
                if name in _KIND_ARG:
                    i = _KIND_ARG[name]
                    kw = {k.arg: k.value for k in node.keywords}
                    arg = node.args[i] if len(node.args) > i else kw.get("kind")
                    if isinstance(arg, ast.Constant):
                        value = arg.value
            elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) \
                    and len(node.value.elts) == 2 \
                    and isinstance(node.value.elts[0], ast.Constant):
                value = node.value.elts[0].value  # (kind, message), as conllu_ids returns
            if isinstance(value, str) and re.fullmatch(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+|"
                                                        r"[a-z]{4,}", value):
                found.setdefault(value, []).append(f"{f.name}:{node.lineno}")
    return found


# --------------------------------------------------------------------------
# (a) a tiny input per kind
# --------------------------------------------------------------------------

def _noise(*extra):
    return ["noise", "{good}", "-o", "{tmp}/noise", "--sample", "1", "--grid", "0.5",
            "--runs", "1", "--series", "relabel", "-q", *extra]


def _run_noise_once(tmp, mp):
    assert main([a.format(good=tmp / "good.conllu", tmp=tmp) for a in _noise()]) == 0


def _corrupt_log(tmp, mp):
    _run_noise_once(tmp, mp)
    log = tmp / "noise" / "runs.jsonl"
    log.write_text("not json\n" + log.read_text())


def _config_missing(tmp, mp):
    (tmp / "noise").mkdir()
    (tmp / "noise" / "runs.jsonl").write_text('{"series": "relabel"}\n')


def _corrupt_config(tmp, mp):
    (tmp / "noise").mkdir()
    (tmp / "noise" / "config.json").write_text("{not json")


def _busy(tmp, mp):
    import fcntl
    (tmp / "noise").mkdir()
    fh = open(tmp / "noise" / ".lock", "a+")
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    mp.setattr(sys.modules[__name__], "_held_lock", fh, raising=False)


def _no_dask(tmp, mp):
    mp.setitem(sys.modules, "dask.distributed", None)  # import fails


def _bad_threads(tmp, mp):
    mp.setenv("SYNAGREE_THREADS", "0")


def _dask_unreachable(tmp, mp):
    import dask.distributed

    def refuse(*a, **k):
        raise OSError("connection refused")
    mp.setattr(dask.distributed, "Client", refuse)


def _read_only_folder(tmp, mp):
    """The temporary file cannot be made (as in a folder the user may not write in,
    or on a read-only file system)."""
    import errno
    import tempfile

    def refuse(*a, **k):
        raise OSError(errno.EROFS, "Read-only file system")
    mp.setattr(tempfile, "mkstemp", refuse)


def _dirs_ambiguous(tmp, mp):
    for d in ("ann1", "ann2"):
        (tmp / d).mkdir()
        (tmp / d / "doc.conllu").write_text(GOOD)
    (tmp / "ann1" / "doc-ann1.conllu").write_text(GOOD)


def _empty_dirs(tmp, mp):
    for d in ("ann1", "ann2"):
        (tmp / d).mkdir()


#: kind -> (files {name: text or bytes}, command line, setup or None).
#: ``{name}`` in the command line is the path of that file; ``{tmp}`` the directory.
def _dirs_missing_document(tmp, mp) -> None:
    """ann1 and ann2 share no document name."""
    for d, name in (("ann1", "x1.conllu"), ("ann2", "y1.conllu")):
        (tmp / d).mkdir()
        (tmp / d / name).write_text(GOOD)


def _dirs_one_document_missing(tmp, mp) -> None:
    """ann1 has doc1 and doc2, ann2 only doc1."""
    _dirs_missing_document(tmp, mp)
    (tmp / "ann1" / "doc1.conllu").write_text(GOOD)
    (tmp / "ann2" / "doc1.conllu").write_text(GOOD)


PRODUCERS = {
    # reading a file
    "file-not-found": ({"good.conllu": GOOD}, ["agree", "{tmp}/missing.conllu", "{good}"]),
    "not-a-file": ({"good.conllu": GOOD}, ["agree", "{tmp}", "{good}"]),
    "unreadable": ({"good.conllu": GOOD}, ["agree", "{good}/x.conllu", "{good}"]),
    "encoding": ({"bad.conllu": word(1, 0, "root").encode() + b"\xff\n\n",
                  "good.conllu": GOOD}, ["agree", "{bad}", "{good}"]),
    "corrupt-compressed-file": ({"bad.conllu.gz": gzip.compress(GOOD.encode())[:20],
                                 "good.conllu": GOOD}, ["agree", "{bad}", "{good}"]),
    "empty-file": ({"bad.conllu": "", "good.conllu": GOOD}, ["agree", "{bad}", "{good}"]),
    "too-many-problems": ({"bad.conllu": "x\n" * 10_005 + "\n", "good.conllu": GOOD},
                          ["agree", "{bad}", "{good}"]),
    "input-too-large": ({"bad.conllu.gz": gzip.compress(GOOD.encode() * 50000),
                         "good.conllu": GOOD},
                        ["agree", "{bad}", "{good}", "--max-memory", "16M"]),
    # CoNLL-U lines (every reader)
    "column-count": ({"bad.conllu": word(1, 0, "root") + "\n2 w2 _ X _ _ 1 obj _ _\n\n",
                      "good.conllu": GOOD}, ["agree", "{bad}", "{good}"]),
    "bad-id": ({"bad.conllu": word(1, 0, "root") + "\n" + word("\u00b2", 1) + "\n\n",
                "good.conllu": GOOD}, ["compare", "{good}", "{bad}", "--no-alpha"]),
    "bad-head": ({"bad.conllu": word(1, "\u0660", "root") + "\n" + word(2, 1) + "\n\n",
                  "good.conllu": GOOD}, ["agree", "{bad}", "{good}"]),
    "id-sequence": ({"bad.conllu": word(1, 0, "root") + "\n" + word(3, 1) + "\n\n",
                     "good.conllu": GOOD}, ["agree", "{bad}", "{good}"]),
    "head-out-of-range": ({"bad.conllu": word(1, 0, "root") + "\n" + word(2, 7) + "\n\n",
                           "good.conllu": GOOD}, ["agree", "{bad}", "{good}"]),
    "multiword-overlap": ({"bad.conllu": "1-2\tab" + "\t_" * 8 + "\n" + word(1, 0, "root")
                           + "\n2-3\tbc" + "\t_" * 8 + "\n" + word(2, 1) + "\n" + word(3, 1)
                           + "\n\n", "good.conllu": GOOD}, ["tags", "{good}", "{bad}"]),
    "bad-deps": ({"bad.conllu": GOOD.replace("root\t_", "root\t2nsubj", 1),
                  "good.conllu": GOOD}, ["compare", "{good}", "{bad}", "--no-alpha"]),
    "no-enhanced-graph": ({"a.conllu": GOOD.replace("root\t_", "root\t0:root", 1),
                           "good.conllu": GOOD}, ["categorical", "{a}", "{good}", "--enhanced"]),
    "no-words": ({"bad.conllu": GOOD + "# sent_id = 2\n\n" + GOOD, "good.conllu": GOOD * 2},
                 ["agree", "{bad}", "{good}"]),
    "missing-deprel": ({"a.conllu": word(1, 0, "root") + "\n" + word(2, 1, "_") + "\n\n",
                        "good.conllu": GOOD}, ["agree", "{a}", "{good}"]),
    "cycle": ({"a.conllu": word(1, 2) + "\n" + word(2, 1) + "\n" + word(3, 0, "root") + "\n\n",
               "good.conllu": GOOD.replace("\n\n", "\n") + word(3, 1) + "\n\n"},
              ["agree", "{a}", "{good}"]),
    # the CoNLL 2018 reader of compare
    "empty-sentence": ({"bad.conllu": GOOD + "\n", "good.conllu": GOOD},
                       ["compare", "{good}", "{bad}", "--no-alpha"]),
    "comment-inside-sentence": ({"bad.conllu": word(1, 0, "root") + "\n# x\n" + word(2, 1)
                                 + "\n\n", "good.conllu": GOOD},
                                ["compare", "{good}", "{bad}", "--no-alpha"]),
    "unfinished-multiword-token": ({"bad.conllu": "1-2\tw1w2" + "\t_" * 8 + "\n"
                                    + word(1, 0, "root") + "\n\n", "good.conllu": GOOD},
                                   ["compare", "{good}", "{bad}", "--no-alpha"]),
    "empty-form": ({"bad.conllu": word(1, 0, "root") + "\n" + word(2, 1, form=" ") + "\n\n",
                    "good.conllu": GOOD}, ["compare", "{good}", "{bad}", "--no-alpha"]),
    "no-final-blank-line": ({"bad.conllu": GOOD.rstrip("\n") + "\n", "good.conllu": GOOD},
                            ["compare", "{good}", "{bad}", "--no-alpha"]),
    "root-count": ({"bad.conllu": word(1, 0, "root") + "\n" + word(2, 0, "root") + "\n\n",
                    "good.conllu": GOOD}, ["compare", "{good}", "{bad}", "--no-alpha"]),
    "text-mismatch": ({"bad.conllu": GOOD.replace("w2", "w3"), "good.conllu": GOOD},
                      ["compare", "{good}", "{bad}", "--no-alpha"]),
    # bracketed trees
    "unbalanced-brackets": ({"bad.tree": "(S (NP D N) (VP V)))\n", "good.tree": TREE},
                            ["agree", "{bad}", "{good}"]),
    "stray-text": ({"bad.tree": "S " + TREE, "good.tree": TREE}, ["agree", "{bad}", "{good}"]),
    "empty-tree": ({"bad.tree": "( )\n", "good.tree": TREE}, ["agree", "{bad}", "{good}"]),
    # bracketed files read as EVALB reads them (compare)
    "bad-params": ({"x.prm": "LABELLED 1\n", "g.mrg": "(S (NN a))\n"},
                   ["compare", "{g}", "{g}", "--params", "{x}"]),
    "evalb-limit": ({"g.mrg": "(S " + " ".join(f"(NN w{i})" for i in range(201)) + ")\n"},
                    ["compare", "{g}", "{g}", "--output", "json"]),
    # several files
    "too-few-inputs": ({"good.conllu": GOOD}, ["agree", "{good}"]),
    "duplicate-annotator": ({"good.conllu": GOOD, "a.conllu": GOOD},
                            ["agree", "{good}", "{a}", "--names", "x", "x"]),
    "duplicate-input": ({"good.conllu": GOOD}, ["agree", "{good}", "{good}"]),
    "missing-annotation": ({}, ["agree", "--dirs", "{tmp}/ann1", "{tmp}/ann2"],
                           _dirs_one_document_missing),
    "no-pairable-units": ({}, ["agree", "--dirs", "{tmp}/ann1", "{tmp}/ann2",
                               "--allow-missing"], _dirs_missing_document),
    "ambiguous-phrase-style": ({"a.tree": TREE, "b.mrg": "(S (NP (P I)) (VP (V ran)))\n"},
                               ["agree", "{a}", "{b}"]),
    "bad-output": ({"good.conllu": GOOD, "a.conllu": GOOD},
                   ["agree", "{good}", "{a}", "-o", "{good}"]),
    "too-few-replicates": ({"good.conllu": GOOD, "a.conllu": GOOD},
                           ["agree", "{good}", "{a}", "--bootstrap", "1"]),
    "memory-limit": ({"good.conllu": GOOD, "a.conllu": GOOD},
                     ["agree", "{good}", "{a}", "--bootstrap", "1000", "--max-memory", "1K"]),
    "mixed-formats": ({"good.conllu": GOOD, "good.tree": TREE}, ["agree", "{good}",
                                                                   "{good.tree}"]),
    "duplicate-sent-id": ({"bad.conllu": GOOD_ID * 2, "good.conllu": GOOD_ID},
                          ["agree", "{bad}", "{good}"]),
    "sentence-mismatch": ({"a.conllu": GOOD_ID, "b.conllu": GOOD_ID.replace("s1", "s2")},
                          ["agree", "{a}", "{b}"]),
    "sentence-count-mismatch": ({"a.conllu": GOOD * 2, "good.conllu": GOOD},
                                ["agree", "{a}", "{good}", "--no-text-check"]),
    "unaligned-sentence": ({"a.conllu": GOOD + GOOD.replace("w1", "Cats").replace("w2", "nap"),
                            "good.conllu": GOOD}, ["agree", "{a}", "{good}"]),
    "text-shift": ({"a.conllu": SHIFT_A, "b.conllu": SHIFT_B}, ["agree", "{a}", "{b}"]),
    "text-edit": ({"a.conllu": GOOD.replace("\tw2\t", "\tw2x\t"), "good.conllu": GOOD},
                  ["agree", "{a}", "{good}"]),
    "duplicate-text": ({"a.conllu": GOOD * 2, "good.conllu": GOOD},
                       ["agree", "{a}", "{good}", "--match", "text"]),
    "no-text": ({"a.conllu": NO_FORMS, "good.conllu": GOOD},
                ["agree", "{a}", "{good}", "--match", "text"]),
    "missing-sent-id": ({"a.conllu": GOOD, "good.conllu": GOOD},
                        ["agree", "{a}", "{good}", "--match", "sent_id"]),
    "position-mismatch": ({"a.conllu": NO_FORMS,
                           "b.conllu": NO_FORMS.replace("\n\n", "\n")
                           + word(3, 1, form="_") + "\n\n"}, ["agree", "{a}", "{b}"]),
    "not-a-directory": ({"good.conllu": GOOD}, ["agree", "--dirs", "{good}", "{tmp}"]),
    "ambiguous-file": ({}, ["agree", "--dirs", "{tmp}/ann1", "{tmp}/ann2"], _dirs_ambiguous),
    "empty-input": ({}, ["agree", "--dirs", "{tmp}/ann1", "{tmp}/ann2"], _empty_dirs),
    "word-count-mismatch": ({"a.conllu": GOOD, "good.conllu": GOOD.replace("\n\n", "\n")
                             + word(3, 1) + "\n\n"}, ["tags", "{a}", "{good}"]),
    "form-mismatch": ({"a.conllu": GOOD.replace("w2", "w9"), "good.conllu": GOOD},
                      ["tags", "{a}", "{good}"]),
    "not-dependency": ({"a.tree": TREE, "good.tree": TREE}, ["categorical", "{a}",
                                                              "{good.tree}"]),
    # hierarchy files (--hierarchy FILE)
    "hierarchy-not-found": ({"good.conllu": GOOD}, ["tags", "{good}", "{good}",
                                                    "--hierarchy", "{tmp}/none.txt"]),
    "hierarchy-unreadable": ({"h.txt": b"root\n\xff\n", "good.conllu": GOOD},
                             ["tags", "{good}", "{good}", "--hierarchy", "{h}"]),
    "hierarchy-empty": ({"h.txt": "# only a comment\n", "good.conllu": GOOD},
                        ["tags", "{good}", "{good}", "--hierarchy", "{h}"]),
    "hierarchy-fields": ({"h.txt": "a\tb\tc\n", "good.conllu": GOOD},
                         ["tags", "{good}", "{good}", "--hierarchy", "{h}"]),
    "hierarchy-indentation": ({"h.txt": "  a\nb\n", "good.conllu": GOOD},
                              ["tags", "{good}", "{good}", "--hierarchy", "{h}"]),
    "hierarchy-two-parents": ({"h.txt": "a\tb\na\tc\n", "good.conllu": GOOD},
                              ["tags", "{good}", "{good}", "--hierarchy", "{h}"]),
    "hierarchy-cycle": ({"h.txt": "a\tb\nb\ta\n", "good.conllu": GOOD},
                        ["tags", "{good}", "{good}", "--hierarchy", "{h}"]),
    "tag-syntax": ({"bad.conllu": GOOD.replace("obj", "obj|"), "good.conllu": GOOD},
                   ["tags", "{bad}", "{good}", "--tag-syntax", "alternatives"]),
    "bdm-concept-name": ({"h.txt": "Tom, Dick\tPerson\n"}, ["bdm", "{h}"]),
    "bdm-too-large": ({"h.txt": "".join(f"L{k}C{i}\tL{k - 1}C{j}\n" for k in range(1, 12)
                                        for i in range(12) for j in range(12))},
                      ["bdm", "{h}"]),
    "gamma-too-large": ({"a.tree": TREE, "b.tree": "(S (NP D) (N N) (VP V))\n",
                         "c.tree": "(S (NP D N) (V V))\n"},
                        ["spans", "{a}", "{b}", "{c}", "--coefficient", "gamma",
                         "--gamma-budget", "1"]),
    # tag mappings (tags --tiers)
    "tag-map-fields": ({"m.tsv": "X NOUN\n", "good.conllu": GOOD},
                       ["tags", "{good}", "{good}", "--column", "upos", "--tiers", "{m}"]),
    "tag-map-two-coarse": ({"m.tsv": "X\tA\nX\tB\n", "good.conllu": GOOD},
                           ["tags", "{good}", "{good}", "--column", "upos", "--tiers", "{m}"]),
    "tag-map-empty": ({"m.tsv": "# only a comment\n", "good.conllu": GOOD},
                      ["tags", "{good}", "{good}", "--column", "upos", "--tiers", "{m}"]),
    "tag-map-not-a-function": ({"g.conllu": GOOD.replace("\tobj\t", "\troot\t")
                                .replace("\tX\t", "\tY\t", 1)},
                               ["tags", "{g}", "{g}", "--column", "deprel", "--tiers",
                                "upos"]),
    "tag-map-unmapped": ({"m.tsv": "Y\tA\n", "good.conllu": GOOD},
                         ["tags", "{good}", "{good}", "--column", "upos", "--tiers", "{m}"]),
    "lexicon-fields": ({"m.tsv": "X\tA\n", "lex.tsv": "w1 X\n", "good.conllu": GOOD},
                       ["tags", "{good}", "{good}", "--column", "upos", "--tiers", "{m}",
                        "--lexicon", "{lex}"]),
    "lexicon-empty": ({"m.tsv": "X\tA\n", "lex.tsv": "# none\n", "good.conllu": GOOD},
                      ["tags", "{good}", "{good}", "--column", "upos", "--tiers", "{m}",
                       "--lexicon", "{lex}"]),
    "span-token-mismatch": ({"a.tree": TREE, "b.tree": "(S (NP D) (VP V))\n"},
                            ["spans", "{a}", "{b}", "--phrase-style", "delex"]),
    # report, plot, noise
    "bad-json": ({"good.conllu": GOOD, "a.conllu": GOOD, "prev.json": "{not json"},
                 ["report", "{good}", "{a}", "--compare-to", "{prev}", "--bootstrap", "40"]),
    "baseline-invalid": ({"good.conllu": GOOD, "a.conllu": GOOD,
                          "old.json": '{"kind": "dependency", "annotator_names": 5}'},
                         ["agree", "{good}", "{a}", "--baseline", "{old}"]),
    "write-failed": ({"good.conllu": GOOD, "a.conllu": GOOD},
                     ["agree", "{good}", "{a}", "-q", "-o", "{tmp}/r.json"], _read_only_folder),
    "baseline-mismatch": ({"good.conllu": GOOD, "a.conllu": GOOD,
                           "old.json": '{"gold": "g", "gold_sentences": 1, "systems": []}'},
                          ["agree", "{good}", "{a}", "--baseline", "{old}"]),
    "bad-results": ({"good.conllu": GOOD, "a.conllu": GOOD, "n.csv": "a,b\n1,2\n"},
                    ["report", "{good}", "{a}", "--noise", "{n}"]),
    "busy": ({"good.conllu": GOOD}, _noise(), _busy),
    "corrupt-config": ({"good.conllu": GOOD}, _noise(), _corrupt_config),
    "config-mismatch": ({"good.conllu": GOOD}, _noise("--seed", "7"), _run_noise_once),
    "config-missing": ({"good.conllu": GOOD}, _noise(), _config_missing),
    "corrupt-log": ({"good.conllu": GOOD}, _noise(), _corrupt_log),
    "runs-mismatch": ({"good.conllu": GOOD, "a.conllu": GOOD.replace("obj", "nmod"),
                       "b.conllu": GOOD},
                      ["report", "{a}", "{b}", "--noise", "{tmp}/noise/results.json", "-o",
                       "{tmp}/r.html"], _run_noise_once),
    "dask-connect": ({"good.conllu": GOOD, "a.conllu": GOOD},
                     ["agree", "{good}", "{a}", "--dask", "tcp://127.0.0.1:9", "-q"],
                     _dask_unreachable),
    "missing-extra": ({"good.conllu": GOOD, "a.conllu": GOOD},
                      ["agree", "{good}", "{a}", "--dask", "local", "-q"], _no_dask),
    "usage": ({"good.conllu": GOOD, "a.conllu": GOOD},
              ["agree", "{good}", "{a}", "--bootstrap", "40", "--sample-pairs", "100"]),
    "bad-environment": ({"good.conllu": GOOD, "a.conllu": GOOD},
                        ["agree", "{good}", "{a}", "-q"], _bad_threads),
}

# FEATS split into features (docs/method.md §19.1)
GATE_HEAD = '<GateDocument><TextWithNodes><Node id="0"/>ab<Node id="2"/></TextWithNodes>\n'
GATE_ARGS = ["categorical", "{bad}", "--format", "gate", "--sets", "A,B", "--type", "T",
             "--feature", "f"]
PRODUCERS["gate-xml"] = ({"bad.xml": GATE_HEAD + '<AnnotationSet Name="A">\n<Annotation'},
                         GATE_ARGS)
PRODUCERS["gate-structure"] = ({"bad.xml": "<html>\n<body/></html>"}, GATE_ARGS)
PRODUCERS["gate-offsets"] = ({"bad.xml": GATE_HEAD + '<AnnotationSet Name="A">\n<Annotation '
                              'Id="1" Type="T" StartNode="0" EndNode="9"/>\n</AnnotationSet>'
                              '<AnnotationSet Name="B"/></GateDocument>'}, GATE_ARGS)
PRODUCERS["gate-missing-set"] = ({"bad.xml": GATE_HEAD + '<AnnotationSet Name="A"/>'
                                  "</GateDocument>"}, GATE_ARGS)
BRAT_TXT = "Dogs bark\n"
BRAT_ANN = "T1\tN 0 4\tDogs\nT2\tV 5 9\tbark\nR1\tnsubj Arg1:T2 Arg2:T1\n"


def _brat(bad_ann: str, txt: bool = True) -> dict:
    files = {"bad.ann": bad_ann, "good.ann": BRAT_ANN, "good.txt": BRAT_TXT}
    if txt:
        files["bad.txt"] = BRAT_TXT
    return files


PRODUCERS["brat-line"] = (_brat("T1\tN 0 4\tDogs\nX\n"), ["agree", "{bad}", "{good}"])
PRODUCERS["brat-offsets"] = (_brat("T1\tN 0 4\tCats\n"), ["agree", "{bad}", "{good}"])
PRODUCERS["brat-reference"] = (_brat(BRAT_ANN + "R2\tdep Arg1:T2 Arg2:T9\n"),
                               ["agree", "{bad}", "{good}"])
PRODUCERS["brat-tree"] = (_brat(BRAT_ANN + "R2\tdep Arg1:T1 Arg2:T2\n"),
                          ["agree", "{bad}", "{good}"])
PRODUCERS["brat-missing-text"] = (_brat(BRAT_ANN, txt=False), ["agree", "{bad}", "{good}"])
PRODUCERS["bad-where"] = ({"good.conllu": GOOD, "a.conllu": GOOD},
                          ["agree", "{a}", "{good}", "--where", "lemma=be"])
PRODUCERS["bad-decisions"] = ({"a.conllu": GOOD, "b.conllu": GOOD,
                                "dec.csv": "unit,word,choose_head\n1,1,99\n"},
                               ["adjudicate", "{a}", "{b}", "-o", "{a}.gold", "--decisions",
                                "{dec}"])
PRODUCERS["bad-batch"] = ({"good.conllu": GOOD_ID, "a.conllu": GOOD_ID},
                          ["agree", "{a}", "{good}", "--by", "batch"])
PRODUCERS["no-shared-units"] = ({"a.conllu": GOOD_ID, "b.conllu": GOOD_ID,
                                 "pre.conllu": GOOD_ID.replace("s1", "s3")},
                                ["agree", "{a}", "{b}", "--preannotation", "{pre}",
                                 "--allow-missing"])
PRODUCERS["bad-feats"] = ({"a.conllu": GOOD.replace("X\t_\t_\t1", "X\t_\tCase\t1"),
                           "good.conllu": GOOD},
                          ["categorical", "{a}", "{good}", "--per-feature"])
PRODUCERS["unsorted-feats"] = ({"a.conllu": GOOD.replace("X\t_\t_\t1",
                                                         "X\t_\tPronType=Rel,Int\t1"),
                                "good.conllu": GOOD},
                               ["tags", "{good}", "{a}", "--column", "feats", "--per-feature"])


# annotation tools' formats (tests/test_formats.py reads real files of each)
DEP_LAYER = "de.tudarmstadt.ukp.dkpro.core.api.syntax.type.dependency.Dependency"
TSV_NO_HEAD = ("#FORMAT=WebAnno TSV 3.3\n"
               f"#T_RL={DEP_LAYER}|DependencyType|BT_x\n\n\n"
               "#Text=a b\n1-1\t0-1\ta\tdep\t1-2\t\n1-2\t2-3\tb\t_\t_\t\n")
TSV_NO_LAYER = ("#FORMAT=WebAnno TSV 3.3\n"
                "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS|PosValue\n\n\n"
                "#Text=a\n1-1\t0-1\ta\tX\t\n")
NEGRA_OK = "#BOS 1\nw NN -- -- 0\nx NN -- -- 0\n#EOS 1\n"
ARB = "# sent_id = s1\n# user_id = a\n" + GOOD
PRODUCERS.update({
    "ambiguous-format": ({"amb": "#BOS 1\n" + GOOD, "good.conllu": GOOD},
                         ["agree", "{amb}", "{good}"]),
    "arborator-no-user": ({"arb.conllu": ARB + "# sent_id = s1\n" + GOOD},
                          ["agree", "{arb}", "--format", "arborator"]),
    "arborator-duplicate-tree": ({"arb.conllu": ARB * 2 + ARB.replace("= a", "= b")},
                                 ["agree", "{arb}"]),
    "webanno-header": ({"bad.tsv": "a\tb\n", "good.conllu": GOOD}, ["agree", "{bad}", "{good}"]),
    "webanno-no-dependency-layer": ({"a.tsv": TSV_NO_LAYER, "b.tsv": TSV_NO_LAYER},
                                    ["agree", "{a}", "{b}"]),
    "webanno-heads": ({"a.tsv": TSV_NO_HEAD, "b.tsv": TSV_NO_HEAD}, ["agree", "{a}", "{b}"]),
    "negra-line": ({"bad.export": "#BOS 1\nw NN -- -- 0\nx\n#EOS 1\n", "ok.export": NEGRA_OK},
                   ["agree", "{bad}", "{ok}"]),
    "bad-parent": ({"bad.export": NEGRA_OK.replace("x NN -- -- 0", "x NN -- -- 502"),
                    "ok.export": NEGRA_OK}, ["agree", "{bad}", "{ok}"]),
    "unattached-node": ({"bad.export": NEGRA_OK.replace("x NN -- -- 0", "x NN -- -- 500")
                         .replace("#EOS", "#500 NP -- -- 501\n#501 NP -- -- 500\n#EOS"),
                         "ok.export": NEGRA_OK}, ["agree", "{bad}", "{ok}"]),
    "discontinuous-cycle": ({"bad.xml": '<corpus><s id="1"><graph root="500"><terminals>'
                             '<t id="1" word="w" pos="N"/></terminals><nonterminals>'
                             '<nt id="500" cat="S"><edge idref="501"/></nt><nt id="501" '
                             'cat="NP"><edge idref="1"/><edge idref="500"/></nt>'
                             '</nonterminals></graph></s></corpus>\n', "ok.export": NEGRA_OK},
                            ["agree", "{bad}", "{ok}"]),
    "tiger-xml": ({"bad.xml": '<corpus><s id="1"><graph root="5"><terminals><t id="1" '
                   'pos="N"/></terminals></graph></s></corpus>\n', "ok.export": NEGRA_OK},
                  ["agree", "{bad}", "{ok}"]),
    "xml-syntax": ({"bad.xml": '<corpus><s id="1">\n<graph>\n</corpus>\n',
                    "ok.export": NEGRA_OK}, ["agree", "{bad}", "{ok}"]),
    "discontinuous-tree": ({"d.export": "#BOS 1\nw NN -- -- 500\nx NN -- -- 0\ny NN -- -- 500"
                            "\n#500 NP -- -- 0\n#EOS 1\n"}, ["compare", "{d}", "{d}"]),
})


def _kinds_on_stderr(err: str):
    return set(re.findall(r"\(([a-z0-9-]+)\)(?: \[sentence [^]]*\])?$", err, re.M))


@pytest.mark.parametrize("kind", sorted(PRODUCERS))
def test_catalogued_kind_is_produced(kind, tmp_path, capsys, monkeypatch):
    spec = PRODUCERS[kind]
    files, args = spec[0], spec[1]
    setup = spec[2] if len(spec) > 2 else None
    paths = {"tmp": str(tmp_path)}
    for name, content in files.items():
        p = tmp_path / name
        p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        paths[name] = str(p)
        paths.setdefault(name.split(".")[0], str(p))
    if setup:
        setup(tmp_path, monkeypatch)
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    rc = main([a.replace("{good.tree}", paths.get("good.tree", "")).format(**paths)
               for a in args])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert kind in _kinds_on_stderr(err), err
    severity = catalogue_kinds().get(kind, "")
    assert rc == (0 if severity.startswith("warning") else 2), (rc, err)


def test_catalogue_kinds_all_have_an_example():
    assert sorted(catalogue_kinds()) == sorted(PRODUCERS)


@pytest.mark.slow
def test_every_kind_in_the_source_is_catalogued():
    found = source_kinds()
    assert len(found) > 40  # the scan works
    missing = {k: v for k, v in found.items() if k not in catalogue_kinds()}
    assert not missing, f"kinds emitted but not in docs/problems.md: {missing}"


def test_a_hint_is_printed_once_after_the_problems(capsys):
    """Advice shared by many problems is one ``hint:`` block after the list,
    folded without parting an option from its argument; ``str(problem)`` and
    the error message carry the facts only."""
    from synagree.base.problems import HINT_WIDTH, InputError, Problem, print_problems

    advice = "the files are not of the same text; " * 4 + "--match text matches by words"
    probs = [Problem("a.conllu", i, "unaligned-sentence", f"sentence {i} is alone",
                     hint=advice) for i in range(1, 6)]
    probs.append(Problem("a.conllu", 9, "bad-id", "bad ID", hint="fix the ID"))
    print_problems(probs)
    err = capsys.readouterr().err.splitlines()
    assert err[:6] == [str(p) for p in probs]
    assert all("hint" not in line and "not of the same" not in line for line in err[:6])
    rest = err[6:]
    assert rest[0].startswith("hint: the files") and rest[-1] == "hint: fix the ID"
    assert all(len(line) <= HINT_WIDTH for line in rest)
    joined = " ".join(line.strip() for line in rest[:-1])
    assert joined == "hint: " + advice.strip()
    assert any("--match text" in line for line in rest)  # not parted
    assert str(InputError(probs)).count("hint: the files") == 1
    assert probs[0].as_dict()["hint"] == advice


def test_warnings_and_errors_share_one_list_of_hints(capsys):
    """An InputError's warnings come first, then its errors, then every
    distinct hint of both once."""
    from synagree.base.problems import WARNING, Problem, print_problems

    w = Problem("a.conllu", 2, "text-edit", "edited", severity=WARNING, hint="same advice")
    e = Problem("a.conllu", 5, "unaligned-sentence", "alone", hint="same advice")
    print_problems([e], warnings=[w])
    assert capsys.readouterr().err.splitlines() == [str(w), str(e), "hint: same advice"]
