"""Background pools at scale: time and peak memory of ranking and measuring vs pool size.

Run by ``make bench``. Extracts the standard-library pool (or reads ``--pool``), then for
each pool size (0, 5000 and all, seeded subsets) runs one child process that loads
data/builtin, joins the pool, ranks with BM25 (``--model``), executes the top candidates
through the cached oracle and computes every metric and analysis. The child's peak
resident memory comes from ``wait4`` (ru_maxrss of that child alone); times are the child's
own, per phase. A first pass fills the result cache (background candidates in the top k
are executed), so the reported pass measures ranking and measurement, not the sandbox.

    .venv/bin/python bench/bench_pool.py [--pool POOL.jsonl] [--model bm25] [--sizes 0,5000,all]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "builtin"

CHILD = r'''
import json, sys, time
t0 = time.perf_counter()
from execretrieval import Oracle, load_benchmark, read_pool, pool_subset, with_pool, rank
from execretrieval.measure.metrics import evaluate, execution_matrices
bench_dir, pool_path, size, model = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
pool = read_pool(pool_path)
bench = with_pool(load_benchmark(bench_dir),
                  pool_subset(pool, None if size == "all" else int(size), seed=0))
t1 = time.perf_counter()
ranking = rank(bench, model)
t2 = time.perf_counter()
with Oracle() as oracle:
    passes = execution_matrices(bench, [ranking], oracle, depth=10)[0]
    executed = oracle.executed
t3 = time.perf_counter()
ev = evaluate(bench, ranking, passes)
t4 = time.perf_counter()
print(json.dumps({"corpus": len(bench.corpus), "load": t1 - t0, "rank": t2 - t1,
                  "execute": t3 - t2, "measure": t4 - t3, "executed": executed,
                  "exec@1": ev.metrics["exec@1"].mean, "exec@10": ev.metrics["exec@10"].mean}))
'''


def child(pool: Path, size: str, model: str) -> tuple[dict, float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(DATA), str(pool), size, model],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out, err = proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"child for pool size {size} failed:\n{err}")
    return json.loads(out), wall, usage.ru_maxrss / 1024.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=Path, help="pool file (default: extract the stdlib)")
    parser.add_argument("--model", default="bm25")
    parser.add_argument("--sizes", default="0,5000,all")
    args = parser.parse_args()
    pool = args.pool
    with tempfile.TemporaryDirectory() as tmp:
        if pool is None:
            pool = Path(tmp) / "stdlib.jsonl"
            subprocess.run([sys.executable, "-m", "execretrieval.cli", "pool", "--out",
                            str(pool)], check=True, capture_output=True)
        sizes = [s.strip() for s in args.sizes.split(",")]
        for size in sizes:  # fill the result cache: background candidates get executed
            child(pool, size, args.model)
        print(f"{args.model} on data/builtin + background pool, load average "
              f"{os.getloadavg()[0]:.2f}, {os.cpu_count()} cores (warm result cache)")
        print(f"{'pool':>6} {'corpus':>7} {'wall s':>7} {'rank s':>7} {'exec s':>7} "
              f"{'measure s':>9} {'peak MB':>8} {'exec@1':>7} {'exec@10':>7}")
        for size in sizes:
            info, wall, peak = child(pool, size, args.model)
            print(f"{size:>6} {info['corpus']:>7} {wall:7.1f} {info['rank']:7.1f} "
                  f"{info['execute']:7.1f} {info['measure']:9.1f} {peak:8.0f} "
                  f"{info['exec@1']:7.3f} {info['exec@10']:7.3f}")


if __name__ == "__main__":
    main()
