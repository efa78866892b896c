"""Annotation flags: an auditor's verdicts on queries, tests and candidates, kept safe.

A flag says "this looks wrong" about one query of one benchmark (identified by its
fingerprint), optionally narrowed to one of its tests or to one candidate snippet, with a
category and a free note. Flags live in an SQLite file opened in WAL mode with
``synchronous=FULL``: :meth:`AnnotationStore.add` returns only after the transaction is on
disk, so a flag the user saw confirmed survives a kill at any later moment.

The default file is ``annotations.sqlite`` in the user's data directory
(``$EXECRETRIEVAL_DATA_DIR`` when set, else ``platformdirs.user_data_dir("execretrieval")``);
``":memory:"`` gives a throw-away store for quick experiments.

Exports (CSV, JSONL, and a plain list of flagged query ids for
``execretrieval evaluate --exclude-queries FILE``) are written atomically.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..dirs import user_data_dir
from ..errors import AnnotationError, InputFormatError
from ..fileio import atomic_write_text, read_utf8

__all__ = [
    "CATEGORIES",
    "TARGETS",
    "AnnotationStore",
    "Flag",
    "default_store_path",
    "read_flags",
]

#: category key -> label shown to the user
CATEGORIES: dict[str, str] = {
    "test_stricter": "Test stricter than the query",
    "test_too_weak": "Test too weak (a mutant passes)",
    "ambiguous_query": "Ambiguous query",
    "not_single_edit": "Distractor not a single edit",
    "distractor_correct": "Distractor actually correct",
    "other": "Other",
}
TARGETS = ("query", "test", "candidate")

_FIELDS = ("flag_id", "fingerprint", "query_id", "target", "test_index", "corpus_id",
           "category", "note", "created")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS flags (
    flag_id     INTEGER PRIMARY KEY AUTOINCREMENT,
    fingerprint TEXT NOT NULL,
    query_id    TEXT NOT NULL,
    target      TEXT NOT NULL,
    test_index  INTEGER,
    corpus_id   TEXT,
    category    TEXT NOT NULL,
    note        TEXT NOT NULL DEFAULT '',
    created     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS flags_by_benchmark ON flags (fingerprint, query_id);
-- NULLs never collide in a UNIQUE constraint, hence the IFNULLs: re-importing is a no-op
CREATE UNIQUE INDEX IF NOT EXISTS flags_unique ON flags (fingerprint, query_id, target,
    IFNULL(test_index, -1), IFNULL(corpus_id, ''), category, note, created);
"""


