"""The main window as a user drives it: open, browse, select, diff, run, cancel, flag, filter."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

from pathlib import Path

import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox

from execretrieval import load_benchmark

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:shiboken6.*")


def _candidate_ids(window) -> list[str]:  # type: ignore[no-untyped-def]
    return [r.snippet.corpus_id for r in window.candidates.model.rows]


def test_opening_a_benchmark_fills_browser_and_candidates(qtbot, make_window,
                                                          tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    bench = load_benchmark(tiny_dir)
    assert window.browser.proxy.rowCount() == len(bench.queries)
    assert window.browser.current_query_id() == "q_0001"
    assert window.state.query_id == "q_0001"
    # top 10 by default, every badge known once query_ready fired
    rows = window.candidates.model.rows
    assert len(rows) == 10
    assert all(r.outcome is not None for r in rows)
    canonical = [r for r in rows if r.role == "canonical"]
    assert canonical and canonical[0].outcome.passed
    assert {r.role for r in rows} >= {"own distractor", "other query"}
    assert "lowest_set_bit" in window.candidates.title.text()
    # tests panel shows the selected candidate's per-test outcomes
    assert window.tests.outcomes.rowCount() == 8
    assert window.tests.outcomes.result is not None


def test_selecting_another_query_and_candidate(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir)
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        window.browser.select_query("q_0002")
    assert window.state.query_id == "q_0002"
    assert all(r.snippet.corpus_id for r in window.candidates.model.rows)
    own = [r for r in window.candidates.model.rows if r.role == "own distractor"]
    window.candidates.select_corpus_id(own[0].snippet.corpus_id)
    assert window.state.corpus_id == own[0].snippet.corpus_id
    assert window.diff.candidate.corpus_id == own[0].snippet.corpus_id
    assert own[0].snippet.bug_description in window.diff.description.text()
    assert window.diff.marked[1], "the distractor's edit is marked"
    assert not own[0].outcome.passed


def test_diff_view_marks_exactly_the_edit(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.candidates.select_corpus_id("c_0004")     # `==` changed to `!=`
    old, new = window.diff.marked
    assert (old, new) == (["="], ["!"])
    window.candidates.select_corpus_id("c_0003")     # `<<` changed to `>>`
    assert window.diff.marked == (["<<"], [">>"])
    window.diff.set_unified(True)
    assert window.diff.marked == (["<<"], [">>"])
    assert "&gt;&gt;" in window.diff.browser.toHtml() or ">>" in window.diff.browser.toPlainText()
    window.candidates.select_corpus_id("c_0001")     # the canonical: plain, nothing marked
    assert window.diff.marked == ([], [])
    assert "canonical" in window.diff.description.text()


def test_run_produces_outcomes_live(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.candidates.select_corpus_id("c_0002")
    window.tests.outcomes.set_tests(window.tests.outcomes.tests, None)   # forget the old result
    # its outcomes are known (the badges ran it): Run says so and offers to run again
    with qtbot.waitSignal(window.state.rerun_offered, timeout=5000) as offer:
        qtbot.mouseClick(window.tests.run_button, Qt.MouseButton.LeftButton)
    assert "already known" in offer.args[0] and not window.state.run_slot.busy
    box = window.findChild(QMessageBox, "rerunDialog")
    assert box is not None and box.isVisible()
    again = next(b for b in box.buttons() if b.text() == "Run again")
    with qtbot.waitSignal(window.state.run_slot.busy_changed, timeout=60000,
                          check_params_cb=lambda busy: not busy):
        qtbot.mouseClick(again, Qt.MouseButton.LeftButton)
    result = window.tests.outcomes.result
    assert result is not None and not result.passed
    statuses = [o.status for o in result.outcomes]
    assert statuses.count("fail") >= 1 and len(statuses) == 8
    assert window.tests.run_button.isEnabled()
    message = window.statusBar().currentMessage()
    assert "1 suite executed; same outcomes as before" in message
    assert window.statusBar().toolTip() == message          # the whole text, if cut off


def test_cancel_stops_a_running_suite(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.tests.scratch_code.setPlainText("def lowest_set_bit(n):\n    while True:\n"
                                           "        pass\n")
    qtbot.mouseClick(window.tests.scratch_run, Qt.MouseButton.LeftButton)
    assert window.state.run_slot.busy and window.tests.cancel_button.isEnabled()
    task = window.state.run_slot.current
    qtbot.wait(300)
    qtbot.mouseClick(window.tests.cancel_button, Qt.MouseButton.LeftButton)
    assert not window.state.run_slot.busy
    assert task.cancelled
    qtbot.waitUntil(task.done.is_set, timeout=4000)   # well before the 5 s suite timeout
    assert window.tests.run_button.isEnabled()
    assert window.tests.outcomes.compare is None      # the cancelled run showed nothing


def test_scratch_edit_runs_and_compares_without_touching_the_benchmark(
        qtbot, make_window, tiny_dir: Path) -> None:
    before = (tiny_dir / "corpus.jsonl").read_bytes()
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.candidates.select_corpus_id("c_0002")       # returns 2 << position: wrong
    fixed = window.tests.scratch_code.toPlainText().replace("return 2 <<", "return 1 <<")
    window.tests.scratch_code.setPlainText(fixed)
    with qtbot.waitSignal(window.state.run_slot.busy_changed, timeout=60000,
                          check_params_cb=lambda busy: not busy):
        qtbot.mouseClick(window.tests.scratch_run, Qt.MouseButton.LeftButton)
    compare = window.tests.outcomes.compare
    assert compare is not None and compare.passed
    assert not window.tests.outcomes.result.passed
    assert window.tests.outcomes.columnCount() == 5
    assert (tiny_dir / "corpus.jsonl").read_bytes() == before


def test_flag_survives_closing_and_reopening(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="is_leap_year")
    window.flags.select_target("test", 2)
    window.flags.category_box.setCurrentIndex(window.flags.category_box.findData("test_too_weak"))
    window.flags.note.setText("mutant passes 1900")
    qtbot.mouseClick(window.flags.add_button, Qt.MouseButton.LeftButton)
    assert window.flags.model.rowCount() == 1
    assert window.browser.model.flagged == {"q_0002"}
    assert window.flags.store_label.text().startswith("1 flagged query · ")
    window.close()

    again = open_and_wait(qtbot, make_window(), tiny_dir, query="is_leap_year")
    [flag] = again.flags.model.items
    assert (flag.query_id, flag.category, flag.test_index, flag.note) == (
        "q_0002", "test_too_weak", 2, "mutant passes 1900")
    assert again.browser.model.flagged == {"q_0002"}
    again.browser.flagged_box.setChecked(True)
    assert again.browser.proxy.rowCount() == 1


def test_filters_select_the_right_queries(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="minilm")
    browser, status = window.browser, window.state.status_a
    def names() -> list[str]:
        return sorted(browser.proxy.index(r, 0).data(Qt.ItemDataRole.UserRole + 1).query_id
                      for r in range(browser.proxy.rowCount()))

    browser.search.setText("leap")
    assert names() == ["q_0002"]
    browser.search.setText("VOWEL")          # case-insensitive, matches the query text too
    assert names() == ["q_0004"]
    browser.search.clear()
    browser.domain_box.setCurrentIndex(browser.domain_box.findData("date-time"))
    assert names() == ["q_0002"]
    browser.domain_box.setCurrentIndex(0)
    browser.outcome_box.setCurrentIndex(browser.outcome_box.findData("deceived"))
    bench = window.state.benchmark
    assert names() == sorted(q.query_id for q, d in
                             zip(bench.queries, status.deceived, strict=True) if d)
    browser.outcome_box.setCurrentIndex(browser.outcome_box.findData("top1_wrong"))
    assert names() == sorted(q.query_id for q, ok in
                             zip(bench.queries, status.top1_correct, strict=True)
                             if not ok)
    browser.outcome_box.setCurrentIndex(0)
    bug = bench.bug_types[0]
    browser.bug_box.setCurrentIndex(browser.bug_box.findData(bug))
    assert names() == sorted({s.query_id for s in bench.corpus if s.bug_type == bug})


def test_discordant_filter_with_a_second_model(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="bm25")
    browser = window.browser
    assert not browser.discordant_box.isEnabled()
    with qtbot.waitSignal(window.state.rank_b_slot.busy_changed, timeout=60000,
                          check_params_cb=lambda busy: not busy):
        window.state.set_model("minilm", "b")
    assert browser.discordant_box.isEnabled()
    # with a tie at rank 1, a model is "right" with the tie's correct share
    a, b = window.state.status_a.top1_share, window.state.status_b.top1_share
    ids = [q.query_id for q in window.state.benchmark.queries]

    def shown() -> list[str]:
        return sorted(browser.proxy.index(r, 0).data(Qt.ItemDataRole.UserRole + 1).query_id
                      for r in range(browser.proxy.rowCount()))

    browser.discordant_box.setCurrentIndex(browser.discordant_box.findData("a_only"))
    assert shown() == sorted(q for q, x, y in zip(ids, a, b, strict=True) if x > y)
    assert shown() == ["q_0001", "q_0002"]
    browser.discordant_box.setCurrentIndex(browser.discordant_box.findData("b_only"))
    assert shown() == sorted(q for q, x, y in zip(ids, a, b, strict=True) if y > x)


def test_switching_model_keeps_the_selected_query(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="insertion_index")
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        window.state.set_model("minilm")
    assert window.state.query_id == "q_0003"
    assert window.browser.current_query_id() == "q_0003"
    assert window.state.ranking_a.model == "minilm"


def test_broken_folder_shows_an_error_and_the_window_lives(qtbot, make_window,
                                                           tmp_path: Path, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "queries.jsonl").write_text('{"query_id": "q1"\n')
    (broken / "corpus.jsonl").write_text("")
    with qtbot.waitSignal(window.state.failed, timeout=30000) as blocker:
        window.picker.show_benchmark(broken)
        window.state.open_benchmark(broken)
    _title, text = blocker.args
    assert "queries.jsonl:1" in text
    assert window.isVisible() and window.state.benchmark.name == "tiny"   # nothing changed
    bad_run = tmp_path / "bad.trec"
    bad_run.write_text("q_0001 Q0 c_0001 one two\n")
    with qtbot.waitSignal(window.state.failed, timeout=30000) as blocker:
        window.picker.show_model(str(bad_run))
        window.state.set_model(str(bad_run))
    assert "bad.trec" in blocker.args[1]
    assert window.state.ranking_a.model == "bm25"
    assert window.picker.model_box.currentData() == "bm25"      # the picker tells the truth
    assert window.picker.model_box.findData(str(bad_run)) < 0    # and forgets what failed
    assert window.picker.model_b_box.findData(str(bad_run)) < 0
    assert window.picker.benchmark_box.currentText().startswith("tiny  (")
    with qtbot.waitSignal(window.state.failed, timeout=30000):
        window.state.set_model(str(tmp_path / "missing.npz"))
    assert window.isVisible()


def test_layout_is_remembered(qtbot, make_window, tiny_dir: Path) -> None:
    window = make_window()
    window.tests_dock.hide()
    window.diff.set_unified(True)
    window.candidates.depth_box.setValue(7)
    window.close()
    again = make_window()
    assert again.tests_dock.isHidden()
    assert again.diff.unified
    assert again.candidates.depth_box.value() == 7


def test_loading_a_trec_run_from_disk(qtbot, make_window, tiny_dir: Path,
                                      tmp_path: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    run = tmp_path / "mysystem.trec"
    # the outside system puts the `<<` -> `>>` mutant first for q_0001
    run.write_text("q_0001 Q0 c_0003 1 9.0 mysystem\nq_0001 Q0 c_0001 2 8.0 mysystem\n")
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        window.picker.show_model(str(run))
        window.picker.model_chosen.emit(str(run))
    assert window.state.ranking_a.model == "mysystem"
    assert window.state.query_id == "q_0001"
    assert window.candidates.model.rows[0].snippet.corpus_id == "c_0003"
    assert window.diff.marked == (["<<"], [">>"])
    assert "mysystem" in window.model_label.text()


def test_keyboard_navigation(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        window.step_query(1)                       # View > Next query (Alt+Down)
    assert window.state.query_id == "q_0002"
    first = window.state.corpus_id
    window.state.step_candidate(1)                       # View > Next candidate (Alt+Right)
    assert window.state.corpus_id == window.candidates.model.rows[1].snippet.corpus_id != first
    window.browser.table.setFocus()
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        qtbot.keyClick(window.browser.table, Qt.Key.Key_Down)
    assert window.state.query_id == "q_0003"
    shortcuts = {a.text(): a.shortcut().toString() for a in window.findChildren(QAction)}
    assert shortcuts["&Search queries"] == "Ctrl+F"
    assert shortcuts["&Run selected candidate"] == "F5"
    assert shortcuts["&Export report…"] == "Ctrl+E"


def test_right_click_flags_a_candidate(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.candidates.select_corpus_id("c_0005")
    window.flags.select_target("query")
    [action] = window.candidates.table.actions()
    action.trigger()
    assert window.flags.target_box.currentData() == "candidate:c_0005"
    window.flags.category_box.setCurrentIndex(
        window.flags.category_box.findData("not_single_edit"))
    qtbot.keyClicks(window.flags.note, "swaps and shifts")
    qtbot.keyClick(window.flags.note, Qt.Key.Key_Return)     # Enter saves
    [flag] = window.flags.model.items
    assert (flag.target, flag.corpus_id, flag.category) == ("candidate", "c_0005",
                                                            "not_single_edit")
    assert window.flags.note.text() == ""                     # cleared once saved


def test_changing_depth_keeps_the_selected_candidate(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.candidates.select_corpus_id("c_0004")
    window.candidates.depth_box.setValue(5)
    assert len(window.candidates.model.rows) == 5
    assert window.state.corpus_id == "c_0004"
    assert window.candidates.current_corpus_id() == "c_0004"
    qtbot.waitUntil(lambda: not window.state.badge_slot.busy, timeout=60000)


def test_scratch_edit_of_a_test_is_compared_by_its_text(qtbot, make_window,
                                                        tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.candidates.select_corpus_id("c_0002")             # fails everything but t1
    tests = window.tests.scratch_tests.toPlainText().splitlines()
    tests[1] = "assert lowest_set_bit(1) in (1, 2)"           # a looser version of t2
    window.tests.scratch_tests.setPlainText("\n".join(tests))
    with qtbot.waitSignal(window.state.run_slot.busy_changed, timeout=60000,
                          check_params_cb=lambda busy: not busy):
        qtbot.mouseClick(window.tests.scratch_run, Qt.MouseButton.LeftButton)
    model = window.tests.outcomes
    assert model.columnCount() == 5
    assert model.index(1, 2).data() == "…"                    # the edited test: no original
    assert "pass" in model.index(1, 4).data()                 # the scratch run passes it
    table = window.tests.outcome_table                        # and its column is in view
    assert not table.isColumnHidden(4) and table.isColumnHidden(3)
    assert window.tests.detail.text().startswith("scratch run: t3 fail")   # not the original's
    assert table.columnViewportPosition(4) + table.columnWidth(4) <= table.viewport().width()
    assert "fail" in model.index(2, 2).data() and "fail" in model.index(2, 4).data()
    # a second scratch run still compares with the candidate's own outcomes; Reset restores
    with qtbot.waitSignal(window.state.run_slot.busy_changed, timeout=60000,
                          check_params_cb=lambda busy: not busy):
        qtbot.mouseClick(window.tests.scratch_run, Qt.MouseButton.LeftButton)
    assert "fail" in model.index(2, 2).data()
    qtbot.mouseClick(window.tests.scratch_reset, Qt.MouseButton.LeftButton)
    assert model.columnCount() == 4 and model.tests[1] == "assert lowest_set_bit(1) == 1"
    assert table.isColumnHidden(3) and not table.isColumnHidden(2)   # the outcome is back
    header = table.horizontalHeader()
    assert [header.logicalIndex(v) for v in range(3)] == [0, 2, 1]   # #, Outcome, Test


def test_own_snippets_below_the_cut_stay_listed(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.candidates.depth_box.setValue(1)
    rows = window.candidates.model.rows
    bench = load_benchmark(tiny_dir)
    own = {s.corpus_id for s in bench.snippets_for("q_0001")}
    assert not rows[0].below_cut and rows[0].rank == 1
    below = rows[1:]
    assert {r.snippet.corpus_id for r in rows} >= own
    assert all(r.below_cut and r.snippet.query_id == "q_0001" for r in below)
    ranks = [r.rank for r in below]
    assert ranks == sorted(ranks) and ranks[0] > 1
    ranking = window.state.ranking_a
    for row in below:
        assert row.rank == ranking.rank_of(0, row.corpus_index)
    qtbot.waitUntil(lambda: not window.state.badge_slot.busy, timeout=60000)


def test_clicking_a_matrix_row_shows_that_candidate(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.tests.tabs.setCurrentWidget(window.tests.matrix_table)
    table = window.tests.matrix_table
    rows = window.candidates.model.rows
    target = next(i for i, r in enumerate(rows) if r.snippet.corpus_id != window.state.corpus_id)
    cell = table.visualRect(window.tests.matrix.index(target, 1)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    wanted = rows[target].snippet.corpus_id
    assert window.state.corpus_id == wanted
    assert window.candidates.current_corpus_id() == wanted
    assert window.diff.candidate.corpus_id == wanted
    assert table.currentIndex().row() == target      # the matrix was not reset under the click
    # clicking a row header works too
    header = table.verticalHeader()
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(5, header.sectionViewportPosition(0) + 5))
    assert window.state.corpus_id == rows[0].snippet.corpus_id


@pytest.mark.parametrize(("typed", "chosen", "written"), [
    ("flags", "JSON Lines (*.jsonl)", "flags.jsonl"),
    ("flags", "CSV (*.csv)", "flags.csv"),
    ("flags.JSONL", "CSV (*.csv)", "flags.JSONL"),
])
def test_exporting_flags_follows_the_chosen_type(qtbot, make_window, tiny_dir: Path,
                                                tmp_path: Path, monkeypatch,
                                                typed: str, chosen: str, written: str) -> None:
    import json

    from PySide6.QtWidgets import QFileDialog

    window = open_and_wait(qtbot, make_window(), tiny_dir, query="is_leap_year")
    window.flags.note.setText("mutant passes 1900")
    qtbot.mouseClick(window.flags.add_button, Qt.MouseButton.LeftButton)
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(tmp_path / typed), chosen)))
    window.export_flags()
    assert [p.name for p in tmp_path.iterdir() if p.name.lower().startswith("flags")] == [written]
    text = (tmp_path / written).read_text()
    if written.lower().endswith(".jsonl"):
        assert json.loads(text.splitlines()[0])["note"] == "mutant passes 1900"
    else:
        assert text.startswith("query_id,function_name,") and "mutant passes 1900" in text
    assert window.statusBar().currentMessage().startswith("1 flag written to ")
    assert written in window.statusBar().currentMessage()


def test_down_from_the_search_box_goes_to_the_matches(qtbot, make_window,
                                                     tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.search_queries()                   # View > Search queries (Ctrl+F)
    qtbot.keyClicks(window.browser.search, "leap")
    assert window.browser.proxy.rowCount() == 1
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        qtbot.keyClick(window.browser.search, Qt.Key.Key_Down)
    assert window.browser.table.hasFocus()
    assert window.state.query_id == "q_0002"          # is_leap_year, the only match


def test_scratch_keeps_multi_line_tests_whole(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.candidates.select_corpus_id("c_0001")              # the canonical: all pass
    original = window.tests.outcomes.tests
    extra = "with pytest.raises(TypeError):\n    lowest_set_bit('x')"
    window.tests.scratch_tests.setPlainText("\n".join(original) + "\n" + extra + "\n")
    with qtbot.waitSignal(window.state.run_slot.busy_changed, timeout=60000,
                          check_params_cb=lambda busy: not busy):
        qtbot.mouseClick(window.tests.scratch_run, Qt.MouseButton.LeftButton)
    model = window.tests.outcomes
    assert model.tests == (*original, extra)                 # one test, not two broken ones
    assert "pass" in model.index(len(original), 4).data()
    assert all("pass" in model.index(i, 2).data() for i in range(len(original)))


@pytest.mark.parametrize(("text", "tests"), [
    ("assert f(1) == 1\n\nassert f(2) == 2\n", ("assert f(1) == 1", "assert f(2) == 2")),
    ("with pytest.raises(ValueError):\n    f(-1)\nassert f(0) == 0",
     ("with pytest.raises(ValueError):\n    f(-1)", "assert f(0) == 0")),
    ("assert f([1,\n2]) == 3\nassert g()", ("assert f([1,\n2]) == 3", "assert g()")),
    ("try:\n    f()\nexcept ValueError:\n    pass",
     ("try:\n    f()\nexcept ValueError:\n    pass",)),
])
def test_split_scratch_tests(text: str, tests: tuple[str, ...]) -> None:
    from execretrieval_gui.testspanel import split_tests

    assert split_tests(text) == tests


def test_split_scratch_tests_round_trips_every_bundled_suite() -> None:
    from execretrieval_gui.testspanel import split_tests

    for name in ("builtin", "humaneval"):
        bench = load_benchmark(Path(__file__).parent.parent / "data" / name)
        for query in bench.queries:
            suite = tuple(query.test_suite)
            assert split_tests("\n".join(suite), suite) == suite, query.query_id
            edited = ("assert True", *suite[1:])   # an edit elsewhere leaves them whole
            assert split_tests("\n".join(edited), suite) == edited, query.query_id
