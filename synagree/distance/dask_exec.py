"""Run the tiles of the all-pairs computation on a Dask cluster (optional extra).

``pip install 'synagree[dask]'``.  The pair space is tiled into blocks of
units (`synagree.distance.sums.tiles`); each tile pair is one task running
the compiled kernel on a worker; the driver reduces the results in the fixed
tile order, so the sums are bit-identical to a local run.

On an HPC cluster, start a scheduler with dask-jobqueue and pass its
address, e.g. with SLURM::

    from dask_jobqueue import SLURMCluster
    cluster = SLURMCluster(cores=8, memory="16GB", walltime="01:00:00")
    cluster.scale(jobs=10)
    print(cluster.scheduler_address)   # tcp://10.0.0.5:8786

    synagree agree A.conllu B.conllu --dask tcp://10.0.0.5:8786
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

from synagree.base.problems import InputError
from synagree.distance.sums import run_tile

#: runs the tiles of `synagree.distance.sums.unit_sums` elsewhere: ``run(ut, costs, spans, want_s)``
Executor = Callable[..., Any]

SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
"""The network schemes of Dask scheduler addresses (``inproc`` is in-process only)."""

_ADDRESS = re.compile(r"(?P<scheme>[a-z]+)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)"
                      r":(?P<port>[0-9]{1,5})")


def check_address(address: str) -> str:
    """``address`` if it is a Dask scheduler address `dask_executor` accepts.

    ``local`` (a cluster on this machine) or ``SCHEME://HOST:PORT`` with a scheme
    of `SCHEMES`, a host name, IPv4 address or bracketed IPv6 address, and a
    port from 1 to 65535.

    Parameters
    ----------
    address : str

    Returns
    -------
    str

    Raises
    ------
    ValueError
        Anything else, with what is wrong.

    Examples
    --------
    >>> check_address("tcp://10.0.0.5:8786"), check_address("local")
    ('tcp://10.0.0.5:8786', 'local')
    >>> try:
    ...     check_address("http://x")
    ... except ValueError as exc:
    ...     print(exc)
    must be 'local' or tcp://HOST:PORT (also tls, ws, wss, ucx), got 'http://x'
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


def _require_dask():
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on environment
        raise InputError.single("<command line>", None, "missing-extra",
                                "--dask needs the optional dependency: "
                                "pip install 'synagree[dask]'") from exc
    return Client, LocalCluster


@contextmanager
def dask_executor(address: str = "local", n_workers: Optional[int] = None) -> Iterator:
    """Context manager yielding an executor for `synagree.distance.sums.unit_sums`.

    Each tile pair becomes one Dask task; the results are taken in span order,
    so the reduction order (and the sums, bit for bit) is that of a local run.

    Parameters
    ----------
    address : str
        ``"local"`` (a LocalCluster of worker processes on this machine) or a
        scheduler address such as ``tcp://host:8786``.
    n_workers : int, optional
        Workers of the local cluster (default 2); ignored with an address.

    Yields
    ------
    callable
        ``run(ut, costs, spans, want_s)``, the executor.

    Raises
    ------
    InputError
        A malformed address (``usage``, `check_address`), Dask is not installed
        (``missing-extra``) or the scheduler cannot be reached (``dask-connect``).

    Examples
    --------
    Not run here: it starts a cluster of worker processes.

    >>> from synagree.distance.sums import UnitTrees, unit_sums
    >>> with dask_executor("local", n_workers=2) as run:  # doctest: +SKIP
    ...     sums = unit_sums(UnitTrees.build(units), executor=run)
    """
    try:
        check_address(address)
    except ValueError as exc:
        raise InputError.single("<command line>", None, "usage", f"--dask {exc}") from None
    Client, LocalCluster = _require_dask()
    cluster = None
    if address == "local":
        # one thread per worker, and its kernels on that one thread: the
        # workers are the parallelism (two levels would oversubscribe the cores)
        cluster = LocalCluster(n_workers=n_workers or 2, threads_per_worker=1,
                               processes=True, dashboard_address=None,
                               env={"SYNAGREE_THREADS": "1", "NUMBA_NUM_THREADS": "1"})
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout="20s")
        except (OSError, ValueError) as exc:  # refused, timed out, a scheme not built in
            raise InputError.single("<command line>", None, "dask-connect",
                                    f"cannot reach the Dask scheduler at {address}: {exc}")

    def run(ut, costs, spans, want_s):
        ut_f = client.scatter(ut, broadcast=True)
        futures = [client.submit(run_tile, ut_f, costs, sp, want_s, pure=False)
                   for sp in spans]
        for f in futures:  # in span order: the reduction order stays fixed
            yield f.result()

    try:
        yield run
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
