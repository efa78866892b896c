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
"""

from __future__ import annotations

import base64
import email.utils
import json
import math
import os
import random
import socket
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from http.client import HTTPException
from typing import Any

import numpy as np

from ..errors import CancelledError, ServiceError

__all__ = ["ApiSettings", "EmbeddingClient", "Status", "parse_retry_after", "public_url"]

Status = Callable[[str], None]
RETRY_STATUSES = frozenset({408, 425, 429}) | (frozenset(range(500, 600)) - {501, 505})
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def public_url(url: str) -> str:
    """``url`` fit to print and record: no user info, query values replaced by ``***``."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    if parts.port is not None:
        host += f":{parts.port}"
    query = "&".join(f"{name}=***" for name, _ in
                     urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, query, ""))


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta seconds or HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    return max(0.0, seconds) if math.isfinite(seconds) else None


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


class _Retry(Exception):
    """One attempt failed in a way worth another (message, server-asked delay)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class EmbeddingClient:
    """Sends one batch of texts and returns its vectors, retrying what is worth retrying.

    Thread-safe: one client serves every worker thread. ``status`` receives one line per
    retry; ``stop`` (set by cancel or Ctrl-C) ends any wait between attempts.
    """

    def __init__(self, settings: ApiSettings, *, environ: Mapping[str, str] | None = None,
                 status: Status | None = None, stop: threading.Event | None = None,
                 seed: int | None = None) -> None:
        self.settings = settings
        env = environ if environ is not None else os.environ
        self._key = env.get(settings.api_key_env, "") if settings.api_key_env else ""
        self._status = status
        self.stop = stop if stop is not None else threading.Event()
        self._random = random.Random(seed)
        self._lock = threading.Lock()
        self.requests = 0            # HTTP requests sent (retries included)
        self.retries = 0
        parts = urllib.parse.urlsplit(settings.base_url)
        self._basic = None
        self._secrets = [x for x in (self._key, urllib.parse.unquote(parts.password or ""))
                         if len(x) >= 4]
        if parts.username is not None and not self._key:
            userinfo = f"{urllib.parse.unquote(parts.username)}:" \
                       f"{urllib.parse.unquote(parts.password or '')}"
            self._basic = base64.b64encode(userinfo.encode()).decode()
        # a local server is reached directly even when a proxy is configured
        handlers = [urllib.request.ProxyHandler({})] if parts.hostname in _LOOPBACK else []
        self._opener = urllib.request.build_opener(*handlers)

    # the one public call -------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors (len(texts) x d, float32) in the order of ``texts``."""
        s = self.settings
        body: dict[str, Any] = {"model": s.model, "input": list(texts)}
        if s.dimensions is not None:
            body["dimensions"] = s.dimensions
        payload = json.dumps(body).encode("utf-8")
        for attempt in range(1, s.max_attempts + 1):
            if self.stop.is_set():
                raise CancelledError("encoding cancelled")
            try:
                return self._parse(self._post(payload), len(texts))
            except _Retry as exc:
                if attempt == s.max_attempts:
                    raise ServiceError(
                        f"{s.public_endpoint}: gave up after {attempt} attempts; last: "
                        f"{exc}") from None
                wait = self._wait(attempt, exc.retry_after)
                with self._lock:
                    self.retries += 1
                self._say(f"{s.public_endpoint}: {exc}; attempt {attempt + 1} of "
                          f"{s.max_attempts} in {wait:.1f}s")
                if self.stop.wait(wait):
                    raise CancelledError("encoding cancelled") from None
        raise AssertionError("unreachable")  # pragma: no cover

    # one attempt ---------------------------------------------------------------------
    def _post(self, payload: bytes) -> bytes:
        s = self.settings
        headers = {"Content-Type": "application/json", "Accept": "application/json",
                   "User-Agent": "execretrieval-inspector"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        elif self._basic:
            headers["Authorization"] = f"Basic {self._basic}"
        request = urllib.request.Request(s.endpoint, data=payload, headers=headers,
                                         method="POST")
        with self._lock:
            self.requests += 1
        try:
            with self._opener.open(request, timeout=s.timeout) as response:
                return bytes(response.read())
        except urllib.error.HTTPError as exc:
            self._refused(exc)
        except (TimeoutError, urllib.error.URLError, HTTPException, ConnectionError,
                OSError) as exc:
            reason = getattr(exc, "reason", exc)
            if isinstance(reason, TimeoutError) or isinstance(exc, TimeoutError):
                raise _Retry(f"no answer within {s.timeout:g}s") from None
            if isinstance(reason, socket.gaierror | ssl.SSLCertVerificationError):
                # a mistyped host or a bad certificate does not heal by waiting
                raise ServiceError(f"{s.public_endpoint}: cannot connect: "
                                   f"{self._scrub(str(reason))}") from None
            raise _Retry(f"connection failed ({self._scrub(str(reason) or type(exc).__name__)})"
                         ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _refused(self, exc: urllib.error.HTTPError) -> None:
        """Turn an HTTP error status into a retry or a ServiceError (always raises)."""
        s = self.settings
        try:
            raw = exc.read()
        except (OSError, HTTPException):
            raw = b""
        finally:
            exc.close()
        message = self._server_message(raw) or (exc.reason or "")
        what = f"HTTP {exc.code}" + (f": {message}" if message else "")
        if exc.code in RETRY_STATUSES:
            after = parse_retry_after(exc.headers.get("Retry-After") if exc.headers else None)
            raise _Retry(what + (f" (Retry-After {after:g}s)" if after is not None else ""),
                         after) from None
        var = f"${s.api_key_env}" if s.api_key_env else "the key variable"
        hint = {401: f" — check the key in {var}" if self._key else f" — {var} is not set",
                403: " — the key may not have access to this model",
                404: " — check the base URL (it usually ends in /v1) and the model name"
                }.get(exc.code, "")
        raise ServiceError(f"{s.public_endpoint}: model {s.model!r}: {what}{hint}") from None

    def _server_message(self, raw: bytes) -> str:
        """The server's own words: OpenAI's ``error.message``, TEI's ``error``, or the text."""
        text = raw.decode("utf-8", "replace").strip()
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict):
            error = data.get("error", data.get("detail", data.get("message")))
            if isinstance(error, dict):
                error = error.get("message", error)
            if error is not None:
                text = error if isinstance(error, str) else json.dumps(error)
        return self._scrub(" ".join(text.split())[:300])

    def _parse(self, raw: bytes, count: int) -> np.ndarray:
        s = self.settings
        where = f"{s.public_endpoint}: model {s.model!r}"
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            sample = self._scrub(" ".join(raw[:120].decode("utf-8", "replace").split()))
            raise ServiceError(f"{where}: the answer is not JSON ({exc}); it begins "
                               f"{sample!r}") from None
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

    # helpers -------------------------------------------------------------------------
    def _wait(self, attempt: int, retry_after: float | None) -> float:
        """Exponential backoff with equal jitter; the server's Retry-After when it says."""
        s = self.settings
        if retry_after is not None:
            return min(retry_after, s.max_wait)
        ceiling = min(s.max_wait, s.backoff * 2 ** (attempt - 1))
        with self._lock:
            return ceiling / 2 + self._random.uniform(0, ceiling / 2)

    def _scrub(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

    def _say(self, message: str) -> None:
        if self._status is not None:
            self._status(self._scrub(message))
