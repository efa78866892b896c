"""The GUI's one door into the engine: imports, bundled benchmarks, per-query status.

Everything here is plain Python (no Qt). Functions that may take long take the
``progress`` / ``should_stop`` hooks and are meant to run inside a worker
(:mod:`execretrieval_gui.workers`); the rest is fast enough for the UI thread.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from execretrieval import (
    Benchmark,
    ExecRetrievalError,
    __version__,
    installed_extras,
    load_benchmark,
    read_recent,
    remember_benchmark,
    resolve_benchmark,
)
from execretrieval import bundled_benchmarks as engine_bundled

if TYPE_CHECKING:   # numpy loads with the first ranking, not with the window
    import numpy as np

__all__ = [
    "QueryStatus",
    "CanonicalTie",
    "blind_distractors",
    "canonical_tie",
    "check_pipeline",
    "cost_table",
    "evaluate_report",
    "make_split",
    "mixed_share",
    "needs_split",
    "parse_visible",
    "pipeline_parts",
    "stage_labels",
    "tie_from",
    "about_facts",
    "benchmark_choices",
    "bundled_benchmarks",
    "cpu_count",
    "embed_served",
    "evaluate_models",
    "export_report",
    "is_model",
    "load",
    "make_oracle",
    "model_choices",
    "query_status",
    "oracle_containment",
    "rank",
    "resolve",
    "served_presets",
]

_log = logging.getLogger(__name__)
Progress = Callable[[int, int], None]
StopHook = Callable[[], bool]


def bundled_benchmarks() -> list[Path]:
    """The benchmarks installed with the package: ``builtin`` first, then by name."""
    return list(engine_bundled().values())


def benchmark_choices() -> list[Path]:
    """The bundled benchmarks, then the recently opened folders that still exist."""
    folders = bundled_benchmarks()
    try:
        recent = [path for path, _ in read_recent() if path.is_dir()]
    except ExecRetrievalError:   # a damaged list only loses the recent entries
        recent = []
    return folders + [p for p in recent if p not in folders]


def resolve(spec: str | Path) -> Path:
    """The folder a benchmark argument means (a folder, else a bundled name); raises
    BenchmarkNotFoundError naming what was tried."""
    return resolve_benchmark(spec)


def load(path: str | Path, progress: Progress | None = None,
         should_stop: StopHook | None = None) -> Benchmark:
    """Load a benchmark folder or bundled name and record it as recently opened
    (may take a second at paper scale: run it in a worker)."""
    if progress:
        progress(0, 1)
    bench = load_benchmark(path)
    # not the fingerprint: nothing before the first usable query needs it (the first screen
    # is keyed by the files' digest); the blind-spot task computes it after that
    _warm_tokenizer()
    if bench.path is not None:
        try:
            remember_benchmark(bench.path)
        except OSError as exc:   # the recent list is a convenience; the load stands
            _log.warning("cannot record %s as recently opened: %s", bench.path, exc)
    if progress:
        progress(1, 1)
    return bench


def _warm_tokenizer() -> None:
    """Compile the standard tokenizer's patterns (once a process, a few milliseconds) off
    the UI thread: the first diff and its colouring would compile them there."""
    import io
    import tokenize

    for _token in tokenize.generate_tokens(io.StringIO("x = 'y'  # z\n").readline):
        pass


def join_pool(benchmark: Benchmark, path: str | Path, progress: Progress | None = None,
              should_stop: StopHook | None = None) -> Benchmark:
    """The benchmark with a background pool file's functions in its corpus (run in a worker)."""
    from execretrieval import read_pool, with_pool

    if progress:
        progress(0, 1)
    joined = with_pool(benchmark, read_pool(path))
    _ = joined.fingerprint
    if progress:
        progress(1, 1)
    return joined


def about_facts() -> dict[str, str]:
    """Version, Python and installed extras, for Help > About (fast: metadata only)."""
    import platform
    import sys

    extras = installed_extras()
    return {
        "version": __version__,
        "python": f"{platform.python_version()} ({sys.executable})",
        "extras": ", ".join(f"{name} {'yes' if ok else 'no'}" for name, ok in extras.items())
                  or "(no installed metadata)",
    }


def oracle_containment(progress: Progress | None = None,
                       should_stop: StopHook | None = None) -> dict[str, Any]:
    """What :meth:`Oracle.containment` reports on this machine. Starts (and stops) one
    sandbox server: run it in a worker."""
    from execretrieval import Oracle

    with Oracle(cache=None, workers=1) as oracle:
        return dict(oracle.containment())


