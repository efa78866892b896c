"""Pipelines through compare, export-run and the Markdown report, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import DATA

BUILTIN = DATA / "builtin"


def _depth_with_ties(model: str, depth: int) -> float:
    """Brute force: per query, the candidates scoring at least the ``depth``-th best
    (finite) score -- a tie group at the cut whole -- averaged over the queries."""
    import execretrieval

    benchmark = execretrieval.load_benchmark(BUILTIN)
    scores = execretrieval.rank_system(benchmark, model, keep=800).known_scores()
    counts = []
    for row in scores:
        finite = np.sort(row[np.isfinite(row)])[::-1]
        counts.append(int((finite >= finite[depth - 1]).sum()) if len(finite) > depth
                      else len(finite))
    return float(np.mean(counts))


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def _one_result_cache(_private_dirs, shared_cache: Path,  # type: ignore[no-untyped-def]
                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands here run tfidf's and bm25's candidates on builtin's tests, each test
    much the same suites: they share one cache folder, as one user's commands would, so a
    suite runs once (annotations and settings stay private)."""
    monkeypatch.setenv("EXECRETRIEVAL_CACHE_DIR", str(shared_cache))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "execretrieval.cli", *args],
                          capture_output=True, text=True)


def test_export_run_writes_a_fused_and_reranked_run(tmp_path) -> None:
    run = tmp_path / "fused.trec"
    done = _cli("export-run", str(BUILTIN), "--model", "rrf:bm25,tfidf+exec:depth=3",
                "--visible", "2", "--split-seed", "1", "--depth", "5", "--out", str(run))
    assert done.returncode == 0, done.stderr
    lines = run.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 160 * 5
    qid, q0, doc, rank, score, tag = lines[0].split()
    assert (q0, rank, tag) == ("Q0", "1", "rrf:bm25,tfidf+exec:depth=3")
    refused = _cli("export-run", str(BUILTIN), "--model", "bm25+exec", "--out", str(run))
    assert refused.returncode == 2 and "needs a held-out split" in refused.stderr
    unknown = _cli("export-run", str(BUILTIN), "--model", "rrf:bm25,nosuch",
                   "--out", str(tmp_path / "x.trec"))
    assert unknown.returncode == 2 and "unknown model 'nosuch'" in unknown.stderr
    assert "bm25" in unknown.stderr and not (tmp_path / "x.trec").exists()


def test_compare_and_markdown_show_pipelines_with_their_cost(tmp_path) -> None:
    out = tmp_path / "c.md"
    done = _cli("compare", str(BUILTIN), "--model", "tfidf", "--model", "tfidf+exec:depth=5",
                "--visible", "0.5", "--split-seed", "0", "--bootstrap", "200", "--json",
                "--out", str(out))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["a"] == "tfidf" and result["b"] == "tfidf+exec:depth=5"
    text = out.read_text(encoding="utf-8")
    assert "## Quality and cost" in text and "Judged on held-out tests only" in text
    row = next(line for line in text.splitlines()
               if line.startswith("| tfidf+exec:depth=5 |") and "vs tfidf" in line)
    # five executions per query at depth 5, more where a tie straddles the cut
    per_query = _depth_with_ties("tfidf", 5)
    assert per_query >= 5.0 and f"| {per_query:.1f} |" in row
    assert row.count(" | ") == 9   # ten columns: system ... sandbox CPU s, slip-through


def test_the_python_api_names_pipelines() -> None:
    import execretrieval

    benchmark = execretrieval.load_benchmark(BUILTIN)
    ranking = execretrieval.rank_system(benchmark, "combsum:bm25,tfidf")
    assert ranking.model == "combsum:bm25,tfidf"
    assert execretrieval.parse_pipeline("bm25+exec").stages[0].name == "exec"
    assert execretrieval.make_split(benchmark, 3, seed=0).visible_tests("q_0001")


def test_the_html_report_has_the_quality_and_cost_table(tmp_path) -> None:
    out = tmp_path / "r.html"
    done = _cli("evaluate", str(BUILTIN), "--model", "tfidf", "--model", "tfidf+exec:depth=2",
                "--visible", "0.5", "--bootstrap", "100", "--out", str(out))
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert "<h2>Quality and cost</h2>" in page
    assert "<td>tfidf+exec:depth=2</td>" in page
    assert f"<td>{_depth_with_ties('tfidf', 2):.1f}</td>" in page
    assert '<svg class="chart" data-chart="quality-vs-cost"' in page
    assert page.count('class="moved"') == 1   # tfidf -> tfidf+exec:depth=2
