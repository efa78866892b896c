"""Reports gain a flags section (who, what, stale or not) and the audit's top suspects."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import copy_tiny, edit_jsonl_line
from execretrieval import Benchmark, MemoryCache, Oracle, Query, Snippet, load_benchmark
from execretrieval.audit import run_audit
from execretrieval.benchmark.annotations import AnnotationStore, Flag
from execretrieval.cli import main as cli


def _audit_file(tmp_path: Path) -> Path:
    code = "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    return min(x, hi)\n"
    bench = Benchmark([Query("q_0001", "Clamp.", "clamp", "math-numerical",
                             ("assert clamp(5, 0, 10) == 5",), ("c_0001",))],
                      [Snippet("c_0001", "q_0001", "canonical", None, "", code)], name="c")
    with Oracle(cache=MemoryCache(), workers=2) as oracle:
        audit = run_audit(bench, oracle, seeds=0)
    path = tmp_path / "audit.json"
    path.write_text(json.dumps(audit.to_dict()))
    return path


def test_evaluate_report_has_flags_and_audit_sections(tmp_path: Path, tiny_dir: Path) -> None:
    folder = copy_tiny(tiny_dir, tmp_path)
    store = tmp_path / "a.sqlite"
    with AnnotationStore(load_benchmark(folder), store, annotator="alice") as s:
        s.add(Flag("q_0001", "test_too_weak", target="test", test_index=1, note="0 | once"))
        s.add(Flag("q_0003", "ambiguous_query"))
    edit_jsonl_line(folder / "queries.jsonl", 3, lambda q: q.update(query=q["query"] + "!"))
    audit = _audit_file(tmp_path)
    for ext in ("md", "html", "json"):
        out = tmp_path / f"r.{ext}"
        assert cli(["evaluate", str(folder), "--model", "bm25", "--bootstrap", "100",
                    "--flags", "--store", str(store), "--audit", str(audit),
                    "--out", str(out)]) == 0
        text = out.read_text()
        if ext == "json":
            data = json.loads(text)["annotations"]
            flags = data["flags"]
            assert [(f["query_id"], f["test"], f["annotator"], f["stale"]) for f in flags] \
                == [("q_0001", 2, "alice", False), ("q_0003", None, "alice", True)]
            top = data["audit"]["top_suspects"]
            assert top[0]["query_id"] == "q_0001" and top[0]["survivors"]
        elif ext == "md":
            assert "## Flags" in text and "1 on queries changed since they were flagged" in text
            assert "| lowest_set_bit (q_0001) | test 2 | Test too weak" in text
            assert "0 \\| once" in text and "## Suite audit: top suspects" in text
        else:
            assert "<h2>Flags</h2>" in text and "open, changed since flagged" in text
            assert "<h2>Suite audit: top suspects</h2>" in text and "<script" not in text


def test_report_without_annotations_is_unchanged(tmp_path: Path, tiny_dir: Path) -> None:
    out = tmp_path / "r.json"
    assert cli(["evaluate", str(tiny_dir), "--model", "bm25", "--bootstrap", "100",
                "--out", str(out)]) == 0
    assert "annotations" not in json.loads(out.read_text())
