"""A tab page that builds its widget the first time it is shown or asked for.

The window opens on the Inspect tab; the Metrics and Audit views (and the engine modules
behind them: numpy, the audit and input engines) are built when first needed, so start-up
pays only for the first screen. The page's layout has no margins: the built widget looks
exactly as it would as the tab page itself.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

__all__ = ["LazyPage"]


class LazyPage(QWidget):
    """Holds ``build`` until the page is shown (or :meth:`widget` is called), then shows the
    widget ``build`` returns; ``build`` runs once."""

    def __init__(self, build: Callable[[], QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._build: Callable[[], QWidget] | None = build
        self._widget: QWidget | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)

    @property
    def is_built(self) -> bool:
        return self._widget is not None

    def widget(self) -> QWidget:
        """The page's widget, built now if it was not yet."""
        if self._widget is None:
            build, self._build = self._build, None
            assert build is not None
            widget = build()
            self._widget = widget
            self.layout().addWidget(widget)
        return self._widget

    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        self.widget()
        super().showEvent(event)
