"""The window's menus (with shortcuts) and right-click flag actions."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

if TYPE_CHECKING:
    from .mainwindow import MainWindow

__all__ = ["add_flag_actions", "build_menus"]


def _action(window: MainWindow, menu: QMenu, text: str, slot: Callable[..., Any],
            shortcut: Any = None, tip: str = "") -> QAction:
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    if tip:
        action.setStatusTip(tip)
    action.triggered.connect(slot)
    menu.addAction(action)
    return action


def build_menus(w: MainWindow) -> None:
    """File, View, Run, Flag and Help menus with their shortcuts."""
    mb = w.menuBar()
    f = mb.addMenu("&File")
    _action(w, f, "&Open benchmark folder…", w.picker.ask_benchmark_folder,
            QKeySequence.StandardKey.Open)
    _action(w, f, "Load &model file (.npz / TREC run)…", w.picker.ask_model_file, "Ctrl+M")
    _action(w, f, "Load &comparison model file (model B)…", w.picker.ask_model_b_file)
    f.addSeparator()
    _action(w, f, "&Export report…", w._on_export_triggered, "Ctrl+E",
            "JSON, CSV, Markdown or HTML, with or without flagged queries")
    _action(w, f, "Export &flags (CSV / JSONL)…", w._on_export_flags_triggered, "Ctrl+Shift+E")
    _action(w, f, "Export flagged query &ids (for --exclude-queries)…",
            w._on_export_ids_triggered)
    _action(w, f, "&Import flags…", w._on_import_flags_triggered)
    _action(w, f, "Use annotation &store file…", w._on_store_file_triggered)
    f.addSeparator()
    _action(w, f, "&Quit", w.close, QKeySequence.StandardKey.Quit)

    v = mb.addMenu("&View")
    _action(w, v, "&Search queries", w._on_search_triggered, QKeySequence.StandardKey.Find)
    _action(w, v, "&Next query", lambda: w._step_query(1), "Alt+Down")
    _action(w, v, "&Previous query", lambda: w._step_query(-1), "Alt+Up")
    _action(w, v, "Next &candidate", lambda: w._step_candidate(1), "Alt+Right")
    _action(w, v, "Previous c&andidate", lambda: w._step_candidate(-1), "Alt+Left")
    w.unified_action = _action(w, v, "&Unified diff", w._on_unified_toggled, "Ctrl+U")
    w.unified_action.setCheckable(True)
    _action(w, v, "&Inspect", lambda: w.tabs.setCurrentIndex(0), "Ctrl+1")
    _action(w, v, "&Metrics", lambda: w.tabs.setCurrentIndex(1), "Ctrl+2")
    v.addSeparator()
    for dock in (w.query_dock, w.tests_dock, w.flags_dock):
        v.addAction(dock.toggleViewAction())
    _action(w, v, "&Reset layout", w._on_reset_layout_triggered)

    r = mb.addMenu("&Run")
    _action(w, r, "&Run selected candidate", w.ins.run_selected, "F5")
    _action(w, r, "Run &top-k", lambda: w.ins.run_selected(everything=True), "Shift+F5")
    _action(w, r, "&Cancel", w.ins.cancel_run, "Esc")
    _action(w, r, "Compute &metrics", w._on_compute_triggered, "Ctrl+Shift+M")

    g = mb.addMenu("F&lag")
    _action(w, g, "&Flag…", w._on_flag_triggered, "Ctrl+D",
            "Flag the selected query, test or candidate")
    _action(w, g, "Show &flagged only", w._on_flagged_only_triggered, "Ctrl+Shift+F")

    h = mb.addMenu("&Help")
    _action(w, h, "&About", w._on_about_triggered)


def _context_flag(w: MainWindow, view: QWidget, text: str,
                  target: Callable[[], None]) -> None:
    """A right-click "Flag …" on a table: pick the target, then type the note."""
    action = QAction(text, view)

    def flag() -> None:
        target()
        w._on_flag_triggered()

    action.triggered.connect(flag)
    view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    view.addAction(action)


def add_flag_actions(w: MainWindow) -> None:
    """Right-click "Flag …" on the query, candidate and outcome tables."""
    _context_flag(w, w.browser.table, "Flag this query…",
                  lambda: w.flags.select_target("query"))
    _context_flag(w, w.candidates.table, "Flag this candidate…",
                  lambda: w.flags.select_target("candidate",
                                                corpus_id=w.candidates.current_corpus_id()))
    _context_flag(w, w.tests.outcome_table, "Flag this test…",
                  lambda: w.flags.select_target("test",
                                                w.tests.outcome_table.currentIndex().row()))
