"""Host side of the sandbox: resource limits and one fork-server process per worker.

Containment, as chosen for Linux (the process tree is drawn in ``_sandbox_child.py``; the
set-up in ``_sandbox_setup.py``, a suite in ``_sandbox_suite.py``, the worker and the
verdict channel in ``_sandbox_runner.py``, the comparison rules in ``_sandbox_compare.py``):

* **Start-up cost**: each server is a clean ``python -P -s -S`` process with an environment
  of four fixed variables (``-I`` minus ``-E``, which would ignore ``PYTHONHASHSEED``;
  stdlib only; the site-packages folders are on its path, their ``.pth`` hooks are not
  run) that forks one worker per suite (one more for each test that leaves it changed).
  A server is started without waiting for it: it sets itself up while the caller goes on
  loading (``ForkServerPool.prestart``), and the first suite waits for its hello. It never
  writes bytecode caches itself; the host writes those of the server's own modules (as
  any import would), and the code objects of the hooks' and comparison rules' sources,
  which no ``.pyc`` holds (``_sandbox_code.py``: ~11 ms of each start-up), so a server
  does not recompile them each time it starts; at the end it skips the interpreter's
  teardown, which the host's ``close`` would wait for.
  Each server's tree is pinned to one CPU: on this VM a child woken on another, idle CPU
  costs ~1 ms per fork. A fork costs in proportion to the server's memory, so the server
  imports little.
* **User namespace** (ordinary users): everything below happens inside an unprivileged
  user namespace where the kernel allows one; ``execretrieval doctor`` says why not.
* **Network**: a network namespace; candidates see only a loopback that is down, so even
  a listener on ``127.0.0.1`` (or an abstract unix socket) is unreachable.
* **Files**: a mount namespace with every mount read-only; the user's home, ``/home``,
  ``/root``, ``/tmp``, ``/var/tmp``, ``/run`` and ``/dev/shm`` are covered by empty tmpfs
  mounts with only the interpreter's folders bound back; the one writable place is the
  suite's folder (its own ``noexec`` tmpfs, emptied after each suite). ``/proc`` and
  ``/sys`` are covered by empty read-only tmpfs mounts.
* **Identity**: as root, candidates run as an unprivileged uid (one per server slot, no
  supplementary groups, ``no_new_privs``); as an ordinary user, they keep the user's uid
  but hold no capability (bounding, ambient, effective, permitted sets emptied,
  ``no_new_privs``) and cannot create user namespaces, so nothing can be remounted.
* **Processes**: each worker is PID 1 of a fresh PID namespace: when it ends the kernel
  kills everything the candidate started; the server, a child subreaper, reaps them.
  Without PID namespaces: the process group, and descendants the subreaper inherits, are
  killed (plus ``kill(-1)`` as the sandbox uid).
* **Timeout**: a suite's timeout is wall-clock time from its start, or, with
  ``Limits.wall_backstop`` N >= 1 (the builder's mutants), the CPU time its test processes
  used (each worker's CPU clock while it runs, ``wait4``'s usage once reaped), with N times
  the timeout of wall clock as a backstop (a suite that sleeps or blocks); a timeout's
  detail gives the CPU and wall time used (``_sandbox_suite._Clock``).
* **Limits**: RLIMIT_AS (memory), RLIMIT_CPU (a backstop behind the suite's timeout),
  RLIMIT_FSIZE, RLIMIT_NPROC, RLIMIT_CORE = 0. stdout and stderr go through a pipe (a
  fresh one per worker): the server keeps the head of each test's part and drops the rest,
  so output never counts against a limit; which test printed what comes from boundaries
  the worker sends on its channel after the server has read the pipe empty, never from
  the printed text; stdin is ``/dev/null``.
* **Result channel**: a worker's verdicts carry a MAC under a key it announces before
  candidate code runs; the key lives only in the closure of an audit hook that no frame
  candidate code can reach holds (the hooks never touch the candidate's objects, never
  raise, and run with gc off), and only the judge's own frame can make that hook deliver a
  verdict. Anything else written to the channel makes the test an ``error`` ("Tampered").
  Python-level costs: ``ctypes`` (and packages that import it, such as numpy), gc object
  walks, tracing/profiling and Python signal handlers are refused to candidates.

Where a measure is unavailable the run still works; :meth:`ForkServer.containment` (and
``Oracle.containment()``) say which measures are active, :meth:`ForkServer.reasons` why not.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import site
import struct
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import OracleError

if TYPE_CHECKING:
    from .limits import Limits

__all__ = ["ForkServer", "Limits"]

_CHILD = Path(__file__).with_name("_sandbox_child.py")
_UID_BASE = 1_500_000_000  # far above any uid a real account uses


def __getattr__(name: str) -> Any:
    """``Limits``, imported on first use: a command that starts a server before anything
    else (run-tests) does not wait for ``dataclasses`` (5 ms, ``inspect`` with it)."""
    if name == "Limits":
        from .limits import Limits

        return Limits
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.lru_cache(maxsize=64)
def _as_dict(limits: Limits) -> dict[str, int]:
    """``asdict(limits)``, once per distinct Limits (it is on every suite's path)."""
    from dataclasses import asdict

    return asdict(limits)


_STALE_CHECKED = False
_COMPILED = False


def _compile_server_modules() -> None:
    """Write the bytecode caches of the server's modules if missing (once per process),
    as importing them here would; the server runs with ``PYTHONDONTWRITEBYTECODE``, so
    candidates never write one, but it reads these."""
    global _COMPILED
    if _COMPILED or sys.dont_write_bytecode:
        return
    _COMPILED = True
    # Beside each source, where the server (no PYTHONPYCACHEPREFIX) looks; stat calls only
    # unless one is stale: py_compile is imported then, not on every run's way to a server.
    tag = sys.implementation.cache_tag
    if tag is None:
        return
    for name in ("_sandbox_setup", "_sandbox_runner", "_sandbox_channel", "_sandbox_suite",
                 "_sandbox_compare", "_sandbox_plain", "_sandbox_rich", "_sandbox_explain",
                 "_sandbox_rewrite", "_sandbox_code", "_sandbox_seal", "_sandbox_draws",
                 "_sandbox_tags", "_sandbox_classes"):
        source = _CHILD.with_name(f"{name}.py")
        cached = source.parent / "__pycache__" / f"{name}.{tag}.pyc"
        try:
            if not cached.exists() or cached.stat().st_mtime < source.stat().st_mtime:
                import py_compile

                try:
                    py_compile.compile(str(source), str(cached), doraise=True)
                except py_compile.PyCompileError:
                    pass
        except OSError:
            pass  # a read-only installation: the server compiles in memory, as before
    _write_code_caches()


def _write_code_caches() -> None:
    """The code objects of the hooks' and the comparison rules' sources, which no ``.pyc``
    holds (see ``_sandbox_code.py``): rewritten when older than a source they come from."""
    from . import _sandbox_code

    for name, sources in (("hooks", ("_sandbox_channel", "_sandbox_classes")),
                          ("compare", ("_sandbox_compare", "_sandbox_plain", "_sandbox_rich",
                                       "_sandbox_explain"))):
        try:
            made = os.stat(_sandbox_code.path(name)).st_mtime
            if all(_CHILD.with_name(f"{s}.py").stat().st_mtime <= made for s in sources):
                continue
        except OSError:
            pass
        if name == "hooks":
            from ._sandbox_channel import CHANNEL
            from ._sandbox_classes import CLASSES

            _sandbox_code.write(name, CHANNEL + CLASSES, "<sandbox-hooks>")
        else:
            from ._sandbox_compare import SOURCE

            _sandbox_code.write(name, SOURCE, "<sandbox-compare>")


def _remove_stale_folders() -> None:
    """Remove base folders left by Oracle processes that died without closing (once)."""
    global _STALE_CHECKED
    if _STALE_CHECKED:
        return
    _STALE_CHECKED = True
    root = Path(tempfile.gettempdir())
    for folder in root.glob("execretrieval-sandbox-*-*"):
        owner = folder.name.split("-")[2]
        if not owner.isdigit() or int(owner) == os.getpid():
            continue
        try:
            os.kill(int(owner), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            pass


class ForkServer:
    """One clean ``python -P -s -S`` server process that runs one suite at a time.

    Not thread-safe by itself: the Oracle hands each server to one thread at a time. ``kill``
    may be called from any thread to abort the suite in flight (cancellation).
    """

    def __init__(self, index: int, *, isolate: bool = True, tmpfs_mb: int = 256,
                 hash_seed: int = 0, wait: bool = True) -> None:
        if not hasattr(os, "fork"):
            raise OracleError("the execution oracle needs a POSIX system (os.fork)")
        self.index = index
        self.hash_seed = hash_seed
        _remove_stale_folders()
        _compile_server_modules()
        self._base = tempfile.mkdtemp(prefix=f"execretrieval-sandbox-{os.getpid()}-")
        uid = _UID_BASE + (os.getpid() % 100_000) * 64 + index % 64 if os.geteuid() == 0 else None
        # -S: no site, so no .pth hooks (an editable install imports ~45 modules there);
        # the site-packages folders themselves stay importable for candidates. Not -I: its
        # -E would ignore PYTHONHASHSEED; the environment below is complete instead.
        packages = [p for p in site.getsitepackages() if os.path.isdir(p)]
        # Each server's process tree stays on one CPU: a fork whose child wakes on another
        # (idle) CPU costs ~1 ms here, more than the rest of a test.
        cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        config = {"base": self._base, "uid": uid, "isolate": isolate, "tmpfs_mb": tmpfs_mb,
                  "home": os.path.expanduser("~"),
                  "site_packages": packages, "cpu": cpus[index % len(cpus)] if cpus else None}
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": str(hash_seed),
               "PYTHONDONTWRITEBYTECODE": "1"}
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-P", "-s", "-S", str(_CHILD), json.dumps(config)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env=env, cwd="/", start_new_session=True, close_fds=True,
            )
        except OSError as exc:
            shutil.rmtree(self._base, ignore_errors=True)
            raise OracleError(f"cannot start the sandbox server: {exc}") from exc
        self._killed = False
        self._containment: dict[str, Any] | None = None  # from its hello, once it came
        self._reasons: dict[str, str] = {}
        # Requests may be queued (see ForkServerPool.depth): each gets a ticket when it is
        # written and its thread reads the reply whose turn it is; the server answers in order.
        self._hello_lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._turn = threading.Condition()
        self._sent = self._answered = 0
        self._broken = False  # a reply went missing: no later one can be matched to its ticket
        if wait:
            self.ready()

    def ready(self) -> None:
        """Wait until the server has set itself up (its hello); OracleError if it failed."""
        if self._containment is not None:
            return
        with self._hello_lock:
            if self._containment is None:
                self._hello()

    def _hello(self) -> None:
        hello = self._receive()
        if hello is not None and "error" in hello:
            self.close()
            raise OracleError(f"the sandbox server refused to start: {hello['error']}")
        if hello is None or "hello" not in hello:
            self.close()
            raise OracleError("the sandbox server did not start (see python -P -s -S "
                              f"{_CHILD} for a traceback)")
        self._containment = hello["hello"]
        self._reasons = dict(hello.get("reasons", {}))

    @property
    def alive(self) -> bool:
        return not self._killed and not self._broken and self._proc.poll() is None

    def containment(self) -> dict[str, Any]:
        """Which containment measures this server has active (see the module docstring)."""
        self.ready()
        assert self._containment is not None
        return dict(self._containment)

    def reasons(self) -> dict[str, str]:
        """For each measure that is not active (and some that are not needed): why."""
        self.ready()
        return dict(self._reasons)

    def run(self, code: str, tests: list[str], timeout: float, limits: Limits) -> dict[str, Any]:
        """Run one suite; the raw result dict of the server. Raises OracleError if it died.

        Several threads may call this at once: requests queue in the server's stdin (it
        reads the next one only when the suite before it is done, so a queued suite's time
        limit starts when it starts) and each thread gets the reply to its own request."""
        return self.result(self.submit(code, tests, timeout, limits))

    def submit(self, code: str, tests: list[str], timeout: float, limits: Limits) -> int:
        """Queue one suite on the server; its ticket for :meth:`result`."""
        if limits.hash_seed != self.hash_seed:
            raise OracleError(f"this sandbox server runs hash seed {self.hash_seed}, "
                              f"not {limits.hash_seed}")
        self.ready()
        request = {"code": code, "tests": tests, "timeout": timeout, "limits": _as_dict(limits),
                   "output_chars": limits.output_chars}
        data = json.dumps(request).encode()
        with self._send_lock:
            if self._broken:
                raise OracleError("the sandbox server is gone")
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.write(struct.pack(">I", len(data)) + data)
                self._proc.stdin.flush()
            except (OSError, ValueError) as exc:
                self._fail()
                raise OracleError("the sandbox server is gone") from exc
            ticket, self._sent = self._sent, self._sent + 1
            return ticket

    def result(self, ticket: int) -> dict[str, Any]:
        """The reply to the suite ``ticket`` stands for, once the server sent it (replies
        come in the order of the tickets)."""
        with self._turn:
            while self._answered != ticket and not self._broken:
                self._turn.wait()
            if self._broken:
                raise OracleError("the sandbox server died during a suite")
        reply = self._receive()  # (only this ticket's thread reads now)
        with self._turn:
            if reply is None:
                self._broken = True
            else:
                self._answered += 1
            self._turn.notify_all()
        if reply is None:
            raise OracleError("the sandbox server died during a suite")
        return reply

    def _fail(self) -> None:
        with self._turn:
            self._broken = True
            self._turn.notify_all()

    def _receive(self) -> dict[str, Any] | None:
        stream = self._proc.stdout
        assert stream is not None
        try:
            header = stream.read(4)
            if len(header) < 4:
                return None
            body = stream.read(struct.unpack(">I", header)[0])
            return json.loads(body)
        except (OSError, ValueError):
            return None

    def kill(self) -> None:
        """Abort at once: the runner dies with the server (PDEATHSIG) and its PID namespace
        with the runner."""
        self._killed = True  # never lent out again, even before the kernel reaps it
        with contextlib.suppress(OSError):
            self._proc.kill()

    def close(self) -> None:
        """Stop the server and remove its base folder; safe to call twice."""
        self.stop()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        with contextlib.suppress(OSError, ValueError):
            if self._proc.stdout is not None:
                self._proc.stdout.close()
        shutil.rmtree(self._base, ignore_errors=True)

    def stop(self) -> None:
        """Tell the server to end (EOF on its stdin), without waiting: :meth:`close` waits."""
        if self._containment is None:  # still setting up (or failed): no suite to finish
            self.kill()
        with contextlib.suppress(OSError, ValueError):
            if self._proc.stdin is not None:
                self._proc.stdin.close()  # EOF: the server exits between or during suites
