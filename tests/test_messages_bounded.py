"""Messages that name what they mean (issue 35, item 6): the folder that cannot be written,
no folder left behind by a refused command, the planner's table (not a --bootstrap that
was not given), the TED tables (not the runs) of a noise experiment on a huge sentence, a
long bad query echoed once."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from synagree.base.memory import check_noise, check_resampling
from synagree.base.problems import InputError
from synagree.io.files import check_output

ROOT = Path(__file__).resolve().parents[1]
A = str(ROOT / "tests/data/qa/anna.conllu")
B = str(ROOT / "tests/data/qa/bert.conllu")


@pytest.mark.skipif(not os.path.isdir("/proc/sys"), reason="no /proc/sys to fail on")
def test_unwritable_output_folder_is_named():
    with pytest.raises(InputError) as info:
        check_output("/proc/sys", folder=True)
    assert "cannot write in the folder /proc/sys:" in str(info.value)


def test_refused_command_leaves_no_folder_it_made(tmp_path, run_cli):
    out = tmp_path / "made" / "deeper"
    rc, _, err = run_cli("noise", A, "-o", out, "--grid", "0:1:1000", "--runs", "10000")
    assert rc == 2 and "memory-limit" in err
    assert not (tmp_path / "made").exists()
    # a folder that was there already stays
    kept = tmp_path / "kept"
    kept.mkdir()
    rc, _, err = run_cli("noise", A, "-o", kept, "--grid", "0:1:1000", "--runs", "10000")
    assert rc == 2 and kept.is_dir()


def test_plan_memory_names_the_pilot_table_not_bootstrap():
    with pytest.raises(InputError) as info:
        check_resampling(20_000, 0, 1, 2**20, what="the unit x unit table of the pilot's "
                         "20,000 units (planning resamples from it)",
                         hint="plan from a smaller pilot (a sample of its sentences)")
    msg = str(info.value)
    assert "pilot" in msg and "--bootstrap" not in msg and "0 times" not in msg


def test_plan_command_memory_message(tmp_path, run_cli):
    rc, _, err = run_cli("plan", A, B, "--allow-missing", "--width", "0.001",
                         "--max-memory", "50")
    assert rc == 2 and "memory-limit" in err
    assert "--bootstrap" not in err and "0 times" not in err and "pilot" in err


def test_noise_on_a_huge_tree_blames_the_tables():
    with pytest.raises(InputError) as info:
        check_noise(300, 13, 100_001, 2, limit=4 * 2**30)
    msg = str(info.value)
    assert "tree edit distance tables" in msg and "100,001 nodes" in msg
    assert "longest sentences" in msg and "--runs" not in msg
    with pytest.raises(InputError) as info:  # many runs of small trees: the runs
        check_noise(30_000_000, 13, 50, 2, limit=4 * 2**30)
    assert "30,000,000 runs" in str(info.value) and "--runs" in str(info.value)


def test_long_bad_query_echoed_once(run_cli):
    rc, _, err = run_cli("agree", A, B, "--allow-missing", "--where", "bogus=x&" * 100)
    assert rc == 2 and "bad-where" in err
    assert err.count("characters)") == 1, err
    rc, _, err = run_cli("agree", A, B, "--allow-missing", "--where", "nope")
    assert rc == 2 and err.count("'nope'") == 1, err
