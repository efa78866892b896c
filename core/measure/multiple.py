"""Many systems at once: every pair tested with correction, rank intervals and tiers.

A leaderboard of N systems implies N(N-1)/2 paired tests per metric; reading them as if each
stood alone finds "significant" differences by chance. :func:`pairwise` runs the tool's
paired test (:func:`~execretrieval.measure.statistics.sign_flip_test`: the exact sign-flip
test on tie-aware per-query figures, exact McNemar on 0/1 ones) on every pair and adjusts
the p-values of each metric's family of pairs with :func:`adjust_pvalues` (Holm by default;
Bonferroni, Benjamini-Hochberg or none), next to the paired-bootstrap difference.

:func:`leaderboard` resamples the queries with the very replicates the confidence intervals
use (:func:`~execretrieval.measure.statistics.bootstrap_counts` for the same n, replicates
and seed), ranks the systems in each replicate (rank = 1 + the number of systems with a
strictly higher replicate mean), and reports each system's 95% rank interval: the alpha/2
and 1 - alpha/2 quantiles of its replicate ranks (``inverted_cdf``: ranks stay integers).
Tiers come from the corrected tests: tier 1 is the best system (highest mean) and every
system not significantly below it; the rest form tier 2 around their own best, and so on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from ..errors import CancelledError
from ..hooks import Progress, ShouldStop
from .statistics import bootstrap_counts, paired_bootstrap_diff, sign_flip_test

__all__ = ["CORRECTIONS", "Pair", "Standing", "adjust_pvalues", "leaderboard", "pairwise",
           "replicate_ranks", "significance_matrix"]

#: correction name -> what a report says about it
CORRECTIONS = {
    "holm": "Holm step-down (family-wise error rate)",
    "bonferroni": "Bonferroni (family-wise error rate)",
    "bh": "Benjamini-Hochberg (false discovery rate)",
    "none": "no correction",
}


def adjust_pvalues(p_values: Sequence[float] | np.ndarray, method: str = "holm"
                   ) -> np.ndarray:
    """Adjusted p-values of one family of tests (``holm``, ``bonferroni``, ``bh``, ``none``).

    The same figures as ``statsmodels.stats.multitest.multipletests`` with ``holm``,
    ``bonferroni`` and ``fdr_bh``. NaN p-values (a test over no queries) stay NaN and do
    not count in the family size.
    """
    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r}; expected one of "
                         f"{', '.join(CORRECTIONS)}")
    p = np.asarray(p_values, dtype=np.float64).copy()
    ok = ~np.isnan(p)
    values = p[ok]
    m = values.size
    if m == 0 or method == "none":
        return p
    order = np.argsort(values, kind="stable")
    ranked = values[order]
    if method == "bonferroni":
        adjusted = np.minimum(1.0, ranked * m)
    elif method == "holm":
        adjusted = np.minimum(1.0, np.maximum.accumulate(ranked * (m - np.arange(m))))
    else:  # bh: step-up, min over the larger p-values of p_(j) * m / j
        scaled = ranked * m / np.arange(1, m + 1)
        adjusted = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    out = np.empty(m)
    out[order] = adjusted
    p[ok] = out
    return p


@dataclass(frozen=True)
class Pair:
    """Systems a and b on one metric: mean(a - b) with its paired-bootstrap interval, the
    paired test's p-value and the p-value adjusted over the metric's family of pairs."""

    a: str
    b: str
    metric: str
    diff: float
    ci_low: float
    ci_high: float
    p_value: float
    p_adjusted: float
    test: str
    a_only: int
    b_only: int

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether the corrected test rejects "a and b are exchangeable" at ``alpha``."""
        return bool(self.p_adjusted < alpha)

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "metric": self.metric, "diff": self.diff,
                "ci_low": self.ci_low, "ci_high": self.ci_high, "p_value": self.p_value,
                "p_adjusted": self.p_adjusted, "test": self.test, "a_only": self.a_only,
                "b_only": self.b_only}


def _columns(per_query: Mapping[str, Mapping[str, np.ndarray]], metric: str
             ) -> dict[str, np.ndarray]:
    columns = {}
    lengths = set()
    for system, values in per_query.items():
        if metric not in values:
            raise ValueError(f"system {system!r} has no per-query figures for {metric!r}")
        columns[system] = np.asarray(values[metric], dtype=np.float64)
        lengths.add(columns[system].shape)
    if len(lengths) > 1:
        raise ValueError(f"{metric}: the systems cover different numbers of queries "
                         f"({', '.join(str(s[0]) for s in sorted(lengths))}); evaluate them "
                         "on the same queries")
    return columns


