"""Run a suite audit: every single-edit mutant of each canonical, and the canonical under
several hash seeds, through the (cached, parallel) oracle.

All six operators are used, not only the four kinds a benchmark keeps as distractors: a
mutant no test catches is evidence about the suite whatever its kind. Mutants run under the
oracle's own settings, so they share cache entries with ``build``; the canonical runs once
more per hash seed, each seed an oracle of its own (the seed is part of the cache key).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any

from ..benchmark.dataset import BUG_TYPES, Benchmark, Query
from ..errors import BuildError, CancelledError, OracleError
from ..hooks import Progress, ShouldStop
from ..mutation.generate import Mutant, generate_mutants
from ..oracle.cache import Cache
from ..oracle.execution import Oracle
from ..oracle.results import SuiteResult
from ..oracle.sandbox import Limits
from .results import BOUNDARY_TYPES, AuditResult, MutantRun, QueryAudit, Survivor
from .suspicion import WEIGHTS, score_query

__all__ = ["DEFAULT_SEEDS", "run_audit", "seed_limits"]

DEFAULT_SEEDS = 10
_STRICTNESS = {("<", "<="), ("<=", "<"), (">", ">="), (">=", ">")}


def _is_boundary(mutant: Mutant, canonical: str) -> bool:
    if mutant.bug_type in BOUNDARY_TYPES:
        return True
    old = canonical[mutant.start:mutant.end].strip()
    return mutant.bug_type == "wrong_comparison" and (old, mutant.replacement) in _STRICTNESS


@dataclasses.dataclass(frozen=True)
class _Plan:
    query: Query
    code: str
    mutants: tuple[Mutant, ...]
    problem: str


def _plan(benchmark: Benchmark, query: Query) -> _Plan:
    canonical = benchmark.canonical_for(query.query_id)
    if canonical is None:
        return _Plan(query, "", (), "the query has no canonical in the corpus")
    try:
        mutants = generate_mutants(canonical.code, query.function_name, BUG_TYPES).mutants
    except BuildError as exc:
        return _Plan(query, canonical.code, (), f"the canonical cannot be mutated: {exc}")
    return _Plan(query, canonical.code, mutants, "")


class _SharedCache:
    """Lends a cache to the per-seed oracles without letting them close it."""

    def __init__(self, cache: Cache) -> None:
        self._cache = cache

    def get(self, key: str) -> SuiteResult | None:
        return self._cache.get(key)

    def put(self, key: str, result: SuiteResult) -> None:
        self._cache.put(key, result)


def seed_limits(limits: Limits, seed: int) -> Limits:
    """``limits`` with the sandbox's PYTHONHASHSEED fixed to ``seed``."""
    if "hash_seed" not in {f.name for f in dataclasses.fields(Limits)}:
        raise OracleError("this oracle cannot fix the hash seed; run the audit with --seeds 0")
    return dataclasses.replace(limits, hash_seed=seed)  # type: ignore[call-arg]


def _seed_oracle(oracle: Oracle, seed: int) -> Oracle:
    cache = None if oracle.cache is None else _SharedCache(oracle.cache)
    return Oracle(timeout=oracle.timeout, cache=cache, workers=oracle.workers,
                  limits=seed_limits(oracle.limits, seed))


class _Offset:
    """One progress bar over several batches."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress, self.total, self.base = progress, total, 0

    def hook(self) -> Callable[[int, int], None] | None:
        if self.progress is None:
            return None
        base, progress, total = self.base, self.progress, self.total
        return lambda done, _n: progress(base + done, total)


def run_audit(benchmark: Benchmark, oracle: Oracle, *, seeds: int = DEFAULT_SEEDS,
              limit: int | None = None, query_ids: Sequence[str] | None = None,
              progress: Progress | None = None,
              should_stop: ShouldStop | None = None) -> AuditResult:
    """Audit the suites of ``benchmark`` (the first ``limit`` queries, or ``query_ids``).

    Runs every mutant of each canonical, then the canonical under hash seeds
    ``0 .. seeds-1``; returns the queries most suspect first (ties by query id).
    Raises CancelledError once ``should_stop()`` is true, OracleError if the sandbox fails.
    """
    if seeds < 0:
        raise ValueError(f"seeds must be >= 0, not {seeds}")
    if query_ids is not None:
        wanted = set(query_ids)
        missing = sorted(wanted - {q.query_id for q in benchmark.queries})
        if missing:
            raise BuildError(f"no such query in {benchmark.name}: {', '.join(missing)}")
        queries = [q for q in benchmark.queries if q.query_id in wanted]
    else:
        queries = list(benchmark.queries)
    if limit is not None:
        queries = queries[:limit]
    plans = [_plan(benchmark, q) for q in queries]
    jobs: list[tuple[str, Sequence[str]]] = []
    starts: list[int] = []
    for plan in plans:
        starts.append(len(jobs))
        if plan.code and not plan.problem:
            tests = plan.query.test_suite
            jobs.append((plan.code, tests))
            jobs.extend((m.code, tests) for m in plan.mutants)
    seed_jobs = [(p.code, p.query.test_suite) for p in plans if p.code and not p.problem]
    meter = _Offset(progress, len(jobs) + seeds * len(seed_jobs))
    before = oracle.executed
    results = oracle.run_many(jobs, progress=meter.hook(), should_stop=should_stop)
    meter.base += len(jobs)
    executed = oracle.executed - before
    per_seed: list[tuple[int, list[SuiteResult]]] = []
    for seed in range(seeds):
        if should_stop is not None and should_stop():
            raise CancelledError("the audit was cancelled")
        with _seed_oracle(oracle, seed) as seeded:
            per_seed.append((seed, seeded.run_many(seed_jobs, progress=meter.hook(),
                                                   should_stop=should_stop)))
            executed += seeded.executed
        meter.base += len(seed_jobs)

    audits: list[QueryAudit] = []
    k = 0
    for plan, start in zip(plans, starts, strict=True):
        q = plan.query
        if not plan.code or plan.problem:
            audits.append(score_query(q.query_id, q.function_name, q.test_suite, plan.code,
                                      ("error",) * len(q.test_suite), (), (), plan.problem))
            continue
        canonical = results[start].statuses
        runs = tuple(
            MutantRun(Survivor(m.bug_type, m.bug_description, m.line, m.code,
                               _is_boundary(m, plan.code)),
                      results[start + 1 + j].statuses)
            for j, m in enumerate(plan.mutants))
        by_seed = [(seed, rs[k].statuses) for seed, rs in per_seed]
        k += 1
        audits.append(score_query(q.query_id, q.function_name, q.test_suite, plan.code,
                                  canonical, runs, by_seed))
    audits.sort(key=lambda a: (-round(a.suspicion, 9), a.query_id))
    settings: dict[str, Any] = {
        "benchmark": benchmark.name,
        "fingerprint": benchmark.fingerprint,
        "queries": len(audits),
        "limit": limit,
        "operators": list(BUG_TYPES),
        "mutants": sum(a.mutants for a in audits),
        "seeds": list(range(seeds)),
        "timeout": oracle.timeout,
        "weights": dict(WEIGHTS),
    }
    return AuditResult(tuple(audits), MappingProxyType(settings), executed=executed)

