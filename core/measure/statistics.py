"""Uncertainty and significance over queries: percentile bootstrap, exact McNemar, paired diff.

Bootstrap (percentile, over queries): draw ``n_boot`` resamples of the n queries with
replacement from ``numpy.random.default_rng(seed)``; the statistic of replicate b is the
mean of the resampled per-query values; the (1 - alpha) interval is the alpha/2 and
1 - alpha/2 percentiles (linear interpolation) of the replicate means. The point estimate
is the plain mean. Resamples are drawn as a count matrix C (n_boot x n, C[b, i] = how often
query i is drawn) so that all replicates of many metrics are one product ``C @ V / n``; a
given (n, n_boot, seed) always gives the same resamples, so metrics and models evaluated
with the same seed are resampled identically (paired).

Paired test (:func:`sign_flip_test`): with tied scores a query's figure is an expectation
over tie orders, e.g. exec@1 = 2/3, not a 0/1 outcome, so McNemar's discordant-pair count
does not apply; rounding the expectations or taking one tie order (corpus order) would
test a figure that depends on line order. Instead the per-query differences
d_q = a_q - b_q are tested with the exact paired randomisation (sign-flip) test: under H0
(the two systems are exchangeable on each query) every sign pattern of the d_q is equally
likely, and p = P(|sum of +-d_q| >= |sum of d_q|). On 0/1 outcomes the d_q are the
discordant pairs (+-1) and this is exactly the two-sided exact McNemar test. The null
distribution is enumerated exactly when the |d_q| are multiples of a common 1/L (as
expectations over small tie groups are) and the lattice is small enough, else estimated
from 100,000 seeded random sign patterns (``test`` says which).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from .metrics import ModelEvaluation

__all__ = [
    "Comparison",
    "MetricCI",
    "bootstrap_ci",
    "bootstrap_cis",
    "bootstrap_counts",
    "compare",
    "mcnemar_exact",
    "paired_bootstrap_diff",
    "sign_flip_test",
]


@dataclass(frozen=True)
class MetricCI:
    """A mean over queries with its bootstrap interval."""

    mean: float
    ci_low: float
    ci_high: float

    def to_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "ci_low": self.ci_low, "ci_high": self.ci_high}


@lru_cache(maxsize=2)
def bootstrap_counts(n: int, n_boot: int = 5000, seed: int = 0) -> np.ndarray:
    """Count matrix (n_boot x n, float64, read-only): row b counts each query's draws.

    Drawn as ``default_rng(seed).integers(0, n, size=(n_boot, n))`` then counted per row.
    """
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n, size=(n_boot, n))
    flat = (draws + (np.arange(n_boot, dtype=np.int64) * n)[:, None]).ravel()
    counts = np.bincount(flat, minlength=n_boot * n).reshape(n_boot, n).astype(np.float64)
    counts.flags.writeable = False
    return counts


def _replicate_means(values: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """Replicate means, (n_boot,) for a vector or (n_boot, m) for an (n, m) matrix."""
    n = values.shape[0]
    return (bootstrap_counts(n, n_boot, seed) @ values) / n


def bootstrap_cis(matrix: np.ndarray, n_boot: int = 5000, seed: int = 0,
                  alpha: float = 0.05) -> list[MetricCI]:
    """Percentile bootstrap CI of the mean of every column of an (n queries x m) matrix."""
    values = np.asarray(matrix, dtype=np.float64)
    if values.ndim != 2:
        raise ValueError("expected an (n queries x m metrics) matrix")
    n, m = values.shape
    if n == 0:
        return [MetricCI(float("nan"), float("nan"), float("nan")) for _ in range(m)]
    if n_boot < 1:
        raise ValueError("n_boot must be at least 1")
    means = values.mean(axis=0)
    reps = _replicate_means(values, n_boot, seed)
    low, high = np.percentile(reps, [100 * alpha / 2, 100 * (1 - alpha / 2)], axis=0)
    return [MetricCI(float(means[i]), float(low[i]), float(high[i])) for i in range(m)]


def bootstrap_ci(values: Sequence[float] | np.ndarray, n_boot: int = 5000, seed: int = 0,
                 alpha: float = 0.05) -> MetricCI:
    """Mean of per-query values with its (1 - alpha) percentile bootstrap interval."""
    column = np.asarray(values, dtype=np.float64).reshape(-1, 1)
    return bootstrap_cis(column, n_boot=n_boot, seed=seed, alpha=alpha)[0]


def mcnemar_exact(a: Sequence[bool] | np.ndarray, b: Sequence[bool] | np.ndarray) -> float:
    """Two-sided exact McNemar p-value for paired binary outcomes.

    With n01 = #(a true, b false) and n10 = #(a false, b true), n = n01 + n10:
    ``p = min(1, 2 * P[X <= min(n01, n10)])`` for X ~ Binomial(n, 1/2); p = 1 when n = 0.
    """
    x = np.asarray(a, dtype=bool)
    y = np.asarray(b, dtype=bool)
    if x.shape != y.shape:
        raise ValueError("a and b must have the same length")
    a_only = int(np.sum(x & ~y))
    b_only = int(np.sum(~x & y))
    return _sign_test(a_only, b_only)


def _sign_test(a_only: int, b_only: int) -> float:
    n = a_only + b_only
    if n == 0:
        return 1.0
    # exact binomial tail in integers: sum_{i <= min} C(n, i) / 2^n
    tail = sum(math.comb(n, i) for i in range(min(a_only, b_only) + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2 ** n)))


_LATTICE_LIMIT = 400_000     # states of the exact null distribution (2 * sum|d| * L + 1)
_MONTE_CARLO = 100_000


def _common_denominator(values: np.ndarray, limit: int = 10_000) -> int | None:
    """The least L <= ``limit`` with every value * L an integer (to 1e-9), or None."""
    denominator = 1
    for v in np.unique(np.round(values, 12)):
        frac = Fraction(float(v)).limit_denominator(limit)
        if abs(float(frac) - float(v)) > 1e-9:
            return None
        denominator = math.lcm(denominator, frac.denominator)
        if denominator > limit:
            return None
    return denominator


def sign_flip_test(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, *,
                   seed: int = 0) -> tuple[float, str]:
    """Two-sided paired sign-flip test of mean(a - b) = 0: (p-value, how it was computed).

    ``p = P(|sum_q s_q |d_q|| >= |sum_q d_q|)`` over independent fair signs s_q. Returns
    ``"mcnemar_exact"`` on 0/1 data (where it is the exact McNemar test),
    ``"sign_flip_exact"`` when the null distribution was enumerated on a lattice,
    ``"sign_flip_monte_carlo"`` when it was sampled (100,000 patterns, ``seed``).
    """
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError("a and b must have the same length")
    d = x - y
    d = d[np.abs(d) > 1e-12]
    binary = bool(np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all())
    if binary:
        return _sign_test(int((d > 0).sum()), int((d < 0).sum())), "mcnemar_exact"
    if d.size == 0:
        return 1.0, "sign_flip_exact"
    observed = abs(float(d.sum()))
    magnitudes = np.abs(d)
    lattice = _common_denominator(magnitudes)
    if lattice is not None:
        steps = np.rint(magnitudes * lattice).astype(np.int64)
        total = int(steps.sum())
        if 2 * total + 1 <= _LATTICE_LIMIT:
            dist = np.zeros(2 * total + 1)
            dist[total] = 1.0
            for step in steps.tolist():   # convolve with (delta(-step) + delta(+step)) / 2
                shifted = np.zeros_like(dist)
                shifted[:-step] += dist[step:]
                shifted[step:] += dist[:-step]
                dist = shifted * 0.5
            target = int(round(observed * lattice))
            values = np.abs(np.arange(-total, total + 1))
            return float(min(1.0, dist[values >= target].sum())), "sign_flip_exact"
    rng = np.random.default_rng(seed)
    hits = 0
    for start in range(0, _MONTE_CARLO, 10_000):
        n = min(10_000, _MONTE_CARLO - start)
        signs = rng.integers(0, 2, size=(n, magnitudes.size)) * 2 - 1
        hits += int((np.abs(signs @ magnitudes) >= observed - 1e-12).sum())
    # (hits + 1) / (draws + 1): a valid p-value for a sampled randomisation test
    return (hits + 1) / (_MONTE_CARLO + 1), "sign_flip_monte_carlo"


def paired_bootstrap_diff(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray,
                          n_boot: int = 5000, seed: int = 0, alpha: float = 0.05) -> MetricCI:
    """Mean of ``a - b`` over queries, with the percentile bootstrap interval of that mean.

    Both systems are resampled with the same queries in each replicate (paired).
    """
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError("a and b must have the same length")
    return bootstrap_ci(x - y, n_boot=n_boot, seed=seed, alpha=alpha)


@dataclass(frozen=True)
class Comparison:
    """Two models on one metric over the same queries (the ``compare`` JSON)."""

    metric: str
    a: str
    b: str
    a_mean: float
    b_mean: float
    a_only: int
    b_only: int
    p_value: float
    diff: float
    ci_low: float
    ci_high: float
    discordant_queries: tuple[str, ...]
    test: str = "mcnemar_exact"

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric, "a": self.a, "b": self.b,
            "a_mean": self.a_mean, "b_mean": self.b_mean,
            "a_only": self.a_only, "b_only": self.b_only, "p_value": self.p_value,
            "diff": self.diff, "ci_low": self.ci_low, "ci_high": self.ci_high,
            "discordant_queries": list(self.discordant_queries), "test": self.test,
        }


def compare(benchmark: Benchmark, eval_a: ModelEvaluation, eval_b: ModelEvaluation,
            metric: str = "exec@1", *, n_boot: int = 5000, seed: int = 0,
            alpha: float = 0.05) -> Comparison:
    """Paired comparison of two evaluations of ``benchmark`` on one metric.

    ``a_only`` / ``b_only`` count queries where a (b) scores strictly higher; on a binary
    metric these are McNemar's discordant pairs. ``p_value`` is :func:`sign_flip_test` on
    the per-query figures (expectations over tie orders by default), which on 0/1 data is
    the exact McNemar test. ``diff`` is mean(a - b) with its paired-bootstrap interval.
    """
    if eval_a.query_ids != eval_b.query_ids:
        raise ValueError("the two evaluations cover different queries; evaluate both with "
                         "the same exclusions")
    if metric not in eval_a.per_query or metric not in eval_b.per_query:
        known = ", ".join(eval_a.per_query)
        raise ValueError(f"unknown metric {metric!r}; expected one of {known}")
    x = np.asarray(eval_a.per_query[metric], dtype=np.float64)
    y = np.asarray(eval_b.per_query[metric], dtype=np.float64)
    a_wins, b_wins = x > y + 1e-12, y > x + 1e-12
    p_value, test = sign_flip_test(x, y, seed=seed)
    diff = paired_bootstrap_diff(x, y, n_boot=n_boot, seed=seed, alpha=alpha)
    discordant = tuple(q for q, d in zip(eval_a.query_ids, a_wins | b_wins, strict=True) if d)
    return Comparison(
        metric=metric, a=eval_a.model, b=eval_b.model,
        a_mean=float(x.mean()) if x.size else float("nan"),
        b_mean=float(y.mean()) if y.size else float("nan"),
        a_only=int(a_wins.sum()), b_only=int(b_wins.sum()),
        p_value=p_value,
        diff=diff.mean, ci_low=diff.ci_low, ci_high=diff.ci_high,
        discordant_queries=discordant,
        test=test,
    )
