"""The annotation store: flags persist, export/import round-trip, and a SIGKILL loses nothing."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from execretrieval import Benchmark, Query, Snippet, load_benchmark
from execretrieval.benchmark.annotations import (
    AnnotationStore,
    Flag,
    default_store_path,
    read_flags,
)
from execretrieval.errors import AnnotationError, InputFormatError


def _bench(name: str = "flags-test", n: int = 4) -> Benchmark:
    """q1..qn, each with two tests and a canonical c_i plus a distractor c_7 for q2."""
    queries = [Query(f"q{i}", f"query {i}", f"f{i}", "collections",
                     (f"assert f{i}(1) == 1", f"assert f{i}(2) == 2"), (f"c_{i}",))
               for i in range(1, n + 1)]
    corpus = [Snippet(f"c_{i}", f"q{i}", "canonical", None, "",
                      f"def f{i}(x):\n    return x\n") for i in range(1, n + 1)]
    corpus.append(Snippet("c_7", "q2", "distractor", "off_by_one", "x", "def f2(x):\n"
                          "    return x + 1\n"))
    return Benchmark(queries, corpus, name=name)


FP = _bench()


def test_flag_survives_reopen(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite"
    with AnnotationStore(FP, db) as store:
        saved = store.add(Flag("q1", "test_too_weak", target="test", test_index=1,
                               note="mutant c_0003 passes"))
        assert saved.flag_id is not None and saved.created
    with AnnotationStore(FP, db) as store:
        [flag] = store.flags("q1")
        assert flag.note == "mutant c_0003 passes"
        assert flag.describe_target() == "test 2" and flag.test == 2
        assert store.flagged_query_ids() == {"q1"}
    # another benchmark sees none of them
    with AnnotationStore(_bench("another"), db) as other:
        assert other.flags() == []


def test_remove_and_wal_mode(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite"
    with AnnotationStore(FP, db) as store:
        a = store.add(Flag("q1", "other"))
        store.add(Flag("q2", "ambiguous_query"))
        store.remove(a.flag_id)
        assert [f.query_id for f in store.flags()] == ["q2"]
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_default_path_honours_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXECRETRIEVAL_DATA_DIR", str(tmp_path / "d"))
    assert default_store_path() == tmp_path / "d" / "annotations.sqlite"
    store = AnnotationStore(FP)
    store.add(Flag("q1", "other"))
    store.close()
    assert (tmp_path / "d" / "annotations.sqlite").exists()


def test_bad_flags_are_refused() -> None:
    with pytest.raises(AnnotationError):
        Flag("q1", "no_such_category")
    with pytest.raises(AnnotationError):
        Flag("q1", "other", target="test")  # no test index
    with pytest.raises(AnnotationError):
        Flag("q1", "other", target="candidate")  # no corpus id


@pytest.mark.parametrize("ext", ["csv", "jsonl"])
def test_export_import_round_trip(tmp_path: Path, ext: str) -> None:
    src = AnnotationStore(FP, tmp_path / "src.sqlite", annotator="ann")
    src.add(Flag("q2", "distractor_correct", target="candidate", corpus_id="c_7",
                 note='says "fine",\nreally'))
    src.add(Flag("q2", "test_stricter", target="test", test_index=0))
    out = tmp_path / f"flags.{ext}"
    assert getattr(src, f"export_{ext}")(out) == 2
    dst = AnnotationStore(FP, tmp_path / "dst.sqlite", annotator="someone else")
    assert dst.import_file(out).added == 2
    again = dst.import_file(out)  # idempotent, and says why
    assert again.added == 0 and [r for _, r in again.skipped] == [
        "already in the store (flag 1)", "already in the store (flag 2)"]
    strip = [(f.query_id, f.category, f.target, f.test_index, f.corpus_id, f.note, f.created,
              f.annotator, f.status, f.stale) for f in dst.flags()]
    assert strip == [(f.query_id, f.category, f.target, f.test_index, f.corpus_id, f.note,
                      f.created, f.annotator, f.status, f.stale) for f in src.flags()]


def test_exclude_queries_file(tmp_path: Path) -> None:
    store = AnnotationStore(FP, tmp_path / "a.sqlite")
    for qid in ("q3", "q1", "q3", "q4"):
        flag = store.add(Flag(qid, "other"))
    store.set_status(flag.flag_id, "resolved")   # a resolved flag excludes nothing
    out = tmp_path / "exclude.txt"
    assert store.export_query_ids(out) == 2
    assert out.read_text() == "q1\nq3\n"


def test_import_errors_name_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query_id": "q1", "category": "other"}\n\n{"query_id": "q2"}\n')
    store = AnnotationStore(FP, tmp_path / "a.sqlite")
    with pytest.raises(InputFormatError) as info:
        store.import_file(bad)
    assert info.value.line == 3 and info.value.field == "category"
    assert str(bad) in str(info.value)
    assert store.flags() == []  # nothing half-imported
    bad_csv = tmp_path / "bad.csv"
    bad_csv.write_text("query_id,category,test_index\nq1,other,\nq2,other,minus one\n")
    with pytest.raises(InputFormatError) as info:
        list(read_flags(bad_csv))
    assert info.value.line == 3 and info.value.field == "test_index"
    not_json = tmp_path / "x.jsonl"
    not_json.write_text("{nope\n")
    with pytest.raises(InputFormatError) as info:
        list(read_flags(not_json))
    assert info.value.line == 1


def test_corrupt_database_is_refused_not_rebuilt(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite"
    db.write_bytes(b"this is not a database" * 100)
    with pytest.raises(AnnotationError):
        AnnotationStore(FP, db)
    assert db.read_bytes().startswith(b"this is not")  # the user's file is left alone


_WRITER = textwrap.dedent("""
    import sys
    from execretrieval import load_benchmark
    from execretrieval.benchmark.annotations import AnnotationStore, Flag
    store = AnnotationStore(load_benchmark(sys.argv[1]), sys.argv[2])
    for i in range(100000):
        flag = store.add(Flag(f"q_{i:05d}", "other", note="n" * (i % 50)))
        print(flag.flag_id, flush=True)   # 'confirmed' only after add() returned
