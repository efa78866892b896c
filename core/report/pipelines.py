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
  a tie group straddling the 10th place is listed whole and tied ids are in id order, so
  ``top`` never depends on the order of lines in ``corpus.jsonl``;
- ``stage_detail`` per pipeline (:meth:`execretrieval.pipeline.PipelineRanking.
  stage_detail`): per query, each reordered candidate's base rank, each stage's rank and
  score, and its final rank;
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

__all__ = ["against_base", "cost_markdown", "cost_points", "cost_table", "identity",
           "slip_through", "system_costs", "tops"]

TOP = 10


def tops(benchmark: Benchmark, rankings: Mapping[str, Ranking], n: int = TOP
         ) -> dict[str, dict[str, Any]]:
    """Per system, each query's first ``n`` corpus ids and their scores (a tie group at
    the cut whole, tied ids in id order), and a pipeline's ``stage_detail``."""
    out: dict[str, dict[str, Any]] = {}
    for name, ranking in rankings.items():
        top: dict[str, list[str]] = {}
        scores: dict[str, list[float]] = {}
        for q, query in enumerate(benchmark.queries):
            listed = ranking.order[q] >= 0
            order, keys = ranking.order[q][listed], ranking.keys[q][listed]
            if len(keys) > n:
                order = order[:n + int((keys[n:] == keys[n - 1]).sum())]
                keys = keys[:len(order)]
            ids = [benchmark.corpus[int(j)].corpus_id for j in order]
            pairs = sorted(zip(keys.tolist(), ids, strict=True), key=lambda p: (-p[0], p[1]))
            top[query.query_id] = [cid for _, cid in pairs]
            scores[query.query_id] = [float(k) for k, _ in pairs]
        out[name] = {"top": top, "top_scores": scores}
        if isinstance(ranking, PipelineRanking) and ranking.logs:
            out[name]["stage_detail"] = ranking.stage_detail()
            out[name]["stage_scores"] = {log.stage: log.score_name for log in ranking.logs}
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


def _per_query(cost: Mapping[str, Any], key: str) -> float:
    """A cost total per query it was spent on (the stages' queries)."""
    n = len((cost.get("per_query") or {}).get("executions") or {})
    return float(cost.get(key, 0.0) or 0.0) / n if n else 0.0


def cost_points(data: Mapping[str, Any], metric: str = "exec@1") -> list[dict[str, Any]]:
    """One point per system of a report's JSON for the quality-vs-cost chart: ``name``,
    its ``base`` (the name before its first stage, or ""), ``cost`` (executions plus
    requests per query), ``mean`` / ``ci_low`` / ``ci_high`` of ``metric``, and the
    per-query CPU and wall seconds of its stages."""
    costs = data.get("cost") or {}
    out = []
    for name, model in (data.get("models") or {}).items():
        ci = (model.get("metrics") or {}).get(metric) or {}
        cost = costs.get(name) or {}
        base = name.split("+", 1)[0] if cost.get("stages") else ""
        out.append({"name": name, "base": base,
                    "cost": float(cost.get("executions_per_query", 0.0) or 0.0)
                    + float(cost.get("requests_per_query", 0.0) or 0.0),
                    "mean": ci.get("mean"), "ci_low": ci.get("ci_low"),
                    "ci_high": ci.get("ci_high"),
                    "cpu_per_query": _per_query(cost, "cpu_seconds")
                    + _per_query(cost, "sandbox_cpu_seconds"),
                    "wall_per_query": _per_query(cost, "wall_seconds")})
    return out


def cost_table(data: Mapping[str, Any], metric: str = "exec@1"
               ) -> tuple[str, list[str], list[list[str]]] | None:
    """The quality-vs-cost table of a report's JSON: (note, header, rows) as plain text,
    or None without a split or a pipeline. Seconds are the stages' (beyond the base
    ranking): wall, this process's CPU (``time.process_time``) and the sandbox runs' CPU
    (:mod:`execretrieval.pipeline.cpu`); a column for requests appears when a served stage
    ran (even with every answer cached), and one for the ties a reranker's scores made
    when a model stage ran."""
    costs = data.get("cost") or {}
    split = data.get("split")
    if not split and not any(c.get("stages") for c in costs.values()):
        return None
    note = ""
    if split:
        note = (f"Judged on held-out tests only (split seed {split['seed']}, visible "
                f"{split.get('visible_spec')}; {len(split.get('excluded_no_held_out', []))} "
                "queries with no held-out test excluded). Executions are the stages' "
                "suites (the judging runs are not counted); seconds are the stages' own, "
                "beyond the base ranking: wall, CPU of this process, CPU of the sandbox "
                "runs.")
    requests = any("requests" in c for c in costs.values())   # a served stage ran
    ties = any("tied" in c for c in costs.values())
    header = ["system", f"{metric} [95% CI]", "vs base [95% CI]", "p", "executions / query",
              *(["requests / query"] if requests else []),
              *(["reranker ties"] if ties else []),
              "cache hits", "stage wall s", "stage CPU s", "sandbox CPU s",
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
                     *([f"{cost.get('requests_per_query', 0.0):.1f}"] if requests else []),
                     *([f"{cost['tied']:g} in {cost['queries_with_ties']:g} queries"
                        if "tied" in cost else ""] if ties else []),
                     str(cost.get("cache_hits", 0)), f"{cost.get('wall_seconds', 0.0):.2f}",
                     f"{cost.get('cpu_seconds', 0.0):.2f}",
                     f"{cost.get('sandbox_cpu_seconds', 0.0):.2f}",
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
