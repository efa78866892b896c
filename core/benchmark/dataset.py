"""Benchmark folders: queries, the pooled corpus of snippets, and their loader.

A benchmark folder holds ``queries.jsonl`` and ``corpus.jsonl`` (design §3), optionally
``manifest.json`` and ``embeddings/<model>.npz``. Loading is all-or-nothing: the first
malformed line raises :class:`~execretrieval.errors.BenchmarkFormatError` naming file, line
and field, and nothing is returned.
"""

from __future__ import annotations

import hashlib
import json
import keyword
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import BenchmarkFormatError, BenchmarkNotFoundError
from ..fileio import atomic_write_text, read_utf8
from .bundled import resolve_benchmark

__all__ = [
    "BUG_TYPES",
    "DOMAINS",
    "ROLES",
    "Benchmark",
    "Query",
    "Snippet",
    "load_benchmark",
    "write_benchmark",
]

# "background": a real function from a background pool (benchmark/pool.py); it belongs to
# no query (empty query_id) and is never correct.
ROLES = ("canonical", "distractor", "background")
BUG_TYPES = (
    "off_by_one",
    "off_by_one_boundary",
    "wrong_operator",
    "wrong_comparison",
    "swap_arguments",
    "remove_edge_case_check",
)
DOMAINS = (
    "bit-manipulation",
    "collections",
    "data-transformation",
    "date-time",
    "geometry",
    "math-numerical",
    "sorting-searching",
    "state-machines",
    "string-processing",
    "validation",
)

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Query:
    """One task: a natural-language query, its target function and its assert tests."""

    query_id: str
    query: str
    function_name: str
    domain: str
    test_suite: tuple[str, ...]
    correct_corpus_ids: tuple[str, ...]
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of this query as it appears in ``queries.jsonl``."""
        return {
            "query_id": self.query_id,
            "query": self.query,
            "function_name": self.function_name,
            "domain": self.domain,
            "test_suite": list(self.test_suite),
            "correct_corpus_ids": list(self.correct_corpus_ids),
            **dict(self.extra),
        }


@dataclass(frozen=True)
class Snippet:
    """One corpus entry: a query's canonical implementation or one of its buggy mutants."""

    corpus_id: str
    query_id: str
    role: str
    bug_type: str | None
    bug_description: str
    code: str
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False, repr=False)

    @property
    def is_canonical(self) -> bool:
        return self.role == "canonical"

    @property
    def is_background(self) -> bool:
        """A pool function that belongs to no query (role ``background``)."""
        return self.role == "background"

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of this snippet as it appears in ``corpus.jsonl``."""
        return {
            "corpus_id": self.corpus_id,
            "query_id": self.query_id,
            "role": self.role,
            "bug_type": self.bug_type,
            "bug_description": self.bug_description,
            "code": self.code,
            **dict(self.extra),
        }


class Benchmark:
    """Queries plus the pooled corpus, with lookups by id, by query and by function name.

    ``queries`` and ``corpus`` keep file order; row ``i`` of a score matrix is
    ``queries[i]`` and column ``j`` is ``corpus[j]``.
    """

    def __init__(
        self,
        queries: Iterable[Query],
        corpus: Iterable[Snippet],
        *,
        name: str = "benchmark",
        path: Path | None = None,
        manifest: Mapping[str, Any] | None = None,
    ) -> None:
        self.queries: tuple[Query, ...] = tuple(queries)
        self.corpus: tuple[Snippet, ...] = tuple(corpus)
        self.name = name
        self.path = path
        self.manifest: Mapping[str, Any] = MappingProxyType(dict(manifest or {}))
        self._query_index = {q.query_id: i for i, q in enumerate(self.queries)}
        self._corpus_index = {s.corpus_id: j for j, s in enumerate(self.corpus)}
        self._by_function = {q.function_name: q for q in self.queries}
        by_query: dict[str, list[Snippet]] = {q.query_id: [] for q in self.queries}
        for snippet in self.corpus:
            by_query.setdefault(snippet.query_id, []).append(snippet)
        self._by_query = {k: tuple(v) for k, v in by_query.items()}
        self._fingerprint: str | None = None
        # SHA-256 of the queries.jsonl and corpus.jsonl text it was read from (set by
        # load_benchmark; None if made otherwise, e.g. joined with a pool): equal digests
        # mean equal content at no cost (hashed as read), where the fingerprint serialises
        # every record again (~15 ms on builtin); files saying the same in other bytes differ
        self.source_digest: str | None = None

    def __repr__(self) -> str:
        return (
            f"Benchmark(name={self.name!r}, queries={len(self.queries)}, "
            f"snippets={len(self.corpus)})"
        )

    def __len__(self) -> int:
        return len(self.queries)

    def __iter__(self) -> Iterator[Query]:
        return iter(self.queries)

    # lookups -------------------------------------------------------------------------
    def query(self, query_id: str) -> Query:
        """The query with this id (KeyError if there is none)."""
        return self.queries[self._query_index[query_id]]

    def snippet(self, corpus_id: str) -> Snippet:
        """The snippet with this id (KeyError if there is none)."""
        return self.corpus[self._corpus_index[corpus_id]]

    def query_index(self, query_id: str) -> int:
        """Row of this query in score matrices."""
        return self._query_index[query_id]

    def corpus_index(self, corpus_id: str) -> int:
        """Column of this snippet in score matrices."""
        return self._corpus_index[corpus_id]

    def has_query(self, query_id: str) -> bool:
        return query_id in self._query_index

    def has_snippet(self, corpus_id: str) -> bool:
        return corpus_id in self._corpus_index

    def snippets_for(self, query_id: str) -> tuple[Snippet, ...]:
        """The query's own snippets (canonical and distractors), in corpus order."""
        return self._by_query.get(query_id, ())

    def canonical_for(self, query_id: str) -> Snippet | None:
        """The query's canonical snippet, or None if the corpus has none."""
        for snippet in self._by_query.get(query_id, ()):
            if snippet.is_canonical:
                return snippet
        return None

    def distractors_for(self, query_id: str) -> tuple[Snippet, ...]:
        """The query's own buggy mutants, in corpus order."""
        return tuple(s for s in self._by_query.get(query_id, ()) if s.role == "distractor")

    def find_query(self, name_or_id: str) -> Query | None:
        """A query by id or by function name; None if neither matches."""
        if name_or_id in self._query_index:
            return self.query(name_or_id)
        return self._by_function.get(name_or_id)

    # identity ------------------------------------------------------------------------
    @property
    def fingerprint(self) -> str:
        """SHA-256 over the canonical JSON of every query and snippet (order-sensitive)."""
        if self._fingerprint is None:
            digest = hashlib.sha256()
            records: tuple[Query | Snippet, ...] = (*self.queries, *self.corpus)
            for record in records:
                digest.update(json.dumps(record.to_dict(), sort_keys=True).encode("utf-8"))
                digest.update(b"\n")
            self._fingerprint = digest.hexdigest()
        return self._fingerprint

    @property
    def domains(self) -> tuple[str, ...]:
        """Domains present, sorted."""
        return tuple(sorted({q.domain for q in self.queries}))

    @property
    def bug_types(self) -> tuple[str, ...]:
        """Bug types present, sorted."""
        return tuple(sorted({s.bug_type for s in self.corpus if s.bug_type}))


