"""One option vocabulary: an option several commands share has one name, one
default and one help text everywhere (issue 21).

The only differences allowed are listed in `EXCEPTIONS`, each with its reason.
"""
from __future__ import annotations

import argparse
from collections import defaultdict

import pytest

from synagree.cli.main import COMMANDS, build_parser

#: option -> (the field allowed to differ, why)
EXCEPTIONS = {
    "--output": ("choices", "each command lists the formats it writes, its default first"),
    "--out": ("all", "noise and plot write a directory of files, the others one file"),
    "--coefficient": ("all", "categorical and tags: Gwet's ac1|ac2 (one declaration, "
                             "options.GWET_COEFFICIENT); spans: its span coefficient alpha-u"),
    "--runs": ("all", "noise --runs N is how many noisy runs to draw; agree --runs FILE... "
                      "names runs of one annotator or model (issue 34 asks for that name)"),
    "--worst": ("default", "report always lists the worst sentences, agree on request; "
                           "the help names both defaults"),
}
FIELDS = ("default", "help", "metavar", "choices", "dest", "type")


def _options():
    """option string -> command -> the option's fields."""
    found: dict = defaultdict(dict)
    for name in COMMANDS:
        parser = build_parser(name)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for a in sub.choices[name]._actions:
            if not a.option_strings or a.help == argparse.SUPPRESS:
                continue
            found[a.option_strings[-1]][name] = {
                "default": a.default, "help": a.help, "metavar": a.metavar,
                "choices": tuple(a.choices) if a.choices else None, "dest": a.dest,
                "type": getattr(a.type, "__name__", a.type),
                "strings": tuple(a.option_strings)}
    return found


SHARED = {opt: cmds for opt, cmds in _options().items() if len(cmds) > 1}


def test_the_five_commands_share_the_groups():
    """input, sampling, memory, hierarchy, output and bootstrap options where they apply."""
    for opt, cmds in {"--bootstrap": COMMANDS_FIVE, "--ci-level": COMMANDS_FIVE,
                      "--seed": COMMANDS_FIVE, "--max-memory": COMMANDS_FIVE,
                      "--output": COMMANDS_FIVE, "--out": COMMANDS_FIVE,
                      "--quiet": COMMANDS_FIVE,
                      # compare aligns gold and system by their characters (CoNLL 2018)
                      "--no-text-check": ("agree", "report", "tags", "categorical"),
                      "--names": ("agree", "report", "compare", "categorical"),
                      "--sample-pairs": ("agree", "report", "compare"),
                      "--exact": ("agree", "report", "compare"),
                      "--hierarchy": ("agree", "compare", "tags")}.items():
        assert set(cmds) <= set(SHARED[opt]), (opt, set(cmds) - set(SHARED[opt]))


COMMANDS_FIVE = ("agree", "report", "compare", "tags", "categorical")


@pytest.mark.parametrize("opt", sorted(SHARED))
def test_shared_option_is_the_same_everywhere(opt):
    cmds = SHARED[opt]
    allowed = EXCEPTIONS.get(opt, (None, ""))[0]
    if allowed == "all":
        return
    for field in FIELDS + ("strings",):
        if field == allowed:
            continue
        values = {c: v[field] for c, v in cmds.items()}
        assert len(set(map(repr, values.values()))) == 1, (opt, field, values)


def test_output_lists_its_default_first():
    for name, spec in SHARED["--output"].items():
        parser = build_parser(name)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        assert sub.choices[name].get_default("default_output") == spec["choices"][0], name
