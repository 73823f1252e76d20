"""Memory planned before work: refuse early, with a hint, rather than die late.

Work whose memory grows with the square of the corpus (the unit × unit sums
behind bootstrap intervals and significance tests) or with a user-given grid
is estimated before it starts; above the limit (``--max-memory``, default
`DEFAULT_MAX_MEMORY`) it is refused with exit status 2 and a hint.
"""
from __future__ import annotations

import re

from synagree.base.problems import InputError

DEFAULT_MAX_MEMORY = 4 * 2**30  # bytes

_UNITS = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def parse_size(text: str) -> int:
    """Bytes in ``text``: a whole number with an optional K/M/G/T suffix (powers of 1024).

    >>> parse_size("4G"), parse_size("500M"), parse_size("1024")
    (4294967296, 524288000, 1024)
    """
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*", text.upper())
    if not m:
        raise ValueError(f"must be a size such as 500M or 4G, got {text!r}")
    value = int(float(m.group(1)) * _UNITS[m.group(2)])
    if value <= 0:
        raise ValueError(f"must be a positive size, got {text!r}")
    return value


def human(nbytes: float) -> str:
    """``nbytes`` for people: ``8.9 GiB``."""
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= size:
            return f"{nbytes / size:.1f} {unit}"
    return f"{int(nbytes)} B"


def check_memory(nbytes: float, what: str, hint: str,
                 limit: int = DEFAULT_MAX_MEMORY) -> None:
    """Raise `InputError` (kind ``memory-limit``) when ``what`` is planned
    to need more than ``limit`` bytes; ``hint`` says how to need less.

    >>> check_memory(10, "a tiny table", "none needed")
    >>> try:
    ...     check_memory(8 * 2**30, "the unit x unit sums", "use fewer units", limit=2**30)
    ... except InputError as exc:
    ...     print(exc.errors[0].message)  # doctest: +NORMALIZE_WHITESPACE
    the unit x unit sums would need about 8.0 GiB, above the limit of 1.0 GiB:
    use fewer units, or raise --max-memory
    """
    if nbytes > limit:
        raise InputError.single(
            "<command line>", None, "memory-limit",
            f"{what} would need about {human(nbytes)}, above the limit of {human(limit)}: "
            f"{hint}, or raise --max-memory")


def check_resampling(units: int, replicates: int, matrices: int = 1,
                     limit: int = DEFAULT_MAX_MEMORY) -> None:
    """Plan the memory of unit-resampling work (bootstrap intervals, significance).

    ``matrices`` unit × unit δ² sums of three variants (24·U² bytes each) and
    ``replicates`` × ``units`` resampling weights with their products (about
    24·B·U bytes per matrix).
    """
    need = matrices * (24.0 * units * units + 24.0 * replicates * units)
    check_memory(need, f"resampling {units:,} units {replicates:,} times "
                       f"({matrices} unit x unit table(s))",
                 "use fewer replicates (--bootstrap), split the corpus, or drop the "
                 "intervals / significance tests", limit)