def pairwise(per_query: Mapping[str, Mapping[str, np.ndarray]], metrics: Sequence[str], *,
             correction: str = "holm", n_boot: int = 5000, seed: int = 0,
             alpha: float = 0.05, progress: Progress | None = None,
             should_stop: ShouldStop | None = None) -> list[Pair]:
    """Every pair of systems (in the given order, a before b) on every metric.

    ``per_query[system][metric]`` holds the per-query figures, aligned over the same
    queries for every system. The family a p-value is adjusted in is one metric's pairs.
    Each exact test can take a fraction of a second on a thousand queries with fractional
    figures, so ``progress(done, total)`` hears every pair and ``should_stop()`` returning
    True raises CancelledError.
    """
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown correction {correction!r}; expected one of "
                         f"{', '.join(CORRECTIONS)}")
    out: list[Pair] = []
    n_systems = len(per_query)
    total = len(metrics) * n_systems * (n_systems - 1) // 2
    done = 0
    for metric in metrics:
        columns = _columns(per_query, metric)
        rows = []
        for a, b in combinations(columns, 2):
            if should_stop is not None and should_stop():
                raise CancelledError("pairwise comparisons cancelled")
            x, y = columns[a], columns[b]
            p_value, test = sign_flip_test(x, y, seed=seed) if x.size else \
                (float("nan"), "none")
            diff = paired_bootstrap_diff(x, y, n_boot=n_boot, seed=seed, alpha=alpha)
            rows.append((a, b, diff, p_value, test, int((x > y + 1e-12).sum()),
                         int((y > x + 1e-12).sum())))
            done += 1
            if progress is not None:
                progress(done, total)
        adjusted = adjust_pvalues([r[3] for r in rows], correction)
        for (a, b, diff, p_value, test, a_only, b_only), p_adj in zip(rows, adjusted,
                                                                      strict=True):
            out.append(Pair(a, b, metric, diff.mean, diff.ci_low, diff.ci_high,
                            float(p_value), float(p_adj), test, a_only, b_only))
    return out


@dataclass(frozen=True)
class Standing:
    """One system on one metric of a leaderboard."""

    system: str
    metric: str
    mean: float
    ci_low: float
    ci_high: float
    rank: int
    rank_low: int
    rank_high: int
    tier: int

    def to_dict(self) -> dict[str, Any]:
        return {"system": self.system, "metric": self.metric, "mean": self.mean,
                "ci_low": self.ci_low, "ci_high": self.ci_high, "rank": self.rank,
                "rank_low": self.rank_low, "rank_high": self.rank_high, "tier": self.tier}


def replicate_ranks(replicates: np.ndarray) -> np.ndarray:
    """(B x S) ranks from (B x S) replicate means: 1 + #systems strictly higher (1e-12)."""
    r = np.asarray(replicates, dtype=np.float64)
    return 1 + (r[:, None, :] > r[:, :, None] + 1e-12).sum(axis=2)


def _tiers(order: list[str], beats: Mapping[tuple[str, str], bool]) -> dict[str, int]:
    """Tier per system: ``order`` is best first; ``beats[(x, y)]``: x significantly above y."""
    tiers: dict[str, int] = {}
    rest = list(order)
    tier = 0
    while rest:
        tier += 1
        best = rest[0]
        members = [s for s in rest if s == best or not beats.get((best, s), False)]
        for s in members:
            tiers[s] = tier
        rest = [s for s in rest if s not in members]
    return tiers


def leaderboard(per_query: Mapping[str, Mapping[str, np.ndarray]], metrics: Sequence[str],
                pairs: Sequence[Pair], *, n_boot: int = 5000, seed: int = 0,
                alpha: float = 0.05) -> list[Standing]:
    """Each system's mean, interval, rank, rank interval and tier on every metric.

    ``pairs`` are :func:`pairwise`'s results for the same systems and metrics (their
    corrected p-values decide the tiers). Rows come per metric, best first.
    """
    out: list[Standing] = []
    for metric in metrics:
        columns = _columns(per_query, metric)
        systems = list(columns)
        if not systems:
            continue
        matrix = np.column_stack([columns[s] for s in systems])
        n = matrix.shape[0]
        if n == 0:
            nan = float("nan")
            out.extend(Standing(s, metric, nan, nan, nan, 1, 1, len(systems), 1)
                       for s in systems)
            continue
        reps = (bootstrap_counts(n, n_boot, seed) @ matrix) / n
        means = matrix.mean(axis=0)
        low, high = np.percentile(reps, [100 * alpha / 2, 100 * (1 - alpha / 2)], axis=0)
        ranks = replicate_ranks(reps)
        rank_low, rank_high = np.quantile(ranks, [alpha / 2, 1 - alpha / 2], axis=0,
                                          method="inverted_cdf")
        point = replicate_ranks(means[None, :])[0]
        order = sorted(range(len(systems)), key=lambda i: (-means[i], i))
        beats: dict[tuple[str, str], bool] = {}
        for p in pairs:
            if p.metric != metric or not p.significant(alpha):
                continue
            winner, loser = (p.a, p.b) if p.diff > 0 else (p.b, p.a)
            beats[(winner, loser)] = True
        tiers = _tiers([systems[i] for i in order], beats)
        for i in order:
            s = systems[i]
            out.append(Standing(s, metric, float(means[i]), float(low[i]), float(high[i]),
                                int(point[i]), int(rank_low[i]), int(rank_high[i]), tiers[s]))
    return out


def significance_matrix(pairs: Sequence[Pair], systems: Sequence[str], metric: str
                        ) -> list[list[Pair | None]]:
    """Rows x columns of ``systems``: the pair (oriented row - column) or None on the
    diagonal and where no pair was tested."""
    index = {(p.a, p.b): p for p in pairs if p.metric == metric}
    grid: list[list[Pair | None]] = []
    for row in systems:
        line: list[Pair | None] = []
        for col in systems:
            p = index.get((row, col))
            if p is None and (col, row) in index:
                q = index[(col, row)]
                p = Pair(row, col, metric, -q.diff, -q.ci_high, -q.ci_low, q.p_value,
                         q.p_adjusted, q.test, q.b_only, q.a_only)
            line.append(p if row != col else None)
        grid.append(line)
    return grid
