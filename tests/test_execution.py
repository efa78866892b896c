"""The execution oracle: every outcome category, the pytest shim, caching, batches."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from execretrieval import CancelledError, Limits, MemoryCache, Oracle, ResultCache, SuiteResult
from execretrieval.oracle.pool import ForkServerPool
from execretrieval.oracle.results import STATUSES, TestOutcome

ADD = "def add(a, b):\n    return a + b\n"


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=2.0, cache=None, workers=2) as o:
        yield o


def test_pass_fail_error_with_details(oracle):
    result = oracle.run(ADD, ["assert add(1, 2) == 3",
                              "assert add(1, 2) == 4, 'one plus two'",
                              "assert add(1, 2) == 4",
                              "add(1, None)"])
    assert result.statuses == ("pass", "fail", "fail", "error")
    assert result.outcomes[1].detail == "one plus two"
    assert result.outcomes[2].detail == "returned 3, expected 4"   # failures explained
    assert result.outcomes[3].detail.startswith("TypeError: unsupported operand")
    assert not result.passed and result.has_assertion_failure
    assert [o.test for o in result.outcomes][0] == "assert add(1, 2) == 3"


def test_every_verdict_arrives_however_much_the_tests_say():
    """400 failures with 250-character messages are more than one read of the channel
    (32 KB): the last verdict was lost and reported as an early exit."""
    with Oracle(timeout=30.0, cache=None, workers=1) as o:
        result = o.run(ADD, [f"assert add({i}, 1) == 0, 'x' * 250" for i in range(400)])
    assert result.statuses == ("fail",) * 400
    assert all(outcome.detail == "x" * 250 for outcome in result.outcomes)


def test_suite_passes_only_when_every_test_passes(oracle):
    assert oracle.run(ADD, ["assert add(2, 2) == 4", "assert add(0, 0) == 0"]).passed
    assert not oracle.run(ADD, []).passed  # no tests: nothing was shown to pass


def test_syntax_error_in_code_makes_every_test_an_error(oracle):
    result = oracle.run("def add(a, b)\n    return a + b\n", ["assert add(1, 2) == 3"] * 3)
    assert result.statuses == ("error",) * 3
    assert all(o.detail.startswith("SyntaxError") for o in result.outcomes)


def test_syntax_error_in_one_test_only_affects_that_test(oracle):
    result = oracle.run(ADD, ["assert add(1, 1) == 2", "assert add(1,", "assert add(2, 2) == 4"])
    assert result.statuses == ("pass", "error", "pass")


def test_timeout_keeps_finished_tests_and_marks_the_rest(oracle):
    result = oracle.run(ADD, ["assert add(1, 1) == 2", "while True:\n    pass",
                              "assert add(2, 2) == 4"], timeout=1.0)
    assert result.statuses == ("pass", "timeout", "timeout")
    assert "not reached" in result.outcomes[2].detail


@pytest.mark.parametrize("body, expected", [
    ("import sys\nsys.exit(3)", "SystemExit: 3"),
    ("import os\nos._exit(0)", "Exited"),
    ("def r(n):\n    return r(n + 1)\nr(0)", "RecursionError"),
    ("x = 'a' * (1 << 34)", "MemoryError"),
    ("raise KeyboardInterrupt", "KeyboardInterrupt"),
    ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)", "Crashed"),
    ("input()", "EOFError"),
])
def test_hard_exits_and_resource_errors_are_error_outcomes(oracle, body, expected):
    result = oracle.run(ADD, [body, "assert add(1, 1) == 2"])
    assert result.statuses == ("error", "pass")
    assert expected in result.outcomes[0].detail


def test_fresh_namespace_per_test(oracle):
    result = oracle.run("counter = []\n", ["counter.append(1)\nassert counter == [1]"] * 3)
    assert result.statuses == ("pass",) * 3


def test_output_is_captured_and_truncated():
    with Oracle(timeout=2.0, cache=None, workers=1, limits=Limits(output_chars=100)) as o:
        result = o.run("print('hello from the code')\n", ["print('x' * 1000)"])
    assert result.output.startswith("hello from the code\nxxx")
    assert "[output truncated]" in result.output
    assert len(result.output) < 200


def test_pytest_raises_shim(oracle):
    code = "def parse(s):\n    return int(s)\n"
    result = oracle.run(code, [
        "with pytest.raises(ValueError):\n    parse('x')",
        "import pytest\nwith pytest.raises(ValueError, match='invalid literal'):\n    parse('x')",
        "with pytest.raises(ValueError, match='nope'):\n    parse('x')",
        "with pytest.raises(ValueError):\n    parse('1')",
        "with pytest.raises(KeyError):\n    parse('x')",
        "pytest.raises(ValueError, parse, 'x')",
        "assert 0.1 + 0.2 == pytest.approx(0.3)",
    ])
    assert result.statuses == ("pass", "pass", "fail", "fail", "error", "pass", "pass")
    assert "DID NOT RAISE" in result.outcomes[3].detail


def test_warm_cache_executes_nothing(tmp_path):
    cache = ResultCache(tmp_path / "results.sqlite")
    jobs = [(ADD, [f"assert add({i}, 1) == {i + 1}"]) for i in range(6)]
    with Oracle(timeout=2.0, cache=cache, workers=2) as cold:
        first = cold.run_many(jobs)
        assert cold.executed == 6
    with Oracle(timeout=2.0, cache=ResultCache(tmp_path / "results.sqlite"), workers=2) as warm:
        second = warm.run_many(jobs)
        assert warm.executed == 0
        assert warm.cached(*jobs[0]) is not None
    assert all(r.cached for r in second) and not any(r.cached for r in first)
    assert [r.statuses for r in first] == [r.statuses for r in second]


def test_cache_key_depends_on_timeout():
    cache = MemoryCache()
    with Oracle(timeout=2.0, cache=cache, workers=1) as o:
        o.run(ADD, ["assert add(1, 1) == 2"])
        assert o.cached(ADD, ["assert add(1, 1) == 2"]) is not None
        assert o.cached(ADD, ["assert add(1, 1) == 3"]) is None
        o.run(ADD, ["assert add(1, 1) == 2"], timeout=1.5)
        assert o.executed == 2


def test_run_many_keeps_order_and_reports_progress(oracle):
    jobs = [(ADD, [f"assert add({i}, 0) == {i if i % 3 else -1}"]) for i in range(12)]
    seen: list[tuple[int, int]] = []
    results = oracle.run_many(jobs, progress=lambda done, total: seen.append((done, total)))
    assert [r.passed for r in results] == [bool(i % 3) for i in range(12)]
    assert seen[-1] == (12, 12)
    assert all(a <= b for (a, _), (b, _) in zip(seen, seen[1:], strict=False))


def test_run_many_can_be_cancelled_promptly():
    with Oracle(timeout=30.0, cache=None, workers=2) as o:
        jobs = [(ADD, ["while True:\n    pass"])] * 6
        calls: list[int] = []

        def should_stop() -> bool:
            calls.append(1)
            return len(calls) > 5  # a few polls in: the suites are running by now

        with pytest.raises(CancelledError):
            o.run_many(jobs, should_stop=should_stop)
        # the Oracle still works after a cancelled batch
        assert o.run(ADD, ["assert add(1, 1) == 2"]).passed


def test_thread_safe_concurrent_runs(oracle):
    results: list[SuiteResult] = []

    def work(i: int) -> None:
        results.append(oracle.run(ADD, [f"assert add({i}, {i}) == {2 * i}"]))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8 and all(r.passed for r in results)


def test_suites_queued_on_one_server_each_get_their_own_result():
    """One server, two suites in flight at a time (ForkServerPool.depth): every reply goes
    to the thread that sent its request, and output stays with its suite."""
    with Oracle(timeout=5.0, cache=None, workers=1) as o:
        jobs = [(f"def f():\n    print('suite {i}')\n    return {i}\n",
                 [f"assert f() == {i}", f"assert f() == {i + 1}"]) for i in range(40)]
        results = o.run_many(jobs)
        servers = list(o._runner._idle)  # type: ignore[attr-defined]
    assert len(servers) == 1  # one server ran all of them
    assert [r.statuses for r in results] == [("pass", "fail")] * 40
    assert [r.outcomes[1].detail for r in results] == [
        f"returned {i}, expected {i + 1}" for i in range(40)]
    assert [r.outcomes[0].output for r in results] == [f"suite {i}\n" for i in range(40)]


def test_suites_with_the_same_tests_run_on_one_server():
    """A query's candidates share its tests: run_many hands them to one server (which
    compiles those tests once), however the batch interleaves them. Each server has its
    own suite folder, which the tests print; every result still belongs to its suite."""
    suites = {name: ["import os\nprint(os.getcwd())\n" + f"assert f() == {n}"]
              for n, name in enumerate("ABCD")}
    order = "ABBACDDC"  # two servers taking turns would split A and B at least
    jobs = [(f"def f():\n    return {'ABCD'.index(name) + k * 10}\n", suites[name])
            for k, name in enumerate(order)]
    with Oracle(timeout=5.0, cache=None, workers=2) as o:
        results = o.run_many(jobs)
    assert [r.statuses for r in results] == [("pass",) if k == 0 else ("fail",)
                                             for k in range(8)]
    folder = {name: {r.outcomes[0].output for r, n in zip(results, order, strict=True)
                     if n == name} for name in "ABCD"}
    assert all(len(seen) == 1 for seen in folder.values()), folder
    assert all(next(iter(seen)).startswith("/") for seen in folder.values())


def test_a_queued_suite_gets_its_whole_time_limit():
    """A suite waiting behind another on the same server starts its clock when it starts:
    two suites of 1 s each under a 1.6 s limit both pass on one server."""
    with Oracle(timeout=1.6, cache=None, workers=1) as o:
        jobs = [("import time\n", [f"time.sleep(1.0)\nassert {i} == {i}"]) for i in range(2)]
        results = o.run_many(jobs)
    assert [r.statuses for r in results] == [("pass",), ("pass",)]


def test_a_server_killed_with_a_suite_queued_is_replaced():
    """Killing a server while one suite runs and another waits behind it: both threads get
    an error from it, and the pool retries each suite once on a fresh server."""
    pool = ForkServerPool(1)
    try:
        first = pool._acquire()  # type: ignore[attr-defined]
        pool._release(first)  # type: ignore[attr-defined]
        outcomes: list[object] = []

        def run(i: int) -> None:
            outcomes.append(pool.run_suite(
                "import time\n", [f"time.sleep(0.5)\nassert {i} == {i}"], 5.0, Limits())[
                    "outcomes"][0][0])

        threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        time.sleep(0.2)  # the first suite runs, the second is queued behind it
        first.kill()
        for t in threads:
            t.join()
        assert outcomes == ["pass", "pass"]
        assert not first.alive and pool._idle and pool._idle[0] is not first  # type: ignore
    finally:
        pool.close()


def test_a_batch_survives_its_server_being_killed():
    """run_many on one server: killing it mid-batch loses nothing; the suites it held run
    again on a fresh server and every result belongs to its own suite."""
    with Oracle(timeout=5.0, cache=None, workers=1) as o:
        jobs = [("import time\n", [f"time.sleep(0.15)\nassert {i} == {i % 3}"])
                for i in range(8)]
        killed: list[object] = []

        def kill_after_a_while() -> None:
            # once a server holds suites (not after a fixed sleep: a loaded machine may
            # not have sent any yet, or be between two batches, at 0.5 s)
            time.sleep(0.3)
            deadline = time.monotonic() + 60
            while not o._runner._busy and time.monotonic() < deadline:  # type: ignore
                time.sleep(0.01)
            busy = list(o._runner._busy)  # type: ignore[attr-defined]
            for server in busy:
                server.kill()
            killed.extend(busy)

        killer = threading.Thread(target=kill_after_a_while)
        killer.start()
        results = o.run_many(jobs)
        killer.join()
    assert killed  # a server was killed while it held suites
    assert [r.statuses for r in results] == [("pass",) if i < 3 else ("fail",)
                                             for i in range(8)]


def test_suite_result_round_trip():
    result = SuiteResult(outcomes=(TestOutcome("assert f()", "fail", "boom", "printed\n"),
                                   TestOutcome("g()", "error", "ValueError: x")),
                         setup_output="out", duration=0.5)
    again = SuiteResult.from_dict(result.to_dict())
    assert again == result
    assert SuiteResult.from_dict(result.to_dict(), cached=True).cached
    assert set(again.statuses) <= set(STATUSES)


def test_containment_reports_measures(oracle):
    info = oracle.containment()
    for key in ("network_namespace", "readonly_filesystem", "pid_namespace", "rlimits"):
        assert key in info


def test_bad_arguments_are_rejected(oracle):
    with pytest.raises(TypeError):
        oracle.run(ADD, "assert add(1, 1) == 2")
    with pytest.raises(ValueError):
        Oracle(timeout=0, cache=None)


def test_without_namespaces_it_still_works_and_says_so(tmp_path):
    """The fallback path (no namespaces): same outcomes, cleanup by subreaper."""
    from execretrieval.oracle.pool import ForkServerPool

    marker = tmp_path / "daemon.pid"
    daemon = ("import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
              f"        open({str(marker)!r}, 'w').write(str(os.getpid()))\n"
              "        while True:\n            time.sleep(0.05)\n    os._exit(0)\n"
              "time.sleep(0.3)")
    with Oracle(timeout=1.5, cache=None, runner=ForkServerPool(1, isolate=False)) as o:
        info = o.containment()
        result = o.run(ADD, ["assert add(1, 2) == 3", daemon, "assert add(1, 2) == 4",
                             "while True:\n    pass"])
    assert info["network_namespace"] is False and info["pid_namespace"] is False
    assert result.statuses == ("pass", "pass", "fail", "timeout")
    pid = int(marker.read_text())
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and os.path.exists(f"/proc/{pid}"):
        state = open(f"/proc/{pid}/status").read()
        if "\tZ" in state:
            break
        time.sleep(0.05)
    else:
        assert not os.path.exists(f"/proc/{pid}"), "the daemon outlived its test"


def test_close_stops_servers_and_removes_their_folders():
    o = Oracle(timeout=2.0, cache=None, workers=2)
    o.run_many([(ADD, ["assert add(1, 1) == 2"])] * 4)
    servers = list(o._runner._idle)  # type: ignore[attr-defined]
    assert servers
    o.close()
    for server in servers:
        assert not server.alive
        assert not os.path.exists(server._base)


def test_printing_any_amount_passes_and_is_truncated():
    """Captured output never counts against the file-size limit and is never an error:
    40 MB printed by a test (limit 1 MB) passes, the output keeps its head."""
    limits = Limits(output_chars=200, file_size_mb=1)
    with Oracle(timeout=20.0, cache=None, workers=1, limits=limits) as o:
        result = o.run(ADD, ["for _ in range(40):\n    print('x' * (1 << 20))",
                             "print('still printing')\nassert add(1, 1) == 2",
                             "import sys\nsys.stderr.write('e' * (5 << 20))"])
    assert result.statuses == ("pass", "pass", "pass"), result.outcomes
    first, second, third = (o.output for o in result.outcomes)
    # 200 characters shared by the setup part (empty) and three tests: the short one in
    # full, the two that print megabytes keep their heads, each cut with a marker
    assert second == "still printing\n"
    assert first.startswith("x" * 50) and first.endswith("\n[output truncated]")
    assert third.startswith("e" * 50) and third.endswith("\n[output truncated]")
    assert len(result.output) <= 200 + 2 * len("\n[output truncated]")


def test_endless_printing_is_a_timeout_not_an_error():
    with Oracle(timeout=2.0, cache=None, workers=1, limits=Limits(output_chars=200)) as o:
        result = o.run(ADD, ["assert add(1, 1) == 2", "while True:\n    print('x' * (1 << 20))"])
    assert result.statuses == ("pass", "timeout")


def test_cpu_limit_stops_one_test_not_the_suite():
    with Oracle(timeout=20.0, cache=None, workers=1, limits=Limits(cpu_seconds=1)) as o:
        result = o.run(ADD, ["while True:\n    pass", "assert add(1, 1) == 2"])
    assert result.statuses == ("timeout", "pass")
    assert "CPU time limit" in result.outcomes[0].detail


def _reference_hash(seed: int) -> int:
    """hash('abc') in a plain interpreter started with PYTHONHASHSEED=seed."""
    out = subprocess.run([sys.executable, "-c", "print(hash('abc'))"], check=True,
                         capture_output=True, text=True,
                         env={"PYTHONHASHSEED": str(seed), "PATH": "/usr/bin:/bin"})
    return int(out.stdout)


def test_hash_seed_is_a_limit_and_reproduces():
    """Limits(hash_seed=s) runs candidates under PYTHONHASHSEED=s; the same seed gives the
    same hashes, another seed others; the seed is part of the cache key."""
    probe = ["print(hash('abc'))"]
    seen = {}
    for seed in (0, 3, 3, 7):
        cache = MemoryCache()
        with Oracle(timeout=5.0, cache=cache, workers=1, limits=Limits(hash_seed=seed)) as o:
            result = o.run("x = 1", probe)
            assert result.statuses == ("pass",)
            value = int(result.output.split()[0])
            assert value == _reference_hash(seed)
            assert seen.setdefault(seed, value) == value
    assert len(set(seen.values())) == 3
    assert Oracle(cache=None, workers=1, limits=Limits(hash_seed=3)).key("x", probe) != \
        Oracle(cache=None, workers=1, limits=Limits(hash_seed=7)).key("x", probe)
    with pytest.raises(ValueError, match="hash_seed"):
        Limits(hash_seed=-1)
    with pytest.raises(ValueError, match="hash_seed"):
        Limits(hash_seed=2**32)


def test_one_pool_serves_several_hash_seeds():
    """A pool with one slot swaps its server when a suite asks for another seed."""
    pool = ForkServerPool(1)
    try:
        outputs = [pool.run_suite("x = 1", ["print(hash('abc'))"], 5.0, Limits(hash_seed=s))
                   ["outcomes"][0][2].split()[0] for s in (1, 2, 1)]
    finally:
        pool.close()
    assert outputs[0] == outputs[2] == str(_reference_hash(1))
    assert outputs[1] == str(_reference_hash(2))


NORMAL_MODULE_CODE = """
import copy, enum, functools, pickle
from dataclasses import dataclass
from typing import NamedTuple

