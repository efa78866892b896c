"""Tied scores, honestly: expected metrics over every order of tied candidates.

A model that gives two snippets the same score has not ranked one above the other; which
comes first is decided by whoever sorts (this tool: line order in ``corpus.jsonl``;
trec_eval: document id). Following McSherry & Najork ("Computing information retrieval
performance measures efficiently in the presence of tied scores", ECIR 2008), the default
figure is the exact expectation over all orderings of tied scores, in closed form.

For one query let the ranking be cut into *tie groups* (maximal runs of equal score). For
the cut at k, let ``a`` be the number of candidates scoring strictly above the group that
straddles position k, ``t`` that group's size, ``m = k - a`` how many of its members land
in the top k (a uniformly random m-subset of the group, for a uniformly random order), and
``g`` how many of them pass. Then::

    E[exec@k]  = 1                                 if some candidate above the group passes
               = 1 - C(t - g, m) / C(t, m)          otherwise (hypergeometric: P(X >= 1))
    E[execp@k] = (passing above + m * g / t) / k
    E[DCG@k]   = sum_{r=1..k} (rel(group of r) / |group of r|) / log2(r + 1)

(every position of a group has expected gain equal to the group's mean gain). Unretrieved
snippets (score -inf, e.g. past the end of a TREC run) form a last group that never passes.

Policies (``TIE_POLICIES``): ``expected`` (the above; the default), ``optimistic`` and
``pessimistic`` (ties broken for / against correct code: passing snippets, then relevant
ones, first / last within each group), ``corpus`` (corpus line order, as a stable sort
gives). The three deterministic policies are applied by :func:`break_ties`, which returns a
tie-free surrogate ranking; the expectation kernels below then reduce to the plain
deterministic metrics, so every figure has one implementation.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

import numpy as np

from ..ranking.ranking import Ranking

__all__ = [
    "TIE_POLICIES",
    "SortedView",
    "break_ties",
    "expected_dcg",
    "expected_exec_at_k",
    "expected_execp_at_k",
    "needed_depth",
    "rank_range",
    "ranking_keys",
    "sort_keys",
    "sorted_view",
    "tied_rows",
    "ties_across_cut",
]

TIE_POLICIES = ("expected", "optimistic", "pessimistic", "corpus")


def sort_keys(scores: np.ndarray) -> np.ndarray:
    """Scores as the sort sees them: NaN is -inf (it ranks last, with the unretrieved)."""
    matrix = np.asarray(scores, dtype=np.float64)
    return np.where(np.isnan(matrix), -np.inf, matrix)


_KEYS: weakref.WeakKeyDictionary[Ranking, np.ndarray] = weakref.WeakKeyDictionary()
_KEYS_LOCK = threading.Lock()


def ranking_keys(ranking: Ranking) -> np.ndarray:
    """:func:`sort_keys` of a ranking's scores, computed once per Ranking (read-only)."""
    with _KEYS_LOCK:
        cached = _KEYS.get(ranking)
    if cached is None:
        cached = sort_keys(ranking.scores)
        cached.flags.writeable = False
        with _KEYS_LOCK:
            _KEYS[ranking] = cached
    return cached


def needed_depth(ranking: Ranking, depth: int) -> np.ndarray:
    """(Q,) int: how many leading candidates of each query must be executed so that every
    snippet that can land in the top ``depth`` under some order of ties is known.

    That is ``depth`` extended to the end of the tie group straddling it; the unretrieved
    tail (score -inf) is never executed, so it does not extend the depth.
    """
    q, n = ranking.shape
    d = max(0, min(int(depth), n))
    if d == 0 or q == 0:
        return np.full(q, d, dtype=np.int64)
    keys = ranking_keys(ranking)
    rows = np.arange(q)
    cut = keys[rows, ranking.order[:, d - 1]]
    end = (keys >= cut[:, None]).sum(axis=1)          # the straddling group's end
    retrieved = np.asarray(ranking.retrieved).sum(axis=1)
    return np.maximum(d, np.minimum(end, retrieved)).astype(np.int64)


