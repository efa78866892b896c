"""Dense retrieval: embedding matrices (.npz), the embedding cache, and dense retrievers.

An embedding file ``embeddings/<model>.npz`` (design §3) holds

- ``query_ids`` (Q,) and ``corpus_ids`` (N,): unicode arrays naming each row;
- ``queries`` (Q x d) and ``corpus`` (N x d): float32 vectors;
- ``query_sha`` / ``corpus_sha`` (optional): the first 16 hex digits of the SHA-256 of each
  embedded text (query text, snippet code, before any prefix), so stale rows are detected;
- ``metadata``: a JSON string with ``model``, ``query_prefix``, ``passage_prefix``,
  ``normalize`` and ``similarity`` (``"cosine"`` or ``"dot"``; files without it score by dot
  product).

Score of query q and snippet d: ``queries[q] . corpus[d]`` (``similarity == "dot"``) or
the cosine of the two vectors. Rows are matched to the benchmark by id, not position.

Vectors computed here are cached in SQLite under the user cache directory
(``$EXECRETRIEVAL_CACHE_DIR`` if set), keyed by the model's identity and the SHA-256 of the
exact text encoded, so a re-run encodes nothing it has seen. Sentence-transformers models
are loaded from local folders only, with ``HF_HUB_OFFLINE=1``: nothing is ever downloaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputFormatError, ModelNotFoundError, RetrieverError
from ..fileio import atomic_write_bytes
from . import catalog, ranking
from ._dense import EmbeddingCache, SentenceTransformerEncoder, minilm_model_path

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..hooks import Progress, ShouldStop

__all__ = [
    "DenseRetriever",
    "EmbeddingCache",
    "EmbeddingSet",
    "MiniLMRetriever",
    "NpzRetriever",
    "SentenceTransformerEncoder",
    "embed_benchmark",
    "encode_benchmark",
    "from_npz",
    "minilm_model_path",
    "text_sha",
    "to_npz",
]


def text_sha(text: str) -> str:
    """First 16 hex digits of the SHA-256 of a text (row identity in .npz files)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True, eq=False)
class EmbeddingSet:
    """Query and corpus vectors of one model for one benchmark, rows named by id."""

    query_ids: tuple[str, ...]
    corpus_ids: tuple[str, ...]
    queries: np.ndarray
    corpus: np.ndarray
    metadata: Mapping[str, Any] = field(default_factory=dict)
    query_sha: tuple[str, ...] | None = None
    corpus_sha: tuple[str, ...] | None = None

    def mismatch(self, benchmark: Benchmark) -> str | None:
        """Why these vectors cannot score ``benchmark`` (missing or stale rows), or None."""
        qrow = {qid: i for i, qid in enumerate(self.query_ids)}
        crow = {cid: i for i, cid in enumerate(self.corpus_ids)}
        missing_q = [q.query_id for q in benchmark.queries if q.query_id not in qrow]
        missing_c = [s.corpus_id for s in benchmark.corpus if s.corpus_id not in crow]
        if missing_q or missing_c:
            return (f"no vectors for {len(missing_q)} queries and {len(missing_c)} snippets "
                    f"(e.g. {(missing_q + missing_c)[0]})")
        stale = 0
        if self.query_sha is not None:
            stale += sum(self.query_sha[qrow[q.query_id]] != text_sha(q.query)
                         for q in benchmark.queries)
        if self.corpus_sha is not None:
            stale += sum(self.corpus_sha[crow[s.corpus_id]] != text_sha(s.code)
                         for s in benchmark.corpus)
        if stale:
            return f"{stale} rows were embedded from a different text (stale)"
        return None

    def scores_for(self, benchmark: Benchmark) -> np.ndarray:
        """Score matrix (queries x corpus) of the benchmark, rows matched by id."""
        return ranking.stack_blocks(
            self.score_blocks(benchmark, rows=max(1, len(benchmark.queries))),
            len(benchmark.queries), len(benchmark.corpus))

    def score_blocks(self, benchmark: Benchmark, *, rows: int) -> Iterator[np.ndarray]:
        """The score matrix ``rows`` queries at a time (float64; the vectors are float32,
        their products are summed in float64 so no two distinct scores merge into a tie).
        The corpus vectors are converted once (N x d float64); no Q x N matrix is held."""
        reason = self.mismatch(benchmark)
        if reason is not None:
            raise RetrieverError(reason)
        qrow = {qid: i for i, qid in enumerate(self.query_ids)}
        crow = {cid: i for i, cid in enumerate(self.corpus_ids)}
        q = self.queries[[qrow[x.query_id] for x in benchmark.queries]].astype(np.float64)
        c = self.corpus[[crow[x.corpus_id] for x in benchmark.corpus]].astype(np.float64)
        if self.metadata.get("similarity", "dot") == "cosine":
            q /= np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-12)
            c /= np.maximum(np.linalg.norm(c, axis=1, keepdims=True), 1e-12)
        for start in range(0, q.shape[0], max(1, rows)):
            yield np.asarray(q[start:start + rows] @ c.T, dtype=np.float64)


