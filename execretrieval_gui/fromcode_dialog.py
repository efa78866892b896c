"""File ▸ Build from code…: a benchmark from a package, folder or file, made by the CLI.

:class:`FromCodeRun` (the state: signals only) runs ``execretrieval build-from-code`` as a
subprocess in a :class:`~execretrieval_gui.workers.Task` (see :mod:`.fromcode_run`);
:class:`BuildFromCodeDialog` (the view) asks for the sources, output folder, seed, limit and
whether private functions count, shows the command's progress and log, and emits
``built(folder)`` when the benchmark is written, for the window to open it. Cancel stops
the command, which leaves the output folder as it was (it writes it atomically).
"""

from __future__ import annotations

import shlex
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .fromcode_run import (
    CommandResult,
    build_from_code_argv,
    build_from_code_available,
    run_command,
)
from .workers import Task, emit_partial

__all__ = ["BuildFromCodeDialog", "FromCodeRun"]


class FromCodeRun(QObject):
    """One build-from-code run at a time; every change reported as a signal."""

    started = Signal(str)             # the command line, quoted
    progress = Signal(str, int, int)  # label, done, total
    line = Signal(str)
    finished = Signal(object)         # CommandResult, or an exception the run raised

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.task: Task | None = None

    @property
    def running(self) -> bool:
        return self.task is not None

    def start(self, argv: list[str]) -> None:
        if self.task is not None:
            return

        def work(_progress, should_stop):  # type: ignore[no-untyped-def]
            return run_command(argv, should_stop=should_stop,
                               progress=lambda *shown: emit_partial(("progress", shown)),
                               line=lambda text: emit_partial(("line", text)))

        task = Task(work, name="build-from-code")
        task.signals.partial.connect(self._on_task_partial)
        task.signals.result.connect(self._on_task_done)
        task.signals.error.connect(self._on_task_done)
        self.task = task
        self.started.emit(shlex.join(argv))
        task.start()

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def _on_task_partial(self, value: object) -> None:
        kind, payload = value  # type: ignore[misc]
        if kind == "progress":
            self.progress.emit(*payload)
        else:
            self.line.emit(payload)

    def _on_task_done(self, value: object) -> None:
        self.task = None
        self.finished.emit(value)


