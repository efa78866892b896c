"""ExecRetrieval engine: benchmarks, execution oracle, mutation, retrieval, metrics, reports.

This package never imports Qt. Everything public is re-exported here, and imported on first
use (PEP 562): ``import execretrieval`` costs nothing, and ``from execretrieval import Oracle``
loads the oracle without numpy, scipy or the retrievers, so a command starts fast.
"""

from __future__ import annotations

from .lazy import lazy_exports

__version__ = "0.1.0"

# Where each public name lives: module (relative to this package) -> names.
_EXPORTS: dict[str, tuple[str, ...]] = {
    ".audit": (
        "AuditResult",
        "QueryAudit",
        "read_audit",
        "run_audit",
    ),
    ".benchmark.bundled": (
        "bundled_benchmarks",
        "resolve_benchmark",
    ),
    ".benchmark.catalog": (
        "BenchmarkEntry",
        "catalog",
        "read_recent",
        "remember_benchmark",
    ),
    ".benchmark.dataset": (
        "BUG_TYPES",
        "DOMAINS",
        "ROLES",
        "Benchmark",
        "Query",
        "Snippet",
        "load_benchmark",
        "write_benchmark",
    ),
    ".benchmark.seedfile": (
        "SeedTask",
        "read_seed",
    ),
    ".build.builder": (
        "BuildResult",
        "BuildValidationError",
        "build",
    ),
    ".build.humaneval": (
        "import_humaneval",
    ),
    ".distribution": (
        "installed_extras",
    ),
    ".errors": (
        "AnnotationError",
        "BenchmarkError",
        "BenchmarkFormatError",
        "BenchmarkNotFoundError",
        "BuildError",
        "CancelledError",
        "ExecRetrievalError",
        "InputFormatError",
        "ModelNotFoundError",
        "OracleError",
        "RetrieverError",
        "ServiceError",
    ),
    ".fileio": (
        "atomic_directory",
        "atomic_write_bytes",
        "atomic_write_text",
    ),
    ".measure.metrics": (
        "ModelEvaluation",
        "evaluate",
        "execution_matrix",
    ),
    ".measure.statistics": (
        "Comparison",
        "MetricCI",
        "bootstrap_ci",
        "compare",
        "mcnemar_exact",
        "paired_bootstrap_diff",
    ),
    ".mutation.generate": (
        "Mutant",
        "MutantSet",
        "generate_mutants",
    ),
    ".mutation.select": (
        "select_distractors",
    ),
    ".oracle.cache": (
        "MemoryCache",
        "ResultCache",
    ),
    ".oracle.execution": (
        "Oracle",
    ),
    ".oracle.results": (
        "STATUSES",
        "SuiteResult",
        "TestOutcome",
    ),
    ".oracle.sandbox": (
        "Limits",
    ),
    ".ranking.ranking": (
        "Ranking",
    ),
    ".pipeline": (
        "make_split",
        "parse_pipeline",
        "rank_system",
    ),
    ".ranking.registry": (
        "available_models",
        "rank",
    ),
    ".report.evaluation": (
        "EvaluationReport",
        "evaluate_models",
    ),
    ".report.writers": (
        "write_report",
    ),
    ".benchmark.pool": (
        "BackgroundSnippet",
        "Pool",
        "pool_subset",
        "read_pool",
        "with_pool",
        "write_pool",
    ),
    ".build.background": (
        "extract_pool",
    ),
    ".oracle.distributed": (
        "DaskConnection",
        "DaskOracle",
    ),
    ".report.frames": (
        "per_query_frame",
        "report_frames",
    ),
    ".report.pool_scaling": (
        "PoolPoint",
        "pool_scaling",
    ),
}

_HOME = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted([*_HOME, "__version__"])

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
