"""Every command-line option is declared once (issue 31, item 1): as an `OptionSpec` in
`synagree.base.option_specs` (which the Python API's options objects validate with), or
named below as the command line's own (where and how a result is written or drawn), or
listed as still declared by hand in its command's module.  A new option that is none of
these fails here, so the list of what is left can only shrink."""
from __future__ import annotations

import argparse

import pytest

from synagree.base.option_specs import SPECS
from synagree.cli.main import COMMANDS, build_parser

#: the command line's own: how input files and directories are given, where and how the
#: result is written or drawn, what stderr shows (the Python API returns the whole result)
CLI_ONLY = {"help", "dirs", "label_data", "output", "out", "verbose", "top", "figure",
            "metrics", "ylim", "corpus", "formats", "plot", "max_warnings", "baseline_top"}

#: a name declared in the specs that a command takes with a meaning of its own (spans'
#: coefficients are the span coefficients, not categorical's AC1/AC2)
OWN_MEANING = {("spans", "coefficient")}

#: argparse destinations that hold a spec's value under another name
DEST = {"ci_level": "level"}

#: still declared by hand in the command's module (argparse settings beside no spec):
#: issue 31 leaves these to move; each is one `add_argument` call today
BY_HAND = {
    "agree": {"label_distance", "label_credit", "label_direction", "retest"},
    "report": {"adjudicate", "system", "reference"},
    "adjudicate": {"weights", "worklist", "decisions"},
    "categorical": {"confusion", "gate_feature"},
    "compare": {"no_alpha", "humans"},
    "tags": {"tiers_unmapped"},
    "spans": {"layer", "labels", "gamma_samples", "gamma_seed", "gamma_precision",
              "gamma_budget"},
    "bdm": {"name"},
    "plan": {"width", "max_units"},
    "alt-test": {"candidate", "score"},
}


def _actions(command: str):
    ap = build_parser(command)
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return [a for a in sub.choices[command]._actions if a.option_strings]


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_option_is_declared_once(command):
    left = BY_HAND.get(command, set())
    dests = {DEST.get(a.dest, a.dest) for a in _actions(command)}
    undeclared = {d for d in dests if d not in CLI_ONLY
                  and (d not in SPECS or (command, d) in OWN_MEANING)}
    assert undeclared - {d for c, d in OWN_MEANING if c == command} <= left, (
        f"declare these in base/option_specs.py: {undeclared - left}")
    assert left <= undeclared, f"declared now, or gone: take {left - undeclared} out of BY_HAND"


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_declared_option_takes_its_spec(command):
    """Under its declared flag, an option has the spec's choices and (unless the command
    sets its own) the spec's help; other spellings are hidden aliases."""
    for a in _actions(command):
        spec = SPECS.get(DEST.get(a.dest, a.dest))
        if spec is None or a.help == argparse.SUPPRESS or (command, a.dest) in OWN_MEANING:
            continue
        if spec.choices and a.choices is not None and spec.kind == "choice":
            assert tuple(a.choices) == tuple(spec.choices), a.option_strings
