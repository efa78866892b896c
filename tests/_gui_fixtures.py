"""Fixtures for the GUI tests (imported by tests/test_gui_*.py, not a conftest).

Every GUI test runs offscreen, keeps its QSettings in its own tmp file, and fails if it
leaves work running on the QThreadPool.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QThreadPool

__all__ = ["make_window", "no_leftover_work", "settings_file"]


@pytest.fixture(autouse=True)
def no_leftover_work(qapp) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """Fail a test that leaves QThreadPool work running (after the pool is drained)."""
    yield
    pool = QThreadPool.globalInstance()
    # a task whose 'finished' was just delivered may still be leaving run(): a short grace
    if pool.activeThreadCount() and not pool.waitForDone(250):
        pool.waitForDone(20000)
        pytest.fail("the test left work running on the QThreadPool")


@pytest.fixture
def settings_file(tmp_path: Path) -> Path:
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      str(tmp_path / "qsettings"))
    return tmp_path / "inspector.ini"


@pytest.fixture
def make_window(qtbot, settings_file: Path):  # type: ignore[no-untyped-def]
    """``make_window()`` -> a shown MainWindow with settings in ``settings_file``.

    Windows are closed (work cancelled and awaited) at teardown.
    """
    from execretrieval_gui.app import create_app
    from execretrieval_gui.mainwindow import MainWindow

    create_app()
    made = []

    def make():  # type: ignore[no-untyped-def]
        window = MainWindow(QSettings(str(settings_file), QSettings.Format.IniFormat))
        qtbot.addWidget(window)
        window.show()
        made.append(window)
        return window

    yield make
    for window in made:
        if window.isVisible():
            window.close()


def open_and_wait(qtbot, window, path, model="bm25", query=None, timeout=60000):  # type: ignore[no-untyped-def]
    """Open a benchmark and wait until the first query's candidates, diff and tests show."""
    with qtbot.waitSignal(window.state.query_ready, timeout=timeout):
        window.open(path, model=model, query=query)
    return window
