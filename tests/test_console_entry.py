"""The console entry (`synagree.cli.main.console`): `main`'s exit status and output, and
the process's objects frozen for the cyclic collector only there (issue 36: teardown)."""
from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from synagree.cli import main as cli

ROOT = Path(__file__).resolve().parents[1]


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_main_leaves_the_collector_alone(capsys: pytest.CaptureFixture[str]) -> None:
    before = gc.get_freeze_count()
    assert cli.main(["agree", "no-such-file.conllu"]) == 2
    assert gc.get_freeze_count() == before
    assert "no-such-file.conllu" in capsys.readouterr().err


@pytest.mark.parametrize("args", [["--version"], ["compare", "--no-such-option"],
                                  ["agree", "no-such-file.conllu"]])
def test_console_is_main_then_a_freeze(args: list[str]) -> None:
    probe = ("import gc, sys; from synagree.cli.main import console, main\n"
             "try:\n    f = {which}()\nexcept SystemExit as e:\n    f = e.code\n"
             "print('FROZEN', gc.get_freeze_count() > 0, file=sys.stderr)\n"
             "raise SystemExit(f)\n")
    via_console = _run(probe.format(which="console"), *args)
    via_main = _run(probe.format(which="main"), *args)
    assert via_console.returncode == via_main.returncode
    assert via_console.stdout == via_main.stdout
    assert via_console.stderr.replace("FROZEN True", "FROZEN False") == via_main.stderr
    assert "FROZEN True" in via_console.stderr and "FROZEN False" in via_main.stderr


def test_python_m_synagree_runs_the_console_entry() -> None:
    text = (ROOT / "synagree" / "__main__.py").read_text()
    assert "console()" in text
    out = subprocess.run([sys.executable, "-m", "synagree", "--version"], capture_output=True,
                         text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0 and "synagree" in out.stdout


def test_the_script_is_the_console_entry() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'synagree = "synagree.cli.main:console"' in pyproject
