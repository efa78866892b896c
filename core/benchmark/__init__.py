"""The benchmark format: queries, corpus, loader/writer, seed files, the five validation
gates and the flag store. May import the base layer and the oracle (for the gates).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:   # the names load on first use (PEP 562): importing the package is cheap
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
    from .gates import (
        GATE_NAMES,
        GateFailure,
        GateResult,
        ValidationReport,
        validate,
        validate_folder,
    )
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

# Where each public name lives: module (relative to this package) -> names.
_EXPORTS: dict[str, tuple[str, ...]] = {
    ".annotations": (
        "AnnotationStore",
        "ImportReport",
        "default_store_path",
    ),
    ".bundled": (
        "bundled_benchmarks",
        "bundled_root",
        "resolve_benchmark",
    ),
    ".catalog": (
        "BenchmarkEntry",
        "catalog",
        "read_recent",
        "remember_benchmark",
    ),
    ".dataset": (
        "BUG_TYPES",
        "DOMAINS",
        "ROLES",
        "Benchmark",
        "Query",
        "Snippet",
        "load_benchmark",
        "write_benchmark",
    ),
    ".flagfiles": (
        "EXPORT_FIELDS",
        "read_flags",
    ),
    ".flags": (
        "CATEGORIES",
        "STATUSES",
        "TARGETS",
        "Flag",
        "default_annotator",
        "query_content_hash",
    ),
    ".gates": (
        "GATE_NAMES",
        "GateFailure",
        "GateResult",
        "ValidationReport",
        "validate",
        "validate_folder",
    ),
    ".pool": (
        "BACKGROUND",
        "BackgroundSnippet",
        "Pool",
        "background_count",
        "pool_subset",
        "read_pool",
        "with_pool",
        "write_pool",
    ),
    ".seedfile": (
        "HandDistractor",
        "SeedTask",
        "read_seed",
        "seed_line",
    ),
}

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), submodules=True)
