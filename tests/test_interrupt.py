"""Ctrl-C and SIGTERM at any moment of a run (synagree.cli.signals): one line, exit 130 or
143, no traceback, nothing written.  Subprocess runs, signalled 0.1 to 1.5 s after the
interpreter itself has started: while the modules load, while the options are read,
while the work runs.

The interpreter's own start (``site``, the editable install's import finder) runs
before any code of the package and cannot be guarded: a signal there is CPython's
("Fatal Python error: init_import_site").  It takes 20-50 ms on an idle machine and
0.2 s or more on a loaded one, so the delays are counted from the end of that start,
measured here (`_interpreter_start`) in the same run.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
A = str(ROOT / "tests/data/qa/anna.conllu")
B = str(ROOT / "tests/data/qa/bert.conllu")
# what pip writes as the console script (setuptools' entry point wrapper)
SCRIPT = ("import re\nimport sys\nfrom synagree.cli.main import main\n"
          "if __name__ == '__main__':\n"
          "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
          "    sys.exit(main())\n")

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")


def _interpreter_start() -> float:
    """Seconds a bare interpreter of this environment takes to start and exit (the
    slowest of three: the machine may be loaded)."""
    times = []
    for _ in range(3):
        t0 = time.monotonic()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.monotonic() - t0)
    return max(times)


def _run(cmd, delay: float, signum: int, cwd: Path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env, cwd=cwd)
    time.sleep(delay + _interpreter_start_cached())
    p.send_signal(signum)
    out, err = p.communicate(timeout=120)
    return p.returncode, out, err


_START: list = []


def _interpreter_start_cached() -> float:
    if not _START:
        _START.append(_interpreter_start())
    return _START[0]


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.1, 0.2, 0.35, 0.5, 0.8, 1.1, 1.5])
@pytest.mark.parametrize("how", ["script", "module"])
def test_sigint_at_any_moment_gives_one_line(tmp_path, delay, how):
    script = tmp_path / "synagree"
    script.write_text(SCRIPT)
    out_file = tmp_path / "out.json"
    args = ["agree", A, B, "--allow-missing", "--bootstrap", "4000", "-q", "-o", str(out_file)]
    cmd = ([sys.executable, str(script)] if how == "script"
           else [sys.executable, "-m", "synagree"]) + args
    code, out, err = _run(cmd, delay, signal.SIGINT, tmp_path)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    if code == 0:  # the run finished first (a fast machine): nothing to check
        return
    assert code == 130, (code, err)
    assert err.strip().splitlines()[-1] == "synagree: interrupted", err
    # the signal may land after the output was renamed into place: then it is whole
    # and the command says so; otherwise nothing was written
    written = f"note: written before the interrupt (each whole): {out_file}" in err
    assert out_file.exists() == written, err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["synagree"] + (["out.json"] if written else []))  # no temporary left


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.1, 0.4, 1.0])
def test_sigterm_at_any_moment_gives_one_line(tmp_path, delay):
    args = ["agree", A, B, "--allow-missing", "--bootstrap", "4000", "-q"]
    code, out, err = _run([sys.executable, "-m", "synagree", *args], delay, signal.SIGTERM,
                          tmp_path)
    assert "Traceback" not in err, err
    if code == 0:
        return
    assert code == 143, (code, err)
    assert err.strip().splitlines()[-1] == "synagree: terminated", err


@pytest.mark.slow
def test_a_signal_after_the_work_changes_nothing():
    """Once the status is known the command ignores SIGINT and SIGTERM, also while the
    interpreter shuts down (CPython puts the default handler back for any signal with
    a Python handler there; it was exit -2 after the output had been written)."""
    code = ("import os, signal, sys\nsys.argv[0] = 'synagree'\n"
            "from synagree.cli.main import main\n"
            f"status = main(['agree', {A!r}, {B!r}, '--allow-missing', '-q'])\n"
            "assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN\n"
            "os.kill(os.getpid(), signal.SIGINT)\nos.kill(os.getpid(), signal.SIGTERM)\n"
            "sys.stderr.write('survived\\n')\nsys.exit(status)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().splitlines()[-1] == "survived", r.stderr
    assert "alpha" in r.stdout


def test_an_interrupt_after_an_output_was_written_names_it(run_cli, tmp_path, monkeypatch):
    """The output renamed into place before the interrupt is whole, and the command says
    which it is before its last line (an interrupt while writing leaves nothing)."""
    import synagree.cli.session as cli_session

    real = cli_session._run_fitted

    def then_interrupted(args):
        real(args)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_session, "_run_fitted", then_interrupted)
    out = tmp_path / "out.json"
    code, _, err = run_cli("agree", A, B, "--allow-missing", "-q", "-o", out)
    assert code == 130
    assert err.strip().splitlines() == [
        f"note: written before the interrupt (each whole): {out}", "synagree: interrupted"]
    assert out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_library_import_leaves_the_signals_alone():
    """Importing the package (or its command line, as tests and notebooks do) changes no
    handler: only the synagree command guards its start."""
    code = ("import signal\nbefore = signal.getsignal(signal.SIGINT)\n"
            "import synagree.cli.main as m\n"
            "assert signal.getsignal(signal.SIGINT) is before\n"
            "m.main(['agree', '--help']) if False else None\n"
            "print('ok')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.stdout.strip() == "ok", r.stderr


def test_in_process_main_puts_the_handlers_back(run_cli):
    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    run_cli("agree", A, B, "--allow-missing", "-q")
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_help_imports_no_numpy():
    """``synagree --help`` (and a command's --help) stays light: no numpy (issue 36, item 3;
    measured with ``python -X importtime``)."""
    for args in (["--help"], ["agree", "--help"]):
        r = subprocess.run([sys.executable, "-X", "importtime", "-m", "synagree", *args],
                           capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert r.returncode == 0, r.stderr[-2000:]
        imported = [line.rsplit("|", 1)[-1].strip() for line in r.stderr.splitlines()
                    if line.startswith("import time:")]
        assert "synagree.cli.main" in imported
        if args == ["--help"]:
            assert not [m for m in imported if m.split(".")[0] == "numpy"], args


def test_committed_outputs_lists_whole_files_only(tmp_path):
    from synagree.io.files import committed_outputs, forget_committed, open_output, write_atomic

    forget_committed()
    write_atomic(tmp_path / "a.txt", "a")
    with pytest.raises(KeyboardInterrupt):
        with open_output(tmp_path / "b.txt") as fh:
            fh.write("half")
            raise KeyboardInterrupt
    write_atomic(tmp_path / "a.txt", "again")
    assert committed_outputs() == [str(tmp_path / "a.txt")] * 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
    forget_committed()
    assert committed_outputs() == []
