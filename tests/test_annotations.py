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

from execretrieval.benchmark.annotations import (
    AnnotationStore,
    Flag,
    default_store_path,
    read_flags,
)
from execretrieval.errors import AnnotationError, InputFormatError

FP = "f" * 64


def test_flag_survives_reopen(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite"
    with AnnotationStore(FP, db) as store:
        saved = store.add(Flag("q_0001", "test_too_weak", target="test", test_index=2,
                               note="mutant c_0003 passes"))
        assert saved.flag_id is not None and saved.created
    with AnnotationStore(FP, db) as store:
        [flag] = store.flags("q_0001")
        assert flag.note == "mutant c_0003 passes"
        assert flag.describe_target() == "test 3"
        assert store.flagged_query_ids() == {"q_0001"}
    # another benchmark sees none of them
    with AnnotationStore("0" * 64, db) as other:
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
    src = AnnotationStore(FP, tmp_path / "src.sqlite")
    src.add(Flag("q1", "distractor_correct", target="candidate", corpus_id="c_7",
                 note='says "fine",\nreally'))
    src.add(Flag("q2", "test_stricter", target="test", test_index=0))
    out = tmp_path / f"flags.{ext}"
    assert getattr(src, f"export_{ext}")(out) == 2
    dst = AnnotationStore(FP, tmp_path / "dst.sqlite")
    assert dst.import_file(out) == 2
    assert dst.import_file(out) == 0  # idempotent
    strip = [(f.query_id, f.category, f.target, f.test_index, f.corpus_id, f.note, f.created)
             for f in dst.flags()]
    assert strip == [(f.query_id, f.category, f.target, f.test_index, f.corpus_id, f.note,
                      f.created) for f in src.flags()]


def test_exclude_queries_file(tmp_path: Path) -> None:
    store = AnnotationStore(FP, tmp_path / "a.sqlite")
    for qid in ("q3", "q1", "q3"):
        store.add(Flag(qid, "other"))
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
    from execretrieval.benchmark.annotations import AnnotationStore, Flag
    store = AnnotationStore(sys.argv[1], sys.argv[2])
    for i in range(100000):
        flag = store.add(Flag(f"q_{i:05d}", "other", note="n" * (i % 50)))
        print(flag.flag_id, flush=True)   # 'confirmed' only after add() returned
""")


@pytest.mark.parametrize("trial", range(3))
def test_sigkill_mid_write_loses_no_confirmed_flag(tmp_path: Path, trial: int) -> None:
    """Issue 6 item 4: kill -9 the writer at an arbitrary moment; every flag it reported
    as saved is still there and the database passes an integrity check."""
    db = tmp_path / "kill.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, FP, str(db)],
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
    with AnnotationStore(FP, db) as store:
        ids = {f.flag_id for f in store.flags()}
    assert set(confirmed) <= ids


def test_jsonl_export_is_plain_json(tmp_path: Path) -> None:
    store = AnnotationStore(FP, tmp_path / "a.sqlite")
    store.add(Flag("q1", "ambiguous_query", note="which rounding?"))
    out = tmp_path / "f.jsonl"
    store.export_jsonl(out)
    [obj] = [json.loads(line) for line in out.read_text().splitlines()]
    assert obj["category"] == "ambiguous_query" and obj["fingerprint"] == FP


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
        assert added == len(store.flags())


def test_exported_ids_feed_evaluate_exclude_queries(tmp_path: Path, tiny_dir: Path) -> None:
    """The flagged-ids export is exactly what `execretrieval evaluate --exclude-queries` reads."""
    from execretrieval import load_benchmark
    from execretrieval.cli import main as cli

    bench = load_benchmark(tiny_dir)
    store = AnnotationStore(bench.fingerprint, tmp_path / "a.sqlite")
    store.add(Flag("q_0003", "ambiguous_query"))
    ids = tmp_path / "exclude.txt"
    store.export_query_ids(ids)
    out = tmp_path / "report.json"
    assert cli(["evaluate", str(tiny_dir), "--model", "bm25", "--bootstrap", "200",
                "--exclude-queries", str(ids), "--out", str(out)]) == 0
    model = json.loads(out.read_text())["models"]["bm25"]
    assert model["excluded_queries"] == ["q_0003"] and model["queries"] == 3
