"""BM25 and TF-IDF: the tokeniser, parity with rank_bm25, and the cosine baseline."""

from __future__ import annotations

import numpy as np
import pytest
from _rankdata import code_like_texts
from hypothesis import given, settings
from hypothesis import strategies as st

from execretrieval.ranking.bm25 import BM25, bm25_scores, tokenize
from execretrieval.ranking.tfidf import tfidf_scores

rank_bm25 = pytest.importorskip("rank_bm25")


def reference_scores(queries: list[str], documents: list[str]) -> np.ndarray:
    index = rank_bm25.BM25Okapi([tokenize(d) for d in documents])
    return np.array([index.get_scores(tokenize(q)) for q in queries])


def test_tokenizer_splits_code_identifiers_and_lowercases() -> None:
    assert tokenize("def lowest_set_bit(n): return n & -n") == [
        "def", "lowest", "set", "bit", "n", "return", "n", "n"]
    assert tokenize("lowestSetBit HTTPServer x2 IS_LEAP") == [
        "lowest", "set", "bit", "http", "server", "x", "2", "is", "leap"]
    assert tokenize("  ,;() ") == []


def test_scores_equal_rank_bm25_on_code_like_corpus() -> None:
    documents = code_like_texts(300, seed=1)
    queries = code_like_texts(40, seed=2, words=8) + ["unknown words only", "def def def"]
    ours = bm25_scores(queries, documents)
    assert ours.shape == (len(queries), len(documents))
    assert np.abs(ours - reference_scores(queries, documents)).max() <= 1e-9


def test_common_words_get_the_epsilon_idf_floor_like_rank_bm25() -> None:
    documents = ["a b", "a c", "a d", "e"]  # 'a' is in 3 of 4 documents: negative idf
    ours = bm25_scores(["a", "a e"], documents)
    assert np.abs(ours - reference_scores(["a", "a e"], documents)).max() <= 1e-12
    assert (ours[0, :3] > 0).all()


def test_unknown_query_terms_score_zero() -> None:
    assert not bm25_scores(["zzz qqq"], ["a b", "c d"]).any()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from("abcdefgh"), min_size=0, max_size=12),
                min_size=1, max_size=15),
       st.lists(st.sampled_from("abcdefghxy"), min_size=0, max_size=6))
def test_parity_with_rank_bm25_on_random_corpora(docs: list[list[str]], query: list[str]) -> None:
    if not any(docs):
        return  # rank_bm25 divides by a zero average length
    ours = BM25(docs).scores([query])[0]
    theirs = rank_bm25.BM25Okapi(docs).get_scores(query)
    assert np.abs(ours - theirs).max() <= 1e-9


def test_tfidf_is_a_cosine_in_unit_range() -> None:
    documents = ["def add(a, b): return a + b", "def sub(a, b): return a - b", "x"]
    scores = tfidf_scores(["add two numbers a b", "nothing matches", documents[0]], documents)
    assert scores.shape == (3, 3)
    assert ((scores >= 0) & (scores <= 1 + 1e-12)).all()
    assert scores[0].argmax() == 0
    assert not scores[1].any()
    assert scores[2, 0] == pytest.approx(1.0)
