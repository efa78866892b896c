"""The execution oracle: does a snippet pass its assert tests? (design §4)

Each (code, test suite) pair runs in its own sandboxed process tree with a fresh module
namespace per test (exec the code, then the test; registered in ``sys.modules`` as
``__candidate__``, so dataclasses, enums and pickling work) and a per-suite timeout. Tests
compare plain data only with plain data (see ``_sandbox_compare.py``). Outcomes per test
are ``pass``, ``fail`` (an AssertionError; detail is its message, or "AssertionError"),
``timeout`` (the test running at the deadline and every test not reached) and ``error``
("TypeName: message"; a SyntaxError in the code makes every test an error). How the
sandbox contains hostile code is described in :mod:`execretrieval.oracle.sandbox`. Results
are cached (:mod:`execretrieval.oracle.cache`) so a warm re-run executes nothing.
"""

from __future__ import annotations

import atexit
import functools
import json
import math
import os
import queue
import sys
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import CancelledError, OracleError
from .cache import Cache, ResultCache, cache_key
from .limits import Limits
from .results import SuiteResult, TestOutcome

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["Oracle", "SuiteRunner", "check_suite"]

class SuiteRunner(Protocol):
    """The seam between the Oracle and whatever executes suites."""

    def run_suite(self, code: str, tests: list[str], timeout: float, limits: Limits,
                  cancel: threading.Event | None = None) -> dict[str, Any]: ...

    def abort(self, cancel: threading.Event) -> None: ...

    def containment(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


_DEFAULT: Any = object()
_LIVE: weakref.WeakSet[Oracle] = weakref.WeakSet()


class Oracle:
    """Runs (code, tests) suites in the sandbox; thread-safe, batches use every core.

    ``cache`` defaults to the on-disk :class:`ResultCache`; pass ``cache=None`` to disable
    caching. ``workers`` (default ``os.cpu_count()``) sandbox servers are started lazily.
    """

    def __init__(self, *, timeout: float = 5.0, cache: Cache | None = _DEFAULT,
                 workers: int | None = None, limits: Limits = Limits(),
                 runner: SuiteRunner | None = None) -> None:
        if not (timeout > 0 and math.isfinite(timeout)):
            raise ValueError(f"timeout must be positive and finite, not {timeout!r}")
        self.timeout = float(timeout)
        self.limits = limits
        fields = asdict(limits)
        if not fields["wall_backstop"]:  # the wall clock: keys as before the CPU clock came
            del fields["wall_backstop"]
        self._limits_key = json.dumps(fields, sort_keys=True)  # part of every key
        self.workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
        self.cache: Cache | None = ResultCache() if cache is _DEFAULT else cache
        self._lock = threading.Lock()
        self._pool: SuiteRunner | None = runner   # the sandbox's own pool: made on first use
        self.executed = 0
        self._closed = False
        _LIVE.add(self)

    @property
    def _runner(self) -> SuiteRunner:
        """The runner; the fork-server pool (and the sandbox code) loads when first needed,
        so an Oracle that only answers from its cache never imports it."""
        if self._pool is None:
            with self._lock:
                if self._pool is None:
                    from .pool import ForkServerPool

                    self._pool = ForkServerPool(self.workers)
        return self._pool

    def prestart(self, count: int | None = None) -> None:
        """Start ``count`` (default: all ``workers``) sandbox servers now without waiting
        for them, so they set themselves up while the caller loads what it will run;
        servers otherwise start on the first suite that needs one. A runner that cannot
        start ahead ignores this."""
        start = getattr(self._runner, "prestart", None)
        if start is not None and not self._closed:
            start(self.workers if count is None else count, self.limits.hash_seed)

    # -- single suites --------------------------------------------------------------------

    def key(self, code: str, tests: Sequence[str], timeout: float | None = None) -> str:
        """The cache key of this suite under this Oracle's timeout and limits."""
        return cache_key(code, list(tests), self.timeout if timeout is None else timeout,
                         extra=self._limits_key)

    def cached(self, code: str, tests: Sequence[str]) -> SuiteResult | None:
        """The cached result of this suite, or None; never executes anything."""
        tests = check_suite(code, tests)
        return None if self.cache is None else self.cache.get(self.key(code, tests))

    def run(self, code: str, tests: Sequence[str], *, timeout: float | None = None) -> SuiteResult:
        """Run one suite (or answer from the cache). Raises OracleError if the sandbox fails."""
        return self._run(code, check_suite(code, tests), timeout, None)

    def _run(self, code: str, tests: list[str], timeout: float | None,
             cancel: threading.Event | None) -> SuiteResult:
        timeout = self.timeout if timeout is None else float(timeout)
        key = None if self.cache is None else self.key(code, tests, timeout)
        if self.cache is not None and key is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return hit
        if not tests:
            return SuiteResult(outcomes=())
        if self._closed:
            raise OracleError("this Oracle is closed")
        raw = self._runner.run_suite(code, tests, timeout, self.limits, cancel)
        return self._record(tests, raw, key)

    def _record(self, tests: list[str], raw: dict[str, Any], key: str | None) -> SuiteResult:
        """The SuiteResult of a runner's raw reply, counted and cached."""
        result = SuiteResult(
            outcomes=tuple(TestOutcome(t, o[0], o[1], o[2] if len(o) > 2 else "")
                           for t, o in zip(tests, raw["outcomes"], strict=True)),
            setup_output=raw.get("setup_output", ""), duration=float(raw.get("duration", 0.0)))
        with self._lock:
            self.executed += 1
        if self.cache is not None and key is not None:
            self.cache.put(key, result)
        return result

    # -- batches --------------------------------------------------------------------------

    def run_many(self, jobs: Sequence[tuple[str, Sequence[str]]], *,
                 progress: Callable[[int, int], None] | None = None,
                 should_stop: Callable[[], bool] | None = None) -> list[SuiteResult]:
        """Run many suites on all workers, in order of ``jobs``.

        ``progress(done, total)`` and ``should_stop()`` are called from the calling thread;
        once ``should_stop()`` is true the running suites are killed and CancelledError is
        raised.
        """
        checked = [(code, check_suite(code, tests)) for code, tests in jobs]
        if getattr(self._runner, "run_batch", None) is not None:
            return self._run_batch(checked, progress, should_stop)
        # a runner without batches (a distributed one): a thread each, on first use (the
        # module pulls in logging: ~10 ms of a one-suite command that never needs it)
        from concurrent.futures import ThreadPoolExecutor

        total = len(checked)
        results: list[SuiteResult | None] = [None] * total
        cancel = threading.Event()
        finished: queue.SimpleQueue[int] = queue.SimpleQueue()
        done = 0
        with ThreadPoolExecutor(max_workers=self.workers,
                                thread_name_prefix="execretrieval-oracle") as pool:
            futures: list[Future[SuiteResult]] = []
            for i, (code, tests) in enumerate(checked):
                future = pool.submit(self._run, code, tests, None, cancel)
                future.add_done_callback(functools.partial(_report_done, finished, i))
                futures.append(future)
            try:
                while done < total:
                    if should_stop is not None and should_stop():
                        raise CancelledError("the batch was cancelled")
                    try:
                        index = finished.get(timeout=0.05)
                    except queue.Empty:
                        continue
                    results[index] = futures[index].result()
                    done += 1
                    if progress is not None:
                        progress(done, total)
            except BaseException:
                cancel.set()
                for future in futures:
                    future.cancel()
                self._runner.abort(cancel)
                raise
        if progress is not None and total == 0:
            progress(0, 0)
        return [r for r in results if r is not None]

    def _run_batch(self, checked: list[tuple[str, list[str]]],
                   progress: Callable[[int, int], None] | None,
                   should_stop: Callable[[], bool] | None) -> list[SuiteResult]:
        """``run_many`` on a runner that takes a whole batch (ForkServerPool.run_batch): the
        cache is asked here, the rest runs on the runner's own threads, one per server."""
        total = len(checked)
        results: list[SuiteResult | None] = [None] * total
        keys: list[str | None] = [None] * total
        todo: list[int] = []
        for i, (code, tests) in enumerate(checked):
            if self.cache is not None:
                keys[i] = self.key(code, tests)
                results[i] = self.cache.get(keys[i])  # type: ignore[arg-type]
            if results[i] is None and not tests:
                results[i] = SuiteResult(outcomes=())
            if results[i] is None:
                todo.append(i)
        done = total - len(todo)
        if progress is not None and (done or not total):
            progress(done, total)
        if not todo:
            return [r for r in results if r is not None]
        if self._closed:
            raise OracleError("this Oracle is closed")
        cancel = threading.Event()
        finished: queue.SimpleQueue[tuple[int, SuiteResult | BaseException | None]] = \
            queue.SimpleQueue()
        # Without progress or should_stop the calling thread has nothing to do per suite:
        # the servers' threads store each result and wake it once, after the last (a wake-up
        # per suite cost the host a thread switch and a GIL hand-over each)
        quiet = progress is None and should_stop is None
        left, counting = [len(todo)], threading.Lock()

        def ended(n: int, raw: dict[str, Any] | BaseException) -> None:
            if n < 0 or isinstance(raw, BaseException):
                finished.put((n, raw if isinstance(raw, BaseException) else OracleError("?")))
                return
            i = todo[n]
            try:
                outcome = self._record(checked[i][1], raw, keys[i])
            except BaseException as exc:  # noqa: BLE001 - raised in the caller's thread
                finished.put((i, exc))
                return
            if not quiet:
                finished.put((i, outcome))
                return
            results[i] = outcome
            with counting:
                left[0] -= 1
                last = left[0] == 0
            if last:
                finished.put((-2, None))  # every result is in ``results``

        threads = self._runner.run_batch(  # type: ignore[attr-defined]
            [checked[i] for i in todo], self.timeout, self.limits, cancel, ended)
        try:
            while done < total:
                if should_stop is not None and should_stop():
                    raise CancelledError("the batch was cancelled")
                try:
                    index, outcome = finished.get(timeout=0.05)
                except queue.Empty:
                    continue
                if isinstance(outcome, BaseException):
                    raise outcome
                if index == -2:
                    break
                results[index] = outcome
                done += 1
                if progress is not None:
                    progress(done, total)
        except BaseException:
            cancel.set()
            self._runner.abort(cancel)
            raise
        finally:
            for thread in threads:
                thread.join()
        return [r for r in results if r is not None]

    # -- environment and life cycle -------------------------------------------------------

    def containment(self) -> dict[str, bool | str]:
        """Which containment measures are active on this machine (for report fingerprints)."""
        info: dict[str, bool | str] = dict(self._runner.containment())
        limits = ["memory", "cpu_time", "file_size", "no_core_dumps"]
        if info.get("unprivileged_uid") or (hasattr(os, "geteuid") and os.geteuid() != 0):
            limits.append("processes")  # RLIMIT_NPROC does not bind root
        info.update(rlimits=",".join(limits),
                    process_cleanup="pid_namespace" if info.get("pid_namespace")
                    else "uid_kill" if info.get("unprivileged_uid") else "process_group",
                    result_channel="MAC-authenticated (key sealed in an audit hook), "
                                   "audit-hook guard, runner-held exec and plain-data "
                                   "equality",
                    output_capture=f"truncated to {self.limits.output_chars} chars",
                    platform=sys.platform, kernel=os.uname().release,
                    python=sys.version.split()[0])
        return info

    def close(self) -> None:
        """Stop every sandbox server; the Oracle cannot run suites afterwards."""
        self._closed = True
        if self._pool is not None:
            self._pool.close()
        if isinstance(self.cache, ResultCache):
            self.cache.close()

    def __enter__(self) -> Oracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _report_done(finished: queue.SimpleQueue[int], index: int, _future: Future[Any]) -> None:
    finished.put(index)


def check_suite(code: str, tests: Sequence[str]) -> list[str]:
    """A suite's tests as a list, or TypeError if ``code`` is not a str or ``tests`` is not
    a sequence of str (shared by every oracle's ``run_many``)."""
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, not {type(code).__name__}")
    if isinstance(tests, str) or not all(isinstance(t, str) for t in tests):
        raise TypeError("tests must be a sequence of str")
    return list(tests)


@atexit.register
def _close_all() -> None:
    for oracle in list(_LIVE):
        try:
            oracle.close()
        except Exception:  # noqa: BLE001 - best effort at interpreter exit
            pass

