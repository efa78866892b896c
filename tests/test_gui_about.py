"""The inspector as an installed tool: bundled benchmarks by name, the recent list behind
the picker, no argument opens builtin, and Help > About."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

from pathlib import Path

from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6 import __version__ as pyside_version
from PySide6.QtCore import qVersion
from PySide6.QtGui import QGuiApplication

from conftest import copy_tiny
from execretrieval import Oracle, __version__, bundled_benchmarks, read_recent
from execretrieval_gui.about import AboutDialog
from execretrieval_gui.picker import folder_label


def _picker_items(window) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    box = window.picker.benchmark_box
    return [(box.itemText(i), str(box.itemData(i))) for i in range(box.count())]


def test_no_argument_opens_builtin_and_a_name_opens_a_bundled_one(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = open_and_wait(qtbot, make_window(), None)
    bundled = bundled_benchmarks()
    assert window.state.benchmark.path == bundled["builtin"]
    assert len(window.state.benchmark.queries) == 160
    open_and_wait(qtbot, window, "tiny", query="lowest_set_bit")
    assert window.state.benchmark.path == bundled["tiny"]
    # the picker shows each bundled benchmark once, by name and folder, the loaded one selected
    assert _picker_items(window) == [(folder_label(path), str(path))
                                     for path in bundled.values()]
    assert window.picker.benchmark_box.currentText().split()[0] == "tiny"
    assert read_recent() == []          # bundled ones are always listed, never "recent"


def test_an_opened_folder_is_remembered_and_offered_next_time(qtbot, make_window,  # type: ignore[no-untyped-def]
                                                              tmp_path: Path,
                                                              tiny_dir: Path) -> None:
    mine = copy_tiny(tiny_dir, tmp_path)
    open_and_wait(qtbot, make_window(), mine)
    assert [path for path, _ in read_recent()] == [mine.resolve()]
    later = open_and_wait(qtbot, make_window(), "tiny")
    items = _picker_items(later)   # bundled first, then what was opened before
    assert items == [(folder_label(path), str(path)) for path in bundled_benchmarks().values()] \
        + [(folder_label(mine), str(mine.resolve()))]


def test_about_shows_versions_extras_and_the_oracles_containment(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.containment is not None, timeout=60000)
    with Oracle(cache=None, workers=1) as oracle:
        expected = oracle.containment()
    assert dialog.containment == expected
    table = dialog.table
    shown = {table.item(r, 0).text(): table.item(r, 1).text() for r in range(table.rowCount())}
    assert set(shown) == set(expected)
    for key, value in expected.items():
        assert shown[key] == ("yes" if value is True else "no" if value is False else str(value))
    assert dialog.facts["Version"] == __version__
    assert dialog.facts["Qt"] == f"{qVersion()} (PySide6 {pyside_version})"
    assert "dense yes" in dialog.facts["Extras"] and "humaneval yes" in dialog.facts["Extras"]
    dialog.copy_button.click()
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith(f"Version: {__version__}\n") and "  rlimits: " in copied


def test_help_about_opens_the_dialog(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    about = next(a for a in help_menu.actions() if a.text() == "&About")
    about.trigger()
    dialog = window.findChild(AboutDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.containment is not None, timeout=60000)
    dialog.close()
