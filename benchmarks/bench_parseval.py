"""``synagree compare`` on bracketed files against the compiled EVALB, same run.

Goal (issue 20): PARSEVAL on 2,400 sentences within 2x the compiled EVALB's
time, the whole command each (start-up, reading, scoring, writing).  The
trees are realistic random gold/system pairs (tests/evalb_trees.py: about
1.1 MB a file, 3 to 60 words a sentence, function tags, traces, quotes,
parser-like errors), scored with nk.prm (MAX_ERROR 10000, so every sentence
is scored).  EVALB is compiled here from ../shared/oracles/evalb/evalb.c with
``cc -O2``.  The commands alternate (EVALB, synagree, EVALB, ...), ROUNDS
rounds; the ratio of each round is synagree's wall time over EVALB's, and
the median of those ratios is the result.  Both outputs are written to files
and checked equal (``--output evalb``, trailing blanks aside) before timing.

    python benchmarks/bench_parseval.py [ROUNDS]
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from evalb_trees import random_files  # noqa: E402

ORACLE = HERE.parent.parent / "shared" / "oracles" / "evalb"
SENTENCES = 2400


def timed(cmd) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    if not (ORACLE / "evalb.c").is_file():
        sys.exit(f"EVALB's source not found at {ORACLE}")
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        sys.exit("no C compiler")
    tmp = Path(tempfile.mkdtemp())
    exe = tmp / "evalb"
    subprocess.run([cc, "-O2", "-o", str(exe), str(ORACLE / "evalb.c")], check=True,
                   capture_output=True)
    gold, test = random_files(2024, SENTENCES)
    (tmp / "gold.mrg").write_text(gold)
    (tmp / "test.mrg").write_text(test)
    prm = ORACLE / "nk.prm"
    # byte-compile first: an installed package has its .pyc files
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(HERE.parent / "synagree")],
                   check=False)
    synagree = [sys.executable, "-m", "synagree", "compare", str(tmp / "gold.mrg"),
                str(tmp / "test.mrg"), "--params", str(prm)]
    evalb = [str(exe), "-p", str(prm), str(tmp / "gold.mrg"), str(tmp / "test.mrg")]
    want = subprocess.run(evalb, capture_output=True).stdout
    got = subprocess.run(synagree + ["--output", "evalb"], capture_output=True).stdout
    same = [x.rstrip() for x in want.split(b"\n")] == [x.rstrip() for x in got.split(b"\n")]
    print(f"{SENTENCES} sentences, {len(gold.encode()) / 1e6:.2f} MB gold; --output evalb "
          f"equal to EVALB's report: {same}")
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for label, extra in (("table (default)", []), ("--output evalb", ["--output", "evalb"])):
        ratios, te, ts = [], [], []
        timed(evalb), timed(synagree + extra)  # warm the caches
        for _ in range(rounds):
            a = timed(evalb)
            b = timed(synagree + extra)
            te.append(a)
            ts.append(b)
            ratios.append(b / a)
        print(f"{label:16s}  EVALB median {statistics.median(te) * 1000:6.1f} ms, synagree "
              f"median {statistics.median(ts) * 1000:6.1f} ms; ratio synagree/EVALB: median "
              f"{statistics.median(ratios):.2f} (min {min(ratios):.2f}, max "
              f"{max(ratios):.2f}; goal <= 2)")
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
