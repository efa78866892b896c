"""The inspector state works with no window at all, and never touches a widget."""

from __future__ import annotations

import ast
from pathlib import Path

from _gui_fixtures import no_leftover_work  # noqa: F401  (autouse fixture)
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from execretrieval_gui import workers
from execretrieval_gui.reporting import Reporter
from execretrieval_gui.state import CandidateView, InspectorState, QueryView

ROOT = Path(__file__).resolve().parent.parent


def _qt_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("PySide6"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("PySide6"))
    return found


def test_state_and_reporter_import_no_widgets() -> None:
    for name in ("state.py", "reporting.py"):
        assert _qt_modules(ROOT / "execretrieval_gui" / name) <= {"PySide6.QtCore"}, name


def test_state_alone_loads_ranks_and_selects(qtbot, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("EXECRETRIEVAL_DATA_DIR", str(tmp_path / "data"))
    # widgets an earlier test closed are deleted now, not while this one counts
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    widgets_before = set(QApplication.allWidgets())
    state = InspectorState()
    reporter = Reporter(state)
    queries: list[QueryView] = []
    candidates: list[CandidateView] = []
    state.query_changed.connect(queries.append)
    state.candidate_changed.connect(candidates.append)
    try:
        with qtbot.waitSignal(state.query_ready, timeout=60000):
            state.open_benchmark(ROOT / "data" / "tiny", model="bm25", query="q_0002")
        assert queries[-1].query.query_id == "q_0002" == state.query_id
        assert [r.snippet.corpus_id for r in queries[-1].rows] == \
            [r.snippet.corpus_id for r in state.rows]
        assert candidates[-1].snippet.corpus_id == state.rows[0].snippet.corpus_id
        state.step_candidate(1)
        assert candidates[-1].snippet.corpus_id == state.rows[1].snippet.corpus_id
        assert candidates[-1].label.startswith(f"Rank {state.rows[1].rank_label}:")
        with qtbot.waitSignal(reporter.metrics_ready, timeout=120000) as blocker:
            reporter.compute()
        assert blocker.args[0].model == "bm25"
        assert not set(QApplication.allWidgets()) - widgets_before   # no widget was made
    finally:
        state.shutdown()
        reporter.cancel()
        workers.wait_for_all(20000)
        state.close_oracles()


def test_background_pool_joins_and_leaves(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from execretrieval import extract_pool, write_pool
    from execretrieval.build.background import resolve_source

    snippets, _ = extract_pool([resolve_source("json")])
    pool = tmp_path / "pool.jsonl"
    write_pool(pool, snippets)
    state = InspectorState()
    messages: list[str] = []
    state.message.connect(messages.append)
    try:
        with qtbot.waitSignal(state.query_ready, timeout=60000):
            state.open_benchmark(ROOT / "data" / "tiny", model="bm25", query="q_0001")
        fingerprint = state.store.fingerprint
        with qtbot.waitSignal(state.query_ready, timeout=60000):
            state.use_pool(pool)
        assert state.pool_path == pool and state.model_a == "bm25"
        assert len(state.benchmark.corpus) == 14 + len(snippets)
        assert state.base_benchmark is not None and len(state.base_benchmark.corpus) == 14
        assert any("from the background pool pool" in m for m in messages)
        roles = {r.role for r in state.rows}
        assert "background" in roles  # json's functions reach the top 10 of some query
        assert state.store.fingerprint == fingerprint  # flags stay with the benchmark
        with qtbot.waitSignal(state.query_ready, timeout=60000):
            state.use_pool(None)
        assert state.pool_path is None and len(state.benchmark.corpus) == 14
        with qtbot.waitSignal(state.failed, timeout=20000) as blocker:
            state.use_pool(tmp_path / "missing.jsonl")
        assert "file not found" in blocker.args[1]
        assert len(state.benchmark.corpus) == 14  # nothing changed
    finally:
        state.shutdown()
        workers.wait_for_all(20000)
        state.close_oracles()
