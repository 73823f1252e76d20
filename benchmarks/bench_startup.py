"""Start-up of every command (issue 36, item 3): what a run imports, and what it costs.

For each command, one small real run (the bundled sample or the test files) is
timed as a whole process, interleaved round by round with the runtime floor
``python -c "import numpy"`` (every command that computes needs numpy), and run once
more under ``python -X importtime`` to list the heavy optional modules it imports
(pandas, matplotlib, jinja2, scipy, numba, dask: each is needed only by the
commands or options that use it) and the run's import time (every top-level
import's cumulative time: synagree.cli.main, the command's module, what it
loads).  ``synagree --help`` and ``synagree compare --help`` are measured the same
way (goal: no numpy; ``--help`` within 60 ms): for them the floor that counts is the
interpreter's own start-up, ``python -c pass``, timed interleaved as well, and their
median wall time is printed beside it in milliseconds.

    python benchmarks/bench_startup.py [--rounds 5]

Prints one line per command: median wall time, the floor's, their ratio, the import
time, the heavy modules, and the load average; then the helps against ``python -c pass``.
"""
from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

from common import loadavg

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "synagree" / "data" / "en-sample"
A, B = SAMPLE / "ann_a" / "sample.conllu", SAMPLE / "ann_b" / "sample.conllu"
QA = ROOT / "tests" / "data" / "qa"
PS = ROOT / "tests" / "data" / "parseval"
SP = ROOT / "tests" / "data" / "spans"
HEAVY = ("pandas", "matplotlib", "jinja2", "scipy", "numba", "dask", "numpy")


def commands(tmp: Path) -> Dict[str, List[str]]:
    """One small real run of each command (and --help)."""
    a, b = str(A), str(B)
    return {
        "--help": ["--help"],
        "compare --help": ["compare", "--help"],
        "agree": ["agree", a, b, "-q"],
        "compare (dependency)": ["compare", a, b, "-q"],
        "compare (PARSEVAL)": ["compare", str(PS / "gold.mrg"), str(PS / "parser-a.mrg"), "-q"],
        "categorical": ["categorical", a, b, "-q"],
        "tags": ["tags", a, b, "-q"],
        "spans": ["spans", str(SP / "gold.tree"), str(SP / "system.tree"), "-q"],
        "report": ["report", a, b, "-q", "-o", str(tmp / "r.html")],
        "adjudicate": ["adjudicate", a, b, "-q", "-o", str(tmp / "gold.conllu")],
    }


def _wall(cmd: List[str]) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, timeout=300)
    if r.returncode not in (0, 1):
        raise SystemExit(f"{cmd} failed ({r.returncode}): {r.stderr.decode()[-500:]}")
    return time.perf_counter() - t


def imports(cmd: List[str]) -> tuple:
    """(the run's import time in ms: every top-level import's cumulative time; the
    heavy modules imported)."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "synagree", *cmd],
                       capture_output=True, text=True, timeout=300)
    total = 0.0
    heavy = []
    for line in r.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \|(\s+)(\S+)$", line)
        if not m:
            continue
        if len(m.group(2)) == 1:  # a top-level import (nested ones are inside it)
            total += int(m.group(1)) / 1000
        if m.group(3) in HEAVY:
            heavy.append(m.group(3))
    return total, sorted(set(heavy))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cases = commands(Path(tmp))
        floor = [sys.executable, "-c", "import numpy"]
        bare = [sys.executable, "-c", "pass"]  # the interpreter's own start-up
        times: Dict[str, List[float]] = {k: [] for k in cases}
        base: List[float] = []
        starts: List[float] = []
        for _ in range(args.rounds):  # interleaved: floor, each command, floor, ...
            for name, cmd in cases.items():
                base.append(_wall(floor))
                if name.endswith("--help"):
                    starts.append(_wall(bare))
                times[name].append(_wall([sys.executable, "-m", "synagree", *cmd]))
        load = loadavg()
        b = statistics.median(base)
        print(f"floor: python -c 'import numpy' {b * 1000:.0f} ms (median of {len(base)}); "
              f"load {load}")
        print(f"{'command':24} {'wall ms':>8} {'x floor':>8} {'imports ms':>10}  heavy modules")
        for name, cmd in cases.items():
            med = statistics.median(times[name])
            ms, heavy = imports(cmd)
            print(f"{name:24} {med * 1000:8.0f} {med / b:8.2f} {ms:10.0f}  "
                  f"{', '.join(heavy) or '-'}")
        start = statistics.median(starts)
        helps = [f"{k} {statistics.median(v) * 1000:.0f} ms "
                 f"(+{(statistics.median(v) - start) * 1000:.0f})"
                 for k, v in times.items() if k.endswith("--help")]
        print(f"helps (goal: --help <= 60 ms): python -c pass {start * 1000:.0f} ms (median "
              f"of {len(starts)}); {'; '.join(helps)}; load {loadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
