"""Held-out splits: deterministic per query, sizes as documented, the report's `split`."""

from __future__ import annotations

import pytest

from conftest import DATA
from execretrieval.benchmark.dataset import Benchmark, load_benchmark
from execretrieval.pipeline import held_out_benchmark, make_split, parse_visible

BUILTIN = DATA / "builtin"


def test_visible_counts_and_fractions() -> None:
    assert parse_visible("3") == 3 and parse_visible("0.5") == 0.5
    for bad in ("0", "-1", "1.5", "x", "nan", "inf"):
        with pytest.raises(ValueError):
            parse_visible(bad)


def test_split_partitions_every_suite_and_reproduces_per_query() -> None:
    benchmark = load_benchmark(BUILTIN)
    split = make_split(benchmark, 0.5, seed=0)
    for query in benchmark.queries:
        shown = split.visible_tests(query.query_id)
        held = split.held_out_tests(query.query_id)
        assert len(shown) == len(query.test_suite) // 2
        assert sorted(shown + held) == sorted(query.test_suite)
        assert not set(shown) & set(held)
    again = make_split(benchmark, 0.5, seed=0)
    assert dict(again.visible) == dict(split.visible)
    other = make_split(benchmark, 0.5, seed=1)
    assert dict(other.visible) != dict(split.visible)
    # a query's split does not depend on the other queries
    alone = Benchmark(benchmark.queries[5:6], benchmark.corpus)
    qid = benchmark.queries[5].query_id
    assert make_split(alone, 0.5, seed=0).visible[qid] == split.visible[qid]


def test_queries_with_no_held_out_test_are_counted_and_json_is_one_based() -> None:
    benchmark = load_benchmark(BUILTIN)
    split = make_split(benchmark, 100, seed=3)   # more than any suite: nothing held out
    assert set(split.no_held_out) == {q.query_id for q in benchmark.queries}
    split = make_split(benchmark, 2, seed=3)
    data = split.to_dict()
    assert data["seed"] == 3
    first = benchmark.queries[0]
    numbers = data["visible"][first.query_id]
    assert len(numbers) == 2 and all(1 <= n <= len(first.test_suite) for n in numbers)
    assert [first.test_suite[n - 1] for n in numbers] == list(split.visible_tests(first.query_id))
    judged = held_out_benchmark(benchmark, split)
    assert judged.queries[0].test_suite == split.held_out_tests(first.query_id)
    assert judged.corpus == benchmark.corpus
