"""The execution oracle: runs a snippet against its assert tests in a sandbox (design §4).

Modules: results (outcome types), sandbox (fork servers, containment), execution (Oracle),
cache (SQLite results). May import only the base layer (errors, fileio, hooks).
"""

from __future__ import annotations

from .cache import Cache, MemoryCache, ResultCache, cache_key, default_cache_path
from .execution import Oracle, SuiteRunner
from .results import STATUSES, SuiteResult, TestOutcome
from .sandbox import ForkServer, ForkServerPool, Limits

__all__ = [
    "STATUSES",
    "SuiteResult",
    "TestOutcome",
    "ForkServer",
    "ForkServerPool",
    "Limits",
    "Cache",
    "MemoryCache",
    "ResultCache",
    "cache_key",
    "default_cache_path",
    "Oracle",
    "SuiteRunner",
]
