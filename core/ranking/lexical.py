"""The built-in lexical retrievers (``bm25``, ``tfidf``) as streaming retrievers."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import CancelledError, RetrieverError
from ..hooks import Progress, ShouldStop
from .bm25 import BM25, tokenize
from .ranking import StreamingRetriever
from .tfidf import TfidfIndex

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["LexicalRetriever", "check_stop", "reporting"]


@dataclass(frozen=True)
class LexicalRetriever(StreamingRetriever):
    name: str

    def score_blocks(self, benchmark: Benchmark, *, rows: int,
                     progress: Progress | None = None,
                     should_stop: ShouldStop | None = None) -> Iterator[np.ndarray]:
        """The score matrix ``rows`` queries at a time (a sparse index, dense blocks)."""
        check_stop(should_stop)
        if not benchmark.corpus:
            raise RetrieverError(f"{self.name}: the benchmark has no snippets")
        documents = [tokenize(s.code) for s in benchmark.corpus]
        index = BM25(documents) if self.name == "bm25" else TfidfIndex(documents)
        queries = [tokenize(q.query) for q in benchmark.queries]
        return reporting(index.blocks(queries, rows=rows), len(queries), progress)


def reporting(blocks: Iterator[np.ndarray], total: int, progress: Progress | None
              ) -> Iterator[np.ndarray]:
    """``blocks`` with progress (queries scored) after each."""
    done = 0
    if progress:
        progress(0, total)
    for block in blocks:
        yield block
        done += len(block)
        if progress:
            progress(done, total)


def check_stop(should_stop: ShouldStop | None) -> None:
    """Raise CancelledError if ``should_stop()`` says so."""
    if should_stop is not None and should_stop():
        raise CancelledError("ranking cancelled")
