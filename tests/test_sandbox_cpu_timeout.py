"""A suite's timeout judged by CPU time (``Limits.wall_backstop``, the builder's mutants).

The verdict of a CPU-bound suite must not depend on how busy the machine is: the same suite
is judged the same alone and beside real processes that keep every CPU busy, although
beside them it takes longer than its timeout of wall-clock time. A suite that sleeps uses
no CPU and is still stopped, by the wall-clock backstop. A suite that loops is a timeout
whose detail says how much CPU it used.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from execretrieval import Oracle
from execretrieval.oracle.limits import MUTANT_TIMEOUT, MUTANT_WALL_BACKSTOP, Limits

pytestmark = pytest.mark.slow

CODE = "def spin(n):\n    s = 0\n    for i in range(n):\n        s += i & 7\n    return s\n"
BACKSTOP = 4  # times the timeout: short, so the sleeper's case stays short
HOGS_PER_CPU = 3


def _iterations(cpu_seconds: float) -> int:
    """Iterations of ``spin`` that take about ``cpu_seconds`` of CPU here (measured in this
    process with the same loop: CPU time, whatever the load)."""
    namespace: dict = {}
    exec(CODE, namespace)  # noqa: S102  (our own constant)
    n = 200_000
    while True:
        started = time.process_time()
        namespace["spin"](n)
        used = time.process_time() - started
        if used >= 0.05:
            return int(n * cpu_seconds / used)
        n *= 2


@contextmanager
def _hogs() -> Iterator[list[subprocess.Popen]]:
    """HOGS_PER_CPU busy processes pinned to each CPU this process may use: whichever CPU
    the sandbox server is pinned to, a test process there gets at most a quarter of it."""
    procs = []
    try:
        for cpu in sorted(os.sched_getaffinity(0)):
            for _ in range(HOGS_PER_CPU):
                procs.append(subprocess.Popen(
                    [sys.executable, "-c",
                     f"import os\nos.sched_setaffinity(0, {{{cpu}}})\nwhile True:\n    pass\n"],
                    start_new_session=True))  # its own autogroup, as the server has
        time.sleep(0.3)  # running, pinned
        assert all(p.poll() is None for p in procs)
        yield procs
    finally:
        for p in procs:
            p.kill()
            p.wait()


def _oracle(backstop: int = BACKSTOP) -> Oracle:
    return Oracle(timeout=MUTANT_TIMEOUT, cache=None, workers=1,
                  limits=Limits(wall_backstop=backstop))


def test_cpu_bound_suite_judged_the_same_beside_cpu_hogs() -> None:
    n = _iterations(0.4)  # like HumanEval's slowest mutants (0.4-0.5 s)
    tests = [f"assert spin({n}) >= 0", "assert spin(10) == 29"]
    looping = ["while True:\n    pass"]
    with _oracle(MUTANT_WALL_BACKSTOP) as oracle:
        alone = oracle.run(CODE, tests)
        alone_loop = oracle.run(CODE, looping)
        with _hogs():
            loaded = oracle.run(CODE, tests)
            loaded_loop = oracle.run(CODE, looping)
    assert [o.status for o in alone.outcomes] == ["pass", "pass"]
    assert [(o.status, o.detail) for o in loaded.outcomes] == \
        [(o.status, o.detail) for o in alone.outcomes]
    # the premise: beside the hogs the suite took longer than its timeout of wall time,
    # where a wall-clock limit would have made it a timeout
    assert loaded.duration > MUTANT_TIMEOUT
    for result in (alone_loop, loaded_loop):
        (outcome,) = result.outcomes
        assert outcome.status == "timeout"
        assert outcome.detail.startswith(
            f"the suite's CPU time limit of {MUTANT_TIMEOUT:g} s ran out during this test "
            "(CPU "), outcome.detail
        cpu = float(outcome.detail.split("(CPU ")[1].split(" s")[0])
        assert MUTANT_TIMEOUT <= cpu < MUTANT_TIMEOUT + 0.5


def test_sleeper_stopped_by_the_wall_backstop() -> None:
    tests = ["import time\ntime.sleep(120)", "assert spin(10) == 29"]
    with _oracle() as oracle:
        started = time.monotonic()
        result = oracle.run(CODE, tests)
        took = time.monotonic() - started
    first, second = result.outcomes
    assert first.status == "timeout"
    assert first.detail.startswith(
        f"the suite's wall-clock backstop of {BACKSTOP * MUTANT_TIMEOUT:g} s (its CPU time "
        f"limit is {MUTANT_TIMEOUT:g} s) ran out during this test (CPU 0."), first.detail
    assert second.status == "timeout" and second.detail.startswith("not reached: ")
    assert BACKSTOP * MUTANT_TIMEOUT <= took < BACKSTOP * MUTANT_TIMEOUT + 20  # stopped


def test_wall_clock_timeout_unchanged_and_keys_apart() -> None:
    """Without a backstop the timeout is wall-clock time (a sleeper stops at it), and the
    two clocks never share a cached verdict."""
    with Oracle(timeout=MUTANT_TIMEOUT, cache=None, workers=1) as oracle:
        (outcome,) = oracle.run(CODE, ["import time\ntime.sleep(120)"]).outcomes
        wall_key = oracle.key(CODE, ["assert True"])
    assert (outcome.status, outcome.detail) == (
        "timeout", f"the suite's time limit of {MUTANT_TIMEOUT:g} s ran out during this test")
    with _oracle() as oracle:
        assert oracle.key(CODE, ["assert True"]) != wall_key