def model_choices(benchmark: Benchmark) -> list[str]:
    """Model names the engine offers for this benchmark."""
    from execretrieval.ranking.catalog import available_models  # no numpy: names only

    return list(available_models(benchmark))


def is_model(benchmark: Benchmark, model: str) -> bool:
    """Can ``model`` be asked of the engine at all: a name it offers, or an existing path?
    (Whether the file reads is for :func:`rank` to say.) A pipeline name counts when it
    parses and every model it starts from is one."""
    if model in model_choices(benchmark) or Path(model).expanduser().exists():
        return True
    from execretrieval.pipeline import PipelineNameError, parse_pipeline

    try:
        spec = parse_pipeline(model)
    except PipelineNameError:
        return False
    if spec.is_plain_model:
        return False
    bases = spec.base.models if spec.base.fusion else (spec.base.model,)
    return all(is_model(benchmark, m) for m in bases)


def rank(benchmark: Benchmark, model: str, progress: Progress | None = None,
         should_stop: StopHook | None = None, *, oracle: Any = None,
         split: Any = None) -> Any:
    """The ranking of a model or pipeline name (blocking): the engine's
    :func:`execretrieval.pipeline.rank_system`; a stage that executes tests runs on
    ``oracle`` and the visible tests of ``split``."""
    from execretrieval.pipeline import is_pipeline

    if not is_pipeline(model):   # a plain model: no pipeline machinery to load
        from execretrieval.ranking.registry import rank as engine_rank

        return engine_rank(benchmark, model, progress=progress, should_stop=should_stop)
    from execretrieval.pipeline import rank_system

    return rank_system(benchmark, model, oracle=oracle, split=split, progress=progress,
                       should_stop=should_stop)


def check_pipeline(name: str) -> str:
    """"" if ``name`` parses as a model or pipeline name, else the engine's error text
    (:func:`execretrieval.pipeline.parse_pipeline`); fast, for a dialog."""
    from execretrieval.pipeline import PipelineNameError, parse_pipeline

    try:
        parse_pipeline(name)
    except PipelineNameError as exc:
        return str(exc)
    return ""


def pipeline_parts() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """The stages and fusions the engine knows, each with the options it accepts."""
    from execretrieval.pipeline import FUSIONS, STAGES

    return dict(STAGES), dict(FUSIONS)


def needs_split(name: str) -> bool:
    """Does the name have a stage (every stage runs on visible tests only)?"""
    if "+" not in name:   # stages follow a "+": a model or a fusion alone has none
        return False
    from execretrieval.pipeline import PipelineNameError, parse_pipeline

    try:
        return bool(parse_pipeline(name).stages)
    except PipelineNameError:
        return False


def make_split(benchmark: Benchmark, visible: float | int, seed: int) -> Any:
    """The engine's held-out split of every query's suite."""
    from execretrieval.pipeline import make_split as engine_split

    return engine_split(benchmark, visible, seed)


def parse_visible(text: str) -> float | int:
    """``--visible``: a count or a fraction; ValueError with the engine's text."""
    from execretrieval.pipeline import parse_visible as engine_parse

    return engine_parse(text)


_DETAIL: weakref.WeakKeyDictionary[Any, dict[str, dict[str, tuple[str, str]]]] = \
    weakref.WeakKeyDictionary()


def stage_labels(ranking: Any, query_id: str) -> dict[str, tuple[str, str]]:
    """For a pipeline's ranking, each candidate its stages reordered for this query:
    corpus id -> (``"4→1 · 3/4"``: base rank, final rank, the last stage's score as it
    reads; a tooltip with every stage). Empty for a plain model."""
    detail = getattr(ranking, "stage_detail", None)
    if detail is None or not getattr(ranking, "logs", ()):
        return {}
    if ranking not in _DETAIL:
        names = {log.stage: log.score_name for log in ranking.logs}
        table: dict[str, dict[str, tuple[str, str]]] = {}
        for qid, rows in detail().items():
            table[qid] = {}
            for row in rows:
                last = row["stages"][-1]
                tip = [f"base rank {row['base_rank']} → final rank {row['final_rank']}"] + [
                    f"{s['stage']}: rank {s['rank']}, {names.get(s['stage']) or 'score'} "
                    f"{s['shown']}" for s in row["stages"]]
                table[qid][row["corpus_id"]] = (
                    f"{row['base_rank']}→{row['final_rank']} · {last['shown']}", "\n".join(tip))
        _DETAIL[ranking] = table
    return _DETAIL[ranking].get(query_id, {})


def served_presets() -> list[str]:
    """Names of the model families whose prefixes ``embed_served`` knows."""
    from execretrieval.ranking.api_embed import PRESETS

    return list(PRESETS)


