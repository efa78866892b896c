"""Encode a benchmark through an OpenAI-compatible embedding service and write the .npz.

Every query and snippet (``prefix + text``) is sent once: vectors are stored in the
:class:`~execretrieval.ranking._dense.EmbeddingCache` by the worker that received them, as
soon as they arrive, keyed by ``sha256(identity + NUL + prefix + text)`` where the identity
names the endpoint (without credentials), the model and the dimensions. An interrupted run
resumes where it stopped; a repeat run sends nothing.

Workers are :func:`~execretrieval.ranking.http_service.run_bounded`'s daemon threads: Ctrl-C
ends the command at once. The cache writes of finished requests are transactions, so a
worker killed mid-write loses nothing but its own batch.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CancelledError, RetrieverError, ServiceError
from ._dense import EmbeddingCache
from .api_client import ApiSettings, EmbeddingClient, Status
from .embeddings import EmbeddingSet, text_sha, to_npz
from .http_service import run_bounded

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..hooks import Progress, ShouldStop

__all__ = ["PRESETS", "ApiEmbedResult", "Preset", "embed_benchmark_api",
           "encode_benchmark_api", "encode_texts_api", "preset_prefixes", "safe_model_name"]



@dataclass(frozen=True)
class Preset:
    """A model family's documented prefixes."""

    query_prefix: str
    passage_prefix: str
    models: str        # examples of the family, for --help and the README


QWEN3_INSTRUCT = ("Instruct: Given a natural-language description, retrieve the Python "
                  "function that implements it\nQuery: ")
PRESETS: Mapping[str, Preset] = MappingProxyType({
    "e5": Preset("query: ", "passage: ", "intfloat/e5-base-v2, multilingual-e5-large"),
    "bge": Preset("Represent this sentence for searching relevant passages: ", "",
                  "BAAI/bge-small-en-v1.5, bge-base-en-v1.5, bge-large-en-v1.5"),
    "qwen3": Preset(QWEN3_INSTRUCT, "", "Qwen/Qwen3-Embedding-0.6B, -4B, -8B"),
    "nomic": Preset("search_query: ", "search_document: ", "nomic-ai/nomic-embed-text-v1.5"),
    "openai": Preset("", "", "text-embedding-3-small, text-embedding-3-large"),
    "gemini": Preset("", "", "gemini-embedding-001 (OpenAI-compatible endpoint)"),
    "mistral": Preset("", "", "mistral-embed, codestral-embed"),
    "none": Preset("", "", "BGE-M3, GTE, sentence-transformers models"),
})