@dataclass(frozen=True, eq=False)
class SortedView:
    """One ranking's first ``width`` positions with their tie structure (all Q x width).

    ``keys`` are the sort keys in rank order; ``start`` / ``end`` the first position and
    one past the last of each position's tie group (``end`` is capped at ``width``, which
    only truncates groups lying wholly past every cut asked about).
    """

    keys: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @property
    def width(self) -> int:
        return int(self.keys.shape[1])

    def group_mean(self, values: np.ndarray) -> np.ndarray:
        """(Q x width) float: each position's group mean of ``values`` (Q x width)."""
        cum = _cumsum0(values)
        rows = np.arange(values.shape[0])[:, None]
        total = cum[rows, self.end] - cum[rows, self.start]
        return total / (self.end - self.start)


def _cumsum0(values: np.ndarray) -> np.ndarray:
    """Row-wise cumulative sums with a leading zero column (float64)."""
    out = np.zeros((values.shape[0], values.shape[1] + 1))
    np.cumsum(np.asarray(values, dtype=np.float64), axis=1, out=out[:, 1:])
    return out


def sorted_view(ranking: Ranking, width: int) -> SortedView:
    """The tie structure of the first ``width`` positions (padded with -inf past the end)."""
    q, n = ranking.shape
    width = max(1, int(width))
    keys = np.full((q, width), -np.inf)
    shown = min(width, n)
    if shown:
        keys[:, :shown] = np.take_along_axis(ranking_keys(ranking),
                                             ranking.order[:, :shown].astype(np.intp), axis=1)
    idx = np.broadcast_to(np.arange(width), (q, width))
    new = np.ones((q, width), dtype=bool)
    new[:, 1:] = keys[:, 1:] != keys[:, :-1]
    start = np.maximum.accumulate(np.where(new, idx, 0), axis=1)
    last = np.ones((q, width), dtype=bool)
    last[:, :-1] = keys[:, :-1] != keys[:, 1:]
    end_at = np.where(last, idx + 1, width)
    end = np.minimum.accumulate(end_at[:, ::-1], axis=1)[:, ::-1]
    return SortedView(keys, np.ascontiguousarray(start), np.ascontiguousarray(end))


