"""Atomic writes: ordinary file modes, no stray temporaries, old content kept on failure."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from execretrieval import atomic_directory, atomic_write_text


def test_new_file_gets_umask_mode_and_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    atomic_write_text(target, "{}")
    assert stat.S_IMODE(target.stat().st_mode) & 0o044 == 0o044  # readable by others
    target.chmod(0o600)
    atomic_write_text(target, "[]")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert target.read_text() == "[]"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_failed_directory_build_keeps_the_old_folder(tmp_path: Path) -> None:
    folder = tmp_path / "bench"
    folder.mkdir()
    (folder / "queries.jsonl").write_text("old")
    with pytest.raises(RuntimeError), atomic_directory(folder) as staging:
        (staging / "queries.jsonl").write_text("new, half written")
        raise RuntimeError("interrupted")
    assert (folder / "queries.jsonl").read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["bench"]
    with atomic_directory(folder) as staging:
        (staging / "queries.jsonl").write_text("new")
    assert (folder / "queries.jsonl").read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["bench"]
