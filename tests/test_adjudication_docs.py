"""docs/adjudication.md ("From agreement to gold") runs end to end under doctest."""
from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "adjudication.md"


def test_the_page_runs():
    result = doctest.testfile(str(PAGE), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                              verbose=False)
    assert result.attempted > 20 and result.failed == 0
