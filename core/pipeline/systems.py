"""One function turns any system name -- a model or a pipeline -- into a ranking.

:func:`rank_system` is what ``evaluate``, ``compare``, ``export-run`` and the Python API
call with a name: a plain model name goes to :func:`execretrieval.ranking.registry.rank`
unchanged; a pipeline (:mod:`execretrieval.pipeline.names`) is built from the registry's
retrievers, fused and reranked block by block, and labelled by its string. A pipeline's
ranking is a :class:`PipelineRanking`, which carries what its stages did (executions,
cache hits, seconds, per query).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from ..hooks import Progress, ShouldStop
from ..ranking.ranking import DEFAULT_KEEP, Ranking, Retriever
from ..ranking.registry import get_retriever, rank, rank_retriever
from .consensus import DEFAULT_INPUTS, ConsensusStage
from .fusion import RRF_K, FusionRetriever
from .names import PipelineNameError, PipelineSpec, StageSpec, parse_pipeline
from .rerankers import MODEL_STAGES, ModelStage, build_model_stage
from .split import Split
from .stages import DEFAULT_DEPTH, ExecStage, SplitRequiredError, StageLog

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["PipelineRanking", "get_system", "rank_system", "system_cost"]


@dataclass(frozen=True, eq=False)
class PipelineRanking(Ranking):
    """A pipeline's ranking, with its parsed name and each stage's log."""

    spec: PipelineSpec | None = None
    logs: tuple[StageLog, ...] = field(default=())

    def stage_detail(self) -> dict[str, list[dict[str, Any]]]:
        """Per query id, each candidate any stage reordered, by final rank then corpus id:
        ``{corpus_id, base_rank, final_rank, stages: [{stage, rank, score, shown}]}``.

        ``base_rank`` is its rank in the first stage's (the base's) ranking and
        ``final_rank`` in the pipeline's, both 1 + the number scoring strictly above it; a
        stage that did not reorder the candidate has no entry (its rank there is the one
        before it: a stage leaves the rest in place)."""
        out: dict[str, list[dict[str, Any]]] = {}
        for qid in dict.fromkeys(q for log in self.logs for q in log.detail):
            rows: dict[str, dict[str, Any]] = {}
            for log in self.logs:
                for entry in log.detail.get(qid, ()):
                    row = rows.setdefault(entry["corpus_id"], {
                        "corpus_id": entry["corpus_id"], "base_rank": entry["previous_rank"],
                        "final_rank": entry["rank"], "stages": []})
                    row["final_rank"] = entry["rank"]
                    row["stages"].append({"stage": log.stage, "rank": entry["rank"],
                                          "score": entry["score"], "shown": entry["shown"]})
            last = {e["corpus_id"]: e["rank"] for e in self.logs[-1].detail.get(qid, ())}
            for cid, row in rows.items():
                # a candidate the last stage did not see kept the rank it had before it
                row["final_rank"] = last.get(cid, row["final_rank"])
            out[qid] = sorted(rows.values(), key=lambda r: (r["final_rank"], r["corpus_id"]))
        return out


def _number(value: str | None, default: float, where: str, *, integer: bool,
            zero: bool = False) -> float:
    if value is None:
        return default
    try:
        number = int(value) if integer else float(value)
    except ValueError:
        raise PipelineNameError(f"{where}: expected {'a whole number' if integer else 'a number'}"
                                f", got {value!r}") from None
    if number < 0 or (number == 0 and not zero):
        raise PipelineNameError(f"{where}: must be {'0 or more' if zero else 'positive'}, "
                                f"got {value!r}")
    return number


def _base(benchmark: Benchmark, spec: PipelineSpec) -> Retriever:
    base = spec.base
    if not base.fusion:
        return get_retriever(benchmark, base.model)
    where = f"pipeline {spec.text!r}, fusion {base.fusion!r}"
    members = tuple(get_retriever(benchmark, m) for m in base.models)
    depth = int(_number(base.option("depth"), DEFAULT_KEEP, f"{where}, depth", integer=True))
    k = _number(base.option("k"), RRF_K, f"{where}, k", integer=False)
    return FusionRetriever(spec.text, base.fusion, members, k=k, depth=depth)


def _stage(spec: PipelineSpec, stage: StageSpec, previous: Retriever, oracle: Any,
           split: Split | None) -> ExecStage | ConsensusStage | ModelStage:
    where = f"pipeline {spec.text!r}, stage {stage.name!r}"
    if stage.name in MODEL_STAGES:   # they read no test: no split needed
        return build_model_stage(spec.text, stage, previous)
    depth = int(_number(stage.option("depth"), DEFAULT_DEPTH, f"{where}, depth", integer=True))
    if split is None:
        raise SplitRequiredError(
            f"{where} executes tests, so it needs a held-out split: give --visible N (or a "
            "fraction such as 0.5) and --split-seed S, so that correctness is judged on "
            "tests the stage never ran")
    if oracle is None:
        raise SplitRequiredError(f"{where} executes tests and needs an oracle")
    if stage.name == "consensus":
        inputs = int(_number(stage.option("inputs"), DEFAULT_INPUTS, f"{where}, inputs",
                             integer=True, zero=True))
        seed = int(_number(stage.option("seed"), 0, f"{where}, seed", integer=True, zero=True))
        return ConsensusStage(spec.text, previous, oracle, split, depth=depth, inputs=inputs,
                              seed=seed)
    return ExecStage(spec.text, previous, oracle, split, depth=depth)


def get_system(benchmark: Benchmark, name: str, *, oracle: Any = None,
               split: Split | None = None) -> tuple[Retriever, tuple[StageLog, ...]]:
    """The retriever for a model or pipeline name, and the logs its stages will fill."""
    spec = parse_pipeline(name)
    retriever = _base(benchmark, spec)
    logs: list[StageLog] = []
    for stage in spec.stages:
        built = _stage(spec, stage, retriever, oracle, split)
        logs.append(built.log)
        retriever = built
    return retriever, tuple(logs)


def rank_system(benchmark: Benchmark, name: str, *, keep: int = DEFAULT_KEEP,
                oracle: Any = None, split: Split | None = None,
                progress: Progress | None = None,
                should_stop: ShouldStop | None = None) -> Ranking:
    """The ranking of a model or pipeline name (module docstring). A stage that executes
    tests needs ``oracle`` and ``split``; a plain model ignores both."""
    spec = parse_pipeline(name)
    if spec.is_plain_model:
        return rank(benchmark, name, keep=keep, progress=progress, should_stop=should_stop)
    retriever, logs = get_system(benchmark, name, oracle=oracle, split=split)
    ranking = rank_retriever(benchmark, retriever, label=spec.text, source=spec.text,
                             keep=keep, progress=progress, should_stop=should_stop)
    values = {f.name: getattr(ranking, f.name) for f in fields(Ranking)}
    return PipelineRanking(**values, spec=spec, logs=logs)


def system_cost(ranking: Ranking) -> Mapping[str, Any]:
    """A ranking's cost beyond its base: totals over its stages and per query (zeros for a
    plain model)."""
    logs = ranking.logs if isinstance(ranking, PipelineRanking) else ()
    queries: dict[str, int] = {}
    for log in logs:
        for qid, entry in log.per_query.items():
            queries[qid] = queries.get(qid, 0) + int(entry["executions"])
    executions = sum(log.executions for log in logs)
    model_costs: dict[str, Any] = {}
    for log in logs:   # model stages: requests, texts sent, tokens, cpu seconds, ties...
        for key, value in log.counts.items():
            model_costs[key] = round(model_costs.get(key, 0) + value, 3)
    if "requests" in model_costs and logs:
        model_costs["requests_per_query"] = model_costs["requests"] / max(
            len(log.per_query) for log in logs)
    return {**model_costs, "executions": executions,
            "executions_per_query": executions / len(queries) if queries else 0.0,
            "cache_hits": sum(log.cache_hits for log in logs),
            "wall_seconds": round(sum(log.wall_seconds for log in logs), 3),
            "cpu_seconds": round(sum(log.cpu_seconds for log in logs), 3),
            "sandbox_cpu_seconds": round(sum(log.sandbox_cpu_seconds for log in logs), 3),
            "suite_seconds": round(sum(log.suite_seconds for log in logs), 3),
            "stages": [log.to_dict() for log in logs],
            "per_query": {"executions": queries}}
