"""How retrievers get deceived: the paper's analyses of canonicals against their own mutants.

Every function takes an ``exclude`` set of query ids; excluded queries are left out of the
average (their snippets stay in every other query's pool). A query's *paired* distractors
are its own buggy mutants; "deceived" compares scores strictly (a tie does not deceive).
Queries without a canonical or without distractors cannot be deceived and are left out of
the deception averages. An average over nothing is NaN.
"""

from __future__ import annotations

import itertools
import math
import threading
import weakref
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..ranking.ranking import Ranking

__all__ = [
    "Pairs",
    "deception_by_bug_type",
    "deception_per_query",
    "deception_rate",
    "density_ablation",
    "edit_span",
    "edit_span_vs_deception",
    "exec1_by_domain",
    "pairs",
    "query_mask",
    "rank1_paired_miss_share",
]

NAN = float("nan")
SPAN_BINS = (1, 2, 3, 5, 9, 17)  # lower edges: 1, 2, 3-4, 5-8, 9-16, 17+ characters


@dataclass(frozen=True, eq=False)
class Pairs:
    """Each query's canonical and paired distractors as index arrays (cached per benchmark).

    ``canonical[q]`` is the canonical's corpus index or -1; ``pair_q``, ``pair_d``,
    ``pair_c`` list every (query, distractor, canonical) triple with a canonical.
    """

    canonical: np.ndarray
    distractors: tuple[tuple[int, ...], ...]
    pair_q: np.ndarray
    pair_d: np.ndarray
    pair_c: np.ndarray
    bug_type: tuple[str, ...]
    correct: tuple[frozenset[int], ...]
    correct_matrix: np.ndarray      # (Q x max correct), corpus indices padded with -1
    distractor_matrix: np.ndarray   # (Q x max distractors), corpus indices padded with -1
    owner: np.ndarray               # (N,) query index of each snippet (-1 if unknown)
    is_distractor: np.ndarray       # (N,) bool

    def relevant(self, top: np.ndarray) -> np.ndarray:
        """Bool like ``top`` (Q x r corpus indices): is each one a correct id of its row?"""
        if self.correct_matrix.shape[1] == 0:
            return np.zeros(top.shape, dtype=bool)
        return (top[:, :, None] == self.correct_matrix[:, None, :]).any(axis=2)


_CACHE: weakref.WeakKeyDictionary[Any, Pairs] = weakref.WeakKeyDictionary()
_SPANS: weakref.WeakKeyDictionary[Any, np.ndarray] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def pairs(benchmark: Benchmark) -> Pairs:
    """The pairing structure of a benchmark (computed once per Benchmark object)."""
    with _LOCK:
        cached = _CACHE.get(benchmark)
    if cached is not None:
        return cached
    canonical = np.full(len(benchmark.queries), -1, dtype=np.int64)
    distractors: list[tuple[int, ...]] = []
    pq: list[int] = []
    pd: list[int] = []
    pc: list[int] = []
    bugs: list[str] = []
    for qi, query in enumerate(benchmark.queries):
        canon = benchmark.canonical_for(query.query_id)
        own = tuple(benchmark.corpus_index(s.corpus_id)
                    for s in benchmark.distractors_for(query.query_id))
        distractors.append(own)
        if canon is None:
            continue
        canonical[qi] = benchmark.corpus_index(canon.corpus_id)
        for dj in own:
            pq.append(qi)
            pd.append(dj)
            pc.append(int(canonical[qi]))
            bugs.append(benchmark.corpus[dj].bug_type or "unknown")
    correct = tuple(frozenset(benchmark.corpus_index(c) for c in q.correct_corpus_ids)
                    for q in benchmark.queries)
    owner = np.array([benchmark.query_index(s.query_id) if benchmark.has_query(s.query_id)
                      else -1 for s in benchmark.corpus], dtype=np.int64)
    result = Pairs(canonical, tuple(distractors), np.array(pq, dtype=np.int64),
                   np.array(pd, dtype=np.int64), np.array(pc, dtype=np.int64), tuple(bugs),
                   correct, _padded([sorted(c) for c in correct]), _padded(distractors),
                   owner, np.array([s.role == "distractor" for s in benchmark.corpus], dtype=bool))
    with _LOCK:
        _CACHE[benchmark] = result
    return result


