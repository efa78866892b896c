"""A tab widget that repaints its pages only when something on them changed.

QTabWidget answers every layout request by placing its tab bar and page stack again and
then repainting itself whole, pages included (``QTabWidgetPrivate::setUpLayout`` ends in
``update()``). A request reaches it whenever a widget anywhere on its pages changes its size
hint — any label's new text, in this window also a label in a dock beside it, by way of the
main window's layout — so each query switch repainted the whole Inspect tab (spin box,
mode buttons, tab bar, splitter handle) on top of the candidates and the diff that had
changed. The places setUpLayout computes depend only on the widget's size, its tab bar's
and corner widgets' size hints and the tab position; while those are as at the last layout,
the request is answered as a plain widget answers it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QTabWidget, QWidget

__all__ = ["SteadyTabWidget"]


class SteadyTabWidget(QTabWidget):
    """A :class:`QTabWidget` that lays itself out (and repaints) again on a layout request
    only if what it lays out changed since it last did."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._laid_out: tuple[Any, ...] | None = None

    def _layout_key(self) -> tuple[Any, ...]:
        corners = tuple(
            (w.isVisibleTo(self), w.sizeHint().toTuple()) if w is not None else None
            for w in (self.cornerWidget(Qt.Corner.TopLeftCorner),
                      self.cornerWidget(Qt.Corner.TopRightCorner)))
        return (self.size().toTuple(), self.tabBar().sizeHint().toTuple(),
                self.tabBar().isVisibleTo(self), self.tabPosition(), self.tabShape(),
                self.documentMode(), self.count(), corners)

    def event(self, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.LayoutRequest and self.isVisible():
            key = self._layout_key()
            if key == self._laid_out:
                # as setUpLayout would, tell the parent's layout the hints may have changed
                self.updateGeometry()
                return QWidget.event(self, event)
            self._laid_out = key
        return super().event(event)
