"""The tests panel says what a failing test got and expected, not just "AssertionError"."""
# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

from pathlib import Path

from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401


def test_tests_panel_shows_returned_and_expected(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.candidates.select_corpus_id("c_0002")   # returns 2 << position: twice too big
    qtbot.waitUntil(lambda: window.tests.outcomes.result is not None
                    and not window.tests.outcomes.result.passed, timeout=60000)
    model = window.tests.outcomes
    details = [model.index(row, 3).data() for row in range(model.rowCount())]
    assert any(d and d.startswith("returned ") and ", expected " in d for d in details)
    assert "AssertionError" not in details


def test_selected_tests_output_on_demand(qtbot, make_window, tiny_dir: Path) -> None:
    """Ctrl+Shift+O (or the Output button) shows what the selected test printed, under what
    loading the code printed; a test that printed nothing says so."""
    from PySide6.QtCore import Qt

    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    panel = window.tests
    assert not panel.output_view.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_O,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert panel.output_view.isVisible() and window.output_action.isChecked()
    tests = panel.outcomes.tests
    assert tests
    scratch_tests = (f"print('hello from test 1')\n{tests[0]}",) + tests[1:]
    with qtbot.waitSignal(window.state.scratch_finished, timeout=60000):
        panel.scratch_requested.emit("print('loading')\n" + panel._original_code,
                                     scratch_tests)
    panel.outcome_table.selectRow(0)
    text = panel.output_view.toPlainText()
    assert "loading the code printed" in text and "loading" in text
    assert "test 1 printed" in text and "hello from test 1" in text
    panel.outcome_table.selectRow(1)
    assert "this test printed nothing" in panel.output_view.toPlainText()
    panel.output_button.click()  # the button hides it again, and the menu follows
    assert not panel.output_view.isVisible() and not window.output_action.isChecked()