def _padded(rows: Sequence[Sequence[int]]) -> np.ndarray:
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), -1, dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, : len(row)] = row
    return out


def query_mask(benchmark: Benchmark, exclude: Collection[str]) -> np.ndarray:
    """(Q,) bool: True for the queries measured, False for those in ``exclude``."""
    if not exclude:
        return np.ones(len(benchmark.queries), dtype=bool)
    return np.array([q.query_id not in exclude for q in benchmark.queries], dtype=bool)


def _mean(values: np.ndarray) -> float:
    return float(values.mean()) if values.size else NAN


def _pair_above(benchmark: Benchmark, ranking: Ranking
                ) -> tuple[Pairs, np.ndarray, np.ndarray]:
    """Each pair's [distractor scores above its canonical], and whether that is known: a
    pair neither of whose snippets the model retrieved (past the end of a TREC run) is
    not known and left out of every deception share."""
    p = pairs(benchmark)
    s = ranking.scores
    r = ranking.retrieved
    known = r[p.pair_q, p.pair_d] | r[p.pair_q, p.pair_c]
    return p, s[p.pair_q, p.pair_d] > s[p.pair_q, p.pair_c], known


def deception_per_query(benchmark: Benchmark, ranking: Ranking) -> np.ndarray:
    """(Q,) float: 1 if some paired distractor scores above the canonical, 0 if none, NaN if
    the query has no canonical or no distractors, or if none is above but the model
    retrieved neither the canonical nor some distractor (a query a TREC run leaves out)."""
    p, above, known = _pair_above(benchmark, ranking)
    out = np.full(len(benchmark.queries), NAN)
    out[np.unique(p.pair_q)] = 0.0
    out[np.unique(p.pair_q[~known])] = NAN
    out[p.pair_q[above]] = 1.0
    return out


def deception_rate(benchmark: Benchmark, ranking: Ranking, *,
                   exclude: Collection[str] = frozenset()) -> float:
    """Share of queries whose canonical scores below at least one paired distractor.

    ``mean over eligible q of [max_{d in D(q)} s(q, d) > s(q, canonical(q))]``.
    """
    values = deception_per_query(benchmark, ranking)[query_mask(benchmark, exclude)]
    return _mean(values[~np.isnan(values)])


def rank1_paired_miss_share(benchmark: Benchmark, ranking: Ranking, passes: np.ndarray, *,
                            exclude: Collection[str] = frozenset()) -> float:
    """Of the queries whose rank-1 candidate fails, the share where it is the query's own
    distractor: ``#{q: not passes[q,0] and top1(q) in D(q)} / #{q: not passes[q,0]}``."""
    p = pairs(benchmark)
    mask = query_mask(benchmark, exclude) & ~np.asarray(passes[:, 0], dtype=bool)
    top1 = ranking.order[:, 0]
    listed = ranking.retrieved[np.arange(len(top1)), top1]
    own = (p.owner[top1] == np.arange(len(top1))) & p.is_distractor[top1] & listed
    return _mean(own[mask].astype(np.float64))


def deception_by_bug_type(benchmark: Benchmark, ranking: Ranking, *,
                          exclude: Collection[str] = frozenset()) -> dict[str, float]:
    """Per bug type: share of paired distractors scoring strictly above their canonical
    (pairs the model retrieved neither snippet of are left out)."""
    p, above, known = _pair_above(benchmark, ranking)
    keep = query_mask(benchmark, exclude)[p.pair_q] & known
    bugs = np.array(p.bug_type, dtype=object)
    return {bug: _mean(above[keep & (bugs == bug)].astype(np.float64))
            for bug in sorted(set(p.bug_type))}


