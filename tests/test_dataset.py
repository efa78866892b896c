"""The benchmark loader: all or nothing, and every malformed case names file, line, field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import copy_tiny, edit_jsonl_line
from execretrieval import (
    BenchmarkFormatError,
    BenchmarkNotFoundError,
    load_benchmark,
    write_benchmark,
)


def test_tiny_loads_with_lookups(tiny_dir: Path) -> None:
    bench = load_benchmark(tiny_dir)
    assert len(bench.queries) == 4 and len(bench.corpus) == 14
    query = bench.find_query("lowest_set_bit")
    assert query is not None and query.domain == "bit-manipulation"
    assert bench.find_query(query.query_id) is query
    canonical = bench.canonical_for(query.query_id)
    assert canonical is not None and canonical.corpus_id in query.correct_corpus_ids
    assert len(bench.distractors_for(query.query_id)) == 4
    assert bench.corpus[bench.corpus_index(canonical.corpus_id)] is canonical
    assert bench.queries[bench.query_index(query.query_id)] is query
    assert bench.name == "tiny"
    assert len(bench.fingerprint) == 64


def test_fingerprint_follows_content(tiny_dir: Path, tmp_path: Path) -> None:
    folder = copy_tiny(tiny_dir, tmp_path)
    before = load_benchmark(folder).fingerprint
    edit_jsonl_line(folder / "corpus.jsonl", 2, lambda o: o.update(code=o["code"] + "\n"))
    assert load_benchmark(folder).fingerprint != before


def test_round_trip_is_byte_identical(tiny_dir: Path, tmp_path: Path) -> None:
    bench = load_benchmark(tiny_dir)
    write_benchmark(bench, tmp_path / "out")
    again = load_benchmark(tmp_path / "out")
    assert again.fingerprint == bench.fingerprint
    write_benchmark(again, tmp_path / "out2")
    for name in ("queries.jsonl", "corpus.jsonl"):
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "out2" / name).read_bytes()


def test_unknown_extra_fields_are_kept(tiny_dir: Path, tmp_path: Path) -> None:
    folder = copy_tiny(tiny_dir, tmp_path)
    edit_jsonl_line(folder / "queries.jsonl", 1, lambda o: o.update(difficulty="hard"))
    bench = load_benchmark(folder)
    assert bench.queries[0].extra["difficulty"] == "hard"


@pytest.mark.parametrize(
    ("filename", "line", "change", "field", "words"),
    [
        ("queries.jsonl", 2, lambda o: o.pop("query"), "query", "missing"),
        ("queries.jsonl", 3, lambda o: o.update(test_suite="assert f()"), "test_suite",
         "list of strings"),
        ("queries.jsonl", 1, lambda o: o.update(test_suite=["assert x", 3]), "test_suite",
         "item 1"),
        ("queries.jsonl", 2, lambda o: o.update(function_name="not a name"), "function_name",
         "identifier"),
        ("queries.jsonl", 2, lambda o: o.update(query_id="q_0001"), "query_id", "duplicate"),
        ("queries.jsonl", 4, lambda o: o.update(correct_corpus_ids=["c_9999"]),
         "correct_corpus_ids", "c_9999"),
        ("corpus.jsonl", 3, lambda o: o.update(role="mutant"), "role", "unknown role"),
        ("corpus.jsonl", 5, lambda o: o.update(bug_type="typo"), "bug_type", "unknown bug_type"),
        ("corpus.jsonl", 4, lambda o: o.update(bug_type=None), "bug_type", "must name"),
        ("corpus.jsonl", 6, lambda o: o.update(corpus_id="c_0001"), "corpus_id", "duplicate"),
        ("corpus.jsonl", 7, lambda o: o.update(code=42), "code", "expected a string"),
        ("corpus.jsonl", 8, lambda o: o.update(query_id="q_9999"), "query_id", "unknown query"),
    ],
)
def test_malformed_record_names_file_line_field(tiny_dir, tmp_path, filename, line, change,
                                                field, words) -> None:
    folder = copy_tiny(tiny_dir, tmp_path)
    edit_jsonl_line(folder / filename, line, change)
    with pytest.raises(BenchmarkFormatError) as info:
        load_benchmark(folder)
    err = info.value
    assert err.file is not None and err.file.endswith(filename)
    assert err.line == line
    assert err.field == field
    assert words in str(err)
    assert f"{filename}:{line}" in str(err)


def test_bad_json_names_file_and_line(tiny_dir: Path, tmp_path: Path) -> None:
    folder = copy_tiny(tiny_dir, tmp_path)
    path = folder / "corpus.jsonl"
    lines = path.read_text().splitlines()
    lines[2] = lines[2][:-5]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(BenchmarkFormatError, match=r"corpus\.jsonl:3: invalid JSON"):
        load_benchmark(folder)


def test_non_object_line(tiny_dir: Path, tmp_path: Path) -> None:
    folder = copy_tiny(tiny_dir, tmp_path)
    with (folder / "queries.jsonl").open("a") as handle:
        handle.write("[1, 2]\n")
    with pytest.raises(BenchmarkFormatError, match=r"queries\.jsonl:5: expected a JSON object"):
        load_benchmark(folder)


def test_missing_folder_and_file(tmp_path: Path, tiny_dir: Path) -> None:
    with pytest.raises(BenchmarkNotFoundError, match="no such directory"):
        load_benchmark(tmp_path / "nope")
    (tmp_path / "file.jsonl").write_text("{}\n")
    with pytest.raises(BenchmarkNotFoundError, match=r"file\.jsonl: .*a file, not a directory"):
        load_benchmark(tmp_path / "file.jsonl")
    folder = copy_tiny(tiny_dir, tmp_path)
    (folder / "corpus.jsonl").unlink()
    with pytest.raises(BenchmarkNotFoundError, match="corpus.jsonl"):
        load_benchmark(folder)


def test_blank_lines_are_skipped_and_line_numbers_stay_true(tiny_dir, tmp_path) -> None:
    folder = copy_tiny(tiny_dir, tmp_path)
    path = folder / "queries.jsonl"
    lines = path.read_text().splitlines()
    lines.insert(1, "")
    bad = json.loads(lines[2])
    del bad["domain"]
    lines[2] = json.dumps(bad)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(BenchmarkFormatError) as info:
        load_benchmark(folder)
    assert info.value.line == 3 and info.value.field == "domain"
