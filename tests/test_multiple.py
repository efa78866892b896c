"""N-way comparisons: corrected p-values (against statsmodels), every pair, rank intervals
(against a brute-force loop over the bootstrap replicates) and tiers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from execretrieval.measure.multiple import (
    adjust_pvalues,
    leaderboard,
    pairwise,
    significance_matrix,
)
from execretrieval.measure.statistics import (
    bootstrap_ci,
    bootstrap_counts,
    paired_bootstrap_diff,
    sign_flip_test,
)

multitest = pytest.importorskip("statsmodels.stats.multitest")

METHODS = {"holm": "holm", "bonferroni": "bonferroni", "bh": "fdr_bh"}


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=30),
       st.sampled_from(sorted(METHODS)))
@pytest.mark.slow
def test_corrections_equal_statsmodels(p_values: list[float], method: str) -> None:
    expected = multitest.multipletests(p_values, method=METHODS[method])[1]
    assert adjust_pvalues(p_values, method) == pytest.approx(expected, abs=1e-12)


def test_corrections_on_tied_p_values_and_none() -> None:
    p = [0.01, 0.04, 0.04, 0.03, 0.5]
    for method, sm in METHODS.items():
        assert adjust_pvalues(p, method) == pytest.approx(
            multitest.multipletests(p, method=sm)[1])
    assert list(adjust_pvalues(p, "none")) == p


def test_nan_p_values_stay_out_of_the_family() -> None:
    adjusted = adjust_pvalues([0.01, float("nan"), 0.02], "bonferroni")
    assert np.isnan(adjusted[1])
    assert adjusted[[0, 2]] == pytest.approx([0.02, 0.04])


def test_unknown_correction_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown correction 'sidak'"):
        adjust_pvalues([0.1], "sidak")


def _systems(seed: int = 3, n: int = 60) -> dict[str, dict[str, np.ndarray]]:
    """Four systems; on exec@1 each one's hits are a superset of the next one's, and
    "middle" and "close" differ on two queries only."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)

    def hits(share: float) -> np.ndarray:
        out = np.zeros(n)
        out[order[: round(share * n)]] = 1.0
        return out

    return {
        "strong": {"exec@1": hits(0.8), "ndcg@3": rng.random(n) * 0.2 + 0.7},
        "middle": {"exec@1": hits(0.55), "ndcg@3": rng.random(n) * 0.2 + 0.5},
        "close": {"exec@1": hits(0.52), "ndcg@3": rng.random(n) * 0.2 + 0.49},
        "weak": {"exec@1": hits(0.1), "ndcg@3": rng.random(n) * 0.2},
    }


def test_pairwise_covers_every_pair_with_the_paired_test_and_the_bootstrap() -> None:
    systems = _systems()
    pairs = pairwise(systems, ["exec@1", "ndcg@3"], correction="holm", n_boot=400, seed=2)
    assert len(pairs) == 2 * 6
    names = list(systems)
    for metric in ("exec@1", "ndcg@3"):
        family = [p for p in pairs if p.metric == metric]
        assert {(p.a, p.b) for p in family} == {(a, b) for i, a in enumerate(names)
                                                for b in names[i + 1:]}
        raw = [p.p_value for p in family]
        assert [p.p_adjusted for p in family] == pytest.approx(
            multitest.multipletests(raw, method="holm")[1])
        for p in family:
            x, y = systems[p.a][metric], systems[p.b][metric]
            assert (p.p_value, p.test) == sign_flip_test(x, y, seed=2)
            d = paired_bootstrap_diff(x, y, n_boot=400, seed=2)
            assert (p.diff, p.ci_low, p.ci_high) == (d.mean, d.ci_low, d.ci_high)
    assert {p.test for p in pairs if p.metric == "exec@1"} == {"mcnemar_exact"}


