"""Run a suite audit: every single-edit mutant of each canonical, and the canonical under
several hash seeds, through the (cached, parallel) oracle.

All six operators are used, not only the four kinds a benchmark keeps as distractors: a
mutant no test catches is evidence about the suite whatever its kind. Mutants run under the
oracle's limits with the builder's mutant timeout (:data:`MUTANT_TIMEOUT`, 1 s, or the
oracle's if shorter), so they share cache entries with ``build``, and a mutant that loops
costs a second, not the canonical's five (on a suite like ``lowest_set_bit``'s, where half
the mutants loop, that is most of the audit's time); a mutant that times out is killed,
as at any timeout. The canonical runs under the oracle's own timeout, and once more per
hash seed, each seed an oracle of its own (the seed is part of the cache key).

Then the input engine (:mod:`execretrieval.inputs`) classifies every survivor: inputs are
collected from the suite and generated around them (``inputs`` of them, seeded by
``input_seed``), answered by the canonical, and each survivor runs on them; a survivor
that some input tells apart makes the suite weak, one that none does is likely
equivalent. The greedy smallest set of those inputs that kills every distinguishable
survivor becomes the query's suggested tests.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any

from ..benchmark.dataset import BUG_TYPES, Benchmark, Query
from ..errors import BuildError, CancelledError, OracleError
from ..hooks import Progress, ShouldStop, scaled
from ..inputs.batches import derived_oracle
from ..inputs.cases import DEFAULT_INPUTS, InputSet, InputTask, build_input_sets
from ..inputs.differential import DifferentialResult, canonical_answer, run_differential
from ..inputs.suggest import suggest_tests
from ..mutation.generate import Mutant, generate_mutants
from ..oracle.cache import SharedCache
from ..oracle.execution import Oracle
from ..oracle.limits import MUTANT_TIMEOUT, MUTANT_WALL_BACKSTOP, Limits
from ..oracle.results import SuiteResult
from .results import BOUNDARY_TYPES, AuditResult, MutantRun, QueryAudit, SuggestedTest, Survivor
from .suspicion import WEIGHTS, score_query, surviving

__all__ = ["DEFAULT_INPUTS", "DEFAULT_SEEDS", "MUTANT_TIMEOUT", "run_audit", "seed_limits"]

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


def seed_limits(limits: Limits, seed: int) -> Limits:
    """``limits`` with the sandbox's PYTHONHASHSEED fixed to ``seed``."""
    if "hash_seed" not in {f.name for f in dataclasses.fields(Limits)}:
        raise OracleError("this oracle cannot fix the hash seed; run the audit with --seeds 0")
    return dataclasses.replace(limits, hash_seed=seed)  # type: ignore[call-arg]


def _seed_oracle(oracle: Oracle, seed: int) -> Oracle:
    cache = None if oracle.cache is None else SharedCache(oracle.cache)
    return Oracle(timeout=oracle.timeout, cache=cache, workers=oracle.workers,
                  limits=seed_limits(oracle.limits, seed))


