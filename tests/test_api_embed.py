"""The OpenAI-compatible embedding client against a real local HTTP server (issue 15).

No torch anywhere: the server is ``tests/_embed_server.py`` (http.server in a thread).
Faults are injected per request; the client must retry what is worth retrying, stop on
refusals with the URL and the server's message, cache every vector as it arrives, and
never let the key out.
"""

from __future__ import annotations

import email.utils
import sqlite3
import time
from pathlib import Path

import numpy as np
import pytest
from _embed_server import DIM, EmbeddingServer, vector
from _rankdata import small_benchmark

from execretrieval.errors import CancelledError, RetrieverError, ServiceError
from execretrieval.ranking._dense import EmbeddingCache
from execretrieval.ranking.api_client import (
    ApiSettings,
    EmbeddingClient,
    parse_retry_after,
    public_url,
)
from execretrieval.ranking.api_embed import (
    PRESETS,
    encode_benchmark_api,
    encode_texts_api,
    preset_prefixes,
    safe_model_name,
)
from execretrieval.ranking.embeddings import from_npz

TEXTS = [f"def f{i}(x):\n    return x + {i}" for i in range(10)]


def settings(server: EmbeddingServer, **options) -> ApiSettings:
    options.setdefault("backoff", 0.01)
    return ApiSettings(server.base_url, options.pop("model", "test-embed"), **options)


def client(server: EmbeddingServer, messages: list[str] | None = None, key: str = "",
           **options) -> EmbeddingClient:
    env = {"OPENAI_API_KEY": key} if key else {}
    return EmbeddingClient(settings(server, **options), environ=env, seed=0,
                           status=messages.append if messages is not None else None)


def expected(texts: list[str], dim: int = DIM) -> np.ndarray:
    return np.array([vector(t, dim) for t in texts], dtype=np.float32)


# pure helpers ----------------------------------------------------------------------------
def test_public_url_drops_credentials_and_query_values() -> None:
    url = "https://user:s3cret@api.example.com:8443/v1?api-key=s3cret&api-version=2024"
    shown = public_url(url)
    assert shown == "https://api.example.com:8443/v1?api-key=***&api-version=***"
    assert "s3cret" not in ApiSettings(url, "m").public_endpoint
    assert ApiSettings(url, "m").endpoint.endswith("/v1/embeddings?api-key=s3cret&api-version"
                                                   "=2024")


def test_the_full_endpoint_is_accepted_as_base_url() -> None:
    assert ApiSettings("http://h:1/v1/embeddings/", "m").endpoint == "http://h:1/v1/embeddings"
    assert ApiSettings("http://h:1/v1/", "m").endpoint == "http://h:1/v1/embeddings"


def test_an_unknown_host_fails_at_once() -> None:
    c = EmbeddingClient(ApiSettings("http://no-such-host.invalid/v1", "m", backoff=0.01),
                        environ={})
    with pytest.raises(ServiceError, match="no-such-host.invalid/v1/embeddings: cannot "
                                           "connect"):
        c.embed(["x"])
    assert c.requests == 1


def test_retry_after_in_seconds_or_as_an_http_date() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after("0.5") == 0.5
    assert parse_retry_after("-4") == 0.0
    now = time.time()
    date = email.utils.formatdate(now + 30, usegmt=True)
    assert 28.0 <= parse_retry_after(date, now=now) <= 31.0
    assert parse_retry_after("tomorrow-ish") is None
    assert parse_retry_after(None) is None


def test_presets_set_prefixes_and_explicit_ones_override() -> None:
    assert preset_prefixes("e5") == ("query: ", "passage: ")
    assert preset_prefixes("nomic") == ("search_query: ", "search_document: ")
    assert preset_prefixes("qwen3")[0].startswith("Instruct: ")
    assert preset_prefixes("qwen3")[0].endswith("\nQuery: ")
    assert preset_prefixes("bge", passage_prefix="doc: ") == (PRESETS["bge"].query_prefix,
                                                              "doc: ")
    assert preset_prefixes(None) == ("", "")
    with pytest.raises(RetrieverError, match="unknown preset 'e6'"):
        preset_prefixes("e6")


def test_safe_model_names() -> None:
    assert safe_model_name("BAAI/bge-small-en-v1.5") == "BAAI_bge-small-en-v1.5"
    assert safe_model_name("nomic-embed-text:latest") == "nomic-embed-text_latest"
    assert safe_model_name("text-embedding-3-large", 256) == "text-embedding-3-large-256d"
    assert safe_model_name("../..") == "model"


def test_bad_settings_are_named() -> None:
    with pytest.raises(ServiceError, match="not an http"):
        ApiSettings("ftp://example.com/v1", "m")
    with pytest.raises(ServiceError, match="batch must be at least 1"):
        ApiSettings("http://127.0.0.1/v1", "m", batch=0)


