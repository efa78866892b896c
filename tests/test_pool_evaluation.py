"""A background pool inside the evaluation: executed like any candidate, every analysis,
the pool-scaling curve, every report format, the CLI."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO
from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.benchmark.pool import BACKGROUND, Pool, pool_subset, with_pool
from execretrieval.build.background import extract_pool, resolve_source
from execretrieval.oracle.execution import Oracle
from execretrieval.report.evaluation import evaluate_models
from execretrieval.report.pool_scaling import parse_pool_sizes, pool_scaling


@pytest.fixture(scope="module")
def json_pool() -> Pool:
    snippets, _ = extract_pool([resolve_source("json")])
    return Pool(tuple(snippets), name="json")


class RecordingOracle:
    """The real sandboxed Oracle, remembering which code it was asked to run."""

    def __init__(self) -> None:
        self.oracle = Oracle()
        self.codes: list[str] = []

    def run_many(self, jobs, progress=None, should_stop=None):
        self.codes += [code for code, _ in jobs]
        return self.oracle.run_many(jobs, progress=progress, should_stop=should_stop)

    def containment(self):
        return self.oracle.containment()

    def close(self) -> None:
        self.oracle.close()


def test_background_in_the_top_k_is_executed_and_analyses_work(tiny_dir: Path,
                                                               json_pool: Pool) -> None:
    joined = with_pool(load_benchmark(tiny_dir), json_pool)
    oracle = RecordingOracle()
    try:
        report = evaluate_models(joined, ["bm25"], oracle, n_boot=100)
    finally:
        oracle.close()
    ev = report.models["bm25"]
    background = {s.code for s in joined.corpus if s.role == BACKGROUND}
    top = ev.ranking.order[:, :10]
    shown = {joined.corpus[j].code for j in top.ravel()} & background
    assert shown and shown <= set(oracle.codes)  # every background candidate shown ran
    assert not ev.passes[np.isin(top, [joined.corpus_index(s.corpus_id) for s in
                                       joined.corpus if s.role == BACKGROUND])].any()
    assert 0.0 <= ev.deception_rate <= 1.0 and set(ev.density_ablation) == set("01234")
    assert report.benchmark["pool"]["joined"] == len(json_pool)
    assert "Background pool json" in report.pool_note()


def test_pool_scaling_size_zero_is_the_plain_benchmark(tiny_dir: Path,
                                                       json_pool: Pool) -> None:
    bench = load_benchmark(tiny_dir)
    with Oracle() as oracle:
        plain = evaluate_models(bench, ["bm25", "tfidf"], oracle, n_boot=100, seed=3)
        points = pool_scaling(bench, json_pool, ["bm25", "tfidf"], oracle,
                              sizes=(0, 7, None, 10_000), seed=3, n_boot=100)
    assert [(p.model, p.pool_size) for p in points] == [
        ("bm25", 0), ("bm25", 7), ("bm25", len(json_pool)),
        ("tfidf", 0), ("tfidf", 7), ("tfidf", len(json_pool))]
    for p in points:
        assert p.corpus_size == len(bench.corpus) + p.pool_size
    for model in ("bm25", "tfidf"):
        zero = next(p for p in points if p.model == model and p.pool_size == 0)
        for metric, values in plain.models[model].per_query.items():
            np.testing.assert_array_equal(zero.evaluation.per_query[metric], values)
        assert zero.rank1_background == 0.0 and zero.topk_background == 0.0
        assert zero.evaluation.metrics["exec@1"] == plain.models[model].metrics["exec@1"]
    full = next(p for p in points if p.model == "bm25" and p.pool_size == len(json_pool))
    assert full.topk_background > 0


def test_parse_pool_sizes() -> None:
    assert parse_pool_sizes("0,1000, 5000,all") == (0, 1000, 5000, None)
    for bad in ("x", "-1", ""):
        with pytest.raises(ValueError):
            parse_pool_sizes(bad)


def test_subset_of_a_joined_pool_is_reproducible(tiny_dir: Path, json_pool: Pool) -> None:
    bench = load_benchmark(tiny_dir)
    a = with_pool(bench, pool_subset(json_pool, 9, seed=1))
    b = with_pool(bench, pool_subset(json_pool, 9, seed=1))
    assert a.fingerprint == b.fingerprint and len(a.corpus) == len(bench.corpus) + 9


@pytest.mark.slow
def test_cli_evaluate_with_pool_sizes_in_every_format(tiny_dir: Path,
                                                      tmp_path: Path) -> None:
    pool = tmp_path / "pool.jsonl"
    subprocess.run([sys.executable, "-m", "execretrieval.cli", "pool", "json", "--out",
                    str(pool)], check=True, capture_output=True, timeout=120)
    outputs = {}
    for suffix in ("json", "md", "html", "csv"):
        out = tmp_path / f"r.{suffix}"
        done = subprocess.run(
            [sys.executable, "-m", "execretrieval.cli", "evaluate", str(tiny_dir),
             "--model", "bm25", "--model", "tfidf", "--pool", str(pool), "--pool-sizes",
             "0,5,all", "--bootstrap", "100", "--out", str(out)],
            capture_output=True, text=True, cwd=REPO, timeout=300)
        assert done.returncode == 0, done.stderr
        assert "background pool" in done.stderr
        outputs[suffix] = out.read_text()
    data = json.loads(outputs["json"])
    assert data["benchmark"]["pool"]["name"] == "pool"
    size = data["benchmark"]["pool"]["size"]
    assert [(p["model"], p["pool_size"]) for p in data["pool_scaling"]] == [
        ("bm25", 0), ("bm25", 5), ("bm25", size), ("tfidf", 0), ("tfidf", 5),
        ("tfidf", size)]
    # the "all" point is the main evaluation
    main = data["models"]["bm25"]["metrics"]["exec@1"]["mean"]
    assert data["pool_scaling"][2]["exec@1"] == main
    assert data["settings"]["pool_sizes"] == [0, 5, size]
    assert "## Pool scaling" in outputs["md"] and "Background pool pool" in outputs["md"]
    assert 'data-chart="pool-scaling"' in outputs["html"]
    rows = list(csv.DictReader(outputs["csv"].splitlines()))
    assert {(r["model"], r["pool_size"]) for r in rows} == {
        (m, str(n)) for m in ("bm25", "tfidf") for n in (0, 5, size)}
    assert len(rows) == 2 * 3 * 4


def test_cli_pool_errors(tiny_dir: Path, tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "execretrieval.cli", *args],
                              capture_output=True, text=True, cwd=REPO, timeout=120)

    out = str(tmp_path / "r.json")
    done = run("evaluate", str(tiny_dir), "--model", "bm25", "--pool-sizes", "0,all",
               "--out", out)
    assert done.returncode == 2 and "--pool-sizes needs --pool" in done.stderr
    done = run("evaluate", str(tiny_dir), "--model", "bm25", "--pool", "x.jsonl",
               "--pool-sizes", "0,lots", "--out", out)
    assert done.returncode == 2 and "'lots' is not a number" in done.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"corpus_id": "a", "code": "def f(): pass"}\n')
    done = run("export-run", str(tiny_dir), "--model", "bm25", "--pool", str(bad),
               "--out", str(tmp_path / "r.trec"))
    assert done.returncode == 2 and f"{bad}:1: field 'source': missing" in done.stderr
    assert "Traceback" not in done.stderr
