"""Clients for served rerankers: cross-encoders behind TEI or a Cohere-style API, and LLM
judges behind an OpenAI-compatible chat API (standard library only, no torch).

- ``format=tei`` (text-embeddings-inference): ``POST URL/rerank {"query", "texts",
  "raw_scores": true}`` answers ``[{"index", "score"}, ...]``;
- ``format=cohere`` (Cohere, Jina, vLLM, infinity): ``POST URL/v1/rerank {"model", "query",
  "documents", "top_n"}`` answers ``{"results": [{"index", "relevance_score"}, ...]}``;
- the LLM judge: ``POST URL/v1/chat/completions`` (:mod:`~execretrieval.ranking.llm_judge`).

Retries, backoff, ``Retry-After``, timeouts, the key (``RERANK_API_KEY`` by default, sent as
``Authorization: Bearer``, never printed or stored) are
:mod:`~execretrieval.ranking.http_service`'s. A server that answers 413 gets half the texts
per request, and every later request of the run is cut to the size that worked. Scores are
cached in SQLite (:class:`ScoreCache`) by endpoint (its public URL), model, format, query
text and snippet text, so a warm run sends nothing.
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..dirs import user_cache_dir
from ..errors import ServiceError
from .http_service import PayloadTooLargeError, ServiceClient, Status, public_url, run_bounded
from .sqlite_cache import SQLiteCache

__all__ = ["FORMATS", "RerankClient", "RerankCounts", "RerankSettings", "ScoreCache",
           "rerank_scores"]

FORMATS = ("tei", "cohere")


@dataclass(frozen=True)
class RerankSettings:
    """Where and how to ask for scores. Holds the key's variable name, never the key."""

    url: str
    model: str
    format: str = "tei"
    api_key_env: str = "RERANK_API_KEY"
    batch: int = 32                # texts per request (a 413 halves it for the run)
    concurrency: int = 4
    timeout: float = 60.0
    max_attempts: int = 6
    backoff: float = 1.0
    max_wait: float = 60.0

    def __post_init__(self) -> None:
        parts = urllib.parse.urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ServiceError(f"{public_url(self.url)}: not an http(s) URL (expected e.g. "
                               "http://127.0.0.1:8080)")
        if not self.model.strip():
            raise ServiceError(f"{public_url(self.url)}: no model name given")
        if self.format not in FORMATS + ("chat",):
            raise ServiceError(f"unknown format {self.format!r}; formats: "
                               f"{', '.join(FORMATS)}")
        for name in ("batch", "concurrency", "max_attempts"):
            if getattr(self, name) < 1:
                raise ServiceError(f"{name} must be at least 1")

    @property
    def base_url(self) -> str:
        return self.url

    @property
    def endpoint(self) -> str:
        """The request URL: the format's path added unless ``url`` already ends in it."""
        parts = urllib.parse.urlsplit(self.url)
        path = parts.path.rstrip("/")
        suffix = {"tei": "/rerank", "cohere": "/v1/rerank",
                  "chat": "/v1/chat/completions"}[self.format]
        if not path.endswith(suffix):
            if suffix.startswith("/v1/") and path.endswith("/v1"):
                suffix = suffix[3:]
            path += suffix
        netloc = parts.netloc.rpartition("@")[2]
        return urllib.parse.urlunsplit((parts.scheme, netloc, path, parts.query, ""))

    @property
    def public_endpoint(self) -> str:
        return public_url(self.endpoint)

    @property
    def identity(self) -> str:
        """What a cached score depends on: endpoint (public), model and format."""
        return f"rerank|{self.public_endpoint}|{self.model}|{self.format}"


class RerankClient(ServiceClient):
    """Sends one (query, texts) request and returns a score per text, in order."""

    settings: RerankSettings
    activity = "reranking"
    not_found_hint = " — check the URL and the format (tei: URL/rerank, cohere: URL/v1/rerank)"

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        s = self.settings
        if s.format == "tei":
            body: dict[str, Any] = {"query": query, "texts": list(texts), "raw_scores": True}
        else:
            body = {"model": s.model, "query": query, "documents": list(texts),
                    "top_n": len(texts)}
        return self.call(json.dumps(body).encode("utf-8"),
                         lambda raw: self._parse(raw, len(texts)))

    def _parse(self, raw: bytes, count: int) -> list[float]:
        s = self.settings
        where = f"{s.public_endpoint}: model {s.model!r}"
        data = self._json(raw, where)
        if s.format == "tei":
            items, name, field_ = data, "the answer", "score"
        else:
            items = data.get("results") if isinstance(data, dict) else None
            name, field_ = "'results'", "relevance_score"
        if not isinstance(items, list):
            raise ServiceError(f"{where}: {name} is not a list of scores")
        if len(items) != count:
            raise ServiceError(f"{where}: sent {count} texts, got {len(items)} scores")
        out: list[float | None] = [None] * count
        for n, item in enumerate(items):
            index = item.get("index") if isinstance(item, dict) else None
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count \
                    or out[index] is not None:
                raise ServiceError(f"{where}: {name}[{n}]: index {index!r} out of range or "
                                   f"repeated (0..{count - 1})")
            score = item.get(field_)
            if isinstance(score, bool) or not isinstance(score, int | float) \
                    or not math.isfinite(score):
                raise ServiceError(f"{where}: {name}[{n}].{field_}: {score!r} is not a "
                                   "finite number")
            out[index] = float(score)
        return [float(x) for x in out if x is not None]


