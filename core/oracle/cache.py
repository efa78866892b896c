"""The oracle's result cache: a warm re-run of the same suite executes nothing.

Keys hash everything an outcome depends on (interpreter version, runner version, code,
tests, timeout, limits), so a cached answer is never reused for a different question.
:class:`ResultCache` is an SQLite file in WAL mode, safe to share between threads and
processes; a database that fails its integrity check is moved aside and rebuilt rather than
trusted. :class:`MemoryCache` has the same interface for tests.

Every outcome is cached, timeouts included: mutants that loop forever are common, and
re-running each for the full timeout on every warm run would defeat the cache. The timeout
is part of the key, so a longer timeout (or ``--no-cache``) judges such a suite afresh.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from ..dirs import user_cache_dir
from ..errors import OracleError
from .results import SuiteResult

__all__ = ["Cache", "MemoryCache", "ResultCache", "SharedCache", "cache_key",
           "default_cache_path"]

RUNNER_VERSION = "9"  # bump when the sandbox would judge the same suite differently
# (6: exceptions described without calling the candidate's __str__; the comparison rules
# for ordering, in, approx, stdlib values and real builtins; random seeded per suite)
_SCHEMA = "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, value TEXT NOT NULL, " \
          "created REAL NOT NULL)"
# PRAGMA user_version of the file. 2: values carry each test's output and the setup part
# (runner 5). Rows of a file before that were keyed with an older runner version, so no
# key can reach them again: opening such a file drops them and stamps the version.
_FORMAT = 2


def default_cache_path() -> Path:
    """``$EXECRETRIEVAL_CACHE_DIR/results.sqlite`` if set, else the user's cache folder."""
    return user_cache_dir() / "results.sqlite"


def cache_key(code: str, tests: Sequence[str], timeout: float, extra: str = "") -> str:
    """sha256 over interpreter version, runner version, code, tests, timeout and ``extra``."""
    payload = json.dumps([sys.version, RUNNER_VERSION, code, list(tests), float(timeout), extra])
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class Cache(Protocol):
    """What the Oracle needs from a cache."""

    def get(self, key: str) -> SuiteResult | None: ...

    def put(self, key: str, result: SuiteResult) -> None: ...


class SharedCache:
    """Lends a cache to a second oracle (another hash seed, other limits) without letting
    that oracle close it: the owner does."""

    def __init__(self, cache: Cache) -> None:
        self._cache = cache

    def get(self, key: str) -> SuiteResult | None:
        return self._cache.get(key)

    def put(self, key: str, result: SuiteResult) -> None:
        self._cache.put(key, result)


class MemoryCache:
    """A dict-backed cache with the interface of :class:`ResultCache`."""

    def __init__(self) -> None:
        self._data: dict[str, dict] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> SuiteResult | None:

        with self._lock:
            value = self._data.get(key)
        return None if value is None else SuiteResult.from_dict(value, cached=True)

    def put(self, key: str, result: SuiteResult) -> None:
        with self._lock:
            self._data[key] = result.to_dict()

    def __len__(self) -> int:
        return len(self._data)

    def close(self) -> None:
        """Nothing to release; here for symmetry with :class:`ResultCache`."""


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring an older file to :data:`_FORMAT` (a newer one is left as it is)."""
    if int(conn.execute("PRAGMA user_version").fetchone()[0]) >= _FORMAT:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if int(conn.execute("PRAGMA user_version").fetchone()[0]) < _FORMAT:
            conn.execute("DELETE FROM results")
            conn.execute(f"PRAGMA user_version = {_FORMAT}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


class ResultCache:
    """Suite results in an SQLite file (default :func:`default_cache_path`)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self.moved_aside = False  # True once a corrupt database was set aside
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OracleError(f"cannot create the cache folder {self.path.parent}: {exc}") from exc
        self._open()

    def _open(self) -> None:
        try:
            self._conn = self._connect()
        except sqlite3.DatabaseError:
            self._move_aside()
            try:
                self._conn = self._connect()
            except sqlite3.Error as exc:
                raise OracleError(f"cannot open the result cache {self.path}: {exc}") from exc

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False,
                               isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            # (no PRAGMA quick_check here: it reads the whole file, 0.3 s for a 177 MB cache
            # at every start; a damaged page raises when it is read, and _query then moves
            # the file aside and starts afresh)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.execute(_SCHEMA)
            _migrate(conn)
            return conn
        except BaseException:
            conn.close()
            raise

    def _move_aside(self) -> None:
        """Keep a corrupt database for inspection, never read it again."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for suffix in ("", "-wal", "-shm"):
            source = Path(f"{self.path}{suffix}")
            if source.exists():
                with contextlib.suppress(OSError):
                    os.replace(source, Path(f"{self.path}.corrupt-{stamp}-{os.getpid()}{suffix}"))
        self.moved_aside = True

    def _recover(self, exc: sqlite3.DatabaseError) -> None:
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            raise OracleError(f"the result cache {self.path} stayed locked: {exc}") from exc
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
        self._move_aside()
        self._open()

    def get(self, key: str) -> SuiteResult | None:
        """The cached result for ``key`` (with ``cached=True``), or None."""

        with self._lock:
            row = self._query(lambda c: c.execute(
                "SELECT value FROM results WHERE key = ?", (key,)).fetchone())
        if row is None:
            return None
        try:
            return SuiteResult.from_dict(json.loads(row[0]), cached=True)
        except (ValueError, KeyError, TypeError):  # a damaged row: drop it, run again
            with self._lock:
                self._query(lambda c: c.execute("DELETE FROM results WHERE key = ?", (key,)))
            return None

    def put(self, key: str, result: SuiteResult) -> None:
        """Store ``result`` under ``key`` (last writer wins)."""
        value = json.dumps(result.to_dict())
        with self._lock:
            self._query(lambda c: c.execute(
                "INSERT OR REPLACE INTO results (key, value, created) VALUES (?, ?, ?)",
                (key, value, time.time())))

    def __len__(self) -> int:
        with self._lock:
            return int(self._query(lambda c: c.execute("SELECT COUNT(*) FROM results")
                                   .fetchone())[0])

    def _query(self, action):  # type: ignore[no-untyped-def]
        for attempt in (1, 2):
            try:
                if self._conn is None:
                    self._open()
                return action(self._conn)
            except sqlite3.DatabaseError as exc:
                if attempt == 2:
                    raise OracleError(f"the result cache {self.path} failed: {exc}") from exc
                self._recover(exc)
        return None

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            if self._conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.close()
                self._conn = None
