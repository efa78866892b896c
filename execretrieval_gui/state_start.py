"""The inspector state's start of a ranking: model A's first screen as the last run kept
it, shown before the ranking is here (:mod:`.firstscreen`), and what follows once the
ranking's first query is usable — its blind spots, and keeping its first screen for the
next start.

A mixin of :class:`~execretrieval_gui.state.InspectorState` (kept apart so the state reads
in one sitting); it uses the state's ``benchmark``, ``ranking_a``, ``status_a``,
``split_spec``, ``depth``, ``pending_query``, ``query_id``, ``rows``, ``blind_a``,
``_preview``, ``_after_usable``, ``blind_slot``, ``keep_slot`` and ``select_query``,
and its ``status_changed`` / ``model_shown`` signals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from execretrieval import Benchmark

from . import engine, firstscreen

__all__ = ["StartMixin"]


class StartMixin:
    """The kept first screen and the work that waits for the first usable query."""

    # provided by InspectorState (attributes, signals and methods)
    benchmark: Benchmark | None
    ranking_a: Any
    status_a: Any
    split_spec: Any
    depth: int
    pending_query: str | None
    query_id: str | None
    rows: list[Any]
    blind_a: dict[str, str]
    _preview: firstscreen.Preview | None
    _after_usable: tuple[str, Any] | None
    blind_slot: Any
    keep_slot: Any
    rank_slot: Any
    status_changed: Any
    model_shown: Any

    if TYPE_CHECKING:
        def select_query(self, query_id: str, force: bool = False) -> None: ...

    def _show_preview(self, bench: Benchmark, model: str) -> bool:
        """Show model A's kept first screen, if there is one for this benchmark, model
        and depth (never under a split: its held-out columns need the split)."""
        self._preview = None
        if self.split_spec is not None or self.ranking_a is not None:
            return False
        preview = firstscreen.read(bench, model, self.depth)
        if preview is None:
            return False
        self.rank_slot.cancel()   # before anything is shown: a slot shown may choose again
        self._preview = preview
        self.status_changed.emit(preview.status, None)
        self.model_shown.emit("a", model)
        target = self.pending_query or self.query_id
        query = bench.find_query(target) if target else (bench.queries or [None])[0]
        if query is None:   # a name not there is for the ranking to report, as always
            return True
        self.pending_query = None
        self.select_query(query.query_id, force=True)
        return True

    def _after_first_usable_query(self, _query_id: str = "") -> None:
        """Look for model A's blind spots and keep its first screen for the next start,
        once the ranking's first query is usable."""
        pending, self._after_usable = self._after_usable, None
        if pending is not None and pending[1] is self.ranking_a:
            self._find_blind_spots(*pending)
            self._keep_first_screen(*pending)

    def _keep_first_screen(self, model: str, ranking: Any) -> None:
        """Write what the first screen shows of this ranking (:mod:`.firstscreen`)."""
        bench, status, depth = self.benchmark, self.status_a, self.depth
        if bench is None or status is None or self.split_spec is not None:
            return
        self.keep_slot.start(
            lambda _progress, _should_stop: firstscreen.write(bench, model, ranking, status,
                                                              depth),
            on_result=lambda _written: None)

    def _find_blind_spots(self, model: str, ranking: Any) -> None:
        """Mark model A's blind distractors (edit past its input window, bit-identical
        vector) once known; the shown query's rows get their badge then."""
        bench = self.benchmark
        if bench is None:
            return

        def found(blind: dict[str, str]) -> None:
            if ranking is not self.ranking_a or not blind:
                return
            self.blind_a = dict(blind)
            if self.query_id is not None and any(
                    r.snippet.corpus_id in blind for r in self.rows):
                self.select_query(self.query_id, force=True)   # same ranking: keeps the row

        def work(_progress: Any, _should_stop: Any) -> dict[str, str]:
            blind = engine.blind_distractors(bench, model, ranking)
            _ = bench.fingerprint   # then, off the UI thread, for what reads it (reports)
            return blind

        self.blind_slot.start(work, on_result=found)
