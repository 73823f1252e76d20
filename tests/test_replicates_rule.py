"""One rule on resampling replicates (docs/method.md §5.4, `synagree.stats.replicates`):
every command and public function that resamples refuses fewer than ⌈2/(1 − level)⌉
replicates before any work, with a hint naming the option."""
from __future__ import annotations

import io
import math

import pytest

import synagree
from synagree.base.problems import InputError
from synagree.stats.bootstrap import percentile_interval, resample_weights
from synagree.stats.replicates import check_replicates, min_replicates

A = "tests/data/qa/anna.conllu"
B = "tests/data/qa/bert.conllu"
ROW = "{}\tw{}\t_\tX\t_\t_\t{}\t{}\t_\t_\n"
SENT = ROW.format(1, 1, 2, "nsubj") + ROW.format(2, 2, 0, "root") + "\n"

COMMANDS = {
    "agree": ["agree", A, B],
    "agree --by": ["agree", A, B, "--by", "order:2"],
    "report": ["report", A, B, "--output", "json"],
    "categorical": ["categorical", A, B],
    "compare": ["compare", A, B],
    "compare --significance": ["compare", A, B, A, "--significance"],
    "tags": ["tags", A, B],
    "plan": ["plan", A, B, "--width", "0.1"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_one_replicate_refused_in_every_command(name, run_cli):
    args = COMMANDS[name]
    rc, out, err = run_cli(*args, "--bootstrap", "1")
    assert rc == 2 and "too-few-replicates" in err and "--bootstrap 40 or more" in err
    assert out == "" and "Traceback" not in err


@pytest.mark.parametrize("option", ["--test-replicates", "-B"])
def test_paired_test_replicates_refused(option, run_cli):
    rc, _, err = run_cli("compare", A, B, A, "--significance", option, "5")
    assert rc == 2 and "too-few-replicates" in err and "a paired test" in err


def test_the_minimum_follows_the_level(run_cli):
    rc, _, err = run_cli("agree", A, B, "--bootstrap", "100", "--ci-level", "0.99")
    assert rc == 2 and "at least 200" in err
    rc, _, err = run_cli("agree", A, B, "--bootstrap", "40", "-q", "--allow-missing")
    assert rc == 0, err


def test_minimum_is_where_an_interval_stops_being_the_range():
    """Below 2/(1 - L) replicates the percentile interval is (nearly) the range of the
    replicates; from there on, on average one replicate lies beyond each end."""
    for level in (0.8, 0.9, 0.95, 0.99):
        n = min_replicates(level)
        assert n == math.ceil(2 / (1 - level) - 1e-9)
        assert n * (1 - level) / 2 >= 1 - 1e-9 > (n - 1) * (1 - level) / 2
        reps = resample_weights(50, n, 0)[:, 0].astype(float) + \
            0.001 * __import__("numpy").arange(n)
        lo, hi = percentile_interval(reps, level)
        assert lo >= reps.min() and hi <= reps.max()


def test_python_functions_use_the_same_rule():
    streams = lambda: [io.StringIO(SENT * 3), io.StringIO(SENT * 3)]  # noqa: E731
    calls = {
        "agree": lambda: synagree.agree(streams(), bootstrap=1),
        "categorical": lambda: synagree.categorical(streams(), bootstrap=5),
        "report": lambda: synagree.report(streams(), bootstrap=39),
        "compare": lambda: synagree.compare(io.StringIO(SENT), [io.StringIO(SENT)],
                                            bootstrap=2),
        "compare significance": lambda: synagree.compare(
            io.StringIO(SENT), [io.StringIO(SENT), io.StringIO(SENT)], significance=True,
            test_replicates=3),
    }
    for name, call in calls.items():
        with pytest.raises(InputError) as info:
            call()
        assert info.value.errors[0].kind == "too-few-replicates", name
    check_replicates(0, 0.95)  # none asked: nothing to check
    check_replicates(40, 0.95)
