"""Honest tests that use the standard library the way package test suites do (tempfile,
warnings, logging, mimetypes, platform, ...) are judged as plain Python judges them, and
the allowances that makes (a log record's caller, a module's own first-use caches) give a
candidate nothing.

The reference is ``bench_oracle.py``'s naive runner, none of the sandbox's code: a fresh
``python -I`` that executes the code and then each test in a fresh namespace, in a
scratch folder (how the paper's runner worked).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from execretrieval import Oracle

BATTERY = json.loads((Path(__file__).parent / "data" / "stdlib_uses.json").read_text())
# the tests use the standard library (and the code is trivial); the code uses it (and the
# tests call it)
USES, CODE = BATTERY["in_tests"]["tests"], BATTERY["in_tests"]["code"]

# the naive runner of bench_oracle.py (one python -I per suite; pass / fail / error)
_BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_oracle.py"
_spec = importlib.util.spec_from_file_location("bench_oracle", _BENCH)
assert _spec is not None and _spec.loader is not None
_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bench)
PLAIN_RUNNER = _bench.NAIVE_RUNNER


def _plain(code: str, tests: list[str], cwd: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-I", "-c", PLAIN_RUNNER], cwd=cwd, text=True,
                          input=json.dumps({"code": code, "tests": tests}),
                          capture_output=True, timeout=120, check=True)
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=30.0, cache=None, workers=2) as o:
        yield o


@pytest.mark.parametrize("part", sorted(BATTERY))
def test_the_battery_passes_in_plain_python(part, tmp_path):
    """The battery is of passing tests (else the comparison below could agree on errors)."""
    code, tests = BATTERY[part]["code"], BATTERY[part]["tests"]
    assert _plain(code, tests, tmp_path) == ["pass"] * len(tests)


@pytest.mark.parametrize("part", sorted(BATTERY))
def test_stdlib_uses_are_judged_as_plain_python_judges_them(oracle, tmp_path, part):
    """One suite (the tests share a worker while it stays clean, as a suite's do: one
    test's first use of a module then precedes another's import of it) and each test
    alone."""
    code, tests = BATTERY[part]["code"], BATTERY[part]["tests"]
    reference = _plain(code, tests, tmp_path)
    together = oracle.run(code, tests)
    wrong = {tests[i]: (o.status, o.detail) for i, o in enumerate(together.outcomes)
             if o.status != reference[i]}
    assert not wrong, wrong
    alone = oracle.run_many([(code, [t]) for t in tests])
    wrong = {tests[i]: (r.outcomes[0].status, r.outcomes[0].detail)
             for i, r in enumerate(alone) if r.outcomes[0].status != reference[i]}
    assert not wrong, wrong


LOGS = ("import logging\nlog = logging.getLogger(__name__)\n"
        "def f(x):\n    log.warning('careful: %s', x)\n    logging.info('quiet')\n"
        "    try:\n        1 / 0\n    except ZeroDivisionError:\n"
        "        log.exception('caught')\n    return x\n")


def test_a_candidate_that_logs_passes(oracle, tmp_path):
    """A log record names its caller (logging walks the frames up to it): any candidate
    that logs a warning was an error ("candidate code took a frame")."""
    tests = ["assert f(1) == 1", "import logging\nassert f(2) == 2",
             "import logging\nlogging.getLogger().warning('test')\nassert f(3) == 3"]
    assert _plain(LOGS, tests, tmp_path) == ["pass"] * 3
    result = oracle.run(LOGS, tests)
    assert result.statuses == ("pass",) * 3, result.outcomes
    assert "careful: 1" in result.outcomes[0].output


# Ways to get hold of a frame through logging's walk: each is still the candidate's taking
# a frame, so the test is an error (and no verdict of it can pass)
_GRAB = "import logging, sys\nkept = []\n"
FRAME_GRABS = {
    # the one function findCaller hands each frame to, replaced
    "replaced_is_internal_frame": _GRAB + (
        "real = logging._is_internal_frame\n"
        "def grab(frame):\n    kept.append(frame)\n    return real(frame)\n"
        "logging._is_internal_frame = grab\n"
        "def f(x):\n    logging.warning('w')\n    return x\n"),
    # its code replaced instead
    "replaced_is_internal_frame_code": _GRAB + (
        "def grab(frame):\n    kept.append(frame)\n    return False\n"
        "logging._is_internal_frame.__code__ = grab.__code__\n"
        "def f(x):\n    logging.warning('w')\n    return x\n"),
    # currentframe called by the candidate's own findCaller
    "own_find_caller": _GRAB + (
        "class L(logging.Logger):\n"
        "    def findCaller(self, stack_info=False, stacklevel=1):\n"
        "        kept.append(logging.currentframe())\n"
        "        return ('f', 1, 'f', None)\n"
        "log = L('mine')\n"
        "def f(x):\n    log.warning('w')\n    return x\n"),
    # currentframe called directly
    "currentframe_directly": _GRAB + (
        "def f(x):\n    kept.append(logging.currentframe())\n    return x\n"),
    # a currentframe of the candidate's own
    "own_currentframe": _GRAB + (
        "logging.currentframe = lambda: sys._getframe(1)\n"
        "def f(x):\n    logging.warning('w')\n    return x\n"),
    # a stack asked for: the frames go to traceback's functions, which the candidate may
    # have replaced (refused whatever they are)
    "stack_info": _GRAB + (
        "def f(x):\n    logging.warning('w', stack_info=True)\n    return x\n"),
    # another thread could rebind _is_internal_frame while findCaller walks
    "while_a_thread_runs": _GRAB + (
        "import threading\nstop = threading.Event()\n"
        "threading.Thread(target=stop.wait, daemon=True).start()\n"
        "def f(x):\n    logging.warning('w')\n    stop.set()\n    return x\n"),
}


@pytest.mark.parametrize("name", sorted(FRAME_GRABS))
def test_logging_walk_gives_the_candidate_no_frame(oracle, name):
    """(Or the change it needs is refused first: a standard-library function's code
    replaced; a test that imports logging finds the module changed.)"""
    result = oracle.run(FRAME_GRABS[name], ["assert f(1) == 1",
                                            "import logging\nassert f(2) == 2"])
    assert result.statuses == ("error", "error"), (name, result.outcomes)
    reasons = ("took a frame", "changed a standard-library function", "imports logging, but")
    for outcome in result.outcomes:
        assert any(r in outcome.detail for r in reasons), (name, result.outcomes)


def test_first_use_caches_are_the_modules_own_not_the_candidates(oracle):
    """The server makes each module's first use before its snapshot, so what a candidate
    puts in those globals is still a change: before the test imports the module, and while
    the test runs."""
    before = ("import tempfile, posixpath\ntempfile.tempdir = '/nonexistent'\n"
              "posixpath._varprog = None\ndef f(x):\n    return x\n")
    during = ("import base64\ndef f(x):\n    base64._a85chars2 = None\n    return x\n")
    result = oracle.run(before, ["import tempfile\nassert f(1) == 1",
                                 "import posixpath\nassert f(posixpath.expandvars('$A')) == '$A'"])
    assert result.statuses == ("error", "error"), result.outcomes
    assert "tempfile" in result.outcomes[0].detail
    assert "posixpath" in result.outcomes[1].detail
    result = oracle.run(during, ["import base64\nassert f(base64.a85encode(b'hi')) == b'BP@'"])
    assert result.statuses == ("error",), result.outcomes
    assert "base64" in result.outcomes[0].detail


def test_an_equal_str_copy_in_a_module_is_no_change_but_another_value_is(oracle):
    """A snapshot rides in the test's code, whose strs are interned: a module's own str
    that is not the interned one compares equal (``warnings.defaultaction``), while the
    candidate's other value is a change."""
    ok = oracle.run(CODE, ["import warnings\nassert f(1) == 1",
                           "import ipaddress\nassert f(1) == 1"])
    assert ok.statuses == ("pass", "pass"), ok.outcomes
    changed = oracle.run("import warnings\nwarnings.defaultaction = 'error'\n" + CODE,
                         ["import warnings\nassert f(1) == 1"])
    assert changed.statuses == ("error",), changed.outcomes
    assert "warnings" in changed.outcomes[0].detail


