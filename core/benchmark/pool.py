"""Background pools: real, unrelated functions that join a benchmark's corpus (issue 14).

A pool file (``POOL.jsonl``) holds one JSON object a line::

    {"corpus_id": "bg_000001", "code": "def f(x):\\n    ...", "source": "json/decoder.py:42",
     "function_name": "f"}

``corpus_id``, ``code`` and ``source`` (module path and line the function came from) are
required; ``function_name`` is optional (taken from the code when absent). Unknown extra
fields are kept and ignored, as in benchmark files. Reading is all or nothing: the first
malformed line raises :class:`~execretrieval.errors.InputFormatError` naming file, line and
field.

:func:`with_pool` puts a pool (or a seeded subset of it) into a benchmark's corpus as snippets
of role ``background``: they belong to no query (``query_id`` is empty), are never correct,
and are ranked and executed like every other snippet. A pool snippet whose function shares
its name with one of the benchmark's queries is left out (it could be that query's answer).
"""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import InputFormatError
from ..fileio import atomic_write_text, read_utf8
from .dataset import Benchmark, Snippet

__all__ = [
    "BACKGROUND",
    "BackgroundSnippet",
    "Pool",
    "background_count",
    "pool_subset",
    "read_pool",
    "with_pool",
    "write_pool",
]

BACKGROUND = "background"
_FIELDS = ("corpus_id", "code", "source", "function_name")
_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class BackgroundSnippet:
    """One background function: its id, its code (parseable alone) and where it came from."""

    corpus_id: str
    code: str
    source: str
    function_name: str
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of this snippet as it appears in a pool file."""
        return {"corpus_id": self.corpus_id, "code": self.code, "source": self.source,
                "function_name": self.function_name, **dict(self.extra)}


@dataclass(frozen=True, eq=False)
class Pool:
    """A background pool: snippets in file order, the file it came from, a content hash."""

    snippets: tuple[BackgroundSnippet, ...]
    name: str = "pool"
    path: Path | None = None

    def __len__(self) -> int:
        return len(self.snippets)

    @property
    def fingerprint(self) -> str:
        """SHA-256 over every snippet's id and code, in order."""
        digest = hashlib.sha256()
        for s in self.snippets:
            digest.update(f"{s.corpus_id}\0{s.code}\0".encode())
        return digest.hexdigest()

    def describe(self) -> dict[str, Any]:
        """What a report records about the pool."""
        return {"name": self.name, "path": str(self.path) if self.path else None,
                "size": len(self.snippets), "fingerprint": self.fingerprint}


def _function_name(code: str) -> str | None:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            return node.name
    return None


def _string(obj: dict[str, Any], name: str, path: Path, line: int) -> str:
    if name not in obj:
        raise InputFormatError("missing", file=path, line=line, field=name)
    value = obj[name]
    if not isinstance(value, str) or not value.strip():
        raise InputFormatError("expected a non-empty string", file=path, line=line, field=name)
    return value


def read_pool(path: str | Path) -> Pool:
    """Read a pool file, all or nothing (InputFormatError names file, line and field)."""
    path = Path(path)
    if not path.is_file():
        why = "a directory, not a pool file" if path.is_dir() else "file not found"
        raise InputFormatError(why, file=path)
    text = read_utf8(path, InputFormatError)
    snippets: list[BackgroundSnippet] = []
    lines: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputFormatError(f"invalid JSON: {exc.msg} (column {exc.colno})",
                                   file=path, line=lineno) from exc
        if not isinstance(obj, dict):
            raise InputFormatError(f"expected a JSON object, got {type(obj).__name__}",
                                   file=path, line=lineno)
        corpus_id = _string(obj, "corpus_id", path, lineno)
        if corpus_id in lines:
            raise InputFormatError(f"duplicate id {corpus_id!r} (first on line "
                                   f"{lines[corpus_id]})", file=path, line=lineno,
                                   field="corpus_id")
        code = _string(obj, "code", path, lineno)
        source = _string(obj, "source", path, lineno)
        if "function_name" in obj:
            name = _string(obj, "function_name", path, lineno)
        else:
            found = _function_name(code)
            if found is None:
                raise InputFormatError("does not parse to a function definition", file=path,
                                       line=lineno, field="code")
            name = found
        rest = {k: v for k, v in obj.items() if k not in _FIELDS}
        lines[corpus_id] = lineno
        snippets.append(BackgroundSnippet(corpus_id, code, source, name,
                                          MappingProxyType(rest) if rest else _EMPTY))
    return Pool(tuple(snippets), name=path.stem, path=path)


def write_pool(path: str | Path, snippets: Iterable[BackgroundSnippet]) -> int:
    """Write a pool file atomically; returns the number of snippets written."""
    records = [json.dumps(s.to_dict(), ensure_ascii=False) + "\n" for s in snippets]
    atomic_write_text(path, "".join(records))
    return len(records)


def pool_subset(pool: Pool, size: int | None, *, seed: int = 0) -> Pool:
    """A seeded random subset of ``size`` snippets (all of them for None), in pool order.

    Subsets of one seed are nested: the subset of size m is contained in the one of size n
    for m < n, so a scaling curve adds distractors rather than redrawing them.
    """
    n = len(pool.snippets)
    if size is None or size >= n:
        return pool
    if size < 0:
        raise ValueError(f"pool size must be >= 0, not {size}")
    import numpy as np  # here, not at the top: opening a benchmark never needs numpy

    order = np.random.default_rng(seed).permutation(n)
    keep = np.sort(order[:size])
    return Pool(tuple(pool.snippets[i] for i in keep.tolist()), name=pool.name,
                path=pool.path)


def with_pool(benchmark: Benchmark, pool: Pool) -> Benchmark:
    """The benchmark with the pool's snippets appended to its corpus as role ``background``.

    Pool snippets named like one of the benchmark's target functions are left out, and so
    are pool ids that collide with a benchmark snippet id. The returned benchmark's
    manifest records the pool under ``"pool"`` (name, path, size, fingerprint, dropped).
    """
    targets = {q.function_name for q in benchmark.queries}
    taken = {s.corpus_id for s in benchmark.corpus}
    added: list[Snippet] = []
    dropped_name = dropped_id = 0
    for s in pool.snippets:
        if s.function_name in targets:
            dropped_name += 1
            continue
        if s.corpus_id in taken:
            dropped_id += 1
            continue
        added.append(Snippet(corpus_id=s.corpus_id, query_id="", role=BACKGROUND,
                             bug_type=None, bug_description="", code=s.code,
                             extra=MappingProxyType({"source": s.source})))
    info = {**pool.describe(), "joined": len(added), "dropped_same_name": dropped_name,
            "dropped_id_clash": dropped_id}
    manifest = {**dict(benchmark.manifest), "pool": info}
    return Benchmark(benchmark.queries, (*benchmark.corpus, *added), name=benchmark.name,
                     path=benchmark.path, manifest=manifest)


def background_count(benchmark: Benchmark) -> int:
    """How many background snippets the benchmark's corpus holds."""
    return sum(s.role == BACKGROUND for s in benchmark.corpus)
