"""Reports as pandas DataFrames, for notebooks and for the CSV writer (issue 14).

- :func:`per_query_frame`: one row per (model, query): function, domain, the rank-1
  candidate, the canonical's rank, whether the query was deceived, and every per-query
  metric. This is the CSV report, row for row.
- :func:`metrics_frame`: one row per (model, metric): mean and 95% bootstrap interval.
- :func:`models_frame`: one row per model: queries measured and the deception analyses.
- :func:`breakdown_frame`: one of the per-model tables (``exec1_by_domain``,
  ``deception_by_bug_type``, ``density_ablation``) as models x keys.
- :func:`comparisons_frame`: one row per paired comparison.
- :func:`pool_scaling_frame`: one row per (model, pool size) of a pool-scaling curve.

Missing values (an average over nothing, a detail unknown without the benchmark) are
``NA``/``NaN``; integer columns use pandas' nullable ``Int64``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..measure.analysis import pairs
from ..measure.ties import rank_range, ties_across_cut

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..measure.metrics import ModelEvaluation
    from ..ranking.ranking import Ranking
    from .evaluation import EvaluationReport

__all__ = [
    "DETAIL_COLUMNS",
    "bound_columns",
    "breakdown_frame",
    "comparisons_frame",
    "detail_columns",
    "evaluation_frame",
    "metrics_frame",
    "models_frame",
    "per_query_frame",
    "pool_scaling_frame",
    "report_frames",
]

_BASE_COLUMNS = ("function_name", "domain", "rank1_corpus_id", "rank1_role",
                 "rank1_bug_type", "rank1_tied", "canonical_rank", "canonical_rank_worst",
                 "canonical_tied_with", "deceived", "deceived_strict", "deceived_tied")
_INT_COLUMNS = {"rank1_tied", "canonical_rank", "canonical_rank_worst", "canonical_tied_with"}
_FLOAT_COLUMNS = {"deceived", "deceived_strict", "deceived_tied"}
DETAIL_COLUMNS = _BASE_COLUMNS  # plus tied_at_<k> for each cut-off


def detail_columns(ks: Sequence[int]) -> tuple[str, ...]:
    """The per-query detail columns for cut-offs ``ks`` (before the metric columns)."""
    return (*_BASE_COLUMNS, *(f"tied_at_{k}" for k in ks))


def bound_columns(ks: Sequence[int]) -> tuple[str, ...]:
    """The per-query tie bounds after the metric columns: exec@k with ties broken against
    (pessimistic) and for (optimistic) correct code."""
    return tuple(f"exec@{k}:{p}" for k in ks for p in ("pessimistic", "optimistic"))


def evaluation_frame(evaluation: ModelEvaluation,
                     benchmark: Benchmark | None = None) -> pd.DataFrame:
    """One model's per-query results: a row per measured query (index ``query_id``).

    With tied scores the rank-1 candidate is the one the corpus order puts first and
    ``rank1_tied`` says how many share its score; ``canonical_rank`` / ``canonical_rank_worst``
    are the best and worst rank the canonical takes over the orders of its ties;
    ``deceived`` is the figure under the report's tie policy, ``deceived_strict`` /
    ``deceived_tied`` the two classes; ``tied_at_k`` marks a tie across the top-k cut; the
    metric columns follow, then ``exec@k:pessimistic`` / ``:optimistic``. Without the
    benchmark (or the ranking) the detail columns are NA.
    """
    ks = list(evaluation.ks)
    columns = detail_columns(ks)
    ranking = evaluation.ranking
    if ranking is None or benchmark is None:
        rows: dict[str, list[Any]] = {c: [None] * len(evaluation.query_ids) for c in columns}
    else:
        rows = _details(evaluation, benchmark, ranking)
    index = pd.Index(list(evaluation.query_ids), name="query_id")
    data: dict[str, Any] = {}
    for c in columns:
        dtype = "Int64" if c in _INT_COLUMNS or c.startswith("tied_at_") else \
            "float64" if c in _FLOAT_COLUMNS else object
        data[c] = pd.Series(rows[c], index=index, dtype=dtype)
    frame = pd.DataFrame(data, index=index)
    for name, values in evaluation.per_query.items():
        frame[name] = np.asarray(values, dtype=np.float64)
    extra = evaluation.per_query_extra
    for name in bound_columns(ks):
        frame[name] = (np.asarray(extra[name], dtype=np.float64) if name in extra
                       else pd.Series([None] * len(index), index=index, dtype=object))
    return frame


def _details(evaluation: ModelEvaluation, benchmark: Benchmark,
             ranking: Ranking) -> dict[str, list[Any]]:
    ks = list(evaluation.ks)
    rows: dict[str, list[Any]] = {c: [] for c in detail_columns(ks)}
    extra = evaluation.per_query_extra
    tied_at = {k: ties_across_cut(ranking, k) for k in ks}
    canon = pairs(benchmark).canonical
    for i, qid in enumerate(evaluation.query_ids):
        qi = benchmark.query_index(qid)
        query = benchmark.queries[qi]
        top_j = int(ranking.order[qi, 0]) if ranking.width else -1
        listed = top_j >= 0
        top = benchmark.corpus[top_j]
        rows["function_name"].append(query.function_name)
        rows["domain"].append(query.domain)
        rows["rank1_corpus_id"].append(top.corpus_id if listed else None)
        rows["rank1_role"].append(top.role if listed else None)
        rows["rank1_bug_type"].append((top.bug_type or "") if listed else None)
        rows["rank1_tied"].append(int(rank_range(ranking, qi, [top_j])[1][0])
                                  if listed else None)
        c = int(canon[qi])
        own = [c, *(benchmark.corpus_index(s.corpus_id) for s in benchmark.distractors_for(qid))]
        at = ranking.lookup(np.full(len(own), qi), own)
        if c >= 0 and at.key[0] > -np.inf:
            tied_with = int((at.key[1:] == at.key[0]).sum())
            cells: list[Any] = [int(at.best[0]), int(at.worst[0]), tied_with]
        else:
            cells = [None, None, None]
        for column, value in zip(("canonical_rank", "canonical_rank_worst",
                                  "canonical_tied_with"), cells, strict=True):
            rows[column].append(value)
        for key in ("deceived", "deceived_strict", "deceived_tied"):
            rows[key].append(float(extra[key][i]) if key in extra else None)
        for k in ks:
            rows[f"tied_at_{k}"].append(int(tied_at[k][qi]))
    return rows


def per_query_frame(report: EvaluationReport,
                    benchmark: Benchmark | None = None) -> pd.DataFrame:
    """Every model's per-query results stacked: columns ``model``, ``query_id``, details,
    metrics (the rows and columns of the CSV report)."""
    parts = []
    for name, evaluation in report.models.items():
        frame = evaluation_frame(evaluation, benchmark).reset_index()
        frame.insert(0, "model", name)
        parts.append(frame)
    if not parts:
        return pd.DataFrame(columns=["model", "query_id", *detail_columns(())])
    return pd.concat(parts, ignore_index=True)


def metrics_frame(report: EvaluationReport) -> pd.DataFrame:
    """One row per (model, metric): ``mean``, ``ci_low``, ``ci_high``."""
    records = [{"model": name, "metric": metric, "mean": ci.mean, "ci_low": ci.ci_low,
                "ci_high": ci.ci_high}
               for name, ev in report.models.items() for metric, ci in ev.metrics.items()]
    return pd.DataFrame.from_records(
        records, columns=["model", "metric", "mean", "ci_low", "ci_high"])


def models_frame(report: EvaluationReport) -> pd.DataFrame:
    """One row per model (index ``model``): queries, deception rate, rank-1 own-mutant share."""
    records = [{"model": name, "queries": len(ev.query_ids),
                "deception_rate": ev.deception_rate,
                "rank1_paired_miss_share": ev.rank1_paired_miss_share}
               for name, ev in report.models.items()]
    frame = pd.DataFrame.from_records(
        records, columns=["model", "queries", "deception_rate", "rank1_paired_miss_share"])
    return frame.set_index("model")


def breakdown_frame(report: EvaluationReport, key: str) -> pd.DataFrame:
    """A per-model table (``exec1_by_domain``, ``deception_by_bug_type`` or
    ``density_ablation``) as a models x keys frame."""
    if key not in ("exec1_by_domain", "deception_by_bug_type", "density_ablation"):
        raise ValueError(f"unknown breakdown {key!r}")
    data = {name: dict(getattr(ev, key)) for name, ev in report.models.items()}
    frame = pd.DataFrame.from_dict(data, orient="index", dtype=np.float64)
    frame.index.name = "model"
    return frame.reindex(columns=sorted(frame.columns))


def comparisons_frame(report: EvaluationReport) -> pd.DataFrame:
    """One row per paired comparison (metric, a, b, means, discordant counts, p, diff, CI)."""
    columns = ["metric", "a", "b", "a_mean", "b_mean", "a_only", "b_only", "p_value", "diff",
               "ci_low", "ci_high", "test"]
    return pd.DataFrame.from_records(
        [{k: c.to_dict()[k] for k in columns} for c in report.comparisons], columns=columns)


def pool_scaling_frame(points: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """A pool-scaling curve: one row per (model, pool size) with its figures."""
    frame = pd.DataFrame.from_records(list(points))
    for column in ("pool_size", "corpus_size"):
        if column in frame:
            frame[column] = frame[column].astype("Int64")
    return frame


def report_frames(report: EvaluationReport,
                  benchmark: Benchmark | None = None) -> dict[str, pd.DataFrame]:
    """Every table of the report by name: ``per_query``, ``metrics``, ``models``,
    ``exec1_by_domain``, ``deception_by_bug_type``, ``density_ablation``, ``comparisons``
    and, when the report has one, ``pool_scaling``."""
    frames = {"per_query": per_query_frame(report, benchmark),
              "metrics": metrics_frame(report), "models": models_frame(report)}
    for key in ("exec1_by_domain", "deception_by_bug_type", "density_ablation"):
        frames[key] = breakdown_frame(report, key)
    frames["comparisons"] = comparisons_frame(report)
    if report.pool_scaling:
        frames["pool_scaling"] = pool_scaling_frame([p.to_dict() for p in report.pool_scaling])
    return frames
