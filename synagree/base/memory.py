"""Memory planned before work: refuse early, with a hint, rather than die late.

Work whose memory grows with the square of something — the unit × unit sums
behind bootstrap intervals and significance tests, the tree edit distance
tables of the largest tree (largest × largest cells, per thread), the unit ×
category sums of a token-layer bootstrap — or with a user-given grid (noise
runs) is estimated before it starts (docs/performance.md, "The memory
plan").  Work planned to need more than the **limit** is refused with exit
status 2 (kind ``memory-limit``) and a hint.  The limit is the smaller of

* ``--max-memory`` (default `DEFAULT_MAX_MEMORY`; `limited` sets it for the
  checks a command makes deep down), and
* the memory this process can actually still get (`available_memory`): what
  the kernel says is available (``MemAvailable``), what its cgroup (v2
  ``memory.max`` or v1 ``memory.limit_in_bytes``, with every ancestor's)
  leaves, and what its address-space limit (``ulimit -v``) leaves;

and the refusal says which of them it was.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

from synagree.base.problems import InputError

# what this process can still get, and the reading budget's rule: a light module shared
# with PARSEVAL's fast path (issue 36: start-up)
from synagree.base.room import DEFAULT_MAX_MEMORY as DEFAULT_MAX_MEMORY
from synagree.base.room import READ_FLOOR as READ_FLOOR
from synagree.base.room import READ_SHARE as READ_SHARE
from synagree.base.room import available_memory as available_memory
from synagree.base.room import read_cap as read_cap

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
    """
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= size:
            return f"{nbytes / size:.1f} {unit}"
    return f"{int(nbytes)} B"


_LIMIT: ContextVar[int] = ContextVar("synagree_max_memory", default=DEFAULT_MAX_MEMORY)


def current_limit() -> int:
    """The ``--max-memory`` of the command running (`limited`), else the default."""
    return _LIMIT.get()


@contextmanager
def limited(nbytes: Optional[int]) -> Iterator[None]:
    """Within the block, checks without an explicit limit use ``nbytes`` (None: unchanged).

    The command line sets ``--max-memory`` so, for the checks made deep down
    (the tree edit distance tables, a token-layer bootstrap, a stored result).
    """
    if nbytes is None:
        yield
        return
    token = _LIMIT.set(int(nbytes))
    try:
        yield
    finally:
        _LIMIT.reset(token)


def memory_limit(max_memory: Optional[int] = None,
                 proc: "str | Path" = "/proc") -> Tuple[int, str, bool]:
    """The limit work is planned against: the smaller of ``max_memory`` and the memory
    available (`available_memory`).

    Parameters
    ----------
    max_memory : int, optional
        ``--max-memory`` in bytes (default: `current_limit`).
    proc : str or path-like

    Returns
    -------
    (int, str, bool)
        The limit in bytes, where it comes from in words, and whether it is
        the machine's (not ``--max-memory``).
    """
    flag = current_limit() if max_memory is None else int(max_memory)
    avail = available_memory(proc)
    if avail is not None and avail[0] < flag:
        return avail[0], avail[1], True
    return flag, "--max-memory", False


def read_budget(max_memory: Optional[int] = None,
                proc: "str | Path" = "/proc") -> Tuple[int, str]:
    """The bytes one input may give when read (decompressed): 1/`READ_SHARE` of the limit,
    at least `READ_FLOOR`.

    The limit is `memory_limit`'s: ``--max-memory`` (``max_memory=`` in
    Python), or the memory this process can still get when that is smaller.

    Parameters
    ----------
    max_memory : int, optional
        ``--max-memory`` in bytes (default: `current_limit`).
    proc : str or path-like

    Returns
    -------
    (int, str)
        The budget in bytes, and in words where it comes from and how to
        raise it (for the ``input-too-large`` message).

    Examples
    --------
    >>> budget, how = read_budget(1600 * 2**20, proc="/nonexistent")
    >>> budget == 100 * 2**20, how.split(";")[0]
    (True, '1/16 of --max-memory 1.6 GiB')
    """
    cap, source, machine = memory_limit(max_memory, proc)
    if machine:
        how = (f"1/{READ_SHARE} of {human(cap)}, {source}; free memory, run it where more "
               f"is free, or split the input")
    else:
        how = (f"1/{READ_SHARE} of --max-memory {human(cap)}; raise --max-memory "
               f"(max_memory= in Python) or split the input")
    return read_cap(cap), how


