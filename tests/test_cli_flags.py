"""``execretrieval flags``: add, list, export and re-import with 1-based test numbers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from execretrieval.cli import main as cli


def test_add_list_export_import(tmp_path: Path, tiny_dir: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "a.sqlite")
    base = ["flags", str(tiny_dir), "--store", store]
    assert cli([*base, "--add", "lowest_set_bit", "--category", "test_too_weak",
                "--test", "2", "--note", "0 only once", "--annotator", "bob"]) == 0
    assert cli([*base, "--add", "q_0002", "--category", "not_single_edit",
                "--candidate", "c_0007"]) == 0
    capsys.readouterr()
    assert cli([*base, "--json"]) == 0
    flags = json.loads(capsys.readouterr().out)["flags"]
    assert [(f["query_id"], f["test"], f["annotator"], f["status"], f["stale"])
            for f in flags][:1] == [("q_0001", 2, "bob", "open", False)]
    assert {"query_id", "category", "note", "test", "annotator", "status", "stale",
            "created"} <= set(flags[0])
    assert flags[1]["target"] == "candidate" and flags[1]["corpus_id"] == "c_0007"

    out = tmp_path / "f.csv"
    assert cli([*base, "--export", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    tests = json.loads((tiny_dir / "queries.jsonl").read_text().splitlines()[0])["test_suite"]
    assert rows[0]["test"] == "2" and rows[0]["test_text"] == tests[1]
    assert rows[0]["function_name"] == "lowest_set_bit"

    other = ["flags", str(tiny_dir), "--store", str(tmp_path / "b.sqlite")]
    capsys.readouterr()
    assert cli([*other, "--import", str(out)]) == 0
    err = capsys.readouterr().err
    assert "imported 2 new flags" in err
    assert cli([*other, "--import", str(out)]) == 0
    err = capsys.readouterr().err
    assert "imported 0 new flags, skipped 2" in err and "already in the store" in err


def test_bad_input_is_refused_with_a_message(tmp_path: Path, tiny_dir: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    base = ["flags", str(tiny_dir), "--store", str(tmp_path / "a.sqlite")]
    assert cli([*base, "--add", "q_0001", "--category", "other", "--test", "99"]) == 2
    assert "q_0001 has 8 tests" in capsys.readouterr().err
    assert cli([*base, "--add", "nope", "--category", "other"]) == 2
    assert "no query 'nope'" in capsys.readouterr().err
    assert cli([*base, "--add", "q_0001"]) == 2
    # a distractor's edit is not something a suite or a test can be flagged for
    assert cli([*base, "--add", "q_0001", "--category", "not_single_edit"]) == 2
    assert "not of the query's suite" in capsys.readouterr().err
    assert cli([*base, "--add", "q_0001", "--category", "distractor_correct",
                "--test", "1"]) == 2
    assert "is said of a candidate, not of a test" in capsys.readouterr().err
    assert cli([*base, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["flags"] == []
    assert cli([*base, "--category", "other"]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query_id": "q_0001", "category": "other"}\n{"query_id": 3}\n')
    assert cli([*base, "--import", str(bad)]) == 2
    assert f"{bad}:2" in capsys.readouterr().err
    capsys.readouterr()
    assert cli([*base, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"flags": []}   # nothing half-imported
