"""Many generated tests through the oracle: chunked suites, and oracles derived from one.

A generated suite can hold hundreds of tests, and the oracle's timeout is per suite: one
input on which a candidate loops would time every later test out. So tests go in chunks
of :data:`CHUNK`, every chunk of every candidate in one ``run_many`` (all workers, the
cache), and the tests a timeout left unreached run again in a later round.

A test is only judged ``timeout`` when it ran out of time at the head of its chunk, with
the whole time limit to itself. One that was running at the deadline after others had
used part of the limit goes first in the next round instead: on a loaded machine a chunk
of quick tests can overrun, and which of its tests happened to be running then must not
decide a verdict (it made a rebuild of the bundled stdlib benchmark differ by one test).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from ..oracle.cache import SharedCache
from ..oracle.execution import Oracle
from ..oracle.results import TestOutcome

__all__ = ["CHUNK", "ROUNDS", "TIMEOUT", "derived_oracle", "run_chunked"]

CHUNK = 40
#: seconds a chunk of generated tests may take (at most the oracle's own timeout): a
#: chunk takes milliseconds, and each input on which code loops costs this once
TIMEOUT = 2.0
#: timeouts a job may have before the tests they leave unreached are given up
ROUNDS = 3


def derived_oracle(oracle: Any, timeout: float = TIMEOUT, **limits: int) -> Any:
    """An oracle like ``oracle`` (its workers, cache, Dask connection), with the timeout
    ``timeout`` (or the oracle's, if shorter) and limits that differ by ``limits``
    (``hash_seed=1``, ``output_chars=...``); close it after."""
    cache = None if oracle.cache is None else SharedCache(oracle.cache)
    new_limits = dataclasses.replace(oracle.limits, **limits)
    timeout = min(float(oracle.timeout), timeout)
    connection = getattr(oracle, "connection", None)
    if connection is not None:  # a DaskOracle: the same cluster
        return type(oracle)(connection, timeout=timeout, cache=cache, limits=new_limits)
    return Oracle(timeout=timeout, cache=cache, workers=oracle.workers, limits=new_limits)


def run_chunked(oracle: Any, jobs: Sequence[tuple[str, Sequence[str]]], *,
                progress: Callable[[int, int], None] | None = None,
                should_stop: Callable[[], bool] | None = None,
                chunk: int = CHUNK, stop: Callable[[list[TestOutcome | None]], bool]
                | None = None) -> list[list[TestOutcome | None]]:
    """Per job, the outcome of each of its tests; None for a test that did not run: left
    unreached by more than :data:`ROUNDS` timeouts of its job, or after ``stop(outcomes so
    far)`` became true for its job. Without ``stop`` every chunk runs in one batch; with
    it, chunks go in waves (the next chunk of every job not stopped), so a job can stop
    early. ``progress(done, total)`` counts chunks."""
    outcomes: list[list[TestOutcome | None]] = [[None] * len(tests) for _, tests in jobs]
    queues: list[list[list[int]]] = [
        [list(range(len(tests)))[at:at + chunk] for at in range(0, len(tests), chunk)]
        for _, tests in jobs]
    timeouts = [0] * len(jobs)
    total = sum(len(q) for q in queues)
    done = 0
    while True:
        suites: list[tuple[int, list[int]]] = []
        for j, queue in enumerate(queues):
            if not queue:
                continue
            if stop is not None and stop(outcomes[j]):
                queue.clear()
                continue
            take = len(queue) if stop is None else 1
            suites += [(j, queue.pop(0)) for _ in range(take)]
        if not suites:
            break
        base = done
        hook = None if progress is None else (
            lambda d, _n, base=base, total=total: progress(min(total, base + d), total))
        results = oracle.run_many(
            [(jobs[j][0], [jobs[j][1][i] for i in idx]) for j, idx in suites],
            progress=hook, should_stop=should_stop)
        for (j, idx), result in zip(suites, results, strict=True):
            done += 1
            unreached: list[int] = []
            late = False   # timed out after other tests of the chunk had used its time
            timed_out = False
            for at, (i, outcome) in enumerate(zip(idx, result.outcomes, strict=True)):
                if timed_out:
                    unreached.append(i)
                    continue
                timed_out = outcome.status == "timeout"
                late = timed_out and at > 0
                if late:
                    unreached.append(i)      # runs again, first of its chunk
                else:
                    outcomes[j][i] = outcome
            if timed_out and not late:
                timeouts[j] += 1
            # a late timeout always leaves fewer tests than the chunk had, so this ends
            if unreached and (late or timeouts[j] <= ROUNDS):
                queues[j].insert(0, unreached)
                total += 1
    return outcomes
