"""Servers started ahead (``Oracle.prestart``) set themselves up in the background, run the
first suites, and leave nothing behind when they were never used; the extras line of
``--version`` agrees with :mod:`importlib.metadata`."""

from __future__ import annotations

import os
from importlib import metadata

from execretrieval.distribution import extra_packages, installed_extras
from execretrieval.oracle.execution import Oracle
from execretrieval.oracle.sandbox import ForkServerPool

ADD = "def add(a, b):\n    return a + b\n"


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            return "\tZ" in handle.read()   # a zombie is gone for our purpose
    except FileNotFoundError:
        return True


def test_prestarted_servers_run_the_first_suites() -> None:
    with Oracle(timeout=5.0, cache=None, workers=2) as oracle:
        oracle.prestart()
        servers = list(oracle._runner._idle)  # type: ignore[attr-defined]
        assert len(servers) == 2 and all(s._containment is None for s in servers)  # not awaited
        oracle.prestart()   # every slot taken: starts nothing more
        assert len(oracle._runner._idle) == 2  # type: ignore[attr-defined]
        results = oracle.run_many([(ADD, ["assert add(1, 2) == 3", "assert add(1, 1) == 3"])] * 4)
        assert [r.statuses for r in results] == [("pass", "fail")] * 4
        assert oracle.containment()["pid_namespace"] in (True, False)
        used = list(oracle._runner._idle)  # type: ignore[attr-defined]
        assert {id(s) for s in used} == {id(s) for s in servers}   # no third server started
    for server in servers:
        assert not server.alive and not os.path.exists(server._base)


def test_a_prestarted_server_never_used_is_stopped_at_close() -> None:
    pool = ForkServerPool(1)
    assert pool.prestart() == 1
    server = pool._idle[0]
    pid = server._proc.pid
    pool.close()
    assert _gone(pid) and not os.path.exists(server._base)


def test_extras_agree_with_importlib_metadata() -> None:
    declared = metadata.metadata("execretrieval-inspector")
    assert sorted(extra_packages()) == sorted(declared.get_all("Provides-Extra") or [])

    def installed(package: str) -> bool:
        try:
            metadata.distribution(package)
        except metadata.PackageNotFoundError:
            return False
        return True

    expected = {extra: all(installed(p) for p in packages)
                for extra, packages in extra_packages().items()}
    assert installed_extras(include_developer=True) == expected
    assert "dense" in installed_extras() and "test" not in installed_extras()
