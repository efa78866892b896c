"""Tie-aware metrics against brute force over every order of the tied scores.

The expected figures of :mod:`execretrieval.measure.ties` are closed forms; here each one
is recomputed the slow way: enumerate every ranking consistent with the scores (every
permutation of every tie group), score each with the plain definition, and average.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from execretrieval.benchmark.dataset import Benchmark, Query, Snippet
from execretrieval.measure.analysis import (
    deception_per_query,
    density_ablation,
    rank1_paired_miss_share,
)
from execretrieval.measure.metrics import evaluate
from execretrieval.measure.ties import (
    break_ties,
    expected_dcg,
    expected_exec_at_k,
    expected_execp_at_k,
    needed_depth,
    sorted_view,
    ties_across_cut,
)
from execretrieval.ranking.ranking import Ranking


def tie_orders(row: np.ndarray) -> list[list[int]]:
    """Every order of the corpus consistent with the scores of one query (best first)."""
    groups = [sorted(np.flatnonzero(row == v).tolist()) for v in sorted(set(row), reverse=True)]
    return [sum(map(list, combo), []) for combo in
            itertools.product(*(itertools.permutations(g) for g in groups))]


def ndcg(order: list[int], relevant: set[int], n_relevant: int, k: int) -> float:
    dcg = sum(1 / math.log2(r + 2) for r, j in enumerate(order[:k]) if j in relevant)
    idcg = sum(1 / math.log2(r + 2) for r in range(min(n_relevant, k)))
    return dcg / idcg if idcg else 0.0


@st.composite
def tied_case(draw):
    q = draw(st.integers(1, 3))
    n = draw(st.integers(1, 6))
    scores = np.array(draw(st.lists(st.lists(st.integers(0, 2), min_size=n, max_size=n),
                                    min_size=q, max_size=q)), dtype=float)
    good = np.array(draw(st.lists(st.lists(st.booleans(), min_size=n, max_size=n),
                                  min_size=q, max_size=q)), dtype=bool)
    relevant = np.array(draw(st.lists(st.lists(st.booleans(), min_size=n, max_size=n),
                                      min_size=q, max_size=q)), dtype=bool)
    k = draw(st.integers(1, n))
    return scores, good, relevant, k


@settings(max_examples=150, deadline=None)
@given(tied_case())
def test_exec_execp_ndcg_are_the_mean_over_every_tie_order(case) -> None:
    scores, good, relevant, k = case
    ranking = Ranking.from_scores("r", scores)
    n = scores.shape[1]
    view = sorted_view(ranking, n)
    order = ranking.order.astype(np.intp)
    good_sorted = np.take_along_axis(good, order, axis=1)
    rel_sorted = np.take_along_axis(relevant, order, axis=1)
    got_exec = expected_exec_at_k(view, good_sorted, k)
    got_execp = expected_execp_at_k(view, good_sorted, k)
    got_dcg = expected_dcg(view, rel_sorted, k)
    for q in range(scores.shape[0]):
        orders = tie_orders(scores[q])
        rel = set(np.flatnonzero(relevant[q]).tolist())
        want_exec = np.mean([any(good[q, o[:k]]) for o in orders])
        want_execp = np.mean([good[q, o[:k]].sum() / k for o in orders])
        # DCG with the ideal fixed at 1: nDCG = DCG / IDCG, IDCG independent of the order
        want_dcg = np.mean([ndcg(o, rel, 1, k) for o in orders])
        assert got_exec[q] == pytest.approx(want_exec, abs=1e-12)
        assert got_execp[q] == pytest.approx(want_execp, abs=1e-12)
        assert got_dcg[q] == pytest.approx(want_dcg, abs=1e-12)


def test_exec_at_k_is_hypergeometric() -> None:
    from scipy.stats import hypergeom

    # one group of 9 tied candidates, 3 pass, 4 of them drawn into the top 5
    scores = np.array([[2.0] + [1.0] * 9 + [0.0] * 3])
    good = np.zeros((1, 13), dtype=bool)
    good[0, [2, 5, 7]] = True
    ranking = Ranking.from_scores("r", scores)
    view = sorted_view(ranking, 13)
    got = expected_exec_at_k(view, np.take_along_axis(good, ranking.order, axis=1), 5)
    assert got[0] == pytest.approx(1 - hypergeom(9, 3, 4).pmf(0), abs=1e-15)


def test_the_tie_group_straddling_the_cut_sets_the_execution_depth() -> None:
    scores = np.array([[3, 2, 2, 2, 2, 1, 0], [3, 2, 1, 0, 0, 0, 0], [5, 4, 3, 2, 1, 0, -1]],
                      dtype=float)
    scores[1, 3:] = -np.inf        # q2: the unretrieved tail is never executed
    ranking = Ranking.from_scores("r", scores)
    assert needed_depth(ranking, 3).tolist() == [5, 3, 3]
    assert ties_across_cut(ranking, 3).tolist() == [True, False, False]
    assert ties_across_cut(ranking, 4).tolist() == [True, False, False]
    assert ties_across_cut(ranking, 5).tolist() == [False, False, False]


def _random_benchmark(rng: np.random.Generator) -> Benchmark:
    queries, corpus = [], []
    for q in range(3):
        queries.append(Query(f"q{q}", "t", f"f{q}", ("geometry", "sorting-searching")[q % 2],
                             ("assert 1",), (f"c{q}",)))
        corpus.append(Snippet(f"c{q}", f"q{q}", "canonical", None, "", f"def f{q}(): pass"))
        for d in range(int(rng.integers(0, 3))):
            corpus.append(Snippet(f"c{q}d{d}", f"q{q}", "distractor", "off_by_one", "",
                                  f"def f{q}(): return {d}"))
    return Benchmark(queries, corpus)


@pytest.mark.parametrize("seed", range(12))
def test_analyses_are_the_mean_over_every_tie_order(seed: int) -> None:
    """Deception, rank-1 attribution and the density ablation, against every order."""
    rng = np.random.default_rng(seed)
    bench = _random_benchmark(rng)
    q, n = len(bench.queries), len(bench.corpus)
    scores = rng.integers(0, 3, size=(q, n)).astype(float)
    good = rng.random((q, n)) < 0.4
    for qi in range(q):          # canonicals pass, mutants fail, as the builder ensures
        for j, s in enumerate(bench.corpus):
            if s.query_id == f"q{qi}":
                good[qi, j] = s.is_canonical
    ranking = Ranking.from_scores("r", scores)
    passes = np.take_along_axis(good, ranking.order, axis=1)

    got_dec = deception_per_query(bench, ranking)
    got_density = density_ablation(bench, ranking, passes)
    got_share = rank1_paired_miss_share(bench, ranking, passes)
    miss_total = own_total = 0.0
    density_want: dict[str, list[float]] = {str(m): [] for m in range(5)}
    for qi in range(q):
        orders = tie_orders(scores[qi])
        canon = bench.corpus_index(f"c{qi}")
        own = [bench.corpus_index(s.corpus_id) for s in bench.distractors_for(f"q{qi}")]
        if own:
            want = np.mean([any(o.index(d) < o.index(canon) for d in own) for o in orders])
            assert got_dec[qi] == pytest.approx(want, abs=1e-12)
        else:
            assert math.isnan(got_dec[qi])
        miss_total += np.mean([not good[qi, o[0]] for o in orders])
        own_total += np.mean([(not good[qi, o[0]]) and o[0] in own for o in orders])
        for m in range(5):
            subsets = list(itertools.combinations(own, min(m, len(own))))
            per_order = []
            for o in orders:
                hits = [good[qi, [j for j in o if j not in set(own) - set(kept)][0]]
                        for kept in subsets]
                per_order.append(np.mean(hits))
            density_want[str(m)].append(float(np.mean(per_order)))
    for m, values in density_want.items():
        assert got_density[m] == pytest.approx(np.mean(values), abs=1e-12)
    if miss_total:
        assert got_share == pytest.approx(own_total / miss_total, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_policies_bracket_the_expectation(seed: int) -> None:
    rng = np.random.default_rng(seed)
    bench = _random_benchmark(rng)
    q, n = len(bench.queries), len(bench.corpus)
    scores = rng.integers(0, 3, size=(q, n)).astype(float)
    ranking = Ranking.from_scores("r", scores)
    good = np.zeros((q, n), dtype=bool)
    for qi in range(q):
        good[qi, bench.corpus_index(f"c{qi}")] = True
    passes = np.take_along_axis(good, ranking.order, axis=1)
    figures = {p: evaluate(bench, ranking, passes, ks=(1, 3), n_boot=20, ties=p)
               for p in ("expected", "optimistic", "pessimistic", "corpus")}
    expected = figures["expected"]
    for name, ci in expected.metrics.items():
        low = figures["pessimistic"].metrics[name].mean
        high = figures["optimistic"].metrics[name].mean
        assert low - 1e-12 <= ci.mean <= high + 1e-12
        assert low - 1e-12 <= figures["corpus"].metrics[name].mean <= high + 1e-12
        assert expected.tie_report["range"][name] == {"pessimistic": low, "optimistic": high}
    # the corpus policy is the plain ranking as sorted (today's behaviour)
    top1 = ranking.order[:, 0]
    assert figures["corpus"].per_query["exec@1"].tolist() == good[np.arange(q), top1].tolist()
    # break_ties keeps scores' order and only reorders within groups
    for policy in ("optimistic", "pessimistic"):
        ranked_good = np.take_along_axis(good, ranking.order, axis=1)
        tie_free, perm = break_ties(ranking, ranked_good, ranked_good, policy)
        keys = np.take_along_axis(scores, tie_free.order, axis=1)
        assert (np.diff(keys, axis=1) <= 0).all()
        assert (np.take_along_axis(ranking.order, perm, axis=1) == tie_free.order).all()
        # within each tie group, passing snippets first (optimistic) or last (pessimistic)
        moved = np.take_along_axis(ranked_good, perm, axis=1)
        for row, key in zip(moved, keys, strict=True):
            for value in np.unique(key):
                group = row[key == value].astype(int)
                want = sorted(group, reverse=policy == "optimistic")
                assert group.tolist() == want


def _qrels_benchmark(rng: np.random.Generator, q: int, n: int) -> Benchmark:
    """q queries over n snippets whose correct ids are random non-empty subsets."""
    corpus = [Snippet(f"s{j:02d}", f"q{j % q}", "canonical", None, "", f"def f{j}(): pass")
              for j in range(n)]
    queries = []
    for i in range(q):
        correct = rng.choice(n, size=int(rng.integers(1, min(n, 4) + 1)), replace=False)
        queries.append(Query(f"q{i}", "t", f"f{i}", "geometry", ("assert 1",),
                             tuple(f"s{j:02d}" for j in sorted(correct))))
    return Benchmark(queries, corpus)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_ndcg_matches_pytrec_eval_on_tie_free_scores(seed: int) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(seed)
    q, n = int(rng.integers(1, 5)), int(rng.integers(2, 15))
    bench = _qrels_benchmark(rng, q, n)
    scores = np.array([rng.permutation(n) + rng.random() for _ in range(q)], dtype=float)
    ranking = Ranking.from_scores("r", scores)
    result = evaluate(bench, ranking, np.zeros((q, n), dtype=bool), ks=(1, 3, 5, 10),
                      n_boot=10)
    qrels = {query.query_id: {c: 1 for c in query.correct_corpus_ids} for query in bench.queries}
    run = {query.query_id: {s.corpus_id: float(scores[i, j]) for j, s in enumerate(bench.corpus)}
           for i, query in enumerate(bench.queries)}
    measures = {"ndcg_cut_1", "ndcg_cut_3", "ndcg_cut_5", "ndcg_cut_10"}
    reference = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    for i, query in enumerate(bench.queries):
        for k in (1, 3, 5, 10):
            assert result.per_query[f"ndcg@{k}"][i] == pytest.approx(
                reference[query.query_id][f"ndcg_cut_{k}"], abs=1e-12)


def test_trec_eval_breaks_ties_by_document_id_not_by_our_order() -> None:
    """What export-run documents: trec_eval re-sorts tied scores by docid (descending), so
    on a tied run it gives one arbitrary order's figure, inside our tie range."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(7)
    bench = _qrels_benchmark(rng, 3, 8)
    scores = rng.integers(0, 2, size=(3, 8)).astype(float)
    ranking = Ranking.from_scores("r", scores)
    result = evaluate(bench, ranking, np.zeros((3, 8), dtype=bool), ks=(3,), n_boot=10)
    qrels = {query.query_id: {c: 1 for c in query.correct_corpus_ids} for query in bench.queries}
    run = {query.query_id: {s.corpus_id: float(scores[i, j]) for j, s in enumerate(bench.corpus)}
           for i, query in enumerate(bench.queries)}
    reference = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_3"}).evaluate(run)
    ids = np.array([s.corpus_id for s in bench.corpus])
    for i, query in enumerate(bench.queries):
        # docid descending within each tie: that ranking, scored without ties, is trec_eval's
        order = sorted(range(8), key=lambda j, i=i: (-scores[i, j], tuple(-ord(c) for c in
                                                                        ids[j])))
        relevant = set(query.correct_corpus_ids)
        assert reference[query.query_id]["ndcg_cut_3"] == pytest.approx(
            ndcg([int(j) for j in order], {bench.corpus_index(c) for c in relevant},
                 len(relevant), 3), abs=1e-12)
    span = result.tie_report["range"]["ndcg@3"]
    trec_mean = float(np.mean([reference[qq.query_id]["ndcg_cut_3"] for qq in bench.queries]))
    assert span["pessimistic"] - 1e-12 <= trec_mean <= span["optimistic"] + 1e-12


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5), st.integers(1, 160), st.integers(1, 8), st.integers(0, 2**32 - 1))
def test_needed_depth_is_the_end_of_the_straddling_group(q: int, n: int, levels: int,
                                                          seed: int) -> None:
    """Brute force: count every retrieved snippet scoring at least the k-th one's score
    (long tie groups, past the window the kernel searches first, included)."""
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, levels, size=(q, n)).astype(float)
    scores[rng.random((q, n)) < 0.2] = -np.inf
    ranking = Ranking.from_scores("m", scores)
    for depth in range(0, n + 2):
        d = min(depth, n)
        if d == 0:
            expected = np.zeros(q, dtype=int)
        else:
            cut = np.array([np.sort(scores[i])[::-1][d - 1] for i in range(q)])
            at_least = np.array([(scores[i] >= cut[i]).sum() for i in range(q)])
            retrieved = np.isfinite(scores).sum(axis=1)
            expected = np.maximum(d, np.minimum(at_least, retrieved))
        assert needed_depth(ranking, depth).tolist() == expected.tolist()
