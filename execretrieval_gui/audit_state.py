"""The Audit view's state: the suite audit of the loaded benchmark, what is selected in it
and what has been reviewed. A QObject with signals that never touches a widget.

The audit runs in a worker (one :class:`~execretrieval_gui.workers.TaskSlot`) through the
inspector's cached oracle, so a second run, or the CLI's ``execretrieval audit`` before it,
makes it fast; the result is kept per benchmark fingerprint while the window is open.
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from execretrieval import atomic_write_text
from execretrieval.benchmark.annotations import Flag

from .workers import TaskSlot

if TYPE_CHECKING:   # the audit engine (numpy, the input engine) loads when an audit runs
    from execretrieval.audit import AuditResult, QueryAudit, SuggestedTest, Survivor

    from .state import InspectorState

__all__ = ["AuditState", "reviewed_path", "suggestion_note", "weak_suite_note"]


def weak_suite_note(audit: QueryAudit, survivor: Survivor) -> str:
    """A flag note that carries the surviving mutant: its edit and the changed lines."""
    lines = [f"audit: {survivor.bug_type} mutant survives every test — {survivor.description}"]
    diff = difflib.unified_diff(audit.canonical_code.splitlines(), survivor.code.splitlines(),
                                lineterm="", n=0)
    lines += [d for d in list(diff)[2:] if not d.startswith("@@")]
    return "\n".join(lines)


def reviewed_path(store_path: Any) -> Path | None:
    """Where the audit's reviewed suites are kept: beside the annotation store's file
    (``annotations.sqlite.reviewed.json``); None for an in-memory store."""
    if store_path is None or str(store_path) == ":memory:":
        return None
    path = Path(store_path)
    return path.with_name(path.name + ".reviewed.json")


def suggestion_note(audit: QueryAudit, test: SuggestedTest) -> str:
    """A flag note that carries a suggested test and the surviving mutants it kills."""
    lines = [f"audit: suggested test (kills {len(test.kills)} surviving mutant"
             f"{'' if len(test.kills) == 1 else 's'}):", test.test]
    for k in test.kills:
        if 0 <= k < len(audit.survivors):
            s = audit.survivors[k]
            lines.append(f"kills {s.bug_type}: {s.description} — canonical "
                         f"{s.canonical_output}, mutant {s.mutant_output}")
    return "\n".join(lines)


class AuditState(QObject):
    """Runs and holds the audit; the Audit view renders it and calls back."""

    result_changed = Signal(object)       # AuditResult | None
    busy_changed = Signal(bool, int, int)  # running, done, total
    selected_changed = Signal(object)     # QueryAudit | None
    reviewed_changed = Signal(object)     # frozenset of query ids
    copy_written = Signal(str, object)    # folder, ValidationReport of the strengthened copy
    message = Signal(str)

    def __init__(self, inspector: InspectorState, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.inspector = inspector
        self.result: AuditResult | None = None
        self.selected: QueryAudit | None = None
        self.reviewed: set[str] = set()
        self._seeds: int | None = None   # the engine's default, read when first asked
        self._results: dict[str, AuditResult] = {}
        self.slot = TaskSlot("audit", self)
        self.copy_slot = TaskSlot("audit-copy", self)
        inspector.benchmark_loaded.connect(self._on_inspector_benchmark_loaded)
        inspector.flags_changed.connect(self._on_inspector_flags_changed)

    @property
    def seeds(self) -> int:
        """Hash seeds per audit: the engine's default until a run chooses another."""
        if self._seeds is None:
            from execretrieval.audit import DEFAULT_SEEDS

            self._seeds = DEFAULT_SEEDS
        return self._seeds

    @seeds.setter
    def seeds(self, value: int) -> None:
        self._seeds = int(value)

    @property
    def busy(self) -> bool:
        return self.slot.busy

    def _on_inspector_benchmark_loaded(self, bench: Any) -> None:
        self.slot.cancel()
        self.copy_slot.cancel()
        self.selected = None
        self.reviewed = self._read_reviewed()
        # (no audit kept yet: not the fingerprint, ~15 ms on builtin, before the first query)
        self.result = self._results.get(bench.fingerprint) if self._results else None
        self.result_changed.emit(self.result)
        self.reviewed_changed.emit(self.reviewed_ids())

    def _on_inspector_flags_changed(self, _view: Any) -> None:
        self.reviewed_changed.emit(self.reviewed_ids())

    # the reviewed suites on disk ------------------------------------------------------
    def _where(self) -> tuple[Path | None, str]:
        """The reviewed file and the benchmark's name (its key in the file)."""
        store = self.inspector.store
        bench = self.inspector.base_benchmark or self.inspector.benchmark
        path = reviewed_path(store.path) if store is not None else None
        return path, (bench.name if bench is not None else "")

    def _read_all(self, path: Path) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            benchmarks = data["benchmarks"]
            if not isinstance(benchmarks, dict):
                raise ValueError("'benchmarks' is not an object")
            return {str(k): {str(q): str(h) for q, h in v.items()}
                    for k, v in benchmarks.items() if isinstance(v, dict)}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            aside = path.with_name(path.name + ".damaged")
            try:
                os.replace(path, aside)
            except OSError:
                aside = path
            self.message.emit(f"Cannot read the reviewed suites in {path} ({exc}); kept as "
                              f"{aside.name}, starting with none reviewed")
            return {}

    def _read_reviewed(self) -> set[str]:
        """The suites reviewed in an earlier session whose query has not changed since
        (a review of an edited query or suite no longer holds)."""
        path, name = self._where()
        store = self.inspector.store
        if path is None or store is None or not name:
            return set()
        seen = self._read_all(path).get(name, {})
        # '' for a query the benchmark no longer has
        return {qid for qid, digest in seen.items() if digest and
                store.content_hash(qid) == digest}

    def _write_reviewed(self) -> None:
        """Save the reviewed suites (atomically: a crash leaves the old file or the new)."""
        path, name = self._where()
        store = self.inspector.store
        if path is None or store is None or not name:
            return
        everything = self._read_all(path) if path.exists() else {}
        hashes = {qid: store.content_hash(qid) for qid in sorted(self.reviewed)}
        everything[name] = {qid: h for qid, h in hashes.items() if h}
        try:
            atomic_write_text(path, json.dumps({"version": 1, "benchmarks": everything},
                                               indent=1, sort_keys=True) + "\n")
        except OSError as exc:
            self.message.emit(f"Cannot save the reviewed suites to {path}: {exc}")

    def reviewed_ids(self) -> frozenset[str]:
        """Queries looked at in the Audit view, or flagged."""
        return frozenset(self.reviewed | set(self.inspector.flagged_query_ids()))

    # running ------------------------------------------------------------------------
    def run(self, seeds: int | None = None) -> None:
        """Audit every query of the loaded benchmark in a worker (cancels a running one)."""
        bench = self.inspector.benchmark
        if bench is None:
            return
        self.seeds = self.seeds if seeds is None else seeds
        oracle, n_seeds = self.inspector.oracle, self.seeds

        def work(progress: Any, should_stop: Any) -> AuditResult:
            from execretrieval.audit import run_audit  # loads in the worker

            return run_audit(bench, oracle, seeds=n_seeds, progress=progress,
                             should_stop=should_stop)

        self.busy_changed.emit(True, 0, 0)
        self.slot.start(work, on_result=lambda r: self._on_result(bench.fingerprint, r),
                        on_error=self._on_error,
                        on_progress=lambda d, t: self.busy_changed.emit(True, d, t),
                        on_finished=lambda: self.busy_changed.emit(False, 0, 0))

    def cancel(self) -> None:
        if self.slot.busy:
            self.slot.cancel()
            self.busy_changed.emit(False, 0, 0)
            self.message.emit("Audit cancelled")

    def _on_result(self, fingerprint: str, result: AuditResult) -> None:
        self._results[fingerprint] = result
        self.result = result
        self.result_changed.emit(result)
        self.message.emit(f"Audit done: {result.suites_with_survivors} of "
                          f"{len(result.queries)} suites let a mutant pass")
        if result.queries:
            self.select(result.queries[0].query_id)

    def _on_error(self, exc: BaseException) -> None:
        self.busy_changed.emit(False, 0, 0)
        self.inspector.report_error("Cannot run the audit", exc)

    # selection and review -----------------------------------------------------------
    def select(self, query_id: str) -> None:
        audit = self.result.query(query_id) if self.result is not None else None
        if audit is None or audit is self.selected:
            return
        self.selected = audit
        if query_id not in self.reviewed:
            self.reviewed.add(query_id)
            self._write_reviewed()
        self.selected_changed.emit(audit)
        self.reviewed_changed.emit(self.reviewed_ids())

    def next_unreviewed(self) -> str | None:
        """Select the next suspect query (after the selected one, wrapping) not yet
        reviewed; None when every suspect query has been."""
        if self.result is None:
            return None
        queue = [q for q in self.result.queries if q.reasons]
        done = self.reviewed_ids()
        start = 0
        if self.selected is not None:
            ids = [q.query_id for q in queue]
            if self.selected.query_id in ids:
                start = ids.index(self.selected.query_id) + 1
        for q in queue[start:] + queue[:start]:
            if q.query_id not in done:
                self.select(q.query_id)
                return q.query_id
        self.message.emit("Every suspect suite has been reviewed")
        return None

    def flag_weak(self, survivor: Survivor | None = None) -> None:
        """Flag the selected suite "tests too weak", the (first) surviving mutant attached."""
        audit = self.selected
        if audit is None:
            return
        if survivor is None:
            if not audit.survivors:
                self.message.emit("No mutant survives this suite: nothing to attach")
                return
            survivor = audit.survivors[0]
        self.inspector.add_flag(Flag(audit.query_id, "test_too_weak",
                                     note=weak_suite_note(audit, survivor)))

    def flag_with_suggestion(self, test: SuggestedTest | None = None) -> None:
        """Flag the selected suite "tests too weak" with a suggested test (the first one
        unless ``test``) and the mutants it kills in the note."""
        audit = self.selected
        if audit is None:
            return
        if test is None:
            if not audit.suggested_tests:
                self.message.emit("No suggested test for this suite")
                return
            test = audit.suggested_tests[0]
        self.inspector.add_flag(Flag(audit.query_id, "test_too_weak",
                                     note=suggestion_note(audit, test)))

    # strengthened copy ----------------------------------------------------------------
    def write_copy(self, folder: str) -> None:
        """Write the benchmark with every suggested test appended to ``folder`` (new or
        empty) and run the five gates on it, in a worker; ``copy_written`` reports."""
        bench, result = self.inspector.benchmark, self.result
        if bench is None or result is None:
            return
        if not any(q.suggested_tests for q in result.queries):
            self.message.emit("No suggested test: nothing to add")
            return
        oracle = self.inspector.oracle

        def work(progress: Any, should_stop: Any) -> Any:
            from execretrieval.audit import write_strengthened
            from execretrieval.benchmark.gates import validate

            copy = write_strengthened(bench, result, folder)
            return copy, validate(copy, oracle, progress=progress, should_stop=should_stop)

        self.copy_slot.start(work, on_result=lambda r: self._on_copy_written(folder, *r),
                             on_error=self._on_copy_error)

    def _on_copy_written(self, folder: str, copy: Any, report: Any) -> None:
        added = copy.manifest["strengthened"]["tests_added"]
        gates = "all five gates pass" if report.passed else "validation FAILED: " + ", ".join(
            g.name for g in report.gates if not g.passed)
        self.message.emit(f"Wrote {folder}: {added} suggested tests added; {gates}")
        self.copy_written.emit(folder, report)

    def _on_copy_error(self, exc: BaseException) -> None:
        self.inspector.report_error("Cannot write the strengthened copy", exc)
