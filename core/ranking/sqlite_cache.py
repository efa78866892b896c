"""One SQLite file as a key-value cache: the part the embedding and reranker caches share.

A cache is only a cache: a file that fails SQLite's ``quick_check`` (or is not a database)
is set aside under ``NAME.corrupt-<time>-<pid>`` with its WAL and shared-memory files (kept
for inspection, never read again) and a fresh one is built in its place. One connection
serves the cache's life, behind a lock (opening one per read costs more than the read);
``":memory:"`` gives a private in-memory cache.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..errors import RetrieverError


class SQLiteCache:
    """Subclasses name themselves (``what``, for messages), create their table (``_init``)
    and read and write through :meth:`_select` and :meth:`_write`."""

    what = "cache"

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self.moved_aside = False   # True once a corrupt file was set aside
        if self.path == ":memory:":
            self._conn = sqlite3.connect(":memory:", check_same_thread=False)
            self._init(self._conn)

    @staticmethod
    def _init(conn: sqlite3.Connection) -> None:
        raise NotImplementedError

    def unusable(self, exc: BaseException) -> RetrieverError:
        return RetrieverError(f"{self.path}: {self.what} unusable: {exc}")

    def _select(self, query: str, keys: Sequence[str]) -> list[tuple[Any, ...]]:
        """The rows of ``query`` (``SELECT key, ... FROM t WHERE key IN``) for ``keys``,
        500 keys per statement."""
        rows: list[tuple[Any, ...]] = []
        with self._lock:
            conn = self._connect()
            try:
                for start in range(0, len(keys), 500):
                    chunk = list(keys[start:start + 500])
                    rows += conn.execute(f"{query} ({','.join('?' * len(chunk))})",
                                         chunk).fetchall()
            except sqlite3.Error as exc:
                raise self.unusable(exc) from exc
        return rows

    def _write(self, statement: str, rows: Iterable[tuple[Any, ...]]) -> None:
        """``statement`` (an INSERT) for every row, in one transaction."""
        with self._lock:
            conn = self._connect()
            try:
                with conn:
                    conn.executemany(statement, rows)
            except sqlite3.Error as exc:
                raise self.unusable(exc) from exc

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self.path != ":memory:":
                self._conn.close()
                self._conn = None

    def _connect(self) -> sqlite3.Connection:
        """The open connection (call with the lock held)."""
        if self._conn is not None:
            return self._conn
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            try:
                self._conn = self._open()
            except sqlite3.DatabaseError:
                self._move_aside()
                self._conn = self._open()
            return self._conn
        except (OSError, sqlite3.Error) as exc:
            raise self.unusable(exc) from exc

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            # a commit per batch: WAL without an fsync on each keeps that cheap, and a
            # crash loses at most the last batches (a cache: asked again)
            conn.execute("PRAGMA synchronous=NORMAL")
            check = conn.execute("PRAGMA quick_check").fetchone()
            if not check or check[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")
            self._init(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _move_aside(self) -> None:
        stamp = f"corrupt-{int(time.time())}-{os.getpid()}"
        for suffix in ("", "-wal", "-shm"):
            source = Path(self.path + suffix)
            if source.exists():
                os.replace(source, Path(f"{self.path}.{stamp}{suffix}"))
        self.moved_aside = True
