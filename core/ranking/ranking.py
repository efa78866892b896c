"""A ranking: each query's best snippets to a bounded depth, its own snippets wherever they
rank, and the retriever protocol.

The lowest layer of :mod:`execretrieval.ranking`: every retriever and every consumer of
rankings (metrics, analyses, reports, the GUI) shares these types.

A model scores every (query, snippet) pair, but no figure looks past the deepest cut, and a
queries x corpus matrix does not fit in memory once a realistic background pool joins the
corpus (1,000 x 200,000 float64 is 1.6 GB). So a :class:`Ranking` keeps, per query:

- the top ``keep`` retrieved snippets best first (ties in corpus order, as a stable sort
  gives), extended to the end of the tie group straddling position ``keep``: every stored row
  ends at a tie-group boundary, so whatever is not stored scores strictly less and every
  tie group in the stored part is whole (tie-aware metrics are exact up to ``keep``);
- the query's *own* snippets (canonical, mutants, correct ids) wherever they rank: exact
  score, how many snippets score above and at least as high, and the rank a stable sort
  gives them;
- for each (canonical, mutant) pair, whether the two scored identically for every query.

:class:`RankingBuilder` takes the scores a block of queries at a time, so no retriever needs
the whole matrix either. Unretrieved snippets (score -inf or NaN, e.g. past the end of a TREC
run) are never stored: they rank last and never count as a hit.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple, Protocol

import numpy as np

from ..errors import RetrieverError
from ..hooks import Progress, ShouldStop
from .catalog import RUN_SUFFIXES, dense_extra_installed

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark

__all__ = [
    "DEFAULT_KEEP",
    "RUN_SUFFIXES",
    "Lookup",
    "OwnGroups",
    "Ranking",
    "RankingBuilder",
    "Retriever",
    "StreamingRetriever",
    "block_rows",
    "blocks_of",
    "build_ranking",
    "dense_extra_installed",
    "own_groups",
    "resolve_keep",
    "stack_blocks",
]

DEFAULT_KEEP = 100             # candidates kept per query: the GUI shows up to 100
BLOCK_BYTES = 64 * 1024 * 1024  # score memory one block of queries may take


def resolve_keep(keep: int | None, needed: int) -> int:
    """How many candidates per query to keep: ``keep`` if given (ValueError if below
    ``needed``, the deepest cut the caller will look at), else the larger of
    :data:`DEFAULT_KEEP` and ``needed``."""
    if keep is None:
        return max(DEFAULT_KEEP, int(needed))
    if int(keep) < int(needed):
        raise ValueError(f"keep {keep} is below the deepest cut measured ({needed}); "
                         f"keep at least {needed} candidates per query")
    return int(keep)


def block_rows(n_corpus: int, budget: int = BLOCK_BYTES) -> int:
    """How many queries to score at once so a block's float64 scores and the temporaries
    of keeping its top take about ``budget`` bytes (at least one query)."""
    return max(1, int(budget) // max(1, 8 * 4 * int(n_corpus)))


@dataclass(frozen=True, eq=False)
class OwnGroups:
    """The snippets a ranking tracks wherever they rank.

    ``index[q]``: corpus indices of query q's own snippets and correct ids (padded with -1);
    ``pairs``: (canonical, mutant) corpus indices whose score columns are compared.
    """

    index: np.ndarray
    pairs: np.ndarray

    @classmethod
    def empty(cls, n_queries: int) -> OwnGroups:
        return cls(np.full((n_queries, 0), -1, dtype=np.int64),
                   np.zeros((0, 2), dtype=np.int64))


def own_groups(benchmark: Benchmark) -> OwnGroups:
    """Each query's own snippets and correct ids, and every (canonical, own mutant) pair."""
    rows: list[list[int]] = []
    pairs: list[tuple[int, int]] = []
    for query in benchmark.queries:
        own = [benchmark.corpus_index(s.corpus_id) for s in benchmark.snippets_for(query.query_id)]
        own += [benchmark.corpus_index(c) for c in query.correct_corpus_ids
                if benchmark.has_snippet(c)]
        rows.append(sorted(set(own)))
        canon = benchmark.canonical_for(query.query_id)
        if canon is not None:
            c = benchmark.corpus_index(canon.corpus_id)
            pairs += [(c, benchmark.corpus_index(d.corpus_id))
                      for d in benchmark.distractors_for(query.query_id)]
    width = max((len(r) for r in rows), default=0)
    index = np.full((len(rows), width), -1, dtype=np.int64)
    for i, row in enumerate(rows):
        index[i, :len(row)] = row
    return OwnGroups(index, np.array(pairs, dtype=np.int64).reshape(-1, 2))


