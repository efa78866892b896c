"""The main window: docks and splitters (remembered), menus with shortcuts, status bar.

The window composes the panels around one :class:`~execretrieval_gui.state.InspectorState`:
each panel ``bind``s itself to the state (renders its signals, calls its methods), and the
window keeps only what is about the window — tabs, docks, the status bar, dialogs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QProgressBar,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from execretrieval import Benchmark, BenchmarkError, atomic_write_text

from . import (
    collector,
    engine,
    menus,
    qtcompat,  # noqa: F401  (before anything else touches Qt)
)
from .audit_state import AuditState
from .browser import QueryBrowser
from .candidates import CandidatesPanel
from .diffview import DiffView
from .docks import Dock
from .flagspanel import FlagsPanel
from .lazypage import LazyPage
from .nway import NWayRunner
from .picker import Picker
from .reporting import Reporter
from .slices import query_list_csv
from .state import InspectorState
from .styling import apply_style_sheet
from .tabs import SteadyTabWidget
from .testspanel import TestsPanel
from .workers import TaskSlot, wait_for_all

if TYPE_CHECKING:   # built when first shown or used: the first screen is the Inspect tab
    from .auditview import AuditView
    from .fromcode_dialog import BuildFromCodeDialog
    from .metricsview import MetricsView
    from .nwayview import NWayPanel

__all__ = ["MainWindow"]


def _dialogs() -> Any:
    """The dialogs module, loaded when a dialog is first wanted (not at start-up)."""
    from . import dialogs

    return dialogs


class MainWindow(QMainWindow):
    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("ExecRetrieval Inspector")
        self.settings = settings or QSettings()
        self.picker = Picker()
        self.browser = QueryBrowser()
        self.candidates = CandidatesPanel()
        self.diff = DiffView()
        self.tests = TestsPanel()
        self.flags = FlagsPanel()
        # the Metrics and Audit tabs build their views (and load their engine modules) when
        # first shown or used; ``metrics``, ``nway_panel`` and ``audit_view`` build them
        self.metrics_page = LazyPage(self._build_metrics)
        self.audit_page = LazyPage(self._build_audit_view)
        self._nway_panel: NWayPanel | None = None

        self.centre_split = QSplitter(Qt.Orientation.Vertical)
        self.centre_split.setObjectName("centreSplitter")
        self.centre_split.addWidget(self.candidates)
        self.centre_split.addWidget(self.diff)
        self.centre_split.setSizes([400, 340])
        self.tabs = SteadyTabWidget()
        self.tabs.setObjectName("centreTabs")
        self.tabs.addTab(self.centre_split, "Inspect")
        self.tabs.addTab(self.metrics_page, "Metrics")
        self.tabs.addTab(self.audit_page, "Audit")
        self._docks_before_metrics: list[QDockWidget] = []
        self.unified_action: QAction
        self.output_action: QAction
        self.undo_flag_action: QAction
        self.setCentralWidget(self.tabs)

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.setSpacing(0)
        ll.addWidget(self.picker)
        ll.addWidget(self.browser, 1)
        self.query_dock = self._dock("Queries", "queryDock", left,
                                     Qt.DockWidgetArea.LeftDockWidgetArea)
        self.tests_dock = self._dock("Tests", "testsDock", self.tests,
                                     Qt.DockWidgetArea.RightDockWidgetArea)
        self.flags_dock = self._dock("Flags", "flagsDock", self.flags,
                                     Qt.DockWidgetArea.RightDockWidgetArea)
        self._sized = False
        self._fitted_to_names = False
        self._centre_by_user = False   # the handle between candidates and diff was dragged
        self.centre_split.splitterMoved.connect(self._on_centre_moved)
        self.candidates.lists_stacked.connect(self._on_lists_stacked)

        self.state = InspectorState(self)
        self.audit_state = AuditState(self.state, self)
        self.reporter = Reporter(self.state, self)
        self.reporter.audit_source = lambda: self.audit_state.result
        self.nway = NWayRunner(self.state, self)
        self._build_status_bar()
        menus.build_menus(self, self.state)
        self._connect()
        apply_style_sheet()   # now, once the widgets are all in place: see styling
        self.resize(1280, 800)
        self._restored = self._restore_settings()

    def _dock(self, title: str, name: str, widget: QWidget,
              area: Qt.DockWidgetArea) -> QDockWidget:
        dock = Dock(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

    # chrome ---------------------------------------------------------------------------
    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.bench_label = QLabel("no benchmark")
        self.model_label = QLabel("")
        self.count_label = QLabel("")
        self.oracle_label = QLabel("oracle idle")
        self.export_progress = QProgressBar()
        self.export_progress.setMaximumWidth(160)
        self.export_progress.setMaximumHeight(14)
        self.export_progress.hide()
        self.export_cancel = QToolButton(text="✕")
        self.export_cancel.setToolTip("Cancel the export")
        self.export_cancel.hide()
        for w in (self.bench_label, self.model_label, self.count_label, self.oracle_label):
            w.setObjectName("statusField")
            bar.addPermanentWidget(w)
        bar.addPermanentWidget(self.export_progress)
        bar.addPermanentWidget(self.export_cancel)

    def _connect(self) -> None:
        state, reporter = self.state, self.reporter
        for panel in (self.picker, self.browser, self.candidates, self.diff, self.tests,
                      self.flags):
            panel.bind(state)
        self.audit_state.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        menus.add_context_flag(self.browser.table, "Flag this query…",
                               lambda: self.start_flag("query"))
        menus.add_context_flag(self.candidates.table, "Flag this candidate…",
                               lambda: self.start_flag("candidate",
                                                       corpus_id=state.corpus_id))
        menus.add_context_flag(self.tests.outcome_table, "Flag this test…",
                               lambda: self.start_flag("test",
                                                       self.tests.current_test_index()))
        self.diff.unified_button.toggled.connect(self.unified_action.setChecked)
        self.tests.outcome_table.doubleClicked.connect(
            lambda index: self.flags.select_target("test", index.row()))
        self.export_cancel.clicked.connect(reporter.cancel_export)
        self.browser.export_button.clicked.connect(self.export_query_list)
        state.slices.changed.connect(self._on_slices_changed)
        reporter.export_busy.connect(self.set_export_busy)
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        state.benchmark_loaded.connect(self._on_benchmark_loaded)
        state.query_ready.connect(self._on_query_ready)
        state.rankings_changed.connect(self._on_rankings_changed)
        state.message.connect(self._on_state_message)
        state.failed.connect(self._on_failed)
        state.rerun_offered.connect(self._on_rerun_offered)
        for slot in self._work_slots():
            slot.busy_changed.connect(self._on_work_changed)

    # the lazily built tabs -------------------------------------------------------------
    @property
    def metrics(self) -> MetricsView:
        """The Metrics tab's view (built now if it was not yet)."""
        return cast("MetricsView", self.metrics_page.widget())

    @property
    def nway_panel(self) -> NWayPanel:
        """The N-way comparison panel inside the Metrics tab."""
        self.metrics_page.widget()
        assert self._nway_panel is not None
        return self._nway_panel

    @property
    def audit_view(self) -> AuditView:
        """The Audit tab's view (built now if it was not yet)."""
        return cast("AuditView", self.audit_page.widget())

    def _build_metrics(self) -> QWidget:
        from .metricsview import MetricsView
        from .nwayview import NWayPanel

        state, reporter = self.state, self.reporter
        metrics = MetricsView()
        self._nway_panel = NWayPanel()
        metrics.add_panel(self._nway_panel)
        metrics.bind(state, reporter)
        self._nway_panel.bind(self.nway)
        metrics.query_clicked.connect(self._on_metrics_query_clicked)
        metrics.discordant_requested.connect(self._on_discordant_requested)
        value = self.settings.value(f"splitters/{metrics.splitter.objectName()}")
        if isinstance(value, QByteArray | bytes):
            metrics.splitter.restoreState(QByteArray(value))
        return metrics

    def _build_audit_view(self) -> QWidget:
        from .auditview import AuditView

        audit = self.audit_state
        view = AuditView()
        view.bind(audit)
        view.inspect_requested.connect(
            lambda query_id: (self.state.select_query(query_id), self.show_tab(0)))
        return view

    # settings -------------------------------------------------------------------------
    def _default_sizes(self) -> None:
        """Dock sizes for a fresh layout, from the window's size (docks only take sizes once
        shown): the query list wide enough for whole function names, with the domains if
        there is room (a fifth to a third of the width), the tests a bit over a quarter, the
        centre the rest."""
        w, h = max(self.width(), 640), max(self.height(), 480)
        cap = int((0.34 if w >= 1200 else 0.3) * w)
        wanted = self.browser.preferred_width()
        if wanted > cap:
            wanted = self.browser.preferred_width(domain=False)
        left = max(int(0.2 * w), min(wanted, cap))
        right = max(280, min(int(0.28 * w), 560))
        self.resizeDocks([self.query_dock, self.tests_dock], [left, right],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([self.tests_dock, self.flags_dock], [int(0.66 * h), int(0.3 * h)],
                         Qt.Orientation.Vertical)
        self._centre_by_user = False
        # the panes' space, as _on_lists_stacked measures it (the handle is not theirs: given
        # its 4 px too, setSizes scales both panes down and the handle lands 2 px higher)
        self._fit_centre(sum(self.centre_split.sizes()) or int(0.85 * h))

    def _fit_centre(self, centre: int) -> None:
        """Candidates over diff: the title and up to a dozen candidate rows, never more than
        half the height; A's and B's lists stacked, three fifths (half a dozen rows each at
        1024x700; the diff keeps a mutant's few lines)."""
        table = 70 + 24 + 22 * 12
        lists = int(0.6 * centre) if self.candidates.stacked() else min(table, centre // 2)
        self.centre_split.setSizes([lists, centre - lists])

    def _on_lists_stacked(self, _stacked: bool) -> None:
        if not self._centre_by_user and self._sized:
            self._fit_centre(sum(self.centre_split.sizes()))

    def _on_centre_moved(self, _pos: int, _index: int) -> None:
        self._centre_by_user = True

    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            self._default_state = self.saveState()
            if not self._restored:
                self._default_sizes()

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        """Side docks keep their share of the width (Qt would give it all to the centre)."""
        super().resizeEvent(event)
        old, new = event.oldSize().width(), event.size().width()
        if not self._sized or old <= 0 or old == new:
            return
        docks = [d for d in (self.query_dock, self.tests_dock)
                 if d.isVisible() and not d.isFloating()]
        if docks:
            self.resizeDocks(docks, [max(120, round(d.width() * new / old)) for d in docks],
                             Qt.Orientation.Horizontal)

    def _restore_settings(self) -> bool:
        """Apply the remembered layout; False if there was none."""
        s = self.settings
        restored = False
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray | bytes):
            self.restoreGeometry(QByteArray(geometry))
        state = s.value("window/state")
        if isinstance(state, QByteArray | bytes):
            restored = self.restoreState(QByteArray(state))
        value = s.value(f"splitters/{self.centre_split.objectName()}")
        if isinstance(value, QByteArray | bytes):   # the metrics one: when that tab is built
            self.centre_split.restoreState(QByteArray(value))
        self.diff.set_unified(s.value("diff/unified", False, type=bool))
        self.diff.set_folded(s.value("diff/fold", False, type=bool))
        self.unified_action.setChecked(self.diff.unified)
        self.candidates.depth_box.setValue(int(s.value("candidates/depth", 10, type=int)))
        self.state.set_depth(self.candidates.depth_box.value())
        self.state.slices.load_json(s.value("slices/saved", "", type=str))
        store = s.value("annotations/file", "", type=str)
        if store:
            self.state.use_store_file(store)
        annotator = s.value("annotations/annotator", "", type=str)
        if annotator:
            self.state.set_annotator(annotator)
        return restored

    def save_settings(self) -> None:
        s = self.settings
        self._restore_inspect_docks()   # remember the inspect layout, not the metrics one
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        splits = [self.centre_split] + ([self.metrics.splitter]
                                        if self.metrics_page.is_built else [])
        for split in splits:   # an unbuilt tab's splitter keeps its remembered state
            s.setValue(f"splitters/{split.objectName()}", split.saveState())
        s.setValue("diff/unified", self.diff.unified)
        s.setValue("diff/fold", self.diff.folded)
        s.setValue("candidates/depth", self.candidates.depth_box.value())
        s.setValue("annotations/annotator", self.state.annotator)
        state = self.state
        if state.benchmark is not None and state.benchmark.path is not None:
            s.setValue("session/benchmark", str(Path(state.benchmark.path).resolve()))
        if state.model_a:   # a model file by its absolute path, a name as it is
            model = Path(state.model_a).expanduser()
            s.setValue("session/model", str(model.resolve()) if model.is_file()
                       else state.model_a)
        if state.query_id:
            s.setValue("session/query", state.query_id)
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # Qt override
        self.save_settings()
        self.state.shutdown()
        self.audit_state.cancel()
        self.reporter.cancel()
        self.nway.cancel()
        wait_for_all(15000)
        self.state.close_oracles()
        super().closeEvent(event)

    # public ---------------------------------------------------------------------------
    def open(self, path: str | Path | None = None, model: str | None = None,
             query: str | None = None) -> None:
        """Open ``path``, a folder or a bundled benchmark's name (else the last session's,
        else the first bundled benchmark).

        A ``path`` that names no benchmark, or a folder that does not load, gets one dialog
        and the bundled benchmark opens instead: the window never stays empty.
        """
        s = self.settings
        bundled = engine.bundled_benchmarks()
        choices = engine.benchmark_choices()
        fallback = bundled[0] if bundled else None
        problem = ""
        if path is not None:
            try:
                path = engine.resolve(path)
            except BenchmarkError as exc:
                problem = str(exc)   # neither a folder nor a bundled name: the fallback opens
        if path is None:
            last = s.value("session/benchmark", "", type=str)
            # only an absolute path: a relative one would silently open another copy
            ok = bool(last) and Path(last).is_absolute() and Path(last).is_dir()
            path = last if ok else fallback
            if ok:
                model = model or s.value("session/model", "", type=str) or None
                query = query or s.value("session/query", "", type=str) or None
        elif problem or not Path(path).is_dir():
            text = (problem or f"{path}: no such benchmark folder").rstrip(".") + "."
            if fallback is not None:
                text += f" Opening the bundled benchmark {fallback.name} instead."
            self.state.argument_rejected.emit(text)
            self.state.failed.emit("No such folder", text)
            path, query = fallback, None
        self.picker.set_benchmarks(choices, Path(path) if path else None)
        if path is None:
            self.statusBar().showMessage("No benchmark: open a folder with Ctrl+O")
            return
        self.state.open_benchmark(path, model=model, query=query,
                                  fallback=fallback if Path(path) != fallback else None)

    def set_export_busy(self, busy: bool, done: int = 0, total: int = 0) -> None:
        self.export_progress.setVisible(busy)
        self.export_cancel.setVisible(busy)
        self.export_progress.setRange(0, total if total > 1 else 0)
        if total > 1:
            self.export_progress.setValue(done)

    # slots ----------------------------------------------------------------------------
    def _on_benchmark_loaded(self, bench: Benchmark) -> None:
        if not self._restored and not self._fitted_to_names and self._sized:
            self._fitted_to_names = True   # the first benchmark's names size a fresh layout
            self._default_sizes()
        self.bench_label.setText(f"{bench.name}")
        self.count_label.setText(f"{len(bench.queries)} queries · {len(bench.corpus)} snippets")
        self.model_label.setText("")
        self.setWindowTitle(f"{bench.name} — ExecRetrieval Inspector")

    def _on_tabs_current_changed(self, index: int) -> None:
        """The metrics and audit views need the width: the tests and flags docks step aside,
        and on the Audit tab (its own queue of suites) the query list too."""
        if index == 0:
            self._restore_inspect_docks()
            return
        aside = [self.tests_dock, self.flags_dock] + ([self.query_dock] if index == 2 else [])
        for dock in aside:
            if dock.isVisible() and not dock.isFloating():
                self._docks_before_metrics.append(dock)
                dock.hide()
        if index != 2 and self.query_dock in self._docks_before_metrics:
            self._docks_before_metrics.remove(self.query_dock)   # the Metrics tab uses it
            self.query_dock.show()

    def _restore_inspect_docks(self) -> None:
        for dock in self._docks_before_metrics:
            dock.show()
        self._docks_before_metrics = []

    def _on_query_ready(self, _query_id: str) -> None:
        collector.release()   # the start is over: see collector (a no-op from then on)

    def _on_rankings_changed(self, a: str, b: str) -> None:
        self.model_label.setText(f"model {a} vs {b}" if b else f"model {a}")

    def _work_slots(self) -> list[TaskSlot]:
        """Every kind of background work the status bar reports (the audit's too)."""
        return (self.state.slots() + self.reporter.slots() + self.nway.slots()
                + [self.audit_state.slot])

    def _on_work_changed(self, _busy: bool) -> None:
        running = [s.name for s in self._work_slots() if s.busy]
        self.oracle_label.setText("busy: " + ", ".join(running) if running else "oracle idle")

    def _on_failed(self, title: str, text: str) -> None:
        _dialogs().show_error(self, title, text)

    def _on_state_message(self, text: str) -> None:
        """The status bar elides a long message: its tooltip keeps it whole."""
        bar = self.statusBar()
        bar.showMessage(text, 15000 if ":" in text else 8000)
        bar.setToolTip(text)

    def _on_rerun_offered(self, text: str, everything: bool) -> None:
        _dialogs().ask_rerun(self, text,
                          lambda: self.state.run_selected(everything=everything, force=True))

    def _on_metrics_query_clicked(self, query_id: str) -> None:
        self.state.select_query(query_id)
        self.tabs.setCurrentIndex(0)

    def _on_discordant_requested(self, ids: set[str]) -> None:
        self.browser.show_only(ids, f"{len(ids)} discordant queries (A vs B)")
        self.tabs.setCurrentIndex(0)

    # actions (the menus call these) ---------------------------------------------------
    def show_tab(self, index: int) -> None:
        self.tabs.setCurrentIndex(index)

    def next_unreviewed(self) -> None:
        """Ctrl+N from anywhere: the Audit tab, on its next suspect suite not yet reviewed."""
        self.show_tab(2)
        if self.audit_state.result is None:
            self.statusBar().showMessage("Run the audit first: its queue is what Ctrl+N "
                                         "steps through", 8000)
            return
        self.audit_state.next_unreviewed()

    def search_queries(self) -> None:
        self.query_dock.show()
        self.browser.focus_search()

    def step_query(self, step: int) -> None:
        """The next (``step`` > 0) or previous query in the browser's filtered order."""
        table = self.browser.table
        row = table.currentIndex().row() + step
        if 0 <= row < self.browser.proxy.rowCount():
            table.setCurrentIndex(self.browser.proxy.index(row, 0))

    def set_unified(self, checked: bool) -> None:
        self.diff.set_unified(checked)

    def step_change(self, step: int) -> None:
        """Scroll the diff to its next (``step`` > 0) or previous change."""
        self.diff.step_change(step)

    def reset_layout(self) -> None:
        for dock in (self.query_dock, self.tests_dock, self.flags_dock):
            dock.setFloating(False)
            dock.show()
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.query_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.tests_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.flags_dock)
        self._default_sizes()

    def compute_metrics(self) -> None:
        self.tabs.setCurrentIndex(1)
        self.reporter.compute(self.metrics.exclude_box.isChecked())

    def start_flag(self, target: str = "", test_index: int | None = None,
                   corpus_id: str | None = None) -> None:
        """Show the flags panel with ``target`` chosen, the note focused.

        Without a target (Ctrl+D) the selected test is flagged if one is selected in the
        tests panel, else the query's suite; a candidate is flagged only when asked for.
        """
        if not target:
            row = self.tests.current_test_index()
            target, test_index = ("test", row) if row >= 0 else ("query", None)
        self.flags.select_target(target, test_index, corpus_id)
        if self.tabs.currentIndex() != 0:
            self.tabs.setCurrentIndex(0)
        self.flags_dock.show()
        self.flags_dock.raise_()
        self.flags.note.setFocus()

    def toggle_flagged_only(self) -> None:
        self.browser.flagged_box.toggle()

    def ask_benchmark_folder(self) -> None:
        self.picker.ask_benchmark_folder()

    def ask_model_file(self, which: str = "a") -> None:
        if which == "a":
            self.picker.ask_model_file()
        else:
            self.picker.ask_model_b_file()

    def ask_pool_file(self) -> None:
        path = _dialogs().ask_pool_file(self)
        if path:
            self.state.use_pool(path)

    def build_from_code(self) -> BuildFromCodeDialog:
        """File ▸ Build from code…: the dialog (not modal); the built benchmark opens."""
        from .fromcode_dialog import BuildFromCodeDialog

        dialog = BuildFromCodeDialog(self)
        dialog.built.connect(self.open)
        dialog.show()
        return dialog

    def export_report(self) -> None:
        choice = _dialogs().ask_export(self)
        if choice is not None:
            self.reporter.export(*choice)

    def export_query_list(self) -> None:
        """The queries the list shows now (filtered, in its order) to a CSV file."""
        state = self.state
        if state.benchmark is None:
            return
        path = _dialogs().ask_csv_path(self, f"{state.benchmark.name}-queries.csv")
        if not path:
            return
        ids = self.browser.visible_query_ids()
        try:
            atomic_write_text(path, query_list_csv(state.benchmark, ids, state.status_a,
                                                   state.flagged_query_ids()))
        except OSError as exc:
            state.failed.emit("Cannot write the query list", f"{path}: {exc}")
            return
        state.message.emit(f"{len(ids)} queries written to {path}")

    def _on_slices_changed(self, _named: object) -> None:
        text = self.state.slices.to_json()
        if text == (self.settings.value("slices/saved", "", type=str) or "[]"):
            return   # as stored (the slices just loaded at start): no file to write
        self.settings.setValue("slices/saved", text)
        self.settings.sync()

    def export_flags(self) -> None:
        _dialogs().export_flags(self, self.state.store)

    def export_flag_ids(self) -> None:
        _dialogs().export_flag_ids(self, self.state.store)

    def import_flags(self) -> None:
        if _dialogs().import_flags(self, self.state.store):
            self.state.refresh_flags()

    def choose_store_file(self) -> None:
        path = _dialogs().ask_store_file(self)
        if path:
            self.settings.setValue("annotations/file", path)
            self.state.use_store_file(path)

    def about(self) -> None:
        """Help > About: version, Python, Qt, extras and the oracle's containment."""
        from .about import AboutDialog

        AboutDialog(self).open()
