"""Help > About: what is installed and how the execution oracle is contained here.

Version, Python, Qt and the installed extras are shown at once (metadata only); the
oracle's containment (:meth:`execretrieval.Oracle.containment`, which starts one sandbox
server) arrives from a worker and fills its table when ready. "Copy" puts everything on
the clipboard as plain text, for a bug report.
"""

from __future__ import annotations

from typing import Any

import PySide6
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from . import engine
from .workers import TaskSlot

__all__ = ["AboutDialog"]


class AboutDialog(QDialog):
    """Modal facts about this installation; the containment table fills in when ready."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle("About ExecRetrieval Inspector")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        facts = engine.about_facts()
        self.facts: dict[str, str] = {
            "Version": facts["version"],
            "Python": facts["python"],
            "Qt": f"{qVersion()} (PySide6 {PySide6.__version__})",
            "Extras": facts["extras"],
        }
        self.containment: dict[str, Any] | None = None

        intro = QLabel("<b>ExecRetrieval Inspector</b><br>Inspect how code retrievers rank "
                       "correct code against near-identical buggy mutants.")
        intro.setWordWrap(True)
        form = QFormLayout()
        for key, value in self.facts.items():
            label = QLabel(value)
            label.setObjectName(f"about{key}")
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setWordWrap(True)
            form.addRow(f"{key}:", label)
        self.status = QLabel("Oracle containment: probing the sandbox …")
        self.table = QTableWidget(0, 2)
        self.table.setObjectName("containmentTable")
        self.table.setHorizontalHeaderLabels(["measure", "active"])
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton("Copy", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.setToolTip("Copy these facts as text (for a bug report)")
        self.copy_button.clicked.connect(self._on_copy_clicked)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.status)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(560, 540)

        self.slot = TaskSlot("about", self)
        self.slot.start(engine.oracle_containment, on_result=self._on_containment_result,
                        on_error=self._on_containment_error)
        self.finished.connect(self.slot.cancel)

    def text(self) -> str:
        """Everything shown, as plain text."""
        lines = [f"{key}: {value}" for key, value in self.facts.items()]
        if self.containment is not None:
            lines.append("Oracle containment:")
            lines += [f"  {key}: {value}" for key, value in self.containment.items()]
        else:
            lines.append(self.status.text())
        return "\n".join(lines)

    def _on_containment_result(self, info: dict[str, Any]) -> None:
        self.containment = info
        self.status.setText("Oracle containment on this machine (what every report records):")
        self.table.setRowCount(len(info))
        for row, (key, value) in enumerate(info.items()):
            shown = "yes" if value is True else "no" if value is False else str(value)
            for column, text in enumerate((key, shown)):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(row, column, item)
        self.table.resizeColumnToContents(0)
        self._fit_table()

    def _fit_table(self) -> None:
        """Grow to show every containment row and the longest value whole, up to nine
        tenths of the window it belongs to (or of the screen)."""
        t = self.table
        want_w = (t.columnWidth(0) + t.sizeHintForColumn(1) + 2 * t.frameWidth()
                  + t.verticalScrollBar().sizeHint().width())
        want_h = (t.horizontalHeader().sizeHint().height() + 2 * t.frameWidth()
                  + t.rowCount() * t.verticalHeader().defaultSectionSize())
        width = max(self.width(), want_w + self.width() - t.width())
        height = max(self.height(), want_h + self.height() - t.height())
        owner = self.parentWidget()
        room = owner.window().size() if owner is not None else (
            self.screen().availableGeometry().size() if self.screen() else None)
        if room is not None:
            width = min(width, max(self.width(), int(0.9 * room.width())))
            height = min(height, max(self.height(), int(0.9 * room.height())))
        self.resize(width, height)

    def _on_containment_error(self, exc: BaseException) -> None:
        self.status.setText(f"Oracle containment: cannot start the sandbox "
                            f"({type(exc).__name__}: {exc})")

    def _on_copy_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
