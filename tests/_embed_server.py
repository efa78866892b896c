"""A real OpenAI-compatible embedding server for tests: http.server in a thread.

Vectors are deterministic (from the SHA-256 of the exact text sent), so a test can check
every row it gets back. Faults are queued and served one per request, in order:

- ``("status", code, headers, message)``: an error answer in OpenAI's JSON shape;
- ``("slow", seconds)``: answer correctly, but only after ``seconds``;
- ``("hold", event)``: answer correctly once the test sets ``event`` (a threading.Event;
  at most 60 s), so a test can act while a client waits, whatever the machine's load;
- ``("malformed",)``: a 200 whose body is not JSON;
- ``("error200", message)``: a 200 whose JSON is an error, not vectors;
- ``("count",)`` / ``("dim",)``: one vector too few / one vector one number short.

A wrong key gets a 401 that echoes the key it was sent (as careless servers do), and an
unknown model a 404, so tests can check that neither reaches the user unscrubbed.
"""

from __future__ import annotations

import hashlib
import json
import struct
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from selectors import EVENT_READ, DefaultSelector
from typing import Any

DIM = 8


def vector(text: str, dim: int = DIM) -> list[float]:
    """The server's vector for ``text``: numbers in [-1, 1) from its SHA-256."""
    digest = b""
    counter = 0
    while len(digest) < 4 * dim:
        digest += hashlib.sha256(f"{counter}\0{text}".encode()).digest()
        counter += 1
    words = struct.unpack(f"<{dim}I", digest[:4 * dim])
    return [w / 2**31 - 1.0 for w in words]


class _CountingHTTPServer(ThreadingHTTPServer):
    """Counts the connections it has accepted and not yet closed, from before ``accept``
    until after the handler's last line (its counting of texts included)."""

    daemon_threads = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.open_requests = 0
        self.settled = threading.Condition()
        super().__init__(*args, **kwargs)

    def get_request(self) -> Any:
        with self.settled:
            self.open_requests += 1   # before accept: no moment where a request is nowhere
        try:
            return super().get_request()
        except BaseException:
            self._closed_one()
            raise

    def shutdown_request(self, request: Any) -> None:  # once per accepted request
        try:
            super().shutdown_request(request)
        finally:
            self._closed_one()

    def _closed_one(self) -> None:
        with self.settled:
            self.open_requests -= 1
            self.settled.notify_all()

    def wait_settled(self, timeout: float) -> None:
        """Return once no connection is waiting to be accepted and every accepted one is
        finished; the clients must have stopped sending (answered, cancelled or killed)."""
        deadline = time.monotonic() + timeout
        with DefaultSelector() as selector:
            selector.register(self.socket, EVENT_READ)
            while True:
                # the backlog first, then the count: a connection accepted before the
                # backlog was seen empty is counted since before its accept
                waiting = bool(selector.select(timeout=0))
                with self.settled:
                    if not waiting and self.open_requests == 0:
                        return
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise TimeoutError(f"embedding test server: {self.open_requests} "
                                           f"connection(s) still open after {timeout} s")
                    self.settled.wait(min(left, 0.05))


class EmbeddingServer:
    """Serves ``POST /v1/embeddings``; counts requests and texts; injects queued faults."""

    def __init__(self, *, key: str | None = None, models: tuple[str, ...] = ("test-embed",),
                 delay: float = 0.0) -> None:
        self.key = key
        self.models = set(models)
        self.delay = delay
        self.faults: deque[tuple[Any, ...]] = deque()
        self.lock = threading.Lock()
        self.requests = 0
        self.answered: list[str] = []       # every text answered with a vector, so far
        self.inflight = 0
        self.max_inflight = 0
        self.bodies: list[dict[str, Any]] = []
        self.auth: list[str] = []
        self._server = _CountingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> EmbeddingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def texts(self) -> list[str]:
        """Every text answered with a vector, read once the server has settled: a text is
        counted just after its answer is written, so a client can hold the answer a moment
        before the count. For a peek while a client still runs, read ``answered``."""
        self.settle()
        with self.lock:
            return list(self.answered)

    def settle(self, timeout: float = 60.0) -> None:
        """Wait until every request a client has sent is answered and counted (or its
        client is gone): call it once the client has stopped, before reading counts."""
        self._server.wait_settled(timeout)

    def reset_counts(self) -> None:
        """Counts from zero for the next client; what the last one sent is settled first,
        so a late answer to a cancelled or killed client cannot land in the new counts."""
        self.settle()
        with self.lock:
            self.requests = 0
            self.answered = []

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with server.lock:
                    server.requests += 1
                    server.inflight += 1
                    server.max_inflight = max(server.max_inflight, server.inflight)
                    fault = server.faults.popleft() if server.faults else None
                    server.auth.append(self.headers.get("Authorization", ""))
                self._held = True
                try:
                    self._answer(body, fault)
                except (BrokenPipeError, ConnectionResetError):
                    pass   # the client gave up waiting (a timeout test)
                finally:
                    self._release()

            def _release(self) -> None:
                # A request stops being in flight before its answer is written: once
                # the client has the answer it may send its next request, which must
                # not find this one still counted (max_inflight read 3 for 2 workers).
                if self._held:
                    self._held = False
                    with server.lock:
                        server.inflight -= 1

            def _answer(self, raw: bytes, fault: tuple[Any, ...] | None) -> None:
                if self.path.partition("?")[0].rstrip("/") != "/v1/embeddings":
                    return self._error(404, f"no route {self.path}")
                sent = self.headers.get("Authorization", "")
                if server.key is not None and sent != f"Bearer {server.key}":
                    given = sent.removeprefix("Bearer ")
                    return self._error(401, f"Incorrect API key provided: {given}")
                request = json.loads(raw)
                server.bodies.append(request)
                if request.get("model") not in server.models:
                    return self._error(404, f"The model `{request.get('model')}` does not "
                                            "exist")
                if fault is not None and fault[0] == "status":
                    return self._error(fault[1], fault[3], fault[2])
                if fault is not None and fault[0] == "error200":
                    payload = json.dumps({"error": {"message": fault[1]}}).encode()
                    return self._send(200, payload, "application/json")
                if fault is not None and fault[0] == "malformed":
                    return self._send(200, b"<html>Bad gateway</html>", "text/html")
                if fault is not None and fault[0] == "slow":
                    time.sleep(fault[1])
                if fault is not None and fault[0] == "hold":
                    fault[1].wait(60)
                if server.delay:
                    time.sleep(server.delay)
                texts = request["input"]
                dim = int(request.get("dimensions") or DIM)
                data = [{"object": "embedding", "index": i, "embedding": vector(t, dim)}
                        for i, t in enumerate(texts)]
                if fault is not None and fault[0] == "count":
                    data = data[:-1]
                if fault is not None and fault[0] == "dim":
                    data[0]["embedding"] = data[0]["embedding"][:-1]
                data.reverse()   # clients must order by "index", not by position
                payload = json.dumps({"object": "list", "data": data,
                                      "model": request["model"]}).encode()
                self._send(200, payload, "application/json")
                with server.lock:
                    server.answered.extend(texts)

            def _error(self, code: int, message: str,
                       headers: dict[str, str] | None = None) -> None:
                payload = json.dumps({"error": {"message": message, "type": "error",
                                                "code": code}}).encode()
                self._send(code, payload, "application/json", headers)

            def _send(self, code: int, payload: bytes, kind: str,
                      headers: dict[str, str] | None = None) -> None:
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self._release()
                self.end_headers()
                self.wfile.write(payload)

        return Handler
