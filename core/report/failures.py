"""Failures explained in reports: for each query, what the rank-1 candidate got wrong.

A report says not only that a model's rank-1 candidate fails, but which tests it fails and
why, in the oracle's words (``returned -1, expected 0``). :func:`rank1_failures` gathers
this for the JSON and Markdown reports (and :class:`~.evaluation.EvaluationReport` keeps
it); the HTML drill-down shows the same for every candidate it lists (see
:mod:`.drilldown`). Results come from the oracle's cache, filled by the evaluation that
just ran; only suites the cache does not hold (``--no-cache``) are executed again.

JSON shape, under the report's ``"failures"`` key (stable; documented in the README)::

    {"<model>": [{"query_id", "function_name", "rank": 1, "corpus_id", "role",
                  "bug_type", "tests": [{"number", "test", "status", "explanation"}]}]}

one entry per measured query whose rank-1 candidate does not pass every test, in benchmark
order; ``number`` is 1-based, ``status`` one of fail / error / timeout.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..ranking.ranking import Ranking

__all__ = ["failing_tests", "failures_markdown", "rank1_failures", "role_of"]


def failing_tests(result: Any) -> list[dict[str, Any]]:
    """The tests a suite result did not pass: number (1-based), text, status, explanation."""
    return [{"number": i, "test": o.test, "status": o.status, "explanation": o.detail}
            for i, o in enumerate(getattr(result, "outcomes", ()) or (), start=1)
            if o.status != "pass"]


def role_of(query_id: str, snippet: Any) -> str:
    """canonical, own mutant, other query or background: the snippet's place for a query."""
    if snippet.role == "background":
        return "background"
    if snippet.query_id != query_id:
        return "other query"
    return "canonical" if snippet.role == "canonical" else "own mutant"


def rank1_failures(benchmark: Benchmark, rankings: Mapping[str, Ranking], oracle: Any, *,
                   exclude: Collection[str] = ()) -> dict[str, list[dict[str, Any]]]:
    """For each model, each measured query whose rank-1 candidate fails: which tests and why.

    Cached results are used as they are; misses (an oracle without a cache) run once, in one
    batch. An oracle that can neither look up nor execute suites yields no entries."""
    lookup = getattr(oracle, "cached", None)
    if lookup is None:
        return {name: [] for name in rankings}
    picks: dict[str, list[tuple[int, int]]] = {}
    results: dict[tuple[str, tuple[str, ...]], Any] = {}
    for name, ranking in rankings.items():
        picks[name] = []
        for qi, query in enumerate(benchmark.queries):
            top = ranking.top(qi, 1)
            if query.query_id in exclude or not len(top):
                continue
            j = int(top[0])
            picks[name].append((qi, j))
            job = (benchmark.corpus[j].code, tuple(query.test_suite))
            if job not in results:
                results[job] = lookup(*job)
    missing = [job for job, result in results.items() if result is None]
    if missing:
        for job, result in zip(missing, oracle.run_many(missing), strict=True):
            results[job] = result
    out: dict[str, list[dict[str, Any]]] = {}
    for name, chosen in picks.items():
        entries = []
        for qi, j in chosen:
            query, snippet = benchmark.queries[qi], benchmark.corpus[j]
            tests = failing_tests(results[(snippet.code, tuple(query.test_suite))])
            if tests:
                entries.append({"query_id": query.query_id,
                                "function_name": query.function_name, "rank": 1,
                                "corpus_id": snippet.corpus_id,
                                "role": role_of(query.query_id, snippet),
                                "bug_type": snippet.bug_type or "", "tests": tests})
        out[name] = entries
    return out


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ⏎ ".join(line.strip() for line in str(text).strip().splitlines() if line.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _code(text: str) -> str:
    """Inline Markdown code that survives backticks and table pipes in the text."""
    fence = "``" if "`" in text else "`"
    return f"{fence} {text} {fence}" if fence == "``" else f"`{text}`"


def failures_markdown(failures: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[str]:
    """The report's "Failures explained" section as Markdown lines ([] without entries)."""
    if not any(failures.values()):
        return []
    lines = ["", "## Failures explained (rank-1 candidates)", "",
             "For each query whose rank-1 candidate does not pass every test: the tests it "
             "fails (numbered from 1, as in the inspector) and what went wrong."]
    for model, entries in failures.items():
        if not entries:
            continue
        lines += ["", f"### {model}", ""]
        for e in entries:
            kind = e["role"] + (f", {e['bug_type']}" if e.get("bug_type") else "")
            lines.append(f"- **{e['function_name']}** ({e['query_id']}): rank 1 "
                         f"`{e['corpus_id']}` ({kind})")
            for t in e["tests"]:
                why = _one_line(t["explanation"]) or t["status"]
                lines.append(f"  - test {t['number']} {_code(_one_line(t['test'], 120))} — "
                             f"{t['status']}: {why}")
    return lines
