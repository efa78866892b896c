"""Blocked scoring and sorting (bounded memory at pool scale) give exactly the unblocked
results: checked against numpy's own stable argsort and a one-block BM25."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from execretrieval.ranking.bm25 import BM25, tokenize
from execretrieval.ranking.ranking import order_from_scores


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 9), cols=st.integers(1, 12), block=st.integers(1, 5),
       seed=st.integers(0, 10_000))
def test_blocked_order_equals_one_stable_argsort(rows: int, cols: int, block: int,
                                                 seed: int) -> None:
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 4, size=(rows, cols)).astype(np.float64)  # many ties
    scores[rng.random((rows, cols)) < 0.1] = np.nan
    expected = np.argsort(-np.where(np.isnan(scores), -np.inf, scores), axis=1,
                          kind="stable")
    got = order_from_scores(scores, block_rows=block)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, expected)


def test_blocked_bm25_equals_one_block() -> None:
    docs = [tokenize(t) for t in ("def f(x): return x + 1", "def g(a, b): return a * b",
                                  "class K: pass", "def lowest_set_bit(n): return n & -n",
                                  "def add(a, b): return a + b")]
    queries = [tokenize(q) for q in ("add two numbers", "lowest set bit", "return x",
                                     "nothing matches zzz", "a b")]
    index = BM25(docs)
    whole = index.scores(queries, block_rows=len(queries))
    for block in (1, 2, 3):
        np.testing.assert_array_equal(index.scores(queries, block_rows=block), whole)
    assert whole[3].tolist() == [0.0] * len(docs)
