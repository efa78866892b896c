"""Report files: :func:`write_report` writes an :class:`~.evaluation.EvaluationReport` as
``.json``, ``.csv`` (one row per query and model), ``.md`` or ``.html`` (self-contained,
inline SVG charts), chosen by the file extension, atomically. NaN (an average over nothing)
is written as JSON ``null`` and as an empty CSV cell.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..fileio import atomic_write_text
from ..measure.analysis import deception_per_query, pairs
from .annotations import annotations_markdown
from .drilldown import Outcomes
from .evaluation import EvaluationReport
from .html import report_html

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["FORMATS", "report_csv", "report_json", "report_markdown", "write_report"]

FORMATS = (".json", ".csv", ".md", ".html")


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
    lines += annotations_markdown(report.annotations)
    lines += ["", "## Environment", "", "```json",
              json.dumps(data["environment"], indent=2), "```", ""]
    return "\n".join(lines)


def write_report(report: EvaluationReport, path: str | Path,
                 benchmark: Benchmark | None = None, *, outcomes: Outcomes | None = None,
                 flags: Mapping[str, Sequence[str]] | None = None,
                 slices: Mapping[str, tuple[str, Sequence[str]]] | None = None) -> Path:
    """Write the report in the format named by the extension (.json/.csv/.md/.html).

    ``benchmark`` adds per-query details (function, domain, rank-1 candidate) to CSV and a
    collapsible section per query to HTML, with each top-k candidate's per-test
    ``outcomes`` (a lookup, e.g. the oracle cache) and each query's ``flags`` if given;
    saved ``slices`` (name -> (filter, query ids)) get a table of their means in HTML.
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
        text = report_html(report, benchmark, outcomes, flags, slices)
    else:
        raise ValueError(f"{path}: unknown report format {suffix or '(none)'}; "
                         f"use one of {', '.join(FORMATS)}")
    atomic_write_text(path, text)
    return path
