"""The hostile battery as an ordinary (non-root) user, the way the GUI is used (issue 10).

Run as root (as CI does), this test creates an unprivileged account once (``useradd``,
idempotent) and runs ``tests/test_sandbox_hostile.py``, ``tests/test_sandbox_channel.py``,
``tests/test_sandbox_output.py``, ``tests/test_sandbox_fingerprint.py`` and
``tests/test_sandbox_inputs.py`` (the hostile battery; also the CPU-time timeout, which
reads the test process's CPU clock) and ``execretrieval doctor --json``
as that user with ``setpriv``. The interpreter may live where other users cannot read it
(pyenv under ``/root``, 0700): the run then happens in a private mount namespace (made by
``unshare --mount`` as root, before dropping to the user) where an empty tmpfs covers that
folder and only the interpreter's own tree is bind-mounted back, read-only; nothing on disk
changes. The worktree and its ``.venv`` must be readable by others (they are by default).

Run as an ordinary user, the battery in the same pytest run already is that run; this test
then checks that ``doctor`` reports every measure active.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

USER = "erxr-hostile"
REPO = Path(__file__).resolve().parent.parent


def _blocked_ancestor(path: str) -> str | None:
    """The first folder on the way to ``path`` that other users may not enter."""
    parts = path.strip("/").split("/")
    for i in range(1, len(parts) + 1):
        folder = "/" + "/".join(parts[:i])
        if not os.stat(folder).st_mode & 0o001:
            return folder
    return None


def _ensure_user() -> None:
    if subprocess.run(["id", "-u", USER], capture_output=True).returncode == 0:
        return
    made = subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", USER],
                          capture_output=True, text=True)
    # a concurrent run may have made it in between: only "still missing" is a failure
    assert subprocess.run(["id", "-u", USER], capture_output=True).returncode == 0, made.stderr


def _as_user(*command: str, timeout: float) -> subprocess.CompletedProcess:
    """Run ``command`` as USER, with the interpreter made readable in a private mount ns."""
    prefix = os.path.realpath(sys.base_prefix)
    blocked = _blocked_ancestor(prefix)
    script = "set -e\n"
    if blocked is not None:
        script += (f'hold=$(mktemp -d)\nmount --bind "{prefix}" "$hold"\n'
                   f'mount -t tmpfs -o mode=0755,size=1m tmpfs "{blocked}"\n'
                   f'mkdir -p "{prefix}"\nmount --bind "$hold" "{prefix}"\n'
                   'umount "$hold"\nrmdir "$hold"\n')
    script += ('exec setpriv --reuid="$0" --regid="$0" --init-groups --reset-env -- '
               'env QT_QPA_PLATFORM=offscreen "$@"\n')
    return subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, USER,
         *command], cwd=REPO, capture_output=True, text=True, timeout=timeout)


def _doctor_as_current_user() -> dict:
    out = subprocess.run([sys.executable, "-m", "execretrieval.cli", "doctor", "--json"],
                         capture_output=True, text=True, timeout=120)
    return json.loads(out.stdout)


@pytest.mark.slow
def test_hostile_battery_and_doctor_as_an_ordinary_user():
    if os.geteuid() != 0:
        report = _doctor_as_current_user()
        missing = {k: m["why"] for k, m in report["measures"].items() if m["state"] == "missing"}
        assert report["all_active"], f"containment missing for this user: {missing}"
        return
    for tool in ("useradd", "setpriv", "unshare", "mount"):
        assert shutil.which(tool), f"{tool} is needed to run the battery as an ordinary user"
    _ensure_user()
    python = str(REPO / ".venv" / "bin" / "python") if (REPO / ".venv").is_dir() \
        else sys.executable
    doctor = _as_user(python, "-m", "execretrieval.cli", "doctor", "--json", timeout=120)
    report = json.loads(doctor.stdout)
    assert report["user"] != "root"
    missing = {k: m["why"] for k, m in report["measures"].items() if m["state"] == "missing"}
    assert report["all_active"], f"containment missing for an ordinary user: {missing}"
    run = _as_user(python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   "-o", f"cache_dir=/tmp/{USER}-pytest-cache",
                   "tests/test_sandbox_hostile.py", "tests/test_sandbox_channel.py",
                   "tests/test_sandbox_output.py", "tests/test_sandbox_fingerprint.py",
                   "tests/test_sandbox_inputs.py", "tests/test_sandbox_tags.py",
                   "tests/test_sandbox_classes.py", "tests/test_sandbox_cpu_timeout.py",
                   "tests/test_sandbox_test_objects.py", "tests/test_sandbox_stdlib_use.py",
                   timeout=1800)
    tail = (run.stdout + run.stderr)[-4000:]
    assert run.returncode == 0, f"the hostile battery failed as {USER}:\n{tail}"
    assert " passed" in run.stdout and "skipped" not in run.stdout, tail
