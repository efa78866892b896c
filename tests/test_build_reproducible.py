"""A build depends on its seed file and ``--seed`` only: not on the building process's hash
seed, on the result cache being cold or warm, on how many oracle workers run, nor on the
random draws of a test. Real builds of three real bundled tasks, each in its own process.

The tasks: ``nth_weekday_of_month`` (builtin q_0052: its mutants return dates or None),
``lowest_set_bit``, and HumanEval's ``decode_shift``, whose one test encodes and decodes
100 random strings: its ``26 % (ord(ch) - 5 - ord("a"))`` mutant divides by zero when a
drawn string holds an "f" and fails by assertion otherwise, so with unseeded draws it was
kept or rejected by chance, and the rest of the selection moved with it.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import DATA, REPO
from execretrieval.mutation import generate_mutants
from execretrieval.oracle.execution import Oracle
from execretrieval.oracle.sandbox import Limits

_BUILD = """
import sys
from execretrieval.build.builder import build
from execretrieval.oracle.cache import ResultCache
from execretrieval.oracle.execution import Oracle

seed, out, cache, workers = sys.argv[1], sys.argv[2], ResultCache(sys.argv[3]), int(sys.argv[4])
with Oracle(timeout=5.0, workers=workers, cache=cache) as oracle, \\
        Oracle(timeout=1.0, workers=workers, cache=cache) as mutant_oracle:
    build(seed, out, oracle=oracle, mutant_oracle=mutant_oracle)
print(oracle.executed + mutant_oracle.executed)
"""


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _decode_shift() -> dict:
    """HumanEval's decode_shift as a seed task, from the bundled benchmark."""
    query = next(q for q in _jsonl(DATA / "humaneval" / "queries.jsonl")
                 if q["function_name"] == "decode_shift")
    canonical = next(s for s in _jsonl(DATA / "humaneval" / "corpus.jsonl")
                     if s["corpus_id"] in query["correct_corpus_ids"])
    return {"query": query["query"], "function_name": "decode_shift",
            "domain": query["domain"], "canonical": canonical["code"],
            "test_suite": query["test_suite"]}


def _seed_file(tmp_path: Path) -> Path:
    builtin = {t["function_name"]: t for t in _jsonl(DATA / "builtin" / "seed.jsonl")}
    tasks = [builtin["nth_weekday_of_month"], builtin["lowest_set_bit"], _decode_shift()]
    path = tmp_path / "seed.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")
    return path


def _build(seed: Path, out: Path, cache: Path, workers: int, hash_seed: int) -> int:
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed)}
    env.pop("SOURCE_DATE_EPOCH", None)
    proc = subprocess.run([sys.executable, "-c", _BUILD, str(seed), str(out), str(cache),
                           str(workers)], cwd=REPO, env=env, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    return int(proc.stdout.split()[-1])


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.slow
def test_same_bytes_for_any_hash_seed_cache_state_and_worker_count(tmp_path: Path) -> None:
    seed = _seed_file(tmp_path)
    other = random.Random().randrange(1, 1 << 32)
    runs = [  # (name, cache, workers, hash seed of the building process)
        ("cold-2-workers", "a", 2, 0),
        ("cold-1-worker", "b", 1, other),
        ("warm-2-workers", "a", 2, other ^ 0x5A5A),
        ("warm-1-worker", "b", 1, 1),
    ]
    built, executed = {}, {}
    for name, cache, workers, hash_seed in runs:
        out = tmp_path / name / "bench"  # the folder's name is the manifest's name
        executed[name] = _build(seed, out, tmp_path / f"cache-{cache}.sqlite", workers,
                                hash_seed)
        built[name] = _files(out)
    assert executed["cold-2-workers"] > 50 and executed["cold-1-worker"] > 50
    assert executed["warm-2-workers"] == 0 and executed["warm-1-worker"] == 0
    first = built["cold-2-workers"]
    assert set(first) == {"queries.jsonl", "corpus.jsonl", "manifest.json"}
    for name, files in built.items():
        assert files == first, f"{name} differs from cold-2-workers (hash seed {other})"
    corpus = [json.loads(line) for line in first["corpus.jsonl"].decode().splitlines()]
    assert sum(s["role"] == "distractor" for s in corpus) == 12  # four for each task


def test_tests_draw_the_same_random_numbers_every_run() -> None:
    """``random`` in a suite is seeded from the suite's hash seed, as CPython seeds it."""
    expected = {seed: random.Random(seed).random() for seed in (0, 3)}
    code = "def draw():\n    import random\n    return random.random()\n"
    for seed in expected:
        for _ in range(2):  # two fresh oracles: fresh servers, fresh forks
            with Oracle(timeout=5.0, cache=None, limits=Limits(hash_seed=seed)) as oracle:
                mine = oracle.run(code, [f"assert draw() == {expected[seed]!r}"])
                other = oracle.run(code, [f"assert draw() == {expected[3 - seed]!r}"])
            assert mine.statuses == ("pass",), mine.outcomes
            assert other.statuses == ("fail",), other.outcomes
    # several tests drawing in one suite: the same outcomes on every run
    tests = [f"assert draw() == {expected[0]!r}"] * 3
    seen = set()
    for _ in range(2):
        with Oracle(timeout=5.0, cache=None) as oracle:
            seen.add(oracle.run(code, tests).statuses)
    assert len(seen) == 1 and next(iter(seen))[0] == "pass", seen


def test_a_mutant_that_crashes_on_some_draws_gets_one_verdict() -> None:
    task = _decode_shift()
    mutant = next(m for m in generate_mutants(task["canonical"], "decode_shift").mutants
                  if m.bug_type == "swap_arguments" and "`%`" in m.bug_description)
    outcomes = set()
    for _ in range(4):
        with Oracle(timeout=5.0, cache=None) as oracle:
            result = oracle.run(mutant.code, task["test_suite"])
        # the detail names the decoded string: the same draws every run
        outcomes.add(tuple((o.status, o.detail) for o in result.outcomes))
    assert len(outcomes) == 1, outcomes


# --- tools/check_data.py: the CI check that rebuilds the bundled data ---------------------

def _check_data(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(REPO / "tools" / "check_data.py"), "--data",
                           str(data), *args], cwd=REPO, capture_output=True, text=True,
                          check=False)


