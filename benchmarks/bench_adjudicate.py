"""adjudicate vs agree on the same files (goal: adjudicate <= 2x agree).

Three annotators of 10,000 sentences, built from EWT dev + test (the shared
UD data, ../shared/data/ud) by concatenating copies with new sent_ids and
perturbing each annotator independently (10 % relabelled, 10 % reattached,
`synagree.noise.perturb`).  Both commands read the files and compute as on
the command line (``synagree agree`` with its defaults; ``synagree
adjudicate`` with equal and with competence weights); the times are the best
of ``--repeat`` runs each, interleaved, and the ratio is printed.

    python benchmarks/bench_adjudicate.py            # 10,000 sentences
    python benchmarks/bench_adjudicate.py --quick    # 2,000
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from synagree.agreement.adjudicate import adjudicate_corpus
from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.io.conllu import read_conllu, write_conllu
from synagree.noise.perturb import label_set, perturb

UD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ud"


def build(n: int, tmp: str) -> list:
    gold = []
    for name in ("en_ewt-ud-dev.conllu", "en_ewt-ud-test.conllu"):
        gold.extend(read_conllu(UD / name))
    out = []
    k = 0
    while len(out) < n:
        s = gold[k % len(gold)]
        out.append(replace(s, comments=[], metadata={"sent_id": f"s{len(out)}",
                                                     "text": s.metadata.get("text")}))
        k += 1
    labels = label_set(out)
    paths = []
    for j in range(3):
        rng = np.random.default_rng(j)
        path = os.path.join(tmp, f"ann{j + 1}.conllu")
        write_conllu(path, [perturb(s, 0.1, 0.1, labels, rng, on_cycle="repair")
                            for s in out])
        paths.append(path)
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2,000 sentences")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    if not UD.is_dir():
        sys.exit(f"skipped: the shared UD data is not at {UD}")
    n = 2000 if args.quick else 10000
    with tempfile.TemporaryDirectory() as tmp:
        paths = build(n, tmp)
        runs = {
            "agree": lambda: agree_corpus(load_corpus(paths), progress=False),
            "adjudicate": lambda: adjudicate_corpus(load_corpus(paths), progress=False),
            "adjudicate --weights competence": lambda: adjudicate_corpus(
                load_corpus(paths), "competence", progress=False),
        }
        best = {k: float("inf") for k in runs}
        for _ in range(args.repeat):
            for name, fn in runs.items():  # interleaved
                t = time.perf_counter()
                fn()
                best[name] = min(best[name], time.perf_counter() - t)
    load = os.getloadavg()[0]
    print(f"{n:,} sentences x 3 annotators (EWT dev+test, perturbed), best of "
          f"{args.repeat}, load average {load:.1f}")
    for name, t in best.items():
        ratio = t / best["agree"]
        goal = "" if name == "agree" else (f"  (goal <= 2x: {'met' if ratio <= 2 else 'MISSED'})")
        print(f"  {name:32s} {t:8.2f} s   {ratio:5.2f}x agree{goal}")


if __name__ == "__main__":
    main()
