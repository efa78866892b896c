"""Assembling a benchmark in memory from seed tasks (the first half of the builder).

For every task the builder checks the canonical statically and by execution (a broken
canonical drops the task *with its reason*, never silently), generates single-edit
mutants (:mod:`~execretrieval.mutation`), executes them, keeps those with a wrong output
(:mod:`~execretrieval.mutation.select`) and selects up to four per query, preferring
distinct bug types. The same tasks and seed always give the same benchmark: ids are
sequential and every random choice is seeded per task. A query's canonical and
distractors sit together in the corpus in a seeded random order, so retrievers that break
score ties by corpus order (BM25 scores ``a - b`` and ``b - a`` alike) favour neither.
Writing it out is :mod:`execretrieval.build.builder`'s job.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..benchmark.dataset import BUG_TYPES, Benchmark, Query, Snippet
from ..benchmark.seedfile import HandDistractor, SeedTask
from ..errors import BuildError, CancelledError
from ..hooks import Progress, ShouldStop
from ..mutation.generate import MutantSet, generate_mutants
from ..mutation.select import (
    REJECT_REASONS,
    keep_reason,
    rng_for,
    sample_candidates,
    select_distractors,
)
from ..mutation.source import target_function

if TYPE_CHECKING:
    from ..oracle.execution import Oracle

__all__ = ["Assembly", "DroppedTask", "assemble"]



@dataclass(frozen=True)
class DroppedTask:
    """A task left out of the benchmark, where it came from and why."""

    origin: str
    function_name: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"origin": self.origin, "function_name": self.function_name,
                "reason": self.reason}


@dataclass(frozen=True)
class Assembly:
    """The built benchmark plus everything the manifest reports about how it was made."""

    benchmark: Benchmark
    dropped: tuple[DroppedTask, ...]
    short: tuple[dict[str, Any], ...]
    stats: Mapping[str, Any] = field(repr=False)

    def counts(self) -> dict[str, Any]:
        """Queries, snippets, and counts per domain, per bug type, per distractor count."""
        bench = self.benchmark
        per_query = Counter(len(bench.distractors_for(q.query_id)) for q in bench.queries)
        return {
            "queries": len(bench.queries),
            "snippets": len(bench.corpus),
            "distractors": sum(1 for s in bench.corpus if not s.is_canonical),
            "by_domain": dict(sorted(Counter(q.domain for q in bench.queries).items())),
            "by_bug_type": dict(sorted(Counter(s.bug_type for s in bench.corpus
                                               if s.bug_type).items())),
            "queries_by_distractor_count": {str(k): per_query[k] for k in sorted(per_query)},
        }


class _Steps:
    """Progress over several oracle batches whose sizes become known one by one."""

    def __init__(self, progress: Progress | None, should_stop: ShouldStop | None) -> None:
        self.progress, self.should_stop = progress, should_stop
        self.done = 0
        self.total = 0

    def check(self) -> None:
        if self.should_stop is not None and self.should_stop():
            raise CancelledError("build stopped")

    def run(self, oracle: Oracle, jobs: list[tuple[str, Sequence[str]]]) -> list[Any]:
        self.check()
        base = self.done
        self.total += len(jobs)

        def hook(done: int, _total: int) -> None:
            self.done = base + done
            if self.progress is not None:
                self.progress(self.done, self.total)

        results = oracle.run_many(jobs, progress=hook, should_stop=self.should_stop)
        self.done = base + len(jobs)
        return list(results)


def _static_problem(task: SeedTask) -> str | None:
    """Why the task cannot be used, judged without running it (None if it can)."""
    try:
        tree = ast.parse(task.canonical)
    except SyntaxError as exc:
        return f"canonical does not parse: {exc.msg} (line {exc.lineno})"
    try:
        target_function(tree, task.function_name)
    except BuildError as exc:
        return f"canonical: {exc}"
    for i, test in enumerate(task.test_suite, start=1):
        try:
            test_tree = ast.parse(test)
        except SyntaxError as exc:
            return f"test {i} does not parse: {exc.msg}"
        if not any(isinstance(n, ast.Name) and n.id == task.function_name
                   for n in ast.walk(test_tree)):
            return f"test {i} never calls {task.function_name}()"
    return None


def _hand_problem(hand: HandDistractor, task: SeedTask) -> str | None:
    """Why a hand-written distractor is unusable before even looking at its run."""
    try:
        tree = ast.parse(hand.code)
        target_function(tree, task.function_name)
    except SyntaxError as exc:
        return f"does not parse: {exc.msg} (line {exc.lineno})"
    except BuildError as exc:
        return str(exc)
    if ast.dump(tree) == ast.dump(ast.parse(task.canonical)):
        return "same AST as the canonical"
    return None


def _check_tasks(tasks: Sequence[SeedTask], oracle: Oracle, steps: _Steps,
                 dropped: list[DroppedTask]) -> list[SeedTask]:
    """Tasks whose canonical parses, defines the function and passes every test."""
    names: dict[str, str] = {}
    usable: list[SeedTask] = []
    for task in tasks:
        problem = _static_problem(task)
        if problem is None and task.function_name in names:
            problem = f"function name already used by {names[task.function_name]}"
        if problem is not None:
            dropped.append(DroppedTask(task.origin, task.function_name, problem))
            continue
        names[task.function_name] = task.origin
        usable.append(task)
    results = steps.run(oracle, [(t.canonical, t.test_suite) for t in usable])
    passing = []
    for task, result in zip(usable, results, strict=False):
        if result.passed:
            passing.append(task)
        else:
            failed = sum(o.status != "pass" for o in result.outcomes)
            dropped.append(DroppedTask(task.origin, task.function_name,
                                       f"canonical fails {failed} of {len(result.outcomes)} "
                                       f"tests; first: {result.first_problem()}"))
    return passing


def assemble(tasks: Sequence[SeedTask], oracle: Oracle, *, mutant_oracle: Oracle | None = None,
             seed: int = 0, max_distractors: int = 4, candidate_limit: int | None = 40,
             progress: Progress | None = None,
             should_stop: ShouldStop | None = None) -> Assembly:
    """Check, mutate, execute and select: the benchmark in memory, with its statistics.

    ``oracle`` runs canonicals; ``mutant_oracle`` (default: ``oracle``) runs candidate
    distractors, typically with a shorter timeout since a mutant that loops is rejected
    anyway. ``candidate_limit`` caps how many mutants per task are executed at first
    (spread over bug types); a task left with fewer than ``max_distractors`` kept then has
    all its remaining mutants executed.
    Raises CancelledError when ``should_stop()`` turns true.
    """
    steps = _Steps(progress, should_stop)
    dropped: list[DroppedTask] = []
    usable = _check_tasks(tasks, oracle, steps, dropped)
    stats = _Stats()
    plans: list[_Plan] = []
    for task in usable:
        steps.check()
        mutant_set = generate_mutants(task.canonical, task.function_name)
        first = sample_candidates(mutant_set.mutants, task.function_name, seed, candidate_limit)
        chosen_ids = {id(m) for m in first}
        rest = [m for m in mutant_set.mutants if id(m) not in chosen_ids]
        stats.proposed(mutant_set)
        plans.append(_Plan(task, [*task.distractors, *first], rest))
    _execute(plans, mutant_oracle or oracle, steps, stats)
    # a task still short of distractors gets its remaining mutants executed too
    again = [p for p in plans if len(p.hand) + len(p.kept) < max_distractors and p.rest]
    for plan in again:
        plan.candidates, plan.rest = plan.rest, []
    _execute(again, mutant_oracle or oracle, steps, stats)

    queries: list[Query] = []
    corpus: list[Snippet] = []
    short: list[dict[str, Any]] = []
    for plan in plans:
        task, hand, kept = plan.task, plan.hand, plan.kept
        chosen = select_distractors(kept, task.function_name, seed,
                                    max(0, max_distractors - len(hand)))
        stats.selected(chosen)
        query_id = f"q_{len(queries) + 1:04d}"
        group: list[tuple[str, str | None, str, str]] = [("canonical", None, "", task.canonical)]
        group += [("distractor", d.bug_type, d.bug_description, d.code) for d in hand + chosen]
        order = rng_for(seed, task.function_name, "order").permutation(len(group))
        canonical_id = ""
        for i in order:
            role, bug_type, description, code = group[i]
            corpus_id = f"c_{len(corpus) + 1:05d}"
            canonical_id = corpus_id if role == "canonical" else canonical_id
            corpus.append(Snippet(corpus_id, query_id, role, bug_type, description, code))
        queries.append(Query(query_id, task.query, task.function_name, task.domain,
                             task.test_suite, (canonical_id,), extra=task.extra))
        if len(group) - 1 < max_distractors:
            short.append({"query_id": query_id, "function_name": task.function_name,
                          "distractors": len(group) - 1,
                          "reason": f"only {len(kept) + len(hand)} of "
                                    f"{plan.tried} executed mutants fail a test by "
                                    f"assertion"})
    return Assembly(Benchmark(queries, corpus), tuple(dropped), tuple(short), stats.to_dict())


@dataclass
class _Plan:
    """One task's candidates: those to execute next, those held back, those kept so far."""

    task: SeedTask
    candidates: list[Any]
    rest: list[Any]
    hand: list[HandDistractor] = field(default_factory=list)
    kept: list[Any] = field(default_factory=list)
    tried: int = 0


