"""The Audit tab: suites ranked by how suspect they are, and the evidence for one of them.

Left, the queue (most suspect first, with reasons; reviewed ones ticked). Right, for the
selected suite: its reasons, the surviving mutants with the selected one's diff against the
canonical (the evidence of a weak suite) and its verdict from the input engine (likely
equivalent survivors greyed, with the reason), the suggested tests with the mutants each
kills, and the test x mutant kill matrix. "Flag suite as too weak" flags the query with
the surviving mutant in the note; "Flag with suggestion" with the selected suggested test;
"Add to a copy…" writes the benchmark with every suggested test appended to a new folder
and runs the five gates on it; "Next unreviewed" (Ctrl+N, from anywhere in the window: the
View menu's action) moves to the next suspect suite not yet looked at; a double click opens
the query in the
Inspect tab.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from . import diffing
from .audit_models import AuditQueueModel, KillMatrixModel, SuggestedTestsModel, SurvivorsModel
from .columns import ColumnFitter, text_width
from .models import OBJECT_ROLE

if TYPE_CHECKING:
    from execretrieval.audit import AuditResult, QueryAudit

    from .audit_state import AuditState

__all__ = ["AuditView"]


def _table(model: Any, name: str) -> QTableView:
    table = QTableView()
    table.setObjectName(name)
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.verticalHeader().setDefaultSectionSize(21)
    table.setWordWrap(False)
    return table


class AuditView(QWidget):
    """Renders an :class:`AuditState`; user actions go back to it. Double-clicking a queued
    suite asks (``inspect_requested``) to open that query in the Inspect tab."""

    inspect_requested = Signal(str)   # query id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state: AuditState | None = None
        self.queue = AuditQueueModel(self)
        self.survivors = SurvivorsModel(self)
        self.suggested = SuggestedTestsModel(self)
        self.matrix = KillMatrixModel(self)

        self.run_button = QPushButton("Run audit")
        self.run_button.setObjectName("auditRun")
        self.run_button.setToolTip("Run every single-edit mutant of each canonical against "
                                   "its tests, and the canonical under several hash seeds")
        self.seeds_box = QSpinBox()
        self.seeds_box.setRange(0, 50)
        self.seeds_box.setPrefix("hash seeds: ")
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        self.summary = QLabel("Run the audit to rank this benchmark's suites by how suspect "
                              "they are.")
        self.summary.setObjectName("auditSummary")
        # on its own line under the buttons, wrapped: every figure readable at any width
        self.summary.setWordWrap(True)
        self.summary.setMinimumWidth(80)   # never widens the window: it wraps instead
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.next_button = QPushButton("Next unreviewed (Ctrl+N)")
        self.next_button.setObjectName("auditNext")
        self.flag_button = QPushButton("Flag suite as too weak")
        self.flag_button.setObjectName("auditFlag")
        self.flag_button.setToolTip("Flag the query's suite 'Test too weak', the selected "
                                    "surviving mutant attached to the note")

        self.queue_table = _table(self.queue, "auditQueue")
        # number, name and figures as wide as their text (headers unclipped); the reasons
        # take the rest, and short of room step aside first (they are in the pane on the
        # right and each row's tooltip), then a long name is cut at its end, never its start
        self.queue_fitter = ColumnFitter(self.queue_table, shrink=((5, 0), (1, 120)),
                                         grow=5, whole=(5,))
        self.queue_table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.queue_table.viewport().installEventFilter(self)
        self.queue_table.verticalHeader().hide()
        self.reasons = QLabel()
        self.reasons.setObjectName("auditReasons")
        self.reasons.setWordWrap(True)
        self.reasons.setTextFormat(Qt.TextFormat.RichText)
        self.reasons.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.reasons.setMinimumWidth(60)
        # reasons longer than their pane scroll there (never cut off unreadable)
        self.reasons_area = QScrollArea()
        self.reasons_area.setObjectName("auditReasonsArea")
        self.reasons_area.setWidget(self.reasons)
        self.reasons_area.setWidgetResizable(True)
        self.reasons_area.setFrameShape(QFrame.Shape.NoFrame)
        self.reasons_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.survivor_table = _table(self.survivors, "auditSurvivors")
        self.survivor_table.verticalHeader().hide()
        # bug type, verdict and line whole; the edit takes the rest and is elided first
        # (whole in the row's tooltip and in the diff below), then a long bug type
        self.survivor_fitter = ColumnFitter(self.survivor_table, shrink=((3, 120), (0, 100)),
                                            grow=3)
        self.survivor_table.viewport().installEventFilter(self)
        self.suggested_table = _table(self.suggested, "auditSuggested")
        self.suggested_table.verticalHeader().hide()
        # the test and the mutants it kills share the width, the test first (both whole in
        # the row's tooltip)
        self.suggested_fitter = ColumnFitter(self.suggested_table, shrink=((1, 120), (0, 160)),
                                             grow=0)
        self.suggested_table.viewport().installEventFilter(self)
        self.suggested_label = QLabel("Suggested tests")
        self.suggested_label.setObjectName("auditSuggestedLabel")
        self.copy_button = QPushButton("Add to a copy…")
        self.copy_button.setObjectName("auditCopy")
        self.copy_button.setToolTip("Write the benchmark with every suggested test appended "
                                    "to a new folder (this one stays untouched) and run "
                                    "the five gates on it")
        self.flag_suggestion_button = QPushButton("Flag with suggestion")
        self.flag_suggestion_button.setObjectName("auditFlagSuggestion")
        self.flag_suggestion_button.setToolTip("Flag the query's suite 'Test too weak' with "
                                               "the selected suggested test in the note")
        suggested_box = QWidget()
        box = QVBoxLayout(suggested_box)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        row = QHBoxLayout()
        self.suggested_label.setMinimumWidth(40)
        self.suggested_label.setSizePolicy(QSizePolicy.Policy.Ignored,
                                           QSizePolicy.Policy.Preferred)
        row.addWidget(self.suggested_label, 1)
        row.addWidget(self.flag_suggestion_button)
        row.addWidget(self.copy_button)
        box.addLayout(row)
        box.addWidget(self.suggested_table)
        self.diff = QTextBrowser()
        self.diff.setObjectName("auditDiff")
        # the verdict above the diff wraps; code lines (white-space: pre) never do
        self.diff.setLineWrapMode(QTextBrowser.LineWrapMode.WidgetWidth)
        self.matrix_table = QTableView()
        self.matrix_table.setObjectName("auditMatrix")
        self.matrix_table.setModel(self.matrix)
        self.matrix_table.horizontalHeader().setDefaultSectionSize(30)
        self.matrix_table.verticalHeader().setDefaultSectionSize(20)

        # The tab may be as narrow as the Inspect tab (the pages of a tab widget share one
        # minimum width; the window opens at 1024 px with both docks): the controls may
        # shrink rather than widen the window. On the Audit tab itself the side docks step
        # aside (MainWindow), so at 1024 px and up every button has its whole text.
        for w in (self.run_button, self.seeds_box, self.progress, self.cancel_button,
                  self.next_button, self.flag_button, self.copy_button,
                  self.flag_suggestion_button):
            w.setMinimumWidth(24)
        self.queue_table.setMinimumWidth(60)
        buttons = QHBoxLayout()
        for w in (self.run_button, self.seeds_box, self.progress, self.cancel_button):
            buttons.addWidget(w)
        buttons.addStretch(1)
        buttons.addWidget(self.next_button)
        buttons.addWidget(self.flag_button)
        top = QVBoxLayout()
        top.setSpacing(2)
        top.addLayout(buttons)
        top.addWidget(self.summary)
        evidence = QSplitter(Qt.Orientation.Vertical)
        evidence.addWidget(self.reasons_area)
        evidence.addWidget(self.survivor_table)
        evidence.addWidget(suggested_box)
        evidence.addWidget(self.diff)
        evidence.addWidget(self.matrix_table)
        evidence.setSizes([96, 130, 96, 200, 130])   # the reasons: two wrapped bullets
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("auditSplitter")
        self.splitter.addWidget(self.queue_table)
        self.splitter.addWidget(evidence)
        self.splitter.setSizes([520, 560])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)

        self._set_enabled(False)

    def _set_enabled(self, has_result: bool) -> None:
        self.next_button.setEnabled(has_result)
        self.flag_button.setEnabled(has_result)
        self.copy_button.setEnabled(has_result)
        self.flag_suggestion_button.setEnabled(has_result)

    # the state ------------------------------------------------------------------------
    def bind(self, state: AuditState) -> None:
        self.state = state
        self.seeds_box.setValue(state.seeds)
        self.run_button.clicked.connect(lambda: state.run(self.seeds_box.value()))
        self.cancel_button.clicked.connect(state.cancel)
        self.next_button.clicked.connect(state.next_unreviewed)
        self.flag_button.clicked.connect(self._on_flag_clicked)
        self.flag_suggestion_button.clicked.connect(self._on_flag_suggestion_clicked)
        self.copy_button.clicked.connect(self._on_copy_clicked)
        self.queue_table.selectionModel().currentRowChanged.connect(self._on_queue_row_changed)
        self.queue_table.doubleClicked.connect(
            lambda index: self.inspect_requested.emit(index.data(OBJECT_ROLE).query_id))
        self.survivor_table.selectionModel().currentRowChanged.connect(
            self._on_survivor_row_changed)
        state.result_changed.connect(self._on_state_result_changed)
        state.selected_changed.connect(self._on_state_selected_changed)
        state.reviewed_changed.connect(self.queue.set_reviewed)
        state.busy_changed.connect(self._on_state_busy_changed)
        # built after the state changed (the tab is built when first shown): render it now,
        # as the signals of a benchmark load would have (an empty queue: its hint text)
        self._on_state_result_changed(state.result)
        if state.selected is not None:
            self._on_state_selected_changed(state.selected)
        self.queue.set_reviewed(state.reviewed_ids())
        if state.busy:
            self._on_state_busy_changed(True, 0, 0)

    def _on_state_busy_changed(self, busy: bool, done: int, total: int) -> None:
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self.run_button.setEnabled(not busy)
        self.progress.setRange(0, total if total > 0 else 0)
        if total > 0:
            self.progress.setValue(done)
            self.progress.setFormat("auditing %v/%m suites")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        for name in ("queue_fitter", "survivor_fitter", "suggested_fitter"):
            fitter = getattr(self, name, None)   # viewports report before all exist
            if fitter is not None:
                fitter.viewport_event(watched, event)
        return super().eventFilter(watched, event)

    def _on_state_result_changed(self, result: AuditResult | None) -> None:
        self.queue.set_audits(result.queries if result is not None else [])
        audits = result.queries if result is not None else []
        self.queue_fitter.content = {
            0: text_width(self.queue_table, ["✓ 999"]),
            1: text_width(self.queue_table, [f"{a.function_name}  ({a.query_id})"
                                             for a in audits] or ["Query"])}
        self.queue_fitter.fit()
        self._set_enabled(result is not None)
        if result is None:
            self.summary.setText("Run the audit to rank this benchmark's suites by how "
                                 "suspect they are.")
            self._show(None)
            return
        qs = result.queries
        flaky = sum(1 for q in qs if q.flaky_tests)
        self.survivors.seed = result.settings.get("input_seed")
        equivalent = sum(len(q.equivalent_survivors) for q in qs)
        tests = sum(len(q.suggested_tests) for q in qs)
        self.summary.setText(
            f"{len(qs)} suites · {sum(q.mutants for q in qs)} mutants · "
            f"<b>{result.suites_with_survivors}</b> let a mutant pass "
            f"(<b>{result.weak_suites}</b> weak, {equivalent} survivors likely equivalent) · "
            f"{tests} suggested tests · {flaky} flaky · "
            f"{len(result.settings.get('seeds', []))} hash seeds")

    def _on_state_selected_changed(self, audit: QueryAudit | None) -> None:
        self._show(audit)
        if audit is not None:
            row = self.queue.row_of(audit.query_id)
            if row >= 0 and self.queue_table.currentIndex().row() != row:
                self.queue_table.setCurrentIndex(self.queue.index(row, 0))
                self.queue_table.scrollTo(self.queue.index(row, 0))

    def _show(self, audit: QueryAudit | None) -> None:
        self.survivors.set_rows(audit.survivors if audit is not None else [])
        self.survivor_fitter.fit()
        self.suggested.set_audit(audit)
        self.suggested_fitter.fit()
        n = len(audit.suggested_tests) if audit is not None else 0
        self.suggested_label.setText(f"Suggested tests ({n})" if n else
                                     "Suggested tests: none (no survivor an input tells "
                                     "apart)")
        if n:
            self.suggested_table.setCurrentIndex(self.suggested.index(0, 0))
        self.matrix.set_audit(audit)
        if audit is None:
            self.reasons.setText("")
            self.diff.setHtml("")
            return
        items = "".join(f"<li>{escape(r)}</li>" for r in audit.reasons) or "<li>nothing " \
                                                                            "suspect</li>"
        self.reasons.setText(f"<b>{escape(audit.function_name)}</b> ({audit.query_id}) · "
                             f"suspicion {audit.suspicion:.3f} · mutation score "
                             f"{audit.mutation_score:.2f} ({audit.killed}/{audit.mutants})"
                             f"<ul style='margin:2px 0 0 -20px'>{items}</ul>")
        if audit.survivors:
            self.survivor_table.setCurrentIndex(self.survivors.index(0, 0))
        else:
            self.diff.setHtml("<p style='color:#666'>No mutant survives: every single-edit "
                              "mutant fails at least one test.</p>")

    def _on_queue_row_changed(self, current: Any, _previous: Any = None) -> None:
        audit = current.data(OBJECT_ROLE) if current.isValid() else None
        if audit is not None and self.state is not None:
            self.state.select(audit.query_id)

    def _on_survivor_row_changed(self, current: Any, _previous: Any = None) -> None:
        survivor = current.data(OBJECT_ROLE) if current.isValid() else None
        audit = self.state.selected if self.state is not None else None
        if survivor is None or audit is None:
            return
        seed = self.survivors.seed
        colour = "#888" if survivor.equivalent else "#8a5a00" if survivor.verdict == "weak" \
            else "#555"
        verdict = (f"<p style='color:{colour};margin:0 0 4px 0'>"
                   f"<b>{escape(survivor.verdict_text(seed))}</b></p>")
        self.diff.setHtml(verdict + diffing.render_unified(audit.canonical_code,
                                                           survivor.code))

    def _on_flag_suggestion_clicked(self) -> None:
        if self.state is None:
            return
        index = self.suggested_table.currentIndex()
        self.state.flag_with_suggestion(index.data(OBJECT_ROLE) if index.isValid() else None)

    def _on_copy_clicked(self) -> None:
        if self.state is None or self.state.inspector.benchmark is None:
            return
        bench = self.state.inspector.benchmark
        start = str(bench.path.parent / f"{bench.name}-strengthened") if bench.path else ""
        folder, _ = QFileDialog.getSaveFileName(
            self, "New folder for the strengthened copy", start)
        if folder:
            self.state.write_copy(folder)

    def _on_flag_clicked(self) -> None:
        if self.state is None:
            return
        index = self.survivor_table.currentIndex()
        self.state.flag_weak(index.data(OBJECT_ROLE) if index.isValid() else None)
