#!/usr/bin/env python
"""Long fuzz run of the synagree command line: counts outcomes 0 / 2 / 3, and hangs.

Uses the generators of ``tests/fuzzing.py`` (the ones ``tests/test_fuzz.py``
runs a few dozen of in the test suite) for thousands of cases, in-process,
and prints how many ended with exit status 0 (computed), 2 (input refused
with the problems listed) and 3 (internal error, or an exception escaping
``synagree.cli.main``), per command.  Status 2 without a proper problem
list (no ``FILE[:LINE]: error: ... (kind)`` line naming an input file) is
counted as ``2-bad``.  Every case that ends in 3 or 2-bad is written to
``--save DIR`` (its command line and files) for reproduction.

A watchdog thread ends the run (exit status 4) when one case takes longer
than ``--case-timeout`` seconds: a hang.  The case is written to
``--save DIR`` first (``hang-...``).

    PYTHONPATH=. python scripts/fuzz.py --cases 3000 --kind all --seed 1 --save /tmp/fuzz
    PYTHONPATH=. python scripts/fuzz.py --minutes 20 --kind all --save /tmp/fuzz

Last long run (issue 35, with the kinds bombs, prm, bdm, spans and api):
``--minutes 10 --kind all --seed 600``, 5,216 cases in 609 s (seeds 600..626,
load about 10 on 2 cores): 815 exit 0, 4,401 exit 2, no exit 3, no 2-bad, no
hang (slowest case 6.6 s).  The run before it (seed 500, before the fixes)
found 12 ``2-bad`` cases, all of the checker (``/dev/zero`` named as an input,
an API value named as a hierarchy file), and a ``bdm`` case of 52 s (the work
limit is now 5·10⁷ chain steps and 2,000,000 pairs); no exit 3.

Earlier long run (issue 23): ``--minutes 25 --kind all --seed 100``, 17,192 cases
in 1,500 s (seeds 100..185): 3,111 exit 0, 14,081 exit 2, no exit 3, no
2-bad, no hang (slowest case 3.5 s).  Shorter runs of the new kinds before it
found one exit 3, fixed: ``compare --hierarchy`` / ``--bdm`` with an empty
DEPREL (ValueError from the hierarchy; now credited as ``_``).

``--kind``: conllu | brackets | bytes | noise-table | hierarchy | tiers |
baseline | bombs (compressed files past the reading budget, ``/dev/zero``) | prm
(EVALB parameter files) | bdm (hierarchies for ``synagree bdm``, layered
graphs of several parents, mixed formats) | spans | api (the Python
functions with wrong argument types and values, streams and bombs: only
`InputError`, `TypeError` and `ValueError` may come out) | all.  With ``--minutes`` the cases are drawn in batches (seed,
seed + 1, ...) until the time is up.  Needs ``hypothesis``
(``pip install -e '.[test]'``).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.append(str(ROOT))  # after PYTHONPATH: another checkout can be fuzzed

import fuzzing  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402


def save_case(out: Path, name: str, case, report: str) -> None:
    d = out / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "args.txt").write_text("\n".join(case.args) + "\n", encoding="utf-8",
                                errors="surrogateescape")
    for i, (fname, data) in enumerate(case.files):
        (d / f"file{i}.bin").write_bytes(data)
        (d / f"file{i}.name").write_text(fname, encoding="utf-8", errors="surrogateescape")
    (d / "report.txt").write_text(report, encoding="utf-8", errors="replace")


class Watchdog:
    """Ends the process when a case runs longer than ``limit`` seconds (a hang)."""

    def __init__(self, limit: float, save: "Path | None"):
        self.limit, self.save = limit, save
        self.case = None
        self.started = 0.0
        self.lock = threading.Lock()
        threading.Thread(target=self._watch, daemon=True).start()

    def begin(self, case) -> None:
        with self.lock:
            self.case, self.started = case, time.monotonic()

    def end(self) -> None:
        with self.lock:
            self.case = None

    def _watch(self) -> None:
        while True:
            time.sleep(1.0)
            with self.lock:
                case, started = self.case, self.started
            if case is not None and time.monotonic() - started > self.limit:
                print(f"HANG: a case ran over {self.limit:.0f} s: {' '.join(case.args)}",
                      flush=True)
                if self.save is not None:
                    save_case(self.save, f"hang-{int(time.time())}", case, case.describe())
                    print(f"written to {self.save}", flush=True)
                os._exit(4)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=2000,
                    help="cases to run (default 2000; with --minutes: per batch, default 200)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="run batches of cases until this many minutes have passed")
    ap.add_argument("--kind", default="all", choices=sorted(fuzzing.KINDS))
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument("--save", metavar="DIR", help="write failing and hanging cases here")
    ap.add_argument("--every", type=int, default=250, help="progress line every N cases")
    ap.add_argument("--case-timeout", type=float, default=120.0,
                    help="a case running longer is a hang: stop with status 4 (default 120 s)")
    args = ap.parse_args(argv)

    strategy = fuzzing.KINDS[args.kind]
    save = Path(args.save) if args.save else None
    outcomes: Counter = Counter()
    per_command: Counter = Counter()
    kinds: Counter = Counter()  # problem kinds of the refused cases
    failures = []
    slowest = [0.0, ""]
    t0 = time.time()
    watchdog = Watchdog(args.case_timeout, save)
    batch_cases = args.cases if args.minutes is None else min(args.cases, 200)
    deadline = None if args.minutes is None else t0 + 60.0 * args.minutes

    def batch(batch_seed: int) -> None:
        @seed(batch_seed)
        @settings(max_examples=batch_cases, deadline=None, database=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(strategy)
        def one(case):
            if deadline is not None and time.time() > deadline:
                return  # time is up: the rest of the batch is skipped
            watchdog.begin(case)
            t = time.monotonic()
            o = fuzzing.run_case(case)
            took = time.monotonic() - t
            watchdog.end()
            if took > slowest[0]:
                slowest[:] = [took, " ".join(case.args)]
            try:
                fuzzing.check(case, o)
                label = str(o.rc)
            except AssertionError as exc:
                label = "3" if (o.rc == 3 or o.exception is not None) else "2-bad"
                failures.append((label, case, o, str(exc)))
            outcomes[label] += 1
            if o.rc == 2:
                kinds.update(set(re.findall(r"\(([a-z0-9-]+)\)(?: \[sentence .*\])?$", o.err,
                                            re.M)))
            per_command[(case.args[0], label)] += 1
            n = sum(outcomes.values())
            if args.every and n % args.every == 0:
                print(f"{n} cases, {time.time() - t0:.0f} s: {dict(sorted(outcomes.items()))}",
                      file=sys.stderr, flush=True)

        one()

    if deadline is None:
        batch(args.seed)
    else:
        k = 0
        while time.time() < deadline:
            batch(args.seed + k)
            k += 1
    n = sum(outcomes.values())
    what = f"kind {args.kind}, seed {args.seed}" + ("" if deadline is None else
                                                    f"..{args.seed + k - 1}")
    print(f"cases run: {n} in {time.time() - t0:.0f} s ({what}); no hang "
          f"(slowest case {slowest[0]:.1f} s: {slowest[1][:120]})")
    for label in ("0", "2", "3", "2-bad"):
        print(f"  exit {label:5}: {outcomes.get(label, 0)}")
    print("per command:")
    for cmd in sorted({c for c, _ in per_command}):
        counts = {lab: per_command[(cmd, lab)] for lab in ("0", "2", "3", "2-bad")
                  if per_command[(cmd, lab)]}
        print(f"  {cmd:12} {counts}")
    print("cases refused with each problem kind:")
    for kind, count in kinds.most_common():
        print(f"  {kind:28} {count}")
    if failures:
        print(f"{len(failures)} failing case(s):")
        seen = set()
        for label, case, o, msg in failures:
            key = (label, type(o.exception).__name__ if o.exception else o.err[-200:])
            if key in seen:
                continue
            seen.add(key)
            print(f"--- exit {label}: {' '.join(case.args)}\n{msg[-1500:]}")
        if save is not None:
            for k, (label, case, o, msg) in enumerate(failures):
                save_case(save, f"case{k:04d}-exit{label}", case, msg)
            print(f"failing cases written to {save}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
