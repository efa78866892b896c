"""Docks: a change on a dock's contents repaints the contents, not the dock's title, and
what is on screen is what a full repaint of the window draws."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QProxyStyle,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from execretrieval_gui.docks import Dock


class TitleCounter(QProxyStyle):
    """The application's style, counting the dock titles it draws."""

    def __init__(self) -> None:
        super().__init__(QApplication.style().name())
        self.titles = 0

    def drawControl(self, element: Any, option: Any, painter: Any,  # Qt override
                    widget: Any = None) -> None:
        if element == QStyle.ControlElement.CE_DockWidgetTitle:
            self.titles += 1
        super().drawControl(element, option, painter, widget)


@pytest.fixture(autouse=True)
def _no_style_sheet() -> Iterator[None]:
    """The window's style sheet draws dock titles itself, past the counting style: these
    tests count under the plain style (the screenshots check the styled window)."""
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    sheet = app.styleSheet()
    app.setStyleSheet("")
    yield
    app.setStyleSheet(sheet)


def _window(qtbot) -> tuple[QMainWindow, Dock, QLabel, TitleCounter]:  # type: ignore[no-untyped-def]
    window = QMainWindow()
    window.setCentralWidget(QLabel("centre"))
    dock = Dock("Tests", window)
    page = QWidget()
    page.setMinimumWidth(260)   # the texts below change, the dock's width does not
    layout = QVBoxLayout(page)
    label = QLabel("t3 fail: assert 4 == 5")
    layout.addWidget(label)
    layout.addStretch(1)
    dock.setWidget(page)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    counter = TitleCounter()
    dock.setStyle(counter)
    window.resize(500, 300)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: counter.titles > 0)   # shown: the title was drawn
    qtbot.wait(100)   # and whatever else showing it asked for
    return window, dock, label, counter


def _on_screen(window: QMainWindow) -> QImage:
    return window.screen().grabWindow(window.winId()).toImage()


def test_new_text_on_a_dock_does_not_paint_its_title(qtbot) -> None:  # type: ignore[no-untyped-def]
    window, _dock, label, counter = _window(qtbot)
    counter.titles = 0
    label.setText("t7 fail: assert 1 == 2")
    qtbot.wait(100)   # the layout requests and the repaint they cause, all delivered
    assert counter.titles == 0   # QDockWidget drew it again beneath the label
    # and the screen shows what a full repaint draws: the title is still there
    assert _on_screen(window) == window.grab().toImage()


def test_a_new_title_is_painted(qtbot) -> None:  # type: ignore[no-untyped-def]
    window, dock, _label, counter = _window(qtbot)
    before = _on_screen(window)
    counter.titles = 0
    dock.setWindowTitle("Outcomes of the selected candidate")
    qtbot.wait(100)
    assert counter.titles > 0
    after = _on_screen(window)
    assert after != before
    assert after == window.grab().toImage()