def to_npz(path: str | Path, embeddings: EmbeddingSet) -> None:
    """Write an embedding file atomically (compressed; no pickled objects)."""
    arrays: dict[str, np.ndarray] = {
        "query_ids": np.array(embeddings.query_ids, dtype=str),
        "corpus_ids": np.array(embeddings.corpus_ids, dtype=str),
        "queries": np.asarray(embeddings.queries, dtype=np.float32),
        "corpus": np.asarray(embeddings.corpus, dtype=np.float32),
        "metadata": np.array(json.dumps(dict(embeddings.metadata), sort_keys=True)),
    }
    if embeddings.query_sha is not None:
        arrays["query_sha"] = np.array(embeddings.query_sha, dtype=str)
    if embeddings.corpus_sha is not None:
        arrays["corpus_sha"] = np.array(embeddings.corpus_sha, dtype=str)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    atomic_write_bytes(path, buffer.getvalue())
    # Shipped data: world-readable like the rest of the folder, not 0600 like a temp file.
    with contextlib.suppress(OSError):
        os.chmod(path, 0o644)


def from_npz(path: str | Path) -> EmbeddingSet:
    """Read an embedding file; InputFormatError names the file and the bad field."""
    path = Path(path)
    if not path.is_file():
        raise ModelNotFoundError(f"{path}: embedding file not found")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise InputFormatError(f"not a readable .npz file ({exc})", file=path) from exc
    for key in ("query_ids", "corpus_ids", "queries", "corpus"):
        if key not in arrays:
            raise InputFormatError("missing", file=path, field=key)
    queries, corpus = arrays["queries"], arrays["corpus"]
    for key, matrix, ids_key in (("queries", queries, "query_ids"),
                                 ("corpus", corpus, "corpus_ids")):
        ids = arrays[ids_key]
        if matrix.ndim != 2 or not np.issubdtype(matrix.dtype, np.floating):
            raise InputFormatError(f"expected a 2-D float matrix, got {matrix.dtype} "
                                   f"{matrix.shape}", file=path, field=key)
        if ids.ndim != 1:
            raise InputFormatError(f"expected a 1-D array of ids, got shape {ids.shape}",
                                   file=path, field=ids_key)
        if len(ids) != matrix.shape[0]:
            raise InputFormatError(f"{len(ids)} ids for {matrix.shape[0]} rows", file=path,
                                   field=key)
        if not np.isfinite(matrix).all():
            raise InputFormatError("contains NaN or infinite values", file=path, field=key)
    if queries.shape[1] != corpus.shape[1]:
        raise InputFormatError(f"query dimension {queries.shape[1]} differs from corpus "
                               f"dimension {corpus.shape[1]}", file=path, field="corpus")
    metadata: dict[str, Any] = {}
    if "metadata" in arrays:
        try:
            metadata = json.loads(str(arrays["metadata"]))
        except json.JSONDecodeError as exc:
            raise InputFormatError(f"invalid JSON: {exc.msg}", file=path,
                                   field="metadata") from exc
        if not isinstance(metadata, dict):
            raise InputFormatError("expected a JSON object", file=path, field="metadata")

    def sha(key: str, rows: int) -> tuple[str, ...] | None:
        if key not in arrays:
            return None
        hashes = arrays[key]
        if hashes.ndim != 1 or len(hashes) != rows:
            raise InputFormatError(f"expected {rows} text hashes, got shape {hashes.shape}",
                                   file=path, field=key)
        return tuple(str(x) for x in hashes)

    return EmbeddingSet(
        query_ids=tuple(str(x) for x in arrays["query_ids"]),
        corpus_ids=tuple(str(x) for x in arrays["corpus_ids"]),
        queries=queries, corpus=corpus, metadata=MappingProxyType(metadata),
        query_sha=sha("query_sha", len(queries)), corpus_sha=sha("corpus_sha", len(corpus)),
    )


def encode_benchmark(
    benchmark: Benchmark,
    encoder: SentenceTransformerEncoder,
    *,
    cache: EmbeddingCache | None = None,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
) -> EmbeddingSet:
    """Encode every query and snippet (``prefix + text``), reusing cached vectors."""
    texts = ([encoder.query_prefix + q.query for q in benchmark.queries]
             + [encoder.passage_prefix + s.code for s in benchmark.corpus])
    cache = cache if cache is not None else EmbeddingCache.default()
    vectors = cache.encode(encoder, texts, progress=progress, should_stop=should_stop)
    nq = len(benchmark.queries)
    return EmbeddingSet(
        query_ids=tuple(q.query_id for q in benchmark.queries),
        corpus_ids=tuple(s.corpus_id for s in benchmark.corpus),
        queries=vectors[:nq], corpus=vectors[nq:],
        metadata=MappingProxyType(encoder.metadata()),
        query_sha=tuple(text_sha(q.query) for q in benchmark.queries),
        corpus_sha=tuple(text_sha(s.code) for s in benchmark.corpus),
    )


