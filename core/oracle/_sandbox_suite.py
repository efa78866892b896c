"""Inside the sandbox: how the fork server runs one suite (stdlib only).

Imported by the fork server (:mod:`_sandbox_child`), never by the engine. Per suite the
server (trusted) compiles the code and every test before any candidate code runs (their
comparisons routed through the runner-held comparison rules, see ``_sandbox_rewrite.py``
and ``_sandbox_compare.py``), then forks a worker W as PID 1 of a fresh PID namespace (see
``_sandbox_runner.py``). W runs the tests from a given one on and reports one verdict per
test through its MAC-guarded pipe; the server decides every outcome from those verdicts
and from how W ended. When W reports that it is no longer clean, or dies, or is caught
tampering, the server forks a fresh W (in a fresh namespace) for the next test. When W
ends, the kernel kills everything else in its namespace; the server is a child subreaper
and reaps what was left. Output (stdout and stderr of W and whatever it started) goes
through a fresh pipe per W: the head of each test's part is kept, the rest read and
dropped, so printing any amount is never an error. Which test printed what comes from the
boundaries W sends over its channel once the server has read the pipe empty (see
``_sandbox_runner.py``), never from the printed text; what W or its leftovers print after
W's last verdict belongs to W's last test.
"""

from __future__ import annotations

import ast
import fcntl
import opcode
import os
import select
import signal
import sys
import time
from _blake2 import blake2b

TYPE_CHECKING = False  # (not typing.TYPE_CHECKING: the server does not import typing)
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING or __package__:  # in the engine (tools, tests); the server: bare
    from ._sandbox_channel import TAMPERED_EXIT
    from ._sandbox_rewrite import compile_test
    from ._sandbox_runner import (
        PRELOADABLE,
        kill_descendants,
        kill_uid,
        preload,
        static_imports,
        stdlib_classes,
        stdlib_spaces,
        watchable,
        worker,
    )
else:
    from _sandbox_channel import TAMPERED_EXIT
    from _sandbox_rewrite import compile_test
    from _sandbox_runner import (
        PRELOADABLE,
        kill_descendants,
        kill_uid,
        preload,
        static_imports,
        stdlib_classes,
        stdlib_spaces,
        watchable,
        worker,
    )

_MAGIC = b"ERXR1"
_MAX_MESSAGE = 8192
_TRUNCATED = "\n[output truncated]"
# What the top level of a candidate may do and still be sure to print nothing: define
# functions, bind constants and build containers of them, read names and attributes,
# subscript and combine them (annotations such as ``List[int]``), and import preloaded
# standard-library modules. No call, no class body, no other import.
_QUIET_OPS = frozenset(opcode.opmap[name] for name in (
    "CACHE", "RESUME", "NOP", "EXTENDED_ARG", "LOAD_CONST", "LOAD_NAME", "STORE_NAME",
    "POP_TOP", "MAKE_FUNCTION", "RETURN_VALUE", "BUILD_TUPLE", "BUILD_LIST", "BUILD_SET",
    "BUILD_MAP", "BUILD_CONST_KEY_MAP", "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE",
    "BINARY_SUBSCR", "LOAD_ATTR", "BINARY_OP", "IMPORT_NAME", "IMPORT_FROM")
    if name in opcode.opmap)
_IMPORT_NAME = opcode.opmap["IMPORT_NAME"]
_EXTENDED_ARG = opcode.opmap["EXTENDED_ARG"]


def quiet(code) -> bool:  # type: ignore[no-untyped-def]
    """Whether loading ``code`` (a module's code object) surely prints nothing, so a suite
    needs no boundary between loading and the test: then everything a test's process prints
    is the test's own. A wrong "no" only costs that boundary; a wrong "yes" would only move
    output from a test's load to the same test's own part, never to another test."""
    raw, arg = code.co_code, 0
    for at in range(0, len(raw), 2):
        op, arg = raw[at], (arg << 8) | raw[at + 1]
        if op not in _QUIET_OPS:
            return False
        if op == _IMPORT_NAME and code.co_names[arg] not in PRELOADABLE \
                and code.co_names[arg] != "__future__":
            return False
        if op != _EXTENDED_ARG:
            arg = 0
    return True


