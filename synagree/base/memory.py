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
    """Bytes in ``text``: a number with an optional K/M/G/T suffix (powers of 1024).

    Parameters
    ----------
    text : str
        E.g. ``"4G"``, ``"500M"``, ``"1.5K"``, ``"1024"``; case-insensitive, an
        optional ``B``/``iB`` ending is accepted.

    Returns
    -------
    int
        The size in bytes (fractions rounded down).

    Raises
    ------
    ValueError
        Not a size, or not positive.

    Examples
    --------
    >>> parse_size("4G"), parse_size("500M"), parse_size("1024"), parse_size("1.5kib")
    (4294967296, 524288000, 1024, 1536)
    """
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*", text.upper())
    if not m:
        raise ValueError(f"must be a size such as 500M or 4G, got {text!r}")
    value = int(float(m.group(1)) * _UNITS[m.group(2)])
    if value <= 0:
        raise ValueError(f"must be a positive size, got {text!r}")
    return value


def human(nbytes: float) -> str:
    """``nbytes`` for people, in the largest binary unit that fits (``8.9 GiB``).

    Parameters
    ----------
    nbytes : float
        A number of bytes.

    Returns
    -------
    str

    Examples
    --------
    >>> human(8.9 * 2**30), human(1536), human(12)
    ('8.9 GiB', '1.5 KiB', '12 B')
    """
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= size:
            return f"{nbytes / size:.1f} {unit}"
    return f"{int(nbytes)} B"


def check_memory(nbytes: float, what: str, hint: str,
                 limit: int = DEFAULT_MAX_MEMORY) -> None:
    """Refuse work planned to need more than ``limit`` bytes.

    Parameters
    ----------
    nbytes : float
        The planned memory, in bytes.
    what : str
        What needs it (starts the message).
    hint : str
        How to need less.
    limit : int
        The limit in bytes (``--max-memory``; default 4 GiB).

    Raises
    ------
    InputError
        Kind ``memory-limit`` when ``nbytes > limit``.

    Examples
    --------
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

    The plan counts ``matrices`` unit × unit δ² sums of three variants
    (24·U² bytes each) and ``replicates`` × ``units`` resampling weights with
    their products (about 24·B·U bytes per matrix).

    Parameters
    ----------
    units : int
        Units resampled (U).
    replicates : int
        Bootstrap or permutation replicates (B).
    matrices : int
        Unit × unit tables held at once (one per system or corpus).
    limit : int
        The limit in bytes.

    Raises
    ------
    InputError
        Kind ``memory-limit`` when the plan exceeds ``limit``.

    See Also
    --------
    check_memory

    Examples
    --------
    >>> check_resampling(1000, 1000)  # about 46 MiB: fine
    >>> try:
    ...     check_resampling(100_000, 1000, limit=2**30)
    ... except InputError as exc:
    ...     print(exc.errors[0].kind)
    memory-limit
    """
    need = matrices * (24.0 * units * units + 24.0 * replicates * units)
    check_memory(need, f"resampling {units:,} units {replicates:,} times "
                       f"({matrices} unit x unit table(s))",
                 "use fewer replicates (--bootstrap), split the corpus, or drop the "
                 "intervals / significance tests", limit)
