"""How fast the bounded refusals come (issue 35): the timings the tests leave out.

Goals (issue 35, "Done when"): a decompression bomb, /dev/zero and a 1 GB valid
compressed CoNLL-U are refused with exit 2 in under 10 s (the tests check exit 2 and
peak RSS under 500 MB: tests/test_read_budget.py); the layered 12 x 12 concept
hierarchy is refused by ``synagree bdm`` in under 2 s (tests/test_gate_bdm.py checks
the refusal).  Each is timed as a whole process, interleaved with a baseline in the
same run: ``synagree agree`` on the bundled sample (start-up, reading, alpha), so the
ratio says how the refusal compares with the shortest real run on the same machine
at the same moment.

    python benchmarks/bench_bounded.py [--rounds 3]
"""
from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

from common import goal_line, loadavg

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "synagree" / "data" / "en-sample"
A, B = SAMPLE / "ann_a" / "sample.conllu", SAMPLE / "ann_b" / "sample.conllu"


def _bomb(path: Path, total: int) -> None:
    """``total`` zero bytes, gzip-compressed as they are made (4 GiB -> ~4 MB)."""
    block = b"\0" * (1 << 20)
    with gzip.open(path, "wb", compresslevel=9) as fh:
        for _ in range(total // len(block)):
            fh.write(block)


def _valid(path: Path, total: int) -> None:
    """``total`` bytes of valid CoNLL-U (one 20-word sentence repeated), compressed."""
    words = "".join(f"{i}\tw{i}\t_\tNOUN\t_\t_\t{0 if i == 1 else 1}\t"
                    f"{'root' if i == 1 else 'dep'}\t_\t_\n" for i in range(1, 21))
    block = "".join(f"# sent_id = s{j}\n{words}\n" for j in range(1000)).encode()
    with gzip.open(path, "wb", compresslevel=6) as fh:
        for _ in range(total // len(block) + 1):
            fh.write(block)


def _layered(layers: int, width: int) -> str:
    return "".join(f"L{k}C{i}\tL{k - 1}C{j}\n" for k in range(1, layers)
                   for i in range(width) for j in range(width))


def _run(cmd: List[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t = time.perf_counter()
    subprocess.run(cmd, capture_output=True, env=env, timeout=300)
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    syn = [sys.executable, "-m", "synagree"]
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        _bomb(t / "bomb.gz", 4 << 30)
        _valid(t / "valid.conllu.gz", 1_000_000_000)
        (t / "layered.txt").write_text(_layered(12, 12))
        cases: Dict[str, List[str]] = {
            "baseline: agree on the sample": syn + ["agree", str(A), str(B), "-q"],
            "4 GiB gzip bomb": syn + ["agree", str(t / "bomb.gz"), str(A), "-q"],
            "/dev/zero": syn + ["agree", "/dev/zero", str(A), "-q"],
            "1 GB valid CoNLL-U, gzip": syn + ["agree", str(t / "valid.conllu.gz"), str(A),
                                               "-q"],
            "bdm, layered 12 x 12": syn + ["bdm", str(t / "layered.txt"), "-o",
                                           str(t / "out.txt"), "-q"],
        }
        times: Dict[str, List[float]] = {k: [] for k in cases}
        for _ in range(args.rounds):  # interleaved: A B C ... A B C ...
            for name, cmd in cases.items():
                times[name].append(_run(cmd))
    load = loadavg()
    base = statistics.median(times["baseline: agree on the sample"])
    for name, goal in (("4 GiB gzip bomb", 10.0), ("/dev/zero", 10.0),
                       ("1 GB valid CoNLL-U, gzip", 10.0), ("bdm, layered 12 x 12", 2.0)):
        med = statistics.median(times[name])
        goal_line(f"{name} refused in < {goal:g} s", f"agree on the sample {base:.2f} s",
                  f"{med:.2f} s ({'met' if med < goal else 'MISSED'})",
                  f"{med / base:.2f}x", load)
    return 0


if __name__ == "__main__":
    sys.exit(main())
