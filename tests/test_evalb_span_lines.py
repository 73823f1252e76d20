"""`synagree.io.tree_kind.trees_span_lines` (one read, one split) against the plain
definition it replaced: a ``readline`` per line, brackets counted per line, stopping
once `SNIFF_BYTES` were seen (issue 36: the check took 5 ms a megabyte that way)."""
from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from synagree.io import evalb_lines, tree_kind
from synagree.io.compression import READ_ERRORS, open_binary


def _by_readline(path: Path, sniff: int) -> bool:
    depth = 0
    try:
        with open_binary(path) as fh:
            seen = 0
            while seen < sniff:
                raw = fh.readline(sniff)
                if not raw:
                    break
                seen += len(raw)
                depth += raw.count(b"(") - raw.count(b")")
                if depth > 0:
                    return True
                depth = 0
    except READ_ERRORS:
        return False
    return False


def _random_file(rng: random.Random) -> bytes:
    lines = [bytes(rng.choice(b"()() x\t\r") for _ in range(rng.randint(0, 14)))
             for _ in range(rng.randint(0, 6))]
    return b"\n".join(lines) + (b"\n" if rng.random() < 0.5 else b"")


@pytest.mark.parametrize("sniff", [1, 2, 3, 5, 8, 13, 1 << 20])
def test_same_answer_as_readline_loop(tmp_path, monkeypatch, sniff):
    monkeypatch.setattr(tree_kind, "SNIFF_BYTES", sniff)
    rng = random.Random(sniff)
    p, z = tmp_path / "t.mrg", tmp_path / "t.mrg.gz"
    answers = set()
    for _ in range(300):
        data = _random_file(rng)
        p.write_bytes(data)
        z.write_bytes(gzip.compress(data))
        want = _by_readline(p, sniff)
        answers.add(want)
        assert tree_kind.trees_span_lines(p) is want, (sniff, data)
        assert tree_kind.trees_span_lines(z) is want, (sniff, data)
    assert answers == {True, False}  # both answers were exercised


def test_penn_mrg_and_one_a_line(tmp_path):
    one = tmp_path / "one.mrg"
    one.write_text("(S (NP (DT the) (NN cat)) (VP (VBD sat)))\n( (X (Y z)))\n")
    many = tmp_path / "many.mrg"
    many.write_text("( (S (NP (DT the) (NN cat))\n    (VP (VBD sat))))\n")
    assert tree_kind.trees_span_lines(one) is False
    assert tree_kind.trees_span_lines(many) is True
    assert tree_kind.trees_span_lines(tmp_path / "missing.mrg") is False


def test_still_importable_from_evalb_lines():
    """Both questions moved to the light `synagree.io.tree_kind` (issue 36: a CoNLL-U
    comparison does not load EVALB's reader); the old names are the same functions."""
    assert evalb_lines.trees_span_lines is tree_kind.trees_span_lines
    assert evalb_lines.bracketed_file is tree_kind.bracketed_file
