"""The pool-scaling curve: how the gap moves as real background code joins the corpus.

The paper measures its benchmark alone (each query's canonical among a few thousand
snippets, its own four mutants included) and says its magnitudes are conditional on that
small pool. :func:`pool_scaling` puts seeded subsets of a background pool
(:func:`~execretrieval.benchmark.pool.pool_subset`: nested, so a larger pool only adds
functions) into the corpus and measures, per model and pool size, exec@k with bootstrap
intervals, the deception rate, and how often real background code takes rank 1 or a place
in the top k. Background snippets in the top k are executed like every other candidate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..benchmark.pool import BACKGROUND, Pool, pool_subset, with_pool
from ..errors import CancelledError
from ..measure.analysis import query_mask
from ..measure.metrics import DEFAULT_KS, ModelEvaluation, evaluate, execution_matrices
from ..measure.ties import needed_depth, sorted_view
from ..pipeline import rank_system
from ..ranking.ranking import Ranking, resolve_keep
from ..ranking.registry import model_label

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..hooks import Progress, ShouldStop

__all__ = ["PoolPoint", "parse_pool_sizes", "pool_point", "pool_scaling"]


@dataclass(frozen=True, eq=False)
class PoolPoint:
    """One model measured with ``pool_size`` background functions in the corpus."""

    model: str
    pool_size: int
    corpus_size: int
    evaluation: ModelEvaluation
    rank1_background: float   # share of queries whose rank 1 is background code
    topk_background: float    # mean share of background code in the top max(k)
    #                           (both expected over the orders of tied scores)

    def to_dict(self) -> dict[str, Any]:
        """The curve point as the report records it (exec@k with intervals, deception)."""
        ev = self.evaluation
        out: dict[str, Any] = {"model": self.model, "pool_size": self.pool_size,
                               "corpus_size": self.corpus_size}
        for k in ev.ks:
            ci = ev.metrics[f"exec@{k}"]
            out[f"exec@{k}"] = ci.mean
            out[f"exec@{k}_ci_low"] = ci.ci_low
            out[f"exec@{k}_ci_high"] = ci.ci_high
        out["deception_rate"] = ev.deception_rate
        out["rank1_paired_miss_share"] = ev.rank1_paired_miss_share
        out["rank1_background"] = self.rank1_background
        out[f"top{ev.ks[-1]}_background"] = self.topk_background
        return out


def parse_pool_sizes(text: str) -> tuple[int | None, ...]:
    """``"0,1000,5000,all"`` -> ``(0, 1000, 5000, None)``; ValueError names a bad item."""
    sizes: list[int | None] = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        if item == "all":
            sizes.append(None)
            continue
        try:
            value = int(item)
        except ValueError as exc:
            raise ValueError(f"pool size {item!r} is not a number or 'all'") from exc
        if value < 0:
            raise ValueError(f"pool size {value} is negative")
        sizes.append(value)
    if not sizes:
        raise ValueError("no pool sizes given")
    return tuple(sizes)


def pool_point(benchmark: Benchmark, evaluation: ModelEvaluation, pool_size: int,
               exclude: Collection[str] = frozenset()) -> PoolPoint:
    """A curve point from an evaluation on ``benchmark`` (which holds the pool)."""
    ranking = evaluation.ranking
    if ranking is None:
        raise ValueError("the evaluation has no ranking")
    background = np.array([s.role == BACKGROUND for s in benchmark.corpus], dtype=bool)
    keep = query_mask(benchmark, exclude)
    k = evaluation.ks[-1]
    # both shares are expectations over the orders of tied scores: each position counts
    # its tie group's background share (a group straddling the cut is stored whole)
    width = max(k, int(needed_depth(ranking, k).max()) if ranking.shape[0] else k)
    view = sorted_view(ranking, width)
    top = ranking.order_to(view.width)
    share_at = view.group_mean(background[top] & (top >= 0))
    rank1 = share_at[:, 0][keep]
    share = share_at[:, :k].sum(axis=1)[keep] / float(k)
    return PoolPoint(model=evaluation.model, pool_size=int(pool_size),
                     corpus_size=len(benchmark.corpus), evaluation=evaluation,
                     rank1_background=float(rank1.mean()) if rank1.size else float("nan"),
                     topk_background=float(share.mean()) if share.size else float("nan"))


def pool_scaling(
    benchmark: Benchmark,
    pool: Pool,
    models: Sequence[str],
    oracle: Any,
    *,
    sizes: Sequence[int | None],
    seed: int = 0,
    ks: Sequence[int] = DEFAULT_KS,
    n_boot: int = 5000,
    exclude: Collection[str] = frozenset(),
    ties: str = "expected",
    done: Sequence[PoolPoint] = (),
    status: Callable[[str], None] | None = None,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
    keep: int | None = None,
) -> list[PoolPoint]:
    """Measure every model with each pool size (``None`` = the whole pool).

    Subsets are :func:`pool_subset` with ``seed``; sizes above the pool's are the whole
    pool. Figures follow the tie policy ``ties`` (see :mod:`execretrieval.measure.ties`).
    Points already in ``done`` (same model and size, e.g. the main evaluation's)
    are reused. Each size is ranked and executed once for all models (one batched,
    cached ``run_many``). Points come back ordered by model, then size.
    """
    resolved = sorted({len(pool) if s is None else min(int(s), len(pool)) for s in sizes})
    reuse = {(p.model, p.pool_size): p for p in done}
    points: dict[tuple[str, int], PoolPoint] = {}
    depth = max(max(ks), 5)
    kept = resolve_keep(keep, depth)
    labels = {m: model_label(m) for m in models}
    for size in resolved:
        todo = [m for m in models if (labels[m], size) not in reuse]
        points.update({(labels[m], size): reuse[(labels[m], size)] for m in models
                       if (labels[m], size) in reuse})
        if not todo:
            continue
        if should_stop is not None and should_stop():
            raise CancelledError("pool scaling cancelled")
        joined = with_pool(benchmark, pool_subset(pool, size, seed=seed))
        if status:
            status(f"pool size {size}: ranking and executing {', '.join(todo)}")
        rankings: list[Ranking] = [rank_system(joined, m, keep=kept, oracle=oracle,
                                               should_stop=should_stop) for m in todo]
        matrices = execution_matrices(joined, rankings, oracle, depth=depth,
                                      progress=progress, should_stop=should_stop)
        for model, ranking, passes in zip(todo, rankings, matrices, strict=True):
            ev = dataclasses.replace(evaluate(joined, ranking, passes, ks=ks, n_boot=n_boot,
                                              seed=seed, exclude=exclude, ties=ties),
                                     model=labels[model])
            point = pool_point(joined, ev, size, exclude)
            # keep the figures, not the (queries x corpus) matrices of every pool size
            points[(labels[model], size)] = dataclasses.replace(
                point, evaluation=dataclasses.replace(ev, ranking=None, passes=None))
        del rankings, matrices, joined
    return [points[(labels[m], s)] for m in models for s in resolved]
