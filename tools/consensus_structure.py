"""How much of ``consensus``'s effect is the benchmark's structure?

The distractors of this benchmark are single-edit mutants of one canonical, all named like
the query's function, so two things can lift the canonical without any real judgement of
behaviour: (1) preferring candidates that *define the function* at all, and (2) the
canonical being the behavioural centre of its own mutants. This script measures exec@1 on
held-out tests (``--visible 0.5 --split-seed 0`` by default) for each base model, the base
followed by "defines the function" alone (a stage kept in this script: the top ``depth``
ordered by that key, the previous order breaking ties) and the base followed by
``consensus``, in three settings:

- ``shipped``: the benchmark as it is;
- ``no-mutants``: every distractor removed, so each query's own mutants are gone (the other
  queries' mutants define other functions, which neither key can tell from background);
- ``pool``: a background pool file joined (``--pool``, made by ``execretrieval pool``), so
  the top 10 also holds real unrelated functions.

Each setting's base and its two pipelines go through ``evaluate_models`` (paired tests
against the base, 95% bootstrap CIs); the JSON of every setting is written to ``--out``.

Run: .venv/bin/python tools/consensus_structure.py --pool /tmp/stdlib.jsonl --out r.json
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from execretrieval.benchmark.dataset import Benchmark, load_benchmark
from execretrieval.benchmark.pool import read_pool, with_pool
from execretrieval.oracle.execution import Oracle
from execretrieval.pipeline import make_split, rank_system
from execretrieval.pipeline.consensus import defines
from execretrieval.pipeline.stages import RerankStage, StageLog, reorder_row
from execretrieval.ranking.registry import get_retriever, rank_retriever
from execretrieval.report.evaluation import evaluate_models


@dataclass
class DefinesStage(RerankStage):
    """The top ``depth`` ordered by "defines the query's function" alone."""

    log: StageLog = field(default_factory=lambda: StageLog("defines"))

    def _rerank(self, benchmark: Benchmark, start: int, block: np.ndarray,
                should_stop: Any) -> np.ndarray:
        out = block.copy()
        for r in range(block.shape[0]):
            query = benchmark.queries[start + r]
            cands = self._candidates(query.query_id, block[r])
            if len(cands):
                key = np.array([[defines(benchmark.corpus[int(j)].code, query.function_name)]
                                for j in cands], dtype=np.float64)
                out[r] = reorder_row(block[r], self.depth, key)
        return out


def _settings(benchmark: Benchmark, pool: str | None) -> list[tuple[str, Benchmark]]:
    kept = [s for s in benchmark.corpus if s.role != "distractor"]
    out = [("shipped", benchmark),
           ("no-mutants", Benchmark(benchmark.queries, kept, name=f"{benchmark.name}-no-mutants",
                                    path=benchmark.path))]
    if pool:
        out.append(("pool", with_pool(benchmark, read_pool(pool))))
    return out


def _background_top1(benchmark: Benchmark, ranking: Any) -> float:
    roles = [benchmark.corpus[int(ranking.order[q, 0])].role
             for q in range(len(benchmark.queries))]
    return sum(r == "background" for r in roles) / len(roles)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--benchmark", default="builtin")
    parser.add_argument("--models", default="bm25,minilm")
    parser.add_argument("--pool", help="a background pool file (execretrieval pool)")
    parser.add_argument("--consensus", default="consensus",
                        help="the stage as written in a pipeline, e.g. consensus:inputs=0")
    parser.add_argument("--visible", type=float, default=0.5)
    parser.add_argument("--split-seed", type=int, default=0)
    parser.add_argument("--settings", default="shipped,no-mutants,pool",
                        help="which settings to measure (pool needs --pool)")
    parser.add_argument("--out", help="write every setting's figures as JSON here")
    args = parser.parse_args()
    benchmark = load_benchmark(args.benchmark)
    split = make_split(benchmark, args.visible, seed=args.split_seed)
    print(f"{benchmark.name}: {len(benchmark.queries)} queries; held-out exec@1 "
          f"(--visible {args.visible:g} --split-seed {args.split_seed}); load average "
          f"{os.getloadavg()[0]:.2f}")
    results: dict[str, Any] = {}
    with Oracle() as oracle:
        wanted = set(args.settings.split(","))
        for setting, bench in _settings(benchmark, args.pool):
            if setting not in wanted:
                continue
            for model in args.models.split(","):
                began = time.perf_counter()
                base = rank_retriever(bench, get_retriever(bench, model), label=model,
                                      source=model)
                stage = DefinesStage(f"{model}+defines", get_retriever(bench, model), None,
                                     split)
                only = rank_retriever(bench, stage, label=f"{model}+defines",
                                      source=f"{model}+defines")
                name = f"{model}+{args.consensus}"
                full = rank_system(bench, name, oracle=oracle, split=split)
                report = evaluate_models(bench, [base, only, full], oracle, split=split)
                data = report.to_dict()
                row = {}
                for system, ranking in ((model, base), (f"{model}+defines", only),
                                        (name, full)):
                    m = data["models"][system]["metrics"]["exec@1"]
                    cmp = next((c for c in data["comparisons"] if c["a"] == model
                                and c["b"] == system and c["metric"] == "exec@1"), None)
                    row[system] = {"exec@1": m, "vs_base": cmp,
                                   "background_top1": _background_top1(bench, ranking)}
                    shown = f"{system:26} {m['mean']:.3f} [{m['ci_low']:.3f}, {m['ci_high']:.3f}]"
                    if cmp is not None:
                        shown += (f"  {-cmp['diff']:+.3f} [{-cmp['ci_high']:+.3f}, "
                                  f"{-cmp['ci_low']:+.3f}] p={cmp['p_value']:.2g}")
                    if setting == "pool":
                        shown += f"  background at rank 1: {row[system]['background_top1']:.3f}"
                    print(f"  {setting:10} {shown}", flush=True)
                results[f"{setting}/{model}"] = row
                print(f"  ({setting} {model}: {time.perf_counter() - began:.0f} s, load "
                      f"{os.getloadavg()[0]:.2f})", flush=True)
                if args.out:   # after every model, so a stopped run keeps what it measured
                    Path(args.out).write_text(json.dumps(results, indent=1, default=str)
                                              + "\n")


if __name__ == "__main__":
    main()
