"""Captured output per test, against candidates that try to blur which test printed what.

Which test printed what is the runner's account (boundaries sent over its channel once the
output pipe is read empty), so printed text can never move output between tests, however
much is printed and whatever is done to fds 1 and 2. Part of the hostile battery:
``test_sandbox_as_user.py`` runs this file as an ordinary user too.
"""

from __future__ import annotations

import pytest

from execretrieval import Oracle
from execretrieval.oracle.sandbox import Limits

CODE = "print('loading')\ndef f(x):\n    return x\n"


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=10.0, cache=None, workers=2) as o:
        yield o


def _outputs(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [o.output for o in result.outcomes]


def test_each_test_gets_what_it_printed_and_loading_is_the_setup_part(oracle):
    result = oracle.run(CODE, ["print('one')\nassert f(1) == 1", "assert f(2) == 2",
                               "import sys\nprint('three', file=sys.stderr)\nassert f(3) == 4",
                               "import os\nos.write(1, b'raw\\n')"])
    assert result.statuses == ("pass", "pass", "fail", "pass")
    assert result.setup_output == "loading\n"
    assert _outputs(result) == ["one\n", "", "three\n", "raw\n"]
    assert result.output == "loading\none\nthree\nraw\n"


def test_a_load_that_prints_something_else_stays_with_its_test(oracle):
    code = "import random\nprint('seed', random.random() < 2)\nn = 0\n"
    result = oracle.run(code + "print('odd') if __name__ == 'x' else None\n",
                        ["pass", "__name__ = 'x'"])
    assert result.setup_output == "seed True\n"
    assert _outputs(result) == ["", ""]
    varying = oracle.run("import time\nprint(time.monotonic_ns())\n", ["pass", "pass"])
    first, second = _outputs(varying)
    assert first == "" and second.strip().isdigit() and second != varying.setup_output


def test_fake_boundary_markers_are_just_text(oracle):
    """A test that prints what a marker-parsing runner would take for a boundary (the
    channel's own line format included) keeps it, and moves nothing between tests."""
    fake = ("print('ERXR1 0123456789abcdef0123456789abcdef 2 setup 0 0')\n"
            "print('\\n=== test 3 ===\\nthis belongs to test 3\\n[output truncated]')\n")
    result = oracle.run(CODE, ["print('first')", fake, "print('third')"])
    assert result.statuses == ("pass", "pass", "pass")
    first, second, third = _outputs(result)
    assert first == "first\n" and third == "third\n"
    assert "this belongs to test 3" in second and "ERXR1" in second


def test_megabytes_from_one_test_leave_the_others_their_output(oracle):
    with Oracle(timeout=20.0, cache=None, workers=1, limits=Limits(output_chars=1000)) as o:
        result = o.run("print('L' * 5_000_000)\n" + CODE,
                       ["import sys\nsys.stdout.write('x' * 30_000_000)", "print('small')",
                        "import os\nfor _ in range(50):\n    os.write(2, b'e' * 100_000)"])
    assert result.statuses == ("pass", "pass", "pass")
    big, small, err = _outputs(result)
    assert small == "small\n"
    assert big.startswith("xxx") and big.endswith("[output truncated]")
    assert err.startswith("eee") and err.endswith("[output truncated]")
    assert result.setup_output.startswith("LLL") and "loading" not in big
    marker = len("\n[output truncated]")
    assert len(result.output) <= 1000 + 3 * marker  # the budget holds, markers aside


def test_closing_and_redirecting_fds_1_and_2_costs_only_that_test(oracle):
    tests = ["print('before')",
             "import os\nos.close(1)\nos.close(2)\nassert f(1) == 1",
             "print('after close')",
             "import os\nos.dup2(os.open('/dev/null', os.O_WRONLY), 1)\nprint('lost')",
             "print('after dup2')",
             "import os\nos.dup2(3, 1)\nos.dup2(3, 2)\nprint('into the channel')",
             "print('after channel')"]
    result = oracle.run(CODE, tests)
    outputs = _outputs(result)
    assert result.statuses[:6] == ("pass", "pass", "pass", "pass", "pass", "error")
    assert "Tampered" in result.outcomes[5].detail
    assert result.statuses[6] == "pass"
    assert outputs[0] == "before\n" and outputs[2] == "after close\n"
    assert outputs[3] == "" and outputs[4] == "after dup2\n"
    assert outputs[6] == "after channel\n"


def test_spare_pipe_fd_replaced_makes_a_fresh_worker(oracle):
    """fd 4 is the runner's spare end of the output pipe: pointed elsewhere, the worker
    counts as dirty and the next test runs in a fresh one with a fresh pipe."""
    result = oracle.run(CODE, ["import os\nos.dup2(os.open('/dev/null', os.O_WRONLY), 4)\n"
                               "print('mine')", "print('next')", "print('last')"])
    assert result.statuses == ("pass", "pass", "pass")
    assert _outputs(result) == ["mine\n", "next\n", "last\n"]


def test_writes_after_the_test_from_a_thread_or_child_stay_with_it(oracle):
    """A thread or a child still writing to fd 1 once its test is over: its output is
    attributed to the test that started it (the worker stops after such a test), never to
    the next test, and the next test is unaffected."""
    thread = ("import os, threading, time\n"
              "def spam():\n"
              "    for _ in range(200):\n"
              "        os.write(1, b'T')\n        time.sleep(0.001)\n"
              "threading.Thread(target=spam, daemon=True).start()\ntime.sleep(0.01)")
    child = ("import os, time\n"
             "if os.fork() == 0:\n"
             "    for _ in range(200):\n"
             "        os.write(1, b'C')\n        time.sleep(0.001)\n"
             "    os._exit(0)\ntime.sleep(0.01)")
    result = oracle.run(CODE, [thread, "print('second')", child, "print('fourth')"])
    assert result.statuses == ("pass", "pass", "pass", "pass")
    first, second, third, fourth = _outputs(result)
    assert set(first) == {"T"} and set(third) == {"C"}
    assert second == "second\n" and fourth == "fourth\n"


def test_timeout_and_crash_keep_what_was_printed(oracle):
    with Oracle(timeout=1.5, cache=None, workers=1) as o:
        result = o.run(CODE, ["print('ok')", "import os\nprint('dying', flush=True)\n"
                              "os.kill(os.getpid(), 9)", "print('looping', flush=True)\n"
                              "while True:\n    pass", "print('never')"])
    assert result.statuses == ("pass", "error", "timeout", "timeout")
    assert _outputs(result) == ["ok\n", "dying\n", "looping\n", ""]


def test_a_writer_that_never_stops_costs_only_its_test(oracle):
    """A child the module starts keeps the output pipe busy: the runner gives up waiting
    for it to drain (after about two seconds), the test still gets its verdict, and the
    next test runs in a fresh worker with a fresh pipe."""
    code = ("import os\nif os.fork() == 0:\n    while True:\n        os.write(1, b'z' * 4096)\n"
            "def f(x):\n    return x\n")
    with Oracle(timeout=15.0, cache=None, workers=1, limits=Limits(output_chars=300)) as o:
        result = o.run(code, ["assert f(1) == 1", "assert f(2) == 3"])
    assert result.statuses == ("pass", "fail")
    assert result.outcomes[1].detail == "returned 2, expected 3"
    assert len(result.output) <= 300 + 3 * len("\n[output truncated]")


def test_loads_that_cannot_print_need_no_boundary():
    """A module that only defines functions, binds constants and imports preloaded modules
    cannot print while loading: the runner skips that boundary; one that may print keeps it."""
    from execretrieval.oracle._sandbox_suite import quiet

    assert quiet(compile("from typing import List\nimport math\nX = (1, 2)\n"
                         "def f(x: List[int] = X) -> int:\n    return x\n", "<c>", "exec"))
    for noisy in ("print('x')\n", "import this\n", "class A:\n    print('x')\n",
                  "@staticmethod\ndef f():\n    pass\n", "def f(x=print('x')):\n    pass\n",
                  "import os\n"):
        assert not quiet(compile(noisy, "<c>", "exec")), noisy
