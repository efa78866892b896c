"""The benchmark format: queries, corpus, loader/writer, seed files, the five validation
gates and the flag store. May import the base layer and the oracle (for the gates).
"""

from __future__ import annotations

from .annotations import AnnotationStore, ImportReport, default_store_path
from .bundled import bundled_benchmarks, bundled_root, resolve_benchmark
from .catalog import BenchmarkEntry, catalog, read_recent, remember_benchmark
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
from .flagfiles import EXPORT_FIELDS, read_flags
from .flags import (
    CATEGORIES,
    STATUSES,
    TARGETS,
    Flag,
    default_annotator,
    query_content_hash,
)
from .gates import GATE_NAMES, GateFailure, GateResult, ValidationReport, validate, validate_folder
from .pool import (
    BACKGROUND,
    BackgroundSnippet,
    Pool,
    background_count,
    pool_subset,
    read_pool,
    with_pool,
    write_pool,
)
from .seedfile import HandDistractor, SeedTask, read_seed, seed_line

__all__ = [
    "BUG_TYPES",
    "DOMAINS",
    "ROLES",
    "Benchmark",
    "Query",
    "Snippet",
    "load_benchmark",
    "write_benchmark",
    "bundled_benchmarks",
    "bundled_root",
    "resolve_benchmark",
    "BenchmarkEntry",
    "catalog",
    "read_recent",
    "remember_benchmark",
    "HandDistractor",
    "SeedTask",
    "read_seed",
    "seed_line",
    "BACKGROUND",
    "BackgroundSnippet",
    "Pool",
    "background_count",
    "pool_subset",
    "read_pool",
    "with_pool",
    "write_pool",
    "GATE_NAMES",
    "GateFailure",
    "GateResult",
    "ValidationReport",
    "validate",
    "validate_folder",
    "CATEGORIES",
    "STATUSES",
    "TARGETS",
    "AnnotationStore",
    "EXPORT_FIELDS",
    "Flag",
    "ImportReport",
    "default_annotator",
    "default_store_path",
    "query_content_hash",
    "read_flags",
]
