"""``--baseline OLD.json`` for ``synagree compare`` and ``synagree agree`` (docs/method.md §18)."""
from __future__ import annotations

import argparse
from typing import Optional

from synagree.base.memory import check_regression
from synagree.base.option_specs import SPECS
from synagree.cli import options
from synagree.stats.baseline_options import BASELINE_REPLICATES, BaselineOptions

BASELINE_TOP = 10  # --baseline-top's default


def add_test_replicates(p: argparse.ArgumentParser) -> None:
    """``--test-replicates R``: the replicates of the paired tests (not ``--bootstrap``)."""
    if any("--test-replicates" in a.option_strings for a in p._actions):
        return  # compare: --significance and --baseline share it
    options.add_declared(p, "test_replicates")


def add_baseline_args(p: argparse.ArgumentParser, command: str) -> None:
    """``--baseline`` (also spelt ``--compare-to``), ``--baseline-top`` and
    ``--test-replicates``."""
    p.add_argument("--baseline", "--compare-to",  # the declaration's, and its old spelling
                   **options.argparse_settings(SPECS["baseline"], dest="baseline"))
    p.add_argument("--baseline-top", type=options.whole_number(0), default=None, metavar="K",
                   help="with --baseline: list at most K sentences that got worse and K that "
                        f"got better (default {BASELINE_TOP})")
    add_test_replicates(p)


def read_baseline(args: argparse.Namespace, command: str) -> Optional[dict]:
    """The ``--baseline`` JSON (None without the option), read before any computing.

    Raises `synagree.base.problems.InputError` (``file-not-found``, ``bad-json``,
    ``baseline-mismatch``, ``baseline-invalid``) for a missing file, bad JSON, another
    command's output or a field of the wrong type or range, and
    (``usage``) for ``--baseline-top`` without ``--baseline``.  Sets ``args.baseline_top``
    to its default when it was not given.
    """
    path = getattr(args, "baseline", None)
    options.qualifier(args, "baseline_top", path is not None, BASELINE_TOP,
                      "--baseline-top applies with --baseline only")
    if path is None:
        return None
    # numpy only when asked: `compare` on bracketed files stays within EVALB's start-up
    from synagree.stats.regression import load_baseline

    doc = load_baseline(path, command, getattr(args, "max_memory", None))
    per_units = ([(doc.get("details") or {}).get("per_unit")] if command == "agree"
                 else [s.get("per_unit") for s in doc.get("systems") or []])
    units = max((len(pu.get("ids") or ()) for pu in per_units if isinstance(pu, dict)),
                default=0)
    check_regression(units, replicates(args), max(1, len(doc.get("systems") or [doc]) * 20),
                     getattr(args, "max_memory", None))
    return doc


def baseline_options(args: argparse.Namespace, command: str) -> Optional[BaselineOptions]:
    """The ``--baseline`` options (None without the option), the file read before any
    computing (errors as `read_baseline`)."""
    doc = read_baseline(args, command)
    if doc is None:
        return None
    return BaselineOptions(doc, args.baseline, replicates(args), args.seed, args.ci_level,
                           args.baseline_top)


def replicates(args: argparse.Namespace) -> int:
    """Replicates (and randomisation rounds) of the paired tests: ``--test-replicates``."""
    return int(getattr(args, "test_replicates", BASELINE_REPLICATES))