def exec1_by_domain(benchmark: Benchmark, passes: np.ndarray, *,
                    exclude: Collection[str] = frozenset()) -> dict[str, float]:
    """Mean exec@1 (``passes[:, 0]``) over the queries of each domain."""
    keep = query_mask(benchmark, exclude)
    domains = np.array([q.domain for q in benchmark.queries], dtype=object)
    hit = np.asarray(passes[:, 0], dtype=np.float64)
    return {d: _mean(hit[keep & (domains == d)]) for d in benchmark.domains
            if (keep & (domains == d)).any()}


def density_ablation(benchmark: Benchmark, ranking: Ranking, passes: np.ndarray, *,
                     max_kept: int = 4,
                     exclude: Collection[str] = frozenset()) -> dict[str, float]:
    """exec@1 when only m of each query's paired distractors stay in its pool, m = 0..max_kept.

    For query q with paired distractors D(q), every subset S of D(q) with |S| = min(m, |D(q)|)
    is kept in turn (the others are removed from q's ranking only; other queries' snippets
    stay): exec@1_m(q) is the mean over all such S of [first candidate of q's ranking not in
    D(q) \\ S passes]. This is an exact average over subsets, not a random draw, so no seed is
    involved. The result is the mean of exec@1_m(q) over queries. A candidate below the
    depth of ``passes`` (possible only if depth < |D(q)| + 1) counts as passing iff it is
    one of the query's ``correct_corpus_ids``.
    """
    p = pairs(benchmark)
    keep = np.flatnonzero(query_mask(benchmark, exclude))
    n_own = (p.distractor_matrix >= 0).sum(axis=1)
    width = p.distractor_matrix.shape[1]
    # the first kept candidate is always within the top |D(q)| + 1
    reach = min(width + 1, ranking.order.shape[1])
    order = ranking.order[:, :reach].astype(np.int64)
    hits = np.zeros((len(benchmark.queries), reach), dtype=bool)
    depth = min(passes.shape[1], reach)
    hits[:, :depth] = passes[:, :depth]
    if depth < reach:  # below the executed depth: correct ids pass, nothing else does
        listed = np.take_along_axis(ranking.retrieved, order[:, depth:], axis=1)
        hits[:, depth:] = p.relevant(order[:, depth:]) & listed
    # rank position (0-based) of each paired distractor, or reach if it is further down
    own_pos = np.full(p.distractor_matrix.shape, reach, dtype=np.int64)
    for r in range(reach):
        own_pos[(p.distractor_matrix == order[:, r:r + 1]) & (p.distractor_matrix >= 0)] = r
    totals = np.zeros((max_kept + 1, len(benchmark.queries)))
    for n in range(width + 1):
        group = keep[n_own[keep] == n]
        if not group.size:
            continue
        for m in range(max_kept + 1):
            subsets = list(itertools.combinations(range(n), min(m, n)))
            for kept in subsets:
                removed = [i for i in range(n) if i not in kept]
                blocked = np.zeros((group.size, reach + 1), dtype=bool)
                for i in removed:
                    blocked[np.arange(group.size), own_pos[group, i]] = True
                first = np.argmin(blocked[:, :reach], axis=1)  # first rank not removed
                totals[m, group] += hits[group, first] / len(subsets)
    return {str(m): _mean(totals[m, keep]) for m in range(max_kept + 1)}


def edit_span(canonical: str, distractor: str) -> int:
    """Characters in the edited region: with p the longest common prefix and s the longest
    common suffix (not overlapping p), ``max(len(a) - p - s, len(b) - p - s)``.

    For a single edit this is the length of the changed stretch, e.g. 1 for ``&`` -> ``|``,
    4 for ``a, b`` -> ``b, a``, the guard's length for a deleted guard.
    """
    a, b = canonical, distractor
    limit = min(len(a), len(b))
    p = 0
    while p < limit and a[p] == b[p]:
        p += 1
    s = 0
    while s < limit - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
        s += 1
    return max(len(a) - p - s, len(b) - p - s)