class Lookup(NamedTuple):
    """What a ranking knows of (query, snippet) pairs, each an array like the pairs asked.

    ``key``: the score (-inf if not retrieved); ``above`` / ``at_least``: how many snippets
    score strictly above / at least as high; ``rank``: the 1-based rank a stable sort gives;
    ``found``: False where the snippet ranks below the kept depth and is none of the query's
    own (then the other fields read NaN / -1).
    """

    key: np.ndarray
    above: np.ndarray
    at_least: np.ndarray
    rank: np.ndarray
    found: np.ndarray

    @property
    def best(self) -> np.ndarray:
        """The best rank each snippet can take over the orders of its ties (0: not kept)."""
        return np.where(self.found, self.above + 1, 0)

    @property
    def worst(self) -> np.ndarray:
        """The worst rank each snippet can take over the orders of its ties (0: not kept)."""
        return np.where(self.found, self.at_least, 0)


@dataclass(frozen=True, eq=False)
class Ranking:
    """One model's ranking of a benchmark's corpus, kept to a bounded depth (module doc).

    ``order[q]``: corpus indices best first, -1 past the row's stored length; ``keys[q]``:
    their scores (-inf past the end). ``own_*`` (Q x G, aligned with ``own_index``) describe
    the query's own snippets wherever they rank. ``identical`` maps each compared
    (canonical, mutant) pair to whether the two scored the same for every query.
    """

    model: str
    n_corpus: int
    order: np.ndarray
    keys: np.ndarray
    own_index: np.ndarray
    own_key: np.ndarray
    own_above: np.ndarray
    own_at_least: np.ndarray
    own_rank: np.ndarray
    keep: int
    identical: dict[tuple[int, int], bool] = field(default_factory=dict)
    source: str = ""   # the model name or path it was ranked with ("" if unknown)

    @classmethod
    def from_scores(cls, model: str, scores: np.ndarray, *, keep: int | None = None,
                    own: OwnGroups | None = None, source: str = "") -> Ranking:
        """The ranking implied by a whole score matrix (``keep=None``: keep every snippet)."""
        matrix = np.asarray(scores)
        if matrix.ndim != 2:
            raise RetrieverError(f"{model}: expected a 2-D score matrix, got {matrix.ndim}-D")
        q, n = matrix.shape
        return build_ranking(model, blocks_of(matrix, block_rows(n)), q, n,
                             keep=max(1, n) if keep is None else keep, own=own, source=source)

    @property
    def shape(self) -> tuple[int, int]:
        """(queries, snippets): the whole corpus, not the kept depth."""
        return (int(self.order.shape[0]), int(self.n_corpus))

    @property
    def width(self) -> int:
        """Stored positions per row (the longest row; shorter rows are padded)."""
        return int(self.order.shape[1])

    @property
    def truncated(self) -> bool:
        """True if the ranking keeps fewer than every snippet of the corpus."""
        return self.keep < self.n_corpus

    @cached_property
    def listed(self) -> np.ndarray:
        """(Q x width) bool: is a retrieved snippet stored at each position?"""
        out = np.asarray(self.order >= 0)
        out.flags.writeable = False
        return out

    @cached_property
    def lengths(self) -> np.ndarray:
        """(Q,) how many retrieved snippets each row stores."""
        return np.asarray(self.listed.sum(axis=1), dtype=np.int64)

    def order_to(self, width: int) -> np.ndarray:
        """(Q x width) int64: the corpus index at each of the first ``width`` positions, -1
        where nothing retrieved is stored."""
        return _padded(self.order, width, -1, np.int64)

    def keys_to(self, width: int) -> np.ndarray:
        """(Q x width) float64: the score at each of the first ``width`` positions, -inf
        where nothing retrieved is stored."""
        return _padded(self.keys, width, -np.inf, np.float64)

    def check_depth(self, depth: int, what: str = "the deepest cut") -> None:
        """Raise ValueError if ``depth`` positions are not all known (a truncated ranking
        keeping fewer)."""
        if self.truncated and int(depth) > self.keep:
            raise ValueError(f"{self.model}: {what} is {depth}, but the ranking keeps only "
                             f"the top {self.keep} per query; rank with keep >= {depth}")

    def top(self, query_index: int, k: int) -> np.ndarray:
        """Corpus indices of the ``k`` best retrieved snippets of a query, best first."""
        row = self.order[query_index, : max(0, int(k))]
        return row[row >= 0]

    def lookup(self, queries: np.ndarray | Sequence[int], corpus: np.ndarray | Sequence[int]
               ) -> Lookup:
        """What the ranking knows of each (queries[i], corpus[i]) pair (see :class:`Lookup`)."""
        qs = np.asarray(queries, dtype=np.int64).ravel()
        js = np.asarray(corpus, dtype=np.int64).ravel()
        key = np.full(qs.shape, np.nan)
        above = np.full(qs.shape, -1, dtype=np.int64)
        at_least = above.copy()
        rank = above.copy()
        found = np.zeros(qs.shape, dtype=bool)
        for start in range(0, qs.size, 4096):   # bounded temporaries: 4096 x width
            part = slice(start, start + 4096)
            q, j = qs[part], js[part]
            if self.own_index.shape[1]:
                hit = self.own_index[q] == j[:, None]
                some = hit.any(axis=1)
                col = hit.argmax(axis=1)
                sel = np.flatnonzero(some)
                for out, table in ((key, self.own_key), (above, self.own_above),
                                   (at_least, self.own_at_least), (rank, self.own_rank)):
                    out[part][sel] = table[q[sel], col[sel]]
                found[part] = some
            rest = np.flatnonzero(~found[part])
            if rest.size and self.width:
                hit = self.order[q[rest]] == j[rest, None]
                some = hit.any(axis=1)
                sel, pos = rest[some], hit.argmax(axis=1)[some]
                row_keys = self.keys[q[sel]]
                k = row_keys[np.arange(sel.size), pos]
                key[part][sel] = k
                above[part][sel] = (row_keys > k[:, None]).sum(axis=1)
                at_least[part][sel] = (row_keys >= k[:, None]).sum(axis=1)
                rank[part][sel] = pos + 1
                found[part][sel] = True
            rest = np.flatnonzero(~found[part])
            if rest.size and not self.truncated:
                # every retrieved snippet is stored, so the rest were not retrieved: they
                # rank after them, in corpus order
                stored = self.order[q[rest]]
                before = ((stored >= 0) & (stored < j[rest, None])).sum(axis=1)
                retrieved = self.lengths[q[rest]]
                key[part][rest] = -np.inf
                above[part][rest] = retrieved
                at_least[part][rest] = self.n_corpus
                rank[part][rest] = retrieved + (j[rest] - before) + 1
                found[part][rest] = True
        return Lookup(key, above, at_least, rank, found)

    def score_of(self, query_index: int, corpus_index: int) -> float | None:
        """A snippet's score for a query (-inf if not retrieved); None if not kept."""
        found = self.lookup([query_index], [corpus_index])
        return float(found.key[0]) if found.found[0] else None

    def rank_of(self, query_index: int, corpus_index: int) -> int | None:
        """1-based rank of a snippet (ties in corpus order); None if not kept."""
        found = self.lookup([query_index], [corpus_index])
        return int(found.rank[0]) if found.found[0] else None

    def known_scores(self) -> np.ndarray:
        """(Q x N) float64: every score the ranking keeps, NaN elsewhere (small corpora,
        tests; a truncated ranking of a large pool should not be densified)."""
        out = np.full(self.shape, np.nan)
        rows = np.broadcast_to(np.arange(self.shape[0])[:, None], self.order.shape)
        stored = self.listed
        out[rows[stored], self.order[stored]] = self.keys[stored]
        valid = self.own_index >= 0
        own_rows = np.broadcast_to(np.arange(self.shape[0])[:, None], self.own_index.shape)
        out[own_rows[valid], self.own_index[valid]] = self.own_key[valid]
        if not self.truncated:   # every retrieved snippet is stored: the rest is -inf
            out[np.isnan(out)] = -np.inf
        return out


