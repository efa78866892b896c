"""exec@k, execp@k, nDCG@k on hand-computed rankings, and evaluate() end to end."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest
from _rankdata import small_benchmark

from execretrieval.measure.metrics import (
    evaluate,
    exec_at_k,
    execp_at_k,
    execution_matrix,
    metric_names,
    ndcg_at_k,
)
from execretrieval.ranking.ranking import Ranking

PASSES = np.array([
    [0, 0, 1, 0, 1],
    [1, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
], dtype=bool)


def test_exec_at_k_is_any_pass_in_the_top_k() -> None:
    assert exec_at_k(PASSES, 1).tolist() == [0, 1, 0]
    assert exec_at_k(PASSES, 3).tolist() == [1, 1, 0]


def test_execp_at_k_is_the_passing_share_of_the_top_k() -> None:
    assert execp_at_k(PASSES, 1).tolist() == [0, 1, 0]
    assert execp_at_k(PASSES, 5).tolist() == pytest.approx([0.4, 0.2, 0.0])


def test_ndcg_one_relevant_id_matches_trec_eval() -> None:
    # trec_eval ndcg_cut: relevant at rank 3 -> 1/log2(4) = 0.5; ideal DCG = 1.
    rel = np.array([[0, 0, 1, 0, 0]], dtype=bool)
    assert ndcg_at_k(rel, np.array([1]), 1)[0] == 0.0
    assert ndcg_at_k(rel, np.array([1]), 3)[0] == pytest.approx(0.5)
    assert ndcg_at_k(rel, np.array([1]), 5)[0] == pytest.approx(0.5)


def test_ndcg_several_relevant_ids_matches_trec_eval() -> None:
    # relevant at ranks 2 and 4 of 3 relevant in the qrels:
    # DCG@5 = 1/log2(3) + 1/log2(5); IDCG@5 = 1 + 1/log2(3) + 1/log2(4)
    rel = np.array([[0, 1, 0, 1, 0]], dtype=bool)
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    idcg = 1 + 1 / math.log2(3) + 0.5
    assert ndcg_at_k(rel, np.array([3]), 5)[0] == pytest.approx(dcg / idcg)
    # cut at 2: ideal keeps only min(k, 3) = 2 relevant
    assert ndcg_at_k(rel, np.array([3]), 2)[0] == pytest.approx(
        (1 / math.log2(3)) / (1 + 1 / math.log2(3)))
    assert ndcg_at_k(np.zeros((1, 5), dtype=bool), np.array([0]), 5)[0] == 0.0


def _ranking() -> Ranking:
    # q1: d1a > c1 > d1b ...; q2: c2 first; q3: d1b first (another query's snippet)
    scores = np.array([
        [0.8, 0.9, 0.1, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.9, 0.5, 0.0],
        [0.0, 0.0, 0.7, 0.0, 0.0, 0.6],
    ])
    return Ranking.from_scores("toy", scores)


def test_evaluate_reports_every_metric_with_intervals() -> None:
    bench = small_benchmark()
    ranking = _ranking()
    passes = np.array([[0, 1, 0], [1, 0, 0], [0, 1, 0]], dtype=bool)
    result = evaluate(bench, ranking, passes, ks=(1, 3), n_boot=200, seed=3)
    assert list(result.metrics) == metric_names((1, 3))
    assert result.metrics["exec@1"].mean == pytest.approx(1 / 3)
    assert result.metrics["exec@3"].mean == pytest.approx(1.0)
    assert result.metrics["execp@3"].mean == pytest.approx(1 / 3)
    # nDCG@1: only q2 has its canonical first
    assert result.metrics["ndcg@1"].mean == pytest.approx(1 / 3)
    for ci in result.metrics.values():
        assert ci.ci_low <= ci.mean <= ci.ci_high
    assert result.per_query["exec@1"].tolist() == [0, 1, 0]
    assert result.query_ids == ("q1", "q2", "q3")
    assert result.to_dict()["metrics"]["exec@1"]["mean"] == pytest.approx(1 / 3)


def test_excluded_queries_leave_every_average() -> None:
    bench = small_benchmark()
    passes = np.array([[0, 1, 0], [1, 0, 0], [0, 1, 0]], dtype=bool)
    result = evaluate(bench, _ranking(), passes, ks=(1,), n_boot=100, exclude={"q1", "q3"})
    assert result.query_ids == ("q2",) and result.excluded == ("q1", "q3")
    assert result.metrics["exec@1"].mean == 1.0
    assert result.deception_rate == 0.0  # q1, deceived, is excluded
    assert set(result.exec1_by_domain) == {"date-time"}


def test_passes_shallower_than_k_are_refused() -> None:
    with pytest.raises(ValueError, match="depth 1"):
        evaluate(small_benchmark(), _ranking(), np.zeros((3, 1), dtype=bool), ks=(1, 3))


def test_corpus_shorter_than_k_counts_missing_ranks_as_misses() -> None:
    passes = np.ones((3, 6), dtype=bool)
    result = evaluate(small_benchmark(), _ranking(), passes, ks=(1, 10), n_boot=50)
    assert result.metrics["execp@10"].mean == pytest.approx(0.6)


@dataclass(frozen=True)
class _Result:
    passed: bool


class FakeOracle:
    """Passes a snippet exactly when it is the query's canonical (by function name)."""

    def __init__(self) -> None:
        self.jobs: list[tuple[str, tuple[str, ...]]] = []

    def run_many(self, jobs, progress=None, should_stop=None):
        self.jobs.extend(jobs)
        if progress:
            progress(len(jobs), len(jobs))
        canon = {"def low_bit(n):\n    return n & -n\n", "def popcount(n):\n    return bin(n)"
                 ".count('1')\n", "def days_between(a, b):\n    return (b - a).days\n"}
        return [_Result(code in canon and code.split("(")[0][4:] in tests[0])
                for code, tests in jobs]


def test_execution_matrix_runs_each_pair_once_and_maps_back() -> None:
    bench = small_benchmark()
    oracle = FakeOracle()
    seen: list[tuple[int, int]] = []
    passes = execution_matrix(bench, _ranking(), oracle, depth=3,
                              progress=lambda d, t: seen.append((d, t)))
    # q2 and q3 have a four-way tie at score 0 straddling rank 3: every member of it can
    # land in the top 3 under some order of the ties, so all are executed (depth 6)
    assert passes.shape == (3, 6)
    assert passes.tolist() == [[False, True, False, False, False, False],
                               [True, False, False, False, False, False],
                               [False, True, False, False, False, False]]
    assert len(oracle.jobs) == 3 + 6 + 6 == len(set(oracle.jobs))
    assert seen[-1] == (15, 15)
