"""Distributed sweeps: the same suites on a Dask LocalCluster of 1 and of 2 worker processes.

Run by ``make bench``. Executes every (snippet, own test suite) pair of data/builtin plus
each canonical against its neighbour's tests (about 1,000 suites, cache disabled) through a
:class:`DaskOracle` on a ``LocalCluster`` with 1 worker process and then with 2 (one
sandbox server per worker), checks that both give the local Oracle's outcomes, and prints
suites/second and the 2-vs-1 ratio. Rounds alternate and the median is reported, since other
work on a shared machine shifts wall times. On a 2-core machine the ideal ratio is 2.

    .venv/bin/python bench/bench_dask.py [--rounds R] [--limit N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from execretrieval import Oracle, load_benchmark
from execretrieval.oracle.distributed import DaskConnection, DaskOracle

DATA = Path(__file__).resolve().parent.parent / "data" / "builtin"


def jobs(limit: int) -> list[tuple[str, tuple[str, ...]]]:
    bench = load_benchmark(DATA)
    out = [(s.code, bench.query(s.query_id).test_suite) for s in bench.corpus]
    queries = bench.queries
    for i, q in enumerate(queries):  # cross pairs: NameError or wrong answers, both quick
        canon = bench.canonical_for(queries[(i + 1) % len(queries)].query_id)
        if canon is not None:
            out.append((canon.code, q.test_suite))
    return out[:limit]


def timed(workers: int, work: list[tuple[str, tuple[str, ...]]]) -> tuple[float, list]:
    with DaskConnection("local", n_workers=workers) as connection, \
            DaskOracle(connection, cache=None) as oracle:
        oracle.run_many(work[:8])  # start the workers' sandbox servers
        start = time.perf_counter()
        results = oracle.run_many(work)
        return time.perf_counter() - start, [r.outcomes for r in results]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--limit", type=int, default=1000)
    args = parser.parse_args()
    work = jobs(args.limit)
    with Oracle(cache=None) as local:
        expected = [r.outcomes for r in local.run_many(work)]
    rates: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(args.rounds):
        for workers in (1, 2):
            seconds, outcomes = timed(workers, work)
            if outcomes != expected:
                raise SystemExit(f"{workers} Dask worker(s) disagree with the local Oracle")
            rates[workers].append(len(work) / seconds)
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    load = os.getloadavg()[0]
    print(f"{len(work)} suites, {args.rounds} rounds, load average {load:.2f}, "
          f"{os.cpu_count()} cores; outcomes identical to the local Oracle")
    print(f"  1 Dask worker : {one:7.1f} suites/s")
    print(f"  2 Dask workers: {two:7.1f} suites/s   ratio 2 vs 1 = {two / one:.2f}x")


if __name__ == "__main__":
    main()
