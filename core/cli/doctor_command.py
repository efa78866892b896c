"""``execretrieval doctor [--json]``: which containment measures the oracle has here, and why
any is missing."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..errors import OracleError

# What each measure protects, in the words the table prints.
MEANING = {
    "user_namespace": "unprivileged user namespace (lets an ordinary user set up the rest)",
    "pid_namespace": "PID namespace per suite: kill(-1) and daemons reach nothing outside",
    "network_namespace": "no network: only a loopback that is down",
    "readonly_filesystem": "every mount read-only; only the suite's folder is writable",
    "private_views": "home, /home, /root, /tmp, /var/tmp, /run, /dev/shm are empty views",
    "proc_hidden": "/proc and /sys hidden (no other processes, no own memory)",
    "no_capabilities": "candidates hold no capabilities: they cannot remount anything",
    "unprivileged_uid": "as root: candidates run as an unprivileged uid",
    "nested_userns_blocked": "candidates cannot create user namespaces of their own",
}
_KNOBS = ("/proc/sys/kernel/unprivileged_userns_clone", "/proc/sys/user/max_user_namespaces",
          "/proc/sys/kernel/apparmor_restrict_unprivileged_userns")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "doctor", help="show which sandbox measures are active on this machine",
        description="Start one sandbox server and report which containment measures are "
                    "active for this user, and why any is not. Exit 0 if every measure that "
                    "applies is active, 1 if any is missing.")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=_run)


def diagnose() -> dict[str, Any]:
    """The report ``doctor`` prints: one entry per measure plus what the kernel allows."""
    from ..oracle.sandbox import ForkServer

    try:
        server = ForkServer(0)
    except OracleError as exc:
        raise OracleError(f"the sandbox server does not start here: {exc}") from exc
    try:
        active, reasons = server.containment(), server.reasons()
    finally:
        server.close()
    measures = {}
    for name, meaning in MEANING.items():
        why = reasons.get(name, "")
        state = ("active" if active.get(name) else
                 "not needed" if why.startswith("not needed") else "missing")
        measures[name] = {"state": state, "meaning": meaning, "why": why}
    knobs = {}
    for path in _KNOBS:
        try:
            with open(path, encoding="ascii") as handle:
                knobs[path.removeprefix("/proc/sys/").replace("/", ".")] = handle.read().strip()
        except OSError:
            pass
    missing = [n for n, m in measures.items() if m["state"] == "missing"]
    return {"user": "root" if os.geteuid() == 0 else f"uid {os.geteuid()}",
            "kernel": os.uname().release, "python": sys.version.split()[0],
            "measures": measures, "kernel_settings": knobs, "all_active": not missing,
            "degraded": _degraded(missing)}


def _degraded(missing: list[str]) -> str:
    if not missing:
        return ""
    if "user_namespace" in missing:
        return ("without a user namespace an ordinary user gets no PID, network or mount "
                "namespace: candidates run as you, can read your files, signal your "
                "processes and use the network; only rlimits, the per-suite process group "
                "and the verdict channel remain. Run as root, or allow unprivileged user "
                "namespaces (see 'why').")
    return "missing measures: " + ", ".join(missing) + " (see 'why')"


def _run(args: argparse.Namespace) -> int:
    report = diagnose()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"execretrieval sandbox on Linux {report['kernel']}, Python {report['python']}, "
              f"as {report['user']}")
        for name, m in report["measures"].items():
            print(f"  {m['state']:10} {name:22} {m['meaning']}")
            if m["state"] != "active" and m["why"]:
                print(f"  {'':10} {'':22} why: {m['why']}")
        for knob, value in report["kernel_settings"].items():
            print(f"  kernel setting {knob} = {value}")
        print("every measure is active" if report["all_active"] else report["degraded"])
    return 0 if report["all_active"] else 1