_COMPILED: dict[str, tuple] = {}  # test text -> (code object, imported names)
# Tests repeat within a query's suites (its canonical and distractors run one after another),
# so a small cache holds them (a batch sends suites with the same tests to one server one
# after another: ForkServerPool.run_batch). Every page it grows stays in the server and
# costs each fork (~40 us per MB of server memory on the development VM) and the worker's
# exit: with tests that do not repeat (bench_oracle.py's) 1024 entries left the server at
# 10.3 MB of anonymous memory, 256 at 8.3 MB.
_COMPILED_MAX = 256


def _compile_test(test: str, judge: dict, salt: str) -> tuple:
    """A test's code object and the modules it imports, cached: a benchmark runs the same
    tests against many snippets. Raises SyntaxError & co. like ``compile``."""
    hit = _COMPILED.get(test)
    if hit is not None:
        return hit
    tree = ast.parse(test, "<test>", "exec")
    imported = static_imports([tree]) if "import" in test else []  # (no import without it)
    if "singledispatch" in test and "typing" not in imported:
        # functools.singledispatch's register imports typing (get_type_hints) on first use:
        # a first import in W, after the code loaded, makes TypeVars, whose frames taken
        # made the test an error
        imported = [*imported, "typing"]
    if imported:  # loaded here, so that the test is handed these very modules (see
        preload(imported)  # _sandbox_rewrite's _Imports); W would preload them anyway
    hit = (compile_test(tree, judge, salt, test), imported)
    if len(_COMPILED) >= _COMPILED_MAX:
        _COMPILED.clear()
    _COMPILED[test] = hit
    return hit


def prepare(req: dict, judge: dict, salt: str) -> tuple:
    """(code object or error text, per test: code object or None, errors, imported names,
    whether loading the code is :func:`quiet`)."""
    tests = req["tests"]
    try:
        code = compile(req["code"], "<candidate>", "exec")
    except (SyntaxError, ValueError, OverflowError, RecursionError) as exc:
        return describe(exc), (), {}, [], False
    names = set(static_imports([ast.parse(req["code"])]) if "import" in req["code"] else [])
    errors: dict[int, str] = {}
    work: list = []
    for i, test in enumerate(tests):
        try:
            compiled, imported = _compile_test(test, judge, salt)
            work.append(compiled)
            names.update(imported)
        except (SyntaxError, ValueError, OverflowError, RecursionError) as exc:
            work.append(None)
            errors[i] = describe(exc)
    return code, tuple(work), errors, sorted(names), quiet(code)


def _prior(hooks: dict) -> None:
    """The fingerprint of builtins, ``sys.modules``, ``sys`` and the pytest shim, taken here
    (again only when ``sys.modules`` changed): W reuses each part it finds intact instead of
    reading every key and value itself, which would copy ~180 pages in every W."""
    prior = hooks.get("prior")
    if prior is None or len(sys.modules) != len(prior[0][1][4]):
        hooks["tag_add"](watchable())  # the modules loaded since: views, before any fork
        hooks["prior"] = hooks["fingerprint"](
            (sys.modules["builtins"], sys, hooks["pytest"]),
            (sys.path, sys.meta_path, sys.path_hooks))
        # (W takes these as they are when it preloads nothing more: see stdlib_spaces)
        hooks["stdlib"] = (len(sys.modules), stdlib_spaces())
        hooks["hold"](*stdlib_classes(hooks["stdlib"][1]), True)  # (_sandbox_classes.py)


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
    code, work, errors, imported, silent = prepare(req, hooks["judge"], hooks["salt"])
    if isinstance(code, str):
        outcomes = {i: ["error", code] for i in range(len(tests))}
        work = ()
    for i, text in errors.items():
        outcomes[i] = ["error", text]
    limits = req["limits"]
    _prior(hooks)
    cpu_seconds = int(limits.get("cpu_seconds") or 0) or max(1, int(timeout + 1.999))
    first = next((n for n, w in enumerate(work) if w is not None), 0)
    output = _Output(len(tests), int(req["output_chars"]), first)
    clock = _Clock(started, timeout, int(limits.get("wall_backstop") or 0))
    alive, i = True, 0
    while i < len(work):
        if work[i] is None:
            i += 1
            continue
        if clock.over(None):
            _timeout_rest(outcomes, i, work, clock, reached=False)
            break
        spec = {"code": code, "work": work, "start": i, "uid": uid,
                "devnull": hooks["devnull"],
                "limits": limits, "cpu_seconds": cpu_seconds, "workdir": workdir,
                "imported": imported, "active": active, "quiet": silent}
        i, timed_out, alive = _run_worker(spec, hooks, clock, output, outcomes,
                                          enter_pidns, leave_pidns)
        if not alive:
            return None
        if timed_out:
            _timeout_rest(outcomes, i, work, clock, reached=True)
            break
    setup, printed = output.texts()
    result = [outcomes.get(n, ["timeout", "the sandbox runner stopped before this test"])
              + [printed[n]] for n in range(len(tests))]
    return {"outcomes": result, "setup_output": setup, "duration": time.monotonic() - started}


