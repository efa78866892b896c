"""Benchmark and model picker: bundled benchmarks first, any engine model, files from disk."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGridLayout,
    QLabel,
    QProgressBar,
    QToolButton,
    QWidget,
)

__all__ = ["Picker"]

NO_MODEL = "(none)"


class Picker(QWidget):
    """Combo boxes for the benchmark, model A and an optional comparison model B."""

    benchmark_chosen = Signal(str)   # folder path
    model_chosen = Signal(str)       # model name or path
    model_b_chosen = Signal(str)     # "" for none

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.benchmark_box = QComboBox()
        self.benchmark_box.setObjectName("benchmarkBox")
        self.benchmark_box.setToolTip("Benchmark folder (bundled ones first)")
        self.open_button = QToolButton(text="…")
        self.open_button.setToolTip("Open a benchmark folder (Ctrl+O)")
        self.model_box = QComboBox()
        self.model_box.setObjectName("modelBox")
        self.model_box.setToolTip("Retriever whose ranking is shown (model A)")
        self.model_file_button = QToolButton(text="…")
        self.model_file_button.setToolTip("Load an embeddings .npz or a TREC run file (Ctrl+M)")
        self.model_b_box = QComboBox()
        self.model_b_box.setToolTip("Second model, for discordant filters and the comparison")
        self.progress = QProgressBar()
        self.progress.setMaximumHeight(12)
        self.progress.setTextVisible(False)
        self.progress.hide()

        for box in (self.benchmark_box, self.model_box, self.model_b_box):
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(12)
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 4, 4, 0)
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(3)
        grid.addWidget(QLabel("Benchmark"), 0, 0)
        grid.addWidget(self.benchmark_box, 0, 1)
        grid.addWidget(self.open_button, 0, 2)
        grid.addWidget(QLabel("Model"), 1, 0)
        grid.addWidget(self.model_box, 1, 1)
        grid.addWidget(self.model_file_button, 1, 2)
        grid.addWidget(QLabel("Compare"), 2, 0)
        grid.addWidget(self.model_b_box, 2, 1, 1, 2)
        grid.addWidget(self.progress, 3, 0, 1, 3)
        grid.setColumnStretch(1, 1)

        self._quiet = False
        self.benchmark_box.activated.connect(self._on_benchmark_box_activated)
        self.open_button.clicked.connect(self.ask_benchmark_folder)
        self.model_box.activated.connect(self._on_model_box_activated)
        self.model_b_box.activated.connect(self._on_model_b_box_activated)
        self.model_file_button.clicked.connect(self.ask_model_file)

    # filling --------------------------------------------------------------------------
    def set_benchmarks(self, folders: list[Path], current: Path | None = None) -> None:
        self._quiet = True
        self.benchmark_box.clear()
        for folder in folders:
            self.benchmark_box.addItem(folder.name, str(folder))
        if current is not None:
            self.show_benchmark(current)
        self._quiet = False

    def show_benchmark(self, folder: Path) -> None:
        """Select ``folder`` in the box, adding it if it is not bundled."""
        key = str(Path(folder).resolve())
        for i in range(self.benchmark_box.count()):
            if str(Path(self.benchmark_box.itemData(i)).resolve()) == key:
                self.benchmark_box.setCurrentIndex(i)
                return
        self.benchmark_box.addItem(Path(folder).name, str(folder))
        self.benchmark_box.setCurrentIndex(self.benchmark_box.count() - 1)

    def set_models(self, names: list[str], current: str | None = None) -> None:
        self.model_box.clear()
        self.model_b_box.clear()
        self.model_b_box.addItem(NO_MODEL, "")
        for name in names:
            self.model_box.addItem(name, name)
            self.model_b_box.addItem(name, name)
        if current:
            self.show_model(current)

    def show_model(self, model: str, box: QComboBox | None = None) -> None:
        box = box or self.model_box
        i = box.findData(model)
        if i < 0:
            box.addItem(Path(model).name if ("/" in model) else model, model)
            i = box.count() - 1
            if box is self.model_box:
                self.model_b_box.addItem(box.itemText(i), model)
        box.setCurrentIndex(i)

    def set_busy(self, busy: bool, done: int = 0, total: int = 0) -> None:
        self.progress.setVisible(busy)
        self.progress.setRange(0, total if total > 1 else 0)
        if total > 1:
            self.progress.setValue(done)

    # dialogs --------------------------------------------------------------------------
    def ask_benchmark_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open benchmark folder")
        if folder:
            self.benchmark_chosen.emit(folder)

    def ask_model_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Load a model's rankings", "",
            "Embeddings or TREC run (*.npz *.trec *.run *.txt);;All files (*)")
        if path:
            self.show_model(path)
            self.model_chosen.emit(path)

    # slots ----------------------------------------------------------------------------
    def _on_benchmark_box_activated(self, index: int) -> None:
        if not self._quiet and index >= 0:
            self.benchmark_chosen.emit(str(self.benchmark_box.itemData(index)))

    def _on_model_box_activated(self, index: int) -> None:
        if index >= 0:
            self.model_chosen.emit(str(self.model_box.itemData(index)))

    def _on_model_b_box_activated(self, index: int) -> None:
        if index >= 0:
            self.model_b_chosen.emit(str(self.model_b_box.itemData(index) or ""))