def check_memory(nbytes: float, what: str, hint: str,
                 limit: Optional[int] = None, proc: "str | Path" = "/proc") -> None:
    """Refuse work planned to need more memory than the limit (`memory_limit`).

    Parameters
    ----------
    nbytes : float
        The planned memory, in bytes.
    what : str
        What needs it (starts the message).
    hint : str
        How to need less.
    limit : int, optional
        ``--max-memory`` in bytes (default: `current_limit`, 4 GiB unless a
        command set it).
    proc : str or path-like
        Where ``/proc`` is (tests).

    Raises
    ------
    InputError
        Kind ``memory-limit`` when ``nbytes`` exceeds the limit; the message
        says whether ``--max-memory`` or the machine (and which of its limits)
        was the smaller.
    """
    cap, source, machine = memory_limit(limit, proc)
    if nbytes <= cap:
        return
    if machine:
        raise InputError.single(
            "<command line>", None, "memory-limit",
            f"{what} would need about {human(nbytes)}, more than this process can get: "
            f"{human(cap)}, {source} (--max-memory allows {human(limit or current_limit())})"
            f": {hint}, or run it where more memory is free")
    raise InputError.single(
        "<command line>", None, "memory-limit",
        f"{what} would need about {human(nbytes)}, above the limit of {human(cap)} "
        f"(--max-memory): {hint}, or raise --max-memory")


