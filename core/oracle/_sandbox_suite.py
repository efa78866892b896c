"""Inside the sandbox: how the fork server runs one suite (stdlib only).

Imported by the fork server (:mod:`_sandbox_child`), never by the engine. Per suite the
server (trusted) compiles the code and every test before any candidate code runs (tests
with ``==`` / ``!=`` routed through the runner-held plain-data equality, see
``_sandbox_hooks.py``), then forks a worker W as PID 1 of a fresh PID namespace (see
``_sandbox_runner.py``). W runs the tests from a given one on and reports one verdict per
test through its token-guarded pipe; the server decides every outcome from those verdicts
and from how W ended. When W reports that it is no longer clean, or dies, or is caught
tampering, the server forks a fresh W (in a fresh namespace) for the next test. When W
ends, the kernel kills everything else in its namespace; the server is a child subreaper
and reaps what was left. Output (stdout and stderr of W and whatever it started) goes
through a pipe: the head is kept, the rest read and dropped, so printing any amount is
never an error.
"""

from __future__ import annotations

import ast
import os
import select
import signal
import time

TYPE_CHECKING = False  # (not typing.TYPE_CHECKING: the server does not import typing)

if TYPE_CHECKING or __package__:  # in the engine (tools, tests); the server: bare
    from ._sandbox_hooks import compile_test
    from ._sandbox_runner import kill_descendants, kill_uid, static_imports, worker
else:
    from _sandbox_hooks import compile_test
    from _sandbox_runner import kill_descendants, kill_uid, static_imports, worker

_MAGIC = b"ERXR1"
_MAX_MESSAGE = 8192


_COMPILED: dict[str, tuple] = {}  # test text -> (code object, imported names)


def _compile_test(test: str, eq, chain, salt: str,  # type: ignore[no-untyped-def]
                  explain=None) -> tuple:
    """A test's code object and the modules it imports, cached: a benchmark runs the same
    tests against many snippets. Raises SyntaxError & co. like ``compile``."""
    hit = _COMPILED.get(test)
    if hit is not None:
        return hit
    if "==" in test or "!=" in test or "import" in test or "assert" in test:
        tree = ast.parse(test, "<test>", "exec")
        imported = static_imports([tree])
        hit = (compile_test(tree, eq, chain, salt, test, explain), imported)
    else:  # nothing to rewrite, nothing imported: compile the text as it is
        hit = (compile(test, "<test>", "exec"), [])
    if len(_COMPILED) >= 4096:
        _COMPILED.clear()
    _COMPILED[test] = hit
    return hit


def prepare(req: dict, eq, chain, salt: str,  # type: ignore[no-untyped-def]
            explain=None) -> tuple:
    """(code object or error text, per test: code object or None, errors, imported names)."""
    tests = req["tests"]
    try:
        code = compile(req["code"], "<candidate>", "exec")
    except (SyntaxError, ValueError, OverflowError, RecursionError) as exc:
        return describe(exc), (), {}, []
    names = set(static_imports([ast.parse(req["code"])]) if "import" in req["code"] else [])
    errors: dict[int, str] = {}
    work: list = []
    for i, test in enumerate(tests):
        try:
            compiled, imported = _compile_test(test, eq, chain, salt, explain)
            work.append(compiled)
            names.update(imported)
        except (SyntaxError, ValueError, OverflowError, RecursionError) as exc:
            work.append(None)
            errors[i] = describe(exc)
    return code, tuple(work), errors, sorted(names)


def describe(exc: BaseException) -> str:
    name = type(exc).__name__
    text = str(exc)
    return (f"{name}: {text}" if text else name)[:2000]


def run_suite(req: dict, workdir: str, uid: int | None, active: dict, hooks: dict,
              enter_pidns, leave_pidns) -> dict | None:  # type: ignore[no-untyped-def]
    """Run one suite; the reply for the host, or None if the host went away."""
    started = time.monotonic()
    tests, timeout = req["tests"], float(req["timeout"])
    outcomes: dict[int, list] = {}
    code, work, errors, imported = prepare(req, hooks["eq"], hooks["chain"], hooks["salt"],
                                           hooks["explain"])
    if isinstance(code, str):
        outcomes = {i: ["error", code] for i in range(len(tests))}
        work = ()
    for i, text in errors.items():
        outcomes[i] = ["error", text]
    limits = req["limits"]
    cpu_seconds = int(limits.get("cpu_seconds") or 0) or max(1, int(timeout + 1.999))
    output = _Output(4 * int(req["output_chars"]) + 4)
    out_r, out_w = os.pipe()
    os.set_blocking(out_r, False)
    deadline = started + timeout
    alive, i = True, 0
    try:
        while i < len(work):
            if work[i] is None:
                i += 1
                continue
            if time.monotonic() >= deadline:
                _timeout_rest(outcomes, i, work, timeout, reached=False)
                break
            spec = {"code": code, "work": work, "start": i, "out_w": out_w, "uid": uid,
                    "devnull": hooks["devnull"],
                    "limits": limits, "cpu_seconds": cpu_seconds, "workdir": workdir,
                    "imported": imported, "active": active}
            i, timed_out, alive = _run_worker(spec, hooks, deadline, out_r, output, outcomes,
                                              enter_pidns, leave_pidns)
            if not alive:
                return None
            if timed_out:
                _timeout_rest(outcomes, i, work, timeout, reached=True)
                break
    finally:
        output.drain(out_r)
        os.close(out_r)
        os.close(out_w)
    text = output.data.decode("utf-8", "replace")
    if len(text) > req["output_chars"]:
        text = text[: req["output_chars"]] + "\n[output truncated]"
    result = [outcomes.get(n, ["timeout", "the sandbox runner stopped before this test"])
              for n in range(len(tests))]
    return {"outcomes": result, "output": text, "duration": time.monotonic() - started}


