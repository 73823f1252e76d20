"""The package is typed (PEP 561, issue 22): ``py.typed`` ships, and the strict check of the
public modules in .ci/run names modules that exist."""
from __future__ import annotations

import re
import sys

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")


def test_py_typed_ships(repo_root):
    assert (repo_root / "synagree" / "py.typed").is_file()
    conf = tomllib.loads((repo_root / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in conf["tool"]["setuptools"]["package-data"]["synagree"]


def test_strict_step_names_the_public_modules(repo_root):
    run = (repo_root / ".ci" / "run").read_text(encoding="utf-8")
    step = run[run.index("mypy --strict"):].split("\n\n")[0]
    modules = re.findall(r"synagree/\S+\.py", step)
    assert "synagree/__init__.py" in modules and "synagree/distance/tree_pairs.py" in modules
    for m in modules:
        assert (repo_root / m).is_file(), m
