"""Property-based hostile input (hypothesis): the readers and every command.

Random bytes, broken and missing columns, non-ASCII digits, odd Unicode
(combining marks, right-to-left text, NUL, surrogates as bytes), huge
lines, deep and wide trees, random bracket strings, compressed and corrupt
files, broken hierarchy files and tier mappings, and stored results
(``--baseline``, ``--compare-to``) with any field replaced, dropped, cut
short, non-finite or nested 100,000 deep; the generators and the contract
are in ``tests/fuzzing.py``.  The
command never ends with status 3 or an exception; status 2 comes with the
problems listed, each naming a file (and its line where the problem has
one).

Bounded for the test suite (the whole file runs in well under a minute);
``SYNAGREE_FUZZ_SCALE=20`` multiplies the number of examples, and
``scripts/fuzz.py`` runs thousands of cases (or for a given time, with a
watchdog for hangs) and counts the outcomes; ``test_long_fuzz_run`` (marked
``slow`` and ``fuzz_long``, run when ``SYNAGREE_FUZZ_MINUTES`` is set) runs
it through the command line for that many minutes.
Bracket depth stays at most 100 levels in the generators.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
import fuzzing  # noqa: E402  (tests/fuzzing.py)
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from synagree.base.problems import InputError  # noqa: E402
from synagree.evaluation import conll18, tags  # noqa: E402
from synagree.io.brackets import read_brackets  # noqa: E402
from synagree.io.conllu import read_conllu  # noqa: E402
from synagree.io.formats import read_any  # noqa: E402

SCALE = float(os.environ.get("SYNAGREE_FUZZ_SCALE", "1"))


def fuzz(n: int):
    return settings(max_examples=max(1, int(n * SCALE)), deadline=None, database=None,
                    derandomize=SCALE == 1,  # the same examples in every CI run
                    suppress_health_check=list(HealthCheck), print_blob=True)


@pytest.mark.slow
@fuzz(200)
@given(fuzzing.conllu_case())
def test_commands_on_hostile_conllu(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(60)
@given(fuzzing.bracket_case())
def test_commands_on_hostile_brackets(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(100)
@given(fuzzing.bytes_case())
def test_commands_on_random_bytes(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(40)
@given(fuzzing.noise_table_case())
def test_plot_and_report_on_hostile_noise_tables(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(60)
@given(fuzzing.hierarchy_case())
def test_commands_on_hostile_hierarchy_files(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(60)
@given(fuzzing.tier_case())
def test_tags_on_hostile_tier_mappings(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(80)
@given(fuzzing.baseline_case())
def test_commands_on_hostile_stored_results(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(20)
@given(fuzzing.bomb_case())
def test_commands_on_compressed_bombs_and_endless_devices(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(40)
@given(fuzzing.prm_case())
def test_compare_on_hostile_evalb_parameter_files(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(40)
@given(fuzzing.bdm_case())
def test_bdm_on_hostile_and_layered_hierarchies(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(40)
@given(fuzzing.spans_case())
def test_spans_on_hostile_files(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(60)
@given(fuzzing.api_case())
def test_python_api_raises_only_documented_exceptions(case):
    fuzzing.check(case, fuzzing.run_case(case))


@pytest.mark.slow
@fuzz(60)
@given(fuzzing.formats_case())
def test_commands_on_damaged_tool_files(case):
    """Arborator, WebAnno TSV3, TIGER-XML, NEGRA, PTB, brat and GATE files of the tools
    themselves, damaged: a result or one-line errors, never exit 3."""
    fuzzing.check(case, fuzzing.run_case(case))


READERS = {
    "conllu": read_conllu,
    "brackets": read_brackets,
    "any": read_any,
    "conll18": conll18.read_treebank,
    "tags": lambda p: tags.read_tag_column(p, "deprel"),
}


@fuzz(200)
@given(st.one_of(st.binary(max_size=400),
                 fuzzing.conllu_pair().map(lambda ab: ab[0].encode("utf-8", "surrogatepass")),
                 fuzzing.bracket_file().map(lambda t: t.encode("utf-8", "surrogatepass")),
                 fuzzing.bracket_soup.map(lambda t: t.encode("utf-8", "surrogatepass"))),
       st.sampled_from(sorted(READERS)), st.sampled_from(["f.conllu", "f.tree", "f", "f.gz"]))
@pytest.mark.slow
def test_readers_return_or_raise_input_error(data, reader, name):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        try:
            out = READERS[reader](path)
        except InputError as exc:
            assert exc.errors
            for p in exc.errors:
                assert p.file == str(path) and p.kind and p.message
                assert p.line is None or 1 <= p.line <= data.count(b"\n") + 2 + \
                    data.count(b"\r"), p
        else:
            assert out is not None


@pytest.mark.slow
def test_long_fuzz_run(tmp_path):
    """``scripts/fuzz.py --minutes M`` over every kind of input: no exit 3, no hang.

    Runs only when ``SYNAGREE_FUZZ_MINUTES`` is set (the issue asked for at least
    20 minutes; see scripts/fuzz.py for the last run's findings)."""
    import subprocess
    import sys

    minutes = os.environ.get("SYNAGREE_FUZZ_MINUTES")
    if not minutes:
        pytest.skip("set SYNAGREE_FUZZ_MINUTES=20 to run the long fuzz job")
    root = Path(__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, str(root / "scripts" / "fuzz.py"), "--kind", "all",
                        "--minutes", minutes, "--save", str(tmp_path / "failures"),
                        "--case-timeout", "120"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-5000:] + r.stderr[-3000:]
