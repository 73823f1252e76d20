"""Annotator competence from the data: the one-coin Dawid–Skene model (EM).

Used by ``synagree adjudicate --weights competence`` (docs/method.md §31.3).
Each *task* is one word, each *label* the annotator's choice of head for it
(coded as the signed offset head − word, the root as its own code), and
each annotator ``w`` has one parameter, the accuracy ``s_w``: with
probability ``s_w`` the annotator gives the true label, otherwise any of the
other ``K − 1`` labels alike (Zhang, Chen, Zhou & Jordan 2016; the
"one-coin" special case of Dawid & Skene 1979).

Why one-coin Dawid–Skene and not the full model or MACE: a head choice has
no fixed category set shared by all words, so neither a K × K confusion
matrix per annotator (Dawid–Skene) nor a spamming distribution over labels
(MACE, Hovy et al. 2013) has a meaning for it; one accuracy per annotator
has, and it is what the consensus needs as a vote weight.

The updates are those of crowd-kit's ``OneCoinDawidSkene`` (start from the
majority-vote posteriors; priors = mean posterior per label; skill = the
mean posterior of the annotator's own labels; error matrix entries clipped
to [1e-10, 1 − 1e-10]), computed without the dense tasks × labels matrix
(a label nobody gave a task keeps the prior's share).  It stops when no
skill moves by more than ``tol`` or after ``n_iter`` rounds (crowd-kit stops
on its evidence lower bound instead); tests/test_adjudicate.py checks the
skills against crowd-kit's on the same data.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

import numpy as np

__all__ = ["Competence", "one_coin_dawid_skene", "vote_weight"]

EPS = 1e-10


@dataclass(frozen=True)
class Competence:
    """Estimated accuracies of the annotators.

    Attributes
    ----------
    skills : tuple of float
        Per annotator (in the order of the ids given), the estimated
        probability of choosing the true label.
    labels : int
        K, the number of distinct labels in the data.
    iterations : int
        EM rounds run.
    converged : bool
        Whether the skills stopped moving (by ``tol``) before ``n_iter``.
    """

    skills: Tuple[float, ...]
    labels: int
    iterations: int
    converged: bool

    def weights(self) -> np.ndarray:
        """The vote weight of each annotator (`vote_weight`)."""
        return np.array([vote_weight(s, self.labels) for s in self.skills])

    def to_dict(self) -> Dict[str, object]:
        """JSON-ready."""
        return {"skills": list(self.skills), "labels": self.labels,
                "iterations": self.iterations, "converged": self.converged}


def vote_weight(skill: float, labels: int) -> float:
    """The log-odds weight ln(s (K − 1) / (1 − s)) of an annotator of accuracy ``s``.

    Under the one-coin model the posterior log-odds of a label are the sum of
    these weights over the annotators who gave it, so a weighted vote with
    them picks the most probable label (with a flat prior).  Clipped at 0
    (an annotator no better than chance does not vote against anyone) and
    ``s`` clipped to [1e-10, 1 − 1e-10].

    Examples
    --------
    >>> round(vote_weight(0.9, 11), 4), vote_weight(0.05, 11)
    (4.4998, 0.0)
    """
    s = min(max(float(skill), EPS), 1.0 - EPS)
    k = max(int(labels), 2)
    return max(0.0, float(np.log(s * (k - 1) / (1.0 - s))))


def one_coin_dawid_skene(tasks: Sequence[int], workers: Sequence[int],
                         labels: Sequence[int], n_workers: int, *, n_iter: int = 100,
                         tol: float = 1e-7) -> Competence:
    """EM estimates of each worker's accuracy under the one-coin Dawid–Skene model.

    Parameters
    ----------
    tasks, workers, labels : sequence of int
        One response each: the task, the worker (0 .. n_workers − 1), the
        label given (any integers).
    n_workers : int
    n_iter : int
        At most this many EM rounds.
    tol : float
        Stop when no skill changes by more than this (0: run ``n_iter`` rounds).

    Returns
    -------
    Competence

    Examples
    --------
    >>> t = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    >>> w = [0, 1, 2] * 4
    >>> y = [1, 1, 2, 2, 2, 2, 3, 3, 1, 4, 4, 4]
    >>> c = one_coin_dawid_skene(t, w, y, 3)
    >>> [round(s, 2) for s in c.skills], c.labels
    ([1.0, 1.0, 0.5], 4)
    """
    t_codes, t_idx = np.unique(np.asarray(tasks), return_inverse=True)
    y_codes, y_idx = np.unique(np.asarray(labels), return_inverse=True)
    w_idx = np.asarray(workers, dtype=np.int64)
    T, K = t_codes.shape[0], y_codes.shape[0]
    if T == 0:
        return Competence(tuple([float("nan")] * n_workers), K, 0, True)
    # voted (task, label) pairs, and the pair of each response
    key = t_idx.astype(np.int64) * K + y_idx
    pairs, p_of = np.unique(key, return_inverse=True)
    p_task, p_label = pairs // K, pairs % K
    n_resp = np.bincount(w_idx, minlength=n_workers).astype(float)
    # majority-vote posteriors: vote shares, nothing for unvoted labels
    q = np.bincount(p_of, minlength=pairs.shape[0]) / np.bincount(t_idx, minlength=T)[p_task]
    background = np.zeros(T)
    prior = np.bincount(p_label, weights=q, minlength=K) / T
    skills = _skills(q, p_of, w_idx, n_resp)
    it, converged = 0, False
    while it < n_iter:
        it += 1
        prior = np.clip(prior, EPS, None)  # as crowd-kit's E-step (in place)
        q, background = _e_step(prior, skills, K, p_of, p_task, p_label, w_idx, T,
                                pairs.shape[0])
        prior = (prior * background.sum()
                 + np.bincount(p_label, weights=q - prior[p_label] * background[p_task],
                               minlength=K)) / T
        new = _skills(q, p_of, w_idx, n_resp)
        moved = float(np.max(np.abs(new - skills))) if new.size else 0.0
        skills = new
        if tol > 0 and moved <= tol:
            converged = True
            break
    return Competence(tuple(float(s) for s in skills), int(K), it, converged)


def _skills(q: np.ndarray, p_of: np.ndarray, w_idx: np.ndarray, n_resp: np.ndarray
            ) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        out: np.ndarray = np.bincount(w_idx, weights=q[p_of], minlength=n_resp.shape[0])
        out /= n_resp
    return out


def _e_step(prior: np.ndarray, skills: np.ndarray, K: int, p_of: np.ndarray,
            p_task: np.ndarray, p_label: np.ndarray, w_idx: np.ndarray, T: int,
            n_pairs: int) -> List[np.ndarray]:
    """Posteriors of the voted pairs and the per-task share of an unvoted label."""
    prior = np.clip(prior, EPS, None)
    right = np.log(np.clip(skills, EPS, 1.0 - EPS))
    wrong = np.log(np.clip((1.0 - skills) / max(K - 1, 1), EPS, 1.0 - EPS))
    bonus = np.bincount(p_of, weights=(right - wrong)[w_idx], minlength=n_pairs)
    top = np.zeros(T)
    np.maximum.at(top, p_task, bonus)
    shift = np.exp(-top)
    scaled = np.exp(bonus - top[p_task])
    norm = shift * prior.sum() + np.bincount(
        p_task, weights=prior[p_label] * (scaled - shift[p_task]), minlength=T)
    q = prior[p_label] * scaled / norm[p_task]
    return [q, shift / norm]
