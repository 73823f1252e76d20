"""Options declared once (issue 31, item 1) and immutable results (item 2's "results are
immutable"): the options objects come from `synagree.base.option_specs.SPECS`, the
command line's shared options too, no public function takes more than 12 parameters,
and a returned result cannot be assigned to."""
from __future__ import annotations

import dataclasses
import inspect
import typing

import pytest

import synagree
from synagree.base import command_options, option_specs
from synagree.base.command_options import OPTIONS_CLASSES, AgreeOptions, CompareOptions
from synagree.base.memory import DEFAULT_MAX_MEMORY
from synagree.cli import options as cli_options
from synagree.io import registry

ROW = "{}\t{}\t_\t{}\t_\t_\t{}\t{}\t_\t_\n"
A = ROW.format(1, "Dogs", "NOUN", 2, "nsubj") + ROW.format(2, "bark", "VERB", 0, "root") + "\n"
B = A.replace("nsubj", "obj")


def test_the_options_classes_are_exported():
    for cls in set(OPTIONS_CLASSES.values()) - {command_options.ReadOptions}:
        assert getattr(synagree, cls.__name__) is cls and cls.__name__ in synagree.__all__


def test_no_public_function_takes_more_than_12_parameters():
    for name in synagree.__all__:
        obj = getattr(synagree, name)
        if inspect.isfunction(obj):
            params = [p for p in inspect.signature(obj).parameters.values()
                      if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
            assert len(params) <= 12, (name, len(params))


@pytest.mark.parametrize("cls", sorted(set(OPTIONS_CLASSES.values()), key=lambda c: c.__name__))
def test_each_field_is_a_declared_option_of_the_declared_kind(cls):
    hints = typing.get_type_hints(cls, vars(command_options))
    for f in dataclasses.fields(cls):
        spec = f.metadata["spec"]
        assert spec.name == f.name and spec == option_specs.SPECS[f.name] or \
            dataclasses.replace(spec, default=option_specs.SPECS[f.name].default,
                                optional=option_specs.SPECS[f.name].optional) == \
            option_specs.SPECS[f.name], f.name
        assert f.default == spec.default
        hint = hints[f.name]
        want = {"bool": bool, "int": int, "fraction": float, "credit": float, "choice": str,
                "size": int, "str": str}.get(spec.kind)
        if want is not None:  # the static type says what the declaration allows
            args = typing.get_args(hint)
            assert hint is want or want in args, (cls.__name__, f.name, hint, spec.kind)
    obj = cls()  # the defaults are valid
    with pytest.raises(dataclasses.FrozenInstanceError):
        obj.seed = 1  # type: ignore[misc]


def test_defaults_are_those_of_the_modules():
    from synagree.agreement.breakdown import DEFAULT_LENGTH_EDGES
    from synagree.evaluation.tiers import SIBLING_CREDIT
    from synagree.noise.experiments import DEFAULT_GRID, PAPER_SERIES
    from synagree.stats.alpha import VARIANTS

    specs = option_specs.SPECS
    assert specs["length_bins"].default == tuple(DEFAULT_LENGTH_EDGES)
    assert specs["sibling_credit"].default == SIBLING_CREDIT
    assert specs["grid"].default == tuple(DEFAULT_GRID)
    assert specs["series"].default == tuple(PAPER_SERIES)
    assert specs["variants"].default == tuple(VARIANTS)
    assert specs["max_memory"].default == DEFAULT_MAX_MEMORY
    from synagree.agreement.qa import WORST_BY
    from synagree.evaluation.tags import COLUMNS
    from synagree.evaluation.tiers import UNMAPPED_POLICIES
    from synagree.stats.features import FEATURE_ITEMS
    from synagree.stats.tag_alternatives import TAG_SYNTAXES

    assert specs["column"].choices == tuple(COLUMNS)
    assert specs["worst_by"].choices == tuple(WORST_BY)
    assert specs["unmapped"].choices == tuple(UNMAPPED_POLICIES)
    assert specs["feature_items"].choices == tuple(FEATURE_ITEMS)
    assert specs["tag_syntax"].choices == tuple(TAG_SYNTAXES)


def test_the_command_line_takes_its_shared_options_from_the_declarations():
    for spelling, settings in cli_options.OPTIONS.items():
        spec = next(s for s in option_specs.SPECS.values() if s.flag == spelling)
        if spelling == "--format":  # its names and help come from the reader registry
            assert settings["choices"] == registry.format_names(with_aliases=True)
            continue
        assert settings["help"] == spec.help
        assert settings.get("default", False if settings.get("action") else None) == \
            spec.default
    # the same ranges: what the API refuses, the command line refuses
    seed = cli_options.OPTIONS["--seed"]["type"]
    with pytest.raises(Exception):
        seed("-1")
    with pytest.raises(ValueError):
        AgreeOptions(seed=-1)


def test_options_objects_and_overrides():
    o = CompareOptions(bootstrap=100)
    res = synagree.compare(A, B, o, seed=3)
    assert res.settings["bootstrap"].startswith("100 replicates, seed 3")
    assert synagree.agree([A, B], AgreeOptions(variants=("plain",))).alpha.keys() == {"plain"}


@pytest.mark.parametrize("call", [
    lambda: synagree.agree([A, B]),
    lambda: synagree.compare(A, B),
    lambda: synagree.tags(A, B),
    lambda: synagree.categorical([A, B], layers=["deprel"]),
    lambda: synagree.report([A, B], layers=["deprel"]),
    lambda: synagree.compare_parseval("(S (NN a))\n", "(S (NN a))\n"),
])
def test_results_are_immutable(call):
    res = call()
    name = next(f.name for f in dataclasses.fields(res))
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(res, name, None)
    # a changed copy is the way to derive one (dataclasses.replace)
    copy = dataclasses.replace(res, **{name: getattr(res, name)})
    assert getattr(copy, name) is getattr(res, name) and copy is not res


def test_nested_results_are_sealed_with_theirs():
    res = synagree.agree([A, B])
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.alpha["plain"].do_sum = 0.0


def test_noise_options_are_declared_once():
    """Every option of ``synagree noise`` but the figures' and the output folder is an
    `OptionSpec`, taken by `NoiseOptions` with the command line's default (one
    declaration: issue 31, item 1)."""
    import argparse

    from synagree.base.command_options import NoiseOptions
    from synagree.base.option_specs import SPECS
    from synagree.cli.main import build_parser

    ap = build_parser("noise")
    sub = next(a for a in ap._actions
               if isinstance(a, argparse._SubParsersAction)).choices["noise"]
    figures = {"out", "plot", "metrics", "ylim", "corpus", "help"}
    fields = set(NoiseOptions.__dataclass_fields__)
    for action in sub._actions:
        if not action.option_strings or action.dest in figures:
            continue
        assert action.dest in SPECS, action.option_strings
        spec = SPECS[action.dest]
        assert spec.flag in action.option_strings
        if action.dest not in ("dask", "quiet"):  # how it runs, not what: CLI-only
            assert action.dest in fields, action.dest
        if spec.choices and action.choices is not None:
            assert tuple(action.choices) == tuple(spec.choices)


def test_noise_options_reach_the_experiment(tmp_path):
    from pathlib import Path

    DATA = Path(__file__).parent / "data" / "qa"
    with pytest.raises(ValueError, match="cycles"):
        synagree.noise_experiment([DATA / "anna.conllu"], tmp_path / "x", cycles="mend")
    with pytest.raises(ValueError, match="runs"):
        synagree.noise_experiment([DATA / "anna.conllu"], tmp_path / "x", runs=10_001)
    out = synagree.noise_experiment([DATA / "anna.conllu"], tmp_path / "y", sample=0,
                                    grid=[0.5], runs=1, series=["relabel"],
                                    reattach_draw="reject", label_scope="sample",
                                    exclude_current_label=True)
    assert out.config["sample"] is None and out.config["label_scope"] == "sample"
    assert out.config["reattach_draw"] == "reject" and out.config["exclude_current_label"]


def test_the_api_grid_has_the_command_lines_cap(tmp_path, run_cli):
    """The API refuses a grid above MAX_GRID_POINTS with the sentence the command line
    prints (issue 31): the option named, its bound, the count given; nothing written."""
    from pathlib import Path

    from synagree.base.option_specs import MAX_GRID_POINTS

    DATA = Path(__file__).parent / "data" / "qa"
    grid = [k / (2 * MAX_GRID_POINTS) for k in range(MAX_GRID_POINTS + 1)]
    said = (f"grid must be a sequence of at most {MAX_GRID_POINTS:,} numbers from 0 to 1, "
            f"got {MAX_GRID_POINTS + 1:,} numbers")
    with pytest.raises(ValueError) as api:
        synagree.noise_experiment([DATA / "anna.conllu"], tmp_path / "api", grid=grid)
    assert str(api.value) == f"noise_experiment(): {said}"
    with pytest.raises(ValueError, match="at most 1,000 numbers"):
        synagree.NoiseOptions(grid=grid)
    synagree.NoiseOptions(grid=grid[:MAX_GRID_POINTS])  # at the cap: taken
    assert not (tmp_path / "api").exists()
    rc, _, err = run_cli("noise", DATA / "anna.conllu", "-o", tmp_path / "cli", "--grid",
                         f"0:0.5:{MAX_GRID_POINTS + 1}")
    assert rc == 2 and f"--{said} ('0:0.5:1001')" in err and "Traceback" not in err
    assert not (tmp_path / "cli").exists()


@pytest.mark.parametrize("command,flag,bad,api", [
    ("agree", "--label-distance", "bogus",
     lambda: synagree.agree([A, B], hierarchy=_hierarchy_options(label_distance="bogus"))),
    ("agree", "--label-credit", "bogus",
     lambda: synagree.agree([A, B], hierarchy=_hierarchy_options(label_credit="bogus"))),
    ("plan", "--width", "5", lambda: _plan_options(5.0)),
    ("plan", "--max-units", "5", lambda: _plan_options(0.1, max_units=5)),
    ("adjudicate", "--weights", "bogus", lambda: synagree.adjudicate([A, B, A], weights="bogus")),
    ("alt-test", "--score", "bogus", lambda: synagree.alt_test([A, B, A], A, metric="bogus")),
    ("spans", "--layer", "bogus", lambda: _spans(layer="bogus")),
    ("spans", "--labels", "bogus", lambda: _spans(labels="bogus")),
    ("spans", "--gamma-samples", "1", lambda: _gamma(samples=1)),
    ("spans", "--gamma-budget", "0", lambda: _gamma(budget=0)),
])
def test_a_moved_option_is_checked_once_for_both(command, flag, bad, api, run_cli, capsys):
    """The options that moved from the command modules into option_specs (issue 31 item
    1): a bad value is refused by the command line (exit 2, the option and what it
    allows) and by the Python API (ValueError, the keyword and the same allowed range)."""
    spec = next(s for s in option_specs.SPECS.values() if s.flag == flag)
    allowed = spec.allowed().replace(" or None", "")
    with pytest.raises(ValueError) as info:
        api()
    assert f"{KEYWORDS.get(flag, spec.name)} must be {allowed}" in str(info.value)
    try:
        rc, _, err = run_cli(command, "x.conllu", flag, bad)
    except SystemExit as exc:  # argparse's usage error
        rc, err = exc.code, capsys.readouterr().err
    assert rc == 2 and flag in err and "Traceback" not in err
    if spec.kind not in ("choice",):  # argparse words a bad choice its own way
        assert allowed in err


#: the API's keyword where it is not the declaration's name
KEYWORDS = {"--score": "metric", "--gamma-samples": "samples", "--gamma-budget": "budget"}


def _hierarchy_options(**kw):
    from synagree.stats.hierarchical import HierarchyOptions

    return HierarchyOptions("ud", **kw)


def _plan_options(width, **kw):
    from synagree.agreement.plan import PlanOptions

    return PlanOptions(width, **kw)


def _spans(**kw):
    from synagree.evaluation.spans import span_agreement

    return span_agreement([A, B], **kw)


def _gamma(**kw):
    from synagree.evaluation.span_gamma import span_gamma

    return span_gamma([A, B], **kw)


def test_report_adjudicate_in_the_api_is_the_command_lines(tmp_path, run_cli):
    """synagree.report(adjudicate=True) puts the consensus and its worklist in the page,
    as report --adjudicate does; the other formats are unchanged by it."""
    from pathlib import Path

    sample = Path(synagree.__file__).parent / "data" / "en-sample"
    paths = [str(sample / d / "sample.conllu") for d in ("ann_a", "ann_b")]
    plain = synagree.report(paths, layers=["deprel"])
    rep = synagree.report(paths, layers=["deprel"], adjudicate=True)
    assert "adj-conllu" in rep.html and "adj-conllu" not in plain.html
    assert rep.render("json") == plain.render("json")
    rc, _, err = run_cli("report", *paths, "--layers", "deprel", "--adjudicate", "-o",
                         tmp_path / "page.html", "-q")
    assert rc == 0, err
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    section = rep.html[rep.html.index("adj-conllu"):][:2000]
    assert section in page  # the same worklist section
    with pytest.raises(TypeError, match="adjudicate must be True or False"):
        synagree.report(paths, adjudicate="yes")