class ScoreCache(SQLiteCache):
    """Reranker answers (JSON values) keyed by identity, query text and snippet text, in one
    SQLite file (WAL; a corrupt file is set aside and rebuilt)."""

    what = "reranker cache"

    @classmethod
    def default(cls) -> ScoreCache:
        return cls(user_cache_dir() / "rerank.sqlite")

    @staticmethod
    def key(identity: str, query: str, text: str) -> str:
        return hashlib.sha256(f"{identity}\0{query}\0{text}".encode()).hexdigest()

    @staticmethod
    def _init(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, "
                     "value TEXT NOT NULL)")

    def get(self, keys: Sequence[str]) -> dict[str, Any]:
        rows = self._select("SELECT key, value FROM answers WHERE key IN", keys)
        try:
            return {key: json.loads(value) for key, value in rows}
        except ValueError as exc:
            raise self.unusable(exc) from exc

    def put(self, items: dict[str, Any]) -> None:
        self._write("INSERT OR REPLACE INTO answers VALUES (?, ?)",
                    [(k, json.dumps(v)) for k, v in items.items()])


@dataclass
class RerankCounts:
    """What scoring cost: per query the requests, cache hits and texts sent."""

    requests: int = 0
    retries: int = 0
    cache_hits: int = 0
    texts_sent: int = 0
    wall_seconds: float = 0.0
    batch_limit: int | None = None          # the size a 413 cut requests to
    per_query: dict[int, dict[str, int]] = field(default_factory=dict)


def rerank_scores(groups: Sequence[tuple[str, Sequence[str]]], client: RerankClient,
                  cache: ScoreCache, *, should_stop: Any = None,
                  status: Status | None = None) -> tuple[list[list[float]], RerankCounts]:
    """The served model's score for every (query, text) of every group, and the cost.

    Cached scores are read; the rest go out per query in requests of at most the batch size,
    at most ``concurrency`` at a time, each answer cached as it arrives. A 413 halves the
    request (and the batch size of every later one) until the server takes it.
    """
    s = client.settings
    began = time.perf_counter()
    keys = [[ScoreCache.key(s.identity, q, t) for t in texts] for q, texts in groups]
    found = cache.get([k for row in keys for k in row])
    counts = RerankCounts()
    limit = [s.batch]
    lock = threading.Lock()
    tasks: list[tuple[int, list[int]]] = []
    for g, row in enumerate(keys):
        todo = sorted({k: i for i, k in enumerate(row) if k not in found}.values())
        counts.per_query[g] = {"requests": 0, "cache_hits": len(row) - len(todo),
                               "texts_sent": 0}
        counts.cache_hits += len(row) - len(todo)
        if todo:
            tasks.append((g, todo))

    def send(g: int, idx: list[int]) -> list[float]:
        query, texts = groups[g]
        size = limit[0]
        if len(idx) > size:     # another worker's 413 has cut the size meanwhile
            return [x for at in range(0, len(idx), size) for x in send(g, idx[at:at + size])]
        with lock:
            counts.per_query[g]["requests"] += 1
        try:
            return client.scores(query, [texts[i] for i in idx])
        except PayloadTooLargeError:
            if len(idx) == 1:
                raise
            half = (len(idx) + 1) // 2
            with lock:
                if half < limit[0]:
                    limit[0] = half
                    counts.batch_limit = half
                    if status is not None:
                        status(f"{s.public_endpoint}: HTTP 413 for {len(idx)} texts; "
                               f"sending at most {half} per request from now on")
            return send(g, idx[:half]) + send(g, idx[half:])

    def work(task: tuple[int, list[int]]) -> dict[str, float]:
        g, todo = task
        fresh = {keys[g][i]: score for i, score in zip(todo, send(g, todo), strict=True)}
        cache.put(fresh)   # now: a paid score is never asked for twice
        with lock:
            counts.per_query[g]["texts_sent"] += len(todo)
        return fresh

    def done(task: tuple[int, list[int]], fresh: dict[str, float]) -> None:
        found.update(fresh)
        counts.texts_sent += len(task[1])

    before, retries = client.requests, client.retries
    try:
        run_bounded(tasks, work, concurrency=s.concurrency, stop=client.stop,
                    should_stop=should_stop, done=done, name="rerank")
    finally:
        counts.requests = client.requests - before
        counts.retries = client.retries - retries
        counts.wall_seconds = time.perf_counter() - began
    return [[float(found[k]) for k in row] for row in keys], counts
