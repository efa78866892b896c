"""Cost of the second stages on the bundled benchmark: ``exec`` and ``consensus`` at depth
10 over bm25 and minilm, cold (an empty result cache) and warm (the same cache again),
against the time of the base ranking itself.

Every round builds the base ranking, then each pipeline cold and warm; prints every round
and the load average, since the machine may be shared. The split is ``--visible 0.5
--split-seed 0``. Run: .venv/bin/python bench/bench_pipeline.py [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.oracle.cache import ResultCache
from execretrieval.oracle.execution import Oracle
from execretrieval.pipeline import make_split, rank_system, system_cost

BUILTIN = Path(__file__).resolve().parents[1] / "data" / "builtin"


def _timed(benchmark, name, **kwargs):  # noqa: ANN001, ANN202 - a bench script
    began = time.perf_counter()
    ranking = rank_system(benchmark, name, **kwargs)
    return time.perf_counter() - began, ranking


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    benchmark = load_benchmark(BUILTIN)
    split = make_split(benchmark, 0.5, seed=0)
    print(f"pipelines on {benchmark.name}: {len(benchmark.queries)} queries, "
          f"{len(benchmark.corpus)} snippets, depth 10, {os.cpu_count()} cores; "
          f"load average before: {os.getloadavg()[0]:.2f}")
    for r in range(1, args.rounds + 1):
        for base in ("bm25", "minilm"):
            t_base, _ = _timed(benchmark, base)
            for stage in ("exec", "consensus"):
                name = f"{base}+{stage}"
                with tempfile.TemporaryDirectory() as folder:
                    with Oracle(cache=ResultCache(Path(folder) / "cache.sqlite")) as oracle:
                        t_cold, cold = _timed(benchmark, name, oracle=oracle, split=split)
                        t_warm, warm = _timed(benchmark, name, oracle=oracle, split=split)
                cost = system_cost(cold)
                hits = system_cost(warm)["cache_hits"]
                print(f"  round {r} {name:18} base {t_base:6.3f} s | cold {t_cold:6.2f} s "
                      f"({t_cold / t_base:6.1f}x base, {cost['executions_per_query']:.1f} "
                      f"suites/query, sandbox {cost['suite_seconds']:.1f} s, CPU "
                      f"{cost['cpu_seconds']:.2f} s + sandbox CPU "
                      f"{cost['sandbox_cpu_seconds']:.1f} s) | warm {t_warm:6.3f} s "
                      f"({t_warm / t_base:5.1f}x base, {hits} cache hits, CPU "
                      f"{system_cost(warm)['cpu_seconds']:.2f} s)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
