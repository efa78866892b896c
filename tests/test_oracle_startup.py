"""Servers started ahead (``Oracle.prestart``) set themselves up in the background, run the
first suites, and leave nothing behind when they were never used; the extras line of
``--version`` agrees with :mod:`importlib.metadata`."""

from __future__ import annotations

import os
from importlib import metadata

from execretrieval.distribution import extra_packages, installed_extras
from execretrieval.oracle.execution import Oracle
from execretrieval.oracle.pool import ForkServerPool

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


# -- the sandbox's own code, compiled once per installation (_sandbox_code.py) --------------

def _same_code(a, b) -> bool:  # type: ignore[no-untyped-def]
    """Two code objects alike in everything the interpreter runs (marshal's bytes differ
    by reference flags, which depend on reference counts)."""
    fields = ("co_code", "co_names", "co_varnames", "co_freevars", "co_cellvars",
              "co_filename", "co_name", "co_firstlineno", "co_linetable", "co_flags",
              "co_argcount", "co_kwonlyargcount", "co_exceptiontable")
    if any(getattr(a, f) != getattr(b, f) for f in fields) or \
            len(a.co_consts) != len(b.co_consts):
        return False
    return all(_same_code(x, y) if type(x) is type(a) else (type(x) is type(y) and x == y)
               for x, y in zip(a.co_consts, b.co_consts, strict=True))


def test_code_cache_gives_what_compile_gives_and_ignores_a_stale_or_damaged_file(
        tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from execretrieval.oracle import _sandbox_code, _sandbox_compare

    monkeypatch.setattr(_sandbox_code, "_FOLDER", str(tmp_path))
    source, name = _sandbox_compare.SOURCE, "<sandbox-compare>"
    fresh = compile(source, name, "exec")
    assert _sandbox_code.write("compare", source, name)
    cached = _sandbox_code.path("compare")
    assert os.path.dirname(cached) == str(tmp_path)
    assert _same_code(_sandbox_code.load("compare", source, name), fresh)
    # the file now holds the code of another source: it is not used for this one
    other = source + "\nLATER_EDIT = 1\n"
    loaded = _sandbox_code.load("compare", other, name)
    assert "LATER_EDIT" in loaded.co_names and _same_code(loaded,
                                                           compile(other, name, "exec"))
    # a write for the edited source replaces it; a truncated file is compiled afresh
    assert _sandbox_code.write("compare", other, name)
    assert "LATER_EDIT" in _sandbox_code.load("compare", other, name).co_names
    with open(cached, "r+b") as handle:
        handle.truncate(os.path.getsize(cached) // 2)
    assert _same_code(_sandbox_code.load("compare", other, name), compile(other, name, "exec"))
    # a foreign file under the name (no header of ours) is never unmarshalled
    with open(cached, "wb") as handle:
        handle.write(b"\0" * 100)
    assert _same_code(_sandbox_code.load("compare", source, name), fresh)


def test_the_host_writes_the_code_caches_the_server_reads(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from execretrieval.oracle import _sandbox_code, sandbox
    from execretrieval.oracle._sandbox_channel import CHANNEL
    from execretrieval.oracle._sandbox_classes import CLASSES

    monkeypatch.setattr(_sandbox_code, "_FOLDER", str(tmp_path))
    sandbox._write_code_caches()
    # (the server runs the channel's hooks and the class checks as one source)
    for label, source, name in (("hooks", CHANNEL + CLASSES, "<sandbox-hooks>"),):
        path = _sandbox_code.path(label)
        with open(path, "rb") as handle:
            head = handle.read(len(_sandbox_code._header(source, name)))
        assert head == _sandbox_code._header(source, name)
    assert os.path.exists(_sandbox_code.path("compare"))
    # and a server still sets itself up and judges as before
    with Oracle(timeout=5.0, cache=None, workers=1) as oracle:
        result = oracle.run(ADD, ["assert add(1, 2) == 3", "assert add(1, 1) == 3"])
    assert result.statuses == ("pass", "fail")
