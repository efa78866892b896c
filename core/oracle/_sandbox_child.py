"""The fork server: a clean ``python -P -s -S`` process that runs test suites in sandboxes.

This file is run as a script (``python -P -s -S _sandbox_child.py CONFIG``, with a complete
environment of its own) by :mod:`execretrieval.oracle.sandbox` and imports the standard
library only, so forking it is cheap
and no engine state leaks into candidate code. Process tree for one suite::

    server (trusted, one per Oracle worker and hash seed; user, network and mount
    │       namespaces set up once, see _sandbox_setup.py; compiles code and tests and
    │       decides every outcome, see _sandbox_suite.py)
      └── worker W (PID 1 of a fresh PID namespace; no capabilities or an unprivileged
                    uid; rlimits; audit hooks): runs the tests, one verdict per test
                    through its MAC-guarded pipe (see _sandbox_runner.py)

Why this shape: one fork per suite for honest code, a fresh W whenever a test leaves the
process changed, so monkey-patching cannot fool later tests; W being PID 1 of its own
namespace means that when it ends the kernel kills everything the candidate started.

Protocol with the host (stdin/stdout of the server): 4-byte big-endian length + UTF-8 JSON.
"""

from __future__ import annotations

import json
import os
import struct
import sys

_MAGIC = b"ERXR1"
_MAX_DETAIL = 2000

# The pytest shim is compiled into its own module namespace so that its functions'
# __globals__ do not lead candidate code to the runner's globals.
_PYTEST_SHIM = r'''
class _ExcInfo:
    value = None
    type = None
class _Raises:
    def __init__(self, expected, match):
        self.expected, self.match, self.info = expected, match, _ExcInfo()
    def __enter__(self):
        return self.info
    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            raise AssertionError(f"DID NOT RAISE {self.expected}")
        if not issubclass(exc_type, self.expected):
            return False
        if self.match is not None and not __import__("re").search(self.match, str(exc)):
            raise AssertionError(f"Regex pattern did not match.\n Regex: {self.match!r}\n Input: {str(exc)!r}")
        self.info.value, self.info.type = exc, exc_type
        return True
def raises(expected_exception, *args, match=None, **kwargs):
    """Minimal pytest.raises: context manager, or raises(Exc, func, *args)."""
    ctx = _Raises(expected_exception, match)
    if not args:
        return ctx
    with ctx:
        args[0](*args[1:], **kwargs)
    return ctx.info
def fail(reason="", pytrace=True):
    raise AssertionError(reason)
class approx:
    """Minimal pytest.approx for numbers and flat sequences of numbers."""
    def __init__(self, expected, rel=None, abs=None):
        self.expected, self.rel, self.abs = expected, 1e-6 if rel is None else rel, 1e-12 if abs is None else abs
    def _close(self, a, b):
        return a == b or __builtins__["abs"](a - b) <= max(self.rel * __builtins__["abs"](b), self.abs)
    def __eq__(self, other):
        if isinstance(self.expected, (list, tuple)):
            return len(other) == len(self.expected) and all(self._close(a, b) for a, b in zip(other, self.expected))
        return self._close(other, self.expected)
    def __repr__(self):
        return f"approx({self.expected!r})"
'''


def _make_pytest_module():
    import types
    module = types.ModuleType("pytest", "Minimal pytest shim of the execution oracle.")
    exec(compile(_PYTEST_SHIM, "<pytest-shim>", "exec"), module.__dict__)
    return module


def _preimport() -> None:
    """What every suite runner needs, imported once (the server stays small: a fork costs
    in proportion to its memory, ~0.45 ms at 9 MB, ~1.7 ms at 21 MB on this VM)."""
    import ast  # noqa: F401
    import operator  # noqa: F401
    import types  # noqa: F401
    import warnings  # noqa: F401


# ---------------------------------------------------------------------------------------
# the server loop


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks = b""
    while len(chunks) < n:
        chunk = os.read(fd, n - len(chunks))
        if not chunk:
            return None
        chunks += chunk
    return chunks


def _send(fd: int, obj: dict) -> None:
    data = json.dumps(obj).encode()
    view = memoryview(struct.pack(">I", len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def serve(config: dict) -> None:
    if config.get("cpu") is not None:
        try:
            os.sched_setaffinity(0, {config["cpu"]})
        except OSError:
            pass
    sys.path.extend(p for p in config.get("site_packages", []) if p not in sys.path)
    sys.modules["pytest"] = _make_pytest_module()
    _preimport()
    active, reasons = setup(config, drop_capabilities)
    prctl = _setup_module._LIBC.prctl
    prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: what W leaves behind comes back to us
    hooks = make_hooks()
    hooks["devnull"] = os.open("/dev/null", os.O_RDWR)
    workdir = os.path.join(config["base"], "w")  # one suite at a time: one folder, emptied
    os.environ.clear()
    os.environ.update(HOME=workdir, TMPDIR=workdir, PATH="/usr/bin:/bin", LANG="C.UTF-8")
    import gc

    gc.collect()
    gc.freeze()  # forked children then leave these objects' pages shared (fewer COW faults)
    os.makedirs(workdir, 0o700, exist_ok=True)  # made by setup() unless isolate=False
    _send(1, {"hello": active, "reasons": reasons})
    uid = config.get("uid") if active["unprivileged_uid"] else None
    while True:
        header = _read_exact(0, 4)
        if header is None:
            return
        body = _read_exact(0, struct.unpack(">I", header)[0])
        if body is None:
            return
        if uid is not None:
            os.chown(workdir, uid, uid)
        try:
            result = run_suite(json.loads(body), workdir, uid, active, hooks,
                               enter_new_pid_namespace, leave_pid_namespace)
        finally:
            _empty(workdir)
        if result is None:  # the host went away
            return
        _send(1, result)


def _empty(folder: str) -> None:
    """Remove what a suite left in its folder (usually nothing)."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                __import__("shutil").rmtree(entry.path, ignore_errors=True)
            else:
                try:
                    os.unlink(entry.path)
                except OSError:
                    pass


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import _sandbox_setup as _setup_module
    from _sandbox_runner import drop_capabilities, make_hooks
    from _sandbox_setup import enter_new_pid_namespace, leave_pid_namespace, setup
    from _sandbox_suite import run_suite

    del sys.path[0]  # candidates must not import engine modules by accident

    serve(json.loads(sys.argv[1]))
