"""Inside the sandbox: the per-suite supervisor S and its worker W (stdlib only).

Imported by the fork server (:mod:`_sandbox_child`), never by the engine. S is trusted,
PID 1 of the suite's PID namespace, and decides every outcome from what it observes: at
most one well-formed verdict per test from W, and how W ended.

S compiles the code and every test before any candidate code runs (tests with their
``==`` / ``!=`` routed through the runner-held plain-data equality, see
``_sandbox_hooks.py``), drops what W must not hold (capabilities, or root's uid), installs
the audit hooks and forks W. W runs the tests from a given one on, each in a fresh module
namespace registered in ``sys.modules`` as ``__candidate__``, and after each test compares
a fingerprint of what a test could patch for later tests (builtins, ``sys``, the modules
the code and tests import, ``sys.path`` and friends, cwd, recursion limit) and whether an
audit event says the process changed beyond that (new imports, processes, threads,
rlimits, environment, signal dispositions, classes of other modules). If anything changed,
W reports the test and exits, and S forks a fresh W for the next test, so no test sees
another test's patches, while honest suites cost one fork.

How a verdict is made unforgeable: the audit hook "channel" is defined in bare globals and
referenced by nothing but the interpreter's hook list. In W, before any candidate code runs,
the judge frame raises ``erxr.arm``: the hook makes a random token, writes ``HELLO <token>``
to W's pipe and remembers token, pipe, frame and pid in its closure. After each test that
same frame raises ``erxr.verdict``; the hook checks frame and pid and writes ``ERXR1 <token>
<index> <status> <stop> <len>`` plus the detail. Everything the judge calls after candidate
code ran was bound before it (exec, the exception types, the hooks' functions, which take
all they use as default arguments and cannot be rebound: the guard refuses assignments to
them). Candidates may walk frames but frames hold no secret; the ways to reach the hook's
closure are refused by the guard: gc object walks, ``sys._current_frames``, tracing and
profiling, Python-level signal handlers, ``ctypes`` and sub-interpreters; ``/proc`` is
hidden by the server. S rejects anything else in the pipe as tampering.
"""

from __future__ import annotations

import builtins
import ctypes
import json
import operator
import os
import resource
import select
import signal
import sys
import time
import types

from _sandbox_hooks import HOOKS, compile_test

_LIBC = ctypes.CDLL(None, use_errno=True)
_MAGIC = b"ERXR1"
_MAX_MESSAGE = 8192
_BLOCKED_EVENTS = frozenset({
    "sys._current_frames", "sys._current_exceptions", "sys.settrace", "sys.setprofile",
    "sys.addaudithook", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
})
_BLOCKED_IMPORTS = frozenset({"ctypes", "_ctypes", "_signal", "_testcapi",
                              "_testinternalcapi", "_xxsubinterpreters", "_xxinterpchannels"})
# After any of these a W process is no longer what a fresh one would be: stop after the test.
_TAINT_EVENTS = frozenset({
    "import", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.system", "os.exec",
    "subprocess.Popen", "_thread.start_new_thread", "resource.setrlimit", "resource.prlimit",
    "os.putenv", "os.unsetenv", "erxr.taint", "sys.set_asyncgen_hooks", "os.setuid",
})
# Watched by the fingerprint besides the modules the code and tests import by name.
_WATCHED = ("builtins", "sys", "pytest", "os", "os.path", "math", "re", "json", "random",
            "collections", "functools", "itertools", "operator", "string", "copy", "heapq",
            "bisect", "typing", "dataclasses", "enum", "gc", "warnings", "copyreg", "types",
            "abc", "io", "statistics", "fractions", "decimal", "datetime", "time")
_RUNNER_MODULES = ("__main__", "_sandbox_child", "_sandbox_runner", "_sandbox_hooks",
                   "_sandbox_setup")
_CANDIDATE = "__candidate__"


def _emit(stream: int, i: int, status: str, detail: str) -> None:
    os.write(stream, json.dumps({"i": i, "status": status, "detail": detail}).encode() + b"\n")


def _prctl(option: int, arg: int) -> int:
    prctl = getattr(_LIBC, "prctl", None) if "_LIBC" in globals() else None
    if prctl is None:  # Linux only; elsewhere these measures are simply absent
        return -1
    return int(prctl(option, arg, 0, 0, 0))


