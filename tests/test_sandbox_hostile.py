"""Hostile candidates (issue 6 item 1): each ends as an outcome, harms nothing, leaves nothing.

Every case runs three ways: ``Oracle.run``, inside a ``run_many`` batch between two honest
suites, and through ``execretrieval run-tests``. Each must produce its expected outcome
within the timeout plus a loose margin, leave no sandbox process alive, and change no file
outside its temporary folder (canary files in a fake home, a result cache, the test's tmp
folder). Bounds are correctness bounds, not performance measurements.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import socket
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from execretrieval import Oracle, ResultCache, SuiteResult, TestOutcome
from execretrieval.oracle.sandbox import _UID_BASE

TIMEOUT = 1.5
MARGIN = 5.0
ADD = "def add(a, b):\n    return a + b\n"
OK_TESTS = ["assert add(1, 2) == 3", "assert add(2, 2) == 4"]


@dataclass(frozen=True)
class Case:
    name: str
    test: str           # the hostile test, run between two honest ones
    expected: tuple[str, ...]  # allowed statuses for the hostile test
    code: str = ADD
    timeout: float = TIMEOUT


@dataclass(frozen=True)
class World:
    """Things outside the sandbox that candidates attack."""

    root: Path
    home: Path
    cache_file: Path
    port: int
    user_home: Path = Path("/nonexistent")  # the real home of the user running the tests
    tmp_socket: str = ""  # unix sockets listening in /tmp and in the user's home
    home_socket: str = ""
    sleeper_pid: int = 0  # a process of the user that kill(-1) would reach


AS_ROOT = os.geteuid() == 0
C_REMOUNT = r"""
#define _GNU_SOURCE
#include <Python.h>
#include <sys/mount.h>
#include <stdio.h>
__attribute__((constructor)) static void pwn(void) {
    mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND, NULL);
    FILE *f = fopen("HOME/pwned-by-extension", "w");
    if (f) { fputs("pwned", f); fclose(f); }
}
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "pwn", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_pwn(void) { return PyModule_Create(&def); }
"""


def _cases(world: World) -> list[Case]:
    home, cache, port = str(world.home), str(world.cache_file), world.port
    user_home = str(world.user_home)
    include = sysconfig.get_paths()["include"]
    c_source = C_REMOUNT.replace("HOME", user_home)
    return [
        # --- issue 10: a desktop user's files, processes and sockets ---
        Case("read_ssh_key_of_the_user",
             f"print(open({user_home + '/.ssh/id_rsa'!r}).read())", ("error",)),
        Case("read_ssh_key_into_assertion",
             f"assert False, open({user_home + '/.ssh/id_rsa'!r}).read()", ("error",)),
        Case("double_fork_daemon",
             "import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
             "        while True:\n            time.sleep(0.05)\n    os._exit(0)\ntime.sleep(0.2)",
             ("pass",)),
        Case("c_extension_remounts_root",
             "import importlib.machinery, importlib.util, os, subprocess\n"
             f"open('pwn.c', 'w').write({c_source!r})\n"
             f"subprocess.run(['gcc', '-shared', '-fPIC', '-I', {include!r}, 'pwn.c', '-o', "
             "'pwn.so'], check=True)\n"
             "loader = importlib.machinery.ExtensionFileLoader('pwn', os.path.abspath('pwn.so'))\n"
             "spec = importlib.util.spec_from_file_location('pwn', os.path.abspath('pwn.so'), "
             "loader=loader)\nimportlib.util.module_from_spec(spec)", ("error",), timeout=20.0),
        Case("remount_root_with_mount_binary",
             "import subprocess\nsubprocess.run(['mount', '-o', 'remount,rw', '/'], check=True)",
             ("error",), timeout=10.0),
        Case("remount_root_in_nested_user_namespace",
             "import subprocess\nsubprocess.run(['unshare', '-Urm', 'mount', '-o', 'remount,rw', "
             "'/'], check=True)", ("error",), timeout=10.0),
        Case("connect_unix_socket_in_tmp",
             f"import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect({world.tmp_socket!r})\n"
             "s.sendall(b'leak')", ("error",)),
        Case("connect_unix_socket_in_home",
             f"import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect({world.home_socket!r})\n"
             "s.sendall(b'leak')", ("error",)),
        Case("list_tmp_and_home",
             f"import os\nassert os.listdir({user_home!r}) == [] and "
             "set(os.listdir('/tmp')) <= {p for p in os.listdir('/tmp') if "
             "p.startswith('execretrieval-sandbox-')}\nassert os.listdir('/dev/shm') == []\n"
             "open('/run/anything')", ("error",)),
        # --- issue 10: verdicts nothing in the candidate can forge ---
        Case("replace_builtins_exec_then_fail", "assert False", ("fail",),
             code="import builtins\nbuiltins.exec = lambda *a, **k: None\n" + ADD),
        Case("replace_builtins_compile_and_assertion", "assert add(1, 2) == 4", ("fail",),
             code="import builtins\nbuiltins.compile = lambda *a, **k: None\n"
                  "builtins.AssertionError = ValueError\n" + ADD),
        Case("always_equal_object", "assert weird(2, 3) == 5", ("error",),
             code=ADD + "class Yes:\n    def __eq__(self, other):\n        return True\n"
                        "def weird(a, b):\n    return Yes()\n"),
        Case("always_equal_int_subclass", "assert weird(2, 3) == 5", ("error",),
             code=ADD + "class Yes(int):\n    def __eq__(self, other):\n        return True\n"
                        "    __hash__ = int.__hash__\ndef weird(a, b):\n    return Yes(0)\n"),
        Case("always_equal_caught_by_the_test",
             "try:\n    assert weird(2, 3) == 5\nexcept Exception:\n    pass", ("error",),
             code=ADD + "class Yes:\n    def __eq__(self, other):\n        return True\n"
                        "def weird(a, b):\n    return Yes()\n"),
        Case("never_unequal_object", "assert weird(2, 3) != 6 or True\nassert not "
             "(weird(2, 3) != 5)", ("error",),
             code=ADD + "class No:\n    def __ne__(self, other):\n        return False\n"
                        "def weird(a, b):\n    return No()\n"),
        Case("patch_runner_equality_function",
             "import sys\nf = sys._getframe()\ncode = f.f_code\neq = next(c for c in "
             "code.co_consts if callable(c))\neq.__code__ = (lambda *a: True).__code__\n"
             "assert add(1, 2) == 4", ("error",)),
        # the explainer and the chain reach their comparison through default arguments:
        # rewriting any function found there must be refused, or a false assert passes
        Case("patch_functions_the_judges_call",
             "import sys\nfor c in sys._getframe().f_code.co_consts:\n"
             "    for d in getattr(c, '__defaults__', None) or ():\n"
             "        if hasattr(d, '__code__'):\n"
             "            try:\n"
             "                d.__code__ = (lambda *a, **k: True).__code__\n"
             "            except Exception:\n"
             "                pass\n"
             "assert add(1, 2) == 4\nassert 1 < add(1, 2) == 4", ("fail", "error")),

        Case("fork_bomb", "import os\nwhile True:\n    os.fork()", ("error", "timeout")),
        Case("kill_parent_and_group",
             f"import os\nfor pid in (os.getppid(), {os.getpid()}, 1):\n    try:\n"
             "        os.kill(pid, 9)\n    except OSError:\n        pass\n"
             "os.killpg(0, 9)", ("error",)),
        Case("kill_everything", "import os\nos.kill(-1, 9)", ("error",)),
        Case("delete_home", f"import shutil\nshutil.rmtree({home!r})", ("error",)),
        Case("overwrite_home_file",
             f"open({home + '/canary.txt'!r}, 'w').write('pwned')", ("error",)),
        Case("write_into_parent_of_workdir",
             "open('../escape.txt', 'w').write('x')", ("error",)),
        Case("delete_parent_of_workdir", "import shutil\nshutil.rmtree('..')", ("error",)),
        Case("delete_result_cache", f"import os\nos.remove({cache!r})", ("error",)),
        Case("overwrite_result_cache", f"open({cache!r}, 'wb').write(b'junk')", ("error",)),
        Case("write_outside_to_tmp", "open('/tmp/execretrieval-hostile-canary', 'w')",
             ("error",)),
        Case("huge_file", "with open('big', 'wb') as f:\n    while True:\n"
             "        f.write(b'x' * (1 << 20))", ("error",)),
        Case("print_gigabytes", "while True:\n    print('x' * (1 << 20))", ("timeout",)),
        Case("read_stdin", "import sys\nsys.stdin.read()\ninput()", ("error",)),
        Case("network_to_local_listener",
             f"import socket\ns = socket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
             "s.sendall(b'leak')", ("error",)),
        Case("deep_recursion_after_setrecursionlimit",
             "import sys\nsys.setrecursionlimit(10 ** 7)\n"
             "def r(n):\n    return list(map(r, [n + 1]))\nr(0)", ("error",)),
        Case("memory_bomb", "x = bytearray(1 << 36)", ("error",)),
        Case("sigterm_ignored_then_spin",
             "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nwhile True:\n"
             "    pass", ("timeout",)),
        Case("python_signal_handler", "import signal\n"
             "signal.signal(signal.SIGALRM, lambda s, f: None)", ("error",)),
        Case("thread_outlives_test", "import threading, time\n"
             "def spin():\n    while True:\n        time.sleep(0.01)\n"
             "threading.Thread(target=spin).start()", ("pass",)),
        Case("daemon_process_outlives_test", "import os, time\nif os.fork() == 0:\n"
             "    os.setsid()\n    while True:\n        time.sleep(0.05)", ("pass",)),
        Case("ctypes_segfault", "import ctypes\nctypes.string_at(0)", ("error",)),
        Case("ctypes_after_reimport", "import sys\nsys.modules.pop('ctypes', None)\n"
             "import ctypes", ("error",)),
        Case("real_segfault", "import faulthandler\nfaulthandler._sigsegv()", ("error",)),
        Case("forge_channel_then_fail",
             "import os\nfor fd in range(64):\n    try:\n"
             "        os.write(fd, b'ERXR1 00 pass 0\\n')\n    except OSError:\n        pass\n"
             "assert False", ("error",)),
        Case("forge_channel_then_exit",
             "import os, json\nfor fd in range(64):\n    try:\n"
             "        os.write(fd, b'ERXR1 00 pass 0\\n' + json.dumps({'i': 1, 'status': "
             "'pass', 'detail': ''}).encode() + b'\\n')\n    except OSError:\n        pass\n"
             "os._exit(0)", ("error",)),
        Case("steal_token_via_frames",
             "import os, re, sys\nfound = set()\nf = sys._getframe()\nwhile f is not None:\n"
             "    for space in (f.f_locals, f.f_globals):\n        for v in list(space.values()):\n"
             "            if isinstance(v, (str, bytes)) and re.fullmatch(r'[0-9a-f]{32}', "
             "v if isinstance(v, str) else v.decode('latin-1')):\n"
             "                found.add(v if isinstance(v, bytes) else v.encode())\n"
             "    f = f.f_back\nfor token in found:\n    for fd in range(64):\n"
             "        try:\n            os.write(fd, b'ERXR1 ' + token + b' pass 0\\n')\n"
             "        except OSError:\n            pass\nos._exit(0)", ("error",)),
        Case("steal_token_via_gc", "import gc\nprint(len(gc.get_objects()))", ("error",)),
        Case("rearm_the_channel", "import sys\nsys.audit('erxr.arm', 1)", ("error",)),
        Case("reenter_the_runner_properly",
             "import sys\nf = sys._getframe()\nwhile '_test_process' not in f.f_globals:\n"
             "    f = f.f_back\nf.f_globals['_test_process'](compile('pass', 't', 'exec'), "
             "compile('pass', 't', 'exec'), 99, {'pytest': None}, None)", ("error",)),
        Case("fake_verdict_event", "import sys\nsys.audit('erxr.verdict', b'pass', b'')",
             ("error",)),
        Case("call_the_runners_verdict_from_its_frame",
             "import sys\ntry:\n    1 / 0\nexcept ZeroDivisionError as e:\n"
             "    f = e.__traceback__.tb_frame\nwhile 'audit' not in f.f_locals:\n"
             "    f = f.f_back\nf.f_locals['audit']('erxr.verdict', b'pass', b'')",
             ("error",)),
        Case("reenter_the_runner",
             "import sys\nf = sys._getframe()\nwhile '_test_process' not in f.f_globals:\n"
             "    f = f.f_back\nrun = f.f_globals['_test_process']\n"
             "run(compile('pass', 't', 'exec'), compile('pass', 't', 'exec'), 1, "
             "{'memory_mb': 1024, 'max_processes': 64, 'file_size_mb': 16}, None, 1)",
             ("error",)),
        Case("trace_hook", "import sys\nsys.settrace(lambda *a: None)", ("error",)),
        Case("read_own_memory", "open('/proc/self/mem', 'rb')", ("error",)),
        Case("list_other_processes", "import os\nassert os.listdir('/proc') == []\n"
             "open('/proc/1/environ')", ("error",)),
        # --- issue 20: every comparison a test makes (the full grid: test_comparison_rules) ---
        Case("always_equal_in_a_list", "assert weird(2, 3) in [5, 6]", ("error",),
             code=ADD + "class Yes:\n    def __eq__(self, other):\n        return True\n"
                        "def weird(a, b):\n    return Yes()\n"),
        Case("always_less_in_a_chain", "assert 4 <= weird(2, 3) <= 6", ("error",),
             code=ADD + "class Yes:\n    def __le__(self, other):\n        return True\n"
                        "    __ge__ = __lt__ = __gt__ = __le__\n"
                        "def weird(a, b):\n    return Yes()\n"),
        Case("always_equal_against_approx", "assert weird(2, 3) == pytest.approx(5.0)",
             ("error",),
             code=ADD + "class Yes:\n    def __eq__(self, other):\n        return True\n"
                        "    def __sub__(self, other):\n        return 0\n    __rsub__ = __sub__\n"
                        "def weird(a, b):\n    return Yes()\n"),
        # arithmetic between the answer and the expected value: an object whose ``-``
        # gives 0 passes ``abs(f(x) - y) < eps`` for any y (HumanEval's float tests)
        Case("difference_that_is_always_zero", "assert abs(weird(1.33) - 0.33) < 1e-6",
             ("error",),
             code=ADD + "class Zero:\n    def __sub__(self, other):\n        return 0\n"
                        "    __rsub__ = __sub__\ndef weird(x):\n    return Zero()\n"),
        Case("difference_by_an_augmented_assignment", "d = weird(2)\nd -= 2\nassert d == 0",
             ("error",),
             code=ADD + "class Zero:\n    def __sub__(self, other):\n        return 0\n"
                        "    __rsub__ = __isub__ = __sub__\ndef weird(x):\n    return Zero()\n"),
        Case("ratio_that_is_always_one", "assert abs(weird(3) / 7.5 - 1) < 1e-9", ("error",),
             code=ADD + "class One:\n    def __truediv__(self, other):\n        return 1\n"
                        "def weird(x):\n    return One()\n"),
        # a thread of the candidate swaps a list's item between the runner's check that it
        # is plain data and the comparison (an always-equal object then decides): while
        # one runs, only values nothing can change are compared
        Case("thread_swaps_an_item_under_the_comparison", "assert race() == [5]", ("error",),
             code=ADD + "import threading\nclass Yes:\n    def __eq__(self, other):\n"
                        "        return True\n    __hash__ = object.__hash__\nL = [1]\n"
                        "def _flip(y=Yes()):\n    while True:\n        L[0] = y\n"
                        "        L[0] = 1\n"
                        "def race():\n    threading.Thread(target=_flip, daemon=True).start()\n"
                        "    return L\n"),
        Case("thread_swaps_a_class_under_the_arithmetic",
             "assert abs(race() - 0.5) < 1e-9", ("error",),
             code=ADD + "import threading\nclass I(float):\n    pass\nclass Zero(float):\n"
                        "    def __sub__(self, other):\n        return 0\n"
                        "x = I(7.0)\ndef _flip():\n    while True:\n"
                        "        x.__class__ = Zero\n        x.__class__ = I\n"
                        "def race():\n    threading.Thread(target=_flip, daemon=True).start()\n"
                        "    return x\n"),
        # pytest.raises' context is an object of a class made per call: reached through
        # __subclasses__ (class attributes change without an audit event in 3.11), its
        # expected type and match pattern were the candidate's to replace, so raising
        # any exception passed; a gc callback could replace __exit__ itself in the gap
        # between the class being made and the with statement looking it up
        Case("raises_context_class_patched_by_the_candidate",
             "with pytest.raises(ValueError, match='negative'):\n    weird(-1)\n"
             "from pytest import raises\nraises(KeyError, weird, 3)", ("error",),
             code=ADD + "def weird(x):\n    for c in object.__subclasses__():\n"
                        "        if c.__name__ == 'RaisesContext':\n"
                        "            c.expected = property(lambda self: BaseException)\n"
                        "            c.match = property(lambda self: None)\n"
                        "    raise TypeError('not the one the test expects')\n"),
        Case("raises_exit_replaced_by_a_gc_callback",
             "import gc\ngc.callbacks.append(patch)\ngc.set_threshold(1)\n"
             "for _ in range(30):\n    with pytest.raises(ValueError):\n        add(1, 2)",
             ("fail",),
             code=ADD + "def fake(*args):\n    return True\n"
                        "def patch(phase, info):\n"
                        "    for c in object.__subclasses__() + tuple.__subclasses__():\n"
                        "        if c.__name__ == 'RaisesContext' and vars(c).get("
                        "'__exit__') is not fake:\n"
                        "            c.__exit__ = fake\n"),
        # a standard-library function the test computes with, rebound by the candidate's
        # module (HumanEval's find_zero: assert math.fabs(poly(xs, x)) < 1e-4)
        Case("stdlib_function_the_test_uses_rebound",
             "import math\nassert math.fabs(add(1, 2)) < 1e-4 or True\n"
             "from math import fabs as size\nassert size(add(2, 2)) < 1e-4", ("error",),
             code="import math\nmath.fabs = lambda x: 0.0\n" + ADD),  # names math (issue 20)
        Case("shadow_builtins_and_pytest", "assert sorted([add(2, 2)]) == [5]\n"
             "with pytest.raises(ValueError):\n    add(1, 2)", ("fail",),
             code=ADD + "sorted = lambda x: [5]\nclass _P:\n    @staticmethod\n"
                        "    def raises(*a):\n"
                        "        return __import__('contextlib').suppress(BaseException)\n"
                        "pytest = _P()\n"),
        Case("rewrite_the_chains_defaults",
             "import sys\nfor c in sys._getframe().f_code.co_consts:\n"
             "    kw = getattr(c, '__kwdefaults__', None)\n    if kw:\n"
             "        kw['_compare'] = lambda *a: True\nassert 1 < add(1, 2) == 4",
             ("error",)),  # (a frame taken while a test runs is an error: issue 20)
    ]


CASE_NAMES = [c.name for c in _cases(World(Path("/x"), Path("/x"), Path("/x"), 1))]


# --- the world outside ------------------------------------------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("outside")
    home = root / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / "canary.txt").write_text("untouched")
    (home / ".ssh" / "id_ed25519").write_text("secret")
    cache_file = root / "cache" / "results.sqlite"
    cache = ResultCache(cache_file)
    cache.put("canary", SuiteResult(outcomes=(TestOutcome("t", "pass"),)))
    cache.close()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    listener.settimeout(0.05)
    # The real home of the user running the tests: as an ordinary user (the run that
    # test_sandbox_as_user starts) a throw-away account whose key we may write; as root
    # the fake home stands in (root's own ~/.ssh is never touched).
    user_home = home if AS_ROOT else Path(pwd.getpwuid(os.getuid()).pw_dir)
    (user_home / ".ssh").mkdir(exist_ok=True, mode=0o700)
    key = user_home / ".ssh" / "id_rsa"
    if not key.exists():
        key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-KEY-OF-THE-USER\n")
        key.chmod(0o600)
    sockets = []
    for path in (f"/tmp/execretrieval-hostile-{os.getpid()}.sock",
                 str(user_home / f".execretrieval-hostile-{os.getpid()}.sock")):
        unix = socket.socket(socket.AF_UNIX)
        unix.bind(path)
        unix.listen(5)
        unix.settimeout(0.05)
        sockets.append((path, unix))
        UNIX_LISTENERS.append(unix)
    sleeper = subprocess.Popen(["sleep", "3600"])  # a process of the user: kill(-1) target
    yield World(root, home, cache_file, listener.getsockname()[1], user_home,
                sockets[0][0], sockets[1][0], sleeper.pid)
    sleeper.kill()
    sleeper.wait()
    for path, unix in sockets:
        UNIX_LISTENERS.remove(unix)
        unix.close()
        os.unlink(path)
    listener.close()


@pytest.fixture(scope="module")
def listener_port(world):
    return world.port


UNIX_LISTENERS: list[socket.socket] = []


def _snapshot(root: Path) -> dict[str, str]:
    state = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            state[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            state[str(path)] = "dir"
    return state


def _sandbox_processes(owner_pid: int) -> list[int]:
    """Live candidate processes of the Oracle in ``owner_pid``: as root, those running as
    one of its sandbox uids; as an ordinary user, our uid's processes in a PID namespace
    other than ours and other than a sandbox server's own (that is, in a suite's)."""
    if not AS_ROOT:
        return _suite_processes()
    low = _UID_BASE + (owner_pid % 100_000) * 64
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        uid_line = next((ln for ln in status.splitlines() if ln.startswith("Uid:")), "")
        uids = [int(u) for u in uid_line.split()[1:]]
        state = next((ln for ln in status.splitlines() if ln.startswith("State:")), "")
        if any(low <= u < low + 64 for u in uids) and "Z" not in state.split()[1:2]:
            found.append(int(entry))
    return found


def _pid_ns(pid: str) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def _processes() -> Iterator[tuple[str, str, bytes]]:
    """(pid, /proc status text, cmdline) of every process still readable."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        yield entry, status, cmdline