def embed_served(benchmark: Benchmark, request: dict[str, Any],
                 progress: Progress | None = None, should_stop: StopHook | None = None,
                 status: Callable[[str], None] | None = None) -> Any:
    """Encode ``benchmark`` through an OpenAI-compatible service and write its .npz.

    ``request``: ``base_url``, ``model``, ``api_key_env``, ``preset`` (or None),
    ``dimensions`` (or None). Returns the engine's ``ApiEmbedResult`` (blocking).
    """
    from execretrieval.ranking.api_client import ApiSettings
    from execretrieval.ranking.api_embed import embed_benchmark_api

    settings = ApiSettings(request["base_url"], request["model"],
                           api_key_env=request.get("api_key_env") or "",
                           dimensions=request.get("dimensions"))
    return embed_benchmark_api(benchmark, settings, out=served_output(benchmark, settings),
                               preset=request.get("preset"), progress=progress,
                               should_stop=should_stop, status=status)


def served_output(benchmark: Benchmark, settings: Any) -> Path | None:
    """Where a served model's .npz goes: the benchmark's ``embeddings/`` folder, unless that
    lies inside an installed package (a bundled benchmark in site-packages) or cannot be
    written; then the user's data folder, ``embeddings/<benchmark>/``. None = the default."""
    from execretrieval.dirs import user_data_dir
    from execretrieval.ranking.api_embed import safe_model_name

    folder = Path(benchmark.path) if benchmark.path is not None else None
    if folder is not None and "site-packages" not in folder.parts and os.access(
            folder / "embeddings" if (folder / "embeddings").is_dir() else folder, os.W_OK):
        return None
    name = safe_model_name(settings.model, settings.dimensions)
    return user_data_dir() / "embeddings" / benchmark.name / f"{name}.npz"


def mixed_share(share: Any) -> Any:
    """Whether a rank-1 tie mixes right and wrong candidates: its share of correct ones is
    strictly between 0 and 1 (past rounding); for one share or an array of them."""
    return (share > 1e-12) & (share < 1.0 - 1e-12)


@dataclass(frozen=True)
class QueryStatus:
    """Per-query facts about one ranking, as arrays aligned with ``benchmark.queries``.

    ``top1_correct``: the rank-1 snippet is one of the query's correct ids (until the
    oracle says otherwise through :meth:`with_exec_top1`); with a tie at rank 1 it is True
    only when every tied candidate is correct, and ``top1_share`` says which share is;
    ``canonical_rank`` is 1-based (0 when the query has no canonical), its best rank over
    the orders of its ties; ``deceived``: some paired distractor scores strictly above the
    canonical; ``tied``: none does but some scores exactly the same, or the rank-1 tie mixes
    correct and wrong candidates (the query's figures depend on how ties are broken).
    """

    model: str
    top1_correct: np.ndarray
    canonical_rank: np.ndarray
    deceived: np.ndarray
    top1_index: np.ndarray
    top1_share: np.ndarray | None = None
    canonical_tied: np.ndarray | None = None

    @cached_property   # read per cell by the query list: computed once per status
    def top1_mixed(self) -> np.ndarray:
        """(Q,) bool: rank 1 is a tie of right and wrong candidates."""
        import numpy as np

        if self.top1_share is None:
            return np.zeros(len(self.top1_correct), dtype=bool)
        return mixed_share(self.top1_share)

    @cached_property
    def tied(self) -> np.ndarray:
        """(Q,) bool: the canonical ties a mutant (none above) or rank 1 is a mixed tie."""
        out = self.top1_mixed.copy()
        if self.canonical_tied is not None:
            out |= self.canonical_tied
        return out

    def with_exec_top1(self, exec1: np.ndarray) -> QueryStatus:
        """Rank-1 correctness from the oracle: per-query exec@1 (an expectation over the
        orders of a rank-1 tie) or a 0/1 column."""
        import numpy as np

        share = np.asarray(exec1, dtype=np.float64)
        return replace(self, top1_correct=share >= 1.0 - 1e-12, top1_share=share)


