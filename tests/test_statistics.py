"""Bootstrap intervals, exact McNemar and the paired comparison of two models."""

from __future__ import annotations

import numpy as np
import pytest
from _rankdata import small_benchmark

from execretrieval.measure.metrics import evaluate
from execretrieval.measure.statistics import (
    bootstrap_ci,
    bootstrap_cis,
    compare,
    mcnemar_exact,
    paired_bootstrap_diff,
)
from execretrieval.ranking.ranking import Ranking


def _table(a_only: int, b_only: int, both: int = 3, neither: int = 2):
    a = [True] * a_only + [False] * b_only + [True] * both + [False] * neither
    b = [False] * a_only + [True] * b_only + [True] * both + [False] * neither
    return np.array(a), np.array(b)


@pytest.mark.parametrize(("a_only", "b_only", "expected"), [
    (1, 5, 14 / 64),            # 2 * (1 + 6) / 2**6
    (2, 8, 2 * 56 / 1024),      # 2 * (1 + 10 + 45) / 2**10
    (0, 4, 2 / 16),             # 2 * 1 / 2**4
    (3, 3, 1.0),                # capped at 1
    (0, 0, 1.0),                # no discordant pairs
])
def test_mcnemar_exact_on_hand_computed_tables(a_only: int, b_only: int,
                                               expected: float) -> None:
    a, b = _table(a_only, b_only)
    assert mcnemar_exact(a, b) == pytest.approx(expected)
    assert mcnemar_exact(b, a) == pytest.approx(expected)


def test_bootstrap_is_reproducible_for_a_seed_and_covers_the_mean() -> None:
    values = np.random.default_rng(7).random(200) < 0.3
    first = bootstrap_ci(values, n_boot=2000, seed=11)
    assert first == bootstrap_ci(values, n_boot=2000, seed=11)
    assert first != bootstrap_ci(values, n_boot=2000, seed=12)
    assert first.mean == pytest.approx(values.mean())
    assert first.ci_low < first.mean < first.ci_high
    # roughly the normal interval: mean +/- 1.96 * sd / sqrt(n)
    half = 1.96 * np.sqrt(values.mean() * (1 - values.mean()) / values.size)
    assert first.ci_high - first.ci_low == pytest.approx(2 * half, rel=0.15)


def test_matrix_bootstrap_equals_column_by_column() -> None:
    matrix = np.random.default_rng(1).random((50, 3))
    together = bootstrap_cis(matrix, n_boot=500, seed=4)
    for j in range(3):
        alone = bootstrap_ci(matrix[:, j], n_boot=500, seed=4)
        assert together[j].to_dict() == pytest.approx(alone.to_dict(), rel=1e-12)


def test_constant_values_give_a_degenerate_interval() -> None:
    ci = bootstrap_ci(np.ones(10), n_boot=100)
    assert (ci.mean, ci.ci_low, ci.ci_high) == (1.0, 1.0, 1.0)


def test_empty_input_gives_nan() -> None:
    assert np.isnan(bootstrap_ci([], n_boot=10).mean)


def test_paired_bootstrap_difference() -> None:
    a, b = _table(10, 2, both=20, neither=20)
    diff = paired_bootstrap_diff(a, b, n_boot=2000, seed=0)
    assert diff.mean == pytest.approx(8 / 52)
    assert diff.ci_low < diff.mean < diff.ci_high
    assert diff.ci_low > 0


def test_compare_two_evaluations() -> None:
    bench = small_benchmark()
    ranking_a = Ranking.from_scores("a", np.eye(3, 6))
    ranking_b = Ranking.from_scores("b", np.eye(3, 6))
    eval_a = evaluate(bench, ranking_a, np.array([[1], [1], [0]], dtype=bool), ks=(1,),
                      n_boot=100)
    eval_b = evaluate(bench, ranking_b, np.array([[0], [1], [1]], dtype=bool), ks=(1,),
                      n_boot=100)
    result = compare(bench, eval_a, eval_b, "exec@1", n_boot=100)
    assert (result.a, result.b, result.a_only, result.b_only) == ("a", "b", 1, 1)
    assert result.discordant_queries == ("q1", "q3")
    assert result.p_value == 1.0 and result.diff == 0.0
    assert set(result.to_dict()) >= {"metric", "a", "b", "a_mean", "b_mean", "a_only",
                                     "b_only", "p_value", "diff", "ci_low", "ci_high",
                                     "discordant_queries"}
    with pytest.raises(ValueError, match="unknown metric"):
        compare(bench, eval_a, eval_b, "exec@7")


def test_mcnemar_agrees_with_scipy_binomtest_on_large_tables() -> None:
    from scipy.stats import binomtest

    for a_only, b_only in ((40, 61), (300, 250), (0, 17)):
        a, b = _table(a_only, b_only)
        expected = binomtest(a_only, a_only + b_only, 0.5).pvalue
        assert mcnemar_exact(a, b) == pytest.approx(expected, rel=1e-9)
