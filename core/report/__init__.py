"""Reports: the evaluation pipeline (rank, execute, measure) and its JSON/CSV/Markdown/HTML
files with the environment fingerprint. May import every layer below the CLI.
"""

from __future__ import annotations

from .environment import PACKAGES, environment_fingerprint
from .evaluation import EvaluationReport, evaluate_models, report_settings
from .html import report_html
from .writers import FORMATS, report_csv, report_json, report_markdown, write_report

__all__ = [
    "PACKAGES",
    "environment_fingerprint",
    "EvaluationReport",
    "evaluate_models",
    "report_settings",
    "report_html",
    "FORMATS",
    "report_csv",
    "report_json",
    "report_markdown",
    "write_report",
]