def pair_edit_spans(benchmark: Benchmark) -> np.ndarray:
    """Edit span of every paired distractor against its canonical, aligned with ``pairs``."""
    with _LOCK:
        cached = _SPANS.get(benchmark)
    if cached is not None:
        return cached
    p = pairs(benchmark)
    spans = np.array([edit_span(benchmark.corpus[c].code, benchmark.corpus[d].code)
                      for d, c in zip(p.pair_d.tolist(), p.pair_c.tolist(), strict=True)],
                     dtype=np.int64)
    with _LOCK:
        _SPANS[benchmark] = spans
    return spans


def _average_ranks(values: np.ndarray) -> np.ndarray:
    """1-based ranks, ties sharing the mean of their positions."""
    order = np.argsort(values, kind="stable")
    sorted_values = values[order]
    starts = np.flatnonzero(np.r_[True, sorted_values[1:] != sorted_values[:-1]])
    ends = np.r_[starts[1:], values.size]
    mean_rank = (starts + ends + 1) / 2.0
    ranks = np.empty(values.size)
    ranks[order] = np.repeat(mean_rank, ends - starts)
    return ranks


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho: Pearson's r of the average ranks; NaN if either side is constant."""
    rx = _average_ranks(np.asarray(x, dtype=np.float64))
    ry = _average_ranks(np.asarray(y, dtype=np.float64))
    rx -= rx.mean()
    ry -= ry.mean()
    denom = math.sqrt(float(rx @ rx) * float(ry @ ry))
    return float(rx @ ry / denom) if denom > 0 else NAN


def edit_span_vs_deception(benchmark: Benchmark, ranking: Ranking, *,
                           exclude: Collection[str] = frozenset()) -> dict[str, Any]:
    """Deception against edit size: share of paired distractors above their canonical per
    span bin, and Spearman's rho between span and margin ``s(q, d) - s(q, canonical)``."""
    p, above, known = _pair_above(benchmark, ranking)
    spans = pair_edit_spans(benchmark)
    included = query_mask(benchmark, exclude)[p.pair_q]
    keep = included & known
    with np.errstate(invalid="ignore"):  # -inf - -inf: both unretrieved, NaN, left out
        margin = ranking.scores[p.pair_q, p.pair_d] - ranking.scores[p.pair_q, p.pair_c]
    bins: list[dict[str, Any]] = []
    edges = (*SPAN_BINS, None)
    for low, high in itertools.pairwise(edges):
        sel = keep & (spans >= low) & ((spans < high) if high is not None else True)
        bins.append({"span_min": low, "span_max": (high - 1) if high is not None else None,
                     "distractors": int(sel.sum()),
                     "deception": _mean(above[sel].astype(np.float64))})
    rho = NAN
    finite = keep & np.isfinite(margin)
    if finite.sum() > 2 and np.ptp(spans[finite]) > 0 and np.ptp(margin[finite]) > 0:
        rho = spearman(spans[finite], margin[finite])
    return {"bins": bins, "spearman_span_margin": rho,
            "mean_span": _mean(spans[included].astype(np.float64))}


def summary(benchmark: Benchmark, ranking: Ranking, passes: np.ndarray, *,
            exclude: Collection[str] = frozenset()) -> Mapping[str, Any]:
    """All analyses of one model, keyed as in the report JSON."""
    return {
        "deception_rate": deception_rate(benchmark, ranking, exclude=exclude),
        "rank1_paired_miss_share": rank1_paired_miss_share(benchmark, ranking, passes,
                                                           exclude=exclude),
        "deception_by_bug_type": deception_by_bug_type(benchmark, ranking, exclude=exclude),
        "exec1_by_domain": exec1_by_domain(benchmark, passes, exclude=exclude),
        "density_ablation": density_ablation(benchmark, ranking, passes, exclude=exclude),
        "edit_span_vs_deception": edit_span_vs_deception(benchmark, ranking, exclude=exclude),
    }
