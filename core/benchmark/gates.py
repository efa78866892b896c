"""The five validation gates a benchmark must pass (design §5).

1. ``schema``: every file parses and every record has its fields, with valid types,
   roles and bug types (the all-or-nothing loader).
2. ``ast_semantics``: every snippet parses and defines the query's target function at top
   level; every test parses and refers to that function.
3. ``canonical_execution``: every canonical (and every id in ``correct_corpus_ids``)
   passes all of its query's tests.
4. ``distractor_execution``: every distractor fails at least one of its query's tests, and
   not by crashing on every test (at least one test passes or fails by assertion).
5. ``corpus_integrity``: each query has exactly one canonical and lists it as correct,
   no canonical is orphaned, no function name is shared by two queries.

Gates 3 and 4 execute code through the oracle; the rest are static. When the schema gate
fails nothing else can be checked, and the other gates are reported as not run.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import BenchmarkFormatError
from ..hooks import Progress, ShouldStop
from .dataset import Benchmark, Snippet, load_benchmark

if TYPE_CHECKING:
    from ..oracle.execution import Oracle
    from ..oracle.results import SuiteResult

__all__ = ["GATE_NAMES", "GateFailure", "GateResult", "ValidationReport", "validate",
           "validate_folder"]

GATE_NAMES = ("schema", "ast_semantics", "canonical_execution", "distractor_execution",
              "corpus_integrity")



@dataclass(frozen=True)
class GateFailure:
    """One defect: which query and snippet (either may be None) and why."""

    query_id: str | None
    corpus_id: str | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"query_id": self.query_id, "corpus_id": self.corpus_id, "reason": self.reason}


@dataclass(frozen=True)
class GateResult:
    """The verdict of one gate; ``ran`` is False when an earlier gate made it impossible."""

    name: str
    failures: tuple[GateFailure, ...] = ()
    ran: bool = True

    @property
    def passed(self) -> bool:
        return self.ran and not self.failures

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed,
                "failures": [f.to_dict() for f in self.failures]}


@dataclass(frozen=True)
class ValidationReport:
    """All five gate results, in gate order."""

    gates: tuple[GateResult, ...]
    benchmark: Benchmark | None = field(default=None, compare=False, repr=False)

    @property
    def passed(self) -> bool:
        return all(g.passed for g in self.gates)

    def gate(self, name: str) -> GateResult:
        return next(g for g in self.gates if g.name == name)

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "gates": [g.to_dict() for g in self.gates]}


def validate_folder(path: str | Path, oracle: Oracle, *, progress: Progress | None = None,
                    should_stop: ShouldStop | None = None) -> ValidationReport:
    """Load the folder and run all five gates.

    A missing folder or file raises BenchmarkNotFoundError (the caller cannot validate
    what it cannot read); a malformed file is a failed schema gate, not an exception.
    """
    try:
        benchmark = load_benchmark(path)
    except BenchmarkFormatError as exc:
        failure = GateFailure(None, None, str(exc))
        rest = tuple(GateResult(name, (), ran=False) for name in GATE_NAMES[1:])
        return ValidationReport((GateResult("schema", (failure,)), *rest))
    return validate(benchmark, oracle, progress=progress, should_stop=should_stop)


def validate(benchmark: Benchmark, oracle: Oracle, *, progress: Progress | None = None,
             should_stop: ShouldStop | None = None) -> ValidationReport:
    """Run the five gates on a loaded benchmark (the schema gate passed by loading it)."""
    canonical_results, distractor_results = _execute(benchmark, oracle, progress, should_stop)
    gates = (
        GateResult("schema"),
        GateResult("ast_semantics", tuple(_ast_failures(benchmark))),
        GateResult("canonical_execution", tuple(_canonical_failures(canonical_results))),
        GateResult("distractor_execution", tuple(_distractor_failures(distractor_results))),
        GateResult("corpus_integrity", tuple(_integrity_failures(benchmark))),
    )
    return ValidationReport(gates, benchmark)


# gate 2 ------------------------------------------------------------------------------

def _defines_function(tree: ast.Module, name: str) -> bool:
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
               for node in tree.body)


def _refers_to(tree: ast.AST, name: str) -> bool:
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(tree))


def _ast_failures(benchmark: Benchmark):
    for query in benchmark.queries:
        for i, test in enumerate(query.test_suite, start=1):
            try:
                tree = ast.parse(test)
            except SyntaxError as exc:
                yield GateFailure(query.query_id, None,
                                  f"test {i} does not parse: {exc.msg} (line {exc.lineno})")
                continue
            if not _refers_to(tree, query.function_name):
                yield GateFailure(query.query_id, None,
                                  f"test {i} never calls {query.function_name}()")
        for snippet in benchmark.snippets_for(query.query_id):
            try:
                tree = ast.parse(snippet.code)
            except SyntaxError as exc:
                yield GateFailure(query.query_id, snippet.corpus_id,
                                  f"code does not parse: {exc.msg} (line {exc.lineno})")
                continue
            if not _defines_function(tree, query.function_name):
                yield GateFailure(query.query_id, snippet.corpus_id,
                                  f"code does not define {query.function_name}() at top level")


# gates 3 and 4 -----------------------------------------------------------------------

def _execute(benchmark: Benchmark, oracle: Oracle, progress: Progress | None,
             should_stop: ShouldStop | None):
    """Run every canonical/correct snippet and every distractor against its query's tests."""
    canonical: list[Snippet] = []
    distractors: list[Snippet] = []
    for query in benchmark.queries:
        correct = set(query.correct_corpus_ids)
        for snippet in benchmark.snippets_for(query.query_id):
            if snippet.is_canonical or snippet.corpus_id in correct:
                canonical.append(snippet)
            else:
                distractors.append(snippet)
    jobs = [(s.code, benchmark.query(s.query_id).test_suite) for s in (*canonical, *distractors)]
    results: Sequence[SuiteResult] = oracle.run_many(jobs, progress=progress,
                                                     should_stop=should_stop)
    split = len(canonical)
    return (list(zip(canonical, results[:split], strict=True)),
            list(zip(distractors, results[split:], strict=True)))


