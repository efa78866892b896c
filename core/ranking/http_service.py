"""What every client of a paid HTTP model service needs: the embedding client
(:mod:`~execretrieval.ranking.api_client`) and the reranking clients
(:mod:`~execretrieval.ranking.api_rerank`) share it.

- the key comes from an environment variable, is sent as ``Authorization: Bearer`` and is
  scrubbed from every message this module produces (server messages echo keys at times);
  URLs are shown and recorded without user info or query values (:func:`public_url`);
- 429, 5xx, timeouts and dropped connections are retried with exponential backoff and
  jitter, honouring ``Retry-After`` (seconds or an HTTP date), up to ``max_attempts``;
- 400/401/403/404 and other refusals fail at once with a :class:`ServiceError` naming the
  URL and the server's own message (413 as :class:`PayloadTooLargeError`, so a caller can
  send less);
- waiting between attempts ends early when ``stop`` is set (cancel, Ctrl-C);
- :func:`run_bounded` sends work from at most N daemon threads at once.
"""

from __future__ import annotations

import base64
import email.utils
import json
import math
import os
import queue
import random
import socket
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from http.client import HTTPException
from typing import Any, Protocol, TypeVar

from ..errors import CancelledError, ServiceError

__all__ = ["RETRY_STATUSES", "PayloadTooLargeError", "ServiceClient", "ServiceSettings",
           "Status", "parse_retry_after", "public_url", "run_bounded"]

T = TypeVar("T")
R = TypeVar("R")
GRACE = 2.0   # seconds a failed or cancelled run waits for requests in flight (not Ctrl-C)

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



class ServiceSettings(Protocol):
    """What :class:`ServiceClient` reads from its settings (never the key itself)."""

    @property
    def base_url(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def api_key_env(self) -> str: ...
    @property
    def timeout(self) -> float: ...
    @property
    def max_attempts(self) -> int: ...
    @property
    def backoff(self) -> float: ...
    @property
    def max_wait(self) -> float: ...
    @property
    def endpoint(self) -> str: ...
    @property
    def public_endpoint(self) -> str: ...


class PayloadTooLargeError(ServiceError):
    """HTTP 413: the server will not take a request this large (send fewer texts)."""


class _Retry(Exception):
    """One attempt failed in a way worth another (message, server-asked delay)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ServiceClient:
    """POSTs JSON to ``settings.endpoint`` and parses the answer, retrying what is worth
    retrying (module docstring).

    Thread-safe: one client serves every worker thread. ``status`` receives one line per
    retry; ``stop`` (set by cancel or Ctrl-C) ends any wait between attempts.
    """

    #: the activity a cancellation names ("encoding cancelled")
    activity = "request"
    #: what a 404 most likely means
    not_found_hint = " — check the URL and the model name"

    def __init__(self, settings: ServiceSettings, *, environ: Mapping[str, str] | None = None,
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

    def call(self, payload: bytes, parse: Callable[[bytes], T]) -> T:
        """``parse`` of the answer to ``payload``, retried (module docstring)."""
        s = self.settings
        for attempt in range(1, s.max_attempts + 1):
            if self.stop.is_set():
                raise CancelledError(f"{self.activity} cancelled")
            try:
                return parse(self._post(payload))
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
                    raise CancelledError(f"{self.activity} cancelled") from None
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
                404: self.not_found_hint
                }.get(exc.code, "")
        error = PayloadTooLargeError if exc.code == 413 else ServiceError
        raise error(f"{s.public_endpoint}: model {s.model!r}: {what}{hint}") from None

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

    def _sample(self, raw: bytes) -> str:
        """The start of an answer, whitespace folded and secrets scrubbed, for a message."""
        return self._scrub(" ".join(raw[:120].decode("utf-8", "replace").split()))

    def _json(self, raw: bytes, where: str) -> Any:
        """An answer's JSON, or a :class:`ServiceError` naming ``where`` and its start."""
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ServiceError(f"{where}: the answer is not JSON ({exc}); it begins "
                               f"{self._sample(raw)!r}") from None

    def _say(self, message: str) -> None:
        if self._status is not None:
            self._status(self._scrub(message))


def run_bounded(items: Sequence[T], work: Callable[[T], R], *, concurrency: int,
                stop: threading.Event, should_stop: Callable[[], bool] | None = None,
                done: Callable[[T, R], None] | None = None,
                name: str = "service") -> list[R]:
    """``work(item)`` for every item from at most ``concurrency`` daemon threads; results in
    the order of ``items``. ``done(item, result)`` runs in the caller's thread as each one
    arrives. The first error (or ``should_stop()``) sets ``stop`` (no new requests, waits
    between retries end), gives requests in flight a moment (not on Ctrl-C), hands the
    answers that arrived meanwhile to ``done`` and is raised.

    Daemon threads rather than a ``concurrent.futures`` pool: Ctrl-C must end the command at
    once, and a pool's threads are joined at exit.
    """
    tasks: queue.SimpleQueue[int] = queue.SimpleQueue()
    for n in range(len(items)):
        tasks.put(n)
    results: queue.SimpleQueue[tuple[int, R | None, BaseException | None]] = \
        queue.SimpleQueue()

    def run() -> None:
        while not stop.is_set():
            try:
                n = tasks.get_nowait()
            except queue.Empty:
                return
            try:
                result = work(items[n])
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
                results.put((n, None, exc))
                return
            results.put((n, result, None))

    workers = [threading.Thread(target=run, name=f"{name}-{n}", daemon=True)
               for n in range(min(concurrency, len(items)))]
    for worker in workers:
        worker.start()
    out: dict[int, R] = {}
    try:
        while len(out) < len(items):
            if should_stop is not None and should_stop():
                raise CancelledError("cancelled")
            try:
                n, result, error = results.get(timeout=0.1)
            except queue.Empty:
                if not any(w.is_alive() for w in workers) and results.empty():
                    raise CancelledError("cancelled") from None
                continue
            if error is not None:
                raise error
            out[n] = result  # type: ignore[assignment]
            if done is not None:
                done(items[n], out[n])
    except BaseException as exc:
        stop.set()
        if not isinstance(exc, KeyboardInterrupt):
            deadline = time.monotonic() + GRACE
            for worker in workers:
                worker.join(max(0.0, deadline - time.monotonic()))
        while not results.empty():   # answers that came in meanwhile are paid for: keep them
            n, result, error = results.get()
            if error is None and done is not None:
                done(items[n], result)  # type: ignore[arg-type]
        raise
    return [out[n] for n in range(len(items))]
