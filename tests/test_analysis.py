"""Deception analyses on a hand-made ranking whose answers are worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _rankdata import small_benchmark

from execretrieval.measure.analysis import (
    deception_by_bug_type,
    deception_classes,
    deception_per_query,
    deception_rate,
    density_ablation,
    edit_span,
    edit_span_vs_deception,
    exec1_by_domain,
    rank1_paired_miss_share,
)
from execretrieval.ranking.ranking import Ranking

# corpus: 0 c1, 1 d1a (off_by_one), 2 d1b (wrong_operator), 3 c2, 4 d2a (swap), 5 c3
SCORES = np.array([
    [0.8, 0.9, 0.1, 0.0, 0.0, 0.0],   # q1: d1a above its canonical -> deceived
    [0.0, 0.0, 0.0, 0.9, 0.5, 0.0],   # q2: canonical first
    [0.0, 0.0, 0.7, 0.0, 0.0, 0.6],   # q3: no distractors; rank 1 is q1's mutant
])
# q1 ranks d1a, c1, d1b; q2 ranks c2, d2a, c1; q3 ranks d1b, c3, c1
PASSES = np.array([[0, 1, 0], [1, 0, 0], [0, 1, 0]], dtype=bool)


@pytest.fixture
def bench():
    return small_benchmark()


@pytest.fixture
def ranking() -> Ranking:
    return Ranking.from_scores("toy", SCORES)


def test_deception_rate_counts_queries_with_a_mutant_above_the_canonical(bench, ranking):
    per_query = deception_per_query(bench, ranking)
    assert per_query[:2].tolist() == [1.0, 0.0] and math.isnan(per_query[2])
    assert deception_rate(bench, ranking) == 0.5
    assert deception_rate(bench, ranking, exclude={"q1"}) == 0.0
    assert math.isnan(deception_rate(bench, ranking, exclude={"q1", "q2"}))


def test_a_tie_deceives_with_its_expectation_and_is_its_own_class(bench):
    tied = SCORES.copy()
    tied[0, 1] = tied[0, 0]          # q1: d1a ties c1, d1b below: below d1a half the time
    ranking = Ranking.from_scores("t", tied)
    assert deception_per_query(bench, ranking)[:2].tolist() == [0.5, 0.0]
    assert deception_rate(bench, ranking) == 0.25
    strict, tied_class = deception_classes(bench, ranking)
    assert strict[:2].tolist() == [0.0, 0.0] and tied_class[:2].tolist() == [1.0, 0.0]
    assert math.isnan(strict[2]) and math.isnan(tied_class[2])
    assert deception_by_bug_type(bench, ranking)["off_by_one"] == 0.5
    assert deception_by_bug_type(bench, ranking, kind="strict")["off_by_one"] == 0.0
    assert deception_by_bug_type(bench, ranking, kind="tied")["off_by_one"] == 1.0
    tied[0, 2] = tied[0, 0]          # both mutants tie: below one of them 2/3 of the time
    assert deception_per_query(bench, Ranking.from_scores("t", tied))[0] == pytest.approx(2 / 3)


def test_rank1_miss_attribution(bench, ranking):
    # misses: q1 (rank 1 = its own d1a) and q3 (rank 1 = q1's d1b, not its own)
    assert rank1_paired_miss_share(bench, ranking, PASSES) == 0.5
    assert rank1_paired_miss_share(bench, ranking, PASSES, exclude={"q3"}) == 1.0
    assert math.isnan(rank1_paired_miss_share(bench, ranking, PASSES, exclude={"q1", "q3"}))


def test_deception_by_bug_type(bench, ranking):
    assert deception_by_bug_type(bench, ranking) == {
        "off_by_one": 1.0, "swap_arguments": 0.0, "wrong_operator": 0.0}
    only_q2 = deception_by_bug_type(bench, ranking, exclude={"q1"})
    assert only_q2["swap_arguments"] == 0.0 and math.isnan(only_q2["off_by_one"])


def test_exec1_by_domain(bench):
    assert exec1_by_domain(bench, PASSES) == {"bit-manipulation": 0.0, "date-time": 1.0}
    assert exec1_by_domain(bench, PASSES, exclude={"q2"}) == {"bit-manipulation": 0.0}


def test_density_ablation_averages_over_every_kept_subset(bench, ranking):
    # q1: m=0 -> c1 passes; m=1 -> keep d1a (fails) or d1b (c1 passes) = 0.5; m>=2 -> d1a
    # q2: c2 first whatever is kept -> 1;  q3: no distractors, d1b first -> 0
    result = density_ablation(bench, ranking, PASSES)
    assert result == pytest.approx({"0": 2 / 3, "1": 0.5, "2": 1 / 3, "3": 1 / 3, "4": 1 / 3})
    assert density_ablation(bench, ranking, PASSES, exclude={"q3"})["0"] == 1.0


def test_density_ablation_beyond_the_pass_depth_uses_the_correct_ids(bench, ranking):
    result = density_ablation(bench, ranking, PASSES[:, :1])
    assert result["0"] == pytest.approx(2 / 3)


def test_edit_span_counts_changed_characters():
    assert edit_span("return n & -n", "return n | -n") == 1
    assert edit_span("return n & -n", "return n & -n + 1") == 4
    assert edit_span("abc", "abc") == 0
    assert edit_span("if x:\n    return 0\nreturn 1", "return 1") == 19


def test_edit_span_against_deception(bench, ranking):
    result = edit_span_vs_deception(bench, ranking)
    rows = {row["span_min"]: row for row in result["bins"]}
    # d1b (1 char, not above), d2a (2 chars, not above), d1a (4 chars, above)
    assert rows[1]["distractors"] == 1 and rows[1]["deception"] == 0.0
    assert rows[3]["distractors"] == 1 and rows[3]["deception"] == 1.0
    assert sum(r["distractors"] for r in result["bins"]) == 3
    assert -1.0 <= result["spearman_span_margin"] <= 1.0


def _brute_force_ablation(bench, ranking, passes, max_kept=4):
    import itertools

    correct = {bench.query_index(q.query_id): {bench.corpus_index(c) for c in
                                               q.correct_corpus_ids} for q in bench.queries}
    out = {}
    for m in range(max_kept + 1):
        values = []
        for qi, query in enumerate(bench.queries):
            own = [bench.corpus_index(s.corpus_id) for s in bench.distractors_for(query.query_id)]
            subsets = list(itertools.combinations(own, min(m, len(own))))
            total = 0.0
            for kept in subsets:
                pool = [int(c) for c in ranking.order[qi] if int(c) not in set(own) - set(kept)]
                r = list(ranking.order[qi]).index(pool[0])
                total += passes[qi, r] if r < passes.shape[1] else pool[0] in correct[qi]
            values.append(total / len(subsets))
        out[str(m)] = float(np.mean(values))
    return out


@pytest.mark.parametrize("seed", range(8))
def test_density_ablation_equals_the_brute_force_definition(seed):
    from execretrieval.benchmark.dataset import Benchmark, Query, Snippet

    rng = np.random.default_rng(seed)
    queries, corpus = [], []
    for q in range(12):
        queries.append(Query(f"q{q}", "t", f"f{q}", "geometry", ("assert 1",), (f"c{q}",)))
        corpus.append(Snippet(f"c{q}", f"q{q}", "canonical", None, "", f"def f{q}(): pass"))
        for d in range(int(rng.integers(0, 5))):
            corpus.append(Snippet(f"c{q}d{d}", f"q{q}", "distractor", "off_by_one", "",
                                  f"def f{q}(): return {d}"))
    bench = Benchmark(queries, corpus)
    # tie-free (the tie-aware version is checked against every tie order in test_ties.py)
    scores = np.array([rng.permutation(len(corpus)) for _ in queries], dtype=float)
    ranking = Ranking.from_scores("r", scores)
    passes = rng.random((len(queries), int(rng.integers(1, 8)))) < 0.4
    assert density_ablation(bench, ranking, passes) == pytest.approx(
        _brute_force_ablation(bench, ranking, passes))


def test_spearman_matches_scipy():
    from scipy.stats import spearmanr

    from execretrieval.measure.analysis import spearman

    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, 40).astype(float)
    y = x + rng.normal(size=40)
    assert spearman(x, y) == pytest.approx(spearmanr(x, y).statistic, abs=1e-12)
    assert math.isnan(spearman(np.ones(5), np.arange(5.0)))