def embed_benchmark(
    benchmark: Benchmark,
    model: str = "minilm",
    *,
    out: str | Path | None = None,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    **options: Any,
) -> Path:
    """Encode a benchmark and write ``<folder>/embeddings/<name>.npz`` (or ``out``)."""
    if model == "minilm":
        encoder = SentenceTransformerEncoder.minilm(**options)
    else:
        encoder = SentenceTransformerEncoder(Path(model), **options)
    if out is None:
        if benchmark.path is None:
            raise RetrieverError("the benchmark has no folder; pass out=")
        out = Path(benchmark.path) / "embeddings" / f"{encoder.name}.npz"
    embeddings = encode_benchmark(benchmark, encoder, progress=progress,
                                  should_stop=should_stop)
    to_npz(out, embeddings)
    return Path(out)


class _EmbeddingRetriever:
    """Scores from an :class:`EmbeddingSet` the subclass finds or computes."""

    name: str

    def embeddings(self, benchmark: Benchmark, progress: Progress | None,
                   should_stop: ShouldStop | None) -> EmbeddingSet:
        raise NotImplementedError

    def score(self, benchmark: Benchmark, *, progress: Progress | None = None,
              should_stop: ShouldStop | None = None) -> np.ndarray:
        """The whole score matrix (queries x corpus), float64."""
        return self.embeddings(benchmark, progress, should_stop).scores_for(benchmark)

    def score_blocks(self, benchmark: Benchmark, *, rows: int,
                     progress: Progress | None = None,
                     should_stop: ShouldStop | None = None) -> Iterator[np.ndarray]:
        """The score matrix ``rows`` queries at a time."""
        return self.embeddings(benchmark, progress, should_stop).score_blocks(benchmark,
                                                                              rows=rows)


@dataclass(frozen=True)
class NpzRetriever(_EmbeddingRetriever):
    """Scores from a precomputed embedding file."""

    path: Path
    name: str

    def embeddings(self, benchmark: Benchmark, progress: Progress | None,
                   should_stop: ShouldStop | None) -> EmbeddingSet:
        if progress:
            progress(0, 1)
        embeddings = from_npz(self.path)
        reason = embeddings.mismatch(benchmark)
        if reason is not None:
            raise RetrieverError(f"{self.path}: does not match benchmark {benchmark.name}: "
                                 f"{reason}")
        if progress:
            progress(1, 1)
        return embeddings


@dataclass(frozen=True)
class DenseRetriever(_EmbeddingRetriever):
    """A local sentence-transformers model folder, encoded on the fly (``dense`` extra)."""

    path: Path
    name: str
    query_prefix: str | None = None
    passage_prefix: str | None = None
    normalize: bool = True

    def encoder(self) -> SentenceTransformerEncoder:
        return SentenceTransformerEncoder(self.path, name=self.name,
                                          query_prefix=self.query_prefix,
                                          passage_prefix=self.passage_prefix,
                                          normalize=self.normalize)

    def embeddings(self, benchmark: Benchmark, progress: Progress | None,
                   should_stop: ShouldStop | None) -> EmbeddingSet:
        return encode_benchmark(benchmark, self.encoder(), progress=progress,
                                should_stop=should_stop)


@dataclass(frozen=True)
class MiniLMRetriever(_EmbeddingRetriever):
    """all-MiniLM-L6-v2: the shipped ``embeddings/minilm.npz`` if it matches, else encoded."""

    name: str = "minilm"
    query_prefix: str | None = None
    passage_prefix: str | None = None
    normalize: bool = True

    def embeddings(self, benchmark: Benchmark, progress: Progress | None,
                   should_stop: ShouldStop | None) -> EmbeddingSet:
        reason = "the benchmark has no folder"
        custom = self.query_prefix or self.passage_prefix or not self.normalize
        if benchmark.path is not None and not custom:
            shipped = Path(benchmark.path) / "embeddings" / "minilm.npz"
            reason = f"{shipped} does not exist"
            if shipped.is_file():
                embeddings = from_npz(shipped)
                mismatch = embeddings.mismatch(benchmark)
                if mismatch is None:
                    if progress:
                        progress(1, 1)
                    return embeddings
                reason = f"{shipped} does not match the benchmark: {mismatch}"
        if not catalog.dense_extra_installed():
            raise ModelNotFoundError(
                f"minilm: {reason}, and the dense extra (torch, sentence-transformers) is not "
                "installed to encode it. Install it with pip install "
                "'execretrieval-inspector[dense]', or run 'execretrieval embed DIR --model "
                "minilm' where it is installed.")
        encoder = SentenceTransformerEncoder.minilm(
            query_prefix=self.query_prefix, passage_prefix=self.passage_prefix,
            normalize=self.normalize)
        return encode_benchmark(benchmark, encoder, progress=progress,
                                should_stop=should_stop)
