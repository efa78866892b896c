"""A ranking: one model's score matrix and the order it implies; the retriever protocol.

The lowest layer of :mod:`execretrieval.ranking`: every retriever and every consumer of
rankings (metrics, analyses, reports, the GUI) shares these types.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..errors import RetrieverError
from ..hooks import Progress, ShouldStop

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["RUN_SUFFIXES", "Ranking", "Retriever", "dense_extra_installed", "order_from_scores"]

RUN_SUFFIXES = (".trec", ".run", ".txt")


def order_from_scores(scores: np.ndarray, *, block_rows: int = 128) -> np.ndarray:
    """Corpus indices of each row, best score first, ties in corpus order (int32).

    ``order[q] = stable_argsort(-scores[q])``; NaN is treated as -inf. Rows are sorted in
    blocks, so the temporary keys and int64 indices of a large corpus (a background pool)
    take ``block_rows`` rows of memory, not a second and third copy of the whole matrix.
    """
    matrix = np.asarray(scores, dtype=np.float64)
    if matrix.ndim != 2:
        raise ValueError(f"expected a 2-D score matrix, got {matrix.ndim}-D")
    out = np.empty(matrix.shape, dtype=np.int32)
    for start in range(0, matrix.shape[0], max(1, block_rows)):
        block = matrix[start:start + block_rows]
        keys = -np.where(np.isnan(block), -np.inf, block)
        out[start:start + block_rows] = np.argsort(keys, axis=1, kind="stable")
    return out


@dataclass(frozen=True, eq=False)
class Ranking:
    """One model's scores for every (query, snippet) pair and the ranking they imply.

    ``scores[q, j]`` is the score of ``corpus[j]`` for ``queries[q]``; ``order[q]`` lists
    corpus indices best first, ties broken by corpus order.
    """

    model: str
    scores: np.ndarray
    order: np.ndarray
    source: str = ""   # the model name or path it was ranked with ("" if unknown)

    @classmethod
    def from_scores(cls, model: str, scores: np.ndarray, source: str = "") -> Ranking:
        """The ranking implied by a score matrix (copied, made read-only)."""
        matrix = np.array(scores, dtype=np.float64, copy=True)
        if matrix.ndim != 2:
            raise RetrieverError(f"{model}: expected a 2-D score matrix, got {matrix.ndim}-D")
        order = order_from_scores(matrix)
        matrix.flags.writeable = False
        order.flags.writeable = False
        return cls(model=model, scores=matrix, order=order, source=source)

    @property
    def shape(self) -> tuple[int, int]:
        """(queries, snippets)."""
        return (int(self.scores.shape[0]), int(self.scores.shape[1]))

    @cached_property
    def retrieved(self) -> np.ndarray:
        """(Q x N) bool: did the model retrieve each snippet for each query at all?

        Every snippet an in-process model scores is retrieved; a TREC run retrieves only the
        snippets it lists (the others score -inf and fill the tail of ``order`` in corpus
        order). Unretrieved snippets never count as hits (trec_eval semantics): they are
        not executed, not relevant, and not anybody's rank-1 candidate.
        """
        out = np.asarray(self.scores > -np.inf)  # NaN compares False too
        out.flags.writeable = False
        return out

    @cached_property
    def ranks(self) -> np.ndarray:
        """1-based rank of every snippet for every query: ``ranks[q, order[q, r]] = r + 1``."""
        q, n = self.order.shape
        out = np.empty((q, n), dtype=np.int32)
        np.put_along_axis(out, self.order.astype(np.intp),
                          np.broadcast_to(np.arange(1, n + 1, dtype=np.int32), (q, n)), axis=1)
        out.flags.writeable = False
        return out

    def top(self, query_index: int, k: int) -> np.ndarray:
        """Corpus indices of the ``k`` best snippets for a query, best first."""
        return self.order[query_index, : max(0, int(k))]

    def rank_of(self, query_index: int, corpus_index: int) -> int:
        """1-based rank of a snippet in a query's ranking."""
        return int(self.ranks[query_index, corpus_index])


class Retriever(Protocol):
    """Anything that scores every snippet of a benchmark for every query."""

    @property
    def name(self) -> str:
        """The model name rankings are labelled with."""
        ...

    def score(
        self,
        benchmark: Benchmark,
        *,
        progress: Progress | None = None,
        should_stop: ShouldStop | None = None,
    ) -> np.ndarray:
        """Score matrix (queries x corpus), float64."""
        ...


def dense_extra_installed() -> bool:
    """True if torch and sentence-transformers can be imported (without importing them)."""
    return all(importlib.util.find_spec(m) is not None
               for m in ("torch", "sentence_transformers"))


