"""Metrics at the paper's scale: 24 models x 939 queries x 5,000 bootstrap replicates.

Times :func:`execretrieval.measure.metrics.evaluate` (12 metrics with 95% CIs plus every analysis)
for 24 models on a synthetic benchmark of 939 queries and 4,694 snippets (a canonical and
up to four single-edit mutants each), target under 2 s in total; and, for scale, the
naive bootstrap (a Python loop over replicates, resampling with fancy indexing) on one
model, extrapolated to 24. Run: .venv/bin/python bench/bench_metrics.py
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from execretrieval.benchmark.dataset import BUG_TYPES, DOMAINS, Benchmark, Query, Snippet
from execretrieval.measure.analysis import pair_edit_spans
from execretrieval.measure.metrics import evaluate
from execretrieval.measure.statistics import bootstrap_counts
from execretrieval.ranking.ranking import DEFAULT_KEEP, Ranking
from execretrieval.ranking.ranking import own_groups as ranking_own_groups

N_QUERIES, N_SNIPPETS, N_MODELS, N_BOOT, SEED = 939, 4694, 24, 5000, 0


def synthetic_benchmark(seed: int = SEED) -> Benchmark:
    rng = np.random.default_rng(seed)
    queries, corpus = [], []
    for q in range(N_QUERIES):
        qid, name = f"q_{q:04d}", f"task_{q}"
        body = "".join(rng.choice(list("abcdefghij+-*<>=() "), size=160))
        code = f"def {name}(x):\n    return {body}\n"
        queries.append(Query(qid, f"do task {q}", name, DOMAINS[q % len(DOMAINS)],
                             (f"assert {name}(1) == 1",), (f"c_{q:04d}_0",)))
        corpus.append(Snippet(f"c_{q:04d}_0", qid, "canonical", None, "", code))
        n_distractors = 4 if len(corpus) + 4 + (N_QUERIES - q - 1) * 5 <= N_SNIPPETS else 3
        for d in range(1, n_distractors + 1):
            pos = int(rng.integers(20, len(code) - 2))
            mutant = code[:pos] + "~" + code[pos + 1:]
            bug = BUG_TYPES[(q + d) % len(BUG_TYPES)]
            corpus.append(Snippet(f"c_{q:04d}_{d}", qid, "distractor", bug, bug, mutant))
    return Benchmark(queries, corpus, name="synthetic")


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    bench = synthetic_benchmark()
    assert len(bench.corpus) == N_SNIPPETS, len(bench.corpus)
    rng = np.random.default_rng(SEED)
    own = np.array([bench.query_index(s.query_id) for s in bench.corpus])
    own_groups = ranking_own_groups(bench)
    models = []
    for m in range(N_MODELS):
        scores = rng.random((N_QUERIES, N_SNIPPETS))
        scores[own, np.arange(N_SNIPPETS)] += 1.0 + 0.1 * m  # own snippets near the top
        # kept as rank() keeps it: each query's top 100 and its own snippets
        ranking = Ranking.from_scores(f"model_{m}", scores, keep=DEFAULT_KEEP, own=own_groups)
        canonical = np.array([int(bench.snippet(str(bench.corpus[int(j)].corpus_id))
                                  .is_canonical) for j in ranking.order[:, :10].ravel()])
        passes = canonical.reshape(N_QUERIES, 10).astype(bool)
        models.append((ranking, passes))

    t0 = time.perf_counter()
    pair_edit_spans(bench)  # per benchmark, not per model: computed once, then cached
    t_spans = time.perf_counter() - t0

    t0 = time.perf_counter()
    evaluations = [evaluate(bench, r, p, n_boot=N_BOOT, seed=SEED) for r, p in models]
    t_eval = time.perf_counter() - t0

    counts = bootstrap_counts(N_QUERIES, N_BOOT, SEED)
    values = np.column_stack([evaluations[0].per_query[k] for k in evaluations[0].per_query])
    t0 = time.perf_counter()
    for _ in range(N_MODELS):
        reps = counts @ values / N_QUERIES
        np.percentile(reps, [2.5, 97.5], axis=0)
    t_boot = time.perf_counter() - t0

    t0 = time.perf_counter()
    naive_rng = np.random.default_rng(SEED)
    for j in range(values.shape[1]):
        reps = [values[naive_rng.integers(0, N_QUERIES, N_QUERIES), j].mean()
                for _ in range(N_BOOT)]
        np.percentile(reps, [2.5, 97.5])
    t_naive = (time.perf_counter() - t0) * N_MODELS

    ev = evaluations[0]
    print(f"metrics: {N_MODELS} models x {N_QUERIES} queries x {N_BOOT} bootstrap replicates,"
          f" {len(ev.metrics)} metrics each")
    print(f"  edit spans (once per benchmark):    {t_spans:7.3f} s")
    print(f"  evaluate() x {N_MODELS} (CIs + analyses): {t_eval:7.3f} s  (target < 2 s)")
    print(f"    of which bootstrap CIs:           {t_boot:7.3f} s")
    print(f"  naive replicate loop (1 model x {N_MODELS}): {t_naive:7.1f} s  "
          f"-> {t_naive / t_boot:.0f}x slower than the CI kernel")
    print(f"  sample: exec@1 = {ev.metrics['exec@1'].mean:.3f} "
          f"[{ev.metrics['exec@1'].ci_low:.3f}, {ev.metrics['exec@1'].ci_high:.3f}], "
          f"deception = {ev.deception_rate:.3f}")
    if t_eval >= 2.0:
        print("  WARNING: above the 2 s target on this machine")


if __name__ == "__main__":
    main()