def test_rank_intervals_equal_a_brute_force_loop_over_the_replicates() -> None:
    systems = _systems(seed=11, n=40)
    names = list(systems)
    pairs = pairwise(systems, ["ndcg@3"], n_boot=300, seed=9)
    board = leaderboard(systems, ["ndcg@3"], pairs, n_boot=300, seed=9)
    counts = bootstrap_counts(40, 300, 9)
    ranks: dict[str, list[int]] = {s: [] for s in names}
    for row in counts:
        means = {s: float(np.dot(row, systems[s]["ndcg@3"]) / 40) for s in names}
        for s in names:
            ranks[s].append(1 + sum(1 for t in names if means[t] > means[s] + 1e-12))
    for standing in board:
        r = sorted(ranks[standing.system])
        # the alpha/2 quantile: the smallest rank with at least 2.5% of replicates at or
        # below it; the upper one likewise with 97.5%
        low = next(v for i, v in enumerate(r) if (i + 1) / len(r) >= 0.025)
        high = next(v for i, v in enumerate(r) if (i + 1) / len(r) >= 0.975)
        assert (standing.rank_low, standing.rank_high) == (low, high), standing.system
        ci = bootstrap_ci(systems[standing.system]["ndcg@3"], n_boot=300, seed=9)
        assert (standing.mean, standing.ci_low, standing.ci_high) == pytest.approx(
            (ci.mean, ci.ci_low, ci.ci_high), rel=1e-12)
    assert [s.system for s in board] == ["strong", "middle", "close", "weak"]
    assert [s.rank for s in board] == [1, 2, 3, 4]


def test_tiers_group_the_systems_the_corrected_tests_cannot_separate() -> None:
    systems = _systems()
    pairs = pairwise(systems, ["exec@1"], n_boot=500, seed=0)
    board = {s.system: s for s in leaderboard(systems, ["exec@1"], pairs, n_boot=500)}
    by = {(p.a, p.b): p for p in pairs}
    # middle (0.55) and close (0.52) differ on two queries only: never separated
    assert not by[("middle", "close")].significant()
    assert by[("strong", "middle")].significant() and by[("close", "weak")].significant()
    assert [board[s].tier for s in ("strong", "middle", "close", "weak")] == [1, 2, 2, 3]
    assert board["middle"].rank_low <= 2 and board["close"].rank_high >= 3


def test_identical_systems_share_rank_one_and_a_tier() -> None:
    same = {"exec@1": np.array([1.0, 0.0, 1.0, 1.0])}
    systems = {"a": same, "b": same}
    pairs = pairwise(systems, ["exec@1"], n_boot=50)
    assert pairs[0].p_value == 1.0 and pairs[0].diff == 0.0
    board = leaderboard(systems, ["exec@1"], pairs, n_boot=50)
    assert [(s.rank, s.rank_low, s.rank_high, s.tier) for s in board] == [(1, 1, 1, 1)] * 2


def test_systems_over_different_queries_are_refused() -> None:
    systems = {"a": {"exec@1": np.ones(4)}, "b": {"exec@1": np.ones(5)}}
    with pytest.raises(ValueError, match="different numbers of queries"):
        pairwise(systems, ["exec@1"])


def test_significance_matrix_orients_each_cell_row_minus_column() -> None:
    systems = _systems()
    pairs = pairwise(systems, ["exec@1"], n_boot=100)
    names = list(systems)
    grid = significance_matrix(pairs, names, "exec@1")
    assert grid[0][0] is None
    forward, backward = grid[0][3], grid[3][0]
    assert forward is not None and backward is not None
    assert forward.diff == pytest.approx(-backward.diff)
    assert forward.p_adjusted == backward.p_adjusted
    assert (forward.ci_low, forward.ci_high) == pytest.approx((-backward.ci_high,
                                                               -backward.ci_low))


def test_pairwise_reports_progress_and_can_be_cancelled() -> None:
    from execretrieval.errors import CancelledError

    systems = _systems()
    seen: list[tuple[int, int]] = []
    pairwise(systems, ["exec@1", "ndcg@3"], n_boot=50, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(i, 12) for i in range(1, 13)]
    calls = iter(range(100))
    with pytest.raises(CancelledError):
        pairwise(systems, ["exec@1"], n_boot=50, should_stop=lambda: next(calls) >= 2)