def query_status(benchmark: Benchmark, ranking: Any) -> QueryStatus:
    """Compute :class:`QueryStatus` for every query (vectorised; ~ms at paper scale).

    Built on the engine's pairing structure and deception classes, so the browser and
    the reports agree on what "deceived" and "tied" mean."""
    import numpy as np

    from execretrieval.measure.analysis import deception_classes, pairs

    p = pairs(benchmark)
    order = np.asarray(ranking.order)
    nq = len(benchmark.queries)
    top1 = order[:, 0] if order.shape[1] else np.full(nq, -1, dtype=np.int32)
    share = np.zeros(nq)
    if order.shape[1]:
        keys = ranking.keys   # stored best first; the top tie group is stored whole
        top_group = (keys == keys[:, :1]) & (order >= 0)
        correct = p.relevant(order.astype(np.int64)) & top_group
        share = correct.sum(axis=1) / np.maximum(top_group.sum(axis=1), 1)
    strict, tied_class = deception_classes(benchmark, ranking)
    ranks = np.zeros(nq, dtype=np.int64)
    has = np.flatnonzero(p.canonical >= 0)
    if has.size:
        found = ranking.lookup(has, p.canonical[has])
        ranks[has] = np.where(found.found, found.above + 1, 0)
    return QueryStatus(str(ranking.model), share >= 1.0, ranks, strict == 1.0, top1,
                       share, tied_class == 1.0)


def blind_distractors(benchmark: Benchmark, model: str, ranking: Any) -> dict[str, str]:
    """Distractor id -> why ``model`` cannot tell it from its canonical (edit past the input
    window, bit-identical vector); empty when nothing is known. Never raises: a badge is
    not worth a failed ranking."""
    from execretrieval.ranking.blindspots import blind_spots

    try:
        return blind_spots(benchmark, model, ranking).blind()
    except Exception:  # noqa: BLE001 - unreadable model files were reported by rank()
        return {}


@dataclass(frozen=True)
class CanonicalTie:
    """Where the canonical stands among tied scores: its best and worst rank over the
    orders of the ties, its score, and how many own mutants / other snippets share it."""

    best: int = 0          # 0: the query has no canonical
    worst: int = 0
    score: float = float("nan")
    mutants: int = 0
    others: int = 0


def canonical_tie(benchmark: Benchmark, ranking: Any, query_id: str) -> CanonicalTie:
    """The :class:`CanonicalTie` of one query under ``ranking``."""
    import numpy as np

    canon = benchmark.canonical_for(query_id)
    if canon is None:
        return CanonicalTie()
    qi, cj = benchmark.query_index(query_id), benchmark.corpus_index(canon.corpus_id)
    own = [benchmark.corpus_index(s.corpus_id) for s in benchmark.distractors_for(query_id)]
    found = ranking.lookup(np.full(len(own) + 1, qi), [cj, *own])
    return tie_from(int(found.best[0]), int(found.worst[0]), float(found.key[0]),
                    found.key[1:].tolist())


def tie_from(best: int, worst: int, score: float, mutant_scores: Sequence[float]
             ) -> CanonicalTie:
    """The :class:`CanonicalTie` of a canonical with these ranks and score, among its own
    mutants scoring ``mutant_scores`` (also what a kept first screen stores)."""
    mutants = sum(1 for other in mutant_scores if other == score)
    tied = max(0, worst - best)   # every snippet scoring the same, the canonical aside
    return CanonicalTie(best, worst, score, mutants, tied - mutants)


def cpu_count() -> int:
    import os

    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def make_oracle(cached: bool = True) -> Any:
    """The engine's execution oracle; ``cached=False`` really re-executes (for Run)."""
    from execretrieval.oracle.execution import Oracle

    return Oracle() if cached else Oracle(cache=None)


def evaluate_models(benchmark: Benchmark, ranking_a: Any, ranking_b: Any, oracle: Any,
                    exclude: frozenset[str] = frozenset(), progress: Progress | None = None,
                    should_stop: StopHook | None = None, split: Any = None
                    ) -> tuple[Any, Any, Any]:
    """(evaluation of A, evaluation of B or None, exec@1 comparison or None); blocking.

    The engine's :func:`execretrieval.report.evaluate_models`: the top 10 of both models
    run through the (cached) oracle in one batch; with ``split``, judged on held-out
    tests only. Use :func:`evaluate_report` for the quality-vs-cost table too.
    """
    report = evaluate_report(benchmark, ranking_a, ranking_b, oracle, exclude, progress,
                             should_stop, split=split)
    ev_a, *rest = report.models.values()
    ev_b = rest[0] if rest else None
    return ev_a, ev_b, (report.comparisons[0] if report.comparisons else None)


def evaluate_report(benchmark: Benchmark, ranking_a: Any, ranking_b: Any, oracle: Any,
                    exclude: frozenset[str] = frozenset(), progress: Progress | None = None,
                    should_stop: StopHook | None = None, split: Any = None) -> Any:
    """The engine's whole EvaluationReport of A (and B), blocking."""
    return _evaluate(benchmark, ranking_a, ranking_b, oracle, exclude, progress,
                     should_stop, environment={}, split=split)


