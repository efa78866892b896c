"""What a report says about pipelines beside their quality: cost, slip-through, each
system's top 10, and every pipeline against its base.

- ``cost`` per system (:func:`execretrieval.pipeline.system_cost`): executions of its
  stages in total and per query, cache hits, wall and sandbox seconds (zeros for a model);
  for model stages also requests, texts sent, tokens, pairs scored, CPU seconds and the
  candidates their scores tie;
- ``slip_through`` per pipeline with an ``exec`` stage: candidates that passed every
  visible test but fail a held-out one, per query and in total;
- ``top`` / ``top_scores`` per system: ``{query_id: [corpus ids of its first 10]}`` and the
  scores beside them (a reordered block's scores are its tie-group steps above the row's
  previous best, see :mod:`execretrieval.pipeline.stages`), so anyone can check an ordering;
- ``against_base``: each pipeline compared with its base on ``metric`` when the base is a
  system of the same report.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from ..measure.statistics import compare
from ..pipeline import PipelineRanking, system_cost
from .manifest import system_identity

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..measure.metrics import ModelEvaluation
    from ..ranking.ranking import Ranking

__all__ = ["against_base", "cost_markdown", "cost_table", "identity", "slip_through",
           "system_costs", "tops"]

TOP = 10


def tops(benchmark: Benchmark, rankings: Mapping[str, Ranking], n: int = TOP
         ) -> dict[str, dict[str, Any]]:
    """Per system, each query's first ``n`` corpus ids and their scores."""
    out: dict[str, dict[str, Any]] = {}
    for name, ranking in rankings.items():
        order, keys = ranking.order_to(n), ranking.keys_to(n)
        top: dict[str, list[str]] = {}
        scores: dict[str, list[float]] = {}
        for q, query in enumerate(benchmark.queries):
            listed = order[q] >= 0
            top[query.query_id] = [benchmark.corpus[int(j)].corpus_id for j in order[q][listed]]
            scores[query.query_id] = [float(k) for k in keys[q][listed]]
        out[name] = {"top": top, "top_scores": scores}
    return out


def slip_through(judged: Benchmark, ranking: Ranking, oracle: Any,
                 exclude: Collection[str] = ()) -> dict[str, Any] | None:
    """Candidates an ``exec`` stage saw pass every visible test that fail a held-out one
    (``judged`` holds the held-out suites); None for a system without such a stage."""
    logs = [log for log in ranking.logs if log.stage == "exec"] \
        if isinstance(ranking, PipelineRanking) else []
    if not logs:
        return None
    seen: dict[str, set[str]] = {}
    for log in logs:
        for qid, entry in log.per_query.items():
            if qid not in exclude:
                seen.setdefault(qid, set()).update(entry["pass_visible"])
    jobs: list[tuple[str, tuple[str, ...]]] = []
    keys: list[tuple[str, str]] = []
    for qid in sorted(seen):
        tests = judged.query(qid).test_suite
        for cid in sorted(seen[qid]):
            jobs.append((judged.snippet(cid).code, tests))
            keys.append((qid, cid))
    results = oracle.run_many(jobs) if jobs else []
    slipped: dict[str, list[str]] = {}
    for (qid, cid), res in zip(keys, results, strict=True):
        if not res.passed:
            slipped.setdefault(qid, []).append(cid)
    return {"candidates": sum(len(v) for v in slipped.values()),
            "queries": len(slipped),
            "passed_visible": len(jobs),
            "per_query": slipped}


def system_costs(judged: Benchmark, rankings: Mapping[str, Ranking], oracle: Any,
                 exclude: Collection[str] = ()) -> dict[str, dict[str, Any]]:
    """Per system: its cost and, for an executing pipeline, its slip-through."""
    out: dict[str, dict[str, Any]] = {}
    for name, ranking in rankings.items():
        entry = dict(system_cost(ranking))
        slipped = slip_through(judged, ranking, oracle, exclude)
        if slipped is not None:
            entry["slip_through"] = slipped
        out[name] = entry
    return out


