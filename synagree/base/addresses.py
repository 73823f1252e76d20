"""Dask scheduler addresses: the syntax ``--dask ADDR`` accepts.

Kept apart from `synagree.distance.dask_exec` (which needs numpy and the
kernels) so that a command's options can check an address at once, before
anything heavy is imported.
"""
from __future__ import annotations

import re

__all__ = ["SCHEMES", "check_address"]

SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
"""The network schemes of Dask scheduler addresses (``inproc`` is in-process only)."""

_ADDRESS = re.compile(r"(?P<scheme>[a-z]+)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)"
                      r":(?P<port>[0-9]{1,5})")


def check_address(address: str) -> str:
    """``address`` if it is a Dask scheduler address
    `synagree.distance.dask_exec.dask_executor` accepts.

    ``local`` (a cluster on this machine) or ``SCHEME://HOST:PORT`` with a scheme
    of `SCHEMES`, a host name, IPv4 address or bracketed IPv6 address, and a
    port from 1 to 65535.

    Raises
    ------
    ValueError
        Anything else, with what is wrong.
    """
    if address == "local":
        return address
    form = f"must be 'local' or tcp://HOST:PORT (also {', '.join(SCHEMES[1:])}), "
    m = _ADDRESS.fullmatch(address)
    if not m or m.group("scheme") not in SCHEMES:
        raise ValueError(form + f"got {address!r}")
    port = int(m.group("port"))
    if not 1 <= port <= 65535:
        raise ValueError(form + f"with a port from 1 to 65535, got {address!r}")
    return address