""")


@pytest.mark.parametrize("trial", range(3))
def test_sigkill_mid_write_loses_no_confirmed_flag(tmp_path: Path, trial: int) -> None:
    """Issue 6 item 4: kill -9 the writer at an arbitrary moment; every flag it reported
    as saved is still there and the database passes an integrity check."""
    db = tmp_path / "kill.sqlite"
    tiny = Path(__file__).resolve().parent.parent / "data" / "tiny"
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(tiny), str(db)],
                            stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    confirmed: list[int] = []
    assert proc.stdout is not None
    target = 40 + 37 * trial
    deadline = time.monotonic() + 60
    while len(confirmed) < target and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        confirmed.append(int(line))
    os.kill(proc.pid, signal.SIGKILL)
    # whatever it printed before dying was confirmed too
    confirmed.extend(int(x) for x in proc.stdout.read().split())
    proc.wait()
    assert len(confirmed) >= target
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    with AnnotationStore(load_benchmark(tiny), db) as store:
        ids = {f.flag_id for f in store.flags()}
    assert set(confirmed) <= ids


def test_jsonl_export_is_plain_json(tmp_path: Path) -> None:
    store = AnnotationStore(FP, tmp_path / "a.sqlite")
    store.add(Flag("q1", "ambiguous_query", note="which rounding?"))
    store.add(Flag("q2", "test_stricter", target="test", test_index=1))
    out = tmp_path / "f.jsonl"
    store.export_jsonl(out)
    first, second = [json.loads(line) for line in out.read_text().splitlines()]
    assert first["category"] == "ambiguous_query" and first["function_name"] == "f1"
    assert first["test"] is None and first["stale"] is False and first["status"] == "open"
    assert second["test"] == 2 and second["test_text"] == "assert f2(2) == 2"


# fuzzing the import (issue 6 item 3) --------------------------------------------------

_VALUES = st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=6) | st.sampled_from(
    ["other", "test_too_weak", "query", "test", "candidate", "q_1", "c_1", "2"])
_RECORDS = st.dictionaries(st.sampled_from(["query_id", "category", "target", "test_index",
                                            "corpus_id", "note", "fingerprint", "created",
                                            "extra"]), _VALUES, max_size=8)


@st.composite
def _flag_file(draw):  # type: ignore[no-untyped-def]
    lines = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["json", "json", "garbage", "array", "blank"]))
        if kind == "json":
            lines.append(json.dumps(draw(_RECORDS)))
        elif kind == "array":
            lines.append(json.dumps([draw(_VALUES)]))
        elif kind == "garbage":
            lines.append(draw(st.text(max_size=12)).replace("\n", " "))
        else:
            lines.append("")
    return "\n".join(lines)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_flag_file(), as_csv=st.booleans())
def test_fuzzed_flag_files_load_or_fail_naming_file_and_line(tmp_path: Path, text: str,
                                                             as_csv: bool) -> None:
    path = tmp_path / ("f.csv" if as_csv else "f.jsonl")
    if as_csv:  # the same records as CSV rows under a header of every field
        import csv as _csv
        import io as _io

        buffer = _io.StringIO()
        writer = _csv.writer(buffer)
        writer.writerow(["query_id", "category", "target", "test_index", "corpus_id", "note"])
        for line in text.splitlines():
            try:
                obj = json.loads(line)
            except ValueError:
                writer.writerow([line])
                continue
            row = obj if isinstance(obj, dict) else {}
            writer.writerow([row.get(k, "") for k in ("query_id", "category", "target",
                                                       "test_index", "corpus_id", "note")])
        path.write_text(buffer.getvalue(), encoding="utf-8")
    else:
        path.write_text(text, encoding="utf-8")
    store = AnnotationStore(FP, ":memory:")
    try:
        added = store.import_file(path)
    except InputFormatError as exc:
        assert exc.file == str(path) and exc.line is not None and exc.line >= 1
        assert store.flags() == []   # all or nothing
    else:
        assert added.added == len(store.flags())


def test_exported_ids_feed_evaluate_exclude_queries(tmp_path: Path, tiny_dir: Path) -> None:
    """The flagged-ids export is exactly what `execretrieval evaluate --exclude-queries` reads."""
    from execretrieval.cli import main as cli

    bench = load_benchmark(tiny_dir)
    store = AnnotationStore(bench, tmp_path / "a.sqlite")
    store.add(Flag("q_0003", "ambiguous_query"))
    ids = tmp_path / "exclude.txt"
    store.export_query_ids(ids)
    out = tmp_path / "report.json"
    assert cli(["evaluate", str(tiny_dir), "--model", "bm25", "--bootstrap", "200",
                "--exclude-queries", str(ids), "--out", str(out)]) == 0
    model = json.loads(out.read_text())["models"]["bm25"]
    assert model["excluded_queries"] == ["q_0003"] and model["queries"] == 3


# flags that survive benchmark versions (issue 12) --------------------------------------

def _edit_query(folder: Path, line: int, change) -> None:  # type: ignore[no-untyped-def]
    from conftest import edit_jsonl_line

    edit_jsonl_line(folder / "queries.jsonl", line, change)


def test_flags_survive_an_edit_of_another_query_and_go_stale_on_their_own(
        tiny_dir: Path, tmp_path: Path) -> None:
    """The issue's report: one sentence added to one query made every flag vanish."""
    from conftest import copy_tiny

    folder = copy_tiny(tiny_dir, tmp_path)
    db = tmp_path / "a.sqlite"
    with AnnotationStore(load_benchmark(folder), db, annotator="ann") as store:
        store.add(Flag("q_0001", "test_too_weak", target="test", test_index=1))
        store.add(Flag("q_0002", "ambiguous_query", note="which rounding?"))
        store.add(Flag("q_0003", "other"))
    before = load_benchmark(folder).fingerprint

    _edit_query(folder, 2, lambda q: q.update(query=q["query"] + " Mind negative input."))
    edited = load_benchmark(folder)
    assert edited.fingerprint != before
    with AnnotationStore(edited, db) as store:
        flags = {f.query_id: f for f in store.flags()}
        assert set(flags) == {"q_0001", "q_0002", "q_0003"}      # none vanished
        assert [q for q, f in flags.items() if f.stale] == ["q_0002"]   # only its own
        assert flags["q_0002"].note == "which rounding?" and flags["q_0001"].test == 2
        assert store.flagged_query_ids() == {"q_0001", "q_0002", "q_0003"}

    # a test edit of q_0001 makes q_0001's flag stale too; q_0003 stays current
    _edit_query(folder, 1, lambda q: q["test_suite"].append("assert lowest_set_bit(2) == 2"))
    with AnnotationStore(load_benchmark(folder), db) as store:
        assert {f.query_id for f in store.flags() if f.stale} == {"q_0001", "q_0002"}


