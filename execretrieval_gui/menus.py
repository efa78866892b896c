"""The window's menus (with shortcuts) and right-click flag actions.

Actions on what is loaded or selected go to the :class:`~execretrieval_gui.state.InspectorState`;
actions on the window itself (tabs, docks, dialogs) go to the window's public methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

if TYPE_CHECKING:
    from .mainwindow import MainWindow
    from .state import InspectorState

__all__ = ["add_context_flag", "build_menus"]


def _action(window: QWidget, menu: QMenu, text: str, slot: Callable[..., Any],
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


def build_menus(w: MainWindow, state: InspectorState) -> None:
    """File, View, Run, Flag and Help menus with their shortcuts."""
    mb = w.menuBar()
    f = mb.addMenu("&File")
    _action(w, f, "&Open benchmark folder…", w.ask_benchmark_folder,
            QKeySequence.StandardKey.Open)
    _action(w, f, "Load &model file (.npz / TREC run)…", lambda: w.ask_model_file("a"),
            "Ctrl+M")
    _action(w, f, "Load &comparison model file (model B)…", lambda: w.ask_model_file("b"))
    _action(w, f, "Encode with a &served model…", w.picker.served_requested.emit,
            tip="Embed the benchmark through an OpenAI-compatible API (vLLM, TEI, OpenAI …)")
    _action(w, f, "Use &background pool…", w.ask_pool_file,
            tip="Join a pool of real functions (execretrieval pool) to the corpus")
    _action(w, f, "Build from &code…", w.build_from_code,
            tip="A benchmark from a package's or folder's documented functions "
                "(execretrieval build-from-code), opened when built")
    f.addSeparator()
    _action(w, f, "&Export report…", w.export_report, "Ctrl+E",
            "JSON, CSV, Markdown or HTML, with or without flagged queries")
    _action(w, f, "Export &flags (CSV / JSONL)…", w.export_flags, "Ctrl+Shift+E")
    _action(w, f, "Export flagged query &ids (for --exclude-queries)…", w.export_flag_ids)
    _action(w, f, "&Import flags…", w.import_flags)
    _action(w, f, "Use annotation &store file…", w.choose_store_file)
    f.addSeparator()
    _action(w, f, "&Quit", w.close, QKeySequence.StandardKey.Quit)

    v = mb.addMenu("&View")
    _action(w, v, "&Search queries", w.search_queries, QKeySequence.StandardKey.Find)
    _action(w, v, "&Next query", lambda: w.step_query(1), "Alt+Down")
    _action(w, v, "&Previous query", lambda: w.step_query(-1), "Alt+Up")
    _action(w, v, "Next &candidate", lambda: state.step_candidate(1), "Alt+Right")
    _action(w, v, "Previous c&andidate", lambda: state.step_candidate(-1), "Alt+Left")
    w.unified_action = _action(w, v, "&Unified diff", w.set_unified, "Ctrl+U")
    w.unified_action.setCheckable(True)
    # plain letters: a text field that has the focus keeps them (Qt's shortcut override)
    _action(w, v, "Ne&xt change in the diff", lambda: w.step_change(1), "N")
    _action(w, v, "Pre&vious change in the diff", lambda: w.step_change(-1), "P")
    _action(w, v, "&Inspect", lambda: w.show_tab(0), "Ctrl+1")
    _action(w, v, "&Metrics", lambda: w.show_tab(1), "Ctrl+2")
    _action(w, v, "Au&dit", lambda: w.show_tab(2), "Ctrl+3",
            "Suites ranked by how suspect they are (mutation analysis)")
    _action(w, v, "Next unre&viewed suite", w.next_unreviewed, "Ctrl+N",
            "The Audit tab's next suspect suite not yet looked at")
    w.output_action = _action(w, v, "Show test &output", w.tests.set_output_shown,
                              "Ctrl+Shift+O", "What the selected test printed (stdout and "
                                              "stderr), below the tests")
    w.output_action.setCheckable(True)
    w.tests.output_button.toggled.connect(w.output_action.setChecked)
    v.addSeparator()
    for dock in (w.query_dock, w.tests_dock, w.flags_dock):
        v.addAction(dock.toggleViewAction())
    _action(w, v, "&Reset layout", w.reset_layout)

    r = mb.addMenu("&Run")
    _action(w, r, "&Run selected candidate", lambda: state.run_selected(), "F5")
    _action(w, r, "Run &top-k", lambda: state.run_selected(everything=True), "Shift+F5")
    _action(w, r, "&Cancel", state.cancel_run, "Esc")
    _action(w, r, "Compute &metrics", w.compute_metrics, "Ctrl+Shift+M")

    g = mb.addMenu("F&lag")
    _action(w, g, "&Flag…", lambda: w.start_flag(), "Ctrl+D",
            "Flag the query's suite, or the test selected in the tests panel")
    _action(w, g, "Flag the selected &candidate…",
            lambda: w.start_flag("candidate", corpus_id=state.corpus_id), "Ctrl+Shift+D")
    w.undo_flag_action = _action(w, g, "&Undo remove flag", state.undo_remove,
                                 QKeySequence.StandardKey.Undo, "Put the removed flag back")
    w.undo_flag_action.setEnabled(False)
    state.undo_changed.connect(w.undo_flag_action.setEnabled)
    _action(w, g, "Show &flagged only", w.toggle_flagged_only, "Ctrl+Shift+F")

    h = mb.addMenu("&Help")
    _action(w, h, "&About", w.about)


def add_context_flag(view: QWidget, text: str, flag: Callable[[], None]) -> None:
    """A right-click "Flag …" on a table: ``flag`` picks the target and opens the note."""
    action = QAction(text, view)
    action.triggered.connect(flag)
    view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    view.addAction(action)
