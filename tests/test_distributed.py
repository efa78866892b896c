"""Execution sweeps on Dask: a LocalCluster of two worker processes gives a local run's
results, fills the same cache, ships only misses, and cancels."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO

pytest.importorskip("distributed")

from execretrieval.benchmark.dataset import load_benchmark  # noqa: E402
from execretrieval.benchmark.gates import validate  # noqa: E402
from execretrieval.errors import CancelledError, OracleError  # noqa: E402
from execretrieval.oracle.cache import ResultCache  # noqa: E402
from execretrieval.oracle.distributed import DaskConnection, DaskOracle  # noqa: E402
from execretrieval.oracle.execution import Oracle  # noqa: E402
from execretrieval.report.evaluation import evaluate_models  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    with DaskConnection("local", n_workers=2) as connection:
        yield connection


def _jobs(folder: Path) -> list[tuple[str, tuple[str, ...]]]:
    bench = load_benchmark(folder)
    return [(s.code, bench.query(s.query_id).test_suite) for s in bench.corpus]


def test_results_match_a_local_run(cluster, tiny_dir: Path) -> None:
    assert sorted(cluster.workers.values()) == [1, 1]
    jobs = _jobs(tiny_dir)
    with DaskOracle(cluster, cache=None) as remote, Oracle(cache=None) as local:
        seen: list[tuple[int, int]] = []
        far = remote.run_many(jobs, progress=lambda d, t: seen.append((d, t)))
        near = local.run_many(jobs)
    assert [r.outcomes for r in far] == [r.outcomes for r in near]
    assert [r.output for r in far] == [r.output for r in near]
    assert remote.executed == len(jobs)
    assert seen[0] == (0, len(jobs)) and seen[-1] == (len(jobs), len(jobs))


def test_each_tests_output_comes_back_from_the_workers(cluster, tmp_path: Path) -> None:
    """Per-test output and the setup part travel back from a worker and into the client's
    cache (a real SQLite file) as a local run gives them."""
    job = ("print('loading')\ndef f(x):\n    return x\n",
           ("print('one')\nassert f(1) == 1", "assert f(2) == 2", "print('three')"))
    cache = ResultCache(tmp_path / "r.sqlite")
    with DaskOracle(cluster, cache=cache) as remote, Oracle(cache=None) as local:
        far, = remote.run_many([job])
        near, = local.run_many([job])
        again = remote.cached(*job)
    assert far.setup_output == near.setup_output == "loading\n"
    assert [o.output for o in far.outcomes] == [o.output for o in near.outcomes] \
        == ["one\n", "", "three\n"]
    assert again is not None and again.outcomes == far.outcomes
    cache.close()


def test_same_cache_and_only_misses_are_shipped(cluster, tiny_dir: Path,
                                                tmp_path: Path) -> None:
    jobs = _jobs(tiny_dir)
    path = tmp_path / "results.sqlite"
    half = len(jobs) // 2
    with Oracle(cache=ResultCache(path)) as local:
        local.run_many(jobs[:half])
        assert local.executed == half
    with DaskOracle(cluster, cache=ResultCache(path)) as remote:
        # every suite twice: each distinct miss is shipped once
        results = remote.run_many(jobs + jobs)
        assert remote.executed == len(jobs) - half
        assert [r.outcomes for r in results[:len(jobs)]] == \
            [r.outcomes for r in results[len(jobs):]]
        info = remote.containment()
        assert info["dask_workers"] == 2 and "pid_namespace" in info
    with Oracle(cache=ResultCache(path)) as local:
        warm = local.run_many(jobs)
        assert local.executed == 0 and all(r.cached for r in warm)


def test_validation_and_evaluation_match(cluster, tiny_dir: Path) -> None:
    bench = load_benchmark(tiny_dir)
    with DaskOracle(cluster, cache=None) as remote, Oracle(cache=None) as local:
        assert validate(bench, remote).to_dict() == validate(bench, local).to_dict()
        far = evaluate_models(bench, ["bm25"], remote, n_boot=100)
        near = evaluate_models(bench, ["bm25"], local, n_boot=100)
    for metric, values in near.models["bm25"].per_query.items():
        np.testing.assert_array_equal(far.models["bm25"].per_query[metric], values)
    assert far.environment["oracle"]["dask_workers"] == 2


def test_cancel_stops_the_sweep(cluster) -> None:
    slow = "import time\ndef f():\n    time.sleep(3)\n    return 1\n"
    jobs = [(slow + f"# {i}\n", ["assert f() == 1"]) for i in range(8)]
    calls = []

    def should_stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    with DaskOracle(cluster, cache=None) as remote, pytest.raises(CancelledError):
        remote.run_many(jobs, should_stop=should_stop)
    assert remote.executed < len(jobs)


def test_unreachable_scheduler_is_a_clear_error() -> None:
    with pytest.raises(OracleError, match="cannot reach the Dask scheduler"):
        DaskConnection("tcp://127.0.0.1:9", connect_timeout=2)


def test_cli_validate_with_dask_matches_the_local_run(tiny_dir: Path, tmp_path: Path) -> None:
    def run(*extra: str, cache: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "EXECRETRIEVAL_CACHE_DIR": str(tmp_path / cache)}
        return subprocess.run([sys.executable, "-m", "execretrieval.cli", "validate",
                               str(tiny_dir), "--json", *extra], capture_output=True,
                              text=True, cwd=REPO, env=env, timeout=300)

    far = run("--dask", "local", cache="dask")
    near = run(cache="local")
    assert far.returncode == near.returncode == 0, far.stderr
    assert json.loads(far.stdout) == json.loads(near.stdout)
    assert far.stdout == near.stdout
    assert (tmp_path / "dask" / "results.sqlite").is_file()  # the client's cache was filled
