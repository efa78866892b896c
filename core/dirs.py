"""Where the engine keeps the user's own files (flags, the recently opened benchmarks) and
what it can make again (results, embeddings, first screens: the cache)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["user_cache_dir", "user_data_dir"]


def user_data_dir() -> Path:
    """``$EXECRETRIEVAL_DATA_DIR`` when set, else the platform's user data directory
    (``~/.local/share/execretrieval`` on Linux). Not created here: writers create it."""
    base = os.environ.get("EXECRETRIEVAL_DATA_DIR")
    if not base:
        import platformdirs

        base = platformdirs.user_data_dir("execretrieval")
    return Path(base)


def user_cache_dir() -> Path:
    """``$EXECRETRIEVAL_CACHE_DIR`` when set, else the platform's user cache directory
    (``~/.cache/execretrieval`` on Linux). Not created here: writers create it."""
    base = os.environ.get("EXECRETRIEVAL_CACHE_DIR")
    if not base:
        import platformdirs

        base = platformdirs.user_cache_dir("execretrieval")
    return Path(base)
