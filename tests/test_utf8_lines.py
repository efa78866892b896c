"""A byte that is not UTF-8 is reported with the line it sits on, by every reader."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _rankdata import small_benchmark

from execretrieval.benchmark.annotations import read_flags
from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.benchmark.seedfile import read_seed
from execretrieval.cli import main
from execretrieval.errors import BenchmarkFormatError, InputFormatError
from execretrieval.ranking.trec import from_run

BAD = b"\xff\xfe"


def _append_bad_line(path: Path) -> int:
    """Append a line holding bytes that are not UTF-8; return its line number."""
    data = path.read_bytes()
    if not data.endswith(b"\n"):
        data += b"\n"
    path.write_bytes(data + BAD + b"\n")
    return data.count(b"\n") + 1


@pytest.mark.parametrize("name", ["queries.jsonl", "corpus.jsonl"])
def test_benchmark_files(tiny_dir: Path, tmp_path: Path, name: str) -> None:
    folder = tmp_path / "bench"
    shutil.copytree(tiny_dir, folder)
    line = _append_bad_line(folder / name)
    with pytest.raises(BenchmarkFormatError, match=rf"{name}:{line}: not valid UTF-8"):
        load_benchmark(folder)


def test_manifest(tiny_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "bench"
    shutil.copytree(tiny_dir, folder)
    line = _append_bad_line(folder / "manifest.json")
    with pytest.raises(BenchmarkFormatError, match=rf"manifest.json:{line}: not valid UTF-8"):
        load_benchmark(folder)


def test_run_file(tmp_path: Path) -> None:
    run = tmp_path / "r.trec"
    run.write_text("q1 Q0 c1 1 2.0 t\nq1 Q0 c2 2 1.0 t\n")
    line = _append_bad_line(run)
    with pytest.raises(InputFormatError, match=rf"r.trec:{line}: not valid UTF-8"):
        from_run(run, small_benchmark())


def test_seed_file(tmp_path: Path) -> None:
    seed = tmp_path / "seed.jsonl"
    seed.write_text("{}\n{}\n{}\n")
    _append_bad_line(seed)
    with pytest.raises(InputFormatError, match=r"seed.jsonl:4: not UTF-8"):
        read_seed(seed)


def test_flag_import(tmp_path: Path) -> None:
    flags = tmp_path / "flags.jsonl"
    flags.write_text("{}\n")
    _append_bad_line(flags)
    with pytest.raises(InputFormatError, match=r"flags.jsonl:2: not valid UTF-8"):
        list(read_flags(flags))


def test_exclusion_list(tiny_dir: Path, tmp_path: Path,
                        capsys: pytest.CaptureFixture[str]) -> None:
    excluded = tmp_path / "excl.txt"
    excluded.write_text("q_0001\n")
    _append_bad_line(excluded)
    assert main(["evaluate", str(tiny_dir), "--model", "bm25", "--exclude-queries",
                 str(excluded), "--out", str(tmp_path / "r.json")]) == 2
    assert f"{excluded}:2: not valid UTF-8" in capsys.readouterr().err
