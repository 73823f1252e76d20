"""Property-based hostile input (hypothesis): the readers and every command.

Random bytes, broken and missing columns, non-ASCII digits, odd Unicode
(combining marks, right-to-left text, NUL, surrogates as bytes), huge
lines, deep and wide trees, random bracket strings, compressed and corrupt
files; the generators and the contract are in ``tests/fuzzing.py``.  The
command never ends with status 3 or an exception; status 2 comes with the
problems listed, each naming a file (and its line where the problem has
one).

Bounded for the test suite (the whole file runs in well under a minute);
``SYNAGREE_FUZZ_SCALE=20`` multiplies the number of examples, and
``scripts/fuzz.py`` runs thousands of cases and counts the outcomes.
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


@fuzz(200)
@given(fuzzing.conllu_case())
def test_commands_on_hostile_conllu(case):
    fuzzing.check(case, fuzzing.run_case(case))


@fuzz(60)
@given(fuzzing.bracket_case())
def test_commands_on_hostile_brackets(case):
    fuzzing.check(case, fuzzing.run_case(case))


@fuzz(100)
@given(fuzzing.bytes_case())
def test_commands_on_random_bytes(case):
    fuzzing.check(case, fuzzing.run_case(case))


@fuzz(40)
@given(fuzzing.noise_table_case())
def test_plot_and_report_on_hostile_noise_tables(case):
    fuzzing.check(case, fuzzing.run_case(case))


READERS = {
    "conllu": read_conllu,
    "brackets": read_brackets,
    "any": read_any,
    "conll18": conll18.read_conllu,
    "tags": lambda p: tags.read_tag_column(p, "deprel"),
}


@fuzz(200)
@given(st.one_of(st.binary(max_size=400),
                 fuzzing.conllu_pair().map(lambda ab: ab[0].encode("utf-8", "surrogatepass")),
                 fuzzing.bracket_file().map(lambda t: t.encode("utf-8", "surrogatepass")),
                 fuzzing.bracket_soup.map(lambda t: t.encode("utf-8", "surrogatepass"))),
       st.sampled_from(sorted(READERS)), st.sampled_from(["f.conllu", "f.tree", "f", "f.gz"]))
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
