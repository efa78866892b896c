"""The benchmarks a user can open by name or has opened: the bundled ones and a short list
of recently opened folders.

The recent list is ``recent.json`` in the user's data directory
(:func:`execretrieval.dirs.user_data_dir`), written atomically by whoever opens a
benchmark (the GUI); ``execretrieval benchmarks`` reads it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..dirs import user_data_dir
from ..errors import InputFormatError
from ..fileio import atomic_write_text, read_utf8
from .bundled import bundled_benchmarks, bundled_root

__all__ = [
    "MAX_RECENT",
    "BenchmarkEntry",
    "catalog",
    "describe",
    "read_recent",
    "recent_file",
    "remember_benchmark",
]

MAX_RECENT = 10


@dataclass(frozen=True)
class BenchmarkEntry:
    """One listed benchmark: ``kind`` is ``bundled`` or ``recent``; counts are None when
    the folder cannot be read, and ``problem`` then says why."""

    kind: str
    name: str
    path: str
    queries: int | None
    snippets: int | None
    embeddings: tuple[str, ...]
    opened: str | None = None
    problem: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "embeddings": list(self.embeddings)}


def recent_file() -> Path:
    return user_data_dir() / "recent.json"


def read_recent(file: Path | None = None) -> list[tuple[Path, str]]:
    """Recently opened folders, newest first, with when each was opened (ISO time).

    A missing file is an empty list; a damaged one raises InputFormatError naming it."""
    file = file or recent_file()
    try:
        text = read_utf8(file)
    except FileNotFoundError:
        return []
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFormatError(f"invalid JSON: {exc.msg}", file=file, line=exc.lineno) from exc
    items = data.get("benchmarks") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise InputFormatError("expected an object with a 'benchmarks' list", file=file,
                               field="benchmarks")
    recent = []
    for i, item in enumerate(items):
        if not (isinstance(item, dict) and isinstance(item.get("path"), str)):
            raise InputFormatError(f"entry {i} has no 'path' string", file=file,
                                   field="benchmarks")
        recent.append((Path(item["path"]), str(item.get("opened") or "")))
    return recent


def remember_benchmark(folder: str | Path, file: Path | None = None) -> bool:
    """Put ``folder`` first in the recent list (at most :data:`MAX_RECENT` kept).

    Bundled benchmarks are not recorded (they are always listed). A damaged list is
    replaced. Returns whether the list changed."""
    file = file or recent_file()
    folder = Path(folder).resolve()
    root = bundled_root()
    if root is not None and folder.is_relative_to(root.resolve()):
        return False
    try:
        recent = read_recent(file)
    except InputFormatError:
        recent = []
    now = datetime.now(UTC).isoformat(timespec="seconds")
    kept = [(p, t) for p, t in recent if p != folder][: MAX_RECENT - 1]
    items = [{"path": str(p), "opened": t} for p, t in [(folder, now), *kept]]
    atomic_write_text(file, json.dumps({"benchmarks": items}, indent=1) + "\n")
    return True


def describe(kind: str, folder: Path, opened: str | None = None) -> BenchmarkEntry:
    """Name and counts of one folder, cheaply: non-blank lines of its JSONL files, the
    manifest's name, the stems of ``embeddings/*.npz``. Never raises for a bad folder."""
    name = folder.name
    try:
        manifest = json.loads(read_utf8(folder / "manifest.json"))
        if isinstance(manifest, dict) and manifest.get("name"):
            name = str(manifest["name"])
    except (OSError, ValueError, InputFormatError):
        pass
    try:
        queries = _count_lines(folder / "queries.jsonl")
        snippets = _count_lines(folder / "corpus.jsonl")
    except OSError as exc:
        problem = "no such folder" if not folder.exists() else \
            f"{Path(exc.filename or folder).name}: {exc.strerror or exc}"
        return BenchmarkEntry(kind, name, str(folder), None, None, (), opened, problem)
    models = tuple(sorted(p.stem for p in (folder / "embeddings").glob("*.npz")))
    return BenchmarkEntry(kind, name, str(folder), queries, snippets, models, opened)


def catalog(recent_file_path: Path | None = None) -> tuple[list[BenchmarkEntry], str | None]:
    """Bundled benchmarks, then recently opened ones; and a warning if the recent list
    could not be read (the bundled ones are listed all the same)."""
    entries = [describe("bundled", path) for path in bundled_benchmarks().values()]
    try:
        recent = read_recent(recent_file_path)
    except InputFormatError as exc:
        return entries, f"recently opened benchmarks not listed: {exc}"
    entries += [describe("recent", path, opened) for path, opened in recent]
    return entries, None


def _count_lines(file: Path) -> int:
    with file.open("rb") as handle:
        return sum(1 for line in handle if line.strip())
