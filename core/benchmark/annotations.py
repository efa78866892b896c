"""The annotation store: flags kept safe in SQLite, attached to queries, not to versions.

Flags are stored under the benchmark's *name* and the query id, with a hash of that
query's own content (:func:`~.flags.query_content_hash`). So a new version of the
benchmark keeps every flag: editing another query changes nothing, editing the flagged
query marks its flags ``stale``. The file is opened in WAL mode with ``synchronous=FULL``:
:meth:`AnnotationStore.add` returns only after the transaction is on disk.

Stores written by earlier versions (one ``fingerprint`` of the whole benchmark per flag)
are migrated when opened, in one transaction: nothing is lost. Their flags are claimed by
the benchmark whose fingerprint they carry as soon as it is opened; flags of a version no
longer at hand stay in the file, counted by :meth:`AnnotationStore.unclaimed` and adopted
(stale, since their content is unknown) by :meth:`AnnotationStore.claim_legacy`.

The default file is ``annotations.sqlite`` in the user's data directory
(``$EXECRETRIEVAL_DATA_DIR`` when set, else ``platformdirs.user_data_dir("execretrieval")``);
``":memory:"`` gives a throw-away store. Exports are written atomically.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..dirs import user_data_dir
from ..errors import AnnotationError
from ..fileio import atomic_write_text
from .dataset import Benchmark
from .flagfiles import read_flag_records, read_flags, to_csv, to_jsonl
from .flags import CATEGORIES, STATUSES, TARGETS, Flag, default_annotator, query_content_hash

__all__ = ["CATEGORIES", "STATUSES", "TARGETS", "AnnotationStore", "Flag", "ImportReport",
           "default_store_path", "read_flags"]

SCHEMA_VERSION = 2
_COLUMNS = ("flag_id", "benchmark", "query_id", "content_hash", "target", "test_index",
            "corpus_id", "category", "note", "annotator", "status", "created")
_TABLE = """
CREATE TABLE IF NOT EXISTS {name} (
    flag_id     INTEGER PRIMARY KEY AUTOINCREMENT,
    benchmark   TEXT NOT NULL,            -- '' for a migrated flag not yet claimed
    query_id    TEXT NOT NULL,
    content_hash TEXT NOT NULL,           -- the query's content when flagged ('' unknown)
    target      TEXT NOT NULL,
    test_index  INTEGER,                  -- 0-based
    corpus_id   TEXT,
    category    TEXT NOT NULL,
    note        TEXT NOT NULL DEFAULT '',
    annotator   TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL DEFAULT 'open',
    created     TEXT NOT NULL,
    legacy_fingerprint TEXT NOT NULL DEFAULT ''
)"""
_INDEX = "CREATE INDEX IF NOT EXISTS flags_by_query ON flags (benchmark, query_id)"


def default_store_path() -> Path:
    """``annotations.sqlite`` in $EXECRETRIEVAL_DATA_DIR or the platform's user data dir."""
    return user_data_dir() / "annotations.sqlite"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class ImportReport:
    """What an import did: flags added, and each row skipped with its line and reason."""

    added: int
    skipped: tuple[tuple[int, str], ...] = ()

    def summary(self) -> str:
        text = f"imported {self.added} new flag{'s' if self.added != 1 else ''}"
        if self.skipped:
            text += f", skipped {len(self.skipped)}"
        return text


