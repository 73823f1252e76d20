#!/usr/bin/env python
"""Long fuzz run of the synagree command line: counts outcomes 0 / 2 / 3.

Uses the generators of ``tests/fuzzing.py`` (the ones ``tests/test_fuzz.py``
runs a few dozen of in the test suite) for thousands of cases, in-process,
and prints how many ended with exit status 0 (computed), 2 (input refused
with the problems listed) and 3 (internal error, or an exception escaping
``synagree.cli.main``), per command.  Status 2 without a proper problem
list (no ``FILE[:LINE]: error: ... (kind)`` line naming an input file) is
counted as ``2-bad``.  Every case that ends in 3 or 2-bad is written to
``--save DIR`` (its command line and files) for reproduction.

    PYTHONPATH=. python scripts/fuzz.py --cases 3000 --kind all --seed 1 --save /tmp/fuzz

``--kind``: conllu | brackets | bytes | noise-table | all.  Needs ``hypothesis``
(``pip install -e '.[test]'``).
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.append(str(ROOT))  # after PYTHONPATH: another checkout can be fuzzed

import fuzzing  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=2000, help="cases to run (default 2000)")
    ap.add_argument("--kind", default="all",
                    choices=["conllu", "brackets", "bytes", "noise-table", "all"])
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument("--save", metavar="DIR", help="write failing cases here")
    ap.add_argument("--every", type=int, default=250, help="progress line every N cases")
    args = ap.parse_args(argv)

    strategy = {"conllu": fuzzing.conllu_case(), "brackets": fuzzing.bracket_case(),
                "bytes": fuzzing.bytes_case(), "noise-table": fuzzing.noise_table_case(),
                "all": fuzzing.any_case}[args.kind]
    outcomes: Counter = Counter()
    per_command: Counter = Counter()
    kinds: Counter = Counter()  # problem kinds of the refused cases
    failures = []
    t0 = time.time()

    @seed(args.seed)
    @settings(max_examples=args.cases, deadline=None, database=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(case):
        o = fuzzing.run_case(case)
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
    n = sum(outcomes.values())
    print(f"cases run: {n} in {time.time() - t0:.0f} s (kind {args.kind}, seed {args.seed})")
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
        if args.save:
            out = Path(args.save)
            out.mkdir(parents=True, exist_ok=True)
            for k, (label, case, o, msg) in enumerate(failures):
                d = out / f"case{k:04d}-exit{label}"
                d.mkdir(exist_ok=True)
                (d / "args.txt").write_text("\n".join(case.args) + "\n", encoding="utf-8")
                for i, (name, data) in enumerate(case.files):
                    (d / f"file{i}.bin").write_bytes(data)
                    (d / f"file{i}.name").write_text(name, encoding="utf-8",
                                                     errors="surrogateescape")
                (d / "report.txt").write_text(msg, encoding="utf-8", errors="replace")
            print(f"failing cases written to {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