@dataclass(frozen=True)
class Point:
    x: int
    y: int

class Colour(enum.Enum):
    RED = 1

class Pair(NamedTuple):
    a: int
    b: int

@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
"""


def test_code_behaves_as_a_normal_module(oracle):
    """No false errors: the candidate's module is registered in sys.modules under its
    __name__, so dataclasses, enums, NamedTuple, lru_cache, pickle and copy all work."""
    result = oracle.run(NORMAL_MODULE_CODE, [
        "assert Point(1, 2) == Point(1, 2) and Point(1, 2) != Point(2, 1)",
        "assert pickle.loads(pickle.dumps(Point(3, 4))) == Point(3, 4)",
        "assert copy.deepcopy(Pair(1, 2)) == Pair(1, 2) and Pair(1, 2) == (1, 2)",
        "assert pickle.loads(pickle.dumps(Colour.RED)) is Colour.RED",
        "assert fib(80) == 23416728348467685",
        "import sys\nassert sys.modules[__name__].Point is Point",
    ])
    assert result.statuses == ("pass",) * 6, result.outcomes


def test_plain_data_rule(oracle):
    """== / != against plain data needs plain data (exact types) on the other side; objects
    of the code's own classes compared with each other keep Python semantics."""
    code = ("class Yes:\n    def __eq__(self, other):\n        return True\n"
            "class IntEq(int):\n    def __eq__(self, other):\n        return True\n"
            "    __hash__ = int.__hash__\n"
            "class Int(int):\n    pass\n"
            "import collections, enum\nPair = collections.namedtuple('Pair', 'a b')\n"
            "class Level(enum.IntEnum):\n    LOW = 1\n"
            "def same(x):\n    return x\n")
    result = oracle.run(code, [
        "assert same([1, (2.5, 'a'), {3: b'x'}, {None, True}]) == "
        "[1, (2.5, 'a'), {3: b'x'}, {None, True}]",
        "assert same(Yes()) == 5",
        "assert same(IntEq(5)) == 5",
        "assert 5 != same(Yes())",
        "assert same([1, Yes()]) == [1, 2]",
        "assert same(Yes()) == Yes()",
        "import pytest\nassert same(0.1 + 0.2) == pytest.approx(0.3)",
        "assert same(2) == 3",
        # subclasses that keep their base type's equality and hash compare as plain data
        "assert same(Pair(1, 2)) == (1, 2) and same([Int(3)]) == [3] and same(Level.LOW) == 1",
        "assert same(collections.Counter('aab')) == {'a': 2, 'b': 1}",
        "assert same(Pair(1, IntEq(9))) == (1, 2)",
    ])
    assert result.statuses == ("pass", "error", "error", "error", "error", "pass", "pass",
                               "fail", "pass", "pass", "error"), result.outcomes
    assert "plain-data comparison" in result.outcomes[1].detail
    assert "IntEq" in result.outcomes[2].detail and "IntEq" in result.outcomes[10].detail


def test_replacing_exec_and_exceptions_cannot_forge_a_pass(oracle):
    code = ("import builtins\nbuiltins.exec = lambda *a, **k: None\n"
            "builtins.compile = lambda *a, **k: None\nbuiltins.AssertionError = ValueError\n")
    result = oracle.run(code, ["assert False", "assert 1 == 2", "raise AssertionError('x')"])
    # the test's own AssertionError is the real one, whatever the code rebound it to
    assert result.statuses == ("fail", "fail", "fail"), result.outcomes
