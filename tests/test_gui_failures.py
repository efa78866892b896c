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