class _Offset:
    """One progress bar over several batches."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress, self.total, self.base = progress, total, 0

    def hook(self, span: int | None = None) -> Callable[[int, int], None] | None:
        """Progress of the next batch; with ``span``, its ``done / n`` scaled to ``span``."""
        if self.progress is None:
            return None
        base, progress, total = self.base, self.progress, self.total
        if span is None:
            return lambda done, _n: progress(base + done, total)
        return scaled(progress, base, span, total)


def _classify(survivor: Survivor, inputs: InputSet, run: DifferentialResult | None,
              preferred: set[int]) -> Survivor:
    """The survivor with the input engine's verdict (its distinguishing input: inside the
    suite's inferred domain if any is, then preferably one of the suggested tests, then
    the shortest call)."""
    if run is None or not inputs.cases:
        return dataclasses.replace(survivor, verdict="unclassified")
    if not run.differences:
        return dataclasses.replace(survivor, verdict="likely_equivalent",
                                   inputs_tried=run.tried)
    best = min(run.differences, key=lambda d: (bool(inputs.cases[d.case].outside),
                                               d.case not in preferred,
                                               len(inputs.cases[d.case].call), d.case))
    case = inputs.cases[best.case]
    return dataclasses.replace(survivor, verdict="weak", inputs_tried=run.tried,
                               distinguishing_input=case.call,
                               canonical_output=canonical_answer(case),
                               mutant_output=best.output, outside_domain=case.outside)


def _engine(oracle: Oracle, plans: Sequence[_Plan], alive: dict[int, list[MutantRun]],
            n: int, seed: int, meter: _Offset, should_stop: ShouldStop | None,
            executed: list[int]) -> dict[int, tuple[list[Survivor], tuple[SuggestedTest, ...]]]:
    """Per plan index with survivors: the classified survivors and the suggested tests."""
    order = sorted(alive)
    tasks = [InputTask(plans[p].code, plans[p].query.function_name,
                       tuple(plans[p].query.test_suite)) for p in order]
    reserved = meter.total - meter.base  # the bar's share left for this, in two halves
    sets = build_input_sets(oracle, tasks, n=n, seed=seed,
                            progress=meter.hook(reserved // 2), should_stop=should_stop,
                            executed=executed)
    meter.base += reserved // 2
    pairs = [(run.mutant.code, sets[k]) for k, p in enumerate(order) for run in alive[p]
             if sets[k].cases]
    diffs = iter(run_differential(oracle, pairs, progress=meter.hook(reserved - reserved // 2),
                                  should_stop=should_stop, executed=executed))
    meter.base = meter.total
    out = {}
    for k, p in enumerate(order):
        inputs = sets[k]
        runs = [next(diffs) if inputs.cases else None for _ in alive[p]]
        picks = suggest_tests(inputs, runs)
        chosen = {inputs.cases.index(s.case) for s in picks}
        survivors = [_classify(r.mutant, inputs, d, chosen) for r, d in zip(alive[p], runs,
                                                                            strict=True)]
        out[p] = (survivors, tuple(SuggestedTest(s.test, s.kills, s.case.outside) for s in picks))
    return out


def run_audit(benchmark: Benchmark, oracle: Oracle, *, seeds: int = DEFAULT_SEEDS,
              limit: int | None = None, query_ids: Sequence[str] | None = None,
              inputs: int = DEFAULT_INPUTS, input_seed: int = 0,
              mutant_timeout: float = MUTANT_TIMEOUT,
              progress: Progress | None = None,
              should_stop: ShouldStop | None = None) -> AuditResult:
    """Audit the suites of ``benchmark`` (the first ``limit`` queries, or ``query_ids``).

    Runs each canonical and every one of its mutants (these with the suite timeout
    ``mutant_timeout``, or the oracle's if shorter), then the canonical under hash seeds
    ``0 .. seeds-1``, then classifies the survivors on up to ``inputs`` inputs per query
    (``0`` skips this: survivors stay unclassified); returns the queries most suspect
    first (ties by query id).
    Raises CancelledError once ``should_stop()`` is true, OracleError if the sandbox fails.
    """
    if seeds < 0:
        raise ValueError(f"seeds must be >= 0, not {seeds}")
    if inputs < 0:
        raise ValueError(f"inputs must be >= 0, not {inputs}")
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
    if not mutant_timeout > 0:
        raise ValueError(f"mutant_timeout must be positive, not {mutant_timeout}")
    plans = [_plan(benchmark, q) for q in queries]
    # per plan that runs: its canonical's index in seed_jobs, its first mutant's in jobs
    seed_jobs: list[tuple[str, Sequence[str]]] = []
    jobs: list[tuple[str, Sequence[str]]] = []
    starts: list[tuple[int, int]] = []
    for plan in plans:
        starts.append((len(seed_jobs), len(jobs)))
        if plan.code and not plan.problem:
            tests = plan.query.test_suite
            seed_jobs.append((plan.code, tests))
            jobs.extend((m.code, tests) for m in plan.mutants)
    # the input engine's share of the bar: as much as two runs of every canonical
    meter = _Offset(progress, len(seed_jobs) + len(jobs) + seeds * len(seed_jobs)
                    + (2 * len(seed_jobs) if inputs else 0))
    before = oracle.executed
    canonicals = oracle.run_many(seed_jobs, progress=meter.hook(), should_stop=should_stop)
    meter.base += len(seed_jobs)
    executed = oracle.executed - before
    with derived_oracle(oracle, mutant_timeout,
                        wall_backstop=MUTANT_WALL_BACKSTOP) as mutant_oracle:  # as the builder
        results = mutant_oracle.run_many(jobs, progress=meter.hook(), should_stop=should_stop)
        executed += mutant_oracle.executed
        settled_timeout = mutant_oracle.timeout
    meter.base += len(jobs)
    per_seed: list[tuple[int, list[SuiteResult]]] = []
    for seed in range(seeds):
        if should_stop is not None and should_stop():
            raise CancelledError("the audit was cancelled")
        with _seed_oracle(oracle, seed) as seeded:
            per_seed.append((seed, seeded.run_many(seed_jobs, progress=meter.hook(),
                                                   should_stop=should_stop)))
            executed += seeded.executed
        meter.base += len(seed_jobs)

    mutant_runs: dict[int, tuple[MutantRun, ...]] = {}
    alive: dict[int, list[MutantRun]] = {}
    for p, (plan, (canon, start)) in enumerate(zip(plans, starts, strict=True)):
        if not plan.code or plan.problem:
            continue
        mutant_runs[p] = tuple(
            MutantRun(Survivor(m.bug_type, m.bug_description, m.line, m.code,
                               _is_boundary(m, plan.code)),
                      results[start + j].statuses)
            for j, m in enumerate(plan.mutants))
        left = surviving(canonicals[canon].statuses, mutant_runs[p])
        if left:
            alive[p] = [mutant_runs[p][j] for j in left]
    classified = {}
    if inputs and alive:
        if should_stop is not None and should_stop():
            raise CancelledError("the audit was cancelled")
        counts: list[int] = []
        classified = _engine(oracle, plans, alive, inputs, input_seed, meter, should_stop,
                             counts)
        executed += sum(counts)

    audits: list[QueryAudit] = []
    for p, (plan, (canon, _first)) in enumerate(zip(plans, starts, strict=True)):
        q = plan.query
        if not plan.code or plan.problem:
            audits.append(score_query(q.query_id, q.function_name, q.test_suite, plan.code,
                                      ("error",) * len(q.test_suite), (), (), plan.problem))
            continue
        canonical = canonicals[canon].statuses
        runs = mutant_runs[p]
        suggested: tuple[SuggestedTest, ...] = ()
        if p in classified:
            survivors, suggested = classified[p]
            verdicts = dict(zip((id(r) for r in alive[p]), survivors, strict=True))
            runs = tuple(MutantRun(verdicts[id(r)], r.statuses) if id(r) in verdicts else r
                         for r in runs)
        by_seed = [(seed, rs[canon].statuses) for seed, rs in per_seed]
        audits.append(score_query(q.query_id, q.function_name, q.test_suite, plan.code,
                                  canonical, runs, by_seed, suggested=suggested,
                                  input_seed=input_seed if inputs else None))
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
        "mutant_timeout": settled_timeout,
        "weights": dict(WEIGHTS),
        "inputs": inputs,
        "input_seed": input_seed,
    }
    return AuditResult(tuple(audits), MappingProxyType(settings), executed=executed)

