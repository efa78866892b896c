"""A dependency-light lexical baseline: TF-IDF vectors compared by cosine.

Texts are tokenised with :func:`execretrieval.ranking.bm25.tokenize`. Over the corpus of
N snippets::

    idf(t)     = ln((1 + N) / (1 + df(t))) + 1          (smoothed, never zero)
    w(t, x)    = (1 + ln tf(t, x)) * idf(t)             (sublinear term frequency)
    score(q,d) = cos(w(., q), w(., d))                  (0 when either vector is empty)

Query tokens that never occur in the corpus are dropped. Only numpy and scipy are needed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .bm25 import _Vocabulary, count_matrix, tokenize
from .ranking import stack_blocks

if TYPE_CHECKING:
    from scipy import sparse

__all__ = ["TfidfIndex", "tfidf_scores"]


def _l2_normalise(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    from scipy import sparse  # here: importing the retrievers does not load scipy

    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return sparse.csr_matrix(sparse.diags(1.0 / norms) @ matrix)


class TfidfIndex:
    """TF-IDF index over tokenised documents; :meth:`scores` gives cosine similarities."""

    def __init__(self, corpus: Sequence[Sequence[str]]) -> None:
        if not corpus:
            raise ValueError("TF-IDF needs at least one document")
        self._vocab = _Vocabulary()
        tf = count_matrix(corpus, self._vocab, grow=True)
        n_docs = tf.shape[0]
        df = np.bincount(tf.indices, minlength=tf.shape[1]).astype(np.float64)
        self.idf = np.log((1.0 + n_docs) / (1.0 + df)) + 1.0
        self._docs = self._weigh(tf)

    def _weigh(self, counts: sparse.csr_matrix) -> sparse.csr_matrix:
        weighted = counts.copy()
        weighted.data = (1.0 + np.log(weighted.data)) * self.idf[weighted.indices]
        return _l2_normalise(weighted)

    def scores(self, queries: Sequence[Sequence[str]]) -> np.ndarray:
        """Cosine matrix (queries x documents), float64."""
        return stack_blocks(self.blocks(queries, rows=max(1, len(queries))), len(queries),
                            self._docs.shape[0])

    def blocks(self, queries: Sequence[Sequence[str]], *, rows: int = 64
               ) -> Iterator[np.ndarray]:
        """The cosine matrix ``rows`` queries at a time (float64)."""
        weighted = self._weigh(count_matrix(queries, self._vocab, grow=False))
        for start in range(0, weighted.shape[0], max(1, rows)):
            product = weighted[start:start + rows] @ self._docs.T
            yield np.asarray(product.toarray(), dtype=np.float64)


def tfidf_scores(queries: Sequence[str], documents: Sequence[str]) -> np.ndarray:
    """TF-IDF cosine scores (queries x documents) of raw texts."""
    index = TfidfIndex([tokenize(d) for d in documents])
    return index.scores([tokenize(q) for q in queries])
