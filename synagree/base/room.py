"""What this process can still get in memory, and the reading budget's rule (light part).

`synagree.base.memory` plans work against the limit (the smaller of ``--max-memory``
and `available_memory`) and refuses an input larger than its reading budget
(`read_cap` of the limit).  These functions are here, on the standard library's
``os``, ``re`` and ``resource`` only, so that the fast path of ``synagree compare``
on bracketed files (`synagree.cli.parseval_fast`) applies the same budget without
loading pathlib, typing nor the problem records (issue 36: start-up).
"""
from __future__ import annotations

import os
import re
import resource

from synagree.base.numbers import ascii_digits

# typing is needed only by the type checker (its import costs start-up: issue 36)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import List, Optional, Tuple

__all__ = ["DEFAULT_MAX_MEMORY", "READ_SHARE", "READ_FLOOR", "available_memory", "read_cap"]

DEFAULT_MAX_MEMORY = 4 * 2**30  # bytes
_UNLIMITED = 2**60  # cgroup "no limit" (v1 writes 2^63 - 4096; v2 writes "max")

#: the share of the memory limit one input's text may take: its parse holds about five
#: times its size in objects (measured on UD treebanks, docs/performance.md), and the
#: other inputs and the work itself need the rest
READ_SHARE = 16
#: the smallest reading budget, whatever the limit (a tiny ``--max-memory`` is for
#: testing the work plans, not for refusing a small file)
READ_FLOOR = 2**20


def read_cap(limit: int) -> int:
    """The bytes one input may give when read, under a memory limit of ``limit`` bytes:
    1/`READ_SHARE` of it, at least `READ_FLOOR`.

    >>> read_cap(1600 * 2**20) == 100 * 2**20, read_cap(0) == READ_FLOOR
    (True, True)
    """
    return max(READ_FLOOR, limit // READ_SHARE)


def _read(path: str) -> Optional[str]:
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            return fh.read().strip()
    except OSError:
        return None


def _number(text: Optional[str]) -> Optional[int]:
    if text is None or not ascii_digits(text):
        return None  # absent, or "max"
    value = int(text)
    return value if value < _UNLIMITED else None


def _meminfo(proc: str, key: str) -> Optional[int]:
    text = _read(os.path.join(proc, "meminfo"))
    m = re.search(rf"^{key}:\s+(\d+) kB", text or "", re.M)
    return int(m.group(1)) * 1024 if m else None


def _cgroup_dirs(proc: str) -> List[Tuple[str, str]]:
    """(version, folder) of each cgroup of this process with a memory controller, leaf
    first then its ancestors up to the mount point."""
    cgroups = _read(os.path.join(proc, "self", "cgroup")) or ""
    mounts = _read(os.path.join(proc, "self", "mountinfo")) or ""
    out: List[Tuple[str, str]] = []
    for line in cgroups.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        version = "v2" if controllers == "" else "v1"
        if version == "v1" and "memory" not in controllers.split(","):
            continue
        for mount in mounts.splitlines():
            fields = mount.split(" - ", 1)
            if len(fields) != 2:
                continue
            left, right = fields[0].split(), fields[1].split()
            if len(left) < 5 or not right:
                continue
            root, point, fstype = left[3], left[4], right[0]
            options = right[2].split(",") if len(right) > 2 else []
            if version == "v2" and fstype != "cgroup2":
                continue
            if version == "v1" and (fstype != "cgroup" or "memory" not in options):
                continue
            if not (path == root or path.startswith(root.rstrip("/") + "/")):
                continue
            rel = path[len(root.rstrip("/")):].strip("/")
            d = point
            chain = [d]
            for part in rel.split("/") if rel else ():
                d = os.path.join(d, part)
                chain.append(d)
            out.extend((version, c) for c in reversed(chain))
            break
    return out


def _cgroup_room(proc: str) -> Optional[Tuple[int, str]]:
    """What the tightest memory cgroup of this process leaves: limit − usage."""
    best: Optional[Tuple[int, str]] = None
    for version, d in _cgroup_dirs(proc):
        if version == "v2":
            limit = _number(_read(os.path.join(d, "memory.max")))
            used = _number(_read(os.path.join(d, "memory.current")))
            name = f"the cgroup memory limit (memory.max in {d})"
        else:
            limit = _number(_read(os.path.join(d, "memory.limit_in_bytes")))
            used = _number(_read(os.path.join(d, "memory.usage_in_bytes")))
            name = f"the cgroup memory limit (memory.limit_in_bytes in {d})"
        if limit is None:
            continue
        room = max(0, limit - (used or 0))
        if best is None or room < best[0]:
            best = (room, name)
    return best


def available_memory(proc: "str | os.PathLike[str]" = "/proc") -> Optional[Tuple[int, str]]:
    r"""The bytes this process can still get, and what limits them; None when unknown.

    The smallest of: ``MemAvailable`` of ``/proc/meminfo``; limit − usage of
    each memory cgroup of the process and its ancestors (v2 ``memory.max`` /
    ``memory.current``, v1 ``memory.limit_in_bytes`` / ``memory.usage_in_bytes``;
    "no limit" is skipped); the address-space limit (``RLIMIT_AS``, ``ulimit -v``)
    less the process's current virtual size.

    Parameters
    ----------
    proc : str or path-like
        Where ``/proc`` is (tests give a folder of fake files).

    Returns
    -------
    (int, str) or None
        Bytes, and the source in words.
    """
    proc = os.fspath(proc)
    found: List[Tuple[int, str]] = []
    avail = _meminfo(proc, "MemAvailable")
    if avail is not None:
        found.append((avail, "the memory available on this machine (MemAvailable in "
                             "/proc/meminfo)"))
    room = _cgroup_room(proc)
    if room is not None:
        found.append(room)
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ValueError, OSError):  # pragma: no cover - no such limit here
        soft = resource.RLIM_INFINITY
    if soft != resource.RLIM_INFINITY and soft < _UNLIMITED:
        status = _read(os.path.join(proc, "self", "status")) or ""
        m = re.search(r"^VmSize:\s+(\d+) kB", status, re.M)
        used = int(m.group(1)) * 1024 if m else 0
        found.append((max(0, soft - used), "the address-space limit (ulimit -v)"))
    return min(found) if found else None
