"""Rough edges seen using the window by hand: each one as a user meets it."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtCore import Qt

from execretrieval import Oracle, Query
from execretrieval.benchmark.annotations import Flag

DATA = Path(__file__).resolve().parent.parent / "data"


def test_status_bar_counts_a_running_audit(qtbot, make_window, tiny_dir: Path) -> None:  # type: ignore[no-untyped-def]
    window = open_and_wait(qtbot, make_window(), tiny_dir)
    state = window.audit_state
    if state.inspector._oracle is not None:
        state.inspector._oracle.close()
    state.inspector._oracle = Oracle(cache=None, workers=1)   # really runs; closed with it
    state.run(seeds=2)
    assert "audit" in window.oracle_label.text() and "idle" not in window.oracle_label.text()
    state.cancel()
    qtbot.waitUntil(lambda: window.oracle_label.text() == "oracle idle", timeout=10000)


def test_flag_categories_follow_the_target(qtbot, make_window, tiny_dir: Path) -> None:  # type: ignore[no-untyped-def]
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    panel = window.flags

    def offered() -> set[str]:
        return {panel.category_box.itemData(i) for i in range(panel.category_box.count())}

    panel.select_target("query")
    assert "not_single_edit" not in offered() and "distractor_correct" not in offered()
    assert {"test_too_weak", "ambiguous_query", "other"} <= offered()
    panel.select_target("candidate", corpus_id=window.state.corpus_id)
    assert {"not_single_edit", "distractor_correct"} <= offered()
    panel.category_box.setCurrentIndex(panel.category_box.findData("other"))
    panel.select_target("test", 0)
    assert panel.category_box.currentData() == "other"          # still applies: kept
    # and the state refuses it from anywhere else too (nothing saved, a dialog says why)
    with qtbot.waitSignal(window.state.failed, timeout=5000) as refused:
        window.state.add_flag(Flag("q_0001", "not_single_edit", target="query"))
    assert "candidate" in refused.args[1]
    assert window.state.store.flags("q_0001") == []


def _remove_first_flag(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    window.flags.table.setCurrentIndex(window.flags.model.index(0, 0))
    qtbot.mouseClick(window.flags.remove_button, Qt.MouseButton.LeftButton)


def test_ctrl_z_in_the_note_puts_the_removed_flag_back(qtbot, make_window,  # type: ignore[no-untyped-def]
                                                       tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.start_flag("query")
    qtbot.keyClicks(window.flags.note, "zero is never tested")
    qtbot.keyClick(window.flags.note, Qt.Key.Key_Return)
    [flag] = window.flags.model.items
    window.start_flag("query")                  # the note has the focus again
    qtbot.keyClicks(window.flags.note, "draft")
    _remove_first_flag(qtbot, window)
    assert window.flags.model.items == []
    window.flags.note.setFocus()
    qtbot.keyClick(window.flags.note, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    # the removal was the last thing done: Ctrl+Z undoes it, the draft note stays
    assert [f.flag_id for f in window.flags.model.items] == [flag.flag_id]
    assert window.flags.note.text() == "draft"
    # typing after a removal: Ctrl+Z undoes the typing first, then the removal
    _remove_first_flag(qtbot, window)
    window.flags.note.setFocus()
    qtbot.keyClicks(window.flags.note, "!")
    qtbot.keyClick(window.flags.note, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.flags.note.text() == "draft" and window.flags.model.items == []
    qtbot.keyClick(window.flags.note, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [f.flag_id for f in window.flags.model.items] == [flag.flag_id]


def test_same_flag_twice_is_one_open_flag(qtbot, make_window, tiny_dir: Path) -> None:  # type: ignore[no-untyped-def]
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    flag = Flag("q_0001", "test_too_weak", note="a mutant passes")
    window.state.add_flag(flag)
    window.state.add_flag(flag)
    assert len(window.state.store.flags("q_0001")) == 1
    window.state.add_flag(Flag("q_0001", "test_too_weak", note="another mutant"))
    assert len(window.state.store.flags("q_0001")) == 2           # another note: another flag
    first = window.state.store.flags("q_0001")[0]
    window.state.set_flag_status(first.flag_id, "resolved")
    window.state.add_flag(flag)                                   # resolved: may open again
    assert len(window.state.store.flags("q_0001")) == 3


def test_flags_note_column_gets_the_room_at_1366(qtbot, make_window, tiny_dir: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    window.resize(1366, 768)
    open_and_wait(qtbot, window, tiny_dir, query="lowest_set_bit")
    window.state.add_flag(Flag("q_0001", "test_too_weak", note="0 is never tested at all"))
    table = window.flags.table
    qtbot.waitUntil(lambda: window.flags.model.rowCount() == 1, timeout=5000)
    header = table.horizontalHeader()
    visible = [c for c in range(window.flags.model.columnCount()) if not table.isColumnHidden(c)]
    assert sum(header.sectionSize(c) for c in visible) <= table.viewport().width()
    assert header.sectionSize(2) >= table.viewport().width() // 4     # the note, readable
    assert table.horizontalScrollBar().maximum() == 0


def test_query_header_grows_with_the_query_and_keeps_line_breaks(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    window.resize(1366, 768)
    open_and_wait(qtbot, window, DATA / "humaneval", model="bm25", query="minPath")
    panel = window.candidates
    area, title = panel.title_area, panel.title
    qtbot.waitUntil(lambda: area.height() > 3 * panel._title_line, timeout=5000)
    # HumanEval's longest query is shown whole (at most two fifths of the panel)
    assert area.height() <= 0.4 * panel.height() + 8
    whole = title.heightForWidth(area.viewport().width())
    assert area.height() >= min(whole, int(0.4 * panel.height()) // panel._title_line
                                * panel._title_line)
    assert panel.table.height() > 6 * 22                              # the candidates keep room
    # a query's own line breaks stay line breaks
    query = Query("q_9", "First line.\nSecond line:\n    indented", "f", "collections",
                  ("assert f()",), ("c_9",))
    panel.show_query(query)
    one = Query("q_9", "First line. Second line: indented", "f", "collections",
                ("assert f()",), ("c_9",))
    with_breaks = title.heightForWidth(area.viewport().width())
    panel.show_query(one)
    assert with_breaks > title.heightForWidth(area.viewport().width())
    assert "pre-wrap" in title.text()


def _gui(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "execretrieval_gui.app", *args],
                          capture_output=True, text=True, env=env, timeout=180, check=False)


@pytest.mark.slow
@pytest.mark.parametrize("screenshot", [False, True])
def test_unknown_query_exits_2(tmp_path: Path, tiny_dir: Path, screenshot: bool) -> None:
    out = tmp_path / "shot.png"
    proc = _gui(str(tiny_dir), "--query", "nonexistent",
                *(["--screenshot", str(out)] if screenshot else []))
    assert proc.returncode == 2, proc.stderr
    assert "No query named 'nonexistent' in tiny" in proc.stderr
    assert not out.exists()