def _cut(view: SortedView, good: np.ndarray, k: int
         ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For the cut at k: (good above the straddling group, group size t, drawn m, good g)."""
    if k > view.width:
        raise ValueError(f"the view holds {view.width} positions, the cut is at {k}")
    cum = _cumsum0(good)
    rows = np.arange(good.shape[0])
    a = view.start[:, k - 1]
    e = view.end[:, k - 1]
    return cum[rows, a], (e - a).astype(np.float64), (k - a).astype(np.float64), \
        cum[rows, e] - cum[rows, a]


def expected_exec_at_k(view: SortedView, good: np.ndarray, k: int) -> np.ndarray:
    """(Q,) E[exec@k]: 1 if a candidate above the straddling group passes, else
    ``1 - C(t - g, m) / C(t, m)`` (the chance that the m drawn include a passing one)."""
    above, t, m, g = _cut(view, good, k)
    none = np.ones_like(t)
    for i in range(k):   # C(t-g, m) / C(t, m) = prod_{i<m} (t - g - i) / (t - i)
        factor = np.clip(t - g - i, 0.0, None) / np.maximum(t - i, 1.0)
        none *= np.where(i < m, factor, 1.0)
    return np.where(above > 0, 1.0, 1.0 - none)


def expected_execp_at_k(view: SortedView, good: np.ndarray, k: int) -> np.ndarray:
    """(Q,) E[execp@k] = (passing above + m * g / t) / k."""
    above, t, m, g = _cut(view, good, k)
    return (above + m * g / t) / k


def expected_dcg(view: SortedView, relevant: np.ndarray, k: int,
                 gains: np.ndarray | None = None) -> np.ndarray:
    """(Q,) E[DCG@k] with binary gains: each position gains its group's relevant share
    (``gains``: ``view.group_mean(relevant)``, if already computed)."""
    gains = (view.group_mean(relevant) if gains is None else gains)[:, :k]
    discounts = 1.0 / np.log2(np.arange(2, k + 2, dtype=np.float64))
    return np.asarray(gains @ discounts[: gains.shape[1]], dtype=np.float64)


def rank_range(ranking: Ranking, query_index: int, corpus_indices: np.ndarray | list[int]
               ) -> tuple[np.ndarray, np.ndarray]:
    """(best, worst) 1-based ranks each snippet can take over the orders of its ties:
    ``1 + #(scoring above)`` and ``#(scoring at least as high)``."""
    keys = sort_keys(ranking.scores[query_index])
    own = keys[np.asarray(corpus_indices, dtype=np.intp)]
    ordered = np.sort(keys)   # ascending
    above = keys.size - np.searchsorted(ordered, own, side="right")
    at_least = keys.size - np.searchsorted(ordered, own, side="left")
    return (above + 1).astype(np.int64), at_least.astype(np.int64)


def ties_across_cut(ranking: Ranking, k: int) -> np.ndarray:
    """(Q,) bool: does a tie group of retrieved snippets straddle the top-k boundary
    (the k-th and (k+1)-th candidates score the same)?"""
    q, n = ranking.shape
    if k >= n or k < 1:
        return np.zeros(q, dtype=bool)
    keys = ranking_keys(ranking)
    pair = np.take_along_axis(keys, ranking.order[:, k - 1:k + 1].astype(np.intp), axis=1)
    return (pair[:, 0] == pair[:, 1]) & (pair[:, 0] > -np.inf)


_TIES: weakref.WeakKeyDictionary[Ranking, tuple[np.ndarray, np.ndarray]] = \
    weakref.WeakKeyDictionary()


def tied_rows(ranking: Ranking) -> tuple[np.ndarray, np.ndarray]:
    """(rows, same): the queries whose retrieved snippets include tied scores, and for those
    rows whether each ranked position r + 1 scores the same as position r (cached)."""
    with _KEYS_LOCK:
        cached = _TIES.get(ranking)
    if cached is None:
        ranked = np.take_along_axis(ranking_keys(ranking), ranking.order.astype(np.intp),
                                    axis=1)
        same = (ranked[:, 1:] == ranked[:, :-1]) & (ranked[:, 1:] > -np.inf)
        rows = np.flatnonzero(same.any(axis=1))
        cached = (rows, same[rows])
        with _KEYS_LOCK:
            _TIES[ranking] = cached
    return cached


def break_ties(ranking: Ranking, good: np.ndarray, relevant: np.ndarray,
               policy: str) -> Ranking:
    """A tie-free ranking that orders each tie group by ``policy``.

    ``good`` and ``relevant`` are (Q x N) bool over corpus columns (passes the tests, is a
    correct id). ``optimistic`` puts passing then relevant snippets first within a group,
    ``pessimistic`` last; ``corpus`` keeps corpus order; all keep corpus order otherwise.
    In rows with ties the result's scores are surrogates (``N - position`` for retrieved
    snippets, -inf for the rest) whose order is all that means anything; a ranking without
    ties is returned as it is.
    """
    if policy not in TIE_POLICIES or policy == "expected":
        raise ValueError(f"break_ties needs a deterministic policy, got {policy!r}")
    q, n = ranking.shape
    if n < 2:
        return ranking
    rows, same = tied_rows(ranking)
    if not rows.size:
        return ranking          # no ties: already the deterministic ranking of every policy
    sub = np.asarray(ranking.order[rows], dtype=np.int64)
    if policy != "corpus":
        # the order is already by score, so a stable sort on (group, bonus) moves nothing
        # but the members of tie groups
        bonus = (2 * np.take_along_axis(np.asarray(good[rows], dtype=np.int64), sub, axis=1)
                 + np.take_along_axis(np.asarray(relevant[rows], dtype=np.int64), sub, axis=1))
        rank = 3 - bonus if policy == "optimistic" else bonus
        group = np.zeros(sub.shape, dtype=np.int64)
        np.cumsum(~same, axis=1, out=group[:, 1:])
        sub = np.take_along_axis(sub, np.argsort(group * 4 + rank, axis=1, kind="stable"),
                                 axis=1)
    # rows without ties keep their scores; rows with ties get N - position (surrogates)
    surrogate = np.array(ranking.scores, dtype=np.float64, copy=True)
    positions = np.empty(sub.shape)
    np.put_along_axis(positions, sub,
                      np.broadcast_to(np.arange(n, 0, -1, dtype=np.float64), sub.shape), axis=1)
    positions[~np.asarray(ranking.retrieved)[rows]] = -np.inf
    surrogate[rows] = positions
    order = np.array(ranking.order, copy=True)
    order[rows] = sub
    surrogate.flags.writeable = False
    order.flags.writeable = False
    return Ranking(model=ranking.model, scores=surrogate, order=order, source=ranking.source)
