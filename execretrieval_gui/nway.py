"""Every model of the benchmark at once: the N-way comparison behind the Metrics tab's
leaderboard, computed in a worker, and its LaTeX export.

:class:`NWayRunner` reads what the :class:`~execretrieval_gui.state.InspectorState` holds
(benchmark, offered models, models A and B, oracle), evaluates every model with the
engine's pipeline (ranking, cached execution, tie-aware metrics, every pair tested with
Holm's correction, rank intervals and tiers), and emits the report. It never touches a
widget.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from .state import InspectorState
from .workers import TaskSlot

__all__ = ["NWayRunner", "evaluate_all", "write_latex"]


def evaluate_all(benchmark: Any, models: list[str], oracle: Any, exclude: frozenset[str],
                 progress: Any = None, should_stop: Any = None) -> Any:
    """The engine's report over ``models`` (blocking): pairs, leaderboard and manifest."""
    from execretrieval.report.evaluation import evaluate_models

    return evaluate_models(benchmark, models, oracle, exclude=exclude, progress=progress,
                           should_stop=should_stop, environment={},
                           command="execretrieval-gui: Metrics > Compare every model")


def write_latex(report: Any, path: str | Path, ci: bool = False) -> Path:
    """The report's booktabs table (exec@1, exec@5, exec@10 where measured), atomically."""
    from execretrieval.fileio import atomic_write_text
    from execretrieval.report.latex import latex_table

    data = report.to_dict()
    shown = {s["metric"] for s in data["leaderboard"]}
    metrics = [m for m in ("exec@1", "exec@5", "exec@10") if m in shown] or None
    atomic_write_text(Path(path), latex_table(data, metrics, ci=ci))
    return Path(path)


class NWayRunner(QObject):
    """Evaluates every model the benchmark offers (and A and B) and writes LaTeX tables."""

    busy = Signal(bool, int, int)          # busy, done, total
    ready = Signal(object)                 # EvaluationReport over every model
    latex_written = Signal(str)            # path

    def __init__(self, state: InspectorState, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.slot = TaskSlot("n-way", self)
        self.latex_slot = TaskSlot("latex", self)
        self.offered: list[str] = []
        self.report: Any = None
        state.models_changed.connect(self._on_state_models_changed)
        state.benchmark_loaded.connect(self._on_state_benchmark_loaded)

    def slots(self) -> list[TaskSlot]:
        return [self.slot, self.latex_slot]

    def models(self) -> list[str]:
        """The models to compare: every offered one, then A and B if they are others."""
        s = self.state
        extra = [m for m in (s.model_a, s.model_b) if m and m not in self.offered]
        return [*self.offered, *extra]

    def compute(self, exclude_flagged: bool = False) -> None:
        s = self.state
        models = self.models()
        if s.benchmark is None or len(models) < 2:
            s.message.emit("Comparing every model needs a benchmark that offers two or more")
            return
        bench, oracle = s.benchmark, s.oracle
        exclude = s.flagged_query_ids() if exclude_flagged else frozenset()
        self.busy.emit(True, 0, 0)
        s.message.emit(f"Comparing {len(models)} models: {', '.join(models)} …")
        self.slot.start(
            lambda progress, should_stop: evaluate_all(bench, models, oracle, exclude,
                                                       progress, should_stop),
            on_result=self._on_result,
            on_progress=lambda d, t: self.busy.emit(True, d, t),
            on_error=lambda exc: s.report_error("Cannot compare the models", exc),
            on_finished=lambda: self.busy.emit(False, 0, 0))

    def export_latex(self, path: str | Path, ci: bool = False) -> None:
        if self.report is None:
            self.state.failed.emit("Nothing to export", "Compare every model first.")
            return
        report = self.report
        self.latex_slot.start(
            lambda _progress, _stop: write_latex(report, path, ci),
            on_result=lambda written: self._on_latex_result(str(written)),
            on_error=lambda exc: self.state.report_error("LaTeX export failed", exc))

    def cancel(self) -> None:
        for slot in self.slots():
            slot.cancel()
        self.busy.emit(False, 0, 0)

    def _on_result(self, report: Any) -> None:
        self.report = report
        self.ready.emit(report)
        self.state.message.emit(f"Compared {len(report.models)} models: "
                                f"{len(report.pairs)} pairs tested (Holm-corrected)")

    def _on_latex_result(self, path: str) -> None:
        self.state.message.emit(f"LaTeX table written: {path}")
        self.latex_written.emit(path)

    def _on_state_models_changed(self, models: Any, _chosen: str) -> None:
        self.offered = list(models)

    def _on_state_benchmark_loaded(self, _bench: Any) -> None:
        self.slot.cancel()
        self.report = None
        self.ready.emit(None)
