"""exec@k, execp@k and nDCG@k with bootstrap intervals: the paper's headline table.

For query q with ranking R(q) (best first) and pass matrix ``passes[q, r]`` (does the
candidate at rank r + 1 pass all of q's tests, as executed by the oracle)::

    exec@k(q)  = 1 if any(passes[q, :k]) else 0
    execp@k(q) = sum(passes[q, :k]) / k
    nDCG@k(q)  = DCG@k / IDCG@k,  DCG@k = sum_{r=1..k} rel(R(q)_r) / log2(r + 1),
                 IDCG@k = sum_{r=1..min(k, |C(q)|)} 1 / log2(r + 1)

with binary rel = 1 for ids in ``correct_corpus_ids`` C(q) (trec_eval's ``ndcg_cut``).
These kernels score one ranking as given. :func:`evaluate` scores tied candidates honestly:
by default each per-query figure is its exact expectation over every order of tied scores
(:mod:`execretrieval.measure.ties`), so no figure depends on the order of lines in a file;
``ties="optimistic" | "pessimistic" | "corpus"`` breaks ties for / against correct code or
by corpus order instead, and every evaluation records the optimistic-pessimistic range.
Each metric is the unweighted mean over queries, with a 95% percentile bootstrap interval
(:mod:`execretrieval.measure.statistics`). :func:`execution_matrix` is the only part that
runs code; it executes every snippet that can reach the top k under some order of ties.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from . import analysis
from .statistics import MetricCI, bootstrap_cis
from .ties import (
    TIE_POLICIES,
    break_ties,
    expected_dcg,
    expected_exec_at_k,
    expected_execp_at_k,
    needed_depth,
    sorted_view,
    tied_rows,
    ties_across_cut,
)

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..hooks import Progress, ShouldStop
    from ..ranking.ranking import Ranking

__all__ = [
    "DEFAULT_KS",
    "ModelEvaluation",
    "evaluate",
    "exec_at_k",
    "execp_at_k",
    "execution_matrices",
    "execution_matrix",
    "metric_names",
    "ndcg_at_k",
    "relevance_matrix",
    "tie_aware_columns",
]

DEFAULT_KS = (1, 3, 5, 10)


class _Oracle(Protocol):
    def run_many(self, jobs: list[tuple[str, Sequence[str]]], progress: Any = None,
                 should_stop: Any = None) -> list[Any]: ...


def execution_matrix(benchmark: Benchmark, ranking: Ranking, oracle: _Oracle, *,
                     depth: int = 10, progress: Progress | None = None,
                     should_stop: ShouldStop | None = None) -> np.ndarray:
    """(Q x D) bool: does the candidate at each rank pass its query's whole test suite?

    D is ``depth`` extended, for the queries whose tie group straddles it, to the end of
    that group (:func:`~execretrieval.measure.ties.needed_depth`): whatever order the ties
    take, every snippet that can land in the top ``depth`` has been executed. A query's
    positions past its own need are not executed and read False.
    Every retrieved (snippet, query) pair in that range is executed once through
    ``oracle.run_many`` (the oracle caches, so a warm re-run executes nothing), including
    other queries' snippets, which normally fail with NameError. A snippet the model did
    not retrieve (``Ranking.retrieved``, e.g. past the end of a shallow TREC run) is not
    executed and counts as not passing.
    """
    return execution_matrices(benchmark, [ranking], oracle, depth=depth, progress=progress,
                              should_stop=should_stop)[0]


def execution_matrices(benchmark: Benchmark, rankings: Sequence[Ranking], oracle: _Oracle, *,
                       depth: int = 10, progress: Progress | None = None,
                       should_stop: ShouldStop | None = None) -> list[np.ndarray]:
    """:func:`execution_matrix` for several models in one ``run_many`` call, so a pair
    that several models retrieve runs once and all cores stay busy."""
    keys: dict[tuple[int, int], int] = {}
    jobs: list[tuple[str, Sequence[str]]] = []
    all_slots: list[np.ndarray] = []
    for ranking in rankings:
        d = max(1, min(int(depth), ranking.shape[1]))
        need = needed_depth(ranking, d)
        d = max(d, int(need.max()) if need.size else d)
        top = ranking.order_to(d)
        listed = top >= 0
        slots = np.full(top.shape, -1, dtype=np.int64)
        for q in range(top.shape[0]):
            tests = benchmark.queries[q].test_suite
            for r in range(int(need[q])):
                if not listed[q, r]:
                    continue
                key = (int(top[q, r]), q)
                slot = keys.get(key)
                if slot is None:
                    slot = keys[key] = len(jobs)
                    jobs.append((benchmark.corpus[key[0]].code, tests))
                slots[q, r] = slot
        all_slots.append(slots)
    results = oracle.run_many(jobs, progress=progress, should_stop=should_stop) if jobs else []
    # the extra last entry is what an unretrieved slot (-1) reads: never a pass
    outcome = np.array([*(bool(getattr(res, "passed", False)) for res in results), False],
                       dtype=bool)
    return [outcome[slots] for slots in all_slots]


def exec_at_k(passes: np.ndarray, k: int) -> np.ndarray:
    """(Q,) float: 1.0 where some candidate in the top k passes."""
    return np.asarray(np.asarray(passes[:, :k], dtype=bool).any(axis=1), dtype=np.float64)


def execp_at_k(passes: np.ndarray, k: int) -> np.ndarray:
    """(Q,) float: passing share of the top k (denominator k, as in precision@k)."""
    return np.asarray(passes[:, :k], dtype=np.float64).sum(axis=1) / k


def relevance_matrix(benchmark: Benchmark, ranking: Ranking, depth: int) -> np.ndarray:
    """(Q x depth) bool: is the candidate at each rank retrieved and in the query's
    correct_corpus_ids?"""
    top = ranking.order_to(depth)
    return analysis.pairs(benchmark).relevant(top) & (top >= 0)


def ndcg_at_k(relevant: np.ndarray, n_relevant: np.ndarray, k: int) -> np.ndarray:
    """(Q,) float nDCG@k with binary gains (trec_eval ``ndcg_cut.k``); 0 if no relevant id."""
    rel = np.asarray(relevant[:, :k], dtype=np.float64)
    discounts = 1.0 / np.log2(np.arange(2, k + 2, dtype=np.float64))
    dcg = rel @ discounts[: rel.shape[1]]
    ideal_cum = np.concatenate([[0.0], np.cumsum(discounts)])
    idcg = ideal_cum[np.minimum(np.asarray(n_relevant, dtype=np.int64), k)]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(np.where(idcg > 0, dcg / np.where(idcg > 0, idcg, 1.0), 0.0),
                          dtype=np.float64)


def metric_names(ks: Sequence[int] = DEFAULT_KS) -> list[str]:
    """Metric keys in report order: exec@k, then execp@k, then ndcg@k."""
    return [f"{m}@{k}" for m in ("exec", "execp", "ndcg") for k in ks]


@dataclass(frozen=True, eq=False)
class ModelEvaluation:
    """Everything measured about one model on one benchmark (one entry of the report)."""

    model: str
    query_ids: tuple[str, ...]
    ks: tuple[int, ...]
    metrics: Mapping[str, MetricCI]
    per_query: Mapping[str, np.ndarray]
    deception_rate: float
    rank1_paired_miss_share: float
    deception_by_bug_type: Mapping[str, float]
    exec1_by_domain: Mapping[str, float]
    density_ablation: Mapping[str, float]
    edit_span_vs_deception: Mapping[str, Any]
    n_boot: int
    seed: int
    excluded: tuple[str, ...] = ()
    ranking: Ranking | None = field(default=None, repr=False)
    passes: np.ndarray | None = field(default=None, repr=False)
    ties: str = "expected"
    deception_strict: float = float("nan")
    deception_tied: float = float("nan")
    deception_by_bug_type_strict: Mapping[str, float] = field(default_factory=dict)
    deception_by_bug_type_tied: Mapping[str, float] = field(default_factory=dict)
    tie_report: Mapping[str, Any] = field(default_factory=dict)
    blind_spots: Mapping[str, Any] | None = None
    # per measured query: "<metric>:pessimistic" / "<metric>:optimistic" figures, and
    # "deceived" (under the policy), "deceived_strict", "deceived_tied" (1/0/NaN)
    per_query_extra: Mapping[str, np.ndarray] = field(default_factory=dict, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The report JSON of this model (see issue 4 for the shape)."""
        return {
            "metrics": {name: ci.to_dict() for name, ci in self.metrics.items()},
            "deception_rate": self.deception_rate,
            "rank1_paired_miss_share": self.rank1_paired_miss_share,
            "deception_by_bug_type": dict(self.deception_by_bug_type),
            "exec1_by_domain": dict(self.exec1_by_domain),
            "density_ablation": dict(self.density_ablation),
            "density_ablation_method": "exact mean over all subsets of kept distractors",
            "edit_span_vs_deception": dict(self.edit_span_vs_deception),
            "queries": len(self.query_ids),
            "excluded_queries": list(self.excluded),
            "ties": self.ties,
            "deception_strict": self.deception_strict,
            "deception_tied": self.deception_tied,
            "deception_by_bug_type_strict": dict(self.deception_by_bug_type_strict),
            "deception_by_bug_type_tied": dict(self.deception_by_bug_type_tied),
            "tie_report": dict(self.tie_report),
            **({"blind_spots": dict(self.blind_spots)} if self.blind_spots is not None
               else {}),
        }


