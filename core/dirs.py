"""Where the engine keeps the user's own files (flags, the recently opened benchmarks) and
what it can make again (results, embeddings, first screens: the cache).

On Linux the folders follow the XDG Base Directory specification, as ``platformdirs``
places them (``tests/test_dirs.py`` checks the two agree); other systems ask
``platformdirs`` itself. Importing it costs ~15-30 ms (it loads ``tempfile``, ``random``,
``shutil``), which a start of the window or of a quick command would pay for two paths.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["user_cache_dir", "user_data_dir"]

_APP = "execretrieval"


def _xdg() -> bool:
    """The system whose folders the XDG specification gives (Linux, not Android)."""
    return sys.platform.startswith("linux") and "ANDROID_DATA" not in os.environ


def _xdg_home(variable: str, default: str) -> Path:
    """``$variable`` when it is an absolute path (the specification ignores any other),
    else ``default`` under the home folder — ``$HOME`` when absolute, else the account's."""
    base = os.environ.get(variable, "")
    if not os.path.isabs(base):
        home = os.environ.get("HOME", "")
        if not os.path.isabs(home):
            import pwd

            home = pwd.getpwuid(os.getuid()).pw_dir
        base = os.path.join(home, default)
    return Path(base) / _APP


def user_data_dir() -> Path:
    """``$EXECRETRIEVAL_DATA_DIR`` when set, else the platform's user data directory
    (``~/.local/share/execretrieval`` on Linux). Not created here: writers create it."""
    base = os.environ.get("EXECRETRIEVAL_DATA_DIR")
    if base:
        return Path(base)
    if _xdg():
        return _xdg_home("XDG_DATA_HOME", ".local/share")
    import platformdirs

    return Path(platformdirs.user_data_dir(_APP))


def user_cache_dir() -> Path:
    """``$EXECRETRIEVAL_CACHE_DIR`` when set, else the platform's user cache directory
    (``~/.cache/execretrieval`` on Linux). Not created here: writers create it."""
    base = os.environ.get("EXECRETRIEVAL_CACHE_DIR")
    if base:
        return Path(base)
    if _xdg():
        return _xdg_home("XDG_CACHE_HOME", ".cache")
    import platformdirs

    return Path(platformdirs.user_cache_dir(_APP))
