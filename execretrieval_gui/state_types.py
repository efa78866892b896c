"""What the inspector state hands its observers, and the suite-running worker it starts.

The views are frozen snapshots emitted with the state's signals
(:class:`~execretrieval_gui.state.InspectorState`); panels render them and never reach back
into the state's attributes for what a signal carries.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execretrieval import Benchmark, Query, Snippet
from execretrieval.benchmark.annotations import Flag

from . import engine
from .models import CandidateRow, role_of
from .workers import emit_partial

__all__ = ["CandidateView", "Explained", "FlagsView", "QueryView", "listed_rows", "other_ranks",
           "ranked_rows", "statuses", "suite_runs"]


@dataclass(frozen=True)
class QueryView:
    """What the panels show for the selected query."""

    query: Query
    model: str                      # model A's label
    canonical_rank: int             # 0: no canonical; else its best rank over tie orders
    rows: tuple[CandidateRow, ...]  # the top-k, then the query's own snippets below the cut
    canonical_rank_worst: int = 0   # its worst rank over the orders of its ties
    canonical_score: float = math.nan
    tied_mutants: int = 0           # own mutants scoring exactly the canonical's score
    tied_others: int = 0            # other snippets scoring exactly the canonical's score
    # under a held-out split: the indexes of the query's visible tests (None: no split)
    visible: tuple[int, ...] | None = None


@dataclass(frozen=True)
class CandidateView:
    """The selected candidate, with what the diff, tests and flags panels need."""

    query: Query
    canonical: Snippet | None
    snippet: Snippet
    label: str                      # "Rank 3: c_0007 · 8 tests"
    result: Any                     # SuiteResult | None
    corpus_ids: tuple[str, ...]     # every listed candidate (flag targets)
    visible: tuple[int, ...] | None = None   # 0-based visible tests under a split, or None


@dataclass(frozen=True)
class FlagsView:
    flagged: frozenset[str]         # every flagged query id
    flags: tuple[Flag, ...]         # the selected query's flags
    store_path: Path | None         # None: no store open


class Explained(Exception):
    """An error whose text already says everything (used to add a line to another's)."""


def statuses(result: Any) -> tuple[str, ...]:
    return tuple(o.status for o in getattr(result, "outcomes", ()) or ())


def suite_runs(oracle: Any, items: list[tuple[str, str]], tests: tuple[str, ...]) -> Any:
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


def listed_rows(top: list[int], own: list[int], found: Sequence[Any], rank: Sequence[Any],
                at: int = 0) -> tuple[list[tuple[int, int]], dict[int, int]]:
    """What a query's candidate list shows, from one lookup of ``top + own`` (its answers
    from position ``at`` of ``found`` / ``rank``): the top-``depth`` corpus indices, then the
    query's own snippets ranked below the cut, by rank — each with its position in the
    lookup; and every found snippet's position."""
    where = {j: at + n for n, j in enumerate(top + own) if found[at + n]}
    below = sorted((j for j in own if j in where and rank[where[j]] > len(top)),
                   key=lambda j: int(rank[where[j]]))
    return [(j, where[j]) for j in top + below], where


def ranked_rows(bench: Benchmark, ranking: Any, query_id: str, depth: int,
                known: Callable[[Snippet], Any],
                blind: Mapping[str, str] | None = None) -> tuple[list[CandidateRow], int]:
    """The top-``depth`` of ``ranking`` for the query, then the query's own snippets ranked
    below the cut (by rank), each with what ``known`` says of its outcome, its best and worst
    rank over the orders of tied scores and its blind-spot note (``blind``: corpus id ->
    why the model cannot tell it from its canonical); and the canonical's rank (0: none)."""
    query = bench.query(query_id)
    qi = bench.query_index(query_id)
    canon = bench.canonical_for(query_id)
    top = [int(j) for j in ranking.top(qi, depth)]
    own = [bench.corpus_index(s.corpus_id) for s in bench.snippets_for(query_id)]
    at = ranking.lookup([qi] * (len(top) + len(own)), top + own)
    # one lookup answers for all: the top, then the own snippets (the canonical among them)
    listed, where = listed_rows(top, own, at.found, at.rank)
    cj = bench.corpus_index(canon.corpus_id) if canon is not None else -1
    canon_score = float(at.key[where[cj]]) if cj in where else float("nan")
    blind = blind or {}
    stages = engine.stage_labels(ranking, query_id)   # a pipeline's moves and scores
    rows = []
    for j, n in listed:
        snippet = bench.corpus[j]
        score, rank = float(at.key[n]), int(at.rank[n])
        rows.append(CandidateRow(rank, j, snippet, score, score - canon_score,
                                 role_of(query, snippet), known(snippet),
                                 below_cut=rank > len(top), rank_best=int(at.best[n]),
                                 rank_worst=int(at.worst[n]),
                                 blind=blind.get(snippet.corpus_id, "")
                                 if snippet.query_id == query_id else "",
                                 stage=stages.get(snippet.corpus_id, ("", ""))[0],
                                 stage_tip=stages.get(snippet.corpus_id, ("", ""))[1]))
    canon_rank = int(at.rank[where[cj]]) if cj in where else 0
    return rows, canon_rank


def other_ranks(bench: Benchmark, other: Any, query_id: str,
                rows: list[CandidateRow]) -> list[tuple[int, int] | None]:
    """Each row's (best, worst) rank under another model's ranking — a range when that
    model ties it with others, as its own list shows it; None where that model leaves the
    snippet out (a TREC run's -inf score) or ranks it below the depth it keeps."""
    qi = bench.query_index(query_id)
    found = other.lookup([qi] * len(rows), [r.corpus_index for r in rows])
    return [(int(best), max(int(best), int(worst))) if ok and math.isfinite(key) else None
            for best, worst, ok, key in zip(found.best, found.worst, found.found, found.key,
                                            strict=True)]
