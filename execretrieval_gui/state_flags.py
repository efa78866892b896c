"""The inspector state's flags: the annotation store it opens, flags added, removed (and put
back), resolved, and who makes them.

A mixin of :class:`~execretrieval_gui.state.InspectorState` (kept apart so the state reads
in one sitting); it uses the state's ``benchmark``, ``query_id``, ``store``, ``store_path``,
``annotator`` attributes and its ``flags_changed`` / ``flag_saved`` / ``undo_changed`` /
``annotator_changed`` / ``failed`` / ``message`` signals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from execretrieval import Benchmark
from execretrieval.benchmark.annotations import AnnotationStore, Flag
from execretrieval.benchmark.flags import categories_for, check_target, default_annotator
from execretrieval.errors import AnnotationError

from .state_types import FlagsView

__all__ = ["FlagsMixin", "categories_for"]


def _same(a: Flag, b: Flag) -> bool:
    """Do two flags say the same thing about the same thing?"""
    return (a.query_id, a.target, a.test_index, a.corpus_id, a.category, a.note.strip()) == \
        (b.query_id, b.target, b.test_index, b.corpus_id, b.category, b.note.strip())


class FlagsMixin:
    """Flag methods of the inspector state."""

    benchmark: Benchmark | None
    base_benchmark: Benchmark | None
    query_id: str | None
    store: AnnotationStore | None
    store_path: Path | None
    annotator: str
    _flagged: frozenset[str] | None
    _removed: list[Flag]
    flags_changed: Any
    flag_saved: Any
    undo_changed: Any
    annotator_changed: Any
    failed: Any
    message: Any

    def _open_store(self, bench: Benchmark) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None
        try:
            self.store = AnnotationStore(bench, self.store_path, annotator=self.annotator)
        except Exception as exc:  # noqa: BLE001 - the window must survive a bad store
            self.failed.emit("Cannot open the annotation store", str(exc))
        self._removed.clear()
        self.undo_changed.emit(False)
        if self.store is not None and self.store.unclaimed():
            self.message.emit(f"{self.store.unclaimed()} flags of earlier benchmark versions "
                              "are kept but not shown (execretrieval flags --claim-legacy)")
        self.refresh_flags()

    def use_store_file(self, path: str | Path) -> None:
        self.store_path = Path(path)
        bench = self.base_benchmark or self.benchmark  # flags belong to it, pool or not
        if bench is not None:
            self._open_store(bench)

    def add_flag(self, flag: Flag) -> None:
        if self.store is None:
            self.failed.emit("Cannot save the flag", "No annotation store is open.")
            return
        try:
            check_target(flag.category, flag.target)
        except AnnotationError as exc:
            self.failed.emit("Cannot save the flag", f"{exc}.")
            return
        try:
            same = next((f for f in self.store.flags(flag.query_id)
                         if f.status == "open" and _same(f, flag)), None)
        except Exception as exc:  # noqa: BLE001
            self.failed.emit("Cannot save the flag", str(exc))
            return
        if same is not None:
            self.message.emit(f"Already flagged: {same.category_label} on "
                              f"{same.describe_target()} (an open flag says the same)")
            return
        try:
            saved = self.store.add(flag)   # returns once it is on disk
        except Exception as exc:  # noqa: BLE001
            self.failed.emit("Cannot save the flag", str(exc))
            return
        self.flag_saved.emit(saved)
        self.refresh_flags()
        self.message.emit(f"Flag saved: {saved.category_label} on {saved.describe_target()}")

    def remove_flag(self, flag_id: int) -> None:
        if self.store is None:
            return
        try:
            gone = self.store.remove(flag_id)
        except Exception as exc:  # noqa: BLE001
            self.failed.emit("Cannot remove the flag", str(exc))
            gone = None
        if gone is not None:
            self._removed.append(gone)
            self.undo_changed.emit(True)
            self.message.emit(f"Flag removed: {gone.category_label} on "
                              f"{gone.describe_target()} (Ctrl+Z puts it back)")
        self.refresh_flags()

    def undo_remove(self) -> None:
        """Put the most recently removed flag back, exactly as it was."""
        if self.store is None or not self._removed:
            return
        flag = self._removed.pop()
        try:
            self.store.restore(flag)
        except Exception as exc:  # noqa: BLE001
            self._removed.append(flag)
            self.failed.emit("Cannot put the flag back", str(exc))
            return
        self.undo_changed.emit(bool(self._removed))
        self.message.emit(f"Flag put back: {flag.category_label} on {flag.describe_target()}")
        self.refresh_flags()

    def set_flag_status(self, flag_id: int, status: str) -> None:
        if self.store is None:
            return
        try:
            self.store.set_status(flag_id, status)
        except Exception as exc:  # noqa: BLE001
            self.failed.emit("Cannot change the flag", str(exc))
        self.refresh_flags()

    def set_annotator(self, name: str) -> None:
        """Who new flags are from (the OS user until changed)."""
        name = name.strip() or default_annotator()
        self.annotator = name
        if self.store is not None:
            self.store.annotator = name
        self.annotator_changed.emit(name)

    def flagged_query_ids(self) -> frozenset[str]:
        """Every query with an open flag (as of the last change to the flags)."""
        if self._flagged is None:
            store = self.store
            self._flagged = frozenset(store.flagged_query_ids()) if store is not None \
                else frozenset()
        return self._flagged

    def flag_notes(self) -> dict[str, list[str]]:
        """Every flagged query's flags as lines a report prints (who, and stale or not)."""
        store = self.store
        if store is None:
            return {}
        notes: dict[str, list[str]] = {}
        for flag in store.flags():
            line = f"{flag.category_label} on {flag.describe_target()}"
            line = f"{line}: {flag.note}" if flag.note else line
            extra = [x for x in (flag.annotator, flag.status if flag.status != "open" else "",
                                 "changed since flagged" if flag.stale else "") if x]
            notes.setdefault(flag.query_id, []).append(
                f"{line} ({', '.join(extra)})" if extra else line)
        return notes

    def refresh_flags(self, changed: bool = True) -> None:
        """Tell the views the flags; ``changed``: they may have changed on disk (else only
        the selected query's are read again)."""
        if changed:
            self._flagged = None
        store = self.store
        flags = store.flags(self.query_id) if (store and self.query_id) else []
        self.flags_changed.emit(FlagsView(self.flagged_query_ids(), tuple(flags),
                                          Path(store.path) if store is not None else None))
