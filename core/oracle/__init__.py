"""The execution oracle: runs a snippet against its assert tests in a sandbox (design §4).

Modules: results (outcome types), limits (resource limits), sandbox (fork servers,
containment), pool (a pool of them), execution (Oracle, which starts its pool on first use),
cache (SQLite results). May import only the base layer (errors, fileio, hooks).

Names are imported on first use (PEP 562, as in the top-level package): importing
``execretrieval.oracle.sandbox`` to start a fork server does not first load SQLite, the
thread pool and the rest, so a server starts while those load.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cache import Cache, MemoryCache, ResultCache, cache_key, default_cache_path
    from .execution import Oracle, SuiteRunner
    from .limits import Limits
    from .pool import ForkServerPool
    from .results import STATUSES, SuiteResult, TestOutcome
    from .sandbox import ForkServer

_EXPORTS = {
    ".results": ("STATUSES", "SuiteResult", "TestOutcome"),
    ".sandbox": ("ForkServer",),
    ".limits": ("Limits",),
    ".pool": ("ForkServerPool",),
    ".cache": ("Cache", "MemoryCache", "ResultCache", "cache_key", "default_cache_path"),
    ".execution": ("Oracle", "SuiteRunner"),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}

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


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