@dataclass(frozen=True)
class Flag:
    """One verdict. ``target`` is 'query', 'test' (``test_index`` set) or 'candidate'
    (``corpus_id`` set). ``flag_id`` is None until the store has saved it."""

    query_id: str
    category: str
    target: str = "query"
    test_index: int | None = None
    corpus_id: str | None = None
    note: str = ""
    fingerprint: str = ""
    created: str = ""
    flag_id: int | None = None

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise AnnotationError(f"unknown flag category {self.category!r}; expected one of "
                                  f"{', '.join(CATEGORIES)}")
        if self.target not in TARGETS:
            raise AnnotationError(f"unknown flag target {self.target!r}; expected one of "
                                  f"{', '.join(TARGETS)}")
        if self.target == "test" and self.test_index is None:
            raise AnnotationError("a flag on a test needs test_index")
        if self.target == "candidate" and not self.corpus_id:
            raise AnnotationError("a flag on a candidate needs corpus_id")

    @property
    def category_label(self) -> str:
        return CATEGORIES[self.category]

    def describe_target(self) -> str:
        """'query', 'test 3' (1-based) or 'candidate c_0004'."""
        if self.target == "test":
            return f"test {int(self.test_index or 0) + 1}"
        if self.target == "candidate":
            return f"candidate {self.corpus_id}"
        return "query"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def default_store_path() -> Path:
    """``annotations.sqlite`` in $EXECRETRIEVAL_DATA_DIR or the platform's user data dir."""
    return user_data_dir() / "annotations.sqlite"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class AnnotationStore:
    """The flags of one benchmark (by fingerprint) in one SQLite file.

    Thread-safe: one connection guarded by a lock. Every write is its own committed
    transaction before the method returns.
    """

    def __init__(self, fingerprint: str, path: str | Path | None = None) -> None:
        self.fingerprint = fingerprint
        self.path: Path | str = ":memory:" if path == ":memory:" else Path(
            path if path is not None else default_store_path())
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
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise AnnotationError(f"{self.path}: cannot open annotation database: {exc}") from exc
        except OSError as exc:
            raise AnnotationError(f"{self.path}: cannot open annotation database: "
                                  f"{exc.strerror}") from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> AnnotationStore:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # writing -------------------------------------------------------------------------
    def add(self, flag: Flag) -> Flag:
        """Save ``flag`` for this benchmark; returns it with ``flag_id`` and ``created``.

        Returns only once the flag is durably on disk.
        """
        created = flag.created or _now()
        row = (self.fingerprint, flag.query_id, flag.target, flag.test_index, flag.corpus_id,
               flag.category, flag.note, created)
        with self._lock:
            try:
                cur = self._db.execute(
                    "INSERT INTO flags (fingerprint, query_id, target, test_index, corpus_id,"
                    " category, note, created) VALUES (?,?,?,?,?,?,?,?)", row)
            except sqlite3.Error as exc:
                raise AnnotationError(f"{self.path}: cannot save flag: {exc}") from exc
        return Flag(query_id=flag.query_id, category=flag.category, target=flag.target,
                    test_index=flag.test_index, corpus_id=flag.corpus_id, note=flag.note,
                    fingerprint=self.fingerprint, created=created, flag_id=cur.lastrowid)

    def remove(self, flag_id: int) -> None:
        """Delete one flag of this benchmark (no error if it is already gone)."""
        with self._lock:
            try:
                self._db.execute("DELETE FROM flags WHERE flag_id=? AND fingerprint=?",
                                 (flag_id, self.fingerprint))
            except sqlite3.Error as exc:
                raise AnnotationError(f"{self.path}: cannot delete flag: {exc}") from exc

    # reading -------------------------------------------------------------------------
    def flags(self, query_id: str | None = None) -> list[Flag]:
        """This benchmark's flags (of one query if given), oldest first."""
        sql = f"SELECT {', '.join(_FIELDS)} FROM flags WHERE fingerprint=?"
        args: tuple[Any, ...] = (self.fingerprint,)
        if query_id is not None:
            sql += " AND query_id=?"
            args += (query_id,)
        with self._lock:
            try:
                rows = self._db.execute(sql + " ORDER BY flag_id", args).fetchall()
            except sqlite3.Error as exc:
                raise AnnotationError(f"{self.path}: cannot read flags: {exc}") from exc
        return [_row_to_flag(r) for r in rows]

    def flagged_query_ids(self) -> set[str]:
        """Ids of queries with at least one flag."""
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT query_id FROM flags WHERE fingerprint=?",
                                    (self.fingerprint,)).fetchall()
        return {r[0] for r in rows}

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM flags WHERE fingerprint=?",
                                        (self.fingerprint,)).fetchone()[0])

    # export / import -----------------------------------------------------------------
    def export_csv(self, path: str | Path) -> int:
        """Write this benchmark's flags as CSV (header = field names); returns the count."""
        flags = self.flags()
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=list(_FIELDS), lineterminator="\n")
        writer.writeheader()
        for flag in flags:
            writer.writerow({k: ("" if v is None else v) for k, v in flag.to_dict().items()})
        atomic_write_text(path, buffer.getvalue())
        return len(flags)

    def export_jsonl(self, path: str | Path) -> int:
        """Write this benchmark's flags as JSON Lines; returns the count."""
        flags = self.flags()
        atomic_write_text(path, "".join(json.dumps(f.to_dict(), ensure_ascii=False) + "\n"
                                        for f in flags))
        return len(flags)

    def export_query_ids(self, path: str | Path) -> int:
        """Write flagged query ids, one a line, for ``evaluate --exclude-queries``."""
        ids = sorted(self.flagged_query_ids())
        atomic_write_text(path, "".join(f"{qid}\n" for qid in ids))
        return len(ids)

    def import_file(self, path: str | Path) -> int:
        """Add the flags of a CSV or JSONL export (by extension); returns how many were new.

        All or nothing: a malformed line raises InputFormatError naming file and line and
        nothing is added. Flags already present are skipped, so importing twice is harmless.
        A flag without a fingerprint is taken to be about this benchmark.
        """
        flags = list(read_flags(path))
        rows = [(f.fingerprint or self.fingerprint, f.query_id, f.target, f.test_index,
                 f.corpus_id, f.category, f.note, f.created or _now()) for f in flags]
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                before = self._db.total_changes
                self._db.executemany(
                    "INSERT OR IGNORE INTO flags (fingerprint, query_id, target, test_index,"
                    " corpus_id, category, note, created) VALUES (?,?,?,?,?,?,?,?)", rows)
                added = self._db.total_changes - before
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._db.execute("ROLLBACK")
                raise AnnotationError(f"{self.path}: cannot import flags: {exc}") from exc
        return added


