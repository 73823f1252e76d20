"""Write the metric glossary and the table of renamed keys from the metric registry.

The registry (`synagree.base.metrics`) is the one place a metric is named and
defined. This script writes, between HTML comment markers:

* in ``docs/method.md`` §13, the table of derived keys
  (``<!-- glossary:derived -->``) and one table per group
  (``<!-- glossary:agree -->`` ...), each closed by ``<!-- /glossary -->``;
* in ``CHANGELOG.md``, under ``## [Unreleased]`` → ``### Renamed keys``, the
  table old key → new key → commands (``<!-- renamed-keys -->`` …
  ``<!-- /renamed-keys -->``) from `synagree.base.metrics.RENAMED`.

Text outside the markers is left alone; a marker missing from a file is an
error. ``--check`` writes nothing and exits 1 when a file differs from what
would be written (tests/test_glossary.py runs the same check).

Usage::

    python scripts/glossary.py            # rewrite the generated tables
    python scripts/glossary.py --check    # exit 1 if they are out of date
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from synagree.base.metrics import GROUPS, RENAMED, derived_glossary, glossary

ROOT = Path(__file__).resolve().parents[1]
METHOD = ROOT / "docs" / "method.md"
CHANGELOG = ROOT / "CHANGELOG.md"

_GLOSSARY = re.compile(r"(<!-- glossary:([\w-]+) -->\n)(.*?)(<!-- /glossary -->)", re.S)
_RENAMED = re.compile(r"(<!-- renamed-keys -->\n)(.*?)(<!-- /renamed-keys -->)", re.S)


def glossary_table(name: str) -> str:
    """The generated Markdown of the marker ``glossary:NAME``."""
    if name == "derived":
        return derived_glossary()
    if name not in GROUPS:
        raise ValueError(f"unknown glossary marker 'glossary:{name}' (known: derived, "
                         f"{', '.join(GROUPS)})")
    return glossary(name)


def renamed_table() -> str:
    """The Markdown table old key → new key → commands, from `RENAMED`.

    One row per (old, new) pair, in the order the registry lists them; the
    commands that read the old key through it, in the registry's command order.
    """
    rows: Dict[Tuple[str, str], List[str]] = {}
    for command, table in RENAMED.items():
        for old, new in table.items():
            rows.setdefault((old, new), []).append(command)
    lines = ["| old key | new key | commands |", "|---|---|---|"]
    lines += [f"| `{old}` | `{new}` | {', '.join(f'`{c}`' for c in cmds)} |"
              for (old, new), cmds in rows.items()]
    return "\n".join(lines) + "\n"


def render_method(text: str) -> str:
    """``docs/method.md`` with every ``glossary:`` block regenerated."""
    groups = set(GROUPS) | {"derived"}
    seen = [m.group(2) for m in _GLOSSARY.finditer(text)]
    missing = sorted(groups - set(seen))
    if missing:
        raise ValueError("docs/method.md lacks the markers "
                         + ", ".join(f"<!-- glossary:{g} -->" for g in missing))
    if len(seen) != len(set(seen)):
        raise ValueError("docs/method.md has a glossary marker twice")
    return _GLOSSARY.sub(lambda m: m.group(1) + glossary_table(m.group(2)) + m.group(4), text)


def render_changelog(text: str) -> str:
    """``CHANGELOG.md`` with the renamed-keys block regenerated."""
    if len(_RENAMED.findall(text)) != 1:
        raise ValueError("CHANGELOG.md needs exactly one <!-- renamed-keys --> ... "
                         "<!-- /renamed-keys --> block (under ## [Unreleased], "
                         "### Renamed keys)")
    return _RENAMED.sub(lambda m: m.group(1) + renamed_table() + m.group(3), text)


def outdated(method: Path = METHOD, changelog: Path = CHANGELOG) -> List[Tuple[Path, str]]:
    """The files whose generated blocks differ from the registry, with their new text."""
    out = []
    for path, render in ((method, render_method), (changelog, render_changelog)):
        text = path.read_text(encoding="utf-8")
        new = render(text)
        if new != text:
            out.append((path, new))
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when a file is out of date")
    args = ap.parse_args(argv)
    try:
        stale = outdated()
    except ValueError as e:
        print(f"glossary: {e}", file=sys.stderr)
        return 2
    for path, new in stale:
        name = path.relative_to(ROOT)
        if args.check:
            print(f"glossary: {name} is out of date: run python scripts/glossary.py",
                  file=sys.stderr)
        else:
            path.write_text(new, encoding="utf-8")
            print(f"glossary: wrote {name}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