def _suite_processes() -> list[int]:
    allowed, candidates = {_pid_ns("self")}, []
    for entry, status, cmdline in _processes():
        if f"Uid:\t{os.getuid()}\t" not in status or b"_sandbox_child.py" not in cmdline:
            continue
        state = next((ln for ln in status.splitlines() if ln.startswith("State:")), "")
        if "Z" in state.split()[1:2]:
            continue
        nspid = next((ln for ln in status.splitlines() if ln.startswith("NSpid:")), "")
        if nspid.split()[-1:] == ["1"] and len(nspid.split()) == 3:
            allowed.add(_pid_ns(entry))  # a server: PID 1 of its own namespace
        candidates.append(entry)
    return [int(p) for p in candidates if _pid_ns(p) not in allowed]


def _children_with(marker: str) -> list[int]:
    me, found = str(os.getpid()), []
    for entry, status, cmdline in _processes():
        ppid = next(ln for ln in status.splitlines() if ln.startswith("PPid:")).split()[1]
        if ppid == me and marker.encode() in cmdline:
            found.append(int(entry))
    return found


def _wait_gone(owner_pid: int, seconds: float = 3.0) -> list[int]:
    """SIGKILLed processes vanish asynchronously; give the kernel a moment."""
    deadline = time.monotonic() + seconds
    while True:
        left = _sandbox_processes(owner_pid)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def _check_world(world: World, before: dict[str, str]) -> None:
    assert _snapshot(world.root) == before, "a file outside the sandbox changed"
    assert not Path("/tmp/execretrieval-hostile-canary").exists()
    assert not (world.user_home / "pwned-by-extension").exists()
    cache = ResultCache(world.cache_file)
    assert cache.get("canary") is not None and not cache.moved_aside
    cache.close()
    if world.sleeper_pid:  # the user's own process survived kill(-1) and friends
        state = Path(f"/proc/{world.sleeper_pid}/status").read_text()
        assert "zombie" not in state, "a process of the user was killed"
    for unix in UNIX_LISTENERS:  # listening (reachable from here), yet nobody came
        with pytest.raises(TimeoutError):
            unix.accept()[0].close()


