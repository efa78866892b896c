"""The fork servers of an Oracle: up to one per worker, started on demand and kept busy.

:class:`ForkServerPool` lends :class:`~execretrieval.oracle.sandbox.ForkServer` processes
to the Oracle's threads (a suite at a time each, or ``depth`` queued on one) and runs whole
batches with one thread per server (:meth:`ForkServerPool.run_batch`). How a server contains
what it runs is described in :mod:`execretrieval.oracle.sandbox`.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import CancelledError, OracleError
from .sandbox import ForkServer

if TYPE_CHECKING:
    from .limits import Limits

__all__ = ["ForkServerPool"]


class ForkServerPool:
    """Up to ``size`` fork servers, started on demand, each lent to up to ``depth`` threads.

    A server's interpreter has one hash seed for life, so servers are kept per
    ``Limits.hash_seed``: a suite runs on an idle server of its seed, else on a newly started
    one, else (every slot taken) it queues behind the suite a busy server of its seed is
    running, up to ``depth`` suites per server; when all ``size`` slots are taken by idle
    servers of other seeds, one of those is stopped to make room. Queueing one suite ahead
    means a server starts the next suite as soon as it has sent a reply instead of waiting
    for the host to read it and send the next (~0.1-0.2 ms a suite, in which its CPU had
    nothing to do); the Oracle runs ``size * depth`` threads for it. This is the Oracle's
    default :class:`~execretrieval.oracle.execution.SuiteRunner`.
    """

    depth = 2

    def __init__(self, size: int, *, isolate: bool = True) -> None:
        self.size = size
        self._isolate = isolate
        self._cond = threading.Condition()
        self._idle: list[ForkServer] = []
        # busy server -> the cancel event of each suite it holds (running or queued)
        self._busy: dict[ForkServer, list[threading.Event | None]] = {}
        self._starting = 0
        self._slots = list(range(size - 1, -1, -1))  # server index: its CPU and its uid
        self._closed = False
        self._containment: dict[str, Any] | None = None

    def _acquire(self, hash_seed: int = 0, cancel: threading.Event | None = None) -> ForkServer:
        """A server of ``hash_seed`` for one suite, registered as busy with ``cancel``."""
        evicted: ForkServer | None = None
        with self._cond:
            while True:
                if self._closed:
                    raise OracleError("the sandbox pool is closed")
                for i in range(len(self._idle) - 1, -1, -1):
                    if self._idle[i].hash_seed == hash_seed:
                        server = self._idle.pop(i)
                        self._busy[server] = [cancel]
                        return server
                if len(self._busy) + self._starting < self.size and self._slots:
                    self._starting += 1
                    slot = self._slots.pop()
                    break
                shared = [s for s, held in self._busy.items() if s.hash_seed == hash_seed
                          and len(held) < self.depth and s.alive]
                if shared:  # queue behind the suite of the least loaded one
                    server = min(shared, key=lambda s: len(self._busy[s]))
                    self._busy[server].append(cancel)
                    return server
                if self._idle:  # every slot is held, some by idle servers of another seed
                    evicted = self._idle.pop(0)
                    self._starting += 1
                    slot = evicted.index
                    break
                self._cond.wait()
        if evicted is not None:
            evicted.close()
        try:
            server = ForkServer(slot, isolate=self._isolate, hash_seed=hash_seed)
        except BaseException:
            with self._cond:
                self._slots.append(slot)
                self._starting -= 1
                self._cond.notify()
            raise
        with self._cond:
            self._starting -= 1
            self._busy[server] = [cancel]
            self._cond.notify_all()  # others may queue behind it now
        return server

    def prestart(self, count: int = 1, hash_seed: int = 0) -> int:
        """Start up to ``count`` servers of ``hash_seed`` now, without waiting for them:
        they set themselves up while the caller loads its data, and the first suites run
        on them. Returns how many were started (none once every slot is taken)."""
        started = 0
        while started < count:
            with self._cond:
                if self._closed or not self._slots or \
                        len(self._busy) + len(self._idle) + self._starting >= self.size:
                    return started
                slot = self._slots.pop()
            try:
                server = ForkServer(slot, isolate=self._isolate, hash_seed=hash_seed,
                                    wait=False)
            except BaseException:
                with self._cond:
                    self._slots.append(slot)
                raise
            with self._cond:
                self._idle.append(server)
                self._cond.notify()
            started += 1
        return started

    def run_suite(self, code: str, tests: list[str], timeout: float, limits: Limits,
                  cancel: threading.Event | None = None) -> dict[str, Any]:
        """Run one suite on a free server of ``limits.hash_seed``; retry once on a fresh
        server if one died."""
        for attempt in (1, 2):
            server = self._acquire(limits.hash_seed, cancel)
            try:
                if cancel is not None and cancel.is_set():
                    raise CancelledError("the batch was cancelled")
                return server.run(code, tests, timeout, limits)
            except OracleError:
                if (cancel is not None and cancel.is_set()) or attempt == 2:
                    raise
            finally:
                self._release(server, cancel)
        raise OracleError("unreachable")  # pragma: no cover

    def run_batch(self, jobs: Sequence[tuple[str, list[str]]], timeout: float, limits: Limits,
                  cancel: threading.Event,
                  done: Callable[[int, dict[str, Any] | BaseException], None],
                  ) -> list[threading.Thread]:
        """Start running ``jobs``: one thread per server (up to ``size``), each keeping
        ``depth`` suites queued on its server, so the server never waits for the host and
        the host needs no thread per suite in flight. ``done(index, raw result)`` is called
        from those threads as each suite ends, ``done(index, OracleError)`` for a suite that
        found its server dead twice (each try on a fresh server), ``done(-1, error)`` if a
        thread could not go on (no server would start). Once ``cancel`` is set the threads
        stop taking suites; ``abort(cancel)`` ends the ones running. Returns the threads."""
        # Suites with the same tests (a query's canonical and distractors) go to one server,
        # one after another: the server compiles their tests once (its compile cache) where
        # two servers taking turns would each compile them. A thread takes a whole group;
        # once none is left, an idle thread takes the back half of another's group.
        groups: dict[tuple[str, ...], collections.deque[int]] = {}
        for index, (_, tests) in enumerate(jobs):
            groups.setdefault(tuple(tests), collections.deque()).append(index)
        pending = collections.deque(groups.values())
        held: list[collections.deque[int]] = []  # the groups threads are working through
        tries = [0] * len(jobs)
        lock = threading.Lock()

        def take(mine: list[collections.deque[int]]) -> int | None:
            with lock:
                if cancel.is_set():
                    return None
                group = mine[0] if mine else None
                if not group:
                    if group is not None:
                        held.remove(group)
                        mine.clear()
                    if pending:
                        group = pending.popleft()
                    else:  # steal the back half of the largest group another thread holds
                        other = max(held, key=len, default=None)
                        if other is None or len(other) < 2:
                            return None
                        group = collections.deque(
                            other.pop() for _ in range(len(other) // 2))
                        group.reverse()
                    held.append(group)
                    mine[:] = [group]
                return group.popleft()

        def lost(index: int, exc: OracleError) -> None:
            if cancel.is_set():
                return  # the batch is given up: nobody waits for this suite
            tries[index] += 1
            if tries[index] >= 2:
                done(index, exc)
            else:
                with lock:
                    pending.appendleft(collections.deque([index]))

        def drive() -> None:
            server: ForkServer | None = None
            queued: collections.deque[tuple[int, int]] = collections.deque()  # index, ticket
            mine: list[collections.deque[int]] = []  # the group this thread works through
            try:
                while True:
                    if server is None:
                        with lock:
                            if cancel.is_set() or not (pending or any(held)):
                                return
                        server = self._acquire(limits.hash_seed, cancel)
                    gone = None
                    while len(queued) < self.depth:
                        index = take(mine)
                        if index is None:
                            break
                        try:
                            code, tests = jobs[index]
                            queued.append((index, server.submit(code, tests, timeout, limits)))
                        except OracleError as exc:
                            gone = exc
                            lost(index, exc)
                            break
                    if queued:
                        index, ticket = queued[0]
                        try:
                            raw = server.result(ticket)
                        except OracleError as exc:
                            gone = exc
                        else:
                            queued.popleft()
                            done(index, raw)
                            continue
                    if gone is None:  # nothing left to take
                        return
                    for index, _ in queued:  # the server died: each suite tries once more
                        lost(index, gone)
                    queued.clear()
                    self._release(server, cancel)
                    server = None
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
                done(-1, exc)
            finally:
                if server is not None:
                    self._release(server, cancel)

        threads = [threading.Thread(target=drive, name=f"execretrieval-oracle-{n}", daemon=True)
                   for n in range(min(self.size, len(jobs)))]
        for thread in threads:
            thread.start()
        return threads

    def _release(self, server: ForkServer, cancel: threading.Event | None = None) -> None:
        """One suite of ``server`` is over; the last one out parks or stops it."""
        with self._cond:
            held = self._busy.get(server, [])
            if cancel in held:
                held.remove(cancel)
            if held:  # another thread's suite is still on it (it releases it later)
                self._cond.notify_all()
                return
            self._busy.pop(server, None)
            if server.alive and not self._closed:
                self._idle.append(server)
                server = None  # type: ignore[assignment]
            else:
                self._slots.append(server.index)
            self._cond.notify_all()
        if server is not None:
            server.close()

    def abort(self, cancel: threading.Event) -> None:
        """Kill the servers running suites for ``cancel`` (their threads get OracleError)."""
        with self._cond:
            victims = [s for s, held in self._busy.items() if any(c is cancel for c in held)]
        for server in victims:
            server.kill()

    def containment(self) -> dict[str, Any]:
        if self._containment is None:
            server = self._acquire()
            try:
                self._containment = server.containment()
            finally:
                self._release(server)
        return dict(self._containment)

    def close(self) -> None:
        """Stop all servers; a suite in flight ends with OracleError in its thread."""
        with self._cond:
            self._closed = True
            servers = self._idle + list(self._busy)
            self._idle = []
            self._cond.notify_all()
        for server in servers:  # all end at once, then each is waited for
            server.stop()
        for server in servers:
            server.close()
