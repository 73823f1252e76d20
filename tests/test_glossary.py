"""The glossary of docs/method.md §13 and CHANGELOG.md's renamed keys are the registry's.

`scripts/glossary.py` writes both from `synagree.base.metrics`; these tests run
its check (the functions, not a subprocess) and fail when either file is out
of date, and check the registry itself: sections that exist, one unit kind
per key, the keys the code relies on.
"""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from synagree.base.metrics import (
    COUNT,
    DERIVED,
    FRACTION,
    GROUPS,
    METRICS,
    REGISTRY,
    RENAMED,
    glossary,
    is_registered,
    metric,
)
from synagree.stats.categorical import LAYERS

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("glossary_script", ROOT / "scripts" / "glossary.py")
assert _spec is not None and _spec.loader is not None
script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(script)


def test_method_and_changelog_are_up_to_date():
    stale = [str(p.relative_to(ROOT)) for p, _ in script.outdated()]
    assert not stale, f"{', '.join(stale)} out of date: run python scripts/glossary.py"
    assert script.main(["--check"]) == 0


def test_check_finds_a_stale_table(tmp_path):
    method = (ROOT / "docs" / "method.md").read_text(encoding="utf-8")
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    # a hand edit inside a generated block, and a rename missing from the changelog
    row = "| `LAS_full` | as `LAS` with the full DEPREL (subtypes compared)"
    assert row in method
    (tmp_path / "method.md").write_text(method.replace(row, row + " (edited)"), encoding="utf-8")
    (tmp_path / "CHANGELOG.md").write_text(
        re.sub(r"\| `mean_wup` \| `accuracy_wup` \| `tags` \|\n", "", changelog),
        encoding="utf-8")
    stale = script.outdated(tmp_path / "method.md", tmp_path / "CHANGELOG.md")
    assert [p.name for p, _ in stale] == ["method.md", "CHANGELOG.md"]
    assert stale[0][1] == method and stale[1][1] == changelog  # writing restores them
    # text outside the markers is not the script's
    (tmp_path / "method.md").write_text(method.replace("One name, one meaning.", "Hm."),
                                        encoding="utf-8")
    (tmp_path / "CHANGELOG.md").write_text(changelog, encoding="utf-8")
    assert script.outdated(tmp_path / "method.md", tmp_path / "CHANGELOG.md") == []


def test_missing_markers_are_errors():
    method = (ROOT / "docs" / "method.md").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="glossary:tags"):
        script.render_method(method.replace("<!-- glossary:tags -->", "<!-- tags -->"))
    with pytest.raises(ValueError, match="unknown glossary marker"):
        script.render_method(method + "\n<!-- glossary:nope -->\n<!-- /glossary -->\n")
    with pytest.raises(ValueError, match="renamed-keys"):
        script.render_changelog("# Changelog\n")


def test_changelog_lists_every_rename_with_its_commands():
    table = script.renamed_table()
    for command, renames in RENAMED.items():
        for old, new in renames.items():
            line = next(x for x in table.splitlines() if x.startswith(f"| `{old}` | `{new}` |"))
            assert f"`{command}`" in line.split("|")[3]
            # an old key leads to a key of today (or, in the report's bootstrap, to a
            # layer's coefficient, `{layer}_{coefficient}`)
            layer, _, coefficient = new.partition("_")
            assert is_registered(new) or (layer in LAYERS and is_registered(coefficient)), new
    assert table in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    unreleased = changelog.index("## [Unreleased]")
    assert unreleased < changelog.index("### Renamed keys") < changelog.index("## [0.1.0]")


def test_every_section_exists():
    anchors = set(re.findall(r'<a id="(s[\d-]+)"></a>',
                             (ROOT / "docs" / "method.md").read_text(encoding="utf-8")))
    sections = {m.section for m in REGISTRY} | {d[3] for d in DERIVED}
    for s in sections:
        assert s == "" or "s" + s.replace(".", "-") in anchors, s
    assert "" not in {m.section for m in REGISTRY}  # every row cites its section


def test_registry_rows():
    assert {m.group for m in REGISTRY} == set(GROUPS)
    for group in GROUPS:
        assert glossary(group).count("\n") == 2 + sum(m.group == group for m in REGISTRY)
    # a key in several rows is a fraction in all of them or a count in all of them:
    # the code reads ``metric(key).unit`` (baselines, stored results)
    units: dict = {}
    for m in REGISTRY:
        for k in m.keys():
            units.setdefault(k, set()).add(m.unit)
    assert not [k for k, u in units.items() if {FRACTION, COUNT} <= u]
    # the first row of a key is the one `metric` gives (agree's, for the shared keys)
    assert metric("LAS").group == metric("cohen_kappa").group == "agree"
    assert metric("scott_pi_ci") is METRICS["scott_pi"]
    assert [m.key for m in REGISTRY if "alpha_diff" in m.keys()] == ["alpha_<v>", "alpha_<v>"]
    assert metric("d_e").key == "d_o" and metric("d_e").name() == "`d_o`, `d_e`"
    with pytest.raises(KeyError, match="not a registered metric"):
        metric("las")
