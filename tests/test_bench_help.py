"""Every benchmark script answers ``--help`` with its usage instead of running."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parents[1] / "bench").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_help_prints_usage_and_runs_nothing(script: Path, tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(script), "--help"], capture_output=True,
                         text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage:"), out.stdout[:300]
    assert list(tmp_path.iterdir()) == []   # nothing built or written beside it
