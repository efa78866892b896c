"""A bounded ranking (top ``keep`` per query, the tie group at the cut, the query's own
snippets anywhere) gives exactly what the whole score matrix gives: checked against a
brute-force stable sort of every row, and by measuring the same scores kept whole and kept
to the cut, under every tie policy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from execretrieval import Benchmark, Query, Snippet
from execretrieval.cli import entry as cli
from execretrieval.measure.metrics import evaluate
from execretrieval.measure.ties import needed_depth
from execretrieval.ranking.bm25 import BM25, tokenize
from execretrieval.ranking.ranking import OwnGroups, Ranking, RankingBuilder, own_groups


def _brute(row: np.ndarray) -> np.ndarray:
    keys = np.where(np.isnan(row), -np.inf, row)
    return np.argsort(-keys, kind="stable"), keys


@settings(max_examples=150, deadline=None)
@given(rows=st.integers(1, 7), cols=st.integers(1, 30), keep=st.integers(1, 12),
       block=st.integers(1, 4), levels=st.integers(1, 6), seed=st.integers(0, 2**32 - 1))
def test_kept_rows_are_the_stable_sort_to_the_end_of_the_tie_group_at_the_cut(
        rows: int, cols: int, keep: int, block: int, levels: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, levels, size=(rows, cols)).astype(np.float64)   # many ties
    scores[rng.random((rows, cols)) < 0.15] = np.nan
    scores[rng.random((rows, cols)) < 0.1] = -np.inf
    own_idx = np.full((rows, 3), -1, dtype=np.int64)
    for q in range(rows):
        picked = rng.choice(cols, size=min(3, cols), replace=False)
        own_idx[q, :picked.size] = np.sort(picked)
    pairs = np.array([(0, j) for j in range(1, min(cols, 4))], dtype=np.int64).reshape(-1, 2)
    builder = RankingBuilder(rows, cols, keep=keep, own=OwnGroups(own_idx, pairs))
    for start in range(0, rows, block):
        builder.add(scores[start:start + block])
    ranking = builder.finish("m")
    for q in range(rows):
        order, keys = _brute(scores[q])
        finite = int(np.isfinite(keys).sum())
        if keep >= finite:
            length = finite
        else:
            length = int((keys >= keys[order[keep - 1]]).sum())
        assert ranking.order[q, :length].tolist() == order[:length].tolist()
        assert (ranking.order[q, length:] == -1).all()
        assert ranking.keys[q, :length].tolist() == keys[order[:length]].tolist()
        for g, j in enumerate(own_idx[q]):
            if j < 0:
                continue
            assert ranking.own_key[q, g] == keys[j]
            assert ranking.own_above[q, g] == (keys > keys[j]).sum()
            assert ranking.own_at_least[q, g] == (keys >= keys[j]).sum()
            assert ranking.own_rank[q, g] == order.tolist().index(j) + 1
            assert ranking.rank_of(q, int(j)) == order.tolist().index(j) + 1
    keys_all = np.where(np.isnan(scores), -np.inf, scores)
    for (c, d), same in ranking.identical.items():
        assert same == bool((keys_all[:, c] == keys_all[:, d]).all())


def _benchmark(rng: np.random.Generator, n_queries: int, background: int) -> Benchmark:
    queries, corpus = [], []
    for q in range(n_queries):
        queries.append(Query(f"q{q}", "t", f"f{q}", ("geometry", "strings")[q % 2],
                             ("assert 1",), (f"c{q}",)))
        corpus.append(Snippet(f"c{q}", f"q{q}", "canonical", None, "", f"def f{q}(): pass"))
        for d in range(int(rng.integers(0, 5))):
            corpus.append(Snippet(f"c{q}d{d}", f"q{q}", "distractor",
                                  ("off_by_one", "swap_arguments")[d % 2], "",
                                  f"def f{q}(): return {d}"))
    corpus += [Snippet(f"b{i}", "", "background", None, "", f"def g{i}(): pass")
               for i in range(background)]
    order = rng.permutation(len(corpus))          # own snippets anywhere in the file
    return Benchmark(queries, [corpus[i] for i in order])


def _passes(bench: Benchmark, ranking: Ranking, good: np.ndarray, depth: int) -> np.ndarray:
    cols = np.full((ranking.shape[0], depth), -1, dtype=np.int64)
    shown = min(depth, ranking.width)
    cols[:, :shown] = ranking.order[:, :shown]
    out = np.take_along_axis(good, np.maximum(cols, 0), axis=1)
    return out & (cols >= 0)


@pytest.mark.parametrize("seed", range(16))
@pytest.mark.parametrize("ties", ["expected", "optimistic", "pessimistic", "corpus"])
def test_measuring_a_kept_ranking_equals_measuring_the_whole_matrix(seed: int,
                                                                    ties: str) -> None:
    """Every figure and analysis of the report, per query, including the tie ranges."""
    rng = np.random.default_rng(seed)
    bench = _benchmark(rng, n_queries=6, background=int(rng.integers(0, 40)))
    q, n = len(bench.queries), len(bench.corpus)
    scores = rng.integers(0, 4, size=(q, n)).astype(np.float64)
    scores[rng.random((q, n)) < 0.05] = -np.inf
    good = rng.random((q, n)) < 0.3
    for qi in range(q):
        for s in bench.snippets_for(f"q{qi}"):
            good[qi, bench.corpus_index(s.corpus_id)] = s.is_canonical
    ks = (1, 3, 5)
    whole = Ranking.from_scores("m", scores, own=own_groups(bench))
    kept = Ranking.from_scores("m", scores, keep=5, own=own_groups(bench))
    assert kept.truncated or n <= 5
    figures = []
    for ranking in (whole, kept):
        depth = max(5, int(needed_depth(ranking, 5).max()))
        figures.append(evaluate(bench, ranking, _passes(bench, ranking, good, depth), ks=ks,
                                n_boot=50, ties=ties))
    a, b = figures
    assert a.to_dict() == b.to_dict() or _same(a.to_dict(), b.to_dict())
    for name in a.per_query:
        np.testing.assert_array_equal(a.per_query[name], b.per_query[name])
    for name in a.per_query_extra:
        np.testing.assert_array_equal(a.per_query_extra[name], b.per_query_extra[name])


def _same(x: object, y: object) -> bool:
    """Equal, NaN equal to NaN (a dict with NaN is never == itself)."""
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_same(x[k], y[k]) for k in x)
    if isinstance(x, list | tuple) and isinstance(y, list | tuple):
        return len(x) == len(y) and all(_same(u, v) for u, v in zip(x, y, strict=True))
    if isinstance(x, float) and isinstance(y, float) and x != x and y != y:
        return True
    return x == y


def test_a_truncated_ranking_refuses_cuts_it_did_not_keep() -> None:
    scores = np.arange(40, dtype=np.float64).reshape(2, 20)
    ranking = Ranking.from_scores("m", scores, keep=5)
    assert ranking.truncated and ranking.width == 5
    assert ranking.rank_of(0, 0) is None          # below the kept depth, not own: unknown
    assert ranking.rank_of(0, 19) == 1
    with pytest.raises(ValueError, match="keeps only the top 5"):
        ranking.check_depth(10)


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
        np.testing.assert_array_equal(np.vstack(list(index.blocks(queries, rows=block))),
                                      whole)
    assert whole[3].tolist() == [0.0] * len(docs)


def test_evaluate_refuses_to_keep_fewer_than_it_measures(
        tiny_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    assert cli.main(["evaluate", str(tiny_dir), "--model", "bm25", "--keep", "3",
                     "--out", str(out)]) == 2
    assert "keep 3 is below the deepest cut measured (10)" in capsys.readouterr().err
    assert not out.exists()
    assert cli.main(["evaluate", str(tiny_dir), "--model", "bm25", "--keep", "10",
                     "--bootstrap", "20", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["settings"]["kept_per_query"] == 10


@settings(max_examples=120, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 300), keep=st.integers(1, 320),
       block=st.integers(1, 6), seed=st.integers(0, 2**32 - 1),
       tie_share=st.sampled_from([0.0, 0.05, 0.5]))
def test_kept_rows_of_continuous_scores_match_the_stable_sort(
        rows: int, cols: int, keep: int, block: int, seed: int, tie_share: float) -> None:
    """Mostly distinct scores (the common dense case, taken for the whole block at once),
    some repeated, signed zeros, infinities and NaN: still the brute-force stable sort."""
    rng = np.random.default_rng(seed)
    scores = rng.standard_normal((rows, cols))
    repeat = rng.random((rows, cols)) < tie_share
    scores[repeat] = scores[0, 0]
    scores[rng.random((rows, cols)) < 0.05] = np.nan
    scores[rng.random((rows, cols)) < 0.05] = -np.inf
    scores[rng.random((rows, cols)) < 0.02] = np.inf
    zeros = rng.random((rows, cols)) < 0.05
    scores[zeros] = np.where(rng.random(int(zeros.sum())) < 0.5, 0.0, -0.0)
    builder = RankingBuilder(rows, cols, keep=keep)
    for start in range(0, rows, block):
        builder.add(scores[start:start + block])
    ranking = builder.finish("m")
    for q in range(rows):
        order, keys = _brute(scores[q])
        finite = int((keys > -np.inf).sum())
        length = finite if keep >= finite else int((keys >= keys[order[keep - 1]]).sum())
        assert ranking.order[q, :length].tolist() == order[:length].tolist()
        assert (ranking.order[q, length:] == -1).all()
        assert ranking.keys[q, :length].tolist() == keys[order[:length]].tolist()
