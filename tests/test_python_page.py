"""docs/python.md runs end to end as a notebook would (issue 22, item 6)."""
from __future__ import annotations

import doctest
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "python.md"


def test_the_page_runs():
    pytest.importorskip("pandas", reason="the page's tables need pandas")
    pytest.importorskip("matplotlib", reason="the page draws a figure")
    result = doctest.testfile(str(PAGE), module_relative=False,
                              optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 25 and result.failed == 0