# the happy path and the cache ------------------------------------------------------------
def test_vectors_come_back_in_order_and_a_repeat_sends_nothing(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path / "vectors.sqlite")
    with EmbeddingServer() as server:
        s = settings(server, batch=3, concurrency=2)
        vectors, counts = encode_texts_api(TEXTS + TEXTS[:2], s, cache=cache)
        np.testing.assert_allclose(vectors, expected(TEXTS + TEXTS[:2]), rtol=1e-6)
        assert counts["sent"] == 10 and counts["requests"] == 4    # duplicates sent once
        assert server.max_inflight <= 2
        assert [b["model"] for b in server.bodies] == ["test-embed"] * 4
        assert all("dimensions" not in b for b in server.bodies)
        server.reset_counts()
        again, counts = encode_texts_api(TEXTS, s, cache=cache)
        assert server.requests == 0 and counts["requests"] == 0 and counts["from_cache"] == 10
        np.testing.assert_array_equal(again, vectors[:10])


def test_dimensions_are_asked_for_and_keyed_apart(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path / "vectors.sqlite")
    with EmbeddingServer() as server:
        full, _ = encode_texts_api(TEXTS[:3], settings(server), cache=cache)
        short, counts = encode_texts_api(TEXTS[:3], settings(server, dimensions=4), cache=cache)
        assert full.shape == (3, DIM) and short.shape == (3, 4)
        assert counts["sent"] == 3 and server.bodies[-1]["dimensions"] == 4
        np.testing.assert_allclose(short, expected(TEXTS[:3], 4), rtol=1e-6)


def test_benchmark_file_records_settings_and_text_hashes(tmp_path: Path) -> None:
    bench = small_benchmark()
    with EmbeddingServer(models=("intfloat/e5-base-v2",)) as server:
        result = encode_benchmark_api(
            bench, settings(server, model="intfloat/e5-base-v2"), preset="e5",
            out=tmp_path / "e5.npz", cache=EmbeddingCache(tmp_path / "v.sqlite"))
        sent = set(server.texts)
    loaded = from_npz(tmp_path / "e5.npz")
    assert loaded.mismatch(bench) is None
    meta = loaded.metadata
    assert meta["api_url"] == f"{server.base_url}/embeddings"
    assert (meta["api_model"], meta["preset"], meta["query_prefix"], meta["passage_prefix"]) \
        == ("intfloat/e5-base-v2", "e5", "query: ", "passage: ")
    assert meta["similarity"] == "cosine" and meta["dim"] == DIM and meta["created"]
    assert {"query: " + q.query for q in bench.queries} <= sent
    assert {"passage: " + s.code for s in bench.corpus} <= sent
    np.testing.assert_allclose(loaded.queries[0], vector("query: " + bench.queries[0].query),
                               rtol=1e-6)
    assert result.texts == result.sent == len(sent)


# retries ---------------------------------------------------------------------------------
def test_429_with_retry_after_then_500_are_retried(tmp_path: Path) -> None:
    messages: list[str] = []
    with EmbeddingServer() as server:
        server.faults.extend([("status", 429, {"Retry-After": "1"}, "Rate limit reached"),
                              ("status", 500, {}, "upstream hiccup")])
        c = client(server, messages, batch=100, max_attempts=4)
        got = c.embed(TEXTS)
    np.testing.assert_allclose(got, expected(TEXTS), rtol=1e-6)
    assert server.requests == 3 and c.retries == 2
    assert "HTTP 429: Rate limit reached (Retry-After 1s); attempt 2 of 4 in 1.0s" \
        in messages[0]
    assert "HTTP 500: upstream hiccup; attempt 3 of 4 in" in messages[1]
    assert messages[0].startswith(f"{server.base_url}/embeddings: ")


def test_retry_after_as_an_http_date_is_honoured() -> None:
    messages: list[str] = []
    when = email.utils.formatdate(time.time() + 1, usegmt=True)
    with EmbeddingServer() as server:
        server.faults.append(("status", 503, {"Retry-After": when}, "overloaded"))
        c = client(server, messages)
        c.embed(TEXTS[:2])
    assert server.requests == 2 and "HTTP 503: overloaded (Retry-After" in messages[0]


def test_a_slow_answer_past_the_timeout_is_retried() -> None:
    messages: list[str] = []
    with EmbeddingServer() as server:
        server.faults.append(("slow", 3.0))
        c = client(server, messages, timeout=0.5)
        got = c.embed(TEXTS[:2])
    np.testing.assert_allclose(got, expected(TEXTS[:2]), rtol=1e-6)
    assert server.requests == 2
    assert "no answer within 0.5s; attempt 2 of 6" in messages[0]


def test_a_refused_connection_is_retried_then_given_up() -> None:
    with EmbeddingServer() as server:
        url = server.base_url
    messages: list[str] = []
    c = EmbeddingClient(ApiSettings(url, "m", max_attempts=3, backoff=0.01), environ={},
                        status=messages.append)
    with pytest.raises(ServiceError, match=r"gave up after 3 attempts; last: connection "
                                           r"failed"):
        c.embed(["x"])
    assert c.requests == 3 and len(messages) == 2


