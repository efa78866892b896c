"""Chunked generated tests (inputs.batches.run_chunked) in the real sandbox: a timeout is a
verdict only for a test that had the whole time limit to itself.

The tests sleep rather than spin, so what they measure is the suite's wall-clock limit and
not how busy the machine is.
"""

from __future__ import annotations

from execretrieval.inputs.batches import run_chunked
from execretrieval.oracle.execution import Oracle

CODE = "import time\n\ndef nap(seconds):\n    time.sleep(seconds)\n    return seconds\n"


def _statuses(oracle: Oracle, tests: list[str], chunk: int) -> list[str | None]:
    [outcomes] = run_chunked(oracle, [(CODE, tests)], chunk=chunk)
    return [None if o is None else o.status for o in outcomes]


def test_quick_tests_of_an_overrunning_chunk_all_get_their_verdict() -> None:
    # five 0.4 s tests in a chunk with a 1 s limit: the third is running at the deadline
    # (it would have been judged "timeout" for the first two's time); it goes first in the
    # next round, and so on, until every test ran with time of its own
    tests = [f"assert nap(0.4) == 0.4  # {i}" for i in range(5)]
    with Oracle(timeout=1.0, workers=1, cache=None) as oracle:
        assert _statuses(oracle, tests, chunk=5) == ["pass"] * 5


def test_a_test_that_needs_more_than_the_limit_alone_is_a_timeout() -> None:
    tests = ["assert nap(0) == 0", "assert nap(3) == 3", "assert nap(0) == 0",
             "assert nap(0) == 1"]
    with Oracle(timeout=1.0, workers=1, cache=None) as oracle:
        # the slow one times out late, runs again at the head of its chunk and times out
        # there: a real timeout; the tests after it still run
        assert _statuses(oracle, tests, chunk=4) == ["pass", "timeout", "pass", "fail"]
