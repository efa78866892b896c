"""Deception against edit size: how many characters a mutant changes, and whether that
predicts its score margin over the canonical."""

from __future__ import annotations

import itertools
import math
import threading
import weakref
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import numpy as np

from .pairing import NAN, pair_above, pair_scores, pairs, query_mask
from .pairing import mean_or_nan as _mean

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..ranking.ranking import Ranking

__all__ = ["SPAN_BINS", "edit_span", "edit_span_vs_deception", "pair_edit_spans", "spearman"]

SPAN_BINS = (1, 2, 3, 5, 9, 17)  # lower edges: 1, 2, 3-4, 5-8, 9-16, 17+ characters
_SPANS: weakref.WeakKeyDictionary[Any, np.ndarray] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


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
                           exclude: Collection[str] = frozenset(),
                           scores: Ranking | None = None) -> dict[str, Any]:
    """Deception against edit size: share of paired distractors ranked above their
    canonical per span bin (a tie counts 1/2), and Spearman's rho between span and margin
    ``s(q, d) - s(q, canonical)`` (scores of ``scores``, default ``ranking``)."""
    p, above, known = pair_above(benchmark, ranking)
    _, sd, sc = pair_scores(benchmark, scores if scores is not None else ranking)
    spans = pair_edit_spans(benchmark)
    included = query_mask(benchmark, exclude)[p.pair_q]
    keep = included & known
    with np.errstate(invalid="ignore"):  # -inf - -inf: both unretrieved, NaN, left out
        margin = sd - sc
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
