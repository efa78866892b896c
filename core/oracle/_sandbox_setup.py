"""Inside the sandbox: the fork server's one-time containment set-up (stdlib only).

Imported by the fork server (:mod:`_sandbox_child`), never by the engine. :func:`setup`
enters the namespaces this machine allows and returns which measures are active and, for
each one that is not, why. As an ordinary user everything happens inside an unprivileged
user namespace (the server is "root" only there); as root the candidates later run as an
unprivileged uid instead.

The file-system view: every mount is remounted read-only; the user's home, ``/home``,
``/root``, ``/tmp``, ``/var/tmp``, ``/run`` and ``/dev/shm`` (and any folder other users may
not enter on the way to the interpreter) are covered by empty tmpfs mounts, with only the
interpreter's own folders bind-mounted back, read-only. No file and no unix socket of the
user is reachable; abstract unix sockets belong to the network namespace, which is empty.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys

_LIBC = ctypes.CDLL(None, use_errno=True)
# Looked up now: the server makes ctypes unusable (no new function pointer) before it forks
# a worker (_sandbox_seal.py), and uses some of these per suite
for _name in ("unshare", "mount", "umount2", "prctl", "setns"):
    getattr(_LIBC, _name, None)
del _name
_CLONE_NEWNS, _CLONE_NEWUTS, _CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
_CLONE_NEWUSER, _CLONE_NEWPID, _CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_COVERED = ("/tmp", "/var/tmp", "/run", "/dev/shm", "/home", "/root")
MEASURES = ("user_namespace", "pid_namespace", "network_namespace", "readonly_filesystem",
            "private_views", "proc_hidden", "no_capabilities", "unprivileged_uid",
            "nested_userns_blocked")

OWN_PIDNS: int | None = None  # fd of the server's own PID namespace, once it has one


def unshare(flags: int) -> bool:
    return _LIBC.unshare(flags) == 0


def mount(src, target, fstype, flags, data) -> bool:  # type: ignore[no-untyped-def]
    def enc(s):  # type: ignore[no-untyped-def]
        return None if s is None else s.encode()
    return _LIBC.mount(enc(src), enc(target), enc(fstype), flags, enc(data)) == 0


def _errno_text() -> str:
    code = ctypes.get_errno()
    return f"{errno.errorcode.get(code, code)}: {os.strerror(code)}"


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii") as handle:
            return handle.read().strip()
    except OSError:
        return None


def userns_reason() -> str:
    """Why an unprivileged user namespace was refused, as far as the kernel tells."""
    text = _errno_text()
    if _read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1":
        return (f"unshare(CLONE_NEWUSER) failed ({text}): AppArmor restricts unprivileged "
                "user namespaces (Ubuntu 23.10+: kernel.apparmor_restrict_unprivileged_userns"
                "=1; an AppArmor profile for this Python, or setting it to 0, lifts it)")
    if _read("/proc/sys/kernel/unprivileged_userns_clone") == "0":
        return (f"unshare(CLONE_NEWUSER) failed ({text}): kernel.unprivileged_userns_clone=0 "
                "(set it to 1 to allow them)")
    if _read("/proc/sys/user/max_user_namespaces") == "0":
        return f"unshare(CLONE_NEWUSER) failed ({text}): user.max_user_namespaces=0"
    return f"unshare(CLONE_NEWUSER) failed ({text})"


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


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _cover(covers: list[str], keep: set[str]) -> tuple[bool, str]:
    """Cover each folder with an empty tmpfs, binding back the ``keep`` paths inside it."""
    covers = sorted({os.path.realpath(c) for c in covers if os.path.isdir(c)
                     and os.path.realpath(c) != "/"}, key=len)
    chosen: list[str] = []
    for folder in covers:  # a folder under one already covered is hidden with it
        if not any(_inside(folder, done) for done in chosen):
            chosen.append(folder)
    if not chosen:
        return True, ""
    # a covered folder with nothing to keep holds the bind mounts meanwhile; covered last
    spare = [f for f in chosen if not any(_inside(k, f) for k in keep)]
    if not spare:
        return False, "every folder to cover holds part of the interpreter"
    staging = spare[0]
    if not mount("tmpfs", staging, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=1m,mode=0700"):
        return False, f"cannot mount a tmpfs on {staging} ({_errno_text()})"
    failed = []
    for n, folder in enumerate([f for f in chosen if f != staging] + [staging]):
        holds = []
        for m, path in enumerate(sorted(k for k in keep if _inside(k, folder))):
            hold = os.path.join(staging, f"hold{n}-{m}")
            os.mkdir(hold)
            if mount(path, hold, None, _MS_BIND | _MS_REC, None):
                holds.append((path, hold))
        if not mount("tmpfs", folder, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=1m,mode=0755"):
            failed.append(f"{folder} ({_errno_text()})")
            continue
        for path, hold in holds:
            os.makedirs(path, mode=0o755, exist_ok=True)
            if not mount(hold, path, None, _MS_BIND | _MS_REC, None):
                failed.append(f"{path} not bound back ({_errno_text()})")
            _LIBC.umount2(hold.encode(), 2)  # MNT_DETACH
    if failed:
        return False, "could not cover " + ", ".join(failed)
    return True, ""


def _read_only_view(config: dict) -> tuple[bool, bool, str]:
    """(read-only, private views, reason): in our own mount namespace."""
    base = config["base"]
    if not mount(None, "/", None, _MS_REC | _MS_PRIVATE, None):
        return False, False, f"cannot make / private ({_errno_text()})"
    keep = {os.path.realpath(p) for p in [sys.base_prefix, sys.prefix, *sys.path,
                                          *config.get("site_packages", [])]
            if p and os.path.isdir(p)}
    covers = [*_COVERED, config.get("home") or "/"]
    covers += [b for b in map(_blocked_ancestor, keep) if b is not None]
    views, reason = _cover(covers, keep)
    os.makedirs(base, mode=0o700, exist_ok=True)  # inside the new, empty /tmp
    flag_of = {"nosuid": _MS_NOSUID, "nodev": _MS_NODEV, "noexec": _MS_NOEXEC,
               "noatime": 1024, "nodiratime": 2048, "relatime": 1 << 21,
               "strictatime": 1 << 24}  # keep locked flags: a user namespace insists
    for point, options in _mount_points():
        flags = _MS_REMOUNT | _MS_BIND | _MS_RDONLY
        for option in options.split(","):
            flags |= flag_of.get(option, 0)
        mount(None, point, None, flags, None)  # best effort; "/" is checked below
    if not os.statvfs("/").f_flag & os.ST_RDONLY:
        return False, views, "remounting / read-only failed"
    # The suite folder ``base/w``, emptied after every suite, is the only writable place:
    # its own tmpfs, where nothing can be executed or mapped as code, inside a read-only one.
    flags = _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
    workdir = os.path.join(base, "w")
    made = mount("tmpfs", base, "tmpfs", flags, "size=64k,mode=0711")
    if made:
        os.mkdir(workdir, 0o700)
    size = f"size={config['tmpfs_mb']}m,mode=0700"
    if not (made and mount("tmpfs", workdir, "tmpfs", flags, size)
            and mount(None, base, None, _MS_REMOUNT | _MS_RDONLY | flags, None)):
        return False, views, f"cannot mount the suites' tmpfs ({_errno_text()})"
    return True, views, reason


def _become_pid_init() -> bool:
    """Fork; the child goes on as PID 1 of a new PID namespace owned by our user namespace
    (so it may later make one namespace per suite and setns back), the parent only waits."""
    if not unshare(_CLONE_NEWPID):
        return False
    pid = os.fork()
    if pid == 0:
        _LIBC.prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG SIGKILL: die with the waiting parent
        return True
    devnull = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1):  # the host must see EOF as soon as the real server ends
        os.dup2(devnull, fd)
    _, status = os.waitpid(pid, 0)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def enter_new_pid_namespace() -> bool:
    """Make the next fork PID 1 of a fresh PID namespace (setns back first: unshare
    refuses a second CLONE_NEWPID while pid_for_children differs from our own)."""
    return (OWN_PIDNS is not None and _LIBC.setns(OWN_PIDNS, _CLONE_NEWPID) == 0
            and unshare(_CLONE_NEWPID))


def leave_pid_namespace() -> None:
    if OWN_PIDNS is not None:
        _LIBC.setns(OWN_PIDNS, _CLONE_NEWPID)


def _probe_pid_namespace() -> tuple[bool, str]:
    global OWN_PIDNS
    try:
        OWN_PIDNS = os.open("/proc/self/ns/pid", os.O_RDONLY)
    except OSError as exc:
        return False, f"cannot open /proc/self/ns/pid ({exc})"
    if not enter_new_pid_namespace():
        reason = f"unshare(CLONE_NEWPID) failed ({_errno_text()})"
        os.close(OWN_PIDNS)
        OWN_PIDNS = None
        return False, reason
    pid = os.fork()
    if pid == 0:
        os._exit(0 if os.getpid() == 1 else 1)
    _, status = os.waitpid(pid, 0)
    leave_pid_namespace()  # later forks (probes, helpers) stay in our namespace
    return status == 0, "" if status == 0 else "a child of a new PID namespace was not PID 1"


def _probe_no_capabilities(uid: int | None, drop) -> tuple[bool, str]:  # type: ignore[no-untyped-def]
    """In a child as the candidates will be: may it remount / read-write? It must not."""
    pid = os.fork()
    if pid == 0:
        try:
            if uid is not None:
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
            elif not drop():
                os._exit(3)
            os._exit(2 if mount(None, "/", None, _MS_REMOUNT | _MS_BIND, None) else 0)
        finally:
            os._exit(4)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return code == 0, {0: "", 2: "a candidate could remount / read-write",
                       3: "capset() did not leave the candidates without capabilities"}.get(
        code, f"the capability probe failed (exit {code})")


def setup(config: dict, drop_capabilities) -> tuple[dict, dict]:  # type: ignore[no-untyped-def]
    """Enter the namespaces this machine allows; (measure -> active, measure -> why not)."""
    active = {name: False for name in MEASURES}
    reasons: dict[str, str] = {}
    if not config.get("isolate", True):
        return active, {name: "isolation was turned off (isolate=False)" for name in MEASURES}
    if not sys.platform.startswith("linux"):
        return active, {name: f"not Linux ({sys.platform})" for name in MEASURES}
    root = os.geteuid() == 0
    if root:
        reasons["user_namespace"] = "not needed: running as root"
        reasons["nested_userns_blocked"] = (
            "not needed as root: candidates run as an unprivileged uid; a namespace they "
            "create cannot undo locked mounts")
    else:
        uid, gid = os.getuid(), os.getgid()
        reasons["unprivileged_uid"] = "not needed: not root (the user's own uid, no capabilities)"
        if unshare(_CLONE_NEWUSER):
            active["user_namespace"] = True
            try:
                for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                                   ("gid_map", f"{gid} {gid} 1")):
                    with open(f"/proc/self/{name}", "w") as handle:
                        handle.write(text)
            except OSError:
                pass
            # no nested user namespaces for candidates (a fresh one holds capabilities)
            try:
                with open("/proc/sys/user/max_user_namespaces", "w") as handle:
                    handle.write("0")
                active["nested_userns_blocked"] = True
            except OSError as exc:
                reasons["nested_userns_blocked"] = f"cannot limit user.max_user_namespaces ({exc})"
        else:
            reasons["user_namespace"] = userns_reason()
    can_ns = root or active["user_namespace"]
    if can_ns and not _become_pid_init():
        reasons["pid_namespace"] = f"unshare(CLONE_NEWPID) failed ({_errno_text()})"
    active["network_namespace"] = unshare(_CLONE_NEWNET)
    if not active["network_namespace"]:
        reasons["network_namespace"] = f"unshare(CLONE_NEWNET) failed ({_errno_text()})"
    unshare(_CLONE_NEWIPC | _CLONE_NEWUTS)
    if "pid_namespace" not in reasons:
        active["pid_namespace"], why = _probe_pid_namespace()
        if why:
            reasons["pid_namespace"] = why
    if unshare(_CLONE_NEWNS):
        ro, views, why = _read_only_view(config)
        active["readonly_filesystem"], active["private_views"] = ro, views and ro
        if why:
            reasons["readonly_filesystem" if not ro else "private_views"] = why
    else:
        reasons["readonly_filesystem"] = f"unshare(CLONE_NEWNS) failed ({_errno_text()})"
    sandbox_uid = config.get("uid") if root else None
    active["unprivileged_uid"] = (root and sandbox_uid is not None
                                  and _uid_can_import(sandbox_uid))
    if root and not active["unprivileged_uid"]:
        reasons["unprivileged_uid"] = "the sandbox uid cannot read the standard library"
    if active["readonly_filesystem"]:
        # Candidates get neither /proc (their own memory, other processes' command lines
        # and environments) nor /sys; nothing in the runner needs them after set-up.
        active["proc_hidden"] = all(
            mount("tmpfs", point, "tmpfs", _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC,
                  "size=4k,mode=0555") for point in ("/proc", "/sys"))
        if not active["proc_hidden"]:
            reasons["proc_hidden"] = f"cannot cover /proc and /sys ({_errno_text()})"
    if active["readonly_filesystem"] and (active["unprivileged_uid"] or not root):
        active["no_capabilities"], why = _probe_no_capabilities(
            sandbox_uid if active["unprivileged_uid"] else None, drop_capabilities)
        if why:
            reasons["no_capabilities"] = why
    elif "no_capabilities" not in reasons:
        reasons["no_capabilities"] = ("candidates run as root" if root else
                                      "no read-only view to protect (no mount namespace)")
    for name in MEASURES:
        if not active[name] and name not in reasons:
            reasons[name] = "not available on this machine"
    return active, reasons


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
