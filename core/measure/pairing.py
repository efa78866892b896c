"""Each query's canonical and paired distractors as index arrays, shared by the analyses.

A query's *paired* distractors are its own buggy mutants. :func:`pair_above` gives, for
every (distractor, canonical) pair, the probability that the distractor is ranked above its
canonical over the orders of tied scores (1, 1/2 for a tie, 0).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..ranking.ranking import Ranking

__all__ = ["NAN", "Pairs", "mean_or_nan", "pair_above", "pair_scores", "pairs", "query_mask"]

NAN = float("nan")


@dataclass(frozen=True, eq=False)
class Pairs:
    """Each query's canonical and paired distractors as index arrays (cached per benchmark).

    ``canonical[q]`` is the canonical's corpus index or -1; ``pair_q``, ``pair_d``,
    ``pair_c`` list every (query, distractor, canonical) triple with a canonical.
    """

    canonical: np.ndarray
    distractors: tuple[tuple[int, ...], ...]
    pair_q: np.ndarray
    pair_d: np.ndarray
    pair_c: np.ndarray
    bug_type: tuple[str, ...]
    correct: tuple[frozenset[int], ...]
    correct_matrix: np.ndarray      # (Q x max correct), corpus indices padded with -1
    distractor_matrix: np.ndarray   # (Q x max distractors), corpus indices padded with -1
    owner: np.ndarray               # (N,) query index of each snippet (-1 if unknown)
    is_distractor: np.ndarray       # (N,) bool

    def relevant(self, top: np.ndarray) -> np.ndarray:
        """Bool like ``top`` (Q x r corpus indices): is each one a correct id of its row?"""
        if self.correct_matrix.shape[1] == 0:
            return np.zeros(top.shape, dtype=bool)
        return (top[:, :, None] == self.correct_matrix[:, None, :]).any(axis=2)


_CACHE: weakref.WeakKeyDictionary[Any, Pairs] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def pairs(benchmark: Benchmark) -> Pairs:
    """The pairing structure of a benchmark (computed once per Benchmark object)."""
    with _LOCK:
        cached = _CACHE.get(benchmark)
    if cached is not None:
        return cached
    canonical = np.full(len(benchmark.queries), -1, dtype=np.int64)
    distractors: list[tuple[int, ...]] = []
    pq: list[int] = []
    pd: list[int] = []
    pc: list[int] = []
    bugs: list[str] = []
    for qi, query in enumerate(benchmark.queries):
        canon = benchmark.canonical_for(query.query_id)
        own = tuple(benchmark.corpus_index(s.corpus_id)
                    for s in benchmark.distractors_for(query.query_id))
        distractors.append(own)
        if canon is None:
            continue
        canonical[qi] = benchmark.corpus_index(canon.corpus_id)
        for dj in own:
            pq.append(qi)
            pd.append(dj)
            pc.append(int(canonical[qi]))
            bugs.append(benchmark.corpus[dj].bug_type or "unknown")
    correct = tuple(frozenset(benchmark.corpus_index(c) for c in q.correct_corpus_ids)
                    for q in benchmark.queries)
    owner = np.array([benchmark.query_index(s.query_id) if benchmark.has_query(s.query_id)
                      else -1 for s in benchmark.corpus], dtype=np.int64)
    result = Pairs(canonical, tuple(distractors), np.array(pq, dtype=np.int64),
                   np.array(pd, dtype=np.int64), np.array(pc, dtype=np.int64), tuple(bugs),
                   correct, _padded([sorted(c) for c in correct]), _padded(distractors),
                   owner, np.array([s.role == "distractor" for s in benchmark.corpus],
                            dtype=bool))
    with _LOCK:
        _CACHE[benchmark] = result
    return result


def _padded(rows: Sequence[Sequence[int]]) -> np.ndarray:
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), -1, dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, : len(row)] = row
    return out


def query_mask(benchmark: Benchmark, exclude: Collection[str]) -> np.ndarray:
    """(Q,) bool: True for the queries measured, False for those in ``exclude``."""
    if not exclude:
        return np.ones(len(benchmark.queries), dtype=bool)
    return np.array([q.query_id not in exclude for q in benchmark.queries], dtype=bool)


def mean_or_nan(values: np.ndarray) -> float:
    return float(values.mean()) if values.size else NAN


def pair_scores(benchmark: Benchmark, ranking: Ranking) -> tuple[Pairs, np.ndarray, np.ndarray]:
    """Each (query, distractor, canonical) pair's two scores (-inf: not retrieved; NaN: not
    kept by the ranking, which keeps every query's own snippets when built by ``rank``)."""
    p = pairs(benchmark)
    d = ranking.lookup(p.pair_q, p.pair_d)
    c = ranking.lookup(p.pair_q, p.pair_c)
    return p, np.where(d.found, d.key, np.nan), np.where(c.found, c.key, np.nan)


def pair_above(benchmark: Benchmark, ranking: Ranking
                ) -> tuple[Pairs, np.ndarray, np.ndarray]:
    """Each pair's P(distractor ranked above its canonical) over tie orders (1, 1/2 for a
    tie, 0), and whether that is known: a pair neither of whose snippets the model
    retrieved (past the end of a TREC run) is not known and left out of every share."""
    p, sd, sc = pair_scores(benchmark, ranking)
    known = ~np.isnan(sd) & ~np.isnan(sc) & ((sd > -np.inf) | (sc > -np.inf))
    above = np.where(sd > sc, 1.0, np.where(sd == sc, 0.5, 0.0))
    return p, above, known