# loading -----------------------------------------------------------------------------

def _read_jsonl(path: Path, source: Any = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each record with its line number; ``source`` (a hashlib digest) takes the text."""
    try:
        text = read_utf8(path, BenchmarkFormatError)
    except FileNotFoundError as exc:
        raise BenchmarkNotFoundError(f"{path}: file not found") from exc
    except OSError as exc:
        raise BenchmarkNotFoundError(f"{path}: cannot read ({exc.strerror})") from exc
    if source is not None:
        source.update(f"{path.name}\n{len(text)}\n".encode())
        source.update(text.encode("utf-8"))
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BenchmarkFormatError(
                f"invalid JSON: {exc.msg} (column {exc.colno})", file=path, line=lineno
            ) from exc
        if not isinstance(obj, dict):
            raise BenchmarkFormatError(
                f"expected a JSON object, got {type(obj).__name__}", file=path, line=lineno
            )
        yield lineno, obj


class _Fields:
    """Typed field access that names file, line and field on failure."""

    def __init__(self, obj: dict[str, Any], path: Path, line: int) -> None:
        self.obj, self.path, self.line = obj, path, line

    def fail(self, name: str, message: str) -> BenchmarkFormatError:
        return BenchmarkFormatError(message, file=self.path, line=self.line, field=name)

    def string(self, name: str, *, nullable: bool = False, nonempty: bool = True) -> Any:
        if name not in self.obj:
            raise self.fail(name, "missing")
        value = self.obj[name]
        if value is None and nullable:
            return None
        if not isinstance(value, str):
            raise self.fail(name, f"expected a string, got {_json_type(value)}")
        if nonempty and not value.strip():
            raise self.fail(name, "must not be empty")
        return value

    def strings(self, name: str) -> tuple[str, ...]:
        if name not in self.obj:
            raise self.fail(name, "missing")
        value = self.obj[name]
        if not isinstance(value, list):
            raise self.fail(name, f"expected a list of strings, got {_json_type(value)}")
        if not value:
            raise self.fail(name, "must not be empty")
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise self.fail(name, f"item {i}: expected a string, got {_json_type(item)}")
        return tuple(value)

    def extra(self, known: tuple[str, ...]) -> Mapping[str, Any]:
        rest = {k: v for k, v in self.obj.items() if k not in known}
        return MappingProxyType(rest) if rest else _EMPTY


def _json_type(value: Any) -> str:
    return {
        type(None): "null", bool: "boolean", int: "number", float: "number",
        str: "string", list: "array", dict: "object",
    }.get(type(value), type(value).__name__)


_QUERY_FIELDS = ("query_id", "query", "function_name", "domain", "test_suite",
                 "correct_corpus_ids")
_SNIPPET_FIELDS = ("corpus_id", "query_id", "role", "bug_type", "bug_description", "code")


def _parse_query(f: _Fields) -> Query:
    function_name = f.string("function_name")
    if not function_name.isidentifier() or keyword.iskeyword(function_name):
        raise f.fail("function_name", f"{function_name!r} is not a Python identifier")
    return Query(
        query_id=f.string("query_id"),
        query=f.string("query"),
        function_name=function_name,
        domain=f.string("domain"),
        test_suite=f.strings("test_suite"),
        correct_corpus_ids=f.strings("correct_corpus_ids"),
        extra=f.extra(_QUERY_FIELDS),
    )


def _parse_snippet(f: _Fields) -> Snippet:
    role = f.string("role")
    if role not in ROLES:
        raise f.fail("role", f"unknown role {role!r}; expected one of {', '.join(ROLES)}")
    bug_type = f.string("bug_type", nullable=True)
    if bug_type is not None and bug_type not in BUG_TYPES:
        raise f.fail("bug_type", f"unknown bug_type {bug_type!r}; expected null or one of "
                                 f"{', '.join(BUG_TYPES)}")
    if role == "canonical" and bug_type is not None:
        raise f.fail("bug_type", "a canonical snippet must have bug_type null")
    if role == "distractor" and bug_type is None:
        raise f.fail("bug_type", "a distractor must name its bug_type")
    if role == "background" and bug_type is not None:
        raise f.fail("bug_type", "a background snippet must have bug_type null")
    corpus_id = f.string("corpus_id")
    background = role == "background"
    query_id = f.string("query_id", nullable=background, nonempty=not background)
    description = f.string("bug_description", nullable=True, nonempty=False)
    return Snippet(
        corpus_id=corpus_id,
        query_id=query_id or "",
        role=role,
        bug_type=bug_type,
        bug_description=description or "",
        code=f.string("code"),
        extra=f.extra(_SNIPPET_FIELDS),
    )


def load_benchmark(path: str | Path) -> Benchmark:
    """Load a benchmark folder, all or nothing.

    ``path`` is a folder or the name of a bundled benchmark (``builtin``, ``tiny``,
    ``humaneval``); an existing folder wins (:func:`~.bundled.resolve_benchmark`).
    Raises BenchmarkNotFoundError if the folder or one of its two JSONL files is missing,
    and BenchmarkFormatError (file, line, field) for the first malformed record: bad JSON,
    a missing or mistyped field, a duplicate id, an unknown role or bug_type, a snippet of
    an unknown query, or a ``correct_corpus_ids`` entry that is not in the corpus.
    """
    folder = resolve_benchmark(path)
    queries_path, corpus_path = folder / "queries.jsonl", folder / "corpus.jsonl"
    for required in (queries_path, corpus_path):
        if not required.is_file():
            raise BenchmarkNotFoundError(f"{required}: file not found")

    source = hashlib.sha256()
    queries: list[Query] = []
    query_lines: dict[str, int] = {}
    for lineno, obj in _read_jsonl(queries_path, source):
        f = _Fields(obj, queries_path, lineno)
        query = _parse_query(f)
        if query.query_id in query_lines:
            raise f.fail("query_id", f"duplicate id {query.query_id!r} "
                                     f"(first on line {query_lines[query.query_id]})")
        query_lines[query.query_id] = lineno
        queries.append(query)

    corpus: list[Snippet] = []
    corpus_lines: dict[str, int] = {}
    for lineno, obj in _read_jsonl(corpus_path, source):
        f = _Fields(obj, corpus_path, lineno)
        snippet = _parse_snippet(f)
        if snippet.corpus_id in corpus_lines:
            raise f.fail("corpus_id", f"duplicate id {snippet.corpus_id!r} "
                                      f"(first on line {corpus_lines[snippet.corpus_id]})")
        if snippet.is_background and snippet.query_id:
            raise f.fail("query_id", "a background snippet belongs to no query (null or \"\")")
        if not snippet.is_background and snippet.query_id not in query_lines:
            raise f.fail("query_id", f"unknown query {snippet.query_id!r}")
        corpus_lines[snippet.corpus_id] = lineno
        corpus.append(snippet)

    for query in queries:
        for cid in query.correct_corpus_ids:
            if cid not in corpus_lines:
                raise BenchmarkFormatError(
                    f"{cid!r} is not in corpus.jsonl", file=queries_path,
                    line=query_lines[query.query_id], field="correct_corpus_ids",
                )

    manifest: dict[str, Any] = {}
    manifest_path = folder / "manifest.json"
    if manifest_path.exists():
        try:
            manifest = json.loads(read_utf8(manifest_path, BenchmarkFormatError))
        except json.JSONDecodeError as exc:
            raise BenchmarkFormatError(f"invalid JSON: {exc}", file=manifest_path,
                                       line=exc.lineno) from exc
        if not isinstance(manifest, dict):
            raise BenchmarkFormatError("expected a JSON object", file=manifest_path, line=1)
    name = str(manifest.get("name") or folder.resolve().name)
    bench = Benchmark(queries, corpus, name=name, path=folder, manifest=manifest)
    bench.source_digest = source.hexdigest()
    return bench


def _jsonl(records: Iterable[Query | Snippet]) -> str:
    return "".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in records)


def write_benchmark(benchmark: Benchmark, folder: str | Path,
                    manifest: Mapping[str, Any] | None = None) -> None:
    """Write ``queries.jsonl``, ``corpus.jsonl`` and (if given) ``manifest.json``.

    Each file is written atomically; output is byte-identical for identical input.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_text(folder / "queries.jsonl", _jsonl(benchmark.queries))
    atomic_write_text(folder / "corpus.jsonl", _jsonl(benchmark.corpus))
    if manifest is not None:
        atomic_write_text(folder / "manifest.json",
                          json.dumps(dict(manifest), indent=2, sort_keys=True) + "\n")