def drop_capabilities() -> bool:
    """Leave this process (and its children) no capability at all: bounding and ambient
    sets cleared, then effective/permitted/inheritable set to empty. True if it held."""
    for cap in range(64):
        _prctl(24, cap)  # PR_CAPBSET_DROP (needs CAP_SETPCAP, so before capset)
    _prctl(47, 4)  # PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL
    capset = getattr(_LIBC, "capset", None)
    if capset is None:
        return False
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this pid
    data = (ctypes.c_uint32 * 6)()  # two {effective, permitted, inheritable} of zeros
    if capset(header, data) != 0:
        return False
    _prctl(38, 1)  # PR_SET_NO_NEW_PRIVS
    got = (ctypes.c_uint32 * 6)()
    # nothing effective or permitted, and CAP_SYS_ADMIN (21) out of the bounding set
    return _LIBC.capget(header, got) == 0 and not any(got) and _prctl(23, 21) == 0


def _static_imports(sources: list[str]) -> list[str]:
    """Module names the code and tests import by name (and their parent packages)."""
    import ast

    names: set[str] = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            found = []
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in found:
                parts = name.split(".")
                names.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
    return sorted(names)


def _runner(req: dict, config: dict, uid: int | None, workdir: str, outfd: int,
            stream: int, lifeline: int, active: dict) -> None:
    """S: run every test of one suite in as few W processes as stay clean; append outcomes
    to ``stream``. ``lifeline`` is a pipe the server watches (EOF when S ends)."""
    _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the server
    _prctl(36, 1)              # PR_SET_CHILD_SUBREAPER: orphans come back to us
    _prctl(4, 0)               # PR_SET_DUMPABLE 0: no ptrace or /proc/<S> by W's uid
    keep = [os.dup(fd) for fd in (stream, lifeline, outfd)]  # above any target below
    devnull = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):  # fd 1 was the server's protocol pipe: never let W near it
        os.dup2(devnull, fd)
    for target, fd in zip((3, 4, 5), keep):
        os.dup2(fd, target)
    stream, outfd = 3, 5
    os.closerange(6, 1 << 16)
    os.chdir(workdir)
    os.environ.clear()
    os.environ.update(HOME=workdir, TMPDIR=workdir, PATH="/usr/bin:/bin", LANG="C.UTF-8")
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    tests, timeout, limits = req["tests"], float(req["timeout"]), req["limits"]
    try:
        code = compile(req["code"], "<candidate>", "exec")
    except (SyntaxError, ValueError, OverflowError) as exc:
        for i in range(len(tests)):
            _emit(stream, i, "error", _describe(exc))
        return
    hooks = _make_hooks(req["code"], tests)
    compiled: list = []
    for i, test in enumerate(tests):
        try:
            compiled.append(compile_test(test, hooks["eq"], hooks["chain"], hooks["salt"]))
        except (SyntaxError, ValueError, OverflowError, RecursionError) as exc:
            compiled.append(None)
            _emit(stream, i, "error", _describe(exc))
    in_pidns = active["pid_namespace"] and os.getpid() == 1
    if uid is None and active.get("user_namespace"):
        drop_capabilities()  # nothing below needs one; W inherits none
    cpu_seconds = int(limits.get("cpu_seconds") or 0) or max(1, int(timeout + 1.999))
    _install_hooks(hooks)
    out_r, out_w = os.pipe()
    os.set_blocking(out_r, False)
    output = _Output(outfd, 4 * int(req["output_chars"]) + 4)
    deadline = time.monotonic() + timeout
    work = tuple(compiled)
    i = 0
    while i < len(work):
        if work[i] is None:
            i += 1
            continue
        if time.monotonic() >= deadline:
            _timeout_rest(stream, i, work, timeout, reached=False)
            break
        i, timed_out = _run_worker(code, work, i, deadline, hooks, limits, cpu_seconds, uid,
                                   in_pidns, out_r, out_w, output, stream)
        if timed_out:
            _timeout_rest(stream, i, work, timeout, reached=True)
            break
    output.drain(out_r)


class _Output:
    """W's stdout and stderr: the head is kept (in the server's output file), the rest read
    and dropped, so printing any amount is never an error."""

    def __init__(self, fd: int, cap: int) -> None:
        self.fd, self.left = fd, cap

    def drain(self, fd: int) -> None:
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                return
            if self.left > 0:
                os.write(self.fd, chunk[: self.left])
                self.left -= len(chunk)


def _timeout_rest(stream: int, start: int, work: tuple, timeout: float, *,
                  reached: bool) -> None:
    for i in range(start, len(work)):
        if work[i] is None:
            continue
        if reached and i == start:
            detail = f"the suite's time limit of {timeout:g} s ran out during this test"
        else:
            detail = f"not reached: the suite's time limit of {timeout:g} s ran out"
        _emit(stream, i, "timeout", detail)


