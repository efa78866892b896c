"""Reports: the evaluation pipeline (rank, execute, measure) and its JSON/CSV/Markdown/HTML
files with the environment fingerprint. May import every layer below the CLI.
"""

from __future__ import annotations

from .environment import PACKAGES, environment_fingerprint
from .evaluation import EvaluationReport, evaluate_models, report_settings
from .frames import (
    breakdown_frame,
    comparisons_frame,
    evaluation_frame,
    metrics_frame,
    models_frame,
    per_query_frame,
    pool_scaling_frame,
    report_frames,
)
from .html import report_html
from .writers import FORMATS, report_csv, report_json, report_markdown, write_report

__all__ = [
    "PACKAGES",
    "environment_fingerprint",
    "EvaluationReport",
    "evaluate_models",
    "report_settings",
    "report_html",
    "breakdown_frame",
    "comparisons_frame",
    "evaluation_frame",
    "metrics_frame",
    "models_frame",
    "per_query_frame",
    "pool_scaling_frame",
    "report_frames",
    "FORMATS",
    "report_csv",
    "report_json",
    "report_markdown",
    "write_report",
]
