"""`execretrieval validate`: exit codes 0/1/2 and the JSON shape other tools rely on."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO


def _validate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "execretrieval.cli", "validate", *args],
                          capture_output=True, text=True, cwd=REPO, timeout=300)


def test_clean_benchmark_exits_zero_with_json_shape(tiny_dir: Path) -> None:
    done = _validate(str(tiny_dir), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["passed"] is True
    assert [g["name"] for g in report["gates"]] == [
        "schema", "ast_semantics", "canonical_execution", "distractor_execution",
        "corpus_integrity"]
    for gate in report["gates"]:
        assert set(gate) == {"name", "passed", "failures"} and gate["failures"] == []


def test_failing_gate_exits_one_and_lists_failures(tiny_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "bench"
    shutil.copytree(tiny_dir, folder)
    lines = (folder / "corpus.jsonl").read_text().splitlines()
    broken = json.loads(lines[0])
    broken["code"] = broken["code"].replace("return 1 << position", "return 3")
    lines[0] = json.dumps(broken)
    (folder / "corpus.jsonl").write_text("\n".join(lines) + "\n")

    done = _validate(str(folder), "--json", "--no-cache")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    (gate,) = [g for g in report["gates"] if not g["passed"]]
    assert gate["name"] == "canonical_execution"
    (failure,) = gate["failures"]
    assert set(failure) == {"query_id", "corpus_id", "reason"}
    assert failure["corpus_id"] == "c_0001" and failure["query_id"] == "q_0001"

    human = _validate(str(folder), "--no-cache")
    assert human.returncode == 1
    assert "FAIL    canonical_execution" in human.stdout
    assert "q_0001 c_0001:" in human.stdout


def test_unreadable_folder_exits_two(tmp_path: Path) -> None:
    done = _validate(str(tmp_path / "missing"))
    assert done.returncode == 2
    assert "missing" in done.stderr and "Traceback" not in done.stderr


def test_a_reader_closing_the_pipe_early_gets_no_traceback(tiny_dir: Path) -> None:
    """``execretrieval validate DIR --json | head -1``: the pipe closes before we write."""
    proc = subprocess.Popen([sys.executable, "-m", "execretrieval.cli", "validate",
                             str(tiny_dir), "--json"], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=300) == 141
    assert "Traceback" not in err and "BrokenPipeError" not in err
