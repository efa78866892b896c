"""A real reranking server for tests: http.server in a thread, speaking three formats.

- TEI: ``POST /rerank {"query", "texts", "raw_scores"}`` -> ``[{"index", "score"}]``
  (sorted by score, best first, as TEI does);
- Cohere: ``POST /v1/rerank {"model", "query", "documents", "top_n"}`` ->
  ``{"results": [{"index", "relevance_score"}]}``;
- OpenAI chat: ``POST /v1/chat/completions`` -> an answer "yes"/"no" with ``logprobs``
  (unless ``logprobs=False``), or a 0-10 rating when no logprobs were asked for.

Scores are deterministic: :func:`score` of (query, text) from SHA-256; ``levels=n`` rounds
them to n values, so ties happen (as saturated sigmoids make them). ``max_batch=n`` answers
413 to any request with more texts. Faults are queued and served one per request:
``("status", code, headers, message)``, ``("malformed",)`` (not JSON), ``("count",)`` (one
score too few), ``("index",)`` (an index out of range), ``("nan",)`` (a NaN score),
``("garbage",)`` (a chat answer that is no rating). A wrong key gets a 401 that echoes it.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PROMPT_QUERY = "Request:\n"
PROMPT_CODE = "\n\nCode:\n```python\n"


def score(query: str, text: str, levels: int | None = None) -> float:
    """The server's score for (query, text): a number in [-5, 5) from SHA-256."""
    digest = hashlib.sha256(f"{query}\0{text}".encode()).digest()
    value = int.from_bytes(digest[:8], "little") / 2**64
    if levels:
        value = math.floor(value * levels) / levels
    return value * 10 - 5


def p_yes(query: str, code: str) -> float:
    """The judge's probability of "yes" for (query, code), in (0, 1)."""
    return 1 / (1 + math.exp(-score(query, code)))


def rating(query: str, code: str) -> int:
    return round(p_yes(query, code) * 10)


def parse_prompt(content: str) -> tuple[str, str]:
    """(query, code) back out of the judge's user message."""
    query, _, rest = content.removeprefix(PROMPT_QUERY).partition(PROMPT_CODE)
    return query, rest.partition("\n```")[0]


class RerankServer:
    """Serves the three formats; records every request body and header; injects faults."""

    def __init__(self, *, key: str | None = None, models: tuple[str, ...] = ("m",),
                 max_batch: int | None = None, levels: int | None = None,
                 logprobs: bool = True, port: int = 0) -> None:
        self.key = key
        self.models = set(models)
        self.max_batch = max_batch
        self.levels = levels
        self.logprobs = logprobs
        self.faults: deque[tuple[Any, ...]] = deque()
        self.lock = threading.Lock()
        self.requests = 0
        self.sizes: list[int] = []                 # texts per request, 413s included
        self.paths: list[str] = []
        self.bodies: list[dict[str, Any]] = []
        self.auth: list[str] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> RerankServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def reset_counts(self) -> None:
        with self.lock:
            self.requests = 0
            self.sizes = []
            self.paths = []
            self.bodies = []

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with server.lock:
                    server.requests += 1
                    fault = server.faults.popleft() if server.faults else None
                    server.auth.append(self.headers.get("Authorization", ""))
                    server.paths.append(self.path)
                try:
                    self._answer(raw, fault)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _answer(self, raw: bytes, fault: tuple[Any, ...] | None) -> None:
                sent = self.headers.get("Authorization", "")
                if server.key is not None and sent != f"Bearer {server.key}":
                    return self._error(401, f"Invalid key: {sent.removeprefix('Bearer ')}")
                body = json.loads(raw)
                with server.lock:
                    server.bodies.append(body)
                path = self.path.partition("?")[0].rstrip("/")
                if fault is not None and fault[0] == "status":
                    return self._error(fault[1], fault[3], fault[2])
                if fault is not None and fault[0] == "malformed":
                    return self._send(200, b"<html>Bad gateway</html>", "text/html")
                if path == "/v1/chat/completions":
                    return self._chat(body, fault)
                if path not in ("/rerank", "/v1/rerank"):
                    return self._error(404, f"no route {self.path}")
                texts = body.get("texts") if path == "/rerank" else body.get("documents")
                with server.lock:
                    server.sizes.append(len(texts))
                if path == "/v1/rerank" and body.get("model") not in server.models:
                    return self._error(404, f"model {body.get('model')!r} not found")
                if server.max_batch is not None and len(texts) > server.max_batch:
                    return self._error(413, f"batch size {len(texts)} > maximum allowed "
                                            f"batch size {server.max_batch}")
                items = [{"index": i, "score": score(body["query"], t, server.levels)}
                         for i, t in enumerate(texts)]
                items.sort(key=lambda item: -item["score"])   # TEI sorts, best first
                if fault is not None and fault[0] == "count":
                    items = items[:-1]
                if fault is not None and fault[0] == "index":
                    items[0]["index"] = len(texts)
                if fault is not None and fault[0] == "nan":
                    items[0]["score"] = float("nan")
                if path == "/rerank":
                    payload = json.dumps(items).encode()
                else:
                    payload = json.dumps({"id": "r", "results": [
                        {"index": it["index"], "relevance_score": it["score"]}
                        for it in items]}).encode()
                self._send(200, payload, "application/json")

            def _chat(self, body: dict[str, Any], fault: tuple[Any, ...] | None) -> None:
                if body.get("model") not in server.models:
                    return self._error(404, f"The model `{body.get('model')}` does not exist")
                query, code = parse_prompt(body["messages"][-1]["content"])
                choice: dict[str, Any] = {"index": 0, "finish_reason": "stop"}
                if body.get("logprobs") and server.logprobs:
                    p = p_yes(query, code)
                    top = [{"token": "yes", "logprob": math.log(p)},
                           {"token": "no", "logprob": math.log(1 - p)}]
                    answer = "yes" if p >= 0.5 else "no"
                    choice["logprobs"] = {"content": [{"token": answer,
                                                       "logprob": max(t["logprob"]
                                                                      for t in top),
                                                       "top_logprobs": top}]}
                elif body.get("logprobs"):
                    answer = "yes" if p_yes(query, code) >= 0.5 else "no"
                else:
                    answer = f"{rating(query, code)}"
                if fault is not None and fault[0] == "garbage":
                    answer = "I cannot tell."
                choice["message"] = {"role": "assistant", "content": answer}
                payload = json.dumps({"id": "c", "object": "chat.completion",
                                      "choices": [choice],
                                      "usage": {"prompt_tokens": len(query) + len(code),
                                                "completion_tokens": 1,
                                                "total_tokens": len(query) + len(code) + 1}
                                      }).encode()
                self._send(200, payload, "application/json")

            def _error(self, code: int, message: str,
                       headers: dict[str, str] | None = None) -> None:
                payload = json.dumps({"error": message, "error_type": "Validation"}).encode()
                self._send(code, payload, "application/json", headers)

            def _send(self, code: int, payload: bytes, kind: str,
                      headers: dict[str, str] | None = None) -> None:
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

        return Handler


if __name__ == "__main__":   # a server to try the stages by hand: PORT [MAX_BATCH] [LEVELS]
    import sys
    import time

    args = [int(a) for a in sys.argv[1:]] + [0, 0, 0]
    with RerankServer(port=args[0], max_batch=args[1] or None, levels=args[2] or None,
                      key=None) as running:
        running.faults.extend([("status", 429, {"Retry-After": "1"}, "rate limited")])
        print(running.url, flush=True)
        while True:
            time.sleep(1)