FORMATS = ("import traceback\n"
           "def f(x):\n    try:\n        int('no')\n    except ValueError:\n"
           "        text = traceback.format_exc()\n"
           "        assert 'ValueError' in text and 'line 4' in text\n    return x\n")


def test_a_candidate_that_formats_a_traceback_passes(oracle, tmp_path):
    """traceback's formatting reads each frame of the traceback (``tb_frame``) for its
    file, line and name: ``traceback.format_exc()`` in an except clause was an error."""
    tests = ["assert f(1) == 1",
             "import traceback\ntry:\n    f(None) + 1\nexcept TypeError:\n"
             "    assert 'TypeError' in traceback.format_exc()\nassert f(2) == 2"]
    assert _plain(FORMATS, tests, tmp_path) == ["pass"] * 2
    result = oracle.run(FORMATS, tests)
    assert result.statuses == ("pass", "pass"), result.outcomes


_TB = ("import sys, traceback, linecache\nkept = []\n"
       "def boom():\n    try:\n        1 / 0\n    except ZeroDivisionError:\n"
       "        return sys.exc_info()[2]\n")
TB_GRABS = {
    "own_walk": _TB + "def f(x):\n    kept.extend(traceback.walk_tb(boom()))\n    return x\n",
    "replaced_code_position": _TB + (
        "real = traceback._get_code_position\n"
        "def grab(code, i):\n    kept.append(code)\n    return real(code, i)\n"
        "traceback._get_code_position = grab\n"
        "def f(x):\n    traceback.format_tb(boom())\n    return x\n"),
    "replaced_lazycache": _TB + (
        "def grab(name, space):\n    kept.append(space)\n    return False\n"
        "linecache.lazycache = grab\n"
        "def f(x):\n    traceback.format_tb(boom())\n    return x\n"),
    "locals_captured": _TB + (
        "def f(x):\n    traceback.TracebackException(ZeroDivisionError, None, boom(),"
        " capture_locals=True)\n    return x\n"),
}