def _no_secret(result: SuiteResult) -> None:
    text = result.output + "".join(o.detail for o in result.outcomes)
    assert "SECRET-KEY-OF-THE-USER" not in text, "the user's key left the sandbox"


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=TIMEOUT, cache=None, workers=2) as o:
        yield o
    assert not _children_with("_sandbox_child"), "a sandbox server outlived close()"


def _expect(result: SuiteResult, case: Case) -> None:
    first, hostile, last = result.statuses
    assert first == "pass"
    assert hostile in case.expected, (case.name, result.outcomes[1])
    assert last == ("timeout" if hostile == "timeout" else "pass"), result.outcomes


# --- the three ways in ------------------------------------------------------------------


@pytest.mark.parametrize("name", CASE_NAMES)
def test_hostile_via_run(oracle, world, name):
    case = next(c for c in _cases(world) if c.name == name)
    before = _snapshot(world.root)
    started = time.monotonic()
    result = oracle.run(case.code, [OK_TESTS[0], case.test, OK_TESTS[1]], timeout=case.timeout)
    assert time.monotonic() - started < case.timeout + MARGIN
    _expect(result, case)
    _no_secret(result)
    assert not _wait_gone(os.getpid()), "a sandbox process was left behind"
    _check_world(world, before)
    if name == "network_to_local_listener":
        _assert_no_connection(world)


