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


def test_write_errors_name_the_target_not_the_temporary_file(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    target = blocker / "report.json"  # its parent is a file
    with pytest.raises(OSError) as info:
        atomic_write_text(target, "{}")
    assert info.value.filename == str(target)
    folder = tmp_path / "report.json"
    folder.mkdir()  # replacing a directory by a file fails
    with pytest.raises(OSError) as info:
        atomic_write_text(folder, "{}")
    assert info.value.filename == str(folder)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    with pytest.raises(OSError) as info, atomic_directory(blocker / "bench"):
        pass
    assert info.value.filename == str(blocker / "bench")


@pytest.mark.parametrize("argv", [
    ["evaluate", "{tiny}", "--model", "bm25", "--bootstrap", "10", "--out", "{dir}"],
    ["export-qrels", "{tiny}", "--out", "{blocked}"],
    ["export-run", "{tiny}", "--model", "bm25", "--out", "{blocked}"],
])
def test_cli_reports_an_unwritable_output_without_a_traceback(
        argv: list[str], tmp_path: Path, tiny_dir: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from execretrieval.cli import main

    (tmp_path / "out.json").mkdir()
    (tmp_path / "a-file").write_text("x")
    paths = {"tiny": str(tiny_dir), "dir": str(tmp_path / "out.json"),
             "blocked": str(tmp_path / "a-file" / "out.txt")}
    assert main([a.format(**paths) for a in argv]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and ".tmp" not in err
    assert (paths["dir"] if "{dir}" in argv else paths["blocked"]) + ": " in err
