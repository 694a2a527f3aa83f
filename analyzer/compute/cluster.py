"""Running chunks on a Dask cluster (``--scheduler``): ``local:N`` starts a LocalCluster of N
worker processes here; ``tcp://HOST:PORT`` connects to a running ``dask scheduler`` whose
workers have this package installed.

Each task runs a few consecutive chunks with the kernels imported from the installed package
(numba's on-disk cache means each machine compiles once; every worker loads the kernels when
it connects, before any task). Local workers run one task at a time on cores / N numba
threads, so N workers share the cores without oversubscription; workers of a ``tcp://``
cluster use their own numba setting (``NUMBA_NUM_THREADS``, by default all cores), so start
them with ``--nthreads 1``. Results come back to this process
and are added in chunk order (``analyzer.compute.runner``), so the numbers are identical to a run
without a cluster. A worker that dies has its tasks re-run by the scheduler on another;
Ctrl-C cancels the tasks in flight and keeps the chunks already finished.
"""

from __future__ import annotations

import contextlib
import copyreg
import importlib
import logging
import math
import os
from collections.abc import Iterator
from concurrent.futures import CancelledError

import numpy as np
from distributed import Client, LocalCluster, as_completed
from distributed.diagnostics.plugin import WorkerPlugin

from kernels.bidding.bidding import DEFAULT_PARAMS
from kernels.cards.bits import popcount
from kernels.cards.layout import deck_natural_ids
from kernels.hand import policies as P
from kernels.threads import max_threads, num_threads, set_threads

from ..errors import UserError
from ..game.seating import seating
from ..game.variants import VARIANT_NAMES, make_rules
from ..numbers import read_number, shown
from .engine import Match, play_game_chunk
from .query import DealQuery, run_query
from .runner import current_backend, set_backend

CONNECT_TIMEOUT = "5s"
TASKS_PER_WORKER = 8  # aim: each worker gets about this many tasks over a run
IN_FLIGHT_PER_WORKER = 3  # tasks queued per worker at a time (bounds memory, early stops)
MAX_CHUNKS_PER_TASK = 16  # keeps tasks seconds long, and early stops (--precision) cheap
SCATTER_TIMEOUT = 30  # seconds sending a query's data may take before it is sent again
SCATTER_TRIES = 3
LOST_RESENDS = 8  # times a run sends its query again after tasks lost it with a worker


def _kernel(module: str, name: str):
    """A kernel of an installed module, as loaded (and compiled) in this process."""
    return getattr(importlib.import_module(module), name)


def _reduce_kernel(dispatcher):
    # numba pickles a dispatcher by value (its Python source), so each worker would build a
    # fresh, uncompiled copy and compile it again in every task; a module-level kernel is sent
    # by name instead and found already loaded on the worker.
    module, name = dispatcher.py_func.__module__, dispatcher.py_func.__name__
    try:
        if _kernel(module, name) is dispatcher:
            return _kernel, (module, name)
    except (ImportError, AttributeError):
        pass
    return dispatcher.__reduce__()


@contextlib.contextmanager
def kernels_sent_by_name():
    """Within this block pickling (Dask's cloudpickle included) sends numba kernels by module
    and name."""
    kind = type(popcount)  # numba's dispatcher class
    before = copyreg.dispatch_table.get(kind)
    copyreg.pickle(kind, _reduce_kernel)
    try:
        yield
    finally:
        if before is None:
            copyreg.dispatch_table.pop(kind, None)
        else:
            copyreg.dispatch_table[kind] = before


def _run_group(work, group: list, threads: int | None) -> list:
    """One Dask task: the results of consecutive chunks, on ``threads`` numba threads (None:
    the worker's own setting)."""
    if threads is not None:
        set_threads(max(1, min(threads, max_threads())))  # per task thread, so every task
    return [work(first, n) for first, n in group]


def warm_up() -> str:
    """Load every kernel a query uses in this process (from numba's cache, or compiling it
    once); runs on each worker when the client connects. Returns the process's numba thread
    count, as a string for the log."""
    for variant in VARIANT_NAMES:
        rules = make_rules(variant)
        q = DealQuery(rules, np.zeros(4, dtype=np.uint64), deck_natural_ids(rules.deck),
                      np.array([rules.hand_size] * 4), np.array([0, 1, 2, 3]))
        q.add(0, 0, *seating(rules, 0), 0)
        run_query(q, 0, 0, 2)
        match = Match(np.array([[P.D_POINTS, P.P_HEURISTIC]] * 2),
                      np.tile(DEFAULT_PARAMS, (2, 1)))
        play_game_chunk(rules, match, 0, 0, 2)
    return str(num_threads())


