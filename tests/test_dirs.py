"""The engine's user folders (execretrieval.dirs) are where platformdirs puts them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

SCRIPT = """
import json, platformdirs
from execretrieval import dirs
print(json.dumps([str(dirs.user_data_dir()), platformdirs.user_data_dir("execretrieval"),
                  str(dirs.user_cache_dir()), platformdirs.user_cache_dir("execretrieval")]))
"""


@pytest.mark.parametrize("env", [
    {},                                                       # ~/.local/share, ~/.cache
    {"XDG_DATA_HOME": "/srv/data", "XDG_CACHE_HOME": "/srv/cache"},
    {"XDG_DATA_HOME": "   ", "XDG_CACHE_HOME": ""},           # blank: the defaults
    {"XDG_DATA_HOME": "relative/share"},
    {"HOME": "/home/someone else"},
    {"HOME": "relative/home"},                                # not absolute: the account's
    {"HOME": "/home/trailing/"},
], ids=["defaults", "xdg-set", "xdg-blank", "xdg-relative", "other-home", "relative-home",
        "home-slash"])
def test_folders_agree_with_platformdirs(env: dict[str, str]) -> None:
    import json

    clean = {k: v for k, v in os.environ.items()
             if k not in ("EXECRETRIEVAL_DATA_DIR", "EXECRETRIEVAL_CACHE_DIR",
                          "XDG_DATA_HOME", "XDG_CACHE_HOME")}
    out = subprocess.run([sys.executable, "-c", SCRIPT], env={**clean, **env},
                         capture_output=True, text=True, check=True).stdout
    ours_data, theirs_data, ours_cache, theirs_cache = json.loads(out)
    assert ours_data == theirs_data
    assert ours_cache == theirs_cache


def test_the_environment_variables_win(tmp_path, monkeypatch) -> None:
    from execretrieval import dirs

    monkeypatch.setenv("EXECRETRIEVAL_DATA_DIR", str(tmp_path / "d"))
    monkeypatch.setenv("EXECRETRIEVAL_CACHE_DIR", str(tmp_path / "c"))
    assert dirs.user_data_dir() == tmp_path / "d"
    assert dirs.user_cache_dir() == tmp_path / "c"
