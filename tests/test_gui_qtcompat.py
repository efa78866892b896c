"""PySide6 work-arounds (execretrieval_gui.qtcompat, .viewports): what they mark and give
matches what PySide6 itself would have found, and the views still behave."""

from __future__ import annotations

import importlib.util
import sys

import pytest

pytest.importorskip("PySide6")

from execretrieval_gui import qtcompat  # noqa: E402
from execretrieval_gui.viewports import own_viewport  # noqa: E402


def test_feature_marks_agree_with_pysides_own_scan() -> None:
    """Every module of both packages is marked as PySide6's import hook would mark it after
    reading its source — 0 (default features) for the GUI's, -1 (ignore) for the engine's,
    which never names PySide6 — so nothing of ours is left for the hook to read."""
    from PySide6.support import feature

    marks = feature.pyside_feature_dict
    assert qtcompat.FEATURE_SCANS_SKIPPED > 0
    gui = qtcompat.module_names("execretrieval_gui")
    engine = qtcompat.module_names("execretrieval")
    assert {"execretrieval_gui.mainwindow", "execretrieval_gui.qtcompat"} <= gui
    assert {"execretrieval.measure.metrics", "execretrieval.oracle.sandbox"} <= engine
    for name in sorted(gui | engine):
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, name
        with open(spec.origin, encoding="utf-8") as handle:
            uses = "PySide6" in handle.read()     # what the hook's scan looks for
        if name in sys.modules:                   # ... and the scan itself agrees
            assert feature._mod_uses_pyside(sys.modules[name]) == uses, name
        if name in gui:   # 0 even where the scan would say -1: both mean no features
            assert marks[name] == 0, name
        else:
            assert not uses, f"{name} names PySide6 (the engine never imports Qt)"
            assert marks[name] == -1, name


def test_an_own_viewport_is_the_views_viewport_and_gets_its_events(qtbot) -> None:
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QTableView

    seen: list[int] = []

    class Watcher(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
            if event.type() == QEvent.Type.Resize:
                seen.append(watched.width())
            return False

    view = QTableView()
    qtbot.addWidget(view)
    viewport = own_viewport(view)
    watcher = Watcher(view)
    assert view.viewport() is viewport
    viewport.installEventFilter(watcher)
    view.resize(300, 200)
    view.show()
    qtbot.waitUntil(lambda: bool(seen))
    view.resize(420, 200)
    qtbot.waitUntil(lambda: seen[-1] == viewport.width() and viewport.width() > 300)
    assert viewport.objectName() == "qt_scrollarea_viewport"