class _Output:
    """W's stdout and stderr: the head is kept, the rest read and dropped."""

    def __init__(self, cap: int) -> None:
        self.data, self.cap = b"", cap

    def drain(self, fd: int) -> None:
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                return
            if len(self.data) < self.cap:
                self.data += chunk[: self.cap - len(self.data)]


def _timeout_rest(outcomes: dict, start: int, work: tuple, timeout: float, *,
                  reached: bool) -> None:
    for i in range(start, len(work)):
        if work[i] is None:
            continue
        if reached and i == start:
            detail = f"the suite's time limit of {timeout:g} s ran out during this test"
        else:
            detail = f"not reached: the suite's time limit of {timeout:g} s ran out"
        outcomes[i] = ["timeout", detail]


def _run_worker(spec: dict, hooks: dict, deadline: float, out_r: int, output: _Output,
                outcomes: dict, enter_pidns, leave_pidns
                ) -> tuple[int, bool, bool]:  # type: ignore[no-untyped-def]
    """Fork W for tests ``spec["start"]``...; (next test, time ran out, host still there)."""
    in_pidns = bool(spec["active"]["pid_namespace"]) and enter_pidns()
    rfd, wfd = os.pipe()
    # Verdicts are read when W ends, not as they come (no wake-up per test), as long as
    # the pipe can hold them all: 1 MiB, ~450 tests with the longest details.
    try:
        import fcntl

        roomy = fcntl.fcntl(wfd, 1031, 1 << 20) >= len(spec["work"]) * 2200  # F_SETPIPE_SZ
    except OSError:
        roomy = False
    pid = os.fork()
    if pid == 0:
        try:
            os.close(rfd)
            os.close(out_r)
            worker(spec, hooks, wfd, in_pidns)
        finally:
            os._exit(71)
    if in_pidns:
        leave_pidns()
    os.close(wfd)
    if not in_pidns:  # without a namespace, cleanup goes by process group
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
    os.set_blocking(rfd, False)
    try:
        pidfd: int | None = os.pidfd_open(pid)
    except (AttributeError, OSError):  # kernel < 5.3: poll instead
        pidfd = None
    reader = _Verdicts(spec["work"], spec["start"], outcomes)
    waited = ([] if roomy and pidfd is not None else [rfd]) + [out_r, 0] + (
        [pidfd] if pidfd is not None else [])
    status_word, alive = None, True
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
        if 0 in ready and not os.read(0, 1):  # host closed our stdin: give up at once
            alive = False
            break
        if pidfd is None or pidfd in ready:
            done, word = os.waitpid(pid, 0 if pidfd is not None else os.WNOHANG)
            status_word = word if done else None
    if not reader.broken:
        reader.feed(rfd)
    os.close(rfd)
    if pidfd is not None:
        os.close(pidfd)
    _cleanup(pid, in_pidns, spec["uid"], reaped=status_word is not None)
    output.drain(out_r)
    if not alive:
        return reader.next, False, False
    if reader.broken:  # tampering: the current test is an error, the rest start afresh
        return reader.next + 1, False, True
    if status_word is None:  # the suite's deadline, W still running reader.next
        return reader.next, True, True
    if reader.next < len(spec["work"]) and not reader.finished:
        outcomes[reader.next] = list(_ending(status_word))  # W died without a verdict
        return reader.next + 1, False, True
    return reader.next, False, True


class _Verdicts:
    """Parses W's pipe: ``HELLO <token>`` once, then one message per test, in order."""

    def __init__(self, work: tuple, start: int, outcomes: dict) -> None:
        self.work, self.outcomes, self.data = work, outcomes, b""
        self.token: bytes | None = None
        self.next = self._skip(start)
        self.finished = False  # W said it stops, or ran every test
        self.broken = False

    def _skip(self, i: int) -> int:
        while i < len(self.work) and self.work[i] is None:
            i += 1
        return i

    def feed(self, fd: int) -> bool:
        """Read what is there and act on complete messages; True at EOF."""
        eof = False
        while len(self.data) <= _MAX_MESSAGE * 4:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                eof = True
                break
            self.data += chunk
        self._parse()
        return eof

    def _tampered(self) -> None:
        self.broken = True
        if self.next < len(self.work):
            self.outcomes[self.next] = ["error", "Tampered: the result channel received data "
                                                 "not written by the test runner"]

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
                    or parts[3] not in (b"pass", b"fail", b"error", b"timeout")
                    or parts[4] not in (b"0", b"1") or not parts[5].isdigit()
                    or int(parts[5]) > _MAX_MESSAGE):
                self._tampered()
                return
            size = int(parts[5])
            if len(rest) < size:
                return  # the rest of the detail is still on its way
            self.outcomes[self.next] = [parts[3].decode(),
                                        rest[:size].decode("utf-8", "replace")]
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
    """Kill W (in a PID namespace that kills everything W left) and reap what comes back."""
    if not reaped:
        for target in (lambda: os.killpg(pid, signal.SIGKILL),
                       lambda: os.kill(pid, signal.SIGKILL)):
            try:
                target()
            except OSError:
                pass
        os.waitpid(pid, 0)
    if not in_pidns:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        if uid is not None:
            kill_uid(uid)
    kill_descendants()  # orphans of W come to us (child subreaper): kill and reap them
