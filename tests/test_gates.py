"""The five validation gates: a clean benchmark passes, each defect is caught by its gate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import copy_tiny, edit_jsonl_line
from execretrieval.benchmark.gates import GATE_NAMES, validate_folder
from execretrieval.oracle.cache import MemoryCache
from execretrieval.oracle.execution import Oracle


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=3.0, cache=MemoryCache()) as oracle:
        yield oracle


def _append(path: Path, obj: dict) -> None:
    with path.open("a") as handle:
        handle.write(json.dumps(obj) + "\n")


def _failed(report) -> set[str]:
    return {g.name for g in report.gates if not g.passed}


def test_clean_benchmark_passes_every_gate(tiny_dir: Path, oracle) -> None:
    report = validate_folder(tiny_dir, oracle)
    assert [g.name for g in report.gates] == list(GATE_NAMES)
    assert report.passed, report.to_dict()


def test_schema_gate_catches_malformed_file(tiny_dir, tmp_path, oracle) -> None:
    folder = copy_tiny(tiny_dir, tmp_path)
    edit_jsonl_line(folder / "corpus.jsonl", 2, lambda o: o.update(role="mutant"))
    report = validate_folder(folder, oracle)
    schema = report.gate("schema")
    assert not schema.passed and "corpus.jsonl:2" in schema.failures[0].reason
    assert all(not g.ran for g in report.gates[1:])
    assert not report.passed


def test_ast_gate_catches_missing_function_and_unrelated_test(tiny_dir, tmp_path, oracle):
    folder = copy_tiny(tiny_dir, tmp_path)
    edit_jsonl_line(folder / "corpus.jsonl", 14,
          lambda o: o.update(code=o["code"].replace("def count_vowels", "def count_vowel")))
    edit_jsonl_line(folder / "queries.jsonl", 2,
          lambda o: o.update(test_suite=[*o["test_suite"], "assert 1 + 1 == 2"]))
    report = validate_folder(folder, oracle)
    failures = report.gate("ast_semantics").failures
    assert {(f.query_id, f.corpus_id) for f in failures} == {("q_0004", "c_0014"),
                                                             ("q_0002", None)}
    assert any("never calls is_leap_year" in f.reason for f in failures)


def test_canonical_gate_catches_a_broken_canonical(tiny_dir, tmp_path, oracle) -> None:
    folder = copy_tiny(tiny_dir, tmp_path)
    edit_jsonl_line(folder / "corpus.jsonl", 6,
          lambda o: o.update(code=o["code"].replace("% 4 == 0", "% 4 == 1")))
    report = validate_folder(folder, oracle)
    assert _failed(report) == {"canonical_execution"}
    (failure,) = report.gate("canonical_execution").failures
    assert failure.corpus_id == "c_0006" and "fails" in failure.reason


def test_distractor_gate_catches_passing_and_all_crashing_mutants(tiny_dir, tmp_path, oracle):
    folder = copy_tiny(tiny_dir, tmp_path)
    canonical = json.loads((folder / "corpus.jsonl").read_text().splitlines()[12])["code"]
    # c_0014 becomes a copy of the canonical (passes everything: not a distractor) ...
    edit_jsonl_line(folder / "corpus.jsonl", 14, lambda o: o.update(code=canonical))
    # ... and c_0012 raises on every call.
    edit_jsonl_line(folder / "corpus.jsonl", 12, lambda o: o.update(
        code="def insertion_index(items, target):\n    raise RuntimeError('boom')\n"))
    report = validate_folder(folder, oracle)
    assert _failed(report) == {"distractor_execution"}
    reasons = {f.corpus_id: f.reason for f in report.gate("distractor_execution").failures}
    assert set(reasons) == {"c_0012", "c_0014"}
    assert "passes every test" in reasons["c_0014"]
    assert "crashes on every test" in reasons["c_0012"]


def test_integrity_gate_catches_orphans_and_shared_names(tiny_dir, tmp_path, oracle) -> None:
    folder = copy_tiny(tiny_dir, tmp_path)
    queries = (folder / "queries.jsonl").read_text().splitlines()
    extra_query = json.loads(queries[3])
    extra_query.update(query_id="q_0005", correct_corpus_ids=["c_0013"])
    _append(folder / "queries.jsonl", extra_query)  # shares count_vowels with q_0004
    corpus = (folder / "corpus.jsonl").read_text().splitlines()
    orphan = json.loads(corpus[0])
    orphan.update(corpus_id="c_0099")  # a second canonical for q_0001, listed nowhere
    _append(folder / "corpus.jsonl", orphan)
    report = validate_folder(folder, oracle)
    assert "corpus_integrity" in _failed(report)
    reasons = [f.reason for f in report.gate("corpus_integrity").failures]
    assert any("orphan canonical" in r for r in reasons)
    assert any("2 canonical snippets" in r for r in reasons)
    assert any("shared by 2 queries" in r for r in reasons)
    assert any("has no canonical" in r for r in reasons)  # q_0005 owns no snippet