@pytest.mark.parametrize("name", CASE_NAMES)
def test_hostile_in_batch(oracle, world, name):
    case = next(c for c in _cases(world) if c.name == name)
    before = _snapshot(world.root)
    honest = (ADD, OK_TESTS)
    jobs = [honest, (case.code, [OK_TESTS[0], case.test, OK_TESTS[1]]), honest, honest]
    started = time.monotonic()
    if case.timeout == TIMEOUT:
        results = oracle.run_many(jobs)
    else:
        with Oracle(timeout=case.timeout, cache=None, workers=2) as slow:
            results = slow.run_many(jobs)
    assert time.monotonic() - started < case.timeout + MARGIN + (0 if case.timeout == TIMEOUT
                                                                 else 5)
    _expect(results[1], case)
    _no_secret(results[1])
    assert all(results[i].passed for i in (0, 2, 3)), "an honest suite was disturbed"
    assert not _wait_gone(os.getpid())
    _check_world(world, before)


@pytest.mark.parametrize("name", CASE_NAMES)
def test_hostile_via_cli(world, tmp_path, name):
    case = next(c for c in _cases(world) if c.name == name)
    before = _snapshot(world.root)
    (tmp_path / "code.py").write_text(case.code)
    (tmp_path / "tests.json").write_text(json.dumps([OK_TESTS[0], case.test, OK_TESTS[1]]))
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "execretrieval.cli", "run-tests", "--code",
         str(tmp_path / "code.py"), "--tests", str(tmp_path / "tests.json"), "--json",
         "--no-cache", "--timeout", str(case.timeout)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - started < case.timeout + MARGIN + 5  # + interpreter start-up
    assert "SECRET-KEY-OF-THE-USER" not in out
    statuses = [t["status"] for t in json.loads(out)["tests"]]
    assert statuses[1] in case.expected, (name, out)
    assert proc.returncode == (0 if statuses == ["pass"] * 3 else 1), err
    assert not _wait_gone(proc.pid)
    _check_world(world, before)