def _run_worker(code, work: tuple, start: int, deadline: float, hooks: dict, limits: dict,
                cpu_seconds: int, uid: int | None, in_pidns: bool, out_r: int, out_w: int,
                output: _Output, stream: int) -> tuple[int, bool]:
    """Fork W for tests ``start``...; return the next test to run and whether time ran out."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(rfd)
            os.close(out_r)
            _worker(code, work, start, wfd, out_w, hooks, limits, cpu_seconds, uid,
                    in_pidns)
        finally:
            os._exit(71)
    os.close(wfd)
    if not in_pidns:  # the namespace is the cleanup unit; without it, the process group
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
    os.set_blocking(rfd, False)
    try:
        pidfd: int | None = os.pidfd_open(pid)
    except (AttributeError, OSError):  # kernel < 5.3: poll instead
        pidfd = None
    reader = _Verdicts(work, start, stream)
    waited = [rfd, out_r] + ([pidfd] if pidfd is not None else [])
    status_word = None
    while status_word is None and not reader.broken:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select(waited, [], [],
                                    left if pidfd is not None else min(left, 0.01))
        if out_r in ready:
            output.drain(out_r)
        if rfd in ready and reader.feed(rfd):
            waited.remove(rfd)
        if pidfd is None or pidfd in ready:
            done, word = os.waitpid(pid, 0 if pidfd is not None else os.WNOHANG)
            status_word = word if done else None
    if not reader.broken:
        reader.feed(rfd)
    os.close(rfd)
    if pidfd is not None:
        os.close(pidfd)
    _cleanup(pid, in_pidns, uid, reaped=status_word is not None)
    output.drain(out_r)
    if reader.broken:  # tampering: the current test is an error, the rest start afresh
        return reader.next + 1, False
    if status_word is None:  # the suite's deadline, W still running reader.next
        return reader.next, True
    if reader.next < len(work) and not reader.finished:
        # W ended without a verdict for the test it was running
        reader.emit_current(*_ending(status_word))
        return reader.next + 1, False
    return reader.next, False


class _Verdicts:
    """Parses W's pipe: ``HELLO <token>`` once, then one message per test, in order."""

    def __init__(self, work: tuple, start: int, stream: int) -> None:
        self.work, self.stream, self.data = work, stream, b""
        self.token: bytes | None = None
        self.next = self._skip(start)
        self.finished = False  # W said it stops, or ran every test
        self.broken = False

    def _skip(self, i: int) -> int:
        while i < len(self.work) and self.work[i] is None:
            i += 1
        return i

    def emit_current(self, status: str, detail: str) -> None:
        _emit(self.stream, self.next, status, detail)

    def feed(self, fd: int) -> bool:
        """Read what is there and act on complete messages; True at EOF."""
        eof = False
        while True:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                eof = True
                break
            self.data += chunk
            if len(self.data) > _MAX_MESSAGE * 4:
                break
        self._parse()
        return eof

    def _tampered(self) -> None:
        self.broken = True
        if self.next < len(self.work):
            self.emit_current("error", "Tampered: the result channel received data not "
                                       "written by the test runner")

    def _parse(self) -> None:
        while self.data and not self.broken:
            head, newline, rest = self.data.partition(b"\n")
            if not newline:
                if len(head) > 200:
                    self._tampered()
                return
            if self.token is None:
                if head.startswith(b"HELLO ") and len(head) == 38:
                    self.token, self.data = head[6:], rest
                    continue
                self._tampered()
                return
            parts = head.split(b" ")
            if (self.finished or len(parts) != 6 or parts[0] != _MAGIC
                    or parts[1] != self.token or parts[2] != str(self.next).encode()
                    or parts[3] not in (b"pass", b"fail", b"error")
                    or parts[4] not in (b"0", b"1") or not parts[5].isdigit()
                    or int(parts[5]) > _MAX_MESSAGE):
                self._tampered()
                return
            size = int(parts[5])
            if len(rest) < size:
                return  # the rest of the detail is still on its way
            self.emit_current(parts[3].decode(), rest[:size].decode("utf-8", "replace"))
            self.data = rest[size:]
            self.next = self._skip(self.next + 1)
            if parts[4] == b"1" or self.next >= len(self.work):
                self.finished = True


def _ending(status_word: int) -> tuple[str, str]:
    """The outcome of a test whose W ended without delivering a verdict."""
    if os.WIFSIGNALED(status_word):
        sig = os.WTERMSIG(status_word)
        if sig == signal.SIGXCPU:
            return "timeout", "the CPU time limit ran out during this test"
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = str(sig)
        return "error", f"Crashed: the test process was killed by signal {name}"
    code = os.waitstatus_to_exitcode(status_word)
    return "error", f"Exited: the test process exited with code {code} before the test finished"