def _row_to_flag(row: tuple[Any, ...]) -> Flag:
    d = dict(zip(_FIELDS, row, strict=True))
    return Flag(**d)


def read_flags(path: str | Path) -> Iterator[Flag]:
    """Parse a CSV or JSONL flag export; InputFormatError names file, line and field."""
    path = Path(path)
    try:
        text = read_utf8(path)
    except FileNotFoundError as exc:
        raise InputFormatError("file not found", file=path) from exc
    except OSError as exc:
        raise InputFormatError(f"cannot read ({exc.strerror})", file=path) from exc
    records: Iterable[tuple[int, Any]]
    if path.suffix.lower() == ".csv":
        records = _csv_records(text, path)
    else:
        records = _jsonl_records(text, path)
    out = []
    for line, obj in records:
        out.append(_record_to_flag(obj, path, line))
    return iter(out)


def _jsonl_records(text: str, path: Path) -> Iterator[tuple[int, Any]]:
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputFormatError(f"invalid JSON: {exc.msg} (column {exc.colno})",
                                   file=path, line=lineno) from exc


def _csv_records(text: str, path: Path) -> Iterator[tuple[int, Any]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        fields = reader.fieldnames or []
        for name in ("query_id", "category"):
            if name not in fields:
                raise InputFormatError("missing column", file=path, line=1, field=name)
        for row in reader:
            if None in row:
                raise InputFormatError("more cells than header columns", file=path,
                                       line=reader.line_num)
            yield reader.line_num, {k: (v if v != "" else None) for k, v in row.items()}
    except csv.Error as exc:
        raise InputFormatError(f"invalid CSV: {exc}", file=path, line=reader.line_num) from exc


def _record_to_flag(obj: Any, path: Path, line: int) -> Flag:
    if not isinstance(obj, dict):
        raise InputFormatError(f"expected an object, got {type(obj).__name__}", file=path,
                               line=line)

    def text(name: str, required: bool = False) -> str | None:
        value = obj.get(name)
        if value is None:
            if required:
                raise InputFormatError("missing", file=path, line=line, field=name)
            return None
        if not isinstance(value, str):
            raise InputFormatError(f"expected a string, got {type(value).__name__}",
                                   file=path, line=line, field=name)
        if required and not value.strip():
            raise InputFormatError("must not be empty", file=path, line=line, field=name)
        return value

    test_index = obj.get("test_index")
    if test_index is not None:
        try:
            if isinstance(test_index, bool | float):
                raise ValueError(test_index)  # noqa: TRY004 - reported as a format error below
            test_index = int(test_index)
            if test_index < 0:
                raise ValueError(test_index)
        except (TypeError, ValueError):
            raise InputFormatError(f"expected a non-negative integer, got {test_index!r}",
                                   file=path, line=line, field="test_index") from None
    category = text("category", required=True)
    if category not in CATEGORIES:
        raise InputFormatError(f"unknown category {category!r}", file=path, line=line,
                               field="category")
    target = text("target") or "query"
    if target not in TARGETS:
        raise InputFormatError(f"unknown target {target!r}", file=path, line=line,
                               field="target")
    try:
        return Flag(query_id=str(text("query_id", required=True)), category=str(category),
                    target=target, test_index=test_index, corpus_id=text("corpus_id"),
                    note=text("note") or "", fingerprint=text("fingerprint") or "",
                    created=text("created") or "")
    except AnnotationError as exc:
        raise InputFormatError(str(exc), file=path, line=line, field="target") from exc