@pytest.mark.parametrize("name", sorted(TB_GRABS))
def test_traceback_formatting_gives_the_candidate_no_frame(oracle, name):
    result = oracle.run(TB_GRABS[name], ["assert f(1) == 1"])
    assert result.statuses == ("error",), (name, result.outcomes)
    assert "tb_frame" in result.outcomes[0].detail, result.outcomes


def test_a_paths_slash_is_still_an_error_that_names_the_way_that_works(oracle):
    """``base / "name"`` runs the path's class's operator (plain data is combined only with
    plain data, README); the message names the call that joins instead, which passes."""
    result = oracle.run(CODE, ["import pathlib, tempfile\n"
                               "p = pathlib.Path(tempfile.mkdtemp()) / 'a.txt'\n"
                               "assert f(1) == 1"])
    assert result.statuses == ("error",), result.outcomes
    assert "pathlib.Path(base, 'name')" in result.outcomes[0].detail


def test_a_recorded_call_compared_with_a_tuple_names_the_forms_that_work(oracle):
    """``m.call_args == (('A',), {})`` compares mock's own ``_Call`` with plain data (an
    error: its ``==`` is its class's); ``== call('A')`` and ``.args == ('A',)`` pass (the
    battery's "mocks" part), and the message says so."""
    code = BATTERY["mocks"]["code"]
    result = oracle.run(code, ["from unittest.mock import MagicMock\nm = MagicMock()\n"
                               "notify(m, 'a')\nassert m.send.call_args == (('A',), {})"])
    assert result.statuses == ("error",), result.outcomes
    assert "unittest.mock.call(...)" in result.outcomes[0].detail
