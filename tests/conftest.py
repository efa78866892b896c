"""Shared fixtures: every test gets private cache, data and settings folders."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "data"


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Keep tests away from the user's real cache, annotations and settings."""
    base = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("EXECRETRIEVAL_CACHE_DIR", str(base / "cache"))
    monkeypatch.setenv("EXECRETRIEVAL_DATA_DIR", str(base / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "config"))
    yield


@pytest.fixture
def tiny_dir() -> Path:
    """The tiny benchmark shipped in data/tiny."""
    return DATA / "tiny"
