"""ExecRetrieval engine: benchmarks, execution oracle, mutation, retrieval, metrics, reports.

This package never imports Qt. Everything public is re-exported here.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .audit import AuditResult, QueryAudit, read_audit, run_audit
from .benchmark.bundled import bundled_benchmarks, resolve_benchmark
from .benchmark.catalog import BenchmarkEntry, catalog, read_recent, remember_benchmark
from .benchmark.dataset import (
    BUG_TYPES,
    DOMAINS,
    ROLES,
    Benchmark,
    Query,
    Snippet,
    load_benchmark,
    write_benchmark,
)
from .benchmark.seedfile import SeedTask, read_seed
from .build.builder import BuildResult, BuildValidationError, build
from .build.humaneval import import_humaneval
from .distribution import installed_extras
from .errors import (
    AnnotationError,
    BenchmarkError,
    BenchmarkFormatError,
    BenchmarkNotFoundError,
    BuildError,
    CancelledError,
    ExecRetrievalError,
    InputFormatError,
    ModelNotFoundError,
    OracleError,
    RetrieverError,
    ServiceError,
)
from .fileio import atomic_directory, atomic_write_bytes, atomic_write_text
from .measure.metrics import ModelEvaluation, evaluate, execution_matrix
from .measure.statistics import (
    Comparison,
    MetricCI,
    bootstrap_ci,
    compare,
    mcnemar_exact,
    paired_bootstrap_diff,
)
from .mutation.generate import Mutant, MutantSet, generate_mutants
from .mutation.select import select_distractors
from .oracle.cache import MemoryCache, ResultCache
from .oracle.execution import Oracle
from .oracle.results import STATUSES, SuiteResult, TestOutcome
from .oracle.sandbox import Limits
from .ranking.ranking import Ranking
from .ranking.registry import available_models, rank
from .report.evaluation import EvaluationReport, evaluate_models
from .report.writers import write_report

__all__ = [
    "AuditResult",
    "QueryAudit",
    "read_audit",
    "run_audit",
    "BuildResult",
    "BuildValidationError",
    "Mutant",
    "MutantSet",
    "SeedTask",
    "build",
    "generate_mutants",
    "import_humaneval",
    "read_seed",
    "select_distractors",
    "STATUSES",
    "Limits",
    "MemoryCache",
    "Oracle",
    "ResultCache",
    "SuiteResult",
    "TestOutcome",
    "Comparison",
    "EvaluationReport",
    "MetricCI",
    "ModelEvaluation",
    "Ranking",
    "available_models",
    "bootstrap_ci",
    "compare",
    "evaluate",
    "evaluate_models",
    "execution_matrix",
    "mcnemar_exact",
    "paired_bootstrap_diff",
    "rank",
    "write_report",
    "BUG_TYPES",
    "DOMAINS",
    "ROLES",
    "AnnotationError",
    "Benchmark",
    "BenchmarkError",
    "BenchmarkFormatError",
    "BenchmarkNotFoundError",
    "BuildError",
    "CancelledError",
    "ExecRetrievalError",
    "InputFormatError",
    "ModelNotFoundError",
    "OracleError",
    "Query",
    "RetrieverError",
    "ServiceError",
    "Snippet",
    "__version__",
    "atomic_directory",
    "atomic_write_bytes",
    "atomic_write_text",
    "load_benchmark",
    "write_benchmark",
    "BenchmarkEntry",
    "bundled_benchmarks",
    "catalog",
    "read_recent",
    "remember_benchmark",
    "resolve_benchmark",
    "installed_extras",
]
