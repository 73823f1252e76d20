"""scripts/move_examples.py on a small package built for the purpose: what it
moves, what it leaves, that the rewritten docstrings and the examples files
are what they should be, and that a second run changes nothing."""
from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

INIT = '''\
"""A package.

Examples
--------
>>> 1 + 1
2
"""
_EXPORTS = {"Public": "pkg.mod", "shown": "pkg.mod"}
'''

MOD = '''\
"""A module; its examples stay.

Examples
--------
>>> 2 + 2
4
"""
from typing import Any, List


def shown(x: int) -> int:
    """Exported: keeps everything.

    Parameters
    ----------
    x : int

    Examples
    --------
    >>> shown(1)
    1
    """
    return x


class Public:
    """Exported class.

    Examples
    --------
    >>> Public().m()
    3
    """

    def m(self) -> int:
        """A method of an exported class: keeps its examples.

        Examples
        --------
        >>> Public().m()
        3
        """
        return 3


def helper(n: int, labels: List[str]) -> int:
    """Not exported.

    Parameters
    ----------
    n : int
    labels : list of str

    Returns
    -------
    int

    Examples
    --------
    >>> helper(2, [])
    2
    """
    return n


def described(n: int) -> int:
    """Its parameter is described, so the section stays.

    Parameters
    ----------
    n : int
        A count of tokens.

    Returns
    -------
    int
    """
    return n


def vague(obj: Any, k: int) -> str:
    """An ``Any`` annotation says less than the entry.

    Parameters
    ----------
    obj : AgreementResult
    k : {1, 2}

    Returns
    -------
    str
    """
    return ""


def escaped(s: str) -> str:
    """Backslashes: the moved text is what doctest saw.

    Examples
    --------
    >>> escaped("a\\\\tb")
    'a\\\\tb'

    Notes
    -----
    A section after the examples stays.
    """
    return s


def raw(s: str) -> str:
    r"""A raw docstring with ``\\n``.

    Examples
    --------
    >>> len(r"\\n")
    2
    """
    return s


class Outer:
    """Not exported."""

    class Inner:
        """Nested.

        Examples
        --------
        >>> Outer.Inner().f()
        'f'
        """

        def f(self) -> str:
            """A method of a nested class.

            Examples
            --------
            >>> Outer.Inner().f()
            'f'
            """
            return "f"


def outer() -> None:
    """Has a function inside."""

    def inner() -> None:
        """Nested in a function: doctest never ran this.

        Examples
        --------
        >>> 1
        1
        """


if True:
    def conditional() -> int:
        """Defined under an if.

        Examples
        --------
        >>> conditional()
        5
        """
        return 5


def header_lookalike() -> None:
    """Output that looks like a block header.

    Examples
    --------
    >>> print(".. examples:: x")
    .. examples:: x
    """
'''