def _padded(array: np.ndarray, width: int, fill: float, dtype: type) -> np.ndarray:
    out: np.ndarray = np.full((array.shape[0], max(0, int(width))), fill, dtype=dtype)
    shown = min(out.shape[1], array.shape[1])
    out[:, :shown] = array[:, :shown]
    return out


class RankingBuilder:
    """Builds a :class:`Ranking` from score blocks of consecutive queries (module doc).

    Memory: one block's temporaries plus ``keep`` (+ tie overflow) entries per query.
    """

    def __init__(self, n_queries: int, n_corpus: int, *, keep: int = DEFAULT_KEEP,
                 own: OwnGroups | None = None, label: str = "scores") -> None:
        self.label = label   # the model, in every error message
        if keep < 1:
            raise ValueError(f"keep must be at least 1, got {keep}")
        self.n_queries, self.n_corpus, self.keep = int(n_queries), int(n_corpus), int(keep)
        self.own = own if own is not None else OwnGroups.empty(n_queries)
        if self.own.index.shape[0] != self.n_queries:
            raise ValueError(f"own groups for {self.own.index.shape[0]} queries, "
                             f"expected {self.n_queries}")
        g = self.own.index.shape[1]
        self._order: list[np.ndarray] = []
        self._keys: list[np.ndarray] = []
        self._own = [np.full((self.n_queries, g), np.nan)] + \
            [np.full((self.n_queries, g), -1, dtype=np.int64) for _ in range(3)]
        self._identical = np.ones(len(self.own.pairs), dtype=bool)
        self.done = 0

    def add(self, block: np.ndarray) -> None:
        """Take the scores of the next ``len(block)`` queries (rows x whole corpus)."""
        scores = np.asarray(block)
        if scores.ndim != 2 or scores.shape[1] != self.n_corpus:
            raise RetrieverError(f"{self.label}: score block has shape {scores.shape}, "
                                 f"expected (rows x {self.n_corpus})")
        if self.done + scores.shape[0] > self.n_queries:
            raise RetrieverError(f"{self.label}: score matrix has more rows than the "
                                 f"{self.n_queries} queries")
        keys = np.asarray(scores, dtype=np.float64)
        if np.isnan(keys).any():
            keys = np.where(np.isnan(keys), -np.inf, keys)
        for order, row_keys in _top_rows(keys, min(self.keep, keys.shape[1])):
            self._order.append(order)
            self._keys.append(row_keys)
        self._add_own(keys)
        if len(self.own.pairs):
            c, d = self.own.pairs[:, 0], self.own.pairs[:, 1]
            self._identical &= (keys[:, c] == keys[:, d]).all(axis=0)
        self.done += keys.shape[0]

    def _add_own(self, keys: np.ndarray) -> None:
        rows = slice(self.done, self.done + keys.shape[0])
        index = self.own.index[rows]
        r = np.arange(keys.shape[0])
        key_t, above_t, at_least_t, rank_t = (t[rows] for t in self._own)
        for g in range(index.shape[1]):
            j = index[:, g]
            valid = j >= 0
            k = keys[r, np.where(valid, j, 0)]
            above = np.count_nonzero(keys > k[:, None], axis=1)
            equal = keys == k[:, None]
            ties = np.count_nonzero(equal, axis=1)   # the snippet itself included
            # ties in corpus order: only a row where others tie needs the count before j
            before = np.zeros(keys.shape[0], dtype=np.int64)
            tied = np.flatnonzero(valid & (ties > 1))
            if tied.size:
                before[tied] = np.count_nonzero(
                    equal[tied] & (np.arange(keys.shape[1])[None, :] < j[tied, None]), axis=1)
            key_t[:, g] = np.where(valid, k, np.nan)
            above_t[:, g] = np.where(valid, above, -1)
            at_least_t[:, g] = np.where(valid, above + ties, -1)
            rank_t[:, g] = np.where(valid, above + before + 1, -1)

    def finish(self, model: str, *, source: str = "") -> Ranking:
        """The ranking, once every query's scores were added."""
        if self.done != self.n_queries:
            raise RetrieverError(f"{model}: score matrix has {self.done} rows, expected "
                                 f"{self.n_queries} (one per query)")
        width = max((len(o) for o in self._order), default=0)
        order = np.full((self.n_queries, width), -1, dtype=np.int32)
        keys = np.full((self.n_queries, width), -np.inf)
        for i, (o, k) in enumerate(zip(self._order, self._keys, strict=True)):
            order[i, :len(o)] = o
            keys[i, :len(k)] = k
        own_index = np.asarray(self.own.index, dtype=np.int64).copy()
        arrays = [order, keys, own_index, *self._own]
        for a in arrays:
            a.flags.writeable = False
        identical = {(int(c), int(d)): bool(same)
                     for (c, d), same in zip(self.own.pairs, self._identical, strict=True)}
        own_key, own_above, own_at_least, own_rank = self._own
        return Ranking(model, self.n_corpus, order, keys, own_index, own_key, own_above,
                       own_at_least, own_rank, keep=min(self.keep, self.n_corpus),
                       identical=identical, source=source)