def _old_store(tmp_path: Path, tiny_dir: Path) -> Path:
    """A copy of tests/data/annotations_v1.sqlite, written by the code before issue 12:
    three flags on data/tiny, two on an older version (fingerprint "e" * 64)."""
    import shutil

    db = tmp_path / "old.sqlite"
    shutil.copy(Path(__file__).parent / "data" / "annotations_v1.sqlite", db)
    made_on = "f77ee5c4f5f06a17d429844b62961a49d3b5af05c1df47c3164d1da550486e12"
    now = load_benchmark(tiny_dir).fingerprint
    if now != made_on:  # data/tiny was edited since: the rows are about its current version
        con = sqlite3.connect(db)
        con.execute("UPDATE flags SET fingerprint=? WHERE fingerprint=?", (now, made_on))
        con.commit()
        con.close()
    return db


def test_old_store_is_migrated_without_losing_a_flag(tiny_dir: Path, tmp_path: Path) -> None:
    db = _old_store(tmp_path, tiny_dir)
    con = sqlite3.connect(db)
    old_rows = con.execute("SELECT flag_id, query_id, note, created FROM flags "
                           "ORDER BY flag_id").fetchall()
    con.close()
    assert len(old_rows) == 5
    tiny = load_benchmark(tiny_dir)
    with AnnotationStore(tiny, db) as store:
        flags = store.flags()
        assert [(f.query_id, f.stale) for f in flags] == [
            ("q_0001", False), ("q_0002", False), ("q_0003", False)]
        assert flags[0].test == 2 and flags[1].target == "candidate"
        assert store.unclaimed() == 2                 # the older version's two flags: kept
        assert store.claim_legacy() == 1              # q_0004 exists here; q_0099 does not
        adopted = store.flags("q_0004")
        assert [(f.note, f.stale) for f in adopted] == [("made on an older version", True)]
        assert store.unclaimed() == 1
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 2
    new_rows = con.execute("SELECT flag_id, query_id, note, created FROM flags "
                           "ORDER BY flag_id").fetchall()
    con.close()
    assert new_rows == old_rows                        # every flag, same id, note and time
    with AnnotationStore(tiny, db) as store:           # reopening migrates nothing twice
        assert len(store.flags()) == 4


