"""The Audit tab: queue by suspicion, survivors as diffs, kill matrix, flag a weak suite,
next unreviewed; the audit runs in a worker with progress and can be cancelled."""
# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _audit_cases import CLAMP, STRONG, WEAK
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtCore import Qt

from conftest import edit_jsonl_line
from execretrieval import Benchmark, MemoryCache, Oracle, Query, Snippet, write_benchmark
from execretrieval.audit import run_audit
from execretrieval_gui.audit_models import AuditQueueModel, KillMatrixModel, SurvivorsModel
from execretrieval_gui.audit_state import reviewed_path


def _bench() -> Benchmark:
    queries = [Query("q_0001", "Clamp x into [lo, hi].", "clamp", "math-numerical", STRONG,
                     ("c_0001",)),
               Query("q_0002", "Clamp a value into [lo, hi].", "clamp_weak", "math-numerical",
                     tuple(t.replace("clamp(", "clamp_weak(") for t in WEAK), ("c_0002",))]
    corpus = [Snippet("c_0001", "q_0001", "canonical", None, "", CLAMP),
              Snippet("c_0002", "q_0002", "canonical", None, "",
                      CLAMP.replace("def clamp(", "def clamp_weak("))]
    return Benchmark(queries, corpus, name="clamps")


@pytest.fixture
def clamp_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "clamps"
    write_benchmark(_bench(), folder)
    return folder


def test_audit_models_pass_the_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    with Oracle(cache=MemoryCache(), workers=2) as oracle:
        audit = run_audit(_bench(), oracle, seeds=0)
    queue = AuditQueueModel()
    qtmodeltester.check(queue)
    queue.set_audits(audit.queries)
    queue.set_reviewed(frozenset({"q_0002"}))
    qtmodeltester.check(queue)
    assert queue.index(0, 1).data() == "clamp_weak  (q_0002)"
    assert queue.index(0, 0).data() == "✓ 1"
    weak = audit.query("q_0002")
    survivors = SurvivorsModel()
    survivors.set_rows(weak.survivors)
    qtmodeltester.check(survivors)
    matrix = KillMatrixModel()
    qtmodeltester.check(matrix)
    matrix.set_audit(weak)
    qtmodeltester.check(matrix)
    assert matrix.rowCount() == 3 and matrix.columnCount() == weak.mutants
    # survivors come first and no test kills them; every later column has a kill
    n = len(weak.survivors)
    assert all(matrix.headerData(c, Qt.Orientation.Horizontal).startswith("★")
               for c in range(n))
    assert all(matrix.index(t, c).data() == "" for t in range(3) for c in range(n))
    assert all(any(matrix.index(t, c).data() in ("✗", "!") for t in range(3))
               for c in range(n, matrix.columnCount()))


