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
# __globals__ do not lead candidate code to the runner's globals. Candidate code can
# rebind the module's attributes and, in Python 3.11, any attribute of a Python class
# without an audit event; so what a test calls is functions only (protected by the guard,
# every name a default argument): ``raises`` makes a fresh class per call (a tuple that
# holds what it needs, with the gc off until the with statement has looked the class up)
# and ``approx`` an instance without calling anything of its class (whose ==, != and repr
# the runner's comparison rules handle by exact type, see ``_sandbox_compare.py``).
_PYTEST_SHIM = r'''
class approx:
    """An approximate value made by pytest.approx: compared by the runner's own rules."""
    __hash__ = None
def _make_approx(expected, rel=None, abs=None, _new=object.__new__, _cls=approx,
                 _dict=approx.__dict__["__dict__"].__get__):
    """Minimal pytest.approx: a number, or a list, tuple or dict of numbers."""
    made = _new(_cls)
    space = _dict(made)
    space["expected"], space["rel"], space["abs"] = expected, rel, abs
    return made
def _enter(self, _item=tuple.__getitem__, _enable=__import__("gc").enable):
    if _item(self, 3):  # the gc was on when raises() turned it off
        _enable()
    return _item(self, 2)
def _exit(self, exc_type, exc, tb, _item=tuple.__getitem__, _issubclass=issubclass,
          _str=str, _repr=repr, _type=type, _error=AssertionError,
          _search=__import__("re").search, _compiled=type(__import__("re").compile("")),
          _psearch=type(__import__("re").compile("")).search,
          _pattern=type(__import__("re").compile("")).__dict__["pattern"].__get__):
    expected, match, info = _item(self, 0), _item(self, 1), _item(self, 2)
    if exc_type is None:
        raise _error("DID NOT RAISE " + _str(expected))
    if not _issubclass(exc_type, expected):
        return False
    if match is not None:
        text = _str(exc)
        if _type(match) is _compiled:  # a literal pattern, compiled with the test
            found, shown = _psearch(match, text), _pattern(match)
        else:
            found, shown = _search(match, text), match
        if not found:
            raise _error("Regex pattern did not match.\n Regex: " + _repr(shown)
                         + "\n Input: " + _repr(text))
    info.value, info.type = exc, exc_type
    return True
_STIRRING = ("pytest.raises while a thread the candidate started is still running: the "
             "thread could replace the context's __exit__ before the with statement looks "
             "it up; end the thread first")
def _raises(refs, expected_exception, *args, **kwargs):
    """Minimal pytest.raises: context manager, or raises(Exc, func, *args). The context
    is a tuple (expected, match, info, gc was on) of a class made per call, read by
    tuple's own __getitem__: replacing the class's attributes changes nothing it holds,
    and the gc stays off from the class being made to the with statement's lookup of its
    __enter__ / __exit__ (turned back on by __enter__), so no gc callback can replace
    them in between; while a candidate thread runs, raises is refused."""
    _type, _tuple, _enter, _exit, _info, _item, _threads, _audit, _disable, _isenabled, \
        _message, _refused = refs
    if _threads():
        _audit("erxr.plain", _message.encode())
        raise _refused(_message)
    was = _isenabled()
    _disable()
    cls = _type("RaisesContext", (_tuple,), {"__enter__": _enter, "__exit__": _exit,
                                              "__slots__": ()})
    ctx = cls((expected_exception, kwargs.pop("match", None), _info(value=None, type=None),
               was))
    if not args:
        return ctx
    with ctx:
        args[0](*args[1:], **kwargs)
    return _item(ctx, 2)
raises = __import__("types").MethodType(_raises, (
    type, tuple, _enter, _exit, __import__("types").SimpleNamespace, tuple.__getitem__,
    __import__("_thread")._count, __import__("sys").audit, __import__("gc").disable,
    __import__("gc").isenabled, _STIRRING, TypeError))
def fail(reason="", pytrace=True, _error=AssertionError):
    """pytest.fail: fail the test with ``reason``."""
    raise _error(reason)
'''


def _make_pytest_module():
    import types
    module = types.ModuleType("pytest", "Minimal pytest shim of the execution oracle.")
    exec(compile(_PYTEST_SHIM, "<pytest-shim>", "exec"), module.__dict__)
    module.approx_type, module.approx = module.approx, module._make_approx
    del module._make_approx
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
    # (no local: a W's candidate can walk its frames up to this one)
    _setup_module._LIBC.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: W's orphans come to us
    try:  # after the server's last new ctypes object, before its first fork of a W
        seal_ctypes((_setup_module._LIBC, sys.modules["_sandbox_runner"]._LIBC,
                     sys.modules["_sandbox_runner"]._CAPS))
    except SealError as exc:
        _send(1, {"error": f"cannot make ctypes unusable for candidates: {exc}"})
        return
    try:  # (dict version tags: their layout is checked first, _sandbox_tags.py)
        hooks = make_hooks()
    except TagError as exc:
        _send(1, {"error": f"cannot watch namespaces by their version tags: {exc}"})
        return
    hooks["devnull"] = os.open("/dev/null", os.O_RDWR)
    workdir = os.path.join(config["base"], "w")  # one suite at a time: one folder, emptied
    os.environ.clear()
    # (USER and LOGNAME: getpass.getuser() reads them first; the sandbox's uid has no
    # passwd entry, so without them it raised KeyError)
    os.environ.update(HOME=workdir, TMPDIR=workdir, PATH="/usr/bin:/bin", LANG="C.UTF-8",
                      USER="sandbox", LOGNAME="sandbox")
    sys.pycache_prefix = NO_BYTECODE  # as W sets it: see _sandbox_runner.NO_BYTECODE
    import gc

    # Forked children leave these objects' pages shared (fewer COW faults). No collection
    # first: start-up leaves no cyclic garbage to speak of (gc.collect() found 0 objects
    # and cost 1-3 ms of every start); the gc was off since the server began (__main__).
    gc.freeze()
    gc.enable()
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
                if "shutil" not in sys.modules:
                    preload(["shutil"])  # (with its .pyc: see _sandbox_runner.NO_BYTECODE)
                sys.modules["shutil"].rmtree(entry.path, ignore_errors=True)
            else:
                try:
                    os.unlink(entry.path)
                except OSError:
                    pass


if __name__ == "__main__":
    import gc

    gc.disable()  # no automatic collections while the server imports and sets itself up
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import _sandbox_setup as _setup_module
    from _sandbox_runner import NO_BYTECODE, drop_capabilities, make_hooks, preload
    from _sandbox_seal import SealError
    from _sandbox_seal import seal as seal_ctypes
    from _sandbox_setup import enter_new_pid_namespace, leave_pid_namespace, setup
    from _sandbox_suite import run_suite
    from _sandbox_tags import TagError

    del sys.path[0]  # candidates must not import engine modules by accident

    serve(json.loads(sys.argv[1]))
    # The host closed our stdin and waits for us to end: nothing is buffered (every reply
    # went out through os.write), so skip the interpreter's teardown (~5-10 ms of
    # run-tests' wall time, the host's close() waits for it).
    os._exit(0)
