"""The cycle collector is held back while the window starts and works as before once the
first query is usable: the thresholds given back, nothing the start made left uncollected."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import weakref
from pathlib import Path

from execretrieval_gui import collector

REPO = Path(__file__).resolve().parent.parent

START = r'''
import gc, json, os, sys, tempfile
from PySide6.QtCore import QSettings, QTimer
before, passes = gc.get_threshold(), []
gc.callbacks.append(lambda phase, info: phase == "start" and passes.append(info["generation"]))
from execretrieval_gui.app import create_app
from execretrieval_gui.mainwindow import MainWindow
seen = {"before": before, "imported": gc.get_threshold(), "passes_then": len(passes)}
app = create_app()
window = MainWindow(QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"),
                              QSettings.Format.IniFormat))
window.show()
def ready(query_id):
    seen.update(ready=gc.get_threshold(), frozen=gc.get_freeze_count(), query=query_id,
                passes=len(passes) - seen["passes_then"])
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
    assert seen["passes"] == 0   # from the imports to the first usable query
    assert seen["ready"] == seen["before"] and seen["frozen"] == 0   # as before, from then on


class _Node:
    def __init__(self) -> None:
        self.me = self   # a reference cycle: only the collector frees it


def test_a_cycle_made_during_the_start_is_still_collected() -> None:
    collector.release()   # whatever this process's start left
    saved = gc.get_threshold()
    try:
        collector.hold()
        node = _Node()
        alive = weakref.ref(node)
        collector.release()
        del node
        gc.collect()
        assert alive() is None
    finally:
        gc.set_threshold(*saved)


def test_hold_and_release_give_back_the_thresholds_they_found() -> None:
    collector.release()
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