def tie_aware_columns(benchmark: Benchmark, ranking: Ranking, passes: np.ndarray,
                      ks: Sequence[int]) -> dict[str, np.ndarray]:
    """Per-query exec@k, execp@k and ndcg@k (Q,), each the exact expectation over every
    order of ``ranking``'s tied scores (for a tie-free ranking, the plain figure).

    ``passes`` is aligned with ``ranking.order``; past its depth a snippet passes iff it
    is a correct id (see :func:`~execretrieval.measure.analysis.sorted_good`)."""
    ks = sorted({int(k) for k in ks})
    kmax = ks[-1]
    width = max(kmax, int(needed_depth(ranking, kmax).max()) if ranking.shape[0] else kmax)
    view = sorted_view(ranking, width)
    good = analysis.sorted_good(benchmark, ranking, passes, view.width)
    rel = relevance_matrix(benchmark, ranking, view.width)
    n_relevant = np.array([len(q.correct_corpus_ids) for q in benchmark.queries])
    discounts = 1.0 / np.log2(np.arange(2, kmax + 2, dtype=np.float64))
    ideal_cum = np.concatenate([[0.0], np.cumsum(discounts)])
    columns: dict[str, np.ndarray] = {}
    for k in ks:
        columns[f"exec@{k}"] = expected_exec_at_k(view, good, k)
    for k in ks:
        columns[f"execp@{k}"] = expected_execp_at_k(view, good, k)
    gains = view.group_mean(rel)
    for k in ks:
        idcg = ideal_cum[np.minimum(n_relevant, k)]
        dcg = expected_dcg(view, rel, k, gains)
        columns[f"ndcg@{k}"] = np.where(idcg > 0, dcg / np.where(idcg > 0, idcg, 1.0), 0.0)
    return columns


