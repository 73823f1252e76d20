"""Run the long passes on a Dask cluster (optional extra).

``pip install 'synagree[dask]'``.  Two kinds of work go to the workers:

* the all-pairs TED passes: the pair space is tiled into blocks of units
  (`synagree.distance.sums.tiles`); each tile pair is one task running the
  compiled kernel on a worker; the driver reduces the results in the fixed
  tile order, so the sums are bit-identical to a local run;
* independent jobs (the runs of a noise experiment): one task per job, the
  results taken in submission order (`DaskExecutor.map`).

The packed trees (or the shared state of the jobs) are scattered to every
worker once per pass.

On an HPC cluster, start a scheduler with dask-jobqueue and pass its
address, e.g. with SLURM::

    from dask_jobqueue import SLURMCluster
    cluster = SLURMCluster(cores=8, memory="16GB", walltime="01:00:00")
    cluster.scale(jobs=10)
    print(cluster.scheduler_address)   # tcp://10.0.0.5:8786

    synagree agree A.conllu B.conllu --dask tcp://10.0.0.5:8786
"""
from __future__ import annotations

from collections import deque
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Optional, Protocol, TypeVar

from synagree.base.addresses import SCHEMES, check_address
from synagree.base.problems import InputError
from synagree.distance.sums import run_tile

#: runs the tiles of `synagree.distance.sums.unit_sums` elsewhere: ``run(ut, costs, spans, want_s)``
Executor = Callable[..., Any]

__all__ = ["DaskExecutor", "Executor", "JobMap", "SCHEMES", "check_address", "dask_executor"]

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")


class JobMap(Protocol):
    """Runs independent jobs elsewhere, results in order (`DaskExecutor.map`)."""

    def map(self, fn: Callable[[S, T], R], shared: S, items: Iterable[T]) -> Iterator[R]:
        """``fn(shared, item)`` per item, in item order."""
        ...

#: futures in flight at once in `DaskExecutor.map`, per worker thread
MAP_WINDOW_PER_THREAD = 8


def _require_dask():
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on environment
        raise InputError.single("<command line>", None, "missing-extra",
                                "--dask needs the optional dependency: "
                                "pip install 'synagree[dask]'") from exc
    return Client, LocalCluster


class DaskExecutor:
    """An executor on a Dask client: the tiles of a TED pass, or independent jobs.

    Calling it runs tiles (the ``executor`` of `synagree.distance.sums.unit_sums`
    and `synagree.stats.alpha.tree_alpha`); `map` runs jobs.  Results come back
    in submission order, so every reduction is done in the order of a local run
    and the numbers are bit-identical to it.

    Parameters
    ----------
    client : distributed.Client
        A connected client.

    Attributes
    ----------
    tasks : int
        Tasks submitted so far (tiles and jobs).
    """

    def __init__(self, client: Any):
        self.client = client
        self.tasks = 0
        self.closed = False

    def _open_client(self) -> Any:
        if self.closed:
            raise RuntimeError("the Dask executor is closed (its `with dask_executor(...)` "
                               "block has ended): run the passes inside the block")
        return self.client

    def __call__(self, ut: Any, costs: Any, spans: Iterable, want_s: bool) -> Iterator:
        """Run the tile pairs ``spans`` (`synagree.distance.sums.run_tile`), in order."""
        client = self._open_client()
        ut_f = client.scatter(ut, broadcast=True)
        futures = [client.submit(run_tile, ut_f, costs, sp, want_s, pure=False)
                   for sp in spans]
        self.tasks += len(futures)
        for f in futures:  # in span order: the reduction order stays fixed
            yield f.result()
            f.release()

    def map(self, fn: Callable[[S, T], R], shared: S, items: Iterable[T]) -> Iterator[R]:
        """``fn(shared, item)`` for every item, one task each, results in item order.

        ``shared`` is sent to every worker once.  At most
        `MAP_WINDOW_PER_THREAD` tasks per worker thread are in flight, so a
        consumer that stops early (or a long list of jobs) leaves little work
        queued; the results are yielded as soon as each, in order, is done.
        """
        client = self._open_client()
        shared_f = client.scatter(shared, broadcast=True)
        threads = sum(client.nthreads().values()) or 1
        window = max(2, MAP_WINDOW_PER_THREAD * threads)
        pending: deque = deque()
        it = iter(items)

        def submit_one() -> bool:
            item = next(it, _END)
            if item is _END:
                return False
            pending.append(client.submit(fn, shared_f, item, pure=False))
            self.tasks += 1
            return True

        try:
            while len(pending) < window and submit_one():
                pass
            while pending:
                f = pending.popleft()
                yield f.result()
                f.release()
                submit_one()
        finally:  # stopped early: cancel what is still queued
            if pending:
                client.cancel(list(pending))


_END = object()


@contextmanager
def dask_executor(address: str = "local",
                  n_workers: Optional[int] = None) -> Iterator[DaskExecutor]:
    """Context manager yielding a `DaskExecutor` on a cluster.

    Each tile pair (or job) becomes one Dask task; the results are taken in
    submission order, so the reduction order (and the sums, bit for bit) is
    that of a local run.

    Parameters
    ----------
    address : str
        ``"local"`` (a LocalCluster of worker processes on this machine) or a
        scheduler address such as ``tcp://host:8786``.
    n_workers : int, optional
        Workers of the local cluster (default 2); ignored with an address.

    Yields
    ------
    DaskExecutor
        Call it as the executor of `synagree.distance.sums.unit_sums`
        (``run(ut, costs, spans, want_s)``); `DaskExecutor.map` runs jobs.

    Raises
    ------
    InputError
        A malformed address (``usage``, `check_address`), Dask is not installed
        (``missing-extra``) or the scheduler cannot be reached (``dask-connect``).
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
    ex = DaskExecutor(client)
    try:
        yield ex
    finally:
        ex.closed = True
        client.close()
        if cluster is not None:
            cluster.close()
