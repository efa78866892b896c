"""Metrics and report export, computed in workers (execution of the top-10 can take a while).

:class:`Reporter` reads what the :class:`~execretrieval_gui.state.InspectorState` holds and
emits what it measured; the metrics view and the status bar subscribe. It never touches a
widget.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from . import engine
from .filters import matching
from .slices import slice_metrics
from .state import InspectorState
from .workers import TaskSlot

__all__ = ["Reporter"]


class Reporter(QObject):
    """Computes evaluations for the metrics view and writes reports."""

    metrics_busy = Signal(bool, int, int)     # busy, done, total
    metrics_ready = Signal(object, object, object, object)  # ev A, ev B, comparison, names
    export_busy = Signal(bool, int, int)      # busy, done, total
    exported = Signal(str)                    # path written
    slices_measured = Signal(object)          # list of SliceRow, after metrics or a new slice
    cost_ready = Signal(object)               # the quality-vs-cost table, or None

    #: the audit result a report's top-suspects section comes from (set by the window)
    audit_source: Any = staticmethod(lambda: None)

    def __init__(self, state: InspectorState, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.metrics_slot = TaskSlot("metrics", self)
        self.export_slot = TaskSlot("export", self)
        self.last: tuple[Any, ...] | None = None   # (key, ev_a, ev_b, comparison)
        state.slices.changed.connect(lambda _named: self.measure_slices())
        state.status_changed.connect(lambda _a, _b: self.measure_slices())

    def slots(self) -> list[TaskSlot]:
        return [self.metrics_slot, self.export_slot]

    def _exclude(self, exclude_flagged: bool) -> frozenset[str]:
        return self.state.flagged_query_ids() if exclude_flagged else frozenset()

    def _key(self, exclude: frozenset[str]) -> tuple[Any, ...]:
        s: Any = self.state   # callers checked that a benchmark and model A are there
        rb = s.ranking_b
        return (s.benchmark.fingerprint, s.ranking_a.model, rb.model if rb is not None else "",
                exclude, s.split_spec)

    def compute(self, exclude_flagged: bool = False) -> None:
        s = self.state
        if s.benchmark is None or s.ranking_a is None:
            s.message.emit("Nothing to measure yet: open a benchmark and pick a model")
            return
        exclude = self._exclude(exclude_flagged)
        bench, ra, rb, oracle, split = s.benchmark, s.ranking_a, s.ranking_b, s.oracle, s.split
        key = self._key(exclude)
        self.metrics_busy.emit(True, 0, 0)
        s.message.emit("Computing metrics (executing the top-10 of every query) …")

        def work(progress: Any, should_stop: Any) -> Any:
            # with a split (pipelines), every model is judged on held-out tests only
            report = engine.evaluate_report(bench, ra, rb, oracle, exclude, progress,
                                            should_stop, split=split)
            ev_a, *rest = report.models.values()
            comparison = report.comparisons[0] if report.comparisons else None
            return ev_a, (rest[0] if rest else None), comparison, engine.cost_table(report)

        self.metrics_slot.start(
            work,
            on_result=lambda value: self._on_metrics_result(key, *value),
            on_progress=lambda d, t: self.metrics_busy.emit(True, d, t),
            on_error=lambda exc: s.report_error("Cannot compute metrics", exc),
            on_finished=lambda: self.metrics_busy.emit(False, 0, 0))

    def _on_metrics_result(self, key: Any, ev_a: Any, ev_b: Any, comparison: Any,
                           cost: Any = None) -> None:
        self.last = (key, ev_a, ev_b, comparison)
        s = self.state
        bench = s.benchmark
        names = {q.query_id: q.function_name for q in bench.queries} if bench else {}
        self.metrics_ready.emit(ev_a, ev_b, comparison, names)
        self.cost_ready.emit(cost)
        self.measure_slices()
        m = ev_a.metrics
        s.message.emit(
            f"{ev_a.model}: exec@1 {m['exec@1'].mean:.3f}, exec@10 {m['exec@10'].mean:.3f}"
            if "exec@10" in m else f"{ev_a.model}: metrics ready")
        # the browser's rank-1 column now follows the oracle, not correct_corpus_ids
        status = s.status_a
        if bench is not None and status is not None and ev_a.passes is not None \
                and not ev_a.excluded and ev_a.ranking is s.ranking_a:
            s.set_status_a(status.with_exec_top1(ev_a.per_query["exec@1"])
                           if "exec@1" in ev_a.per_query else status)

    def export(self, path: str | Path, exclude_flagged: bool) -> None:
        """Write the report (format from the extension) in the background."""
        s = self.state
        if s.benchmark is None or s.ranking_a is None:
            s.failed.emit("Nothing to export", "Open a benchmark and pick a model first.")
            return
        path = Path(path)
        exclude = self._exclude(exclude_flagged)
        bench, ra, rb, oracle = s.benchmark, s.ranking_a, s.ranking_b, s.oracle
        self.export_busy.emit(True, 0, 0)
        s.message.emit(f"Exporting {path.name} …")
        evaluations = None
        if self.last is not None and self.last[0] == self._key(exclude):
            evaluations = (self.last[1], self.last[2])   # measured already: just write
        sources = tuple(m for m in (s.model_a, s.model_b if rb is not None else "") if m)
        flags = s.flag_notes()   # read here: the store belongs to this thread
        flagged = s.flagged_query_ids()
        slices = {name: (criteria.describe(), matching(criteria, bench, s.status_a, s.status_b,
                                                         flagged))
                  for name, criteria in s.slices.named.items()}
        annotations = engine.report_annotations(
            bench, s.store.flags() if s.store is not None else None, self.audit_source())
        self.export_slot.start(
            lambda progress, should_stop: engine.export_report(
                path, bench, ra, rb, oracle, exclude, progress, should_stop, evaluations,
                sources, flags, slices, annotations),
            on_result=lambda written: self._on_export_result(str(written)),
            on_progress=lambda d, t: self.export_busy.emit(True, d, t),
            on_error=lambda exc: s.report_error("Export failed", exc),
            on_finished=lambda: self.export_busy.emit(False, 0, 0))

    def measure_slices(self) -> None:
        """Every saved slice measured from the last evaluations (means only: no new work)."""
        s = self.state
        if self.last is None or s.benchmark is None:
            return
        _key, ev_a, ev_b, _comparison = self.last
        if getattr(ev_a, "ranking", None) is not s.ranking_a:
            return   # the figures are for another model: Compute again first
        self.slices_measured.emit(slice_metrics(
            s.slices.named, s.benchmark, [ev_a, ev_b], s.status_a, s.status_b,
            s.flagged_query_ids()))

    def cancel_metrics(self) -> None:
        if self.metrics_slot.busy:
            self.metrics_slot.cancel()
            self.metrics_busy.emit(False, 0, 0)
            self.state.message.emit("Metrics cancelled")

    def cancel_export(self) -> None:
        if self.export_slot.busy:
            self.export_slot.cancel()
            self.export_busy.emit(False, 0, 0)
            self.state.message.emit("Export cancelled; nothing was written")

    def cancel(self) -> None:
        for slot in self.slots():
            slot.cancel()

    def _on_export_result(self, path: str) -> None:
        self.state.message.emit(f"Report written: {path}")
        self.exported.emit(path)
