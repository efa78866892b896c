"""The cycle collector is held back while the window starts and works as before once the
first query is usable (what the start allocated frozen, the thresholds given back)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

from execretrieval_gui import collector

REPO = Path(__file__).resolve().parent.parent

START = r'''
import gc, json, os, sys, tempfile
before = gc.get_threshold()
from PySide6.QtCore import QSettings, QTimer
from execretrieval_gui.app import create_app
from execretrieval_gui.mainwindow import MainWindow
seen = {"before": before, "imported": gc.get_threshold()}
app = create_app()
window = MainWindow(QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"),
                              QSettings.Format.IniFormat))
window.show()
def ready(query_id):
    seen.update(ready=gc.get_threshold(), frozen=gc.get_freeze_count(), query=query_id)
    QTimer.singleShot(0, app.quit)
window.state.query_ready.connect(ready)
window.open(sys.argv[1], model="bm25", query="lowest_set_bit")
QTimer.singleShot(60000, app.quit)
app.exec()
window.close()
print(json.dumps(seen))
'''


def test_a_start_collects_nothing_until_the_first_query_is_usable(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "EXECRETRIEVAL_CACHE_DIR": str(tmp_path / "cache"),
           "EXECRETRIEVAL_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-c", START, str(REPO / "data" / "tiny")],
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["query"] == "q_0001"
    assert seen["imported"][0] >= collector.START_THRESHOLD > seen["before"][0]
    assert seen["imported"][1:] == seen["before"][1:]
    # once usable: as before, and the start's objects in the permanent generation
    assert seen["ready"] == seen["before"] and seen["frozen"] > 10_000


def test_hold_and_release_give_back_the_thresholds_they_found() -> None:
    collector.release()   # whatever this process's start left
    saved = gc.get_threshold()
    try:
        gc.set_threshold(500, 7, 9)
        collector.hold()
        assert gc.get_threshold() == (collector.START_THRESHOLD, 7, 9)
        collector.hold()   # a second hold keeps the first one's thresholds
        collector.release()
        assert gc.get_threshold() == (500, 7, 9)
        collector.release()   # not held: nothing changes
        assert gc.get_threshold() == (500, 7, 9)
    finally:
        gc.set_threshold(*saved)
