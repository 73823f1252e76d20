"""Measure how much of a package's Python source is docstrings.

The share is docstring lines over all lines of every ``*.py`` file under a
directory.  A docstring line is a source line spanned by the docstring literal
of a module, class or function (nested ones included), opening and closing
quotes' lines counted; a file has ``text.count("\\n") + 1`` lines.  Issue 21
asks for ``synagree`` to stay below 35 %:

    python scripts/docshare.py synagree            # share, then the 25 largest files
    python scripts/docshare.py synagree --top 0    # the share only

``examples`` counts the lines of docstring values from their numpydoc
``Examples`` header to the end of the docstring (how much of the share is
runnable examples).
"""
from __future__ import annotations

import argparse
import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, Optional

# a numpydoc "Examples" header: the word on its own line, underlined by dashes
EXAMPLES_HEADER = re.compile(r"^[ \t]*Examples[ \t]*\n[ \t]*-{3,}[ \t]*$", re.M)

_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class Share:
    """Line counts of one file or of a whole tree (``+`` adds them up)."""

    lines: int = 0
    doc: int = 0
    examples: int = 0

    def __add__(self, other: "Share") -> "Share":
        return Share(self.lines + other.lines, self.doc + other.doc,
                     self.examples + other.examples)

    @property
    def share(self) -> float:
        """Docstring lines over all lines, a fraction (0 for no lines)."""
        return self.doc / self.lines if self.lines else 0.0


def docstring_expr(node: ast.AST) -> Optional[ast.Expr]:
    """The statement holding ``node``'s docstring, or None if it has none."""
    body = getattr(node, "body", None)
    if not body:
        return None
    first = body[0]
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return first
    return None


def measure_source(text: str) -> Share:
    """The line counts of one module's source text."""
    doc = examples = 0
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, _DOCUMENTED):
            continue
        expr = docstring_expr(node)
        if expr is None:
            continue
        doc += (expr.end_lineno or expr.lineno) - expr.lineno + 1
        value = expr.value.value  # type: ignore[attr-defined]
        header = EXAMPLES_HEADER.search(value)
        if header:
            examples += value[header.start():].count("\n")
    return Share(text.count("\n") + 1, doc, examples)


def python_files(root: Path) -> Iterator[Path]:
    """Every ``*.py`` file under ``root`` (or ``root`` itself), sorted."""
    yield from ([root] if root.is_file() else sorted(root.rglob("*.py")))


def measure_tree(root: Path) -> Dict[Path, Share]:
    """The line counts of every Python file under ``root``."""
    return {path: measure_source(path.read_text(encoding="utf-8"))
            for path in python_files(root)}


def total(shares: Dict[Path, Share]) -> Share:
    """The sum of per-file counts."""
    out = Share()
    for share in shares.values():
        out = out + share
    return out


def describe(share: Share) -> str:
    """One line: total, docstring and example lines, and the share."""
    return (f"total {share.lines} doc {share.doc} share {share.share:.3f} "
            f"examples {share.examples}")


def main(argv: Optional[list] = None) -> int:
    """Print the share of a tree and its files with the most docstring lines."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", type=Path, help="a package directory or a .py file")
    parser.add_argument("--top", type=int, default=25,
                        help="list this many files with the most docstring lines (default 25)")
    args = parser.parse_args(argv)
    shares = measure_tree(args.root)
    print(describe(total(shares)))
    ranked = sorted(shares.items(), key=lambda item: -item[1].doc)
    for path, share in ranked[:max(args.top, 0)]:
        print(f"{path} lines {share.lines} doc {share.doc} examples {share.examples}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