def _assert_no_connection(world: World) -> None:
    listener = socket.socket()
    try:
        listener.connect(("127.0.0.1", world.port))  # our own probe must still work
    finally:
        listener.close()


def test_network_listener_never_sees_the_candidate(world):
    """The listener exists and is reachable from here, but the sandbox cannot reach it."""
    with Oracle(timeout=TIMEOUT, cache=None, workers=1) as o:
        result = o.run(ADD, [f"import socket\nsocket.create_connection(('127.0.0.1', "
                             f"{world.port}), timeout=1)"])
    assert result.statuses == ("error",)
    assert "unreachable" in result.outcomes[0].detail.lower() or \
        "errno" in result.outcomes[0].detail.lower()


def test_monkey_patched_builtins_cannot_fool_later_tests(oracle):
    result = oracle.run(ADD, [
        "import builtins\nbuiltins.sorted = lambda x: [1, 2, 3]\n"
        "builtins.AssertionError = ValueError\nassert sorted([2]) == [1, 2, 3]",
        "assert sorted([3, 1]) == [1, 2, 3]",
        "import math\nmath.sqrt = lambda x: 3\nassert math.sqrt(4) == 3",
        "import math\nassert math.sqrt(4) == 3",
    ])
    # a test's ``sorted`` is the real builtin, even right after the test patched builtins
    assert result.statuses == ("fail", "fail", "pass", "fail")