def test_failed_migration_leaves_the_old_store_untouched(tiny_dir: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from execretrieval.benchmark import annotations

    db = _old_store(tmp_path, tiny_dir)
    before = db.read_bytes()
    monkeypatch.setattr(annotations, "_INDEX", "CREATE INDEX broken ON no_such_table (x)")
    with pytest.raises(AnnotationError):
        AnnotationStore(load_benchmark(tiny_dir), db)
    con = sqlite3.connect(db)
    cols = {r[1] for r in con.execute("PRAGMA table_info(flags)")}
    assert "fingerprint" in cols and "content_hash" not in cols
    assert con.execute("SELECT COUNT(*) FROM flags").fetchone()[0] == 5
    con.close()
    assert len(before) > 0


def test_remove_can_be_undone_exactly(tmp_path: Path) -> None:
    with AnnotationStore(FP, tmp_path / "a.sqlite") as store:
        a = store.add(Flag("q1", "other", note="keep me"))
        store.add(Flag("q2", "other"))
        gone = store.remove(a.flag_id)
        assert gone is not None and [f.query_id for f in store.flags()] == ["q2"]
        store.restore(gone)
        assert store.flags()[0] == a
        assert store.remove(999) is None


def test_annotator_and_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("getpass.getuser", lambda: "os-user")
    with AnnotationStore(FP, tmp_path / "a.sqlite") as store:
        a = store.add(Flag("q1", "other"))
        assert a.annotator == "os-user" and a.status == "open"
        store.annotator = "alice"
        b = store.add(Flag("q2", "other"))
        store.set_status(b.flag_id, "resolved")
        assert [(f.annotator, f.status) for f in store.flags()] == [
            ("os-user", "open"), ("alice", "resolved")]
        with pytest.raises(AnnotationError):
            store.set_status(b.flag_id, "done")


def test_import_reports_what_it_skipped_and_why(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text("query_id,category,test,corpus_id,target,note\n"
                   "q1,other,2,,,ok\n"
                   "q9,other,,,,no such query\n"
                   "q1,other,3,,,no such test\n"
                   "q1,distractor_correct,,c_7,candidate,c_7 is q2's\n"
                   "q1,other,2,,,ok\n")
    with AnnotationStore(FP, tmp_path / "a.sqlite") as store:
        report = store.import_file(src)
        assert report.added == 1
        assert report.skipped == (
            (3, "no query q9 in flags-test"),
            (4, "q1 has 2 tests, the flag is on test 3"),
            (5, "no candidate c_7 of q1"),
            (6, "same as line 2"))
        [flag] = store.flags()
        assert flag.test_index == 1 and flag.target == "test" and not flag.stale


def test_legacy_exports_read_0_based_test_index_and_go_stale(tmp_path: Path) -> None:
    old = tmp_path / "old.csv"
    old.write_text("flag_id,fingerprint,query_id,target,test_index,corpus_id,category,note,"
                   "created\n1," + "0" * 64 + ",q1,test,0,,test_stricter,old,2026-01-01\n"
                   f"2,{FP.fingerprint},q2,test,1,,test_stricter,same version,2026-01-02\n")
    with AnnotationStore(FP, tmp_path / "a.sqlite") as store:
        assert store.import_file(old).added == 2
        first, second = store.flags()
        assert (first.test, first.stale) == (1, True)     # made on another version
        assert (second.test, second.stale) == (2, False)


def test_reopening_a_current_store_writes_nothing(tiny_dir: Path, tmp_path: Path) -> None:
    """A store already at this schema version is only read when opened (the window opens
    one at every start; a write transaction there costs a disk sync)."""
    tiny = load_benchmark(tiny_dir)
    db = tmp_path / "flags.sqlite"
    with AnnotationStore(tiny, db) as store:
        store.add(Flag("q_0001", "other", note="to keep"))
    before = db.stat().st_mtime_ns, db.read_bytes()
    with AnnotationStore(tiny, db) as store:
        assert [f.note for f in store.flags()] == ["to keep"]
    assert (db.stat().st_mtime_ns, db.read_bytes()) == before
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
