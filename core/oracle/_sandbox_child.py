"""The fork server: a clean ``python -P -s -S`` process that runs test suites in sandboxes.

This file is run as a script (``python -P -s -S _sandbox_child.py CONFIG``, with
a complete environment of its own) by
:mod:`execretrieval.oracle.sandbox` and imports the standard library only, so forking it is cheap
and no engine state leaks into candidate code. Process tree for one suite::

    server (trusted, one per Oracle worker; netns + read-only mount ns set up once)
      └── runner R (trusted; PID 1 of a fresh PID namespace; decides every outcome)
            └── test process T, one per test (unprivileged uid, rlimits, audit guard):
                  announce a token to R; exec(code); exec(test); verdict with the token

Why this shape: a fresh fork per test means monkey-patching cannot fool later tests and a
crash costs one outcome; R being PID 1 means ``kill(-1, SIGKILL)`` removes every process the
candidate started and the kernel kills them all should R die. R accepts exactly one
well-formed verdict carrying the token T announced before candidate code ran (see
``_sandbox_runner.py``), so a candidate that writes "pass" anywhere (stdout, the pipe, any
fd) is reported as an error. R appends outcomes to a results file; the server sleeps until
R ends (a pipe reads EOF) or overruns the timeout, so a crashed runner still leaves the
outcomes it had.

Protocol with the host (stdin/stdout of the server): 4-byte big-endian length + UTF-8 JSON.
"""

from __future__ import annotations

import ctypes
import json
import os
import select
import signal
import struct
import sys
import time

_LIBC = ctypes.CDLL(None, use_errno=True)
_CLONE_NEWNS, _CLONE_NEWUTS, _CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
_CLONE_NEWUSER, _CLONE_NEWPID, _CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_PR_SET_PDEATHSIG, _PR_SET_CHILD_SUBREAPER, _PR_SET_NO_NEW_PRIVS = 1, 36, 38
_MAGIC = b"ERXR1"
_MAX_DETAIL = 2000