def _canonical_failures(pairs):
    for snippet, result in pairs:
        if not result.passed:
            failed = sum(o.status != "pass" for o in result.outcomes)
            yield GateFailure(snippet.query_id, snippet.corpus_id,
                              f"correct snippet fails {failed} of {len(result.outcomes)} "
                              f"tests; first: {result.first_problem()}")


def _distractor_failures(pairs):
    for snippet, result in pairs:
        statuses = [o.status for o in result.outcomes]
        if result.passed:
            yield GateFailure(snippet.query_id, snippet.corpus_id,
                              "distractor passes every test (it is not wrong, or the tests "
                              "are too weak)")
        elif statuses and all(s in ("error", "timeout") for s in statuses):
            yield GateFailure(snippet.query_id, snippet.corpus_id,
                              f"distractor crashes on every test ({result.first_problem()})")


# gate 5 ------------------------------------------------------------------------------

def _integrity_failures(benchmark: Benchmark):
    for query in benchmark.queries:
        canonicals = [s for s in benchmark.snippets_for(query.query_id) if s.is_canonical]
        if not canonicals:
            yield GateFailure(query.query_id, None, "query has no canonical snippet")
        elif len(canonicals) > 1:
            ids = ", ".join(s.corpus_id for s in canonicals)
            yield GateFailure(query.query_id, None, f"query has {len(canonicals)} canonical "
                                                    f"snippets ({ids})")
        for cid in query.correct_corpus_ids:
            if not benchmark.has_snippet(cid):
                yield GateFailure(query.query_id, cid, "correct_corpus_ids entry not in corpus")
            elif benchmark.snippet(cid).query_id != query.query_id:
                yield GateFailure(query.query_id, cid,
                                  "correct_corpus_ids entry belongs to another query")
    correct_ids = {cid for q in benchmark.queries for cid in q.correct_corpus_ids}
    for snippet in benchmark.corpus:
        if snippet.is_background:
            continue  # pool functions belong to no query
        if not benchmark.has_query(snippet.query_id):
            yield GateFailure(snippet.query_id, snippet.corpus_id, "snippet of an unknown query")
        elif snippet.is_canonical and snippet.corpus_id not in correct_ids:
            yield GateFailure(snippet.query_id, snippet.corpus_id,
                              "orphan canonical: no query lists it in correct_corpus_ids")
    names = Counter(q.function_name for q in benchmark.queries)
    for query in benchmark.queries:
        if names[query.function_name] > 1:
            yield GateFailure(query.query_id, None,
                              f"function name {query.function_name!r} is shared by "
                              f"{names[query.function_name]} queries")
