"""Input-engine throughput: differential runs against one fresh ``python -I`` per input.

Run by ``make bench``. Takes one query of each of the first domains of data/builtin
(every 16th query), builds their input sets
(collection, generation, the canonical under two hash seeds, verification; timed as
"generation", candidates evaluated per second), then runs every single-edit mutant of
each canonical on its input set through ``run_differential`` (cache disabled, all
cores): inputs per second is the (mutant, input) pairs judged / wall time (pairs skipped
once a looping mutant is told apart do not count). The naive way runs a sample
of the same (mutant, input) tests each in its own ``python -I`` subprocess (exec the code,
then the assert), with as many in flight as the oracle has workers; both must give the
same verdicts on the sample. Rounds alternate and the median ratio is reported, since
other work on a shared machine shifts wall times.

    .venv/bin/python bench/bench_inputs.py [--queries N] [--inputs N] [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from execretrieval import Oracle, generate_mutants, load_benchmark
from execretrieval.inputs import InputTask, build_input_sets, run_differential
from execretrieval.inputs.batches import TIMEOUT

DATA = Path(__file__).resolve().parent.parent / "data" / "builtin"

NAIVE = r'''
import sys
code, test = sys.stdin.read().split("\0")
ns = {"__name__": "__candidate__"}
class _Raises:
    def __init__(self, t): self.t = t
    def __enter__(self): return self
    def __exit__(self, et, e, tb):
        if et is None: raise AssertionError("DID NOT RAISE")
        return issubclass(et, self.t)
class pytest:
    raises = _Raises
ns["pytest"] = pytest
try:
    exec(code, ns)
    exec(test, ns)
    print("pass")
except AssertionError:
    print("fail")
except BaseException:
    print("error")
'''


def _naive(job: tuple[str, str]) -> str:
    code, test = job
    try:
        done = subprocess.run([sys.executable, "-I", "-c", NAIVE], input=f"{code}\0{test}",
                              capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "timeout"
    return done.stdout.strip() or "error"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--queries", type=int, default=5)
    parser.add_argument("--inputs", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sample", type=int, default=120)
    args = parser.parse_args()
    bench = load_benchmark(DATA)
    queries = bench.queries[::16][:args.queries]
    tasks = [InputTask(bench.canonical_for(q.query_id).code, q.function_name,
                       tuple(q.test_suite)) for q in queries]
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f} (a shared machine: ratios, not wall times, compare)")
    with Oracle(cache=None) as oracle:
        t0 = time.perf_counter()
        sets = build_input_sets(oracle, tasks, n=args.inputs, seed=0)
        t_gen = time.perf_counter() - t0
        candidates = sum(s.candidates for s in sets)
        print(f"generation: {len(tasks)} queries, {candidates} candidate inputs, "
              f"{sum(len(s.cases) for s in sets)} kept, {t_gen:.2f}s "
              f"({candidates / t_gen:.0f} candidates/s through 4 sandboxed passes)")
        pairs = [(m.code, s) for t, s in zip(tasks, sets, strict=True)
                 for m in generate_mutants(t.code, t.function_name).mutants]
        n_inputs = sum(len(s.cases) for _, s in pairs)
        jobs = [(code, s.cases[i].test) for code, s in pairs for i in range(len(s.cases))]
        step = max(1, len(jobs) // args.sample)
        sample = jobs[::step][:args.sample]
        ratios = []
        for r in range(args.rounds):
            t0 = time.perf_counter()
            results = run_differential(oracle, pairs)
            t_ours = time.perf_counter() - t0
            judged = sum(r.tried for r in results)
            t0 = time.perf_counter()
            with ThreadPoolExecutor(max_workers=oracle.workers) as pool:
                naive = list(pool.map(_naive, sample))
            t_naive = time.perf_counter() - t0
            ours_rate, naive_rate = judged / t_ours, len(sample) / t_naive
            ratios.append(ours_rate / naive_rate)
            print(f"round {r + 1}: differential {judged} of {n_inputs} (mutant, input) pairs "
                  f"judged ({len(pairs)} mutants; the rest skipped once a looping mutant was "
                  f"told apart) in {t_ours:.2f}s = {ours_rate:.0f} inputs/s; naive "
                  f"{len(sample)} in "
                  f"{t_naive:.2f}s = {naive_rate:.1f} inputs/s; ratio {ratios[-1]:.1f}x")
        flat: list[str] = []
        for (_, s), res in zip(pairs, results, strict=True):
            differ, unrun = {d.case for d in res.differences}, set(res.unrun)
            flat += ["unrun" if i in unrun else "differs" if i in differ else "pass"
                     for i in range(len(s.cases))]
        ours = flat[::step][:args.sample]
        # a case left unreached once a mutant was told apart has no verdict of ours
        compared = [(o, n, job) for o, n, job in zip(ours, naive, sample, strict=True)
                    if o != "unrun"]
        wrong = [(o, n, job) for o, n, job in compared if (o == "pass") != (n == "pass")]
        print(f"verdicts agree with the naive runner on {len(compared) - len(wrong)}/"
              f"{len(compared)} sampled inputs ({len(sample) - len(compared)} not run)")
        for o, n, (code, test) in wrong[:5]:
            print(f"  ours {o}, naive {n}: {test!r}\n{code}")
        if wrong:
            raise SystemExit("the differential run and the naive runner disagree")
    print(f"inputs/second: median ratio {statistics.median(ratios):.1f}x over "
          f"{args.rounds} rounds ({oracle.workers} workers)")


if __name__ == "__main__":
    main()
