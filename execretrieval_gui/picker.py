"""Benchmark and model picker: bundled benchmarks first, any engine model, files from disk.

Model B (Compare) is chosen from the same names and files as model A, less model A itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QLabel,
    QProgressBar,
    QToolButton,
    QWidget,
)

if TYPE_CHECKING:
    from .state import InspectorState

__all__ = ["Picker", "folder_label"]

NO_MODEL = "(none)"
SERVED = "\0served"   # the model list's last entry: encode with a served model
PIPELINE = "\0pipeline"   # after it (and last in Compare): build a pipeline


def folder_label(path: Path) -> str:
    """``name  (where)``: a name with the folder it is in, home as ``~``, so two copies
    of ``builtin`` (or two ``run.trec`` files) tell themselves apart."""
    path = Path(path).expanduser().resolve()
    where, home = str(path.parent), str(Path.home())
    if where == home or where.startswith(home + "/"):
        where = "~" + where[len(home):]
    return f"{path.name}  ({where})"


def _ask_served_model(state: InspectorState, parent: QWidget) -> None:
    from .served import ask_served_model  # its dialog's classes load on first use

    ask_served_model(state, parent)


def _is_path(model: str) -> bool:
    return "/" in model or "\\" in model


class Picker(QWidget):
    """Combo boxes for the benchmark, model A and an optional comparison model B."""

    benchmark_chosen = Signal(str)   # folder path
    model_chosen = Signal(str)       # model name or path
    model_b_chosen = Signal(str)     # "" for none
    served_requested = Signal()      # "Served model…" picked
    pipeline_requested = Signal(str)  # "Pipeline…" picked in model A's ("a") or B's ("b") list

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
        self.model_b_box.setObjectName("modelBBox")
        self.model_b_box.setToolTip("Second model, for discordant filters and the comparison")
        self.model_b_file_button = QToolButton(text="…")
        self.model_b_file_button.setToolTip(
            "Load an embeddings .npz or a TREC run file as the comparison model B")
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
        grid.addWidget(self.model_b_box, 2, 1)
        grid.addWidget(self.model_b_file_button, 2, 2)
        grid.addWidget(self.progress, 3, 0, 1, 3)
        grid.setColumnStretch(1, 1)

        self._quiet = False
        self._last_a = ""
        self._b_current = ""   # model B as last chosen (Pipeline… puts it back)
        # every model B can be (label, name or path), model A's among them but not offered
        self._b_choices: list[tuple[str, str]] = []
        self.benchmark_box.activated.connect(self._on_benchmark_box_activated)
        self.open_button.clicked.connect(self.ask_benchmark_folder)
        self.model_box.activated.connect(self._on_model_box_activated)
        self.model_b_box.activated.connect(self._on_model_b_box_activated)
        self.model_file_button.clicked.connect(self.ask_model_file)
        self.model_b_file_button.clicked.connect(self.ask_model_b_file)
        self.model_box.currentIndexChanged.connect(self._on_model_box_current_changed)

    # filling --------------------------------------------------------------------------
    def set_benchmarks(self, folders: list[Path], current: Path | None = None) -> None:
        self._quiet = True
        self.benchmark_box.clear()
        for folder in folders:
            self._add_benchmark(folder)
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
        self._add_benchmark(folder)
        self.benchmark_box.setCurrentIndex(self.benchmark_box.count() - 1)

    def _add_benchmark(self, folder: Path) -> None:
        full = str(Path(folder).expanduser().resolve())
        self.benchmark_box.addItem(folder_label(Path(folder)), full)
        self.benchmark_box.setItemData(self.benchmark_box.count() - 1, full,
                                       Qt.ItemDataRole.ToolTipRole)

    def set_models(self, names: list[str], current: str | None = None) -> None:
        self._quiet = True   # a new benchmark: no model B to drop
        self._b_choices = [(name, name) for name in names]
        self.model_box.clear()
        for name in names:
            self.model_box.addItem(name, name)
        self.model_box.insertSeparator(self.model_box.count())
        self._add_pipeline_entry(self.model_box)
        self.model_box.addItem("Served model…", SERVED)
        self.model_box.setItemData(self.model_box.count() - 1,
                                   "Encode with an OpenAI-compatible embedding service",
                                   Qt.ItemDataRole.ToolTipRole)
        self._refill_b("")
        if current:
            self.show_model(current)
        self._quiet = False

    def show_model(self, model: str, box: QComboBox | None = None) -> None:
        """Select ``model`` in ``box`` (model A's by default), adding a file by its name."""
        box = box or self.model_box
        if model and all(name != model for _, name in self._b_choices):
            self._b_choices.append((folder_label(Path(model)) if _is_path(model) else model,
                                    model))
        if box is self.model_b_box:
            self._b_current = model
            self._refill_b(model)
            return
        i = box.findData(model)
        if i < 0:
            # new files and pipelines go above the separator over Pipeline… (and Served…)
            special = box.findData(PIPELINE)
            i = special - 1 if special > 0 else box.count()
            box.insertItem(i, folder_label(Path(model)) if _is_path(model) else model, model)
            if _is_path(model):
                box.setItemData(i, str(Path(model).expanduser().resolve()),
                                Qt.ItemDataRole.ToolTipRole)
        box.setCurrentIndex(i)

    def forget_model(self, model: str) -> None:
        """Take a model that failed to load out of both lists."""
        self._quiet = True
        self._b_choices = [(label, name) for label, name in self._b_choices if name != model]
        i = self.model_box.findData(model)
        if i >= 0:
            self.model_box.removeItem(i)
        self._refill_b(str(self.model_b_box.currentData() or ""))
        self._quiet = False

    def _refill_b(self, current: str) -> None:
        """The Compare list: none, then every model but model A; ``current`` selected."""
        a = self.model_box.currentData()
        self.model_b_box.clear()
        self.model_b_box.addItem(NO_MODEL, "")
        for label, name in self._b_choices:
            if name != a:
                self.model_b_box.addItem(label, name)
        self.model_b_box.insertSeparator(self.model_b_box.count())
        self._add_pipeline_entry(self.model_b_box)
        self.model_b_box.setCurrentIndex(max(0, self.model_b_box.findData(current)))

    @staticmethod
    def _add_pipeline_entry(box: QComboBox) -> None:
        box.addItem("Pipeline…", PIPELINE)
        box.setItemData(box.count() - 1, "Build a pipeline: a base model or fusion, then "
                        "second stages such as exec or consensus", Qt.ItemDataRole.ToolTipRole)

    def set_busy(self, busy: bool, done: int = 0, total: int = 0) -> None:
        self.progress.setVisible(busy)
        self.progress.setRange(0, total if total > 1 else 0)
        if total > 1:
            self.progress.setValue(done)

    # dialogs --------------------------------------------------------------------------
    def ask_benchmark_folder(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # its class and enums load on first use

        folder = QFileDialog.getExistingDirectory(self, "Open benchmark folder")
        if folder:
            self.benchmark_chosen.emit(folder)

    def ask_model_file(self) -> None:
        path = self._ask_rankings_file("Load a model's rankings")
        if path:
            self.show_model(path)
            self.model_chosen.emit(path)

    def ask_model_b_file(self) -> None:
        path = self._ask_rankings_file("Load a comparison model's rankings")
        if path:
            self.load_model_b_file(path)

    def _ask_rankings_file(self, title: str) -> str:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(
            self, title, "", "Embeddings or TREC run (*.npz *.trec *.run *.txt);;All files (*)")
        return path

    def load_model_b_file(self, path: str) -> None:
        """Offer ``path`` in the Compare list, select it and ask for it as model B."""
        self.show_model(path, self.model_b_box)
        self.model_b_chosen.emit(path)

    # the state ------------------------------------------------------------------------
    def bind(self, state: InspectorState) -> None:
        """Show what ``state`` holds (its truth, however it was chosen); ask it to load."""
        state.busy_changed.connect(self.set_busy)
        state.models_changed.connect(self.set_models)
        state.model_shown.connect(self._on_state_model_shown)
        state.model_rejected.connect(lambda _which, model: self.forget_model(model))
        state.benchmark_path.connect(self.show_benchmark)
        self.benchmark_chosen.connect(state.open_benchmark)
        self.model_chosen.connect(lambda m: state.set_model(m, "a"))
        self.model_b_chosen.connect(lambda m: state.set_model(m, "b"))
        self.served_requested.connect(lambda: _ask_served_model(state, self.window()))
        self.pipeline_requested.connect(lambda which: self._ask_pipeline(state, which))

    def _ask_pipeline(self, state: InspectorState, which: str) -> None:
        from .pipeline_dialog import ask_pipeline  # the dialog loads when first asked for

        ask_pipeline(state, which, self.window())

    def _on_state_model_shown(self, which: str, model: str) -> None:
        self.show_model(model, self.model_box if which == "a" else self.model_b_box)

    # slots ----------------------------------------------------------------------------
    def _on_benchmark_box_activated(self, index: int) -> None:
        if not self._quiet and index >= 0:
            self.benchmark_chosen.emit(str(self.benchmark_box.itemData(index)))

    def _on_model_box_activated(self, index: int) -> None:
        if index >= 0 and self.model_box.itemData(index) in (SERVED, PIPELINE):
            chosen = self.model_box.itemData(index)
            self.model_box.setCurrentIndex(max(0, self.model_box.findData(self._last_a)))
            if chosen == SERVED:
                self.served_requested.emit()
            else:
                self.pipeline_requested.emit("a")
        elif index >= 0:
            self.model_chosen.emit(str(self.model_box.itemData(index)))

    def _on_model_box_current_changed(self, _index: int) -> None:
        """Model A leaves the Compare list; a model B that became model A is dropped."""
        if self.model_box.currentData() in (SERVED, PIPELINE):
            return
        self._last_a = str(self.model_box.currentData() or "")
        b = str(self.model_b_box.currentData() or "")
        self._refill_b(b)
        if b and self.model_b_box.currentData() != b and not self._quiet:
            self.model_b_chosen.emit("")

    def _on_model_b_box_activated(self, index: int) -> None:
        if index >= 0 and self.model_b_box.itemData(index) == PIPELINE:
            b = self._b_current
            self.model_b_box.setCurrentIndex(max(0, self.model_b_box.findData(b)))
            self.pipeline_requested.emit("b")
        elif index >= 0:
            self._b_current = str(self.model_b_box.itemData(index) or "")
            self.model_b_chosen.emit(self._b_current)