def test_audit_tab_runs_flags_and_steps(qtbot, make_window, clamp_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), clamp_dir)
    window.show_tab(2)
    assert window.tabs.tabText(2) == "Audit"
    view = window.audit_view
    view.seeds_box.setValue(2)
    with qtbot.waitSignal(window.audit_state.result_changed, timeout=240000):
        qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    assert [a.query_id for a in view.queue.rows] == ["q_0002", "q_0001"]
    assert window.audit_state.selected.query_id == "q_0002"   # the most suspect, shown
    assert view.survivors.rowCount() > 0
    assert "clamp_weak" in view.diff.toPlainText()
    assert view.matrix.rowCount() == 3
    assert "mutation score" in view.reasons.text()
    # flag the suite as too weak, with the selected surviving mutant in the note
    view.survivor_table.setCurrentIndex(view.survivors.index(0, 0))
    survivor = view.survivors.rows[0]
    qtbot.mouseClick(view.flag_button, Qt.MouseButton.LeftButton)
    [flag] = window.state.store.flags("q_0002")
    assert flag.category == "test_too_weak" and flag.target == "query"
    assert survivor.description in flag.note and "\n-" in flag.note and "\n+" in flag.note
    # the same flag again is not a second open flag, and the status bar says why
    with qtbot.waitSignal(window.state.message, timeout=5000) as said:
        qtbot.mouseClick(view.flag_button, Qt.MouseButton.LeftButton)
    assert [f.flag_id for f in window.state.store.flags("q_0002")] == [flag.flag_id]
    assert said.args[0].startswith("Already flagged")
    # next unreviewed: q_0001 has reasons only if something about it is suspect
    window.audit_state.reviewed.clear()
    nxt = window.audit_state.next_unreviewed()
    suspect = [a.query_id for a in view.queue.rows if a.reasons and a.query_id != "q_0002"]
    assert nxt == (suspect[0] if suspect else None)   # q_0002 is flagged: reviewed
    # Ctrl+N from anywhere in the window (the focus in the query search box here)
    window.audit_state.reviewed = {"q_0002"}
    window.audit_state.select("q_0002")
    window.browser.search.setFocus()
    qtbot.keyClick(window.browser.search, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentIndex() == 2
    if suspect:
        assert window.audit_state.selected.query_id == suspect[0]
    # a double click on a queued suite opens its query in the Inspect tab; a filter that
    # hides it stays (the user chose it), the list says so and offers to clear it
    window.browser.search.setText("clamp x")          # lists q_0001 only
    index = view.queue.index(view.queue.row_of("q_0002"), 1)
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        view.queue_table.doubleClicked.emit(index)
    assert window.tabs.currentIndex() == 0 and window.state.query_id == "q_0002"
    browser = window.browser
    assert browser.search.text() == "clamp x" and browser.proxy.rowCount() == 1
    assert browser.hidden_label.isVisibleTo(window)
    assert "clamp_weak" in browser.hidden_label.text()
    assert not browser.table.currentIndex().isValid()   # no other query looks selected
    qtbot.mouseClick(browser.hidden_clear, Qt.MouseButton.LeftButton)
    assert browser.search.text() == "" and browser.proxy.rowCount() == 2
    assert browser.current_query_id() == "q_0002"
    assert not browser.hidden_label.isVisibleTo(window)


def test_reviewed_suites_outlive_the_session(qtbot, make_window, clamp_dir: Path) -> None:
    """Reviewed suites are kept beside the annotation store (one atomic JSON file), come
    back in the next session, and a suite whose query changed is no longer reviewed."""
    window = open_and_wait(qtbot, make_window(), clamp_dir)
    with qtbot.waitSignal(window.audit_state.result_changed, timeout=240000):
        window.audit_state.run(seeds=0)
    window.audit_state.select("q_0001")
    reviewed = {"q_0001", "q_0002"}                     # q_0002: shown first, reviewed
    assert window.audit_state.reviewed == reviewed
    path = reviewed_path(window.state.store.path)
    assert path is not None and path.parent == Path(window.state.store.path).parent
    window.close()
    assert json.loads(path.read_text())["benchmarks"]["clamps"].keys() == reviewed
    again = open_and_wait(qtbot, make_window(), clamp_dir)
    assert again.audit_state.reviewed == reviewed
    assert {"q_0001", "q_0002"} <= again.audit_state.reviewed_ids()
    again.close()
    # an edited query: its review no longer holds; a damaged file is set aside, not fatal
    edit_jsonl_line(clamp_dir / "queries.jsonl", 1, lambda q: q.update(query="Clamp x!"))
    third = open_and_wait(qtbot, make_window(), clamp_dir)
    assert third.audit_state.reviewed == {"q_0002"}
    third.close()
    path.write_text("{not json")
    fourth = open_and_wait(qtbot, make_window(), clamp_dir)
    assert fourth.audit_state.reviewed == set()
    assert path.with_name(path.name + ".damaged").read_text() == "{not json"


def test_audit_can_be_cancelled(qtbot, make_window, clamp_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), clamp_dir)
    state = window.audit_state
    if state.inspector._oracle is not None:   # nothing cached: it really runs
        state.inspector._oracle.close()
    state.inspector._oracle = Oracle(cache=None, workers=1)   # closed with the window
    state.run(seeds=3)
    assert state.busy and window.audit_view.cancel_button.isVisibleTo(window.audit_view)
    state.cancel()
    assert not state.busy and state.result is None


