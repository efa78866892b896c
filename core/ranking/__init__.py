"""Retrieval: the Ranking type and retriever protocol, BM25, TF-IDF, dense models, .npz
embeddings, served models (OpenAI-compatible APIs) and TREC runs, and the model registry.
May import base and benchmark.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:   # the names load on first use (PEP 562): importing the package is cheap
    from .api_client import ApiSettings, EmbeddingClient, parse_retry_after, public_url
    from .api_embed import (
        PRESETS,
        ApiEmbedResult,
        embed_benchmark_api,
        encode_benchmark_api,
        preset_prefixes,
        safe_model_name,
    )
    from .blindspots import BlindSpots, blind_spots
    from .bm25 import BM25, bm25_scores, tokenize
    from .catalog import dense_extra_installed
    from .embeddings import (
        DenseRetriever,
        EmbeddingCache,
        EmbeddingSet,
        MiniLMRetriever,
        NpzRetriever,
        SentenceTransformerEncoder,
        embed_benchmark,
        encode_benchmark,
        from_npz,
        minilm_model_path,
        text_sha,
        to_npz,
    )
    from .ranking import (
        DEFAULT_KEEP,
        RUN_SUFFIXES,
        Lookup,
        OwnGroups,
        Ranking,
        RankingBuilder,
        Retriever,
        build_ranking,
        own_groups,
    )
    from .registry import (
        available_models,
        get_retriever,
        model_label,
        rank,
        register_retriever,
        score_blocks,
    )
    from .tfidf import TfidfIndex, tfidf_scores
    from .trec import (
        RunFileRetriever,
        from_qrels,
        from_run,
        qrels_text,
        read_run,
        run_text,
        to_qrels,
        to_run,
    )

# Where each public name lives: module (relative to this package) -> names.
_EXPORTS: dict[str, tuple[str, ...]] = {
    ".api_client": ("ApiSettings", "EmbeddingClient", "parse_retry_after", "public_url"),
    ".api_embed": (
        "PRESETS", "ApiEmbedResult", "embed_benchmark_api", "encode_benchmark_api",
        "preset_prefixes", "safe_model_name",
    ),
    ".blindspots": ("BlindSpots", "blind_spots"),
    ".bm25": ("BM25", "bm25_scores", "tokenize"),
    ".embeddings": (
        "DenseRetriever", "EmbeddingCache", "EmbeddingSet", "MiniLMRetriever", "NpzRetriever",
        "SentenceTransformerEncoder", "embed_benchmark", "encode_benchmark", "from_npz",
        "minilm_model_path", "text_sha", "to_npz",
    ),
    ".ranking": (
        "DEFAULT_KEEP", "RUN_SUFFIXES", "Lookup", "OwnGroups", "Ranking", "RankingBuilder",
        "Retriever", "build_ranking", "own_groups",
    ),
    ".catalog": ("dense_extra_installed",),
    ".registry": (
        "available_models", "get_retriever", "model_label", "rank", "register_retriever",
        "score_blocks",
    ),
    ".tfidf": ("TfidfIndex", "tfidf_scores"),
    ".trec": (
        "RunFileRetriever", "from_qrels", "from_run", "qrels_text", "read_run", "run_text",
        "to_qrels", "to_run",
    ),
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), submodules=True)


__all__ = [
    "PRESETS",
    "ApiEmbedResult",
    "ApiSettings",
    "EmbeddingClient",
    "embed_benchmark_api",
    "encode_benchmark_api",
    "parse_retry_after",
    "preset_prefixes",
    "public_url",
    "safe_model_name",
    "BlindSpots",
    "blind_spots",
    "RUN_SUFFIXES",
    "Ranking",
    "Retriever",
    "dense_extra_installed",
    "DEFAULT_KEEP",
    "Lookup",
    "OwnGroups",
    "RankingBuilder",
    "build_ranking",
    "own_groups",
    "BM25",
    "bm25_scores",
    "tokenize",
    "TfidfIndex",
    "tfidf_scores",
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
    "RunFileRetriever",
    "from_qrels",
    "from_run",
    "qrels_text",
    "read_run",
    "run_text",
    "to_qrels",
    "to_run",
    "available_models",
    "get_retriever",
    "model_label",
    "rank",
    "register_retriever",
    "score_blocks",
]
