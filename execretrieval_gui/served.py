""""Served model…": encode the benchmark through an OpenAI-compatible embedding service.

The dialog asks for the base URL, the model, the *name* of the environment variable that
holds the key (the key itself is never typed, shown or stored) and a preset of prefixes.
Encoding runs in the state's worker (:meth:`InspectorState.embed_served`) with progress and
cancel; the written ``embeddings/<model>.npz`` is then ranked as model A.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QWidget,
)

from . import engine

if TYPE_CHECKING:
    from .state import InspectorState

__all__ = ["ServedModelDialog", "ask_served_model"]

_KEYS = ("base_url", "model", "api_key_env", "preset", "dimensions")


class ServedModelDialog(QDialog):
    """Base URL, model, key variable, preset; Encode starts, Cancel stops or closes."""

    def __init__(self, state: InspectorState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("servedModelDialog")
        self.setWindowTitle("Served embedding model")
        self.state = state
        self.base_url = QLineEdit("http://127.0.0.1:8080/v1")
        self.base_url.setMinimumWidth(self.base_url.fontMetrics().horizontalAdvance("x" * 48))
        self.base_url.setToolTip("OpenAI-compatible base URL: …/v1 of vLLM, "
                                 "text-embeddings-inference, Ollama, or a hosted API")
        self.model = QLineEdit()
        self.model.setPlaceholderText("e.g. BAAI/bge-small-en-v1.5 or text-embedding-3-small")
        self.key_env = QLineEdit("OPENAI_API_KEY")
        self.key_env.setToolTip("Name of the environment variable holding the key "
                                "(empty or unset: no key, fine for a local server)")
        self.key_state = QLabel()
        self.preset = QComboBox()
        self.preset.addItem("(no prefixes)", "")
        for name in engine.served_presets():
            self.preset.addItem(name, name)
        self.dimensions = QSpinBox()
        self.dimensions.setRange(0, 65536)
        self.dimensions.setSpecialValueText("model default")
        self.progress = QProgressBar()
        self.progress.hide()
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.encode_button = QPushButton("Encode")
        self.encode_button.setDefault(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.addButton(self.encode_button, QDialogButtonBox.ButtonRole.ActionRole)

        form = QFormLayout(self)
        form.addRow("Base URL", self.base_url)
        form.addRow("Model", self.model)
        form.addRow("Key variable", self.key_env)
        form.addRow("", self.key_state)
        form.addRow("Preset", self.preset)
        form.addRow("Dimensions", self.dimensions)
        form.addRow(self.progress)
        form.addRow(self.note)
        form.addRow(self.buttons)

        self._restore()
        self._on_key_env_changed(self.key_env.text())
        self.key_env.textChanged.connect(self._on_key_env_changed)
        self.encode_button.clicked.connect(self._on_encode_clicked)
        self.buttons.rejected.connect(self.reject)
        state.embed_progress.connect(self._on_state_embed_progress)
        state.embed_status.connect(self._on_state_embed_status)
        state.embed_finished.connect(self._on_state_embed_finished)

    def request(self) -> dict[str, object]:
        """What the state needs to encode (the key's variable name, never the key)."""
        return {"base_url": self.base_url.text().strip(), "model": self.model.text().strip(),
                "api_key_env": self.key_env.text().strip(),
                "preset": self.preset.currentData() or None,
                "dimensions": self.dimensions.value() or None}

    # slots ----------------------------------------------------------------------------
    def _on_key_env_changed(self, name: str) -> None:
        name = name.strip()
        if not name:
            self.key_state.setText("no key sent")
        elif os.environ.get(name):
            self.key_state.setText(f"${name} is set; its value is sent as a bearer token")
        else:
            self.key_state.setText(f"${name} is not set: no key sent (fine for a local "
                                   "server)")

    def _on_encode_clicked(self) -> None:
        request = self.request()
        if not request["base_url"] or not request["model"]:
            self.note.setText("Give the base URL and the model name.")
            return
        self._save(request)
        self._set_running(True)
        self.note.setText("Encoding … (vectors are cached as they arrive; Cancel keeps them)")
        self.state.embed_served(request)

    def _on_state_embed_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done if total else 1)
        self.progress.setFormat(f"{done}/{total} texts")

    def _on_state_embed_status(self, text: str) -> None:
        self.note.setText(text)

    def _on_state_embed_finished(self, ok: bool, text: str) -> None:
        self._set_running(False)
        if ok:
            self.accept()
        else:
            self.note.setText(text)

    def reject(self) -> None:  # Qt override: Cancel stops encoding first
        if self.state.embed_slot.busy:
            self.state.cancel_embed()
            return
        super().reject()

    # helpers --------------------------------------------------------------------------
    def _set_running(self, running: bool) -> None:
        for widget in (self.base_url, self.model, self.key_env, self.preset, self.dimensions,
                       self.encode_button):
            widget.setEnabled(not running)
        self.progress.setVisible(running)
        if running:
            self.progress.setRange(0, 0)

    def _settings(self) -> QSettings:
        """The window's settings file when there is one (tests, screenshots), else the app's."""
        own = getattr(self.parent(), "settings", None)
        return own if isinstance(own, QSettings) else QSettings()

    def _restore(self) -> None:
        settings = self._settings()
        settings.beginGroup("served")
        for key in _KEYS:
            value = settings.value(key)
            if value in (None, ""):
                continue
            if key == "preset":
                self.preset.setCurrentIndex(max(0, self.preset.findData(str(value))))
            elif key == "dimensions":
                self.dimensions.setValue(int(value))
            else:
                {"base_url": self.base_url, "model": self.model,
                 "api_key_env": self.key_env}[key].setText(str(value))
        settings.endGroup()

    def _save(self, request: dict[str, object]) -> None:
        settings = self._settings()
        settings.beginGroup("served")
        for key in _KEYS:
            settings.setValue(key, request[key] if request[key] is not None else "")
        settings.endGroup()


def ask_served_model(state: InspectorState, parent: QWidget | None = None) -> None:
    """Open the dialog (window-modal, not blocking); it closes once the model is loaded."""
    if state.benchmark is None:
        state.message.emit("Open a benchmark first")
        return
    dialog = ServedModelDialog(state, parent)
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
