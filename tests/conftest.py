"""Shared fixtures and independent helpers for the synagree test suite.

The helpers here are deliberately written *without* synagree: they read raw
CoNLL columns with ``str.split``, build ``zss`` trees straight from heads and
labels, and compute Krippendorff's α by the textbook double loop, so that the
tests compare synagree against something that does not share its code.
"""
from __future__ import annotations

import importlib.util
import types
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import pytest

TESTS = Path(__file__).resolve().parent
REPO_ROOT = TESTS.parent
CORE_DATA = TESTS / "data" / "core"
# The shared real data lives beside the project, never inside it (see its README).
SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


#: numba is an optional extra (synagree[numba]).  Without it the kernels' twins run as
#: plain Python: the same numbers (tests/test_install.py compares a whole run with C's),
#: far too slow for the tests that run them on thousands of pairs, or that check numba's
#: own compile cache.  .ci/run runs these again with numba installed.
needs_numba = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None,
    reason="numba is not installed (pip install -e '.[numba]'); .ci/run runs this with it")


def shared_data_dir() -> Path:
    return SHARED_DATA


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` (the real IAA files); skip when it is absent."""
    if not (SHARED_DATA / "iaa").is_dir():
        pytest.skip(f"shared reference data not found at {SHARED_DATA} "
                    f"(expected ../shared/data beside the project root); "
                    f"tests on the real IAA files are skipped")
    return SHARED_DATA


@pytest.fixture(scope="session")
def iaa(shared_data) -> Path:
    return shared_data / "iaa"


@pytest.fixture(scope="session")
def core_data() -> Path:
    """Hand-written fixtures of this suite (tests/data/core)."""
    assert CORE_DATA.is_dir(), f"missing fixture directory {CORE_DATA}"
    return CORE_DATA


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


# --------------------------------------------------------------------------
# Independent helpers (no synagree code)
# --------------------------------------------------------------------------

def conll_text(sentences: Sequence, meta: Optional[Sequence[Dict[str, str]]] = None) -> str:
    """CoNLL-X/U text for sentences given as lists of ``(head, deprel)``.

    Forms are ``w1``, ``w2``, ...; ``meta[k]`` (optional) adds ``# key = value``
    comment lines before sentence k.
    """
    blocks = []
    for k, words in enumerate(sentences):
        lines = []
        if meta and meta[k]:
            lines += [f"# {key} = {val}" for key, val in meta[k].items()]
        for i, (h, lab) in enumerate(words, start=1):
            lines.append("\t".join([str(i), f"w{i}", f"w{i}", "X", "X", "_", str(h), lab,
                                    "_", "_"]))
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks) + "\n" if blocks else ""


def raw_conll(path: Path) -> List[List[Tuple[int, List[str]]]]:
    """Sentences of a CoNLL file as lists of (line number, columns) of its words.

    Only integer IDs are words (multiword ranges and empty nodes are skipped).
    """
    sents: List[List[Tuple[int, List[str]]]] = []
    cur: List[Tuple[int, List[str]]] = []
    started = False
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, start=1):
            line = line.rstrip("\n").rstrip("\r")
            if not line.strip():
                if started:
                    sents.append(cur)
                cur, started = [], False
                continue
            started = True
            if line.startswith("#"):
                continue
            cols = line.split("\t")
            if cols[0].isdigit():
                cur.append((no, cols))
    if started:
        sents.append(cur)
    return sents


def heads_labels(words: List[Tuple[int, List[str]]]) -> Tuple[List[int], List[str]]:
    return [int(c[6]) for _, c in words], [c[7] for _, c in words]


def unreachable(heads: Sequence[int]) -> List[int]:
    """1-based words whose head chain never reaches 0 (on or under a cycle)."""
    out = []
    n = len(heads)
    for w in range(1, n + 1):
        seen = set()
        x = w
        while x != 0 and x not in seen:
            seen.add(x)
            x = heads[x - 1]
        if x != 0:
            out.append(w)
    return out


def on_cycle(heads: Sequence[int]) -> List[int]:
    """1-based words that lie on a head cycle (following heads returns to them)."""
    out = []
    n = len(heads)
    for w in range(1, n + 1):
        x = heads[w - 1]
        for _ in range(n + 1):
            if x == 0 or x == w:
                break
            x = heads[x - 1]
        if x == w:
            out.append(w)
    return out


def zss_dep_tree(heads: Sequence[int], labels: Sequence[str], root_label: str = ""):
    """zss tree ε(...) with each word under its head, siblings by word id.

    Built by hanging every word under its head and walking from the root, so
    words on a head cycle are not part of the returned tree (docs/method.md §2).
    """
    from zss import Node

    nodes = [Node(root_label)] + [Node(lab) for lab in labels]
    for i, h in enumerate(heads, start=1):  # ascending ids: children stay ordered
        nodes[h].addkid(nodes[i])
    return nodes[0]


def zss_mirror(node):
    """A copy of a zss tree with every child list reversed."""
    from zss import Node

    m = Node(node.label)
    for c in reversed(node.children):
        m.addkid(zss_mirror(c))
    return m


def zss_nodes(node) -> int:
    return 1 + sum(zss_nodes(c) for c in node.children)


def zss_shape(node):
    return (node.label, tuple(zss_shape(c) for c in node.children))


def zss_unit_distance(a, b) -> float:
    import zss

    return zss.simple_distance(a, b, label_dist=lambda x, y: 0 if x == y else 1)


def textbook_alpha(units: Sequence[Sequence[object]], d2: Callable[[object, object], float]):
    """Krippendorff's α by the definition (docs/method.md §5), with explicit loops.

    ``units``: list of value lists (one value per annotator who coded it).
    Returns (alpha or None, D_o, D_e).
    """
    pairable = [list(u) for u in units if len(u) >= 2]
    values = [v for u in pairable for v in u]
    n = len(values)
    if n < 2:
        return None, float("nan"), float("nan")
    do = 0.0
    for u in pairable:
        s = 0.0
        for i in range(len(u)):
            for j in range(len(u)):
                if i != j:
                    s += d2(u[i], u[j])
        do += s / (len(u) - 1)
    do /= n
    de = 0.0
    for i in range(n):
        for j in range(n):
            if i != j:
                de += d2(values[i], values[j])
    de /= n * (n - 1)
    if de == 0:
        return None, do, de
    return 1.0 - do / de, do, de


@pytest.fixture(scope="session")
def h():
    """Namespace of the independent helpers above."""
    return types.SimpleNamespace(
        conll_text=conll_text, raw_conll=raw_conll, heads_labels=heads_labels,
        unreachable=unreachable, on_cycle=on_cycle, zss_dep_tree=zss_dep_tree,
        zss_mirror=zss_mirror, zss_nodes=zss_nodes, zss_shape=zss_shape,
        zss_unit_distance=zss_unit_distance, textbook_alpha=textbook_alpha)


@pytest.fixture
def write(tmp_path):
    """write(relative name, text or bytes) -> Path under tmp_path."""

    def _write(name: str, content) -> Path:
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
        return p

    return _write


@pytest.fixture
def run_cli(capsys):
    """run_cli(*args) -> (exit status, stdout, stderr), in-process via synagree.cli.main.main."""
    from synagree.cli.main import main

    def _run(*args):
        capsys.readouterr()  # drop anything printed before
        rc = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return rc, out, err

    return _run


@pytest.fixture
def terminal_100(monkeypatch):
    """Text tables are fitted as for a terminal 100 columns wide (the documented
    examples show what such a terminal shows; written to a pipe, text tables are
    never cut)."""
    from synagree.render import fit

    monkeypatch.setattr(fit, "is_terminal", lambda stream: True)
    monkeypatch.setattr(fit, "TERMINAL_WIDTH", 100)
    monkeypatch.setenv("COLUMNS", "100")
