"""Execution sweeps on a Dask cluster: the same sandboxed oracle, on many machines (issue 14).

:class:`DaskOracle` is a drop-in for :class:`~execretrieval.oracle.execution.Oracle` where
suites are batch work (``run_many``, ``run``, ``cached``, ``key``, ``containment``,
``close``): validation, builds and evaluations take it without knowing. Its ``run_many``

1. looks every suite up in the *local* result cache (the one a local run uses, keyed the
   same way) and keeps only the misses, each distinct suite once;
2. ships the misses in batches to the Dask workers; each worker process creates one
   ordinary, sandboxed :class:`Oracle` lazily (without a cache: the client owns it) and
   runs its batch with it, using as many sandbox servers as the worker has threads;
3. stores what comes back in the local cache and returns results in job order.

So a Dask run gives the same outcomes as a local run, fills the same cache, and a warm
re-run (local or distributed) ships nothing. Cancelling (``should_stop``) cancels the
pending batches and sets a cluster-wide event the running batches poll, so their suites are
killed too.

``dask[distributed]`` is an optional extra (``pip install 'execretrieval-inspector[distributed]'``)
and every worker needs this project installed in the same version: a worker imports
``execretrieval.oracle.distributed`` to run a batch. ``address`` is ``"local"`` (a
``LocalCluster`` of worker processes on this machine) or a scheduler address such as
``tcp://10.0.0.5:8786`` (dask-jobqueue, dask-kubernetes or ``dask scheduler`` /
``dask worker`` by hand).
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from ..errors import CancelledError, OracleError
from .cache import Cache
from .execution import Oracle, check_suite
from .limits import Limits
from .results import SuiteResult

__all__ = ["DaskConnection", "DaskOracle"]

_DEFAULT: Any = object()


class DaskConnection:
    """A Dask client, and the local cluster behind it when ``address`` is ``"local"``.

    Several :class:`DaskOracle` (say, one per timeout) can share one connection; whoever
    created it closes it.
    """

    def __init__(self, address: str = "local", *, n_workers: int | None = None,
                 threads_per_worker: int = 1, connect_timeout: float = 30.0) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:
            raise OracleError("--dask needs the distributed extra: pip install "
                              "'execretrieval-inspector[distributed]'") from exc
        self.address = address
        self._cluster: Any = None
        try:
            if address == "local":
                self._cluster = LocalCluster(
                    n_workers=n_workers or os.cpu_count() or 1,
                    threads_per_worker=threads_per_worker, processes=True,
                    dashboard_address=None, silence_logs=logging.ERROR)
                self.client: Any = Client(self._cluster, set_as_default=False)
            else:
                self.client = Client(address, timeout=connect_timeout, set_as_default=False)
        except OSError as exc:
            self.close()
            raise OracleError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc

    @property
    def workers(self) -> dict[str, int]:
        """Worker address -> threads, as the scheduler knows them now."""
        info = self.client.scheduler_info(n_workers=-1)["workers"]
        return {addr: int(w.get("nthreads", 1)) for addr, w in info.items()}

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    def __enter__(self) -> DaskConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- worker side -------------------------------------------------------------------------

_WORKER_ORACLES: dict[str, Oracle] = {}
_WORKER_LOCK = threading.Lock()


def _worker_oracle(timeout: float, limits: dict[str, Any]) -> Oracle:
    """This worker process's Oracle for these settings, created on first use."""
    slots = 1
    try:
        from distributed import get_worker

        slots = max(1, int(get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):
        slots = 1
    key = json.dumps([timeout, limits], sort_keys=True)
    with _WORKER_LOCK:
        oracle = _WORKER_ORACLES.get(key)
        if oracle is None:
            oracle = _WORKER_ORACLES[key] = Oracle(timeout=timeout, cache=None, workers=slots,
                                                   limits=Limits(**limits))
        return oracle


def _stop_event(name: str | None) -> Callable[[], bool] | None:
    if name is None:
        return None
    from distributed import Event

    event = Event(name)
    last = [0.0, False]

    def should_stop() -> bool:  # ask the scheduler at most twice a second
        now = time.monotonic()
        if now - last[0] > 0.5:
            last[0], last[1] = now, bool(event.is_set())
        return bool(last[1])

    return should_stop


def run_batch(batch: list[tuple[str, list[str]]], timeout: float, limits: dict[str, Any],
              stop_event: str | None = None) -> list[SuiteResult]:
    """Run one batch of suites in this (worker) process's sandboxed Oracle."""
    oracle = _worker_oracle(timeout, limits)
    return oracle.run_many(batch, should_stop=_stop_event(stop_event))


def worker_containment(timeout: float, limits: dict[str, Any]) -> dict[str, Any]:
    """The containment a worker's Oracle has active (for report fingerprints)."""
    return dict(_worker_oracle(timeout, limits).containment())


# -- client side -------------------------------------------------------------------------

class DaskOracle:
    """An Oracle whose batches run on Dask workers; results and cache as a local run's.

    ``connection`` is a :class:`DaskConnection` (shared, not closed here) or an address
    (``"local"`` or a scheduler address; the connection is then owned and closed with this
    oracle). ``cache`` defaults to the local on-disk result cache, ``None`` disables it.
    ``batch_size`` defaults to about four batches per worker thread, at most 64 suites.
    """

    def __init__(self, connection: DaskConnection | str = "local", *, timeout: float = 5.0,
                 cache: Cache | None = _DEFAULT, limits: Limits = Limits(),
                 batch_size: int | None = None, n_workers: int | None = None) -> None:
        options: dict[str, Any] = {} if cache is _DEFAULT else {"cache": cache}
        # Keys, cache reads and writes go through an ordinary Oracle that never runs code.
        self._local = Oracle(timeout=timeout, limits=limits, workers=1, **options)
        self.timeout = self._local.timeout
        self.limits = limits
        self.cache = self._local.cache
        self.batch_size = batch_size
        self.executed = 0
        if isinstance(connection, DaskConnection):
            self.connection, self._owned = connection, False
        else:
            self.connection = DaskConnection(connection, n_workers=n_workers)
            self._owned = True
        self._limits = asdict(limits)

    @property
    def workers(self) -> int:
        """Worker threads in the cluster now (each runs one sandbox server)."""
        return max(1, sum(self.connection.workers.values()))

    def key(self, code: str, tests: Sequence[str], timeout: float | None = None) -> str:
        """The cache key of a suite, the same as a local Oracle's."""
        return self._local.key(code, tests, timeout)

    def cached(self, code: str, tests: Sequence[str]) -> SuiteResult | None:
        return self._local.cached(code, tests)

    def run(self, code: str, tests: Sequence[str]) -> SuiteResult:
        """Run one suite on the cluster (or answer from the cache)."""
        return self.run_many([(code, tests)])[0]

    def run_many(self, jobs: Sequence[tuple[str, Sequence[str]]], *,
                 progress: Callable[[int, int], None] | None = None,
                 should_stop: Callable[[], bool] | None = None) -> list[SuiteResult]:
        """Run many suites, cached ones locally and the rest on the workers, in job order."""
        checked = [(code, check_suite(code, tests)) for code, tests in jobs]
        total = len(checked)
        results: list[SuiteResult | None] = [None] * total
        misses: dict[str, list[int]] = {}
        for i, (code, tests) in enumerate(checked):
            key = self.key(code, tests)
            hit = self.cache.get(key) if self.cache is not None else None
            if hit is not None:
                results[i] = hit
            elif not tests:
                results[i] = SuiteResult(outcomes=())
            else:
                misses.setdefault(key, []).append(i)
        done = total - sum(len(v) for v in misses.values())
        if progress is not None:
            progress(done, total)
        if misses:
            self._ship(checked, misses, results, done, total, progress, should_stop)
        return [r for r in results if r is not None]

    def _ship(self, checked: list[tuple[str, list[str]]], misses: dict[str, list[int]],
              results: list[SuiteResult | None], done: int, total: int,
              progress: Callable[[int, int], None] | None,
              should_stop: Callable[[], bool] | None) -> None:
        from distributed import Event

        keys = list(misses)
        size = self.batch_size or max(1, min(64, math.ceil(len(keys) / (4 * self.workers))))
        batches = [keys[i:i + size] for i in range(0, len(keys), size)]
        client = self.connection.client
        event_name = f"execretrieval-stop-{uuid.uuid4().hex}"
        futures = {client.submit(run_batch, [checked[misses[k][0]] for k in batch],
                                 self.timeout, self._limits, event_name, pure=False): batch
                   for batch in batches}
        pending = set(futures)
        try:
            while pending:
                if should_stop is not None and should_stop():
                    raise CancelledError("the batch was cancelled")
                finished = [f for f in pending if f.done()]
                if not finished:
                    time.sleep(0.05)
                    continue
                for future in finished:
                    pending.discard(future)
                    batch_results = self._result(future)
                    for key, result in zip(futures[future], batch_results, strict=True):
                        if self.cache is not None:
                            self.cache.put(key, result)
                        self.executed += 1
                        for index in misses[key]:
                            results[index] = result
                        done += len(misses[key])
                    if progress is not None:
                        progress(done, total)
        except BaseException:
            Event(event_name, client=client).set()
            client.cancel(list(pending))
            raise

    @staticmethod
    def _result(future: Any) -> list[SuiteResult]:
        try:
            return list(future.result())
        except (OracleError, CancelledError):
            raise
        except Exception as exc:  # a worker died, lost its connection, ...
            raise OracleError(f"a Dask worker failed running a batch: "
                              f"{type(exc).__name__}: {exc}") from exc

    def containment(self) -> dict[str, Any]:
        """A worker's containment, plus where the work ran."""
        client = self.connection.client
        info = dict(client.submit(worker_containment, self.timeout, self._limits,
                                  pure=False).result())
        info.update(dask_scheduler=str(client.scheduler.address),
                    dask_workers=len(self.connection.workers),
                    dask_threads=self.workers)
        return info

    def close(self) -> None:
        self._local.close()
        if self._owned:
            self.connection.close()

    def __enter__(self) -> DaskOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
