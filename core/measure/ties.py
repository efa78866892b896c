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


def needed_depth(ranking: Ranking, depth: int) -> np.ndarray:
    """(Q,) int: how many leading candidates of each query must be executed so that every
    snippet that can land in the top ``depth`` under some order of ties is known.

    That is ``depth`` extended to the end of the tie group straddling it (stored whole by
    the ranking); the unretrieved tail (score -inf) is never executed, so it does not
    extend the depth.
    """
    q, n = ranking.shape
    d = max(0, min(int(depth), n))
    if d == 0 or q == 0:
        return np.full(q, d, dtype=np.int64)
    ranking.check_depth(d, "the execution depth")
    keys = ranking.keys_to(max(d, ranking.width))
    cut = keys[:, d - 1]
    end = (keys >= cut[:, None]).sum(axis=1)   # rows are sorted best first
    end = np.where(cut == -np.inf, d, end)
    return np.maximum(d, end).astype(np.int64)


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
    q = ranking.shape[0]
    width = max(1, int(width))
    keys = ranking.keys_to(width)
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
    ``1 + #(scoring above)`` and ``#(scoring at least as high)``; 0 for a snippet the
    ranking does not keep (below its depth and none of the query's own)."""
    js = np.asarray(corpus_indices, dtype=np.int64)
    found = ranking.lookup(np.full(js.shape, query_index), js)
    return found.best.astype(np.int64), found.worst.astype(np.int64)


def ties_across_cut(ranking: Ranking, k: int) -> np.ndarray:
    """(Q,) bool: does a tie group of retrieved snippets straddle the top-k boundary
    (the k-th and (k+1)-th candidates score the same)?"""
    q, n = ranking.shape
    if k >= n or k < 1:
        return np.zeros(q, dtype=bool)
    pair = ranking.keys_to(k + 1)[:, k - 1:k + 1]
    return (pair[:, 0] == pair[:, 1]) & (pair[:, 0] > -np.inf)


_TIES: weakref.WeakKeyDictionary[Ranking, tuple[np.ndarray, np.ndarray]] = \
    weakref.WeakKeyDictionary()
_TIES_LOCK = threading.Lock()


def tied_rows(ranking: Ranking) -> tuple[np.ndarray, np.ndarray]:
    """(rows, same): the queries whose stored snippets include tied scores, and for those
    rows whether each stored position r + 1 scores the same as position r (cached)."""
    with _TIES_LOCK:
        cached = _TIES.get(ranking)
    if cached is None:
        ranked = ranking.keys
        same = (ranked[:, 1:] == ranked[:, :-1]) & (ranked[:, 1:] > -np.inf)
        rows = np.flatnonzero(same.any(axis=1))
        cached = (rows, same[rows])
        with _TIES_LOCK:
            _TIES[ranking] = cached
    return cached


def break_ties(ranking: Ranking, good: np.ndarray, relevant: np.ndarray, policy: str, *,
               own_good: np.ndarray | None = None) -> tuple[Ranking, np.ndarray]:
    """A tie-free ranking that orders each tie group by ``policy``, and the permutation.

    ``good`` and ``relevant`` are (Q x width) bool in the ranking's stored order (passes the
    tests, is a correct id); ``own_good`` (Q x G, aligned with ``ranking.own_index``) says
    which of each query's own snippets pass, for those ranked below the stored depth
    (default: none). ``optimistic`` puts passing then relevant snippets first within a group,
    ``pessimistic`` last; ``corpus`` keeps corpus order. Returns the surrogate ranking and
    ``perm`` (Q x width): position r of the surrogate holds the original's position
    ``perm[q, r]``. The surrogate's keys are ``N - position`` (-inf where nothing is
    stored); the query's own snippets below the stored depth get keys below every stored
    one, ordered among equal real scores by the same policy. A ranking without ties is
    returned as it is.
    """
    if policy not in TIE_POLICIES or policy == "expected":
        raise ValueError(f"break_ties needs a deterministic policy, got {policy!r}")
    q, width = ranking.order.shape
    perm = np.broadcast_to(np.arange(width), (q, width))
    rows, same = tied_rows(ranking)
    own_ties = _own_ties_below(ranking)
    if not rows.size and not own_ties:
        return ranking, perm     # no ties: already the deterministic ranking of every policy
    perm = np.array(perm, dtype=np.int64)
    if policy != "corpus" and rows.size:
        # the order is already by score, so a stable sort on (group, bonus) moves nothing
        # but the members of tie groups
        bonus = (2 * np.asarray(good[rows], dtype=np.int64)
                 + np.asarray(relevant[rows], dtype=np.int64))
        rank = 3 - bonus if policy == "optimistic" else bonus
        group = np.zeros((rows.size, width), dtype=np.int64)
        np.cumsum(~same, axis=1, out=group[:, 1:])
        perm[rows] = np.argsort(group * 4 + rank, axis=1, kind="stable")
    order = np.take_along_axis(ranking.order, perm, axis=1)
    n = ranking.shape[1]
    keys = np.where(order >= 0, n - np.arange(width, dtype=np.float64)[None, :], -np.inf)
    own_key, own_rank = _own_surrogates(ranking, order, policy, own_good)
    for a in (order, keys, own_key, own_rank):
        a.flags.writeable = False
    tie_free = Ranking(ranking.model, n, order, keys, ranking.own_index, own_key,
                       own_above=np.where(own_rank > 0, own_rank - 1, ranking.own_above),
                       own_at_least=np.where(own_rank > 0, own_rank, ranking.own_at_least),
                       own_rank=own_rank, keep=ranking.keep, identical=ranking.identical,
                       source=ranking.source)
    return tie_free, perm


def _own_ties_below(ranking: Ranking) -> bool:
    """Do two of a query's own snippets below the stored depth share a (finite) score?"""
    if ranking.own_index.shape[1] < 2:
        return False
    below = (ranking.own_index >= 0) & np.isfinite(ranking.own_key) \
        & (ranking.own_above >= ranking.lengths[:, None])
    key = np.where(below, ranking.own_key, np.nan)   # NaN never equals: padding drops out
    pairs = (key[:, :, None] == key[:, None, :]).sum(axis=(1, 2))   # diagonal included
    return bool((pairs > below.sum(axis=1)).any())


def _own_surrogates(ranking: Ranking, order: np.ndarray, policy: str,
                    own_good: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Surrogate keys and ranks of each query's own snippets under a tie-free order: their
    stored position if stored; else below the stored part, the real rank with ties among
    own snippets broken by ``policy`` (0 / -inf where unretrieved or padding)."""
    n = ranking.shape[1]
    index = ranking.own_index
    rank = np.zeros(index.shape, dtype=np.int64)
    hit = order[:, None, :] == index[:, :, None]          # (Q x G x width)
    stored = hit.any(axis=2) & (index >= 0)
    rank[stored] = hit.argmax(axis=2)[stored] + 1
    below = (index >= 0) & ~stored & np.isfinite(ranking.own_key)
    if below.any():
        good = (np.zeros(index.shape, dtype=bool) if own_good is None
                else np.asarray(own_good, dtype=bool))
        bonus = 3 * good.astype(np.int64)   # below the stored depth: passes iff correct
        if policy == "optimistic":
            first = 3 - bonus
        elif policy == "pessimistic":
            first = bonus
        else:
            first = np.zeros(index.shape, dtype=np.int64)
        key = np.where(below, ranking.own_key, np.nan)
        tied = below[:, :, None] & below[:, None, :] & (key[:, :, None] == key[:, None, :])
        # own snippets of the same score that the policy puts first, then by corpus rank
        ahead = tied & ((first[:, None, :] < first[:, :, None])
                        | ((first[:, None, :] == first[:, :, None])
                           & (ranking.own_rank[:, None, :] < ranking.own_rank[:, :, None])))
        rank[below] = (ranking.own_above + 1 + ahead.sum(axis=2))[below]
    key_out = np.where(rank > 0, n - (rank - 1).astype(np.float64), -np.inf)
    return key_out, rank
