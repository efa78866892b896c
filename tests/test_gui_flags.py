"""Flags in the window: Ctrl+D flags the suite (or the selected test), remove is undone by
Ctrl+Z, flags carry an annotator and a status, and stay (stale) when their query changes."""
# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import shutil
from pathlib import Path

from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from conftest import edit_jsonl_line


def _shortcut(window, text: str) -> QAction:  # type: ignore[no-untyped-def]
    [action] = [a for a in window.findChildren(QAction) if a.text() == text]
    return action


def test_ctrl_d_flags_the_suite_or_the_selected_test_and_ctrl_z_undoes_remove(
        qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    window.candidates.select_corpus_id("c_0004")        # a candidate is selected...
    flag_action = _shortcut(window, "&Flag…")
    assert flag_action.shortcut().toString() == "Ctrl+D"
    flag_action.trigger()
    assert window.flags.target_box.currentData() == "query"   # ...but the suite is flagged
    window.flags.annotator.setText("alice")
    window.flags.annotator.editingFinished.emit()
    qtbot.keyClicks(window.flags.note, "0 is never tested")
    qtbot.keyClick(window.flags.note, Qt.Key.Key_Return)
    window.tests.outcome_table.setCurrentIndex(window.tests.outcome_table.model().index(1, 0))
    flag_action.trigger()
    assert window.flags.target_box.currentData() == "test:1"
    qtbot.keyClick(window.flags.note, Qt.Key.Key_Return)
    first, second = window.flags.model.items
    assert (first.target, first.annotator, first.status) == ("query", "alice", "open")
    assert (second.target, second.test) == ("test", 2)

    undo = _shortcut(window, "&Undo remove flag")
    assert undo.shortcut().toString() == "Ctrl+Z" and not undo.isEnabled()
    window.flags.table.setCurrentIndex(window.flags.model.index(0, 0))
    qtbot.mouseClick(window.flags.resolve_button, Qt.MouseButton.LeftButton)
    assert window.flags.model.items[0].status == "resolved"
    window.flags.table.setCurrentIndex(window.flags.model.index(0, 0))
    qtbot.mouseClick(window.flags.remove_button, Qt.MouseButton.LeftButton)
    assert [f.target for f in window.flags.model.items] == ["test"]
    assert undo.isEnabled()
    undo.trigger()
    assert [f.flag_id for f in window.flags.model.items] == [first.flag_id, second.flag_id]
    assert window.flags.model.items[0].status == "resolved"
    assert not undo.isEnabled()
    # flagging a candidate stays possible
    _shortcut(window, "Flag the selected &candidate…").trigger()
    assert window.flags.target_box.currentData() == "candidate:c_0004"


def test_flag_goes_stale_in_the_window_when_its_query_is_edited(
        qtbot, make_window, tiny_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "bench"
    shutil.copytree(tiny_dir, folder)
    window = open_and_wait(qtbot, make_window(), folder, query="lowest_set_bit")
    window.start_flag()
    qtbot.keyClick(window.flags.note, Qt.Key.Key_Return)
    window.close()
    edit_jsonl_line(folder / "queries.jsonl", 1, lambda q: q.update(query=q["query"] + " !"))
    again = open_and_wait(qtbot, make_window(), folder, query="lowest_set_bit")
    [flag] = again.flags.model.items
    assert flag.stale
    assert again.flags.model.index(0, 4).data() == "open · stale"
    assert "changed since flagged" in again.flags.store_label.text()


def test_import_says_what_it_skipped(qtbot, make_window, tiny_dir: Path, tmp_path: Path,
                                     monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    src = tmp_path / "in.csv"
    src.write_text("query_id,category,test,note\nq_0001,other,2,ok\nq_0099,other,,gone\n")
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(src), "")))
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "information",
                        staticmethod(lambda _parent, _title, text: shown.append(text)))
    window.import_flags()
    [flag] = window.flags.model.items
    assert (flag.test, flag.note) == (2, "ok")
    assert "1 new flag imported" in shown[0] and "line 3: no query q_0099 in tiny" in shown[0]
