"""Inside the sandbox: the per-suite runner R and the per-test process T (stdlib only).

Imported by the fork server (:mod:`_sandbox_child`), never by the engine. R is trusted and
decides every outcome from what it observes: T's exit and at most one verdict message.

How a verdict is made unforgeable: R installs an audit hook (the "channel") before it forks
any T, defined in bare globals and referenced by nothing but the interpreter's hook list.
In T, before any candidate code runs, the harness frame raises ``erxr.arm``: the hook makes
a random token, writes ``HELLO <token>`` to T's pipe and remembers the token, the pipe, the
calling frame and the pid, all in its closure. After the test that same frame raises
``erxr.verdict``; the hook checks frame, pid and once-only, and writes ``ERXR1 <token>
<status> <len>`` plus the detail. Candidates may walk frames (``sys._getframe`` stays
allowed: namedtuple, enum and logging need it) but frames hold no secret; the only ways to
reach the hook's closure or its running frame are refused by a second hook: gc object
walks, ``sys._current_frames``, tracing and profiling, Python-level signal handlers,
``ctypes`` (raw memory) and sub-interpreters; ``/proc`` is hidden by the server. R rejects
anything else in the pipe as tampering.
"""

from __future__ import annotations

import builtins
import ctypes
import json
import os
import resource
import select
import signal
import sys
import time

_LIBC = ctypes.CDLL(None, use_errno=True)
_MAGIC = b"ERXR1"
_MAX_DETAIL = 2000
_MAX_MESSAGE = 8192
_BLOCKED_EVENTS = frozenset({
    "sys._current_frames", "sys._current_exceptions", "sys.settrace", "sys.setprofile",
    "sys.addaudithook", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
})
_BLOCKED_IMPORTS = frozenset({"ctypes", "_ctypes", "_signal", "_testcapi",
                              "_testinternalcapi", "_xxsubinterpreters", "_xxinterpchannels"})
_RUNNER_MODULES = ("__main__", "_sandbox_child", "_sandbox_runner")



def _emit(stream: int, i: int, status: str, detail: str) -> None:
    os.write(stream, json.dumps({"i": i, "status": status, "detail": detail}).encode() + b"\n")


def _prctl(option: int, arg: int) -> None:
    prctl = getattr(_LIBC, "prctl", None) if "_LIBC" in globals() else None
    if prctl is not None:  # Linux only; elsewhere these measures are simply absent
        prctl(option, arg, 0, 0, 0)


