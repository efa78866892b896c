"""Flag files: the CSV / JSON Lines exports of the annotation store, and their reader.

An export row names the flag the way a reader does: the query id *and* its function name,
the test by its 1-based number *and* its text, the candidate id, then category, note,
annotator, status and whether the query changed since it was flagged (``stale``). The
reader also accepts exports of earlier versions (``test_index``, 0-based, and a
``fingerprint`` of the whole benchmark) and hand-written files with only ``query_id`` and
``category``. A malformed row raises InputFormatError naming file, line and field.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import AnnotationError, InputFormatError
from ..fileio import read_input_text
from .flags import CATEGORIES, STATUSES, TARGETS, Flag

__all__ = ["EXPORT_FIELDS", "FlagRecord", "read_flag_records", "read_flags", "to_csv",
           "to_jsonl"]

EXPORT_FIELDS = ("query_id", "function_name", "target", "test", "test_text", "corpus_id",
                 "category", "note", "annotator", "status", "stale", "created",
                 "benchmark", "content_hash")


@dataclass(frozen=True)
class FlagRecord:
    """One row of a flag file: the flag, the line it came from, and what the file said
    about the benchmark it was made on (``fingerprint`` of old exports, if any)."""

    line: int
    flag: Flag
    fingerprint: str = ""
    test_text: str | None = None


def to_csv(rows: Iterable[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(EXPORT_FIELDS), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(row.get(k)) for k in EXPORT_FIELDS})
    return buffer.getvalue()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def to_jsonl(rows: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps({k: row.get(k) for k in EXPORT_FIELDS}, ensure_ascii=False)
                   + "\n" for row in rows)


def read_flags(path: str | Path) -> Iterator[Flag]:
    """The flags of a CSV or JSONL flag file (all parsed before the first is returned)."""
    return iter([r.flag for r in read_flag_records(path)])


def read_flag_records(path: str | Path) -> list[FlagRecord]:
    """Parse a CSV (by extension) or JSONL flag file; InputFormatError names file, line,
    field, and nothing is returned unless every row parses."""
    path = Path(path)
    text = read_input_text(path)
    records: Iterable[tuple[int, Any]]
    if path.suffix.lower() == ".csv":
        records = _csv_records(text, path)
    else:
        records = _jsonl_records(text, path)
    return [_record(obj, path, line) for line, obj in records]


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


def _number(obj: dict[str, Any], name: str, path: Path, line: int, lowest: int) -> int | None:
    value = obj.get(name)
    if value is None:
        return None
    try:
        if isinstance(value, bool | float):
            raise ValueError(value)  # noqa: TRY004 - reported as a format error below
        number = int(value)
        if number < lowest:
            raise ValueError(number)
    except (TypeError, ValueError):
        what = "a test number (1 or more)" if lowest else "a non-negative integer"
        raise InputFormatError(f"expected {what}, got {value!r}", file=path, line=line,
                               field=name) from None
    return number


def _record(obj: Any, path: Path, line: int) -> FlagRecord:
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

    test = _number(obj, "test", path, line, 1)
    legacy_index = _number(obj, "test_index", path, line, 0)
    test_index = test - 1 if test is not None else legacy_index
    category = text("category", required=True)
    if category not in CATEGORIES:
        raise InputFormatError(f"unknown category {category!r}", file=path, line=line,
                               field="category")
    target = text("target") or ("test" if test_index is not None else "query")
    if target not in TARGETS:
        raise InputFormatError(f"unknown target {target!r}", file=path, line=line,
                               field="target")
    status = text("status") or "open"
    if status not in STATUSES:
        raise InputFormatError(f"unknown status {status!r}; expected open or resolved",
                               file=path, line=line, field="status")
    try:
        flag = Flag(query_id=str(text("query_id", required=True)), category=str(category),
                    target=target, test_index=test_index if target == "test" else None,
                    corpus_id=text("corpus_id"), note=text("note") or "",
                    annotator=text("annotator") or "", status=status,
                    created=text("created") or "", content_hash=text("content_hash") or "",
                    benchmark=text("benchmark") or "")
    except AnnotationError as exc:
        field = "test" if "test" in str(exc) else "corpus_id"
        raise InputFormatError(str(exc), file=path, line=line, field=field) from exc
    return FlagRecord(line, flag, text("fingerprint") or "", text("test_text"))
