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
#: coefficients are the span coefficients, not categorical's AC1/AC2; agree --runs FILE...
#: names runs of one annotator, noise --runs N counts runs: test_option_vocabulary)
OWN_MEANING = {("spans", "coefficient"), ("agree", "runs")}

#: argparse destinations that hold a spec's value under another name
DEST = {"ci_level": "level"}

#: a command's own options, each with the reason it is the command line's own: another
#: input file given beside the annotators' (the API takes it as an argument of its own
#: or inside an options object), or what a written output holds
COMMAND_OWN = {
    ("agree", "retest"): "input files: an annotator's two passes "
                         "(synagree.agreement.sets.agreement_sets(retest=[(first, second)]))",
    ("compare", "humans"): "input files: the humans set beside the parser, read with GOLD",
    ("report", "system"): "an input file: the parser's output, read with the annotators' "
                          "(the API's BandOptions.data)",
    ("alt-test", "candidate"): "an input file: synagree.alt_test(humans, candidate)",
    ("adjudicate", "worklist"): "where a second output is written (the API returns "
                                "AdjudicationResult.worklist)",
    ("categorical", "confusion"): "what the JSON output holds (the result always has the "
                                  "tables; render_token_layers(confusion=True) writes them)",
    ("bdm", "name"): "the ontology's name in the written file's header line",
}

#: still declared by hand in the command's module (argparse settings beside no spec):
#: issue 31 leaves these to move; each is one `add_argument` call today.  Empty: every
#: option is a declaration, the command line's own or a command's own (above); keep it so
BY_HAND: dict = {}


