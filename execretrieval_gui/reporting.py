"""Metrics and report export, computed in workers (execution of the top-10 can take a while)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from . import engine
from .workers import TaskSlot

if TYPE_CHECKING:
    from .controller import Inspector
    from .mainwindow import MainWindow

__all__ = ["Reporter"]


class Reporter(QObject):
    """Computes evaluations for the metrics view and writes reports."""

    exported = Signal(str)   # path written

    def __init__(self, window: MainWindow, inspector: Inspector) -> None:
        super().__init__(window)
        self.w = window
        self.ins = inspector
        self.metrics_slot = TaskSlot("metrics", self)
        self.export_slot = TaskSlot("export", self)
        self.last: tuple[Any, ...] | None = None   # (key, ev_a, ev_b, comparison)

    def _exclude(self, exclude_flagged: bool) -> frozenset[str]:
        store = self.ins.store
        return frozenset(store.flagged_query_ids()) if (exclude_flagged and store) else frozenset()

    def _job(self, exclude: frozenset[str]) -> tuple[Any, Any, Any, Any, Any]:
        ins = self.ins
        return ins.benchmark, ins.ranking_a, ins.ranking_b, ins.oracle, exclude

    def compute(self, exclude_flagged: bool = False) -> None:
        if self.ins.benchmark is None or self.ins.ranking_a is None:
            self.ins.message.emit("Nothing to measure yet: open a benchmark and pick a model")
            return
        exclude = self._exclude(exclude_flagged)
        bench, ra, rb, oracle, _ = self._job(exclude)
        key = (bench.fingerprint, ra.model, rb.model if rb is not None else "", exclude)
        self.w.metrics.set_busy(True)
        self.ins.message.emit("Computing metrics (executing the top-10 of every query) …")
        self.metrics_slot.start(
            lambda progress, should_stop: engine.evaluate_models(
                bench, ra, rb, oracle, exclude, progress, should_stop),
            on_result=lambda value: self._on_metrics_result(key, *value),
            on_progress=lambda d, t: self.w.metrics.set_busy(True, d, t),
            on_error=lambda exc: self.ins._on_task_error("Cannot compute metrics", exc),
            on_finished=lambda: self.w.metrics.set_busy(False))

    def _on_metrics_result(self, key: Any, ev_a: Any, ev_b: Any, comparison: Any) -> None:
        self.last = (key, ev_a, ev_b, comparison)
        bench = self.ins.benchmark
        names = {q.query_id: q.function_name for q in bench.queries} if bench else {}
        self.w.metrics.show_results(ev_a, ev_b, comparison, names)
        m = ev_a.metrics
        self.ins.message.emit(
            f"{ev_a.model}: exec@1 {m['exec@1'].mean:.3f}, exec@10 {m['exec@10'].mean:.3f}"
            if "exec@10" in m else f"{ev_a.model}: metrics ready")
        # the browser's rank-1 column now follows the oracle, not correct_corpus_ids
        status = self.ins.status_a
        if bench is not None and status is not None and ev_a.passes is not None \
                and not ev_a.excluded and ev_a.ranking is self.ins.ranking_a:
            self.ins.status_a = status.with_exec_top1(ev_a.passes[:, 0])
            self.w.browser.set_status(self.ins.status_a, self.ins.status_b)

    def export(self, path: str | Path, exclude_flagged: bool) -> None:
        """Write the report (format from the extension) in the background."""
        if self.ins.benchmark is None or self.ins.ranking_a is None:
            self.ins.failed.emit("Nothing to export", "Open a benchmark and pick a model first.")
            return
        path = Path(path)
        exclude = self._exclude(exclude_flagged)
        bench, ra, rb, oracle, _ = self._job(exclude)
        self.w.set_export_busy(True)
        self.ins.message.emit(f"Exporting {path.name} …")
        evaluations = None
        key = (bench.fingerprint, ra.model, rb.model if rb is not None else "", exclude)
        if self.last is not None and self.last[0] == key:
            evaluations = (self.last[1], self.last[2])   # measured already: just write
        sources = tuple(m for m in (self.ins.model_a, self.ins.model_b if rb is not None else "")
                        if m)
        self.export_slot.start(
            lambda progress, should_stop: engine.export_report(
                path, bench, ra, rb, oracle, exclude, progress, should_stop, evaluations,
                sources),
            on_result=lambda written: self._on_export_result(str(written)),
            on_progress=lambda d, t: self.w.set_export_busy(True, d, t),
            on_error=lambda exc: self.ins._on_task_error("Export failed", exc),
            on_finished=lambda: self.w.set_export_busy(False))

    def cancel_metrics(self) -> None:
        if self.metrics_slot.busy:
            self.metrics_slot.cancel()
            self.w.metrics.set_busy(False)
            self.ins.message.emit("Metrics cancelled")

    def cancel_export(self) -> None:
        if self.export_slot.busy:
            self.export_slot.cancel()
            self.w.set_export_busy(False)
            self.ins.message.emit("Export cancelled; nothing was written")

    def _on_export_result(self, path: str) -> None:
        self.ins.message.emit(f"Report written: {path}")
        self.exported.emit(path)
