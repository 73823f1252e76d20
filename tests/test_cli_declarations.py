"""The command line is declared as data (issue 21): each command's description in
`synagree.cli.descriptions`, the shared options in `synagree.cli.options.OPTIONS`."""
from __future__ import annotations

import argparse

import pytest

from synagree.base.option_specs import SPECS
from synagree.cli import options
from synagree.cli.descriptions import DESCRIPTIONS
from synagree.cli.main import COMMANDS, build_parser


def _command_parser(name: str) -> argparse.ArgumentParser:
    parser = build_parser(name)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def test_every_command_has_its_description_and_only_it():
    assert set(DESCRIPTIONS) == set(COMMANDS)
    for name in COMMANDS:
        # register() adds options only: the description is the table's
        assert _command_parser(name).description == DESCRIPTIONS[name], name


def test_every_declared_option_is_taken_by_a_command_as_declared():
    taken: dict = {}
    for name in COMMANDS:
        for action in _command_parser(name)._actions:
            for spelling in action.option_strings:
                taken.setdefault(spelling, []).append(action)
    for spelling, settings in options.OPTIONS.items():
        assert spelling in taken, f"{spelling} is declared but no command takes it"
        for action in taken[spelling]:
            want = tuple(x for x in (options.SHORT.get(spelling), spelling) if x)
            assert tuple(action.option_strings) == want
            assert action.help == settings["help"]
            assert action.default == settings.get("default", False if
                                                  settings.get("action") else None)
    for spec in SPECS.values():  # every spelled declaration is some command's option
        assert spec.flag is None or spec.flag in taken, f"{spec.flag} is declared, not taken"


def test_add_options_refuses_an_undeclared_name():
    with pytest.raises(KeyError):
        options.add_options(argparse.ArgumentParser(), "--no-such-option")


def test_a_switch_is_off_unless_given():
    p = argparse.ArgumentParser()
    options.add_options(p, "--quiet", "--bdm")
    assert vars(p.parse_args([])) == {"quiet": False, "bdm": False}
    assert vars(p.parse_args(["-q", "--bdm"])) == {"quiet": True, "bdm": True}
