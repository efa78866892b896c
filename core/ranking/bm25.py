"""Lexical retrieval: the code tokeniser and a vectorised BM25Okapi.

The tokeniser (shared with :mod:`execretrieval.ranking.tfidf`) is made for code and prose alike:

1. split the text at every character that is not a letter or a digit (so ``snake_case``
   identifiers, operators, brackets and whitespace all separate tokens);
2. split each run again at camelCase boundaries (``lowestSetBit`` -> ``lowest Set Bit``,
   ``HTTPServer`` -> ``HTTP Server``) and between letters and digits (``x2`` -> ``x 2``);
3. lower-case every piece.

``"def lowest_set_bit(n): return n & -n"`` becomes
``['def', 'lowest', 'set', 'bit', 'n', 'return', 'n', 'n']``.

BM25Okapi (k1 = 1.5, b = 0.75, epsilon = 0.25, as in the paper and in ``rank_bm25``)::

    idf(t)      = ln(N - df(t) + 0.5) - ln(df(t) + 0.5)
                  (negative values replaced by epsilon * mean idf over the vocabulary)
    score(q, d) = sum over query tokens t (with repetition) of
                  idf(t) * tf(t, d) * (k1 + 1) / (tf(t, d) + k1 * (1 - b + b * |d| / avgdl))

Query tokens absent from the corpus contribute 0. The scores equal
``rank_bm25.BM25Okapi(tokenised_corpus).get_scores(tokenised_query)`` up to floating-point
summation order (the tests check <= 1e-9), but all queries are scored in one sparse matrix
product instead of a Python loop per query and term.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .ranking import stack_blocks

if TYPE_CHECKING:
    from scipy import sparse

__all__ = ["BM25", "bm25_scores", "tokenize"]

_WORD = re.compile(r"[A-Za-z0-9]+")
_PIECE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def tokenize(text: str) -> list[str]:
    """Split code or prose into lower-case word pieces (see the module docstring)."""
    tokens: list[str] = []
    for word in _WORD.findall(text):
        if (word.isalpha() and word.islower()) or word.isdigit():
            tokens.append(word)
            continue
        tokens.extend(piece.lower() for piece in _PIECE.findall(word))
    return tokens


class _Vocabulary:
    """Token -> column index, grown while the corpus is read."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def add(self, token: str) -> int:
        col = self.index.get(token)
        if col is None:
            col = self.index[token] = len(self.index)
        return col


def count_matrix(
    documents: Sequence[Sequence[str]], vocab: _Vocabulary, *, grow: bool
) -> sparse.csr_matrix:
    """Term-count matrix (documents x vocabulary); unknown tokens are dropped if not ``grow``."""
    from scipy import sparse  # here: a dense ranking (or the GUI's start) never needs scipy

    indptr = [0]
    indices: list[int] = []
    data: list[float] = []
    for tokens in documents:
        counts = Counter(tokens)
        for token, n in counts.items():
            col = vocab.add(token) if grow else vocab.index.get(token)
            if col is not None:
                indices.append(col)
                data.append(float(n))
        indptr.append(len(indices))
    shape = (len(documents), len(vocab.index))
    matrix = sparse.csr_matrix(
        (np.asarray(data, dtype=np.float64), np.asarray(indices, dtype=np.int64),
         np.asarray(indptr, dtype=np.int64)),
        shape=shape,
    )
    matrix.sort_indices()
    return matrix


class BM25:
    """A BM25Okapi index over tokenised documents; :meth:`scores` ranks tokenised queries."""

    def __init__(
        self,
        corpus: Sequence[Sequence[str]],
        *,
        k1: float = 1.5,
        b: float = 0.75,
        epsilon: float = 0.25,
    ) -> None:
        if not corpus:
            raise ValueError("BM25 needs at least one document")
        self.k1, self.b, self.epsilon = k1, b, epsilon
        self._vocab = _Vocabulary()
        tf = count_matrix(corpus, self._vocab, grow=True)
        n_docs = tf.shape[0]
        doc_len = np.array([len(d) for d in corpus], dtype=np.float64)
        avgdl = doc_len.sum() / n_docs
        df = np.bincount(tf.indices, minlength=tf.shape[1]).astype(np.float64)
        idf = np.log(n_docs - df + 0.5) - np.log(df + 0.5)
        if idf.size:
            # rank_bm25 averages before flooring, over the vocabulary in insertion order.
            average = math.fsum(idf.tolist()) / idf.size
            idf = np.where(idf < 0, epsilon * average, idf)
        self.idf = idf
        # Per-document BM25 weight of every (document, term) entry, idf included.
        norm = k1 * (1 - b + b * doc_len / avgdl) if avgdl > 0 else np.full(n_docs, k1 * (1 - b))
        rows = np.repeat(np.arange(n_docs), np.diff(tf.indptr))
        counts = tf.data
        weights = idf[tf.indices] * (counts * (k1 + 1) / (counts + norm[rows]))
        from scipy import sparse

        self._weights = sparse.csr_matrix((weights, tf.indices, tf.indptr), shape=tf.shape)
        self._weights_t = self._weights.T.tocsr()

    @property
    def vocabulary_size(self) -> int:
        return len(self._vocab.index)

    def scores(self, queries: Sequence[Sequence[str]], *,
               block_rows: int = 64) -> np.ndarray:
        """Score matrix (queries x documents), float64; row i scores ``queries[i]``."""
        return stack_blocks(self.blocks(queries, rows=block_rows), len(queries),
                            self._weights_t.shape[1])

    def blocks(self, queries: Sequence[Sequence[str]], *, rows: int = 64
               ) -> Iterator[np.ndarray]:
        """The score matrix ``rows`` queries at a time (float64): the sparse product of a
        block of query term counts with the sparse document weights, densified one block at
        a time, so neither a dense nor a sparse copy of the whole matrix ever exists."""
        counts = count_matrix(queries, self._vocab, grow=False)
        for start in range(0, counts.shape[0], max(1, rows)):
            product = counts[start:start + rows] @ self._weights_t
            yield np.asarray(product.toarray(), dtype=np.float64)


def bm25_scores(
    queries: Sequence[str], documents: Sequence[str], *, k1: float = 1.5, b: float = 0.75
) -> np.ndarray:
    """BM25Okapi scores (queries x documents) of raw texts, tokenised with :func:`tokenize`."""
    index = BM25([tokenize(d) for d in documents], k1=k1, b=b)
    return index.scores([tokenize(q) for q in queries])