def _unread(fd: int) -> int:
    """Bytes waiting in a pipe (FIONREAD)."""
    return int.from_bytes(fcntl.ioctl(fd, 0x541B, b"\0\0\0\0"), "little")


class _Output:
    """What W printed, per test: the head of each part is kept, the rest read and dropped.

    The setup part is what loading the candidate printed in the suite's first test. Every
    test loads it afresh; while a later load prints the same bytes they are only counted,
    and a load that prints something else keeps its text in that test's part, ahead of what
    the test printed. ``output_chars`` bounds the text returned: the parts share it, a part
    that needs less leaving the rest to the others, and a cut part ends in a marker. Bytes
    kept meanwhile are at most about four per character of the budget.
    """

    def __init__(self, tests: int, chars: int, first: int) -> None:
        self.tests, self.chars, self.first = tests, max(0, chars), first
        self.cap = 4 * (self.chars // (tests + 1)) + 4  # bytes kept per part
        self.setup = bytearray()
        self.kept: dict[int, bytearray] = {}
        self.echo: dict[int, int] = {}  # test -> bytes of its load that repeated the setup
        self.settled: set[int] = set()  # tests whose load is no longer compared
        self.cut: set[int] = set()  # parts that lost bytes (-1: the setup part)

    def take(self, fd: int, reader: _Verdicts, rfd: int) -> bool:
        """Read what ``fd`` holds now into the part W is in; False at end of file. The
        channel is read first: every boundary sent before these bytes was sent once the
        pipe was empty, so it is already in the channel, and none after them can be."""
        waiting = _unread(fd)
        if not waiting:
            return False
        if not reader.broken:
            reader.feed(rfd)
        test, own = reader.position()
        while waiting > 0:
            try:
                chunk = os.read(fd, min(waiting, 1 << 20))
            except BlockingIOError:
                break
            if not chunk:
                break
            waiting -= len(chunk)
            self.add(test, own, chunk)
        return True

    def add(self, test: int, own: bool, data: bytes) -> None:
        if test == self.first and not own:
            self._keep(self.setup, -1, data)
            return
        if test not in self.settled:
            if not own:  # a later load: only counted while it repeats the setup part
                at = self.echo.get(test, 0)
                ahead = bytes(self.setup[at:at + len(data)])
                if data == ahead or (-1 in self.cut and len(ahead) < len(data)
                                     and data.startswith(ahead)):  # past a cut setup
                    self.echo[test] = at + len(data)
                    return
            self._settle(test, differs=not own)
        self._keep(self.kept.setdefault(test, bytearray()), test, data)

    def _settle(self, test: int, *, differs: bool) -> None:
        """The test's load is over (or printed something else): keep what it printed
        unless that was the setup part exactly."""
        self.settled.add(test)
        at = self.echo.pop(test, 0)
        if at and (differs or at < len(self.setup)):
            self._keep(self.kept.setdefault(test, bytearray()), test, bytes(self.setup[:at]))

    def _keep(self, buf: bytearray, part: int, data: bytes) -> None:
        room = self.cap - len(buf)
        if len(data) > room:
            self.cut.add(part)
            data = data[:max(room, 0)]
        buf += data

    def texts(self) -> tuple[str, list[str]]:
        """(setup part, each test's part), within ``output_chars`` characters."""
        for test in list(self.echo):
            self._settle(test, differs=False)
        if not self.kept and not self.setup:
            return "", [""] * self.tests
        everything = [(bytes(self.setup), -1 in self.cut)] + [
            (bytes(self.kept.get(i, b"")), i in self.cut) for i in range(self.tests)]
        decoded = [(raw.decode("utf-8", "replace"), cut) for raw, cut in everything]
        allotted = _fair_shares([len(text) for text, _ in decoded], self.chars)
        out = [text[:n] + _TRUNCATED if cut or len(text) > n else text
               for (text, cut), n in zip(decoded, allotted, strict=True)]
        return out[0], out[1:]


def _fair_shares(needs: list[int], budget: int) -> list[int]:
    """Split ``budget`` so no part gets more than it needs and the rest share equally."""
    shares = [0] * len(needs)
    left = len(needs)
    for i in sorted(range(len(needs)), key=needs.__getitem__):
        shares[i] = min(needs[i], budget // left)
        budget -= shares[i]
        left -= 1
    return shares


class _Clock:
    """The suite's time limit. By default ``timeout`` seconds of wall-clock time from the
    suite's start. With ``wall_backstop`` N >= 1 (the builder's mutants), ``timeout`` is
    CPU time: the user + system time of the suite's test processes (each W's, from its
    CPU clock while it runs, from ``wait4`` once reaped), so how busy the machine is
    changes no verdict; N times ``timeout`` of wall-clock time stops a suite that sleeps
    or blocks anyway."""

    def __init__(self, started: float, timeout: float, wall_backstop: int) -> None:
        self.started, self.timeout = started, timeout
        self.by_cpu = wall_backstop >= 1
        self.deadline = started + timeout * (wall_backstop if self.by_cpu else 1)
        self.spent = 0.0  # CPU seconds of the suite's Ws already reaped

    @staticmethod
    def cpu_of(pid: int) -> float | None:
        """CPU seconds a running (or unreaped) W has used: its process CPU clock
        (clock_getcpuclockid's id, ``~pid << 3 | CPUCLOCK_SCHED``); None if unreadable."""
        try:
            return time.clock_gettime((~pid << 3) | 2)
        except (OSError, OverflowError):
            return None

    def left(self, pid: int | None) -> float:
        """Seconds to wait before looking again (<= 0: the limit ran out). In CPU mode W
        uses at most one CPU second per second of waiting on one thread, so waiting what
        is left of its CPU budget never oversleeps the limit by more than its threads."""
        wall = self.deadline - time.monotonic()
        if not self.by_cpu or wall <= 0:
            return wall
        running = self.cpu_of(pid) if pid is not None else 0.0
        if running is None:  # no CPU clock: the wall clock since the suite began
            return min(wall, self.started + self.timeout - time.monotonic())
        return min(wall, self.timeout - self.spent - running)

    def over(self, pid: int | None) -> bool:
        return self.left(pid) <= 0

    def reaped(self, usage: Any) -> None:
        if usage is not None:  # a W's struct_rusage (os.wait4)
            self.spent += usage.ru_utime + usage.ru_stime

    def describe(self) -> tuple[str, str]:
        """What ran out; in CPU mode also the CPU time the suite's test processes used and
        the wall time it took (in parentheses: a wall-clock timeout's detail stays the
        same every run, as it was before the CPU clock came)."""
        if not self.by_cpu:
            return f"the suite's time limit of {self.timeout:g} s", ""
        if self.spent >= self.timeout:
            what = f"the suite's CPU time limit of {self.timeout:g} s"
        else:  # it slept or blocked
            what = (f"the suite's wall-clock backstop of {self.deadline - self.started:g} s "
                    f"(its CPU time limit is {self.timeout:g} s)")
        return what, (f" (CPU {self.spent:.2f} s, wall "
                      f"{time.monotonic() - self.started:.2f} s)")


def _timeout_rest(outcomes: dict, start: int, work: tuple, clock: _Clock, *,
                  reached: bool) -> None:
    what, used = clock.describe()
    for i in range(start, len(work)):
        if work[i] is None:
            continue
        if reached and i == start:
            detail = f"{what} ran out during this test{used}"
        else:
            detail = f"not reached: {what} ran out{used}"
        outcomes[i] = ["timeout", detail]


def _run_worker(spec: dict, hooks: dict, clock: _Clock, output: _Output,
                outcomes: dict, enter_pidns, leave_pidns
                ) -> tuple[int, bool, bool]:  # type: ignore[no-untyped-def]
    """Fork W for tests ``spec["start"]``...; (next test, time ran out, host still there)."""
    in_pidns = bool(spec["active"]["pid_namespace"]) and enter_pidns()
    rfd, wfd = os.pipe()
    out_r, out_w = os.pipe()  # fresh per W: whatever an earlier W left cannot write here
    os.set_blocking(out_r, False)
    spec["out_w"] = out_w
    # Verdicts are read when W ends, not as they come (no wake-up per test), as long as
    # the pipe can hold them all: 1 MiB, ~450 tests with the longest details.
    try:
        import fcntl

        roomy = fcntl.fcntl(wfd, 1031, 1 << 20) >= len(spec["work"]) * 2200  # F_SETPIPE_SZ
    except OSError:
        roomy = False
    # Made before the fork: every page the server writes while W is alive is copied (W
    # still shares it), so between fork and W's end it does as little as it can.
    os.set_blocking(rfd, False)
    reader = _Verdicts(spec["work"], spec["start"], outcomes, spec["quiet"])
    # poll, not select: the host's end of stdin is watched for its hang-up only, so a
    # request the host queued behind this suite (ForkServerPool.depth) is left whole and
    # does not hide the host going away
    poller = select.poll()
    for fd in ([] if roomy else [rfd]) + [out_r]:
        poller.register(fd, select.POLLIN)
    poller.register(0, 0)  # POLLHUP and POLLERR are reported whatever the mask
    pid = os.fork()
    if pid == 0:
        try:
            os.close(rfd)
            os.close(out_r)
            worker(spec, hooks, wfd, in_pidns)
        finally:
            os._exit(71)
    os.close(wfd)
    os.close(out_w)
    if not in_pidns:  # without a namespace, cleanup goes by process group
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
    try:
        pidfd: int | None = os.pidfd_open(pid)
    except (AttributeError, OSError):  # kernel < 5.3: poll instead
        pidfd = None
    if pidfd is not None:
        poller.register(pidfd, select.POLLIN)
    elif roomy:  # no exit to wait for: the verdicts are read as they come
        poller.register(rfd, select.POLLIN)
    status_word, alive = None, True
    try:
        while status_word is None and not reader.broken:
            left = clock.left(pid)
            if left <= 0:
                break
            ready = {fd for fd, _ in poller.poll(
                1000 * (left if pidfd is not None else min(left, 0.01)) + 1)}
            if out_r in ready and not output.take(out_r, reader, rfd):
                poller.unregister(out_r)  # end of file: W and all it started are gone
            if rfd in ready and reader.feed(rfd):
                poller.unregister(rfd)
            if 0 in ready:  # the host closed our stdin: give up at once
                alive = False
                break
            if pidfd is None or pidfd in ready:
                done, word, usage = os.wait4(pid, 0 if pidfd is not None else os.WNOHANG)
                status_word = word if done else None
                if done:
                    clock.reaped(usage)
    finally:
        # Back to the server's own PID namespace for its later forks; not before W ended,
        # since the ctypes call writes pages W still shares (copies while W runs). Nothing
        # forks in between.
        if in_pidns:
            leave_pidns()
    if pidfd is not None:
        os.close(pidfd)
    clock.reaped(_cleanup(pid, in_pidns, spec["uid"], reaped=status_word is not None))
    for _ in range(4096):  # every verdict W wrote, read a buffer (32 KB) at a time
        if reader.broken or reader.feed(rfd):
            break
    for _ in range(64):  # what is left; a writer that escaped cleanup gets EPIPE after
        if not output.take(out_r, reader, rfd):
            break
    os.close(out_r)
    os.close(rfd)
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
    """Parses W's pipe: ``HELLO <key>`` once, then one message per test, in order."""

    def __init__(self, work: tuple, start: int, outcomes: dict, quiet: bool = False) -> None:
        self.work, self.outcomes, self.data = work, outcomes, b""
        self.mac: blake2b | None = None  # W's keyed BLAKE2b, once its HELLO came
        self.next = self._skip(start)
        self.finished = False  # W said it stops, or ran every test
        self.broken = False
        self.quiet = quiet  # loading prints nothing: no boundary comes, all is the test's
        self.loaded = quiet  # W said the module of test ``next`` is loaded
        self.last = -1  # the test of the last verdict

    def position(self) -> tuple[int, bool]:
        """(the test W is in, whether its module is loaded); after W's last verdict, that
        verdict's test: what is printed then comes from what the test left running."""
        if self.finished and self.last >= 0:
            return self.last, True
        return self.next, self.loaded

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
        """``HELLO <key>`` (the key of W's MAC, sent before any candidate code ran), then
        ``ERXR1 <index> <status> <stop> <length> <mac>`` + body per message: the MAC is of
        the header and body, so nothing W's candidate can read from the pipe lets it forge
        another message."""
        while self.data and not self.broken:
            head, newline, rest = self.data.partition(b"\n")
            if not newline:
                if len(head) > 200:
                    self._tampered()
                return
            if self.mac is None:
                if head.startswith(b"HELLO ") and len(head) == 70:
                    try:
                        self.mac = blake2b(key=bytes.fromhex(head[6:].decode("ascii")),
                                           digest_size=16)
                    except ValueError:
                        self._tampered()
                        return
                    self.data = rest
                    continue
                self._tampered()
                return
            parts = head.split(b" ")
            if (len(parts) != 6 or parts[0] != _MAGIC or parts[1] != str(self.next).encode()
                    or parts[3] not in (b"0", b"1") or not parts[4].isdigit()
                    or int(parts[4]) > _MAX_MESSAGE):
                self._tampered()
                return
            size = int(parts[4])
            if len(rest) < size:
                return  # the rest of the detail is still on its way
            body = rest[:size]
            mac = self.mac.copy()
            mac.update(b" ".join(parts[:5]) + b"\n" + body)
            if mac.hexdigest().encode() != parts[5]:
                self._tampered()
                return
            if parts[2] == b"setup":
                if self.finished or self.loaded or parts[3:5] != [b"0", b"0"]:
                    self._tampered()
                    return
                self.loaded, self.data = True, rest[size:]
                continue
            if self.finished or parts[2] not in (b"pass", b"fail", b"error", b"timeout"):
                self._tampered()
                return
            self.outcomes[self.next] = [parts[2].decode(), body.decode("utf-8", "replace")]
            self.data = rest[size:]
            self.last, self.loaded = self.next, self.quiet
            self.next = self._skip(self.next + 1)
            if parts[3] == b"1" or self.next >= len(self.work):
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
    if code == TAMPERED_EXIT:
        return "error", ("Tampered: the test runner stopped the test process, whose result "
                         "channel was interfered with (or whose memory ran out while it "
                         "delivered a verdict)")
    return "error", f"Exited: the test process exited with code {code} before the test finished"


def _cleanup(pid: int, in_pidns: bool, uid: int | None, *, reaped: bool) -> Any:
    """Kill W (in a PID namespace that kills everything W left) and reap what comes back;
    W's resource usage if it was reaped here (else None)."""
    usage = None
    if not reaped:
        for target in (lambda: os.killpg(pid, signal.SIGKILL),
                       lambda: os.kill(pid, signal.SIGKILL)):
            try:
                target()
            except OSError:
                pass
        usage = os.wait4(pid, 0)[2]
    if not in_pidns:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        if uid is not None:
            kill_uid(uid)
    kill_descendants()  # orphans of W come to us (child subreaper): kill and reap them
    return usage
