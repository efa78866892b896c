"""Second stages: each reorders the previous stage's first ``depth`` candidates of every
query and leaves the rest below them, in their order. A tie group straddling the cut at
``depth`` is taken whole (as bounded rankings keep it, :mod:`execretrieval.ranking.ranking`),
so which candidates a stage sees never depends on the order of lines in ``corpus.jsonl``.

``exec`` runs each of those candidates on the query's *visible* tests (the sandboxed,
cached oracle; one batch per block of queries, so every core is busy) and orders them by
(passes every visible test, number of visible tests passed, the previous order);
candidates equal on all three stay tied as they were. It needs a held-out split
(:mod:`execretrieval.pipeline.split`): without one its verdicts would be judged on the very
tests it ran.

A reordered block gets scores above the row's best previous score (one step per final tie
group), so the stored ranking reproduces the new order and its ties exactly, and every
snippet below keeps its previous score.

Every stage reports, per query, each candidate it reordered (:meth:`StageLog.candidates`):
its rank before and after the stage (1 + the number of candidates scoring strictly above
it, so tied candidates share their best rank) and the stage's own score for it with how it
reads (``exec``: visible tests passed / total; ``consensus``: agreement weight; a model
stage: the model's score). A new stage calls :meth:`RerankStage.report` with one score per
candidate and gets the ranks filled in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import RetrieverError
from ..hooks import Progress, ShouldStop, scaled
from ..ranking.ranking import Retriever, StreamingRetriever
from ..ranking.registry import score_blocks
from .cpu import CpuClock
from .split import Split

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["DEFAULT_DEPTH", "BlockStage", "ExecStage", "RerankStage", "StageLog",
           "first_candidates", "rank_above", "record_candidates", "reorder_row"]

DEFAULT_DEPTH = 10


class SplitRequiredError(RetrieverError):
    """A stage that executes tests was asked to run without a held-out split."""


@dataclass
class StageLog:
    """What a stage did: per query id its executions, the candidates that passed every
    visible test and each reordered candidate's ranks and score (``detail``); in total its
    cache hits and seconds (wall; CPU of this process and of the sandbox runs, see
    :mod:`execretrieval.pipeline.cpu`)."""

    stage: str
    per_query: dict[str, dict[str, Any]] = field(default_factory=dict)
    executions: int = 0
    cache_hits: int = 0
    wall_seconds: float = 0.0
    suite_seconds: float = 0.0
    #: a model stage's own figures (requests, texts sent, tokens, cpu seconds, ties...)
    counts: dict[str, float] = field(default_factory=dict)
    #: what the figures need beside them (the endpoint, the prompt template...)
    notes: dict[str, Any] = field(default_factory=dict)
    cpu_seconds: float = 0.0
    sandbox_cpu_seconds: float = 0.0
    #: what the stage's score per candidate is (shown beside it in reports and the GUI)
    score_name: str = ""
    #: query id -> [{corpus_id, previous_rank, rank, score, shown}], by rank then corpus id
    detail: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def timed(self) -> CpuClock:
        """A clock to :meth:`add_time` once the stage's work on a block is done."""
        return CpuClock.start()

    def add_time(self, clock: CpuClock) -> None:
        wall, cpu, sandbox = clock.stop()
        self.wall_seconds += wall
        self.cpu_seconds += cpu
        self.sandbox_cpu_seconds += sandbox

    def candidates(self, query_id: str, rows: Sequence[dict[str, Any]]) -> None:
        """Keep one query's per-candidate detail (see :meth:`RerankStage.report`)."""
        self.detail[query_id] = sorted(rows, key=lambda d: (d["rank"], d["corpus_id"]))

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
                "cpu_seconds": round(self.cpu_seconds, 3),
                "sandbox_cpu_seconds": round(self.sandbox_cpu_seconds, 3),
                "suite_seconds": round(self.suite_seconds, 3),
                "suite_seconds_note": "time inside the sandbox summed over the suites "
                                      "executed (not cache hits), across all workers",
                "score": self.score_name,
                **({"counts": dict(self.counts)} if self.counts else {}),
                **({"notes": dict(self.notes)} if self.notes else {})}


def first_candidates(row: np.ndarray, depth: int) -> np.ndarray:
    """Corpus indices of a row's first ``depth`` candidates (finite scores, best first, ties
    in corpus order), extended to the end of a tie group straddling the cut: the set never
    depends on the order of the corpus, only the order of its tied members does."""
    values = np.asarray(row, dtype=np.float64)
    finite = np.flatnonzero(np.isfinite(values))
    order = finite[np.argsort(-values[finite], kind="stable")]
    if len(order) <= depth or depth <= 0:
        return order if depth > 0 else order[:0]
    cut = values[order[depth - 1]]
    return order[:depth + int(np.count_nonzero(values[order[depth:]] == cut))]


