"""The inspector reads well at any size: whole function names at 1280x800, tests readable
without scrolling sideways at 1024x700, the diff opened on its change."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)
from __future__ import annotations

from pathlib import Path

import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics, QTextCursor

from execretrieval import Snippet
from execretrieval_gui.app import build_parser, parse_size
from execretrieval_gui.diffview import DiffView
from execretrieval_gui.models import QueryTableModel
from execretrieval_gui.suite_models import OutcomeModel

DATA = Path(__file__).resolve().parent.parent / "data"


def _visible(view: DiffView, name: str) -> bool:
    """Is the anchor ``name`` inside the diff's viewport?"""
    position = view._anchor_position(name)
    assert position is not None, name
    cursor = QTextCursor(view.browser.document())
    cursor.setPosition(position)
    rect = view.browser.cursorRect(cursor)
    return 0 <= rect.top() and rect.bottom() <= view.browser.viewport().height()


def test_size_argument() -> None:
    assert parse_size("1024x700") == (1024, 700)
    assert build_parser().parse_args(["--size", "1920X1080"]).size == (1920, 1080)
    for bad in ("1024", "axb", "100x100", "1024x-7"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["--size", bad])


@pytest.mark.slow
def test_function_names_whole_at_1280x800(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    assert (window.width(), window.height()) == (1280, 800)
    open_and_wait(qtbot, window, DATA / "builtin", query="lowest_set_bit")
    qtbot.wait(50)
    table = window.browser.table
    metrics = QFontMetrics(table.font())
    width = table.columnWidth(QueryTableModel.NAME)
    longest = max(window.state.benchmark.queries, key=lambda q: metrics.horizontalAdvance(
        q.function_name)).function_name
    assert metrics.horizontalAdvance(longest) + 6 <= width, (longest, width)
    assert table.horizontalScrollBar().maximum() == 0
    # every candidate column in view, none elided but (at most) bug type and role
    cands = window.candidates.table
    assert cands.horizontalScrollBar().maximum() == 0


@pytest.mark.slow
def test_tests_readable_and_change_in_view_at_1024x700(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    window.resize(1024, 700)
    open_and_wait(qtbot, window, DATA / "humaneval", query="numerical_letter_grade")
    qtbot.wait(100)
    assert window.width() == 1024 and window.minimumSizeHint().width() <= 1024
    table = window.tests.outcome_table
    assert table.horizontalScrollBar().maximum() == 0           # nothing off to the right
    test_col = OutcomeModel.TEST
    right = table.columnViewportPosition(test_col) + table.columnWidth(test_col)
    assert right <= table.viewport().width()
    metrics = QFontMetrics(table.font())
    flags = int(Qt.TextFlag.TextWordWrap) | int(Qt.TextFlag.TextWrapAnywhere)
    for row in range(window.tests.outcomes.rowCount()):
        text = window.tests.outcomes.index(row, test_col).data()
        needed = metrics.boundingRect(QRect(0, 0, table.columnWidth(test_col) - 8, 10000),
                                      flags, text).height()
        assert table.rowHeight(row) + 2 >= needed, (row, text)   # the whole text shows
    failing = [window.tests.outcomes.index(r, test_col).data()
               for r in range(window.tests.outcomes.rowCount())
               if "fail" in window.tests.outcomes.index(r, OutcomeModel.OUTCOME).data()]
    # the message shows what came back and what was expected (issue 12)
    assert failing and all("→ returned " in t and " expected " in t for t in failing)
    diff = window.diff
    assert diff.changes == 1 and _visible(diff, "change0")       # line 49 of 57, in view


def test_next_and_previous_change(qtbot) -> None:  # type: ignore[no-untyped-def]
    body = "".join(f"    y{i} = {i}\n" for i in range(80))
    old = f"def f(x):\n{body}    return x\n"
    new = old.replace("y5 = 5", "y5 = 6").replace("y70 = 70", "y70 = 71")
    view = DiffView()
    qtbot.addWidget(view)
    view.resize(700, 300)
    view.show()
    view.show_pair(Snippet("c1", "q1", "canonical", None, "", old),
                   Snippet("c2", "q1", "distractor", "off_by_one", "d", new))
    qtbot.waitUntil(lambda: _visible(view, "change0"))
    assert view.changes == 2 and view.change_label.text() == "change 1 of 2"
    view.step_change(1)
    assert _visible(view, "change1") and not _visible(view, "change0")
    assert view.change_label.text() == "change 2 of 2"
    view.step_change(1)                                          # wraps around
    assert _visible(view, "change0") and view.change == 0
    view.step_change(-1)
    assert view.change == 1 and _visible(view, "change1")
    view.set_folded(True)                                        # folding keeps the place
    assert view.change == 1 and "unchanged lines" in view.browser.toPlainText()
    assert "y40 = 40" not in view.browser.toPlainText()



def test_n_and_p_leave_text_fields_alone(qtbot, make_window, tiny_dir: Path) -> None:  # type: ignore[no-untyped-def]
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    calls: list[int] = []
    window.diff.step_change = calls.append                    # what N / P would do
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.search_queries()
    qtbot.keyClicks(window.browser.search, "np")
    assert window.browser.search.text() == "np" and calls == []   # typing stays typing
    window.diff.browser.setFocus()
    qtbot.keyClick(window.diff.browser, Qt.Key.Key_N)
    qtbot.keyClick(window.diff.browser, Qt.Key.Key_P)
    assert calls == [1, -1]