def check_resampling(units: int, replicates: int, matrices: int = 1,
                     limit: int = DEFAULT_MAX_MEMORY, what: Optional[str] = None,
                     hint: Optional[str] = None) -> None:
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
    limit : int, optional
        ``--max-memory`` in bytes (see `check_memory`).
    what, hint : str, optional
        What needs the tables and how to need less, when it is not a bootstrap
        of ``replicates`` (``plan`` keeps the table of its pilot).

    Raises
    ------
    InputError
        Kind ``memory-limit`` when the plan exceeds the limit.

    See Also
    --------
    check_memory
    """
    need = matrices * (24.0 * units * units + 24.0 * replicates * units)
    if what is None:
        what = (f"resampling {units:,} units {replicates:,} times ({matrices} unit x unit "
                f"table(s))")
    if hint is None:
        hint = ("use fewer replicates (--bootstrap), split the corpus, or drop the "
                "intervals / significance tests")
    check_memory(need, what, hint, limit)


TED_CHUNK_COLS = 1024
"""Widest forest row the TED kernels sweep at once (``CHUNK_COLS`` of ``_tedc.c`` and
``kernels_numba``): the rows are at least this wide."""


def ted_table_bytes(nodes: int, cell_bytes: int = 8) -> int:
    """Bytes of one thread's tree edit distance work buffers for trees of ``nodes`` nodes.

    The kernels (`synagree.distance.kernels`) hold per thread the tree
    distances (``nodes × (nodes + 2)`` cells), the forest rows (``(nodes + 1) ×
    max(nodes + 1, 1024)`` cells) and a few rows more, in int32 cells (4 bytes,
    integral costs) or float64 (8 bytes), sized by the largest tree of the
    corpus: about ``2 · nodes² · cell_bytes``.

    Parameters
    ----------
    nodes : int
        Nodes of the largest tree (words + 1 for a dependency tree).
    cell_bytes : int
        4 or 8.
    """
    n = int(nodes)
    cw = max(TED_CHUNK_COLS, n + 1)
    cells = n * (n + 2) + (n + 1) * cw + 2 * n + cw + 2 * (n + 1) + 1
    return cells * int(cell_bytes) + 16 * cw


def check_ted_tables(nodes: int, threads: int, cell_bytes: int = 8,
                     limit: Optional[int] = None, proc: "str | Path" = "/proc") -> None:
    """Plan the tree edit distance tables: ``threads`` × `ted_table_bytes`.

    Parameters
    ----------
    nodes : int
        Nodes of the largest tree.
    threads : int
        Threads that each hold tables.
    cell_bytes : int
        4 or 8.
    limit : int, optional
        ``--max-memory`` (see `check_memory`).
    proc : str or path-like

    Raises
    ------
    InputError
        ``memory-limit``; the hint names the number of threads that would fit
        when fewer would.
    """
    per = ted_table_bytes(nodes, cell_bytes)
    need = per * max(1, int(threads))
    what = f"the tree edit distance tables of the largest tree ({int(nodes):,} nodes)"
    if threads > 1:
        what += f", {human(per)} for each of {int(threads)} threads,"
    hint = ("leave out or split the longest sentences (the tables grow with the square of "
            "the largest tree)")
    cap, _, _ = memory_limit(limit, proc)
    fit = cap // per if per else threads
    if need > cap and 1 <= fit < threads:
        hint += f", or run fewer threads (SYNAGREE_THREADS={fit} fits)"
    check_memory(need, what, hint, limit, proc)


def layer_bootstrap_bytes(units: int, categories: int, annotators: int,
                          replicates: int) -> int:
    """Bytes of the bootstrap of one token layer (`synagree.stats.categorical.layer_bootstrap`).

    The per-unit sums (``units × categories × (annotators + 2)`` and a few
    ``units``-long arrays), the resampling weights (``replicates × units``) and
    the resampled category sums (``replicates × categories × (2·annotators +
    7)``), all float64.
    """
    U, K, m, B = int(units), int(categories), int(annotators), int(replicates)
    pairs = m * (m - 1) // 2
    return 8 * (U * (K * (m + 2) + 2 * pairs + 3) + B * U + B * K * (2 * m + 7))


def check_layer_bootstrap(shapes: "List[Tuple[str, int, int, int]]", replicates: int,
                          limit: Optional[int] = None) -> None:
    """Plan token-layer bootstraps run one after another: the largest must fit.

    Parameters
    ----------
    shapes : list of (str, int, int, int)
        Per layer (or feature): its name, units, categories and annotators.
    replicates : int
    limit : int, optional
        ``--max-memory`` (see `check_memory`).

    Raises
    ------
    InputError
        ``memory-limit``.
    """
    if not shapes or replicates <= 0:
        return
    name, U, K, m = max(shapes, key=lambda s: layer_bootstrap_bytes(s[1], s[2], s[3],
                                                                    replicates))
    check_memory(layer_bootstrap_bytes(U, K, m, replicates),
                 f"the bootstrap of layer {name} ({U:,} units, {K:,} categories, "
                 f"{replicates:,} replicates)",
                 "use fewer replicates (--bootstrap) or fewer units", limit)


# a noise run held in memory: its spec, its row of numbers, and its share of the
# run tables and summaries written at the end (measured: about 250 + 420 bytes per
# column; docs/performance.md)
NOISE_RUN_BYTES = 250
NOISE_COLUMN_BYTES = 450


def check_noise(runs: int, columns: int, nodes: int, threads: int,
                limit: Optional[int] = None, extra: float = 0.0) -> None:
    """Plan a noise experiment: every run's row (``runs`` × ``columns``) and the TED
    tables of its largest sentence.

    Parameters
    ----------
    runs : int
        Runs in all (series × grid points × runs per point).
    columns : int
        Columns of a run's row.
    nodes : int
        Nodes of the largest tree of the sample.
    threads : int
    limit : int, optional
        ``--max-memory`` (see `check_memory`).
    extra : float
        Bytes more (the sample's TED matrices).

    Raises
    ------
    InputError
        ``memory-limit``.
    """
    rows = float(runs) * (NOISE_RUN_BYTES + NOISE_COLUMN_BYTES * int(columns))
    tables = float(max(1, int(threads)) * ted_table_bytes(nodes, 8))
    need = rows + tables + float(extra)
    if tables >= rows + float(extra):  # the largest tree, not the runs, needs the memory
        check_memory(need, f"a noise experiment: the tree edit distance tables of the "
                           f"sample's largest tree ({int(nodes):,} nodes, {human(tables)} for "
                           f"{max(1, int(threads))} thread(s)) and {int(runs):,} runs",
                     "leave out or split the longest sentences (the tables grow with the "
                     "square of the largest tree), or draw a sample without them (--sample)",
                     limit)
        return
    check_memory(need, f"a noise experiment of {int(runs):,} runs ({int(columns)} columns "
                       f"each, held until the results are written)",
                 "use fewer grid points or runs per point (--grid, --runs) or fewer series, "
                 "and run the rest into another output folder", limit)


def check_regression(units: int, replicates: int, metrics: int,
                     limit: Optional[int] = None) -> None:
    """Plan a comparison with a stored result (``--baseline``): per-unit data of both
    sides, resampling chunks of at most 4 million weights, and the replicates.

    Parameters
    ----------
    units : int
        Units of the larger side.
    replicates : int
        Bootstrap replicates (and randomisation rounds).
    metrics : int
        Metrics compared.
    limit : int, optional

    Raises
    ------
    InputError
        ``memory-limit``.
    """
    chunk = 8 * 4_000_000 * 3  # weights, signs, products of one chunk
    need = chunk + 8.0 * int(units) * 40 + 16.0 * int(replicates) * max(1, int(metrics))
    check_memory(need, f"the comparison with the baseline ({int(units):,} units, "
                       f"{int(replicates):,} replicates)",
                 "use fewer replicates (--bootstrap)", limit)
