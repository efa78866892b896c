"""Report files: :func:`write_report` writes an :class:`~.evaluation.EvaluationReport` as
``.json``, ``.csv`` (one row per query and model), ``.md`` or ``.html`` (self-contained,
inline SVG charts), chosen by the file extension, atomically. NaN (an average over nothing)
is written as JSON ``null`` and as an empty CSV cell.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..fileio import atomic_write_text
from .annotations import annotations_markdown
from .drilldown import Outcomes, Results
from .evaluation import EvaluationReport
from .failures import failures_markdown
from .frames import evaluation_frame, per_query_frame
from .html import report_html
from .nway import nway_markdown
from .pipelines import cost_markdown
from .tables import blind_table, fmt_cell, tie_table

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = ["FORMATS", "report_csv", "report_json", "report_markdown", "write_report"]

FORMATS = (".json", ".csv", ".md", ".html")


def report_json(report: EvaluationReport) -> str:
    """The report as indented JSON text (NaN written as null)."""
    return json.dumps(report.to_dict(), indent=2, allow_nan=False) + "\n"


def report_csv(report: EvaluationReport, benchmark: Benchmark | None = None) -> str:
    """One row per (model, query): rank-1 candidate, canonical rank, deception, metrics.

    The columns are :func:`~execretrieval.report.frames.evaluation_frame`'s (ties: the
    rank-1 tie size, the canonical's best and worst rank, deception classes, ties across
    each cut, the pessimistic and optimistic bounds); the CSV is written from
    :func:`~execretrieval.report.frames.per_query_frame`: NA is an empty cell, floats are
    written in full (``repr``). With a pool-scaling curve a ``pool_size`` column follows
    ``model``.
    """
    frame = per_query_frame(report, benchmark)
    if report.pool_scaling:
        frame = _with_scaling_rows(report, frame)
    return str(frame.to_csv(index=False, lineterminator="\n", na_rep=""))


def _with_scaling_rows(report: EvaluationReport, frame: Any) -> Any:
    """With a pool-scaling curve: a ``pool_size`` column, and each smaller pool's per-query
    metrics as further rows (their details, which need the ranking, are empty)."""
    full = int(report.benchmark.get("pool", {}).get("size", 0))
    frame.insert(1, "pool_size", pd.array([full] * len(frame), dtype="Int64"))
    parts = [frame]
    for point in report.pool_scaling:
        if point.pool_size == full:
            continue
        extra = evaluation_frame(point.evaluation).reset_index()
        extra.insert(0, "model", point.model)
        extra.insert(1, "pool_size", pd.array([point.pool_size] * len(extra), dtype="Int64"))
        parts.append(extra[frame.columns])
    return pd.concat(parts, ignore_index=True)


def report_markdown(report: EvaluationReport) -> str:
    """The report as Markdown tables."""
    data = report.to_dict()
    b = data["benchmark"]
    lines = [f"# ExecRetrieval report: {b['name']}", "",
             f"- benchmark fingerprint: `{b['fingerprint']}` ({b['queries']} queries, "
             f"{b['snippets']} snippets)",
             f"- seed: {report.seed}; bootstrap replicates: "
             f"{report.settings.get('bootstrap', '?')}; 95% percentile intervals over queries",
             f"- command: `{report.command}`",
             f"- ties: `{report.settings.get('ties', 'expected')}` — "
             f"{report.settings.get('ties_note', '')}", ""]
    if report.exclusion_note():
        lines[-1:-1] = [f"- {report.exclusion_note()}"]
    if report.pool_note():
        lines[-1:-1] = [f"- {report.pool_note()}"]
    models = data["models"]
    if models:
        metric_keys = list(next(iter(models.values()))["metrics"])
        lines += ["## Metrics (mean [95% CI])", "",
                  "| model | " + " | ".join(metric_keys) + " |",
                  "|---|" + "---|" * len(metric_keys)]
        for name, m in models.items():
            cells = [f"{fmt_cell(m['metrics'][k]['mean'])} [{fmt_cell(m['metrics'][k]['ci_low'])}, "
                     f"{fmt_cell(m['metrics'][k]['ci_high'])}]" for k in metric_keys]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        header, rows = tie_table(models)
        lines += ["", "## Ties", "",
                  "Queries with a tie across the top-k cut, and the range of exec@k from ties "
                  "broken against correct code (pessimistic) to ties broken for it "
                  "(optimistic).", "",
                  "| " + " | ".join(header) + " |", "|---|" + "---|" * (len(header) - 1)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        header, rows = blind_table(models)
        if rows:
            lines += ["", "## Blind spots", "",
                      "Paired mutants the model cannot tell from their canonical: the edit "
                      "lies past its input window (the truncated inputs are identical), the "
                      "stored vectors are bit-identical, or every query scores them alike "
                      "(– : not applicable or not checkable).", "",
                      "| " + " | ".join(header) + " |", "|---|" + "---|" * (len(header) - 1)]
            lines += ["| " + " | ".join(row) + " |" for row in rows]
        lines += ["", "## Deception", "",
                  "| model | queries | deception rate | strict | tied with the canonical | "
                  "rank-1 misses that are own mutants |",
                  "|---|---|---|---|---|---|"]
        for name, m in models.items():
            lines.append(f"| {name} | {m['queries']} | {fmt_cell(m['deception_rate'])} | "
                         f"{fmt_cell(m.get('deception_strict'))} | "
                         f"{fmt_cell(m.get('deception_tied'))} | "
                         f"{fmt_cell(m['rank1_paired_miss_share'])} |")
        for title, key in (("exec@1 by domain", "exec1_by_domain"),
                           ("Deception by bug type (share of mutants ranked above their "
                            "canonical; a tie counts by the tie policy)",
                            "deception_by_bug_type"),
                           ("Deception by bug type, strict (mutant scores above its canonical)",
                            "deception_by_bug_type_strict"),
                           ("Deception by bug type, tied (mutant scores exactly its canonical's)",
                            "deception_by_bug_type_tied"),
                           ("Density ablation: exec@1 with m paired mutants kept "
                            "(exact mean over subsets)", "density_ablation")):
            keys = sorted({k for m in models.values() for k in m.get(key, {})})
            lines += ["", f"## {title}", "", "| model | " + " | ".join(keys) + " |",
                      "|---|" + "---|" * len(keys)]
            for name, m in models.items():
                lines.append(f"| {name} | " + " | ".join(fmt_cell(m.get(key, {}).get(k))
                                                        for k in keys)
                             + " |")
    if data["comparisons"]:
        lines += ["", "## Paired comparisons", "",
                  "| metric | a | b | a mean | b mean | a only | b only | p (exact) | "
                  "diff [95% CI] |", "|---|---|---|---|---|---|---|---|---|"]
        for c in data["comparisons"]:
            lines.append(f"| {c['metric']} | {c['a']} | {c['b']} | {fmt_cell(c['a_mean'])} | "
                         f"{fmt_cell(c['b_mean'])} | {c['a_only']} | {c['b_only']} | "
                         f"{fmt_cell(c['p_value'], 4)} | {fmt_cell(c['diff'])} "
                         f"[{fmt_cell(c['ci_low'])}, {fmt_cell(c['ci_high'])}] |")
    lines += cost_markdown(data)
    lines += nway_markdown(data)
    lines += _pool_scaling_markdown(data.get("pool_scaling") or [])
    lines += annotations_markdown(report.annotations)
    lines += failures_markdown(data["failures"])
    lines += ["", "## Run manifest", "", "```json",
              json.dumps(data["manifest"], indent=2), "```"]
    lines += ["", "## Environment", "", "```json",
              json.dumps(data["environment"], indent=2), "```", ""]
    return "\n".join(lines)


def _pool_scaling_markdown(points: list[dict[str, Any]]) -> list[str]:
    if not points:
        return []
    top = next(k for k in points[0] if k.startswith("top") and k.endswith("_background"))
    ks = [k for k in points[0] if k.startswith("exec@") and "_ci_" not in k]
    lines = ["", "## Pool scaling (background functions in the corpus)", "",
             "| model | pool size | corpus | " + " | ".join(ks) + " | deception rate | "
             f"rank-1 background | {top.replace('_', ' ')} |",
             "|---|---|---|" + "---|" * (len(ks) + 3)]
    for p in points:
        cells = [f"{fmt_cell(p[k])} [{fmt_cell(p[k + '_ci_low'])}, {fmt_cell(p[k + '_ci_high'])}]"
                 for k in ks]
        lines.append(f"| {p['model']} | {p['pool_size']} | {p['corpus_size']} | "
                     + " | ".join(cells) + f" | {fmt_cell(p['deception_rate'])} | "
                     f"{fmt_cell(p['rank1_background'])} | {fmt_cell(p[top])} |")
    return lines


def write_report(report: EvaluationReport, path: str | Path,
                 benchmark: Benchmark | None = None, *, outcomes: Outcomes | None = None,
                 flags: Mapping[str, Sequence[str]] | None = None,
                 slices: Mapping[str, tuple[str, Sequence[str]]] | None = None,
                 results: Results | None = None) -> Path:
    """Write the report in the format named by the extension (.json/.csv/.md/.html).

    ``benchmark`` adds per-query details (function, domain, rank-1 candidate) to CSV and a
    collapsible section per query to HTML, with each top-k candidate's per-test
    ``outcomes`` (a lookup, e.g. the oracle cache) and each query's ``flags`` if given;
    saved ``slices`` (name -> (filter, query ids)) get a table of their means in HTML; with
    ``results`` (a lookup of whole suite results, e.g. :func:`.drilldown.cached_results`)
    each query's section also explains the failing tests of the candidates it lists. The
    JSON and Markdown reports list the rank-1 candidates' failures from the report itself.
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
        text = report_html(report, benchmark, outcomes, flags, slices, results=results)
    else:
        raise ValueError(f"{path}: unknown report format {suffix or '(none)'}; "
                         f"use one of {', '.join(FORMATS)}")
    atomic_write_text(path, text)
    return path
