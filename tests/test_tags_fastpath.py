"""`tags`' column reader from the package's scan against its line-by-line reading.

`synagree.evaluation.tags.read_tag_column` reads a CoNLL-U file from the
records of `synagree.io.conllu.scan_chunks` and leaves anything it does not
read as plainly valid to the line-by-line reading; both must give the same
sentences and the same problems on every input.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_conll18_fastpath import EDGE_CASES, MWT, VALID

from conftest import SHARED_DATA
from synagree.base.problems import ProblemLog
from synagree.evaluation import tags
from synagree.io.sources import Buffer

UD = SHARED_DATA / "ud"


def _outcome(text: str, column: str, fast: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(tags, "_scanned_tag_sentences", lambda name, text, column: None)
        log = ProblemLog()
        got = tags.read_tag_column(Buffer("<f>", None, text), column, log, fmt="conllu")
        return got, [str(p) for p in log.problems]


def _same(text: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    for column in tags.COLUMNS:
        slow = _outcome(text, column, False, monkeypatch)
        assert _outcome(text, column, True, monkeypatch) == slow, column
    return slow


EXTRA = {
    "comment after a word": VALID.replace("\n2\tw2", "\n# sent_id = late\n2\tw2", 1),
    "tag with spaces": VALID.replace("\tNOUN\t", "\t NOUN \t", 1),
    "whitespace-only tag": VALID.replace("\tNOUN\t", "\t \t", 1),
    "no sent_id": VALID.replace("# sent_id = s1\n", ""),
    "empty sent_id": VALID.replace("# sent_id = s1", "# sent_id = ", 1),
}


@pytest.mark.parametrize("case", sorted(set(EDGE_CASES) | set(EXTRA)))
def test_edge_cases_read_as_the_line_by_line_reading_reads_them(case, monkeypatch):
    _same({**EDGE_CASES, **EXTRA}[case], monkeypatch)


def test_valid_input_takes_the_fast_path():
    for text in (VALID, MWT + VALID, EXTRA["tag with spaces"], EXTRA["comment after a word"]):
        assert tags._scanned_tag_sentences("<f>", text, "upos") is not None
    got = tags._scanned_tag_sentences("<f>", EXTRA["tag with spaces"], "upos")
    assert got is not None and got[0].words[0] == (3, "w1", "NOUN")
    for case in ("CRLF", "cycle", "id out of sequence", "empty column"):
        want_none = case != "cycle"  # a head cycle is no problem of a tag column
        assert (tags._scanned_tag_sentences("<f>", EDGE_CASES[case], "upos") is None) \
            == want_none, case


def test_random_mutations(monkeypatch):
    base = MWT + VALID
    rng = random.Random(31)
    pieces = ["\t", "\n", " ", "#", "0", "-", ".", "_", "x"]
    problems = 0
    for _ in range(150):
        lines = base.split("\n")
        k = rng.randrange(len(lines))
        op = rng.random()
        if op < 0.3:
            del lines[k]
        elif op < 0.5:
            lines.insert(k, lines[k])
        else:
            at = rng.randrange(len(lines[k]) + 1)
            lines[k] = lines[k][:at] + rng.choice(pieces) + lines[k][at + (op < 0.8):]
        problems += bool(_same("\n".join(lines), monkeypatch)[1])
    assert 10 < problems < 150


@pytest.mark.skipif(not UD.is_dir(), reason=f"shared data not found at {UD}")
@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(str(p) for p in UD.glob("*.conllu")))
def test_shared_treebanks(path, monkeypatch):
    text = Path(path).read_text(encoding="utf-8")
    assert tags._scanned_tag_sentences("<f>", text, "deprel") is not None
    assert not _same(text, monkeypatch)[1]
