"""The inspector's state: what is loaded, what is selected, what runs — observed, not driving.

:class:`InspectorState` is a QObject with signals and nothing else of Qt's: it never imports
or touches a widget (napari's ``ViewerModel`` is the model). Panels subscribe to its signals
and render; user actions come back as method calls (``select_query``, ``set_model``,
``run_selected``, ``add_flag`` …). Every blocking engine call runs through a
:class:`~execretrieval_gui.workers.TaskSlot` — one slot per kind of work, so a fast
click-through never shows a stale result.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from execretrieval import Benchmark, CancelledError, Query, Snippet
from execretrieval.benchmark.annotations import AnnotationStore, Flag
from execretrieval.benchmark.flags import default_annotator

from . import engine, firstscreen
from .models import CandidateRow
from .slices import Slices
from .state_flags import FlagsMixin
from .state_runs import RunsMixin
from .state_start import StartMixin
from .state_types import (
    CandidateView,
    Explained,
    FlagsView,
    QueryView,
    other_ranks,
    ranked_rows,
    suite_runs,
)
from .workers import TaskSlot

__all__ = ["CandidateView", "FlagsView", "InspectorState", "QueryView"]


class InspectorState(FlagsMixin, RunsMixin, StartMixin, QObject):
    """Owns what is loaded and what runs; the window and its panels own how it looks."""

    # loading and ranking
    benchmark_loaded = Signal(object)       # Benchmark
    benchmark_path = Signal(object)         # Path of the benchmark held (after load or failure)
    models_changed = Signal(object, str)    # list of model names offered, chosen
    model_shown = Signal(str, str)          # which ("a" | "b"), model name or path held
    model_rejected = Signal(str, str)       # which ("a" | "b"), model that failed to load
    argument_rejected = Signal(str)         # a start-up argument that could not be used
    query_not_found = Signal(str)           # the query asked for at opening is not there
    busy_changed = Signal(bool, int, int)   # loading or ranking: busy, done, total
    ranking_ready = Signal(str)             # model A name
    rankings_changed = Signal(str, str)     # model A's label, model B's ("" for none)
    status_changed = Signal(object, object)  # QueryStatus of A, of B (or None)
    # the selected query and candidate
    query_changed = Signal(object)          # QueryView
    b_ranks_changed = Signal(object, str)   # (best, worst) B rank per listed row, or None; B label
    b_rows_changed = Signal(object, object, str)  # B's rows (None: no B), their A ranks, B label
    candidate_changed = Signal(object)      # CandidateView
    pending_changed = Signal(object)        # set of corpus ids whose badges are computing
    result_changed = Signal(str, int, object)  # corpus id, its row, SuiteResult
    selected_result_changed = Signal(object)   # a new SuiteResult for the selected candidate
    query_ready = Signal(str)               # candidates, diff and outcomes of the query known
    # live runs
    running_changed = Signal(bool, str)     # running, what
    rerun_offered = Signal(str, bool)       # what is cached (text), everything?
    run_progress = Signal(str)
    scratch_finished = Signal(object, object)  # SuiteResult, tests
    # flags
    flags_changed = Signal(object)          # FlagsView
    flag_saved = Signal(object)             # Flag
    undo_changed = Signal(bool)             # a removed flag can be put back
    annotator_changed = Signal(str)
    # encoding with a served model (issue 15)
    embed_progress = Signal(int, int)       # texts done, to send
    embed_status = Signal(str)              # a retry, from a worker thread (queued)
    embed_finished = Signal(bool, str)      # ok; the model name, or what went wrong
    # talk
    message = Signal(str)                   # for the status bar
    failed = Signal(str, str)               # title, text (shown as a dialog)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.benchmark: Benchmark | None = None
        self.base_benchmark: Benchmark | None = None  # without the background pool
        self.pool_path: Path | None = None
        self.model_a = ""
        self.model_b = ""
        self.ranking_a: Any = None
        self.ranking_b: Any = None
        self.status_a: engine.QueryStatus | None = None
        self.status_b: engine.QueryStatus | None = None
        self.blind_a: dict[str, str] = {}   # model A's blind-spot distractors -> why
        self.store: AnnotationStore | None = None
        self.store_path: Path | None = None
        self.annotator = default_annotator()
        self._removed: list[Flag] = []      # removed flags, newest last (undo)
        self._flagged: frozenset[str] | None = None   # cached flagged query ids
        self.query_id: str | None = None
        self.corpus_id: str | None = None
        self.rows: list[CandidateRow] = []
        self.rows_b: list[CandidateRow] = []     # model B's ranking of the query (A|B view)
        self.depth = 10
        # the held-out split pipelines rank under: (--visible, --split-seed), or None
        self.split_spec: tuple[float | int, int] | None = None
        self._split: tuple[Any, Any] | None = None   # (benchmark, its Split)
        self.results: dict[tuple[str, str], Any] = {}   # (corpus_id, query_id) -> SuiteResult
        self.pending_query: str | None = None
        # a query asked for by name that is not there: open the first one (False), or only
        # say so through query_not_found (True: the command line's --query exits 2)
        self.strict_query = False
        self._shown_ranking: Any = None
        # model A's first screen as the last run left it, shown until its ranking is here
        self._preview: firstscreen.Preview | None = None
        self._rank_requests: dict[str, object] = {}   # which -> the latest set_model's token
        # model A's blind spots wait for the first query to be usable (they tokenize every
        # snippet, and would hold the GIL while the first query's outcomes are read)
        self._after_usable: tuple[str, Any] | None = None
        self._oracle: Any = None
        self._live_oracle: Any = None
        self._oracle_lock = threading.Lock()   # the cached oracle may open ahead (below)
        self._oracles_closed = False
        self.slices = Slices(self)   # saved query filters (their metrics: the reporter's)
        self.load_slot = TaskSlot("load", self)
        self.rank_slot = TaskSlot("rank", self)
        self.rank_b_slot = TaskSlot("rank B", self)
        self.blind_slot = TaskSlot("blind spots", self)   # after the ranking is shown
        self.keep_slot = TaskSlot("first screen", self)   # keeps it for the next start
        self.badge_slot = TaskSlot("badges", self)
        self.run_slot = TaskSlot("run", self)
        self.embed_slot = TaskSlot("embed", self)
        self.embed_status.connect(self.message)
        self.query_ready.connect(self._after_first_usable_query)

    # oracle ---------------------------------------------------------------------------
    @property
    def oracle(self) -> Any:
        """The cached oracle (created on first use, or ahead by open_benchmark)."""
        with self._oracle_lock:
            if self._oracle is None:
                self._oracle = engine.make_oracle(cached=True)
            return self._oracle

    def _open_oracle_ahead(self) -> None:
        """Open the cached oracle in a thread while the benchmark loads and ranks: opening
        the result cache checks the whole SQLite file (PRAGMA quick_check, ~80 ms per
        180 MB, outside the GIL), which the first query's outcomes would otherwise wait
        for on the UI thread. A failure is left to the first use, which reports it."""
        def open_now() -> None:
            with self._oracle_lock:
                if self._oracle is None and not self._oracles_closed:
                    try:
                        self._oracle = engine.make_oracle(cached=True)
                    except Exception:  # noqa: BLE001 - the UI thread meets it and says so
                        pass

        if self._oracle is None:
            threading.Thread(target=open_now, name="open result cache", daemon=True).start()

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
        with self._oracle_lock:
            self._oracles_closed = True   # an oracle opening ahead is not opened after this
            for oracle in (self._oracle, self._live_oracle):
                if oracle is not None:
                    oracle.close()
            self._oracle = self._live_oracle = None

    # benchmark ------------------------------------------------------------------------
    def open_benchmark(self, path: str | Path, model: str | None = None,
                       query: str | None = None, fallback: str | Path | None = None) -> None:
        """Load a folder in the background; then rank with ``model`` and open ``query``.

        ``fallback``: a folder to open instead if ``path`` cannot be loaded and nothing is
        open yet (start-up: the window never stays empty because of a bad argument).
        """
        path = Path(path)
        self.message.emit(f"Loading {path} …")
        self._open_oracle_ahead()
        self.pending_query = query
        self.busy_changed.emit(True, 0, 0)
        self.load_slot.start(
            lambda progress, should_stop: engine.load(path, progress, should_stop),
            on_result=lambda bench: self._on_load_result(bench, model),
            on_error=lambda exc: self._on_load_error(exc, fallback),
            on_finished=self._emit_busy,
        )

    def use_pool(self, path: str | Path | None) -> None:
        """Join a background pool file to the open benchmark (None: back to the benchmark
        alone); the models are ranked again, flags stay with the benchmark."""
        base = self.base_benchmark or self.benchmark
        if base is None:
            return
        if path is None:
            self.pool_path = None
            self._on_load_result(base, self.model_a or None, base=base)
            return
        pool = Path(path)
        self.message.emit(f"Joining the background pool {pool} …")
        self.busy_changed.emit(True, 0, 0)

        def joined(bench: Benchmark) -> None:
            self.pool_path = pool
            self._on_load_result(bench, self.model_a or None, base=base)

        self.load_slot.start(
            lambda progress, should_stop: engine.join_pool(base, pool, progress, should_stop),
            on_result=joined,
            on_error=lambda exc: self._on_task_error("Cannot use the background pool", exc),
            on_finished=self._emit_busy,
        )

    def _emit_busy(self) -> None:
        busy = self.load_slot.busy or self.rank_slot.busy or self.rank_b_slot.busy
        self.busy_changed.emit(busy, 0, 0)

    def _on_load_result(self, bench: Benchmark, model: str | None,
                        base: Benchmark | None = None) -> None:
        for slot in (self.rank_slot, self.rank_b_slot, self.blind_slot, self.badge_slot,
                     self.run_slot, self.keep_slot):
            slot.cancel()
        self.benchmark = bench
        if base is None:  # a newly opened folder: no pool yet
            self.pool_path = None
        self.base_benchmark = base or bench
        self.results.clear()
        self.ranking_a = self.ranking_b = self.status_a = self.status_b = None
        self._preview = None
        self.blind_a = {}
        self.query_id = self.corpus_id = None
        self.rows = []
        self._open_store(self.base_benchmark)  # flags belong to the benchmark, pool or not
        self.benchmark_loaded.emit(bench)
        if bench.path is not None:
            self.benchmark_path.emit(Path(bench.path))
        models = engine.model_choices(bench)
        default = (self.model_a if self.model_a in models else "") or \
            ("bm25" if "bm25" in models else (models[0] if models else ""))
        if model and not engine.is_model(bench, model):
            text = (f"Unknown model {model!r}: {bench.name} offers {', '.join(models)} "
                    f"(or a path to a .npz, a TREC run file or a model folder). "
                    f"Showing {default} instead.")
            self.argument_rejected.emit(text)
            self.failed.emit("Unknown model", text)
            model = None
        chosen = model or default
        self.model_b = ""
        self.models_changed.emit(models, chosen)
        pool = bench.manifest.get("pool")
        with_pool_note = (f" ({pool['joined']} from the background pool {pool['name']})"
                          if pool else "")
        self.message.emit(f"Loaded {bench.name}: {len(bench.queries)} queries, "
                          f"{len(bench.corpus)} snippets{with_pool_note}")
        if chosen:
            self.set_model(chosen)

    def _on_load_error(self, exc: BaseException, fallback: str | Path | None = None) -> None:
        """Nothing changed: the picker goes back to the benchmark still shown (or, with
        nothing shown yet, the ``fallback`` opens)."""
        if self.benchmark is not None and self.benchmark.path is not None:
            self.benchmark_path.emit(Path(self.benchmark.path))
        elif fallback is not None and not isinstance(exc, CancelledError):
            self._on_task_error("Cannot open benchmark", Explained(
                f"{exc}\n\nOpening the bundled benchmark {Path(fallback).name} instead."))
            self.open_benchmark(fallback, query=None)
            return
        self._on_task_error("Cannot open benchmark", exc)

    # ranking --------------------------------------------------------------------------
    def set_model(self, model: str, which: str = "a") -> None:
        bench = self.benchmark
        if bench is None:
            return
        slot = self.rank_slot if which == "a" else self.rank_b_slot
        if which == "b" and not model:
            self.rank_b_slot.cancel()
            self.model_b, self.ranking_b, self.status_b = "", None, None
            self.status_changed.emit(self.status_a, None)
            self.b_ranks_changed.emit(None, "")
            self._emit_b_rows()
            self.rankings_changed.emit(*self.model_labels())
            return
        self.message.emit(f"Ranking {bench.name} with {model} …")
        self.busy_changed.emit(True, 0, 0)

        # a pipeline's stages run on the cached oracle and the split's visible tests
        staged = engine.needs_split(model)
        oracle, split = (self.oracle, self.split) if staged else (None, None)

        # The blind spots of model A (a tokenizer over every snippet for a dense model)
        # follow once the ranking is shown: the first query need not wait for them.
        def work(progress: Any, should_stop: Any) -> Any:
            ranking = engine.rank(bench, model, progress, should_stop, oracle=oracle,
                                  split=split)
            return ranking, engine.query_status(bench, ranking)

        request = self._rank_requests[which] = object()   # the latest asks; older wait no more

        def start() -> None:
            if self.benchmark is bench and self._rank_requests.get(which) is request:
                slot.start(work,
                           on_result=lambda value: self._on_rank_result(model, which, *value),
                           on_error=lambda exc: self._on_rank_error(model, which, exc),
                           on_progress=lambda d, t: self.busy_changed.emit(True, d, t),
                           on_finished=self._emit_busy)

        if which == "a" and self._show_preview(bench, model):
            # the first screen is usable from what the last run kept; the ranking follows
            # once it is drawn (a worker now would hold the GIL the drawing needs)
            QTimer.singleShot(0, start)
        else:
            start()

    @property
    def split(self) -> Any:
        """The open benchmark's held-out split under ``split_spec`` (None without one)."""
        bench = self.benchmark
        if bench is None or self.split_spec is None:
            return None
        if self._split is None or self._split[0] is not bench:
            self._split = (bench, engine.make_split(bench, *self.split_spec))
        return self._split[1]

    def set_split(self, visible: float | int | None, seed: int = 0) -> None:
        """Rank pipelines on ``visible`` tests per query (a count or a fraction) drawn
        with ``seed``, judge on the rest; None: no split."""
        spec = None if visible is None else (visible, int(seed))
        if spec != self.split_spec:
            self.split_spec, self._split = spec, None
            if self.query_id is not None:
                self.select_query(self.query_id, force=True)   # the tests panel's marks
            for which, model in (("a", self.model_a), ("b", self.model_b)):
                if model and engine.needs_split(model):   # staged on the old visible tests
                    self.set_model(model, which)

    def _on_rank_error(self, model: str, which: str, exc: BaseException) -> None:
        """The previous ranking stays, and so does the picker's choice; a model that failed
        leaves the lists (a file that cannot be read is no choice)."""
        previous = self.model_a if which == "a" else self.model_b
        if not isinstance(exc, CancelledError) and model != previous:
            self.model_rejected.emit(which, model)
        if previous or which == "b":
            self.model_shown.emit(which, previous)
        self._on_task_error(f"Cannot rank with {model}", exc)
        bench = self.benchmark
        if which == "a" and self.ranking_a is None and bench is not None and \
                not isinstance(exc, CancelledError):   # nothing shown yet: the default model
            default = next((m for m in ("bm25", *engine.model_choices(bench)) if m != model
                            and m in engine.model_choices(bench)), "")
            if default:
                self.models_changed.emit(engine.model_choices(bench), default)
                self.set_model(default)

    def _on_rank_result(self, model: str, which: str, ranking: Any,
                        status: engine.QueryStatus) -> None:
        if which == "a":
            self.model_a, self.ranking_a, self.status_a = model, ranking, status
            self.blind_a = {}
            self._preview = None
        else:
            self.model_b, self.ranking_b, self.status_b = model, ranking, status
        self.status_changed.emit(self.status_a, self.status_b)
        self.model_shown.emit(which, model)   # the picker tells the truth, however chosen
        self.message.emit(f"Ranked with {ranking.model}"
                          + (" (comparison model B)" if which == "b" else ""))
        self.rankings_changed.emit(*self.model_labels())
        if which == "b":
            self._emit_b_ranks()
            self._emit_b_rows()
            if self.query_id is not None and self.benchmark is not None:
                self._fill_missing(self.benchmark.query(self.query_id), self.rows_b)
            return
        self.ranking_ready.emit(model)
        self._after_usable = (model, ranking)   # in the background, once usable
        target = self.pending_query or self.query_id
        self.pending_query = None
        bench = self.benchmark
        query = bench.find_query(target) if (bench and target) else None
        if query is None and bench is not None and bench.queries:
            if target:
                text = (f"No query named {target!r} in {bench.name}: give a function name "
                        f"or query id (for example {bench.queries[0].function_name} or "
                        f"{bench.queries[0].query_id})")
                self.query_not_found.emit(text)
                if self.strict_query:
                    return
                self.message.emit(f"{text}; showing the first one")
            query = bench.queries[0]
        if query is not None:
            self.select_query(query.query_id, force=True)
        else:
            self._after_first_usable_query()

    def set_status_a(self, status: engine.QueryStatus) -> None:
        """Model A's per-query status, refined (e.g. rank-1 correctness from the oracle)."""
        self.status_a = status
        self.status_changed.emit(self.status_a, self.status_b)

    def model_labels(self) -> tuple[str, str]:
        """The names models go by in rankings and reports (a file's stem for a path)."""
        a = self.ranking_a.model if self.ranking_a is not None else self.model_a
        b = self.ranking_b.model if self.ranking_b is not None else ""
        return a, b

    def model_label(self) -> str:
        a, b = self.model_labels()
        return f"{a} vs {b}" if b else a

    def b_ranks(self) -> list[tuple[int, int] | None] | None:
        """Each listed candidate's rank under model B; None without B."""
        bench, rb, qid = self.benchmark, self.ranking_b, self.query_id
        if rb is None or bench is None or qid is None:
            return None
        return other_ranks(bench, rb, qid, self.rows)

    def _emit_b_ranks(self) -> None:
        self.b_ranks_changed.emit(self.b_ranks(), self.model_labels()[1])

    def _emit_b_rows(self) -> None:
        """Model B's own ranking of the query (the A|B view), with each row's rank under A."""
        bench, ra, rb, qid = self.benchmark, self.ranking_a, self.ranking_b, self.query_id
        if bench is None or ra is None or rb is None or qid is None:
            self.rows_b = []
            self.b_rows_changed.emit(None, None, "")
            return
        query = bench.query(qid)
        self.rows_b, _rank = ranked_rows(bench, rb, qid, self.depth,
                                         lambda snippet: self._known(snippet, query))
        self.b_rows_changed.emit(tuple(self.rows_b), other_ranks(bench, ra, qid, self.rows_b),
                                 self.model_labels()[1])

    # query and candidates -------------------------------------------------------------
    def select_query(self, query_id: str, force: bool = False) -> None:
        bench, ranking = self.benchmark, self.ranking_a
        preview = self._preview if ranking is None else None
        if bench is None or (ranking is None and preview is None) \
                or not bench.has_query(query_id):
            return
        if query_id == self.query_id and not force:
            return
        if preview is not None and preview.depth != self.depth:
            return   # kept at another depth: the ranking follows
        # same query and ranking again (a new depth, or the ranking that replaces its kept
        # first screen): keep the candidate the user looked at; a new model starts again
        # from its rank 1
        shown = self._shown_ranking
        same = query_id == self.query_id and (
            (ranking or preview) is shown or (isinstance(shown, firstscreen.Preview)
                                              and ranking is not None
                                              and shown.model == ranking.model))
        keep = self.corpus_id if same else None
        self.query_id = query_id
        self._shown_ranking = ranking or preview
        query = bench.query(query_id)
        if ranking is not None:
            rows, _ = ranked_rows(bench, ranking, query_id, self.depth,
                                  lambda snippet: self._known(snippet, query),
                                  blind=self.blind_a)
            tie, label = engine.canonical_tie(bench, ranking, query_id), ranking.model
        else:
            assert preview is not None
            rows = preview.candidate_rows(bench, query_id,
                                          lambda snippet: self._known(snippet, query))
            tie, label = preview.ties[query_id], preview.model
        self.rows = rows
        self.run_slot.cancel()
        self.corpus_id = None
        split = self.split
        self.query_changed.emit(QueryView(
            query, label, tie.best, tuple(rows), tie.worst, tie.score, tie.mutants,
            tie.others, tuple(split.visible[query_id]) if split is not None else None))
        self._emit_b_ranks()
        self._emit_b_rows()
        self.refresh_flags(changed=False)
        self.running_changed.emit(False, "")
        shown = [r.snippet.corpus_id for r in rows]
        first = keep if keep in shown else (shown[0] if shown else None)
        if first is not None:
            self.select_candidate(first)
        self._fill_missing(query, rows + self.rows_b)

    def row_of(self, corpus_id: str) -> int:
        return next((i for i, r in enumerate(self.rows) if r.snippet.corpus_id == corpus_id), -1)

    def _known(self, snippet: Snippet, query: Query) -> Any:
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

    def _fill_missing(self, query: Query, rows: list[CandidateRow]) -> None:
        missing = list({r.snippet.corpus_id: r.snippet for r in rows
                        if r.outcome is None and (r.snippet.corpus_id, query.query_id)
                        not in self.results}.values())
        if not missing:
            self.badge_slot.cancel()
            self.query_ready.emit(query.query_id)
            return
        self.pending_changed.emit({s.corpus_id for s in missing})
        qid = query.query_id
        self.badge_slot.start(
            suite_runs(self.oracle, [(s.corpus_id, s.code) for s in missing],
                        query.test_suite),
            on_result=lambda _v: None,
            on_partial=lambda pairs: self._on_suites_partial(qid, pairs),
            on_error=lambda exc: self._on_task_error("Cannot run the tests", exc, dialog=False),
            on_finished=lambda: self.query_ready.emit(qid),
        )

    def _on_suites_partial(self, query_id: str, pairs: list[tuple[str, Any]]) -> None:
        for corpus_id, result in pairs:
            self._set_result(corpus_id, query_id, result)

    def _set_result(self, corpus_id: str, query_id: str, result: Any) -> None:
        self.results[(corpus_id, query_id)] = result
        if query_id != self.query_id:
            return
        row = self.row_of(corpus_id)
        self.result_changed.emit(corpus_id, row, result)
        if corpus_id == self.corpus_id:
            self.selected_result_changed.emit(result)

    def select_candidate(self, corpus_id: str) -> None:
        bench = self.benchmark
        if bench is None or self.query_id is None or not bench.has_snippet(corpus_id):
            return
        if corpus_id == self.corpus_id:
            return
        self.corpus_id = corpus_id
        query = bench.query(self.query_id)
        row = self.row_of(corpus_id)
        label = f"Rank {self.rows[row].rank_label}: {corpus_id}" if row >= 0 else corpus_id
        label += f" · {len(query.test_suite)} tests"
        self.candidate_changed.emit(CandidateView(
            query, bench.canonical_for(self.query_id), bench.snippet(corpus_id), label,
            self.results.get((corpus_id, self.query_id)),
            tuple(r.snippet.corpus_id for r in self.rows),
            tuple(self.split.visible[self.query_id]) if self.split is not None else None))

    def step_candidate(self, step: int) -> None:
        """Select the next (``step`` > 0) or previous listed candidate."""
        row = self.row_of(self.corpus_id) + step if self.corpus_id else 0
        if 0 <= row < len(self.rows):
            self.select_candidate(self.rows[row].snippet.corpus_id)

    def select_row(self, row: int) -> None:
        """A row of the top-k × tests matrix is that candidate."""
        if 0 <= row < len(self.rows):
            self.select_candidate(self.rows[row].snippet.corpus_id)

    def set_depth(self, depth: int) -> None:
        self.depth = int(depth)
        if self.query_id is not None:
            self.select_query(self.query_id, force=True)

    # errors ---------------------------------------------------------------------------
    def report_error(self, title: str, exc: BaseException, dialog: bool = True) -> None:
        """Say what failed: in the status bar, and in a dialog unless ``dialog`` is False."""
        self._on_task_error(title, exc, dialog)

    def _on_task_error(self, title: str, exc: BaseException, dialog: bool = True) -> None:
        if isinstance(exc, CancelledError):
            self.message.emit(f"{title}: cancelled")
            return
        text = str(exc) or type(exc).__name__
        self.message.emit(f"{title}: {text}")
        if dialog:
            self.failed.emit(title, text)