def _execute(plans: Sequence[_Plan], oracle: Oracle, steps: _Steps, stats: _Stats) -> None:
    """Run every plan's current candidates in one batch and sort them into kept/rejected."""
    jobs: list[tuple[str, Sequence[str]]] = [(c.code, p.task.test_suite) for p in plans
                                             for c in p.candidates]
    if not jobs:
        return
    results = iter(steps.run(oracle, jobs))
    for plan in plans:
        for candidate in plan.candidates:
            reason = keep_reason(next(results))
            is_hand = isinstance(candidate, HandDistractor)
            if is_hand:
                reason = _hand_problem(candidate, plan.task) or reason
            stats.executed(candidate.bug_type, reason, is_hand, plan.task.function_name)
            if reason is None:
                (plan.hand if is_hand else plan.kept).append(candidate)
        plan.tried += len(plan.candidates)
        plan.candidates = []


class _Stats:
    """Mutants proposed, executed, kept and rejected, overall and per bug type."""

    def __init__(self) -> None:
        self.static: Counter[str] = Counter()
        self.rejected: Counter[str] = Counter()
        self.per_type: dict[str, Counter[str]] = {t: Counter() for t in BUG_TYPES}
        self.hand: Counter[str] = Counter()
        self.hand_rejected: list[dict[str, str]] = []

    def proposed(self, mutant_set: MutantSet) -> None:
        self.static.update(mutant_set.rejected)
        for m in mutant_set.mutants:
            self.per_type[m.bug_type]["valid"] += 1

    def executed(self, bug_type: str, reason: str | None, is_hand: bool,
                 function_name: str) -> None:
        if is_hand:
            self.hand["given"] += 1
            self.hand["kept" if reason is None else "rejected"] += 1
            if reason is not None:
                self.hand_rejected.append({"function_name": function_name, "reason": reason})
            return
        self.per_type[bug_type]["tried"] += 1
        if reason is None:
            self.per_type[bug_type]["kept"] += 1
        else:
            self.rejected[reason] += 1

    def selected(self, chosen: Sequence[Any]) -> None:
        for m in chosen:
            self.per_type[m.bug_type]["selected"] += 1

    def to_dict(self) -> dict[str, Any]:
        def total(key: str) -> int:
            return sum(c[key] for c in self.per_type.values())

        return {
            "candidate_edits": total("valid") + sum(self.static.values()),
            "rejected_before_execution": dict(sorted(self.static.items())),
            "valid": total("valid"),
            "not_tried_over_limit": total("valid") - total("tried"),
            "tried": total("tried"),
            "kept": total("kept"),
            "rejected_by_execution": {r: self.rejected[r] for r in REJECT_REASONS},
            "selected": total("selected"),
            "by_bug_type": {t: {k: c[k] for k in ("valid", "tried", "kept", "selected")}
                            for t, c in self.per_type.items()},
            "hand_written": {"given": self.hand["given"], "kept": self.hand["kept"],
                             "rejected": self.hand_rejected},
        }

