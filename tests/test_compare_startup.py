"""What ``synagree compare`` on CoNLL-U files imports (issue 36, item 3: start-up).

A comparison by default loads what it computes with and nothing that only an option
uses: not the ``--baseline`` machinery (`synagree.evaluation.baseline`,
`synagree.stats.regression`), the resampling engine (`synagree.stats.significance`),
the corpus-level hierarchy scores (`synagree.stats.hierarchical`, `synagree.io.corpus`),
GATE's BDM table, EVALB's reader and parameter files, the other commands' options
classes, the conllu package (an oracle of the tests only) or ``numpy.ma`` (which
``np.quantile``/``np.unique`` import; the sampled D_e's strata do without them).
Each of those modules costs milliseconds of every run's start-up.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "synagree" / "data" / "en-sample"
A, B = SAMPLE / "ann_a" / "sample.conllu", SAMPLE / "ann_b" / "sample.conllu"

NOT_LOADED = (
    "synagree.evaluation.baseline", "synagree.stats.regression", "synagree.stats.significance",
    "synagree.stats.bootstrap", "synagree.stats.hierarchical", "synagree.io.corpus",
    "synagree.io.matching", "synagree.trees.gate_bdm", "synagree.io.evalb_lines",
    "synagree.io.evalb_params", "synagree.io.evalb_text", "synagree.base.command_options",
    "conllu", "numpy.ma",
)

_PROBE = """
import json, sys
from synagree.cli.main import main
status = main(sys.argv[1:])
json.dump([status, sorted(sys.modules)], sys.__stderr__)
"""


def _imported(*argv: str) -> list:
    r = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True,
                       cwd=ROOT, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
                       timeout=120)
    status, modules = json.loads(r.stderr.splitlines()[-1])
    assert status == 0, r.stderr
    return modules


@pytest.mark.parametrize("extra", [[], ["--sample-pairs", "2000"]], ids=["exact", "sampled"])
def test_default_compare_loads_no_optional_machinery(extra):
    modules = _imported("compare", str(A), str(B), "-q", *extra)
    assert "synagree.evaluation.compare" in modules and "numpy" in modules  # it did run
    loaded = [m for m in NOT_LOADED if m in modules or any(
        x.startswith(m + ".") for x in modules)]
    assert loaded == []


def test_the_options_load_what_they_use():
    """The deferred modules are still there when an option needs them."""
    modules = _imported("compare", str(A), str(B), "-q", "--significance",
                        "--test-replicates", "200", "--output", "json")
    assert "synagree.stats.significance" in modules
    assert "synagree.evaluation.baseline" in modules  # JSON carries the per-unit data
