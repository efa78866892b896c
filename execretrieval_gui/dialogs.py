"""Small dialogs: errors (never blocking), export choices, flag files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QToolButton,
    QWidget,
)

__all__ = ["ask_csv_path", "ask_export", "ask_pool_file", "ask_rerun", "ask_store_file",
           "export_flag_ids", "export_flags", "import_flags", "show_error"]

REPORT_FORMATS = {"HTML (self-contained, with charts)": ".html", "JSON": ".json",
                  "CSV": ".csv", "Markdown": ".md"}


def show_error(parent: QWidget, title: str, text: str) -> QMessageBox:
    """A window-modal message that does not block the event loop (work keeps running)."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok,
                      parent)
    box.setObjectName("errorDialog")
    box.open()
    return box


def ask_csv_path(parent: QWidget, suggested: str) -> str:
    """A CSV file to write ("" if the user cancels); ``.csv`` added when missing."""
    path, _ = QFileDialog.getSaveFileName(parent, "Export the query list", suggested,
                                          "CSV (*.csv)")
    if path and not path.lower().endswith(".csv"):
        path += ".csv"
    return path


def ask_rerun(parent: QWidget, text: str, rerun: Callable[[], None]) -> QMessageBox:
    """Offer to execute again outcomes that are known already; "Run again" calls ``rerun``.
    Window-modal without blocking the event loop, like :func:`show_error`."""
    box = QMessageBox(QMessageBox.Icon.Question, "Outcomes already known", text,
                      QMessageBox.StandardButton.Cancel, parent)
    box.setObjectName("rerunDialog")
    again = box.addButton("Run again", QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(again)
    box.buttonClicked.connect(lambda button: rerun() if button is again else None)
    box.open()
    return box


class ExportDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export report")
        self.format_box = QComboBox()
        for label, ext in REPORT_FORMATS.items():
            self.format_box.addItem(label, ext)
        self.path = QLineEdit(str(Path.cwd() / "execretrieval-report.html"))
        self.path.setMinimumWidth(self.path.fontMetrics().horizontalAdvance("x" * 60))
        browse = QToolButton(text="…")
        self.exclude = QCheckBox("Leave flagged queries out")
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        form = QFormLayout(self)
        form.addRow("Format", self.format_box)
        form.addRow("File", row)
        form.addRow("", self.exclude)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        form.addRow(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        browse.clicked.connect(self._on_browse_clicked)
        self.format_box.currentIndexChanged.connect(self._on_format_changed)

    def _on_format_changed(self, _index: int) -> None:
        self.path.setText(str(Path(self.path.text()).with_suffix(self.format_box.currentData())))

    def _on_browse_clicked(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export report", self.path.text(),
                                              "Reports (*.html *.json *.csv *.md)")
        if path:
            self.path.setText(path)
            i = self.format_box.findData(Path(path).suffix.lower())
            if i >= 0:
                self.format_box.setCurrentIndex(i)


def ask_export(parent: QWidget) -> tuple[str, bool] | None:
    dialog = ExportDialog(parent)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    path = Path(dialog.path.text()).expanduser()
    if path.suffix.lower() not in REPORT_FORMATS.values():
        path = path.with_suffix(dialog.format_box.currentData())
    return str(path), dialog.exclude.isChecked()


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _need_store(parent: QWidget, store: Any) -> bool:
    if store is None:
        show_error(parent, "No annotation store", "Open a benchmark first.")
        return False
    return True


def export_flags(parent: QWidget, store: Any) -> None:
    if not _need_store(parent, store):
        return
    path, chosen = QFileDialog.getSaveFileName(parent, "Export flags", "flags.csv",
                                               "CSV (*.csv);;JSON Lines (*.jsonl)")
    if not path:
        return
    if not path.lower().endswith((".csv", ".jsonl")):   # a bare name: the chosen type says
        path += ".jsonl" if "jsonl" in (chosen or "") else ".csv"
    try:
        n = (store.export_jsonl if path.lower().endswith(".jsonl") else store.export_csv)(path)
    except Exception as exc:  # noqa: BLE001
        show_error(parent, "Cannot export flags", str(exc))
        return
    parent.statusBar().showMessage(  # type: ignore[attr-defined]
        f"{_count(n, 'flag')} written to {path}", 8000)


def export_flag_ids(parent: QWidget, store: Any) -> None:
    if not _need_store(parent, store):
        return
    path, _ = QFileDialog.getSaveFileName(parent, "Export flagged query ids",
                                          "exclude-queries.txt", "Text (*.txt)")
    if not path:
        return
    try:
        n = store.export_query_ids(path)
    except Exception as exc:  # noqa: BLE001
        show_error(parent, "Cannot export query ids", str(exc))
        return
    parent.statusBar().showMessage(  # type: ignore[attr-defined]
        f"{_count(n, 'query id')} written to {path} (use with evaluate --exclude-queries)",
        8000)


def import_flags(parent: QWidget, store: Any) -> bool:
    if not _need_store(parent, store):
        return False
    path, _ = QFileDialog.getOpenFileName(parent, "Import flags", "",
                                          "Flags (*.csv *.jsonl);;All files (*)")
    if not path:
        return False
    try:
        report = store.import_file(path)
    except Exception as exc:  # noqa: BLE001
        show_error(parent, "Cannot import flags", str(exc))
        return False
    text = f"{_count(report.added, 'new flag')} imported from {path}"
    if report.skipped:
        text += f", {len(report.skipped)} skipped"
        lines = "\n".join(f"line {line}: {why}" for line, why in report.skipped[:30])
        more = len(report.skipped) - 30
        QMessageBox.information(parent, "Flags imported",
                                f"{text}:\n\n{lines}" + (f"\n… and {more} more" if more > 0
                                                         else ""))
    parent.statusBar().showMessage(text, 8000)  # type: ignore[attr-defined]
    return True


def ask_store_file(parent: QWidget) -> str:
    path, _ = QFileDialog.getSaveFileName(
        parent, "Annotation store (SQLite)", "annotations.sqlite",
        "SQLite (*.sqlite *.db);;All files (*)",
        options=QFileDialog.Option.DontConfirmOverwrite)
    return path


def ask_pool_file(parent: QWidget) -> str:
    path, _ = QFileDialog.getOpenFileName(
        parent, "Background pool (execretrieval pool --out POOL.jsonl)", "",
        "Pool files (*.jsonl);;All files (*)")
    return path
