"""Running blocking engine calls off the UI thread.

:class:`Task` wraps one call ``fn(progress, should_stop)`` in a ``QRunnable`` on the global
``QThreadPool``; its :class:`TaskSignals` (a QObject living in the GUI thread) delivers
``progress / result / error / finished`` queued to the GUI thread. Progress is throttled
to a few updates a second.

:class:`TaskSlot` is "one task per panel": starting a new task cancels the previous one
(its ``should_stop`` turns true) and disowns it, so a stale result never reaches the panel.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from . import qtcompat  # noqa: F401  (before anything else touches Qt)

__all__ = ["Task", "TaskSignals", "TaskSlot", "emit_partial", "wait_for_all"]

ProgressHook = Callable[[int, int], None]
StopHook = Callable[[], bool]
Work = Callable[[ProgressHook, StopHook], Any]

_PROGRESS_INTERVAL = 0.08  # seconds between progress signals
_live: set[Task] = set()   # tasks whose signals object must stay alive until 'finished'
_live_lock = threading.Lock()
_running = threading.local()     # .task: the Task running on this pool thread


def emit_partial(value: Any) -> None:
    """From inside a task's function: hand a partial result to the GUI thread now."""
    task = getattr(_running, "task", None)
    if task is not None and not task.cancelled:
        task._emit(task.signals.partial, value)


class TaskSignals(QObject):
    """Signals of one task; created in (and so delivered to) the GUI thread."""

    progress = Signal(int, int)
    result = Signal(object)
    partial = Signal(object)     # from emit_partial()
    error = Signal(object)       # the exception instance
    finished = Signal()


class Task(QRunnable):
    """One blocking call run on the thread pool. ``cancel()`` makes ``should_stop`` true."""

    def __init__(self, fn: Work, name: str = "task") -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.fn: Work | None = fn
        self.name = name
        self.signals = TaskSignals()
        self._stop = threading.Event()
        self._last_progress = 0.0
        self.done = threading.Event()

    def cancel(self) -> None:
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        return self._stop.is_set()

    def should_stop(self) -> bool:
        return self._stop.is_set()

    def report(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done >= total or now - self._last_progress >= _PROGRESS_INTERVAL:
            self._last_progress = now
            self._emit(self.signals.progress, int(done), int(total))

    def start(self, pool: QThreadPool | None = None) -> Task:
        with _live_lock:
            _live.add(self)
        self.signals.finished.connect(self._release)
        (pool or QThreadPool.globalInstance()).start(self)
        return self

    def _release(self) -> None:
        with _live_lock:
            _live.discard(self)

    def run(self) -> None:  # Qt override, runs on a pool thread
        _running.task = self
        # the work is dropped before anyone hears of the end: a finished task lives on as
        # long as Qt holds its connections, and its work's closure (the benchmark it ranked,
        # the oracle) must not live with it
        fn, self.fn = self.fn, None
        assert fn is not None, "a task runs once"
        try:
            value = fn(self.report, self.should_stop)
        except BaseException as exc:  # noqa: BLE001 - everything must reach the GUI
            exc.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
            self._emit(self.signals.error, exc)
        else:
            self._emit(self.signals.result, value)
        finally:
            _running.task = None
            self.done.set()
            self._emit(self.signals.finished)

    @staticmethod
    def _emit(signal: Any, *args: Any) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:   # the application is gone (quit while we ran): nobody listens
            pass


class TaskSlot(QObject):
    """At most one live task for a panel; results of replaced tasks are dropped."""

    busy_changed = Signal(bool)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self._current: Task | None = None
        self._generation = 0

    @property
    def busy(self) -> bool:
        return self._current is not None

    @property
    def current(self) -> Task | None:
        return self._current

    def start(
        self,
        fn: Work,
        on_result: Callable[[Any], None],
        on_error: Callable[[BaseException], None] | None = None,
        on_progress: Callable[[int, int], None] | None = None,
        on_finished: Callable[[], None] | None = None,
        on_partial: Callable[[Any], None] | None = None,
    ) -> Task:
        """Cancel the running task (if any) and start ``fn``; callbacks fire only for it."""
        self.cancel()
        self._generation += 1
        generation = self._generation
        task = Task(fn, self.name)

        def fresh() -> bool:
            return generation == self._generation

        def handle_result(value: Any) -> None:
            if fresh():
                on_result(value)

        def handle_error(exc: BaseException) -> None:
            if fresh() and on_error is not None:
                on_error(exc)

        def handle_partial(value: Any) -> None:
            if fresh() and on_partial is not None:
                on_partial(value)

        def handle_progress(done: int, total: int) -> None:
            if fresh() and on_progress is not None:
                on_progress(done, total)

        def handle_finished() -> None:
            if fresh():
                self._current = None
                self.busy_changed.emit(False)
                if on_finished is not None:
                    on_finished()

        task.signals.result.connect(handle_result)
        task.signals.error.connect(handle_error)
        task.signals.progress.connect(handle_progress)
        task.signals.partial.connect(handle_partial)
        task.signals.finished.connect(handle_finished)
        self._current = task
        self.busy_changed.emit(True)
        return task.start()

    def cancel(self) -> None:
        """Stop the running task and disown it (its result, if any, is dropped)."""
        if self._current is not None:
            self._current.cancel()
            self._current = None
            self._generation += 1
            self.busy_changed.emit(False)


def wait_for_all(timeout_ms: int = 10000) -> bool:
    """Block until every task has left the pool (used at exit and in tests)."""
    return QThreadPool.globalInstance().waitForDone(timeout_ms)