def _top_rows(keys: np.ndarray, kk: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Each row's stored part, best first (ties in corpus order): its ``kk`` best scores
    extended to the end of the tie group at position ``kk``, never a -inf (module doc).

    One argpartition and one sort for the whole block; a row whose tie group straddles the
    cut (more than ``kk`` scores at least its ``kk``-th best) is completed on its own."""
    b, n = keys.shape
    if kk <= 0 or n == 0:
        for _ in range(b):
            yield np.zeros(0, dtype=np.int32), np.zeros(0)
        return
    if kk < n:
        top = np.argpartition(keys, n - kk, axis=1)[:, n - kk:]
        threshold = np.take_along_axis(keys, top, axis=1).min(axis=1)
        whole = np.count_nonzero(keys >= threshold[:, None], axis=1) == kk
    else:   # every snippet is kept
        top = np.broadcast_to(np.arange(n), (b, n))
        threshold = np.full(b, -np.inf)
        whole = np.ones(b, dtype=bool)
    top = np.sort(top, axis=1)   # corpus order first, so the stable sort keeps it in ties
    top_keys = np.take_along_axis(keys, top, axis=1)
    by_score = np.argsort(-top_keys, axis=1, kind="stable")
    order = np.take_along_axis(top, by_score, axis=1).astype(np.int32)
    order_keys = np.take_along_axis(top_keys, by_score, axis=1)
    retrieved = np.count_nonzero(order_keys > -np.inf, axis=1)   # -inf sorts last
    for r in range(b):
        if whole[r] or threshold[r] == -np.inf:
            # fewer than kk retrieved, or exactly kk at least the threshold: all in ``top``
            m = int(retrieved[r])
            yield order[r, :m], order_keys[r, :m]
            continue
        row = keys[r]
        idx = np.flatnonzero(row >= threshold[r])
        idx = idx[np.argsort(-row[idx], kind="stable")]
        yield idx.astype(np.int32), row[idx]


def build_ranking(model: str, blocks: Iterable[np.ndarray], n_queries: int, n_corpus: int,
                  *, keep: int = DEFAULT_KEEP, own: OwnGroups | None = None,
                  source: str = "") -> Ranking:
    """A ranking from an iterable of score blocks (consecutive queries, whole corpus)."""
    builder = RankingBuilder(n_queries, n_corpus, keep=keep, own=own, label=model)
    for block in blocks:
        builder.add(block)
    return builder.finish(model, source=source)


class Retriever(Protocol):
    """Anything that scores every snippet of a benchmark for every query.

    A retriever may also offer ``score_blocks(benchmark, *, rows, progress, should_stop)``,
    yielding the score matrix ``rows`` queries at a time; :func:`~execretrieval.ranking.
    registry.rank` then never holds more than one block (see :func:`blocks_of`).
    """

    @property
    def name(self) -> str:
        """The model name rankings are labelled with."""
        ...

    def score(
        self,
        benchmark: Benchmark,
        *,
        progress: Progress | None = None,
        should_stop: ShouldStop | None = None,
    ) -> np.ndarray:
        """Score matrix (queries x corpus), float64."""
        ...


def blocks_of(matrix: np.ndarray, rows: int) -> Iterator[np.ndarray]:
    """A whole score matrix as consecutive row blocks."""
    for start in range(0, matrix.shape[0], max(1, rows)):
        yield matrix[start:start + rows]


def stack_blocks(blocks: Iterable[np.ndarray], n_queries: int, n_corpus: int) -> np.ndarray:
    """Score blocks back into the whole (queries x corpus) float64 matrix, written block by
    block into one array (the ``score()`` of a retriever that streams)."""
    out = np.zeros((n_queries, n_corpus), dtype=np.float64)
    start = 0
    for block in blocks:
        out[start:start + len(block)] = block
        start += len(block)
    if start != n_queries:
        raise RetrieverError(f"score blocks hold {start} rows, expected {n_queries}")
    return out


class StreamingRetriever:
    """Base of a retriever that streams score blocks: its whole matrix is those blocks
    stacked (one ``score()`` for the lexical retrievers, fusions and second stages)."""

    def score(self, benchmark: Benchmark, *, progress: Progress | None = None,
              should_stop: ShouldStop | None = None) -> np.ndarray:
        """The whole score matrix (queries x corpus), float64."""
        return stack_blocks(self.score_blocks(benchmark, rows=len(benchmark.queries) or 1,
                                              progress=progress, should_stop=should_stop),
                            len(benchmark.queries), len(benchmark.corpus))

    def score_blocks(self, benchmark: Benchmark, *, rows: int,
                     progress: Progress | None = None,
                     should_stop: ShouldStop | None = None) -> Iterator[np.ndarray]:
        """The score matrix ``rows`` queries at a time."""
        raise NotImplementedError
