"""Property-based fuzzing of the benchmark loader.

Every input either loads or raises the project's BenchmarkError naming the file (and, for
format errors, the line); nothing else escapes.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DATA
from execretrieval import BenchmarkError, BenchmarkFormatError, load_benchmark

TINY = DATA / "tiny"
QUERY_LINES = (TINY / "queries.jsonl").read_text().splitlines()
CORPUS_LINES = (TINY / "corpus.jsonl").read_text().splitlines()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=6,
)
FIELDS = ("query_id", "query", "function_name", "domain", "test_suite", "correct_corpus_ids",
          "corpus_id", "role", "bug_type", "bug_description", "code")


@st.composite
def damaged_lines(draw, lines: list[str]) -> str:
    lines = list(lines)
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["field", "drop", "bytes", "truncate", "duplicate"]))
        if kind in ("field", "drop") and not _is_object(lines[index]):
            kind = "duplicate"  # an earlier step already broke this line's JSON
        if kind == "field":
            obj = json.loads(lines[index])
            obj[draw(st.sampled_from(FIELDS))] = draw(json_values)
            lines[index] = json.dumps(obj)
        elif kind == "drop":
            obj = json.loads(lines[index])
            obj.pop(draw(st.sampled_from(sorted(obj))), None)
            lines[index] = json.dumps(obj)
        elif kind == "bytes":
            at = draw(st.integers(0, len(lines[index])))
            junk = draw(st.text(min_size=1, max_size=4))
            lines[index] = lines[index][:at] + junk + lines[index][at:]
        elif kind == "truncate":
            lines[index] = lines[index][: draw(st.integers(0, len(lines[index])))]
        else:
            lines.insert(index, lines[index])
    return "\n".join(lines) + "\n"


def _is_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def _check(queries: str | bytes, corpus: str | bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench"
        shutil.copytree(TINY, folder)
        for name, content in (("queries.jsonl", queries), ("corpus.jsonl", corpus)):
            data = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
            (folder / name).write_bytes(data)
        try:
            bench = load_benchmark(folder)
        except BenchmarkFormatError as exc:
            assert exc.file is not None and exc.file.endswith((".jsonl", ".json"))
            assert str(exc).startswith(exc.file)
        except BenchmarkError as exc:
            assert str(folder) in str(exc)
        else:
            # Whatever loaded is internally consistent.
            for query in bench.queries:
                for cid in query.correct_corpus_ids:
                    assert bench.has_snippet(cid)
            for snippet in bench.corpus:
                assert bench.has_query(snippet.query_id)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(queries=damaged_lines(QUERY_LINES))
def test_damaged_queries_load_or_fail_cleanly(queries: str) -> None:
    _check(queries, "\n".join(CORPUS_LINES) + "\n")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus=damaged_lines(CORPUS_LINES))
def test_damaged_corpus_loads_or_fails_cleanly(corpus: str) -> None:
    _check("\n".join(QUERY_LINES) + "\n", corpus)


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=200))
def test_arbitrary_bytes_fail_cleanly(raw: bytes) -> None:
    _check(raw, raw)
