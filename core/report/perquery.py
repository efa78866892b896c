"""The per-query figures a report keeps so that later tools can pair it with another.

``execretrieval diff`` tests two reports' systems query by query and lists the queries whose
rank-1 outcome flipped; ``execretrieval leaderboard`` resamples several reports' queries
together. Both need, per system and measured query, every metric's figure and the rank-1
candidate under the report's tie policy. :func:`per_query_section` is that record::

    {"query_ids": [...], "models": {name: {"metrics": {"exec@1": [...], ...},
                                           "rank1": [corpus id | null, ...],
                                           "rank1_outcome": ["correct" | "own mutant" |
                                                             "other query" | "background" |
                                                             "wrong" | "none", ...],
                                           "rank1_tied": [int, ...]}}}

The rank-1 candidate is the first of the top tie group in the order the tie policy gives:
passing (then relevant) snippets first for ``optimistic``, last for ``pessimistic``, corpus
order for ``corpus`` and for ``expected`` (whose exec@1 is the mean over the group, and
``rank1_tied`` says how many share the top score).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..measure.metrics import ModelEvaluation

__all__ = ["per_query_section", "rank1_pick"]


def rank1_pick(evaluation: ModelEvaluation, benchmark: Benchmark, query_index: int
               ) -> tuple[int, int]:
    """(corpus index or -1, size of the top tie group) of a query's rank-1 candidate under
    the evaluation's tie policy."""
    ranking = evaluation.ranking
    if ranking is None or not ranking.width or ranking.order[query_index, 0] < 0:
        return -1, 0
    keys = ranking.keys[query_index]
    order = ranking.order[query_index]
    group = np.flatnonzero((keys == keys[0]) & (order >= 0))
    if evaluation.ties in ("optimistic", "pessimistic") and group.size > 1:
        passes = evaluation.passes
        correct = set(benchmark.queries[query_index].correct_corpus_ids)
        scores = []
        for pos in group:
            good = bool(passes is not None and pos < passes.shape[1]
                        and passes[query_index, pos])
            relevant = benchmark.corpus[int(order[pos])].corpus_id in correct
            scores.append(2 * good + relevant)
        values = np.array(scores)
        pick = int(np.argmax(values) if evaluation.ties == "optimistic"
                   else np.argmin(values))
        return int(order[group[pick]]), int(group.size)
    return int(order[0]), int(group.size)


def _outcome(benchmark: Benchmark, query_index: int, j: int, passed: bool) -> str:
    if j < 0:
        return "none"
    query = benchmark.queries[query_index]
    snippet = benchmark.corpus[j]
    if passed or snippet.corpus_id in query.correct_corpus_ids:
        return "correct"
    if snippet.role == "background":
        return "background"
    if snippet.query_id != query.query_id:
        return "other query"
    return "own mutant" if snippet.role == "distractor" else "wrong"


def per_query_section(benchmark: Benchmark, models: Mapping[str, ModelEvaluation]
                      ) -> dict[str, Any]:
    """The per-query record of every model (see the module docstring)."""
    section: dict[str, Any] = {"query_ids": [], "models": {}}
    for name, ev in models.items():
        if not section["query_ids"]:
            section["query_ids"] = list(ev.query_ids)
        rank1: list[str | None] = []
        outcome: list[str] = []
        tied: list[int] = []
        for qid in ev.query_ids:
            qi = benchmark.query_index(qid)
            j, size = rank1_pick(ev, benchmark, qi)
            rank1.append(benchmark.corpus[j].corpus_id if j >= 0 else None)
            ranking = ev.ranking
            passed = False
            if j >= 0 and ranking is not None and ev.passes is not None:
                where = np.flatnonzero(ranking.order[qi, : ev.passes.shape[1]] == j)
                passed = bool(where.size and ev.passes[qi, int(where[0])])
            outcome.append(_outcome(benchmark, qi, j, passed))
            tied.append(size)
        section["models"][name] = {
            "metrics": {m: [float(v) for v in values] for m, values in ev.per_query.items()},
            "rank1": rank1, "rank1_outcome": outcome, "rank1_tied": tied}
    return section