def test_audit_tab_shows_verdicts_and_suggested_tests(qtbot, make_window, clamp_dir: Path,
                                                      tmp_path: Path,
                                                      qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    from execretrieval import load_benchmark
    from execretrieval_gui.audit_models import EQUIVALENT_FG, SuggestedTestsModel

    window = open_and_wait(qtbot, make_window(), clamp_dir)
    window.show_tab(2)
    view, state = window.audit_view, window.audit_state
    view.seeds_box.setValue(0)
    with qtbot.waitSignal(state.result_changed, timeout=240000):
        qtbot.mouseClick(view.run_button, Qt.MouseButton.LeftButton)
    weak = state.selected
    assert weak.query_id == "q_0002" and "weak" in view.summary.text()
    # likely-equivalent survivors are greyed, their verdict the reason
    rows = view.survivors.rows
    equivalent = [i for i, s in enumerate(rows) if s.equivalent]
    assert equivalent and any(s.verdict == "weak" for s in rows)
    for i in range(len(rows)):
        colour = view.survivors.index(i, 0).data(Qt.ItemDataRole.ForegroundRole)
        assert (colour == EQUIVALENT_FG) == (i in equivalent)
        verdict = view.survivors.index(i, 1).data()
        assert verdict == ("likely equivalent" if i in equivalent else "weak suite" + (
            " (out of domain)" if rows[i].outside_domain else ""))
        tip = view.survivors.index(i, 1).data(Qt.ItemDataRole.ToolTipRole)
        assert ("likely equivalent: no difference on" if i in equivalent
                else "weak suite: distinguished by input clamp_weak(") in tip
    # the Verdict column is wide enough for its longest entry, none is cut, even
    # "weak suite (out of domain)" (shown here by marking every weak survivor so)
    import dataclasses
    marked = dataclasses.replace(weak, survivors=tuple(
        dataclasses.replace(s, outside_domain="argument 1 is positive in every suite call")
        if s.verdict == "weak" else s for s in weak.survivors))
    view._show(marked)
    texts = [view.survivors.index(i, 1).data() for i in range(len(rows))]
    assert "weak suite (out of domain)" in texts
    longest = max(view.survivor_table.fontMetrics().horizontalAdvance(t) for t in texts)
    assert view.survivor_table.columnWidth(1) >= longest + 6
    view._show(weak)
    view.survivor_table.setCurrentIndex(view.survivors.index(equivalent[0], 0))
    assert "likely equivalent" in view.diff.toPlainText()
    # the suggested tests, each with the mutants it kills
    qtmodeltester.check(view.suggested)
    assert isinstance(view.suggested, SuggestedTestsModel)
    assert view.suggested.rowCount() == len(weak.suggested_tests) > 0
    first = weak.suggested_tests[0]
    assert view.suggested.index(0, 0).data() == first.test
    assert weak.survivors[first.kills[0]].bug_type in view.suggested.index(0, 1).data()
    # flag with the suggestion: the suggested test is in the note
    view.suggested_table.setCurrentIndex(view.suggested.index(0, 0))
    qtbot.mouseClick(view.flag_suggestion_button, Qt.MouseButton.LeftButton)
    [flag] = window.state.store.flags("q_0002")
    assert flag.category == "test_too_weak" and first.test in flag.note
    # add to a copy: a new folder with the tests appended, gates run, original untouched
    before = (clamp_dir / "queries.jsonl").read_bytes()
    out = tmp_path / "strong"
    with qtbot.waitSignal(state.copy_written, timeout=120000) as blocker:
        state.write_copy(str(out))
    folder, report = blocker.args
    assert folder == str(out) and report.passed
    assert (clamp_dir / "queries.jsonl").read_bytes() == before
    copy = load_benchmark(out)
    added = [t.test for t in weak.suggested_tests]
    assert list(copy.query("q_0002").test_suite[-len(added):]) == added