def _actions(command: str):
    ap = build_parser(command)
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return [a for a in sub.choices[command]._actions if a.option_strings]


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_option_is_declared_once(command):
    left = BY_HAND.get(command, set())
    dests = {DEST.get(a.dest, a.dest) for a in _actions(command)}
    undeclared = {d for d in dests if d not in CLI_ONLY and (command, d) not in COMMAND_OWN
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


def test_a_commands_own_options_are_still_there():
    """COMMAND_OWN names options that exist (a stale entry would excuse a new one)."""
    for command, dest in COMMAND_OWN:
        assert dest in {a.dest for a in _actions(command)}, (command, dest)
        assert dest not in SPECS, f"{dest} is declared now: take it out of COMMAND_OWN"


def test_module_constants_are_the_declarations():
    """The choices the computing modules check are those the specs declare (one place)."""
    from synagree.agreement.adjudicate import WEIGHTS
    from synagree.agreement.alt_test import ALT_TEST_METRICS
    from synagree.evaluation.spans import CONLLU_LAYERS, PHRASE_LAYERS
    from synagree.evaluation.tiers import UNMAPPED_POLICIES
    from synagree.stats.gate_prf import LABEL_MODES
    from synagree.stats.hierarchical import AGREE_MODE, LABEL_DISTANCES, MODES
    from synagree.stats.sample_size import DEFAULT_MAX_UNITS, FIRST_SIZE

    assert (PHRASE_LAYERS, CONLLU_LAYERS) == (("constituents", "preterminals"),
                                              ("upos", "xpos", "deprel", "feats", "lemma",
                                               "form"))
    assert WEIGHTS == ("equal", "competence") and LABEL_MODES == ("type", "feature", "none")
    assert UNMAPPED_POLICIES == ("error", "own-class")
    assert (MODES, AGREE_MODE, LABEL_DISTANCES) == (("mutual", "agreement", "credit"),
                                                    "mutual", ("exact", "hierarchy"))
    assert (FIRST_SIZE, DEFAULT_MAX_UNITS) == (10, 1_000_000)
    every = tuple(dict.fromkeys(m for ms in ALT_TEST_METRICS.values() for m in ms))
    assert SPECS["score"].choices == every


#: options whose Python name is declared (an API keyword) but whose command-line spelling
#: is still declared by hand beside it.  Empty: every declared name's flag and help come
#: from its declaration (the last six, --layers, --specific, report --plan, compare --alpha
#: and plot --band, moved in issue 31 item 1); keep it so
SPELLED_BY_HAND: dict = {}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_api_keyword_spelled_by_hand_is_listed(command):
    """A declared name whose flag is not the declaration's, or whose help differs, is on
    SPELLED_BY_HAND (``--format``'s help names the reader registry's formats: built
    from the declaration in cli/options.py)."""
    found = set()
    for a in _actions(command):
        name = DEST.get(a.dest, a.dest)
        spec = SPECS.get(name)
        if (spec is None or a.help == argparse.SUPPRESS or (command, name) in OWN_MEANING
                or name == "fmt"):
            continue
        if spec.flag not in a.option_strings or a.help != spec.help:
            found.add(name)
    assert found == SPELLED_BY_HAND.get(command, set())


def test_parsers_constants_are_the_renderers():
    """The output formats, figure formats, layers and span coefficients the parsers take
    from the declarations are those the computing and rendering modules use."""
    from synagree.base.option_specs import (
        DEFAULT_TOKEN_LAYERS,
        FIGURE_FORMATS,
        OUTPUT_FORMATS,
        SPAN_COEFFICIENTS,
        TOKEN_LAYERS,
    )
    from synagree.evaluation import span_alpha
    from synagree.render import adjudicate, agreement, bdm, html, plan, spans, tags
    from synagree.stats import categorical

    assert OUTPUT_FORMATS == {
        "agree": agreement.FORMATS, "report": html.OUTPUTS, "adjudicate": adjudicate.FORMATS,
        "categorical": OUTPUT_FORMATS["alt-test"], "tags": tags.TAGS_OUTPUTS,
        "spans": spans.SPAN_OUTPUTS, "bdm": bdm.BDM_OUTPUTS, "plan": plan.FORMATS,
        "alt-test": ("table", "json", "csv", "markdown", "latex")}
    assert FIGURE_FORMATS == plan.FIGURE_FORMATS
    from synagree.stats.features import FEATURE_PREFIX
    assert SPECS["layers"].prefix == FEATURE_PREFIX
    assert SPAN_COEFFICIENTS == span_alpha.SPAN_COEFFICIENTS
    assert (categorical.LAYERS, categorical.DEFAULT_LAYERS) == (TOKEN_LAYERS,
                                                                DEFAULT_TOKEN_LAYERS)


def test_the_last_six_are_checked_alike():
    """The six spellings moved last refuse what their API keyword refuses, naming the
    same allowed values (the command line: argparse's exit 2; the API: the spec's
    ValueError)."""
    import contextlib
    import io

    from synagree.base.command_options import CategoricalOptions, ParsevalOptions
    from synagree.base.option_specs import check_as
    from synagree.cli.main import main

    def usage(*argv):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as stop:
            main(list(argv))
        assert stop.value.code == 2
        return err.getvalue()

    err = usage("categorical", "a", "b", "--specific", "lemma")
    assert "--specific" in err and "'head+deprel'" in err
    with pytest.raises(ValueError, match="specific must be one of 'deprel'.*'head\\+deprel'"):
        CategoricalOptions(specific="lemma")
    err = usage("plot", "runs.csv", "-o", "out", "--band", "iqr")
    assert "--band" in err and "'sd'" in err
    with pytest.raises(ValueError, match="band must be one of 'minmax', 'sd', got 'iqr'"):
        check_as("band", "plot_band", "iqr", "plot_results(): ")
    err = usage("report", "a", "b", "--plan", "5")
    assert "argument --plan: must be a number above 0 and at most 4" in err
    from synagree.agreement.plan import PlanOptions
    with pytest.raises(ValueError, match="width must be a number above 0 and at most 4"):
        PlanOptions(5.0)
    assert ParsevalOptions().alpha is False  # compare --alpha: off unless given
    # --layers: a token layer or feats:NAME, on both sides (the CLI refuses before reading)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["categorical", "a.conllu", "b.conllu", "--layers", "deprel,bogus"]) == 2
    assert "unknown layer(s) bogus" in err.getvalue() and "feats:NAME" in err.getvalue()
    with pytest.raises(ValueError, match="layers must be a sequence of strings from 'deprel'"
                                         ".*'head\\+deprel', 'feats:NAME' \\(one feature\\)"):
        CategoricalOptions(layers=["deprel", "bogus"])
    assert CategoricalOptions(layers=["feats:Case"]).layers == ("feats:Case",)
