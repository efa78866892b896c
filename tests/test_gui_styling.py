"""The style sheet is set once the main window is built: each widget is styled once, not
once per level of the window it was re-parented into, and the window is styled when shown;
a window built without the main window is styled once the event loop turns."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# a fresh interpreter, as at start-up (in this process the sheet is set already)
SCRIPT = textwrap.dedent(
    """
    import collections, json, os, sys, tempfile
    from PySide6.QtCore import QEvent, QObject, QSettings, QTimer
    from PySide6.QtWidgets import QApplication, QDialog, QPushButton, QWidget
    from shiboken6 import getCppPointer
    from execretrieval_gui.app import create_app

    app = create_app()
    if sys.argv[1] == "dialog":   # no main window: the sheet waits for the event loop
        dialog = QDialog()
        QPushButton("OK", dialog)
        before = app.styleSheet()
        QTimer.singleShot(0, app.quit)
        app.exec()
        print(json.dumps({"before": before, "after": app.styleSheet()}))
        sys.exit(0)

    from execretrieval_gui.mainwindow import MainWindow

    changes = collections.Counter()

    class Count(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.StyleChange and isinstance(obj, QWidget):
                changes[getCppPointer(obj)[0]] += 1
            return False

    counter = Count()
    app.installEventFilter(counter)
    window = MainWindow(QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"),
                                  QSettings.Format.IniFormat))
    app.removeEventFilter(counter)
    widgets = window.findChildren(QWidget)
    print(json.dumps({"sheet": app.styleSheet(), "widgets": len(widgets),
                      "changes": sum(changes.values()), "most": max(changes.values())}))
    """)


def _run(tmp_path: Path, what: str) -> dict:  # type: ignore[type-arg]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "EXECRETRIEVAL_CACHE_DIR": str(tmp_path / "cache"),
           "EXECRETRIEVAL_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-c", SCRIPT, what], capture_output=True,
                          text=True, cwd=REPO, env=env, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_each_widget_of_the_window_is_styled_once(tmp_path: Path) -> None:
    """With the sheet set before the window was built, a widget deep in a dock was styled
    again each time its panel, the dock and the window took it in (up to 7 times; 1,457
    style changes for 352 widgets)."""
    sheet = (REPO / "resources" / "style.qss").read_text(encoding="utf-8")
    seen = _run(tmp_path, "window")
    assert seen["sheet"] == sheet          # the window is built styled
    assert seen["widgets"] > 100
    assert seen["most"] == 1, seen         # once each, when the sheet is set
    assert seen["changes"] <= seen["widgets"] + 1   # the window itself too


def test_a_window_built_alone_is_styled_once_the_event_loop_turns(tmp_path: Path) -> None:
    sheet = (REPO / "resources" / "style.qss").read_text(encoding="utf-8")
    seen = _run(tmp_path, "dialog")
    assert seen["before"] == ""
    assert seen["after"] == sheet