def preset_prefixes(preset: str | None, query_prefix: str | None = None,
                    passage_prefix: str | None = None) -> tuple[str, str]:
    """The (query, passage) prefixes of ``preset``, each overridden when given explicitly."""
    base = Preset("", "", "")
    if preset is not None:
        if preset not in PRESETS:
            raise RetrieverError(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
        base = PRESETS[preset]
    return (base.query_prefix if query_prefix is None else query_prefix,
            base.passage_prefix if passage_prefix is None else passage_prefix)


def safe_model_name(model: str, dimensions: int | None = None) -> str:
    """A file stem for a served model: ``BAAI/bge-small-en-v1.5`` -> ``BAAI_bge-small-en-v1.5``."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", model).strip("._-") or "model"
    return f"{stem}-{dimensions}d" if dimensions else stem


@dataclass(frozen=True)
class ApiEmbedResult:
    """What one encoding did: the vectors (and file), and what it cost."""

    embeddings: EmbeddingSet
    path: Path | None
    texts: int            # distinct texts needed
    from_cache: int       # of those, already in the cache
    sent: int             # texts sent and answered in this run
    requests: int         # HTTP requests, retries included
    retries: int


def _identity(settings: ApiSettings) -> str:
    return (f"api|{settings.public_endpoint}|{settings.model}|"
            f"dimensions={settings.dimensions}")


def encode_texts_api(
    texts: Sequence[str],
    settings: ApiSettings,
    *,
    cache: EmbeddingCache | None = None,
    client: EmbeddingClient | None = None,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    status: Status | None = None,
) -> tuple[np.ndarray, dict[str, int]]:
    """Vectors for ``texts`` (exact strings, prefixes included) and counts of the work.

    Cached vectors are read; the rest go out in batches of ``settings.batch``, at most
    ``settings.concurrency`` requests at a time.
    """
    cache = cache if cache is not None else EmbeddingCache.default()
    client = client if client is not None else EmbeddingClient(settings, status=status)
    identity = _identity(settings)
    keys = [EmbeddingCache.key(identity, t) for t in texts]
    found = cache.get(keys)
    todo = sorted({k: i for i, k in enumerate(keys) if k not in found}.values())
    counts = {"texts": len(set(keys)), "from_cache": len(set(keys)) - len(todo), "sent": 0}
    total = len(todo)
    if progress:
        progress(0, total)
    batches = [todo[i:i + settings.batch] for i in range(0, total, settings.batch)]
    if batches:
        _fetch(batches, texts, keys, client, cache, found, counts, progress, should_stop,
               status)
    dims = {v.size for v in found.values()}
    if len(dims) > 1:
        raise ServiceError(f"{settings.public_endpoint}: model {settings.model!r}: vectors of "
                           f"different lengths {sorted(dims)} (cached and fresh ones?); "
                           "pass --dimensions or clear the embedding cache")
    counts.update(requests=client.requests, retries=client.retries)
    vectors = np.stack([found[k] for k in keys]).astype(np.float32) if keys else \
        np.zeros((0, 0), dtype=np.float32)
    return vectors, counts


def _fetch(batches: list[list[int]], texts: Sequence[str], keys: list[str],
           client: EmbeddingClient, cache: EmbeddingCache, found: dict[str, np.ndarray],
           counts: dict[str, int], progress: Progress | None,
           should_stop: ShouldStop | None, status: Status | None) -> None:
    """Send the batches from worker threads; each worker caches what it receives."""
    total = sum(len(b) for b in batches)

    def work(batch: list[int]) -> dict[str, np.ndarray]:
        vectors = client.embed([texts[i] for i in batch])
        fresh = {keys[i]: vectors[n] for n, i in enumerate(batch)}
        cache.put(fresh)   # now: a paid vector is never asked for twice
        return fresh

    def done(batch: list[int], fresh: dict[str, np.ndarray]) -> None:
        found.update(fresh)
        counts["sent"] += len(batch)
        if progress and not client.stop.is_set():
            progress(counts["sent"], total)

    try:
        run_bounded(batches, work, concurrency=client.settings.concurrency,
                    stop=client.stop, should_stop=should_stop, done=done, name="embed")
    except CancelledError:
        _stopped(counts, status)
        raise CancelledError("encoding cancelled") from None
    except BaseException:
        _stopped(counts, status)
        raise


def _stopped(counts: dict[str, int], status: Status | None) -> None:
    cached = counts["from_cache"] + counts["sent"]
    if status is not None and cached:
        status(f"stopped with {cached} of {counts['texts']} vectors in the cache; the "
               "same command sends only the rest")


def encode_benchmark_api(
    benchmark: Benchmark,
    settings: ApiSettings,
    *,
    query_prefix: str | None = None,
    passage_prefix: str | None = None,
    preset: str | None = None,
    out: str | Path | None = None,
    cache: EmbeddingCache | None = None,
    client: EmbeddingClient | None = None,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    status: Status | None = None,
) -> ApiEmbedResult:
    """Encode every query and snippet through the service; write ``out`` if given.

    ``out="auto"`` means ``<benchmark folder>/embeddings/<safe model name>.npz``. The file
    records the endpoint (without credentials or query values), model, prefixes, preset,
    dimensions and date; its rows carry text hashes, so a changed benchmark is detected.
    """
    qp, pp = preset_prefixes(preset, query_prefix, passage_prefix)
    if out == "auto":
        if benchmark.path is None:
            raise RetrieverError("the benchmark has no folder; pass out=")
        out = Path(benchmark.path) / "embeddings" / \
            f"{safe_model_name(settings.model, settings.dimensions)}.npz"
    texts = ([qp + q.query for q in benchmark.queries]
             + [pp + s.code for s in benchmark.corpus])
    vectors, counts = encode_texts_api(texts, settings, cache=cache, client=client,
                                       progress=progress, should_stop=should_stop,
                                       status=status)
    nq = len(benchmark.queries)
    metadata: dict[str, Any] = {
        "model": safe_model_name(settings.model, settings.dimensions),
        "source": "openai-compatible API", "api_url": settings.public_endpoint,
        "api_model": settings.model, "query_prefix": qp, "passage_prefix": pp,
        "preset": preset, "dimensions": settings.dimensions,
        "dim": int(vectors.shape[1]) if vectors.size else 0,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "normalize": False, "similarity": "cosine",
    }
    embeddings = EmbeddingSet(
        query_ids=tuple(q.query_id for q in benchmark.queries),
        corpus_ids=tuple(s.corpus_id for s in benchmark.corpus),
        queries=vectors[:nq], corpus=vectors[nq:], metadata=MappingProxyType(metadata),
        query_sha=tuple(text_sha(q.query) for q in benchmark.queries),
        corpus_sha=tuple(text_sha(s.code) for s in benchmark.corpus))
    if out is not None:
        to_npz(out, embeddings)
    return ApiEmbedResult(embeddings, Path(out) if out is not None else None,
                          counts["texts"], counts["from_cache"], counts["sent"],
                          counts["requests"], counts["retries"])


def embed_benchmark_api(benchmark: Benchmark, settings: ApiSettings, *,
                        out: str | Path | None = None, **options: Any) -> ApiEmbedResult:
    """:func:`encode_benchmark_api` writing ``out`` (default the benchmark's embeddings/)."""
    return encode_benchmark_api(benchmark, settings, out=out if out is not None else "auto",
                                **options)