def test_persistent_500s_give_up_after_max_attempts() -> None:
    with EmbeddingServer() as server:
        server.faults.extend([("status", 502, {}, "bad gateway")] * 5)
        c = client(server, max_attempts=3)
        with pytest.raises(ServiceError, match="gave up after 3 attempts; last: HTTP 502: "
                                               "bad gateway"):
            c.embed(TEXTS[:1])
        assert server.requests == 3


# refusals and nonsense: no retry, a clear message ----------------------------------------
@pytest.mark.parametrize("fault, message", [
    (("status", 400, {}, "input too long"), r"HTTP 400: input too long"),
    (("status", 403, {}, "not allowed"), r"HTTP 403: not allowed — the key may not"),
    (("malformed",), r"the answer is not JSON .* it begins '<html>Bad gateway</html>'"),
    (("error200", "quota exceeded"), r"no 'data' list .*; the server says: quota exceeded"),
    (("count",), r"asked for 3 vectors, got 2"),
    (("dim",), r"vectors of different lengths \[7, 8\]"),
])
def test_refusals_and_bad_answers_fail_at_once(fault, message) -> None:
    with EmbeddingServer() as server:
        server.faults.append(fault)
        c = client(server)
        with pytest.raises(ServiceError, match=message) as info:
            c.embed(TEXTS[:3])
        assert server.requests == 1
        assert str(info.value).startswith(f"{server.base_url}/embeddings: model 'test-embed'")


def test_wrong_dimension_count_is_named() -> None:
    with EmbeddingServer() as server:
        server.faults.append(("dim",))
        c = client(server, dimensions=8)
        with pytest.raises(ServiceError, match="different lengths"):
            c.embed(TEXTS[:1] * 2)
        c = client(server, dimensions=5)
        np.testing.assert_allclose(c.embed(TEXTS[:1]), expected(TEXTS[:1], 5), rtol=1e-6)


def test_wrong_key_is_refused_and_scrubbed_from_the_message() -> None:
    key = "sk-wrong-0123456789abcdef"
    with EmbeddingServer(key="sk-right") as server:
        c = client(server, key=key)
        with pytest.raises(ServiceError) as info:
            c.embed(["x"])
        assert server.requests == 1 and server.auth == [f"Bearer {key}"]
    text = str(info.value)
    assert "HTTP 401: Incorrect API key provided: ***" in text
    assert "check the key in $OPENAI_API_KEY" in text and key not in text


def test_missing_key_and_missing_model_are_named() -> None:
    with EmbeddingServer(key="sk-right") as server:
        with pytest.raises(ServiceError, match=r"\$OPENAI_API_KEY is not set"):
            client(server).embed(["x"])
        assert server.auth == [""]
    with EmbeddingServer() as server:
        with pytest.raises(ServiceError, match=r"model 'nope': HTTP 404: The model `nope` "
                                               r"does not exist — check the base URL"):
            client(server, model="nope").embed(["x"])


# cancel and resume -----------------------------------------------------------------------
def test_cancel_keeps_what_arrived_and_the_rerun_sends_only_the_rest(tmp_path: Path) -> None:
    db = tmp_path / "vectors.sqlite"
    seen: list[tuple[int, int]] = []
    with EmbeddingServer() as server:
        s = settings(server, batch=2, concurrency=1)
        with pytest.raises(CancelledError):
            encode_texts_api(TEXTS, s, cache=EmbeddingCache(db),
                             progress=lambda d, t: seen.append((d, t)),
                             should_stop=lambda: len(seen) > 2)
        with sqlite3.connect(db) as conn:
            cached = conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
        assert 4 <= cached < 10 and seen[0] == (0, 10)
        server.reset_counts()
        vectors, counts = encode_texts_api(TEXTS, s, cache=EmbeddingCache(db))
        assert counts["sent"] == 10 - cached and counts["from_cache"] == cached
        # server.texts waits for the server's count of its last answer
        assert len(server.texts) == counts["sent"]
    np.testing.assert_allclose(vectors, expected(TEXTS), rtol=1e-6)


def test_a_failing_batch_stops_the_run_but_keeps_earlier_vectors(tmp_path: Path) -> None:
    db = tmp_path / "vectors.sqlite"
    messages: list[str] = []
    with EmbeddingServer() as server:
        server.faults.extend([None, ("status", 400, {}, "bad input")])
        with pytest.raises(ServiceError, match="HTTP 400: bad input"):
            encode_texts_api(TEXTS, settings(server, batch=2, concurrency=1),
                             cache=EmbeddingCache(db), status=messages.append)
    assert any("stopped with 2 of 10 vectors in the cache" in m for m in messages)