class DaskBackend:
    """Runs ``run_chunks`` work as Dask tasks on ``client``."""

    def __init__(self, client, threads: int | None = None):
        self.client = client
        self.threads = threads

    def workers(self) -> int:
        """Workers connected now (at least 1)."""
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def _send_once(self, data):
        """``data`` placed on one worker (a future); each worker fetches it from there once,
        with the first task that needs it, and keeps its copy. Not a broadcast: Dask's
        broadcast to every worker fails when one dies during it (it was seen to wait for
        ever, to end with a closed connection, and to fail with a KeyError for the worker
        gone). A try that fails or takes ``SCATTER_TIMEOUT`` seconds is sent again."""
        for _ in range(SCATTER_TRIES):
            try:
                # scatter's own timeout bounds only the wait for workers, so the whole call
                # is bounded (``callback_timeout`` of the client's sync)
                return self.client.sync(self.client._scatter, data, broadcast=False,
                                        hash=False, timeout=SCATTER_TIMEOUT,
                                        callback_timeout=SCATTER_TIMEOUT)
            except (TimeoutError, OSError):  # OSError: CommClosedError, a refused connection
                continue
        raise UserError(f"the Dask cluster did not take the query's data in {SCATTER_TRIES} "
                        f"tries of {SCATTER_TIMEOUT} s; are its workers alive?")

    def results(self, work, chunks: list, skip) -> Iterator:
        """Each chunk's result, in chunk order (None for a skipped chunk)."""
        todo = [i for i, (first, n) in enumerate(chunks)
                if skip is None or not skip(first, n)]
        skipped = set(range(len(chunks))) - set(todo)
        workers = self.workers()
        size = max(1, min(MAX_CHUNKS_PER_TASK,
                          math.ceil(len(todo) / (workers * TASKS_PER_WORKER))))
        groups = [todo[i:i + size] for i in range(0, len(todo), size)]
        done: dict[int, object] = {}
        futures = {}
        pending = as_completed()
        next_group = 0
        # the work function (with its query's arrays) is sent once, not with every task
        work_future = self._send_once(work) if groups else None

        def submit(group):
            f = self.client.submit(_run_group, work_future, [chunks[i] for i in group],
                                   self.threads, pure=False, retries=2)
            futures[f] = group
            pending.add(f)

        def submit_more():
            nonlocal next_group
            while next_group < len(groups) and len(futures) < workers * IN_FLIGHT_PER_WORKER:
                submit(groups[next_group])
                next_group += 1

        lost = 0
        try:
            submit_more()
            for i in range(len(chunks)):
                if i in skipped:
                    yield None
                    continue
                while i not in done:
                    f = next(pending)
                    group = futures.pop(f)
                    try:
                        parts = f.result()
                    except CancelledError:
                        # a killed worker can take the scattered query with it ("lost
                        # dependencies"): send it again and run the group again
                        lost += 1
                        if lost > LOST_RESENDS:
                            raise
                        work_future = self._send_once(work)
                        submit(group)
                        continue
                    for j, part in zip(group, parts, strict=True):
                        done[j] = part
                    submit_more()
                yield done.pop(i)
        finally:
            if futures:
                self.client.cancel(list(futures))


def local_cluster(workers: int):
    """A LocalCluster of ``workers`` processes, one task and one numba thread each."""
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                        dashboard_address=None, silence_logs=logging.ERROR)


MOST_LOCAL_WORKERS = 256


def _local_workers(spec: str) -> int:
    """The N of ``local:N`` (1 to ``MOST_LOCAL_WORKERS``, ASCII digits: the one rule for
    numbers); UserError saying how to write it."""
    try:
        return read_number(spec.partition(":")[2], "N", int, 1, MOST_LOCAL_WORKERS)
    except UserError:
        raise UserError(f"--scheduler {shown(spec)}: write local:N with 1 to "
                        f"{MOST_LOCAL_WORKERS} workers, e.g. local:2") from None


@contextlib.contextmanager
def scheduler(spec: str | None):
    """Within this block every ``run_chunks`` runs on the cluster ``spec`` names (``local:N``
    or ``tcp://HOST:PORT``); ``None`` or ``""`` runs here as usual. Raises UserError for a bad
    spec or a scheduler that cannot be reached."""
    if not spec:
        yield None
        return
    if current_backend() is not None:
        raise UserError("a cluster is already in use")
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = None
    threads = None
    if spec.startswith("local:"):
        count = _local_workers(spec)
        cluster = local_cluster(count)
        client = Client(cluster)
        # the cores shared out: N workers on this machine, each task on cores / N threads
        threads = max(1, (os.cpu_count() or 1) // count)
    elif spec.startswith("tcp://"):
        try:
            client = Client(spec, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as e:
            raise UserError(f"cannot reach the Dask scheduler at {spec}: "
                            f"{str(e).splitlines()[0][:120]}") from None
    else:
        raise UserError(f"--scheduler {spec}: use local:N or tcp://HOST:PORT")
    try:
        with kernels_sent_by_name():
            client.register_plugin(_WarmUp(), name="euchre-warm-up")  # runs on every worker
            set_backend(DaskBackend(client, threads))
            yield client
    finally:
        set_backend(None)
        client.close()
        if cluster is not None:
            cluster.close()


class _WarmUp(WorkerPlugin):
    """Worker plugin: a worker that joins later (or restarts after a crash) loads the kernels
    before it takes tasks."""

    def setup(self, worker):
        """Called by Dask when the worker starts."""
        warm_up()
