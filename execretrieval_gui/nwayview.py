"""The Metrics tab's N-way panel: every model of the benchmark in one leaderboard with
rank intervals and tiers, and "Export LaTeX…"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from .nway_models import LeaderboardModel

if TYPE_CHECKING:
    from .nway import NWayRunner

__all__ = ["NWayPanel"]


class NWayPanel(QGroupBox):
    compute_requested = Signal(bool)      # exclude flagged queries?
    cancel_requested = Signal()
    latex_requested = Signal(str, bool)   # path, with intervals?

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Every model: leaderboard with rank intervals and tiers", parent)
        self.setObjectName("nwayPanel")
        self.model = LeaderboardModel(self)
        self.report: Any = None
        self.busy = False
        self.compute_button = QPushButton("Compare every model")
        self.compute_button.setObjectName("nwayCompute")
        self.compute_button.setToolTip("Rank and execute every model the benchmark offers "
                                       "(cached), test every pair, Holm-correct, and rank "
                                       "with bootstrap intervals")
        self.exclude_box = QCheckBox("Without flagged queries")
        self.metric_box = QComboBox()
        self.metric_box.setObjectName("nwayMetric")
        self.metric_box.setEnabled(False)
        self.latex_button = QPushButton("Export LaTeX…")
        self.latex_button.setObjectName("nwayLatex")
        self.latex_button.setEnabled(False)
        self.ci_box = QCheckBox("with intervals")
        self.note = QLabel("Press “Compare every model”.")
        self.note.setObjectName("nwayNote")
        self.note.setWordWrap(True)
        self.table = QTableView()
        self.table.setObjectName("nwayTable")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        # as tall as its rows, up to six models (more scroll): empty, one blank row
        self._fit_table()
        # two short rows, so the tab still fits a 1024-pixel window
        bar = QHBoxLayout()
        bar.addWidget(self.compute_button)
        bar.addWidget(self.exclude_box)
        bar.addStretch(1)
        export = QHBoxLayout()
        export.addWidget(self.metric_box)
        export.addStretch(1)
        export.addWidget(self.ci_box)
        export.addWidget(self.latex_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addLayout(export)
        layout.addWidget(self.table)
        layout.addWidget(self.note)
        self.compute_button.clicked.connect(self._on_compute_clicked)
        self.metric_box.currentTextChanged.connect(self._on_metric_changed)
        self.latex_button.clicked.connect(self._on_latex_clicked)

    def bind(self, runner: NWayRunner) -> None:
        """Show what ``runner`` measured; ask it to measure and to write LaTeX."""
        runner.busy.connect(self.set_busy)
        runner.ready.connect(self.show_report)
        self.compute_requested.connect(runner.compute)
        self.cancel_requested.connect(runner.cancel)
        self.latex_requested.connect(runner.export_latex)

    def set_busy(self, busy: bool, done: int = 0, total: int = 0) -> None:
        self.busy = busy
        self.compute_button.setText("Cancel" if busy else "Compare every model")
        if busy:
            self.note.setText(f"Executing … {done}/{total}" if total > 1 else "Working …")

    def show_report(self, report: Any) -> None:
        """Fill the table from an engine EvaluationReport over every model (None: clear)."""
        self.report = report
        metrics = list(dict.fromkeys(s.metric for s in report.standings)) if report else []
        current = self.metric_box.currentText()
        self.metric_box.blockSignals(True)
        self.metric_box.clear()
        self.metric_box.addItems(metrics)
        if current in metrics:
            self.metric_box.setCurrentText(current)
        self.metric_box.blockSignals(False)
        self.metric_box.setEnabled(bool(metrics))
        self.latex_button.setEnabled(bool(metrics))
        self._on_metric_changed(self.metric_box.currentText())
        if report is None:
            self.note.setText("Press “Compare every model”.")
            return
        n = len(report.models)
        ties = report.settings.get("ties", "expected")
        self.note.setText(
            f"{n} models, {n * (n - 1) // 2} pairs per metric: exact paired tests on the "
            f"per-query figures (ties: {ties}), Holm-corrected, α = 0.05; "
            f"{report.settings.get('bootstrap', '?')} bootstrap replicates, seed "
            f"{report.seed}.")

    def _on_metric_changed(self, metric: str) -> None:
        self.model.set_report(self.report, metric)
        self._fit_table()

    def _fit_table(self) -> None:
        table = self.table
        rows = min(max(1, self.model.rowCount()), 6)
        table.setFixedHeight(table.horizontalHeader().sizeHint().height()
                             + 2 * table.frameWidth()
                             + table.verticalHeader().defaultSectionSize() * rows)

    def _on_compute_clicked(self) -> None:
        if self.busy:
            self.cancel_requested.emit()
        else:
            self.compute_requested.emit(self.exclude_box.isChecked())

    def _on_latex_clicked(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export LaTeX table", "table.tex",
                                              "LaTeX (*.tex)")
        if path:
            self.latex_requested.emit(path, self.ci_box.isChecked())