def test_forged_pass_is_never_reported_as_pass(oracle):
    """Writing a pass verdict anywhere, then dying, must not count as a pass."""
    forgeries = [
        "import os\nos.write(1, b'pass\\n')\nos._exit(0)",
        "print('ERXR1 00 pass 0')\nimport os\nos._exit(0)",
        "import os\nfor fd in range(3, 64):\n    try:\n        os.write(fd, b'ERXR1 ' + "
        "b'0' * 32 + b' pass 0\\n')\n    except OSError:\n        pass\nos._exit(0)",
    ]
    result = oracle.run(ADD, forgeries)
    assert "pass" not in result.statuses


def _processes_mentioning(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
            except OSError:
                pass
    return found


def _wait_until(check, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


HOST_SCRIPT = """
import sys
from execretrieval import Oracle
oracle = Oracle(timeout=30, cache=None, workers=2)
print('ready', flush=True)
oracle.run_many([('x = 1', [sys.argv[1]])] * 2)
"""


@pytest.mark.parametrize("how", ["exit_without_close", "sigkill_mid_suite"])
def test_nothing_outlives_the_host(tmp_path, how):
    """Servers stop at interpreter exit (atexit) and even when the host is SIGKILLed."""
    test = "assert x == 1" if how == "exit_without_close" else "while True:\n    pass"
    proc = subprocess.Popen([sys.executable, "-c", HOST_SCRIPT, test],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    marker = f"execretrieval-sandbox-{proc.pid}-"
    if how == "sigkill_mid_suite":
        assert _wait_until(lambda: bool(_sandbox_processes(proc.pid)), 10)
        proc.kill()
    proc.wait(timeout=60)
    assert _wait_until(lambda: not _processes_mentioning(marker)), "a sandbox server survived"
    assert _wait_until(lambda: not _sandbox_processes(proc.pid)), "a candidate survived"


def test_threads_stop_only_comparisons_of_values_that_can_change(oracle):
    """While a thread the candidate started runs, a test may still compare values nothing
    can change (numbers, str, tuples of them); threads that ended (joined) change nothing;
    a list compared while one runs is an error that says why."""
    code = ("import threading\n"
            "def squares(xs):\n    out = []\n"
            "    ts = [threading.Thread(target=lambda x=x: out.append(x * x)) for x in xs]\n"
            "    for t in ts:\n        t.start()\n    for t in ts:\n        t.join()\n"
            "    return sorted(out)\n"
            "_stop = threading.Event()\n"
            "def background():\n"
            "    threading.Thread(target=_stop.wait, daemon=True).start()\n    return 42\n")
    result = oracle.run(code, [
        "assert squares([1, 2, 3]) == [1, 4, 9]",
        "assert background() == 42 and (1, 'a', None) == (1, 'a', None)\n"
        "assert abs(background() - 41.5) < 1",
        "x = background()\nassert [x] == [42]",
        "assert squares([3]) == [9]",
        "background()\nwith pytest.raises(ValueError):\n    int('x')",
        "squares([1])\nwith pytest.raises(ValueError, match='invalid'):\n    int('x')"])
    assert result.statuses == ("pass", "pass", "error", "pass", "error", "pass"), \
        result.outcomes
    assert "while a thread the candidate started is still running" in \
        result.outcomes[2].detail
    assert "pytest.raises while a thread" in result.outcomes[4].detail


def test_the_arithmetic_rewrite_sees_every_operator_of_the_bundled_tests():
    """The text check that lets most tests skip the arithmetic rewrite (a sign such as
    ``f(-1) == -1`` is no operator) misses no binary or augmented operator of any bundled
    benchmark's tests, nor of a few written to be awkward."""
    import ast as ast_

    from execretrieval.oracle._sandbox_rewrite import _ARITHMETIC

    tests = ["x = f(1) \\\n  - 0.33", "assert 1. -f(2) == 0", "assert [1][0]*2 == 2",
             "assert f'{x-1}' == '1'", "d = 1\nd -= 2", "assert 'a' 'b' + f() == 1"]
    for name in ("builtin", "humaneval", "stdlib", "tiny"):
        path = Path(__file__).resolve().parent.parent / "data" / name / "queries.jsonl"
        for line in path.read_text().splitlines():
            tests += json.loads(line)["test_suite"]
    with_operators = 0
    for test in tests:
        if any(isinstance(n, (ast_.BinOp, ast_.AugAssign)) for n in ast_.walk(ast_.parse(test))):
            with_operators += 1
            assert _ARITHMETIC.search(test), test
    assert with_operators > 50
    assert not _ARITHMETIC.search("assert clamp(-3, -5, 5) == -3 and f([1, -2]) == -1")
