"""The inspector's state and long work: benchmark, rankings, oracle results, flags.

It drives the panels of :class:`~execretrieval_gui.mainwindow.MainWindow` and runs every
blocking engine call through a :class:`~execretrieval_gui.workers.TaskSlot` — one slot per
panel, so a fast click-through never shows a stale result.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from execretrieval import Benchmark
from execretrieval.benchmark.annotations import AnnotationStore, Flag

from . import engine
from .models import CandidateRow, role_of
from .workers import TaskSlot, emit_partial

if TYPE_CHECKING:
    from .mainwindow import MainWindow

__all__ = ["Inspector"]


class Inspector(QObject):
    """Owns what is loaded and what runs; the window owns how it looks."""

    benchmark_loaded = Signal(object)      # Benchmark
    ranking_ready = Signal(str)            # model A name
    query_ready = Signal(str)              # query id: candidates, diff and outcomes shown
    message = Signal(str)                  # for the status bar
    failed = Signal(str, str)              # title, text (shown as a dialog)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window
        self.benchmark: Benchmark | None = None
        self.model_a = ""
        self.model_b = ""
        self.ranking_a: Any = None
        self.ranking_b: Any = None
        self.status_a: engine.QueryStatus | None = None
        self.status_b: engine.QueryStatus | None = None
        self.store: AnnotationStore | None = None
        self.store_path: Path | None = None
        self.query_id: str | None = None
        self.corpus_id: str | None = None
        self.depth = 10
        self.results: dict[tuple[str, str], Any] = {}   # (corpus_id, query_id) -> SuiteResult
        self.pending_query: str | None = None
        self._shown_ranking: Any = None
        self._oracle: Any = None
        self._live_oracle: Any = None
        self.load_slot = TaskSlot("load", self)
        self.rank_slot = TaskSlot("rank", self)
        self.rank_b_slot = TaskSlot("rank B", self)
        self.badge_slot = TaskSlot("badges", self)
        self.run_slot = TaskSlot("run", self)

    # oracle ---------------------------------------------------------------------------
    @property
    def oracle(self) -> Any:
        """The cached oracle (created on first use)."""
        if self._oracle is None:
            self._oracle = engine.make_oracle(cached=True)
        return self._oracle

    @property
    def live_oracle(self) -> Any:
        """An oracle without cache, for Run: it really executes."""
        if self._live_oracle is None:
            self._live_oracle = engine.make_oracle(cached=False)
        return self._live_oracle

    def slots(self) -> list[TaskSlot]:
        return [s for s in self.findChildren(TaskSlot)]

    def shutdown(self) -> None:
        """Cancel all work (callers then wait for the pool) and close the store."""
        for slot in self.slots():
            slot.cancel()
        if self.store is not None:
            self.store.close()
            self.store = None

    def close_oracles(self) -> None:
        """Stop the sandbox servers; call once no task uses them any more."""
        for oracle in (self._oracle, self._live_oracle):
            if oracle is not None:
                oracle.close()
        self._oracle = self._live_oracle = None

    # benchmark ------------------------------------------------------------------------
    def open_benchmark(self, path: str | Path, model: str | None = None,
                       query: str | None = None) -> None:
        """Load a folder in the background; then rank with ``model`` and open ``query``."""
        path = Path(path)
        self.message.emit(f"Loading {path} …")
        self.pending_query = query
        self.w.picker.set_busy(True)
        self.load_slot.start(
            lambda progress, should_stop: engine.load(path, progress, should_stop),
            on_result=lambda bench: self._on_load_result(bench, model),
            on_error=self._on_load_error,
            on_finished=lambda: self.w.picker.set_busy(False),
        )

    def _on_load_result(self, bench: Benchmark, model: str | None) -> None:
        for slot in (self.rank_slot, self.rank_b_slot, self.badge_slot, self.run_slot):
            slot.cancel()
        self.benchmark = bench
        self.results.clear()
        self.ranking_a = self.ranking_b = self.status_a = self.status_b = None
        self.query_id = self.corpus_id = None
        self._open_store(bench)
        self.benchmark_loaded.emit(bench)
        models = engine.model_choices(bench)
        chosen = model or (self.model_a if self.model_a in models else "") or \
            ("bm25" if "bm25" in models else (models[0] if models else ""))
        self.model_b = ""
        self.w.picker.set_models(models, chosen)
        self.message.emit(f"Loaded {bench.name}: {len(bench.queries)} queries, "
                          f"{len(bench.corpus)} snippets")
        if chosen:
            self.set_model(chosen)

    def _on_load_error(self, exc: BaseException) -> None:
        """Nothing changed: the picker goes back to the benchmark still shown."""
        if self.benchmark is not None and self.benchmark.path is not None:
            self.w.picker.show_benchmark(Path(self.benchmark.path))
        self._on_task_error("Cannot open benchmark", exc)

    def _open_store(self, bench: Benchmark) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None
        try:
            self.store = AnnotationStore(bench.fingerprint, self.store_path)
        except Exception as exc:  # noqa: BLE001 - the window must survive a bad store
            self.failed.emit("Cannot open the annotation store", str(exc))
        self.refresh_flags()

    def use_store_file(self, path: str | Path) -> None:
        self.store_path = Path(path)
        if self.benchmark is not None:
            self._open_store(self.benchmark)

    # ranking --------------------------------------------------------------------------
    def set_model(self, model: str, which: str = "a") -> None:
        bench = self.benchmark
        if bench is None:
            return
        slot = self.rank_slot if which == "a" else self.rank_b_slot
        if which == "b" and not model:
            self.rank_b_slot.cancel()
            self.model_b, self.ranking_b, self.status_b = "", None, None
            self.w.browser.set_status(self.status_a, None)
            self.w.candidates.show_b_ranks(None, None, None)
            self.w.model_label.setText(f"model {self.model_label()}")
            self.w.metrics.set_models(*self.model_labels())
            return
        self.message.emit(f"Ranking {bench.name} with {model} …")
        self.w.picker.set_busy(True)

        def work(progress: Any, should_stop: Any) -> Any:
            ranking = engine.rank(bench, model, progress, should_stop)
            return ranking, engine.query_status(bench, ranking)

        slot.start(work,
                   on_result=lambda value: self._on_rank_result(model, which, *value),
                   on_error=lambda exc: self._on_rank_error(model, which, exc),
                   on_progress=lambda d, t: self.w.picker.set_busy(True, d, t),
                   on_finished=lambda: self.w.picker.set_busy(
                       self.rank_slot.busy or self.rank_b_slot.busy))

    def _on_rank_error(self, model: str, which: str, exc: BaseException) -> None:
        """The previous ranking stays; so does the picker's choice."""
        box = self.w.picker.model_box if which == "a" else self.w.picker.model_b_box
        previous = self.model_a if which == "a" else self.model_b
        if previous or which == "b":
            self.w.picker.show_model(previous, box)
        self._on_task_error(f"Cannot rank with {model}", exc)

    def _on_rank_result(self, model: str, which: str, ranking: Any,
                        status: engine.QueryStatus) -> None:
        if which == "a":
            self.model_a, self.ranking_a, self.status_a = model, ranking, status
        else:
            self.model_b, self.ranking_b, self.status_b = model, ranking, status
        self.w.browser.set_status(self.status_a, self.status_b)
        self.w.metrics.set_models(*self.model_labels())
        picker = self.w.picker   # the picker tells the truth, however the model was chosen
        picker.show_model(model, picker.model_box if which == "a" else picker.model_b_box)
        self.message.emit(f"Ranked with {ranking.model}"
                          + (" (comparison model B)" if which == "b" else ""))
        self.w.model_label.setText(f"model {self.model_label()}")
        if which == "b":
            self.w.candidates.show_b_ranks(self.benchmark, self.query_id, self.ranking_b)
        if which == "a":
            self.ranking_ready.emit(model)
            target = self.pending_query or self.query_id
            self.pending_query = None
            bench = self.benchmark
            query = bench.find_query(target) if (bench and target) else None
            if query is None and bench is not None and bench.queries:
                if target:
                    self.message.emit(f"No query named {target!r}; showing the first one")
                query = bench.queries[0]
            if query is not None:
                self.w.browser.select_query(query.query_id, emit=False)
                self.select_query(query.query_id, force=True)

    def model_labels(self) -> tuple[str, str]:
        """The names models go by in rankings and reports (a file's stem for a path)."""
        a = self.ranking_a.model if self.ranking_a is not None else self.model_a
        b = self.ranking_b.model if self.ranking_b is not None else ""
        return a, b

    def model_label(self) -> str:
        a, b = self.model_labels()
        return f"{a} vs {b}" if b else a

    # query and candidates -------------------------------------------------------------
    def select_query(self, query_id: str, force: bool = False) -> None:
        bench, ranking = self.benchmark, self.ranking_a
        if bench is None or ranking is None or not bench.has_query(query_id):
            return
        if query_id == self.query_id and not force:
            return
        # same query and ranking again (a new depth): keep the candidate the user looked at;
        # a new model starts again from its rank 1
        same = query_id == self.query_id and ranking is self._shown_ranking
        keep = self.corpus_id if same else None
        self.query_id = query_id
        self._shown_ranking = ranking
        query = bench.query(query_id)
        qi = bench.query_index(query_id)
        canon = bench.canonical_for(query_id)
        canon_score = float(ranking.scores[qi, bench.corpus_index(canon.corpus_id)]) \
            if canon is not None else float("nan")
        rows = []
        top = [int(j) for j in ranking.top(qi, self.depth)]
        # The query's own snippets ranked below the cut follow the top-k, by rank.
        own = (bench.corpus_index(s.corpus_id) for s in bench.snippets_for(query_id))
        below = sorted((j for j in own if ranking.rank_of(qi, j) > len(top)),
                       key=lambda j: ranking.rank_of(qi, j))
        for j in top + below:
            snippet = bench.corpus[j]
            score = float(ranking.scores[qi, j])
            rank = ranking.rank_of(qi, j)
            rows.append(CandidateRow(rank, j, snippet, score, score - canon_score,
                                     role_of(query, snippet), self._known(snippet, query),
                                     below_cut=rank > len(top)))
        canon_rank = ranking.rank_of(qi, bench.corpus_index(canon.corpus_id)) if canon else 0
        self.w.candidates.show_query(query, ranking.model, canon_rank)
        self.w.candidates.model.set_rows(rows, len(query.test_suite))
        self.w.candidates.show_b_ranks(bench, query_id, self.ranking_b)
        self.w.tests.matrix.set_rows([f"{r.rank} {r.snippet.corpus_id}" for r in rows],
                                     [r.outcome for r in rows], len(query.test_suite))
        self.refresh_flags()
        self.run_slot.cancel()
        self.w.tests.set_running(False)
        shown = [r.snippet.corpus_id for r in rows]
        first = keep if keep in shown else (shown[0] if shown else None)
        self.corpus_id = None
        if first is not None:
            self.w.candidates.select_corpus_id(first)   # -> select_candidate
        self._fill_missing(query, rows)

    def _known(self, snippet: Any, query: Any) -> Any:
        key = (snippet.corpus_id, query.query_id)
        if key not in self.results:
            try:
                hit = self.oracle.cached(snippet.code, query.test_suite)
            except Exception as exc:  # noqa: BLE001 - no oracle: show the ranking anyway
                self.message.emit(f"Test results unavailable: {exc}")
                return None
            if hit is None:
                return None
            self.results[key] = hit
        return self.results[key]

    def _fill_missing(self, query: Any, rows: list[CandidateRow]) -> None:
        missing = [r.snippet for r in rows if r.outcome is None]
        if not missing:
            self.badge_slot.cancel()
            self.query_ready.emit(query.query_id)
            return
        self.w.candidates.model.set_pending({s.corpus_id for s in missing})
        qid = query.query_id
        self.badge_slot.start(
            _suite_runs(self.oracle, [(s.corpus_id, s.code) for s in missing],
                        query.test_suite),
            on_result=lambda _v: None,
            on_partial=lambda pairs: self._on_badges_partial(qid, pairs),
            on_error=lambda exc: self._on_task_error("Cannot run the tests", exc, dialog=False),
            on_finished=lambda: self.query_ready.emit(qid),
        )

    def _on_badges_partial(self, query_id: str, pairs: list[tuple[str, Any]]) -> None:
        for corpus_id, result in pairs:
            self._set_result(corpus_id, query_id, result)

    def _set_result(self, corpus_id: str, query_id: str, result: Any) -> None:
        self.results[(corpus_id, query_id)] = result
        if query_id != self.query_id:
            return
        self.w.candidates.model.set_outcome(corpus_id, result)
        row = self.w.candidates.model.row_of(corpus_id)
        self.w.tests.matrix.set_result(row, result)
        if corpus_id == self.corpus_id:
            self.w.tests.show_result(result)

    def select_candidate(self, corpus_id: str) -> None:
        bench = self.benchmark
        if bench is None or self.query_id is None or not bench.has_snippet(corpus_id):
            return
        self.corpus_id = corpus_id
        query = bench.query(self.query_id)
        snippet = bench.snippet(corpus_id)
        self.w.diff.show_pair(bench.canonical_for(self.query_id), snippet)
        row = self.w.candidates.model.row_of(corpus_id)
        label = corpus_id
        if row >= 0:
            label = f"Rank {self.w.candidates.model.rows[row].rank}: {corpus_id}"
        label += f" · {len(query.test_suite)} tests"
        self.w.tests.show_candidate(label, snippet.code, query.test_suite,
                                    self.results.get((corpus_id, self.query_id)))
        self.w.flags.set_targets(self.query_id, len(query.test_suite),
                                 [r.snippet.corpus_id for r in self.w.candidates.model.rows],
                                 corpus_id)

    def set_depth(self, depth: int) -> None:
        self.depth = int(depth)
        if self.query_id is not None:
            self.select_query(self.query_id, force=True)

    # live runs ------------------------------------------------------------------------
    def run_selected(self, everything: bool = False) -> None:
        bench, qid = self.benchmark, self.query_id
        if bench is None or qid is None:
            return
        query = bench.query(qid)
        cids = [r.snippet.corpus_id for r in self.w.candidates.model.rows] if everything \
            else ([self.corpus_id] if self.corpus_id else [])
        if not cids:
            return
        self.w.tests.set_running(True, f"running {len(cids)} suite(s)")
        self.run_slot.start(
            _suite_runs(self.live_oracle, [(c, bench.snippet(c).code) for c in cids],
                        query.test_suite),
            on_result=lambda _v: self.message.emit("Run finished"),
            on_partial=lambda pairs: self._on_badges_partial(qid, pairs),
            on_progress=lambda d, t: self.w.tests.set_progress_text(f"{d}/{t} done"),
            on_error=lambda exc: self._on_task_error("Run failed", exc, dialog=False),
            on_finished=lambda: self.w.tests.set_running(False))

    def run_scratch(self, code: str, tests: tuple[str, ...]) -> None:
        if not tests:
            self.message.emit("Scratch run needs at least one test")
            return
        oracle = self.live_oracle
        self.w.tests.set_running(True, "running scratch")
        self.run_slot.start(
            lambda progress, should_stop: oracle.run_many([(code, tests)],
                                                          should_stop=should_stop)[0],
            on_result=lambda result: self.w.tests.show_scratch_result(result, tests),
            on_error=lambda exc: self._on_task_error("Scratch run failed", exc, dialog=False),
            on_finished=lambda: self.w.tests.set_running(False))

    def cancel_run(self) -> None:
        if self.run_slot.busy:
            self.run_slot.cancel()
            self.w.tests.set_running(False)
            self.message.emit("Run cancelled")

    # flags ----------------------------------------------------------------------------
    def add_flag(self, flag: Flag) -> None:
        if self.store is None:
            self.failed.emit("Cannot save the flag", "No annotation store is open.")
            return
        try:
            saved = self.store.add(flag)   # returns once it is on disk
        except Exception as exc:  # noqa: BLE001
            self.failed.emit("Cannot save the flag", str(exc))
            return
        self.w.flags.confirm_saved()
        self.refresh_flags()
        self.message.emit(f"Flag saved: {saved.category_label} on {saved.describe_target()}")

    def remove_flag(self, flag_id: int) -> None:
        if self.store is None:
            return
        try:
            self.store.remove(flag_id)
        except Exception as exc:  # noqa: BLE001
            self.failed.emit("Cannot remove the flag", str(exc))
        self.refresh_flags()

    def refresh_flags(self) -> None:
        store = self.store
        flagged = store.flagged_query_ids() if store is not None else set()
        self.w.browser.set_flagged(flagged)
        self.w.flags.set_flags(store.flags(self.query_id) if (store and self.query_id) else [])
        where = str(store.path) if store is not None else ""
        home = str(Path.home())
        if where.startswith(home + "/"):
            where = "~" + where[len(home):]
        noun = "query" if len(flagged) == 1 else "queries"
        self.w.flags.store_label.setText(
            f"{len(flagged)} flagged {noun} · {where}" if store is not None else
            "no annotation store")
        self.w.flags.store_label.setToolTip(str(store.path) if store is not None else "")

    # errors ---------------------------------------------------------------------------
    def _on_task_error(self, title: str, exc: BaseException, dialog: bool = True) -> None:
        from execretrieval import CancelledError

        if isinstance(exc, CancelledError):
            self.message.emit(f"{title}: cancelled")
            return
        text = str(exc) or type(exc).__name__
        self.message.emit(f"{title}: {text}")
        if dialog:
            self.failed.emit(title, text)


def _suite_runs(oracle: Any, items: list[tuple[str, str]], tests: tuple[str, ...]) -> Any:
    """A worker running each (corpus_id, code) against ``tests``, a core's worth at a time,
    emitting every finished chunk as a partial list of (corpus_id, SuiteResult)."""
    chunk = max(2, engine.cpu_count())

    def work(progress: Any, should_stop: Any) -> None:
        for start in range(0, len(items), chunk):
            part = items[start:start + chunk]
            found = oracle.run_many([(code, tests) for _, code in part],
                                    should_stop=should_stop)
            emit_partial([(cid, res) for (cid, _), res in zip(part, found, strict=True)])
            progress(start + len(part), len(items))

    return work
