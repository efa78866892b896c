"""The centre and tests tabs: a label's new text repaints the label, not the whole tab; the
tab widget still lays itself out again when its size or its tab bar changes."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QVBoxLayout, QWidget

from execretrieval_gui.tabs import SteadyTabWidget


class PaintCounter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def _tabs(qtbot) -> tuple[SteadyTabWidget, QLabel, QPushButton]:  # type: ignore[no-untyped-def]
    tabs = SteadyTabWidget()
    page = QWidget()
    layout = QVBoxLayout(page)
    label = QLabel("short")
    button = QPushButton("Run")
    layout.addWidget(label)
    layout.addWidget(button)
    layout.addStretch(1)
    tabs.addTab(page, "Outcomes")
    tabs.addTab(QWidget(), "Scratch")
    tabs.resize(400, 300)
    qtbot.addWidget(tabs)
    tabs.show()
    qtbot.waitExposed(tabs)
    QApplication.processEvents()
    return tabs, label, button


def test_a_label_text_change_repaints_the_label_not_its_neighbours(qtbot) -> None:  # type: ignore[no-untyped-def]
    tabs, label, button = _tabs(qtbot)
    counter = PaintCounter()
    button.installEventFilter(counter)
    tab_bar = PaintCounter()
    tabs.tabBar().installEventFilter(tab_bar)
    label.setText("a much longer text than before, still one line")
    qtbot.wait(100)   # the layout requests and the repaint they cause, all delivered
    assert label.text().startswith("a much longer")
    assert counter.paints == 0    # QTabWidget repainted the whole page (and the bar) here
    assert tab_bar.paints == 0


def test_the_pages_follow_a_resize_and_a_new_tab(qtbot) -> None:  # type: ignore[no-untyped-def]
    tabs, label, _button = _tabs(qtbot)
    page = tabs.widget(0)
    before = page.width()
    tabs.resize(600, 300)
    QApplication.processEvents()
    assert page.width() > before + 150   # the page takes the new width
    label.setText("another text")        # a layout request after the resize: still laid out
    QApplication.processEvents()
    assert page.width() > before + 150
    bar_width = tabs.tabBar().width()
    tabs.addTab(QWidget(), "Top-k × tests")
    QApplication.processEvents()
    assert tabs.tabBar().width() > bar_width   # the bar grows for the third tab
    assert tabs.tabBar().width() >= tabs.tabBar().sizeHint().width()