def _ranked_good(benchmark: Benchmark, ranking: Ranking, passes: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(good, relevant), (Q x width) bool in the ranking's stored order, and own_good
    (Q x G, aligned with ``ranking.own_index``): ``passes`` where executed, elsewhere a
    correct id is presumed passing."""
    relevant = relevance_matrix(benchmark, ranking, ranking.width)
    good = relevant.copy()
    d = min(passes.shape[1], ranking.width)
    good[:, :d] = np.asarray(passes[:, :d], dtype=bool)
    p = analysis.pairs(benchmark)
    own_good = (ranking.own_index >= 0) & p.relevant(ranking.own_index)
    return good, relevant, own_good


def evaluate(benchmark: Benchmark, ranking: Ranking, passes: np.ndarray, *,
             ks: Sequence[int] = DEFAULT_KS, n_boot: int = 5000, seed: int = 0,
             exclude: Collection[str] = frozenset(), ties: str = "expected"
             ) -> ModelEvaluation:
    """Metrics with bootstrap CIs and every analysis, for one model; pure (no execution).

    ``passes`` is the (Q x depth) matrix of :func:`execution_matrix`, depth >= max(ks),
    covering the tie group straddling the cut. ``ties`` picks how tied scores count
    (:data:`~execretrieval.measure.ties.TIE_POLICIES`; default: the expectation over tie
    orders). The evaluation also records, per model, how many queries have a tie across
    each cut and every metric's pessimistic-optimistic range.
    Queries in ``exclude`` are left out of every mean and interval.
    """
    ks = tuple(sorted({int(k) for k in ks}))
    if not ks or ks[0] < 1:
        raise ValueError("ks must be positive integers")
    if ties not in TIE_POLICIES:
        raise ValueError(f"unknown tie policy {ties!r}; expected one of "
                         f"{', '.join(TIE_POLICIES)}")
    passes = np.asarray(passes, dtype=bool)
    expected_rows = len(benchmark.queries)
    if passes.ndim != 2 or passes.shape[0] != expected_rows:
        raise ValueError(f"passes must be ({expected_rows} x depth), got {passes.shape}")
    ranking.check_depth(ks[-1], f"k = {ks[-1]}")
    if passes.shape[1] < min(ks[-1], ranking.shape[1]):
        raise ValueError(f"passes has depth {passes.shape[1]} but k = {ks[-1]} was asked")
    if passes.shape[1] < ks[-1]:  # the whole corpus is shorter than k: pad with misses
        passes = np.pad(passes, ((0, 0), (0, ks[-1] - passes.shape[1])))
    keep = analysis.query_mask(benchmark, exclude)
    good, relevant, own_good = _ranked_good(benchmark, ranking, passes)
    depth = passes.shape[1]

    def broken(policy: str) -> tuple[Ranking, np.ndarray]:
        if policy == "expected":
            return ranking, passes
        tie_free, perm = break_ties(ranking, good, relevant, policy, own_good=own_good)
        shown = min(depth, ranking.width)
        aligned = np.zeros_like(passes)
        aligned[:, :shown] = np.take_along_axis(good, perm[:, :shown], axis=1)
        return tie_free, aligned

    inner_ks = tuple(sorted({1, *ks}))
    used, used_passes = broken(ties)
    columns = tie_aware_columns(benchmark, used, used_passes, inner_ks)
    names = metric_names(ks)
    matrix = np.column_stack([columns[n][keep] for n in names])
    cis = bootstrap_cis(matrix, n_boot=n_boot, seed=seed)
    per_query = {n: _frozen(columns[n][keep]) for n in names}
    bounds: dict[str, dict[str, float]] = {n: {} for n in names}
    extra_columns: dict[str, np.ndarray] = {}
    tie_free = not tied_rows(ranking)[0].size   # then every policy gives the same figures
    for policy in ("pessimistic", "optimistic"):
        other = columns if policy == ties or tie_free else tie_aware_columns(
            benchmark, *broken(policy), ks)
        for n in names:
            bounds[n][policy] = _mean(other[n][keep])
            extra_columns[f"{n}:{policy}"] = _frozen(other[n][keep])
    strict, tied = analysis.deception_classes(benchmark, ranking)
    extra_columns["deceived"] = _frozen(analysis.deception_per_query(benchmark, used)[keep])
    extra_columns["deceived_strict"] = _frozen(strict[keep])
    extra_columns["deceived_tied"] = _frozen(tied[keep])
    tie_report = {
        "policy": ties,
        "queries_tied_at_cut": {str(k): int(ties_across_cut(ranking, k)[keep].sum())
                                for k in ks},
        "range": bounds,
    }
    extra = analysis.summary(benchmark, used, used_passes, exclude=exclude,
                             exec1=columns["exec@1"], scores=ranking)
    return ModelEvaluation(
        model=ranking.model,
        query_ids=tuple(q.query_id for q, k in zip(benchmark.queries, keep, strict=True) if k),
        ks=ks,
        metrics=MappingProxyType(dict(zip(names, cis, strict=True))),
        per_query=MappingProxyType(per_query),
        deception_rate=extra["deception_rate"],
        rank1_paired_miss_share=extra["rank1_paired_miss_share"],
        deception_by_bug_type=MappingProxyType(extra["deception_by_bug_type"]),
        exec1_by_domain=MappingProxyType(extra["exec1_by_domain"]),
        density_ablation=MappingProxyType(extra["density_ablation"]),
        edit_span_vs_deception=MappingProxyType(extra["edit_span_vs_deception"]),
        n_boot=int(n_boot), seed=int(seed),
        excluded=tuple(q.query_id for q, k in zip(benchmark.queries, keep, strict=True)
                       if not k),
        ranking=ranking, passes=passes, ties=ties,
        deception_strict=extra["deception_strict"],
        deception_tied=extra["deception_tied"],
        deception_by_bug_type_strict=MappingProxyType(extra["deception_by_bug_type_strict"]),
        deception_by_bug_type_tied=MappingProxyType(extra["deception_by_bug_type_tied"]),
        tie_report=MappingProxyType(tie_report),
        per_query_extra=MappingProxyType(extra_columns),
    )


def _mean(values: np.ndarray) -> float:
    return float(values.mean()) if values.size else float("nan")


def _frozen(values: np.ndarray) -> np.ndarray:
    out = np.array(values, dtype=np.float64, copy=True)
    out.flags.writeable = False
    return out
