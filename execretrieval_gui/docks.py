"""A dock widget that paints its title only when the title needs it.

Docked, a QDockWidget paints one thing of its own: its title (the frame is drawn only
while it floats). Yet it gets a paint event whenever anything on it that does not paint
every pixel itself is repainted — a label's new text, a scroll bar moved — because Qt
paints the parents beneath such a widget first; and each time the style works out where
the title's buttons go, making their icons from the icon theme again. A query switch
repainted all three docks so. The title lies outside the contents widget, so a paint
event whose area lies inside the contents draws nothing of the dock's own.
"""

from __future__ import annotations

from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QDockWidget

__all__ = ["Dock"]


class Dock(QDockWidget):
    """A :class:`QDockWidget` that skips painting its title when the area to repaint lies
    inside its contents widget (docked; a floating dock paints as Qt's does)."""

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        contents = self.widget()
        if contents is not None and not self.isFloating() \
                and contents.geometry().contains(event.rect()):
            return
        super().paintEvent(event)
