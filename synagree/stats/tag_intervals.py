"""Bootstrap intervals of tag accuracy, Cohen's κ and Scott's π (``tags --bootstrap B``).

Sentences are resampled with replacement on the one resampling engine
(`synagree.stats.bootstrap.bootstrap`, docs/method.md §5.4); a replicate's
coefficients come from the weighted sums of the per-sentence counts (correct
words, words, and each tag's count on either side), so a replicate costs one
matrix product, not a second pass over the words.  The sums are a contingency
table's total, diagonal and margins, and the coefficients those of the one
κ/π engine (`synagree.stats.contingency.agreement_coefficients`):

* accuracy = Σ w_s c_s / Σ w_s n_s (the table's observed agreement);
* Cohen's κ = (p_o − p_e) / (1 − p_e), p_e = Σ_t (g_t / N)(s_t / N);
* Scott's π the same with p_e = Σ_t ((g_t + s_t) / 2N)².

Intervals are percentile intervals at ``level``; a coefficient undefined in a
replicate (1 − p_e ≤ 1e-12) is left out of that replicate's distribution.
"""
from __future__ import annotations

from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from synagree.stats.bootstrap import bootstrap
from synagree.stats.contingency import agreement_coefficients

__all__ = ["tag_intervals", "INTERVAL_METRICS"]

#: the metrics that get intervals
INTERVAL_METRICS = ("accuracy", "cohen_kappa", "scott_pi")


def tag_intervals(pairs: Sequence[Tuple[str, str]], lengths: Sequence[int], B: int,
                  seed: int = 0, level: float = 0.95
                  ) -> Dict[str, Optional[Tuple[float, float]]]:
    """Percentile intervals of `INTERVAL_METRICS` over ``B`` resamples of the sentences.

    Parameters
    ----------
    pairs : sequence of (str, str)
        (gold tag, system tag) per word, sentence after sentence.
    lengths : sequence of int
        Words per sentence (they sum to ``len(pairs)``).
    B : int
        Replicates.
    seed : int
    level : float
        Interval level, a fraction.
    """
    if sum(lengths) != len(pairs):
        raise ValueError(f"{sum(lengths)} words in the sentences but {len(pairs)} pairs")
    S = len(lengths)
    if S == 0:
        return {m: None for m in INTERVAL_METRICS}
    tags = {t: k for k, t in enumerate(sorted({t for p in pairs for t in p}))}
    sent = np.repeat(np.arange(S), lengths)
    g_idx = np.fromiter((tags[g] for g, _ in pairs), np.int64, len(pairs))
    s_idx = np.fromiter((tags[s] for _, s in pairs), np.int64, len(pairs))
    T = len(tags)
    G = np.zeros((S, T))
    Sy = np.zeros((S, T))
    np.add.at(G, (sent, g_idx), 1.0)
    np.add.at(Sy, (sent, s_idx), 1.0)
    correct = np.bincount(sent, weights=(g_idx == s_idx).astype(np.float64), minlength=S)
    n = np.asarray(lengths, dtype=np.float64)

    def coefficients(W: np.ndarray) -> Dict[str, np.ndarray]:
        reps = agreement_coefficients(W @ n, W @ correct, W @ G, W @ Sy)
        return {k: np.asarray(v) for k, v in reps.items()}

    res = bootstrap(coefficients, S, B, seed, level)
    return {m: res.ci(key)
            for m, key in zip(INTERVAL_METRICS, ("observed", "cohen_kappa", "scott_pi"))}
