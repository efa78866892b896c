"""Retrieval: the Ranking type and retriever protocol, BM25, TF-IDF, dense models, .npz
embeddings and TREC runs, and the model registry. May import base and benchmark.
"""

from __future__ import annotations

from .blindspots import BlindSpots, blind_spots
from .bm25 import BM25, bm25_scores, tokenize
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
from .ranking import RUN_SUFFIXES, Ranking, Retriever, dense_extra_installed, order_from_scores
from .registry import available_models, get_retriever, model_label, rank, register_retriever
from .tfidf import TfidfIndex, tfidf_scores
from .trec import RunFileRetriever, from_qrels, from_run, qrels_text, run_text, to_qrels, to_run

__all__ = [
    "BlindSpots",
    "blind_spots",
    "RUN_SUFFIXES",
    "Ranking",
    "Retriever",
    "dense_extra_installed",
    "order_from_scores",
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
    "run_text",
    "to_qrels",
    "to_run",
    "available_models",
    "get_retriever",
    "model_label",
    "rank",
    "register_retriever",
]