def _runner(req: dict, config: dict, uid: int | None, workdir: str, outfd: int,
            stream: int, lifeline: int, active: dict) -> None:
    """Run every test of one suite in its own forked process; append outcomes to ``stream``.

    ``lifeline`` is a pipe the server watches: it reads EOF when R ends, so the server
    sleeps through the whole suite instead of waking for every test.
    """
    _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the server
    _prctl(36, 1)              # PR_SET_CHILD_SUBREAPER: orphans come back to us
    _prctl(4, 0)               # PR_SET_DUMPABLE 0: no /proc/<R>/fd or ptrace by T's uid
    devnull = os.open("/dev/null", os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(outfd, 1)          # fd 1 was the server's protocol pipe: never let T near it
    os.dup2(outfd, 2)
    os.dup2(stream, 3)
    os.dup2(lifeline, 4)
    stream = 3
    os.closerange(5, 1 << 16)
    for stream_ in (sys.stdout, sys.stderr):  # nothing buffered may leak into T's output
        try:
            stream_.flush()
        except (OSError, ValueError):
            pass
    os.chdir(workdir)
    os.environ.clear()
    os.environ.update(HOME=workdir, TMPDIR=workdir, PATH="/usr/bin:/bin", LANG="C.UTF-8")
    tests, timeout, limits = req["tests"], float(req["timeout"]), req["limits"]
    try:
        code = compile(req["code"], "<candidate>", "exec")
    except (SyntaxError, ValueError, OverflowError) as exc:
        for i in range(len(tests)):
            _emit(stream, i, "error", _describe(exc))
        return
    in_pidns = active["pid_namespace"] and os.getpid() == 1
    cpu_seconds = int(limits.get("cpu_seconds") or 0) or max(1, int(timeout + 1.999))
    hooks = _prepare_children(limits, cpu_seconds, uid)
    output_cap = 4 * int(req["output_chars"]) + 4  # what the server reads back at most
    deadline = time.monotonic() + timeout
    for i, test in enumerate(tests):
        if time.monotonic() >= deadline:
            _timeout_rest(stream, i, len(tests), timeout, reached=False)
            return
        try:
            test_code = compile(test, "<test>", "exec")
        except (SyntaxError, ValueError, OverflowError) as exc:
            _emit(stream, i, "error", _describe(exc))
            continue
        status, detail = _run_one(code, test_code, deadline, hooks, uid, in_pidns)
        if status == "timeout" and not detail:  # the suite's deadline, not a CPU limit
            _timeout_rest(stream, i, len(tests), timeout, reached=True)
            return
        _emit(stream, i, status, detail)
        if os.fstat(1).st_size > output_cap:  # keep the head; later tests may still print
            os.ftruncate(1, output_cap)


def _timeout_rest(stream: int, start: int, total: int, timeout: float, *, reached: bool) -> None:
    for i in range(start, total):
        if reached and i == start:
            detail = f"the suite's time limit of {timeout:g} s ran out during this test"
        else:
            detail = f"not reached: the suite's time limit of {timeout:g} s ran out"
        _emit(stream, i, "timeout", detail)


def _run_one(code, test_code, deadline: float, hooks: dict, uid: int | None,
             in_pidns: bool) -> tuple[str, str]:
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(rfd)
            _test_process(code, test_code, wfd, hooks, uid)
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
    data, waited, status_word = b"", [rfd] + ([pidfd] if pidfd is not None else []), None
    while status_word is None:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select(waited, [], [], left if pidfd is not None else min(left, 0.01))
        if rfd in ready:
            data, eof = _drain(rfd, data)
            if eof:
                waited.remove(rfd)
        if pidfd is None or pidfd in ready:
            done, word = os.waitpid(pid, 0 if pidfd is not None else os.WNOHANG)
            status_word = word if done else None
    data, _ = _drain(rfd, data)
    os.close(rfd)
    if pidfd is not None:
        os.close(pidfd)
    _cleanup(pid, in_pidns, uid, reaped=status_word is not None)
    if status_word is None:
        return "timeout", ""
    return _judge(data, status_word)


def _drain(fd: int, data: bytes) -> tuple[bytes, bool]:
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return data, False
        if not chunk:
            return data, True
        if len(data) <= _MAX_MESSAGE:
            data += chunk[: _MAX_MESSAGE + 1]


def _cleanup(pid: int, in_pidns: bool, uid: int | None, *, reaped: bool) -> None:
    """Kill whatever the test left running (threads die with T; processes need this)."""
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
    """Without a PID namespace: R is a subreaper, so every orphan of T becomes R's child;
    kill R's children until none is left (listed in /proc/self/task/*/children)."""
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


def _judge(data: bytes, status_word: int) -> tuple[str, str]:
    """Turn T's messages (or, lacking a verdict, how T ended) into an outcome.

    T first announces its token (before candidate code runs), then sends one verdict
    carrying it. Anything else in the pipe means someone else wrote there.
    """
    hello, _, data = data.partition(b"\n")
    token = hello[6:] if hello.startswith(b"HELLO ") and len(hello) == 38 else None
    if token is None:
        return "error", "the test process failed before running the test"
    if data:
        head, _, detail = data.partition(b"\n")
        parts = head.split(b" ")
        if (len(parts) == 4 and parts[0] == _MAGIC and parts[1] == token
                and parts[2] in (b"pass", b"fail", b"error") and parts[3].isdigit()
                and int(parts[3]) == len(detail)):
            return parts[2].decode(), detail.decode("utf-8", "replace")
        return "error", ("Tampered: the result channel received data not written by the test "
                         "runner")
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


def _describe(exc: BaseException) -> str:
    try:
        text = str(exc)
    except BaseException:  # a hostile __str__
        text = "<unprintable>"
    name = type(exc).__name__
    return (f"{name}: {text}" if text else name)[:_MAX_DETAIL]


def _set_limits(limits: dict, cpu_seconds: int, uid: int | None) -> None:
    mb = 1024 * 1024
    wanted = [(resource.RLIMIT_CORE, 0), (resource.RLIMIT_CPU, cpu_seconds),
              (resource.RLIMIT_FSIZE, int(limits["file_size_mb"] * mb)),
              (resource.RLIMIT_AS, int(limits["memory_mb"] * mb))]
    if uid is not None or os.geteuid() != 0:  # root ignores RLIMIT_NPROC
        wanted.append((resource.RLIMIT_NPROC, int(limits["max_processes"])))
    for which, value in wanted:
        if not value and which != resource.RLIMIT_CORE:
            continue  # 0 = no limit
        hard = value + 1 if which == resource.RLIMIT_CPU else value
        try:
            resource.setrlimit(which, (value, hard))
        except (ValueError, OSError):
            pass


def _prepare_children(limits: dict, cpu_seconds: int, uid: int | None) -> dict:
    """Once per suite, in R: everything every T inherits, so forks stay cheap.

    Limits, no_new_privs and the audit hooks are inherited by children; the runner's
    modules and its ctypes handle are dropped from reach (candidates can walk frames to
    these globals). R itself needs none of this afterwards.
    """
    import _signal

    _prctl(38, 1)  # PR_SET_NO_NEW_PRIVS
    _set_limits(limits, cpu_seconds, uid)
    namespace: dict = {"__builtins__": builtins}
    exec(_HOOKS_CODE, namespace)  # bare globals: nothing there leads back to this module
    hidden = namespace["make_signal"](_signal.signal)
    _signal.signal = hidden  # signal.signal (the enum wrapper) calls through it
    main = sys.modules.get("__main__")
    for name in list(sys.modules):
        if name in _RUNNER_MODULES or name.split(".")[0] in ("ctypes", "_ctypes"):
            del sys.modules[name]
    for module_globals in (globals(), getattr(main, "__dict__", {})):
        for name in ("ctypes", "_LIBC"):
            module_globals.pop(name, None)
    import gc

    # Installed once here, inherited by every T; the guard last, since it then refuses
    # further hooks. R's own few audited calls (compile, fork, open) pass both.
    sys.addaudithook(namespace["make_channel"](
        os.urandom, os.write, os._exit, gc.disable, sys._getframe, os.getpid, len,
        PermissionError, _MAGIC))
    sys.addaudithook(namespace["make_guard"](
        _BLOCKED_EVENTS, _BLOCKED_IMPORTS, hidden, PermissionError))
    return {"pytest": sys.modules["pytest"]}


def _test_process(code, test_code, wfd: int, hooks: dict, uid: int | None) -> None:
    """Body of T. Every name used after candidate code runs is bound locally first."""
    exit_, audit, AssertionError_ = os._exit, sys.audit, AssertionError
    BaseException_, describe, flush, sys_ = BaseException, _describe, _flush, sys
    os.closerange(3, wfd)
    os.closerange(wfd + 1, 1 << 16)
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    else:
        os.setpgid(0, 0)  # without a PID namespace, cleanup goes by process group
    namespace = {"__name__": "__candidate__", "__builtins__": builtins,
                 "pytest": hooks["pytest"]}
    audit("erxr.arm", wfd)  # from this very frame: the only one that may vote later
    status, detail = b"pass", ""
    try:
        exec(code, namespace)
        exec(test_code, namespace)
        flush(sys_)
    except AssertionError_ as exc:
        status, detail = b"fail", describe(exc)
        detail = detail.removeprefix("AssertionError: ")
    except BaseException_ as exc:
        status, detail = b"error", describe(exc)
    if status != b"pass":
        try:
            flush(sys_)
        except BaseException_:
            pass
    audit("erxr.verdict", status, detail.encode("utf-8", "replace"))  # exits on success
    exit_(72)


def _flush(sys_) -> None:  # type: ignore[no-untyped-def]
    """Flush whatever the candidate left as sys.stdout / sys.stderr (os._exit will not)."""
    for stream in (sys_.stdout, sys_.stderr):
        if stream is not None:
            stream.flush()


_HOOKS = """
def make_signal(original):
    def signal(signalnum, handler, *, _original=original):
        \"\"\"signal.signal restricted to SIG_DFL / SIG_IGN (handlers would receive frames).\"\"\"
        if callable(handler):
            raise PermissionError("Python-level signal handlers are disabled in the sandbox")
        return _original(int(signalnum), int(handler))
    return signal

def make_guard(blocked, blocked_imports, hidden, error):
    def guard(event, args):
        if event in blocked or event.startswith("ctypes."):
            raise error(event + " is not allowed in the sandbox")
        if event == "import" and args[0] in blocked_imports:
            raise error("importing " + str(args[0]) + " is not allowed in the sandbox")
        if event == "object.__getattr__" and args[0] is hidden:
            raise error("the sandbox's signal function cannot be inspected")
    return guard

def make_channel(urandom, write, exit_, gc_disable, getframe, getpid, len_, error, magic):
    state = []  # after arming in T: token, pipe, T's frame, T's pid (+ 1 once it voted)
    def channel(event, args):
        if event == "erxr.arm":  # T, before any candidate code runs
            if state:
                raise error("the verdict channel is armed already")
            token = urandom(16).hex().encode()
            write(args[0], b"HELLO %s\\n" % token)
            state.extend((token, args[0], getframe(1), getpid()))
            return
        if event != "erxr.verdict":
            return
        gc_disable()  # no finalizer may run inside this frame from here on
        if len_(state) != 4 or getpid() != state[3] or getframe(1) is not state[2]:
            raise error("only the test runner may deliver a verdict")  # forks may not vote
        state.append(1)
        status, body = args
        write(state[1], b"%s %s %s %d\\n%s" % (magic, state[0], status, len_(body), body))
        exit_(0)
    return channel
"""
_HOOKS_CODE = compile(_HOOKS, "<sandbox-hooks>", "exec")
