"""Evaluation reports: several models on one benchmark, with everything needed to reproduce.

:func:`evaluate_models` is the whole pipeline (rank, execute the top candidates through the
oracle, measure); :class:`EvaluationReport` holds the result, ready for
:mod:`execretrieval.report.writers`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CancelledError
from ..measure.metrics import DEFAULT_KS, ModelEvaluation, evaluate, execution_matrices
from ..measure.multiple import CORRECTIONS, Pair, Standing, leaderboard, pairwise
from ..measure.statistics import Comparison, compare
from ..pipeline import Split, held_out_benchmark, rank_system
from ..ranking.blindspots import blind_spots
from ..ranking.ranking import Ranking, resolve_keep
from .environment import environment_fingerprint
from .failures import rank1_failures
from .frames import report_frames
from .manifest import run_manifest
from .perquery import per_query_section
from .pipelines import against_base, identity, system_costs, tops
from .pool_scaling import PoolPoint

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..hooks import Progress, ShouldStop

__all__ = ["EvaluationReport", "evaluate_models", "report_settings"]

@dataclass(frozen=True, eq=False)
class EvaluationReport:
    """Models evaluated on one benchmark, with the benchmark, environment, seed and command."""

    benchmark: Mapping[str, Any]
    environment: Mapping[str, Any]
    seed: int
    command: str
    models: Mapping[str, ModelEvaluation]
    comparisons: tuple[Comparison, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)
    #: the annotators' flags and the suite audit's top suspects, when the caller has them
    #: (see :func:`execretrieval.report.annotations.report_annotations`)
    annotations: Mapping[str, Any] = field(default_factory=dict)
    pool_scaling: tuple[PoolPoint, ...] = ()
    #: per model, the failing tests of each query's rank-1 candidate with the oracle's
    #: explanation (see :mod:`execretrieval.report.failures`)
    failures: Mapping[str, Any] = field(default_factory=dict)
    #: every pair of models on every metric, p-values corrected per metric (N >= 2 models)
    pairs: tuple[Pair, ...] = ()
    #: each model's mean, interval, rank interval and tier on every metric (N >= 2 models)
    standings: tuple[Standing, ...] = ()
    #: per model, what it is (:func:`execretrieval.report.manifest.system_identity`)
    systems: Mapping[str, Any] = field(default_factory=dict)
    #: per-query figures and rank-1 candidates (:mod:`execretrieval.report.perquery`)
    per_query: Mapping[str, Any] = field(default_factory=dict)
    #: the held-out split every figure was judged under (:meth:`Split.to_dict`), or None
    split: Mapping[str, Any] | None = None
    #: per system: cost, slip-through, top / top_scores, against its base
    #: (:mod:`execretrieval.report.pipelines`)
    pipelines: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def create(cls, benchmark: Benchmark, models: Mapping[str, ModelEvaluation], *,
               environment: Mapping[str, Any], seed: int, command: str,
               compare_metric: str = "exec@1", settings: Mapping[str, Any] | None = None,
               correction: str = "holm", systems: Mapping[str, Any] | None = None,
               metrics: Sequence[str] | None = None,
               should_stop: ShouldStop | None = None) -> EvaluationReport:
        """A report with every later model compared against the first on ``compare_metric``
        and, with two or more models, every pair on each of ``metrics`` (default: every
        exec@k) with ``correction``, and the leaderboard (rank intervals and tiers)."""
        if correction not in CORRECTIONS:
            raise ValueError(f"unknown correction {correction!r}; expected one of "
                             f"{', '.join(CORRECTIONS)}")
        evaluations = list(models.values())
        comparisons: list[Comparison] = []
        if evaluations and compare_metric in evaluations[0].per_query:
            first = evaluations[0]
            for other in evaluations[1:]:
                comparisons.append(compare(benchmark, first, other, compare_metric,
                                           n_boot=first.n_boot, seed=seed))
        pairs: list[Pair] = []
        standings: list[Standing] = []
        if len(evaluations) >= 2:
            # by default the exec@k figures the leaderboard, matrix and LaTeX table show: an
            # exact test per pair and metric, so 24 systems x 12 metrics would be 3,312
            names = list(metrics) if metrics is not None else (
                [m for m in evaluations[0].per_query if m.startswith("exec@")]
                or list(evaluations[0].per_query))
            per_query = {name: ev.per_query for name, ev in models.items()}
            n_boot = evaluations[0].n_boot
            pairs = pairwise(per_query, names, correction=correction, n_boot=n_boot,
                             seed=seed, should_stop=should_stop)
            standings = leaderboard(per_query, names, pairs, n_boot=n_boot, seed=seed)
        info = {"name": benchmark.name, "fingerprint": benchmark.fingerprint,
                "version": benchmark.manifest.get("version"),
                "queries": len(benchmark.queries), "snippets": len(benchmark.corpus)}
        if "pool" in benchmark.manifest:  # a background pool joined the corpus
            info["pool"] = dict(benchmark.manifest["pool"])
        return cls(benchmark=info, environment=dict(environment), seed=int(seed),
                   command=command, models=dict(models), comparisons=tuple(comparisons),
                   settings={**dict(settings or {}), "correction": correction,
                             "correction_note": CORRECTIONS[correction]},
                   pairs=tuple(pairs), standings=tuple(standings),
                   systems=dict(systems or {}),
                   per_query=per_query_section(benchmark, models))

    def exclusion_note(self, shown: int = 10) -> str:
        """One sentence saying which queries were left out (``--exclude-queries``), or ""."""
        excluded = list(self.settings.get("excluded_queries") or ())
        if not excluded:
            return ""
        total = int(self.benchmark.get("queries", 0))
        ids = ", ".join(excluded[:shown])
        more = f" and {len(excluded) - shown} more" if len(excluded) > shown else ""
        return (f"{total - len(excluded)} of {total} queries measured: {len(excluded)} "
                f"excluded from every figure (--exclude-queries): {ids}{more}.")

    def to_frames(self, benchmark: Benchmark | None = None) -> dict[str, Any]:
        """Every table of the report as a pandas DataFrame, by name (see
        :func:`execretrieval.report.frames.report_frames`); ``per_query`` is the CSV report.
        """
        return report_frames(self, benchmark)

    def to_dict(self) -> dict[str, Any]:
        """The report JSON (issue 4): benchmark, environment, seed, command, models, ..."""
        return _clean({
            "benchmark": dict(self.benchmark),
            "environment": dict(self.environment),
            "seed": self.seed,
            "command": self.command,
            "settings": dict(self.settings),
            "models": {name: {**ev.to_dict(), **self.pipelines.get("tops", {}).get(name, {})}
                       for name, ev in self.models.items()},
            "split": dict(self.split) if self.split is not None else None,
            "cost": dict(self.pipelines.get("cost", {})),
            "against_base": dict(self.pipelines.get("against_base", {})),
            "comparisons": [c.to_dict() for c in self.comparisons],
            "pairs": [p.to_dict() for p in self.pairs],
            "leaderboard": [s.to_dict() for s in self.standings],
            "manifest": run_manifest(self),
            **({"annotations": dict(self.annotations)} if self.annotations else {}),
            **({"pool_scaling": [p.to_dict() for p in self.pool_scaling]}
               if self.pool_scaling else {}),
            "failures": {name: list(entries) for name, entries in self.failures.items()},
            "per_query": dict(self.per_query),
        })

    def pool_note(self) -> str:
        """One sentence naming the background pool and its size, or "" without one."""
        pool = self.benchmark.get("pool")
        if not pool:
            return ""
        dropped = int(pool.get("dropped_same_name", 0))
        also = f"; {dropped} pool functions named like a query left out" if dropped else ""
        return (f"Background pool {pool.get('name')} ({pool.get('path')}): "
                f"{pool.get('joined')} of its {pool.get('size')} functions joined the "
                f"corpus as role 'background' (fingerprint "
                f"{str(pool.get('fingerprint', ''))[:12]}){also}. Rankings kept each "
                f"query's top {self.settings.get('kept_per_query', '?')} candidates (and "
                "the tie group at the cut) and its own snippets wherever they rank.")


def _clean(value: Any) -> Any:
    """JSON-ready: NaN/inf -> None, numpy scalars -> Python, tuples -> lists."""
    if isinstance(value, Mapping):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def evaluate_models(
    benchmark: Benchmark,
    models: Sequence[str | Ranking],
    oracle: Any,
    *,
    ks: Sequence[int] = DEFAULT_KS,
    n_boot: int = 5000,
    seed: int = 0,
    exclude: Collection[str] = frozenset(),
    command: str = "",
    compare_metric: str = "exec@1",
    ties: str = "expected",
    environment: Mapping[str, Any] | None = None,
    status: Callable[[str], None] | None = None,
    progress: Progress | None = None,
    ranking_progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    keep: int | None = None,
    correction: str = "holm",
    metrics: Sequence[str] | None = None,
    split: Split | None = None,
) -> EvaluationReport:
    """Rank with every model (or take the given Ranking), execute each one's top
    max(k, 5) -- extended to the end of a tie group straddling that cut -- through the
    oracle (one batched, cached ``run_many``), and evaluate with tie policy ``ties``.
    Rankings keep ``keep`` candidates per query (:func:`~execretrieval.ranking.ranking.
    resolve_keep`: default 100, never fewer than the execution depth).
    Every later model is compared with the first on ``compare_metric``, and every pair on
    every exec@k (or ``metrics``) with ``correction`` (holm, bonferroni, bh, none);
    ``status`` hears
    each phase by name,
    ``progress`` follows execution and ``ranking_progress`` each model's scoring (dense
    encoding can be long).

    Names may be pipelines (:func:`execretrieval.pipeline.rank_system`). With ``split``,
    every system is judged on each query's held-out tests only, and queries with no
    held-out test are excluded (and counted in ``settings["split"]``)."""
    judged = held_out_benchmark(benchmark, split) if split is not None else benchmark
    if split is not None:
        exclude = frozenset(exclude) | frozenset(split.no_held_out)
    rankings: list[Ranking] = []
    names: list[str] = []
    depth = max(max(ks), 5)  # 5: the density ablation looks past up to 4 removed mutants
    kept = resolve_keep(keep, depth)
    for model in models:
        if should_stop is not None and should_stop():
            raise CancelledError("evaluation cancelled")
        if isinstance(model, Ranking):
            ranking = model
        else:
            if status:
                status(f"ranking with {model}")
            ranking = rank_system(benchmark, model, keep=kept, oracle=oracle, split=split,
                                  progress=ranking_progress, should_stop=should_stop)
        label, n = ranking.model, 2
        while label in names:
            label, n = f"{ranking.model}#{n}", n + 1
        names.append(label)
        rankings.append(ranking)
    if status:
        status(f"executing the top {depth} candidates of {len(rankings)} model(s)")
    matrices = execution_matrices(judged, rankings, oracle, depth=depth,
                                  progress=progress, should_stop=should_stop)
    if status:
        status("measuring")
    # A repeated model is labelled name#2, ...: in the report and in its comparisons.
    evaluations = {
        name: dataclasses.replace(
            evaluate(judged, ranking, passes, ks=ks, n_boot=n_boot, seed=seed,
                     exclude=exclude, ties=ties), model=name,
            blind_spots=blind_spots(benchmark, ranking.source, ranking).to_dict())
        for name, ranking, passes in zip(names, rankings, matrices, strict=True)
    }
    env = dict(environment) if environment is not None else environment_fingerprint(oracle)
    systems = {name: identity(benchmark, ranking)
               for name, ranking in zip(names, rankings, strict=True)}
    report = EvaluationReport.create(judged, evaluations, environment=env, seed=seed,
                                     command=command, compare_metric=compare_metric,
                                     correction=correction, systems=systems, metrics=metrics,
                                     should_stop=should_stop,
                                     settings=report_settings(ks, n_boot, depth, exclude, ties,
                                                              keep=min(r.keep for r in rankings)
                                                              if rankings else kept))
    by_name = dict(zip(names, rankings, strict=True))
    failures = rank1_failures(judged, by_name, oracle, exclude=exclude)
    pipelines = {"tops": tops(benchmark, by_name),
                 "cost": system_costs(judged, by_name, oracle, exclude),
                 "against_base": against_base(judged, evaluations, by_name, compare_metric,
                                              seed=seed)}
    info = {**report.benchmark, "fingerprint": benchmark.fingerprint}
    settings = dict(report.settings)
    if split is not None:
        settings["split"] = {"seed": split.seed, "visible": split.visible_spec,
                             "excluded_no_held_out": len(split.no_held_out),
                             "note": "every system judged on held-out tests only"}
    return dataclasses.replace(report, failures=failures, benchmark=info, settings=settings,
                               split=split.to_dict() if split is not None else None,
                               pipelines=pipelines)


TIE_NOTES = {
    "expected": "exact expectation over every order of tied scores (McSherry & Najork 2008)",
    "optimistic": "ties broken in favour of correct code (passing, then relevant, first)",
    "pessimistic": "ties broken against correct code (passing, then relevant, last)",
    "corpus": "ties broken by line order in corpus.jsonl",
}


def report_settings(ks: Sequence[int], n_boot: int, depth: int,
                    exclude: Collection[str], ties: str = "expected",
                    keep: int | None = None) -> dict[str, Any]:
    """The measurement settings a report records beside its figures."""
    kept = {} if keep is None else {
        "kept_per_query": int(keep),
        "kept_per_query_note": "each ranking keeps every query's top candidates to this "
                               "depth (plus the tie group at the cut) and the query's own "
                               "snippets wherever they rank"}
    return {"ks": sorted({int(k) for k in ks}), "bootstrap": int(n_boot),
            "execution_depth": int(depth),
            "execution_depth_note": "extended to the end of any tie group straddling it",
            **kept,
            "excluded_queries": sorted(set(exclude)),
            "ties": ties, "ties_note": TIE_NOTES.get(ties, ""),
            "split": None,
            "paired_test": "exact sign-flip (randomisation) test on per-query differences; "
                           "equal to exact McNemar on 0/1 outcomes",
            "density_ablation": "exact mean over all subsets of kept distractors"}


