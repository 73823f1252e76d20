"""The one rule on the number of resampling replicates (docs/method.md §5.4).

Every interval and test drawn by `synagree.stats.bootstrap` (and the
randomisation tests of `synagree.stats.significance`) needs at least
`min_replicates` for its level; every command and public function that
resamples checks it with `check_replicates` before any work.  (A module of
its own, without numpy, so that the command line checks it before importing
the engine; `synagree.stats.bootstrap` re-exports both.)
"""
from __future__ import annotations

import math

from synagree.base.problems import InputError

__all__ = ["min_replicates", "check_replicates"]


def min_replicates(level: float) -> int:
    r"""The fewest replicates of a resampling interval (or test) at ``level``: ⌈2/(1 − level)⌉.

    The percentile interval at ``level`` leaves ``(1 − level)/2`` of the
    replicates beyond each end; with fewer than ``2/(1 − level)`` replicates not
    one falls there on average, and the "interval" is only the range of the
    replicates (with one replicate, a point that need not hold the estimate).
    40 at 95 %, 200 at 99 %; intervals for publication want 1,000 or more
    (docs/method.md §5.4).

    Parameters
    ----------
    level : float
        The confidence level, a fraction in (0, 1).

    Examples
    --------
    >>> min_replicates(0.95), min_replicates(0.99), min_replicates(0.5)
    (40, 200, 4)
    """
    return int(math.ceil(2.0 / (1.0 - float(level)) - 1e-9))


def check_replicates(replicates: int, level: float, option: str = "--bootstrap",
                     what: str = "an interval") -> None:
    """Refuse a resampling with fewer replicates than `min_replicates` (0: none asked).

    The one rule of every command and function that resamples (intervals,
    ``--by`` bands, ``--significance`` and ``--baseline`` tests, ``plan``).

    Parameters
    ----------
    replicates : int
        Replicates asked for (0: no resampling; not checked).
    level : float
        The confidence level (``--ci-level``).
    option : str
        The option (or argument) that sets them, named in the hint.
    what : str
        What they are for, in the message.

    Raises
    ------
    InputError
        ``too-few-replicates``.

    Examples
    --------
    >>> check_replicates(1000, 0.95)  # doctest: +ELLIPSIS
    >>> check_replicates(1, 0.95)
    Traceback (most recent call last):
    ...
    synagree.base.problems.InputError: <command line>: error: --bootstrap 1: an interval ...
    """
    if not replicates:
        return
    need = min_replicates(level)
    if int(replicates) < need:
        raise InputError.single(
            "<command line>", None, "too-few-replicates",
            f"{option} {replicates}: {what} at level {level:g} needs at least {need} "
            f"replicates (2/(1 - level)); with fewer it is only the range of the "
            f"replicates: give {option} {need} or more (1000 or more for intervals to "
            f"publish)")
