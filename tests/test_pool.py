"""Background pools: extraction from real source trees, the pool file, joining a benchmark."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import REPO
from execretrieval.benchmark.dataset import load_benchmark, write_benchmark
from execretrieval.benchmark.pool import (
    BACKGROUND,
    Pool,
    background_count,
    pool_subset,
    read_pool,
    with_pool,
    write_pool,
)
from execretrieval.build.background import extract_pool, resolve_source
from execretrieval.errors import CancelledError, InputFormatError


def _tree(tmp_path: Path) -> Path:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "tests").mkdir()
    (pkg / "a.py").write_text(textwrap.dedent('''\
        import functools

        def top(x):
            return x + 1

        class K:
            @functools.cache
            def method(self, y):
                """doc"""
                def inner(z):
                    return z * 2
                return inner(y)

        if True:
            def guarded():
                return 3

        def odd():
            s = """
        less indented"""
            return s
        '''))
    # same function as top() modulo formatting and a comment: a duplicate
    (pkg / "sub" / "b.py").write_text("def top(x):  # again\n    return (x + 1)\n\n"
                                      "def lowest_set_bit(n):\n    return n & -n\n")
    (pkg / "tests" / "test_c.py").write_text("def test_x():\n    assert True\n")
    (pkg / "broken.py").write_text("def broken(:\n")
    return pkg


def test_extraction_rules(tmp_path: Path) -> None:
    tree = resolve_source(str(_tree(tmp_path)))
    snippets, stats = extract_pool([tree], exclude_names={"lowest_set_bit"})
    names = [s.function_name for s in snippets]
    # file order (a.py, broken.py, sub/b.py), source order; tests skipped; the method is
    # dedented without its decorator; the duplicate top() and the excluded name are gone;
    # odd() is kept because its dedented code still parses (dedent is a no-op there)
    assert names == ["top", "method", "inner", "guarded", "odd"]
    assert [s.corpus_id for s in snippets] == [f"bg_{i:06d}" for i in range(1, 6)]
    by_name = {s.function_name: s for s in snippets}
    assert by_name["method"].code.startswith("def method(self, y):\n")
    assert by_name["method"].source == "pkg/a.py:8"
    assert by_name["top"].source == "pkg/a.py:3"
    for s in snippets:
        assert isinstance(ast.parse(s.code).body[0], ast.FunctionDef)
    assert stats.duplicates == 1 and stats.excluded_by_name == 1
    assert stats.unreadable_files == 1  # broken.py
    assert stats.kept == 5


def test_unparseable_method_is_skipped(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text('class A:\n    def f(self):\n        return """x\ny"""\n'
                   '    def g(self):\n        return 1\n')
    snippets, stats = extract_pool([resolve_source(str(src))])
    assert [s.function_name for s in snippets] == ["g"]
    assert stats.unparseable == 1


def test_include_tests_and_limit(tmp_path: Path) -> None:
    tree = resolve_source(str(_tree(tmp_path)))
    with_tests, _ = extract_pool([tree], include_tests=True)
    assert "test_x" in {s.function_name for s in with_tests}
    first_two, stats = extract_pool([tree], limit=2)
    assert [s.function_name for s in first_two] == ["top", "method"]
    assert stats.files == 1


def test_package_name_resolves_through_importlib() -> None:
    tree = resolve_source("json")
    assert tree.root.name == "json" and (tree.root / "decoder.py").is_file()
    snippets, _ = extract_pool([tree])
    sources = {s.source.split(":")[0] for s in snippets}
    assert "json/decoder.py" in sources
    with pytest.raises(InputFormatError, match="neither a folder nor an importable"):
        resolve_source("no_such_package_anywhere_x")


def test_a_frozen_stdlib_module_resolves_to_its_source() -> None:
    """Python 3.11 runs posixpath and genericpath frozen (origin "frozen"); their source
    ships in the standard library folder all the same."""
    import importlib.util
    import posixpath

    assert importlib.util.find_spec("posixpath").origin == "frozen"
    tree = resolve_source("posixpath")
    assert tree.root == Path(posixpath.__file__) and tree.root.is_file()
    snippets, stats = extract_pool([tree])
    assert {s.function_name for s in snippets} >= {"normpath", "splitext", "relpath"}
    assert stats.files == 1


def test_cancel_and_progress(tmp_path: Path) -> None:
    tree = resolve_source(str(_tree(tmp_path)))
    seen: list[tuple[int, int]] = []
    extract_pool([tree], progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 3) and seen[-1] == (3, 3)
    with pytest.raises(CancelledError):
        extract_pool([tree], should_stop=lambda: True)


@pytest.mark.slow
def test_stdlib_pool_is_large_deterministic_and_parseable() -> None:
    first, stats = extract_pool()
    assert stats.kept > 15_000
    assert len({s.corpus_id for s in first}) == len(first)
    dumps = {ast.dump(ast.parse(s.code).body[0]) for s in first}
    assert len(dumps) == len(first)  # no two snippets normalise to the same code
    again, _ = extract_pool(limit=500)
    assert again == first[:500]


def test_pool_file_round_trip_and_errors(tmp_path: Path) -> None:
    snippets, _ = extract_pool([resolve_source(str(_tree(tmp_path)))])
    path = tmp_path / "pool.jsonl"
    assert write_pool(path, snippets) == len(snippets)
    pool = read_pool(path)
    assert pool.snippets == tuple(snippets) and pool.name == "pool" and len(pool) == 6

    bad = tmp_path / "bad.jsonl"
    lines = path.read_text().splitlines()
    bad.write_text("\n".join([lines[0], '{"corpus_id": "x", "code": "def f(): pass"}']) + "\n")
    with pytest.raises(InputFormatError) as info:
        read_pool(bad)
    assert (info.value.line, info.value.field) == (2, "source")
    assert str(info.value).startswith(f"{bad}:2: field 'source': missing")

    bad.write_text(lines[0] + "\n" + lines[0] + "\n")
    with pytest.raises(InputFormatError, match="duplicate id 'bg_000001' .first on line 1"):
        read_pool(bad)
    bad.write_text("[1]\n")
    with pytest.raises(InputFormatError, match=":1: expected a JSON object"):
        read_pool(bad)
    bad.write_text('{"corpus_id": "x", "code": "x = 1", "source": "s:1"}\n')
    with pytest.raises(InputFormatError, match="field 'code': does not parse to a function"):
        read_pool(bad)
    with pytest.raises(InputFormatError, match="file not found"):
        read_pool(tmp_path / "missing.jsonl")


def test_subsets_are_seeded_and_nested(tmp_path: Path) -> None:
    snippets, _ = extract_pool([resolve_source("json")])
    pool = Pool(tuple(snippets))
    small, large = pool_subset(pool, 5, seed=3), pool_subset(pool, 12, seed=3)
    assert len(small) == 5 and len(large) == 12
    assert set(small.snippets) <= set(large.snippets)
    assert pool_subset(pool, 5, seed=3).snippets == small.snippets
    assert pool_subset(pool, 5, seed=4).snippets != small.snippets
    assert pool_subset(pool, None) is pool and len(pool_subset(pool, 0)) == 0


def test_with_pool_joins_as_background(tiny_dir: Path, tmp_path: Path) -> None:
    bench = load_benchmark(tiny_dir)
    name = bench.queries[0].function_name
    snippets, _ = extract_pool([resolve_source("json")])
    clash = snippets[0].__class__("bg_clash", f"def {name}(x):\n    return x\n", "m.py:1",
                                  name)
    joined = with_pool(bench, Pool((*snippets, clash), name="json"))
    assert background_count(joined) == len(snippets)
    assert joined.corpus[: len(bench.corpus)] == bench.corpus
    added = joined.corpus[len(bench.corpus):]
    assert all(s.role == BACKGROUND and s.query_id == "" and s.bug_type is None
               for s in added)
    assert joined.manifest["pool"]["dropped_same_name"] == 1
    # the query's own snippets are unchanged: backgrounds are nobody's distractors
    for q in bench.queries:
        assert joined.distractors_for(q.query_id) == bench.distractors_for(q.query_id)
    # a folder with background snippets loads back (query_id empty) and passes the
    # corpus-integrity gate's checks on them
    write_benchmark(joined, tmp_path / "joined")
    again = load_benchmark(tmp_path / "joined")
    assert again.corpus == joined.corpus


def test_background_with_a_query_id_is_rejected(tiny_dir: Path, tmp_path: Path) -> None:
    bench = load_benchmark(tiny_dir)
    write_benchmark(bench, tmp_path / "b")
    corpus = tmp_path / "b" / "corpus.jsonl"
    record = {"corpus_id": "bg_1", "query_id": bench.queries[0].query_id,
              "role": "background", "bug_type": None, "bug_description": "",
              "code": "def f():\n    pass\n"}
    corpus.write_text(corpus.read_text() + json.dumps(record) + "\n")
    from execretrieval.errors import BenchmarkFormatError

    with pytest.raises(BenchmarkFormatError, match="field 'query_id': a background snippet"):
        load_benchmark(tmp_path / "b")


def test_cli_pool(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    done = subprocess.run([sys.executable, "-m", "execretrieval.cli", "pool", "json",
                           "--exclude-benchmark", str(REPO / "data" / "tiny"),
                           "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "functions from" in done.stdout
    assert len(read_pool(out)) > 20
    again = tmp_path / "q.jsonl"
    subprocess.run([sys.executable, "-m", "execretrieval.cli", "pool", "json", "--out",
                    str(again), "--exclude-benchmark", str(REPO / "data" / "tiny")],
                   check=True, capture_output=True, timeout=120)
    assert again.read_bytes() == out.read_bytes()
    bad = subprocess.run([sys.executable, "-m", "execretrieval.cli", "pool", "nope_pkg_x",
                          "--out", str(tmp_path / "n.jsonl")], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2 and "neither a folder nor an importable package" in bad.stderr
    assert "Traceback" not in bad.stderr and not (tmp_path / "n.jsonl").exists()
