"""A test that patches what later tests would see makes the runner start a fresh process.

The worker runs a suite's tests one after another in one process while they leave it as it
was; after each test it checks the fingerprint of builtins, ``sys.modules``, ``sys``, the
pytest shim and the modules the code and tests import (``make_fingerprint`` in
``_sandbox_channel.py``), and a change sends the next test to a fresh process. Each case
here patches one of them in a way no audit event reports, and the next test passes only if
it ran in a fresh process: in the patched one it would fail or error.
"""

from __future__ import annotations

import pytest

from execretrieval import Oracle

# Each case: (candidate code, the patching test, the test that sees the patch if it stays).
CASES = {
    "a builtin rebound": (
        "def f(x):\n    return len(x)\n",
        "import builtins\nbuiltins.len = lambda x: 42",
        "assert f([1, 2]) == 2"),
    "a builtin under a new name (same values, in the same order)": (
        "def f(a, b):\n    return divmod(a, b)\n",
        "import builtins\nd = vars(builtins)\nd['zz_divmod'] = d.pop('divmod')",
        "assert f(7, 2) == (3, 1)"),
    "two builtins' names swapped (same values, in the same order)": (
        "def f(a, b):\n    return min(a, b)\n",
        "import builtins\nd = vars(builtins)\nlo, hi = d.pop('min'), d.pop('max')\n"
        "d['min'], d['max'] = lo, hi\nlo, hi = d.pop('min'), d.pop('max')\n"
        "d['max'], d['min'] = lo, hi\nassert min(1, 2) == 2",
        "assert f(1, 2) == 1"),
    "a module replaced in sys.modules": (
        "def f():\n    import json\n    return json.loads('[1]')\n",
        "import sys\nsys.modules['json'] = None",
        "assert f() == [1]"),
    "sys.path extended": (
        "import sys\ndef f():\n    return '/nowhere' in sys.path\n",
        "import sys\nsys.path.append('/nowhere')",
        "assert f() is False"),
    "a sys attribute rebound": (
        "import sys\ndef f():\n    return sys.maxsize\n",
        "import sys\nsys.maxsize = 7",
        "assert f() > 7"),
    # the server sets the worker's bytecode prefix before it forks, so the worker reuses the
    # server's fingerprint of sys: putting back the value sys had before is still a change
    "sys.pycache_prefix put back to None": (
        "import sys\ndef f():\n    return sys.pycache_prefix\n",
        "import sys\nsys.pycache_prefix = None",
        "assert f() is not None"),
    "a builtin rebound while builtins' table was rebuilt": (
        "def f(x):\n    return len(x)\n",
        "import builtins\nd = vars(builtins)\nfor i in range(400):\n    d[f'zz{i}'] = i\n"
        "for i in range(400):\n    del d[f'zz{i}']\nbuiltins.len = lambda x: 42",
        "assert f([1, 2]) == 2"),
    # the last name renamed: every value stays where it was; the mark on ``os`` (watched by
    # nobody here) shows which process the next test ran in
    "the last builtin renamed while builtins' table was rebuilt (values in the same order)": (
        "def f():\n    return hasattr(__import__('sys').modules['o' + 's'], 'erx_mark')\n",
        "import builtins\nd = vars(builtins)\nlast = list(d)[-1]\nfor i in range(400):\n"
        "    d[f'zz{i}'] = i\nfor i in range(400):\n    del d[f'zz{i}']\n"
        "d['zz_' + last] = d.pop(last)\n__import__('sys').modules['o' + 's'].erx_mark = 1",
        "assert f() is False"),
    "a builtin rebound once builtins' table took a key that is not a str": (
        "def f(x):\n    return len(x)\n",
        "import builtins\nd = vars(builtins)\nd[1] = 1\ndel d[1]\nbuiltins.len = lambda x: 42",
        "assert f([1, 2]) == 2"),
}


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=10.0, cache=None, workers=1) as o:
        yield o


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_patch_never_reaches_the_next_test(oracle, case):
    code, patch, after = CASES[case]
    result = oracle.run(code, [patch, after, after])
    assert result.statuses[1:] == ("pass", "pass"), result.outcomes


REBUILT = {
    "grown and rebuilt": "for i in range(400):\n    d[f'zz{i}'] = i\n"
                         "for i in range(400):\n    del d[f'zz{i}']\n",
    "widened by a key that is not a str": "d[1] = 1\ndel d[1]\n",
}


@pytest.mark.parametrize("how", sorted(REBUILT))
def test_a_rebuilt_table_with_the_same_mapping_is_not_a_change(oracle, how):
    """Builtins' table rebuilt (it grew, or took a key that is not a str: it keeps a wider
    table), with the same names bound to the same objects in the end: the next test runs
    in the same process (the mark on ``os`` is still there). The runner then compares the
    names in order, each checked to be an exact str first, so no key's ``__eq__`` runs."""
    code = "def f():\n    return hasattr(__import__('sys').modules['o' + 's'], 'erx_mark')\n"
    result = oracle.run(code, [
        "import builtins\nd = vars(builtins)\nsize = d.__sizeof__()\n" + REBUILT[how]
        + "assert d.__sizeof__() != size\n"
        "__import__('sys').modules['o' + 's'].erx_mark = 1\nassert f()",
        "assert f()"])
    assert result.statuses == ("pass", "pass"), result.outcomes


def test_the_same_process_runs_tests_that_leave_it_alone(oracle):
    """The control: without a patch, the mark one test leaves on ``os`` is still there for
    the next (one process ran both), so the cases above do see a fresh process."""
    code = "def f():\n    return hasattr(__import__('sys').modules['o' + 's'], 'erx_mark')\n"
    result = oracle.run(code, ["__import__('sys').modules['o' + 's'].erx_mark = 1\nassert f()",
                               "assert f()"])
    assert result.statuses == ("pass", "pass")