# The pytest shim is compiled into its own module namespace so that its functions'
# __globals__ do not lead candidate code to the runner's globals.
_PYTEST_SHIM = r'''
import re as _re
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
        if self.match is not None and not _re.search(self.match, str(exc)):
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


# ---------------------------------------------------------------------------------------
# one-time containment set-up of the server


def _unshare(flags: int) -> bool:
    return _LIBC.unshare(flags) == 0


def _mount(src, target, fstype, flags, data) -> bool:
    def enc(s):
        return None if s is None else s.encode()
    return _LIBC.mount(enc(src), enc(target), enc(fstype), flags, enc(data)) == 0


def _mount_points() -> list[tuple[str, str]]:
    points = []
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            point = fields[4].encode().decode("unicode_escape")
            points.append((point, fields[5]))
    return points


def _blocked_ancestor(path: str) -> str | None:
    """The first folder on the way to ``path`` that other users may not enter, if any."""
    parts = path.strip("/").split("/")
    for i in range(1, len(parts) + 1):
        folder = "/" + "/".join(parts[:i])
        try:
            if not os.stat(folder).st_mode & 0o001:
                return folder
        except OSError:
            return None
    return None


def _expose_interpreter(base: str) -> None:
    """Let the unprivileged sandbox uid read the interpreter's own files.

    The standard library may sit under a folder closed to other users (pyenv under /root).
    In our mount namespace we cover that folder with an empty tmpfs and bind-mount only the
    interpreter's tree back at its old path, so imports work and nothing else there shows.
    """
    wanted = {os.path.realpath(p) for p in [sys.base_prefix, *sys.path] if os.path.isdir(p)}
    by_blocker: dict[str, set[str]] = {}
    for path in wanted:
        blocker = _blocked_ancestor(path)
        if blocker is not None and blocker != path:
            prefix = os.path.realpath(sys.base_prefix)
            by_blocker.setdefault(blocker, set()).add(
                prefix if path.startswith(prefix + "/") or path == prefix else path)
    for blocker, targets in by_blocker.items():
        holds: list[tuple[str, str]] = []
        for target in sorted(targets):
            hold = os.path.join(base, f".hold{len(holds)}")
            os.mkdir(hold)
            if _mount(target, hold, None, _MS_BIND | _MS_REC, None):
                holds.append((target, hold))
        if not _mount("tmpfs", blocker, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=1m,mode=0755"):
            continue
        for target, hold in holds:
            os.makedirs(target, mode=0o755, exist_ok=True)
            _mount(hold, target, None, _MS_BIND | _MS_REC, None)
            _LIBC.umount2(hold.encode(), 2)  # MNT_DETACH
            os.rmdir(hold)


def _read_only_view(base: str, tmpfs_mb: int) -> bool:
    """Remount every mount read-only in our private mount namespace; tmpfs over ``base``."""
    if not _mount(None, "/", None, _MS_REC | _MS_PRIVATE, None):
        return False
    _expose_interpreter(base)
    flag_of = {"nosuid": _MS_NOSUID, "nodev": _MS_NODEV, "noexec": _MS_NOEXEC,
               "noatime": 1024, "nodiratime": 2048, "relatime": 1 << 21,
               "strictatime": 1 << 24}  # keep locked flags: a user namespace insists
    for point, options in _mount_points():
        flags = _MS_REMOUNT | _MS_BIND | _MS_RDONLY
        for option in options.split(","):
            flags |= flag_of.get(option, 0)
        _mount(None, point, None, flags, None)  # best effort; "/" is checked below
    ok = bool(os.statvfs("/").f_flag & os.ST_RDONLY)
    ok = ok and _mount("tmpfs", base, "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={tmpfs_mb}m,mode=0711")
    return ok


def _setup(config: dict) -> dict:
    """Enter the namespaces this machine allows; return what is active."""
    active: dict = {"network_namespace": False, "readonly_filesystem": False,
                    "pid_namespace": False, "unprivileged_uid": False, "user_namespace": False,
                    "proc_hidden": False}
    if not config.get("isolate", True) or not sys.platform.startswith("linux"):
        return active
    root = os.geteuid() == 0
    if not root:
        uid, gid = os.getuid(), os.getgid()
        if _unshare(_CLONE_NEWUSER):
            active["user_namespace"] = True
            try:
                with open("/proc/self/setgroups", "w") as h:
                    h.write("deny")
                with open("/proc/self/uid_map", "w") as h:
                    h.write(f"{uid} {uid} 1")
                with open("/proc/self/gid_map", "w") as h:
                    h.write(f"{gid} {gid} 1")
            except OSError:
                pass
    active["network_namespace"] = _unshare(_CLONE_NEWNET)
    _unshare(_CLONE_NEWIPC | _CLONE_NEWUTS)
    if _unshare(_CLONE_NEWNS):
        active["readonly_filesystem"] = _read_only_view(config["base"], config["tmpfs_mb"])
    active["pid_namespace"] = _probe_pid_namespace()
    if active["readonly_filesystem"]:
        # Candidates get neither /proc (their own memory, other processes' command lines
        # and environments) nor /sys; nothing in the runner needs them after set-up.
        active["proc_hidden"] = all(
            _mount("tmpfs", point, "tmpfs", _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC,
                   "size=4k,mode=0555") for point in ("/proc", "/sys"))
    active["unprivileged_uid"] = (root and config.get("uid") is not None
                                  and _uid_can_import(config["uid"]))
    return active


def _uid_can_import(uid: int) -> bool:
    """Can the sandbox uid read the standard library? If not, do not drop to it."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            os.listdir(os.path.dirname(os.__file__))
            os._exit(0)
        finally:
            os._exit(1)
    return os.waitpid(pid, 0)[1] == 0


def _probe_pid_namespace() -> bool:
    try:
        fd = os.open("/proc/self/ns/pid", os.O_RDONLY)
    except OSError:
        return False
    if not _enter_new_pid_namespace(fd):
        os.close(fd)
        return False
    pid = os.fork()
    if pid == 0:
        os._exit(0 if os.getpid() == 1 else 1)
    _, status = os.waitpid(pid, 0)
    _LIBC.setns(fd, _CLONE_NEWPID)  # later forks (probes, helpers) stay in our namespace
    global _OWN_PIDNS
    _OWN_PIDNS = fd
    return status == 0


_OWN_PIDNS: int | None = None


def _enter_new_pid_namespace(own_fd: int) -> bool:
    """Make the next fork PID 1 of a fresh PID namespace (setns back first: unshare
    refuses a second CLONE_NEWPID while pid_for_children differs from our own)."""
    return _LIBC.setns(own_fd, _CLONE_NEWPID) == 0 and _unshare(_CLONE_NEWPID)


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
    active = _setup(config)
    import gc

    gc.collect()
    gc.freeze()  # forked children then leave these objects' pages shared (fewer COW faults)
    os.chmod(config["base"], 0o711)  # the sandbox uid may enter its own folder, not list
    _send(1, {"hello": active})
    count = 0
    while True:
        header = _read_exact(0, 4)
        if header is None:
            return
        body = _read_exact(0, struct.unpack(">I", header)[0])
        if body is None:
            return
        count += 1
        result = _run_suite(json.loads(body), config, active, count)
        if result is None:  # the host went away
            return
        _send(1, result)


def _run_suite(req: dict, config: dict, active: dict, count: int) -> dict | None:
    base, uid = config["base"], config.get("uid") if active["unprivileged_uid"] else None
    tests = req["tests"]
    workdir, outpath = os.path.join(base, f"w{count}"), os.path.join(base, f"o{count}")
    os.mkdir(workdir, 0o700)
    if uid is not None:
        os.chown(workdir, uid, uid)
    # Output and results live in unlinked files: no path leads to them, only the fds that
    # R holds (and T closes, except its stdout/stderr).
    outfd = os.open(outpath, os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
    os.unlink(outpath)
    respath = os.path.join(base, f"r{count}")
    resfd = os.open(respath, os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
    os.unlink(respath)
    rd, wr = os.pipe()  # R holds wr: EOF on rd means R has ended
    started = time.monotonic()
    if active["pid_namespace"] and _OWN_PIDNS is not None:
        _enter_new_pid_namespace(_OWN_PIDNS)
    pid = os.fork()
    if pid == 0:
        try:
            os.close(rd)
            _runner(req, config, uid, workdir, outfd, resfd, wr, active)
            os._exit(0)
        except BaseException:  # a runner bug: leave the traceback in the captured output
            import traceback

            traceback.print_exc()
        finally:
            os._exit(70)
    if active["pid_namespace"]:
        _LIBC.setns(_OWN_PIDNS, _CLONE_NEWPID)
    os.close(wr)
    alive = True
    deadline = started + float(req["timeout"]) + 3.0
    while True:  # R appends outcomes to resfd; we wake only when it ends (or overruns)
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([rd, 0], [], [], left)
        if 0 in ready and not os.read(0, 1):  # host closed our stdin: give up at once
            alive = False
            break
        if rd in ready and not os.read(rd, 1):
            break
    os.close(rd)
    _kill_suite(pid, active, uid)
    os.lseek(outfd, 0, os.SEEK_SET)
    raw = os.read(outfd, 4 * int(req["output_chars"]) + 4)
    os.close(outfd)
    outcomes: dict[int, list] = {}
    with os.fdopen(resfd, "rb") as results:
        results.seek(0)
        for line in results:
            if line.endswith(b"\n"):  # a line cut short by R's death is not an outcome
                msg = json.loads(line)
                outcomes[msg["i"]] = [msg["status"], msg["detail"]]
    _remove(workdir)
    if not alive:
        return None
    output = raw.decode("utf-8", "replace")
    if len(output) > req["output_chars"]:
        output = output[: req["output_chars"]] + "\n[output truncated]"
    result = []
    for i in range(len(tests)):
        result.append(outcomes.get(i, ["timeout", "the sandbox runner stopped before this test"]))
    return {"outcomes": result, "output": output, "duration": time.monotonic() - started}


def _kill_suite(pid: int, active: dict, uid: int | None) -> None:
    """SIGKILL the runner; with a PID namespace that takes every descendant with it."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    if not active["pid_namespace"] and uid is not None:
        _kill_uid(uid)


def _remove(workdir: str) -> None:
    import shutil

    shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _sandbox_runner import _kill_uid, _runner

    del sys.path[0]  # candidates must not import engine modules by accident

    serve(json.loads(sys.argv[1]))
