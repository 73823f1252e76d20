"""Progress bars name the D_e they compute; the first run explains the JIT compile.

* ``agree``, ``report`` and ``compare`` draw a bar for their TED pass when
  stderr is a terminal (faked here), titled ``exact D_e`` or ``sampled D_e``;
  ``-q`` draws none, and a stream that is not a terminal gets none.
* On numba's kernels with a cold cache (``NUMBA_CACHE_DIR`` an empty
  directory, in a subprocess) the CLI prints one line before compiling; with
  the cache warm, or with ``-q``, it prints nothing.  On the C kernels nothing
  compiles and numba is not even imported.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import needs_numba
from synagree.base import jit, progress
from synagree.distance import kernels

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "synagree" / "data" / "en-sample"
A, B = SAMPLE / "ann_a" / "sample.conllu", SAMPLE / "ann_b" / "sample.conllu"
NOTICE_START = "synagree: compiling the tree-edit-distance kernels"


@pytest.fixture
def tty(monkeypatch, capsys):
    """Call it in the test body: stderr (then pytest's capture stream, which
    fixtures do not see yet) claims to be a terminal."""
    return lambda: monkeypatch.setattr(sys.stderr, "isatty", lambda: True)


COMMANDS = {
    "agree": ["agree", A, B, "--output", "json"],
    "report": ["report", A, B, "--output", "json", "--layers", ""],
    "compare": ["compare", A, B, "--output", "json"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("kind,extra", [("exact", ["--exact"]),
                                        ("sampled", ["--sample-pairs", "3000"])])
def test_bar_names_exact_or_sampled_de(command, kind, extra, run_cli, tty):
    if command == "report":
        # report has no sampling options (D_e is sampled only above the automatic
        # threshold, too large for a test): its default on small corpora is exact
        if kind == "sampled":
            pytest.skip("report: no --sample-pairs")
        extra = []
    tty()
    rc, out, err = run_cli(*COMMANDS[command], *extra)
    assert rc == 0, err
    bars = [line for line in err.replace("\r", "\n").splitlines() if "ETA" in line]
    assert bars, f"no progress bar on a terminal:\n{err}"
    assert all(line.startswith(f"{kind} D_e [") for line in bars), bars
    other = "sampled" if kind == "exact" else "exact"
    assert f"{other} D_e" not in err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_quiet_draws_no_bar(command, run_cli, tty):
    tty()
    rc, out, err = run_cli(*COMMANDS[command], "-q")
    assert rc == 0, err
    assert "D_e" not in err and "ETA" not in err


def test_no_bar_when_stderr_is_not_a_terminal(run_cli):
    rc, out, err = run_cli("agree", A, B, "--exact", "--output", "json")
    assert rc == 0, err
    assert "ETA" not in err


def test_library_default_is_silent_and_main_restores_it(run_cli, tty):
    tty()
    assert progress.wanted(None) is False
    run_cli("agree", A, B, "--output", "json")
    assert progress.wanted(None) is False  # main() put the default back


@needs_numba
def test_cli_wires_the_compile_notice_unless_quiet(run_cli, monkeypatch):
    """In-process, on numba's kernels: pretend every kernel is cold; the notice
    appears once, not with -q."""
    monkeypatch.setenv("SYNAGREE_KERNELS", "numba")
    monkeypatch.setattr(jit, "will_compile", lambda disp, args: True)
    monkeypatch.setattr(jit, "_checked", set())
    rc, out, err = run_cli("agree", A, B, "--exact", "--output", "json")
    assert rc == 0, err
    assert err.count(NOTICE_START) == 1, err
    monkeypatch.setattr(jit, "_checked", set())
    rc, out, err = run_cli("agree", A, B, "--exact", "--output", "json", "-q")
    assert rc == 0 and NOTICE_START not in err


def _agree_subprocess(cache_dir: Path, *extra: str, kernels: str = "numba") -> str:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir), SYNAGREE_KERNELS=kernels,
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-m", "synagree", "agree", str(A), str(B), "--exact",
                        *extra], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stderr


@pytest.mark.slow
@needs_numba
def test_first_run_says_it_compiles_and_a_warm_run_does_not(tmp_path):
    cold = _agree_subprocess(tmp_path)
    assert cold.count(NOTICE_START) == 1, cold
    assert any(tmp_path.rglob("*.nbi")), "numba wrote no cache index"
    warm = _agree_subprocess(tmp_path)
    assert NOTICE_START not in warm, warm


@pytest.mark.slow
def test_c_kernels_compile_nothing_and_leave_numba_unimported(tmp_path):
    """With the C extensions built, a run with an empty numba cache says nothing
    about compiling, writes no cache and never imports numba."""
    if kernels.C_EXTENSION is None:
        pytest.skip("C extension not built")
    code = ("import sys\n"
            "from synagree.cli.main import main\n"
            f"rc = main(['agree', {str(A)!r}, {str(B)!r}, '--exact', '-q'])\n"
            "print(rc, 'numba' in sys.modules, file=sys.stderr)\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), SYNAGREE_KERNELS="auto",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=600)
    assert r.stderr.strip().splitlines()[-1] == "0 False", r.stderr
    assert NOTICE_START not in r.stderr
    assert not any(tmp_path.rglob("*.nbi"))
    assert "alpha_plain" in r.stdout


@pytest.mark.slow
@needs_numba
def test_will_compile_reads_the_cache_index(tmp_path):
    """The check itself, in a subprocess with an empty cache: cold before the
    first call, warm after it (the index is written), warm in a new process."""
    code = (
        "import numpy as np\n"
        "from synagree.base import jit\n"
        "from synagree.distance import kernels_numba as kn, ted\n"
        "from synagree.trees.flat import Vocabulary, dependency_tree\n"
        "from synagree.io.conllu import read_conllu\n"
        f"s = read_conllu({str(A)!r})[:3]\n"
        "v = Vocabulary(); p = ted.TreePack([dependency_tree(x, v) for x in s])\n"
        "dc, ic, rm, unit = ted._costs_for(p, None).arrays()\n"
        "out = np.zeros(1); i = np.array([0]); j = np.array([1])\n"
        "args = (i, j, *p._args(), dc, ic, rm, unit, p.maxn, out)\n"
        "before = jit.will_compile(kn._pairs_serial, args)\n"
        "kn._pairs_serial(*args)\n"
        "print(before, jit.will_compile(kn._pairs_serial, args))\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, cwd=ROOT, timeout=600) for _ in range(2)]
    assert [r.stdout.split() for r in runs] == [["True", "False"], ["False", "False"]], \
        [r.stderr[-2000:] for r in runs]
