"""The inspector state's user-started work: live runs of the listed candidates' suites, a
scratch run, and encoding the benchmark with a served embedding model.

A mixin of :class:`~execretrieval_gui.state.InspectorState` (kept apart so the state reads
in one sitting); it uses the state's ``benchmark``, ``query_id``, ``corpus_id``, ``rows``,
``results``, ``live_oracle``, ``run_slot``, ``embed_slot`` and ``set_model``, and its
``running_changed`` / ``run_progress`` / ``rerun_offered`` / ``scratch_finished`` /
``embed_*`` / ``message`` signals.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import engine
from .state_types import statuses, suite_runs

__all__ = ["RunsMixin"]


class RunsMixin:
    """Live runs and served-model encoding of the inspector state."""

    # provided by InspectorState (attributes, signals and methods)
    benchmark: Any
    query_id: str | None
    corpus_id: str | None
    rows: list[Any]
    results: dict[tuple[str, str], Any]
    live_oracle: Any
    run_slot: Any
    embed_slot: Any
    message: Any
    running_changed: Any
    run_progress: Any
    rerun_offered: Any
    scratch_finished: Any
    embed_finished: Any
    embed_progress: Any
    embed_status: Any

    if TYPE_CHECKING:
        def set_model(self, model: str, which: str = "a") -> None: ...
        def _on_suites_partial(self, query_id: str, pairs: list[tuple[str, Any]]) -> None: ...
        def _on_task_error(self, title: str, exc: BaseException, dialog: bool = True
                           ) -> None: ...

    # live runs ------------------------------------------------------------------------
    def run_selected(self, everything: bool = False, force: bool = False) -> None:
        """Execute the selected candidate's suite (every listed one with ``everything``)
        live. Outcomes that are all known already (from the cache or an earlier run) are
        not run again unless ``force``: ``rerun_offered`` says so, for the view to ask."""
        bench, qid = self.benchmark, self.query_id
        if bench is None or qid is None:
            return
        query = bench.query(qid)
        cids = [r.snippet.corpus_id for r in self.rows] if everything \
            else ([self.corpus_id] if self.corpus_id else [])
        if not cids:
            return
        before = {c: self.results.get((c, qid)) for c in cids}
        if not force and all(r is not None for r in before.values()):
            what = (f"the {len(cids)} listed candidates" if everything else cids[0])
            self.rerun_offered.emit(
                f"The outcomes of {what} are already known (from the result cache or an "
                f"earlier run): the oracle is deterministic, so running again shows the same "
                f"outcomes unless the environment changed.", everything)
            self.message.emit(f"Outcomes of {what} are cached; Run again to re-execute")
            return
        self.running_changed.emit(True, f"running {len(cids)} suite(s)")
        self.run_slot.start(
            suite_runs(self.live_oracle, [(c, bench.snippet(c).code) for c in cids],
                        query.test_suite),
            on_result=lambda _v: self._on_run_result(qid, before),
            on_partial=lambda pairs: self._on_suites_partial(qid, pairs),
            on_progress=lambda d, t: self.run_progress.emit(f"{d}/{t} done"),
            on_error=lambda exc: self._on_task_error("Run failed", exc, dialog=False),
            on_finished=lambda: self.running_changed.emit(False, ""))

    def _on_run_result(self, query_id: str, before: dict[str, Any]) -> None:
        """Say what the live run found, against what was known before it."""
        changed = [c for c, old in before.items() if old is not None and
                   statuses(old) != statuses(self.results.get((c, query_id)))]
        known = sum(old is not None for old in before.values())
        n = len(before)
        text = f"Run finished: {n} suite{'s' if n != 1 else ''} executed"
        if changed:
            text += f"; outcomes changed for {', '.join(changed)}"
        elif known:
            text += "; same outcomes as before"
        self.message.emit(text)

    def run_scratch(self, code: str, tests: tuple[str, ...]) -> None:
        if not tests:
            self.message.emit("Scratch run needs at least one test")
            return
        oracle = self.live_oracle
        self.running_changed.emit(True, "running scratch")
        self.run_slot.start(
            lambda progress, should_stop: oracle.run_many([(code, tests)],
                                                          should_stop=should_stop)[0],
            on_result=lambda result: self.scratch_finished.emit(result, tests),
            on_error=lambda exc: self._on_task_error("Scratch run failed", exc, dialog=False),
            on_finished=lambda: self.running_changed.emit(False, ""))

    def cancel_run(self) -> None:
        if self.run_slot.busy:
            self.run_slot.cancel()
            self.running_changed.emit(False, "")
            self.message.emit("Run cancelled")

    # served models ----------------------------------------------------------------------
    def embed_served(self, request: dict[str, Any]) -> None:
        """Encode the benchmark through an embedding service, then rank with the file."""
        bench = self.benchmark
        if bench is None:
            self.embed_finished.emit(False, "No benchmark is loaded")
            return
        self.message.emit(f"Encoding {bench.name} with {request['model']} …")
        self.embed_slot.start(
            lambda progress, should_stop: engine.embed_served(
                bench, request, progress, should_stop, self.embed_status.emit),
            on_result=self._on_embed_result,
            on_error=lambda exc: self.embed_finished.emit(False, str(exc) or repr(exc)),
            on_progress=self.embed_progress.emit)

    def cancel_embed(self) -> None:
        """Stop encoding; what arrived stays cached, so encoding again resumes."""
        if self.embed_slot.busy:
            self.embed_slot.cancel()
            self.embed_finished.emit(False, "cancelled")

    def _on_embed_result(self, result: Any) -> None:
        self.message.emit(f"Encoded {result.texts} texts ({result.from_cache} from the cache, "
                          f"{result.sent} sent) into {result.path}")
        # in the benchmark's embeddings/ the file is a model name; elsewhere (a bundled
        # benchmark inside site-packages) it is loaded by its path
        shipped = (self.benchmark is not None and self.benchmark.path is not None
                   and result.path.parent == Path(self.benchmark.path) / "embeddings")
        self.embed_finished.emit(True, result.path.stem)
        self.set_model(result.path.stem if shipped else str(result.path))
