"""Model stages: reorder the previous stage's first ``depth`` candidates of every query by a
model's score for (query text, snippet code). They read no test, so they need no split (with
one, every system is still judged on held-out tests).

- ``api:url=URL,model=NAME,format=tei|cohere[,key_env=VAR][,depth=N][,batch=N]`` -- a served
  cross-encoder (:mod:`execretrieval.ranking.api_rerank`);
- ``cross-encoder:path=DIR[,depth=N][,batch=N]`` -- a local sentence-transformers
  CrossEncoder folder (:mod:`execretrieval.ranking.cross_encoder`, ``dense`` extra);
- ``llm:url=URL,model=NAME[,key_env=VAR][,depth=N]`` -- a pointwise LLM judge
  (:mod:`execretrieval.ranking.llm_judge`).

Candidates with equal model scores stay tied (one tie group, whatever their previous order:
the metrics then take the expectation over their orders, README "Tied scores"); the stage
log counts per query how many of the scored candidates share their score with another
(saturated sigmoids do). Like ``exec``, a reordered block gets scores above the row's best
previous score, one step per tie group; the model's own scores are in the log, per query.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..hooks import Progress, ShouldStop
from ..ranking.api_rerank import RerankClient, RerankSettings, ScoreCache, rerank_scores
from ..ranking.cross_encoder import CrossEncoderScorer
from ..ranking.llm_judge import PROMPTS, SYSTEM_PROMPT, ChatJudge, judge_pairs
from ..ranking.ranking import Retriever
from .names import PipelineNameError, StageSpec
from .stages import DEFAULT_DEPTH, BlockStage, StageLog, first_candidates, record_candidates

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["MODEL_STAGES", "ModelStage", "build_model_stage", "order_by_scores", "tied_count"]

MODEL_STAGES = ("api", "cross-encoder", "llm")
MESSAGES = 50
_LOGGER = logging.getLogger("execretrieval.pipeline")
Groups = Sequence[tuple[str, Sequence[str]]]
#: a block's groups [(query text, [snippet texts])] -> per group its scores (one per text)
#: and its cost (requests, cache hits...); the scorer adds the block's totals to the log
Scorer = Callable[[Groups, StageLog, ShouldStop | None],
                  tuple[list[list[float]], list[dict[str, int]]]]


def order_by_scores(row: np.ndarray, candidates: np.ndarray, scores: np.ndarray
                    ) -> np.ndarray:
    """``row`` with ``candidates`` reordered by ``scores`` (larger first; equal scores one
    tie group) and lifted above every other snippet, whose scores stay as they were."""
    out = np.array(row, dtype=np.float64)
    if not len(candidates):
        return out
    _, group = np.unique(-np.asarray(scores, dtype=np.float64), return_inverse=True)
    group = group.ravel()
    top = float(np.max(out[np.isfinite(out)]))
    out[candidates] = top + (int(group.max()) + 1 - group).astype(np.float64)
    return out


def tied_count(scores: np.ndarray) -> int:
    """How many of ``scores`` equal another of them."""
    _, counts = np.unique(np.asarray(scores, dtype=np.float64), return_counts=True)
    return int(counts[counts > 1].sum())


@dataclass
class ModelStage(BlockStage):
    """A model stage (module docstring): ``scorer`` gives the scores, ``log`` its cost."""

    scorer: Scorer = field(default=lambda groups, log, stop: ([], []))
    depth: int = DEFAULT_DEPTH
    log: StageLog = field(default_factory=lambda: StageLog("model"))

    def _rerank(self, benchmark: Benchmark, start: int, block: np.ndarray,
                should_stop: ShouldStop | None,
                progress: Progress | None = None) -> np.ndarray:
        # (the scorer's requests report no progress: the block's end does)
        plan: list[np.ndarray] = []
        groups: list[tuple[str, list[str]]] = []
        for r in range(block.shape[0]):
            cands = first_candidates(block[r], self.depth)
            plan.append(cands)
            groups.append((benchmark.queries[start + r].query,
                           [benchmark.corpus[int(j)].code for j in cands]))
        clock = self.log.timed()
        scores, costs = self.scorer(groups, self.log, should_stop)
        self.log.add_time(clock)
        out = block.copy()
        for r, cands in enumerate(plan):
            query = benchmark.queries[start + r]
            mine = np.asarray(scores[r], dtype=np.float64)
            tied = tied_count(mine)
            entry = self.log.per_query.setdefault(query.query_id, {})
            entry.update(executions=0, **costs[r], tied=tied, scores={
                benchmark.corpus[int(j)].corpus_id: float(x)
                for j, x in zip(cands, mine, strict=True)})
            _add(self.log, tied=tied, queries_with_ties=int(tied > 0),
                 candidates_scored=len(cands))
            out[r] = order_by_scores(block[r], cands, mine)
            record_candidates(self.log, benchmark, query.query_id, cands, block[r], out[r],
                              mine)
        return out


def _add(log: StageLog, **amounts: float) -> None:
    for key, value in amounts.items():
        log.counts[key] = log.counts.get(key, 0) + value


# building from a pipeline name -------------------------------------------------------------
def _int(stage: StageSpec, key: str, default: int, where: str) -> int:
    value = stage.option(key)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise PipelineNameError(f"{where}, {key}: expected a whole number, got {value!r}"
                                ) from None
    if number <= 0:
        raise PipelineNameError(f"{where}, {key}: must be positive, got {value!r}")
    return number


def _required(stage: StageSpec, key: str, where: str, example: str) -> str:
    value = stage.option(key)
    if not value:
        raise PipelineNameError(f"{where}: needs {key}=…, e.g. {example}")
    return value


def build_model_stage(pipeline: str, stage: StageSpec, previous: Retriever, *,
                      cache: ScoreCache | None = None, environ: Any = None,
                      status: Callable[[str], None] | None = None) -> ModelStage:
    """The model stage ``stage`` of ``pipeline`` over ``previous`` (module docstring)."""
    from ..errors import ServiceError

    where = f"pipeline {pipeline!r}, stage {stage.name!r}"
    depth = _int(stage, "depth", DEFAULT_DEPTH, where)
    log = StageLog(stage.name, score_name={
        "api": "the reranker's score", "cross-encoder": "the cross-encoder's score",
        "llm": "the judge's score (P(yes), or its 0-10 rating)"}.get(stage.name, ""))
    if status is None:
        def status(message: str) -> None:
            """Retries and 413 cuts: kept in the log (the first 50) and logged as warnings
            (shown on stderr unless the application routes them elsewhere)."""
            messages = log.notes.setdefault("messages", [])
            if len(messages) < MESSAGES:
                messages.append(message)
            _LOGGER.warning("%s: %s", stage.name, message)
    if stage.name == "cross-encoder":
        path = Path(_required(stage, "path", where, "cross-encoder:path=models/my-ce"))
        ce = CrossEncoderScorer(path.expanduser(), batch=_int(stage, "batch", 32, where))
        ce.load()   # a missing or invalid folder fails now, before any ranking
        log.notes.update(path=str(path))

        def score_ce(groups: Groups, log: StageLog, stop: ShouldStop | None
                     ) -> tuple[list[list[float]], list[dict[str, int]]]:
            pairs = [(q, t) for q, texts in groups for t in texts]
            cpu = ce.cpu_seconds
            flat = ce.score(pairs)
            _add(log, pairs_scored=len(pairs), cpu_seconds=ce.cpu_seconds - cpu)
            out, at = [], 0
            for _, texts in groups:
                out.append([float(x) for x in flat[at:at + len(texts)]])
                at += len(texts)
            return out, [{"pairs_scored": len(texts)} for _, texts in groups]
        return ModelStage(pipeline, previous, scorer=score_ce, depth=depth, log=log)

    url = _required(stage, "url", where, f"{stage.name}:url=http://127.0.0.1:8080,model=m")
    model = _required(stage, "model", where, f"{stage.name}:url=…,model=bge-reranker-base")
    key_env = stage.option("key_env", "RERANK_API_KEY") or "RERANK_API_KEY"
    fmt = "chat" if stage.name == "llm" else _required(stage, "format", where,
                                                       "api:url=…,model=…,format=tei")
    if stage.name == "api" and fmt not in ("tei", "cohere"):
        raise PipelineNameError(f"{where}, format: {fmt!r} is not a format; formats: tei, "
                                "cohere")
    if "@" in url.partition("//")[2].partition("/")[0]:
        # the pipeline string labels the system in every report: no secret may be in it
        raise PipelineNameError(f"stage {stage.name!r}: the url has user info (not shown "
                                "here); give the key in an "
                                f"environment variable instead (key_env=, default "
                                "RERANK_API_KEY)")
    try:
        settings = RerankSettings(url, model, fmt, api_key_env=key_env,
                                  batch=_int(stage, "batch", 32, where))
    except ServiceError as exc:
        raise PipelineNameError(f"{where}: {exc}") from None
    scores_cache = cache if cache is not None else ScoreCache.default()
    log.notes.update(endpoint=settings.public_endpoint, model=model, key_env=key_env)
    if stage.name == "api":
        client = RerankClient(settings, environ=environ, status=status)
        log.notes.update(format=fmt)

        def score_api(groups: Groups, log: StageLog, stop: ShouldStop | None
                      ) -> tuple[list[list[float]], list[dict[str, int]]]:
            scores, counts = rerank_scores(groups, client, scores_cache, should_stop=stop,
                                           status=status)
            log.cache_hits += counts.cache_hits
            _add(log, requests=counts.requests, retries=counts.retries,
                 texts_sent=counts.texts_sent)
            if counts.batch_limit is not None:
                log.notes["batch_after_413"] = counts.batch_limit
            return scores, [counts.per_query[g] for g in range(len(groups))]
        return ModelStage(pipeline, previous, scorer=score_api, depth=depth, log=log)

    judge = ChatJudge(settings, environ=environ, status=status)
    log.notes.update(system_prompt=SYSTEM_PROMPT, prompts=dict(PROMPTS),
                     temperature=0, scoring="p(yes) from top_logprobs where returned, "
                     "else a 0-10 rating; an unparseable answer scores -1 (counted)")

    def score_llm(groups: Groups, log: StageLog, stop: ShouldStop | None
                  ) -> tuple[list[list[float]], list[dict[str, int]]]:
        scores, counts = judge_pairs(groups, judge, scores_cache, should_stop=stop,
                                     status=status)
        log.cache_hits += counts.cache_hits
        _add(log, requests=counts.requests, retries=counts.retries,
             texts_sent=counts.texts_sent, prompt_tokens=counts.prompt_tokens,
             completion_tokens=counts.completion_tokens, failures=counts.failures)
        log.notes["modes"] = sorted(set(log.notes.get("modes", [])) | counts.modes)
        return scores, [counts.per_query[g] for g in range(len(groups))]
    return ModelStage(pipeline, previous, scorer=score_llm, depth=depth, log=log)

