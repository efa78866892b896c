"""The SQLite result cache: round trips, sharing, and a corrupt file set aside."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from pathlib import Path

import pytest

from execretrieval import MemoryCache, ResultCache, SuiteResult, TestOutcome
from execretrieval.oracle.cache import cache_key, default_cache_path

RESULT = SuiteResult(outcomes=(TestOutcome("assert f(1) == 2", "pass", "", "one\n"),
                               TestOutcome("assert f(2) == 3", "fail", "AssertionError")),
                     setup_output="hello", duration=0.25)


def test_default_path_honours_env(tmp_path, monkeypatch):
    monkeypatch.setenv("EXECRETRIEVAL_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_path() == tmp_path / "c" / "results.sqlite"


def test_key_covers_code_tests_and_timeout():
    base = cache_key("code", ["t"], 5.0)
    assert base == cache_key("code", ("t",), 5)
    assert len({base, cache_key("code2", ["t"], 5.0), cache_key("code", ["t", "u"], 5.0),
                cache_key("code", ["t"], 4.0), cache_key("code", ["t"], 5.0, "limits")}) == 5


@pytest.mark.parametrize("make", [lambda p: MemoryCache(), lambda p: ResultCache(p / "r.sqlite")])
def test_round_trip_marks_cached(tmp_path, make):
    cache = make(tmp_path)
    assert cache.get("k") is None
    cache.put("k", RESULT)
    got = cache.get("k")
    assert got is not None and got.cached
    assert got.outcomes == RESULT.outcomes and got.setup_output == "hello"
    assert got.outcomes[0].output == "one\n" and got.output == "helloone\n"


def test_file_of_the_previous_format_is_migrated(tmp_path):
    """A cache file written before per-test output (no user_version, one suite-wide
    "output") is brought to the new format on open: its rows, keyed with the old runner
    version and so unreachable, are dropped; new results keep each test's output."""
    path = tmp_path / "r.sqlite"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE results (key TEXT PRIMARY KEY, value TEXT NOT NULL, "
                "created REAL NOT NULL)")
    old.execute("INSERT INTO results VALUES ('old', "
                "'{\"outcomes\": [{\"test\": \"t\", \"status\": \"pass\", "
                "\"detail\": \"\"}], \"output\": \"all\"}', 0)")
    old.commit()
    old.close()
    cache = ResultCache(path)
    assert len(cache) == 0 and cache.get("old") is None
    cache.put("k", RESULT)
    cache.close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 2
    raw.close()
    again = ResultCache(path)  # opening a current file keeps its rows
    got = again.get("k")
    assert got is not None and got.outcomes[0].output == "one\n"
    again.close()


def test_results_of_the_previous_format_still_read():
    """from_dict takes a stored result of the old shape: its output becomes the setup part."""
    old = {"outcomes": [{"test": "t", "status": "fail", "detail": "d"}], "output": "all"}
    got = SuiteResult.from_dict(old)
    assert got.setup_output == "all" and got.outcomes[0].output == "" and got.output == "all"


def test_persists_across_instances(tmp_path):
    ResultCache(tmp_path / "r.sqlite").put("k", RESULT)
    assert ResultCache(tmp_path / "r.sqlite").get("k") is not None


def test_corrupt_database_is_moved_aside_and_rebuilt(tmp_path):
    path = tmp_path / "r.sqlite"
    first = ResultCache(path)
    first.put("k", RESULT)
    first.close()
    data = bytearray(path.read_bytes())
    data[0:100] = b"garbage!" * 12 + b"gar!"
    path.write_bytes(bytes(data))
    cache = ResultCache(path)
    assert cache.moved_aside
    assert cache.get("k") is None  # not trusted
    cache.put("k", RESULT)
    assert cache.get("k") is not None
    assert list(tmp_path.glob("r.sqlite.corrupt-*"))


def test_damaged_page_inside_the_file_is_moved_aside_when_read(tmp_path):
    """Opening does not read the whole file (no integrity scan at every start); a damaged
    page deep inside raises when a lookup reaches it, and the file is set aside then."""
    path = tmp_path / "r.sqlite"
    first = ResultCache(path)
    for i in range(3000):
        first.put(f"k{i}", RESULT)
    first.close()
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 3 * 4096] = b"\xa5" * (3 * 4096)
    path.write_bytes(bytes(data))
    cache = ResultCache(path)
    assert not cache.moved_aside   # the header is sound: opened at once
    hits = [cache.get(f"k{i}") is not None for i in range(3000)]
    assert cache.moved_aside and list(tmp_path.glob("r.sqlite.corrupt-*"))
    assert any(hits) and not all(hits)   # what came before the damage was read, then none
    cache.put("new", RESULT)
    assert cache.get("new") is not None


def test_damaged_row_is_a_miss(tmp_path):
    path = tmp_path / "r.sqlite"
    cache = ResultCache(path)
    cache.put("k", RESULT)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE results SET value = '{not json' WHERE key = 'k'")
    assert cache.get("k") is None
    assert len(cache) == 0


def test_many_threads_share_one_cache(tmp_path):
    cache = ResultCache(tmp_path / "r.sqlite")

    def work(i: int) -> None:
        for j in range(20):
            cache.put(f"{i}-{j}", RESULT)
            assert cache.get(f"{i}-{j}") is not None

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(cache) == 120


def _writer(path: str, prefix: str) -> None:
    cache = ResultCache(Path(path))
    for j in range(30):
        cache.put(f"{prefix}-{j}", RESULT)


def test_several_processes_share_one_cache(tmp_path):
    path = tmp_path / "r.sqlite"
    ResultCache(path)
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(path), f"p{i}")) for i in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert len(ResultCache(path)) == 90
