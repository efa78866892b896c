"""A client for OpenAI-compatible embedding services (standard library only, no torch).

``POST {base_url}/embeddings`` with ``{"model", "input": [...], "dimensions"?}`` answers
``{"data": [{"index", "embedding"}, ...]}`` — the protocol of OpenAI, Mistral, Gemini's
OpenAI endpoint, vLLM, text-embeddings-inference, infinity and Ollama.

What makes it a good client of a paid service:

- the key comes from an environment variable, is sent as ``Authorization: Bearer`` and is
  scrubbed from every message this module produces (server messages echo keys at times);
  URLs are shown and recorded without user info or query values (:func:`public_url`);
- 429, 5xx, timeouts and dropped connections are retried with exponential backoff and
  jitter, honouring ``Retry-After`` (seconds or an HTTP date), up to ``max_attempts``;
- 400/401/403/404 and other refusals fail at once with a :class:`ServiceError` naming the
  URL and the server's own message; a body that is not the vectors asked for (bad JSON,
  wrong count, wrong dimension, non-finite numbers) fails the same way;
- waiting between attempts ends early when ``stop`` is set (cancel, Ctrl-C).

The HTTP machinery (retries, key, scrubbing) is :mod:`~execretrieval.ranking.http_service`'s,
shared with the reranking clients.
"""


from __future__ import annotations

import base64
import json
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ServiceError
from .http_service import (
    RETRY_STATUSES,
    ServiceClient,
    Status,
    parse_retry_after,
    public_url,
)

__all__ = ["RETRY_STATUSES", "ApiSettings", "EmbeddingClient", "Status", "parse_retry_after",
           "public_url"]

@dataclass(frozen=True)
class ApiSettings:
    """Where and how to ask for vectors. Holds the key's variable name, never the key."""

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    dimensions: int | None = None
    batch: int = 64
    concurrency: int = 4
    timeout: float = 60.0          # seconds per request
    max_attempts: int = 6          # first try included
    backoff: float = 1.0           # first retry waits about this long, doubling each time
    max_wait: float = 60.0         # cap on one wait, Retry-After included

    def __post_init__(self) -> None:
        parts = urllib.parse.urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ServiceError(f"{public_url(self.base_url)}: not an http(s) base URL "
                               "(expected e.g. http://127.0.0.1:8080/v1)")
        if not self.model.strip():
            raise ServiceError("no model name given for the embedding service")
        for name in ("batch", "concurrency", "max_attempts"):
            if getattr(self, name) < 1:
                raise ServiceError(f"{name} must be at least 1")
        if self.dimensions is not None and self.dimensions < 1:
            raise ServiceError("dimensions must be at least 1")

    @property
    def endpoint(self) -> str:
        """The embeddings URL as requested (query string kept, user info removed)."""
        parts = urllib.parse.urlsplit(self.base_url)
        path = parts.path.rstrip("/")
        if not path.endswith("/embeddings"):   # the full endpoint is accepted too
            path += "/embeddings"
        netloc = parts.netloc.rpartition("@")[2]
        return urllib.parse.urlunsplit((parts.scheme, netloc, path, parts.query, ""))

    @property
    def public_endpoint(self) -> str:
        return public_url(self.endpoint)



class EmbeddingClient(ServiceClient):
    """Sends one batch of texts and returns its vectors, retrying what is worth retrying.

    Thread-safe: one client serves every worker thread. ``status`` receives one line per
    retry; ``stop`` (set by cancel or Ctrl-C) ends any wait between attempts.
    """

    settings: ApiSettings
    activity = "encoding"
    not_found_hint = " — check the base URL (it usually ends in /v1) and the model name"

    # the one public call -------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors (len(texts) x d, float32) in the order of ``texts``."""
        s = self.settings
        body: dict[str, Any] = {"model": s.model, "input": list(texts)}
        if s.dimensions is not None:
            body["dimensions"] = s.dimensions
        return self.call(json.dumps(body).encode("utf-8"),
                         lambda raw: self._parse(raw, len(texts)))

    def _parse(self, raw: bytes, count: int) -> np.ndarray:
        s = self.settings
        where = f"{s.public_endpoint}: model {s.model!r}"
        data = self._json(raw, where)
        items = data.get("data") if isinstance(data, dict) else None
        if not isinstance(items, list):
            said = self._server_message(raw) if isinstance(data, dict) and "error" in data \
                else ""
            raise ServiceError(f"{where}: the answer has no 'data' list of embeddings"
                               + (f"; the server says: {said}" if said else ""))
        if len(items) != count:
            raise ServiceError(f"{where}: asked for {count} vectors, got {len(items)}")
        rows: list[Any] = [None] * count
        for n, item in enumerate(items):
            index = item.get("index", n) if isinstance(item, dict) else None
            vector = item.get("embedding") if isinstance(item, dict) else None
            if not isinstance(index, int) or not 0 <= index < count or rows[index] is not None:
                raise ServiceError(f"{where}: data[{n}]: bad or repeated 'index' {index!r}")
            rows[index] = self._vector(vector, f"{where}: data[{n}].embedding")
        dims = {len(r) for r in rows}
        if len(dims) != 1:
            raise ServiceError(f"{where}: vectors of different lengths {sorted(dims)} in one "
                               "answer")
        dim = dims.pop()
        if s.dimensions is not None and dim != s.dimensions:
            raise ServiceError(f"{where}: asked for {s.dimensions} dimensions, got {dim} "
                               "(does the model support 'dimensions'?)")
        return np.stack(rows).astype(np.float32)

    @staticmethod
    def _vector(value: Any, where: str) -> np.ndarray:
        if isinstance(value, str):  # encoding_format=base64: little-endian float32
            try:
                vector = np.frombuffer(base64.b64decode(value, validate=True), dtype="<f4")
            except ValueError as exc:
                raise ServiceError(f"{where}: not base64 float32 ({exc})") from None
        else:
            try:
                vector = np.asarray(value, dtype=np.float64)
            except (TypeError, ValueError):
                raise ServiceError(f"{where}: not a list of numbers") from None
        if vector.ndim != 1 or vector.size == 0:
            raise ServiceError(f"{where}: expected a non-empty list of numbers")
        if not np.isfinite(vector).all():
            raise ServiceError(f"{where}: contains NaN or infinite values")
        return vector.astype(np.float32)