def _copy_of_data(tmp_path: Path) -> Path:
    import shutil

    copy = tmp_path / "data"
    shutil.copytree(DATA, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_check_data_passes_on_the_shipped_files_and_names_a_changed_byte(tmp_path: Path
                                                                         ) -> None:
    data = _copy_of_data(tmp_path)
    ok = _check_data(data, "--only", "tiny,seed,seed-src", "--hash-seed", "7")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "PYTHONHASHSEED=7" in ok.stdout
    assert "all 4 files rebuilt byte-identical" in ok.stdout

    corpus = data / "tiny" / "corpus.jsonl"
    lines = corpus.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[7] = lines[7].replace("year % 5 == 0", "year % 6 == 0")  # one distractor's code
    corpus.write_text("".join(lines), encoding="utf-8")
    seed = data / "builtin" / "seed.jsonl"
    seed.write_bytes(seed.read_bytes().replace(b"\n", b"\r\n", 1))  # one byte more
    (data / "tiny" / "notes.txt").write_text("not made by anything\n", encoding="utf-8")
    bad = _check_data(data, "--only", "tiny,seed")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    out = bad.stdout
    assert "tiny/corpus.jsonl: line 8 differs from column " in out
    assert "(1 of 14 lines differ; 14 shipped, 14 rebuilt)" in out
    assert "year % 6 == 0" in out.split("shipped:", 1)[1].split("\n", 1)[0]
    assert "queries whose snippets changed: 1 (q_0002)" in out
    assert "q_0002 (is_leap_year):" in out and "-> kept today" in out
    assert "builtin/seed.jsonl: same lines, different bytes" in out
    assert "tiny/notes.txt: no recipe in tools/check_data.py makes this file" in out
    assert "2 of 4 files differ, 1 without a recipe" in out

    fixed = _check_data(data, "--only", "tiny,seed", "--update")
    assert "updated" in fixed.stdout and fixed.returncode == 1  # notes.txt is still there
    (data / "tiny" / "notes.txt").unlink()
    assert _check_data(data, "--only", "tiny,seed").returncode == 0
    assert corpus.read_bytes() == (DATA / "tiny" / "corpus.jsonl").read_bytes()


def test_an_embedding_difference_names_the_array_and_the_snippet(tmp_path: Path) -> None:
    import numpy as np

    from execretrieval.ranking.embeddings import from_npz, to_npz

    spec = importlib.util.spec_from_file_location("data_diff", REPO / "tools" / "data_diff.py")
    assert spec is not None and spec.loader is not None
    data_diff = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(data_diff)

    shipped = DATA / "tiny" / "embeddings" / "minilm.npz"
    embeddings = from_npz(shipped)
    corpus = np.array(embeddings.corpus, copy=True)
    corpus[3, 7] = np.nextafter(corpus[3, 7], np.float32(2))  # one bit of one number
    changed = tmp_path / "minilm.npz"
    to_npz(changed, dataclasses.replace(embeddings, corpus=corpus))
    text = data_diff.describe_difference(shipped, changed, "tiny/embeddings/minilm.npz")
    assert "array corpus: 1 of 14 rows differ, first c_0004" in text
    assert "array queries" not in text
