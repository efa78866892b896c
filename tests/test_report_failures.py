"""Reports list each query's rank-1 failures explained: test number (1-based), test text and
what went wrong, in JSON (stable keys), Markdown and the HTML drill-down."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from execretrieval import MemoryCache, Oracle
from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.ranking.ranking import Ranking
from execretrieval.report.drilldown import cached_outcomes, cached_results
from execretrieval.report.evaluation import evaluate_models
from execretrieval.report.writers import write_report

ENTRY_KEYS = {"query_id", "function_name", "rank", "corpus_id", "role", "bug_type", "tests"}
TEST_KEYS = {"number", "test", "status", "explanation"}


def _expected(bench, ranking, oracle) -> dict[str, list[tuple[int, str, str, str]]]:  # type: ignore[no-untyped-def]
    """Rank-1 failures found independently: run the rank-1 snippet's suite afresh."""
    found = {}
    for qi, query in enumerate(bench.queries):
        snippet = bench.corpus[int(ranking.top(qi, 1)[0])]
        result = oracle.run(snippet.code, query.test_suite)
        bad = [(i, o.test, o.status, o.detail) for i, o in enumerate(result.outcomes, 1)
               if o.status != "pass"]
        if bad:
            found[query.query_id] = bad
    return found


def _deceived(bench) -> Ranking:  # type: ignore[no-untyped-def]
    """A model that ranks each query's own mutants first (the wrong answers to explain)."""
    scores = np.zeros((len(bench.queries), len(bench.corpus)))
    for qi, query in enumerate(bench.queries):
        for j, snippet in enumerate(bench.corpus):
            if snippet.query_id == query.query_id:
                scores[qi, j] = 1.0 + (snippet.role == "distractor") + j / 1000
    return Ranking.from_scores("deceived", scores)


def test_reports_explain_the_rank1_failures(tiny_dir: Path, tmp_path: Path) -> None:
    bench = load_benchmark(tiny_dir)
    model = _deceived(bench)
    with Oracle(cache=MemoryCache(), workers=2) as oracle:
        report = evaluate_models(bench, [model], oracle, n_boot=50, seed=0, command="x")
        executed = oracle.executed
        json_path = write_report(report, tmp_path / "r.json")
        md = write_report(report, tmp_path / "r.md").read_text()
        html = write_report(report, tmp_path / "r.html", bench,
                            outcomes=cached_outcomes(oracle),
                            results=cached_results(oracle)).read_text()
        assert oracle.executed == executed  # explained from the cache, nothing run again
        with Oracle(cache=None, workers=1) as fresh:
            expected = _expected(bench, model, fresh)
    assert len(expected) == len(bench.queries)  # every rank 1 is a mutant: each fails
    data = json.loads(json_path.read_text())
    entries = data["failures"]["deceived"]
    assert [e["query_id"] for e in entries] == list(expected)
    for entry in entries:
        assert set(entry) == ENTRY_KEYS and entry["rank"] == 1
        assert all(set(t) == TEST_KEYS for t in entry["tests"])
        assert [(t["number"], t["test"], t["status"], t["explanation"])
                for t in entry["tests"]] == expected[entry["query_id"]]
    assert any(t["explanation"].startswith("returned ") for e in entries for t in e["tests"])
    first = entries[0]
    test = first["tests"][0]
    assert "## Failures explained (rank-1 candidates)" in md
    assert f"**{first['function_name']}** ({first['query_id']}): rank 1 " \
           f"`{first['corpus_id']}`" in md
    assert f"  - test {test['number']} " in md and test["explanation"].splitlines()[0] in md
    section = html[html.index(f'<details class="q" id="{first["query_id"]}"'):]
    section = section[:section.index("</details>")]
    assert "Failing tests explained" in section
    assert f"<code>{first['corpus_id']}</code>" in section
    assert "rank 1 under deceived" in section and "rank 2 under deceived" in section
    assert f"test {test['number']} <code>" in section


def test_without_a_cache_the_rank1_suites_run_once_more(tiny_dir: Path) -> None:
    """An oracle without a cache cannot look results up: the rank-1 candidates' suites run
    once more (one batch) so the report still explains them."""
    bench = load_benchmark(tiny_dir)
    with Oracle(cache=None, workers=2) as oracle:
        report = evaluate_models(bench, ["bm25"], oracle, n_boot=50, seed=0, command="x")
        entries = report.failures["bm25"]
    assert entries and all(e["tests"] for e in entries)
    assert all(t["number"] >= 1 for e in entries for t in e["tests"])