def _cleanup(pid: int, in_pidns: bool, uid: int | None, *, reaped: bool) -> None:
    """Kill W and whatever it left running (threads die with W; processes need this)."""
    if not reaped:
        for target in (lambda: os.killpg(pid, signal.SIGKILL),
                       lambda: os.kill(pid, signal.SIGKILL)):
            try:
                target()
            except OSError:
                pass
        os.waitpid(pid, 0)
    if in_pidns:
        while True:  # orphans come to PID 1: reap the dead, stop at the first live one
            try:
                if os.waitpid(-1, os.WNOHANG) == (0, 0):
                    break
            except ChildProcessError:  # no child at all: the namespace holds only us
                return
        os.kill(-1, signal.SIGKILL)  # every other process of this namespace
        _reap_all()
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    if uid is not None:
        _kill_uid(uid)
    _kill_descendants()


def _reap_all() -> None:
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def _kill_descendants() -> None:
    """Without a PID namespace: S is a subreaper, so every orphan of W becomes S's child;
    kill S's children until none is left (listed in /proc/self/task/*/children)."""
    for _ in range(1000):
        children: set[int] = set()
        try:
            for task in os.listdir("/proc/self/task"):
                with open(f"/proc/self/task/{task}/children") as handle:
                    children.update(int(p) for p in handle.read().split())
        except OSError:  # no /proc: reap what died and accept the documented limit
            children = set()
        for child in children:
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                pass
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        if not children:
            return


def _kill_uid(uid: int) -> None:
    """Without PID namespaces: kill(-1) as the sandbox uid kills all of that uid's processes."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setresuid(uid, uid, uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def _describe(exc: BaseException) -> str:
    try:
        text = str(exc)
    except BaseException:  # a hostile __str__
        text = "<unprintable>"
    name = type(exc).__name__
    return (f"{name}: {text}" if text else name)[:2000]


def _set_limits(limits: dict, cpu_seconds: int, uid: int | None, tests: int) -> None:
    mb = 1024 * 1024
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = int(used.ru_utime + used.ru_stime) + 1
    # RLIMIT_CPU: a hard cap for all tests W may run; the soft limit moves per test.
    wanted = [(resource.RLIMIT_CORE, 0, 0),
              (resource.RLIMIT_CPU, spent + cpu_seconds, spent + cpu_seconds * tests + 1),
              (resource.RLIMIT_FSIZE, int(limits["file_size_mb"] * mb), None),
              (resource.RLIMIT_AS, int(limits["memory_mb"] * mb), None)]
    if uid is not None or os.geteuid() != 0:  # root ignores RLIMIT_NPROC
        wanted.append((resource.RLIMIT_NPROC, int(limits["max_processes"]), None))
    for which, soft, hard in wanted:
        if not soft and which != resource.RLIMIT_CORE:
            continue  # 0 = no limit
        try:
            resource.setrlimit(which, (soft, soft if hard is None else hard))
        except (ValueError, OSError):
            pass


def _make_hooks(code_source: str, tests: list[str]) -> dict:
    """Once per suite, in S: the hooks' functions, made in bare globals."""
    namespace: dict = {"__builtins__": builtins}
    exec(_HOOKS_CODE, namespace)  # bare globals: nothing there leads back to this module
    pytest_shim = sys.modules["pytest"]
    eq, chain = namespace["make_eq"](
        pytest_shim.approx, sys.audit, operator.lt, operator.le, operator.gt, operator.ge,
        operator.contains, operator.is_, operator.is_not, operator.not_)
    watched = tuple(dict.fromkeys(_WATCHED + tuple(_static_imports([code_source, *tests]))))
    fingerprint = namespace["make_fingerprint"](
        watched, builtins.__dict__, sys.modules, os.getcwd, sys.getrecursionlimit, sys,
        tuple, list, list.extend, dict.values, dict.keys, object.__getattribute__)
    return {"namespace": namespace, "eq": eq, "chain": chain, "fingerprint": fingerprint,
            "same": namespace["same"], "describe": namespace["describe"],
            "flush": namespace["flush"], "pytest": pytest_shim,
            "salt": os.urandom(8).hex()}


