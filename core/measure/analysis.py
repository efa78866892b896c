"""How retrievers get deceived: the paper's analyses of canonicals against their own mutants.

Every function takes an ``exclude`` set of query ids; excluded queries are left out of the
average (their snippets stay in every other query's pool). A query's *paired* distractors
are its own buggy mutants. "Deceived" means a paired distractor is *ranked* above the
canonical; with tied scores that is the expectation over all orders of the ties
(:mod:`execretrieval.measure.ties`): a distractor tied with its canonical is above it with
probability 1/2, and a canonical tied with j of its distractors (none strictly above) is
below one of them with probability j / (j + 1). Given a tie-free ranking (the surrogate of
:func:`~execretrieval.measure.ties.break_ties`) the same functions give the deterministic
figure. :func:`deception_classes` keeps the two kinds apart: *strict* (a distractor scores
above the canonical) and *tied with the canonical* (none above, some equal).
Queries without a canonical or without distractors cannot be deceived and are left out of
the deception averages. An average over nothing is NaN.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .editspan import (  # the edit-span analysis, re-exported
    edit_span,
    edit_span_vs_deception,
    pair_edit_spans,
    spearman,
)
from .pairing import NAN, Pairs, pair_above, pairs, query_mask
from .pairing import mean_or_nan as _mean
from .ties import needed_depth, sorted_view

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..ranking.ranking import Ranking

__all__ = [
    "Pairs",
    "deception_by_bug_type",
    "deception_classes",
    "deception_per_query",
    "deception_rate",
    "density_ablation",
    "edit_span",
    "edit_span_vs_deception",
    "pair_edit_spans",
    "exec1_by_domain",
    "pairs",
    "query_mask",
    "rank1_paired_miss_share",
    "sorted_good",
    "spearman",
]


def deception_classes(benchmark: Benchmark, ranking: Ranking
                      ) -> tuple[np.ndarray, np.ndarray]:
    """(strict, tied), each (Q,) float 1/0/NaN: some paired distractor scores strictly
    above the canonical; none does but some scores exactly the same ("tied with the
    canonical"). NaN where the query cannot be deceived (see :func:`deception_per_query`)."""
    p, above, known = pair_above(benchmark, ranking)
    strict = np.full(len(benchmark.queries), NAN)
    strict[np.unique(p.pair_q)] = 0.0
    strict[np.unique(p.pair_q[~known])] = NAN
    tied = strict.copy()
    strict[p.pair_q[above == 1.0]] = 1.0
    tied[p.pair_q[(above == 0.5) & known]] = 1.0
    tied[strict == 1.0] = 0.0
    return strict, tied


def deception_per_query(benchmark: Benchmark, ranking: Ranking) -> np.ndarray:
    """(Q,) float: P(some paired distractor is ranked above the canonical) over tie orders:
    1 if one scores above it, j / (j + 1) if none does and j tie with it, else 0; NaN if
    the query has no canonical or no distractors, or if none is above but the model
    retrieved neither the canonical nor some distractor (a query a TREC run leaves out)."""
    p, above, known = pair_above(benchmark, ranking)
    out = np.full(len(benchmark.queries), NAN)
    out[np.unique(p.pair_q)] = 0.0
    out[np.unique(p.pair_q[~known])] = NAN
    tied = np.bincount(p.pair_q[(above == 0.5) & known], minlength=len(out)).astype(float)
    has_tie = (tied > 0) & ~np.isnan(out)
    out[has_tie] = tied[has_tie] / (tied[has_tie] + 1.0)
    out[p.pair_q[above == 1.0]] = 1.0
    return out


def deception_rate(benchmark: Benchmark, ranking: Ranking, *,
                   exclude: Collection[str] = frozenset()) -> float:
    """Share of queries whose canonical is ranked below at least one paired distractor
    (expected over tie orders; see :func:`deception_per_query`)."""
    values = deception_per_query(benchmark, ranking)[query_mask(benchmark, exclude)]
    return _mean(values[~np.isnan(values)])


def _kept_mean(values: np.ndarray, keep: np.ndarray) -> float:
    chosen = values[keep]
    return _mean(chosen[~np.isnan(chosen)])


def sorted_good(benchmark: Benchmark, ranking: Ranking, passes: np.ndarray,
                width: int) -> np.ndarray:
    """(Q x width) bool in rank order: does each candidate pass? ``passes`` (aligned with
    ``ranking.order``) where it reaches; past its depth a retrieved snippet passes iff it
    is one of the query's correct ids; past the corpus nothing passes."""
    top = ranking.order_to(max(width, 1))
    out = pairs(benchmark).relevant(top) & (top >= 0)
    d = min(passes.shape[1], ranking.width, out.shape[1])
    out[:, :d] = np.asarray(passes[:, :d], dtype=bool)
    return out


def rank1_paired_miss_share(benchmark: Benchmark, ranking: Ranking, passes: np.ndarray, *,
                            exclude: Collection[str] = frozenset()) -> float:
    """Of the rank-1 misses, the share that are the query's own distractor:
    ``sum_q P(top1(q) in D(q), fails) / sum_q P(top1(q) fails)``, the probabilities over
    the orders of the top tie group (a ratio of expectations; without ties it is
    ``#{q: miss and own} / #{q: miss}``)."""
    p = pairs(benchmark)
    q = len(benchmark.queries)
    width = int(needed_depth(ranking, 1).max()) if q else 1
    view = sorted_view(ranking, width)
    good = sorted_good(benchmark, ranking, passes, view.width)
    top = ranking.order_to(view.width)
    own = (p.owner[top] == np.arange(q)[:, None]) & p.is_distractor[top] & (top >= 0)
    miss = view.group_mean(~good)[:, 0]
    own_miss = view.group_mean(own & ~good)[:, 0]
    keep = query_mask(benchmark, exclude)
    total = float(miss[keep].sum())
    return float(own_miss[keep].sum()) / total if total > 0 else NAN


def deception_by_bug_type(benchmark: Benchmark, ranking: Ranking, *,
                          exclude: Collection[str] = frozenset(),
                          kind: str = "ranked") -> dict[str, float]:
    """Per bug type: share of paired distractors ranked above their canonical (a tie
    counts 1/2, its expectation), or with ``kind="strict"`` scoring strictly above it, or
    with ``kind="tied"`` scoring exactly the same (pairs the model retrieved neither
    snippet of are left out)."""
    p, above, known = pair_above(benchmark, ranking)
    if kind == "strict":
        above = (above == 1.0).astype(np.float64)
    elif kind == "tied":
        above = (above == 0.5).astype(np.float64)
    elif kind != "ranked":
        raise ValueError(f"unknown kind {kind!r}")
    keep = query_mask(benchmark, exclude)[p.pair_q] & known
    bugs = np.array(p.bug_type, dtype=object)
    return {bug: _mean(above[keep & (bugs == bug)].astype(np.float64))
            for bug in sorted(set(p.bug_type))}


def exec1_by_domain(benchmark: Benchmark, exec1: np.ndarray, *,
                    exclude: Collection[str] = frozenset()) -> dict[str, float]:
    """Mean exec@1 over the queries of each domain; ``exec1`` is the per-query exec@1
    (Q,), e.g. its expectation over tie orders, or a (Q x depth) pass matrix (column 0)."""
    keep = query_mask(benchmark, exclude)
    domains = np.array([q.domain for q in benchmark.queries], dtype=object)
    values = np.asarray(exec1, dtype=np.float64)
    hit = values[:, 0] if values.ndim == 2 else values
    return {d: _mean(hit[keep & (domains == d)]) for d in benchmark.domains
            if (keep & (domains == d)).any()}


def density_ablation(benchmark: Benchmark, ranking: Ranking, passes: np.ndarray, *,
                     max_kept: int = 4,
                     exclude: Collection[str] = frozenset()) -> dict[str, float]:
    """exec@1 when only m of each query's paired distractors stay in its pool, m = 0..max_kept.

    For query q with paired distractors D(q), every subset S of D(q) with |S| = min(m, |D(q)|)
    is kept in turn (the others are removed from q's ranking only; other queries' snippets
    stay): exec@1_m(q) is the mean over all such S of the passing share of the top tie
    group of what remains (its expected exec@1 over tie orders; without ties, whether the
    first remaining candidate passes). This is an exact average over subsets, not a random
    draw, so no seed is involved. The result is the mean of exec@1_m(q) over queries. A
    candidate below the depth of ``passes`` counts as passing iff it is one of the query's
    ``correct_corpus_ids``.
    """
    p = pairs(benchmark)
    keep = np.flatnonzero(query_mask(benchmark, exclude))
    n_own = (p.distractor_matrix >= 0).sum(axis=1)
    width = p.distractor_matrix.shape[1]
    # the first kept candidate is always within the top |D(q)| + 1; its tie group may
    # reach further
    reach = min(width + 1, ranking.shape[1])
    ranking.check_depth(reach, "the density ablation's depth (most mutants + 1)")
    span = int(needed_depth(ranking, reach).max()) if len(benchmark.queries) else reach
    view = sorted_view(ranking, max(span, reach))
    hits = sorted_good(benchmark, ranking, passes, view.width)
    cols = min(view.width, ranking.width)
    order = ranking.order[:, :cols].astype(np.int64)
    # rank position (0-based) of each paired distractor, or -1 if it is further down
    own_pos = np.full(p.distractor_matrix.shape, -1, dtype=np.int64)
    for r in range(cols):
        own_pos[(p.distractor_matrix == order[:, r:r + 1]) & (p.distractor_matrix >= 0)] = r
    totals = np.zeros((max_kept + 1, len(benchmark.queries)))
    for n in range(width + 1):
        group = keep[n_own[keep] == n]
        if not group.size:
            continue
        rows = np.arange(group.size)
        keys = view.keys[group]
        good = hits[group]
        for m in range(max_kept + 1):
            subsets = list(itertools.combinations(range(n), min(m, n)))
            for kept in subsets:
                removed = np.zeros((group.size, view.width + 1), dtype=bool)
                for i in range(n):
                    if i not in kept:
                        removed[rows, own_pos[group, i]] = True   # -1: the spare column
                removed = removed[:, :view.width]
                first = np.argmin(removed, axis=1)  # first position not removed
                top = (keys == keys[rows, first][:, None]) & ~removed
                share = (top & good).sum(axis=1) / top.sum(axis=1)
                totals[m, group] += share / len(subsets)
    return {str(m): _mean(totals[m, keep]) for m in range(max_kept + 1)}


def summary(benchmark: Benchmark, ranking: Ranking, passes: np.ndarray, *,
            exclude: Collection[str] = frozenset(), exec1: np.ndarray | None = None,
            scores: Ranking | None = None) -> Mapping[str, Any]:
    """All analyses of one model, keyed as in the report JSON.

    ``ranking`` is the model's ranking (ties counted as their expectation) or a tie-free
    surrogate (:func:`~execretrieval.measure.ties.break_ties`); ``scores`` the model's own
    ranking when ``ranking`` is a surrogate (strict/tied classes and score margins come from
    real scores); ``exec1`` the per-query exec@1 (default: column 0 of ``passes``)."""
    real = scores if scores is not None else ranking
    strict, tied = deception_classes(benchmark, real)
    keep = query_mask(benchmark, exclude)
    return {
        "deception_rate": deception_rate(benchmark, ranking, exclude=exclude),
        "deception_strict": _kept_mean(strict, keep),
        "deception_tied": _kept_mean(tied, keep),
        "rank1_paired_miss_share": rank1_paired_miss_share(benchmark, ranking, passes,
                                                           exclude=exclude),
        "deception_by_bug_type": deception_by_bug_type(benchmark, ranking, exclude=exclude),
        "deception_by_bug_type_strict": deception_by_bug_type(benchmark, real,
                                                              exclude=exclude, kind="strict"),
        "deception_by_bug_type_tied": deception_by_bug_type(benchmark, real, exclude=exclude,
                                                            kind="tied"),
        "exec1_by_domain": exec1_by_domain(benchmark, passes if exec1 is None else exec1,
                                           exclude=exclude),
        "density_ablation": density_ablation(benchmark, ranking, passes, exclude=exclude),
        "edit_span_vs_deception": edit_span_vs_deception(benchmark, ranking, exclude=exclude,
                                                         scores=real),
    }
