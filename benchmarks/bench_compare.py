"""``synagree compare``: significance speed, and wall time against ``udeval``.

1. Significance for 10 systems x 2,000 sentences (B = 1000 bootstrap
   replicates and R = 1000 randomisation rounds, every pair of systems: 45
   pairs x LAS, UAS, CLAS, alpha_plain), once the per-unit arrays exist.
   The ratio counts are real (UD English EWT test, first 2,000 sentences,
   against 10 perturbed copies); the alpha unit x unit matrices have the real
   size (2,000 x 2,000 per system) but made-up values, since computing them
   exactly costs 10 all-pairs TED runs (timed separately in part 3).
   Goal: seconds.
2. The same, end to end through ``compare(..., alpha=False, significance=True)``
   (reading, alignment, per-unit counts, tests on LAS/UAS/CLAS).
3. ``synagree compare`` against the official scorer ``udeval --no-enhanced``
   (pip package udtools) on the whole EWT test file (2,077 sentences) against
   a perturbed copy, both as subprocesses in the same run (best of 3), with
   and without alpha; plus the in-process scorer parity core
   (:func:`synagree.evaluation.conll18.evaluate` vs ``udtools.udeval.evaluate``).

    python benchmarks/bench_compare.py [--quick]

``--quick`` skips the exact-alpha run of part 3 (about a minute on 2 cores).
"""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from common import SHARED, best_of, goal_line, loadavg

from synagree.evaluation import compare as cmp
from synagree.io.conllu import read_conllu, write_conllu
from synagree.noise.perturb import label_set, perturb
from synagree.stats.significance import AlphaUnits, SystemUnits, significance

EWT = SHARED / "ud" / "en_ewt-ud-test.conllu"


def single_root(sent):
    heads = sent.heads.copy()
    roots = np.flatnonzero(heads == 0) + 1
    for r in roots[1:]:
        heads[r - 1] = roots[0]
    return replace(sent, heads=heads)


def perturbed(sents, p, seed):
    rng = np.random.default_rng(seed)
    labels = label_set(sents)
    return [single_root(perturb(s, p, p, labels, rng)) for s in sents]


def cli(*args) -> float:
    t = time.perf_counter()
    r = subprocess.run(list(args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        raise SystemExit(f"{args[0]} failed: {r.stderr[-500:]}")
    return time.perf_counter() - t


def main() -> None:
    quick = "--quick" in sys.argv
    if not EWT.is_file():
        raise SystemExit(f"shared data not found: {EWT}")
    print(f"cores: {os.cpu_count()}")
    sents = read_conllu(EWT)
    tmp = Path(tempfile.mkdtemp(prefix="bench_compare_"))
    try:
        # ---------------------------------------------------------------- 1 + 2
        sub = sents[:2000]
        gold = tmp / "gold2000.conllu"
        write_conllu(gold, sub)
        systems = []
        for k in range(10):
            path = tmp / f"sys{k}.conllu"
            write_conllu(path, perturbed(sub, 0.02 + 0.01 * k, 100 + k))
            systems.append(path)
        t = time.perf_counter()
        res = cmp.compare(gold, systems, alpha=False, significance=True, test_replicates=1000)
        t_pipe = time.perf_counter() - t
        U = res.significance.units
        # per-unit arrays for part 1: real ratios, alpha matrices of real size
        rng = np.random.default_rng(0)
        size = np.array([s.n_words + 1 for s in sub], dtype=float)
        base = (size[:, None] - size[None, :]) ** 2 * 2.0 + 8.0
        units = []
        for k, s in enumerate(res.systems):
            al = s.conll18.alignment
            g_unit, s_unit = cmp._unit_index(s.units, len(al.gold.sentences),
                                             len(al.system.sentences))
            ratios = cmp._per_unit_ratios(al, g_unit, s_unit, len(s.units), s.conll18)
            do = rng.poisson(1 + k, U).astype(float) ** 2 * 2.0
            S = base + rng.random((U, U))
            S = (S + S.T) / 2
            np.fill_diagonal(S, do)
            units.append(SystemUnits(s.name, {m: ratios[m] for m in ("LAS", "UAS", "CLAS")},
                                     {"alpha_plain": AlphaUnits(do, np.full(U, 2.0), S)}))
        t_sig = best_of(lambda: significance(units, B=1000, seed=0), 2)
        t_sig_ratio = best_of(lambda: significance(units, B=1000, seed=0,
                                                   metrics=("LAS", "UAS", "CLAS")), 3)
        print(f"\n1. significance, 10 systems x {U} units, B = R = 1000, 45 pairs")
        print(f"   LAS+UAS+CLAS+alpha_plain : {t_sig:6.2f} s   (goal: seconds)")
        print(f"   LAS+UAS+CLAS only        : {t_sig_ratio:6.2f} s")
        print(f"2. compare(alpha=False, significance=True), 10 systems x {U} sentences, "
              f"end to end: {t_pipe:.2f} s")

        # ---------------------------------------------------------------- 3
        gold_full = tmp / "gold.conllu"
        sys_full = tmp / "sys.conllu"
        write_conllu(gold_full, sents)
        write_conllu(sys_full, perturbed(sents, 0.05, 7))
        udeval = shutil.which("udeval")
        synagree = [sys.executable, "-m", "synagree"]
        print(f"\n3. whole EWT test ({len(sents)} sentences, "
              f"{sum(s.n_words for s in sents)} words) against a perturbed copy")
        if udeval is None:
            print("   udeval not installed (pip install udtools): skipped")
            return
        t_ud = min(cli(udeval, "--no-enhanced", str(gold_full), str(sys_full))
                   for _ in range(3))
        t_noalpha = min(cli(*synagree, "compare", "--no-alpha", "-q", str(gold_full),
                            str(sys_full)) for _ in range(3))
        print(f"   udeval --no-enhanced            : {t_ud:7.2f} s")
        print(f"   synagree compare --no-alpha     : {t_noalpha:7.2f} s   "
              f"ratio {t_noalpha / t_ud:5.2f}x")
        if not quick:
            t_alpha = cli(*synagree, "compare", "-q", "--exact", str(gold_full), str(sys_full))
            print(f"   synagree compare (exact alpha)  : {t_alpha:7.2f} s   "
                  f"ratio {t_alpha / t_ud:5.2f}x")
            goal_line("`compare` with exact alpha, EWT test vs 5%-perturbed copy, <= 2x the "
                      "scorer", f"udeval {t_ud:.2f} s (best of 3)", f"**{t_alpha:.2f} s**",
                      f"{t_alpha / t_ud:.2f}x", loadavg())
        t_sampled = cli(*synagree, "compare", "-q", "--sample-pairs", "200000",
                        str(gold_full), str(sys_full))
        print(f"   synagree compare (sampled D_e)  : {t_sampled:7.2f} s   "
              f"ratio {t_sampled / t_ud:5.2f}x")
        try:
            import udtools.udeval as ud
        except ImportError:
            return
        from synagree.evaluation.conll18 import evaluate

        g_text, s_text = gold_full.read_text(), sys_full.read_text()
        t_ours = best_of(lambda: evaluate(g_text, s_text), 3)
        t_theirs = best_of(lambda: ud.evaluate(ud.load_conllu(io.StringIO(g_text), "g", {}),
                                               ud.load_conllu(io.StringIO(s_text), "s", {})), 3)
        print(f"   in process: conll18.evaluate {t_ours:.2f} s, udeval.evaluate "
              f"{t_theirs:.2f} s, ratio {t_ours / t_theirs:.2f}x")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
