""""Pipeline…": build a pipeline name from a base model (or a fusion) and stages.

The dialog composes ``BASE+STAGE:key=value+…`` as the user picks a base, an optional
fusion partner and stages with their options; the resulting name stays editable (a typed
name works as well) and is checked through the engine's ``parse_pipeline`` on every edit,
with the engine's own error text. A name with stages also needs the held-out split
(visible tests per query and the seed), the same as ``--visible`` / ``--split-seed``.
OK sets the state's split and asks it to rank the name as model A or B, in its worker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from . import engine

if TYPE_CHECKING:
    from .state import InspectorState

__all__ = ["PipelineDialog", "ask_pipeline"]

NO_FUSION = "(no fusion)"


class PipelineDialog(QDialog):
    """Base, fusion, stages -> a pipeline name, validated by the engine (module doc)."""

    def __init__(self, state: InspectorState, which: str = "a",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pipelineDialog")
        self.setWindowTitle("Pipeline as model " + ("B" if which == "b" else "A"))
        self.state, self.which = state, which
        stages, fusions = engine.pipeline_parts()
        self.stage_options = stages
        models = engine.model_choices(state.benchmark) if state.benchmark is not None else []
        self.base = QComboBox()
        self.base.setObjectName("pipelineBase")
        self.base.addItems(models)
        self.fusion = QComboBox()
        self.fusion.setObjectName("pipelineFusion")
        self.fusion.addItem(NO_FUSION, "")
        for name, options in fusions.items():
            self.fusion.addItem(name, name)
            self.fusion.setItemData(self.fusion.count() - 1,
                                    f"{name}: options {', '.join(options)}", 3)  # tooltip
        self.partner = QComboBox()
        self.partner.setObjectName("pipelinePartner")
        self.partner.addItems(models)
        if len(models) > 1:
            self.partner.setCurrentIndex(1)
        self.fusion_options = QLineEdit()
        self.fusion_options.setPlaceholderText("e.g. k=60")
        self.stage = QComboBox()
        self.stage.setObjectName("pipelineStage")
        for name, options in stages.items():
            self.stage.addItem(name, name)
            self.stage.setItemData(self.stage.count() - 1,
                                   f"options: {', '.join(options) or 'none'}", 3)
        self.stage_opts = QLineEdit()
        self.stage_opts.setObjectName("pipelineStageOptions")
        self.stage_opts.setPlaceholderText("e.g. depth=10")
        self.add_button = QPushButton("Add stage")
        self.remove_button = QPushButton("Remove")
        self.stages = QListWidget()
        self.stages.setObjectName("pipelineStages")
        self.stages.setMaximumHeight(90)
        self.name = QLineEdit()
        self.name.setObjectName("pipelineName")
        self.name.setMinimumWidth(self.name.fontMetrics().horizontalAdvance("x" * 48))
        self.name.setToolTip("The pipeline's name, as reports and the CLI write it; type "
                             "one directly if you like")
        self.verdict = QLabel()
        self.verdict.setObjectName("pipelineVerdict")
        self.verdict.setWordWrap(True)
        spec = state.split_spec
        self.visible = QLineEdit(str(spec[0]) if spec else "0.5")
        self.visible.setObjectName("pipelineVisible")
        self.visible.setToolTip("--visible: tests per query a stage may run (3) or a "
                                "fraction of each suite (0.5); the rest are held out")
        self.seed = QSpinBox()
        self.seed.setObjectName("pipelineSeed")
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(spec[1] if spec else 0)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)

        fusion_row = QHBoxLayout()
        for w in (self.fusion, self.partner, self.fusion_options):
            fusion_row.addWidget(w)
        stage_row = QHBoxLayout()
        for w in (self.stage, self.stage_opts, self.add_button, self.remove_button):
            stage_row.addWidget(w)
        split_row = QHBoxLayout()
        split_row.addWidget(self.visible)
        split_row.addWidget(QLabel("seed"))
        split_row.addWidget(self.seed)
        form = QFormLayout()
        form.addRow("Base model", self.base)
        form.addRow("Fused with", fusion_row)
        form.addRow("Stage", stage_row)
        form.addRow("Stages", self.stages)
        form.addRow("Name", self.name)
        form.addRow("", self.verdict)
        form.addRow("Visible tests", split_row)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.buttons)

        for box in (self.base, self.fusion, self.partner):
            box.currentIndexChanged.connect(self.compose)
        self.fusion_options.textChanged.connect(self.compose)
        self.add_button.clicked.connect(self.add_stage)
        self.remove_button.clicked.connect(self.remove_stage)
        self.name.textChanged.connect(self.validate)
        self.visible.textChanged.connect(self.validate)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.compose()

    # composing --------------------------------------------------------------------------
    def base_text(self) -> str:
        fusion = str(self.fusion.currentData() or "")
        if not fusion:
            return self.base.currentText()
        opts = self.fusion_options.text().strip()
        return f"{fusion}:{self.base.currentText()},{self.partner.currentText()}" + (
            f",{opts}" if opts else "")

    def compose(self) -> None:
        """The name from the base and the stage list (overwrites a typed name)."""
        fused = bool(self.fusion.currentData())
        self.partner.setEnabled(fused)
        self.fusion_options.setEnabled(fused)
        parts = [self.base_text()] + [self.stages.item(i).text()
                                      for i in range(self.stages.count())]
        self.name.setText("+".join(parts))

    def add_stage(self) -> None:
        opts = self.stage_opts.text().strip()
        self.stages.addItem(self.stage.currentText() + (f":{opts}" if opts else ""))
        self.compose()

    def remove_stage(self) -> None:
        row = self.stages.currentRow()
        self.stages.takeItem(row if row >= 0 else self.stages.count() - 1)
        self.compose()

    # checking ---------------------------------------------------------------------------
    def problem(self) -> str:
        """What is wrong with the name or the split, in the engine's words ("" if none)."""
        name = self.name.text().strip()
        error = engine.check_pipeline(name)
        if error:
            return error
        if engine.needs_split(name):
            try:
                engine.parse_visible(self.visible.text().strip())
            except ValueError as exc:
                return f"--visible: {exc}"
        return ""

    def validate(self) -> None:
        problem = self.problem()
        staged = not problem and engine.needs_split(self.name.text().strip())
        self.visible.setEnabled(staged or not self.name.text().strip())
        self.seed.setEnabled(self.visible.isEnabled())
        if problem:
            self.verdict.setText(f"<span style='color:#b00020'>{problem}</span>")
        elif staged:
            self.verdict.setText("<span style='color:#1e7d32'>A pipeline: its stages run "
                                 "on the visible tests; every model is then judged on the "
                                 "held-out ones.</span>")
        else:
            self.verdict.setText("<span style='color:#1e7d32'>A name the engine "
                                 "reads.</span>")
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(not problem and bool(self.name.text().strip()))

    def accept(self) -> None:  # Qt override
        if self.problem():
            return
        name = self.name.text().strip()
        if engine.needs_split(name):
            self.state.set_split(engine.parse_visible(self.visible.text().strip()),
                                 self.seed.value())
        super().accept()
        self.state.set_model(name, self.which)


def ask_pipeline(state: InspectorState, which: str, parent: QWidget | None = None) -> None:
    """Open the dialog (modeless); nothing happens without a benchmark."""
    if state.benchmark is None:
        state.message.emit("Open a benchmark first")
        return
    dialog = PipelineDialog(state, which, parent)
    dialog.setModal(True)
    dialog.show()