class AnnotationStore:
    """The flags of one benchmark (by name) in one SQLite file.

    Thread-safe: one connection guarded by a lock. Every write is its own committed
    transaction before the method returns. ``annotator`` (default: the OS user) is
    recorded on each new flag that names none.
    """

    def __init__(self, benchmark: Benchmark, path: str | Path | None = None, *,
                 annotator: str | None = None) -> None:
        self.benchmark = benchmark
        self.name = benchmark.name
        self.annotator = annotator or default_annotator()
        self.path: Path | str = ":memory:" if path == ":memory:" else Path(
            path if path is not None else default_store_path())
        # each query's content hash, made when first asked (a flag's staleness, a new
        # flag): hashing every query at open took ~2 ms on builtin, ~10 at paper scale,
        # before a window's first query showed
        self._hashes: dict[str, str] = {}
        self._lock = threading.Lock()
        try:
            if isinstance(self.path, Path):
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), check_same_thread=False,
                                       isolation_level=None, timeout=10.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            ok = self._db.execute("PRAGMA quick_check").fetchone()
            if not ok or ok[0] != "ok":
                raise AnnotationError(f"{self.path}: annotation database is corrupt "
                                      f"({ok[0] if ok else 'no answer'}); it was not changed")
            self._migrate()
            self._claim(exact=True)
        except sqlite3.DatabaseError as exc:
            raise AnnotationError(f"{self.path}: cannot open annotation database: {exc}") from exc
        except OSError as exc:
            raise AnnotationError(f"{self.path}: cannot open annotation database: "
                                  f"{exc.strerror}") from exc

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the benchmark version this store was opened for."""
        return self.benchmark.fingerprint

    # schema ----------------------------------------------------------------------------
    def _migrate(self) -> None:
        """Create the table, or move a version-1 table (keyed by benchmark fingerprint) to
        version 2 in one transaction: all rows or none. A file already at this version is
        only read (the write transaction's sync took 5-20 ms of every window start)."""
        db = self._db
        if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            return   # set in the transaction that made the table and its index
        db.execute("BEGIN IMMEDIATE")
        try:
            columns = {r[1] for r in db.execute("PRAGMA table_info(flags)")}
            if columns and "content_hash" not in columns:
                db.execute(_TABLE.format(name="flags_v2"))
                db.execute(
                    "INSERT INTO flags_v2 (flag_id, benchmark, query_id, content_hash, target,"
                    " test_index, corpus_id, category, note, annotator, status, created,"
                    " legacy_fingerprint) SELECT flag_id, '', query_id, '', target, test_index,"
                    " corpus_id, category, note, '', 'open', created, fingerprint FROM flags")
                db.execute("DROP TABLE flags")
                db.execute("ALTER TABLE flags_v2 RENAME TO flags")
            else:
                db.execute(_TABLE.format(name="flags"))
            db.execute(_INDEX)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _claim(self, exact: bool) -> int:
        """Attach migrated flags to this benchmark: those made on exactly this version
        (``exact``: content as now) or, else, all of them whose query exists (stale)."""
        where = "benchmark='' AND legacy_fingerprint" + ("=?" if exact else "!=?")
        with self._lock:
            if self._db.execute("SELECT 1 FROM flags WHERE benchmark='' LIMIT 1").fetchone() \
                    is None:   # no migrated flag waits: the fingerprint is not needed
                return 0
            rows = self._db.execute(f"SELECT flag_id, query_id FROM flags WHERE {where}",
                                    (self.benchmark.fingerprint,)).fetchall()
            updates = [(self.name, self._hash_of(qid) if exact else "", fid)
                       for fid, qid in rows if self.benchmark.has_query(qid)]
            if updates:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany("UPDATE flags SET benchmark=?, content_hash=? "
                                     "WHERE flag_id=?", updates)
                self._db.execute("COMMIT")
        return len(updates)

    def unclaimed(self) -> int:
        """Migrated flags of benchmark versions not opened since (kept, not shown)."""
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM flags WHERE benchmark=''")
                       .fetchone()[0])

    def claim_legacy(self) -> int:
        """Adopt every unclaimed migrated flag whose query id exists here, marked stale."""
        return self._claim(exact=False)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> AnnotationStore:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # writing ---------------------------------------------------------------------------
    def content_hash(self, query_id: str) -> str:
        """The current content hash of a query of this benchmark ('' if it has none)."""
        return self._hash_of(query_id) or ""

    def _hash_of(self, query_id: str) -> str | None:
        """The query's content hash (None if this benchmark has no such query)."""
        found = self._hashes.get(query_id)
        if found is None and self.benchmark.has_query(query_id):
            q = self.benchmark.query(query_id)
            canonical = self.benchmark.canonical_for(query_id)
            found = self._hashes[query_id] = query_content_hash(
                q.query, q.function_name, q.test_suite, canonical.code if canonical else "")
        return found

    def _write(self, sql: str, args: Iterable[Any], what: str) -> sqlite3.Cursor:
        with self._lock:
            try:
                return self._db.execute(sql, tuple(args))
            except sqlite3.Error as exc:
                raise AnnotationError(f"{self.path}: cannot {what}: {exc}") from exc

    def add(self, flag: Flag) -> Flag:
        """Save ``flag`` about the query as it is now; returns it with id and time.

        Returns only once the flag is durably on disk.
        """
        saved = replace(flag, created=flag.created or _now(),
                        annotator=flag.annotator or self.annotator, benchmark=self.name,
                        content_hash=flag.content_hash or self.content_hash(flag.query_id))
        cur = self._write(
            f"INSERT INTO flags ({', '.join(_COLUMNS)}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            self._row(saved), "save flag")
        return self._with_stale(replace(saved, flag_id=cur.lastrowid))

    def _row(self, f: Flag) -> tuple[Any, ...]:
        return (f.flag_id, self.name, f.query_id, f.content_hash, f.target, f.test_index,
                f.corpus_id, f.category, f.note, f.annotator, f.status, f.created)

    def remove(self, flag_id: int) -> Flag | None:
        """Delete one flag; returns it (for :meth:`restore`), None if it was already gone."""
        gone = [f for f in self._select("flag_id=?", (flag_id,))]
        self._write("DELETE FROM flags WHERE flag_id=? AND benchmark=?", (flag_id, self.name),
                    "delete flag")
        return gone[0] if gone else None

    def restore(self, flag: Flag) -> Flag:
        """Put a removed flag back exactly as it was (same id, time and content hash)."""
        self._write(f"INSERT OR REPLACE INTO flags ({', '.join(_COLUMNS)}) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", self._row(flag), "restore flag")
        return self._with_stale(flag)

    def set_status(self, flag_id: int, status: str) -> None:
        """Mark a flag ``open`` or ``resolved``."""
        if status not in STATUSES:
            raise AnnotationError(f"unknown flag status {status!r}; expected open or resolved")
        self._write("UPDATE flags SET status=? WHERE flag_id=? AND benchmark=?",
                    (status, flag_id, self.name), "change flag status")

    # reading ---------------------------------------------------------------------------
    def _with_stale(self, flag: Flag) -> Flag:
        current = self._hash_of(flag.query_id)
        return replace(flag, stale=current is None or flag.content_hash != current)

    def _select(self, where: str, args: tuple[Any, ...]) -> list[Flag]:
        sql = (f"SELECT {', '.join(_COLUMNS)} FROM flags WHERE benchmark=? AND {where} "
               "ORDER BY flag_id")
        with self._lock:
            try:
                rows = self._db.execute(sql, (self.name, *args)).fetchall()
            except sqlite3.Error as exc:
                raise AnnotationError(f"{self.path}: cannot read flags: {exc}") from exc
        return [self._with_stale(Flag(**dict(zip(_COLUMNS, r, strict=True)))) for r in rows]

    def flags(self, query_id: str | None = None) -> list[Flag]:
        """This benchmark's flags (of one query if given), oldest first, ``stale`` set."""
        if query_id is None:
            return self._select("1", ())
        return self._select("query_id=?", (query_id,))

    def flagged_query_ids(self) -> set[str]:
        """Ids of queries with at least one open flag."""
        return {f.query_id for f in self._select("status='open'", ())}

    def __len__(self) -> int:
        return len(self.flags())

    # export / import -------------------------------------------------------------------
    def export_rows(self) -> list[dict[str, Any]]:
        """Every flag as an export row: function name and test text beside the ids."""
        rows = []
        for f in self.flags():
            query = (self.benchmark.query(f.query_id)
                     if self.benchmark.has_query(f.query_id) else None)
            tests = query.test_suite if query is not None else ()
            test_text = (tests[f.test_index] if f.test_index is not None
                         and f.test_index < len(tests) else None)
            rows.append({**f.to_dict(), "function_name": query.function_name if query else "",
                         "test_text": test_text, "benchmark": f.benchmark,
                         "content_hash": f.content_hash})
        return rows

    def export_csv(self, path: str | Path) -> int:
        """Write this benchmark's flags as CSV; returns the count."""
        rows = self.export_rows()
        atomic_write_text(path, to_csv(rows))
        return len(rows)

    def export_jsonl(self, path: str | Path) -> int:
        """Write this benchmark's flags as JSON Lines; returns the count."""
        rows = self.export_rows()
        atomic_write_text(path, to_jsonl(rows))
        return len(rows)

    def export_query_ids(self, path: str | Path) -> int:
        """Write ids of queries with open flags, one a line, for ``--exclude-queries``."""
        ids = sorted(self.flagged_query_ids())
        atomic_write_text(path, "".join(f"{qid}\n" for qid in ids))
        return len(ids)

    def _skip_reason(self, flag: Flag) -> str | None:
        bench = self.benchmark
        if not bench.has_query(flag.query_id):
            return f"no query {flag.query_id} in {self.name}"
        tests = bench.query(flag.query_id).test_suite
        if flag.test_index is not None and flag.test_index >= len(tests):
            return (f"{flag.query_id} has {len(tests)} tests, the flag is on test "
                    f"{flag.test_index + 1}")
        if flag.target == "candidate" and not (bench.has_snippet(str(flag.corpus_id))
                                               and bench.snippet(str(flag.corpus_id))
                                               .query_id == flag.query_id):
            return f"no candidate {flag.corpus_id} of {flag.query_id}"
        return None

    def import_file(self, path: str | Path) -> ImportReport:
        """Add the flags of a CSV or JSONL flag file (by extension).

        All or nothing: a malformed row raises InputFormatError naming file and line and
        nothing is added. A row already in the store (same query, target, category, note
        and annotator), or about a query, test or candidate this benchmark does not have,
        is skipped with its reason. A row without a content hash is taken to be about the
        query as it is now, unless it names another benchmark fingerprint (an export of an
        earlier version) or its test text differs from the test's: then it is stale.
        """
        def key(f: Flag) -> tuple[Any, ...]:
            return (f.query_id, f.target, f.test_index, f.corpus_id, f.category, f.note,
                    f.annotator)

        existing = {key(f): f.flag_id for f in self.flags()}
        fresh: list[Flag] = []
        skipped: list[tuple[int, str]] = []
        seen_in_file: dict[tuple[Any, ...], int] = {}
        for record in read_flag_records(path):
            flag = record.flag
            reason = self._skip_reason(flag)
            if reason is None and key(flag) in existing:
                reason = f"already in the store (flag {existing[key(flag)]})"
            if reason is None and key(flag) in seen_in_file:
                reason = f"same as line {seen_in_file[key(flag)]}"
            if reason is not None:
                skipped.append((record.line, reason))
                continue
            seen_in_file[key(flag)] = record.line
            if not flag.content_hash:
                same = not record.fingerprint or record.fingerprint == \
                    self.benchmark.fingerprint
                if flag.test_index is not None and record.test_text is not None:
                    tests = self.benchmark.query(flag.query_id).test_suite
                    same = same and tests[flag.test_index] == record.test_text
                flag = replace(flag, content_hash=self.content_hash(flag.query_id)
                               if same else "")
            fresh.append(replace(flag, flag_id=None, benchmark=self.name,
                                 created=flag.created or _now()))
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(
                    f"INSERT INTO flags ({', '.join(_COLUMNS)}) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", [self._row(f) for f in fresh])
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._db.execute("ROLLBACK")
                raise AnnotationError(f"{self.path}: cannot import flags: {exc}") from exc
        return ImportReport(len(fresh), tuple(skipped))
