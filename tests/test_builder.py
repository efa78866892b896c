"""``execretrieval build``: seed file in, validated, reproducible benchmark folder out.

These tests run the real oracle on a few tiny tasks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execretrieval import CancelledError, InputFormatError, load_benchmark
from execretrieval.build.builder import build
from execretrieval.cli import main
from execretrieval.oracle.execution import Oracle

LOWEST = {
    "query": "Return the value of the lowest set bit of n, or 0 when n is 0.",
    "function_name": "lowest_set_bit",
    "domain": "bit-manipulation",
    "canonical": "def lowest_set_bit(n):\n    if n == 0:\n        return 0\n"
                 "    position = 0\n    while (n >> position) % 2 == 0:\n"
                 "        position += 1\n    return 1 << position\n",
    "test_suite": ["assert lowest_set_bit(12) == 4", "assert lowest_set_bit(0) == 0",
                   "assert lowest_set_bit(1) == 1", "assert lowest_set_bit(8) == 8",
                   "assert lowest_set_bit(6) == 2", "assert lowest_set_bit(96) == 32",
                   "assert lowest_set_bit(7) == 1"],
}
CLAMP = {
    "query": "Clamp x into the closed range from lo to hi.",
    "function_name": "clamp",
    "domain": "math-numerical",
    "canonical": "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n"
                 "    if x > hi:\n        return hi\n    return x\n",
    "test_suite": ["assert clamp(5, 0, 10) == 5", "assert clamp(-3, 0, 10) == 0",
                   "assert clamp(12, 0, 10) == 10", "assert clamp(0, 0, 10) == 0",
                   "assert clamp(10, 0, 10) == 10", "assert clamp(1, 2, 3) == 2",
                   "assert clamp(4, 2, 3) == 3"],
    "distractors": [
        {"code": "def clamp(x, lo, hi):\n    return max(lo, min(x, lo))\n",
         "bug_type": "swap_arguments", "bug_description": "hand-written: hi replaced by lo"},
        {"code": "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n",
         "bug_type": "wrong_operator", "bug_description": "actually correct"},
    ],
}
BROKEN = {
    "query": "Add one.", "function_name": "add_one", "domain": "math-numerical",
    "canonical": "def add_one(x):\n    return x + 2\n",
    "test_suite": ["assert add_one(1) == 2", "assert add_one(0) == 1"],
}


def _seed(path: Path, *tasks: dict) -> Path:
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")
    return path


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def oracle():
    with Oracle(timeout=5.0) as o:
        yield o


@pytest.fixture
def fast_oracle():
    with Oracle(timeout=1.0) as o:
        yield o


def test_build_writes_a_valid_reproducible_folder(tmp_path: Path, capsys) -> None:
    seed = _seed(tmp_path / "seed.jsonl", LOWEST, BROKEN, CLAMP)
    out = tmp_path / "bench"
    argv = ["build", str(seed), "--out", str(out), "--candidate-limit", "10",
            "--mutant-timeout", "1"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    # the broken canonical is reported, not silently dropped
    assert "add_one" in captured.err and "canonical fails" in captured.err

    bench = load_benchmark(out)
    assert [q.function_name for q in bench.queries] == ["lowest_set_bit", "clamp"]
    assert [q.query_id for q in bench.queries] == ["q_0001", "q_0002"]
    assert [s.corpus_id for s in bench.corpus][:3] == ["c_00001", "c_00002", "c_00003"]
    for query in bench.queries:
        canonical = bench.canonical_for(query.query_id)
        assert canonical is not None and query.correct_corpus_ids == (canonical.corpus_id,)
        distractors = bench.distractors_for(query.query_id)
        assert 1 <= len(distractors) <= 4
        for d in distractors:
            assert d.bug_type
            assert "line " in d.bug_description or d.bug_description.startswith("hand")
    clamp = bench.find_query("clamp")
    assert clamp is not None
    hand = [d for d in bench.distractors_for(clamp.query_id)
            if d.bug_description.startswith("hand-written")]
    assert len(hand) == 1  # the correct "distractor" was rejected

    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["dropped"][0]["function_name"] == "add_one"
    assert manifest["counts"]["queries"] == 2
    assert manifest["mutants"]["hand_written"]["rejected"] == [
        {"function_name": "clamp", "reason": "passes all tests"}]
    assert manifest["mutants"]["tried"] <= 20
    assert all(manifest["validation"].values())
    assert "created" in manifest and manifest["seed"] == 0

    first = _snapshot(out)
    assert main(argv) == 0
    assert _snapshot(out) == first, "rebuilding changed bytes"


def test_building_into_the_seed_folder_keeps_the_seed(tmp_path: Path, oracle, fast_oracle
                                                      ) -> None:
    out = tmp_path / "builtin"
    out.mkdir()
    seed = _seed(out / "seed.jsonl", LOWEST)
    original = seed.read_bytes()
    build(seed, out, oracle=oracle, mutant_oracle=fast_oracle, candidate_limit=6)
    assert seed.read_bytes() == original
    assert {"queries.jsonl", "corpus.jsonl", "manifest.json", "seed.jsonl"} <= {
        p.name for p in out.iterdir()}
    (out / "embeddings").mkdir()
    (out / "embeddings" / "m.npz").write_bytes(b"vectors")
    before = _snapshot(out)
    build(seed, out, oracle=oracle, mutant_oracle=fast_oracle, candidate_limit=6)
    assert _snapshot(out) == before  # unchanged data keeps its embeddings
    result = build(seed, out, oracle=oracle, mutant_oracle=fast_oracle, candidate_limit=6,
                   seed=1)
    if (out / "corpus.jsonl").read_bytes() != before["corpus.jsonl"]:
        assert not (out / "embeddings").exists() and result.notes


def test_interrupted_build_leaves_the_old_folder(tmp_path: Path, oracle, fast_oracle) -> None:
    out = tmp_path / "bench"
    out.mkdir()
    (out / "queries.jsonl").write_text("old\n")
    seed = _seed(tmp_path / "seed.jsonl", LOWEST, CLAMP)
    calls = []

    def should_stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(CancelledError):
        build(seed, out, oracle=oracle, mutant_oracle=fast_oracle, should_stop=should_stop)
    assert [p.name for p in out.iterdir()] == ["queries.jsonl"]
    assert (out / "queries.jsonl").read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir() if "staging" in p.name] == []


def test_malformed_seed_line_names_file_line_and_field(tmp_path: Path, oracle, capsys) -> None:
    bad = dict(LOWEST, domain="astrology")
    seed = _seed(tmp_path / "seed.jsonl", LOWEST, bad)
    with pytest.raises(InputFormatError) as info:
        build(seed, tmp_path / "out", oracle=oracle)
    assert (info.value.line, info.value.field) == (2, "domain")
    assert not (tmp_path / "out").exists()
    seed.write_text(json.dumps(LOWEST) + "\n{not json\n")
    assert main(["build", str(seed), "--out", str(tmp_path / "out")]) == 2
    assert "seed.jsonl:2" in capsys.readouterr().err


def test_same_function_name_twice_is_reported(tmp_path: Path, oracle, fast_oracle) -> None:
    seed = _seed(tmp_path / "seed.jsonl", LOWEST, dict(LOWEST, query="again"))
    result = build(seed, tmp_path / "out", oracle=oracle, mutant_oracle=fast_oracle,
                   candidate_limit=6)
    assert len(result.assembly.benchmark.queries) == 1
    assert result.manifest["dropped"] == [{
        "origin": "seed.jsonl:2", "function_name": "lowest_set_bit",
        "reason": "function name already used by seed.jsonl:1"}]


def test_rebuild_in_place_keeps_name_version_and_licence(tmp_path: Path, oracle, fast_oracle
                                                         ) -> None:
    out = tmp_path / "folder"
    seed = _seed(tmp_path / "seed.jsonl", LOWEST)
    build(seed, out, oracle=oracle, mutant_oracle=fast_oracle, candidate_limit=6,
          name="mine", license="MIT", version="2.0")
    first = _snapshot(out)
    result = build(seed, out, oracle=oracle, mutant_oracle=fast_oracle, candidate_limit=6)
    assert _snapshot(out) == first
    assert (result.manifest["name"], result.manifest["license"],
            result.manifest["version"]) == ("mine", "MIT", "2.0")
