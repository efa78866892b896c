"""Second stages: each reorders the previous stage's first ``depth`` candidates of every
query and leaves the rest below them, in their order.

``exec`` runs each of those candidates on the query's *visible* tests (the sandboxed,
cached oracle; one batch per block of queries, so every core is busy) and orders them by
(passes every visible test, number of visible tests passed, the previous order);
candidates equal on all three stay tied as they were. It needs a held-out split
(:mod:`execretrieval.pipeline.split`): without one its verdicts would be judged on the very
tests it ran.

A reordered block gets scores above the row's best previous score (one step per final tie
group), so the stored ranking reproduces the new order and its ties exactly, and every
snippet below keeps its previous score.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import RetrieverError
from ..hooks import Progress, ShouldStop
from ..ranking.ranking import Retriever, StreamingRetriever
from ..ranking.registry import score_blocks
from .split import Split

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["DEFAULT_DEPTH", "ExecStage", "RerankStage", "StageLog", "reorder_row"]

DEFAULT_DEPTH = 10


class SplitRequiredError(RetrieverError):
    """A stage that executes tests was asked to run without a held-out split."""


@dataclass
class StageLog:
    """What a stage did: per query id its executions and the candidates that passed every
    visible test; in total its cache hits and seconds."""

    stage: str
    per_query: dict[str, dict[str, Any]] = field(default_factory=dict)
    executions: int = 0
    cache_hits: int = 0
    wall_seconds: float = 0.0
    suite_seconds: float = 0.0
    cpu_seconds: float = 0.0
    notes: dict[str, Any] = field(default_factory=dict)   # a stage's own figures

    def record(self, query_id: str, results: Any, **fields: Any) -> None:
        """Count one query's executions (its oracle results) and keep its figures."""
        mine = list(results)
        hits = sum(bool(getattr(res, "cached", False)) for res in mine)
        self.executions += len(mine)
        self.cache_hits += hits
        self.suite_seconds += sum(float(res.duration) for res in mine
                                  if not getattr(res, "cached", False))
        self.per_query[query_id] = {"executions": len(mine), "cache_hits": hits, **fields}

    def to_dict(self) -> dict[str, Any]:
        n = len(self.per_query) or 1
        return {"stage": self.stage, "executions": self.executions,
                "executions_per_query": self.executions / n,
                "cache_hits": self.cache_hits, "wall_seconds": round(self.wall_seconds, 3),
                "suite_seconds": round(self.suite_seconds, 3),
                "suite_seconds_note": "time inside the sandbox summed over the suites "
                                      "executed (not cache hits), across all workers",
                "cpu_seconds": round(self.cpu_seconds, 3),
                "cpu_seconds_note": "CPU time of this process (its oracle threads "
                                    "included) during the stage; the sandboxes' own CPU is "
                                    "not in it (see bench/bench_pipeline.py)",
                **self.notes}


def reorder_row(row: np.ndarray, depth: int, stage_keys: np.ndarray) -> np.ndarray:
    """``row`` (one query's scores) with its first ``depth`` candidates (stable order, finite
    scores) reordered by ``stage_keys`` (one tuple-comparable row per candidate, larger
    first), ties in the previous scores kept as the tie-breaker, and lifted above the rest.

    ``stage_keys``: (d x m) array for the d = min(depth, retrieved) first candidates.
    """
    out = np.array(row, dtype=np.float64)
    finite = np.flatnonzero(np.isfinite(out))
    if not finite.size:
        return out
    order = finite[np.argsort(-out[finite], kind="stable")][:depth]
    previous = out[order]
    # previous tie group index (0 = best), the last key of the lexicographic order
    _, prev_group = np.unique(-previous, return_inverse=True)
    keys = np.column_stack([np.asarray(stage_keys, dtype=np.float64).reshape(len(order), -1),
                            -prev_group.astype(np.float64)])
    _, final_group = np.unique(-keys, axis=0, return_inverse=True)
    final_group = final_group.ravel()
    n_groups = int(final_group.max()) + 1
    top = float(np.max(out[finite]))
    out[order] = top + (n_groups - final_group).astype(np.float64)
    return out


@dataclass
class RerankStage(StreamingRetriever):
    """A second stage over ``previous``: its blocks streamed, each query's first ``depth``
    candidates reordered by the subclass's ``_rerank`` of the whole block (one oracle batch)."""

    name: str
    previous: Retriever
    oracle: Any
    split: Split
    depth: int = DEFAULT_DEPTH

    def score_blocks(self, benchmark: Benchmark, *, rows: int,
                     progress: Progress | None = None,
                     should_stop: ShouldStop | None = None) -> Iterator[np.ndarray]:
        """The previous stage's blocks, each query's first ``depth`` candidates reordered."""
        start = 0
        total = len(benchmark.queries)
        for block in score_blocks(self.previous, benchmark, rows=rows,
                                  should_stop=should_stop):
            yield self._rerank(benchmark, start, np.asarray(block, dtype=np.float64),
                               should_stop)
            start += len(block)
            if progress:
                progress(start, total)

    def _rerank(self, benchmark: Benchmark, start: int, block: np.ndarray,
                should_stop: ShouldStop | None) -> np.ndarray:
        raise NotImplementedError

    def _candidates(self, query_id: str, row: np.ndarray) -> np.ndarray:
        """The row's first ``depth`` candidates (finite scores, stable order), once the
        query is known to be in the split."""
        if query_id not in self.split.visible:
            raise RetrieverError(f"{self.name}: query {query_id} is not in the "
                                 "split (the split was made for another benchmark)")
        finite = np.flatnonzero(np.isfinite(row))
        return finite[np.argsort(-row[finite], kind="stable")][:self.depth]


@dataclass
class ExecStage(RerankStage):
    """The ``exec`` stage over ``previous`` (module docstring)."""

    log: StageLog = field(default_factory=lambda: StageLog("exec"))

    def _rerank(self, benchmark: Benchmark, start: int, block: np.ndarray,
                should_stop: ShouldStop | None) -> np.ndarray:
        jobs: list[tuple[str, tuple[str, ...]]] = []
        plan: list[tuple[int, np.ndarray, int]] = []   # (row, candidates, first job)
        for r in range(block.shape[0]):
            query = benchmark.queries[start + r]
            cands = self._candidates(query.query_id, block[r])
            tests = self.split.visible_tests(query.query_id)
            plan.append((r, cands, len(jobs)))
            jobs.extend((benchmark.corpus[int(j)].code, tests) for j in cands)
        began, cpu = time.perf_counter(), time.process_time()
        results = self.oracle.run_many(jobs, should_stop=should_stop) if jobs else []
        self.log.wall_seconds += time.perf_counter() - began
        self.log.cpu_seconds += time.process_time() - cpu
        out = block.copy()
        for r, cands, first in plan:
            query = benchmark.queries[start + r]
            n_visible = len(self.split.visible[query.query_id])
            mine = results[first:first + len(cands)]
            passed = np.array([sum(o.status == "pass" for o in res.outcomes) for res in mine],
                              dtype=np.float64)
            every = (passed == n_visible) & (n_visible > 0)
            self.log.record(query.query_id, mine,
                            pass_visible=[benchmark.corpus[int(j)].corpus_id
                                          for j, ok in zip(cands, every, strict=True) if ok])
            if len(cands):
                out[r] = reorder_row(block[r], self.depth,
                                     np.column_stack([every.astype(np.float64), passed]))
        return out