def rank_above(row: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """1 + the number of finite scores of ``row`` strictly above each of ``indices``
    (tied snippets share their best rank; independent of the corpus order)."""
    values = np.asarray(row, dtype=np.float64)
    ordered = np.sort(-values[np.isfinite(values)])
    return np.searchsorted(ordered, -values[np.asarray(indices, dtype=np.int64)],
                           side="left").astype(np.int64) + 1


def record_candidates(log: StageLog, benchmark: Benchmark, query_id: str,
                      candidates: np.ndarray, before: np.ndarray, after: np.ndarray,
                      scores: Sequence[float] | np.ndarray,
                      shown: Sequence[str] | None = None) -> None:
    """Record one query's reordered candidates in ``log`` (module docstring): their ranks
    in ``before`` (the previous stage's row) and ``after`` (this stage's), the stage's
    ``scores`` (one per candidate, in ``candidates`` order) and how each reads."""
    prev = rank_above(before, candidates)
    now = rank_above(after, candidates)
    texts = list(shown) if shown is not None else [f"{float(v):.4g}" for v in scores]
    log.candidates(query_id, [
        {"corpus_id": benchmark.corpus[int(j)].corpus_id, "previous_rank": int(p),
         "rank": int(n), "score": float(v), "shown": t}
        for j, p, n, v, t in zip(candidates, prev, now, scores, texts, strict=True)])


def reorder_row(row: np.ndarray, depth: int, stage_keys: np.ndarray) -> np.ndarray:
    """``row`` (one query's scores) with its :func:`first_candidates` reordered by
    ``stage_keys`` (one tuple-comparable row per candidate, larger first), ties in the
    previous scores kept as the tie-breaker, and lifted above the rest.

    ``stage_keys``: (d x m) array for the d first candidates (``first_candidates(row,
    depth)``, in that order).
    """
    out = np.array(row, dtype=np.float64)
    order = first_candidates(out, depth)
    if not order.size:
        return out
    previous = out[order]
    # previous tie group index (0 = best), the last key of the lexicographic order
    _, prev_group = np.unique(-previous, return_inverse=True)
    keys = np.column_stack([np.asarray(stage_keys, dtype=np.float64).reshape(len(order), -1),
                            -prev_group.astype(np.float64)])
    _, final_group = np.unique(-keys, axis=0, return_inverse=True)
    final_group = final_group.ravel()
    n_groups = int(final_group.max()) + 1
    top = float(np.max(out[np.isfinite(out)]))
    out[order] = top + (n_groups - final_group).astype(np.float64)
    return out


@dataclass
class BlockStage(StreamingRetriever):
    """A second stage over ``previous``: its blocks streamed, each reordered by the
    subclass's ``_rerank`` of the whole block (one oracle batch, one batch of requests)."""

    name: str
    previous: Retriever

    def score_blocks(self, benchmark: Benchmark, *, rows: int,
                     progress: Progress | None = None,
                     should_stop: ShouldStop | None = None) -> Iterator[np.ndarray]:
        """The previous stage's blocks, each query's first ``depth`` candidates reordered."""
        start = 0
        total = len(benchmark.queries)
        inner, own = chained(progress, self.levels(), total)
        for block in score_blocks(self.previous, benchmark, rows=rows, progress=inner,
                                  should_stop=should_stop):
            yield self._rerank(benchmark, start, np.asarray(block, dtype=np.float64),
                               should_stop, within_block(own, start, len(block), total))
            start += len(block)
            if own:
                own(start, total)

    def levels(self) -> int:
        """How many stages of this kind the chain down to the base model holds."""
        previous = self.previous
        return 1 + (previous.levels() if isinstance(previous, BlockStage) else 0)

    def _rerank(self, benchmark: Benchmark, start: int, block: np.ndarray,
                should_stop: ShouldStop | None,
                progress: Progress | None = None) -> np.ndarray:
        """The block reordered; ``progress(done, of)``, if given, takes the block's own
        work as it goes (suites run of those to run), see :func:`within_block`."""
        raise NotImplementedError


def chained(progress: Progress | None, stages: int,
            total: int) -> tuple[Progress | None, Progress | None]:
    """(inner, own): the progress, in queries of ``total``, of the stages below a stage and
    of the stage itself, reported to ``progress`` together as the mean over the chain's
    ``stages`` (the stages below count ``stages - 1`` times, since their own report is
    already their mean): ``minilm+exec+consensus`` moves while exec runs, then while
    consensus does. Without stages below, ``inner`` is None (a base model counts in its own
    units: texts encoded, not queries) and ``own`` is ``progress``. Only advances."""
    if progress is None or stages < 2:
        return None, progress
    done = [0, 0, 0]   # the stages below, this one, what was last shown

    def show() -> None:
        now = ((stages - 1) * done[0] + done[1]) // stages
        if now > done[2]:
            done[2] = now
            progress(now, total)

    def inner(count: int, _total: int) -> None:
        done[0] = max(done[0], count)
        show()

    def own(count: int, _total: int) -> None:
        done[1] = max(done[1], count)
        show()
    return inner, own


def within_block(progress: Progress | None, start: int, rows: int,
                 total: int) -> Progress | None:
    """``progress`` of the whole ranking (queries done of ``total``) fed from the work on
    one block of ``rows`` queries from ``start``: a share ``done / of`` of the block counts
    as that share of its queries. A block usually holds every query (one oracle batch keeps
    every core busy), so without this the count would stay at 0 until the batch ended.
    Only advances, and leaves the block's last query to the caller, who reports it once
    the block is reordered."""
    if progress is None:
        return None
    shown = [start]

    def show(now: int, _total: int) -> None:
        if shown[0] < now < start + rows:
            shown[0] = now
            progress(now, total)
    return scaled(show, start, rows, total)


def in_parts(progress: Progress | None, parts: int) -> Callable[[int], Progress | None]:
    """``part(k)``: the progress of the k-th of ``parts`` successive pieces of one job
    (0-based), reported to ``progress`` as the share ``(k + done / of) / parts``."""
    def part(k: int) -> Progress | None:
        if progress is None:
            return None

        def step(done: int, of: int) -> None:
            if of > 0:
                progress(k * of + min(done, of), parts * of)
        return step
    return part


@dataclass
class RerankStage(BlockStage):
    """A stage that executes: each query's first ``depth`` candidates, on its split."""

    oracle: Any
    split: Split
    depth: int = DEFAULT_DEPTH
    #: what the stage did; a subclass gives its own default (stage name, score_name)
    log: StageLog = field(default_factory=lambda: StageLog("stage"))

    def _candidates(self, query_id: str, row: np.ndarray) -> np.ndarray:
        """The row's :func:`first_candidates` to ``depth`` (a tie group at the cut whole),
        once the query is known to be in the split."""
        if query_id not in self.split.visible:
            raise RetrieverError(f"{self.name}: query {query_id} is not in the "
                                 "split (the split was made for another benchmark)")
        return first_candidates(row, self.depth)

    def report(self, benchmark: Benchmark, query_id: str, candidates: np.ndarray,
               before: np.ndarray, after: np.ndarray, scores: Sequence[float] | np.ndarray,
               shown: Sequence[str] | None = None) -> None:
        """:func:`record_candidates` into this stage's log."""
        record_candidates(self.log, benchmark, query_id, candidates, before, after, scores,
                          shown)


@dataclass
class ExecStage(RerankStage):
    """The ``exec`` stage over ``previous`` (module docstring)."""

    log: StageLog = field(default_factory=lambda: StageLog(
        "exec", score_name="visible tests passed / visible tests"))

    def _rerank(self, benchmark: Benchmark, start: int, block: np.ndarray,
                should_stop: ShouldStop | None,
                progress: Progress | None = None) -> np.ndarray:
        jobs: list[tuple[str, tuple[str, ...]]] = []
        plan: list[tuple[int, np.ndarray, int]] = []   # (row, candidates, first job)
        for r in range(block.shape[0]):
            query = benchmark.queries[start + r]
            cands = self._candidates(query.query_id, block[r])
            tests = self.split.visible_tests(query.query_id)
            plan.append((r, cands, len(jobs)))
            jobs.extend((benchmark.corpus[int(j)].code, tests) for j in cands)
        clock = self.log.timed()
        results = self.oracle.run_many(jobs, progress=progress,
                                       should_stop=should_stop) if jobs else []
        out = block.copy()
        for r, cands, first in plan:
            query = benchmark.queries[start + r]
            n_visible = len(self.split.visible[query.query_id])
            mine = results[first:first + len(cands)]
            passed = np.array([sum(o.status == "pass" for o in res.outcomes) for res in mine],
                              dtype=np.float64)
            every = (passed == n_visible) & (n_visible > 0)
            self.log.record(query.query_id, mine,
                            pass_visible=sorted(benchmark.corpus[int(j)].corpus_id
                                                for j, ok in zip(cands, every, strict=True)
                                                if ok))
            if len(cands):
                out[r] = reorder_row(block[r], self.depth,
                                     np.column_stack([every.astype(np.float64), passed]))
                self.report(benchmark, query.query_id, cands, block[r], out[r],
                            passed / max(n_visible, 1),
                            [f"{int(p)}/{n_visible}" for p in passed])
        self.log.add_time(clock)
        return out