def cost_table(report: Any) -> tuple[str, list[str], list[list[str]]] | None:
    """The report's quality-vs-cost table (note, header, rows), as the Markdown and HTML
    reports print it; None without a split or a pipeline."""
    from execretrieval.report.pipelines import cost_table as engine_table

    return engine_table(report.to_dict())


def _evaluate(benchmark: Benchmark, ranking_a: Any, ranking_b: Any, oracle: Any,
              exclude: frozenset[str], progress: Progress | None,
              should_stop: StopHook | None, **options: Any) -> Any:
    from execretrieval.report.evaluation import evaluate_models as engine_evaluate

    rankings = [r for r in (ranking_a, ranking_b) if r is not None]
    return engine_evaluate(benchmark, rankings, oracle, exclude=exclude, progress=progress,
                           should_stop=should_stop, **options)


def export_report(path: str | Path, benchmark: Benchmark, ranking_a: Any, ranking_b: Any,
                  oracle: Any, exclude: frozenset[str] = frozenset(),
                  progress: Progress | None = None, should_stop: StopHook | None = None,
                  evaluations: tuple[Any, Any] | None = None,
                  sources: tuple[str, ...] = (),
                  flags: dict[str, list[str]] | None = None,
                  slices: dict[str, tuple[str, list[str]]] | None = None,
                  annotations: dict[str, Any] | None = None) -> Path:
    """Evaluate (unless ``evaluations`` are given) and write the report; format by suffix.

    ``sources`` are the models as the user chose them (names or file paths), for the
    report's command line: the ``execretrieval evaluate`` call that measures the same.
    ``flags`` (query id -> lines) go into the HTML report's per-query sections, with the
    per-test outcomes the oracle's cache holds; saved ``slices`` (name -> (filter, query
    ids)) get their own table; ``annotations`` (flags, audit top suspects) become the
    report's last sections."""
    from execretrieval.report.drilldown import cached_outcomes, cached_results
    from execretrieval.report.environment import environment_fingerprint
    from execretrieval.report.evaluation import EvaluationReport, report_settings
    from execretrieval.report.failures import rank1_failures
    from execretrieval.report.writers import write_report

    labels = [r.model for r in (ranking_a, ranking_b) if r is not None]
    if len(labels) == 2 and labels[1] == labels[0]:
        labels[1] = f"{labels[1]}#2"
    command = _evaluate_command(benchmark, sources or tuple(labels), exclude, Path(path))
    if evaluations is None:
        report = _evaluate(benchmark, ranking_a, ranking_b, oracle, exclude, progress,
                           should_stop, command=command)
    else:
        ev_a, ev_b = evaluations
        models = dict(zip(labels, [ev for ev in (ev_a, ev_b) if ev is not None], strict=True))
        report = EvaluationReport.create(
            benchmark, models, environment=environment_fingerprint(oracle), seed=ev_a.seed,
            command=command,
            settings=report_settings(ev_a.ks, ev_a.n_boot, 10, exclude, ev_a.ties))
        rankings = dict(zip(labels, [r for r in (ranking_a, ranking_b) if r is not None],
                            strict=True))
        report = dataclasses.replace(report, failures=rank1_failures(
            benchmark, rankings, oracle, exclude=exclude))
    if annotations:
        report = dataclasses.replace(report, annotations=annotations)
    if progress:
        progress(1, 1)
    return write_report(report, path, benchmark, outcomes=cached_outcomes(oracle), flags=flags,
                        slices=slices, results=cached_results(oracle))


def report_annotations(benchmark: Benchmark, flags: Any, audit: Any) -> dict[str, Any]:
    """The flags and audit sections of a report (the engine's report_annotations)."""
    from execretrieval.report.annotations import report_annotations as engine_annotations

    return engine_annotations(benchmark, flags, audit)


def _evaluate_command(benchmark: Benchmark, sources: tuple[str, ...],
                      exclude: frozenset[str], out: Path) -> str:
    """The CLI call equivalent to a GUI export (there is no ``execretrieval-gui export``)."""
    import shlex

    args = ["execretrieval", "evaluate", str(benchmark.path or benchmark.name)]
    for source in sources:
        is_run = Path(source).suffix.lower() in (".trec", ".run", ".txt")
        args += ["--run" if is_run else "--model", source]
    if exclude:
        args += ["--exclude-queries", f"<file of the {len(exclude)} flagged query ids>"]
    args += ["--out", out.name]
    return " ".join(shlex.quote(a) if not a.startswith("<") else a for a in args)
