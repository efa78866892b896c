"""Cost of the second stages on the bundled benchmark: ``exec`` and ``consensus`` (on the
visible calls only and with its generated inputs) at depth 10 over bm25 and minilm, cold
(an empty result cache) and warm (the same cache again, a new oracle), wall and CPU
seconds (this process and its sandboxes), against the base ranking's own time.

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


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the sandbox
    servers and the suites they forked count once their oracle is closed)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _staged(benchmark, name, cache, split):  # noqa: ANN001, ANN202 - a bench script
    """(wall, CPU seconds, ranking) of one pipeline on a fresh oracle over ``cache``; the
    oracle is closed before the CPU is read, so its sandboxes' CPU is in it."""
    cpu = _cpu()
    with Oracle(cache=ResultCache(cache)) as oracle:
        wall, ranking = _timed(benchmark, name, oracle=oracle, split=split)
    return wall, _cpu() - cpu, ranking


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stages", nargs="+", default=["exec", "consensus:inputs=0",
                                                        "consensus"],
                        help="stages as written in a pipeline (default: exec, consensus on "
                             "the visible calls only, consensus with generated inputs)")
    args = parser.parse_args()
    benchmark = load_benchmark(BUILTIN)
    split = make_split(benchmark, 0.5, seed=0)
    print(f"pipelines on {benchmark.name}: {len(benchmark.queries)} queries, "
          f"{len(benchmark.corpus)} snippets, depth 10, {os.cpu_count()} cores; "
          f"load average before: {os.getloadavg()[0]:.2f}")
    for r in range(1, args.rounds + 1):
        for base in ("bm25", "minilm"):
            cpu = _cpu()
            t_base, _ = _timed(benchmark, base)
            c_base = _cpu() - cpu
            print(f"  round {r} {base:26} base {t_base:6.3f} s wall, {c_base:6.3f} s CPU "
                  f"(load {os.getloadavg()[0]:.2f})")
            for stage in args.stages:
                name = f"{base}+{stage}"
                with tempfile.TemporaryDirectory() as folder:
                    cache = Path(folder) / "cache.sqlite"
                    t_cold, c_cold, cold = _staged(benchmark, name, cache, split)
                    t_warm, c_warm, warm = _staged(benchmark, name, cache, split)
                cost = system_cost(cold)
                hits = system_cost(warm)["cache_hits"]
                print(f"  round {r} {name:26} cold {t_cold:6.2f} s ({t_cold / t_base:6.1f}x "
                      f"base), CPU {c_cold:6.1f} s ({c_cold / c_base:6.1f}x), "
                      f"{cost['executions_per_query']:.1f} suites/query, sandbox "
                      f"{cost['suite_seconds']:.1f} s | warm {t_warm:6.3f} s "
                      f"({t_warm / t_base:5.1f}x base), CPU {c_warm:5.2f} s, {hits} cache "
                      f"hits (load {os.getloadavg()[0]:.2f})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
