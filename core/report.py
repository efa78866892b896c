"""Evaluation reports: several models on one benchmark, with everything needed to reproduce.

:func:`evaluate_models` is the whole pipeline (rank, execute the top candidates through the
oracle, measure); :class:`EvaluationReport` holds the result; :func:`write_report` writes
it as ``.json``, ``.csv`` (one row per query and model), ``.md`` or ``.html`` (self-contained,
inline SVG charts), chosen by the file extension, atomically. NaN (an average over nothing)
is written as JSON ``null`` and as an empty CSV cell.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .analysis import deception_per_query, pairs
from .errors import CancelledError
from .fileio import atomic_write_text
from .metrics import DEFAULT_KS, ModelEvaluation, evaluate, execution_matrices
from .retrieval import Ranking, rank
from .statistics import Comparison, compare

if TYPE_CHECKING:
    from .dataset import Benchmark
    from .retrieval import Progress, ShouldStop

__all__ = [
    "FORMATS",
    "EvaluationReport",
    "evaluate_models",
    "report_csv",
    "report_json",
    "report_markdown",
    "write_report",
]

FORMATS = (".json", ".csv", ".md", ".html")


@dataclass(frozen=True, eq=False)
class EvaluationReport:
    """Models evaluated on one benchmark, with the benchmark, environment, seed and command."""

    benchmark: Mapping[str, Any]
    environment: Mapping[str, Any]
    seed: int
    command: str
    models: Mapping[str, ModelEvaluation]
    comparisons: tuple[Comparison, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def create(cls, benchmark: Benchmark, models: Mapping[str, ModelEvaluation], *,
               environment: Mapping[str, Any], seed: int, command: str,
               compare_metric: str = "exec@1", settings: Mapping[str, Any] | None = None
               ) -> EvaluationReport:
        """A report with every later model compared against the first on ``compare_metric``."""
        evaluations = list(models.values())
        comparisons: list[Comparison] = []
        if evaluations and compare_metric in evaluations[0].per_query:
            first = evaluations[0]
            for other in evaluations[1:]:
                comparisons.append(compare(benchmark, first, other, compare_metric,
                                           n_boot=first.n_boot, seed=seed))
        info = {"name": benchmark.name, "fingerprint": benchmark.fingerprint,
                "queries": len(benchmark.queries), "snippets": len(benchmark.corpus)}
        return cls(benchmark=info, environment=dict(environment), seed=int(seed),
                   command=command, models=dict(models), comparisons=tuple(comparisons),
                   settings=dict(settings or {}))

    def exclusion_note(self, shown: int = 10) -> str:
        """One sentence saying which queries were left out (``--exclude-queries``), or ""."""
        excluded = list(self.settings.get("excluded_queries") or ())
        if not excluded:
            return ""
        total = int(self.benchmark.get("queries", 0))
        ids = ", ".join(excluded[:shown])
        more = f" and {len(excluded) - shown} more" if len(excluded) > shown else ""
        return (f"{total - len(excluded)} of {total} queries measured: {len(excluded)} "
                f"excluded from every figure (--exclude-queries): {ids}{more}.")

    def to_dict(self) -> dict[str, Any]:
        """The report JSON (issue 4): benchmark, environment, seed, command, models, ..."""
        return _clean({
            "benchmark": dict(self.benchmark),
            "environment": dict(self.environment),
            "seed": self.seed,
            "command": self.command,
            "settings": dict(self.settings),
            "models": {name: ev.to_dict() for name, ev in self.models.items()},
            "comparisons": [c.to_dict() for c in self.comparisons],
        })


def _clean(value: Any) -> Any:
    """JSON-ready: NaN/inf -> None, numpy scalars -> Python, tuples -> lists."""
    if isinstance(value, Mapping):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def evaluate_models(
    benchmark: Benchmark,
    models: Sequence[str | Ranking],
    oracle: Any,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    n_boot: int = 5000,
    seed: int = 0,
    exclude: Collection[str] = frozenset(),
    command: str = "",
    compare_metric: str = "exec@1",
    environment: Mapping[str, Any] | None = None,
    status: Callable[[str], None] | None = None,
    progress: Progress | None = None,
    ranking_progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
) -> EvaluationReport:
    """Rank with every model (or take the given Ranking), execute each one's top
    max(k, 5) through the oracle (one batched, cached ``run_many``), and evaluate;
    Every later model is compared with the first on ``compare_metric``; ``status`` hears
    each phase by name,
    ``progress`` follows execution and ``ranking_progress`` each model's scoring (dense
    encoding can be long)."""
    from .environment import environment_fingerprint

    rankings: list[Ranking] = []
    names: list[str] = []
    for model in models:
        if should_stop is not None and should_stop():
            raise CancelledError("evaluation cancelled")
        if isinstance(model, Ranking):
            ranking = model
        else:
            if status:
                status(f"ranking with {model}")
            ranking = rank(benchmark, model, progress=ranking_progress,
                           should_stop=should_stop)
        label, n = ranking.model, 2
        while label in names:
            label, n = f"{ranking.model}#{n}", n + 1
        names.append(label)
        rankings.append(ranking)
    depth = max(max(ks), 5)  # 5: the density ablation looks past up to 4 removed mutants
    if status:
        status(f"executing the top {depth} candidates of {len(rankings)} model(s)")
    matrices = execution_matrices(benchmark, rankings, oracle, depth=depth,
                                  progress=progress, should_stop=should_stop)
    if status:
        status("measuring")
    # A repeated model is labelled name#2, ...: in the report and in its comparisons.
    evaluations = {
        name: dataclasses.replace(
            evaluate(benchmark, ranking, passes, ks=ks, n_boot=n_boot, seed=seed,
                     exclude=exclude), model=name)
        for name, ranking, passes in zip(names, rankings, matrices, strict=True)
    }
    env = dict(environment) if environment is not None else environment_fingerprint(oracle)
    return EvaluationReport.create(benchmark, evaluations, environment=env, seed=seed,
                                   command=command, compare_metric=compare_metric,
                                   settings=report_settings(ks, n_boot, depth, exclude))


def report_settings(ks: Sequence[int], n_boot: int, depth: int,
                    exclude: Collection[str]) -> dict[str, Any]:
    """The measurement settings a report records beside its figures."""
    return {"ks": sorted({int(k) for k in ks}), "bootstrap": int(n_boot),
            "execution_depth": int(depth), "excluded_queries": sorted(set(exclude)),
            "density_ablation": "exact mean over all subsets of kept distractors"}


def report_json(report: EvaluationReport) -> str:
    """The report as indented JSON text (NaN written as null)."""
    return json.dumps(report.to_dict(), indent=2, allow_nan=False) + "\n"


def _cell(value: Any) -> Any:
    if isinstance(value, float | np.floating):
        return "" if not math.isfinite(float(value)) else repr(float(value))
    return value


def report_csv(report: EvaluationReport, benchmark: Benchmark | None = None) -> str:
    """One row per (model, query): rank-1 candidate, canonical rank, deception, metrics."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    evaluations = list(report.models.items())
    metric_keys = list(evaluations[0][1].per_query) if evaluations else []
    writer.writerow(["model", "query_id", "function_name", "domain", "rank1_corpus_id",
                     "rank1_role", "rank1_bug_type", "canonical_rank", "deceived",
                     *metric_keys])
    for name, ev in evaluations:
        ranking = ev.ranking
        bench = benchmark
        deceived = None
        if ranking is not None and bench is not None:
            deceived = deception_per_query(bench, ranking)
            canon = pairs(bench).canonical
        for i, qid in enumerate(ev.query_ids):
            row: list[Any] = [name, qid]
            if ranking is not None and bench is not None and deceived is not None:
                qi = bench.query_index(qid)
                query = bench.queries[qi]
                top_j = int(ranking.order[qi, 0])
                top = bench.corpus[top_j]
                c = int(canon[qi])
                rank_c = ranking.rank_of(qi, c) if c >= 0 and ranking.retrieved[qi, c] else ""
                flag = deceived[qi]
                rank1 = [top.corpus_id, top.role, top.bug_type or ""] \
                    if ranking.retrieved[qi, top_j] else ["", "", ""]
                row += [query.function_name, query.domain, *rank1, rank_c,
                        "" if math.isnan(flag) else int(flag)]
            else:
                row += [""] * 7
            row += [_cell(ev.per_query[m][i]) for m in metric_keys]
            writer.writerow(row)
    return out.getvalue()


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def report_markdown(report: EvaluationReport) -> str:
    """The report as Markdown tables."""
    data = report.to_dict()
    b = data["benchmark"]
    lines = [f"# ExecRetrieval report: {b['name']}", "",
             f"- benchmark fingerprint: `{b['fingerprint']}` ({b['queries']} queries, "
             f"{b['snippets']} snippets)",
             f"- seed: {report.seed}; bootstrap replicates: "
             f"{report.settings.get('bootstrap', '?')}; 95% percentile intervals over queries",
             f"- command: `{report.command}`", ""]
    if report.exclusion_note():
        lines[-1:-1] = [f"- {report.exclusion_note()}"]
    models = data["models"]
    if models:
        metric_keys = list(next(iter(models.values()))["metrics"])
        lines += ["## Metrics (mean [95% CI])", "",
                  "| model | " + " | ".join(metric_keys) + " |",
                  "|---|" + "---|" * len(metric_keys)]
        for name, m in models.items():
            cells = [f"{_fmt(m['metrics'][k]['mean'])} [{_fmt(m['metrics'][k]['ci_low'])}, "
                     f"{_fmt(m['metrics'][k]['ci_high'])}]" for k in metric_keys]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        lines += ["", "## Deception", "",
                  "| model | queries | deception rate | rank-1 misses that are own mutants |",
                  "|---|---|---|---|"]
        for name, m in models.items():
            lines.append(f"| {name} | {m['queries']} | {_fmt(m['deception_rate'])} | "
                         f"{_fmt(m['rank1_paired_miss_share'])} |")
        for title, key in (("exec@1 by domain", "exec1_by_domain"),
                           ("Deception by bug type (share of mutants above their canonical)",
                            "deception_by_bug_type"),
                           ("Density ablation: exec@1 with m paired mutants kept "
                            "(exact mean over subsets)", "density_ablation")):
            keys = sorted({k for m in models.values() for k in m[key]})
            lines += ["", f"## {title}", "", "| model | " + " | ".join(keys) + " |",
                      "|---|" + "---|" * len(keys)]
            for name, m in models.items():
                lines.append(f"| {name} | " + " | ".join(_fmt(m[key].get(k)) for k in keys)
                             + " |")
    if data["comparisons"]:
        lines += ["", "## Paired comparisons", "",
                  "| metric | a | b | a mean | b mean | a only | b only | p (exact) | "
                  "diff [95% CI] |", "|---|---|---|---|---|---|---|---|---|"]
        for c in data["comparisons"]:
            lines.append(f"| {c['metric']} | {c['a']} | {c['b']} | {_fmt(c['a_mean'])} | "
                         f"{_fmt(c['b_mean'])} | {c['a_only']} | {c['b_only']} | "
                         f"{_fmt(c['p_value'], 4)} | {_fmt(c['diff'])} "
                         f"[{_fmt(c['ci_low'])}, {_fmt(c['ci_high'])}] |")
    lines += ["", "## Environment", "", "```json",
              json.dumps(data["environment"], indent=2), "```", ""]
    return "\n".join(lines)


def write_report(report: EvaluationReport, path: str | Path,
                 benchmark: Benchmark | None = None) -> Path:
    """Write the report in the format named by the extension (.json/.csv/.md/.html).

    ``benchmark`` adds per-query details (function, domain, rank-1 candidate) to CSV.
    Raises ValueError for any other extension; the write is atomic.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        text = report_json(report)
    elif suffix == ".csv":
        text = report_csv(report, benchmark)
    elif suffix == ".md":
        text = report_markdown(report)
    elif suffix == ".html":
        from ._html_report import report_html

        text = report_html(report)
    else:
        raise ValueError(f"{path}: unknown report format {suffix or '(none)'}; "
                         f"use one of {', '.join(FORMATS)}")
    atomic_write_text(path, text)
    return path