def against_base(judged: Benchmark, evaluations: Mapping[str, ModelEvaluation],
                 rankings: Mapping[str, Ranking], metric: str = "exec@1", *,
                 seed: int = 0) -> dict[str, dict[str, Any]]:
    """Each pipeline compared with its base (the name before its first stage) when the base
    is in the report: the paired test and the bootstrap difference (pipeline - base)."""
    out: dict[str, dict[str, Any]] = {}
    for name, ranking in rankings.items():
        if not isinstance(ranking, PipelineRanking) or ranking.spec is None:
            continue
        if not ranking.spec.stages:
            continue
        base = ranking.spec.text.split("+", 1)[0]
        if base not in evaluations or metric not in evaluations[name].per_query:
            continue
        a, b = evaluations[name], evaluations[base]
        comparison = compare(judged, a, b, metric, n_boot=a.n_boot, seed=seed)
        out[name] = {"base": base, **comparison.to_dict()}
    return out


def identity(benchmark: Benchmark, ranking: Ranking) -> dict[str, Any]:
    """What a system is: :func:`system_identity` for a model; for a pipeline its string,
    the identity of each model it starts from, and its stages with their options."""
    if not isinstance(ranking, PipelineRanking) or ranking.spec is None:
        return system_identity(benchmark, ranking.source or ranking.model)
    spec = ranking.spec
    models = spec.base.models if spec.base.fusion else (spec.base.model,)
    return {"kind": "pipeline", "pipeline": spec.text,
            "fusion": ({"method": spec.base.fusion, "options": dict(spec.base.options)}
                       if spec.base.fusion else None),
            "models": {m: system_identity(benchmark, m) for m in models},
            "stages": [{"name": s.name, "options": dict(s.options)} for s in spec.stages]}


def cost_table(data: Mapping[str, Any], metric: str = "exec@1"
               ) -> tuple[str, list[str], list[list[str]]] | None:
    """The quality-vs-cost table of a report's JSON: (note, header, rows) as plain text,
    or None without a split or a pipeline."""
    costs = data.get("cost") or {}
    split = data.get("split")
    if not split and not any(c.get("stages") for c in costs.values()):
        return None
    note = ""
    if split:
        note = (f"Judged on held-out tests only (split seed {split['seed']}, visible "
                f"{split.get('visible_spec')}; {len(split.get('excluded_no_held_out', []))} "
                "queries with no held-out test excluded). Executions are the stages' "
                "suites (the judging runs are not counted).")
    header = ["system", f"{metric} [95% CI]", "vs base [95% CI]", "p", "executions / query",
              "requests / query", "reranker ties", "cache hits", "stage wall s",
              "slip-through (candidates / queries)"]
    rows = []
    for name, model in data.get("models", {}).items():
        ci = model.get("metrics", {}).get(metric, {})
        cost = costs.get(name, {})
        base = (data.get("against_base") or {}).get(name)
        vs = (f"{base['diff']:+.3f} [{base['ci_low']:+.3f}, {base['ci_high']:+.3f}] vs "
              f"{base['base']}" if base else "")
        slip = cost.get("slip_through")
        rows.append([name,
                     f"{ci.get('mean', float('nan')):.3f} [{ci.get('ci_low', float('nan')):.3f}"
                     f", {ci.get('ci_high', float('nan')):.3f}]",
                     vs, f"{base['p_value']:.3g}" if base else "",
                     f"{cost.get('executions_per_query', 0.0):.1f}",
                     f"{cost['requests_per_query']:.1f}" if "requests_per_query" in cost
                     else "",
                     f"{cost['tied']:g} in {cost['queries_with_ties']:g} queries"
                     if "tied" in cost else "",
                     str(cost.get("cache_hits", 0)), f"{cost.get('wall_seconds', 0.0):.2f}",
                     f"{slip['candidates']} / {slip['queries']}" if slip else ""])
    return note, header, rows


def cost_markdown(data: Mapping[str, Any], metric: str = "exec@1") -> list[str]:
    """The quality-vs-cost table as Markdown lines (empty without a split or a pipeline)."""
    table = cost_table(data, metric)
    if table is None:
        return []
    note, header, rows = table
    lines = ["", "## Quality and cost", ""] + ([note, ""] if note else [])
    lines += ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines
