"""The examples moved out of the package's docstrings still run, number for number.

Runnable ``Examples`` are required only on the names ``synagree`` exports
(issue 21); ``scripts/move_examples.py`` moves the others' examples to
``tests/examples/<module>.txt``, one block per object under a header line
``.. examples:: <qualified name>``.  Each block is one test, run as a doctest the way
the suite runs the package's docstrings (``--doctest-modules``): in a copy of
its module's globals plus the repository ``conftest.py``'s doctest names, with
the suite's ``doctest_optionflags``.  A block whose object no longer exists
fails, naming it (rename the header or move the examples back).
"""
from __future__ import annotations

import doctest
import importlib
import importlib.util
import re
import sys
from pathlib import Path
from typing import Dict, Iterator, Tuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = Path(__file__).resolve().parent / "examples"
BLOCK_HEADER = re.compile(r"^\.\. examples:: (?P<name>[\w.]+)[ \t]*$", re.M)

# blocks taking more than a few seconds, by test id (none so far)
SLOW: Dict[str, str] = {
    "synagree.render.plots.plot_results": "draws every figure of a noise run (matplotlib)",
    "synagree.render.mpl.pyplot": "imports matplotlib",
    "synagree.base.jit.will_compile": "a subprocess",
}


def _blocks(path: Path) -> Iterator[Tuple[str, int, str]]:
    """``(qualified name, header line (0-based), text)`` of each block of a file."""
    text = path.read_text(encoding="utf-8")
    heads = list(BLOCK_HEADER.finditer(text))
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        yield m["name"], text.count("\n", 0, m.start()), text[m.end():end]


def _cases():
    for path in sorted(EXAMPLES.glob("*.txt")):
        module = path.stem
        for qualname, line, text in _blocks(path):
            test_id = f"{module}.{qualname}"
            marks = [pytest.mark.slow] if test_id in SLOW else []
            yield pytest.param(path, module, qualname, line, text, id=test_id, marks=marks)


def _optionflags(config: pytest.Config) -> int:
    flags = 0
    for name in config.getini("doctest_optionflags"):
        if name not in doctest.OPTIONFLAGS_BY_NAME:
            pytest.fail(f"doctest_optionflags: {name} is pytest's own flag; "
                        "tests/test_examples.py runs the standard doctest flags only")
        flags |= doctest.OPTIONFLAGS_BY_NAME[name]
    return flags


def _resolve(module: object, qualname: str) -> object:
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("path,module,qualname,line,text", list(_cases()))
def test_moved_examples(path, module, qualname, line, text, request, doctest_namespace):
    mod = importlib.import_module(module)
    try:
        _resolve(mod, qualname)
    except AttributeError:
        pytest.fail(f"{path.relative_to(ROOT)}:{line + 1}: {module} has no {qualname}; "
                    "rename the block's header or move its examples back into the docstring")
    if "from numba import" in text and importlib.util.find_spec("numba") is None:
        pytest.skip("the examples use numba, an optional extra (pip install -e '.[numba]'); "
                    ".ci/run runs them with it")
    globs = dict(vars(mod))
    globs.update(doctest_namespace)
    test = doctest.DocTestParser().get_doctest(text, globs, f"{module}.{qualname}",
                                               str(path), line)
    assert test.examples, f"{path.relative_to(ROOT)}:{line + 1}: the block holds no example"
    report: list = []
    runner = doctest.DocTestRunner(optionflags=_optionflags(request.config), verbose=False)
    result = runner.run(test, out=report.append)
    if result.attempted == 0:
        pytest.skip("every example of the block is marked +SKIP")
    assert result.failed == 0, "".join(report)


def test_examples_files_are_sound():
    """One file per existing module, each object's header once, the slow list current."""
    seen = set()
    for path in sorted(EXAMPLES.glob("*.txt")):
        assert importlib.util.find_spec(path.stem) is not None, \
            f"{path.relative_to(ROOT)}: no module {path.stem}"
        names = [name for name, _, _ in _blocks(path)]
        assert names, f"{path.relative_to(ROOT)}: no '.. examples:: name' block"
        repeated = {name for name in names if names.count(name) > 1}
        assert not repeated, f"{path.relative_to(ROOT)}: repeated blocks {sorted(repeated)}"
        seen.update(f"{path.stem}.{name}" for name in names)
    assert not set(SLOW) - seen, f"SLOW lists no longer existing blocks {set(SLOW) - seen}"


@pytest.mark.slow
def test_docstring_share_below_35_percent():
    """Issue 21: docstrings are less than 35 % of the package's lines."""
    spec = importlib.util.spec_from_file_location("docshare", ROOT / "scripts" / "docshare.py")
    assert spec is not None and spec.loader is not None
    docshare = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("docshare", docshare)  # its dataclass looks its module up
    spec.loader.exec_module(docshare)
    share = docshare.total(docshare.measure_tree(ROOT / "synagree"))
    assert share.share < 0.35, (
        f"docstrings are {share.share:.1%} of synagree's lines ({share.doc} of {share.lines}); "
        "run `python scripts/move_examples.py --drop-bare-sections` or shorten docstrings")
