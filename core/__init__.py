"""ExecRetrieval engine: benchmarks, execution oracle, mutation, retrieval, metrics, reports.

This package never imports Qt. Everything public is re-exported here.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .builder import BuildResult, BuildValidationError, build
from .cache import MemoryCache, ResultCache
from .dataset import (
    BUG_TYPES,
    DOMAINS,
    ROLES,
    Benchmark,
    Query,
    Snippet,
    load_benchmark,
    write_benchmark,
)
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
)
from .execution import STATUSES, Limits, Oracle, SuiteResult, TestOutcome
from .fileio import atomic_directory, atomic_write_bytes, atomic_write_text
from .humaneval import import_humaneval
from .metrics import ModelEvaluation, evaluate, execution_matrix
from .mutation import Mutant, MutantSet, generate_mutants
from .mutation_select import select_distractors
from .report import EvaluationReport, evaluate_models, write_report
from .retrieval import Ranking, available_models, rank
from .seedfile import SeedTask, read_seed
from .statistics import (
    Comparison,
    MetricCI,
    bootstrap_ci,
    compare,
    mcnemar_exact,
    paired_bootstrap_diff,
)

__all__ = [
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
    "Snippet",
    "__version__",
    "atomic_directory",
    "atomic_write_bytes",
    "atomic_write_text",
    "load_benchmark",
    "write_benchmark",
]