class BuildFromCodeDialog(QDialog):
    """Sources, output and options; Build runs the command, Cancel stops it or closes."""

    built = Signal(object)  # the benchmark folder (Path) once written

    def __init__(self, parent: QWidget | None = None, *, out_dir: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Build a benchmark from code")
        self.setObjectName("buildFromCodeDialog")
        self.run = FromCodeRun(self)
        self.source = QLineEdit()
        self.source.setPlaceholderText("a module or package name (textwrap, urllib.parse), "
                                       "or a folder or .py file")
        # the hint whole: it says what the field takes
        self.source.setMinimumWidth(
            self.source.fontMetrics().horizontalAdvance(self.source.placeholderText()) + 16)
        folder_button = QPushButton("Folder…")
        file_button = QPushButton("File…")
        folder_button.clicked.connect(self._on_folder_clicked)
        file_button.clicked.connect(self._on_file_clicked)
        self.out = QLineEdit(out_dir)
        self.out.setPlaceholderText("the benchmark folder to write")
        out_button = QPushButton("Choose…")
        out_button.clicked.connect(self._on_out_clicked)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.limit = QSpinBox()
        self.limit.setRange(0, 1_000_000)
        self.limit.setSpecialValueText("every function")
        self.limit.setToolTip("Only the first N candidate functions (0: all of them)")
        self.private = QCheckBox("Include private functions (_names)")
        self.progress_bar = QProgressBar()
        self.progress_bar.setFormat("%v/%m")
        self.progress_bar.hide()
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setObjectName("buildLog")
        # the command's summary is a table: fixed width, lines unwrapped
        self.log.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.log.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.log.setMinimumHeight(140)
        self.build_button = QPushButton("Build")
        self.build_button.setDefault(True)
        self.cancel_button = QPushButton("Close")
        self.build_button.clicked.connect(self._on_build_clicked)
        self.cancel_button.clicked.connect(self._on_cancel_clicked)

        form = QFormLayout()
        form.addRow("Source:", _row(self.source, folder_button, file_button))
        form.addRow("Output folder:", _row(self.out, out_button))
        form.addRow("Seed:", self.seed)
        form.addRow("Limit:", self.limit)
        form.addRow("", self.private)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.build_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.status)
        layout.addWidget(self.log, 1)
        layout.addLayout(buttons)
        self.resize(max(640, self.sizeHint().width()), 420)

        self.run.started.connect(self._on_run_started)
        self.run.progress.connect(self._on_run_progress)
        self.run.line.connect(self.log.appendPlainText)
        self.run.finished.connect(self._on_run_finished)
        if not build_from_code_available():
            self.build_button.setEnabled(False)
            self.status.setText("This installation's command line has no build-from-code "
                                "command.")

    # the form -------------------------------------------------------------------------
    def command(self) -> list[str] | None:
        """The command line the form stands for; None (and the reason shown) if incomplete."""
        sources = shlex.split(self.source.text().strip()) if self.source.text().strip() else []
        out = self.out.text().strip()
        problem = ""
        if not sources:
            problem = "Name a source: a module or package, a folder or a .py file."
        elif not out:
            problem = "Choose the output folder."
        else:
            target = Path(out).expanduser()
            if target.is_file():
                problem = f"{target} is a file, not a folder."
            elif target.is_dir() and any(target.iterdir()) and not (
                    target / "queries.jsonl").is_file():
                problem = (f"{target} holds files and is not a benchmark folder: choose an "
                           "empty or new folder.")
        if problem:
            self.status.setText(problem)
            return None
        return build_from_code_argv(sources, str(Path(out).expanduser()),
                                    seed=self.seed.value(), limit=self.limit.value() or None,
                                    include_private=self.private.isChecked())

    def _set_running(self, running: bool) -> None:
        for widget in (self.source, self.out, self.seed, self.limit, self.private,
                       self.build_button):
            widget.setEnabled(not running)
        self.cancel_button.setText("Cancel" if running else "Close")
        self.progress_bar.setVisible(running)

    # slots --------------------------------------------------------------------------------
    def _on_build_clicked(self) -> None:
        argv = self.command()
        if argv is not None:
            self._out = Path(argv[argv.index("--out") + 1])
            self.log.clear()
            self.run.start(argv)

    def _on_cancel_clicked(self) -> None:
        if self.run.running:
            self.status.setText("Stopping…")
            self.cancel_button.setEnabled(False)
            self.run.cancel()
        else:
            self.reject()

    def _on_run_started(self, command: str) -> None:
        self._set_running(True)
        self.progress_bar.setRange(0, 0)  # busy until the first progress line
        self.status.setText(f"Running {command}")

    def _on_run_progress(self, label: str, done: int, total: int) -> None:
        self.progress_bar.setRange(0, max(total, 1))
        self.progress_bar.setValue(done)
        self.progress_bar.setFormat(f"{label} %v/%m")

    def _on_run_finished(self, result: object) -> None:
        self._set_running(False)
        self.cancel_button.setEnabled(True)
        if not isinstance(result, CommandResult):
            self.status.setText(f"Could not run the command: {result}")
            return
        # the whole log, those written while stopping included (live lines stop at cancel)
        self.log.setPlainText("\n".join(result.lines))
        if result.cancelled:
            self.status.setText(f"Cancelled; {self._out} was left as it was.")
        elif result.code == 0:
            self.status.setText(f"Built {self._out}.")
            self.built.emit(self._out)
            self.accept()
        else:
            last = next((line for line in reversed(result.lines) if line.strip()), "")
            self.status.setText(f"The build failed (exit {result.code}): {last}")

    def _on_folder_clicked(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Package or folder to build from")
        if path:
            self.source.setText(shlex.quote(path))

    def _on_file_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Python file to build from", "",
                                              "Python files (*.py)")
        if path:
            self.source.setText(shlex.quote(path))

    def _on_out_clicked(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Benchmark folder to write")
        if path:
            self.out.setText(path)

    def done(self, code: int) -> None:  # Qt override: closing stops a running build
        if self.run.running:
            self.run.cancel()
            return
        super().done(code)


def _row(*widgets: QWidget) -> QWidget:
    holder = QWidget()
    layout = QHBoxLayout(holder)
    layout.setContentsMargins(0, 0, 0, 0)
    for i, widget in enumerate(widgets):
        layout.addWidget(widget, 1 if i == 0 else 0)
    return holder
