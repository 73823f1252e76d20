"""Shared helpers for the benchmarks: random trees, timing, the shared data path."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, List, Tuple

import numpy as np

from synagree.io.conllu import DepSentence
from synagree.trees.flat import FlatTree, Vocabulary, dependency_tree

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
LABELS = ["nsubj", "obj", "obl", "det", "amod", "case", "advmod", "conj", "cc", "punct",
          "nmod", "mark", "aux", "cop", "root"]


def random_sentence(n: int, rng: np.random.Generator) -> DepSentence:
    """A dependency-shaped random tree: each word hangs from a word before it
    (or the root), mostly nearby, so trees are realistically deep and ordered."""
    heads = np.zeros(n, dtype=np.int32)
    order = rng.permutation(n) + 1
    placed = [0]
    for w in order:
        # prefer a nearby placed word: closer attachments are more likely
        cand = np.asarray(placed)
        weights = 1.0 / (1.0 + np.abs(cand - w))
        heads[w - 1] = rng.choice(cand, p=weights / weights.sum())
        placed.append(int(w))
    labels = [LABELS[i] for i in rng.integers(0, len(LABELS), n)]
    return DepSentence(file="<random>", index=0, line=0, forms=["w"] * n, heads=heads,
                       deprels=labels)


def random_trees(count: int, n: int, seed: int, vocab: Vocabulary,
                 jitter: int = 0) -> Tuple[List[FlatTree], List[DepSentence]]:
    rng = np.random.default_rng(seed)
    sents = [random_sentence(max(1, n + (int(rng.integers(-jitter, jitter + 1)) if jitter else 0)),
                             rng) for _ in range(count)]
    return [dependency_tree(s, vocab) for s in sents], sents


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """Minimum wall time of ``repeat`` runs (seconds): robust on a noisy machine."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


# --------------------------------------------------------------------------
# Goal lines: one per goal, in the form of the README's goal table
# --------------------------------------------------------------------------

def loadavg() -> str:
    """The 1/5/15-minute load averages (``/proc/loadavg``), or ``?``."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def goal_line(goal: str, baseline: str, result: str, ratio: str, load: str) -> None:
    """Print ``GOAL | goal | baseline (same run) | synagree | ratio | load``: the
    README table's row (the machine is shared: only ratios measured in one
    run, and the load beside them, mean anything)."""
    print(f"GOAL | {goal} | {baseline} | {result} | {ratio} | {load}", flush=True)


def min_med(values) -> str:
    """``min / median`` of a list, 2 decimals."""
    vals = sorted(values)
    return f"{vals[0]:.2f} / {float(np.median(vals)):.2f}"
