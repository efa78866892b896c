"""Bounded rankings at scale: peak memory and time of ranking Q queries against N snippets,
kept to the top K per query (streamed in blocks) vs the whole score matrix sorted at once.

Run by ``make bench``. Builds synthetic benchmarks from data/builtin and the standard
library's functions (``execretrieval pool``): data/builtin's 160 queries repeated with a
suffix up to Q (each copy keeps its own canonical and mutants), and the pool's functions
repeated under new ids up to N snippets. For each (Q, N) one child process per method
scores with BM25 and ranks:

- ``kept``: ``rank(benchmark, "bm25")``, the engine's way: blocks of queries, each query's
  top 100 plus the tie group at the cut and its own snippets (bounded memory);
- ``whole``: the first release's way, the whole float64 score matrix and a stable argsort
  of every row (memory grows with Q x N);
- ``index``: neither, only the benchmark and BM25's index that both need (the baseline).

Peak resident memory is the child's own ``ru_maxrss`` (``wait4``); times are wall seconds of
the ranking step. Both children print each query's top 10 and its canonical's rank, and the
bench fails unless they agree exactly.

    .venv/bin/python bench/bench_bounded.py [--sizes 160x16000,1000x50000,1000x200000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "builtin"

CHILD = r'''
import hashlib, json, sys, time
import numpy as np
from execretrieval import Benchmark, Query, Snippet, load_benchmark, read_pool
from execretrieval.ranking.registry import get_retriever, rank
bench_dir, pool_path, q_target, n_target, method = sys.argv[1:6]
q_target, n_target = int(q_target), int(n_target)
base = load_benchmark(bench_dir)
pool = read_pool(pool_path)
queries, corpus = [], []
copies = -(-q_target // len(base.queries))
for c in range(copies):
    for q in base.queries:
        if len(queries) == q_target:
            break
        sfx = f"#{c}" if c else ""
        queries.append(Query(q.query_id + sfx, q.query, q.function_name + sfx, q.domain,
                             q.test_suite, tuple(x + sfx for x in q.correct_corpus_ids)))
        corpus += [Snippet(s.corpus_id + sfx, s.query_id + sfx, s.role, s.bug_type,
                           s.bug_description, s.code) for s in base.snippets_for(q.query_id)]
background = list(pool.snippets)
i = 0
while len(corpus) < n_target:
    s = background[i % len(background)]
    corpus.append(Snippet(f"bg{i}", "", "background", None, "", s.code))
    i += 1
bench = Benchmark(queries, corpus)
t0 = time.perf_counter()
if method == "index":     # what both methods hold anyway: the benchmark and BM25's index
    from execretrieval.ranking.bm25 import BM25, tokenize
    index = BM25([tokenize(s.code) for s in bench.corpus])
    top, canon = [], []
elif method == "kept":
    ranking = rank(bench, "bm25")
    top = [ranking.top(qi, 10).tolist() for qi in range(len(queries))]
    canon = [ranking.rank_of(qi, bench.corpus_index(bench.canonical_for(q.query_id).corpus_id))
             for qi, q in enumerate(queries)]
else:
    scores = get_retriever(bench, "bm25").score(bench)
    keys = -np.where(np.isnan(scores), -np.inf, scores)
    order = np.argsort(keys, axis=1, kind="stable")
    top = order[:, :10].tolist()
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, order.shape[1] + 1)[None, :], axis=1)
    canon = [int(ranks[qi, bench.corpus_index(bench.canonical_for(q.query_id).corpus_id)])
             for qi, q in enumerate(queries)]
seconds = time.perf_counter() - t0
digest = hashlib.sha256(json.dumps([top, canon]).encode()).hexdigest()[:16]
print(json.dumps({"seconds": seconds, "digest": digest, "queries": len(queries),
                  "corpus": len(corpus)}))
'''


def child(pool: Path, q: int, n: int, method: str) -> tuple[dict, float]:
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(DATA), str(pool), str(q), str(n),
                             method], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    out, err = proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{method} child for {q} x {n} failed:\n{err}")
    return json.loads(out), usage.ru_maxrss / 1024.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=Path, help="pool file (default: extract the stdlib)")
    parser.add_argument("--sizes", default="160x16000,1000x50000,1000x200000",
                        help="comma-separated QUERIESxSNIPPETS")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pool = args.pool
        if pool is None:
            pool = Path(tmp) / "stdlib.jsonl"
            subprocess.run([sys.executable, "-m", "execretrieval.cli", "pool", "--out",
                            str(pool)], check=True, capture_output=True)
        print(f"BM25 ranking, kept top 100 per query (streamed) vs whole matrix + argsort; "
              f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores")
        print("(index MB: the peak of building the benchmark and BM25's index alone, which "
              "both methods need; (+index): the peak above it; time: whole s / kept s)")
        print(f"{'queries':>7} {'corpus':>7} {'index MB':>8} {'kept s':>7} {'kept MB':>8} "
              f"{'(+index)':>8} {'whole s':>8} {'whole MB':>9} {'(+index)':>8} {'time':>6} "
              f"{'same':>5}")
        for item in args.sizes.split(","):
            q, n = (int(x) for x in item.lower().split("x"))
            _, index_mb = child(pool, q, n, "index")
            kept, kept_mb = child(pool, q, n, "kept")
            whole, whole_mb = child(pool, q, n, "whole")
            same = kept["digest"] == whole["digest"]
            print(f"{kept['queries']:>7} {kept['corpus']:>7} {index_mb:8.0f} "
                  f"{kept['seconds']:7.1f} {kept_mb:8.0f} {kept_mb - index_mb:+8.0f} "
                  f"{whole['seconds']:8.1f} {whole_mb:9.0f} {whole_mb - index_mb:+8.0f} "
                  f"{whole['seconds'] / kept['seconds']:5.1f}x {'yes' if same else 'NO':>5}",
                  flush=True)
            if not same:
                raise SystemExit(f"{item}: the kept ranking differs from the whole one")


if __name__ == "__main__":
    main()