def _install_hooks(hooks: dict) -> None:
    """In S, before any W: audit hooks (inherited by every W) and the restricted signal."""
    import _signal
    import gc

    namespace = hooks["namespace"]
    hidden = namespace["make_signal"](_signal.signal, sys.audit, callable, int)
    _signal.signal = hidden  # signal.signal (the enum wrapper) calls through it
    main = sys.modules.get("__main__")
    for name in list(sys.modules):
        if name in _RUNNER_MODULES or name.split(".")[0] in ("ctypes", "_ctypes"):
            del sys.modules[name]
    setup_module = sys.modules.get("_sandbox_setup")
    for module_globals in (globals(), getattr(main, "__dict__", {}),
                           getattr(setup_module, "__dict__", {})):
        for name in ("ctypes", "_LIBC"):
            module_globals.pop(name, None)
    approx = hooks["pytest"].approx
    protected = (hooks["eq"], hooks["chain"], hooks["fingerprint"], hooks["same"],
                 hooks["describe"], hooks["flush"], hidden, approx, approx.__eq__)
    # Installed once here, inherited by every W; the guard last, since it then refuses
    # further hooks. S's own few audited calls (fork, open) pass both.
    sys.addaudithook(namespace["make_channel"](
        os.urandom, os.write, os._exit, gc.disable, gc.enable, sys._getframe, os.getpid, len,
        PermissionError, _MAGIC, _TAINT_EVENTS, _CANDIDATE,
        type.__dict__["__dict__"].__get__, type, issubclass))
    sys.addaudithook(namespace["make_guard"](
        _BLOCKED_EVENTS, _BLOCKED_IMPORTS, hidden, protected, PermissionError))


def _worker(code, work: tuple, start: int, wfd: int, out_w: int, hooks: dict, limits: dict,
            cpu_seconds: int, uid: int | None, in_pidns: bool) -> None:
    """Body of W. Every name used after candidate code runs is bound locally first."""
    exit_, audit, exec_, AssertionError_ = os._exit, sys.audit, exec, AssertionError
    BaseException_, sys_, ModuleType, builtins_ = BaseException, sys, types.ModuleType, builtins
    describe, flush, fingerprint, same = (hooks["describe"], hooks["flush"],
                                          hooks["fingerprint"], hooks["same"])
    modules, put, pop, pytest_shim = sys.modules, dict.__setitem__, dict.pop, hooks["pytest"]
    getrusage, setrlimit, getrlimit = (resource.getrusage, resource.setrlimit,
                                       resource.getrlimit)
    RUSAGE_SELF, RLIMIT_CPU, range_, int_ = resource.RUSAGE_SELF, resource.RLIMIT_CPU, range, int
    os.dup2(out_w, 1)
    os.dup2(out_w, 2)
    os.dup2(wfd, 3)
    wfd = 3
    os.closerange(4, 1 << 16)
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    elif not in_pidns:
        os.setpgid(0, 0)  # without a PID namespace, cleanup goes by process group
    _prctl(38, 1)  # PR_SET_NO_NEW_PRIVS (S may still hold root's; W never does)
    _set_limits(limits, cpu_seconds, uid, len(work) - start)
    cpu_hard = getrlimit(RLIMIT_CPU)[1]
    audit("erxr.arm", wfd)  # from this very frame: the only one that may vote later
    baseline = fingerprint()
    for i in range_(start, len(work)):
        test = work[i]
        if test is None:
            continue
        used = getrusage(RUSAGE_SELF)
        soft = int_(used.ru_utime + used.ru_stime) + 1 + cpu_seconds
        try:
            setrlimit(RLIMIT_CPU, (soft if soft < cpu_hard else cpu_hard, cpu_hard))
        except BaseException_:
            pass
        module = ModuleType("__candidate__")
        namespace = module.__dict__
        put(namespace, "__builtins__", builtins_)
        put(namespace, "pytest", pytest_shim)
        put(modules, "__candidate__", module)
        status, detail = b"pass", ""
        try:
            exec_(code, namespace)
            exec_(test, namespace)
            flush(sys_)
        except AssertionError_ as exc:
            status, detail = b"fail", describe(exc)
            if detail.startswith("AssertionError: "):
                detail = detail[16:]
        except BaseException_ as exc:
            status, detail = b"error", describe(exc)
        if status != b"pass":
            try:
                flush(sys_)
            except BaseException_:
                pass
        pop(modules, "__candidate__", None)
        module = namespace = None  # the candidate's objects go now, before the check
        try:
            dirty = not same(baseline, fingerprint())
        except BaseException_:
            dirty = True
        # exits when W is no longer clean (dirty, or an audit event said so)
        audit("erxr.verdict", i, status, detail.encode("utf-8", "replace"), dirty)
    exit_(0)


_HOOKS_CODE = compile(HOOKS, "<sandbox-hooks>", "exec")