@pytest.fixture
def move(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import move_examples
    return move_examples


@pytest.fixture
def pkg(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(INIT, encoding="utf-8")
    (package / "mod.py").write_text(MOD, encoding="utf-8")
    return package


def _docs(path: Path) -> dict:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = {"": ast.get_docstring(tree)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = ast.get_docstring(node)
    return out


def test_moves_non_exported_examples_only(move, pkg, capsys):
    examples = pkg.parent / "examples"
    assert move.run(pkg, examples, check=True, drop_bare=False) == 1
    assert (pkg / "mod.py").read_text(encoding="utf-8") == MOD, "--check wrote"
    assert not examples.exists()
    assert move.run(pkg, examples, check=False, drop_bare=False) == 0
    report = capsys.readouterr().out
    docs = _docs(pkg / "mod.py")
    # kept: module docstrings, exported names, methods of exported classes
    for name in ("", "shown", "Public", "m"):
        assert "Examples" in docs[name], name
    assert "Examples" in _docs(pkg / "__init__.py")[""]
    assert "Examples" in docs["inner"]
    assert "outer.<locals>.inner: defined inside a function" in report
    assert "Examples" in docs["header_lookalike"]
    assert "header_lookalike: a line of its examples reads as a block header" in report
    # moved
    assert docs["helper"] == ("Not exported.\n\nParameters\n----------\nn : int\n"
                              "labels : list of str\n\nReturns\n-------\nint")
    assert docs["escaped"] == ("Backslashes: the moved text is what doctest saw.\n\n"
                               "Notes\n-----\nA section after the examples stays.")
    assert docs["raw"] == r"A raw docstring with ``\n``."
    assert docs["Inner"] == "Nested." and docs["f"] == "A method of a nested class."
    assert docs["conditional"] == "Defined under an if."
    assert '    r"""A raw docstring with ``\\n``."""\n' in (pkg / "mod.py").read_text()

    blocks = move.read_blocks((examples / "pkg.mod.txt").read_text(encoding="utf-8"))
    assert list(blocks) == ["helper", "escaped", "raw", "Outer.Inner", "Outer.Inner.f",
                            "conditional"]
    # what doctest saw (one backslash), not the source's two
    assert blocks["escaped"][1] == '>>> escaped("a\\tb")\n\'a\\tb\''
    assert blocks["raw"][1] == '>>> len(r"\\n")\n2'
    assert not (examples / "pkg.txt").exists()

    # the examples run in the module's namespace, as in their docstrings
    import doctest
    import importlib
    import sys
    sys.path.insert(0, str(pkg.parent))
    try:
        mod = importlib.import_module("pkg.mod")
        text = (examples / "pkg.mod.txt").read_text(encoding="utf-8")
        for name, (line, block) in move.read_blocks(text).items():
            test = doctest.DocTestParser().get_doctest(block, dict(vars(mod)), name,
                                                       "pkg.mod.txt", line)
            assert doctest.DocTestRunner().run(test).failed == 0, name
    finally:
        sys.path.remove(str(pkg.parent))
        for name in ("pkg.mod", "pkg"):
            sys.modules.pop(name, None)

    # idempotent
    before = (pkg / "mod.py").read_text(encoding="utf-8"), text
    assert move.run(pkg, examples, check=True, drop_bare=False) == 0
    move.run(pkg, examples, check=False, drop_bare=False)
    assert ((pkg / "mod.py").read_text(encoding="utf-8"),
            (examples / "pkg.mod.txt").read_text(encoding="utf-8")) == before


def test_examples_brought_back_by_a_merge_replace_the_block(move, pkg):
    examples = pkg.parent / "examples"
    move.run(pkg, examples, check=False, drop_bare=False)
    source = (pkg / "mod.py").read_text(encoding="utf-8")
    source = source.replace('    """Defined under an if."""', textwrap.indent(
        '"""Defined under an if.\n\n    Examples\n    --------\n    >>> conditional() + 1\n'
        '    6\n    """', "    "))
    (pkg / "mod.py").write_text(source, encoding="utf-8")
    move.run(pkg, examples, check=False, drop_bare=False)
    blocks = move.read_blocks((examples / "pkg.mod.txt").read_text(encoding="utf-8"))
    assert blocks["conditional"][1] == ">>> conditional() + 1\n6"
    assert len(blocks) == 6


def test_bare_sections(move, pkg, capsys):
    examples = pkg.parent / "examples"
    move.run(pkg, examples, check=False, drop_bare=True)
    docs = _docs(pkg / "mod.py")
    assert docs["helper"] == "Not exported."
    assert "Parameters" in docs["described"] and "Returns" not in docs["described"]
    assert inspect.cleandoc(docs["vague"]).count("Parameters") == 1
    assert "Returns" not in docs["vague"]
    assert "Parameters" in docs["shown"], "exported names keep their sections"
    assert move.run(pkg, examples, check=True, drop_bare=True) == 0
    out = capsys.readouterr().out
    assert "after step 1:" in out and "after step 2:" in out
