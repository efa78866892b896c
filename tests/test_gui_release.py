"""A benchmark the window no longer shows is freed: opening another one leaves nothing of
the first alive (a finished background task kept its work, and so the benchmark it ranked,
for as long as the process ran)."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401

from execretrieval_gui.workers import Task, wait_for_all

REPO = Path(__file__).resolve().parent.parent


def test_the_first_benchmark_is_freed_once_another_is_open(qtbot, make_window) -> None:
    window = make_window()
    open_and_wait(qtbot, window, REPO / "data" / "builtin", model="bm25")
    first = weakref.ref(window.state.benchmark)
    open_and_wait(qtbot, window, REPO / "data" / "tiny", model="bm25")
    assert window.state.benchmark.name == "tiny"
    wait_for_all()
    qtbot.wait(50)    # the finished tasks' signals delivered
    gc.collect()
    holders = [type(r).__name__ for r in gc.get_referrers(first())] if first() else []
    assert first() is None, f"the first benchmark is still held by {holders}"


def test_a_finished_task_lets_go_of_its_work(qtbot) -> None:
    class Work:
        def __call__(self, report, should_stop):  # type: ignore[no-untyped-def]
            return 42

    work = Work()
    alive = weakref.ref(work)
    task = Task(work, "test")
    with qtbot.waitSignal(task.signals.finished, timeout=10000):
        task.start()
    del work
    gc.collect()
    assert alive() is None
